"""Zip containers (EPUB, DOCX, ODT, XLSX, JAR, zip): one document per file
member, read with the standard library's :mod:`zipfile`.

Members are visited in the order of the central directory (APPNOTE 6.3,
section 4.3.12) and each is read in bounded steps.  The members that hold
the text of an office document (DOCX, PPTX, XLSX, ODT, ODP, ODS) are read
as their text (:mod:`.office`), where a URN split over runs is whole.
Directories are not documents.  Members are skipped, and counted, when
they are encrypted,
compressed with a method :mod:`zipfile` cannot read, or named like a
binary file (images, fonts, audio, video, class files, libraries); every
other member is read as a tar member is (:func:`.tarred.member_documents`:
decompressed when compressed on its own; an archive, PDF or mail archive
inside, an EPUB in a zip of books, read as its documents), then decoded
and sniffed like any document.  The central directory says where each
member starts (APPNOTE 6.3, section 4.3.12), so a damaged member (bad CRC,
corrupt deflate data, a member compressed on its own that does not decode)
costs only its own rest: its text before the damage is scanned, the
members after it are read, and the input ends with an error that names
each damaged member (:class:`.document.MemberFailures`).  A member whose
local header is damaged is named there too.
"""
from __future__ import annotations

import zipfile
import zlib
from functools import partial
from typing import BinaryIO, Iterator

from ..errors import MemberError, SourceError
from .document import Document, MemberFailures, member_chunks
from .office import flavor_of, is_opendocument, office_text

#: the largest ``mimetype`` member read to tell an OpenDocument archive
_MIMETYPE_BYTES = 256

#: Members with these name endings are not read.
BINARY_SUFFIXES = (
    ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp", ".ico", ".emf", ".wmf",
    ".ttf", ".otf", ".woff", ".woff2", ".mp3", ".mp4", ".m4a", ".ogg", ".wav", ".avi", ".mov",
    ".class", ".so", ".dll", ".exe", ".bin", ".dat", ".7z", ".rar",
)


#: what reading a damaged member raises (a bad CRC, corrupt deflate data)
_DAMAGE = (zipfile.BadZipFile, zlib.error, EOFError, ValueError, OSError)


def zip_documents(fileobj: BinaryIO, chunk_size: int, depth: int = 0) -> Iterator[Document]:
    """The members of a zip archive (a seekable file) as documents
    (``depth``: how deep inside other archives it is)."""
    try:
        archive = zipfile.ZipFile(fileobj)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as exc:
        raise SourceError(f"corrupt zip archive: {exc}") from exc
    failures = MemberFailures()
    with archive:
        opendocument = _opendocument(archive)
        for info in archive.infolist():
            if info.is_dir():
                continue
            name = info.filename
            if info.flag_bits & 0x1:
                yield Document(name, (), skipped="encrypted")
                continue
            if name.lower().endswith(BINARY_SUFFIXES):
                yield Document(name, (), skipped="binary")
                continue
            try:
                member = archive.open(info)
            except NotImplementedError:
                yield Document(name, (), skipped="unsupported compression")
                continue
            except (zipfile.BadZipFile, ValueError, EOFError) as exc:  # its local header
                failures.failed.append(MemberError(f"member {name}: {exc}"))
                continue
            yield from failures.documents(_member(member, info, opendocument, chunk_size, depth))
    failures.raise_any("zip")


def _member(member: BinaryIO, info: zipfile.ZipInfo, opendocument: bool, chunk_size: int,
            depth: int) -> Iterator[Document]:
    """The documents of one member, opened: an office document's text, or
    what :func:`.tarred.member_documents` finds in it."""
    from .tarred import member_documents  # (it loads tarfile)

    name = info.filename
    chunks = member_chunks(member, name, chunk_size, _DAMAGE, MemberError)
    flavor = flavor_of(name, opendocument)
    if flavor is not None:
        yield Document(name, chunks, charset="utf-8", encoded_size=info.compress_size,
                       text_of=partial(office_text, flavor=flavor))
    else:  # decompressed when compressed on its own, a tarball's members
        yield from member_documents(name, chunks, info.compress_size, chunk_size, depth)


def _opendocument(archive: zipfile.ZipFile) -> bool:
    """Whether the archive is an OpenDocument package: its ``mimetype``
    member names such a type."""
    try:
        info = archive.getinfo("mimetype")
    except KeyError:
        return False
    if info.file_size > _MIMETYPE_BYTES or info.flag_bits & 0x1:
        return False
    try:
        return is_opendocument(archive.read(info))
    except (zipfile.BadZipFile, zlib.error, NotImplementedError, ValueError, EOFError, OSError):
        return False  # the member itself then says what is wrong with it
