"""Tar archives (source tarballs, ``.tar``, ``.tar.gz``, ``.tgz``,
``.tar.xz``...): one document per regular file member, read with the
standard library's :mod:`tarfile` as a stream.

A tar archive is a sequence of 512-byte header blocks, each followed by
its member's data (POSIX.1-2017, pax, "ustar Interchange Format"); it is
read front to back, so it needs no random access and a compressed tarball
is read as it is decompressed.  The archive is told by its first header
block (:func:`.documents.tar_header`).

Directories, links and device entries are not documents.  Every regular
file member is read as the same file of the unpacked tree would be
(:func:`member_documents`): a member compressed on its own (gzip, bzip2,
xz, zstd: a man page, a ``changelog.gz``) is decompressed; a tarball, zip
archive, PDF or mail archive inside is read as its documents,
:data:`MAX_NESTING` levels deep; anything else is decoded and sniffed like
any document, and skipped and counted when it looks binary.  Archives
written one after the other (``tar --concatenate``, ``cat a.tar b.tar``)
are all read, as ``tar --ignore-zeros`` reads them.  An archive cut short
stops the input, with the hits found before kept; a damaged header is
passed over to the next one, and a member whose own content is damaged (a
member compressed on its own that does not decode, a zip archive inside
with a damaged member) is read up to the damage and the members after it
are read (:class:`.document.MemberFailures`): the input then ends with an
error that says so, after every member.

Memory: one member's data in bounded steps; a header's extension (a pax
extended header, a GNU long name) is read whole by :mod:`tarfile`, so one
larger than :data:`MAX_EXTENSION_BYTES` stops the input.
"""
from __future__ import annotations

import io
import tarfile
from typing import BinaryIO, Iterable, Iterator, List

from ..errors import LimitError, MemberError, SourceError
from .codecs import detect_compression
from .document import ChunkStream, Document, MemberData, MemberFailures, member_chunks, peek
from .documents import PDF_HEADER_REACH, container_kind
from .limits import DecompressionLimit

#: the largest pax extended header or GNU long name read (they hold a
#: path, a link target and a few attributes: kilobytes at most)
MAX_EXTENSION_BYTES = 1 << 20

#: the header types whose data extends the next header (pax: x, g; GNU: L,
#: K; Solaris: X)
_EXTENSIONS = (tarfile.XHDTYPE, tarfile.XGLTYPE, tarfile.SOLARIS_XHDTYPE,
               tarfile.GNUTYPE_LONGNAME, tarfile.GNUTYPE_LONGLINK)


#: what reading a damaged or cut archive raises
_DAMAGE = (tarfile.TarError, EOFError, OSError)


class _BoundedInfo(tarfile.TarInfo):
    """A header whose extension (pax data, a GNU long name) is refused
    beyond :data:`MAX_EXTENSION_BYTES` before :mod:`tarfile` reads it
    whole; a block where a header should be and is none (damage: tarfile
    passes over it to the next header) is counted on the archive, and a
    header cut short noted there."""

    @classmethod
    def frombuf(cls, buf, encoding, errors):
        if 0 < len(buf) < tarfile.BLOCKSIZE and not buf.strip(b"\0"):
            # the end-of-archive blocks (or the padding after them) cut
            # short: no member lost, as a block of zeros ends the archive
            raise tarfile.EOFHeaderError("end of file header")
        return super().frombuf(buf, encoding, errors)

    @classmethod
    def fromtarfile(cls, archive):
        try:
            return super().fromtarfile(archive)
        except tarfile.InvalidHeaderError:  # (a block of zeros is an EOFHeaderError)
            archive.damaged_blocks = getattr(archive, "damaged_blocks", 0) + 1
            raise
        except tarfile.TruncatedHeaderError:  # (tarfile ends the archive there, without a word)
            archive.cut_in_header = True
            raise

    def _proc_member(self, archive):
        if self.type in _EXTENSIONS and self.size > MAX_EXTENSION_BYTES:
            raise SourceError(f"tar header extension of {self.size} bytes "
                              f"(more than {MAX_EXTENSION_BYTES}) before member {self.name!r}")
        return super()._proc_member(archive)


def tar_documents(stream: BinaryIO, chunk_size: int, depth: int = 0) -> Iterator[Document]:
    """The regular file members of a tar archive (read front to back from
    ``stream``) as documents (:func:`member_documents`; ``depth``: how
    deep inside other archives it is); a member's chunks must be read or
    dropped before the next document is asked for."""
    try:
        archive = tarfile.open(fileobj=stream, mode="r|", tarinfo=_BoundedInfo, ignore_zeros=True)
    except _DAMAGE as exc:
        raise SourceError(f"corrupt tar archive: {exc}") from exc
    failures = MemberFailures()
    with archive:
        while True:
            try:
                info = archive.next()
            except _DAMAGE as exc:
                raise SourceError(f"corrupt tar archive: {exc}") from exc
            if info is None:
                break
            # a stream read forward needs no earlier header (members are
            # not extracted, links not followed): the list would grow with
            # the archive
            archive.members.clear()
            if info.isreg():
                name = info.name
                yield from failures.documents(member_documents(
                    name, _member_chunks(archive, info, name, chunk_size), info.size, chunk_size, depth))
        damaged = getattr(archive, "damaged_blocks", 0)
        if getattr(archive, "cut_in_header", False):
            raise SourceError(_with_failures("corrupt tar archive: unexpected end of data in a header", failures))
    if damaged:  # as GNU tar, which says so and exits with 2
        raise SourceError(_with_failures(
            f"damaged tar archive: {damaged} block{'s' if damaged > 1 else ''} of 512 bytes where a header "
            "should be passed over, the members after them read", failures))
    failures.raise_any("tar")


def _with_failures(reason: str, failures: MemberFailures) -> str:
    """``reason``, then the members that failed on their own, if any."""
    members = failures.reason()
    return reason if members is None else f"{reason}; {members}"


#: how deep archives inside archives are opened (a Debian package: an ar
#: archive holding data.tar.xz; a Ruby gem: a tar archive holding
#: data.tar.gz; a source release: a tarball holding a PDF or an EPUB)
MAX_NESTING = 2
#: what is looked at to tell the kind of a member (documents.container_kind:
#: a PDF's header may stand anywhere in its first 1024 bytes)
_SNIFF_BYTES = PDF_HEADER_REACH + 8


def member_documents(name: str, chunks: Iterator[bytes], size: int, chunk_size: int,
                     depth: int = 0) -> Iterator[Document]:
    """A file member of an archive, as a file of the unpacked tree would be
    read: decompressed when it is compressed on its own; when it holds
    documents itself (a tarball, a zip archive, a PDF, a mail archive...,
    :func:`.documents.container_kind`) and is no deeper than
    :data:`MAX_NESTING`, those documents, named ``NAME!DOCUMENT``; else
    one document.  ``size`` is what the archive stores (the ratio limit
    holds the member to it)."""
    head, content, _ = peek(_decompressed(name, chunks, chunk_size), _SNIFF_BYTES)
    if depth < MAX_NESTING and container_kind(head) is not None:
        yield from _inner_documents(name, content, chunk_size, depth + 1)
    else:
        yield Document(name, content, encoded_size=size)


def _inner_documents(name: str, content: Iterator[bytes], chunk_size: int, depth: int) -> Iterator[Document]:
    """The documents of a member that is a container: read by a
    :class:`.documents.DocumentReader` of its own (a zip archive or a PDF
    is copied to a temporary file first, as from standard input)."""
    from .documents import DocumentReader

    cut: List[SourceError] = []  # the member's own data failing, not what it holds
    stream = io.BufferedReader(ChunkStream(_noting(content, cut)), max(chunk_size, 1 << 16))
    try:
        with DocumentReader(stream, chunk_size, DecompressionLimit(0), depth) as inner:
            if inner.skip_reason is not None:  # a PDF where PDFium is missing
                yield Document(name, (), skipped=inner.skip_reason)
                return
            for doc in inner.container_documents():
                yield doc._replace(id=f"{name}!{doc.id}")
    except SourceError as exc:
        _raise_for_member(name, exc, cut)


def _member_chunks(archive: tarfile.TarFile, info: tarfile.TarInfo, name: str, chunk_size: int) -> Iterator[bytes]:
    """A member's data in steps of ``chunk_size``.  After :meth:`next` the
    stream stands at the member's data, ``size`` bytes of it, read here
    from the archive's stream: :meth:`TarFile.extractfile` gives nothing of
    a step the archive ends in, and a member cut short would lose the
    text before the cut."""
    if info.issparse():  # holes to fill in from the member's map
        yield from _extracted(archive, info, name, chunk_size)
        return
    yield from MemberData(archive.fileobj, info.size, _DAMAGE).chunks(name, chunk_size)


#: the bytes :func:`.codecs.detect_compression` looks at
_MAGIC_BYTES = 10


def _decompressed(name: str, chunks: Iterator[bytes], chunk_size: int) -> Iterator[bytes]:
    """A member's content as a file of the unpacked tree would be read: a
    member compressed on its own (a man page's ``.gz``, ``changelog.gz``)
    decompressed, told by its content."""
    head, chunks, _ = peek(chunks, _MAGIC_BYTES)
    if detect_compression(head) is None:
        yield from chunks
        return
    from .reader import ChunkReader

    cut: List[SourceError] = []  # the member's own failure, not the decoder's
    stream = io.BufferedReader(ChunkStream(_noting(chunks, cut)), max(chunk_size, 1 << 16))
    try:
        with ChunkReader(stream, chunk_size, DecompressionLimit(0)) as reader:
            yield from reader
    except SourceError as exc:
        _raise_for_member(name, exc, cut)


def _raise_for_member(name: str, exc: SourceError, cut: List[SourceError]) -> None:
    """Raise the failure of a member's content, ``exc``: the failure of the
    member's own data when it was that (``cut``: the archive is damaged),
    else a :class:`MemberError` naming the member, whose content alone is
    damaged."""
    if cut:
        raise cut[0] from None
    if isinstance(exc, LimitError):
        raise exc
    raise MemberError(f"member {name}: {getattr(exc, 'reason', None) or exc}") from exc


def _noting(chunks: Iterable[bytes], failures: List[SourceError]) -> Iterator[bytes]:
    try:
        yield from chunks
    except SourceError as exc:
        failures.append(exc)
        raise


def _extracted(archive: tarfile.TarFile, info: tarfile.TarInfo, name: str, chunk_size: int) -> Iterator[bytes]:
    member = archive.extractfile(info)
    if member is not None:  # (None: not a regular file, never asked for)
        yield from member_chunks(member, name, chunk_size, _DAMAGE)
