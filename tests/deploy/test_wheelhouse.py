"""An offline install for real: install.sh --wheelhouse builds the table's venv with pip from a
wheelhouse and a lock with hashes, in a network namespace without any network (as root; CI runs
as root). The wheels are those of the libraries this test runs with, packed again from the dev
environment (./dev installs deploy/requirements.lock), so nothing is downloaded; the lock written
for them has the real lock's entries and versions, and their hashes."""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from tests.deploy.test_lock import LOCK, PLATFORMS, parse_lock
from tests.kits.pi_machine import ROOT_DIR, Machine

pytestmark = pytest.mark.slow  # real venvs filled by pip: tens of seconds each

TREE = ("pyproject.toml", "README.md", "firmware_host", "drivers", "games", "hw_tests", "deploy")


def repack(name: str, out: Path) -> Path:
    """A wheel of the installed distribution NAME, from the files its RECORD lists."""
    dist = importlib.metadata.distribution(name)
    tags = [line.split(": ", 1)[1].split("-") for line in (dist.read_text("WHEEL") or "").splitlines()
            if line.startswith("Tag: ")]
    tag = "-".join(".".join(dict.fromkeys(t[i] for t in tags)) for i in range(3))  # py2.py3-none-any
    files = [f for f in dist.files or [] if not str(f).startswith("..") and "__pycache__" not in f.parts
             and f.name not in ("RECORD", "INSTALLER", "REQUESTED", "direct_url.json")]
    info = next(f.parts[0] for f in files if f.parts[0].endswith(".dist-info"))
    wheel = out / f"{re.sub(r'[-_.]+', '_', dist.metadata['Name'])}-{dist.version}-{tag}.whl"
    record = []
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for f in files:
            data = Path(str(dist.locate_file(f))).read_bytes()
            z.writestr(str(f), data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{f},sha256={digest},{len(data)}")
        z.writestr(f"{info}/RECORD", "\n".join([*record, f"{info}/RECORD,,"]) + "\n")
    return wheel


@pytest.fixture(scope="module")
def house(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(a copy of the source tree whose lock names the repacked wheels, the wheelhouse)."""
    base = tmp_path_factory.mktemp("wheelhouse")
    wheels, src = base / "wheels", base / "src"
    wheels.mkdir()
    src.mkdir()
    for item in TREE:
        if (ROOT_DIR / item).is_dir():
            shutil.copytree(ROOT_DIR / item, src / item, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(ROOT_DIR / item, src / item)
    lines = ["# the real lock's entries, hashed as the repacked wheels"]
    for name, (version, marker, _) in parse_lock(LOCK).items():
        if marker is not None and not marker.evaluate(PLATFORMS[0]):
            continue  # not for this machine (colorama: Windows)
        assert importlib.metadata.version(name) == str(version), f"{name}: ./dev installs the lock"
        wheel = repack(name, wheels)
        lines.append(f"{name}=={version} --hash=sha256:{hashlib.sha256(wheel.read_bytes()).hexdigest()}")
    (src / "deploy/requirements.lock").write_text("\n".join(lines) + "\n")
    return src, wheels


def test_offline_install_from_a_wheelhouse(tmp_path: Path, house: tuple[Path, Path]) -> None:
    src, wheels = house
    pi = Machine(tmp_path, arch="x86_64", real_python=True, install=src / "deploy/install.sh", network=False)
    assert pi.offline_prefix or not pi.real_shadow  # root (CI): the run below has no network at all
    first = pi.run("--wheelhouse", str(wheels), offline=True, timeout=600)
    assert "Done:" in first.stdout and "(offline: " in first.stdout
    python = pi.path("/opt/zebra-table/venv/bin/python")
    version = subprocess.run([python, "-m", "firmware_host.commands.main", "--version"], capture_output=True,
                             text=True, timeout=60)
    assert version.returncode == 0 and version.stdout.split() == ["zebra-table", "0.1.0"], version
    libraries = subprocess.run([python, "-c", "import aiohttp, PIL, luma.oled.device, pytest, segno; "
                                "print(PIL.__version__, aiohttp.__version__)"], capture_output=True, text=True,
                               timeout=60)
    assert libraries.stdout.split() == [importlib.metadata.version("pillow"), importlib.metadata.version("aiohttp")]
    site = next(pi.path("/opt/zebra-table/venv/lib").glob("python3*/site-packages"))
    assert (site / "aiohttp").is_dir() and (site / "PIL").is_dir()  # in the venv, not borrowed from the system
    second = pi.run("--wheelhouse", str(wheels), offline=True)
    assert second.stdout.strip().endswith("Nothing to change: zebra-table is installed as wanted.")


def test_a_wheel_not_in_the_lock_is_refused(tmp_path: Path, house: tuple[Path, Path]) -> None:
    """A wheel whose hash the lock does not give is not installed: the run stops and names the step."""
    src, wheels = house
    tampered = tmp_path / "wheels"
    shutil.copytree(wheels, tampered)
    segno = next(tampered.glob("segno-*.whl"))
    with zipfile.ZipFile(segno, "a") as z:
        z.writestr("segno/extra.py", "# not what the lock hashed\n")
    pi = Machine(tmp_path / "m", arch="x86_64", real_python=True, install=src / "deploy/install.sh", network=False)
    proc = pi.run("--wheelhouse", str(tampered), offline=True, ok=False, timeout=600)
    assert proc.returncode == 1 and "THESE PACKAGES DO NOT MATCH THE HASHES" in proc.stdout + proc.stderr
    assert "install.sh: failed: package zebra-table" in proc.stderr


def test_no_network_is_said_before_pip_tries(tmp_path: Path, house: tuple[Path, Path]) -> None:
    """In a network namespace without network, the run stops at once and says what to do."""
    src, _ = house
    pi = Machine(tmp_path, arch="x86_64", real_python=True, install=src / "deploy/install.sh")
    if not pi.offline_prefix:
        pytest.skip("a network namespace needs root (CI runs as root)")
    proc = pi.run(offline=True, ok=False)
    last = proc.stderr.strip().splitlines()[-1]
    assert proc.returncode == 1 and last.startswith("install.sh: no network: pip's index http"), proc.stderr
    assert "cannot be reached (<urlopen error" in last and "--wheelhouse DIR" in last
    assert "Retrying" not in proc.stderr and "Traceback" not in proc.stderr
