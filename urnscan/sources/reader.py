"""Reading one input as decompressed byte chunks.

* :func:`open_chunks` opens one input and yields its *decompressed* content
  as ``bytes`` chunks of at most ``chunk_size`` bytes.  Compression is
  detected from the content, never from the file name.
* :func:`looks_binary` is the rule that decides whether an input is text.

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
  padding, for gzip and xz) are an error too: "trailing garbage".  A
  decoder puts bytes out before it checks them (bzip2 a whole block before
  its CRC), so the first block of a damaged stream may be garbage that
  looks binary: :attr:`ChunkReader.is_binary` decodes a compressed input
  that looks binary on, up to :data:`BINARY_CHECK_REACH` bytes, and
  raises the damage it meets.
* Decompression stops with :class:`~urnscan.errors.LimitError` when the
  output outgrows the ratio limit (:mod:`.limits`: by default 1000 times
  the compressed bytes read, beyond 16 MiB), after the chunks decoded
  before it.
* Memory stays bounded by the chunk size: no read or decompression step
  produces more than ``chunk_size`` bytes at a time (plus the 64 KiB first
  block kept for binary detection).
"""
from __future__ import annotations

import functools
import io
import os
import select
import stat
import sys
from typing import BinaryIO, Iterator, List, Optional, Union

from ..accel import accelerated
from ..errors import LimitError, SourceError
from .codecs import ZSTD_MISSING, _Decompressed, _Plain, _ZstandardStream, _decoder_factory, detect_compression
from .inputs import (
    IS_A_DIRECTORY, STDIN, InputRef, _os_reason, _special_kind, _stat_reason, display_name,
)
from .limits import DecompressionLimit

#: Default size of the chunks :func:`open_chunks` yields.
DEFAULT_CHUNK_SIZE = 1 << 20
#: How much decompressed content :func:`looks_binary` looks at.
BINARY_BLOCK_SIZE = 64 * 1024


def _source_error(path: Optional[str], reason: str, kind: type = SourceError) -> SourceError:
    err = kind(f"{display_name(path)}: {reason}")
    err.path = path  # type: ignore[attr-defined]
    err.reason = reason  # type: ignore[attr-defined]
    return err


def open_error(path: str, exc: OSError) -> SourceError:
    """Why a file could not be opened, worded as when it is listed (a file
    gone since, a dangling link, a directory in its place...)."""
    return _source_error(path, _stat_reason(exc, path))


def read_error(path: Optional[str], exc: OSError) -> SourceError:
    """Why reading an open input failed part-way."""
    return _source_error(path, f"read error: {_os_reason(exc)}")


# ---------------------------------------------------------------------------
# Binary detection
# ---------------------------------------------------------------------------

# C0 control bytes that do not occur in text: everything below 0x1C except
# TAB, LF, VT, FF, CR and ESC (ANSI colour codes in logs), plus DEL.  The
# information separators FS, GS, RS and US (0x1C-0x1F) delimit the records,
# fields and subfields of text in ISO 2709 (MARC 21 catalogue records, which
# cite URN:NBNs), so they are text.
_SUSPICIOUS = bytes([b for b in range(0x01, 0x1C) if b not in (9, 10, 11, 12, 13, 27)] + [0x7F])


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

    ``urnscan/_accel.c`` holds a compiled version, one pass over the block
    (:mod:`urnscan.accel`); ``looks_binary_py`` stays this one.
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


looks_binary_py = looks_binary
looks_binary = accelerated(looks_binary_py)

# ---------------------------------------------------------------------------
# Raw input with a peek buffer
# ---------------------------------------------------------------------------


def _arrives_in_pieces(fileobj: BinaryIO) -> bool:
    """Whether ``fileobj`` is a buffered stream over a pipe, a FIFO, a
    terminal or a socket: one whose data come as a writer writes them.
    Read with ``read1``, each read returns what has come (waiting only
    while nothing has), so that the hits of a stream that stays open
    (``slow-producer | urnscan scan -``) are found as its data come, once
    the first block that tells a binary input has, not when a whole chunk
    has.  A regular file is read a chunk at a time."""
    if not hasattr(fileobj, "read1"):
        return False
    try:
        mode = os.fstat(fileobj.fileno()).st_mode
    except (OSError, AttributeError, ValueError, io.UnsupportedOperation):
        return False
    return not stat.S_ISREG(mode)


class _Raw:
    """A binary stream with a push-back buffer and a byte counter."""

    def __init__(self, fileobj: BinaryIO, name: Optional[str], read_size: int):
        self._f = fileobj
        self._name = name
        self._pushback = b""
        self.read_size = read_size
        self.count = 0  # bytes taken from the underlying stream
        self.at_eof = False
        #: a pipe, FIFO, terminal or socket is read as its writer writes:
        #: what has come, up to the size asked, not the size asked
        self._take = self._arrived if _arrives_in_pieces(fileobj) else fileobj.read

    def read(self, n: int = -1) -> bytes:
        if n is None or n < 0:
            n = self.read_size
        if self._pushback:
            data, self._pushback = self._pushback[:n], self._pushback[n:]
            return data
        if self.at_eof:
            return b""
        try:
            data = self._take(n)
        except OSError as exc:
            raise read_error(self._name, exc) from exc
        if data is None:  # non-blocking stream with nothing available
            data = b""
        if not data:
            self.at_eof = True
        self.count += len(data)
        return bytes(data)

    def _arrived(self, n: int) -> bytes:
        """Up to ``n`` bytes of a stream that a writer fills: waits for the
        first byte only, then takes what more is there without waiting
        (``select`` with no timeout), so that a fast writer still gives
        whole chunks and a slow one gives what it wrote."""
        f = self._f
        data = f.read1(n)
        if not data or len(data) >= n:
            return data
        parts, got = [data], len(data)
        try:
            fd = f.fileno()
            while got < n and select.select([fd], [], [], 0)[0]:
                more = f.read1(n - got)
                if not more:  # the end: the next read says so
                    break
                parts.append(more)
                got += len(more)
        except (OSError, ValueError):  # no select for this stream: what came is enough
            pass
        return b"".join(parts)

    @property
    def pending(self) -> int:
        """Bytes read from the stream and pushed back."""
        return len(self._pushback)

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
# ChunkReader
# ---------------------------------------------------------------------------


#: how much of a compressed input that looks binary is decoded before it
#: is called binary (:attr:`ChunkReader.is_binary`): past the end of
#: bzip2's first block, which holds up to 900 kB of text before its CRC
BINARY_CHECK_REACH = 4 << 20


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
                 chunk_size: int = DEFAULT_CHUNK_SIZE, limit: DecompressionLimit = DecompressionLimit()):
        if chunk_size < 1:
            raise ValueError("chunk_size must be positive")
        self.chunk_size = int(chunk_size)
        self.limit = limit
        self._decoded = 0  # bytes taken from the decompressor
        self.size: Optional[int] = None
        self.bytes_out = 0
        self._own = False
        self._file: Optional[BinaryIO] = None
        self._first: Optional[bytes] = None
        self._buffered: List[bytes] = []
        self._pending_error: Optional[SourceError] = None
        self._checked = False  # decoded on by is_binary
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
            fmt = detect_compression(self._raw.peek_exact(10))
            if fmt is None:
                self._stream = _Plain(self._raw)
            else:
                self.compression = fmt.name
                try:
                    factory = _decoder_factory(fmt)
                except LookupError:
                    raise _source_error(self.path, ZSTD_MISSING) from None
                except ImportError as exc:
                    raise _source_error(
                        self.path, f"{fmt.name} support is not available ({exc})") from None
                source_error = functools.partial(_source_error, self.path)
                if factory is _ZstandardStream:
                    self._stream = _ZstandardStream(self._raw, source_error)
                else:
                    self._stream = _Decompressed(self._raw, fmt, factory, source_error)
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
            raise _source_error(path, _stat_reason(exc, path)) from exc
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
                data = self._read()
                if not data:
                    break
                self._buffered.append(data)
                got += len(data)
        except SourceError as exc:
            self._pending_error = exc
        self._first = b"".join(self._buffered)[:BINARY_BLOCK_SIZE]

    def _read(self) -> bytes:
        """The next piece of the stream, checked against the ratio limit."""
        data = self._stream.read(self.chunk_size)
        if self.compression is not None:
            self._decoded += len(data)
            consumed = self._raw.count - self._raw.pending - getattr(self._stream, "pending", 0)
            if not self.limit.allows(self._decoded, consumed):
                raise _source_error(self.path, self.limit.reason(
                    f"{self.compression} data", self._decoded, consumed), LimitError)
        return data

    def peek(self) -> bytes:
        """The first block (up to 64 KiB) of the decompressed content."""
        self._fill_first_block()
        assert self._first is not None
        return self._first

    @property
    def is_binary(self) -> bool:
        """Whether the content is binary (see :func:`looks_binary`).  Of a
        compressed input that looks binary more is decoded first, and
        not kept (:meth:`_check_decoded`): damage met there raises its
        :class:`SourceError`, as it would while reading, and the content is
        then not binary but an input that could not be read.  Once it says
        True, nothing but :meth:`peek` is left to read."""
        if not looks_binary(self.peek()):
            return False
        self._check_decoded()
        return True

    def _check_decoded(self) -> None:
        """Decode what follows the first block, keeping nothing, and raise
        the error the input fails with, if any.  A decoder puts bytes out
        before it checks them -- bzip2 a whole block of up to 900 kB before
        the block's CRC (it stands in the block's header and is compared at
        the block's end), gzip, xz and zstd what precedes the CRC or
        checksum that ends a member, a block or a frame -- so the first
        block of a damaged stream may be garbage that looks binary; the
        check after it tells damage from binary content.  Decoded up to
        :data:`BINARY_CHECK_REACH` bytes, past bzip2's first block of
        text: a large compressed binary file (a disk image) is not decoded
        whole to be skipped.  The ratio limit holds."""
        if self._pending_error is not None:
            err, self._pending_error = self._pending_error, None
            raise err
        if self.compression is None or self._checked:
            return
        self._checked = True
        while self._decoded < BINARY_CHECK_REACH and self._read():
            pass

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
                data = self._read()
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
                chunk_size: int = DEFAULT_CHUNK_SIZE,
                limit: DecompressionLimit = DecompressionLimit()) -> ChunkReader:
    """Open one input for reading as decompressed chunks.

    ``ref_or_path`` is an :class:`InputRef`, a path (``"-"`` for standard
    input) or an open binary file object (read, not closed).  Raises
    :class:`SourceError` naming the path and the reason when the input
    cannot be opened: missing, permission denied, a directory, a socket, an
    :class:`InputRef` with an error status, zstd without a zstd decoder.
    ``limit`` is the decompression ratio limit (see :mod:`.limits`).
    """
    return ChunkReader(ref_or_path, chunk_size, limit)
