"""Mail: an mbox archive or one message, as documents (one per MIME part).

The archive is read in blocks of whole lines and split into messages: a
message starts at a ``From `` line holding a time at the start of the file
or after an empty line (the mboxrd/mboxo separator, RFC 4155 appendix A:
``From a@b Mon Jan  1 00:00:00 2024``; :func:`separator_line`); the separator
line is not part of the message, and in the rest of an archive ``>From ``
lines lose one ``>`` (mboxrd quoting).  A regular expression finds the
candidate separators and the quoted lines of a whole block, so a line costs
nothing in Python.  Each message is parsed by the standard library's
:mod:`email` parser (RFC 5322, MIME of RFC 2045-2046; see
:func:`parse_message`), which undoes the transfer encodings
(quoted-printable with its soft line breaks, RFC 2045 section 6.7; base64,
section 6.8) and names the charset.  So one message, never the archive, is
in memory at a time; a message larger than the cap is skipped and counted.

Every leaf of a message's MIME tree (parts of attached ``message/rfc822``
messages too) is a document, numbered from 1 in tree order:
``<Message-ID>/2``, or ``#3/2`` for the 2nd part of the 3rd message when it
has no Message-ID.  Before them, the message's informational fields --
``Subject``, ``Comments`` and ``Keywords``, text its author wrote (RFC 5322
section 3.6.5) -- are the document ``<Message-ID>/header``, one line per
field as ``Subject: ...``, unfolded (section 2.2.3) and with their
encoded words decoded (RFC 2047: ``=?utf-8?q?...?=``); a list's message
announcing ``urn:example:foo`` says it there first.  An attached message
(``message/rfc822``: a forwarded message, each message of a digest) has
its fields read the same way, as ``<Message-ID>/2/header`` when its first
part is ``<Message-ID>/2``.  The other fields (addresses, identifiers,
routing, MIME) are not scanned: a Message-ID is no URN.
"""
from __future__ import annotations

import binascii
import re
from email.message import Message
from email.parser import BytesHeaderParser, BytesParser
from email.policy import compat32
from typing import BinaryIO, Iterable, Iterator, List, Optional, Tuple

from ..lazyre import LazyPattern
from .document import Document, declared_binary
from .documents import INFORMATIONAL_FIELDS, SEPARATOR_REACH, separator_line

#: The archive is read this many bytes at a time, cut at the last line end.
BLOCK_BYTES = 1 << 20
#: The longest line held at once; a longer line is read in pieces.
MAX_LINE = 1 << 20

#: the ">" that mboxrd quoting put before a "From " line (not at offset 0)
_QUOTING = LazyPattern(rb"(?<=\n)>(?=>*From )")
_QUOTED_FROM = LazyPattern(rb">+From ")
_SPACES = LazyPattern(r"\s+")


def line_blocks(stream: BinaryIO, block_bytes: int = BLOCK_BYTES,
                max_line: int = MAX_LINE) -> Iterator[Tuple[bytes, bool]]:
    """``(block, starts_line)``: the stream in blocks that end at a line
    end or at the end of the input; a line longer than ``max_line`` comes
    in pieces, and a block that goes on with such a line has
    ``starts_line`` false."""
    carry = b""
    starts = True
    while True:
        data = stream.read(block_bytes)
        if not data:
            if carry:
                yield carry, starts
            return
        if carry:
            data = carry + data
        cut = data.rfind(b"\n") + 1
        if cut == 0 and len(data) < max_line:
            carry = data
            continue
        if cut == 0 or len(data) - cut >= max_line:
            cut = len(data)  # the line goes on: this piece of it now
        yield (data if cut == len(data) else data[:cut]), starts
        starts = data[cut - 1] == 0x0A
        carry = data[cut:]


def _empty_line_ends_at(block: bytes, i: int, starts: bool) -> bool:
    """Whether the line that ends just before ``block[i]`` (a line start
    after ``\\n``) is empty: ``\\n`` or ``\\r\\n``; ``starts``: whether
    ``block[0]`` starts a line."""
    if i >= 2 and block[i - 2] == 0x0A:
        return True
    if i == 1:
        return starts
    if block[i - 2] == 0x0D:
        return (i == 2 and starts) or (i >= 3 and block[i - 3] == 0x0A)
    return False


def _unquote(piece: bytes, at_line_start: bool) -> bytes:
    """``piece`` with one ">" less on each quoted ``From `` line that
    starts in it (its first line only when ``at_line_start``)."""
    if b">From " not in piece:
        return piece
    piece = _QUOTING.sub(b"", piece)  # leaves the first line as it is
    return piece[1:] if at_line_start and _QUOTED_FROM.match(piece) else piece


def mail_documents(stream: BinaryIO, is_mbox: bool, max_message_bytes: int) -> Iterator[Document]:
    """The documents of an mbox archive (``is_mbox``) or of one message."""
    return messages_documents(mail_messages(stream, is_mbox, max_message_bytes))


def messages_documents(messages: Iterable[Tuple[int, Optional[bytes]]]) -> Iterator[Document]:
    """The documents of messages numbered as :func:`mail_messages` numbers
    them (a message over the size cap None)."""
    for index, data in messages:
        if data is None:
            yield Document(f"#{index}", (), skipped="message over the size cap")
        else:
            yield from message_documents(parse_message(data), index)


def mail_messages(stream: BinaryIO, is_mbox: bool, max_message_bytes: int, block_bytes: int = BLOCK_BYTES,
                  max_line: int = MAX_LINE) -> Iterator[Tuple[int, Optional[bytes]]]:
    """``(number, message)`` for each message of an mbox archive
    (``is_mbox``) or the one message of a mail, numbered from 1; the
    message is None when it is larger than ``max_message_bytes``."""
    index = 0
    pieces: Optional[List[bytes]] = None
    size = 0
    oversized = False
    blank_before = True  # the line before this block was empty (or there was none)
    in_separator = False  # the block goes on with a separator line
    reach = min(SEPARATOR_REACH, max_line)
    for block, starts in line_blocks(stream, block_bytes, max_line):
        pos = 0
        if in_separator:
            in_separator = False
            if not starts:
                pos = block.find(b"\n") + 1
                if pos == 0:
                    in_separator = True
                    continue
        while True:
            sep = _next_separator(block, pos, starts, blank_before, reach) if is_mbox else -1
            piece = block[pos:] if sep < 0 else block[pos:sep]
            if piece:
                if pieces is None and not oversized:
                    # an .eml, or text before the first separator of an archive
                    index += 1
                    pieces, size = [], 0
                if pieces is not None:
                    piece = _unquote(piece, pos > 0 or starts) if is_mbox else piece
                    pieces.append(piece)
                    size += len(piece)
                    if size > max_message_bytes:
                        pieces, oversized = None, True
            if sep < 0:
                break
            if pieces is not None or oversized:
                yield index, None if oversized else b"".join(pieces)
            index += 1
            pieces, size, oversized = [], 0, False
            pos = block.find(b"\n", sep) + 1
            if pos == 0:
                in_separator = True  # the separator line goes on in the next block
                break
        if block.endswith(b"\n"):
            blank_before = _empty_line_ends_at(block, len(block), starts)
        else:
            blank_before = False
    if pieces is not None or oversized:
        yield index, None if oversized else b"".join(pieces)


def _next_separator(block: bytes, pos: int, starts: bool, blank_before: bool, reach: int) -> int:
    """Where the next separator line at or after ``pos`` (a line start)
    starts, or -1; a separator's time is looked for in the first ``reach``
    bytes of its line (no more than the first piece of a long line)."""
    if pos == 0 and starts and blank_before and separator_line(block, 0, reach):
        return 0
    i = block.find(b"\nFrom ", max(pos - 1, 0))
    while i >= 0:
        if _empty_line_ends_at(block, i + 1, starts) and separator_line(block, i + 1, reach):
            return i + 1
        i = block.find(b"\nFrom ", i + 1)
    return -1


_HEADER_END = LazyPattern(rb"\r?\n\r?\n")


def parse_message(data: bytes) -> Message:
    """A message parsed as :class:`email.parser.BytesParser` parses it.

    The email package parses only the header of each message and part
    (the feed parser reads a body line by line, ten times slower than the
    scan).  The body of a part that is not ``multipart/*`` or ``message/*``
    (most of an archive) is set as its payload, as the parser would set
    it.  A ``multipart/*`` body is cut at its boundary lines (RFC 2046
    section 5.1.1; :func:`_body_parts`) and each part parsed so in turn.
    Anything else, or a multipart body the cut cannot read as the parser
    would (no closing boundary, a digest, a boundary line after a lone CR),
    is parsed whole by the parser."""
    message = _parsed(data, 0)
    return message if message is not None else BytesParser(policy=compat32).parsebytes(data)


#: multipart bodies nested deeper than this are parsed whole by the email package
_MAX_DEPTH = 8


def _parsed(data: bytes, depth: int) -> Optional[Message]:
    """:func:`parse_message` of ``data`` without the email package's body
    parser, or None where it is needed."""
    if data.startswith((b"\n", b"\r\n")):  # no header (a part's content type is then text/plain)
        message, body = Message(policy=compat32), 2 if data.startswith(b"\r\n") else 1
    else:
        end = _HEADER_END.search(data)
        if end is None:
            return None
        message = _header(data[:end.end()])
        if message is None:
            message = BytesHeaderParser(policy=compat32).parsebytes(data[:end.end()])
        body = end.end()
        if message.defects or message.get_payload():
            return None  # (a line of the header block the parser takes for the body's first: "From ...")
    maintype = message.get_content_maintype()
    if maintype == "message":
        return None
    if maintype != "multipart":
        message.set_payload(data[body:].decode("ascii", "surrogateescape"))
        return message
    if depth >= _MAX_DEPTH or message.get_content_subtype() == "digest":
        return None  # (a digest's parts are message/rfc822 by default, RFC 2046 section 5.1.5)
    boundary = message.get_boundary()
    cut = _body_parts(data, body, boundary) if boundary else None
    if cut is None:
        return None
    preamble, bodies, epilogue = cut
    parts = []
    for piece in bodies:
        part = _parsed(piece, depth + 1) if piece else None
        if part is None:
            return None
        parts.append(part)
    message.preamble, message.epilogue = preamble, epilogue
    message.set_payload(parts)
    return message


#: a field's first line as the feed parser tells it (email.feedparser's
#: headerRE less its other cases): a name of printable ASCII but ":", then ":"
_FIELD_START = LazyPattern(r"[\041-\071\073-\176]+:")


def _header(block: bytes) -> Optional[Message]:
    """The header block ``block`` (its fields, then the empty line that
    ends it) as the email package's header parser gives it, for a block
    of fields and their folded lines only (RFC 5322 section 2.2); None for
    anything else, which that parser reads: a ``From `` line, a line that
    is no field, a folded line first, a lone CR.  Each field is stored as
    the parser stores it (``Compat32.header_source_parse``)."""
    text = block.decode("ascii", "surrogateescape")
    lines = text.split("\n")
    if "\r" in text and any("\r" in line[:-1] for line in lines):
        return None  # (a lone CR ends a line for the parser)
    message = Message(policy=compat32)
    field: List[str] = []
    for line in lines[:-2]:  # (the empty line, then nothing after its line end)
        line += "\n"
        if line[0] in " \t":
            if not field:
                return None
            field.append(line)
            continue
        if not _FIELD_START.match(line) or line.startswith("From "):
            return None
        if field:
            message.set_raw(*compat32.header_source_parse(field))
        field = [line]
    if field:
        message.set_raw(*compat32.header_source_parse(field))
    return message


def _body_parts(data: bytes, start: int, boundary: str) -> Optional[Tuple[Optional[str], List[bytes], Optional[str]]]:
    """The preamble, the parts and the epilogue of the multipart body
    ``data[start:]``, cut where the email package's feed parser cuts it: a
    line ``--boundary``, then ``--`` on the last, then blanks and the line
    end; the line end before a boundary line is part of it (RFC 2046
    section 5.1.1).  A part keeps its header; the line end that ends it
    belongs to the boundary after it.  None for a body without its closing
    boundary, with a boundary line after a lone CR (a line end of the feed
    parser's, not looked for here) or a boundary that is not ASCII."""
    try:
        delimiter = b"--" + boundary.encode("ascii")
    except UnicodeEncodeError:
        return None
    body = data[start:]
    if b"\r" + delimiter in body:
        return None  # a boundary line after a lone CR, a line end of the feed parser's
    lines = _boundary_lines(body, delimiter)
    if len(lines) < 2 or not lines[-1][2]:
        return None  # no part, or no closing boundary (the feed parser reads the rest as the last part)
    parts = []
    for (_, after, _), (at, _, _) in zip(lines, lines[1:]):
        parts.append(_without_line_end(body[after:at]))
    first = lines[0][0]
    preamble = _without_line_end(body[:first]).decode("ascii", "surrogateescape") if first else None
    after_close = lines[-1][1]
    epilogue = body[after_close:].decode("ascii", "surrogateescape") if after_close < len(body) else ""
    return preamble, parts, epilogue


def _boundary_lines(body: bytes, delimiter: bytes) -> List[Tuple[int, int, bool]]:
    """``(start, end, closing)`` of each boundary line of ``body`` up to
    the closing one: the line starts, its end is after its line end."""
    found = []
    i = 0 if body.startswith(delimiter) else _line_starting(body, delimiter, 0)
    while i >= 0:
        j = i + len(delimiter)
        closing = body.startswith(b"--", j)
        k = j + 2 if closing else j
        while k < len(body) and body[k] in b" \t":
            k += 1
        if k == len(body) or body[k] in b"\r\n":
            end = k + (2 if body.startswith(b"\r\n", k) else 1 if k < len(body) else 0)
            found.append((i, end, closing))
            if closing:
                return found
        i = _line_starting(body, delimiter, j)
    return found


def _line_starting(body: bytes, text: bytes, at: int) -> int:
    """Where the first line after ``at`` that starts with ``text`` starts, or -1."""
    i = body.find(b"\n" + text, at)
    return i + 1 if i >= 0 else -1


def _without_line_end(piece: bytes) -> bytes:
    """``piece`` less the line end it ends with, if any."""
    if piece.endswith(b"\r\n"):
        return piece[:-2]
    if piece.endswith(b"\n"):
        return piece[:-1]
    return piece


_INFORMATIONAL_BY_KEY = {name.lower(): name for name in INFORMATIONAL_FIELDS}  # (field names are case-insensitive)
#: a line break that folds a field: the white space after it stays (RFC
#: 5322 section 2.2.3)
_FOLD = LazyPattern(r"\r?\n(?=[ \t])")


def header_text(message: Message) -> str:
    """The message's informational fields, one line each (``Subject:
    ...``), unfolded and with their RFC 2047 encoded words decoded; ""
    when it has none.  Bytes outside ASCII written as they are (a raw
    UTF-8 subject) stay as surrogate escapes: ``surrogateescape`` gives
    them back."""
    lines = []
    for name, value in message.raw_items():
        field = _INFORMATIONAL_BY_KEY.get(name.lower())
        if field is not None:
            lines.append(f"{field}: {_field_text(value)}\n")
    return "".join(lines)


def _field_text(value: str) -> str:
    """A field's value as text: unfolded, its encoded words decoded."""
    raw = _FOLD.sub("", value).strip()
    if "=?" not in raw:
        return raw
    return _ENCODED_WORD.sub(_decoded_word, _BETWEEN_WORDS.sub("", raw))


#: an encoded word (RFC 2047 section 2: "=?" charset "?" encoding "?"
#: encoded-text "?="; a language after "*" in the charset, RFC 2231
#: section 5), and the white space between two of them, which is not
#: displayed (RFC 2047 section 6.2)
_WORD_HEAD = r"=\?([^?*\s]+)(?:\*[^?\s]*)?\?([BbQq])\?"
_ENCODED_WORD = LazyPattern(_WORD_HEAD + r"([^?\s]*)\?=")
_BETWEEN_WORDS = LazyPattern(r"(?<=\?=)[ \t]+(?=" + _WORD_HEAD + ")")
_Q_ESCAPE = LazyPattern(r"=([0-9A-Fa-f]{2})")


def _decoded_word(word: "re.Match[str]") -> str:
    """An encoded word's text; the word as written where its charset is
    unknown or its text does not decode (a broken word is shown so by
    mail clients too)."""
    charset, encoding, text = word.groups()
    try:
        if encoding in "Bb":
            data = binascii.a2b_base64(text + "=" * (-len(text) % 4))
        else:  # RFC 2047 section 4.2: "_" is a space, "=XX" an octet
            data = _Q_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text.replace("_", " ")).encode("latin-1")
        return data.decode(charset, errors="replace")
    except (LookupError, ValueError, binascii.Error, UnicodeError):
        return word.group()


def message_documents(message: Message, index: int) -> Iterator[Document]:
    """A parsed message's informational fields and leaf parts as documents
    (module docstring)."""
    message_id = message.get("Message-ID")
    prefix = _SPACES.sub("", str(message_id)) if message_id else f"#{index}"
    header = header_text(message)
    if header:
        yield _header_document(f"{prefix}/header", header)
    number = 0
    for part in message.walk():
        if part.is_multipart():
            attached = _attached_message(part)
            header = header_text(attached) if attached is not None else ""
            if header:
                # named after the attached message's first part, as IMAP
                # names a message/rfc822 part's header "2.HEADER" (RFC 3501
                # section 6.4.5)
                yield _header_document(f"{prefix}/{number + 1}/header", header)
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
        if payload and content_type == "text/plain" and _flowed_delsp(part):
            payload = unflow_delsp(payload)
        yield Document(doc_id, _pieces(payload) if payload else (), charset=charset, encoded_size=None)


def _header_document(doc_id: str, text: str) -> Document:
    """The informational fields' text (:func:`header_text`) as a document:
    UTF-8, with the bytes written raw given back as they were."""
    return Document(doc_id, (text.encode("utf-8", "surrogateescape"),), encoded_size=None)


def _attached_message(part: Message) -> Optional[Message]:
    """The message a ``message/rfc822`` part holds (a forwarded message, a
    digest's), or None for any other part."""
    if part.get_content_maintype() != "message":
        return None
    payload = part.get_payload()
    if isinstance(payload, list) and payload and isinstance(payload[0], Message):
        return payload[0]
    return None


def _flowed_delsp(part: Message) -> bool:
    """RFC 3676 section 4.2: ``format=flowed`` with ``delsp=yes``, whose
    soft line breaks may fall inside a word."""
    return (str(part.get_param("format", "")).lower() == "flowed"
            and str(part.get_param("delsp", "")).lower() == "yes")


#: the quote marks of a flowed line (RFC 3676 section 4.5); the space after
#: them or that stuffs it (section 4.4) is taken off by unflow_delsp
_FLOWED_QUOTE = LazyPattern(rb">*")


def unflow_delsp(payload: bytes) -> bytes:
    """A ``format=flowed; delsp=yes`` body with its soft line breaks undone
    (RFC 3676 sections 4.1-4.2): a line ending in a space (but the
    signature separator ``-- ``) goes on with the next line of the same
    quote depth, that space and the next line's quote marks and stuffing
    deleted, so a URN a mail client broke inside a word is whole again
    (``...netconf:capabil `` then ``> ity:interleave:1.0``).  Other lines
    stay as they are."""
    out: List[bytes] = []
    flowed_depth = -1  # the quote depth of the flowed line the last one goes on, or -1
    pending = b""  # the line end the last (flowed) line held back
    for line in payload.splitlines(keepends=True):
        body = line.rstrip(b"\r\n")
        ending = line[len(body):]
        depth = len(_FLOWED_QUOTE.match(body).group())
        if flowed_depth == depth and body[depth:].strip(b" "):
            text = body[depth:]
            if text.startswith(b" "):
                text = text[1:]  # the space after quote marks (4.5), or space-stuffing (4.4)
            out[-1] += text
        else:
            if flowed_depth >= 0:
                out[-1] += pending  # a flowed line the next does not go on
            out.append(body)
        if body.endswith(b" ") and body[depth:].strip(b" ") not in (b"", b"--"):
            out[-1] = out[-1][:-1]  # delsp=yes: the soft break's space
            flowed_depth, pending = depth, ending
        else:
            out[-1] += ending
            flowed_depth = -1
    if flowed_depth >= 0:
        out[-1] += pending
    return b"".join(out)


def _pieces(payload: bytes) -> Iterator[bytes]:
    """A decoded part in blocks of :data:`BLOCK_BYTES`, as a file is read:
    the scanner then holds the hits of one block at a time, not of a whole
    part (a part of tens of megabytes dense with URNs held a million)."""
    for i in range(0, len(payload), BLOCK_BYTES):
        yield payload[i:i + BLOCK_BYTES]
