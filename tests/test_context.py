"""The context column: a bounded snippet around each hit, the same for every
chunking, every byte range and every job count."""
import pytest
from hypothesis import given, settings, strategies as st

from urnscan.context import MAX_CONTEXT, context_snippet
from urnscan.ranges import Range, scan_range, stitch
from urnscan.scanner import ScanOptions, _options, scan_bytes

from .growth import GROWTH, MAX_RATIO, least_ratio
from .test_chunking import CORPUS
from .test_growth import best_scan_time
from .test_ranges import make_corpus

# (buffer, start, stop, size) -> snippet
CASES = [
    (b"see  <urn:a:b>\n\tnow", 6, 13, 64, "see <urn:a:b> now"),
    (b"0123456789urn:a:b0123456789", 10, 17, 3, "789urn:a:b012"),
    (b"urn:a:b", 0, 7, 5, "urn:a:b"),
    # a character cut by the window is dropped, not half-decoded
    ("\u20ac\u20acurn:a:b\u00e9\u00e9".encode(), 6, 13, 4, "\u20acurn:a:b\u00e9\u00e9"),
    ("\u20ac\u20acurn:a:b\u00e9\u00e9".encode(), 6, 13, 3, "\u20acurn:a:b\u00e9"),
    ("\u20ac\u20acurn:a:b\u00e9\u00e9".encode(), 6, 13, 2, "urn:a:b\u00e9"),
    # undecodable bytes are shown as U+FFFD, white space of every kind collapses
    (b"\xff\xfe urn:a:b \r\n\x0b\x0c x", 3, 10, 8, "\ufffd\ufffd urn:a:b x"),
    # U+FEFF, a file's byte-order mark or a zero width no-break space, is left out
    (b"\xef\xbb\xbfurn:a:b", 3, 10, 64, "urn:a:b"),
    (b"\xef\xbb\xbf<r xmlns='urn:a:b'/>", 13, 20, 64, "<r xmlns='urn:a:b'/>"),
    (b"a \xef\xbb\xbf urn:a:b x\xef\xbb\xbfy", 6, 13, 64, "a urn:a:b xy"),
    (b"\xef\xbb\xbfurn:a:b", 3, 10, 2, "urn:a:b"),  # (cut by the window)
    (b"urn:a:b \xef\xbb\xbf", 0, 7, 3, "urn:a:b"),
]


@pytest.mark.parametrize("buf,start,stop,size,expected", CASES)
def test_snippet(buf, start, stop, size, expected):
    assert context_snippet(buf, start, stop, size) == expected


def test_context_is_off_by_default_and_bounded():
    assert all(h.context is None for h in scan_bytes([CORPUS]))
    with pytest.raises(ValueError, match="context"):
        _options(context=MAX_CONTEXT + 1)
    for h in scan_bytes([CORPUS], context=MAX_CONTEXT, max_urn_length=256):
        if h.context is not None:
            assert len(h.context.encode()) <= 2 * MAX_CONTEXT + (h.end - h.start)
            assert "  " not in h.context and "\n" not in h.context


@given(st.lists(st.integers(min_value=0, max_value=len(CORPUS)), max_size=12),
       st.sampled_from([1, 17, 64, MAX_CONTEXT]))
@settings(max_examples=150, deadline=None)
def test_context_never_depends_on_chunking(cuts, size):
    whole = list(scan_bytes([CORPUS], max_urn_length=256, context=size))
    points = sorted(set(cuts))
    pieces = [CORPUS[a:b] for a, b in zip([0] + points, points + [len(CORPUS)])]
    assert list(scan_bytes(pieces, max_urn_length=256, context=size)) == whole


def test_context_after_an_over_long_run_survives_one_byte_chunks():
    data = b"prefix text " + b"urn:x:" + b"y" * 1000 + b" urn:ex:after the run"
    whole = list(scan_bytes([data], max_urn_length=64, context=MAX_CONTEXT))
    assert whole[-1].context == "y" * (MAX_CONTEXT - 1) + " urn:ex:after the run"
    assert list(scan_bytes([data[i:i + 1] for i in range(len(data))], max_urn_length=64,
                           context=MAX_CONTEXT)) == whole


@pytest.mark.parametrize("seed", range(3))
def test_context_of_byte_ranges_equals_one_scan(tmp_path, seed):
    data = make_corpus(seed, 30_000)
    path = tmp_path / "corpus.txt"
    path.write_bytes(data)
    options = ScanOptions(max_urn_length=256, context=MAX_CONTEXT)
    whole = list(scan_bytes([data], max_urn_length=256, context=MAX_CONTEXT))
    assert any(h.context for h in whole)
    for cut in (1000, 15_000, 29_000):
        results = [scan_range(Range(str(path), 0, cut), options),
                   scan_range(Range(str(path), cut, len(data)), options)]
        assert list(stitch(results, options)) == whole


@pytest.mark.parametrize("unit", [
    b"urn:isbn:0451450523 ",                      # a hit every 20 bytes
    b"urn:a:" + b"\xe2\x82\xac" * 40 + b"  \n\t ",  # multi-byte text and white space runs to collapse
])
def test_context_stays_linear(unit):
    small = unit * (96 * 1024 // len(unit))
    large = small * GROWTH
    best_scan_time(small, 1, context=MAX_CONTEXT)
    ratio = least_ratio(lambda: best_scan_time(large, 2, context=MAX_CONTEXT)
                        / best_scan_time(small, 5, context=MAX_CONTEXT))
    assert ratio <= MAX_RATIO, f"{GROWTH}x the input took {ratio:.1f}x the time"


def _reference_snippet(buf, start, stop, size):
    """The snippet assembled piece by piece: the window's two sides cut at
    character boundaries, joined to the span, white space collapsed by a
    regular expression."""
    import re

    from urnscan.context import _cut_tail, _lead_continuations

    a = max(0, start - size)
    before = buf[a:start]
    if a > 0:
        before = before[_lead_continuations(before):]
    after = buf[stop:stop + size]
    after = after[:_cut_tail(after)]
    text = (before + buf[start:stop] + after).replace("\ufeff".encode(), b"")
    text = re.sub(rb"[ \t\n\r\f\v]+", b" ", text).strip(b" ")
    return text.decode("utf-8", "replace")


@given(st.lists(st.sampled_from(["a", " ", "\t", "\r\n", "\x0b", "\x0c", "\u00e9", "\u20ac", "\U0001f600",
                                 "\ufeff", "\xff", "\x80"]), max_size=40),
       st.integers(0, 200), st.integers(0, 30), st.integers(0, 12))
@settings(max_examples=300, deadline=None)
def test_snippet_equals_the_reference(parts, start, length, size):
    buf = b"".join(p.encode("latin-1") if p in ("\xff", "\x80") else p.encode() for p in parts)
    start = min(start, len(buf))
    stop = min(start + length, len(buf))
    assert context_snippet(buf, start, stop, size) == _reference_snippet(buf, start, stop, size)
