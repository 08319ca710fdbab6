"""The mbox splitter, which reads whole blocks, against a reading one line
at a time (RFC 4155 appendix A: a ``From `` line holding a time at the
start or after an empty line starts a message; ``>From `` lines lose one
``>``)."""
from __future__ import annotations

import io
import re
import time

import pytest
from hypothesis import given, settings, strategies as st

from urnscan.sources.documents import SEPARATOR_REACH, separator_line
from .growth import GROWTH, MAX_RATIO, least_ratio
from urnscan.sources.mail import BLOCK_BYTES, line_blocks, mail_messages, message_documents, parse_message

_QUOTED_FROM = re.compile(rb">+From ")


def reference_messages(data: bytes, is_mbox: bool, cap: int, max_line: int):
    """One line (or piece of a line longer than ``max_line``) at a time;
    a separator line is dropped whole."""
    stream = io.BufferedReader(io.BytesIO(data))
    out, index, lines, oversized = [], 0, None, False
    blank_before, line_start, in_separator = True, True, False
    while True:
        line = stream.readline(max_line)
        if not line:
            break
        starts, line_start = line_start, line.endswith(b"\n")
        if in_separator:
            in_separator = not line_start
            continue
        if starts and is_mbox:
            if blank_before and separator_line(line, 0, SEPARATOR_REACH):
                if lines is not None or oversized:
                    out.append((index, None if oversized else b"".join(lines)))
                index += 1
                lines, oversized, blank_before = [], False, False
                in_separator = not line_start
                continue
            if _QUOTED_FROM.match(line):
                line = line[1:]
        if starts:
            blank_before = line in (b"\n", b"\r\n")
        if lines is None and not oversized:
            index += 1
            lines = []
        if oversized:
            continue
        lines.append(line)
        if sum(map(len, lines)) > cap:
            lines, oversized = None, True
    if lines is not None or oversized:
        out.append((index, None if oversized else b"".join(lines)))
    return out


_LINES = [b"From a@b Mon Jan 1 00:00:00 2024\n", b"From \n", b"From", b">From x\n", b">>From y\n", b">From\n",
          b"\n", b"\r\n", b"\r\r\n", b"Subject: s\n", b"body urn:isbn:9780451450524\n", b"x" * 9 + b"\n",
          b" From no\n", b"\rFrom z\n", b"tail without end", b"From long " + b"y" * 20 + b"\n"]


# pieces of lines at least as long as the longest quoted "From " prefix above
@settings(max_examples=400, deadline=None)
@given(lines=st.lists(st.sampled_from(_LINES), max_size=40), is_mbox=st.booleans(),
       block=st.integers(1, 40), max_line=st.integers(12, 40), cap=st.sampled_from([10, 60, 10 ** 6]))
def test_block_splitter_equals_line_reading(lines, is_mbox, block, max_line, cap):
    data = b"".join(lines)
    got = list(mail_messages(io.BytesIO(data), is_mbox, cap, block_bytes=block, max_line=max_line))
    assert got == reference_messages(data, is_mbox, cap, max_line)


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=200).map(lambda b: b.replace(b"\x00", b"\n")), block=st.integers(1, 50),
       max_line=st.integers(1, 40))
def test_line_blocks_cover_the_input_and_cut_at_line_ends(data, block, max_line):
    blocks = list(line_blocks(io.BytesIO(data), block, max_line))
    assert b"".join(b for b, _ in blocks) == data
    starts_line = True
    for piece, starts in blocks:
        assert piece and starts == starts_line
        starts_line = piece.endswith(b"\n")
        last_line = piece[piece.rfind(b"\n") + 1:]
        assert piece.endswith(b"\n") or len(last_line) >= max_line or piece is blocks[-1][0]


TABLE = [
    # (archive, messages)
    (b"", []),
    (b"From a 00:00\nX: 1\n\nbody\n", [(1, b"X: 1\n\nbody\n")]),
    (b"From a 00:00\n\nFrom b 01:02\n", [(1, b"\n"), (2, b"")]),  # after an empty line: a separator
    (b"From a 00:00\nbody\nFrom b 01:02\n", [(1, b"body\nFrom b 01:02\n")]),
    (b"preamble\n\nFrom a 00:00\nm\n", [(1, b"preamble\n\n"), (2, b"m\n")]),
    (b"From a 00:00\n>From q\n>>From r\n>From\n", [(1, b"From q\n>From r\n>From\n")]),
    (b"From a 00:00\r\n\r\nFrom b 01:02\r\nc\r\n", [(1, b"\r\n"), (2, b"c\r\n")]),
    (b"From a 00:00\n\r\r\nFrom b 01:02\n", [(1, b"\r\r\nFrom b 01:02\n")]),  # "\r\r\n" is not an empty line
    # a line of prose starting "From " after an empty line holds no time: no separator
    (b"From a 00:00\nX: 1\n\nFrom the examples, these:\nurn:example:a\n",
     [(1, b"X: 1\n\nFrom the examples, these:\nurn:example:a\n")]),
]


def test_split_table():
    for data, expected in TABLE:
        for block in (1, 3, 1 << 20):
            assert list(mail_messages(io.BytesIO(data), True, 1 << 20, block_bytes=block)) == expected, (data, block)


def _split_time(data: bytes) -> float:
    best = float("inf")
    for _ in range(3):
        t = time.process_time()
        for _message in mail_messages(io.BytesIO(data), True, 1 << 30, block_bytes=1 << 10, max_line=1 << 12):
            pass
        best = min(best, time.process_time() - t)
    return best


_CRAFTED = {
    "From lines inside a paragraph": lambda n: b"From a 0:00\n" + b"x\nFrom y 0:00\n" * (n // 14),
    "empty messages": lambda n: b"From a 0:00\n\n" * (n // 13),
    "prose From lines": lambda n: b"From a 0:00\n" + b"\nFrom y\n" * (n // 8),
    "quoted From lines": lambda n: b"From a 0:00\n" + b">>From q\n" * (n // 9),
    "one line without an end": lambda n: b"From a 0:00\n" + b"F" * n,
    "a long From line": lambda n: b"From a 0:00\n\nFrom " + b"y" * n,
    "empty lines": lambda n: b"\r\n" * (n // 2),
}


@pytest.mark.parametrize("name", sorted(_CRAFTED))
def test_splitting_grows_linearly(name):
    """8x the archive takes at most twice 8x the time (CPU time, least of
    several runs; a rescan of what came before gives ~64x)."""
    build = _CRAFTED[name]
    small, large = build(1 << 17), build(GROWTH << 17)
    _split_time(small)
    ratio = least_ratio(lambda: _split_time(large) / max(_split_time(small), 1e-6))
    assert ratio <= MAX_RATIO, f"{name}: {GROWTH}x the input took {ratio:.1f}x the time"


def test_a_large_part_is_handed_out_in_blocks():
    import base64

    text = b"urn:example:b64 " * (BLOCK_BYTES // 16 * 5 // 2)  # two blocks and a half
    mail = (b"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=XX\n\n--XX\n"
            b"Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n"
            + base64.encodebytes(text) + b"\n--XX--\n")
    [doc] = message_documents(parse_message(mail), 1)
    pieces = list(doc.chunks)
    assert b"".join(pieces) == text
    assert len(pieces) == 3 and max(map(len, pieces)) == BLOCK_BYTES


#: (a message's header, the text of its header document): the fields an
#: author wrote (RFC 5322 section 3.6.5), unfolded (section 2.2.3), encoded
#: words decoded (RFC 2047); no other field
HEADER_TEXT = [
    (b"Subject: Request for urn:example:foo\n", "Subject: Request for urn:example:foo\n"),
    (b"Subject: Registering\n urn:example:folded\n", "Subject: Registering urn:example:folded\n"),
    (b"Subject: Registering\r\n\turn:example:crlf\r\n", "Subject: Registering\turn:example:crlf\n"),
    (b"Subject: =?utf-8?q?Re=3A_urn=3Aisbn=3A0451450523?=\n", "Subject: Re: urn:isbn:0451450523\n"),
    (b"Subject: =?utf-8?b?dXJuOmlldGY6cmZjOjgxNDE=?=\n", "Subject: urn:ietf:rfc:8141\n"),
    (b"Subject: =?iso-8859-1?q?caf=E9?= urn:x:y\n", "Subject: caf\u00e9 urn:x:y\n"),
    (b"Subject: =?no-such-charset?q?urn=3Aa=3Ab?=\n", "Subject: =?no-such-charset?q?urn=3Aa=3Ab?=\n"),
    (b"Subject: caf\xc3\xa9 urn:x:raw\n", "Subject: caf\udcc3\udca9 urn:x:raw\n"),  # bytes as written
    (b"Subject: caf\xc3\xa9 =?utf-8?q?urn=3Ax=3Ay?=\n", "Subject: caf\udcc3\udca9 urn:x:y\n"),
    # the space between two encoded words is not shown (RFC 2047 section 6.2)
    (b"Subject: =?utf-8?q?urn=3Aa?= =?utf-8?q?=3Ab?= x\n", "Subject: urn:a:b x\n"),
    (b"Subject: =?iso-8859-1*en?q?caf=E9?= x\n", "Subject: caf\u00e9 x\n"),  # a language (RFC 2231 section 5)
    # a broken word is left as written, never an error
    (b"Subject: =?utf-8?b?a?= urn:x:y\n", "Subject: =?utf-8?b?a?= urn:x:y\n"),
    (b"Subject: =?utf-8?b?dXJu?\n", "Subject: =?utf-8?b?dXJu?\n"),
    (b"SUBJECT: one\nkeywords: urn:isbn:0451450523, urn:isbn:0451450524\nComments: two\n",
     "Subject: one\nKeywords: urn:isbn:0451450523, urn:isbn:0451450524\nComments: two\n"),
    (b"Message-ID: <urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6>\nFrom: urn:x@example.org\n"
     b"In-Reply-To: <urn:a:b>\nContent-Type: text/plain; name=urn:c:d\n", ""),
    (b"Subject:\n", "Subject: \n"),
]


@pytest.mark.parametrize("header,text", HEADER_TEXT)
def test_the_informational_fields_are_the_header_document(header, text):
    from urnscan.sources.mail import header_text

    message = parse_message(header + b"\nbody\n")
    assert header_text(message) == text
    docs = list(message_documents(message, 1))
    ids = [d.id.rsplit("/", 1)[1] for d in docs]
    assert ids == (["header", "1"] if text else ["1"])
    if text:
        assert b"".join(docs[0].chunks) == text.encode("utf-8", "surrogateescape")


def test_an_archive_s_subjects_are_scanned_where_they_stand(tmp_path):
    """End to end: each message's subject is a document before its parts,
    the line and column those of the ``Subject: ...`` line."""
    from urnscan.runner import ScanConfig, run_scan
    from urnscan.sources import expand_inputs

    path = tmp_path / "list.mbox"
    path.write_bytes(b"From a@b Mon Jan  1 00:00:00 2024\nMessage-ID: <1@x>\n"
                     b"Subject: =?utf-8?q?New_namespace=3A_urn=3Aexample=3Anew?=\n\nSee urn:ietf:rfc:8141.\n\n"
                     b"From a@b Mon Jan  1 00:01:00 2024\nMessage-ID: <2@x>\nSubject: Re: New namespace:\n"
                     b" urn:example:new\n\n> See urn:ietf:rfc:8141.\n")
    hits, statuses = [], []
    run_scan(expand_inputs([str(path)]), ScanConfig(), hits.extend, statuses.append)
    assert [(h.document, h.urn, h.line, h.column) for h in hits] == [
        ("<1@x>/header", "urn:example:new", 1, 25), ("<1@x>/1", "urn:ietf:rfc:8141", 1, 5),
        ("<2@x>/header", "urn:example:new", 1, 29), ("<2@x>/1", "urn:ietf:rfc:8141", 1, 7)]
    assert statuses[0].documents == 4


_DIGEST = (b"Message-ID: <d@x>\nSubject: urn-nid Digest, Vol 1, Issue 2\nMIME-Version: 1.0\n"
           b"Content-Type: multipart/digest; boundary=B\n\n"
           b"--B\n\nSubject: Request for urn:example:one\n\nBody about urn:example:one\n"
           b"--B\n\nSubject: Re: urn:example:two\nMIME-Version: 1.0\n"
           b"Content-Type: multipart/alternative; boundary=C\n\n--C\nContent-Type: text/plain\n\nplain\n"
           b"--C\nContent-Type: text/html\n\n<p>html</p>\n--C--\n--B--\n")
_FORWARDED = (b"Message-ID: <f@x>\nSubject: Fwd: namespace\nMIME-Version: 1.0\n"
              b"Content-Type: multipart/mixed; boundary=B\n\n--B\nContent-Type: text/plain\n\nsee below\n"
              b"--B\nContent-Type: message/rfc822\n\nSubject: urn:example:three registered\nFrom: a@b\n\nbody\n--B--\n")


@pytest.mark.parametrize("mail,documents", [
    # a digest's messages (multipart/digest: each part a message/rfc822 by default)
    (_DIGEST, [("<d@x>/header", b"Subject: urn-nid Digest, Vol 1, Issue 2\n"),
               ("<d@x>/1/header", b"Subject: Request for urn:example:one\n"), ("<d@x>/1", b"Body about urn:example:one"),
               ("<d@x>/2/header", b"Subject: Re: urn:example:two\n"), ("<d@x>/2", b"plain"), ("<d@x>/3", b"<p>html</p>")]),
    # a message forwarded as an attachment
    (_FORWARDED, [("<f@x>/header", b"Subject: Fwd: namespace\n"), ("<f@x>/1", b"see below"),
                  ("<f@x>/2/header", b"Subject: urn:example:three registered\n"), ("<f@x>/2", b"body")]),
])
def test_an_attached_message_s_fields_are_a_document_before_its_parts(mail, documents):
    docs = [(d.id, b"".join(d.chunks).rstrip(b"\n") if not d.id.endswith("header") else b"".join(d.chunks))
            for d in message_documents(parse_message(mail), 1)]
    assert docs == documents


# --- parse_message cuts multipart bodies as the email package parses them -------

def _documents(message):
    return [(d.id, b"".join(d.chunks), d.charset, d.skipped) for d in message_documents(message, 1)]


def _parsed_by_the_email_package(mail: bytes):
    from email.parser import BytesParser
    from email.policy import compat32

    return BytesParser(policy=compat32).parsebytes(mail)


_BODY_LINES = [b"urn:isbn:0451450523 in a line", b"", b"  indented urn:x-a:b", b"=3D soft=", b"--", b"---- dashes",
               b"From the start", b"caf\xc3\xa9"]


@st.composite
def _mime_parts(draw, boundaries, depth=0):
    """A MIME part: its header lines and its body (a multipart one whose
    boundary lines, real and near misses, are drawn too)."""
    eol = draw(st.sampled_from([b"\n", b"\r\n"]))
    kind = draw(st.sampled_from(["text/plain", "text/html", "application/octet-stream", "multipart/alternative",
                                 "multipart/mixed", "message/rfc822", None]
                                if depth < 2 else ["text/plain", "text/html", None]))
    header = []
    if kind is not None and kind.startswith("multipart/"):
        boundary = draw(boundaries)
        quote = draw(st.sampled_from([b'"', b""])) if b" " not in boundary else b'"'
        header.append(b"Content-Type: " + kind.encode() + b"; boundary=" + quote + boundary + quote)
        parts = [draw(_mime_parts(boundaries, depth + 1)) for _ in range(draw(st.integers(0, 3)))]
        lines = draw(st.lists(st.sampled_from(_BODY_LINES), max_size=2))  # a preamble
        for part in parts:
            lines.append(b"--" + boundary + draw(st.sampled_from([b"", b" ", b"\t "])))
            lines.append(part)
        near = draw(st.sampled_from([b"", b"--" + boundary + b"x", b" --" + boundary, b"--" + boundary + b"-- x",
                                     b"lone CR\r--" + boundary, b"CR\r\r--" + boundary + b"--"]))
        if near:
            lines.insert(draw(st.integers(0, len(lines))), near)
        if draw(st.integers(0, 9)):  # the closing boundary, mostly there
            lines.append(b"--" + boundary + b"--" + draw(st.sampled_from([b"", b"  "])))
            lines += draw(st.lists(st.sampled_from(_BODY_LINES), max_size=2))  # an epilogue
        body = eol.join(lines)
    else:
        if kind is not None:
            header.append(b"Content-Type: " + kind.encode() + draw(st.sampled_from([b"", b"; charset=utf-8"])))
            if kind != "message/rfc822":
                header.append(b"Content-Transfer-Encoding: " + draw(st.sampled_from([b"7bit", b"quoted-printable",
                                                                                     b"base64"])))
        lines = draw(st.lists(st.sampled_from(_BODY_LINES + [b"aGVsbG8gdXJuOng6eQ=="]), max_size=4))
        if kind == "message/rfc822":
            lines = [b"Subject: attached urn:x-y:z", b""] + lines
        body = eol.join(lines) + draw(st.sampled_from([b"", eol, b"\r"]))
    if draw(st.integers(0, 9)):
        return eol.join(header) + eol + eol + body
    return eol.join(header) + eol + body  # no empty line after the header: the body is read as header lines


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_parse_message_reads_a_multipart_body_as_the_email_package(data):
    """Parts cut at their boundary lines give the documents of the email
    package's parse (the same part ids, bytes, charsets and skipped
    parts): nested multiparts, preambles and epilogues, near-miss
    boundary lines, a missing closing boundary, attached messages, CR LF,
    a lone CR (before a boundary line too), a header without the empty
    line after it."""
    boundaries = st.sampled_from([b"b1", b"=_Part_0_1.2", b"with space", b"b1x", b"----=_NextPart_000"])
    part = data.draw(_mime_parts(boundaries))
    mail = b"From: a@example.org\nMessage-ID: <m@x>\nSubject: s\nMIME-Version: 1.0\n" + part
    assert _documents(parse_message(mail)) == _documents(_parsed_by_the_email_package(mail))


_MULTIPART_HEAD = b"From: a@example.org\nMessage-ID: <m@x>\nContent-Type: multipart/mixed; boundary=b\n\n"
_PLAIN_PART = b"--b\nContent-Type: text/plain\n\n"
#: (body after the multipart header, whether the cut reads it): the email
#: package gives the documents of each either way
MULTIPART_CASES = [
    (_PLAIN_PART + b"one urn:x-a:b\n" + _PLAIN_PART + b"two\n--b--\n", True),
    (b"preamble\n" + _PLAIN_PART + b"one\n--b--\nepilogue\n", True),
    (_PLAIN_PART + b"one\r\n--b  \r\n\r\ntwo\r\n--b--\r\n", True),
    (_PLAIN_PART + b"--bx is no boundary\n --b neither\n--b-- x nor this\n--b--", True),
    (_PLAIN_PART + b"a lone CR\rinside\n--b--\n", True),
    (_PLAIN_PART + b"one urn:x-a:b\r--b\nContent-Type: text/plain\n\ntwo\n--b--\n", False),  # a boundary after a CR
    (_PLAIN_PART + b"no closing boundary\n", False),
    (b"--b--\n", False),  # no part
    (b"--b\nContent-Type: text/plain\nFrom the body\n\nrest\n--b--\n", False),  # "From " ends the header
    (b"--b\nContent-Type: message/rfc822\n\nSubject: urn:x-a:b\n\nattached\n--b--\n", False),
    (b"--b\nContent-Type: multipart/alternative; boundary=c\n\n--c\n\nplain\n--c\n"
     b"Content-Type: text/html\n\n<p>html</p>\n--c--\n--b--\n", True),
]


@pytest.mark.parametrize("body,cut", MULTIPART_CASES)
def test_parse_message_reads_these_multipart_bodies_as_the_email_package(body, cut):
    from urnscan.sources import mail as mail_module

    message = _MULTIPART_HEAD + body
    assert (mail_module._parsed(message, 0) is not None) == cut
    assert _documents(parse_message(message)) == _documents(_parsed_by_the_email_package(message))


def test_parse_message_cuts_a_multipart_body_itself():
    """The common case does not hand the body to the email package's feed
    parser: the parts come out of the cut (and the same as its parse)."""
    from urnscan.sources import mail as mail_module

    message = (b"From: a@example.org\nMessage-ID: <m@x>\nContent-Type: multipart/alternative; boundary=\"b\"\n\n"
               b"--b\nContent-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\nurn:ietf:params:=\n"
               b"xml:ns:yang:ietf-netconf\n--b\nContent-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: "
               b"base64\n\nPHA+dXJuOmlzYm46MDQ1MTQ1MDUyMzwvcD4=\n--b--\n")
    assert mail_module._parsed(message, 0) is not None
    docs = _documents(parse_message(message))
    assert docs == _documents(_parsed_by_the_email_package(message))
    assert [(d[0], d[1]) for d in docs] == [("<m@x>/1", b"urn:ietf:params:xml:ns:yang:ietf-netconf"),
                                            ("<m@x>/2", b"<p>urn:isbn:0451450523</p>")]


def _parse_time(mail: bytes) -> float:
    best = float("inf")
    for _ in range(3):
        t = time.process_time()
        for _document in message_documents(parse_message(mail), 1):
            pass
        best = min(best, time.process_time() - t)
    return best


_HEAD = b"From: a@example.org\nContent-Type: multipart/mixed; boundary=b\n\n"
_CRAFTED_MIME = {
    "many parts": lambda n: _HEAD + b"--b\nContent-Type: text/plain\n\nurn:x-a:b\n" * (n // 42) + b"--b--\n",
    "near-miss boundary lines": lambda n: _HEAD + b"--b\n\n" + b"--bx\n" * (n // 5) + b"--b--\n",
    "no closing boundary": lambda n: _HEAD + b"--b\nContent-Type: text/plain\n\nurn:x-a:b\n" * (n // 42),
    "nested to the limit": lambda n: (b"From: a@example.org\n" + b"".join(
        b"Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n" % (d, d) for d in range(12))
        + b"\n" + b"urn:x-a:b " * (n // 10) + b"\n" + b"".join(b"--b%d--\n" % d for d in reversed(range(12)))),
}


@pytest.mark.parametrize("name", sorted(_CRAFTED_MIME))
def test_cutting_a_multipart_body_grows_linearly(name):
    """8x the message takes at most twice 8x the time to parse into its
    documents, whether the parts are cut here or the email package parses
    the message (no closing boundary, nesting past the limit)."""
    build = _CRAFTED_MIME[name]
    small, large = build(1 << 16), build(GROWTH << 16)
    _parse_time(small)
    ratio = least_ratio(lambda: _parse_time(large) / max(_parse_time(small), 1e-6))
    assert ratio <= MAX_RATIO, f"{name}: {GROWTH}x the message took {ratio:.1f}x the time"


_HEADER_LINES = [b"Subject: urn:x-a:b", b"Content-Type: text/plain;", b"\tcharset=utf-8", b"  folded on", b"X-A:b",
                 b"Message-ID: <1@x>", b"From a@b Mon Jan  1 00:00:00 2024", b"From: a@b", b"no field", b": no name",
                 b"Subject: caf\xc3\xa9", b"Subject: a\rb", b"Subject:", b"Weird Name: x", b"\x7fDel: x"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_HEADER_LINES), max_size=6), st.sampled_from([b"\n", b"\r\n"]),
       st.sampled_from([b"\n", b"\r\n"]))
def test_a_header_block_is_read_as_the_email_package_reads_it(lines, eol, last):
    """A block of fields read here gives the fields, values and order the
    email package's header parser gives; a block it would read otherwise
    (a From line, a line that is no field, a folded line first, a lone CR)
    is left to it."""
    from email.parser import BytesHeaderParser
    from email.policy import compat32

    from urnscan.sources.mail import _header

    block = b"".join(line + eol for line in lines) + last
    theirs = BytesHeaderParser(policy=compat32).parsebytes(block)
    ours = _header(block)
    if ours is not None:
        assert list(ours.raw_items()) == list(theirs.raw_items())
        assert not theirs.defects and theirs.get_unixfrom() is None and not theirs.get_payload()
    elif lines and not any(line.startswith((b"From ", b"no field", b": no", b"Weird", b"\x7f")) or b"\r" in line
                           for line in lines):
        assert lines[0][:1] in b" \t"  # (only a folded first line is left to it among clean fields)
