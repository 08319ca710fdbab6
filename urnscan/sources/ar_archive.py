"""Unix ar archives: Debian packages (``.deb``: ``debian-binary``,
``control.tar.xz``, ``data.tar.xz``) and static libraries, one document
per member, read front to back.

The format (as ar(5) of BSD and GNU binutils describe it, and deb(5) for
Debian packages): the magic ``!<arch>\\n``, then for each member a 60-byte
header -- name (16 bytes), date (12), owner (6), group (6), mode (8),
size in decimal (10), the end mark `````\\n`` -- followed by ``size``
bytes of data and a ``\\n`` when ``size`` is odd.  A GNU name ends in
``/``; a BSD long name is ``#1/N``, its N bytes first in the data; the
symbol table (``/``, ``/SYM64/``, ``__.SYMDEF``) and GNU's table of long
names (``//``) are not documents.

A member is read as a tar member is (:func:`.tarred.member_documents`):
decompressed when compressed on its own, and when it is a tar archive
(a package's ``data.tar.xz``) its members are the documents, named
``data.tar.xz!./usr/share/doc/pkg/README``; a member whose own content is
damaged is read up to the damage, the members after it are read, and the
input then ends with an error that names it.  Object files are binary:
skipped and counted.
"""
from __future__ import annotations

from typing import BinaryIO, Iterator

from ..errors import SourceError
from .document import Document, MemberData, MemberFailures
from .documents import AR_MAGIC
from .tarred import member_documents

_HEADER = 60
_END_MARK = b"`\n"
#: members that index the archive rather than hold a file
_INDEXES = ("/", "//", "/SYM64/", "__.SYMDEF", "__.SYMDEF SORTED")
#: the longest BSD member name read (``#1/N``)
_MAX_NAME = 4096


def ar_documents(stream: BinaryIO, chunk_size: int, depth: int = 0) -> Iterator[Document]:
    """The members of an ar archive (read front to back from ``stream``)
    as documents (``depth``: how deep inside other archives it is); a
    member's chunks must be read or dropped before the next document is
    asked for."""
    if stream.read(len(AR_MAGIC)) != AR_MAGIC:
        raise SourceError("corrupt ar archive: no !<arch> magic")
    at = len(AR_MAGIC)
    failures = MemberFailures()
    while True:
        header = stream.read(_HEADER)
        if not header:
            failures.raise_any("ar")
            return
        if len(header) < _HEADER or header[58:] != _END_MARK:
            raise SourceError(f"corrupt ar archive: no member header at byte {at}")
        field = header[48:58].strip()
        if not field.isdigit():
            raise SourceError(f"corrupt ar archive: member size {field!r} at byte {at}")
        size = int(field)
        name = header[:16].decode("latin-1").rstrip(" ")
        member = _Member(stream, size)
        if name.startswith("#1/") and name[3:].isdigit() and int(name[3:]) <= min(size, _MAX_NAME):
            name = member.read_name(int(name[3:]))
        elif name not in _INDEXES and name.endswith("/"):
            name = name[:-1]
        if name not in _INDEXES:
            yield from failures.documents(member_documents(name, member.chunks(name, chunk_size), size, chunk_size,
                                                           depth))
        member.skip_rest()
        at += _HEADER + size + (size & 1)


class _Member(MemberData):
    """The data of one member: a BSD long name first, then its chunks;
    what the reader of its documents left is skipped, with the padding
    byte."""

    def read_name(self, n: int) -> str:
        data = self.stream.read(n)
        self.left -= len(data)
        return data.rstrip(b"\0").decode("utf-8", "replace")

    def skip_rest(self) -> None:
        while self.left:
            data = self.stream.read(min(1 << 16, self.left))
            if not data:
                raise SourceError("corrupt ar archive: it ends inside a member")
            self.left -= len(data)
        if self.size & 1:
            self.stream.read(1)
