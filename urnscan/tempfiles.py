"""Files written beside an output and moved into place at the end.

Where the system allows (Linux, ``O_TMPFILE``: ext4, XFS, Btrfs, tmpfs...)
an output is written to a file that has no name in its final directory
until the run commits it (:class:`PendingFile`): a run killed outright
(``SIGKILL``, a crash, power loss) leaves nothing, as the system frees a
file without a name with the last process that holds it.  Elsewhere the
file is named ``.<name>.<pid>.<random>.tmp``: a run that ends normally, by
an error, ``SIGINT`` or ``SIGTERM`` removes its own, and the next run
writing the same output removes those of processes that are gone
(:func:`remove_stale`).
"""
from __future__ import annotations

import contextlib
import os
import re
from typing import Iterator, Optional

from .lazyre import LazyPattern

#: how the name of every temporary file ends
TEMP_SUFFIX = ".tmp"
_NAME = LazyPattern(rf"\.(?P<name>.+)\.(?P<pid>\d+)\.[0-9a-f]{{8}}{re.escape(TEMP_SUFFIX)}\Z")


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


def _temp_name(target: str) -> str:
    directory, name = os.path.split(target)
    # os.urandom as secrets.token_hex uses it (secrets loads hashlib and OpenSSL)
    return os.path.join(directory or ".", f".{name}.{os.getpid()}.{os.urandom(4).hex()}{TEMP_SUFFIX}")


def reserve(target: str) -> str:
    """Create a fresh, empty temporary file for ``target`` (mode 0666 minus
    the umask) and return its path; raises :class:`OSError`."""
    remove_stale(target)
    while True:
        tmp = _temp_name(target)
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        os.close(fd)
        return tmp


#: where a process finds its open files by number (Linux)
_PROC_FDS = "/proc/self/fd"


def _anonymous(directory: str) -> Optional[int]:
    """A new file without a name in ``directory`` (mode 0666 minus the
    umask), open for writing; None where the system or the file system
    has none (the caller names one)."""
    flag = getattr(os, "O_TMPFILE", None)
    if flag is None or not os.path.isdir(_PROC_FDS):
        return None
    try:
        return os.open(directory, flag | os.O_WRONLY | getattr(os, "O_CLOEXEC", 0), 0o666)
    except OSError:  # EOPNOTSUPP, EISDIR (an older kernel), EINVAL...: no such files here
        return None


class PendingFile:
    """A file being written for ``target``, in ``target``'s directory: open
    :attr:`path` to write it, then :meth:`commit` (flushed to disk, moved
    onto ``target``) or :meth:`discard`.  Without a name until the commit
    where the system allows (see the module docs); OSError when it cannot
    be created."""

    def __init__(self, target: str):
        self.target = target
        directory = os.path.dirname(target) or "."
        self._fd = _anonymous(directory)
        if self._fd is None:
            self.path = reserve(target)
        else:
            remove_stale(target)  # what an older run without such files left
            self.path = f"{_PROC_FDS}/{self._fd}"  # the file itself, opened again

    @property
    def named(self) -> bool:
        """Whether the file has a (hidden) name while it is written."""
        return self._fd is None

    def sync(self) -> None:
        """Flush what was written to disk; raises :class:`OSError`."""
        if self._fd is None:
            fsync_path(self.path)
        else:
            os.fsync(self._fd)

    def commit(self) -> None:
        """Move the file onto ``target`` (replacing it); raises
        :class:`OSError`, the file then left pending."""
        if self._fd is None:
            os.replace(self.path, self.target)
            return
        # a name for the file (linkat(2) following /proc's link to it, as
        # open(2) shows for O_TMPFILE), then renamed onto the target: link
        # never replaces a file
        directory = os.open(os.path.dirname(self.target) or ".", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            name = self._link(directory)
            with _unlinked_on_failure(name, directory):
                os.replace(name, os.path.basename(self.target), src_dir_fd=directory, dst_dir_fd=directory)
        finally:
            os.close(directory)
        self._close()

    def _link(self, directory: int) -> str:
        """A hidden name in ``directory`` for the file: a link to it, or
        where the system refuses one (a security module, a file system
        that takes O_TMPFILE but not the link), a copy of it, flushed."""
        while True:
            name = os.path.basename(_temp_name(self.target))
            try:
                # (an absolute source, and a directory fd given: CPython
                # calls linkat with AT_SYMLINK_FOLLOW)
                os.link(self.path, name, src_dir_fd=directory, dst_dir_fd=directory, follow_symlinks=True)
                return name
            except FileExistsError:
                continue
            except OSError:
                return self._copy(directory)

    def _copy(self, directory: int) -> str:
        while True:
            name = os.path.basename(_temp_name(self.target))
            try:
                out = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666, dir_fd=directory)
            except FileExistsError:
                continue
            break
        try:
            with _unlinked_on_failure(name, directory):
                source = os.open(self.path, os.O_RDONLY)
                try:
                    while os.sendfile(out, source, None, 1 << 24):
                        pass
                finally:
                    os.close(source)
                os.fsync(out)
        finally:
            os.close(out)
        return name

    def discard(self) -> None:
        """Drop the file quietly (a named one left is for :func:`remove_stale`)."""
        if self._fd is None:
            discard(self.path)
        else:
            self._close()

    def _close(self) -> None:
        fd, self._fd = self._fd, -1
        if fd is not None and fd >= 0:
            with contextlib.suppress(OSError):
                os.close(fd)


@contextlib.contextmanager
def _unlinked_on_failure(name: str, directory: int) -> Iterator[None]:
    """Remove ``name`` (in the directory open as ``directory``) when the
    block raises."""
    try:
        yield
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name, dir_fd=directory)
        raise


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
    pending = PendingFile(landing(target))
    try:
        yield pending.path
        pending.sync()
        pending.commit()
    except BaseException:
        pending.discard()
        raise
