"""Results never depend on how the input is cut into chunks."""
import tracemalloc

import pytest
from hypothesis import given, settings, strategies as st

from urnscan import scan_bytes

from .test_fast_paths import PIECES
from .test_reading_rules import JOINED_NAMES, WRITTEN_NAMES

CORPUS = (
    "Intro caf\u00e9 \u65e5\u672c text. See urn:isbn:0451450523, and <URN:foo:bar-\r\n   baz> too.\r\n"
    'The namespace "urn:ietf:params:xml:ns:yang:ietf-service-assurance-\n      device", and\n'
    'xmlns="urn:ietf:params:xml:ns:yang:ietf-ipv4-unicas\\\n   t-routing">\r'
    "return:x Saturn:y http://nbn-resolving.de/urn:nbn:de:bsz:24-opus-12345&x=1\n"
    "magnet:?xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a&dn=f bad urn:ab-:c \xe9 urn:x:"
    + "y" * 300 + " <urn:a:b\n\n"
    "   urn:ietf:params:oauth:ckt:sha-256:\n\n   SWvYr63zB-WwjGSwQhv53AFSijRKQ72oj63RZp2iU-w\n"
    "(e.g., urn:nbn:fi:st:). urn:example:weather?=op=map&lat=39.56\n   &lon=-104.85 end"
    " \u898b\u3088 \uff35\uff32\uff2e\uff1a\uff29\uff33\uff22\uff2e\uff1a\uff10\uff13\uff10\uff16\u3002 URN\uff1aisbn:1,"
    " <a href=\"https://h/?q=urn%3Anbn%3Ade%3A1-2%2Furn%3Ax%3Ay&t=1\">"
).encode("utf-8") + b"\xff\x00 urn:example:last"


#: the options of the scans of CORPUS (its percent-encoded URN read too)
OPTIONS = dict(max_urn_length=256, percent=True)


def _chunks(data, size):
    return [data[i:i + size] for i in range(0, len(data), size)]


def _scan(chunks, **options):
    return list(scan_bytes(chunks, **options))


WHOLE = _scan([CORPUS], **OPTIONS)


def test_whole_corpus_finds_everything():
    assert len(WHOLE) == 16
    assert [h.urn for h in WHOLE if h.rules == ("decode:percent",)] == ["urn:nbn:de:1-2/urn:x:y"]
    assert [h.rules for h in WHOLE if h.urn in ("\uff35\uff32\uff2e\uff1a\uff29\uff33\uff22\uff2e\uff1a\uff10\uff13\uff10\uff16",
                                              "URN\uff1aisbn:1")] == [("suspect:lookalike",)] * 2
    assert any(h.source is None and h.urn == "URN:foo:bar-baz" for h in WHOLE)
    assert any("over-long" in [f.code for f in h.findings] for h in WHOLE)


@pytest.mark.parametrize("size", [1, 2, 3, 7, 65536])
def test_fixed_chunk_sizes(size):
    assert _scan(_chunks(CORPUS, size), **OPTIONS) == WHOLE


def test_whole_is_one_chunk_fed_then_finished():
    """ByteScanner.whole (a file read at once) gives what feed + finish give,
    and refuses a scanner fed already."""
    from urnscan.scanner import ByteScanner, ScanOptions

    options = ScanOptions(**OPTIONS)
    for data in (CORPUS, CORPUS.replace(b"\r", b""), CORPUS[:200], b"", b"urn:a:b"):
        fed = ByteScanner("f", options)
        expected = fed.feed(data) + fed.finish()
        assert ByteScanner("f", options).whole(data) == expected
    used = ByteScanner("f", options)
    used.feed(b"text ")
    with pytest.raises(ValueError):
        used.whole(b"urn:a:b")


@given(st.lists(st.integers(min_value=0, max_value=len(CORPUS)), max_size=12))
@settings(max_examples=200, deadline=None)
def test_random_splits(cuts):
    points = sorted(set(cuts))
    pieces = [CORPUS[a:b] for a, b in zip([0] + points, points + [len(CORPUS)])]
    assert _scan(pieces, **OPTIONS) == WHOLE


@pytest.mark.parametrize("marker", [b"<urn:", "\u00e9".encode(), b"-\n      device", b"\\\n   t-r", b"\r\n   baz",
                                    b"urn%3Anbn", b"%2Furn%3Ax"])
def test_splits_inside_hard_places(marker):
    i = CORPUS.index(marker)
    for k in range(len(marker) + 1):
        assert _scan([CORPUS[:i + k], CORPUS[i + k:]], **OPTIONS) == WHOLE


def test_memory_stays_bounded_on_a_huge_run():
    """32 MB without a line break, 16 MB of it one run of URN characters:
    peak traced memory stays within a few chunks."""
    chunk = 1 << 20

    def source():
        yield b"prose " * 1000 + b"urn:example:"
        for _ in range(16):
            yield b"a" * chunk
        for _ in range(16):
            yield b"x " * (chunk // 2)
        yield b" urn:example:after"

    tracemalloc.start()
    try:
        hits = list(scan_bytes(source(), max_urn_length=4096))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [h.codes for h in hits] == [("over-long",), ("example-namespace",)]
    assert hits[0].end - hits[0].start == 12 + 16 * chunk + 1  # the run ends at the first space
    assert hits[0].urn == "urn:example:" + "a" * (4096 - 12)
    assert peak < 8 * chunk


@given(st.lists(st.sampled_from(PIECES), max_size=40).map(b"".join))
@settings(max_examples=200, deadline=None)
def test_whole_equals_feed_and_finish(data):
    from urnscan.scanner import ByteScanner

    fed = ByteScanner("f")
    assert ByteScanner("f").whole(data) == fed.feed(data) + fed.finish()


@given(st.lists(st.one_of(JOINED_NAMES, WRITTEN_NAMES), min_size=1, max_size=4).map(b" ".join), st.integers(1, 40),
       st.booleans())
@settings(max_examples=300, deadline=None)
def test_names_with_references_and_marks_in_any_chunks(data, size, percent):
    whole = _scan([data], percent=percent)
    assert _scan(_chunks(data, size), percent=percent) == whole


#: pieces of percent-encoded URNs in URLs, and what ends or breaks them
ENCODED_PIECES = [b"urn%3A", b"URN%3a", b"%3A", b"%2F", b"%25", b"a", b"isbn", b"0451450523", b"-", b".", b":",
                  b" ", b"&", b"\n", b"urn:", b"x", b"?q=", b"a" * 200, b" " * 600, b"-\n    ", b"\n  %3A", b"@"]


@given(st.lists(st.sampled_from(ENCODED_PIECES), max_size=80).map(b"".join),
       st.lists(st.integers(min_value=0, max_value=8000), max_size=8), st.sampled_from([16, 24, 4096]))
@settings(max_examples=300, deadline=None)
def test_encoded_urns_do_not_depend_on_chunks(data, cuts, cap):
    """Where a percent-encoded URN starts and ends depends on the text from
    its prefix on, not on where a chunk was cut (nor, past ``cap``, on
    where a run started)."""
    points = sorted({c for c in cuts if c <= len(data)})
    pieces = [data[a:b] for a, b in zip([0] + points, points + [len(data)])]
    assert _scan(pieces, max_urn_length=cap, percent=True) == _scan([data], max_urn_length=cap, percent=True)


@pytest.mark.parametrize("cap", [64, 4096])
def test_a_prefix_inside_an_encoded_urn_across_a_chunk_stays_inside_it(cap):
    """An encoded URN read before a chunk's end holds another prefix after
    it ("...%2Furn%3Ac%3Ad"): the next chunk's scan starts after the URN."""
    from urnscan.scanner import ScanOptions

    window = ScanOptions(max_urn_length=cap).window
    data = b"x " * 50 + b"?q=urn%3Aa%3Ab%2Furn%3Ac%3Ad&t=1 " + b"y " * window
    start = data.index(b"urn%3A")
    whole = _scan([data], max_urn_length=cap, percent=True)
    assert [h.urn for h in whole] == ["urn:a:b/urn:c:d"]
    for limit in range(start + 1, start + 24):  # the first chunk's scan stops inside the URN
        assert _scan([data[:limit + window], data[limit + window:]], max_urn_length=cap, percent=True) == whole


def test_encoded_urns_fed_a_few_bytes_at_a_time():
    """Every prefix ends a chunk's scan somewhere, one to three bytes before it too."""
    from urnscan.scanner import ScanOptions

    window = ScanOptions(max_urn_length=64).window
    data = (b"y " * (window // 2) + b"?q=urn%3Aa%3Ab%2Furn%3Ac%3Ad&u=URN%3ANBN%3Afi-fe1.%2Furn%3Aisbn%3A1 "
            + b"urn%3A%3Aurn%3Ax%3Ay " + b"z " * window)
    whole = _scan([data], max_urn_length=64, percent=True)
    assert [h.urn for h in whole] == ["urn:a:b/urn:c:d", "URN:NBN:fi-fe1./urn:isbn:1", "urn:x:y"]
    for size in (1, 2, 3):
        assert _scan(_chunks(data, size), max_urn_length=64, percent=True) == whole


#: folds longer than the cap of 64, a "urn:" on every line of them, then a
#: URN of its own after each
FOLD_CHAINS = (b"see\n" + b"   :urn:ex:a\n" * 12 + b"\nurn:ex:after-colon\n"
               + b"urn:ex:a-\\\n" * 12 + b"\nurn:ex:after-8792 and \"urn:ex:x\" \":urn:ex:y\""
               + b"\n" + b"   :urn:ex:a\r\n" * 12 + b"\r\nend urn:ex:last")


@pytest.mark.parametrize("size", [1, 2, 5, 13, 64, 1000])
def test_an_over_long_fold_does_not_depend_on_chunks(size):
    whole = _scan([FOLD_CHAINS], max_urn_length=64)
    assert _scan(_chunks(FOLD_CHAINS, size), max_urn_length=64) == whole
    # each fold is one over-long candidate up to its line past the cap, and
    # the URNs on its lines after that are read as they come
    over_long = [h for h in whole if h.codes == ("over-long",)]
    assert [FOLD_CHAINS[h.start:h.end].count(b"\n") for h in over_long] == [5, 5, 6, 5, 5]
    assert all(h.end - h.start > 64 for h in over_long)
    assert {"urn:ex:after-colon", "urn:ex:after-8792", "urn:ex:last"} <= {h.urn for h in whole}
