"""Hidden temporary files beside an output, that a later run cleans up.

An output is written under ``.<name>.<pid>.<random>.tmp`` in its final
directory and renamed into place at the end.  A run that ends normally, by
an error, ``SIGINT`` or ``SIGTERM`` removes its own; a run killed outright
(``SIGKILL``, power loss) cannot, so the next run writing the same output
removes every such file whose process is gone (:func:`remove_stale`).
"""
from __future__ import annotations

import contextlib
import os
import re
from typing import Iterator

#: how the name of every temporary file ends
TEMP_SUFFIX = ".tmp"
_NAME = re.compile(rf"\.(?P<name>.+)\.(?P<pid>\d+)\.[0-9a-f]{{8}}{re.escape(TEMP_SUFFIX)}\Z")


def temp_name_pattern(name: str) -> str:
    """A regular expression for the names of the temporary files of an
    output called ``name``."""
    return rf"\.{re.escape(name)}\.\d+\.[0-9a-f]{{8}}{re.escape(TEMP_SUFFIX)}"


def landing(target: str) -> str:
    """The file a write to ``target`` lands on: the file a symbolic link
    points to (resolved, even when it does not exist yet), else ``target``.
    A temporary file renamed onto a link would replace the link; renamed
    onto this path, beside the file, it keeps the link."""
    return os.path.realpath(target) if os.path.islink(target) else target


def reserve(target: str) -> str:
    """Create a fresh, empty temporary file for ``target`` (mode 0666 minus
    the umask) and return its path; raises :class:`OSError`."""
    directory, name = os.path.split(target)
    remove_stale(target)
    while True:  # os.urandom as secrets.token_hex uses it (secrets loads hashlib and OpenSSL)
        tmp = os.path.join(directory or ".", f".{name}.{os.getpid()}.{os.urandom(4).hex()}{TEMP_SUFFIX}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        os.close(fd)
        return tmp


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    except OSError:
        return True
    return True


def remove_stale(target: str) -> int:
    """Remove the temporary files of ``target`` left by processes that no
    longer run; how many were removed."""
    directory, name = os.path.split(target)
    try:
        entries = os.listdir(directory or ".")
    except OSError:
        return 0
    removed = 0
    for entry in entries:
        m = _NAME.match(entry)
        if m is None or m.group("name") != name or _alive(int(m.group("pid"))):
            continue
        try:
            os.unlink(os.path.join(directory or ".", entry))
            removed += 1
        except OSError:
            pass
    return removed


def fsync_path(path: str) -> None:
    """Flush the file at ``path`` to disk; raises :class:`OSError`."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def discard(*paths: str) -> None:
    """Remove files quietly: a temporary file already gone or not
    removable is left to :func:`remove_stale` of a later run."""
    for path in paths:
        with contextlib.suppress(OSError):
            os.unlink(path)


@contextlib.contextmanager
def atomic_file(target: str) -> Iterator[str]:
    """A fresh temporary path for ``target``: whatever is written there is
    flushed to disk and renamed onto ``target`` when the block ends without
    an exception, and removed when it raises (``target`` is then left as it
    was).  A symbolic link at ``target`` is written through (:func:`landing`)."""
    target = landing(target)
    tmp = reserve(target)
    try:
        yield tmp
        fsync_path(tmp)
        os.replace(tmp, target)
    except BaseException:
        discard(tmp)
        raise
