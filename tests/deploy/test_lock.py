"""deploy/requirements.lock against pyproject.toml: every dependency pinned within its range, with
its hashes, for every platform a table runs on; and nothing else but the table's test tools."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.kits.pi_machine import ROOT_DIR

LOCK = ROOT_DIR / "deploy" / "requirements.lock"
# the tables' platforms: amd64 (tests, a PC), arm64 and armhf Raspberry Pi OS, all Python 3.11
PLATFORMS = [{"platform_machine": m, "sys_platform": "linux", "platform_system": "Linux", "python_version": "3.11",
              "python_full_version": "3.11.2", "implementation_name": "cpython",
              "platform_python_implementation": "CPython", "os_name": "posix", "extra": ""}
             for m in ("x86_64", "aarch64", "armv7l")]


def parse_lock(path: Path) -> dict[str, tuple[Version, Marker | None, list[str]]]:
    """name -> (version, marker, hashes) of a lock in pip's requirements format."""
    out: dict[str, tuple[Version, Marker | None, list[str]]] = {}
    name = ""
    for line in path.read_text().splitlines():
        if re.match(r"[A-Za-z0-9]", line):
            req = Requirement(line.rstrip(" \\"))
            (spec,) = req.specifier
            assert spec.operator == "==", line
            name = canonicalize_name(req.name)
            out[name] = (Version(spec.version), req.marker, [])
        elif line.strip().startswith("--hash="):
            out[name][2].append(line.strip().rstrip(" \\").removeprefix("--hash="))
    return out


def wanted() -> list[Requirement]:
    """pyproject's dependencies and the test tools of deploy/hw-tests.in."""
    project = tomllib.loads((ROOT_DIR / "pyproject.toml").read_text())["project"]["dependencies"]
    tools = [line for line in (ROOT_DIR / "deploy/hw-tests.in").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    return [Requirement(r) for r in [*project, *tools]]


def requirements_of(name: str, version: Version) -> list[Requirement]:
    """A locked package's own requirements, from the dev environment (./dev installs the lock)."""
    dist = importlib.metadata.distribution(name)
    if Version(dist.version) != version:
        raise LookupError(f"{name}: {dist.version} installed, {version} locked (./dev installs the lock)")
    return [Requirement(r) for r in dist.requires or []]


def test_every_entry_is_pinned_with_hashes() -> None:
    lock = parse_lock(LOCK)
    assert len(lock) > 10
    for name, (_, _, hashes) in lock.items():
        assert hashes and all(re.fullmatch(r"sha256:[0-9a-f]{64}", h) for h in hashes), name


def lock_problems(path: Path) -> list[str]:
    """What is wrong with a lock: a dependency missing or out of range, an entry nothing needs."""
    lock = parse_lock(path)
    problems: list[str] = []
    for env in PLATFORMS:
        here = env["platform_machine"]
        needed: set[str] = set()
        todo = [r for r in wanted() if r.marker is None or r.marker.evaluate(env)]
        while todo:
            req = todo.pop()
            name = canonicalize_name(req.name)
            if name not in lock:
                problems.append(f"{here}: {name} ({req}) is not locked")
                continue
            version, marker, _ = lock[name]
            if marker is not None and not marker.evaluate(env):
                problems.append(f"{here}: {name} is locked away from {here}")
            if not req.specifier.contains(version, prereleases=True):
                problems.append(f"{here}: {name}=={version} is outside {req}")
            if name not in needed:
                needed.add(name)
                try:
                    todo += [r for r in requirements_of(name, version) if r.marker is None or r.marker.evaluate(env)]
                except LookupError as exc:
                    problems.append(f"{here}: {exc}")
        for_here = {n for n, (_, m, _) in lock.items() if m is None or m.evaluate(env)}
        problems += [f"{here}: {n} is locked but needed by nothing" for n in sorted(for_here - needed)]
    return problems


def test_lock_holds_what_pyproject_needs_and_nothing_more_on_each_platform() -> None:
    assert lock_problems(LOCK) == []


def test_lgpio_lock_pins_the_wheel_the_installer_names() -> None:
    (line,) = [ln for ln in (ROOT_DIR / "deploy/lgpio.in").read_text().splitlines() if ln and ln[0] != "#"]
    req = Requirement(line)
    lock = parse_lock(ROOT_DIR / "deploy/lgpio.lock")
    assert list(lock) == ["lgpio"] and req.specifier.contains(lock["lgpio"][0]) and lock["lgpio"][2]


def test_a_broken_lock_is_refused(tmp_path: Path) -> None:
    text = LOCK.read_text()
    broken = tmp_path / "requirements.lock"
    broken.write_text(re.sub(r"(?ms)^yarl==.*?(?=^[a-z]|\Z)", "", text))  # a dependency of aiohttp gone
    assert "x86_64: yarl (yarl<2.0,>=1.25.1) is not locked" in lock_problems(broken)
    broken.write_text(text.replace("pillow==13.0.0", "pillow==14.0.0"))  # past pyproject's bound
    assert "armv7l: pillow==14.0.0 is outside Pillow<14,>=9.4; platform_machine == \"armv7l\"" in lock_problems(broken)
    broken.write_text(text + "six==1.17.0 \\\n    --hash=sha256:" + "0" * 64 + "\n")  # needed by nothing
    assert lock_problems(broken) == [f"{m}: six is locked but needed by nothing" for m in ("x86_64", "aarch64", "armv7l")]
