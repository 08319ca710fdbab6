"""Turning what the user names into byte chunks.

This module is the input edge of urnscan.  It knows about files, directories,
globs, standard input and compression; it knows nothing about URNs.

* :func:`expand_inputs` turns the PATH arguments of a run into a
  deterministic list of :class:`InputRef`, one per input, each with a status:
  ``None`` (to be scanned) or the reason it cannot be.  It never raises for a
  bad input, so a run can list every input with what happened to it.
* :func:`open_chunks` opens one input and yields its *decompressed* content
  as ``bytes`` chunks of at most ``chunk_size`` bytes.  Compression is
  detected from the content, never from the file name.
* :func:`looks_binary` is the rule that decides whether an input is text.

Walking rules (:func:`expand_inputs`)
-------------------------------------

* ``-`` is standard input.
* A directory is walked recursively.  Entries of each directory are visited
  in sorted order (by name, code point order) and directories are entered
  where they sort, so the order is deterministic.  Hidden files are
  included: nothing is skipped unless an ``exclude`` pattern says so.
* A PATH that does not exist but contains glob characters (``*``, ``?``,
  ``[``) is a glob pattern; a ``**`` segment matches any number of
  directories.  Matches are visited in sorted order; a matched directory is
  walked whole.  As in the shell, a wildcard does not match a name that
  starts with a dot unless the pattern segment does.  Globs are expanded by
  urnscan's own walker, so ``**`` terminates on symbolic-link loops too.
* Symbolic links are followed by default (``follow_symlinks=True``).  Every
  directory is entered at most once, by its identity ``(st_dev, st_ino)``,
  so symbolic-link loops terminate: a link back to one of its own ancestors
  is listed with status ``"symbolic link loop"``; a second link to a
  directory already walked elsewhere is not walked again (its files were
  already listed).  Like files, loops are only listed when the
  ``include`` / ``exclude`` patterns keep their path.  With
  ``follow_symlinks=False`` symbolic links met while walking are listed
  with status ``"symbolic link (not followed)"``.  PATH arguments
  themselves are always followed.
* The same path is listed once even if several PATH arguments reach it.
* ``include`` / ``exclude`` are glob patterns.  A pattern without ``/`` is
  matched against the file name (and, for ``exclude``, against the name of
  every directory while walking, which prunes the directory); a pattern with
  ``/`` is matched against the path relative to the PATH argument it was
  found under (for a glob, relative to its leading directory part, the part
  before the first wildcard).  ``*`` and ``?`` do not cross ``/``; ``**``
  does.  A file is kept when ``include`` is empty or one include pattern
  matches, and no exclude pattern matches.  Files named explicitly as a
  PATH are always kept.
* FIFOs, sockets and devices found while walking a directory or matched by
  a glob are listed with an error status and never opened (reading them
  could block forever or never end).  Named explicitly, a FIFO or a
  character device is read like a file: this is what shell process
  substitution, ``<(zcat a.gz)``, passes.

Reading rules (:func:`open_chunks`)
-----------------------------------

* The first bytes decide the compression: gzip (``1f 8b 08``; several
  members are read one after the other, as ``gzip -d`` does), bzip2
  (``BZh`` + level digit; several streams supported), xz (``fd 37 7a 58 5a
  00``; several streams supported) and zstd (``28 b5 2f fd``; needs the
  ``zstandard`` package, or Python 3.14's ``compression.zstd``).  Anything
  else is read as it is.  Standard input is peeked without seeking, so a
  compressed stdin works too.
* A corrupt or truncated compressed stream raises :class:`SourceError`
  *after* every byte decoded before the damage has been yielded, so a caller
  keeps what it found.  (Deflate cannot always see damage at once: bytes
  decoded from a damaged region may come out before the error, which at the
  latest is raised by the CRC check at the end of the gzip member.)  Bytes
  after the end of the compressed data that are not another member (or NUL
  padding, for gzip and xz) are an error too: "trailing garbage".
* Memory stays bounded by the chunk size: no read or decompression step
  produces more than ``chunk_size`` bytes at a time (plus the 64 KiB first
  block kept for binary detection).
"""
from __future__ import annotations

import bz2
import errno
import os
import re
import stat
import sys
import zlib
from typing import (
    BinaryIO, Callable, Iterable, Iterator, List, NamedTuple, Optional,
    Sequence, Tuple, Union,
)

from .errors import SourceError

__all__ = [
    "InputRef", "ChunkReader", "expand_inputs", "open_chunks", "looks_binary",
    "BINARY_BLOCK_SIZE", "DEFAULT_CHUNK_SIZE", "STDIN", "display_name",
    "zstd_available",
]

#: The PATH that means standard input.
STDIN = "-"
#: Default size of the chunks :func:`open_chunks` yields.
DEFAULT_CHUNK_SIZE = 1 << 20
#: How much decompressed content :func:`looks_binary` looks at.
BINARY_BLOCK_SIZE = 64 * 1024

# Reasons used as InputRef.status / in SourceError messages.
NO_SUCH_FILE = "no such file or directory"
GLOB_MATCHED_NOTHING = "glob matched nothing"
DANGLING_SYMLINK = "dangling symbolic link"
SYMLINK_LOOP = "symbolic link loop"
SYMLINK_NOT_FOLLOWED = "symbolic link (not followed)"
PERMISSION_DENIED = "permission denied"
IS_A_DIRECTORY = "is a directory"


# ---------------------------------------------------------------------------
# Input references
# ---------------------------------------------------------------------------


class InputRef(NamedTuple):
    """One input of a run.

    ``path`` is the path as reached from the PATH argument (``"-"`` for
    standard input); ``status`` is ``None`` when the input is to be scanned,
    otherwise the reason it cannot be (``"permission denied"``,
    ``"dangling symbolic link"``, ``"special file (FIFO)"``...); ``size`` is
    the size in bytes on disk (compressed size for a compressed file), or
    ``None`` when unknown (stdin, FIFOs, errors).
    """

    path: str
    status: Optional[str] = None
    size: Optional[int] = None

    @property
    def ok(self) -> bool:
        """True when the input is to be scanned."""
        return self.status is None

    @property
    def is_stdin(self) -> bool:
        return self.path == STDIN


def display_name(path: Optional[str]) -> str:
    """How a source is named in messages: ``-`` is shown as ``(stdin)``."""
    if path is None:
        return "(input)"
    if path == STDIN:
        return "(stdin)"
    return path


def _source_error(path: Optional[str], reason: str) -> SourceError:
    err = SourceError(f"{display_name(path)}: {reason}")
    err.path = path  # type: ignore[attr-defined]
    err.reason = reason  # type: ignore[attr-defined]
    return err


def _os_reason(exc: OSError) -> str:
    """A short, lower-case reason for an OS error."""
    code = exc.errno
    if code == errno.ENOENT:
        return NO_SUCH_FILE
    if code in (errno.EACCES, errno.EPERM):
        return PERMISSION_DENIED
    if code == errno.ELOOP:
        return SYMLINK_LOOP
    if code == errno.EISDIR:
        return IS_A_DIRECTORY
    text = exc.strerror or str(exc) or type(exc).__name__
    return text[:1].lower() + text[1:]


def _special_kind(mode: int) -> Optional[str]:
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode):
        return "character device"
    if stat.S_ISBLK(mode):
        return "block device"
    return None


# ---------------------------------------------------------------------------
# include / exclude patterns
# ---------------------------------------------------------------------------


def _translate_glob(pattern: str) -> "re.Pattern[str]":
    """A glob pattern as a regular expression over ``/``-separated paths.

    ``*`` and ``?`` do not match ``/``; ``**`` matches anything, and
    ``**/`` matches zero or more whole directories.
    """
    out: List[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "*":
            if pattern.startswith("**", i):
                if pattern.startswith("**/", i):
                    out.append("(?:.*/)?")
                    i += 3
                else:
                    out.append(".*")
                    i += 2
                continue
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = i + 1
            if j < n and pattern[j] in "!^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                j += 1
            if j >= n:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1:j]
                negate = body[:1] in ("!", "^")
                if negate:
                    body = body[1:]
                body = body.replace("\\", "\\\\")
                out.append("[" + ("^/" if negate else "") + body + "]")
                i = j
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("(?s:" + "".join(out) + r")\Z")


class _Matcher:
    """A set of glob patterns (see the module docstring for the rules)."""

    def __init__(self, patterns: Iterable[str]):
        self._name: List["re.Pattern[str]"] = []
        self._path: List["re.Pattern[str]"] = []
        for pat in patterns:
            pat = str(pat).replace(os.sep, "/")
            while pat.startswith("./"):
                pat = pat[2:]
            pat = pat.strip("/")
            if not pat:
                continue
            (self._path if "/" in pat else self._name).append(_translate_glob(pat))

    def __bool__(self) -> bool:
        return bool(self._name or self._path)

    def matches(self, relpath: str) -> bool:
        relpath = relpath.replace(os.sep, "/")
        while relpath.startswith("./"):
            relpath = relpath[2:]
        name = relpath.rstrip("/").rsplit("/", 1)[-1]
        return (any(p.match(name) for p in self._name)
                or any(p.match(relpath) for p in self._path))


# ---------------------------------------------------------------------------
# expand_inputs
# ---------------------------------------------------------------------------


_MAGIC = re.compile(r"[*?[]")


def _has_magic(path: str) -> bool:
    return _MAGIC.search(path) is not None


class _GlobPattern:
    """A PATH glob: a fixed leading directory and wildcard segments.

    ``*``, ``?`` and ``[...]`` match within one path segment, a ``**``
    segment matches zero or more directories.  As in the shell, a wildcard
    does not match a name starting with ``.`` unless the pattern segment
    itself starts with ``.``.
    """

    def __init__(self, pattern: str):
        segs = pattern.replace(os.sep, "/").split("/")
        i = 0
        while i < len(segs) - 1 and not _has_magic(segs[i]):
            i += 1
        fixed = segs[:i]
        self.base = "/".join(fixed) if fixed else "."
        if fixed and not self.base:
            self.base = "/"
        if not fixed:
            self.prefix = ""
        elif self.base == "/":
            self.prefix = "/"
        else:
            self.prefix = self.base.rstrip("/") + "/"
        self.segments: List[Optional[Tuple["re.Pattern[str]", bool]]] = []
        for seg in segs[i:]:
            if seg == "**":
                self.segments.append(None)
            elif seg:
                self.segments.append((_translate_glob(seg), seg.startswith(".")))
        # collapse repeated ** (they mean the same) to keep matching linear
        collapsed: List[Optional[Tuple["re.Pattern[str]", bool]]] = []
        for seg in self.segments:
            if seg is None and collapsed and collapsed[-1] is None:
                continue
            collapsed.append(seg)
        self.segments = collapsed

    @staticmethod
    def _seg_ok(seg: Tuple["re.Pattern[str]", bool], name: str) -> bool:
        regex, dot_ok = seg
        if name.startswith(".") and not dot_ok:
            return False
        return regex.match(name) is not None

    def _match(self, si: int, parts: Sequence[str], pi: int, partial: bool) -> bool:
        segs = self.segments
        while True:
            if pi == len(parts):
                # all of the path consumed
                return partial or all(s is None for s in segs[si:])
            if si == len(segs):
                return False
            seg = segs[si]
            if seg is None:
                # ** : zero directories, or one more (not hidden)
                if self._match(si + 1, parts, pi, partial):
                    return True
                if parts[pi].startswith("."):
                    return False
                pi += 1
                continue
            if not self._seg_ok(seg, parts[pi]):
                return False
            si += 1
            pi += 1

    def matches(self, parts: Sequence[str]) -> bool:
        """The path (segments relative to ``base``) matches the whole pattern."""
        return bool(parts) and self._match(0, parts, 0, False)

    def could_contain(self, parts: Sequence[str]) -> bool:
        """A match may lie below the directory ``parts``."""
        return self._match(0, parts, 0, True)


class _Expander:
    def __init__(self, include: Iterable[str], exclude: Iterable[str],
                 follow_symlinks: bool):
        self.include = _Matcher(include)
        self.exclude = _Matcher(exclude)
        self.follow = follow_symlinks
        self.seen_paths: set = set()
        self.visited_dirs: set = set()

    # -- helpers -----------------------------------------------------------

    def _emit(self, ref: InputRef) -> Iterator[InputRef]:
        key = ref.path if ref.path == STDIN else os.path.normpath(ref.path)
        if key in self.seen_paths:
            return
        self.seen_paths.add(key)
        yield ref

    def _keep(self, relpath: str) -> bool:
        if self.include and not self.include.matches(relpath):
            return False
        return not (self.exclude and self.exclude.matches(relpath))

    @staticmethod
    def _file_ref(path: str, st: os.stat_result) -> InputRef:
        if not os.access(path, os.R_OK):
            return InputRef(path, PERMISSION_DENIED, st.st_size)
        return InputRef(path, None, st.st_size)

    # -- PATH arguments ------------------------------------------------------

    def expand(self, arg: str) -> Iterator[InputRef]:
        if arg == STDIN:
            yield from self._emit(InputRef(STDIN, None, None))
            return
        if os.path.lexists(arg):
            yield from self._explicit(arg)
        elif _has_magic(arg):
            yield from self._glob(arg)
        else:
            yield from self._emit(InputRef(arg, NO_SUCH_FILE, None))

    def _explicit(self, path: str) -> Iterator[InputRef]:
        try:
            st = os.stat(path)
        except OSError as exc:
            reason = _os_reason(exc)
            if exc.errno == errno.ENOENT and os.path.islink(path):
                reason = DANGLING_SYMLINK
            yield from self._emit(InputRef(path, reason, None))
            return
        if stat.S_ISDIR(st.st_mode):
            yield from self._walk(path, "", st)
        elif stat.S_ISREG(st.st_mode):
            yield from self._emit(self._file_ref(path, st))
        elif stat.S_ISFIFO(st.st_mode) or stat.S_ISCHR(st.st_mode):
            # Named explicitly: process substitution, /dev/stdin...
            yield from self._emit(InputRef(path, None, None))
        else:
            kind = _special_kind(st.st_mode) or "unknown file type"
            yield from self._emit(InputRef(path, f"special file ({kind})", None))

    def _glob(self, pattern: str) -> Iterator[InputRef]:
        """Expand a glob by walking from its fixed leading directory.

        This walk shares the visited-directory set, so ``**`` terminates on
        symbolic-link loops.  A matched directory is walked whole.
        """
        pat = _GlobPattern(pattern)
        found = False
        try:
            base_st = os.stat(pat.base)
        except OSError:
            base_st = None
        if base_st is not None and stat.S_ISDIR(base_st.st_mode):
            listing = self._list(pat.base)
            if not isinstance(listing, InputRef):
                base_ident = (base_st.st_dev, base_st.st_ino)
                ancestors = {base_ident}
                stack: List[Tuple[tuple, Iterator, Tuple[str, ...]]] = [
                    (base_ident, iter(listing), ())]
                while stack:
                    d_ident, entries, d_parts = stack[-1]
                    entry = next(entries, None)
                    if entry is None:
                        stack.pop()
                        ancestors.discard(d_ident)
                        continue
                    name, is_symlink = entry
                    parts = d_parts + (name,)
                    rel = "/".join(parts)
                    path = pat.prefix + rel
                    if pat.matches(parts):
                        found = True
                        yield from self._entry(path, rel, is_symlink, ancestors)
                        continue
                    if (is_symlink and not self.follow) or not pat.could_contain(parts):
                        continue
                    try:
                        st = os.stat(path)
                    except OSError:
                        continue
                    if not stat.S_ISDIR(st.st_mode):
                        continue
                    ident = (st.st_dev, st.st_ino)
                    if ident in ancestors:
                        continue  # a loop: no match can lie below
                    sub = self._list(path)
                    if isinstance(sub, InputRef):
                        continue
                    ancestors.add(ident)
                    stack.append((ident, iter(sub), parts))
        if not found:
            yield from self._emit(InputRef(pattern, GLOB_MATCHED_NOTHING, None))

    # -- walking -------------------------------------------------------------

    def _entry(self, path: str, relpath: str, is_symlink: bool,
               ancestors: Optional[set] = None,
               stack: Optional[list] = None) -> Iterator[InputRef]:
        """One entry found while walking a directory (or a glob match).

        A directory is walked: pushed on ``stack`` when given (inside a walk)
        or walked from here (a glob match).
        """
        if is_symlink and not self.follow:
            if self._keep(relpath):
                yield from self._emit(InputRef(path, SYMLINK_NOT_FOLLOWED, None))
            return
        try:
            st = os.stat(path)
        except OSError as exc:
            if exc.errno == errno.ENOENT:
                reason = DANGLING_SYMLINK if os.path.islink(path) else NO_SUCH_FILE
            else:
                reason = _os_reason(exc)
            if self._keep(relpath):
                yield from self._emit(InputRef(path, reason, None))
            return
        if stat.S_ISDIR(st.st_mode):
            if self.exclude and self.exclude.matches(relpath):
                return
            if stack is None:
                yield from self._walk(path, relpath, st, ancestors)
                return
            ident = (st.st_dev, st.st_ino)
            if ancestors is not None and ident in ancestors:
                if self._keep(relpath):
                    yield from self._emit(InputRef(path, SYMLINK_LOOP, None))
                return
            if ident in self.visited_dirs:
                return  # already walked under another name
            self.visited_dirs.add(ident)
            listing = self._list(path)
            if isinstance(listing, InputRef):
                yield from self._emit(listing)
                return
            if ancestors is not None:
                ancestors.add(ident)
            stack.append((ident, iter(listing), path, relpath))
            return
        if not self._keep(relpath):
            return
        if stat.S_ISREG(st.st_mode):
            yield from self._emit(self._file_ref(path, st))
        else:
            kind = _special_kind(st.st_mode) or "unknown file type"
            yield from self._emit(InputRef(path, f"special file ({kind})", None))

    def _walk(self, top: str, top_rel: str, top_st: os.stat_result,
              outer_ancestors: Optional[set] = None) -> Iterator[InputRef]:
        """Walk a directory depth-first, entries in sorted order.

        An explicit stack of directory listings keeps deep trees off the
        Python stack and tells the ancestors of every directory (to tell a
        loop from a second link to a directory walked elsewhere).
        """
        ident = (top_st.st_dev, top_st.st_ino)
        if outer_ancestors and ident in outer_ancestors:
            if self._keep(top_rel):
                yield from self._emit(InputRef(top, SYMLINK_LOOP, None))
            return
        if ident in self.visited_dirs:
            return
        self.visited_dirs.add(ident)
        listing = self._list(top)
        if isinstance(listing, InputRef):
            yield from self._emit(listing)
            return
        ancestors = set(outer_ancestors or ()) | {ident}
        stack: List[Tuple[tuple, Iterator, str, str]] = [(ident, iter(listing), top, top_rel)]
        while stack:
            d_ident, entries, d_path, d_rel = stack[-1]
            entry = next(entries, None)
            if entry is None:
                stack.pop()
                ancestors.discard(d_ident)
                continue
            name, is_symlink = entry
            path = os.path.join(d_path, name)
            relpath = f"{d_rel}/{name}" if d_rel else name
            yield from self._entry(path, relpath, is_symlink, ancestors, stack)

    @staticmethod
    def _list(path: str) -> Union[List[Tuple[str, bool]], InputRef]:
        """Sorted ``(name, is_symlink)`` of a directory, or an error ref."""
        try:
            with os.scandir(path) as it:
                entries = []
                for e in it:
                    try:
                        link = e.is_symlink()
                    except OSError:
                        link = False
                    entries.append((e.name, link))
        except OSError as exc:
            return InputRef(path, _os_reason(exc), None)
        entries.sort()
        return entries


def expand_inputs(paths: Union[str, os.PathLike, Iterable[Union[str, os.PathLike]]],
                  include: Iterable[str] = (), exclude: Iterable[str] = (),
                  follow_symlinks: bool = True) -> Iterator[InputRef]:
    """Expand PATH arguments into the inputs of a run (see module docs).

    Yields one :class:`InputRef` per input, in a deterministic order; never
    raises for a missing, unreadable or special input (it is yielded with a
    status instead).  ``paths`` may be a single path or an iterable of them.
    """
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    expander = _Expander(include, exclude, follow_symlinks)
    for arg in paths:
        arg = os.fsdecode(arg)
        yield from expander.expand(arg)


# ---------------------------------------------------------------------------
# Binary detection
# ---------------------------------------------------------------------------

# C0 control bytes that do not occur in text: everything below 0x20 except
# TAB, LF, VT, FF, CR and ESC (ANSI colour codes in logs), plus DEL.
_SUSPICIOUS = bytes([b for b in range(0x01, 0x20) if b not in (9, 10, 11, 12, 13, 27)] + [0x7F])


def looks_binary(first_block: bytes) -> bool:
    """Whether content whose first block is ``first_block`` is binary.

    The rule looks at the first :data:`BINARY_BLOCK_SIZE` bytes of the
    decompressed content and counts NUL bytes and *suspicious* control bytes
    (C0 controls other than TAB, LF, VT, FF, CR and ESC, plus DEL).  Bytes
    0x80-0xFF never count: text in any 8-bit encoding, or invalid UTF-8, is
    text.  The content is binary when

    * NUL bytes make up more than 0.1 % of the block and there are at least
      two of them (a single stray NUL never makes a file binary), or
    * NUL and suspicious bytes together make up more than 5 % of the block
      and there are at least two of them.

    Random or compressed data has about 10 % of such bytes and one NUL in
    256; executables, images, archives and PDFs with compressed streams are
    caught by one of the two rules.  UTF-16 and UTF-32 text (every other
    byte NUL) counts as binary: URNs are searched as ASCII bytes, and
    reporting such a file as skipped is more useful than scanning it for
    nothing.
    """
    block = first_block[:BINARY_BLOCK_SIZE]
    n = len(block)
    if n == 0:
        return False
    nul = block.count(0)
    if nul >= 2 and nul * 1000 > n:
        return True
    # Count suspicious bytes by deleting them (fast, in C).
    suspicious = n - len(block.translate(None, _SUSPICIOUS)) + nul
    return suspicious >= 2 and suspicious * 20 > n


# ---------------------------------------------------------------------------
# Raw input with a peek buffer
# ---------------------------------------------------------------------------


class _Raw:
    """A binary stream with a push-back buffer and a byte counter."""

    def __init__(self, fileobj: BinaryIO, name: Optional[str], read_size: int):
        self._f = fileobj
        self._name = name
        self._pushback = b""
        self.read_size = read_size
        self.count = 0  # bytes taken from the underlying stream
        self.at_eof = False

    def read(self, n: int = -1) -> bytes:
        if n is None or n < 0:
            n = self.read_size
        if self._pushback:
            data, self._pushback = self._pushback[:n], self._pushback[n:]
            return data
        if self.at_eof:
            return b""
        try:
            data = self._f.read(n)
        except OSError as exc:
            raise _source_error(self._name, f"read error: {_os_reason(exc)}") from exc
        if data is None:  # non-blocking stream with nothing available
            data = b""
        if not data:
            self.at_eof = True
        self.count += len(data)
        return bytes(data)

    def unread(self, data: bytes) -> None:
        if data:
            self._pushback = data + self._pushback

    def peek_exact(self, n: int) -> bytes:
        """Up to ``n`` bytes from the front, without consuming them."""
        buf = self._pushback
        while len(buf) < n and not self.at_eof:
            self._pushback = b""
            more = self.read(n - len(buf))
            buf += more
            if not more:
                break
        self._pushback = buf
        return buf[:n]


# ---------------------------------------------------------------------------
# Decompression
# ---------------------------------------------------------------------------


def _zstd_backend() -> Optional[str]:
    try:
        from compression import zstd as _  # noqa: F401  (Python >= 3.14)
        return "stdlib"
    except ImportError:
        pass
    try:
        import zstandard as _  # noqa: F401,F811
        return "zstandard"
    except ImportError:
        return None


def zstd_available() -> bool:
    """Whether zstd-compressed input can be read in this environment."""
    return _zstd_backend() is not None


class _ZlibGzip:
    """zlib's gzip decoder with the interface of ``lzma.LZMADecompressor``."""

    def __init__(self):
        self._d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self._tail = b""
        self.needs_input = True

    def decompress(self, data: bytes, max_length: int) -> bytes:
        if self._tail:
            data = self._tail + data
        out = self._d.decompress(data, max_length)
        self._tail = self._d.unconsumed_tail
        # When the output was cut at max_length, zlib may hold more output
        # even though it consumed all input: ask again before feeding more.
        self.needs_input = not self._tail and len(out) < max_length
        return out

    @property
    def eof(self) -> bool:
        return self._d.eof

    @property
    def unused_data(self) -> bytes:
        return self._d.unused_data


class _ZstdFrames:
    """Follows the frame structure of a zstd stream without decoding it.

    The ``zstandard`` package's stream reader decodes in bounded memory but
    says nothing when its input ends in the middle of a frame.  This walks
    the frame and block headers (RFC 8878, section 3.1) of the same bytes
    to tell a clean end from a truncated one, and spots bytes that are no
    frame at all.
    """

    _MAGIC = b"\x28\xb5\x2f\xfd"

    def __init__(self):
        self._state = "magic"
        self._need = 4
        self._buf = b""
        self._skip = 0
        self._checksum = False
        self.frames = 0
        self.error: Optional[str] = None

    def at_boundary(self) -> bool:
        return self._state == "magic" and not self._buf and not self._skip

    def feed(self, data: bytes) -> int:
        """Follow ``data``; returns how much of it belongs to the current
        frame (stops right after a frame ends; all of it on an error)."""
        pos, n = 0, len(data)
        while pos < n and self.error is None:
            if self._skip:
                take = min(self._skip, n - pos)
                self._skip -= take
                pos += take
                if not self._skip and self._state == "magic":
                    return pos  # the frame ended with this content
                continue
            want = self._need - len(self._buf)
            self._buf += data[pos:pos + want]
            pos += want
            if len(self._buf) < self._need:
                return n
            buf, self._buf = self._buf, b""
            self._advance(buf)
            if self.error is None and self._state == "magic" and not self._skip:
                return pos  # the frame ended with this header
        return n

    def _expect(self, state: str, need: int) -> None:
        self._state, self._need = state, need

    def _advance(self, buf: bytes) -> None:
        state = self._state
        if state == "magic":
            if buf == self._MAGIC:
                self._expect("descriptor", 1)
            elif buf[1:] == b"\x2a\x4d\x18" and buf[0] & 0xF0 == 0x50:
                self._expect("skippable", 4)          # skippable frame
            else:
                self.error = ("trailing garbage after zstd data" if self.frames
                              else "corrupt zstd data: bad header")
        elif state == "skippable":
            self._skip = int.from_bytes(buf, "little")
            self.frames += 1
            self._expect("magic", 4)
        elif state == "descriptor":
            d = buf[0]
            if d & 0x08:
                self.error = "corrupt zstd data: reserved bit set in the frame header"
                return
            single = (d >> 5) & 1
            self._checksum = bool((d >> 2) & 1)
            rest = ((0 if single else 1) + (0, 1, 2, 4)[d & 3]
                    + ((1 if single else 0), 2, 4, 8)[d >> 6])
            if rest:
                self._expect("header", rest)
            else:
                self._expect("block", 3)
        elif state == "header":
            self._expect("block", 3)
        elif state == "block":
            h = int.from_bytes(buf, "little")
            kind = (h >> 1) & 3
            if kind == 3:
                self.error = "corrupt zstd data: reserved block type"
                return
            self._skip = 1 if kind == 1 else h >> 3
            if not h & 1:
                self._expect("block", 3)
            elif self._checksum:
                self._expect("checksum", 4)
            else:
                self.frames += 1
                self._expect("magic", 4)
        elif state == "checksum":
            self.frames += 1
            self._expect("magic", 4)


class _ZstandardStream:
    """``read(n)`` over zstd data with the ``zstandard`` package.

    Each frame is decoded by its own stream reader (output bounded by
    ``n``), fed only the bytes of that frame: so a frame's output is
    returned in full before anything after it (damage, garbage) is looked
    at.  :class:`_ZstdFrames` finds the frame ends and tells truncation.
    """

    class _FrameInput:
        """The bytes of one frame, then end of input."""

        def __init__(self, raw: "_Raw", frames: "_ZstdFrames"):
            self._raw, self._frames = raw, frames
            self._ended = False

        def read(self, n: int = -1) -> bytes:
            if self._ended:
                return b""
            data = self._raw.read(n)
            used = self._frames.feed(data)
            if used < len(data):
                self._raw.unread(data[used:])
                data = data[:used]
            if data and self._frames.error is None and self._frames.at_boundary():
                self._ended = True
            return data

    def __init__(self, raw: "_Raw", name: Optional[str]):
        import zstandard

        self._zstd = zstandard
        self._dctx = zstandard.ZstdDecompressor()
        self._raw = raw
        self._name = name
        self._frames = _ZstdFrames()
        self._reader = None
        self._done = False

    def _fail(self, reason: str, cause: Optional[BaseException] = None) -> SourceError:
        self._done = True
        err = _source_error(self._name, self._frames.error or reason)
        err.__cause__ = cause
        return err

    def read(self, n: int) -> bytes:
        while not self._done:
            if self._reader is None:
                if not self._raw.peek_exact(1):
                    self._done = True  # a clean end, between frames
                    break
                self._reader = self._dctx.stream_reader(
                    self._FrameInput(self._raw, self._frames), read_size=self._raw.read_size,
                    read_across_frames=False, closefd=False)
            try:
                out = self._reader.read(n)
            except self._zstd.ZstdError as exc:
                raise self._fail(f"corrupt zstd data: {exc}", exc) from exc
            if out:
                return out
            if self._frames.error:
                raise self._fail(self._frames.error)
            if not self._frames.at_boundary():
                raise self._fail("truncated zstd data (unexpected end of input)")
            self._reader = None
        return b""


def _zstd_factory() -> Callable[[], object]:
    backend = _zstd_backend()
    if backend == "stdlib":
        from compression import zstd  # type: ignore[import-not-found]

        return zstd.ZstdDecompressor
    if backend == "zstandard":
        return _ZstandardStream
    raise LookupError("zstd")


class _Format(NamedTuple):
    name: str
    magic: bytes        # what every member/stream starts with
    padding: bool       # NUL padding allowed between members / at the end


_GZIP = _Format("gzip", b"\x1f\x8b\x08", True)
_BZIP2 = _Format("bz2", b"BZh", False)
_XZ = _Format("xz", b"\xfd7zXZ\x00", True)
_ZSTD = _Format("zstd", b"\x28\xb5\x2f\xfd", False)


def _detect(prefix: bytes) -> Optional[_Format]:
    if prefix.startswith(_GZIP.magic):
        return _GZIP
    if (prefix.startswith(b"BZh") and len(prefix) >= 10 and 0x31 <= prefix[3] <= 0x39
            and prefix[4:10] in (b"\x31\x41\x59\x26\x53\x59", b"\x17\x72\x45\x38\x50\x90")):
        return _BZIP2
    if prefix.startswith(_XZ.magic):
        return _XZ
    if prefix.startswith(_ZSTD.magic):
        return _ZSTD
    return None


def _decoder_factory(fmt: _Format) -> Callable[[], object]:
    if fmt is _GZIP:
        return _ZlibGzip
    if fmt is _BZIP2:
        return bz2.BZ2Decompressor
    if fmt is _XZ:
        import lzma

        return lambda: lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
    return _zstd_factory()


class _Decompressed:
    """``read(n)`` over a compressed stream of one or more members."""

    def __init__(self, raw: _Raw, fmt: _Format, factory: Callable[[], object],
                 name: Optional[str]):
        self._raw = raw
        self._fmt = fmt
        self._factory = factory
        self._name = name
        self._dec = None
        self._done = False
        self._members = 0

    def _error(self, what: str) -> SourceError:
        return _source_error(self._name, f"corrupt {self._fmt.name} data: {what}")

    def _start_member(self) -> bool:
        """Position at the next member; False at a clean end of the stream."""
        magic = self._fmt.magic
        while True:
            head = self._raw.peek_exact(len(magic))
            if not head:
                return False
            if self._fmt.padding and head[:1] == b"\0":
                data = self._raw.read()
                stripped = data.lstrip(b"\0")
                self._raw.unread(stripped)
                continue
            if not head.startswith(magic):
                if self._members == 0:
                    raise self._error("bad header")
                raise _source_error(self._name, f"trailing garbage after {self._fmt.name} data")
            self._dec = self._factory()
            self._members += 1
            return True

    def read(self, n: int) -> bytes:
        while not self._done:
            if self._dec is None:
                if not self._start_member():
                    self._done = True
                    return b""
            dec = self._dec
            if dec.needs_input:
                data = self._raw.read()
                if not data:
                    raise _source_error(
                        self._name,
                        f"truncated {self._fmt.name} data (unexpected end of input)")
            else:
                data = b""
            try:
                out = dec.decompress(data, n)
            except (OSError, EOFError, ValueError, zlib.error) as exc:
                raise self._error(str(exc) or type(exc).__name__) from exc
            except Exception as exc:  # lzma.LZMAError, zstd errors
                raise self._error(str(exc) or type(exc).__name__) from exc
            if dec.eof:
                self._raw.unread(dec.unused_data)
                self._dec = None
            if out:
                return out
        return b""


class _Plain:
    def __init__(self, raw: _Raw):
        self._raw = raw

    def read(self, n: int) -> bytes:
        return self._raw.read(n)


# ---------------------------------------------------------------------------
# ChunkReader
# ---------------------------------------------------------------------------


class ChunkReader:
    """The decompressed content of one input, as ``bytes`` chunks.

    Use as a context manager and iterate::

        with open_chunks(ref) as reader:
            if reader.is_binary:
                ...                     # skip it, and say so
            for chunk in reader:
                ...

    Iteration yields chunks of at most ``chunk_size`` bytes whose
    concatenation is the whole decompressed content; it raises
    :class:`SourceError` on a read error or a corrupt compressed stream,
    after every chunk decoded before the damage.  Like a file, the reader is
    its own iterator: it can be consumed once.

    ``bytes_read_compressed`` counts the bytes read from the input itself
    (equal to the content for an uncompressed input) and ``bytes_out`` the
    decompressed bytes yielded so far; ``size`` is the size on disk when
    known: together they drive a progress bar.
    """

    def __init__(self, source: Union[InputRef, str, os.PathLike, BinaryIO],
                 chunk_size: int = DEFAULT_CHUNK_SIZE):
        if chunk_size < 1:
            raise ValueError("chunk_size must be positive")
        self.chunk_size = int(chunk_size)
        self.size: Optional[int] = None
        self.bytes_out = 0
        self._own = False
        self._file: Optional[BinaryIO] = None
        self._first: Optional[bytes] = None
        self._buffered: List[bytes] = []
        self._pending_error: Optional[SourceError] = None
        self._gen: Optional[Iterator[bytes]] = None
        self._closed = False

        if isinstance(source, InputRef):
            if source.status is not None:
                raise _source_error(source.path, source.status)
            self.path: Optional[str] = source.path
            self.size = source.size
            fileobj = self._open_path(source.path)
        elif isinstance(source, (str, os.PathLike)):
            self.path = os.fsdecode(source)
            fileobj = self._open_path(self.path)
        elif hasattr(source, "read"):
            name = getattr(source, "name", None)
            self.path = name if isinstance(name, str) else None
            fileobj = source
        else:
            raise TypeError(f"cannot read from {type(source).__name__}")
        self._file = fileobj
        read_size = max(self.chunk_size, 64 * 1024)
        self._raw = _Raw(fileobj, self.path, read_size)
        try:
            self.compression: Optional[str] = None
            fmt = _detect(self._raw.peek_exact(10))
            if fmt is None:
                self._stream = _Plain(self._raw)
            else:
                self.compression = fmt.name
                try:
                    factory = _decoder_factory(fmt)
                except LookupError:
                    raise _source_error(self.path,
                                        "zstd support needs the zstandard package") from None
                except ImportError as exc:
                    raise _source_error(
                        self.path, f"{fmt.name} support is not available ({exc})") from None
                if factory is _ZstandardStream:
                    self._stream = _ZstandardStream(self._raw, self.path)
                else:
                    self._stream = _Decompressed(self._raw, fmt, factory, self.path)
        except BaseException:
            self.close()
            raise

    # -- opening -------------------------------------------------------------

    def _open_path(self, path: str) -> BinaryIO:
        if path == STDIN:
            stdin = sys.stdin
            buf = getattr(stdin, "buffer", None) if stdin is not None else None
            if buf is None:
                raise _source_error(path, "standard input is not available")
            return buf
        try:
            st = os.stat(path)
        except OSError as exc:
            reason = _os_reason(exc)
            if exc.errno == errno.ENOENT and os.path.islink(path):
                reason = DANGLING_SYMLINK
            raise _source_error(path, reason) from exc
        if stat.S_ISDIR(st.st_mode):
            raise _source_error(path, IS_A_DIRECTORY)
        if stat.S_ISSOCK(st.st_mode) or stat.S_ISBLK(st.st_mode):
            raise _source_error(path, f"special file ({_special_kind(st.st_mode)})")
        if self.size is None and stat.S_ISREG(st.st_mode):
            self.size = st.st_size
        try:
            f = open(path, "rb")
        except OSError as exc:
            raise _source_error(path, _os_reason(exc)) from exc
        self._own = True
        return f

    # -- counters ------------------------------------------------------------

    @property
    def bytes_read_compressed(self) -> int:
        """Bytes read from the input itself so far (compressed bytes)."""
        return self._raw.count

    @property
    def display_name(self) -> str:
        return display_name(self.path)

    # -- peeking -------------------------------------------------------------

    def _fill_first_block(self) -> None:
        if self._first is not None:
            return
        got = 0
        try:
            while got < BINARY_BLOCK_SIZE:
                data = self._stream.read(self.chunk_size)
                if not data:
                    break
                self._buffered.append(data)
                got += len(data)
        except SourceError as exc:
            self._pending_error = exc
        self._first = b"".join(self._buffered)[:BINARY_BLOCK_SIZE]

    def peek(self) -> bytes:
        """The first block (up to 64 KiB) of the decompressed content."""
        self._fill_first_block()
        assert self._first is not None
        return self._first

    @property
    def is_binary(self) -> bool:
        """Whether the content is binary (see :func:`looks_binary`)."""
        return looks_binary(self.peek())

    # -- iteration -----------------------------------------------------------

    def _chunks(self) -> Iterator[bytes]:
        try:
            self._fill_first_block()
            cs = self.chunk_size
            while self._buffered:
                data = self._buffered.pop(0)
                for i in range(0, len(data), cs):
                    piece = data[i:i + cs]
                    self.bytes_out += len(piece)
                    yield piece
            if self._pending_error is not None:
                err, self._pending_error = self._pending_error, None
                raise err
            while True:
                data = self._stream.read(cs)
                if not data:
                    break
                self.bytes_out += len(data)
                yield data
        finally:
            self.close()

    def __iter__(self) -> "ChunkReader":
        return self

    def __next__(self) -> bytes:
        if self._gen is None:
            if self._closed:
                raise StopIteration
            self._gen = self._chunks()
        return next(self._gen)

    # -- context management --------------------------------------------------

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._own and self._file is not None:
            try:
                self._file.close()
            except OSError:
                pass

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> "ChunkReader":
        return self

    def __exit__(self, *exc_info) -> None:
        if self._gen is not None:
            self._gen.close()
        self.close()

    def __repr__(self) -> str:
        return (f"<ChunkReader {self.display_name!r} compression={self.compression!r} "
                f"out={self.bytes_out}>")


def open_chunks(ref_or_path: Union[InputRef, str, os.PathLike, BinaryIO],
                chunk_size: int = DEFAULT_CHUNK_SIZE) -> ChunkReader:
    """Open one input for reading as decompressed chunks.

    ``ref_or_path`` is an :class:`InputRef`, a path (``"-"`` for standard
    input) or an open binary file object (read, not closed).  Raises
    :class:`SourceError` naming the path and the reason when the input
    cannot be opened: missing, permission denied, a directory, a socket, an
    :class:`InputRef` with an error status, zstd without a zstd decoder.
    """
    return ChunkReader(ref_or_path, chunk_size)
