"""One document of an input, as the container readers (:mod:`.mail`,
:mod:`.warc`, :mod:`.zipped`, :mod:`.tarred`, :mod:`.pdf`) hand it to
:mod:`.documents`, which opens the input and picks the reader."""
from __future__ import annotations

import io
from itertools import chain
from typing import BinaryIO, Callable, Iterable, Iterator, List, NamedTuple, Optional, Tuple, Type

from ..errors import MemberError, SourceError


class Document(NamedTuple):
    """One document of an input.

    ``id`` is None for a plain input; ``chunks`` its content (in
    ``charset``, or as its byte-order mark says); ``skipped`` the reason it
    is not scanned (then ``chunks`` is not read); ``encoded_size`` the size
    it was decoded from, when known (for the ratio limit); ``text_of``, when
    set, turns ``chunks`` into the text to scan (an office document's XML
    into its words): the ratio limit holds ``chunks``, the bytes decoded.
    """

    id: Optional[str]
    chunks: Iterable[bytes]
    charset: Optional[str] = None
    skipped: Optional[str] = None
    encoded_size: Optional[int] = None
    text_of: Optional[Callable[[Iterable[bytes]], Iterator[bytes]]] = None


class ChunkStream(io.RawIOBase):
    """A readable raw stream over an iterator of byte chunks."""

    def __init__(self, chunks: Iterable[bytes]):
        self._it = iter(chunks)
        self._rest = memoryview(b"")

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        while not self._rest:
            chunk = next(self._it, b"")
            if not chunk:
                return 0
            self._rest = memoryview(chunk)
        n = min(len(buf), len(self._rest))
        buf[:n] = self._rest[:n]
        self._rest = self._rest[n:]
        return n


class Peeked(NamedTuple):
    """The first bytes of a stream of chunks (:func:`peek`)."""

    head: bytes
    #: the whole stream again, head included; it raises ``failed`` after
    #: the chunks read before it
    chunks: Iterator[bytes]
    #: the error the stream raised within its first bytes, or None
    failed: Optional[SourceError]


def peek(chunks: Iterable[bytes], n: int) -> Peeked:
    """The first ``n`` bytes of ``chunks`` (fewer at its end, or where it
    failed: a document cut short is read up to the cut before its error)."""
    chunks = iter(chunks)
    first: List[bytes] = []
    got = 0
    try:
        for data in chunks:
            first.append(data)
            got += len(data)
            if got >= n:
                break
    except SourceError as exc:
        return Peeked(b"".join(first)[:n], chain(first, _raising(exc)), exc)
    return Peeked(b"".join(first)[:n], chain(first, chunks), None)


def _raising(exc: BaseException) -> Iterator[bytes]:
    raise exc
    yield b""  # (a generator: raises when the chunks before it are read)


#: how much of a member is decoded at a time: zlib gives nothing of a step
#: it fails in, so damage loses at most this much of the text before it
DECODE_STEP = 4096


def member_chunks(member: BinaryIO, name: str, chunk_size: int, errors: Tuple[type, ...],
                  failure: Type[SourceError] = SourceError) -> Iterator[bytes]:
    """An archive member's file object read in chunks of ``chunk_size``
    (decoded :data:`DECODE_STEP` bytes at a time), then closed; an error of
    the ``errors`` types (damage) becomes a ``failure`` naming the member,
    raised after every byte read before it."""
    with member:
        read = getattr(member, "read1", member.read)
        held = bytearray()
        error: Optional[SourceError] = None
        try:
            while True:
                data = read(DECODE_STEP)
                if not data:
                    break
                held += data
                while len(held) >= chunk_size:
                    yield bytes(held[:chunk_size])
                    del held[:chunk_size]
        except errors as exc:
            error = failure(f"member {name}: {exc}")
            error.__cause__ = exc
        if held:
            yield bytes(held)
        if error is not None:
            raise error


class MemberFailures:
    """The members of an archive that failed on their own
    (:class:`MemberError`), noted while the members after them are read:
    an archive whose parts are found apart (a zip member by the central
    directory, a tar member after its header) loses no more than the
    damaged member's rest.  :meth:`raise_any` ends the archive with an
    error that names them."""

    def __init__(self):
        self.failed: List[MemberError] = []

    def documents(self, docs: Iterable[Document]) -> Iterator[Document]:
        """One member's ``docs``, each one's chunks ending where the member
        failed, the failure noted; a failure before a document ends them."""
        try:
            for doc in docs:
                yield doc._replace(chunks=self._noted(doc.chunks))
        except MemberError as exc:
            self.failed.append(exc)

    def _noted(self, chunks: Iterable[bytes]) -> Iterator[bytes]:
        try:
            yield from chunks
        except MemberError as exc:
            self.failed.append(exc)

    def reason(self) -> Optional[str]:
        """What failed, or None: ``member b.txt: ...; member c.gz: ...``."""
        if not self.failed:
            return None
        return "; ".join(str(exc) for exc in self.failed) + "; the text before the damage and the other members read"

    def raise_any(self, kind: str) -> None:
        """Raise the archive's error when a member failed."""
        reason = self.reason()
        if reason is not None:
            raise SourceError(f"damaged {kind} archive: {reason}")


class MemberData:
    """The ``size`` bytes of an archive member's data where they stand next
    in ``stream`` (an archive read front to back: tar, ar).  A read that
    fails with one of the ``errors`` types (the archive's damage), or the
    stream ending before them, is a :class:`SourceError` naming the member;
    ``left`` is what is still unread."""

    def __init__(self, stream: BinaryIO, size: int, errors: Tuple[type, ...] = ()):
        self.stream = stream
        self.size = size
        self.left = size
        self.errors = errors

    def chunks(self, name: str, chunk_size: int) -> Iterator[bytes]:
        """The data still unread, in steps of ``chunk_size``."""
        while self.left:
            try:
                data = self.stream.read(min(chunk_size, self.left))
            except self.errors as exc:
                raise SourceError(f"member {name}: {exc}") from exc
            if not data:
                raise SourceError(f"member {name}: unexpected end of data, "
                                  f"{self.size - self.left} of its {self.size} bytes read")
            self.left -= len(data)
            yield data


_BINARY_TYPES = ("image/", "audio/", "video/", "font/")


def declared_binary(content_type: Optional[str]) -> bool:
    """Whether a declared media type says binary without a look inside."""
    return bool(content_type) and content_type.strip().lower().startswith(_BINARY_TYPES)
