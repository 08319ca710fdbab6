"""Decompression: telling the format from the first bytes, and decoding.

:func:`detect_compression` names the compression of a stream from its magic bytes
(gzip, bzip2, xz, zstd; anything else is not compressed), and the decoders
here read it back in bounded steps: no ``read(n)`` returns more than ``n``
bytes, several members or streams are read one after the other, and a
corrupt, truncated or garbage-followed stream raises :class:`SourceError`
only after every byte decoded before the damage has been returned.  The
decoders read from the reader's raw layer and build their errors with the
function they are given, so this module knows nothing about paths.
:func:`zstd_available` tells whether zstd input can be read here.
"""
from __future__ import annotations

import bz2
import zlib
from typing import Callable, NamedTuple, Optional, Protocol

from ..errors import SourceError


class _RawInput(Protocol):
    """What the decoders read from: a binary stream with a push-back buffer."""

    read_size: int

    def read(self, n: int = -1) -> bytes: ...

    def unread(self, data: bytes) -> None: ...

    def peek_exact(self, n: int) -> bytes: ...


#: why a zstd-compressed input is not read, and how to read it (the ``zstd``
#: extra), when neither decoder is there
ZSTD_MISSING = "zstd support needs the zstandard package: pip install 'urnscan[zstd]'"


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
    def pending(self) -> int:
        """Input bytes taken but not decompressed yet."""
        return len(self._tail)

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
            if buf == _ZSTD.magic:
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

        def __init__(self, raw: _RawInput, frames: "_ZstdFrames"):
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

    def __init__(self, raw: _RawInput, source_error: Callable[[str], SourceError]):
        import zstandard

        self._zstd = zstandard
        self._dctx = zstandard.ZstdDecompressor()
        self._raw = raw
        self._source_error = source_error
        self._frames = _ZstdFrames()
        self._reader = None
        self._done = False

    def _fail(self, reason: str, cause: Optional[BaseException] = None) -> SourceError:
        self._done = True
        err = self._source_error(self._frames.error or reason)
        err.__cause__ = cause
        return err

    def read(self, n: int) -> bytes:
        while not self._done:
            if self._reader is None:
                if not self._raw.peek_exact(1):
                    self._done = True  # a clean end, between frames
                    break
                self._reader = self._dctx.stream_reader(
                    self._FrameInput(self._raw, self._frames), read_size=COMPRESSED_BLOCK,
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


def detect_compression(prefix: bytes) -> Optional[_Format]:
    """The compression of a stream that starts with ``prefix`` (give at least
    its first 10 bytes), or None: the one test of magic bytes, used by the
    reader and by the planners that keep compressed files whole."""
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


#: Compressed input is read this much at a time, so that the ratio limit
#: (:mod:`.limits`) sees the input consumed closely.
COMPRESSED_BLOCK = 64 * 1024


class _Decompressed:
    """``read(n)`` over a compressed stream of one or more members."""

    def __init__(self, raw: _RawInput, fmt: _Format, factory: Callable[[], object],
                 source_error: Callable[[str], SourceError]):
        self._raw = raw
        self._fmt = fmt
        self._factory = factory
        self._source_error = source_error
        self._dec = None
        self._done = False
        self._members = 0

    def _error(self, what: str) -> SourceError:
        return self._source_error(f"corrupt {self._fmt.name} data: {what}")

    @property
    def pending(self) -> int:
        """Input bytes read but not decompressed yet, where the decoder tells
        (zlib does; bz2 and lzma keep theirs inside)."""
        return getattr(self._dec, "pending", 0)

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
                raise self._source_error(f"trailing garbage after {self._fmt.name} data")
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
                data = self._raw.read(COMPRESSED_BLOCK)
                if not data:
                    raise self._source_error(
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
    def __init__(self, raw: _RawInput):
        self._raw = raw

    def read(self, n: int) -> bytes:
        return self._raw.read(n)
