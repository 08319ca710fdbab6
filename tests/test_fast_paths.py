"""The fast readings agree with the step-by-step reference readings."""
import pytest
from hypothesis import example, given, settings, strategies as st

from urnscan.candidates import LOOKBACK, OverLong, _extract, batch_extractor, extract, extractor
from urnscan.namespaces import _text, checkdigits
from urnscan.scanner import urn_positions

PROFILES = ("rfc8141", "rfc2141", "draft-2012", "draft-1995")

# pieces that reach every branch of the reading rules
PIECES = [
    b"urn:", b"URN:", b"<urn:", b"<URN:", b"isbn:", b"ietf:params:", b"x-", b"nbn:de:", b"0451450523", b"abc",
    b"a-b", b"-", b":", b".", b",", b";", b"!", b"'", b"?", b"?+", b"?=", b"#", b"&", b"&amp;", b"&#38;", b"%2C",
    b"%", b"/", b"http://x.org/", b"?urn=", b"magnet:?xt=", b"(", b")", b"[", b"{", b"<", b">", b'"', b" ", b"  ",
    b"\t", b"\n", b"\r\n", b"\r", b"\\\n", b"\\", b"...", "\u2026".encode(), "\u2019".encode(), b"return:", b"x.urn:",
    b"~", b"=", b"1.", b"A", b"\n   ", b"\n\n", b" \n", b"-\n   ", b":\n\n  ", b".\n  ", b"\n  &x=1", b"\xff",
    b"|", b" | ", b"grant_type=", b"a=1&k=", b"\n | ", b"\n  :", b"\n- ", b"  - ",
]
texts = st.lists(st.sampled_from(PIECES), max_size=40).map(b"".join)
options = st.tuples(st.sampled_from(PROFILES), st.booleans(), st.booleans(), st.sampled_from([4096, 67, 66, 40]))


def _reference(buf, p, lo, hi, profile, trim, fold, cap):
    try:
        return _extract(buf, p, lo, hi, profile=profile, trim=trim, cap=cap, fold=fold)
    except Exception as exc:  # the reference's own failures must be the same
        return type(exc)


def _fast(buf, p, lo, hi, profile, trim, fold, cap):
    try:
        return extract(buf, p, lo, hi, profile=profile, trim=trim, cap=cap, fold=fold)
    except Exception as exc:
        return type(exc)


@given(texts, options, st.integers(0, 60))
@settings(max_examples=400, deadline=None)
def test_extract_matches_the_reference(data, opts, cut):
    profile, trim, fold, cap = opts
    for p in urn_positions(data, 0, len(data)):
        for lo, hi in ((max(0, p - LOOKBACK), len(data)), (p, min(len(data), p + cut))):
            assert _fast(data, p, lo, hi, profile, trim, fold, cap) == _reference(data, p, lo, hi, profile, trim,
                                                                                   fold, cap)


@given(texts, options, st.booleans(), st.integers(4, 400))
@settings(max_examples=400, deadline=None)
@example(b" urn:a:b.", ("rfc8141", False, True, 4096), True, 100)  # the run ends at the end of the input
@example(b" urn:a:b.)x", ("draft-2012", False, True, 4096), False, 10)  # ... or of the window
def test_batch_matches_one_position_at_a_time(data, opts, final, window):
    profile, trim, fold, cap = opts
    read = extractor(profile, trim, cap, fold)
    n = len(data)
    # as the scanner calls it: before the end of the input, only positions
    # with a whole window after them
    positions = urn_positions(data, 0, n if final else n - window)
    expected, pos, stop = [], 0, -1
    try:
        for p in positions:
            if p < pos:
                continue
            got = read(data, p, max(0, p - LOOKBACK), n if final else p + window)
            if got is None:
                pos = p + 1
            elif type(got) is OverLong:
                stop = p
                break
            else:
                expected.append(got)
                pos = max(got[1], p + 1)
        expected = (expected, pos, stop)
    except Exception as exc:
        expected = type(exc)
    try:
        got = batch_extractor(profile, trim, cap, fold)(data, positions, 0, n, final, window)
    except Exception as exc:
        got = type(exc)
    assert got == expected


def test_raw_is_the_span():
    data = b"see urn:a:b-\n  c, <urn:x:y\n z> and http://h/urn:n:s&q and urn:e:f. end"
    read = extractor("rfc8141", True, 4096, True)
    for p in urn_positions(data, 0, len(data)):
        got = read(data, p, max(0, p - LOOKBACK), len(data))
        assert got[7] == data[got[0]:got[1]].decode("ascii")


@given(st.text(alphabet="%0aF9gzZ:/.-~\x00\x7f\u00e9 ", max_size=12))
def test_pct_decode_matches_the_reference(text):
    assert _text.pct_decode(text) == _text._pct_decode_reference(text)


@given(st.text(alphabet="0123456789ABXZabz:-_/.%\u0131\u017f\u00e9", max_size=30))
def test_dnb_check_matches_the_reference(text):
    assert checkdigits.dnb_urn_check(text) == checkdigits._dnb_urn_check_reference(text)


@given(st.text(alphabet="0123456789X\u0663\u00b2", max_size=14))
def test_weighted_check_digits(text):
    def loop(weights, s):
        return sum(w * int(d) for w, d in zip(weights, s))

    for name, weights in (("isbn10_check", range(10, 1, -1)), ("issn_check", range(8, 1, -1))):
        try:
            total = loop(weights, text)
        except ValueError:
            with pytest.raises(ValueError):
                getattr(checkdigits, name)(text)
            continue
        value = (11 - total % 11) % 11
        assert getattr(checkdigits, name)(text) == ("X" if value == 10 else str(value))
    try:
        total = sum((1 if i % 2 == 0 else 3) * int(d) for i, d in enumerate(text))
    except ValueError:
        with pytest.raises(ValueError):
            checkdigits.isbn13_check(text)
    else:
        assert checkdigits.isbn13_check(text) == str((10 - total % 10) % 10)


SNIPPETS = [
    b"see urn:isbn:0451450523.", b"(urn:a:b-c) x", b"urn:a:b:\n\n  c\n", b" urn:a:b\n  &c=d", b" urn:a:b?x\n  &c=d",
    b"'urn:a:b'", b" urn:a:b... ", b" urn:a:b\xe2\x80\xa6", b" urn:a:b\xe2\x80\x99s", b"=urn:a:b", b"/urn:a:b&c",
    b"<id>urn:a:b</id>", b"urn:a:<b>", b" urn:a:b{x}", b" urn:a:b[1]", b" urn:a:b&amp;c", b"<urn:a:b>", b"<urn:a:\n b>",
    b"<urn:a>", b" urn:a:b  \n c", b" urn:a:b.\n  c:d", b" urn:a:b-\n  c", b" urn:a:b\\\n  c", b" urn:a:b(c)",
    b" urn:a:b(c", b" urn:a:b)", b"\turn:a:b;", b" urn:a:", b" urn:a:.", b"x urn:" + b"a" * 70 + b":b",
    b" | urn:a:b:  | x |\n |  c:d      | y |\n", b"|urn:a:b-|\n|c|\n", b" urn:a:b |x", b" urn:a:b\n   :c\n",
    b"  urn:a:b:\n    k: v\n", b" urn:a:b... x", b" urn:a:b:... x", b" urn:a:b-\xe2\x80\xa6", b" urn:a:...b", b" k=urn:a:b&c=d", b"x=1&k=urn:a:b&c", b"- urn:a:b:\n\n    k: v\n", b"  urn:a:b:  \n  k\n", b" urn:a:b:\n  urn:c:d\n",
]


@pytest.mark.parametrize("snippet", SNIPPETS)
@pytest.mark.parametrize("profile", PROFILES)
def test_batch_on_snippets_at_every_window(snippet, profile):
    for trim in (True, False):
        for fold in (True, False):
            for window in range(4, len(snippet) + 2):
                for final in (True, False):
                    test_batch_matches_one_position_at_a_time.hypothesis.inner_test(
                        snippet, (profile, trim, fold, 4096), final, window)


def test_count_lf_matches_bytes_count():
    from urnscan.scanner import count_lf

    data = (b"a\nbb\r\n\n" * 5000) + b"x" * 9000 + b"\n"
    for a, b in ((0, len(data)), (3, 20000), (100, 100), (0, 8191), (5, 8197), (len(data) - 9001, len(data))):
        assert count_lf(data, a, b) == data.count(b"\n", a, b)


def test_judge_tails_are_the_judgement_and_shared():
    from urnscan.judge import UrnJudge, judge

    for profile in PROFILES:
        first, second = UrnJudge(profile), UrnJudge(profile)
        for urn in ("urn:isbn:0451450523", "URN:NBN:de:gbv:089-3321752945", "urn:a:b", "urn:x-y:%zz"):
            j = judge(urn, profile)
            assert first.tail(urn) == (*j[:-2], profile, *j[-2:])
            assert second.tail(urn) is first.tail(urn)


def test_judgement_cache_keeps_urns_that_come_back(monkeypatch):
    """Above SHARED_CACHE_SIZE distinct URNs, a URN met again and again
    stays cached (two generations, not one dict cleared when full)."""
    import urnscan.judge as judge_module

    monkeypatch.setattr(judge_module, "SHARED_CACHE_SIZE", 64)
    monkeypatch.setattr(judge_module, "_SHARED_TAILS", {})
    monkeypatch.setattr(judge_module, "_OLD_TAILS", {})
    calls = []
    real = judge_module.judge
    monkeypatch.setattr(judge_module, "judge", lambda urn, profile: calls.append(urn) or real(urn, profile))
    j = judge_module.UrnJudge()
    for i in range(1000):
        assert j.tail("urn:isbn:0451450523") == j.tail("urn:isbn:0451450523")
        j.tail(f"urn:example:distinct-{i}")
    assert calls.count("urn:isbn:0451450523") == 1
    assert len(calls) == 1001
    total = sum(map(len, (*judge_module._SHARED_TAILS.values(), *judge_module._OLD_TAILS.values())))
    assert total <= 2 * 64
