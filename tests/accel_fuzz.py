"""Feed a build of urnscan/_accel.c (given by path) random and edge buffers
and compare every answer with the Python references; run by
test_accel_asan.py under AddressSanitizer.  Exits non-zero on the first
disagreement (the sanitizers abort on a bad access)."""
import os
import random
import sys
import tempfile

import numpy as np

from urnscan.context import context_snippet_py
from urnscan.extract import Reading, StreamContext
from urnscan.extract.fast import PLAIN_CONSTS, _class_table, make_batch
from urnscan.runner import plain_file_triage_py
from urnscan.scanner import count_breaks_py, urn_positions_py
from urnscan.sinks.arrays import (
    factorize_tails_py, int32_offsets_py, string_buffers_py, take_fixed_py, take_segments_py, transpose_py,
)
from urnscan.sources.listing import EntryStat, list_entries_py
from urnscan.sources.reader import BINARY_BLOCK_SIZE, looks_binary_py
from tests.accel_build import load

PIECES = [b"\r", b"\r\n", b"urn:", b"URN:", b"uRn:", b"urn", b"rn:", b"n:", b":", b"u", b"a", b"7", b"-", b".", b" ", b"\n",
          b"\x00", b"\x01", b"\x1b", b"\x7f", b"\xff", b"\t\r\n", "\u20ac".encode(), b"\xe2\x82", b"\x80",
          # what the reading rules look at around a candidate
          b" urn:a:", b'"', b"'", b"(", b")", b"<", b">", b"</", b"{", b"&", b";", b"=", b"%s", b"$", b"..", b" + ",
          b"\\", b"\\f", b"\\fI", b"\\f(", b"|", b"isbn:0451450523", b"x-y", b"::", b",", b"*", b"http://x/", b"?",
          b"magnet:?xt=", b"a=1&k=", b"/", b",urn:", b",https://h/", b"?w=9", b"/?q=1&", b"'+x+'", b"'.concat(", b'".conca', b".concat", b"'\n  '",
          b'"\n  "', b"'{x}'", "\u00e9".encode(), "\u2014".encode(), b"\xc3",
          # break opportunities inside a name (breaks.py), whole and cut short
          b"<wbr>", b"<WBR/>", b"<wbr", b"<wb", "\u200b".encode(), "\u00ad".encode(),
          # a word processor's inline tags inside a name (breaks.py), whole and cut short
          b"</span>", b"<span lang=x>", b"<SPAN class='a'>", b"</b>", b"<span", b"</a",
          # character references that end a name, and ones cut short
          b"&quot;", b"&#39;", b"&#x2014;", b"&#1234567;", b"&#x", b"&#", b"&q", b";urn:a:b&quot;",
          # wrappers folded over lines, and white space that is no fold
          b"<urn:a:b", b"<urn:a:b-\n  1>", b"\n\t", b"\r\n  ", b" \n", b"\n>", b"/>", b"-\n  ", b"-\r\n   1818245", b" is", b"\n\n", b"[Page 3]\n\f",
          # hex dump lines
          b"0010  ", b"00000010: ", b"27 75 72 6e ", b"7265 ", b"  |'", b"##",
          # what makes a file read otherwise than as plain text (runner.nothing_to_find)
          b"%PDF-", b"PK", b"\x1f\x8b", b"BZh", b"From ", b"WARC/", b"!<arch>\n", b"\xff\xfe", b"\xfe\xff", b"\xef\xbd"]
READINGS = [Reading(), Reading(False, False, False, False, False), Reading(code=False), Reading(fold=False)]


def exact(buf: bytes) -> np.ndarray:
    """A copy of buf in an allocation of exactly its size (a bytes object
    has a NUL after its data, which would hide a one-byte over-read)."""
    out = np.empty(len(buf), dtype=np.uint8)
    out[:] = np.frombuffer(buf, dtype=np.uint8)
    return out


def buffers(rng: random.Random, count: int):
    for text in (b"", b"u", b"urn:", b"urn:a", b" urn:", b"\x00" * 7, b"urn:" * 100):
        yield text
    for _ in range(count):
        if rng.random() < 0.5:
            yield b"".join(rng.choice(PIECES) for _ in range(rng.randrange(40)))
        else:
            yield rng.randbytes(rng.randrange(200))
    big = bytearray(rng.randbytes(BINARY_BLOCK_SIZE + 300))
    yield bytes(big)
    big[-4:] = b"urn:"
    yield bytes(big)


def views(rng: random.Random, buf: bytes):
    """(what the compiled function reads, the same bytes for the reference)"""
    yield buf, buf
    yield exact(buf), buf
    k = rng.randrange(len(buf) + 1)
    yield memoryview(exact(buf))[k:], buf[k:]  # a view ending where its allocation ends


def _marked(buf: bytes, mark: bytes, start: int, stop: int) -> int:
    """next_marked_urn's answer, found with bytes.find."""
    at = buf.find(mark, max(start, 3), stop)
    while at >= 0 and buf[at - 3:at].lower() != b"urn":
        at = buf.find(mark, at + 1, stop)
    return at


def main(path: str, count: int) -> None:
    accel = load(path)
    rng = random.Random(20240521)
    checked = 0
    for whole in buffers(rng, count):
        for given, buf in views(rng, whole):
            n = len(buf)
            edges = {0, 1, 2, 3, n - 4, n - 3, n - 1, n, n + 1, n + 5, rng.randrange(n + 1)}
            for start in (e for e in edges if e >= 0):
                for stop in edges | {-9, 2 ** 63 - 1}:
                    got, want = accel.urn_positions(given, start, stop), urn_positions_py(buf, start, stop)
                    assert got == want, (buf, start, stop, got, want)
                    checked += 1
            for start in (e for e in edges if e >= 0):
                for size in (0, 3, 64):
                    for lo in {0, max(0, min(start, n - 2))}:
                        got = accel.context_snippet(given, start, start + 9, size, lo)
                        assert got == context_snippet_py(buf, start, start + 9, size, lo), (buf, start, size, lo)
                        checked += 1
            for a in (e for e in edges if 0 <= e <= n):
                for b in (e for e in edges if a <= e <= n):
                    assert accel.count_breaks(given, a, b) == count_breaks_py(buf, a, b), (buf, a, b)
                    checked += 1
            for cut in {0, 1, n // 2, n}:
                assert accel.looks_binary(exact(buf[:cut])) is looks_binary_py(buf[:cut]), buf[:cut]
                checked += 1
            for start in (e for e in edges if e >= 0):
                for stop in (e for e in edges | {2 ** 63 - 1} if e >= 0):
                    for mark in (b"\\:", b"%3"):
                        got, want = accel.next_marked_urn(given, mark, start, stop), _marked(buf, mark, start, stop)
                        assert got == want, (buf, mark, start, stop, got, want)
                        checked += 1
        checked += check_reads(accel, rng, whole)
        checked += check_scans(accel, rng, whole)
        checked += check_columns(accel, rng, whole)
    checked += check_triage(accel, rng, buffers(rng, count // 4))
    checked += check_listing(accel, rng)
    print(checked)


def check_triage(accel, rng: random.Random, contents) -> int:
    """plain_file_triage of files of every content, listed at their size,
    smaller (they grew) and larger (they shrank), under several limits."""
    checked = 0
    with tempfile.TemporaryDirectory(prefix="urnscan-fuzz-") as top:
        path = os.path.join(top, "f")
        for data in contents:
            with open(path, "wb") as f:
                f.write(data)
            n = len(data)
            for expected in {0, n - 1, n, n + 1, n + rng.randrange(1, 99)}:
                for limit in {expected, expected + 1, 1 << 20}:
                    if 0 <= expected <= limit:
                        got, want = accel.plain_file_triage(path, expected, limit), plain_file_triage_py(path, expected, limit)
                        assert got == want, (data, expected, limit, got, want)
                        checked += 1
        assert accel.plain_file_triage(os.path.join(top, "missing"), 0, 1) is None
    return checked


def check_listing(accel, rng: random.Random) -> int:
    """list_entries of directories of 0 to 300 entries of every kind."""
    checked = 0
    with tempfile.TemporaryDirectory(prefix="urnscan-fuzz-") as top:
        for count in (0, 1, 63, 64, 65, 300):
            folder = os.path.join(top, f"d{count}")
            os.mkdir(folder)
            for i in range(count):
                name = os.path.join(folder, f"{rng.randrange(10 ** 6)}-{i}" + rng.choice(["", ".txt", "\u00e9"]))
                kind = rng.randrange(4)
                if kind == 0:
                    os.mkdir(name)
                elif kind == 1:
                    os.symlink(rng.choice([".", "nowhere", name]), name)
                elif kind == 2 and i % 50 == 0:
                    os.mkfifo(name)
                else:
                    with open(name, "wb") as f:
                        f.write(b"x" * rng.randrange(100))
            assert accel.list_entries(folder, EntryStat) == list_entries_py(folder, EntryStat), count
            fd = os.open(folder, os.O_RDONLY)
            try:
                assert accel.list_entries(fd, EntryStat) == list_entries_py(fd, EntryStat), count
            finally:
                os.close(fd)
            checked += 2
    return checked


def check_columns(accel, rng: random.Random, buf: bytes) -> int:
    """The index's column helpers on random rows of ``buf``, read from
    allocations of exactly their size."""
    checked = 0
    for width in (1, 4, 8):
        rows = len(buf) // width
        data = buf[:rows * width]
        codes = [rng.randrange(rows) for _ in range(rng.randrange(20))] if rows else []
        assert accel.take_fixed(exact(data), width, codes) == take_fixed_py(data, width, codes), (data, codes)
        cuts = sorted(rng.randrange(rows + 1) for _ in range(rng.randrange(6)))
        lengths = [b - a for a, b in zip([0, *cuts], [*cuts, rows])]
        offsets = int32_offsets_py(lengths)
        assert accel.int32_offsets(lengths) == offsets, lengths
        codes = [rng.randrange(len(lengths)) for _ in range(rng.randrange(20))]
        got = accel.take_segments(exact(offsets), exact(data), width, codes)
        assert got == take_segments_py(offsets, data, width, codes), (data, lengths, codes)
        checked += 3
    text = buf.decode("utf-8", "replace")
    cuts = sorted(rng.randrange(len(text) + 1) for _ in range(rng.randrange(6)))
    values = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])]
    assert accel.string_buffers(values) == string_buffers_py(values), values
    escaped = [buf.decode("utf-8", "surrogateescape")]
    try:
        want = string_buffers_py(escaped)
    except UnicodeEncodeError:
        want = UnicodeEncodeError
    try:
        got = accel.string_buffers(escaped)
    except UnicodeEncodeError:
        got = UnicodeEncodeError
    assert got == want, buf
    return checked + 2 + check_rows(accel, rng, values)


def check_rows(accel, rng: random.Random, values) -> int:
    """The row helpers on rows made of ``values`` (a few keys, tails of
    random lengths)."""
    keys = values[:3] or [""]
    rows = [(rng.choice(keys),) + tuple(rng.choice(values or [None]) for _ in range(rng.randrange(3)))
            for _ in range(rng.randrange(12))]
    for start in range(4):
        for fn, ref, args in ((accel.transpose, transpose_py, (rows, start)),
                              (accel.factorize_tails, factorize_tails_py, (rows, 0, start))):
            try:
                want = ref(*args)
            except (TypeError, ValueError) as exc:
                want = type(exc)
            try:
                got = fn(*args)
            except (TypeError, ValueError) as exc:
                got = type(exc)
            assert got == want, (fn, args)
    return 8


def check_scans(accel, rng: random.Random, buf: bytes) -> int:
    """A whole scan in random chunks, with this build's plain_reads and
    place_rows, gives the Python code's hits."""
    from urnscan import scanner
    from urnscan.extract import fast

    size, context = rng.randrange(1, 80), rng.choice([0, 3, 50])
    results = []
    for loops in ((accel.plain_reads, accel.place_rows), (None, None)):
        fast.PLAIN_READS, scanner.PLACE_ROWS = loops
        scanner._reader_of.cache_clear()
        results.append(list(scanner.scan_bytes((buf[i:i + size] for i in range(0, len(buf), size)),
                                               context=context)))
    assert results[0] == results[1], (buf, size, context)
    return 1


def check_reads(accel, rng: random.Random, buf: bytes) -> int:
    """The reading loop with this build's plain_reads reads as the one
    without it; plain_reads reads the same from a buffer ending at its
    allocation's end, and from every position given, whatever is there."""
    n = len(buf)
    positions = urn_positions_py(buf, 0, n)
    checked = 0
    for reading in READINGS:
        for final, window, cap in ((True, 4096, 4096), (False, rng.randrange(4, 90), rng.choice([16, 4096]))):
            found = positions if final else urn_positions_py(buf, 0, n - window)
            compiled = make_batch("rfc8141", reading, cap, accel.plain_reads)(buf, found, 0, n, window,
                                                                               StreamContext(0), 0)
            python = make_batch("rfc8141", reading, cap, None)(buf, found, 0, n, window, StreamContext(0), 0)
            assert compiled == python, (buf, reading, final, window)
            checked += 1
    table = _class_table("rfc8141")
    everywhere = list(range(n + 2))
    for window in (rng.randrange(0, 40), rng.randrange(0, 40)):
        a, b = [], []
        ca, cb = StreamContext(0), StreamContext(0)
        got = accel.plain_reads(exact(buf), everywhere, 0, 0, n, window, table, 4096, 2048, 31, PLAIN_CONSTS, a, ca, 0)
        want = accel.plain_reads(buf, everywhere, 0, 0, n, window, table, 4096, 2048, 31, PLAIN_CONSTS, b, cb, 0)
        assert (got, a, ca.pos, ca.token.head) == (want, b, cb.pos, cb.token.head), buf
        checked += 1
    return checked


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
