"""Web archives: WARC and WET files, one document per content record.

Read with ``warcio`` (pure Python, streaming: a record's payload is read
in bounded steps, and the rest of a record is skipped when the next one is
asked for).  The input arrives here already decompressed (a ``.warc.gz``
is a series of gzip members, which :func:`open_chunks` reads one after the
other), so the ratio limit of :mod:`.limits` covers it.

Records of type ``response``, ``resource`` and ``conversion`` (WARC 1.1,
sections 6.3, 6.4 and 6.8; WET files hold ``conversion`` records) are
documents; ``warcinfo``, ``request``, ``metadata``, ``revisit`` and
``continuation`` records are not.  Of a ``response`` with an HTTP message
the payload is scanned, de-chunked and with its ``Content-Encoding`` undone
(the HTTP headers are not); its charset is the one the ``Content-Type``
header names.  The id is the ``WARC-Target-URI``; a URI met again gets the
``WARC-Record-ID`` after a space, and a record without a URI is named by
its record id alone.
"""
from __future__ import annotations

from typing import BinaryIO, Iterator, Optional, Set

from ..errors import SourceError
from .document import Document, declared_binary

_CONTENT_RECORDS = frozenset({"response", "resource", "conversion"})


def _charset(content_type: Optional[str]) -> Optional[str]:
    """The ``charset`` parameter of a Content-Type value (RFC 9110 section 8.3)."""
    if not content_type:
        return None
    for param in content_type.split(";")[1:]:
        name, _, value = param.partition("=")
        if name.strip().lower() == "charset":
            return value.strip().strip('"') or None
    return None


def warc_documents(stream: BinaryIO, chunk_size: int) -> Iterator[Document]:
    """The content records of a (decompressed) WARC stream as documents."""
    from warcio.archiveiterator import ArchiveIterator
    from warcio.exceptions import ArchiveLoadFailed

    seen: Set[str] = set()
    records = ArchiveIterator(stream, check_digests=False)
    # warcio writes a warning of its own to the standard error stream when a
    # record's Content-Length is wrong; the next record then fails to load,
    # which is this input's error row, said once, in the command's words
    records.INC_RECORD = ""
    while True:
        try:
            record = next(records, None)
        except ArchiveLoadFailed as exc:
            raise SourceError(f"corrupt WARC data: {' '.join(str(exc).split())}") from exc
        if record is None:
            return
        if record.rec_type not in _CONTENT_RECORDS:
            continue
        headers = record.rec_headers
        uri = headers.get_header("WARC-Target-URI")
        record_id = headers.get_header("WARC-Record-ID") or "(no record id)"
        doc_id = uri or record_id
        if doc_id in seen:
            doc_id = f"{uri} {record_id}"
        seen.add(doc_id)
        if record.http_headers is not None and record.rec_type == "response":
            content_type = record.http_headers.get_header("Content-Type")
        else:
            content_type = headers.get_header("Content-Type")
        if declared_binary(content_type):
            yield Document(doc_id, (), skipped="binary")
            continue
        yield Document(doc_id, _payload(record, chunk_size), charset=_charset(content_type),
                       encoded_size=record.length)


def _payload(record, chunk_size: int) -> Iterator[bytes]:
    payload = record.content_stream()
    try:
        while True:
            data = payload.read(chunk_size)
            if not data:
                break
            yield data
    except (OSError, ValueError, EOFError) as exc:  # zlib.error and brotli errors are ValueErrors or OSErrors
        raise SourceError(f"corrupt WARC record payload: {exc}") from exc
    # warcio stops quietly at the end of the input: a record shorter than
    # its Content-Length is a truncated file (what a decoder left unread,
    # such as the end of a chunked body, is read first)
    raw = record.raw_stream
    while raw.read(chunk_size):
        pass
    if getattr(raw, "limit", 0) > 0:
        raise SourceError("truncated WARC data (a record ends before its Content-Length)")
