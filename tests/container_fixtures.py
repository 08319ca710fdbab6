"""Containers the tests build: mail, zip, tar, WARC and PDF bytes, small and exact."""
from __future__ import annotations

import base64
import gzip
import io
import tarfile
import zipfile
import zlib
from typing import Dict, List, Sequence, Tuple


def mbox(*messages: str) -> bytes:
    return "".join(f"From sender@example.org Mon Jan  1 00:00:00 2024\n{m}\n" for m in messages).encode("latin-1")


def message(headers: Dict[str, str], body: str) -> str:
    return "".join(f"{k}: {v}\n" for k, v in headers.items()) + "\n" + body


def multipart(boundary: str, parts: List[Tuple[Dict[str, str], str]]) -> str:
    out = ""
    for headers, body in parts:
        out += f"--{boundary}\n" + message(headers, body)
    return out + f"--{boundary}--\n"


def b64(data: bytes) -> str:
    return base64.encodebytes(data).decode("ascii")


def zip_bytes(members: List[Tuple[str, bytes]], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as archive:
        for name, data in members:
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.compress_type = method
            archive.writestr(info, data)
    return out.getvalue()


def tar_bytes(members: List[Tuple[str, object]], fmt: int = tarfile.PAX_FORMAT) -> bytes:
    """A tar archive of ``members``: (name, bytes) a regular file, (name,
    None) a directory, (name, "->target") a symbolic link."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=fmt) as archive:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.mtime = 1704067200
            if data is None:
                info.type = tarfile.DIRTYPE
                archive.addfile(info)
            elif isinstance(data, str):
                info.type, info.linkname = tarfile.SYMTYPE, data[2:]
                archive.addfile(info)
            else:
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


def ar_bytes(members: List[Tuple[str, bytes]]) -> bytes:
    """An ar archive (ar(5)): GNU names ending in "/", a BSD "#1/N" name
    for a name longer than 15 bytes."""
    out = [b"!<arch>\n"]
    for name, data in members:
        if len(name) > 15:
            data = name.encode() + data
            field = f"#1/{len(name)}"
        else:
            field = name + "/"
        out.append(f"{field:<16}{0:<12}{0:<6}{0:<6}{644:<8}{len(data):<10}`\n".encode() + data)
        if len(data) % 2:
            out.append(b"\n")
    return b"".join(out)


def warc_record(kind: str, number: int, block: bytes, uri: str = "", content_type: str = "") -> bytes:
    lines = ["WARC/1.1", f"WARC-Type: {kind}",
             f"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{number:012d}>",
             "WARC-Date: 2024-01-01T00:00:00Z"]
    if uri:
        lines.append(f"WARC-Target-URI: {uri}")
    if content_type:
        lines.append(f"Content-Type: {content_type}")
    lines.append(f"Content-Length: {len(block)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii") + block + b"\r\n\r\n"


def http_response(body: bytes, content_type: str = "text/html; charset=utf-8", extra: str = "") -> bytes:
    head = f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n{extra}Content-Length: {len(body)}\r\n\r\n"
    return head.encode("ascii") + body


def gzip_members(*records: bytes) -> bytes:
    return b"".join(gzip.compress(r, mtime=0) for r in records)


def pdf(pages: List[str], embedded: Sequence[Tuple[str, bytes]] = ()) -> bytes:
    """A PDF whose pages show the lines of ``pages`` in Helvetica, each
    content stream FlateDecode-compressed, and that embeds the files
    ``embedded`` (name, data: PDF 1.7 section 7.11.4, FlateDecode-compressed
    too, in the catalog's EmbeddedFiles name tree); offsets in the xref are
    exact."""
    objects: List[bytes] = []
    n_pages = len(pages)
    font = 3 + 2 * n_pages
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(n_pages))
    names = " ".join(f"({name}) {font + 1 + 2 * i} 0 R" for i, (name, _) in enumerate(embedded))
    tree = f" /Names << /EmbeddedFiles << /Names [{names}] >> >>" if embedded else ""
    objects.append(f"<< /Type /Catalog /Pages 2 0 R{tree} >>".encode())
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
    for i, text in enumerate(pages):
        ops = [b"BT /F1 9 Tf 11 TL 36 720 Td"]
        for line in text.encode("latin-1", "replace").splitlines():
            escaped = line.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
            ops.append(b"(" + escaped + b") Tj T*")
        content = zlib.compress(b"\n".join(ops + [b"ET"]))
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {4 + 2 * i} 0 R "
                       f"/Resources << /Font << /F1 {font} 0 R >> >> >>".encode())
        objects.append(f"<< /Length {len(content)} /Filter /FlateDecode >>\nstream\n".encode()
                       + content + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for i, (name, data) in enumerate(embedded):
        packed = zlib.compress(data)
        objects.append(f"<< /Type /Filespec /F ({name}) /UF ({name}) /EF << /F {font + 2 + 2 * i} 0 R >> >>".encode())
        objects.append(f"<< /Type /EmbeddedFile /Length {len(packed)} /Filter /FlateDecode >>\nstream\n".encode()
                       + packed + b"\nendstream")
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n" if embedded else b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)
