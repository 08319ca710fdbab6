"""Mail: an mbox archive or one message, as documents (one per MIME part).

The archive is split into messages as it is read, one line at a time:
a message starts at a ``From `` line at the start of the file or after an
empty line (the mboxrd/mboxo separator, RFC 4155 appendix A); in the body,
``>From `` lines lose one ``>`` (mboxrd quoting).  Each message is parsed by
the standard library's :mod:`email` parser (RFC 5322, MIME of RFC
2045-2046; see :func:`parse_message`), which undoes the transfer encodings
(quoted-printable with its soft line breaks, RFC 2045 section 6.7; base64,
section 6.8) and names the charset.  So one message, never the archive, is
in memory at a time; a message larger than the cap is skipped and counted.

Every leaf of a message's MIME tree (parts of attached ``message/rfc822``
messages too) is a document, numbered from 1 in tree order:
``<Message-ID>/2``, or ``#3/2`` for the 2nd part of the 3rd message when it
has no Message-ID.  Headers are not scanned.
"""
from __future__ import annotations

import re
from email.message import Message
from email.parser import BytesHeaderParser, BytesParser
from email.policy import compat32
from typing import BinaryIO, Iterator, List, Optional

from .document import Document, declared_binary

#: The longest line read at once; longer lines are read in pieces.
MAX_LINE = 1 << 20

_QUOTED_FROM = re.compile(rb">+From ")
_SPACES = re.compile(r"\s+")


def mail_documents(stream: BinaryIO, is_mbox: bool, max_message_bytes: int) -> Iterator[Document]:
    """The documents of an mbox archive (``is_mbox``) or of one message."""
    index = 0
    parser: Optional[_Lines] = None
    size = 0
    oversized = False
    blank_before = True  # the previous line was empty (or there was none)
    line_start = True  # this piece starts a line
    while True:
        line = stream.readline(MAX_LINE)
        if not line:
            break
        starts, line_start = line_start, line.endswith(b"\n")
        if starts and is_mbox:
            if blank_before and line.startswith(b"From "):
                if parser is not None or oversized:
                    yield from _finish(parser, index, oversized)
                index += 1
                parser, size, oversized = _Lines(), 0, False
                blank_before = False
                continue
            if _QUOTED_FROM.match(line):
                line = line[1:]
        if starts:
            blank_before = line in (b"\n", b"\r\n")
        if parser is None and not oversized:
            # an .eml, or text before the first separator of an archive
            index += 1
            parser, size = _Lines(), 0
        if oversized:
            continue
        size += len(line)
        if size > max_message_bytes:
            parser, oversized = None, True
            continue
        parser.feed(line)
    if parser is not None or oversized:
        yield from _finish(parser, index, oversized)


class _Lines:
    """The lines of one message, parsed when it ends."""

    def __init__(self):
        self._lines: List[bytes] = []

    def feed(self, line: bytes) -> None:
        self._lines.append(line)

    def close(self) -> Message:
        return parse_message(b"".join(self._lines))


_HEADER_END = re.compile(rb"\r?\n\r?\n")


def parse_message(data: bytes) -> Message:
    """A message parsed as :class:`email.parser.BytesParser` parses it.

    A message that is not ``multipart/*`` or ``message/*`` (most of an
    archive) gets only its header parsed by the email package, and its
    body set as the payload as the parser would: the feed parser reads a
    body line by line, ten times slower than the scan."""
    end = _HEADER_END.search(data)
    if end is not None and not data.startswith((b"\n", b"\r\n")):
        message = BytesHeaderParser(policy=compat32).parsebytes(data[:end.end()])
        if message.get_content_maintype() not in ("multipart", "message") and not message.defects:
            message.set_payload(data[end.end():].decode("ascii", "surrogateescape"))
            return message
    return BytesParser(policy=compat32).parsebytes(data)


def _finish(parser: Optional[_Lines], index: int, oversized: bool) -> Iterator[Document]:
    if oversized or parser is None:
        yield Document(f"#{index}", (), skipped="message over the size cap")
        return
    yield from message_documents(parser.close(), index)


def message_documents(message: Message, index: int) -> Iterator[Document]:
    """The leaf parts of a parsed message as documents (module docstring)."""
    message_id = message.get("Message-ID")
    prefix = _SPACES.sub("", str(message_id)) if message_id else f"#{index}"
    number = 0
    for part in message.walk():
        if part.is_multipart():
            continue
        number += 1
        doc_id = f"{prefix}/{number}"
        content_type = part.get_content_type()
        if declared_binary(content_type):
            yield Document(doc_id, (), skipped="binary")
            continue
        payload = part.get_payload(decode=True)
        if isinstance(payload, str):  # pragma: no cover - compat32 gives bytes
            payload = payload.encode("utf-8", "surrogateescape")
        charset = part.get_content_charset() if part.get_content_maintype() == "text" else None
        yield Document(doc_id, (payload,) if payload else (), charset=charset,
                       encoded_size=None)
