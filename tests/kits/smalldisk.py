"""A real small filesystem (tmpfs) for the journal tests: filled up, remounted read-only, freed again."""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Disk]:
    """A real 512 KiB filesystem (tmpfs): filled up for ENOSPC, remounted read-only for EROFS."""
    where = tmp_path / "disk"
    where.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(where)],
                                           capture_output=True).returncode:
        pytest.skip("mounting a small filesystem needs root (CI runs as root)")
    yield Disk(where)
    subprocess.run(["umount", "-l", str(where)], check=True)


class Disk:
    def __init__(self, where: Path) -> None:
        self.where = where

    def fill_up(self) -> None:
        """Write a ballast file until the filesystem says ENOSPC."""
        fd = os.open(self.where / "ballast", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            while True:
                os.write(fd, b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
        finally:
            os.close(fd)

    def free(self) -> None:
        (self.where / "ballast").unlink()

    def read_only(self, on: bool = True) -> None:
        """Remount read-only (possible only while no file on it is open for writing)."""
        subprocess.run(["mount", "-o", f"remount,{'ro' if on else 'rw'}", str(self.where)], check=True)
