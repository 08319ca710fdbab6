"""A file scanned in byte ranges gives exactly the hits of one scan."""
import os
import random

import pytest

from urnscan.ranges import plan_ranges, scan_range, stitch
from urnscan.scanner import ScanOptions, scan_bytes


def scan_file_in_ranges(path, parts, options, source=None, min_size=1 << 24):
    """A plain file scanned as ``parts`` ranges, one after the other, and
    stitched: what the parallel scan does across workers."""
    ranges = plan_ranges(path, os.path.getsize(path), parts, min_size)
    return stitch([scan_range(r, options, source) for r in ranges], options, source)


PIECES = [
    b"prose about return: and Saturn: ", b"urn:isbn:0451450523. ", b"<URN:foo:bar-\r\n   baz> ",
    b'"urn:ietf:params:rtp-\n   hdrext:sdes:cname" ', b"\r\n", b"\n", b"\r", b"  ", b"urn:x:" + b"y" * 300 + b" ",
    b"http://nbn-resolving.de/urn:nbn:de:bsz:24-opus-12345&x=1 ", b"urn:ex:a:urn:ex:b ", b"caf\xc3\xa9 ",
    b"urn:example:weather?=op=map&lat=39.56\n   &lon=-104.85 ", b"word " * 20,
    # a URL token far longer than any look-back: its URNs end at "&"
    b"https://h.example/q?" + b"p=v&" * 400 + b"id=urn:isbn:0451450523&lang=en ",
    # folds past the cap, a "urn:" on every line
    b"\n" + b"   :urn:ex:a\n" * 30, b"\n" + b"urn:ex:a-\\\n" * 30,
]


def make_corpus(seed, size):
    rnd = random.Random(seed)
    out = bytearray()
    while len(out) < size:
        out += rnd.choice(PIECES)
    return bytes(out)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("parts", [2, 3, 7])
@pytest.mark.parametrize("mark", [b"", b"\xef\xbb\xbf"])  # a UTF-8 byte-order mark: no column of line 1
def test_ranges_equal_single_scan(tmp_path, seed, parts, mark):
    data = mark + make_corpus(seed, 60_000)
    path = tmp_path / "corpus.txt"
    path.write_bytes(data)
    options = ScanOptions(max_urn_length=256)
    whole = list(scan_bytes([data], source=str(path), max_urn_length=256))
    split = list(scan_file_in_ranges(str(path), parts, options, source=str(path), min_size=1))
    assert split == whole


def test_boundary_inside_a_candidate(tmp_path):
    # every cut position through a candidate that hides an inner "urn:"
    data = b"aaa urn:ex:a:urn:ex:b\nurn:ex:c <urn:ex:d\n  e> urn:x:" + b"z" * 400 + b"urn:ex:f end"
    path = tmp_path / "c.txt"
    path.write_bytes(data)
    options = ScanOptions(max_urn_length=256)
    whole = list(scan_bytes([data], max_urn_length=256))
    from urnscan.ranges import Range, scan_range, stitch
    for cut in range(1, len(data)):
        results = [scan_range(Range(str(path), 0, cut), options), scan_range(Range(str(path), cut, len(data)), options)]
        assert list(stitch(results, options)) == whole, cut


def test_boundary_inside_an_over_long_fold(tmp_path):
    # every cut through folds past the cap with a "urn:" on each line: the
    # over-long candidate covers the lines up to the one past the cap, and
    # the next range, read from where it ends, agrees with one scan
    data = (b"x\n" + b"   :urn:ex:a\n" * 12 + b"\nurn:ex:b " + b"urn:ex:c-\\\n" * 12 + b"\nend urn:ex:d")
    path = tmp_path / "f.txt"
    path.write_bytes(data)
    options = ScanOptions(max_urn_length=64)
    whole = list(scan_bytes([data], max_urn_length=64))
    assert [h.codes for h in whole].count(("over-long",)) == 3
    from urnscan.ranges import Range, scan_range, stitch
    for cut in range(1, len(data)):
        results = [scan_range(Range(str(path), 0, cut), options), scan_range(Range(str(path), cut, len(data)), options)]
        assert list(stitch(results, options)) == whole, cut


def test_plan_never_splits_crlf(tmp_path):
    data = b"\r\n" * 5000
    path = tmp_path / "crlf.txt"
    path.write_bytes(data)
    for rng in plan_ranges(str(path), len(data), 7, min_size=1):
        assert data[rng.start - 1:rng.start + 1] != b"\r\n"


@pytest.mark.parametrize("read_size", [7, 64, 1000])
def test_small_reads_count_lines_across_chunk_edges(tmp_path, monkeypatch, read_size):
    import urnscan.ranges as ranges

    monkeypatch.setattr(ranges, "READ_SIZE", read_size)
    data = make_corpus(99, 20_000)
    path = tmp_path / "corpus.txt"
    path.write_bytes(data)
    options = ScanOptions(max_urn_length=256)
    whole = list(scan_bytes([data], source=str(path), max_urn_length=256))
    assert list(scan_file_in_ranges(str(path), 5, options, source=str(path), min_size=1)) == whole


def test_url_context_reaches_back_past_a_range_start(tmp_path):
    """The URL a URN sits in starts long before the range holding it."""
    data = b"x https://h.example/q?" + b"a=b&" * 3000 + b"id=urn:isbn:0451450523&lang=en\n"
    path = tmp_path / "u.txt"
    path.write_bytes(data)
    whole = list(scan_bytes([data], source=str(path)))
    assert [(h.urn, h.embedded) for h in whole] == [("urn:isbn:0451450523", True)]
    for parts in (2, 3, 5):
        assert list(scan_file_in_ranges(str(path), parts, ScanOptions(), source=str(path), min_size=1)) == whole


def _chain(results, options):
    from urnscan.ranges import StitchState, stitch_step

    state, hits = StitchState(), []
    for result in results:
        found, state = stitch_step(result, state, options)
        hits += found
    return hits, state


def test_a_range_that_failed_keeps_its_hits_and_stops_the_file(tmp_path):
    """The ranges of a file on Dask: the hits a failed range found are
    kept, the ranges after it give none, and the row says why."""
    from urnscan.ranges import ranges_status

    data = b"".join(b"see urn:example:a%d here\n" % i for i in range(3000))
    path = tmp_path / "f.txt"
    path.write_bytes(data)
    options = ScanOptions()
    results = [scan_range(r, options) for r in plan_ranges(str(path), len(data), 3, min_size=1)]
    whole, state = _chain(results, options)
    assert whole == list(scan_bytes([data])) and state.stopped is None and state.read == len(data)
    failed = results[1]._replace(hits=results[1].hits[:5], read=200, error="read error: input/output error")
    hits, state = _chain([results[0], failed, results[2]], options)
    assert hits == whole[:len(results[0].hits) + 5]
    assert (state.stopped, state.read) == ("read error: input/output error", results[0].read + 200)
    row = ranges_status("f.txt", state.stopped, state.read, len(hits), len(hits))
    assert (row.status, row.reason, row.bytes, row.hits) == ("error", state.stopped, state.read, len(hits))


def test_a_range_read_after_one_that_ended_short_stops_the_file(tmp_path):
    """A range that read short (the file ended there) and a later one that
    read on: the file shrank between the two reads."""
    data = b"".join(b"see urn:example:a%d here\n" % i for i in range(3000))
    path = tmp_path / "f.txt"
    path.write_bytes(data)
    options = ScanOptions()
    results = [scan_range(r, options) for r in plan_ranges(str(path), len(data), 3, min_size=1)]
    short = results[0]._replace(hits=results[0].hits[:4], read=100)
    hits, state = _chain([short, results[1]._replace(hits=[], read=0), results[2]], options)
    assert hits == results[0].hits[:4] and (state.stopped, state.read) == ("file shrank while it was read", 100)
    hits, state = _chain([short, results[1]._replace(hits=[], read=0)], options)
    assert state.stopped is None and state.read == 100  # the file ends there: read to its end


@pytest.mark.parametrize("data, starts", [
    (b"urn:a:" * 20000, [0]),  # one token: never cut, so never read again by a range after the first
    (b"abcdefghi " * 12000, [0, 40000, 80000]),  # just after the blank at or after each third
    (b"x" * 39999 + b"\r\n" + b"y" * 79999, [0, 40001]),  # after a CRLF; the 80 KB token keeps its cut out
], ids=["run", "words", "crlf-and-long-token"])
def test_ranges_start_where_tokens_start(tmp_path, data, starts):
    path = tmp_path / "f.txt"
    path.write_bytes(data)
    ranges = plan_ranges(str(path), len(data), 3, min_size=1)
    assert [r.start for r in ranges] == starts
    assert ranges[-1].stop == len(data) and all(a.stop == b.start for a, b in zip(ranges, ranges[1:]))
    options = ScanOptions()
    assert list(stitch([scan_range(r, options) for r in ranges], options)) == list(scan_bytes([data]))


def test_a_range_inside_a_hit_before_it_is_not_read_again(tmp_path, monkeypatch):
    """An over-long run through ')' (token stops: the file is cut) covers
    the ranges after the first: stitching rescans none of those it covers
    whole."""
    import urnscan.ranges as ranges
    from urnscan.pieces import HIT_PIECES

    data = b"urn:a:b)" * 30000 + b" urn:example:end\n"
    path = tmp_path / "run.txt"
    path.write_bytes(data)
    options = ScanOptions()
    parts = [(r, [], scan_range_pieces_list(r, options)) for r in plan_ranges(str(path), len(data), 4, 1)]
    assert len(parts) == 4
    reads = []
    real_breaks, real_scan = ranges._breaks_before, ranges._scan_from

    def breaks_before(rng, covered):
        reads.append(rng.start)
        return real_breaks(rng, covered)

    def scan_from(path, start, *args, **kw):
        reads.append(start)
        return real_scan(path, start, *args, **kw)

    monkeypatch.setattr(ranges, "_breaks_before", breaks_before)
    monkeypatch.setattr(ranges, "_scan_from", scan_from)
    stitcher = ranges.RangeStitcher(options, None, HIT_PIECES)
    hits = []
    for rng, _, (pieces, end) in parts:
        stitcher.begin(rng)
        for piece in pieces:
            hits += [h for p in stitcher.add(piece) for h in p]
        hits += [h for p in stitcher.end(end.breaks, end.last_break_end) for h in p]
    assert hits == list(scan_bytes([data])) and len(hits) == 2
    # the last range alone, where the run ends: the line breaks before its
    # end, then the scan from there
    assert reads == [parts[-1][0].start, len(data) - len(b" urn:example:end\n")]


def scan_range_pieces_list(rng, options):
    from urnscan.pieces import HIT_PIECES
    from urnscan.ranges import scan_range_pieces

    pieces = []
    end = scan_range_pieces(rng, options, None, pieces.append, HIT_PIECES.encode)
    return pieces, end


@pytest.mark.parametrize("lines_before, line_start", [(0, 0), (7, 120), (1 << 40, (1 << 33) + 5)])
def test_both_piece_shapes_relocate_alike(lines_before, line_start):
    """A range's hits made absolute: the record batch's columns are those
    of the hits one by one, also for a slice of a batch."""
    from urnscan.pieces import ARROW_PIECES, HIT_PIECES

    data = b"x urn:example:a y\nurn:example:b\n  z urn:example:c:d\n" * 3
    hits = [h._replace(start=h.start + line_start) for h in scan_bytes([data])]
    assert {h.line for h in hits} > {1}
    expected = HIT_PIECES.relocate(hits, lines_before, line_start)
    for piece in (ARROW_PIECES.encode(hits), ARROW_PIECES.encode(hits).slice(2)):
        got = ARROW_PIECES.relocate(piece, lines_before, line_start)
        first = len(hits) - piece.num_rows
        assert got.column("line").to_pylist() == [h.line for h in expected[first:]]
        assert got.column("col").to_pylist() == [h.column for h in expected[first:]]
        assert got.column("start").to_pylist() == [h.start for h in expected[first:]]
