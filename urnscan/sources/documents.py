"""The documents inside an input: mail archives, web archives, zip
containers, tar and ar archives and PDFs, each document as a stream of
UTF-8 chunks.

:func:`open_documents` opens one input (decompressed as :func:`open_chunks`
does), tells its kind from its first bytes and its name
(:func:`container_kind`), and yields the :class:`Document` objects to scan,
in the order they stand in the input.  Every document has an id a user can
follow back:

========== ====================================== ==============================
kind       one document per                       id
========== ====================================== ==============================
``mbox``   message part (leaf of the MIME tree)   ``<Message-ID>/2``, or ``#3/2``
                                                  (3rd message) without an id
``eml``    message part                           ``<Message-ID>/2`` or ``#1/2``
``warc``   ``response``, ``resource`` and          its ``WARC-Target-URI`` (then
           ``conversion`` record (WARC, WET)       `` <record id>`` when repeated)
``zip``    file member (EPUB, DOCX, ODT, XLSX,     the member name,
           JAR, zip)                              ``OEBPS/ch1.xhtml``
``tar``    regular file member (``.tar``,          the member name,
           ``.tar.gz``, ``.tgz``, ``.tar.xz``...)  ``pkg-1.0/README``
``ar``     member (``.deb``; a tarball inside:     ``data.tar.xz!./usr/share/doc``
           its members)                           ``/pkg/README``
``pdf``    page                                   ``page=3`` (as in ``#page=3``)
           embedded file (a Factur-X invoice's     its file name, ``factur-x.xml``
           XML)
========== ====================================== ==============================

A plain input is one document without an id.  How kinds are told apart
(first bytes after decompression): ``PK\\x03\\x04`` / ``PK\\x05\\x06`` zip,
``%PDF-`` first (or starting a line of the first 1024 bytes before an
object) PDF, ``WARC/`` WARC, a ustar header block (:func:`tar_header`)
tar, ``!<arch>`` ar, a ``From `` line holding a time followed by a header
field mbox; a name ending in ``.eml``, ``.mht`` or ``.mhtml`` with a
header field first, or
whatever the name a header that only a message has and an encoding to
undo (:func:`message_head`: a Maildir's or an MH folder's files, news
articles, MHTML pages) is one mail message.
Of mail headers only the informational fields are scanned (:mod:`.mail`);
WARC headers and HTTP headers are not scanned; mail bodies
are decoded (quoted-printable, base64) and every document is transcoded
to UTF-8 when its charset or byte-order mark says so (:mod:`.charsets`).

Documents declared as images, audio, video or fonts are skipped without
being read; every other document whose first 64 KiB look binary
(:func:`looks_binary`) is skipped too.  Skipped documents are counted
with their reason (:attr:`DocumentReader.skipped`), never scanned.

Limits: the decoded documents together may not outgrow the ratio limit
(:mod:`.limits`) against the bytes of the input they came from, nor one
document against its own encoded size (a zip member's compressed size, a
WARC record's length): reading stops with :class:`LimitError`.  Memory is
bounded by the chunk size, except for one mail message, which is parsed
whole (up to :data:`MAX_MESSAGE_BYTES`), one file a PDF embeds, which
PDFium hands whole (up to :data:`.pdf.MAX_EMBEDDED_BYTES`), and for the list of members of a
zip archive, the pages of a PDF and the target URIs of a WARC file seen so
far.  Zip archives and PDFs need random access: read from standard input
or a compressed stream, they are first copied to a temporary file.
"""
from __future__ import annotations

import enum
import io
import os
import re
import shutil
import stat
import tempfile
from collections import Counter
from typing import BinaryIO, Iterable, Iterator, Optional, Tuple, Union

from ..errors import LimitError, SourceError
from ..lazyre import LazyPattern
from .charsets import as_utf8, bom_encoding
from .document import ChunkStream, Document, declared_binary, peek
from .inputs import STDIN, InputRef, display_name
from .limits import DecompressionLimit
from .reader import BINARY_BLOCK_SIZE, DEFAULT_CHUNK_SIZE, ChunkReader, _source_error, looks_binary

__all__ = ["ContainerKind", "Document", "DocumentReader", "container_kind", "open_documents",
           "declared_binary", "PDF_MISSING"]

#: A mail message larger than this is skipped (it is parsed whole).
MAX_MESSAGE_BYTES = 64 << 20
#: Why a PDF is skipped when PDFium (pypdfium2) is not installed.
PDF_MISSING = "PDF text needs the pypdfium2 package: pip install 'urnscan[pdf]'"
#: Why a plain input is skipped.
BINARY_CONTENT = "binary content"


class ContainerKind(str, enum.Enum):
    """The kinds of input that hold several documents."""

    MBOX = "mbox"
    EML = "eml"
    WARC = "warc"
    ZIP = "zip"
    TAR = "tar"
    AR = "ar"
    PDF = "pdf"


#: a header field's line (RFC 5322 section 2.2): its name, printable ASCII
_FIELD_NAME = LazyPattern(rb"([!-9;-~]{1,76}):")


def _header_line(line: bytes) -> bool:
    """An RFC 5322 section 2.2 header field: printable ASCII name, ``:``."""
    return _FIELD_NAME.match(line) is not None


#: the fields that open a message saved one a file as it arrived -- a
#: Maildir's or an MH folder's file, a news article, a client's export:
#: the trace fields a delivery adds first (RFC 5322 section 3.6.7, RFC 5321
#: section 4.4), the originator and identification fields (sections 3.6.2
#: to 3.6.4), MIME's version (RFC 2045 section 4), a news article's path
#: (RFC 5536 section 3.1.5), or any ``X-`` field
_MESSAGE_FIRST_FIELD = LazyPattern(
    rb"(?:[Xx]-[!-9;-~]{0,74}|(?i:return-path|received|delivered-to|envelope-to|from|sender|reply-to|to|date"
    rb"|message-id|subject|mime-version|path|newsgroups)):")
#: among a message's fields, those only a message has: its date and
#: identifier, its trace, its MIME version (RFC 5322 sections 3.6.1,
#: 3.6.4, 3.6.7; RFC 2045 section 4)
_MESSAGE_ONLY_FIELDS = frozenset({b"date", b"message-id", b"received", b"return-path", b"delivered-to",
                                  b"mime-version"})
#: how far into an input the end of a message's header is looked for
MESSAGE_HEADER_REACH = 64 * 1024


def may_open_message(head: bytes) -> bool:
    """Whether ``head`` starts with a field that opens a mail message
    (a quick test; :func:`message_head` is the whole one)."""
    return _MESSAGE_FIRST_FIELD.match(head) is not None


def message_head(head: bytes) -> bool:
    """Whether ``head`` opens one mail message whatever the file's name
    (RFC 5322 section 2.1) that must be decoded to be read: header fields,
    each line a field or its folded continuation (section 2.2.3), up to an
    empty line within the first :data:`MESSAGE_HEADER_REACH` bytes;
    ``From`` among them (section 3.6: every message has one) and a field
    only a message has (:data:`_MESSAGE_ONLY_FIELDS`), or else
    ``MIME-Version`` and a ``multipart/related`` ``Content-Type`` (a web
    page saved as one MIME entity, MHTML, RFC 2557 section 3, which need
    not be mail: an office suite's "Single File Web Page" has no ``From``,
    whatever the file's name), each name capitalised as mail software
    writes it (a YAML mapping or a package's control file whose keys look
    like fields has no such set); and an encoding to undo
    (:func:`_encoded_field`).  A message in plain 7-bit or
    8-bit text reads the same as text, and stays text: its hits keep the
    file's lines."""
    if not may_open_message(head):
        return False
    names = set()
    encoded = related = False
    at, reach = 0, min(len(head), MESSAGE_HEADER_REACH)
    name = b""
    while at < reach:
        end = head.find(b"\n", at, reach)
        if end < 0:
            return False  # the header goes on past what is looked at
        line = head[at:end - 1] if end > at and head[end - 1] == 0x0D else head[at:end]
        at = end + 1
        if not line:
            if b"from" in names:
                return encoded and not names.isdisjoint(_MESSAGE_ONLY_FIELDS)
            return related and b"mime-version" in names
        if line[0] in b" \t":
            value = line  # a folded field goes on (the first line is a field: may_open_message)
        else:
            field = _FIELD_NAME.match(line)
            if field is None:
                return False
            name = field.group(1).lower()
            value = line[field.end():]
            if 0x41 <= line[0] <= 0x5A:  # as mail software writes them ("From", "Message-Id"), not YAML's "from:"
                names.add(name)
                related = related or (name == b"content-type" and _RELATED.match(value) is not None)
        encoded = encoded or _encoded_field(name, value)
    return False


#: the fields whose text an author wrote (RFC 5322 section 3.6.5): the
#: ones of a message's header that are read (:mod:`.mail`)
INFORMATIONAL_FIELDS = ("Subject", "Comments", "Keywords")
_INFORMATIONAL_NAMES = frozenset(name.lower().encode("ascii") for name in INFORMATIONAL_FIELDS)
#: what a message's header says must be undone to read it: a transfer
#: encoding (RFC 2045 section 6), parts (RFC 2046 section 5.1), or an
#: encoded word in a field whose text is read (RFC 2047 section 2)
_ENCODING = LazyPattern(rb"\s*(?:quoted-printable|base64)", re.I)
_MULTIPART = LazyPattern(rb"\s*multipart/", re.I)
#: the type of an MHTML page's aggregate (RFC 2557 section 3)
_RELATED = LazyPattern(rb"\s*multipart/related\b", re.I)


def _encoded_field(name: bytes, value: bytes) -> bool:
    """Whether the field ``name`` (lower-cased), or the line of it
    ``value``, says the message is encoded."""
    if name == b"content-transfer-encoding":
        return _ENCODING.match(value) is not None
    if name == b"content-type":
        return _MULTIPART.match(value) is not None
    return name in _INFORMATIONAL_NAMES and b"=?" in value


#: ISO 32000-1 section 7.5.2: a PDF's first line is "%PDF-" and its version
#: "1.N"; readers also find it after junk in the first 1024 bytes (a
#: MacBinary or HTTP header before it)
_PDF_MAGIC = b"%PDF-"
PDF_HEADER_REACH = 1024
#: the names a mail file goes by (RFC 5322 messages saved one a file), and
#: those of a web page saved as one MIME message (MHTML, RFC 2557: a
#: "multipart/related" message, as a browser's "Web Archive" or an office
#: suite's "Single File Web Page" writes it; the latter has no "From" field,
#: so only its name tells it from text, and its quoted-printable soft line
#: breaks fall inside names such as urn:schemas-microsoft-com:office:office)
MAIL_SUFFIXES = (".eml", ".eml.gz", ".mht", ".mht.gz", ".mhtml", ".mhtml.gz")


def _pdf_header(head: bytes) -> bool:
    """Whether ``head`` opens a PDF: ``%PDF-`` first, or further on within
    the first 1024 bytes where it starts a line (or follows a byte no text
    holds), carries a version digit and is followed by an object (``obj``):
    a program or a text that quotes the header (``PDFVER = b'%PDF-1.4'``)
    is not a PDF."""
    if head.startswith(_PDF_MAGIC):
        return True
    at = head.find(_PDF_MAGIC, 0, PDF_HEADER_REACH)
    while at > 0:
        before = head[at - 1]
        version = head[at + len(_PDF_MAGIC):at + len(_PDF_MAGIC) + 1]
        if (before in b"\r\n" or before < 9 or before > 126) and version.isdigit() and b"obj" in head[at:]:
            return True
        at = head.find(_PDF_MAGIC, at + 1, PDF_HEADER_REACH)
    return False


#: a tar archive's first header block (POSIX.1-2017, pax, "ustar
#: Interchange Format"): its checksum field, and the magic "ustar" followed
#: by NUL (POSIX) or a space (GNU tar)
TAR_BLOCK = 512
_TAR_CHKSUM = slice(148, 156)
_TAR_MAGIC = slice(257, 262)


def tar_header(head: bytes) -> bool:
    """Whether ``head`` opens a tar archive: a first header block with the
    ustar magic and a checksum that matches (the sum of the block's bytes,
    the checksum field counted as spaces; old writers summed them as
    signed bytes, which readers accept too).  A pre-POSIX (V7) archive,
    without the magic, is not told apart from binary data."""
    if len(head) < TAR_BLOCK or head[_TAR_MAGIC] != b"ustar":
        return False
    field = head[_TAR_CHKSUM].replace(b"\0", b" ").strip()
    if not field or field.strip(b"01234567"):
        return False
    outside = head[:_TAR_CHKSUM.start] + head[_TAR_CHKSUM.stop:TAR_BLOCK]
    unsigned = sum(outside) + 8 * 0x20
    signed = unsigned - 256 * sum(1 for b in outside if b > 127)
    return int(field, 8) in (unsigned, signed)


#: an ar archive's first bytes (a Debian package, a static library)
AR_MAGIC = b"!<arch>\n"

#: how far into a "From " line its time is looked for
SEPARATOR_REACH = 256


def separator_line(data: bytes, at: int = 0, reach: int = SEPARATOR_REACH) -> bool:
    """Whether the line starting at ``at`` in ``data`` is an mbox separator:
    ``From `` then the sender and the time it arrived (RFC 4155 appendix A:
    ``From`` SP addr-spec SP timestamp, an asctime date such as ``Mon Jan  1
    00:00:00 2024``).  A line of prose starting "From the examples ..."
    after an empty line in an archive that did not quote it is no
    separator: it holds no time.  The time is looked for in the first
    ``reach`` bytes of the line."""
    return _SEPARATOR_LINE.match(data, at, min(len(data), at + reach)) is not None


#: "From ", then on the same line a time of day (hh:mm)
_SEPARATOR_LINE = LazyPattern(rb"From [^\r\n]*?[0-9]:[0-5][0-9]")


def container_kind(head: bytes, name: Optional[str] = None) -> Optional[ContainerKind]:
    """The kind of an input whose decompressed content starts with ``head``
    (and whose path is ``name``), or None for a plain input."""
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return ContainerKind.ZIP
    if tar_header(head):  # (before the PDF header, which a first member may hold at byte 512)
        return ContainerKind.TAR
    if head.startswith(AR_MAGIC):
        return ContainerKind.AR
    if _pdf_header(head):
        return ContainerKind.PDF
    if head.startswith(b"WARC/"):
        return ContainerKind.WARC
    if separator_line(head):
        lines = head[:4096].split(b"\n", 2)
        if len(lines) > 2 and _header_line(lines[1]):
            return ContainerKind.MBOX
    if name and name.lower().endswith(MAIL_SUFFIXES) and _header_line(head[:4096].split(b"\n", 1)[0]):
        return ContainerKind.EML
    if message_head(head):
        return ContainerKind.EML  # a Maildir's or MH folder's file, a news article
    return None


class DocumentReader:
    """The documents of one input; use as a context manager and iterate.

    ``kind`` is the :class:`ContainerKind` (None for a plain input);
    ``skip_reason`` is set when the input as a whole is not scanned (a
    binary plain input, a PDF without pypdfium2); iteration yields the
    documents to scan (skipped ones are counted in :attr:`skipped`, a
    :class:`collections.Counter` of reasons) and raises
    :class:`SourceError` when the input fails part-way, after every
    document before the failure.  A document's chunks must be read (or
    dropped) before the next document is asked for.
    """

    def __init__(self, source: Union[InputRef, str, os.PathLike, BinaryIO],
                 chunk_size: int = DEFAULT_CHUNK_SIZE, limit: DecompressionLimit = DecompressionLimit(),
                 depth: int = 0):
        self._begin(ChunkReader(source, chunk_size, limit), limit, depth)
        try:
            head = self.reader.peek()
            self.kind = container_kind(head, self.reader.path)
            self.skip_reason: Optional[str] = None
            if self.kind is None:
                self._plain_head = head
                if bom_encoding(head) is None and self._binary():
                    self.skip_reason = BINARY_CONTENT
            elif self.kind is ContainerKind.PDF:
                from .pdf import pdf_available

                if not pdf_available():
                    self.skip_reason = PDF_MISSING
        except BaseException:
            self.close()
            raise

    def _binary(self) -> bool:
        """Whether the plain input is binary; a compressed one found
        damaged on the way (:attr:`ChunkReader.is_binary`) is not, and
        iteration raises its error, as for the other inputs that fail."""
        try:
            return self.reader.is_binary
        except SourceError as exc:
            self._failed = exc
            return False

    @classmethod
    def of_messages(cls, path: str, messages: Iterable[Tuple[int, Optional[bytes]]],
                    chunk_size: int = DEFAULT_CHUNK_SIZE,
                    limit: DecompressionLimit = DecompressionLimit()) -> "DocumentReader":
        """The documents of messages of the mbox archive at ``path``, split
        off it already (numbered as :func:`.mail.mail_messages` numbers
        them): a task that scans some of an archive's messages.  The ratio
        limit weighs their documents against the messages given."""
        self = cls.__new__(cls)
        self._begin(_GivenMessages(path, chunk_size), limit, 0)
        self.kind, self.skip_reason = ContainerKind.MBOX, None
        self._messages = messages
        return self

    def _begin(self, reader, limit: DecompressionLimit, depth: int) -> None:
        self.reader = reader
        self.chunk_size = reader.chunk_size
        self.limit = limit
        self.depth = depth  # how deep inside other archives this input is (tarred.member_documents)
        self.documents = 0
        self.skipped: Counter = Counter()
        self.decoded = 0  # bytes of the documents handed out (containers)
        self._spool: Optional[BinaryIO] = None
        self._plain_head = b""
        self._messages: Optional[Iterable] = None  # (of_messages)
        self._failed: Optional[SourceError] = None  # (_binary)

    # -- what the runner reports ----------------------------------------------

    @property
    def path(self) -> Optional[str]:
        return self.reader.path

    @property
    def compression(self) -> Optional[str]:
        return self.reader.compression

    @property
    def bytes_read_compressed(self) -> int:
        return self.reader.bytes_read_compressed

    @property
    def container(self) -> Optional[str]:
        return None if self.kind is None else self.kind.value

    def skipped_summary(self) -> Optional[str]:
        """``"skipped 3 documents: 2 binary, 1 encrypted"``, or None."""
        return skipped_summary(self.skipped)

    # -- iteration ------------------------------------------------------------

    def __iter__(self) -> Iterator[Document]:
        if self.skip_reason is not None:
            return
        if self.kind is None:
            yield from self._plain()
            return
        for doc in self.container_documents():
            if doc.skipped is not None:
                self.skipped[doc.skipped] += 1
                continue
            text = self._text(doc)
            if text is not None:
                self.documents += 1
                yield text

    def _plain(self) -> Iterator[Document]:
        if self._failed is not None:
            raise self._failed
        self.documents = 1
        if bom_encoding(self._plain_head) is None:
            yield Document(None, self.reader)
            return
        text = self._text(Document(None, self.reader), guard=False)
        if text is None:
            self.documents = 0
            self.skip_reason = BINARY_CONTENT
            return
        yield text

    def _text(self, doc: Document, guard: bool = True) -> Optional[Document]:
        """``doc`` as UTF-8 chunks, or None (counted) when it is binary.
        The text an office document's XML gives (``text_of``) is text: it
        is not sniffed, which would read on until it held a block of it --
        maybe through the whole member -- before the first word is scanned;
        the ratio limit holds the XML read, not the text drawn from it."""
        if doc.text_of is not None:
            return doc._replace(chunks=as_utf8(doc.text_of(self._guarded(doc.chunks, doc) if guard else doc.chunks),
                                               doc.charset))
        chunks = as_utf8(doc.chunks, doc.charset)
        if guard:
            chunks = self._guarded(chunks, doc)
        peeked = peek(chunks, BINARY_BLOCK_SIZE)
        if looks_binary(peeked.head):
            if peeked.failed is not None:
                raise peeked.failed
            self.skipped["binary"] += 1
            if hasattr(chunks, "close"):
                chunks.close()
            return None
        return doc._replace(chunks=peeked.chunks)

    def _guarded(self, chunks: Iterable[bytes], doc: Document) -> Iterator[bytes]:
        """``chunks``, stopped at the ratio limit (module docstring)."""
        limit = self.limit
        own = 0
        for chunk in chunks:
            own += len(chunk)
            self.decoded += len(chunk)
            if doc.encoded_size is not None and not limit.allows(own, doc.encoded_size):
                raise self._error(limit.reason(f"document {doc.id}", own, doc.encoded_size), LimitError)
            encoded = self._container_bytes()
            if not limit.allows(self.decoded, encoded):
                raise self._error(limit.reason(f"{self.kind.value} documents", self.decoded, encoded),
                                  LimitError)
            yield chunk

    def _container_bytes(self) -> int:
        if self._spool is not None:
            return self._spool_size
        return self.reader.bytes_out

    def _error(self, reason: str, kind: type = SourceError) -> SourceError:
        return _source_error(self.path, reason, kind)

    def container_documents(self) -> Iterator[Document]:
        """The documents of a container as its reader gives them, skipped
        ones included, not yet decoded nor sniffed (iteration does that)."""
        kind = self.kind
        if self._messages is not None:
            from .mail import messages_documents

            return self._wrap(messages_documents(self.reader.handed(self._messages)))
        if kind is ContainerKind.MBOX or kind is ContainerKind.EML:
            from .mail import mail_documents

            return self._wrap(mail_documents(self._line_stream(), kind is ContainerKind.MBOX,
                                             MAX_MESSAGE_BYTES))
        if kind is ContainerKind.WARC:
            from .warc import warc_documents

            return self._wrap(warc_documents(self._line_stream(), self.chunk_size))
        if kind is ContainerKind.ZIP:
            from .zipped import zip_documents

            return self._wrap(zip_documents(self._random_access(), self.chunk_size, self.depth))
        if kind is ContainerKind.TAR:
            from .tarred import tar_documents

            return self._wrap(tar_documents(self._line_stream(), self.chunk_size, self.depth))
        if kind is ContainerKind.AR:
            from .ar_archive import ar_documents

            return self._wrap(ar_documents(self._line_stream(), self.chunk_size, self.depth))
        from .pdf import pdf_documents

        return self._wrap(pdf_documents(self._random_access(), self.chunk_size, self.depth))

    def archive_messages(self) -> Iterator[Tuple[int, Optional[bytes]]]:
        """The messages of an mbox archive as :func:`.mail.mail_messages`
        splits and numbers them, not parsed: another process reads their
        documents (:meth:`of_messages`)."""
        from .mail import mail_messages

        return self._wrap(mail_messages(self._line_stream(), True, MAX_MESSAGE_BYTES))

    def _wrap(self, docs: Iterator[Document]) -> Iterator[Document]:
        """Name the input in the errors of a container module."""
        try:
            yield from docs
        except LimitError:
            raise
        except SourceError as exc:
            if getattr(exc, "path", None) is not None:
                raise
            raise self._error(str(exc)) from exc

    def _line_stream(self) -> BinaryIO:
        return io.BufferedReader(ChunkStream(self.reader), buffer_size=max(self.chunk_size, 1 << 16))

    def _random_access(self) -> BinaryIO:
        """The decompressed input as a seekable file: the file itself when it
        is a plain regular file, else a temporary copy."""
        path = self.path
        if self.reader.compression is None and path is not None and path != STDIN:
            try:
                if stat.S_ISREG(os.stat(path).st_mode):
                    f = open(path, "rb")
                    self._spool = f
                    self._spool_size = os.fstat(f.fileno()).st_size
                    self.reader.close()
                    return f
            except OSError as exc:
                raise self._error(str(exc.strerror or exc)) from exc
        spool = tempfile.TemporaryFile()
        self._spool = spool
        try:
            shutil.copyfileobj(ChunkStream(self.reader), spool, self.chunk_size)
        except OSError as exc:
            if isinstance(exc, SourceError):
                raise
            raise self._error(f"cannot copy to a temporary file: {exc.strerror or exc}") from exc
        self._spool_size = spool.tell()
        spool.seek(0)
        return spool

    # -- context management ---------------------------------------------------

    def close(self) -> None:
        self.reader.close()
        if self._spool is not None:
            try:
                self._spool.close()
            except OSError:
                pass

    def __enter__(self) -> "DocumentReader":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<DocumentReader {display_name(self.path)!r} kind={self.container!r}>"


def skipped_summary(skipped: Counter) -> Optional[str]:
    """The files table's reason for the documents of an input ``skipped``
    counts by why: ``"skipped 3 documents: 2 binary, 1 encrypted"``, or None."""
    total = sum(skipped.values())
    if not total:
        return None
    parts = ", ".join(f"{n} {reason}" for reason, n in sorted(skipped.items()))
    return f"skipped {total} document{'s' if total > 1 else ''}: {parts}"


class _GivenMessages:
    """What :meth:`DocumentReader.of_messages` reads instead of a file: the
    bytes of the messages handed out so far (``bytes_out``, which the ratio
    limit weighs the documents against)."""

    compression = None
    bytes_read_compressed = 0

    def __init__(self, path: str, chunk_size: int):
        self.path = path
        self.chunk_size = chunk_size
        self.bytes_out = 0

    def handed(self, messages):
        for index, data in messages:
            if data is not None:
                self.bytes_out += len(data)
            yield index, data

    def close(self) -> None:
        pass


def open_documents(ref_or_path: Union[InputRef, str, os.PathLike, BinaryIO],
                   chunk_size: int = DEFAULT_CHUNK_SIZE,
                   limit: DecompressionLimit = DecompressionLimit()) -> DocumentReader:
    """Open one input for reading as documents (see the module docstring).
    Raises :class:`SourceError` as :func:`open_chunks` does."""
    return DocumentReader(ref_or_path, chunk_size, limit)
