"""Stand-ins and a throwaway Raspberry Pi OS root for deploy/install.sh (test_install.py).

Every command that could touch the real system is a stand-in that records its call and refuses
(exit 99) any target outside the throwaway root or the temp dir: package tools are emulated,
shadow tools and systemctl run for real when they can work on the root alone (useradd --prefix,
systemctl --root) and are emulated otherwise. A running systemd and udev (what a root cannot
have) are emulated behind `chroot ROOT systemctl|udevadm ...`, and can be told to fail once; a
read-only folder is emulated by the file tools (a root user may write anywhere). The tests here
check that safety net itself (tests/deploy/test_machine.py).
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

ROOT_DIR = Path(__file__).resolve().parents[2]
INSTALL = ROOT_DIR / "deploy" / "install.sh"

PACKAGES = ["python3-venv", "python3-lgpio", "fonts-dejavu-core", "i2c-tools"]
DEBIAN_ONLY = ["python3-pil", "python3-cbor2"]  # installed only on armhf: PyPI has no armv7l wheels
SHADOW = ("useradd", "groupadd", "usermod", "userdel", "groupdel")
WRAPPED = ("mkdir", "chmod", "chown", "install", "rm", "ln", "cp", "sed")
HOST_ONLY = ("udevadm", "modprobe", "raspi-config", "reboot")
SBIN = ("/usr/sbin", "/sbin", "/usr/bin", "/bin")

FAKE = r'''
import os, sys

# a stand-in runs some sixty times an install: json and shutil (re, enum, collections: half of
# its start-up) are imported only where used; a call is logged as the repr of its argv
E = os.environ
name = os.path.basename(sys.argv[0])
args = sys.argv[1:]
root, tmp, state = E["FAKE_ROOT"], E["FAKE_TMP"], E["FAKE_STATE"]
with open(E["FAKE_LOG"], "a") as log:
    log.write(repr([name] + args) + "\n")


def fail(msg):
    sys.stderr.write("stand-in " + name + ": " + msg + "\n")
    sys.exit(99)


def inside(path, *bases):
    path = os.path.abspath(path)
    return any(path == b or path.startswith(b + "/") for b in bases)


def real_exec(argv):
    for d in E["FAKE_PATH"].split(":") + ["/usr/sbin", "/sbin", "/usr/bin", "/bin"]:
        exe = os.path.join(d, name)
        if d and os.path.isfile(exe) and os.access(exe, os.X_OK):
            os.execv(exe, [name] + argv)
    fail("no real " + name)


def operands(argv):
    return [a for a in argv if not a.startswith("-")]


def read(path):
    with open(path) as f:
        return [line.rstrip("\n").split(":") for line in f if line.strip()]


def write(path, rows):
    with open(path, "w") as f:
        f.writelines(":".join(r) + "\n" for r in rows)


def next_id(rows):
    used = {int(r[2]) for r in rows}
    return str(max(i for i in range(100, 1000) if i not in used))


def readonly_target(path):
    for d in filter(None, E.get("FAKE_READONLY", "").split(":")):
        if inside(path, d):
            sys.stderr.write(name + ": cannot create '" + path + "': Read-only file system\n")
            sys.exit(1)


def shadow():
    import argparse
    if len(args) < 2 or args[0] != "--prefix" or args[1] != root:
        fail("must be given --prefix " + root + " first")
    if E.get("FAKE_REAL_SHADOW") == "1":
        real_exec(args)
    p = argparse.ArgumentParser(prog=name)
    p.add_argument("--prefix", required=True)
    p.add_argument("name")
    if name == "groupadd":
        p.add_argument("--system", action="store_true", required=True)
    elif name == "useradd":
        for flag in ("--system", "--user-group", "--no-create-home"):
            p.add_argument(flag, action="store_true", required=True)
        for opt in ("--home-dir", "--shell", "--comment", "--groups"):
            p.add_argument(opt, required=True)
    elif name == "usermod":
        p.add_argument("--append", action="store_true", required=True)
        p.add_argument("--groups", required=True)
    o = p.parse_args(args)
    pw, gr = root + "/etc/passwd", root + "/etc/group"
    users, groups = read(pw), read(gr)
    byname = {g[0]: g for g in groups}
    if name == "groupadd":
        if o.name in byname:
            sys.exit(9)
        groups.append([o.name, "x", next_id(groups), ""])
    elif name == "useradd":
        if any(u[0] == o.name for u in users) or o.name in byname:
            sys.exit(9)
        gid = next_id(groups)
        groups.append([o.name, "x", gid, ""])
        users.append([o.name, "x", next_id(users), gid, o.comment, o.home_dir, o.shell])
    if name in ("useradd", "usermod"):
        for g in o.groups.split(","):
            if g not in byname:
                fail("group " + g + " does not exist")
            members = [m for m in byname[g][3].split(",") if m]
            byname[g][3] = ",".join(members + [o.name] * (o.name not in members))
    if name == "groupdel":
        if o.name not in byname:
            sys.exit(6)
        groups = [g for g in groups if g[0] != o.name]
    if name == "userdel":
        users = [u for u in users if u[0] != o.name]
        groups = [g for g in groups if g[0] != o.name]
        for g in groups:
            g[3] = ",".join(m for m in g[3].split(",") if m and m != o.name)
    write(pw, users)
    write(gr, groups)


def systemctl():
    if not args or args[0] != "--root=" + root:
        fail("must be given --root=" + root + " first")
    if E.get("FAKE_REAL_SYSTEMCTL") == "1":
        real_exec(args)
    verb, unit = [a for a in args[1:] if not a.startswith("-")]
    wants = root + "/etc/systemd/system/multi-user.target.wants/" + unit
    if verb == "is-enabled":
        print("enabled" if os.path.islink(wants) else "disabled")
        sys.exit(0 if os.path.islink(wants) else 1)
    if verb == "enable":
        os.makedirs(os.path.dirname(wants), exist_ok=True)
        os.symlink("/etc/systemd/system/" + unit, wants)
    elif verb == "disable":
        os.unlink(wants)
    else:
        fail("unexpected " + verb)


def dpkg_query():
    with open(state + "/installed") as f:
        have = f.read().split()
    if args[-1] in have:
        print("installed", end="")
    else:
        sys.stderr.write("dpkg-query: no packages found matching " + args[-1] + "\n")
        sys.exit(1)


def archive():
    with open(state + "/archive") as f:
        return f.read().split()


def apt_cache():
    if operands(args)[:1] != ["policy"] or len(operands(args)) != 2:
        fail("expected apt-cache policy PACKAGE")
    package = operands(args)[1]
    if package in archive():
        print(package + ":\n  Installed: (none)\n  Candidate: 1.0-1\n")


def apt_get():
    verb = operands(args)[0]
    if verb == "install":
        if "-y" not in args:
            fail("apt-get install needs -y without a terminal")
        for p in operands(args)[1:]:
            if p not in archive():
                sys.stderr.write("E: Unable to locate package " + p + "\n")
                sys.exit(100)
        with open(state + "/installed", "a") as f:
            f.writelines(p + "\n" for p in operands(args)[1:])
    elif verb != "update":
        fail("unexpected apt-get " + verb)


def python3():
    if args[:2] != ["-m", "venv"] or "--system-site-packages" not in args:
        fail("expected python3 -m venv --system-site-packages DIR")
    venv = operands(args)[-1]
    if not inside(venv, root):
        fail(venv + " is outside the root")
    if E.get("FAKE_REAL_PYTHON") == "1":  # a real venv: pip then runs for real in it
        os.execv(E["FAKE_BASE_PY"], [E["FAKE_BASE_PY"]] + args)
    os.makedirs(venv + "/bin")
    os.symlink(E["FAKE_PROGRAM"], venv + "/bin/python")
    with open(venv + "/pyvenv.cfg", "w") as f:
        f.write("include-system-site-packages = true\n")


def venv_python():
    import json
    import shutil
    venv = os.path.dirname(os.path.dirname(sys.argv[0]))
    if args[:2] == ["-m", "firmware_host.storage.sandbox"] or args[:2] == ["-m", "firmware_host.commands.main"]:
        os.environ["PYTHONPATH"] = venv + "/lib/site"  # the installed module, run for real
        os.execv(E["FAKE_PY"], [E["FAKE_PY"]] + args)
    if args[:1] == ["-c"] and "urlopen" in args[1]:  # the network preflight
        if E.get("FAKE_NETWORK") != "1":
            url = args[2] or "the default index"
            sys.exit(url + " cannot be reached (<urlopen error [Errno -3] Temporary failure in name resolution>)")
        return
    if args[:3] != ["-m", "pip", "install"]:
        fail("expected -m pip install")
    rest = args[3:]
    with open(state + "/pip", "a") as f:
        f.write(json.dumps(rest) + "\n")
    if "-r" in rest:
        lock = rest[rest.index("-r") + 1]
        if "--require-hashes" not in rest or not inside(lock, tmp):
            fail("a lock is installed with --require-hashes from a staged copy")
        return
    if "--no-deps" in rest:  # pins without hashes (piwheels)
        return
    src = operands(rest)[-1]
    text = open(src + "/pyproject.toml").read()
    if 'name = "zebra-table"' not in text or not inside(src, tmp) or "--no-index" not in rest:
        fail(src + " is not a staged copy of the zebra-table source, installed with --no-index")
    site = venv + "/lib/site"
    shutil.rmtree(site, ignore_errors=True)
    shutil.copytree(src, site)
    if not os.path.lexists(venv + "/bin/zebra-table"):
        os.symlink(E["FAKE_PROGRAM"], venv + "/bin/zebra-table")
    with open(venv + "/bin/pytest", "w") as f:  # as pip writes a script: the venv's python, by its path
        f.write("#!" + venv + "/bin/python\n# -*- coding: utf-8 -*-\nimport sys\n")
    os.chmod(venv + "/bin/pytest", 0o755)


def zebra_table():
    venv = os.path.dirname(os.path.dirname(sys.argv[0]))
    os.environ["PYTHONPATH"] = venv + "/lib/site"
    os.execv(E["FAKE_PY"], [E["FAKE_PY"], "-m", "firmware_host.commands.main"] + args)


def guarded():
    ops = operands(args)
    if name == "sed" and "-i" not in args:
        real_exec(args)
    targets = ops if name in ("mkdir", "rm") else ops[-1:]
    if name == "install" and "-d" in args:
        targets = ops[1:] if "-m" in args else ops
    if name in ("chmod", "chown"):
        targets = ops[1:]
    for t in targets:
        if not inside(t, root, tmp):
            fail(t + " is outside the throwaway root")
        readonly_target(t)
    real_exec(args)


def fails_once(command):
    """A command listed in FAKE_FAIL_ONCE fails the first time it is run, as a busy system's can."""
    for i, wanted in enumerate(filter(None, E.get("FAKE_FAIL_ONCE", "").split("|"))):
        marker = state + "/failed-" + str(i)
        if command.startswith(wanted) and not os.path.exists(marker):
            open(marker, "w").close()
            sys.stderr.write("Failed to run " + command + ": Connection timed out (failing once)\n")
            sys.exit(1)


def chroot():
    """The target's running systemd and udev, reached through its root."""
    if not args or args[0] != root:
        fail("must chroot into " + root)
    inner = args[1:]
    if not os.path.isdir(root + "/run/systemd/system"):
        sys.stderr.write("System has not been booted with systemd as init system (PID 1). Can't operate.\n")
        sys.exit(1)
    allowed = (["udevadm", "control", "--reload-rules"], ["udevadm", "trigger"], ["systemctl", "daemon-reload"],
               ["systemctl", "restart", "zebra-table.service"], ["systemctl", "stop", "zebra-table.service"])
    if not any(inner[:len(a)] == a for a in allowed):
        fail("unexpected " + " ".join(inner))
    fails_once(" ".join(inner))


def uname():
    if args != ["-m"]:
        real_exec(args)  # a query (Python's platform module asks for -rs): only the architecture is emulated
    print(E["FAKE_ARCH"])


if name in ("useradd", "groupadd", "usermod", "userdel", "groupdel"):
    shadow()
elif name == "systemctl":
    systemctl()
elif name == "dpkg-query":
    dpkg_query()
elif name == "apt-get":
    apt_get()
elif name == "apt-cache":
    apt_cache()
elif name == "chroot":
    chroot()
elif name == "uname":
    uname()
elif name == "python3":
    python3()
elif name == "python":
    venv_python()
elif name == "zebra-table":
    zebra_table()
elif name in ("mkdir", "chmod", "chown", "install", "rm", "ln", "cp", "sed"):
    guarded()
else:
    fail("must not be called in a throwaway root")
'''

CONFIG_TXT = """# For more options and information see http://rptl.io/configtxt
#dtparam=i2c_arm=on
#dtparam=spi=on
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
disable_fw_kms_setup=1
arm_64bit=1

[cm4]
otg_mode=1

[all]
"""
CMDLINE = "console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 fsck.repair=yes rootwait\n"


def find_real(name: str) -> str | None:
    """The real tool, looked up on PATH and in the sbin directories."""
    return shutil.which(name, path=os.pathsep.join([os.environ.get("PATH", ""), *SBIN]))


class Machine:
    """A throwaway Raspberry Pi OS root and the stand-ins that run install.sh against it."""

    def __init__(self, base: Path, model: str = "Raspberry Pi 5 Model B Rev 1.0",
                 real_shadow: bool | None = None, rpi_archive: bool = True, arch: str = "aarch64",
                 booted: bool = False, fail_once: tuple[str, ...] = (), readonly: tuple[str, ...] = (),
                 network: bool = True, pip_conf: str | None = None, real_python: bool = False,
                 install: Path = INSTALL):
        self.base = base
        self.root = base / "root"
        self.tmp = base / "tmp"
        self.state = base / "state"
        self.bin = base / "bin"
        self.log = base / "calls.jsonl"
        for d in (self.root / "etc", self.root / "proc/device-tree", self.root / "boot/firmware",
                  self.tmp, self.state, self.bin):
            d.mkdir(parents=True)
        etc = self.root / "etc"
        (etc / "os-release").write_text('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\n'
                                        'VERSION_ID="12"\nVERSION_CODENAME=bookworm\nID=debian\n')
        (etc / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\npi:x:1000:1000:,,,:/home/pi:/bin/bash\n")
        (etc / "group").write_text("root:x:0:\ndialout:x:20:pi\ngpio:x:993:pi\npi:x:1000:\n")
        (etc / "shadow").write_text("root:*:19000:0:99999:7:::\npi:*:19000:0:99999:7:::\n")
        (etc / "gshadow").write_text("root:*::\ndialout:*::pi\ngpio:!::pi\npi:!::\n")
        (self.root / "proc/device-tree/model").write_bytes(model.encode() + b"\0")
        (self.root / "boot/firmware/config.txt").write_text(CONFIG_TXT)
        (self.root / "boot/firmware/cmdline.txt").write_text(CMDLINE)
        (self.state / "installed").write_text("python3-venv\n")
        # Raspberry Pi OS is Debian plus the Raspberry Pi archive, the only one with python3-lgpio
        (self.state / "archive").write_text("\n".join([*(p for p in PACKAGES if rpi_archive or p != "python3-lgpio"),
                                                        *DEBIAN_ONLY]))
        if pip_conf is not None:  # Raspberry Pi OS's names piwheels
            (etc / "pip.conf").write_text(pip_conf)
        if booted:  # systemd runs the target (sd_booted): activation goes through chroot ROOT ...
            (self.root / "run/systemd/system").mkdir(parents=True)
        program = self.bin / "stand-in"
        program.write_text(f"#!{sys.executable} -S\n" + FAKE)
        program.chmod(0o755)
        for name in (*SHADOW, *WRAPPED, *HOST_ONLY, "systemctl", "dpkg-query", "apt-get", "apt-cache", "python3",
                     "chroot", "uname"):
            (self.bin / name).symlink_to(program)
        root_user = os.geteuid() == 0
        if real_shadow is None:
            real_shadow = root_user and all(find_real(n) for n in SHADOW)
        self.real_shadow = real_shadow
        self.env = {
            **os.environ,
            "PATH": f"{self.bin}{os.pathsep}{os.environ.get('PATH', '')}",
            "TMPDIR": str(self.tmp),
            "FAKE_ROOT": str(self.root), "FAKE_TMP": str(self.tmp), "FAKE_STATE": str(self.state),
            "FAKE_LOG": str(self.log), "FAKE_PATH": os.environ.get("PATH", ""),
            "FAKE_PROGRAM": str(program), "FAKE_PY": sys.executable,
            "FAKE_REAL_SHADOW": "1" if real_shadow else "0",
            "FAKE_REAL_SYSTEMCTL": "1" if find_real("systemctl") else "0",
            "FAKE_ARCH": arch, "FAKE_FAIL_ONCE": "|".join(fail_once), "FAKE_NETWORK": "1" if network else "0",
            "FAKE_READONLY": ":".join(str(self.path(d)) for d in readonly),
            "FAKE_REAL_PYTHON": "1" if real_python else "0", "FAKE_BASE_PY": os.path.realpath(sys.executable),
        }
        self.install = install
        # the real network namespace tool: a run inside one has no network at all (root only)
        self.offline_prefix = ["unshare", "--net"] if root_user and shutil.which("unshare") else []

    def run(self, *args: str, ok: bool = True, offline: bool = False,
            timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """Run install.sh in the throwaway root (offline: in a network namespace of its own)."""
        self.log.write_text("")
        prefix = self.offline_prefix if offline else []
        proc = subprocess.run([*prefix, "bash", str(self.install), "--root", str(self.root), *args], env=self.env,
                              capture_output=True, text=True, timeout=timeout)
        if ok:
            assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "stand-in" not in proc.stderr, proc.stderr  # nothing reached outside the root
        return proc

    def calls(self) -> list[list[str]]:
        """The stand-in calls of the last run, each as [command, args...]."""
        return [ast.literal_eval(line) for line in self.log.read_text().splitlines()]

    def changing_calls(self) -> list[list[str]]:
        """Calls that change the target system (not queries, not the script's own temp files)."""
        queries = {"dpkg-query", "zebra-table", "apt-cache", "uname"}

        def scratch(call: list[str]) -> bool:
            paths = [a for a in call[1:] if a.startswith("/")]
            return call[0] in WRAPPED and bool(paths) and all(a.startswith(f"{self.tmp}/") for a in paths)

        return [c for c in self.calls() if c[0] not in queries and not (c[0] == "systemctl" and "is-enabled" in c)
                and not (c[0] == "sed" and "-i" not in c) and not scratch(c)
                and c[1:3] not in (["-m", "firmware_host.storage.sandbox"], ["-m", "firmware_host.commands.main"])
                and c[1:2] != ["-c"]]

    def pip_calls(self) -> list[list[str]]:
        """The arguments after `pip install` of every pip run so far."""
        pip = self.state / "pip"
        return [json.loads(line) for line in pip.read_text().splitlines()] if pip.exists() else []

    def path(self, rel: str) -> Path:
        """A path inside the throwaway root."""
        return self.root / rel.lstrip("/")

    def ids(self, name: str) -> tuple[int, int]:
        """uid and gid of a user in the root's passwd."""
        for line in self.path("/etc/passwd").read_text().splitlines():
            f = line.split(":")
            if f[0] == name:
                return int(f[2]), int(f[3])
        raise KeyError(name)

    def members(self, group: str) -> set[str]:
        """Members of a group in the root's group file."""
        for line in self.path("/etc/group").read_text().splitlines():
            f = line.split(":")
            if f[0] == group:
                return {m for m in f[3].split(",") if m}
        raise KeyError(group)

    def snapshot(self) -> dict[str, tuple[object, ...]]:
        """Every path under the root with its type, mode, owner and content (or link target)."""
        out: dict[str, tuple[object, ...]] = {}
        for dirpath, dirnames, filenames in os.walk(self.root):
            for n in dirnames + filenames:
                p = Path(dirpath) / n
                st = p.lstat()
                what: tuple[str, ...]
                if stat.S_ISLNK(st.st_mode):
                    what = ("link", os.readlink(p))
                elif stat.S_ISDIR(st.st_mode):
                    what = ("dir",)
                else:
                    what = ("file", hashlib.sha256(p.read_bytes()).hexdigest())
                out[str(p.relative_to(self.root))] = (*what, stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid)
        return out
