"""The fast readings agree with the step-by-step reference readings."""
import pytest
from hypothesis import example, given, settings, strategies as st

from urnscan.extract import OverLong, Reading, Rejected, StreamContext, batch_reader, read_at, url_context
from urnscan.extract.fold import resume_at
from urnscan.namespaces import _text, checkdigits
from urnscan.scanner import urn_positions

from .test_reading_rules import JOINED_NAMES, WRITTEN_NAMES

PROFILES = ("rfc8141", "rfc2141", "draft-2012", "draft-1995")

# pieces that reach every branch of the reading rules: openers and closers,
# folds, URLs and form parameters, code (concatenation, placeholders,
# patterns), templates, elisions, entities, YAML and table layout
PIECES = [
    b"urn:", b"URN:", b"<urn:", b"<URN:", b"isbn:", b"ietf:params:", b"x-", b"nbn:de:", b"0451450523", b"abc",
    b"a-b", b"-", b":", b".", b",", b";", b"!", b"'", b"?", b"?+", b"?=", b"#", b"&", b"&amp;", b"&amp;amp;", b"&amp;lt;", b"&#38;", b"%2C", b"urn%3Aa%3Ab", b"%3A", b"%2Furn%3a", b"URN%3A",
    b"%", b"/", b"http://x.org/", b"?urn=", b"magnet:?xt=", b"(", b")", b"[", b"{", b"<", b">", b'"', b" ", b"  ",
    b"\t", b"\n", b"\r\n", b"\r", b"\\\n", b"\\", b"...", "\u2026".encode(), "\u2019".encode(), b"return:",
    b"x.urn:", b"~", b"=", b"1.", b"A", b"\n   ", b"\n\n", b" \n", b"-\n   ", b":\n\n  ", b".\n  ", b"\n  &x=1",
    b"\xff", b"|", b" | ", b"grant_type=", b"a=1&k=", b"\n | ", b"\n  :", b"\n- ", b"  - ", b"'urn:", b'"urn:',
    b"(urn:", b"`", "\u2018".encode(), "\u201c".encode(), b" + ", b" . $x", b" .. ", b" || ", b" % (", b"%s", b"%d",
    b"%02d", b"$x", b"${x}", b"#{x}", b"$(x)", b"@V@", b".*", b"(?P<", b"\\d", b"^", b"$", b"</", b"</span>", b"<span lang=x>", b"key:", b"+\\\n",
    b"\nC: ", b"S: ", b"\n>", b"\r\n&", b"\n  .0:",
    b"\n  k: v", b"Abstract", b"x-1_2", b"\n    The b.", b"UID:", b"X;A=b:", b"\n> ", b"> > ", b"*", b":*", "\u2010\n".encode(), b"~", b"~s", b"%v", b"%lu", b"s/", b"=~ ", b"$$", b"lex:", b"\n-", b"\n-1", b"urn:\n", b"\x1fa", "\u2021b".encode(), b"\\\\.", b" + ", b" ++ ", b" <> ", b" \\\n",
    # lists, a URL's query and path, literals joined or concatenated
    b",urn:", b",https://h/", b"?w=9", b"/?q=1&", b"/", b"'+x+'", b"'\n  '", b'"\n  "', b"' '", b"'{x}'",
    # roff hyphens and font changes, TeX macros, regular-expression delimiters,
    # PHP concatenation over lines
    b"\\fI", b"\\g_x_tl", b"-\\thesis", b"\\-", b"\\-b", b"'#urn:", b'"@urn:', b"#'", b'@"', b"!", b" .\n", b" . '",
    # hex dump lines, "#" placeholders, queries and labels over lines
    b"0010  ", b"00000010: ", b"27 75 72 6e ", b"7265 736f ", b"  |'", b"##", b"?\n   ", b"=\n   ",
    b"&amp;\n   ", b"k=v", b"\n :c\n      ", b"&lt;b&gt;", b":&#60;x",
    # character references quoting a URN in HTML source, before an end tag
    b"&quot;", b"&#39;", b"&#x22;", b"&#45;", b"&nbsp;", b"</span>",
    # URI parameters
    b";gr=", b";lr", b";item=", b"?;node=", b"sip:a@b",
    # a "URN:" label before a URN, the NID "urn" alone
    b"urn:urn:", b"URN:URN:dns:", b"<URN:URN:", b"urn:URN:urn:",
    # JavaScript: a regular-expression literal, a comparison before "||", a string's concat method
    b"(/urn:", b": /urn:", b"/i.", b"/,", b"/g)", b" === ", b" !== ", b" ||\n  ", b".concat(", b".concat \t(",
    b".conca", b" .concat(",
    # the close of a comment right after a name
    b"*/", b")*/", b"-->", b"--", b"<!-- ",
    # brackets after a name: a link's text, a footnote, a character class
    b"[URN]", b"[3]", b"[0-9]", b"[xX]?", b"[^:]",
    # digits written as letters
    b"n-nnnn", b"NNNN", b"xxxx", b"x.x.x", b".X.X.X",
    # letters and other characters outside ASCII, whole and broken
    "\u00e9".encode(), "\u00fc".encode(), "\u2014".encode(), "\u00e9".encode()[:1], "\u4e2d".encode(),
    # fullwidth forms: a suspected URN's prefix, letters and digits, punctuation, a broken one
    "\uff55\uff52\uff4e\uff1a".encode(), "\uff35".encode(), "rn\uff1a".encode(), "\uff10\uff15".encode(),
    "\uff0c".encode(), "\uff09".encode(), "\uff55".encode()[:2], "\u0430".encode(),
]
texts = st.lists(st.sampled_from(PIECES), max_size=40).map(b"".join)
readings = st.builds(Reading, st.booleans(), st.booleans(), st.booleans(), st.booleans(), st.booleans())
options = st.tuples(st.sampled_from(PROFILES), readings, st.sampled_from([4096, 67, 66, 40, 16]))


def _rules(data, positions, profile, reading, cap, final, window):
    """The scanner's loop over positions, every candidate read by the
    rules (read_at) with its URL context read from the whole prefix."""
    n = len(data)
    found, pos = [], 0
    for p in positions:
        if p < pos:
            continue
        got = read_at(data, p, n if p > n - window else p + window, profile=profile, reading=reading, cap=cap,
                      context=url_context(data[:p]))
        if got is None:
            pos = p + 1
        elif type(got) is Rejected:
            pos = max(got.end, p + 1)
        elif type(got) is OverLong:
            return found, pos, got
        else:
            found.append(got)
            pos = resume_at(data, p, got.end, got.rules)
    return found, pos, None


def _fast(data, positions, profile, reading, cap, final, window):
    return batch_reader(profile, reading, cap)(data, positions, 0, len(data), window, StreamContext(0), 0)


def _both(data, opts, final, window):
    """What the fast path and the rules read in ``data``, as the scanner
    calls them: before the end of the input, only positions with a whole
    window after them."""
    profile, reading, cap = opts
    n = len(data)
    positions = urn_positions(data, 0, n if final else n - window)
    args = (data, positions, profile, reading, cap, final, window)
    return _fast(*args), _rules(*args)


@given(texts, options, st.booleans(), st.integers(4, 400))
@settings(max_examples=600, deadline=None)
@example(b" urn:a:b.", ("rfc8141", Reading(), 4096), True, 100)  # the run ends at the end of the input
@example(b" urn:a:b.)x", ("draft-2012", Reading(trim=False), 4096), False, 10)  # ... or of the window
@example(b"s = 'urn:ab:c'.concat(x) + \"see urn:ab:d\" .concat (y)", ("rfc8141", Reading(), 4096), True, 400)
def test_fast_path_equals_the_rules(data, opts, final, window):
    fast, rules = _both(data, opts, final, window)
    assert fast == rules


#: a line ending in a name, then the next line, each with a line's marks
#: (a quoted reply's, a protocol trace's, a comment's, an indentation):
#: what decides whether a name goes on on the next line
_LINE_MARKS = [b"", b"> ", b">", b"> > ", b"C: ", b"S: ", b"  ", b"\t", b"| ", b"# ", b" * ", b"1. ", b"- "]
_folded_lines = st.builds(
    lambda mark, before, name, end, mark2, indent, nxt, after: (mark + before + name + end + b"\n" + mark2 + indent
                                                                + nxt + after),
    st.sampled_from(_LINE_MARKS),
    st.sampled_from([b" ", b"see ", b"(", b"'", b'"', b"<", b"=", b">", b",", b";", b"http://h/", b"http://h/?u=",
                     b"{", b"`", b"*"]),
    st.sampled_from([b"urn:a:b", b"URN:NBN:de:101:1-2", b"urn:a:b1", b"urn:oid:1.2.3", b"urn:a:b?x=1", b"urn:a:b:2"]),
    st.sampled_from([b"", b"-", b":", b".", b"/", b"?", b"=", b"&", b",", b")", b"'", b'"', b"-1", b":1", b".5"]),
    st.one_of(st.sampled_from(_LINE_MARKS), st.just(b"")),
    st.sampled_from([b"", b" ", b"  ", b"\t"]),
    st.sampled_from([b"de", b"-de", b":c", b".0:c", b"&d=e", b"12", b"-2 x", b"The next", b"is here", b"urn:a:c",
                     b"| c |", b"c)", b"c'", b"c>", b"C: x", b"\\c", b"[Page 3]", b"k: v", b"x-1_2", b"c d", b"", b"."]),
    st.sampled_from([b"", b" x", b"\n", b")", b"."]))
folded_texts = st.lists(_folded_lines, min_size=1, max_size=3).map(b"".join).map(
    lambda t: t.replace(b"\n", b"\r\n") if t[:1] == b">" else t)


@given(folded_texts, options, st.booleans(), st.integers(8, 120))
@settings(max_examples=400, deadline=None)
@example(b"> see urn:a:bc\n> -de\n", ("rfc8141", Reading(), 4096), True, 4096)
@example(b"C: http://h/urn:a:bc\nC: -de\n", ("rfc8141", Reading(), 4096), True, 4096)
@example(b" urn:a:b?x=1\r\n&d=e\r\n", ("rfc8141", Reading(), 4096), True, 4096)
def test_fast_path_equals_the_rules_across_lines(data, opts, final, window):
    fast, rules = _both(data, opts, final, window)
    assert fast == rules


_HEX_DIGITS = "0123456789abcdefABCDEF"
_hex = st.one_of(*(st.text(alphabet=_HEX_DIGITS, min_size=n, max_size=n) for n in (2, 4, 8)),
                 st.text(alphabet=_HEX_DIGITS, min_size=1, max_size=9))
_blanks = st.sampled_from(["", " ", " ", " ", "  ", "   ", "    ", "\t"])
#: lines shaped like hex dumps and near misses: an offset, groups of hex
#: digits of any width and spacing, a gap, a text column holding "urn:"
_dump_lines = st.builds(
    lambda indent, offset, colon, groups, gap, bar, text: (indent + offset + colon + "".join(groups) + gap + bar
                                                            + text + "\n"),
    _blanks, _hex, st.sampled_from(["", ":"]),
    st.one_of(st.lists(st.tuples(st.sampled_from([" ", "  "]), st.sampled_from([_HEX_DIGITS[:2], _HEX_DIGITS[:4]]))
                       .map("".join), min_size=3, max_size=16),
              st.lists(st.tuples(_blanks, _hex).map("".join), max_size=18)),
    _blanks, st.sampled_from(["", "|", "'"]),
    st.sampled_from(["urn:ietf:params", "x$urn:ietf:par", "sedarkurn:oma:xm", ".urn:oid:1.3.", "urn:", "abc"]))


@given(st.lists(_dump_lines, min_size=1, max_size=6).map(lambda lines: "".join(lines).encode()), options,
       st.booleans(), st.integers(4, 400))
@settings(max_examples=400, deadline=None)
@example(b"00000010  27 75 72 6e 3a 69 65 74  66 3a 70 61 72 61 6d 73  |'urn:ietf:params|\n",
         ("rfc8141", Reading(), 4096), True, 100)
def test_fast_path_equals_the_rules_on_hex_dumps(data, opts, final, window):
    fast, rules = _both(data, opts, final, window)
    assert fast == rules


@given(st.lists(st.one_of(JOINED_NAMES, WRITTEN_NAMES), min_size=1, max_size=4).map(b" ".join), options,
       st.booleans(), st.integers(4, 400))
@settings(max_examples=400, deadline=None)
def test_fast_path_equals_the_rules_on_names_with_references_and_marks(data, opts, final, window):
    """Names where references, break opportunities, folds, escapes, quotes
    and wrappers meet (tests/test_reading_rules.py)."""
    fast, rules = _both(data, opts, final, window)
    assert fast == rules


# (text, how many of its candidates the rules read): a "urn:" without a
# NID and its ":" is passed over unread, but where a fold may carry it
# over a line break (a "urn:" in lower case or on a URL, a NID token or
# an empty line next), a wrapper may start, or a character reference go on
WITHOUT_NID = [
    (b'<p xmlns:h="urn:x-hex" a=\'urn:\'>&quot;urn:graph&quot; urn: x (urn:example) urn:', 0),
    (b" urn:a:b (urn:a:b) urn:", 0),
    (b"urn:\nisbn:0451450523", 1),
    (b"see URN:\nisbn:0451450523 /URN:\r\n  isbn:0451450523 URN:\n\n  isbn:0451450523", 1),  # a URL's goes on
    (b"a string of urn:\n   and nothing else; a line marked URN:\n> label", 0),  # no NID next, or not typeset
    (b"urn:\n\n  nbn:de:1-2\n", 1),  # across an empty line, onto a lone token
    (b"<urn:x-hex>", 1),
    (b'"urn:uddi&#45;org:api_v2:x"', 1),
]


@pytest.mark.parametrize("accelerated", [False, True])
@pytest.mark.parametrize("text, read", WITHOUT_NID)
def test_candidates_without_a_nid_are_passed_over_unread(monkeypatch, text, read, accelerated):
    from urnscan.extract import fast

    if accelerated and fast.PLAIN_READS is None:
        pytest.skip("the accelerator is not built")
    calls = []

    def counted(*args, **kw):
        calls.append(args[1])
        return read_at(*args, **kw)

    monkeypatch.setattr(fast, "read_at", counted)
    reader = fast.make_batch.__wrapped__("rfc8141", Reading(), 4096, fast.PLAIN_READS if accelerated else None)
    positions = urn_positions(text, 0, len(text))
    got = reader(text, positions, 0, len(text), 4096, StreamContext(0), 0)
    assert len(calls) == read
    assert got == _rules(text, positions, "rfc8141", Reading(), 4096, True, 4096)


def test_raw_is_the_span():
    data = b"see urn:a:b-\n  c, <urn:x:y\n z> and http://h/urn:n:s&q and urn:e:f. end"
    found, _, _ = _fast(data, urn_positions(data, 0, len(data)), "rfc8141", Reading(), 4096, True, 100)
    assert len(found) == 4
    for cand in found:
        assert cand.raw == data[cand.start:cand.end].decode("ascii")


def _pct_decode_reference(text: str):
    """:func:`pct_decode`, one character at a time: printable ASCII stays,
    ``%HH`` becomes its octet (RFC 3986 section 2.1), anything else fails."""
    out = bytearray()
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "%":
            pair = text[i + 1:i + 3]
            if len(pair) != 2 or not set(pair) <= set("0123456789ABCDEFabcdef"):
                return None
            out.append(int(pair, 16))
            i += 3
            continue
        code = ord(ch)
        if not 0x21 <= code <= 0x7E:
            return None
        out.append(code)
        i += 1
    return bytes(out)


@given(st.text(alphabet="%0aF9gzZ:/.-~\x00\x7f\u00e9 ", max_size=12))
@example("a%2cb%2C")
@example("%2")
def test_pct_decode_matches_the_reference(text):
    assert _text.pct_decode(text) == _pct_decode_reference(text)


def _dnb_urn_check_reference(urn_without_check: str):
    """:func:`dnb_urn_check` one character at a time: the code digits of
    every character, each weighted by its position from 1, the sum divided
    by the last digit; the check digit is the last digit of the quotient."""
    codes = []
    for ch in urn_without_check.upper():
        code = checkdigits._DNB_CODES.get(ch)
        if code is None:
            return None
        codes.append(code)
    digits = "".join(codes)
    if not digits or digits[-1] == "0":
        return None
    weighted = sum(position * int(d) for position, d in enumerate(digits, start=1))
    return str(weighted // int(digits[-1]) % 10)


@given(st.text(alphabet="0123456789ABXZabz:-_/.%\u0131\u017f\u00e9\u00df\ufb01\u212a", max_size=30))
@example("urn:nbn:de:bvb:19-14664")  # urn:nbn:de:bvb:19-146642 without its check digit
@example("urn:nbn:de:gro\u00df-1")  # "\u00df" upper-cases to "SS", which the table codes
@example("")
def test_dnb_check_matches_the_reference(text):
    assert checkdigits.dnb_urn_check(text) == _dnb_urn_check_reference(text)


@given(st.text(alphabet="0123456789X\u0663\u00b2", max_size=80))
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
    b"<urn:a>", b"<urn:a:>", b"x<urn:a:>", b" urn:a:b  \n c", b" urn:a:b.\n  c:d", b" urn:a:b-\n  c", b" urn:a:b\\\n  c", b" urn:a:b(c)",
    b" urn:a:b(c", b" urn:a:b)", b"\turn:a:b;", b" urn:a:", b" urn:a:.", b"x urn:" + b"a" * 70 + b":b",
    b" | urn:a:b:  | x |\n |  c:d      | y |\n", b"|urn:a:b-|\n|c|\n", b" urn:a:b |x", b" urn:a:b\n   :c\n",
    b"  urn:a:b:\n    k: v\n", b" urn:a:b... x", b" urn:a:b:... x", b" urn:a:b-\xe2\x80\xa6", b" urn:a:...b", b" k=urn:a:b&c=d", b"x=1&k=urn:a:b&c", b"- urn:a:b:\n\n    k: v\n", b"  urn:a:b:  \n  k\n",
    b" urn:a:b:\n  urn:c:d\n", b"'urn:a:b'", b"x='urn:a:' + y", b'"urn:a:b" . $x', b'"urn:a:%s" % x', b"'urn:a:b' || c",
    b"`urn:a:${x}`", b"(urn:a:b(c)d) e", b"(urn:a:b) c)", b"'urn:a:o'b'", b" urn:a:o'b", b"^urn:a:.*$", b" urn:a:b\\d",
    b"<id>urn:a:</id>", b" urn:a:b+\\\n  c", b'"urn:a:b" "c";', b"'urn:a:b'\n  'c' x", b'"urn:a:b"\n"""', b" urn:a:b:\n\n  Abstract\n", b" urn:a:b:\n\n  x-1_2\n",
    b'"urn:a:b-\n  c" d', b"'urn:a:b-\n  c'd' e", b"=urn:a:b", b">urn:a:b<", b",urn:a:b;",
    b"http://x/urn:a:b-\n  c", b"?u=urn:a:b:\r\nc-d\r\n", b"?u=urn:a:b\n  :c\n", b"/urn:a:b |c", b"/urn:a:b\\\n  c",
    b"/urn:a:b-\n  c&d", b"/urn:a:b?q=\n  c", b"/urn:a:b.\n  Next",
    b"  urn:a:b:\n    The b.\n", b"- urn:a:b:\n    c d\n", b"  urn:a:b:\n    c\n",
    b"s;gr=urn:a:b-\n  c;lr>", b"s;gr=urn:a:b-\n  ;lr>",
    b" urn:a:b/urn:c:d x", b"'/urn:a:b/urn:c:d/*'", b"<n>urn:a:b/URN:c:d</n>", b" urn:a:b/urnx:c ",
    b"UID:urn:a:b\r\n c\r\n", b" X;A=\"q\":urn:a:b\n  c\n", b"Note: urn:a:b\n c", b"UID:urn:a:b\n\tc d\n",
    b"  urn:a:b: The c d\n    e\n", b"  urn:a:b: The c\n\n", b"  urn:a:b: The c\n  d\n", b"  urn:a:b: the c\n    e\n",
    b'"urn:a:b" +\n "c"', b"'urn:a:b' . 'c'", b'"urn:a:b"\n + "c" + d', b'"urn:a:b" ++ "c"', b'"urn:a:b" <> "c"',
    b'"urn:a:b" \\\n "c"', b'"urn:a:b" ... "c"', b'"x="urn:a:b" + "c"', b"'urn:a:b' +++ 'c'",
    b" =~ s/urn:a:b/c/;", b" s/urn:a:b=//x;", b"qr{urn:a:b}", b"/items/urn:a:b x", b'"urn:a:b\\\\.c"', b" m#urn:a:b#",
    b' urn:a:b:"cD".', b' &quot;urn:a:b:&quot;Cd', b" urn:a&#45;b:c d", b"<urn:a:b/>", b"&lt;urn:a:b/&gt;", b" (x|urn:a:b(c|d)",
    b"'urn:a:b:</span><span class=\"si\">%s</span>", b"'urn:a:b-</span><span class=\"s\">x</span>",
    b'"/urn:a:b/*";', b"http://h/urn:a:b/*/c x", b"/urn:a:/*",
    " urn:a:bc\u2010\n  de f".encode(), " urn:a:bc\u2010 de".encode(), "=urn:a:b\u2010\n c".encode(),
    b" urn:a:b[RFC4791] c", b" urn:a:b[x] c", b" urn:a:b:\n  c1 d", b" urn:a:b:\n  c d",
    b"<urn:a:...>", b"<urn:a:b..c>", b" urn:a:b-* c", b" urn:a:b:\n\n<c/>", b" urn:a:b:1:\n c",
    b' "urn:a:b1\n  c2d" e', b' "urn:a:b1 \r\n  c" e', b'="urn:a:b\n  c.xsd"', b' "urn:a:b-\n  c2"',
    b" urn:a:xxxx-1 e", b' "urn:a:XXXX-xxxx" e', b" urn:a:bxxxx e", b" urn:a:b:2\n  .0:c:d e", b" urn:a:b:2\n  .5 e", b" urn:a:b2\n.\n", b' "urn:a:b=c&urn:a:d" x', b" urn:a:b&urn:c:d.", b"(see http://h/urn:a:b1):", b"(URI\n urn:a:b:1):\n", b" urn:a:f(b): x", b"<allOneLine>\n;g=urn:a:b1\nc2;x\n</allOneLine>", b"  <allOneLine>\n  To: <s:a;g=urn:a:b1\n  c2>\n  </allOneLine>",
    b"</allOneLine>\n=urn:a:b1\nc2 x", b"<allOneLine>\n urn:a:b\n  c\n", b"\x1faurn:a:b\x1f2x", b"=024  7\\$aurn:a:b$2x", b"=856  4\\$uhttp://h/?u=urn:a:b$xc", b" $aurn:a:b$2x",
    "\u2021aurn:a:b \u20212x".encode(), b"\x1f-urn:a:b", b"x\x1faurn:\na:b",
    b"\\fIurn:a:b\\fR x", b'"x\\nurn:a:b\\n"', b'"\\u003curn:a:b\\u003e"', b"'\\x3curn:a:b'", b" q=%22urn:a:b%22 x", b' "x urn:a:b" + y', b' "x=urn:a:b:" + y', b"http://h/?a=b&c=urn:a:b\" + y", b" urn:a:b+http://c x", b"http://h/?s=urn:a:b%20urn:a:c&x", b" urn:a:b%2Curn:a:c ", b" %3Curn:a:b%3e ", b'"\\\\nurn:a:b"', b"1,urn:a:b,c\n", b"&quot;urn:a:b&shy;c&quot;<", b" urn:a:b&#173;c d", b"&quot;urn:a:b&#8203;&quot; x", b" urn:a:b;urn:a:c d", b" urn:a:b;22;urn:a:c", b"**urn:a:b**: c", b"_urn:a:b_c_ d", b"x_urn:a:b_", b"*urn:a:b:*", b"__urn:a:b\n  c__", b"1,urn:a:b,urn:a:c,d", b'1,"urn:a:b,c",d', b"1,urn:a:b\n2,urn:a:c,", b"\\f(CWurn:a:b\\-c\\*(C'\\fR", b"\\fIurn:a:b\\s0 c", b" urn:a:b\\s+ c", b" urn:a:b\\*[q] c", b"<p>urn:a:b<wbr>c</p>", b" urn:a:1.2<WBR/>.3 x", b" urn:a:b<wbr >c", b" urn:a:b<wbrx>c",
    b" urn:a:b<wbr>", b" urn:a:b<wbr> c", " urn:a:b\u200bc d".encode(), " urn:a:b\u00adc d".encode(),
    b'\n  "urn:a:b!",\n', b'{"i":"https://h/?u=urn:a:b!"}', b' "https://h/urn:a:b." x', b'href="http://h/urn:a:b."',
    b"x='http://h/urn:a:b.'", b'= "http://h/urn:a:b."\n', b', "urn:a:b.")', b' "urn:a:b." x', b'"urn:a:b*",',
    b" urn:\na:b c", b" urn:\r\n  a:b", b"<urn:\n a:b>", b"=urn:\na:b&c", b" urn:\nurn:a:b", b" urn:\nA b",
    b" urn:a:b1\n-2-3.", b" urn:a:bc\n-de\n", b" urn:a:bc\n-de f", b" urn:a:b\n- c", b"/urn:a:b1\r\n-2 x",
    b" urn:a:b$$c d", b"$$0http://h/urn:a:b$$9c", b" urn:a:$$b", b" urn:lex:a:b$c d", b" urn:lex:a:${b}",
    b"'http://h/urn:a:b': c", b" http://h/urn:a:o'b:c x", b"'http://h/?u=urn:a:b'&c", b"('http://h/urn:a:b')",
    b'"urn:a:b" .\nns5:c d', b'"urn:a:b" .\nFoo::c', b'"urn:a:b" . n:', b'"urn:a:b" . _:b0 x',
    b' "urn:a:b:"Cd', b' "urn:a:b:"c', b" 'urn:a:b:'Cd",
    b'"urn:a:%v"', b'"urn:a:%08lx-b"', b'"urn:a:~s"', b'"urn:a:~8.16.0b"', b" urn:a:b~c ", b" urn:a:~b:1 ",
    b'"urn:a:b" || c', b"'urn:a:b' || c", b'"urn:a:b"||c',
    b"x urn:a:b:* y", b"x urn:a:b:*.", b"x urn:a:b* y", b"'urn:a:b/*'",
    b"x urn:a:b:1:</p>", b"x urn:a:b:1:\n\n  <x/>", b"x urn:a:b:1.0:\n c", b"x urn:a:1:</p>",
    b"> x urn:a:b-\n> c\n", b"> > <urn:a:b:\n> > c> d", b"> <urn:a:b\n>", b"<urn:a:b\n> c>", b">> urn:a:b-\n> > c",
    b"<urn:a:b-\n  1>", b"<urn:a:b\r\n c\td>", b"<urn:a:b \n\t c>", b"<urn:a:b\n c\n>", b"<urn:a:b.\n .c>",
    b"<urn:a:b\n c/>", b"<urn:a:b\n c/d/>", b"<urn:a:b\n\n c>", b"<URN:A:B\n C>x",
    b" urn:a:b.\n\n c", b" urn:a:b-\n \n c", b" urn:a:b.\r\n\r\n", b" urn:a:b.\r\nc\n", b" urn:a:b?\r\r c",
    b" urn:oid:2.999.37.\nThe x", b" urn:a:b.\nC: x", b"C: urn:a:b.\nC: Dx", b" urn:a:b.\n> The x", b" urn:a:b.\nA:",
    b" urn:a:b-\r\n  c2 x", b" urn:a:b-\n  c, x", b" urn:a:b-\n  is x", b"\turn:x-y:1-2-\n3_4 x", b" urn:a:xxxx-\n  1 x",
    b" urn:a:b-\n  c:. x", b" urn:a:b-\n  c;\n", b" urn:a:b-\n  c!? x", b"\nurn:a:b-\n  C: x", b" urn:a:b-\n  c\n  d",
    # a fold past a quoted reply's marks or a protocol trace's, or after CRLF
    b"> see urn:a:bc\n> -de\n", b"> > urn:a:b:1\n> > :c\n", b">x urn:a:b?x=1\n>&d=e\n", b"C: urn:a:bc\nC: -de\n",
    b"S: <x>urn:a:b:1\nS: :c</x>\n", b" urn:a:b?x=1\r\n&d=e\r\n", b"> see urn:a:bc\n> de\n", b" urn:a:bc\nC:d\n",
    b"> http://h/urn:a:bc\n> -de\n", b"C: http://h/urn:a:bc\nC: -de\n", b"see http://h/urn:a:b:2\n  .0:c x",
    b" urn:a:b/\n\n   [Page 2]\n c", b" urn:a:b-\n\nRFC 1 [Page 3]\n\fRFC 1  Title\n\n   c d", b" urn:a:b=\n\n&c=d",
]


@pytest.mark.parametrize("snippet", SNIPPETS)
@pytest.mark.parametrize("profile", PROFILES)
def test_fast_path_on_snippets_at_every_window(snippet, profile):
    for reading in (Reading(), Reading(False, False, False, False, False), Reading(pair=False, code=False)):
        for window in range(4, len(snippet) + 2):
            for final in (True, False):
                fast, rules = _both(snippet, (profile, reading, 4096), final, window)
                assert fast == rules, (reading, window, final)


def test_count_lf_matches_bytes_count():
    from urnscan.scanner import count_lf

    data = (b"a\nbb\r\n\n" * 5000) + b"x" * 9000 + b"\n"
    for a, b in ((0, len(data)), (3, 20000), (100, 100), (0, 8191), (5, 8197), (len(data) - 9001, len(data))):
        assert count_lf(data, a, b) == data.count(b"\n", a, b)


def test_judge_tails_are_the_judgement_and_shared():
    from urnscan.judge import UrnJudge, judge
    from urnscan.model import Hit

    at = Hit._fields.index("profile") - Hit._fields.index("valid")  # the profile's place in a tail
    for profile in PROFILES:
        first, second = UrnJudge(profile), UrnJudge(profile)
        for urn in ("urn:isbn:0451450523", "URN:NBN:de:gbv:089-3321752945", "urn:a:b", "urn:x-y:%zz"):
            j = judge(urn, profile)
            assert first.tail(urn) == (*j[:at], profile, *j[at:])
            assert second.tail(urn) is first.tail(urn)


# NIDs whose rules differ by profile (reserved, experimental, informal, too
# short or long, a hyphen at an end) and namespaces with checks and keys
_NIDS = ["urn", "URN", "x-a", "X-Demo", "urn-7", "urn-07", "isbn", "ISBN", "nbn", "uuid", "issn", "ietf", "oid",
         "example", "a", "a-", "-a", "ab", "a" * 32, "a" * 33, "0", "12", "lex", "doi", "iso", "isan", "EPC"]
_NSS_CHARS = "0123456789-aAxXfF.:;,()+=@$_!*'/%2c?#~&"
_written_urns = st.builds(lambda scheme, nid, nss: f"{scheme}:{nid}:{nss}", st.sampled_from(["urn", "URN", "uRn"]),
                          st.sampled_from(_NIDS) | st.text("aZ9-", min_size=1, max_size=4),
                          st.text(_NSS_CHARS, max_size=16) | st.sampled_from(
                              ["0451450523", "0-451-45052-3", "9780451450524", "de:bvb:19-146642", "1.2.3",
                               "f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "rfc:2141", "0317-8471", "a/", "a%2Cb"]))


@given(_written_urns, st.sampled_from(PROFILES), st.booleans())
@settings(max_examples=3000, deadline=None)
@example("urn:isbn:0451450523", "rfc8141", False)
@example("urn:urn:x", "rfc2141", False)
@example("URN:X-Demo:a", "rfc8141", True)
def test_judging_a_plain_name_equals_judging_it_in_full(urn, profile, own_registry):
    """A plain name (``_abnf.PLAIN_URN``) is judged from its NID; the
    judgement is the one the profiles' grammars give, under every
    registry (the NID's cache is per registry)."""
    import urnscan.judge as judge_module
    from urnscan.namespaces.registry import FORMAL, NamespaceEntry, Registry, registry_named

    registry = Registry("2001-01-01", (NamespaceEntry("example", FORMAL),)) if own_registry else registry_named(None)
    judge_module._PLAIN_NIDS.clear()
    for _ in range(2):  # the NID judged, then taken from the cache
        assert judge_module._judged(urn, profile, registry) == judge_module._judged_in_full(urn, profile, registry)


def test_plain_names_are_judged_per_registry():
    from urnscan.judge import judge
    from urnscan.namespaces.registry import FORMAL, NamespaceEntry, Registry

    mine = Registry("2001-01-01", (NamespaceEntry("zzyzx", FORMAL),))
    assert judge("urn:zzyzx:1").namespace_status == "unregistered"
    assert judge("urn:zzyzx:1", registry=mine).namespace_status == "formal"
    assert judge("urn:isbn:0451450523", registry=mine).namespace_status == "unregistered"
    assert judge("urn:zzyzx:1").namespace_status == "unregistered"


def _counted_judge(monkeypatch, empty_cache: bool = True, **limits):
    """The judge module with ``limits`` set (SHARED_CACHE_SIZE, ...), its
    cache emptied, and the list every URN judged afresh is appended to."""
    import urnscan.judge as judge_module

    for name, value in limits.items():
        monkeypatch.setattr(judge_module, name, value)
    if empty_cache:
        for name in ("_SHARED_TAILS", "_OLD_TAILS", "_YOUNG_CHARS"):
            monkeypatch.setattr(judge_module, name, {})
    calls = []
    real = judge_module._judged
    monkeypatch.setattr(judge_module, "_judged",
                        lambda urn, profile, registry: calls.append(urn) or real(urn, profile, registry))
    return judge_module, calls


def test_judgement_cache_keeps_urns_that_come_back(monkeypatch):
    """Above SHARED_CACHE_SIZE distinct URNs, a URN met again and again
    stays cached (two generations, not one dict cleared when full)."""
    judge_module, calls = _counted_judge(monkeypatch, SHARED_CACHE_SIZE=64)
    j = judge_module.UrnJudge()
    for i in range(1000):
        assert j.tail("urn:isbn:0451450523") == j.tail("urn:isbn:0451450523")
        j.tail(f"urn:example:distinct-{i}")
    assert calls.count("urn:isbn:0451450523") == 1
    assert len(calls) == 1001
    total = sum(map(len, (*judge_module._SHARED_TAILS.values(), *judge_module._OLD_TAILS.values())))
    assert total <= 2 * 64


def test_judgement_cache_is_bounded_by_the_length_of_its_urns(monkeypatch):
    """A generation ends at SHARED_CACHE_CHARS characters of URNs as well
    as at SHARED_CACHE_SIZE URNs: long distinct URNs keep it small, and a
    URN that keeps coming back stays cached."""
    judge_module, calls = _counted_judge(monkeypatch, SHARED_CACHE_CHARS=10_000)
    j = judge_module.UrnJudge()
    for i in range(200):
        j.tail("urn:isbn:0451450523")
        j.tail(f"urn:example:{i:04d}:" + "x" * 980)  # 997 characters
    assert calls.count("urn:isbn:0451450523") == 1 and len(calls) == 201
    kept = [urn for generation in (*judge_module._SHARED_TAILS.values(), *judge_module._OLD_TAILS.values())
            for urn in generation]
    assert sum(map(len, kept)) <= 2 * 10_000 and len(kept) < 30


def test_forgotten_judgements_are_judged_again(monkeypatch):
    judge_module, calls = _counted_judge(monkeypatch, empty_cache=False)
    j = judge_module.UrnJudge()
    judge_module.forget_judgements()
    first = j.tail("urn:example:forgotten")
    assert j.tail("urn:example:forgotten") == first
    assert calls == ["urn:example:forgotten"]
    judge_module.forget_judgements()
    assert j.tail("urn:example:forgotten") == first
    assert calls == ["urn:example:forgotten"] * 2


def test_rows_of_a_buffer_past_two_cache_generations(monkeypatch):
    """One buffer with more distinct URNs than two generations of the cache
    hold, and one URN that keeps coming back: the compiled placing, which
    reads judgements from the young generation only, gives the rows of the
    Python placing (no accelerator), in order, and judges no URN more than
    twice."""
    import urnscan.scanner as scanner_module
    from urnscan import scan_bytes

    text = "".join(f"urn:example:n{i} and urn:isbn:978{i:010d}, then urn:example:again.\n" for i in range(300))
    data = text.encode()
    judge_module, calls = _counted_judge(monkeypatch, SHARED_CACHE_SIZE=64)
    monkeypatch.setattr(judge_module, "_JUDGES", {})  # (the scan's judge, made afresh for the emptied cache)
    placed = list(scan_bytes(data, source="t"))
    assert scanner_module.PLACE_ROWS is None or max(map(calls.count, set(calls))) <= 2
    monkeypatch.setattr(scanner_module, "PLACE_ROWS", None)
    assert [tuple(hit) for hit in scan_bytes(data, source="t")] == [tuple(hit) for hit in placed]
    assert [hit.urn for hit in placed][:4] == ["urn:example:n0", "urn:isbn:9780000000000", "urn:example:again",
                                                "urn:example:n1"]
    assert len(placed) == 900


def _real_texts():
    """Real text: the samples shipped in data/samples and, when the shared
    folder is beside the checkout, the gold set's snippets."""
    import gzip
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    for path in sorted((root / "data" / "samples").iterdir()):
        data = path.read_bytes()
        yield path.name, gzip.decompress(data) if path.suffix == ".gz" else data
    gold = root.parent / "shared" / "eval" / "gold-public.jsonl"
    if gold.exists():
        for line in gold.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            yield record["id"], record["text"].encode("utf-8")


@pytest.mark.parametrize("reading", [Reading(), Reading(pair=False), Reading(code=False), Reading(fold=False),
                                     Reading(False, False, False, False, False)])
def test_fast_path_equals_the_rules_on_real_text(reading):
    checked = 0
    for name, data in _real_texts():
        positions = urn_positions(data, 0, len(data))
        for profile in PROFILES:
            args = (data, positions, profile, reading, 4096, True, 10_000)
            assert _fast(*args) == _rules(*args), name
        checked += len(positions)
    assert checked > 100
