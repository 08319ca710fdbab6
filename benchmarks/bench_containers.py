"""Throughput of each container kind, beside plain text, in one run.

    python3 benchmarks/bench_containers.py [--size-mb 32] [--pdf-mb 2] [--repeat 2]

Generates one text (benchmarks/corpus.py, deterministic) and packs the same
text as: a plain file, a UTF-16 file with a byte-order mark, an mbox
archive (messages of about 64 KB, quoted-printable and base64 in turn), an
mbox of multipart/alternative messages (about 8 KB of text each, as text
and as HTML, both quoted-printable: mail as clients send it), an EPUB-like zip (members of about 256 KB, deflated), a gzipped WARC (one
record of about 64 KB per gzip member) and a PDF (pages of about 3 KB,
compressed streams; its own, smaller size, since PDF text extraction is
slow).  Each is scanned in one process by ``urnscan.runner.scan_input``;
the table gives MB/s of decoded text and the ratio to the plain file.
"""
from __future__ import annotations

import argparse
import base64
import codecs
import gzip
import io
import os
import quopri
import sys
import tempfile
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus import generate  # noqa: E402

sys.path.insert(0, str(HERE.parent))
from tests.container_fixtures import pdf as pdf_pages  # noqa: E402


def pieces(text: bytes, size: int):
    """``text`` cut at line ends into pieces of about ``size`` bytes."""
    start = 0
    while start < len(text):
        end = text.find(b"\n", start + size)
        end = len(text) if end < 0 else end + 1
        yield text[start:end]
        start = end


def mbox(text: bytes) -> bytes:
    out = io.BytesIO()
    for i, piece in enumerate(pieces(text, 64 << 10)):
        out.write(f"From bench@example.org Mon Jan  1 00:00:00 2024\nMessage-ID: <{i}@bench>\n"
                  "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n".encode())
        if i % 2:
            out.write(b"Content-Transfer-Encoding: base64\n\n" + base64.encodebytes(piece) + b"\n")
        else:
            out.write(b"Content-Transfer-Encoding: quoted-printable\n\n" + quopri.encodestring(piece) + b"\n")
    return out.getvalue()


def mbox_alternative(text: bytes) -> bytes:
    """Mail as clients send it: each message multipart/alternative, the
    text and an HTML version of it, both quoted-printable."""
    out = io.BytesIO()
    for i, piece in enumerate(pieces(text, 8 << 10)):
        html = b"<html><body><p>" + piece.replace(b"\n", b"<br>\n") + b"</p></body></html>"
        out.write(f"From bench@example.org Mon Jan  1 00:00:00 2024\nMessage-ID: <{i}@bench>\n"
                  f"MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=\"b{i}\"\n\n".encode())
        for kind, body in (("plain", piece), ("html", html)):
            out.write(f"--b{i}\nContent-Type: text/{kind}; charset=utf-8\n"
                      "Content-Transfer-Encoding: quoted-printable\n\n".encode() + quopri.encodestring(body) + b"\n")
        out.write(f"--b{i}--\n\n".encode())
    return out.getvalue()


def epub(text: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("mimetype", b"application/epub+zip")
        for i, piece in enumerate(pieces(text, 256 << 10)):
            archive.writestr(f"OEBPS/ch{i}.xhtml", piece)
    return out.getvalue()


def warc(text: bytes) -> bytes:
    out = io.BytesIO()
    for i, piece in enumerate(pieces(text, 64 << 10)):
        head = (f"WARC/1.1\r\nWARC-Type: conversion\r\nWARC-Record-ID: <urn:uuid:{i:032x}>\r\n"
                f"WARC-Target-URI: https://bench.example.org/{i}\r\nContent-Type: text/plain\r\n"
                f"Content-Length: {len(piece)}\r\n\r\n").encode()
        out.write(gzip.compress(head + piece + b"\r\n\r\n", compresslevel=6, mtime=0))
    return out.getvalue()


def pdf(text: bytes) -> bytes:
    return pdf_pages([p.decode("utf-8", "replace") for p in pieces(text, 3 << 10)])


def scan(path: str):
    from urnscan.runner import ScanConfig, scan_input
    from urnscan.sources import InputRef

    count = [0]
    t0 = time.perf_counter()
    status = scan_input(InputRef(path), ScanConfig(), lambda hits: count.__setitem__(0, count[0] + len(hits)))
    elapsed = time.perf_counter() - t0
    assert status.status == "scanned", status
    return elapsed, status.bytes, status.hits


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-mb", type=float, default=32)
    ap.add_argument("--pdf-mb", type=float, default=2)
    ap.add_argument("--every", type=int, default=20480)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="urnscan-bench-")
    source = os.path.join(work, "text.txt")
    generate(source, args.size_mb, args.every, seed=13)
    text = Path(source).read_bytes()
    small = text[:int(args.pdf_mb * 1e6)]
    inputs = {
        "plain text": ("plain.txt", text),
        "UTF-16 (BOM)": ("utf16.txt", codecs.BOM_UTF16_LE + text.decode("utf-8", "replace").encode("utf-16-le")),
        "mbox (QP / base64)": ("archive.mbox", mbox(text)),
        "mbox (text + HTML)": ("alternative.mbox", mbox_alternative(text)),
        "EPUB / zip": ("book.epub", epub(text)),
        "WARC (gzip records)": ("crawl.warc.gz", warc(text)),
        "plain text, PDF size": ("small.txt", small),
        "PDF (PDFium)": ("paper.pdf", pdf(small)),
    }
    rows = []
    Path(os.path.join(work, "warm-up.txt")).write_bytes(small)
    scan(os.path.join(work, "warm-up.txt"))  # imports and caches, before any timing
    for label, (name, data) in inputs.items():
        path = os.path.join(work, name)
        Path(path).write_bytes(data)
        best = min(scan(path) for _ in range(args.repeat))
        rows.append((label, best[1] / 1e6, best[0], best[2]))
    base = {label: mb / secs for label, mb, secs, _ in rows if label in ("plain text", "plain text, PDF size")}
    print(f"{'input':<22} {'MB decoded':>10} {'s':>7} {'MB/s':>8} {'hits':>8} {'vs plain':>9}")
    for label, mb, secs, hits in rows:
        ref = base["plain text, PDF size"] if label.startswith(("PDF", "plain text, PDF")) else base["plain text"]
        print(f"{label:<22} {mb:>10.1f} {secs:>7.2f} {mb / secs:>8.1f} {hits:>8} {mb / secs / ref:>8.2f}x")
    for p in Path(work).iterdir():
        p.unlink()
    os.rmdir(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
