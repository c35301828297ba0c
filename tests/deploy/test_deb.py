"""deploy/build-deb.sh: the package holds the source tree and runs its deploy/install.sh
(deploy/ci/debian-roots.sh installs it with apt in a Debian root)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.kits.pi_machine import ROOT_DIR

BUILD = ROOT_DIR / "deploy" / "build-deb.sh"


def build(tmp_path: Path, *args: str) -> Path:
    if shutil.which("dpkg-deb") is None:
        pytest.skip("dpkg-deb is not installed (Debian's dpkg)")
    proc = subprocess.run(["bash", str(BUILD), "--out", str(tmp_path), *args], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    (deb,) = tmp_path.glob("*.deb")
    return deb


def field(deb: Path, name: str) -> str:
    return subprocess.run(["dpkg-deb", "-f", str(deb), name], capture_output=True, text=True, check=True).stdout.strip()


@pytest.mark.parametrize("arch", ["arm64", "armhf"])
def test_package_carries_the_tree_and_runs_install_sh(tmp_path: Path, arch: str) -> None:
    deb = build(tmp_path, "--arch", arch)
    assert deb.name == f"zebra-table_0.1.0_{arch}.deb"
    assert field(deb, "Architecture") == arch and field(deb, "Recommends") == "python3-lgpio"
    depends = {d.strip().split()[0] for d in field(deb, "Depends").split(",")}
    assert {"python3-venv", "fonts-dejavu-core", "i2c-tools", "systemd"} <= depends
    assert ({"python3-pil", "python3-cbor2"} <= depends) == (arch == "armhf")  # no armv7l wheels on PyPI
    listing = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True, check=True).stdout
    paths = {line.split()[-1] for line in listing.splitlines()}
    for rel in ("deploy/install.sh", "deploy/locks.sh", "deploy/requirements.lock", "deploy/zebra-table.service",
                "hw_tests/conftest.py", "firmware_host/data/sim_table.toml", "pyproject.toml"):
        assert f"./usr/share/zebra-table/src/{rel}" in paths, rel
    assert not [p for p in paths if "__pycache__" in p or "/deploy/debian/" in p]
    assert all(" root/root " in line for line in listing.splitlines())  # not the builder's own ids
    control = tmp_path / "control"
    subprocess.run(["dpkg-deb", "-e", str(deb), str(control)], check=True)
    assert 'bash "$SRC/deploy/install.sh" "$@"' in (control / "postinst").read_text()
    assert "--no-apt" in (control / "postinst").read_text()  # dpkg holds the lock: no apt inside
    assert 'install.sh" --uninstall' in (control / "prerm").read_text()
    assert 'install.sh" --uninstall --purge' in (control / "postrm").read_text()


def test_package_with_wheels_installs_offline(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    (wheels / "attrs-26.1.0-py3-none-any.whl").write_bytes(b"PK")
    deb = build(tmp_path / "out", "--arch", "amd64", "--wheelhouse", str(wheels))
    listing = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True, check=True).stdout
    assert "./usr/share/zebra-table/wheels/attrs-26.1.0-py3-none-any.whl" in listing


@pytest.mark.parametrize("args, message", [
    (["--arch", "i386"], "--arch: amd64, arm64 or armhf, not i386"),
    (["--wheelhouse", "/nonexistent"], "no wheels"),
    (["--bogus"], "unknown option: --bogus"),
])
def test_bad_options_are_refused(tmp_path: Path, args: list[str], message: str) -> None:
    proc = subprocess.run(["bash", str(BUILD), "--out", str(tmp_path), *args], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 1 and message in proc.stderr and not list(tmp_path.glob("*.deb"))
