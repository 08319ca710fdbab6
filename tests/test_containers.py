"""Documents inside inputs: mail, zip and tar containers, WARC, PDF, UTF-16/32, and
the decompression ratio limit.  Every fixture is built here."""
from __future__ import annotations

import codecs
import gzip
import io
import json
import lzma
import random
import subprocess
import sys
import tarfile
import zipfile

import pytest
from hypothesis import given, settings

import urnscan
from hypothesis import strategies as st

from urnscan.runner import ScanConfig, run_scan, scan_input
from urnscan.sinks.status import ERROR, SCANNED, SKIPPED_BINARY
from urnscan.sources import InputRef
from urnscan.sources.documents import BINARY_CONTENT, PDF_MISSING, ContainerKind, container_kind, open_documents

from .container_fixtures import (
    ar_bytes, b64, gzip_members, http_response, mbox, message, multipart, pdf, tar_bytes, warc_record, zip_bytes,
)

NBN = "urn:nbn:de:bvb:12-bsb00012345-6"
ISBN = "urn:isbn:9780451450524"
RFC = "urn:ietf:rfc:8141"
ISSN = "urn:issn:2049-3630"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4


def _qp_soft_break() -> bytes:
    return mbox(message({"Message-ID": "<qp@example.org>", "Content-Transfer-Encoding": "quoted-printable"},
                        "see urn:nbn:de:bvb:12-bsb000=\n12345-6 and=3D urn:ietf:rfc:=\n8141.\n"))


def _base64_parts() -> bytes:
    body = multipart("sep", [
        ({"Content-Type": "text/plain", "Content-Transfer-Encoding": "base64"}, b64(f"cite {ISBN}\n".encode())),
        ({"Content-Type": "application/octet-stream", "Content-Transfer-Encoding": "base64"},
         b64(b"\0\0\x01\x02 " + ISSN.encode() + b"\0\0" * 64)),
        ({"Content-Type": "image/png", "Content-Transfer-Encoding": "base64"}, b64(PNG)),
        ({"Content-Type": "text/html", "Content-Transfer-Encoding": "base64"}, b64(f"<p>{RFC}</p>".encode())),
    ])
    return mbox(message({"Message-ID": "<b64@example.org>", "MIME-Version": "1.0",
                         "Content-Type": 'multipart/mixed; boundary="sep"'}, body))


def _latin1() -> bytes:
    return mbox(
        message({"Message-ID": "<l1@example.org>", "Content-Type": "text/plain; charset=iso-8859-1"},
                "Caf\xe9 " + ISBN + "\n"),
        message({"Content-Type": "text/plain; charset=iso-8859-1", "Content-Transfer-Encoding": "quoted-printable"},
                "r=E9sum=E9 " + ISSN + "\n"))


def _eml() -> bytes:
    # the Subject is read (RFC 5322 section 3.6.5), an encoded word decoded
    # (RFC 2047); an identifier field, not: a Message-ID is no URN
    return message({"From": "a@example.org", "Message-ID": "<urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6>",
                    "Subject": "=?utf-8?q?Re=3A_urn=3Aisbn=3A0451450523?= (review)"},
                   f"Body: {ISBN}\n>From here on, {RFC}\n").encode("ascii")


def _maildir_message() -> bytes:
    """One message as a Maildir or an MH folder keeps it, the trace fields
    first, its text base64-encoded: no "urn:" in the raw bytes."""
    body = multipart("sep", [
        ({"Content-Type": "text/plain; charset=utf-8", "Content-Transfer-Encoding": "base64"},
         b64(f"cite {ISBN}\n".encode())),
        ({"Content-Type": "text/html", "Content-Transfer-Encoding": "quoted-printable"},
         '<html xmlns:o=3D"urn:schemas-micr=\nosoft-com:office:office"><p>see urn:ietf:=\nrfc:8141</p></html>\n'),
    ])
    return message({"Return-Path": "<list-bounces@example.org>",
                    "Received": "from mx.example.org (mx.example.org [192.0.2.1])\n\tby mail.example.net",
                    "From": "a@example.org", "Date": "Tue, 27 Apr 2021 16:40:38 +0000",
                    "Message-ID": "<md@example.org>", "MIME-Version": "1.0",
                    "Content-Type": 'multipart/alternative; boundary="sep"'}, body).encode("ascii")


def _word_mht() -> bytes:
    """A document saved by a word processor as a "Single File Web Page"
    (MHTML, RFC 2557): a MIME message with no "From" field, its page
    quoted-printable with a soft line break inside a namespace's URN."""
    body = multipart("----=_NextPart_01D5", [
        ({"Content-Location": "file:///C:/D1/doc.htm", "Content-Transfer-Encoding": "quoted-printable",
          "Content-Type": 'text/html; charset="us-ascii"'},
         '<html xmlns:v=3D"urn:schemas-microsoft-com:vml"\nxmlns:o=3D"urn:schemas-microsoft-c=\n'
         'om:office:office">\n'),
        ({"Content-Location": "file:///C:/D1/doc_files/image001.png", "Content-Transfer-Encoding": "base64",
          "Content-Type": "image/png"}, b64(PNG)),
    ])
    return message({"MIME-Version": "1.0", "Content-Type": 'multipart/related; boundary="----=_NextPart_01D5"'},
                   "This document is a Single File Web Page, also known as a Web Archive file.\n\n"
                   + body).encode("ascii")


def _epub() -> bytes:
    return zip_bytes([
        ("mimetype", b"application/epub+zip"),
        ("META-INF/container.xml", b'<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"/>'),
        ("OEBPS/content.opf", f"<dc:identifier>{ISBN}</dc:identifier>".encode()),
        ("OEBPS/ch1.xhtml", f"<p>Cited: {ISSN}.</p>".encode()),
        ("OEBPS/cover.png", PNG),
        ("OEBPS/font.bin.txt", b"\0\0\0" * 100),
    ])


def _zipped_dump() -> bytes:
    """A zip of a data dump: a gzipped file and a tarball among its members."""
    return zip_bytes([
        ("dump/records.txt.gz", gzip.compress(f"id {NBN}\n".encode(), mtime=0)),
        ("dump/src.tar.gz", gzip.compress(tar_bytes([("src/a.py", f"NS = '{RFC}'\n".encode())]), mtime=0)),
        ("dump/logo.png.gz", gzip.compress(PNG, mtime=0)),
    ], zipfile.ZIP_STORED)


def _books() -> bytes:
    """A zip of ebooks: each EPUB read as its members."""
    return zip_bytes([("shelf/book.epub", _epub()), ("shelf/cover.png", PNG)], zipfile.ZIP_STORED)


def _docx() -> bytes:
    return zip_bytes([
        ("[Content_Types].xml", b'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
        ("word/document.xml", f'<w:document><w:body><w:p><w:r><w:t>See {RFC}</w:t></w:r></w:p>'
                              f'</w:body></w:document>'.encode()),
        ("word/media/image1.png", PNG),
        ("docProps/core.xml", f"<dc:identifier>{ISBN}</dc:identifier>".encode()),
    ])


#: a member name longer than ustar's 100 bytes: a pax header (or a GNU
#: long name) carries it
LONG_NAME = "pkg-1.0/" + "deep/" * 30 + "notes.txt"


def _source_tarball() -> bytes:
    """A source release as ``tar czf`` writes it: directories, a link, a
    long name, an image and a UTF-16 file among the text files."""
    return gzip.compress(tar_bytes([
        ("pkg-1.0", None),
        ("pkg-1.0/README", f"Cite {ISBN}.\n".encode()),
        ("pkg-1.0/logo.png", PNG),
        ("pkg-1.0/LINK", "->README"),
        ("pkg-1.0/data.bin.txt", b"\0\1\2\3" * 100 + ISSN.encode()),
        ("pkg-1.0/ns.xml", codecs.BOM_UTF16_LE + f'<ns xmlns="{RFC}"/>'.encode("utf-16-le")),
        (LONG_NAME, f"and {NBN}\n".encode()),
        ("pkg-1.0/man/pkg.1.gz", gzip.compress(f".SH SEE ALSO\n{ISSN}\n".encode(), mtime=0)),
        ("pkg-1.0/vendor/dep.tar.gz", gzip.compress(tar_bytes([("d.txt", ISBN.encode())]), mtime=0)),
    ]), mtime=0)


def _concatenated_tars() -> bytes:
    """Two archives one after the other (``cat a.tar b.tar``), the second in
    the GNU format: both are read, as ``tar --ignore-zeros`` reads them."""
    return (tar_bytes([("a/one.txt", f"{ISBN}\n".encode())], tarfile.USTAR_FORMAT)
            + tar_bytes([("b/" + "x" * 120 + ".txt", f"{RFC}\n".encode())], tarfile.GNU_FORMAT))


def _debian_package() -> bytes:
    """A Debian package (deb(5)): an ar archive of debian-binary and two
    tarballs, its files in data.tar.xz."""
    control = tar_bytes([("./control", b"Package: pkg\nDescription: notes\n")])
    data = tar_bytes([("./usr", None), ("./usr/share/doc/pkg/README", f"Cite {ISBN}.\n".encode()),
                      ("./usr/share/man/man1/pkg.1.gz", gzip.compress(f".SH SEE ALSO\n{RFC}\n".encode(), mtime=0)),
                      ("./usr/lib/pkg/icon.png", PNG)])
    return ar_bytes([("debian-binary", b"2.0\n"), ("control.tar.gz", gzip.compress(control, mtime=0)),
                     ("data.tar.xz", lzma.compress(data)), ("a-long-member-name.txt", f"{ISSN}\n".encode())])


def _release_with_documents() -> bytes:
    """A release tarball holding a PDF, an EPUB and a mail archive: read as
    the unpacked tree is, each inside document named after its member."""
    return gzip.compress(tar_bytes([
        ("rel/README", f"See {RFC}.\n".encode()),
        ("rel/doc/manual.pdf", pdf([f"cite {ISBN}"])),
        ("rel/doc/book.epub", _epub()),
        ("rel/list.mbox", _qp_soft_break()),
    ]), mtime=0)


def _warc() -> bytes:
    return b"".join([
        warc_record("warcinfo", 1, f"note: {NBN}\r\n".encode(), content_type="application/warc-fields"),
        warc_record("response", 2, http_response(f"<p>{ISBN}</p>".encode(), extra=f"X-Id: {ISSN}\r\n"),
                    uri="https://example.org/a", content_type="application/http; msgtype=response"),
        warc_record("resource", 3, f"text {RFC}\n".encode(), uri="https://example.org/b",
                    content_type="text/plain"),
    ])


def _warc_gz() -> bytes:
    return gzip_members(*[warc_record("conversion", i, f"page {i}: {ISBN}\n".encode(),
                                      uri="https://example.org/same", content_type="text/plain")
                          for i in (1, 2)])


def _warc_chunked_gzip() -> bytes:
    """A response with ``Transfer-Encoding: chunked`` and ``Content-Encoding:
    gzip`` (both undone before scanning) and a windows-1252 page."""
    body = gzip.compress(f"<p>caf\xe9 {ISBN}</p>".encode("cp1252"), mtime=0)
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in (body[:10], body[10:])) + b"0\r\n\r\n"
    head = ("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=windows-1252\r\n"
            "Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n").encode()
    return warc_record("response", 1, head + chunked, uri="https://example.org/c",
                       content_type="application/http; msgtype=response")


def _utf(codec: str, bom: bytes):
    def build() -> bytes:
        return bom + f'<?xml version="1.0"?>\n<ns xmlns="{RFC}">é {ISBN}</ns>\n'.encode(codec)
    return build


#: (file name, builder, [(document, urn)...], container, documents, skipped documents)
CASES = [
    ("qp.mbox", _qp_soft_break, [("<qp@example.org>/1", "urn:nbn:de:bvb:12-bsb00012345-6"),
                                 ("<qp@example.org>/1", RFC)], "mbox", 1, 0),
    ("b64.mbox", _base64_parts, [("<b64@example.org>/1", ISBN), ("<b64@example.org>/4", RFC)], "mbox", 2, 2),
    ("latin1", _latin1, [("<l1@example.org>/1", ISBN), ("#2/1", ISSN)], "mbox", 2, 0),
    ("note.eml", _eml, [("<urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6>/header", "urn:isbn:0451450523"),
                        ("<urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6>/1", ISBN),
                        ("<urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6>/1", RFC)], "eml", 2, 0),
    ("1619541638.M1P2.host:2,S", _maildir_message,
     [("<md@example.org>/1", ISBN), ("<md@example.org>/2", "urn:schemas-microsoft-com:office:office"),
      ("<md@example.org>/2", RFC)], "eml", 2, 0),
    ("doc.mht", _word_mht, [("#1/1", "urn:schemas-microsoft-com:vml"),
                            ("#1/1", "urn:schemas-microsoft-com:office:office")], "eml", 1, 1),
    ("Report.doc", _word_mht, [("#1/1", "urn:schemas-microsoft-com:vml"),
                               ("#1/1", "urn:schemas-microsoft-com:office:office")], "eml", 1, 1),
    ("book.epub", _epub, [("META-INF/container.xml", "urn:oasis:names:tc:opendocument:xmlns:container"),
                          ("OEBPS/content.opf", ISBN), ("OEBPS/ch1.xhtml", ISSN)], "zip", 4, 2),
    ("dump.zip", _zipped_dump, [("dump/records.txt.gz", NBN), ("dump/src.tar.gz!src/a.py", RFC)], "zip", 2, 1),
    ("books.zip", _books, [
        ("shelf/book.epub!META-INF/container.xml", "urn:oasis:names:tc:opendocument:xmlns:container"),
        ("shelf/book.epub!OEBPS/content.opf", ISBN), ("shelf/book.epub!OEBPS/ch1.xhtml", ISSN)], "zip", 4, 3),
    ("paper.docx", _docx, [("word/document.xml", RFC), ("docProps/core.xml", ISBN)], "zip", 3, 1),
    ("crawl.warc", _warc, [("https://example.org/a", ISBN), ("https://example.org/b", RFC)], "warc", 2, 0),
    ("crawl.wet.gz", _warc_gz, [("https://example.org/same", ISBN),
                                ("https://example.org/same <urn:uuid:00000000-0000-4000-8000-000000000002>",
                                 ISBN)], "warc", 2, 0),
    ("chunked.warc", _warc_chunked_gzip, [("https://example.org/c", ISBN)], "warc", 1, 0),
    ("src.tar.gz", _source_tarball, [("pkg-1.0/README", ISBN), ("pkg-1.0/ns.xml", RFC), (LONG_NAME, NBN),
                                     ("pkg-1.0/man/pkg.1.gz", ISSN), ("pkg-1.0/vendor/dep.tar.gz!d.txt", ISBN)],
     "tar", 5, 2),
    ("cat.tar", _concatenated_tars, [("a/one.txt", ISBN), ("b/" + "x" * 120 + ".txt", RFC)], "tar", 2, 0),
    ("src.tar.xz", lambda: lzma.compress(tar_bytes([("p/a.py", f"NS = '{ISSN}'\n".encode())])),
     [("p/a.py", ISSN)], "tar", 1, 0),
    ("pkg.deb", _debian_package, [("data.tar.xz!./usr/share/doc/pkg/README", ISBN),
                                  ("data.tar.xz!./usr/share/man/man1/pkg.1.gz", RFC),
                                  ("a-long-member-name.txt", ISSN)], "ar", 5, 1),
    ("release.tar.gz", _release_with_documents, [
        ("rel/README", RFC), ("rel/doc/manual.pdf!page=1", ISBN),
        ("rel/doc/book.epub!META-INF/container.xml", "urn:oasis:names:tc:opendocument:xmlns:container"),
        ("rel/doc/book.epub!OEBPS/content.opf", ISBN), ("rel/doc/book.epub!OEBPS/ch1.xhtml", ISSN),
        ("rel/list.mbox!<qp@example.org>/1", "urn:nbn:de:bvb:12-bsb00012345-6"),
        ("rel/list.mbox!<qp@example.org>/1", RFC)], "tar", 7, 2),
    ("two.pdf", lambda: pdf([f"see {ISBN} here", f"and {RFC}."]),
     [("page=1", ISBN), ("page=2", RFC)], "pdf", 2, 0),
    # a PDF's embedded files follow its pages (a Factur-X invoice's XML), a
    # binary one skipped, a PDF embedded in it read as a member is
    ("invoice.pdf", lambda: pdf([f"see {ISBN}"], embedded=[
        ("factur-x.xml", f'<?xml version="1.0"?>\n<rsm:Invoice xmlns:rsm="{RFC}"/>\n'.encode()),
        ("logo.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4),
        ("order.pdf", pdf([f"and {ISSN}."]))]),
     [("page=1", ISBN), ("factur-x.xml", RFC), ("order.pdf!page=1", ISSN)], "pdf", 3, 1),
    ("le16.xml", _utf("utf-16-le", codecs.BOM_UTF16_LE), [(None, RFC), (None, ISBN)], None, 1, 0),
    ("be16.xml", _utf("utf-16-be", codecs.BOM_UTF16_BE), [(None, RFC), (None, ISBN)], None, 1, 0),
    ("le32.xml", _utf("utf-32-le", codecs.BOM_UTF32_LE), [(None, RFC), (None, ISBN)], None, 1, 0),
    # XML with no byte-order mark: its first characters tell the encoding
    # (XML 1.0 Appendix F.1), and the file is read, not skipped as binary
    ("le16-nomark.xml", _utf("utf-16-le", b""), [(None, RFC), (None, ISBN)], None, 1, 0),
    ("be16-nomark.xml", _utf("utf-16-be", b""), [(None, RFC), (None, ISBN)], None, 1, 0),
    ("le32-nomark.xml", _utf("utf-32-le", b""), [(None, RFC), (None, ISBN)], None, 1, 0),
    ("be32-nomark.xml", _utf("utf-32-be", b""), [(None, RFC), (None, ISBN)], None, 1, 0),
    ("nomark.xml.gz", lambda: gzip.compress(_utf("utf-16-le", b"")(), mtime=0), [(None, RFC), (None, ISBN)],
     None, 1, 0),
    ("nomark.zip", lambda: zip_bytes([("ns.xml", _utf("utf-16-be", b"")())]), [("ns.xml", RFC), ("ns.xml", ISBN)],
     "zip", 1, 0),
    ("plain.txt", lambda: f"From the list: {ISBN}\n".encode(), [(None, ISBN)], None, 1, 0),
]


def _scan(path, chunk_size=1 << 20, **config):
    hits = []
    status = scan_input(InputRef(str(path)), ScanConfig(chunk_size=chunk_size, **config), hits.extend)
    return status, hits


@pytest.mark.parametrize("name,build,expected,container,documents,skipped", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("chunk_size", [7, 1 << 20])
def test_each_container_gives_exactly_its_urns(tmp_path, name, build, expected, container, documents, skipped,
                                               chunk_size):
    path = tmp_path / name
    path.write_bytes(build())
    status, hits = _scan(path, chunk_size)
    assert [(h.document, h.urn) for h in hits] == expected
    assert all(h.source == str(path) and h.valid for h in hits)
    assert (status.status, status.container, status.documents, status.skipped_documents) == \
        (SCANNED, container, documents, skipped)
    assert status.hits == len(expected)
    assert (status.reason is None) == (skipped == 0)


@pytest.mark.parametrize("name,build,expected,container,documents,skipped", CASES, ids=[c[0] for c in CASES])
def test_the_python_api_reads_a_file_as_the_command_does(tmp_path, name, build, expected, container, documents,
                                                        skipped):
    path = tmp_path / name
    path.write_bytes(build())
    assert list(urnscan.scan_file(path)) == _scan(path)[1]
    assert [(h.document, h.urn) for h in urnscan.scan_file(str(path), chunk_size=7)] == expected


def test_offsets_are_in_the_decoded_document(tmp_path):
    path = tmp_path / "latin1.mbox"
    path.write_bytes(_latin1())
    _, hits = _scan(path)
    # "Café " is 6 bytes of UTF-8 (the URN starts at byte 6), "résumé " 9
    assert [(h.start, h.line, h.column, h.raw) for h in hits] == [(6, 1, 7, ISBN), (9, 1, 10, ISSN)]
    path = tmp_path / "qp.mbox"
    path.write_bytes(_qp_soft_break())
    _, hits = _scan(path)
    assert (hits[0].start, hits[0].end, hits[0].raw) == (4, 4 + len(NBN), NBN)


@pytest.mark.parametrize("content", [
    f"see {ISBN}\n".encode("utf-16-le"),  # text with no mark, XML's or a byte-order mark
    f" <?xml version='1.0'?><a>{ISBN}</a>".encode("utf-16-le"),  # "<?" not first
    f"<a>{ISBN}</a>".encode("utf-16-be"),  # "<" then no "?" in UTF-16
], ids=["text", "blank-first", "element-first"])
def test_utf16_without_a_mark_stays_binary(tmp_path, content):
    path = tmp_path / "u.dat"
    path.write_bytes(content)
    status, hits = _scan(path)
    assert hits == [] and status.reason == BINARY_CONTENT


def test_utf16_offsets_count_utf8_bytes(tmp_path):
    path = tmp_path / "u.txt"
    path.write_bytes(codecs.BOM_UTF16_LE + f"é {ISBN}".encode("utf-16-le"))
    _, hits = _scan(path)
    assert [(h.start, h.column, h.document) for h in hits] == [(3, 4, None)]


def test_container_kinds_from_content_and_name():
    table = [
        (b"PK\x03\x04rest", "x.bin", ContainerKind.ZIP),
        (b"%PDF-1.7\n", "x", ContainerKind.PDF),
        # junk before the header (ISO 32000-1 section 7.5.2; readers look
        # through the first 1024 bytes)
        (b"HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n1 0 obj\n", "x", ContainerKind.PDF),
        (b"\x00\x05doc.pdf\x00\x00" + b"\x00" * 100 + b"%PDF-1.3\r%\xe2\xe3\xcf\xd3\r1 0 obj", "x", ContainerKind.PDF),
        # a program or a text that quotes the header is no PDF
        (b"#!/usr/bin/env python3\nPDFVER = b'%PDF-1.4'  # for XMP\nclass Obj: obj = 1\n", "serialize.py", None),
        (b"/* writes \"%PDF-1.7\" then the objects */\nint obj;\n", "w.c", None),
        (b"The header is\n%PDF-\nand then a version.\n", "notes.txt", None),
        (b"Notes\n%PDF-1.4 is what the first line says, and nothing else here\n", "notes.txt", None),
        (b"WARC/1.0\r\n", "x", ContainerKind.WARC),
        (b"From a@b Mon Jan  1 00:00:00 2024\nSubject: x\n\n", "archive", ContainerKind.MBOX),
        (b"From the examples:\nurn:example:a\n", "notes.txt", None),  # no time: no separator
        (b"From here on we talk.\nNo header here\n", "notes.txt", None),
        (b"From: a@b\nSubject: x\n\nbody", "m.eml", ContainerKind.EML),
        (b"From: a@b\nSubject: x\n\nbody", "m.txt", None),  # a mail-like text file stays text
        # ... but a header only a message has, with an encoding to undo, makes it one whatever
        # its name (a Maildir's, an MH folder's file, a news article): RFC 5322 section 2.1
        (b"Return-Path: <a@b>\nReceived: from x\n\tby y\nFrom: a@b\nDate: Mon, 1 Jan 2024\n"
         b"Content-Transfer-Encoding: quoted-printable\n\nbody", "17", ContainerKind.EML),
        (b"Path: news.example!not-for-mail\r\nFrom: a@b\r\nNewsgroups: comp.x\r\nMessage-ID: <1@b>\r\n"
         b"Subject: =?utf-8?q?caf=C3=A9?=\r\n\r\nb", "4", ContainerKind.EML),
        (b"X-Mozilla-Status: 0001\nFrom: a@b\nMIME-Version: 1.0\nContent-Type:\n multipart/mixed;\n"
         b" boundary=x\n\n", "msg", ContainerKind.EML),
        # a web page saved as MHTML (RFC 2557): a MIME message too
        (b"From: <Saved by Blink>\r\nSnapshot-Content-Location: https://h.example/\r\nSubject: A page\r\n"
         b"Date: Tue, 27 Apr 2021 16:40:38 -0000\r\nMIME-Version: 1.0\r\nContent-Type: multipart/related;\r\n"
         b"\ttype=\"text/html\";\r\n\tboundary=\"----B\"\r\n\r\n", "page.mhtml", ContainerKind.EML),
        # ... and as an office suite's "Single File Web Page" writes it, with no "From": by its name
        (b"MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=\"----=_NextPart_01D5\"\r\n\r\n",
         "Report.mht", ContainerKind.EML),
        (b"MIME-Version: 1.0\r\nX-Document-Type: Workbook\r\nContent-Type: multipart/related;\r\n", "b.mhtml",
         ContainerKind.EML),
        # ... whatever its name when its header is complete: MIME-Version and a multipart/related
        # Content-Type make an MHTML page (RFC 2557 section 3), mail or not (a page served as "Word")
        (b"MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=x\r\n\r\n", "Report.doc",
         ContainerKind.EML),
        (b"MIME-Version: 1.0\nX-Document-Type: Workbook\nContent-Type: multipart/related;\n\tboundary=\"x\"\n\n",
         "book", ContainerKind.EML),
        # ... and no other MIME entity without From, nor one without MIME-Version, nor YAML's keys
        (b"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=x\n\n", "notes.txt", None),
        (b"Content-Type: multipart/related; boundary=x\nSubject: y\n\n", "notes.txt", None),
        (b"mime-version: 1.0\ncontent-type: multipart/related\n\n", "notes.yaml", None),
        (b"MIME-Version: 1.0\nContent-Type: text/html\nNote: multipart/related\n\n", "notes.txt", None),
        # ... a message in plain text reads the same as text and stays text (its hits keep the file's lines)
        (b"From: a@b\nDate: Mon, 1 Jan 2024\nMessage-ID: <1@b>\nMIME-Version: 1.0\n"
         b"Content-Type: text/plain; charset=us-ascii\nContent-Transfer-Encoding: 7bit\n\nbody", "m.txt", None),
        # ... and look-alikes are no message, encoded or not
        (b"from: a\nto: b\ndate: 2024-01-01\ncontent-transfer-encoding: base64\n\nbody", "notes.txt",
         None),  # YAML's keys, written in lower case
        (b"From: a@b\nDate: Mon\nContent-Transfer-Encoding: base64\nsome text\n\nbody", "x", None),  # no field
        (b"From: a@b\nDate: Mon\nContent-Transfer-Encoding: base64\n", "x", None),  # the header goes on past the head
        (b"subject: WOString {\n  value = subject;\n}\n", "Forward.wod", None),
        (b"Package: x\nVersion: 1\nDate: y\nContent-Type: multipart/x\n\n", "control", None),  # no From
        (b"plain text", "x.eml", None),
        (tar_bytes([("a.txt", b"x")], tarfile.USTAR_FORMAT), "x", ContainerKind.TAR),
        (ar_bytes([("debian-binary", b"2.0\n")]), "x.deb", ContainerKind.AR),
        # a tar archive whose first member is a PDF (its header within the first 1024 bytes)
        (tar_bytes([("a.pdf", pdf(["x"]))]), "x.tar", ContainerKind.TAR),
        (ar_bytes([("a.pdf", pdf(["x"]))]), "x.a", ContainerKind.AR),
        (b"!<arch>", "x", None),
        (tar_bytes([("a.txt", b"x")], tarfile.GNU_FORMAT), "x", ContainerKind.TAR),
        (tar_bytes([("a" * 200, b"x")], tarfile.PAX_FORMAT), "x", ContainerKind.TAR),
        (_signed_checksum_tar(), "x", ContainerKind.TAR),
        (_damaged_checksum(tar_bytes([("a.txt", b"x")])), "x", None),
        (tar_bytes([("a.txt", b"x")])[:511], "x", None),  # not a whole header block
        # "ustar" at offset 257 of a text file is no tar header
        (b"x" * 257 + b"ustar" + b" text" * 100, "notes.txt", None),
    ]
    for head, name, kind in table:
        assert container_kind(head, name) is kind, head


def _damaged_checksum(data: bytes) -> bytes:
    out = bytearray(data)
    out[0] ^= 0x01  # the name's first byte: the stored checksum no longer matches
    return bytes(out)


def _signed_checksum_tar() -> bytes:
    """A header with bytes above 127 in its name, its checksum summed as
    signed bytes (as some old writers did)."""
    out = bytearray(tar_bytes([("caf\xe9.txt", b"x")], tarfile.USTAR_FORMAT))
    block = out[:512]
    block[148:156] = b" " * 8
    signed = sum(b - 256 if b > 127 else b for b in block)
    out[148:156] = b"%06o\0 " % signed
    assert signed != sum(block)
    return bytes(out)


def test_a_pdf_line_ending_in_a_hyphen_goes_on_with_it(tmp_path):
    pytest.importorskip("pypdfium2")
    # PDFium joins the lines and marks the hyphen U+FFFE: a URN broken at
    # its own hyphen is whole again, hyphen and all
    path = tmp_path / "refs.pdf"
    path.write_bytes(pdf(["Heidelberg 2005, urn: urn:nbn:de:bsz:16-\nheidok-74406. Next"]))
    _, hits = _scan(path)
    assert [h.urn for h in hits] == ["urn:nbn:de:bsz:16-heidok-74406"]


def test_a_program_quoting_the_pdf_header_is_scanned_as_text(tmp_path):
    # a PDF writer's source names the header it writes: it was read as a
    # PDF, failed, and its URNs were lost
    path = tmp_path / "serialize.py"
    path.write_bytes(b"PDFVER = b'%PDF-1.4'  # 1.4 is needed for XMP metadata\n"
                     b"XMP_NS = 'urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66'\n")
    status, hits = _scan(path)
    assert (status.status, status.container) == ("scanned", None)
    assert [h.urn for h in hits] == ["urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66"]


@pytest.mark.parametrize("body, expected", [
    # RFC 3676 section 4.2: delsp=yes, a soft break's space deleted, inside a word too
    (b"> The capability is urn:ietf:params:netconf:capabil \r\n> ity:interleave:1.0 on the side.\r\n",
     ["urn:ietf:params:netconf:capability:interleave:1.0"]),
    (b"See urn:ietf:params:xml:ns:yang:ietf-network-ins \ntance and more.\n\n-- \nurn:example:sig\n",
     ["urn:ietf:params:xml:ns:yang:ietf-network-instance", "urn:example:sig"]),
    # ... not onto another quote depth, nor across an empty line
    (b"> urn:example:a \n>> b\n", ["urn:example:a"]),
    (b"urn:example:a \n\nb\n", ["urn:example:a"]),
])
def test_flowed_delsp_soft_breaks_are_undone(tmp_path, body, expected):
    path = tmp_path / "box"
    path.write_bytes(b"From a@b Mon Jan  1 00:00:00 2024\nMessage-ID: <1@x>\n"
                     b"Content-Type: text/plain; charset=us-ascii; format=flowed; delsp=yes\n\n" + body)
    _, hits = _scan(path)
    assert [h.urn for h in hits] == expected


def test_flowed_without_delsp_is_left_as_written(tmp_path):
    path = tmp_path / "box"
    path.write_bytes(b"From a@b Mon Jan  1 00:00:00 2024\nMessage-ID: <1@x>\n"
                     b"Content-Type: text/plain; format=flowed\n\nsee urn:example:a \nb\n")
    _, hits = _scan(path)
    assert [(h.urn, h.line) for h in hits] == [("urn:example:a", 1)]


def test_a_line_of_prose_starting_from_is_no_separator(tmp_path):
    # an archive that did not quote it: the line holds no time (RFC 4155)
    path = tmp_path / "box"
    path.write_bytes(b"From a@b Mon Jan  1 00:00:00 2024\nMessage-ID: <1@x>\n\nHello.\n\n"
                     b"From the examples in RFC 8141, these two:\nurn:example:one\nurn:example:two\n")
    status, hits = _scan(path)
    assert status.documents == 1
    assert [(h.document, h.urn) for h in hits] == [("<1@x>/1", "urn:example:one"), ("<1@x>/1", "urn:example:two")]


def test_mbox_separators_and_quoting(tmp_path):
    data = (b"From a@b Mon Jan 1 00:00:00 2024\nMessage-ID: <1@x>\n\nline\n"
            b"From inside a paragraph is no separator urn:isbn:9780451450524\n"
            b">From quoted urn:ietf:rfc:8141\n\n"
            b"From b@c Mon Jan 1 00:00:00 2024\n\nurn:issn:2049-3630\n")
    path = tmp_path / "box"
    path.write_bytes(data)
    status, hits = _scan(path)
    assert [(h.document, h.urn, h.line) for h in hits] == [
        ("<1@x>/1", ISBN, 2), ("<1@x>/1", RFC, 3), ("#2/1", ISSN, 1)]
    assert status.documents == 2


def test_compressed_mbox_is_the_same_as_plain(tmp_path):
    (tmp_path / "a.mbox").write_bytes(_base64_parts())
    (tmp_path / "a.mbox.gz").write_bytes(gzip.compress(_base64_parts()))
    plain = _scan(tmp_path / "a.mbox")[1]
    packed = _scan(tmp_path / "a.mbox.gz")[1]
    assert [h[1:] for h in plain] == [h[1:] for h in packed] and plain


def test_zip_and_pdf_from_a_stream_are_spooled():
    for data, expected in ((_epub(), 3), (pdf([f"x {ISBN}"]), 1)):
        with open_documents(io.BytesIO(data), chunk_size=5) as docs:
            found = [doc.id for doc in docs if b"urn:" in b"".join(doc.chunks)]
        assert len(found) == expected


def test_a_pdf_inside_a_tarball_without_pdfium_is_skipped_with_the_reason(tmp_path, monkeypatch):
    import urnscan.sources.pdf as pdf_module

    monkeypatch.setattr(pdf_module, "pdf_available", lambda: False)
    path = tmp_path / "rel.tar"
    path.write_bytes(tar_bytes([("a.pdf", pdf([ISBN])), ("b.txt", RFC.encode())]))
    status, hits = _scan(path)
    assert [(h.document, h.urn) for h in hits] == [("b.txt", RFC)]
    assert (status.status, status.skipped_documents) == (SCANNED, 1) and PDF_MISSING in status.reason


def test_pdf_without_pdfium_is_skipped_with_the_reason(tmp_path, monkeypatch):
    import urnscan.sources.pdf as pdf_module

    monkeypatch.setattr(pdf_module, "pdf_available", lambda: False)
    path = tmp_path / "p.pdf"
    path.write_bytes(pdf([ISBN]))
    status, hits = _scan(path)
    assert (status.status, status.reason, status.container, hits) == (SKIPPED_BINARY, PDF_MISSING, "pdf", [])


def test_the_command_says_why_pdfs_were_not_read(tmp_path, monkeypatch, capsys):
    """Without pypdfium2 a PDF named on the command line is skipped with the
    reason on its line, and the PDFs met while walking a directory, counted
    as binary files are, get one line at the end that says how to read them."""
    import urnscan.sources.pdf as pdf_module
    from urnscan.cli import main

    monkeypatch.setattr(pdf_module, "pdf_available", lambda: False)
    (tmp_path / "d").mkdir()
    for name in ("named.pdf", "d/one.pdf", "d/two.pdf"):
        (tmp_path / name).write_bytes(pdf([ISBN]))
    (tmp_path / "d" / "plain.bin").write_bytes(b"\x00\x01" * 100)
    monkeypatch.chdir(tmp_path)
    assert main(["scan", "named.pdf", "d", "-o", "x.jsonl", "-j", "1"]) == 0
    assert capsys.readouterr().err.splitlines() == [
        f"urnscan: named.pdf: skipped ({PDF_MISSING})",
        f"urnscan: 2 PDF files not read: {PDF_MISSING}",
        "urnscan: 4 inputs (0 scanned, 4 binary skipped, 0 errors), 0.0 MB, 0 hits (0 valid) -> x.jsonl"]
    assert main(["scan", "named.pdf", "d", "-o", "y.jsonl", "-j", "1", "-q"]) == 0
    assert capsys.readouterr().err == ""  # -q: errors only


def test_a_container_failing_part_way_keeps_what_it_found(tmp_path):
    good = zip_bytes([("a.txt", ISBN.encode()), ("b.txt", (RFC + " " * 5000).encode())])
    bad = bytearray(good)
    at = bad.index(b"b.txt", 40) + 5  # the data of the second member, after its local header
    bad[at + 3] ^= 0xFF
    (tmp_path / "bad.zip").write_bytes(bytes(bad))
    status, hits = _scan(tmp_path / "bad.zip")
    assert status.status == ERROR and "b.txt" in status.reason
    assert [(h.document, h.urn) for h in hits][:1] == [("a.txt", ISBN)]
    assert status.documents >= 1

    warc = _warc()
    (tmp_path / "cut.warc").write_bytes(warc[:warc.index(b"text urn:") + 3])
    status, hits = _scan(tmp_path / "cut.warc")
    assert [h.urn for h in hits] == [ISBN]
    assert status.status == ERROR and status.reason


def _lines(first: int, count: int) -> bytes:
    """``count`` numbered lines of 100 bytes, each citing an ISBN and an RFC
    beside a random number: text that deflate packs about twice."""
    rng = random.Random(first)
    return "".join(f"line {i:05d} cites {ISBN} and {RFC} ({rng.getrandbits(128):032x})\n"
                   for i in range(first, first + count)).encode()


def _zip_damaged_at(members, name: str, offset: int, method: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A zip archive of ``members`` whose member ``name`` has 50 bytes of its
    data flipped ``offset`` bytes after its local header (APPNOTE 4.3.7)."""
    data = bytearray(zip_bytes(members, method))
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as archive:
        at = archive.getinfo(name).header_offset + 30 + len(name.encode()) + offset
    for i in range(at, at + 50):
        data[i] ^= 0x55
    return bytes(data)


_BIG = _lines(0, 2000)
_CUT_GZIP = gzip.compress(f"{ISSN}\n".encode() + _lines(0, 400), mtime=0)[:-600]  # its end and trailer gone

#: (name, archive, the documents holding hits, or "prefix" for part of one, the damaged member in the reason)
DAMAGED_MEMBERS = [
    ("deflate.zip", lambda: _zip_damaged_at([("a.txt", ISBN.encode()), ("big.txt", _BIG), ("c.txt", RFC.encode())],
                                            "big.txt", 5000), ["a.txt", "big.txt", "c.txt"], "big.txt"),
    # a stored member with damage: all its bytes read, its CRC-32 then fails
    ("stored.zip", lambda: _zip_damaged_at([("a.txt", ISBN.encode()), ("big.txt", _BIG), ("c.txt", RFC.encode())],
                                           "big.txt", 100, zipfile.ZIP_STORED), ["a.txt", "big.txt", "c.txt"],
     "big.txt"),
    ("book.epub", lambda: zip_bytes([("mimetype", b"application/epub+zip"), ("OEBPS/ch1.txt.gz", _CUT_GZIP),
                                     ("OEBPS/ch2.xhtml", f"<p>{RFC}</p>".encode())]),
     ["OEBPS/ch1.txt.gz", "OEBPS/ch2.xhtml"], "OEBPS/ch1.txt.gz"),
    ("member.tar", lambda: tar_bytes([("a.txt", ISBN.encode()), ("b.txt.gz", _CUT_GZIP), ("c.txt", RFC.encode())]),
     ["a.txt", "b.txt.gz", "c.txt"], "b.txt.gz"),
    ("member.deb", lambda: ar_bytes([("debian-binary", b"2.0\n"), ("b.txt.gz", _CUT_GZIP), ("c.txt", RFC.encode())]),
     ["b.txt.gz", "c.txt"], "b.txt.gz"),
    ("inner.tar", lambda: tar_bytes([("in.zip", _zip_damaged_at([("big.txt", _BIG)], "big.txt", 5000)),
                                     ("c.txt", RFC.encode())]), ["in.zip!big.txt", "c.txt"], "in.zip"),
]


@pytest.mark.parametrize("name,build,documents,member", DAMAGED_MEMBERS, ids=[c[0] for c in DAMAGED_MEMBERS])
@pytest.mark.parametrize("chunk_size", [7, 1 << 20])
def test_a_damaged_member_keeps_its_text_before_the_damage_and_the_members_after(tmp_path, name, build, documents,
                                                                                 member, chunk_size):
    path = tmp_path / name
    path.write_bytes(build())
    status, hits = _scan(path, chunk_size)
    assert sorted({h.document for h in hits}, key=documents.index) == documents
    assert status.status == ERROR and status.reason.startswith(f"damaged {status.container} archive: member {member}: ")
    assert status.reason.endswith("; the text before the damage and the other members read"), status.reason


def test_a_damaged_zip_member_keeps_nearly_all_of_its_text_before_the_damage(tmp_path):
    from urnscan.sources.document import DECODE_STEP

    path = tmp_path / "big.zip"
    path.write_bytes(_zip_damaged_at([("big.txt", _BIG)], "big.txt", 5000))
    with zipfile.ZipFile(io.BytesIO(zip_bytes([("big.txt", _BIG)]))) as archive:
        info = archive.getinfo("big.txt")
    decodable = zlib_prefix(path.read_bytes(), info)
    status, hits = _scan(path)
    assert len(decodable) > 3 * DECODE_STEP
    cited = decodable.count(ISBN.encode()) + decodable.count(RFC.encode())
    assert cited - 2 * (DECODE_STEP // len(_lines(0, 1)) + 1) <= len(hits) <= cited  # a step at most lost


def zlib_prefix(data: bytes, info: zipfile.ZipInfo) -> bytes:
    """What deflate decodes of a member fed one byte at a time, up to its damage."""
    import zlib

    start = info.header_offset + 30 + len(info.filename.encode())
    decoder, out = zlib.decompressobj(-15), []
    for i in range(start, start + info.compress_size):
        try:
            out.append(decoder.decompress(data[i:i + 1]))
        except zlib.error:
            break
    return b"".join(out)


def test_a_damaged_zip_member_gives_the_same_rows_at_any_jobs(tmp_path):
    (tmp_path / "bad.zip").write_bytes(DAMAGED_MEMBERS[0][1]())
    outputs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"hits{jobs}.jsonl"
        done = subprocess.run([sys.executable, "-m", "urnscan", "scan", "bad.zip", "-o", str(out), "-q",
                               "--format", "jsonl", "--jobs", jobs], cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 1 and "damaged zip archive: member big.txt" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
        outputs.append((out.read_text(), (tmp_path / f"hits{jobs}.files.jsonl").read_text()))
    assert outputs[0] == outputs[1] and outputs[0][0].count("\n") > 3


def test_a_tar_archive_cut_short_keeps_what_it_found(tmp_path):
    whole = tar_bytes([("a.txt", f"{ISBN}\n".encode()), ("b.txt", f"{RFC}\n".encode() + b"." * 5000)])
    cut = whole[:whole.index(RFC.encode()) + 2000]  # inside the second member's data
    for name, data in (("cut.tar", cut), ("cut.tar.gz", gzip.compress(cut, mtime=0))):
        (tmp_path / name).write_bytes(data)
        for chunk_size in (7, 1 << 20):
            status, hits = _scan(tmp_path / name, chunk_size)
            assert [(h.document, h.urn) for h in hits] == [("a.txt", ISBN), ("b.txt", RFC)]
            assert status.status == ERROR and "b.txt" in status.reason and "end of data" in status.reason
            assert status.container == "tar"
        # the Python API: the same hits, then the error
        found = []
        with pytest.raises(urnscan.SourceError, match="end of data"):
            for hit in urnscan.scan_file(tmp_path / name):
                found.append(hit.urn)
        assert found == [ISBN, RFC]
    # cut inside the blocks of zeros that end the archive: nothing is lost
    (tmp_path / "cut-end.tar").write_bytes(whole[:len(whole) - 700])
    status, hits = _scan(tmp_path / "cut-end.tar")
    assert status.status == SCANNED and [h.urn for h in hits] == [ISBN, RFC]
    # cut inside the second member's header (tarfile itself would end the archive there without a word)
    (tmp_path / "cut-header.tar").write_bytes(whole[:whole.index(RFC.encode()) - 200])
    status, hits = _scan(tmp_path / "cut-header.tar")
    assert [(h.document, h.urn) for h in hits] == [("a.txt", ISBN)]
    assert status.status == ERROR and status.reason.endswith("unexpected end of data in a header")


@pytest.mark.parametrize("fmt", ["gnu", "posix"])
def test_a_sparse_tar_member_is_read_with_its_holes(tmp_path, fmt):
    import shutil

    tar = shutil.which("tar")
    if tar is None or b"GNU tar" not in subprocess.run([tar, "--version"], capture_output=True).stdout:
        pytest.skip("GNU tar writes sparse members")
    sparse = tmp_path / "tree" / "sparse.txt"
    sparse.parent.mkdir()
    with open(sparse, "wb") as fh:
        fh.write(f"{ISBN}\n".encode() + b"text\n" * 14000)
        fh.seek(1 << 20, 1)  # a hole
        fh.write(f"\n{RFC}\n".encode())
    path = tmp_path / "sparse.tar"
    subprocess.run([tar, "-cSf", str(path), f"--format={fmt}", "-C", str(tmp_path / "tree"), "sparse.txt"],
                   check=True)
    status, hits = _scan(path)
    assert [(h.document, h.urn) for h in hits] == [("sparse.txt", ISBN), ("sparse.txt", RFC)]
    assert status.bytes == sparse.stat().st_size


def test_archives_inside_archives_are_opened_two_levels_deep(tmp_path):
    inner = tar_bytes([("c.txt", f"{ISSN}\n".encode())])
    middle = tar_bytes([("b.txt", f"{RFC}\n".encode()), ("c.tar", inner)])
    outer = tar_bytes([("a.txt", f"{ISBN}\n".encode()), ("b.tar.gz", gzip.compress(middle, mtime=0))])
    (tmp_path / "outer.tar").write_bytes(tar_bytes([("outer.tar", outer)]))
    status, hits = _scan(tmp_path / "outer.tar")
    assert [(h.document, h.urn) for h in hits] == [("outer.tar!a.txt", ISBN), ("outer.tar!b.tar.gz!b.txt", RFC)]
    assert (status.status, status.documents, status.skipped_documents) == (SCANNED, 2, 1)  # c.tar, three deep


def test_a_damaged_ar_archive_keeps_what_it_found(tmp_path):
    good = ar_bytes([("a.txt", f"{ISBN}\n".encode()), ("b.txt", f"{RFC}\n".encode())])
    second = good.index(b"`\n", good.index(b"`\n") + 2)
    bad = good[:second] + b"xx" + good[second + 2:]  # the second member's header mark
    for name, data, reason in (("bad.a", bad, "no member header at byte 92"),
                               ("cut.deb", good[:-1], "member b.txt: unexpected end of data")):
        (tmp_path / name).write_bytes(data)
        status, hits = _scan(tmp_path / name)
        assert status.status == ERROR and reason in status.reason, status.reason
        assert [h.urn for h in hits] == ([ISBN] if name == "bad.a" else [ISBN, RFC])


def test_a_damaged_tar_header_is_passed_over_and_reported(tmp_path):
    data = bytearray(tar_bytes([("a.txt", f"{ISBN}\n".encode()), ("b.txt", f"{RFC}\n".encode()),
                                ("c.txt", f"{ISSN}\n".encode())], tarfile.USTAR_FORMAT))
    data[1024] ^= 0x01  # the name in b.txt's header: its checksum no longer matches
    (tmp_path / "damaged.tar").write_bytes(bytes(data))
    status, hits = _scan(tmp_path / "damaged.tar")
    assert [(h.document, h.urn) for h in hits] == [("a.txt", ISBN), ("c.txt", ISSN)]
    assert status.status == ERROR and status.reason.endswith(
        "damaged tar archive: 2 blocks of 512 bytes where a header should be passed over, the members after "
        "them read"), status.reason


def test_a_tar_header_extension_beyond_the_cap_stops_the_input(tmp_path):
    from urnscan.sources.tarred import MAX_EXTENSION_BYTES

    first = tar_bytes([("a.txt", f"{ISBN}\n".encode())], tarfile.USTAR_FORMAT)
    first = first[:first.index(b"\0" * 1024, 1024)]  # without the end-of-archive blocks
    header = tarfile.TarInfo("././@PaxHeader")
    header.type, header.size = tarfile.XHDTYPE, MAX_EXTENSION_BYTES + 1
    crafted = first + header.tobuf(tarfile.USTAR_FORMAT) + b"9 a=b\n" * 10
    (tmp_path / "big.tar").write_bytes(crafted)
    status, hits = _scan(tmp_path / "big.tar")
    assert [h.urn for h in hits] == [ISBN]
    assert status.status == ERROR and "header extension" in status.reason


def test_a_tar_archive_of_many_members_is_read_in_bounded_memory():
    import tracemalloc

    def peak(members: int) -> int:
        data = tar_bytes([(f"d/{i:06d}.txt", b"text\n") for i in range(members)], tarfile.USTAR_FORMAT)
        tracemalloc.start()
        with open_documents(io.BytesIO(data), chunk_size=1 << 16) as docs:
            assert sum(1 for doc in docs for _ in doc.chunks) == members
        top = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return top

    # a header kept per member (tarfile keeps them all) would add about
    # a kilobyte each: 3 MB more for the larger archive
    assert peak(4000) < peak(1000) + (1 << 20)


def test_a_tarball_on_standard_input(tmp_path):
    data = _source_tarball()
    out = tmp_path / "hits.jsonl"
    for jobs in ("1", "2"):
        done = subprocess.run([sys.executable, "-m", "urnscan", "scan", "-", "-o", str(out), "--force", "-q",
                               "--format", "jsonl", "--jobs", jobs], input=data, capture_output=True)
        assert done.returncode == 0, done.stderr
        rows = [json.loads(line) for line in out.read_text().splitlines()]
        assert [(r["source"], r["document"], r["urn"]) for r in rows] == [
            ("-", "pkg-1.0/README", ISBN), ("-", "pkg-1.0/ns.xml", RFC), ("-", LONG_NAME, NBN),
            ("-", "pkg-1.0/man/pkg.1.gz", ISSN), ("-", "pkg-1.0/vendor/dep.tar.gz!d.txt", ISBN)]


def test_a_wrong_content_length_is_the_inputs_error_and_nothing_else(tmp_path, capsys):
    first = warc_record("resource", 1, f"text {ISBN}\n".encode(), uri="https://example.org/a")
    wrong = first.replace(b"Content-Length: ", b"Content-Length: 1", 1)  # ten times too long, or more
    (tmp_path / "bad.warc").write_bytes(wrong + warc_record("resource", 2, b"more\n", uri="https://example.org/b"))
    status, _ = _scan(tmp_path / "bad.warc")
    assert status.status == ERROR and status.reason.startswith("corrupt WARC") and "\n" not in status.reason
    assert capsys.readouterr().err == ""  # (warcio's own warning is not passed on)


def _spaces_gzip(megabytes: int, head: bytes) -> bytes:
    comp = zlib_gzip()
    block = b" " * (1 << 20)
    return comp.compress(head) + b"".join(comp.compress(block) for _ in range(megabytes)) + comp.flush()


def zlib_gzip():
    import zlib

    return zlib.compressobj(9, zlib.DEFLATED, 31)


def test_a_gzip_bomb_is_stopped_and_reported(tmp_path):
    path = tmp_path / "bomb.txt.gz"
    path.write_bytes(_spaces_gzip(64, ISBN.encode() + b"\n"))
    status, hits = _scan(path)
    assert status.status == ERROR and "over the limit of 1000 times" in status.reason
    assert [h.urn for h in hits] == [ISBN]
    assert status.bytes < 60 << 20  # stopped well before the 64 MiB
    status, _ = _scan(path, max_ratio=0)
    assert status.status == SCANNED and status.bytes == (64 << 20) + len(ISBN) + 1


def test_a_zip_bomb_is_stopped_and_reported(tmp_path):
    path = tmp_path / "bomb.zip"
    path.write_bytes(zip_bytes([("first.txt", ISBN.encode()), ("bomb.txt", RFC.encode() + b" " * (40 << 20))]))
    status, hits = _scan(path)
    assert status.status == ERROR and "bomb.txt" in status.reason and "over the limit" in status.reason
    assert [(h.document, h.urn) for h in hits] == [("first.txt", ISBN), ("bomb.txt", RFC)]
    status, _ = _scan(path, max_ratio=10)
    assert status.status == ERROR and status.bytes <= (16 << 20) + (1 << 20)


def test_a_compressed_tar_member_is_held_to_the_ratio_limit(tmp_path):
    bomb = _spaces_gzip(64, ISBN.encode() + b"\n")
    cut = gzip.compress(RFC.encode() + b"\n", mtime=0)[:-6]  # its CRC and length gone
    path = tmp_path / "bomb.tar"
    path.write_bytes(tar_bytes([("a.txt.gz", bomb), ("b.txt.gz", cut)]))
    status, hits = _scan(path)
    assert status.status == ERROR and "a.txt.gz" in status.reason and "over the limit" in status.reason
    assert [(h.document, h.urn) for h in hits] == [("a.txt.gz", ISBN)]
    status, hits = _scan(path, max_ratio=0)
    assert status.status == ERROR and status.reason == (
        "damaged tar archive: member b.txt.gz: truncated gzip data (unexpected end of input); the text before the "
        "damage and the other members read"), status.reason
    assert [(h.document, h.urn) for h in hits] == [("a.txt.gz", ISBN), ("b.txt.gz", RFC)]


def test_many_members_pointing_at_the_same_data_are_stopped(tmp_path):
    """Members may claim any compressed size: the archive as a whole is
    held to the ratio too."""
    payload = b"urn:isbn:9780451450524 " + b" " * (1 << 20)
    path = tmp_path / "many.zip"
    path.write_bytes(zip_bytes([(f"m{i}.txt", payload) for i in range(40)]))
    status, hits = _scan(path, max_ratio=5)
    assert status.status == ERROR and "zip documents" in status.reason
    assert 0 < len(hits) < 40


_MEMBER_TEXT = st.lists(st.sampled_from([
    "see ", "urn:isbn:9780451450524", "URN:NBN:de:bvb:12-bsb00012345-6", " and ", ".\n", "\n\n", "<urn:ietf:rfc:8141>",
    "urn:example:a-\n  b", "\"urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66\",", "x" * 300, "caf\u00e9 ",
]), max_size=30).map(lambda parts: "".join(parts).encode("utf-8"))


@settings(max_examples=40, deadline=None)
@given(members=st.lists(_MEMBER_TEXT, min_size=1, max_size=4), compress=st.booleans(),
       chunk_size=st.sampled_from([5, 97, 4096, 1 << 20]))
def test_a_tarball_gives_the_hits_of_its_members(tmp_path_factory, members, compress, chunk_size):
    """Each member of a tarball, compressed on its own or not, gives the
    hits of the same file read alone, whatever the chunk size."""
    names = [f"d/m{i}.txt" + (".gz" if compress and i % 2 else "") for i in range(len(members))]
    data = tar_bytes([(name, gzip.compress(text, mtime=0) if name.endswith(".gz") else text)
                      for name, text in zip(names, members)])
    path = tmp_path_factory.mktemp("tar") / "t.tar"
    path.write_bytes(data)
    status, hits = _scan(path, chunk_size)
    alone = [(name, h.start, h.end, h.urn, h.rules) for name, text in zip(names, members)
             for h in urnscan.scan_bytes(text)]
    assert [(h.document, h.start, h.end, h.urn, h.rules) for h in hits] == alone
    assert status.status == SCANNED and status.bytes == sum(len(t) for t in members)


@settings(max_examples=60, deadline=None)
@given(urns=st.lists(st.from_regex(r"urn:[a-z]{3,8}:[a-z0-9]{1,30}(-[a-z0-9]{1,10})?", fullmatch=True),
                     min_size=1, max_size=5),
       cuts=st.lists(st.integers(0, 10_000), max_size=8))
def test_soft_line_breaks_anywhere_give_back_the_urns(urns, cuts):
    """Quoted-printable soft line breaks (RFC 2045 section 6.7, rule 5) cut
    anywhere outside an =XX escape never change the URNs."""
    body = " and ".join(urns) + ".\n"
    positions = sorted({c % len(body) for c in cuts})
    for p in reversed(positions):
        body = body[:p] + "=\n" + body[p:]
    data = mbox(message({"Message-ID": "<p@x>", "Content-Transfer-Encoding": "quoted-printable"}, body))
    with open_documents(io.BytesIO(data)) as docs:
        text = b"".join(b"".join(d.chunks) for d in docs)
    # the empty line before the next "From " separator ends the message
    assert text.rstrip(b"\n") == (" and ".join(urns) + ".").encode()


def _corpus(tmp_path):
    tmp_path.mkdir(exist_ok=True)
    for name, build, *_ in CASES:
        (tmp_path / name).write_bytes(build())
    (tmp_path / "logo.png").write_bytes(PNG)
    return tmp_path


def _run(paths, jobs):
    hits, statuses = [], []
    run_scan(paths, ScanConfig(jobs=jobs, split_bytes=64), hits.extend, statuses.append)
    return hits, statuses


def test_jobs_give_the_same_rows(tmp_path):
    from urnscan.sources import expand_inputs

    root = _corpus(tmp_path)
    one = _run(list(expand_inputs([str(root)])), 1)
    two = _run(list(expand_inputs([str(root)])), 2)
    assert one == two
    assert any(s.status == SKIPPED_BINARY for s in one[1]) and {s.container for s in one[1]} >= {
        "mbox", "eml", "zip", "warc", "pdf", None}


def test_cli_jobs_2_and_the_ratio_option(tmp_path):
    root = _corpus(tmp_path / "c")
    (root / "bomb.txt.gz").write_bytes(_spaces_gzip(20, b""))
    outs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}.jsonl"
        r = subprocess.run([sys.executable, "-m", "urnscan", "scan", str(root), "-o", str(out), "-j", jobs],
                           capture_output=True, text=True)
        assert r.returncode == 1 and "bomb.txt.gz: error: gzip data stopped" in r.stderr
        outs[jobs] = [json.loads(line) for line in out.read_text().splitlines()]
    assert outs["1"] == outs["2"] and {h["document"] for h in outs["1"]} >= {"page=2", "OEBPS/ch1.xhtml"}
    r = subprocess.run([sys.executable, "-m", "urnscan", "scan", str(root / "bomb.txt.gz"), "--max-ratio", "0",
                        "-q"], capture_output=True, text=True)
    assert r.returncode == 0
    r = subprocess.run([sys.executable, "-m", "urnscan", "scan", str(root), "--max-ratio", "-1"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "--max-ratio" in r.stderr


def test_text_output_names_the_document(tmp_path):
    (tmp_path / "book.epub").write_bytes(_epub())
    r = subprocess.run([sys.executable, "-m", "urnscan", "scan", str(tmp_path / "book.epub"), "-s"],
                       capture_output=True, text=True)
    assert f"book.epub!OEBPS/ch1.xhtml:1:11:{ISSN}" in r.stdout


def test_dask_scans_a_container_whole(tmp_path):
    dask = pytest.importorskip("dask")
    from urnscan.distributed import scan_paths

    root = _corpus(tmp_path)
    local = _run([InputRef(str(p), None, p.stat().st_size) for p in sorted(root.iterdir())], 1)
    with dask.config.set(scheduler="synchronous"):
        scan = scan_paths(str(root), split_bytes=64, partition_bytes=256)
        hits = scan.hits.compute()
        files = scan.files.compute()
    assert [(h.document, h.urn) for h in local[0]] == list(zip(hits["document"].astype(object).where(
        hits["document"].notna(), None), hits["urn"]))
    assert files["documents"].tolist() == [s.documents for s in local[1]]
