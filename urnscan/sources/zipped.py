"""Zip containers (EPUB, DOCX, ODT, XLSX, JAR, zip): one document per file
member, read with the standard library's :mod:`zipfile`.

Members are visited in the order of the central directory (APPNOTE 6.3,
section 4.3.12) and each is read in bounded steps.  Directories are not
documents.  Members are skipped, and counted, when they are encrypted,
compressed with a method :mod:`zipfile` cannot read, or named like a
binary file (images, fonts, audio, video, class files, nested archives:
containers are not opened recursively); every other member is decoded and
sniffed like any document.  A damaged member (bad CRC, corrupt deflate
data) stops the input, with the hits found before it kept.
"""
from __future__ import annotations

import zipfile
import zlib
from typing import BinaryIO, Iterator

from ..errors import SourceError
from .document import Document

#: Members with these name endings are not read.
BINARY_SUFFIXES = (
    ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp", ".ico", ".emf", ".wmf",
    ".ttf", ".otf", ".woff", ".woff2", ".mp3", ".mp4", ".m4a", ".ogg", ".wav", ".avi", ".mov",
    ".class", ".so", ".dll", ".exe", ".bin", ".dat",
    ".zip", ".jar", ".war", ".ear", ".epub", ".docx", ".xlsx", ".pptx", ".odt", ".ods", ".odp",
    ".gz", ".bz2", ".xz", ".zst", ".7z", ".rar", ".pdf",
)


def zip_documents(fileobj: BinaryIO, chunk_size: int) -> Iterator[Document]:
    """The members of a zip archive (a seekable file) as documents."""
    try:
        archive = zipfile.ZipFile(fileobj)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as exc:
        raise SourceError(f"corrupt zip archive: {exc}") from exc
    with archive:
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
            except (zipfile.BadZipFile, ValueError, EOFError) as exc:
                raise SourceError(f"member {name}: {exc}") from exc
            yield Document(name, _member_chunks(member, name, chunk_size), encoded_size=info.compress_size)


def _member_chunks(member, name: str, chunk_size: int) -> Iterator[bytes]:
    with member:
        try:
            while True:
                data = member.read(chunk_size)
                if not data:
                    return
                yield data
        except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, OSError) as exc:
            raise SourceError(f"member {name}: {exc}") from exc
