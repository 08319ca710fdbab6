"""Inputs: expanding PATH arguments and reading (decompressed) chunks."""
from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import random
import socket
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

import pytest

from urnscan import sources
from urnscan.errors import SourceError, UrnscanError
from urnscan.sources import (
    BINARY_BLOCK_SIZE, InputRef, expand_inputs, looks_binary, open_chunks,
)

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
REPO = Path(__file__).resolve().parent.parent


def text_corpus(size: int, seed: int = 1) -> bytes:
    """Realistic, not very compressible text with URNs in it."""
    rng = random.Random(seed)
    words = [b"see", b"the", b"identifier", b"urn:isbn:0451450523", b"and",
             b"urn:ietf:rfc:2141", b"<URN:NBN:de:101:1-201102033592>", b"cited",
             b"resolver", b"http://nbn-resolving.de/urn:nbn:de:gbv:7-1", b"\n"]
    out = bytearray()
    while len(out) < size:
        out += rng.choice(words)
        out += b" " if rng.random() < 0.9 else b"\n"
        if rng.random() < 0.05:
            out += str(rng.randrange(10 ** 9)).encode()
    return bytes(out[:size])


def read_all(source, chunk_size=sources.DEFAULT_CHUNK_SIZE) -> bytes:
    with open_chunks(source, chunk_size) as reader:
        return b"".join(reader)


def read_until_error(source, chunk_size=4096):
    """(bytes yielded before the error, the error)."""
    got = []
    with pytest.raises(SourceError) as info:
        with open_chunks(source, chunk_size) as reader:
            for chunk in reader:
                got.append(chunk)
    return b"".join(got), info.value


# ---------------------------------------------------------------------------
# Compression, detected by content
# ---------------------------------------------------------------------------


CONTENT = text_corpus(300_000)


def _zstd_compress(data: bytes) -> bytes:
    zstandard = pytest.importorskip("zstandard")
    return zstandard.ZstdCompressor().compress(data)


def _multi_gzip(data: bytes) -> bytes:
    third = len(data) // 3
    return (gzip.compress(data[:third]) + gzip.compress(data[third:2 * third])
            + gzip.compress(data[2 * third:]))


COMPRESSORS = {
    "plain": (lambda d: d, None),
    "gzip": (gzip.compress, "gzip"),
    "gzip-multi-member": (_multi_gzip, "gzip"),
    "gzip-zero-padded": (lambda d: gzip.compress(d) + b"\0" * 512, "gzip"),
    "bz2": (bz2.compress, "bz2"),
    "bz2-multi-stream": (lambda d: bz2.compress(d[:1000]) + bz2.compress(d[1000:]), "bz2"),
    "xz": (lzma.compress, "xz"),
    "xz-multi-stream": (lambda d: lzma.compress(d[:5]) + lzma.compress(d[5:]), "xz"),
    "zstd": (_zstd_compress, "zstd"),
    "zstd-multi-frame": (lambda d: _zstd_compress(d[:70_000]) + _zstd_compress(d[70_000:]),
                         "zstd"),
}


@pytest.mark.parametrize("kind", sorted(COMPRESSORS))
@pytest.mark.parametrize("chunk_size", [1 << 20, 65536, 4096, 1000, 7])
def test_decompressed_content_is_independent_of_chunk_size(tmp_path, kind, chunk_size):
    compress, name = COMPRESSORS[kind]
    data = CONTENT if chunk_size > 100 else CONTENT[:20_000]
    blob = compress(data)
    path = tmp_path / "input.dat"  # the name says nothing about the content
    path.write_bytes(blob)
    with open_chunks(str(path), chunk_size) as reader:
        assert reader.compression == name
        chunks = list(reader)
        assert reader.bytes_out == len(data)
        assert reader.bytes_read_compressed == len(blob)
        assert reader.size == len(blob)
    assert b"".join(chunks) == data
    assert all(0 < len(c) <= chunk_size for c in chunks)


@pytest.mark.parametrize("name", ["notes.txt", "archive.gz", "data.bz2", "x.xz", "y.zst"])
def test_compression_is_detected_by_content_not_by_name(tmp_path, name):
    plain = tmp_path / ("plain-" + name)
    plain.write_bytes(b"urn:isbn:0451450523\n")
    packed = tmp_path / ("packed-" + name)
    packed.write_bytes(gzip.compress(b"urn:isbn:0451450523\n"))
    with open_chunks(str(plain)) as r:
        assert r.compression is None
        assert b"".join(r) == b"urn:isbn:0451450523\n"
    with open_chunks(str(packed)) as r:
        assert r.compression == "gzip"
        assert b"".join(r) == b"urn:isbn:0451450523\n"


@pytest.mark.parametrize("text", [b"", b"B", b"BZh", b"BZh9 is a text file", b"\x1f", b"\x1f\x8b",
                                  b"(\xb5/", b"\xfd7zXZ"])
def test_short_or_lookalike_plain_inputs_are_read_as_they_are(tmp_path, text):
    path = tmp_path / "f"
    path.write_bytes(text)
    with open_chunks(str(path), 1) as reader:
        assert reader.compression is None
        assert b"".join(reader) == text


def test_decompression_output_is_bounded_by_the_chunk_size(tmp_path):
    """A highly compressible input never produces a chunk above chunk_size
    (with the ratio limit off: 20 MiB of zeros is over it)."""
    from urnscan.sources.limits import NO_LIMIT

    data = b"\0" * (20 << 20)
    for compress in (gzip.compress, bz2.compress, lzma.compress):
        path = tmp_path / "zeros"
        path.write_bytes(compress(data))
        total = 0
        with open_chunks(str(path), 65536, NO_LIMIT) as reader:
            for chunk in reader:
                assert len(chunk) <= 65536
                total += len(chunk)
        assert total == len(data)


def test_progress_counters_advance_while_reading(tmp_path):
    data = text_corpus(2_000_000, seed=5)
    blob = gzip.compress(data)
    path = tmp_path / "big.gz"
    path.write_bytes(blob)
    seen = []
    with open_chunks(str(path), 65536) as reader:
        for chunk in reader:
            seen.append((reader.bytes_read_compressed, reader.bytes_out))
    compressed = [c for c, _ in seen]
    out = [o for _, o in seen]
    assert compressed == sorted(compressed) and out == sorted(out)
    assert compressed[0] < len(blob)          # not everything read up front
    assert compressed[-1] == len(blob) and out[-1] == len(data)


# ---------------------------------------------------------------------------
# Corrupt and truncated input: the good prefix first, then SourceError
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("compress,name", [(gzip.compress, "gzip"),
                                           (lambda d: bz2.compress(d, 1), "bz2"),
                                           (lzma.compress, "xz")])
def test_truncated_stream_yields_the_decoded_prefix_then_fails(tmp_path, compress, name):
    blob = compress(CONTENT)
    path = tmp_path / "cut"
    path.write_bytes(blob[: len(blob) * 3 // 4])
    got, err = read_until_error(str(path))
    assert len(got) > 0 and CONTENT.startswith(got)
    assert str(path) in str(err)
    assert name in str(err)
    assert "truncated" in str(err) or "corrupt" in str(err)


def test_truncated_gzip_with_small_chunks_keeps_everything_decoded(tmp_path):
    blob = gzip.compress(CONTENT)
    path = tmp_path / "cut.gz"
    path.write_bytes(blob[:-20])
    got, err = read_until_error(str(path), chunk_size=7)
    assert CONTENT.startswith(got)
    assert len(got) > len(CONTENT) - 70_000   # nearly all of it
    assert "truncated gzip data" in str(err)


def test_truncated_within_the_first_block_still_yields_the_prefix(tmp_path):
    data = text_corpus(40_000)
    blob = gzip.compress(data)
    path = tmp_path / "cut.gz"
    path.write_bytes(blob[: len(blob) // 2])
    with pytest.raises(SourceError):
        with open_chunks(str(path), 1000) as reader:
            assert not reader.is_binary          # the peek does not raise
            got = []
            for chunk in reader:
                got.append(chunk)
    assert got and data.startswith(b"".join(got))


def test_corrupt_gzip_data_is_reported_after_the_good_prefix(tmp_path):
    blob = bytearray(gzip.compress(CONTENT))
    middle = len(blob) // 2
    for i in range(middle, middle + 64):
        blob[i] ^= 0x55
    path = tmp_path / "bad.gz"
    path.write_bytes(bytes(blob))
    got, err = read_until_error(str(path))
    # deflate cannot see the damage at once: what precedes it is intact
    intact = os.path.commonprefix([got, CONTENT])
    assert len(intact) > len(CONTENT) // 3
    assert "corrupt gzip data" in str(err)


def _xored(blob: bytes, at: int, n: int = 100) -> bytes:
    """``blob`` with ``n`` bytes from ``at`` flipped (0x55), as a bad disk sector would."""
    damaged = bytearray(blob)
    for i in range(at, at + n):
        damaged[i] ^= 0x55
    return bytes(damaged)


def _crc_flipped(blob: bytes) -> bytes:
    """A gzip member with one bit of its CRC-32 (RFC 1952 trailer) wrong."""
    return blob[:-8] + bytes([blob[-8] ^ 0x01]) + blob[-7:]


_NOISE = random.Random(0).randbytes(1 << 20)  # binary content: NUL bytes and controls


def _cited_lines(n: int = 20_000) -> bytes:
    """Lines citing an ISBN and a UUID each: 2.2 MB, three bzip2 blocks."""
    rng = random.Random(1)
    return "".join(f"line {i} cites urn:isbn:0451450523 and urn:uuid:{rng.getrandbits(128):032x} "
                   f"and filler {rng.random()}\n" for i in range(n)).encode()


@pytest.mark.parametrize("what,build,name", [
    # bzip2 puts out a damaged block's garbage before the block's CRC says so
    # its first block's garbage (the input's first 64 KiB) looks binary
    ("bz2 text damaged in its first block", lambda: _xored(bz2.compress(_cited_lines()), 200_000), "bz2"),
    ("gzip text damaged", lambda: (lambda b: _xored(b, len(b) // 3))(gzip.compress(CONTENT * 4)), "gzip"),
    ("xz text damaged", lambda: (lambda b: _xored(b, len(b) // 3))(lzma.compress(CONTENT * 4)), "xz"),
    ("zstd text damaged", lambda: (lambda b: _xored(b, len(b) // 3))(_zstd_compress(CONTENT * 4)), "zstd"),
    # binary content whose damage shows only at its end
    ("gzip binary with a wrong CRC", lambda: _crc_flipped(gzip.compress(_NOISE)), "gzip"),
    ("bz2 binary damaged", lambda: _xored(bz2.compress(_NOISE), 200), "bz2"),
])
def test_a_damaged_compressed_input_is_an_error_not_binary_content(tmp_path, what, build, name):
    from urnscan.sources.documents import open_documents

    path = tmp_path / "damaged"
    path.write_bytes(build())
    with pytest.raises(SourceError, match=f"corrupt {name} data"):
        with open_documents(str(path)) as docs:
            for doc in docs:
                for _ in doc.chunks:
                    pass


def test_binary_compressed_content_is_still_binary():
    with open_chunks(io.BytesIO(bz2.compress(_NOISE))) as reader:
        assert reader.is_binary and reader.compression == "bz2"
    with open_chunks(io.BytesIO(_NOISE), 4096) as reader:
        assert reader.is_binary and reader.bytes_read_compressed < len(_NOISE)  # not compressed: read no further


def test_a_large_compressed_binary_file_is_not_decoded_whole_to_be_skipped():
    from urnscan.sources.reader import BINARY_CHECK_REACH

    image = _NOISE + bytes(4 * BINARY_CHECK_REACH)  # a disk image: binary, then mostly zeros
    with open_chunks(io.BytesIO(gzip.compress(image, 1))) as reader:
        assert reader.is_binary and reader.compression == "gzip"
        assert reader._decoded < BINARY_CHECK_REACH + 2 * reader.chunk_size < len(image)


def test_gzip_crc_mismatch_is_an_error(tmp_path):
    blob = bytearray(gzip.compress(b"urn:isbn:0451450523\n" * 10))
    blob[-8] ^= 0xFF  # CRC32 of the trailer
    path = tmp_path / "crc.gz"
    path.write_bytes(bytes(blob))
    got, err = read_until_error(str(path))
    assert "corrupt gzip data" in str(err)


def test_trailing_garbage_after_gzip_is_an_error_after_all_the_content(tmp_path):
    data = b"urn:isbn:0451450523\n" * 100
    path = tmp_path / "garbage.gz"
    path.write_bytes(gzip.compress(data) + b"this is not gzip")
    got, err = read_until_error(str(path))
    assert got == data
    assert "trailing garbage" in str(err)


def test_zstd_without_a_decoder_is_an_error(tmp_path, monkeypatch):
    monkeypatch.setattr("urnscan.sources.codecs._zstd_backend", lambda: None)
    path = tmp_path / "a.zst"
    path.write_bytes(b"\x28\xb5\x2f\xfd" + b"\0" * 20)
    with pytest.raises(SourceError, match="zstd support needs the zstandard package") as info:
        open_chunks(str(path))
    assert str(path) in str(info.value)
    assert "pip install 'urnscan[zstd]'" in str(info.value)  # how to get it, as the PDF reason says


def test_truncated_zstd_is_an_error(tmp_path):
    blob = _zstd_compress(CONTENT)
    path = tmp_path / "cut.zst"
    path.write_bytes(blob[: len(blob) * 3 // 4])
    got, err = read_until_error(str(path))
    assert CONTENT.startswith(got)
    assert "zstd" in str(err)


# ---------------------------------------------------------------------------
# Binary detection
# ---------------------------------------------------------------------------


def _png() -> bytes:
    rng = random.Random(3)
    raw = b"".join(b"\0" + rng.randbytes(48) for _ in range(16))
    ihdr = b"\0\0\0\x10\0\0\0\x10\x08\x02\0\0\0"
    return (b"\x89PNG\r\n\x1a\n" + b"\0\0\0\rIHDR" + ihdr + b"\0\0\0\0"
            + len(zlib.compress(raw)).to_bytes(4, "big") + b"IDAT" + zlib.compress(raw))


def _zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("refs.txt", text_corpus(50_000))
    return buf.getvalue()


def _pdf() -> bytes:
    stream = zlib.compress(random.Random(9).randbytes(30_000), 0)
    return (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\n"
            b"endobj\n4 0 obj\n<< /Length " + str(len(stream)).encode()
            + b" /Filter /FlateDecode >>\nstream\n" + stream + b"\nendstream\nendobj\n")


def _elf() -> bytes:
    return (b"\x7fELF\x02\x01\x01\0" + b"\0" * 8 + b"\x02\0\x3e\0\x01\0\0\0"
            + b"\x40\x10\x40\0\0\0\0\0" + bytes(range(256)) * 4)


BINARY_CASES = [
    ("empty", b"", False),
    ("ascii text", b"The URN urn:isbn:0451450523 names a book.\n" * 50, False),
    ("rfc text with form feeds", (b"RFC 2141   URN Syntax   May 1997\n" * 40 + b"\f\n") * 5,
     False),
    ("text with one stray NUL", b"see urn:ietf:rfc:2141\0 and more text\n" * 1 + b"x" * 2000,
     False),
    ("short text with one NUL", b"abc\0defgh", False),
    ("latin-1 text (invalid UTF-8)", "Caf\xe9 na\xefve r\xe9sum\xe9 urn:isbn:1\n".encode("latin-1")
     * 100, False),
    ("utf-8 text", "Zürich — 東京 urn:nbn:de:1\n".encode("utf-8") * 100, False),
    ("ANSI coloured log", b"\x1b[32mINFO\x1b[0m found urn:uuid:6e8bc430-9c3a-11d9-9669\r\n" * 80,
     False),
    ("big text with a few stray NULs", (b"x" * 9_999 + b"\0") * 6, False),
    # ISO 2709 (MARC 21): records, fields and subfields end at GS, RS and US
    ("MARC 21 records", (b"00714cam a2200205 a 4500\x1e7 \x1faurn:nbn:de:bvb:12-bsb00041099-5\x1f2urn\x1e"
                         b"00\x1faRousseau\x1fcM\xc3\xbcnchen\x1e\x1d") * 40, False),
    ("PNG image", _png(), True),
    ("ELF executable", _elf(), True),
    ("zip archive", _zip(), True),
    ("PDF with a binary stream", _pdf(), True),
    ("random bytes", random.Random(4).randbytes(10_000), True),
    ("UTF-16 text", "urn:isbn:0451450523 is a book\n".encode("utf-16") * 30, True),
    ("two NULs in a tiny file", b"a\0\0b", True),
    ("control-byte soup", bytes(range(1, 9)) * 20, True),
]


@pytest.mark.parametrize("content,expected", [c[1:] for c in BINARY_CASES],
                         ids=[c[0] for c in BINARY_CASES])
def test_looks_binary(content, expected):
    assert looks_binary(content) is expected


def test_looks_binary_only_looks_at_the_first_block():
    assert not looks_binary(b"a" * BINARY_BLOCK_SIZE + b"\0" * 10_000)


@pytest.mark.parametrize("chunk_size", [1, 100, 65536, 1 << 20])
def test_reader_is_binary_judges_the_decompressed_first_block(tmp_path, chunk_size):
    png = tmp_path / "image.gz"
    png.write_bytes(gzip.compress(_png()))
    text = tmp_path / "notes.gz"
    # a NUL and invalid UTF-8 well inside a text file: still text
    text.write_bytes(gzip.compress(b"see urn:isbn:0451450523\n" * 10 + b"\0\xff\xfe" +
                                   b"more text\n" * 10_000))
    with open_chunks(str(png), chunk_size) as reader:
        assert reader.is_binary
        assert reader.peek().startswith(b"\x89PNG")
    with open_chunks(str(text), chunk_size) as reader:
        assert not reader.is_binary
        assert len(reader.peek()) == BINARY_BLOCK_SIZE
        # peeking consumed nothing: iteration returns everything
        assert b"".join(reader).startswith(b"see urn:isbn:0451450523\n")
        assert reader.bytes_out == 240 + 3 + 100_000


# ---------------------------------------------------------------------------
# Standard input and file objects
# ---------------------------------------------------------------------------


class _FakeStdin:
    def __init__(self, data: bytes):
        self.buffer = io.BufferedReader(io.BytesIO(data))


@pytest.mark.parametrize("compress", [lambda d: d, gzip.compress, _multi_gzip, bz2.compress,
                                      lzma.compress], ids=["plain", "gzip", "gzip-multi",
                                                           "bz2", "xz"])
def test_stdin_is_read_and_peeked_without_seeking(monkeypatch, compress):
    data = text_corpus(100_000, seed=3)
    monkeypatch.setattr(sys, "stdin", _FakeStdin(compress(data)))
    refs = list(expand_inputs(["-"]))
    assert refs == [InputRef("-", None, None)]
    with open_chunks(refs[0], 999) as reader:
        assert reader.display_name == "(stdin)"
        assert not reader.is_binary
        assert b"".join(reader) == data
    assert not sys.stdin.buffer.closed  # stdin is not ours to close


def test_stdin_errors_name_stdin(monkeypatch):
    monkeypatch.setattr(sys, "stdin", _FakeStdin(gzip.compress(CONTENT)[:5000]))
    got, err = read_until_error("-")
    assert str(err).startswith("(stdin): ")
    assert CONTENT.startswith(got)


def test_compressed_stdin_through_a_real_pipe():
    data = text_corpus(500_000, seed=8)
    code = ("import sys\nfrom urnscan.sources import open_chunks\n"
            "with open_chunks('-', 4096) as r:\n"
            "    n = sum(len(c) for c in r)\n"
            "print(r.compression, n, r.is_binary)\n")
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-c", code], input=lzma.compress(data),
                          capture_output=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode().split() == ["xz", str(len(data)), "False"]


def test_file_objects_are_read_and_not_closed():
    f = io.BytesIO(bz2.compress(b"urn:isbn:0451450523"))
    with open_chunks(f, 3) as reader:
        assert reader.compression == "bz2"
        assert b"".join(reader) == b"urn:isbn:0451450523"
    assert not f.closed


def test_reader_is_consumed_once_and_closes_its_file(tmp_path):
    path = tmp_path / "a.txt"
    path.write_bytes(b"abc" * 10)
    reader = open_chunks(str(path), 4)
    assert b"".join(reader) == b"abc" * 10
    assert reader.closed
    assert list(reader) == []


# ---------------------------------------------------------------------------
# Errors when opening
# ---------------------------------------------------------------------------


def test_missing_file(tmp_path):
    missing = tmp_path / "gone.txt"
    with pytest.raises(SourceError, match="no such file or directory") as info:
        open_chunks(str(missing))
    err = info.value
    assert str(missing) in str(err)
    assert isinstance(err, UrnscanError) and isinstance(err, OSError)
    assert err.reason == "no such file or directory" and err.path == str(missing)


def test_directory(tmp_path):
    with pytest.raises(SourceError, match="is a directory"):
        open_chunks(str(tmp_path))


def test_dangling_symlink(tmp_path):
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "nowhere")
    with pytest.raises(SourceError, match="dangling symbolic link"):
        open_chunks(str(link))


def test_socket_is_a_special_file(tmp_path):
    path = tmp_path / "s"
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(path))
        with pytest.raises(SourceError, match=r"special file \(socket\)"):
            open_chunks(str(path))
    finally:
        sock.close()


def test_input_ref_with_an_error_status_raises_its_reason():
    with pytest.raises(SourceError, match="^x/y: special file \\(FIFO\\)$"):
        open_chunks(InputRef("x/y", "special file (FIFO)", None))


@pytest.mark.skipif(IS_ROOT, reason="root can read a file whatever its mode")
def test_unreadable_file(tmp_path):
    path = tmp_path / "secret.txt"
    path.write_bytes(b"urn:isbn:1")
    path.chmod(0)
    try:
        with pytest.raises(SourceError, match="permission denied"):
            open_chunks(str(path))
        assert list(expand_inputs([str(path)])) == [
            InputRef(str(path), "permission denied", 10)]
    finally:
        path.chmod(0o644)


# (mode, the real user owns the file, os.access(R_OK) says, status, os.access asked)
READABILITY = [
    (0o644, True, False, None, False),          # the owner's bits grant: no system call
    (0o400, True, False, None, False),
    (0o200, True, False, "permission denied", True),
    (0o044, True, False, "permission denied", True),   # group and others only
    (0o000, True, True, None, True),            # root: access(2) grants it
    (0o644, False, False, "permission denied", True),  # someone else's: ACLs may decide
    (0o644, False, True, None, True),
]


@pytest.mark.parametrize("mode,owned,grants,status,asked", READABILITY)
@pytest.mark.parametrize("walked", [True, False])
def test_unreadable_file_is_listed_with_its_reason(tmp_path, monkeypatch, mode, owned, grants, status,
                                                   asked, walked):
    """What access(2) says, simulated (so it also runs as root)."""
    path = tmp_path / "secret.txt"
    path.write_bytes(b"urn:isbn:1")
    path.chmod(mode)
    uid = path.stat().st_uid
    monkeypatch.setattr(os, "getuid", lambda: uid if owned else uid + 1)
    asked_for = []
    real_access = os.access

    def access(p, mode, **kw):
        if str(p) != str(path):
            return real_access(p, mode, **kw)
        asked_for.append(mode)
        return grants

    monkeypatch.setattr(os, "access", access)
    try:
        refs = list(expand_inputs([str(tmp_path if walked else path)]))
    finally:
        path.chmod(0o644)
    assert refs == [InputRef(str(path), status, 10)]
    assert asked_for == ([os.R_OK] if asked else [])


def test_explicit_fifo_is_read_like_a_file(tmp_path):
    """Process substitution <(zcat x.gz) passes a pipe: it must work."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    data = gzip.compress(b"urn:ietf:rfc:8141\n" * 1000)
    pid = os.fork()
    if pid == 0:  # child: write and exit
        try:
            with open(fifo, "wb") as f:
                f.write(data)
        finally:
            os._exit(0)
    try:
        refs = list(expand_inputs([str(fifo)]))
        assert refs == [InputRef(str(fifo), None, None)]
        assert read_all(refs[0]) == b"urn:ietf:rfc:8141\n" * 1000
    finally:
        os.waitpid(pid, 0)


# ---------------------------------------------------------------------------
# expand_inputs
# ---------------------------------------------------------------------------


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A small corpus, with the awkward cases; cwd is its root."""
    root = tmp_path / "corpus"
    (root / "a" / "deep").mkdir(parents=True)
    (root / "b").mkdir()
    (root / ".git").mkdir()
    files = {
        "readme.txt": b"urn:isbn:0451450523\n",
        "a/one.txt": b"urn:ietf:rfc:2141\n",
        "a/two.gz": gzip.compress(b"urn:nbn:de:1\n"),
        "a/deep/three.xml": b"<ref>urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66</ref>",
        "b/image.png": _png(),
        "b/.hidden.txt": b"urn:x-foo:bar",
        ".git/config": b"[core]",
    }
    for rel, data in files.items():
        (root / rel).write_bytes(data)
    (root / "a" / "deep" / "up").symlink_to("../..")        # a loop
    (root / "b" / "dangling").symlink_to("missing.txt")       # dangling
    (root / "b" / "alias.txt").symlink_to("../readme.txt")    # a link to a file
    os.mkfifo(root / "b" / "fifo")
    monkeypatch.chdir(tmp_path)
    return root


def paths_and_status(refs):
    return [(r.path, r.status) for r in refs]


def test_directory_walk_lists_every_input_in_sorted_order(tree):
    refs = list(expand_inputs(["corpus"]))
    assert paths_and_status(refs) == [
        ("corpus/.git/config", None),
        ("corpus/a/deep/three.xml", None),
        ("corpus/a/deep/up", "symbolic link loop"),
        ("corpus/a/one.txt", None),
        ("corpus/a/two.gz", None),
        ("corpus/b/.hidden.txt", None),
        # alias.txt -> ../readme.txt: listed under its own path only
        ("corpus/b/dangling", "dangling symbolic link"),
        ("corpus/b/fifo", "special file (FIFO)"),
        ("corpus/b/image.png", None),
        ("corpus/readme.txt", None),
    ]
    sizes = {r.path: r.size for r in refs}
    assert sizes["corpus/readme.txt"] == 20
    assert sizes["corpus/b/fifo"] is None
    # deterministic
    assert list(expand_inputs(["corpus"])) == refs


def test_walk_without_following_symlinks(tree):
    # as ripgrep: links met while walking are not followed; listed as skipped
    refs = {r.path: r for r in expand_inputs(["corpus"], follow_symlinks=False)}
    for link in ("corpus/a/deep/up", "corpus/b/alias.txt", "corpus/b/dangling"):
        assert refs[link].status == "symbolic link (not followed)" and refs[link].skipped
    assert refs["corpus/readme.txt"].ok


def test_a_second_link_to_a_walked_directory_is_not_walked_again(tree):
    (tree / "b" / "again").symlink_to("../a")
    refs = [p for p, _ in paths_and_status(expand_inputs(["corpus"]))]
    assert "corpus/a/one.txt" in refs
    assert not any(p.startswith("corpus/b/again") for p in refs)


def test_a_link_loop_through_a_sibling_terminates(tree):
    (tree / "a" / "to_b").symlink_to("../b")
    (tree / "b" / "to_a").symlink_to("../a")
    refs = list(expand_inputs(["corpus"]))
    assert len(refs) == len({r.path for r in refs}) < 30


def test_self_referential_symlink(tree):
    (tree / "self").symlink_to("self")
    refs = dict(paths_and_status(expand_inputs(["corpus"])))
    assert refs["corpus/self"] == "symbolic link loop"
    assert list(expand_inputs([str(tree / "self")])) == [
        InputRef(str(tree / "self"), "symbolic link loop", None)]


@pytest.mark.parametrize("args,expected", [
    (["nope.txt"], [("nope.txt", "no such file or directory")]),
    (["corpus/*.pdf"], [("corpus/*.pdf", "glob matched nothing")]),
    (["-"], [("-", None)]),
    (["corpus/readme.txt", "corpus/readme.txt", "./corpus/readme.txt"],
     [("corpus/readme.txt", None)]),
    (["corpus/b/fifo"], [("corpus/b/fifo", None)]),          # named: readable
    (["corpus/b/dangling"], [("corpus/b/dangling", "dangling symbolic link")]),
])
def test_path_arguments(tree, args, expected):
    assert paths_and_status(expand_inputs(args)) == expected


@pytest.mark.parametrize("pattern,expected", [
    ("corpus/*.txt", ["corpus/readme.txt"]),
    ("corpus/b/*", ["corpus/b/alias.txt", "corpus/b/dangling", "corpus/b/fifo",
                    "corpus/b/image.png"]),
    # up -> ../.. contains the link: a loop, never a way out of the tree
    ("corpus/a/d*", ["corpus/a/deep/three.xml", "corpus/a/deep/up"]),
    ("corpus/**/*.txt", ["corpus/a/one.txt", "corpus/readme.txt"]),
    ("corpus/**/.*.txt", ["corpus/b/.hidden.txt"]),
    ("**/three.xml", ["corpus/a/deep/three.xml"]),
    ("corpus/?/*.g[a-z]", ["corpus/a/two.gz"]),
    ("corpus/[!a]/*.png", ["corpus/b/image.png"]),
    ("corpus/**/up", ["corpus/a/deep/up"]),
])
def test_globs(tree, pattern, expected):
    assert [r.path for r in expand_inputs([pattern])] == expected


# (bracket expression, names it matches, names it does not): never a
# regular expression that fails to compile or warns, whatever the pattern
BRACKETS = [
    ("[[:alpha:]]", ["a", "Z"], ["1", "_", "/", "é", "ab"]),
    ("[[:digit:][:upper:]]", ["7", "Q"], ["q", ":", "]"]),
    ("[![:alnum:]]", ["-", "."], ["a", "9", "/"]),
    ("[[:punct:]]", ["]", "\\", "-", "!"], ["a", " "]),
    ("[z-a]", [], ["z", "a", "m", "-"]),         # a range backwards stands for nothing
    ("[[:nosuch:]]", [], ["n", ":", "]"]),        # so does a class of no known name
    ("[a-c-]", ["b", "-"], ["d"]),
    ("[]a]", ["]", "a"], ["b"]),
    ("[!]]", ["a"], ["]", "/"]),
    ("[a/b]", ["a", "b"], ["/"]),
    ("[\\]", ["\\"], ["a"]),
    ("[^a]", ["b"], ["a", "/"]),
]


@pytest.mark.parametrize("bracket,matched,unmatched", BRACKETS)
def test_glob_bracket_expressions(bracket, matched, unmatched):
    import warnings

    from urnscan.sources.inputs import _translate_glob

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        regex = _translate_glob(bracket)
    assert [n for n in matched + unmatched if regex.match(n)] == matched


@pytest.mark.parametrize("pattern", ["corpus/[z-a]*", "corpus/[[:nosuch:]]*"])
def test_a_glob_that_can_match_nothing_says_so(tree, pattern):
    assert paths_and_status(expand_inputs([pattern])) == [(pattern, "glob matched nothing")]


def test_posix_classes_in_a_path_glob_and_in_filters(tree):
    assert [r.path for r in expand_inputs(["corpus/[[:lower:]]/*.txt"])] == ["corpus/a/one.txt"]
    refs = expand_inputs(["corpus"], include=["[[:lower:]]*[[:digit:]]*"], exclude=["[z-a]"])
    assert [r.path for r in refs] == []
    refs = expand_inputs(["corpus"], include=["[[:alpha:]]*.[[:alpha:]]*[!0-9]"])
    assert [r.path for r in refs] == ["corpus/a/deep/three.xml", "corpus/a/one.txt", "corpus/a/two.gz",
                                      "corpus/b/image.png", "corpus/readme.txt"]


def test_glob_with_double_star_survives_symlink_loops(tree):
    (tree / "a" / "to_b").symlink_to("../b")
    (tree / "b" / "to_a").symlink_to("../a")
    refs = list(expand_inputs(["corpus/**/*.gz"]))
    assert [r.path for r in refs][0] == "corpus/a/two.gz"
    assert len(refs) < 10


def test_absolute_glob(tree):
    refs = list(expand_inputs([str(tree / "a" / "*.txt")]))
    assert refs == [InputRef(str(tree / "a" / "one.txt"), None, 18)]


@pytest.mark.parametrize("include,exclude,expected", [
    (["*.txt"], [], ["corpus/a/one.txt", "corpus/b/.hidden.txt", "corpus/readme.txt"]),
    (["*.txt", "*.gz"], [".*"], ["corpus/a/one.txt", "corpus/a/two.gz", "corpus/readme.txt"]),
    ([], [".git", "b", "up"], ["corpus/a/deep/three.xml", "corpus/a/one.txt",
                               "corpus/a/two.gz", "corpus/readme.txt"]),
    (["a/**"], ["*.gz"], ["corpus/a/deep/three.xml", "corpus/a/deep/up", "corpus/a/one.txt"]),
    (["**/deep/*.xml"], [], ["corpus/a/deep/three.xml"]),
    (["a/*.txt"], [], ["corpus/a/one.txt"]),   # * does not cross /
])
def test_include_and_exclude(tree, include, exclude, expected):
    refs = expand_inputs(["corpus"], include=include, exclude=exclude)
    assert [r.path for r in refs] == expected


def test_explicit_files_are_kept_whatever_the_filters(tree):
    refs = expand_inputs(["corpus/b/image.png"], include=["*.txt"], exclude=["*.png"])
    assert [r.path for r in refs] == ["corpus/b/image.png"]


def test_filters_apply_to_glob_matches(tree):
    refs = expand_inputs(["corpus/**/*"], exclude=["a/deep/**", "*.png", "fifo", "dangling"])
    # corpus/b matches **/* as a directory: walked whole, hidden files too
    assert [r.path for r in refs] == ["corpus/a/one.txt", "corpus/a/two.gz",
                                      "corpus/b/.hidden.txt", "corpus/readme.txt"]


def test_entry_vanishing_during_the_walk_is_listed(tree):
    """A file removed after its directory was listed (the listing reads its
    status) but before it is read ends as an error row all the same."""
    from urnscan.runner import ScanConfig, scan_input

    (tree / "b" / "ghost.txt").write_bytes(b"x")
    statuses = {}
    for ref in expand_inputs(["corpus"]):   # lazily: b is listed, its entries not yet yielded
        if ref.path == "corpus/b/dangling":
            (tree / "b" / "ghost.txt").unlink()
        statuses[ref.path] = scan_input(ref, ScanConfig(), lambda hits: None)
    ghost = statuses["corpus/b/ghost.txt"]
    assert (ghost.status, ghost.reason) == ("error", "no such file or directory")


def test_directory_symlink_whose_target_vanished(tree):
    target = tree.parent / "elsewhere"
    target.mkdir()
    (target / "x.txt").write_bytes(b"urn:isbn:1")
    (tree / "linked").symlink_to(target)
    assert "corpus/linked/x.txt" in [r.path for r in expand_inputs(["corpus"])]
    (target / "x.txt").unlink()
    target.rmdir()
    refs = dict(paths_and_status(expand_inputs(["corpus"])))
    assert refs["corpus/linked"] == "dangling symbolic link"


@pytest.mark.skipif(IS_ROOT, reason="root can list a directory whatever its mode")
def test_unlistable_directory(tree):
    (tree / "b").chmod(0)
    try:
        refs = dict(paths_and_status(expand_inputs(["corpus"])))
        assert refs["corpus/b"] == "permission denied"
    finally:
        (tree / "b").chmod(0o755)


def test_every_listed_input_either_opens_or_fails_with_its_reason(tree):
    """What the CLI relies on: status None opens, anything else is reported."""
    for ref in expand_inputs(["corpus", "missing", "corpus/*.none"]):
        if ref.status is not None:
            with pytest.raises(SourceError, match=ref.status.replace("(", r"\(")
                               .replace(")", r"\)")):
                open_chunks(ref)
            continue
        with open_chunks(ref, 1024) as reader:
            content = b"" if reader.is_binary else b"".join(reader)
            if ref.path.endswith((".txt", ".gz", ".xml")):
                assert b"urn:" in content
            if ref.path.endswith(".png"):
                assert reader.is_binary


def test_zstd_truncated_anywhere_is_an_error_and_clean_ends_are_not():
    zstandard = pytest.importorskip("zstandard")
    data = random.Random(2).randbytes(20_000) + b"urn:isbn:0451450523 " * 5000
    blob = (zstandard.ZstdCompressor(write_checksum=True).compress(data)
            + zstandard.ZstdCompressor().compress(data))
    assert read_all(io.BytesIO(blob), 4096) == data * 2
    for cut in range(4, len(blob), max(1, len(blob) // 150)):
        with pytest.raises(SourceError, match="zstd"):
            read_all(io.BytesIO(blob[:cut]), 4096)


def test_zstd_skippable_frames_and_trailing_garbage():
    zstandard = pytest.importorskip("zstandard")
    frame = zstandard.ZstdCompressor().compress(b"urn:ietf:rfc:8141\n" * 100)
    skippable = b"\x50\x2a\x4d\x18" + (5).to_bytes(4, "little") + b"hello"
    assert read_all(io.BytesIO(frame + skippable + frame), 100) == b"urn:ietf:rfc:8141\n" * 200
    got, err = read_until_error(io.BytesIO(frame + b"not zstd at all"))
    assert got == b"urn:ietf:rfc:8141\n" * 100
    assert "trailing garbage after zstd data" in str(err)


def test_zstd_output_is_bounded_by_the_chunk_size():
    zstandard = pytest.importorskip("zstandard")
    from urnscan.sources.limits import NO_LIMIT

    blob = zstandard.ZstdCompressor(level=19).compress(b"\0" * (50 << 20))
    total = 0
    with open_chunks(io.BytesIO(blob), 65536, NO_LIMIT) as reader:
        for chunk in reader:
            assert len(chunk) <= 65536
            total += len(chunk)
    assert total == 50 << 20


@pytest.mark.parametrize("head, expected", [
    (gzip.compress(b"x", mtime=0)[:10], "gzip"),
    (bz2.compress(b"x")[:10], "bz2"),
    (b"\xfd7zXZ\x00\x00\x04\xe6\xd6", "xz"),
    (b"\x28\xb5\x2f\xfd\x20\x01\x09\x00\x00x", "zstd"),
    (b"BZh is how a text may start", None),  # no bzip2 block magic after the level
    (b"\x1f\x8b", None),  # too short for the gzip method byte
    (b"urn:a:b\n", None),
])
def test_compression_is_told_by_the_magic_bytes(head, expected):
    from urnscan.sources.codecs import detect_compression

    fmt = detect_compression(head)
    assert (fmt.name if fmt else None) == expected
