"""Write the container samples of data/samples/: archive.mbox, book.epub and
crawl.warc.gz.

Deterministic: the same bytes on every run (fixed dates, record ids and
gzip headers), so ``git diff`` shows nothing after a re-run::

    python3 tools/make_samples.py [OUT_DIR]

The other samples are hand-written text and are not made here.
"""
from __future__ import annotations

import base64
import gzip
import io
import quopri
import sys
import zipfile
from pathlib import Path

# A 1x1 PNG: a binary part / member, skipped and counted.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f1a3e60000000049454e44ae426082")


def _crlf(text: str) -> bytes:
    return text.replace("\n", "\r\n").encode("ascii")


def mbox() -> bytes:
    """Three messages: quoted-printable with a soft line break inside a URN,
    a multipart message with a base64 latin-1 text part and a base64
    image, and a message without a Message-ID whose HTML part is
    quoted-printable."""
    qp_body = (
        "The digitised edition is at urn:nbn:de:bvb:12-bsb00012345-6 now; the=\n"
        " print run is urn:nbn:de:bvb:12-bsb000=\n"
        "67890-1, and the index=3D <urn:isbn:0-451-45052-3>.\n")
    latin1 = ("Caf\xe9 catalogue, r\xe9sum\xe9 of the holdings:\n"
              "  urn:isbn:9780262533058 (\xe9dition fran\xe7aise)\n"
              "  urn:issn:1050-124X\n").encode("latin-1")
    html = quopri.encodestring(
        b'<p>See <a href="http://nbn-resolving.de/urn:nbn:de:hbz:6-85729">the record</a>'
        b" and &lt;URN:IETF:RFC:2141&gt; for the syntax, as the list agreed.</p>\n")
    message_1 = (
        "From hanne@lib.example.org Tue Mar 14 09:12:44 1995\n"
        "From: Hanne Vestergaard <hanne@lib.example.org>\n"
        "To: urn-names@lists.example.net\n"
        "Subject: Digitised editions\n"
        "Date: Tue, 14 Mar 1995 09:12:44 +0100\n"
        "Message-ID: <19950314.qp@lib.example.org>\n"
        "MIME-Version: 1.0\n"
        "Content-Type: text/plain; charset=us-ascii\n"
        "Content-Transfer-Encoding: quoted-printable\n"
        "\n" + qp_body + "\n")
    message_2 = (
        "From paul@cat.example.net Wed Mar 15 10:01:02 1995\n"
        "From: Paul Ostrowski <paul@cat.example.net>\n"
        "Subject: Re: Digitised editions\n"
        "Date: Wed, 15 Mar 1995 10:01:02 +0100\n"
        "Message-ID: <19950315.b64@cat.example.net>\n"
        "MIME-Version: 1.0\n"
        'Content-Type: multipart/mixed; boundary="=-sep"\n'
        "\n"
        "--=-sep\n"
        "Content-Type: text/plain; charset=iso-8859-1\n"
        "Content-Transfer-Encoding: base64\n"
        "\n" + base64.encodebytes(latin1).decode("ascii") +
        "--=-sep\n"
        "Content-Type: image/png; name=stamp.png\n"
        "Content-Transfer-Encoding: base64\n"
        "\n" + base64.encodebytes(PNG).decode("ascii") +
        "--=-sep--\n"
        "\n")
    message_3 = (
        "From ines@uni.example.edu Thu Mar 16 16:30:00 1995\n"
        "From: Ines Duarte <ines@uni.example.edu>\n"
        "Subject: Resolver links\n"
        "MIME-Version: 1.0\n"
        "Content-Type: text/html; charset=utf-8\n"
        "Content-Transfer-Encoding: quoted-printable\n"
        "\n" + html.decode("ascii") + "\n")
    return (message_1 + message_2 + message_3).encode("ascii")


def _zip_member(archive: zipfile.ZipFile, name: str, data: bytes, stored: bool = False) -> None:
    info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    archive.writestr(info, data)


def epub() -> bytes:
    """An EPUB 3 book: the identifiers in the package document, a chapter
    with a URN in its text, and a cover image (skipped)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        _zip_member(archive, "mimetype", b"application/epub+zip", stored=True)
        _zip_member(archive, "META-INF/container.xml", _crlf(
            '<?xml version="1.0"?>\n'
            '<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\n'
            '  <rootfiles><rootfile full-path="OEBPS/content.opf" '
            'media-type="application/oebps-package+xml"/></rootfiles>\n'
            "</container>\n"))
        _zip_member(archive, "OEBPS/content.opf", _crlf(
            '<?xml version="1.0" encoding="utf-8"?>\n'
            '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">\n'
            '  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">\n'
            '    <dc:identifier id="id">urn:uuid:6f1c2a9e-3b7d-4c55-9a0e-2d8f4b1e7c30</dc:identifier>\n'
            "    <dc:identifier>urn:isbn:9780451450524</dc:identifier>\n"
            "    <dc:title>Reading-Room Notes</dc:title>\n"
            "  </metadata>\n"
            '  <manifest><item id="ch1" href="ch1.xhtml" media-type="application/xhtml+xml"/>\n'
            '    <item id="cover" href="cover.png" media-type="image/png"/></manifest>\n'
            '  <spine><itemref idref="ch1"/></spine>\n'
            "</package>\n"))
        _zip_member(archive, "OEBPS/ch1.xhtml", _crlf(
            '<?xml version="1.0" encoding="utf-8"?>\n'
            '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>One</title></head>\n'
            "<body>\n"
            "<h1>Chapter one</h1>\n"
            "<p>The serial is cited as urn:issn:2049-3630, the report as\n"
            "<code>urn:ietf:rfc:8141</code>.</p>\n"
            "</body></html>\n"))
        _zip_member(archive, "OEBPS/cover.png", PNG, stored=True)
    return out.getvalue()


def _gzip_member(data: bytes) -> bytes:
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=0, compresslevel=9) as gz:
        gz.write(data)
    return out.getvalue()


def _warc_record(kind: str, number: int, block: bytes, headers: dict) -> bytes:
    lines = [
        "WARC/1.1",
        f"WARC-Type: {kind}",
        f"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{number:012d}>",
        "WARC-Date: 2024-01-01T00:00:00Z",
    ] + [f"{k}: {v}" for k, v in headers.items()] + [f"Content-Length: {len(block)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii") + block + b"\r\n\r\n"


def warc() -> bytes:
    """A small crawl, one gzip member per record: warcinfo, a request, a
    response with an HTML page, an image response (skipped) and the page's
    text as a WET conversion record."""
    page = _crlf(
        "<!DOCTYPE html>\n<html><head><title>Holdings</title>\n"
        '<meta name="citation_isbn" content="urn:isbn:0-596-00797-3"></head>\n'
        "<body><p>Resolver: "
        '<a href="https://nbn-resolving.org/urn:nbn:de:101:1-2014071512345">record</a>.</p>\n'
        "<p>Namespace: urn:example:holdings:2024.</p></body></html>\n")
    http = _crlf("HTTP/1.1 200 OK\nContent-Type: text/html; charset=utf-8\n"
                 f"Content-Length: {len(page)}\n\n") + page
    image = _crlf("HTTP/1.1 200 OK\nContent-Type: image/png\n"
                  f"Content-Length: {len(PNG)}\n\n") + PNG
    text = _crlf("Holdings\nResolver: record.\nNamespace: urn:example:holdings:2024.\n")
    request = _crlf("GET /holdings HTTP/1.1\nHost: lib.example.org\n\n")
    records = [
        _warc_record("warcinfo", 1, _crlf("software: tools/make_samples.py\nformat: WARC 1.1\n"),
                     {"Content-Type": "application/warc-fields"}),
        _warc_record("request", 2, request, {"WARC-Target-URI": "https://lib.example.org/holdings",
                                             "Content-Type": "application/http; msgtype=request"}),
        _warc_record("response", 3, http, {"WARC-Target-URI": "https://lib.example.org/holdings",
                                           "Content-Type": "application/http; msgtype=response"}),
        _warc_record("response", 4, image, {"WARC-Target-URI": "https://lib.example.org/logo.png",
                                            "Content-Type": "application/http; msgtype=response"}),
        _warc_record("conversion", 5, text, {"WARC-Target-URI": "https://lib.example.org/holdings",
                                             "WARC-Refers-To": "<urn:uuid:00000000-0000-4000-8000-000000000003>",
                                             "Content-Type": "text/plain"}),
    ]
    return b"".join(_gzip_member(r) for r in records)


SAMPLES = {"archive.mbox": mbox, "book.epub": epub, "crawl.warc.gz": warc}


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else Path(__file__).resolve().parents[1] / "data" / "samples"
    out.mkdir(parents=True, exist_ok=True)
    for name, make in SAMPLES.items():
        (out / name).write_bytes(make())
    return 0


if __name__ == "__main__":
    sys.exit(main())
