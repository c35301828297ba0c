"""deploy/install.sh converges: a failed step stops the run and names it, a failed activation is
finished by the next run, a root without a running systemd installs and uninstalls cleanly,
plain Debian gets lgpio elsewhere, the config stays private, --uninstall/--purge undo what the
install did (tests/kits/pi_machine.py: the stand-ins and the throwaway root)."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from tests.kits.pi_machine import CMDLINE, Machine

pytestmark = pytest.mark.slow  # install.sh run many times: a few seconds each, minutes in all


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_config_is_private_and_a_rerun_never_opens_it(tmp_path: Path) -> None:
    pi = Machine(tmp_path)
    pi.run()
    config, folder = pi.path("/etc/zebra-table/table.toml"), pi.path("/etc/zebra-table")
    assert (mode(config), mode(folder)) == (0o640, 0o750)
    assert pi.run().stdout.strip().endswith("Nothing to change: zebra-table is installed as wanted.")
    assert (mode(config), mode(folder)) == (0o640, 0o750)  # the locked-down folder stays so
    config.chmod(0o644)  # opened by hand (or by an older installer): closed again
    folder.chmod(0o755)
    out = pi.run().stdout
    assert "config /etc/zebra-table/table.toml: mode 0640" in out and "directory /etc/zebra-table: mode 0750" in out
    assert (mode(config), mode(folder)) == (0o640, 0o750)


def test_a_failed_step_stops_the_run_and_names_it(tmp_path: Path) -> None:
    pi = Machine(tmp_path, readonly=("/etc/modules-load.d",))
    proc = pi.run(ok=False)
    assert proc.returncode != 0
    assert "failed: kernel modules /etc/modules-load.d/zebra-table.conf" in proc.stderr
    assert "Read-only file system" in proc.stderr
    assert "Done:" not in proc.stdout
    assert not any(c[0] == "useradd" for c in pi.calls())  # nothing after the failed step


@pytest.mark.parametrize("command, step, pending", [
    ("udevadm control --reload-rules", "udev rules reloaded", "udev"),
    ("systemctl daemon-reload", "systemd units reloaded", "daemon-reload"),
    ("systemctl restart zebra-table.service", "service zebra-table (re)started", "restart"),
])
def test_a_failed_activation_is_finished_by_the_next_run(tmp_path: Path, command: str, step: str,
                                                         pending: str) -> None:
    pi = Machine(tmp_path, booted=True, fail_once=(command,))
    restart = command.startswith("systemctl restart")
    first = pi.run(ok=restart)
    if restart:  # the first install asks for a reboot, not a restart: a later change restarts
        pi.path("/etc/default/zebra-table").unlink()
        first = pi.run(ok=False)
    assert first.returncode != 0 and f"failed: {step}" in first.stderr and command in first.stderr
    assert "Done:" not in first.stdout
    assert pending in pi.path("/var/lib/zebra-table-install/pending").read_text().split()

    second = pi.run()
    assert f"{step} (left to do by the last run)" in second.stdout
    assert ["chroot", str(pi.root), *command.split()] in pi.calls()
    assert not pi.path("/var/lib/zebra-table-install/pending").exists()
    third = pi.run()
    assert third.stdout.strip().endswith("Nothing to change: zebra-table is installed as wanted.")
    assert pi.changing_calls() == []


def test_a_root_without_systemd_running_installs_and_uninstalls_with_status_0(tmp_path: Path) -> None:
    pi = Machine(tmp_path, booted=False)  # a chroot, a container, an image being built
    out = pi.run().stdout
    assert "systemd not running there: nothing is started" in out
    assert "skipped  udev daemon-reload: systemd is not running here" in out
    assert not any(c[0] == "chroot" for c in pi.calls())
    assert pi.path("/etc/systemd/system/multi-user.target.wants/zebra-table.service").is_symlink()
    out = pi.run("--uninstall").stdout
    assert "Done:" in out and not any(c[0] == "chroot" for c in pi.calls())
    assert not pi.path("/etc/systemd/system/zebra-table.service").exists()


def test_uninstall_on_a_running_system_stops_the_service_and_reloads(tmp_path: Path) -> None:
    pi = Machine(tmp_path, booted=True)
    pi.run()
    pi.run("--uninstall")
    inner = [c[2:] for c in pi.calls() if c[0] == "chroot"]
    assert inner[0] == ["systemctl", "stop", "zebra-table.service"]
    assert ["udevadm", "control", "--reload-rules"] in inner and ["systemctl", "daemon-reload"] in inner


def test_uninstall_removes_what_it_can_and_says_what_it_could_not(tmp_path: Path) -> None:
    pi = Machine(tmp_path, booted=True, fail_once=("systemctl stop",))
    pi.run()
    proc = pi.run("--uninstall", ok=False)
    assert proc.returncode == 1
    assert "Could not be done" in proc.stderr and "service zebra-table stopped" in proc.stderr
    for rel in ("/etc/systemd/system/zebra-table.service", "/etc/udev/rules.d/99-zebra-table-reader.rules",
                "/opt/zebra-table", "/usr/local/bin/zebra-table"):
        assert not pi.path(rel).exists(), rel


def test_uninstall_puts_the_serial_console_back(tmp_path: Path) -> None:
    pi = Machine(tmp_path, model="Raspberry Pi 4 Model B Rev 1.5")
    pi.run("--uart")
    assert "console=serial0" not in pi.path("/boot/firmware/cmdline.txt").read_text()
    assert "Nothing to change" in pi.run("--uart").stdout
    out = pi.run("--uninstall").stdout
    assert "serial console put back on the UART" in out
    assert pi.path("/boot/firmware/cmdline.txt").read_text() == CMDLINE


def test_uninstall_leaves_a_command_line_edited_since_and_says_so(tmp_path: Path) -> None:
    pi = Machine(tmp_path, model="Raspberry Pi 4 Model B Rev 1.5")
    pi.run("--uart")
    cmdline = pi.path("/boot/firmware/cmdline.txt")
    cmdline.write_text(cmdline.read_text().replace("rootwait", "rootwait quiet"))
    edited = cmdline.read_text()
    proc = pi.run("--uninstall", ok=False)
    assert proc.returncode == 1 and "console=serial0,115200" in proc.stderr
    assert cmdline.read_text() == edited  # the owner's line is not overwritten


def test_purge_removes_the_groups_the_install_created_and_only_those(tmp_path: Path) -> None:
    pi = Machine(tmp_path)
    for name in ("group", "gshadow"):  # a Debian without the gpio group
        f = pi.path(f"/etc/{name}")
        f.write_text("".join(line for line in f.read_text().splitlines(True) if not line.startswith("gpio:")))
    pi.run()
    assert pi.members("gpio") == {"zebra-table"}
    pi.run("--uninstall")
    assert pi.members("gpio") == {"zebra-table"}  # the user and its groups stay until --purge
    out = pi.run("--uninstall", "--purge").stdout
    assert "remove group gpio (created by the install)" in out
    groups = {line.split(":")[0] for line in pi.path("/etc/group").read_text().splitlines()}
    assert "gpio" not in groups and "i2c" not in groups and "dialout" in groups  # dialout was there before
    assert not pi.path("/var/lib/zebra-table-install").exists()


def test_purge_keeps_a_created_group_someone_else_joined(tmp_path: Path) -> None:
    pi = Machine(tmp_path)
    pi.run()
    group = pi.path("/etc/group")
    group.write_text(group.read_text().replace("i2c:x:", "i2c:x:", 1))
    lines = [line + ("pi" if line.startswith("i2c:") and line.endswith(":") else ",pi" if line.startswith("i2c:")
                     else "") for line in group.read_text().splitlines()]
    group.write_text("\n".join(lines) + "\n")
    out = pi.run("--uninstall", "--purge").stdout
    assert "kept     group i2c (created by the install): it has members now (pi)" in out
    assert "pi" in pi.members("i2c")


@pytest.mark.parametrize("arch, source", [("aarch64", "pypi"), ("armv7l", "pypi"), ("x86_64", "none")])
def test_plain_debian_without_python3_lgpio(tmp_path: Path, arch: str, source: str) -> None:
    pi = Machine(tmp_path, rpi_archive=False, arch=arch)
    out = pi.run().stdout
    assert "python3-lgpio (the GPIO library for buttons and buzzer) is only in the Raspberry Pi OS archive" in out
    install = next(c for c in pi.calls() if c[0] == "apt-get" and "install" in c)
    assert "python3-lgpio" not in install and install[5:7] == ["fonts-dejavu-core", "i2c-tools"]
    locks = [Path(c[c.index("-r") + 1]).name for c in pi.pip_calls() if "-r" in c]
    if source == "pypi":
        assert "lgpio==0.2.2.0, a wheel for " + arch in out and locks == ["requirements.lock", "lgpio.lock"]
    else:
        assert "going on without GPIO" in out and locks == ["requirements.lock"]
    second = pi.run()
    assert second.stdout.strip().endswith("Nothing to change: zebra-table is installed as wanted.")
    assert pi.changing_calls() == []


def test_scripts_installed_under_root_name_the_target_path(tmp_path: Path) -> None:
    pi = Machine(tmp_path)  # a staging root: the tree is copied to / later, where the root is gone
    pi.run()
    script = pi.path("/opt/zebra-table/venv/bin/pytest").read_text()
    assert script.splitlines()[0] == "#!/opt/zebra-table/venv/bin/python"
    assert str(pi.root) not in script


@pytest.mark.parametrize("pip_conf, route", [
    (None, "debian"),
    ("[global]\nextra-index-url=https://www.piwheels.org/simple\n", "piwheels"),  # Raspberry Pi OS's
])
def test_armhf_takes_pillow_and_cbor2_from_debian_or_piwheels(tmp_path: Path, pip_conf: str | None,
                                                               route: str) -> None:
    """PyPI has no armv7l wheels of Pillow and cbor2: pip would try to compile them and fail."""
    pi = Machine(tmp_path, arch="armv7l", pip_conf=pip_conf)
    out = pi.run().stdout
    install = next(c for c in pi.calls() if c[0] == "apt-get" and "install" in c)
    pips = pi.pip_calls()
    lock = pips[-2][pips[-2].index("-r") + 1]
    assert Path(lock).name == "requirements.lock"
    if route == "debian":
        assert install[-2:] == ["python3-pil", "python3-cbor2"] and len(pips) == 2
        assert "PyPI has no armv7l wheels of pillow cbor2: Debian's packages instead" in out
    else:
        assert "python3-pil" not in install
        assert pips[0][-3:] == ["--no-deps", "cbor2==6.3.0", "pillow==13.0.0"]  # the locked versions
    second = pi.run()
    assert second.stdout.strip().endswith("Nothing to change: zebra-table is installed as wanted.")


@pytest.mark.parametrize("arch", ["aarch64", "x86_64"])
def test_other_architectures_take_every_library_from_the_lock(tmp_path: Path, arch: str) -> None:
    pi = Machine(tmp_path, arch=arch, pip_conf="[global]\nextra-index-url=https://www.piwheels.org/simple\n")
    pi.run()
    install = next(c for c in pi.calls() if c[0] == "apt-get" and "install" in c)
    assert "python3-pil" not in install and len(pi.pip_calls()) == 2


def test_no_network_is_said_at_once(tmp_path: Path) -> None:
    pi = Machine(tmp_path, network=False)
    proc = pi.run(ok=False)
    assert proc.returncode == 1 and pi.pip_calls() == []
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("install.sh: no network: pip's index the default index cannot be reached")
    assert "--wheelhouse DIR" in last and "Traceback" not in proc.stderr


def test_wheelhouse_installs_without_the_network(tmp_path: Path) -> None:
    pi = Machine(tmp_path, network=False)
    house = tmp_path / "wheels"
    house.mkdir()
    (house / "attrs-26.1.0-py3-none-any.whl").write_bytes(b"")
    pi.run("--wheelhouse", str(house))
    assert all(c[c.index("--find-links") + 1] == str(house) and "--no-index" in c for c in pi.pip_calls())
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = pi.run("--wheelhouse", str(empty), ok=False)
    assert proc.returncode == 1 and "no wheels there" in proc.stderr
