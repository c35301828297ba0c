"""The reference firmware shares the host's codec, stays MicroPython-compatible, and flashes whole.

The firmware's protocol.py is a link to drivers/reader/protocol.py: one codec for both sides,
tested here as the firmware imports it, against the shared vectors. MicroPython cannot run in
CI, so its limits are checked on the source: only modules MicroPython has, none of the CPython-
only syntax or methods the firmware could slip into.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "deploy" / "firmware"
VECTORS = json.loads((ROOT / "tests" / "data" / "protocol_vectors.json").read_text())
sys.path.insert(0, str(FIRMWARE))

import protocol as fw_proto  # noqa: E402  (the module as the firmware imports it)

MICROPYTHON_MODULES = {"machine", "neopixel", "select", "sys", "time", "binascii", "micropython", "gc", "rp2"}
OWN_MODULES = {p.stem for p in FIRMWARE.glob("*.py")}
# str/bytes/int methods that MicroPython lacks, or has only in some builds and versions: avoided
# so the firmware runs on any MicroPython from 1.19 on.
MISSING_METHODS = {"fromhex", "hex", "removeprefix", "removesuffix", "casefold", "zfill", "expandtabs",
                   "format_map", "isidentifier", "isprintable", "swapcase", "title", "bit_length",
                   "as_integer_ratio"}
SOURCES = sorted(FIRMWARE.glob("*.py"))


def test_firmware_protocol_is_the_host_codec():
    assert (FIRMWARE / "protocol.py").is_symlink()
    assert (FIRMWARE / "protocol.py").resolve() == (ROOT / "drivers" / "reader" / "protocol.py").resolve()
    assert VECTORS["protocol"] == fw_proto.PROTOCOL_VERSION and VECTORS["max_frame"] == fw_proto.MAX_FRAME


@pytest.mark.parametrize("vec", VECTORS["valid"], ids=lambda v: v["frame"].strip())
def test_firmware_codec_on_the_shared_vectors(vec):
    frame = vec["frame"].encode("latin-1")
    assert fw_proto.encode(vec["message"]) == frame
    assert fw_proto.decode_line(frame[:-1]) == vec["message"]


@pytest.mark.parametrize("vec", VECTORS["invalid"], ids=lambda v: v["line"][:40])
def test_firmware_codec_rejects_the_invalid_vectors(vec):
    with pytest.raises(fw_proto.FrameError) as info:
        fw_proto.decode_line(vec["line"].encode("latin-1"))
    assert info.value.reason == vec["reason"]


def test_plain_python_crc_is_what_micropython_runs():
    # MicroPython has no binascii.crc_hqx: the firmware uses crc16_py, the table-driven CRC.
    for check in VECTORS["crc"]["checks"]:
        assert fw_proto.crc16_py(check["data"].encode()) == int(check["crc"], 16)


@given(st.binary(max_size=120))
def test_plain_python_byte_check_is_what_micropython_runs(body: bytes):
    # MicroPython's bytes have no translate: the firmware finds a frame's bad bytes in a loop
    assert fw_proto._bad_bytes_py(body) == fw_proto._bad_bytes(body)
    assert fw_proto._bad_bytes(body) == bytes(b for b in body if not (0x20 <= b <= 0x7E) or b in b"$*")


def run_time_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of `tree` but those under `if MYPY:` (the type checker's imports, never run)."""
    out, todo = [], [tree]
    while todo:
        node = todo.pop()
        out.append(node)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "MYPY":
            todo += node.orelse
            continue
        todo += ast.iter_child_nodes(node)
    return out


def test_type_checker_imports_are_the_only_ones_skipped():
    tree = ast.parse("MYPY = False\nif MYPY:\n    import typing\nelse:\n    import gc\nimport rp2\n")
    imported = {a.name for n in run_time_nodes(tree) if isinstance(n, ast.Import) for a in n.names}
    assert imported == {"gc", "rp2"}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_firmware_source_fits_micropython(path: Path):
    tree = ast.parse(path.read_text(), str(path))
    problems = []
    for node in run_time_nodes(tree):
        where = f"{path.name}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for name in names:
                if name.split(".")[0] not in MICROPYTHON_MODULES | OWN_MODULES:
                    problems.append(f"{where}: imports {name}, which MicroPython does not have")
        elif isinstance(node, ast.JoinedStr):
            problems.append(f"{where}: f-string (limited in MicroPython): use % or +")
        elif isinstance(node, (ast.Match, ast.AsyncFunctionDef)):
            problems.append(f"{where}: {type(node).__name__} is not in MicroPython")
        elif isinstance(node, ast.Attribute) and node.attr in MISSING_METHODS:
            problems.append(f"{where}: .{node.attr}() is missing from some MicroPython builds")
        elif isinstance(node, ast.ClassDef) and node.decorator_list:
            problems.append(f"{where}: class decorators (dataclasses...) are not in MicroPython")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("open", "print"):
            problems.append(f"{where}: {node.func.id}() would write to the host's serial line or flash")
    assert problems == []


def test_flash_script_copies_every_module_the_firmware_imports(tmp_path: Path):
    log = tmp_path / "mpremote.args"
    fake = tmp_path / "bin" / "mpremote"
    fake.parent.mkdir()
    fake.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > {log}\n")
    fake.chmod(0o755)
    env = {**os.environ, "PATH": f"{fake.parent}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run(["bash", str(FIRMWARE / "flash.sh"), "/dev/ttyACM7"], env=env,
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    args = log.read_text().split("\n")
    assert args[:2] == ["connect", "/dev/ttyACM7"] and args[-2:] == ["reset", ""]
    copied = {args[i + 2].lstrip(":"): args[i + 1] for i, a in enumerate(args) if a == "cp"}
    assert list(copied)[-1] == "main.py"

    needed, todo = set(), ["main"]
    while todo:  # every firmware module reachable from main.py
        name = todo.pop()
        if name in needed:
            continue
        needed.add(name)
        for node in ast.walk(ast.parse((FIRMWARE / f"{name}.py").read_text())):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
                todo += [m for m in mods if m in OWN_MODULES]
    assert set(copied) == {f"{n}.py" for n in needed}
    assert Path(copied["protocol.py"]).resolve() == (ROOT / "drivers" / "reader" / "protocol.py").resolve()


def test_flash_script_refuses_a_missing_config(tmp_path: Path):
    proc = subprocess.run(["bash", str(FIRMWARE / "flash.sh"), "--config", str(tmp_path / "nope.py")],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and "no config file" in proc.stderr


def test_flash_script_is_shellcheck_clean():
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (`./dev test` installs it as root on Debian)")
    proc = subprocess.run(["shellcheck", str(FIRMWARE / "flash.sh")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout
