"""The compiled byte loops (urnscan/_accel.c) agree with their Python
references (urn_positions, looks_binary, context_snippet, count_breaks, and
the reading loop of extract.fast with and without plain_reads) on generated
and real input, and URNSCAN_PURE_PYTHON turns them off."""
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from urnscan.context import context_snippet_py
from urnscan.extract import BOUNDARY_BYTES, Reading, StreamContext
from urnscan.extract.fast import make_batch
from urnscan.scanner import count_breaks_py, urn_positions_py
from urnscan.sources.reader import BINARY_BLOCK_SIZE, looks_binary_py

from . import accel_build
from .conftest import ROOT, SHARED
from .test_fast_paths import PROFILES, texts as READING_TEXTS


def _accelerator():
    """The package's compiled module; when the checkout under test has none
    (a plain ``pip install .`` builds it into site-packages), the same
    source built here.  Skipped only where no C compiler can build it."""
    try:
        from urnscan import _accel
        return _accel
    except ImportError:
        pass
    import tempfile

    cc = accel_build.compiler()
    if cc is None:
        pytest.skip("no C compiler: the Python code is all there is", allow_module_level=True)
    built, complaint = accel_build.build(Path(tempfile.mkdtemp(prefix="urnscan-accel-")), cc)
    assert built is not None, complaint
    return accel_build.load(built)


accel = _accelerator()

SAMPLES = sorted(p for p in (ROOT / "data" / "samples").iterdir() if p.is_file())

#: pieces that make "urn:" and its near misses, token boundaries, the
#: bytes the binary rule counts, and bytes outside ASCII
PIECES = st.sampled_from([
    b"urn:", b"URN:", b"uRn:", b"Urn:", b"urn", b"rn:", b"n:", b"ur", b":", b"::", b"u", b"r", b"n", b"U", b"N",
    b"a", b"Z", b"7", b"+", b"-", b".", b"_", b" ", b"\t", b"\n", b"\r", b"<", b"(", b"/", b"=",
    b"\x00", b"\x01", b"\x08", b"\x0b", b"\x0e", b"\x1b", b"\x1f", b"\x7f", b"\x80", b"\xff", b"\xba",
])
BUFFERS = st.lists(st.one_of(PIECES, st.binary(max_size=6)), max_size=80).map(b"".join)
#: window ends: inside, at, around and far past the buffer, and negative
EDGES = st.one_of(st.integers(-5, 120), st.sampled_from([2 ** 62, 2 ** 63 - 1, 2 ** 63, 2 ** 70, -2 ** 70]))


def as_types(buf: bytes):
    return [buf, bytearray(buf), memoryview(buf), memoryview(b"#" + buf + b"#")[1:-1]]


def python_positions(buf, start, stop):
    try:
        return urn_positions_py(buf, start, stop)
    except ValueError as err:
        return type(err)


def compiled_positions(buf, start, stop):
    try:
        return accel.urn_positions(buf, start, stop)
    except ValueError as err:
        return type(err)


def test_boundary_bytes_are_the_readers():
    assert frozenset(accel.BOUNDARY_BYTES) == BOUNDARY_BYTES


@pytest.mark.parametrize("buf, start, stop, expected", [
    (b"urn:a:b", 0, 7, [0]),
    (b"urn:a", 0, 1, [0]),  # stop + 3 reaches the ":"
    (b"urn:a", 0, 0, []),
    (b" urn:a", 0, 1, []),
    (b"urn:", 0, 4, []),  # at offset 0 a letter or digit must follow
    (b" urn:", 0, 5, [1]),  # elsewhere the end of the buffer may follow
    (b"URN:x urn:-", 0, 11, [0]),
    (b"xurn:a return:b +urn:c .urn:d -urn:e", 0, 40, []),
    (b"\x00urn:a\xffurn:b:urn:c", 0, 20, [1, 7, 13]),
    (b"urn:a urn:b", 1, 20, [6]),
    (b"urn:a urn:b", 7, 20, []),
    (b"urn:a urn:b", 5, 2 ** 80, [6]),
    (b"urn:a", 2 ** 80, 2 ** 80, []),
    (b"urn:a", 3, 1, []),
    (b"", 0, 0, []),
    (b"urn:a", -1, 5, ValueError),
])
def test_positions_table(buf, start, stop, expected):
    for b in as_types(buf):
        assert compiled_positions(b, start, stop) == expected
    assert python_positions(buf, start, stop) == expected


@settings(deadline=None, max_examples=1500)
@given(BUFFERS, EDGES, EDGES)
@example(b"urn:a", 0, 0)
@example(b"Urn:9", 0, 2)
@example(b"aurn:", 1, 5)
def test_positions_agree(buf, start, stop):
    expected = python_positions(buf, start, stop)
    assert python_positions(bytearray(buf), start, stop) == expected
    for b in as_types(buf):
        assert compiled_positions(b, start, stop) == expected


@settings(deadline=None, max_examples=300)
@given(BUFFERS, st.data())
def test_positions_agree_on_every_window_end(buf, data):
    """Every stop near the end of the buffer, where stop + 3 is clipped."""
    start = data.draw(st.integers(0, len(buf) + 1))
    for stop in range(max(0, len(buf) - 6), len(buf) + 2):
        assert accel.urn_positions(buf, start, stop) == urn_positions_py(buf, start, stop)


def marked_urn_py(buf: bytes, mark: bytes, start: int, stop: int) -> int:
    """next_marked_urn's answer, found with bytes.find: the mark after a
    "urn" in any case, the whole mark before stop."""
    at = buf.find(mark, max(start, 3), stop)
    while at >= 0 and buf[at - 3:at].lower() != b"urn":
        at = buf.find(mark, at + 1, stop)
    return at


#: what the marks after "urn" look like, and their near misses
MARKED = st.lists(st.one_of(PIECES, st.sampled_from([b"\\:", b"\\", b"%3", b"%3A", b"%", b"UrN", b"urn\\:a",
                                                     b"uRn%3a"])), max_size=60).map(b"".join)


@settings(deadline=None, max_examples=1000)
@given(MARKED, st.sampled_from([b"\\:", b"%3"]), EDGES, EDGES)
@example(b"urn\\:", b"\\:", 0, 5)
@example(b"urn\\:", b"\\:", 0, 4)  # the mark must end before stop
@example(b"rn%3", b"%3", 0, 4)
def test_marked_urn_search_agrees(buf, mark, start, stop):
    if start < 0 or stop < 0:
        with pytest.raises(ValueError):
            accel.next_marked_urn(buf, mark, start, stop)
        return
    expected = marked_urn_py(buf, mark, start, stop)
    for b in as_types(buf):
        assert accel.next_marked_urn(b, mark, start, stop) == expected


def test_positions_reject_what_is_not_a_buffer():
    for bad in ("urn:a", 12, None):
        with pytest.raises(TypeError):
            accel.urn_positions(bad, 0, 5)
    with pytest.raises(TypeError):
        accel.urn_positions(b"urn:a", 0.0, 5)
    with pytest.raises(TypeError):
        accel.urn_positions(b"urn:a", 0)


def _binary_block(n_text: int, controls: bytes) -> bytes:
    return b"a" * n_text + controls


@pytest.mark.parametrize("block, expected", [
    (b"", False),
    (b"\x00", False),
    (b"\x00\x00", True),
    (_binary_block(1998, b"\x00\x00"), False),  # 2 NULs in 2000 bytes: exactly 0.1 %
    (_binary_block(1997, b"\x00\x00"), True),
    (_binary_block(38, b"\x01\x02"), False),  # 2 in 40: exactly 5 %
    (_binary_block(37, b"\x01\x02"), True),
    (_binary_block(37, b"\x7f\x00"), True),
    (_binary_block(37, b"\t\n"), False),
    (_binary_block(37, b"\x0b\x0c\r\x1b"), False),
    (_binary_block(37, b"\x80\xff\xfe"), False),
    (_binary_block(BINARY_BLOCK_SIZE, b"\x00" * 1000), False),  # past the first block
    (_binary_block(BINARY_BLOCK_SIZE - 100, b"\x00" * 1000), True),
    ("a\x00\x00".encode("utf-16-le"), True),
])
def test_binary_table(block, expected):
    assert looks_binary_py(block) is expected
    for b in as_types(block):
        assert accel.looks_binary(b) is expected


#: blocks near both thresholds: text with runs of counted bytes
CONTROL = st.sampled_from(list(range(0, 0x20)) + [0x7F])
BLOCKS = st.builds(
    lambda text, n, inserts: _insert(text * n, inserts),
    st.sampled_from([b"a", b"plain text\n", b"\xc3\xa9\xff", b"\t\r\n\x1b[0m"]),
    st.integers(0, 9000),
    st.lists(st.tuples(st.integers(0, 2 ** 20), CONTROL, st.integers(1, 300)), max_size=8),
)


def _insert(base: bytes, inserts) -> bytes:
    out = bytearray(base)
    for at, byte, count in inserts:
        at %= len(out) + 1
        out[at:at] = bytes([byte]) * count
    return bytes(out)


@settings(deadline=None, max_examples=600)
@given(st.one_of(BLOCKS, BUFFERS, st.binary(max_size=300)))
def test_binary_agrees(block):
    expected = looks_binary_py(block)
    for b in as_types(block):
        assert accel.looks_binary(b) is expected


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_agree_on_the_samples(path):
    data = path.read_bytes()
    assert_agree_on_text(data)


def test_agree_on_the_evaluation_snippets():
    gold = SHARED / "eval" / "gold-public.jsonl"
    if not gold.exists():
        pytest.skip("the evaluation snippets are not beside this checkout")
    texts = [json.loads(line)["text"].encode("utf-8") for line in gold.read_text(encoding="utf-8").splitlines()
             if line.strip()]
    assert texts
    for text in texts:
        assert_agree_on_text(text)
    assert_agree_on_text(b"\n".join(texts))


#: pieces of text around a hit: white space runs, multi-byte UTF-8
#: characters and their parts, invalid bytes
TEXT = st.lists(st.sampled_from([
    b" ", b"  ", b"\t", b"\n", b"\r\n", b"\x0b", b"\x0c", b"\x1c", b"\x85", b"\xa0", b"a", b"urn:x:y", b".",
    "é".encode(), "€".encode(), "𝄞".encode(), b"\xc3", b"\xe2\x82", b"\xf0\x9d\x84", b"\x80", b"\xbf", b"\xff",
    b"\xef\xbb\xbf", b"\xef\xbb", b"\xbb\xbf",
]), max_size=40).map(b"".join)
WORD = 2 ** 63
SNIPPET_INTS = st.one_of(st.integers(-12, 70), st.sampled_from([2 ** 62, -2 ** 62, WORD - 1, -WORD, WORD - 2]))


@pytest.mark.parametrize("args, expected", [
    ((b"a  urn:x:y \n b", 3, 10, 5), "a urn:x:y b"),
    ((b"\xc3\xa9 urn:x:y", 3, 10, 1), "urn:x:y"),  # the window cuts the "e acute": dropped
    ((b"\xc3\xa9 urn:x:y", 3, 10, 3), "\xe9 urn:x:y"),
    ((b"urn:x:y \xe2\x82\xac", 0, 7, 3), "urn:x:y"),  # a cut euro sign is dropped
    ((b"urn:x:y \xe2\x82\xac", 0, 7, 4), "urn:x:y \u20ac"),
    ((b"urn:x:y \x80", 0, 7, 4), "urn:x:y \ufffd"),
    ((b"urn:x:y \xff", 0, 7, 4), "urn:x:y"),  # read as the lead byte of a cut character
    ((b"ab urn:x", 3, 8, 3, 2), "urn:x"),  # never before lo
    ((b"ab urn:x", 3, 8, 3, 1), "b urn:x"),
    ((b"\t\n ", 0, 3, 0), ""),
    ((b"\xef\xbb\xbf urn:x:y\xef\xbb\xbf", 4, 11, 9), "urn:x:y"),  # U+FEFF left out
    ((b"a\xef\xbb\xbf\xef\xbb\xbfb urn:x:y", 9, 16, 9), "ab urn:x:y"),
    ((b"\xef\xbburn:x:y", 2, 9, 9), "\ufffdurn:x:y"),  # (not a whole U+FEFF)
])
def test_snippet_table(args, expected):
    assert context_snippet_py(*args) == expected
    assert accel.context_snippet(*args) == expected


@settings(deadline=None, max_examples=1500)
@given(TEXT, SNIPPET_INTS, SNIPPET_INTS, SNIPPET_INTS, st.one_of(st.none(), SNIPPET_INTS))
def test_snippet_agrees(buf, start, stop, size, lo):
    """Both give the same text for a span, and both refuse what is not one
    (a negative bound, ``start`` past ``stop``, ``lo`` past ``start``)."""
    args = (start, stop, size) if lo is None else (start, stop, size, lo)

    def outcome(snippet, b):
        try:
            return snippet(b, *args)
        except ValueError:
            return ValueError

    expected = outcome(context_snippet_py, buf)
    for b in as_types(buf)[:2]:  # (the reference reads bytes and bytearray)
        assert outcome(accel.context_snippet, b) == expected
    for b in as_types(buf)[2:]:
        assert outcome(accel.context_snippet, b) == expected


def test_snippet_rejects_integers_past_a_machine_word():
    with pytest.raises(OverflowError):
        accel.context_snippet(b"urn:x", 0, 5, 2 ** 64)
    with pytest.raises(TypeError):
        accel.context_snippet(b"urn:x", 0, 5)


@pytest.mark.parametrize("buf, a, b, expected", [
    (b"a\nb\r\nc\rd", 0, 9, 3),
    (b"a\nb\r\nc\rd", 0, 4, 2),  # the CR of a pair cut by the span counts alone
    (b"a\nb\r\nc\rd", 4, 9, 2),  # so does its LF
    (b"\r\r\n\n", 0, 4, 3),
    (b"\n" * 9000 + b"\r\n" * 10, 0, 9020, 9010),  # long spans (NumPy in the reference)
    (b"a\nb", -2, 3, 1),  # short spans read as bytes.count reads them
    (b"a\nb", 2, 1, 0),
])
def test_breaks_table(buf, a, b, expected):
    assert count_breaks_py(buf, a, b) == expected
    for data in as_types(buf):
        assert accel.count_breaks(data, a, b) == expected
    assert accel.count_breaks(buf, a=a, b=b, may_have_cr=False) == count_breaks_py(buf, a, b, may_have_cr=False)


LINES = st.lists(st.sampled_from([b"\r", b"\n", b"\r\n", b"\n\r", b"a", b"urn:x", b" ", b"\x00", b"\xff"]),
                 max_size=120).map(b"".join)


@settings(deadline=None, max_examples=800)
@given(st.one_of(LINES, LINES.map(lambda b: b * 100)), st.data())
def test_breaks_agree(buf, data):
    a = data.draw(st.integers(0, len(buf)))
    b = data.draw(st.integers(a, len(buf)))
    for may_have_cr in (True, False):
        expected = count_breaks_py(buf, a, b, may_have_cr)
        for view in as_types(buf):
            assert accel.count_breaks(view, a, b, may_have_cr) == expected


def assert_agree_on_text(data: bytes) -> None:
    n = len(data)
    assert accel.looks_binary(data) is looks_binary_py(data)
    for cut in (1, 2, 100, 4096):
        assert accel.looks_binary(data[:cut]) is looks_binary_py(data[:cut])
    windows = [(0, n), (0, 0), (1, n), (n // 3, 2 * n // 3), (n - 5, n), (0, n + 10)]
    step = max(1, n // 50)
    windows += [(a, a + step) for a in range(0, n, step)]
    for start, stop in windows:
        start = max(0, start)
        assert accel.urn_positions(data, start, stop) == urn_positions_py(data, start, stop), (start, stop)
    for a, b in windows:
        a = min(max(0, a), n)
        b = min(max(a, b), n)
        assert accel.count_breaks(data, a, b) == count_breaks_py(data, a, b), (a, b)
    for p in urn_positions_py(data, 0, n) + list(range(0, n, step)):
        for size in (0, 1, 64, 300):
            assert accel.context_snippet(data, p, p + 20, size) == context_snippet_py(data, p, p + 20, size), p
    for profile in PROFILES:
        for reading in (Reading(), Reading(False, False, False, False, False), Reading(trim=False, pair=False)):
            for final, window in ((True, 4096), (False, 64)):
                assert_reads_agree(data, profile, reading, 4096, final, window)


def assert_reads_agree(data: bytes, profile: str, reading: Reading, cap: int, final: bool, window: int) -> int:
    """The reading loop reads the same with the compiled plain_reads as
    without; returns how many candidates plain_reads took."""
    n = len(data)
    positions = urn_positions_py(data, 0, n if final else n - window)
    taken = []

    def counted(*args):
        before = len(args[11])
        result = accel.plain_reads(*args)
        taken.append(len(args[11]) - before)
        return result

    contexts = StreamContext(0), StreamContext(0)
    compiled = make_batch(profile, reading, cap, counted)(data, positions, 0, n, window, contexts[0], 0)
    python = make_batch(profile, reading, cap, None)(data, positions, 0, n, window, contexts[1], 0)
    assert compiled == python, (data, profile, reading, final, window)
    # the URL context is left as the Python loop leaves it (the next chunk
    # reads on from it); the form parameters' counts mean nothing once the
    # token is known not to be form parameters
    form_fields = ("name_len", "name_alpha", "in_value", "value_len")
    states = [(c.pos, c.token.embedded, [None if k in form_fields and not c.token.form else getattr(c.token, k)
                                         for k in c.token.__slots__]) for c in contexts]
    assert states[0] == states[1], (data, profile, reading, final, window)
    return sum(taken)


@settings(deadline=None, max_examples=800)
@given(READING_TEXTS, st.sampled_from(PROFILES),
       st.builds(Reading, st.booleans(), st.booleans(), st.booleans(), st.booleans(), st.booleans()),
       st.sampled_from([4096, 40, 16]), st.booleans(), st.integers(4, 200))
def test_reads_agree(data, profile, reading, cap, final, window):
    assert_reads_agree(data, profile, reading, cap, final, window)


#: (text, candidates plain_reads takes): each kind it takes, and a case of
#: every rule that makes it hand a position back to the Python loop
PLAIN_TABLE = [
    (b"see urn:isbn:0451450523 here", 1),
    (b'<a href="urn:ietf:rfc:8141">x</a> (urn:x:y) \'urn:a:b\' >urn:c:d< <urn:e:f>', 5),
    (b"end urn:isbn:0451450523. next urn:a:b, and urn:c:d;\n", 3),  # one mark trimmed
    (b"two marks urn:a:b.) urn:a:b..", 0),
    (b"x=urn:a:b /urn:a:b ;urn:a:b http://h/?id=urn:a:b&x magnet:?xt=urn:btih:c", 5),  # URL contexts
    (b"{urn:a:b}c {urn:a:b.}c", 2),  # Clark notation, one mark trimmed
    (b"urn:a:b: :urn:a:b x.urn:a:b qr{urn:a:b}", 0),  # ":" last, maybe a pattern, a word, Perl's quote
    (b"urn:a:%s urn:a:$x urn:a:b.*c urn:a:{id} urn:a:<nss> \"urn:a:\" + x 'urn:a' 'b'", 0),  # code
    # a name an RFC formatter broke after "-", joined (one "." trimmed)
    (b"folded urn:a:b-\n  c, see urn:nbn:de:gbv:7-webdoc-\r\n   1818245.\n\turn:x-y:1-2-\n3_4 x", 3),
    # ... but for a function word, a pattern, a further fold, a ":" last, a
    # mark, a character another rule reads, another URN or an empty line
    (b" urn:a:b-\n  is x urn:a:b..-\n  1 x urn:a:b-\n  c-\n  d x urn:a:b-\n  c:\n", 0),
    (b" urn:a:xxxx-\n  1 x", 1),  # (letters written for digits are a name's, as written)
    (b"C: urn:a:b-\nC: d x urn:a:b-\n  c%41 x urn:a:b=-\n c urn:a:b-\n  c{x} urn:a:b-\n  c.. x", 0),
    (b" urn:a:b-\n  c, x urn:a:b-\n  c;\n urn:a:b-\n  c!", 3),  # one mark trimmed
    (b" urn:a:b-\n  c,. x urn:a:b-\n  c:. x urn:a:b-\n  c? x urn:a:b-\n  c* x", 0),  # ... but no other
    # a "." before a line starting a new sentence, not a trace's mark
    (b" urn:oid:2.999.37.\nThe operator urn:oid:2.9.\r\n  For it urn:a:b-\n  c.\nThe x", 3),
    (b" urn:a:b.\nC: x urn:a:b.\n> The x urn:a:b.\nthe x", 0),
    # an empty line after a character a fold may follow: the name ends there
    (b"see urn:a:b.\n\nNext urn:a:c/\n  \nx urn:a:d=\r\n\r\ny urn:a:e?\n\n urn:a:f-\n\t\n", 5),
    (b" urn:a:b.\n\n" + b"x" * 1100 + b"[Page 2]", 1),  # a "[Page N]" too far to be a page break's
    # ... but for a page break, a ":" (which folds across an empty line) or
    # a line break that is not followed by an empty line
    (b"urn:a:b-\n\nRFC 1 [Page 3]\n\fRFC 1  Title\n\n   c d", 0),
    (b" urn:a:b:\n\nc-1\n urn:a:b.\r\nc x urn:a:c.\n\n  [Page 2]", 0),
    # a next line that may go on with the name past quote marks or a
    # protocol trace's mark, or after CRLF; the same inside a URL
    (b"> see urn:a:bc\n> -de\nC: urn:a:bc\nC: -de\n urn:a:b?x=1\r\n&d=e\r\n", 0),
    (b"> http://h/urn:a:bc\n> -de\n see http://h/urn:a:b:2\n  .0:c x", 0),
    (b"> see urn:a:bc\n> de\n urn:a:bc\nC:d\n", 2),
    # a next line that starts with one space and more text may go on with
    # the name as a folded LDIF line's (ldif.py), but for a URN of its own,
    # a second blank or a tab
    (b"m: urn:a:bc\n de\r\nm: urn:a:bc\r\n de\n", 0),
    (b"m: urn:a:bc\n urn:a:d\nm: urn:a:bc\n  de\nm: urn:a:bc\n\tde\n", 4),
    # a wrapper folded over lines (seed 004 section 2), white space dropped
    (b"Resolve <urn:nbn:at:obvsg-\n        16380155> <urn:ietf:rfc:\r\n   2141> <urn:a:b\n\tc \n d>.", 3),
    # white space in a line, before ">" or its NID; ">" of a quoted reply;
    # maybe elided or an empty element; nothing on the first line
    (b"<urn:a:b c> <urn:a:b\n> <urn:a:b \n > <urn:\n a:b> > <urn:a:b\n> c> <urn:a:b.\n .c> <urn:a:b\n c/>", 0),
    (b"<urn:a:\n b> <urn:a:b\n c d>", 0),
    # a character reference ends the name ("&quot;" quoting it in HTML source)
    (b'<span>&quot;urn:a:b&quot;</span> &#39;urn:a:b.&#39;</span> &quot;urn:a:b&quot; x', 3),
    (b"&quot;urn:a:b&amp;</b> &quot;urn:a:b&#45;c&quot;</b> &quot;urn:a:&lt;x&gt;</b>", 0),
    (b"&quot;urn:a:b&quot;?q=1&\nx=2 &quot;urn:a:b&quot;:\nkey", 0),  # a query, a key's ":" after it
    (b"&quot;urn:a:b&quot;:Name. &quot;urn:a:b&quot;,</span>", 2),  # gSOAP's QNames; a list
    # a later item of a list in a field of CSV, the comma ending it: left to reading.py
    (b"3,urn:isbn:0451450523;urn:isbn:0140289208,Title\n", 0),
    (b"see urn:a:b;urn:c:d,e:f x", 1),
    # a repository's file URL (lists.py file_url_path_end()): left to reading.py; without "/" after it, taken
    (b"<https://h.example/bitstream/urn:nbn:de:gbv:700-201001304634/1/x.pdf> and https://h.example/bitstream/urn:a:b x",
     1),
    (b"http://h/?id=urn:a:b:</p> http://h/?id=urn:a:b/*", 0),  # a colon or a path's wildcard after it
    (b" urn:a:(b/ + y\n) urn:uuid:(Alice's UA's bits)", 0),  # a placeholder in parentheses
    (b"URN:URN:dns:a:1 <urn:urn:x:y> 'URN:urn:a:b' urn:urn:NSS", 0),  # the NID "urn": maybe a label
    (b"(/urn:a:b/i.test(s)) {P: /urn:a:b/, Q:/urn:a:b}", 0),  # maybe a JavaScript regular expression
    (b"x === 'urn:a:b' || y", 0),  # "||" after "'": SQL's concatenation or a logical OR
    # " ." before a SPARQL keyword ends a triple pattern: the rules read it
    (b"?s dc:id 'urn:a:b' . FILTER(?s) ?s dc:id \"urn:a:c\" .\nOPTIONAL {", 0),
    # letters written for digits are a name's, as written; a bracket may be a placeholder
    (b"urn:a:n-nnnn urn:a:XXXX-1 urn:a:b[3] urn:a:bnnn urn:a:x.x.x urn:a:N.N.N urn:a:x.x.y", 5),
]


@pytest.mark.parametrize("text, taken", PLAIN_TABLE)
def test_plain_reads_table(text, taken):
    assert assert_reads_agree(text, "rfc8141", Reading(), 4096, True, 4096) == taken


@pytest.mark.parametrize("value, compiled", [("1", False), ("yes", False), ("0", True), ("", True)])
def test_pure_python_variable(value, compiled):
    """The variable turns the compiled code off; without it, the package
    uses its compiled module whenever it has one."""
    compiled = compiled and importlib.util.find_spec("urnscan._accel") is not None
    code = ("import urnscan.accel as a, urnscan.scanner as s, urnscan.sources as so, urnscan.sources.reader as r\n"
            "import urnscan.context as c\n"
            "import urnscan.extract.fast as f\n"
            "print(a.COMPILED is not None, s.urn_positions is not s.urn_positions_py,"
            " so.looks_binary is not r.looks_binary_py, c.context_snippet is not c.context_snippet_py,"
            " s.count_breaks is not s.count_breaks_py, f.PLAIN_READS is not None, s.PLACE_ROWS is not None)")
    env = dict(os.environ, URNSCAN_PURE_PYTHON=value)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env, cwd=ROOT)
    assert out.stdout.split() == [str(compiled)] * 7


def _scan_in_chunks(data: bytes, size: int, compiled: bool, context: int = 0) -> list:
    """The hits of a scan of ``data`` in chunks of ``size`` bytes, with the
    compiled reading and row loops (``plain_reads``, ``place_rows``) or with
    the Python code alone."""
    from urnscan import scanner
    from urnscan.extract import fast

    saved = fast.PLAIN_READS, scanner.PLACE_ROWS
    fast.PLAIN_READS, scanner.PLACE_ROWS = (accel.plain_reads, accel.place_rows) if compiled else (None, None)
    scanner._reader_of.cache_clear()
    try:
        return list(scanner.scan_bytes((data[i:i + size] for i in range(0, len(data), size)), context=context))
    finally:
        fast.PLAIN_READS, scanner.PLACE_ROWS = saved
        scanner._reader_of.cache_clear()


def _corpus_text() -> bytes:
    texts = [p.read_bytes() for p in SAMPLES]
    gold = SHARED / "eval" / "gold-public.jsonl"
    if gold.exists():
        texts.append(b"\n".join(json.loads(line)["text"].encode("utf-8")
                                for line in gold.read_text(encoding="utf-8").splitlines() if line.strip()))
    return b"\n".join(texts) + b" a=urn:x:1&b magnet:?xt=urn:btih:ab&dn=x http://h/p?q=urn:a:b&c " * 40


@pytest.mark.parametrize("breaks", [b"\n", b"\r\n", b"\r"])
def test_scans_in_chunks_agree(breaks):
    """Chunk by chunk, the compiled loops give the Python code's hits: the
    URL context plain_reads leaves is the one the next chunk reads on from,
    and place_rows counts lines (LF, CRLF or CR) and keeps context as
    ByteScanner._hits does."""
    data = _corpus_text().replace(b"\r\n", b"\n").replace(b"\n", breaks)
    for size, context in ((7, 0), (500, 40), (1 << 16, 0), (1 << 16, 200)):
        assert _scan_in_chunks(data, size, True, context) == _scan_in_chunks(data, size, False, context), size


@settings(deadline=None, max_examples=300)
@given(READING_TEXTS, st.integers(1, 64), st.sampled_from([0, 5, 60]))
def test_generated_scans_agree(data, size, context):
    assert _scan_in_chunks(data, size, True, context) == _scan_in_chunks(data, size, False, context)


# --- the index's column helpers (urnscan/sinks/arrays.py) -----------------

from urnscan.sinks.arrays import (  # noqa: E402
    factorize_tails_py, int32_offsets_py, string_buffers_py, take_fixed_py, take_segments_py, transpose_py,
)

ROWS = st.lists(st.binary(max_size=9), max_size=12)


@settings(deadline=None, max_examples=400)
@given(ROWS, st.sampled_from([1, 2, 4, 8]), st.data())
def test_column_helpers_agree(rows, width, data):
    blob = b"".join(rows)
    blob = blob[:len(blob) // width * width]
    n = len(blob) // width
    codes = data.draw(st.lists(st.integers(0, n - 1), max_size=30)) if n else []
    assert accel.take_fixed(blob, width, codes) == take_fixed_py(blob, width, codes)
    lengths = [len(r) // width for r in rows]
    offsets = int32_offsets_py(lengths)
    assert accel.int32_offsets(lengths) == offsets
    data_ = b"".join(r[:len(r) // width * width] for r in rows)
    codes = data.draw(st.lists(st.integers(0, len(rows) - 1), max_size=30)) if rows else []
    assert accel.take_segments(offsets, data_, width, codes) == take_segments_py(offsets, data_, width, codes)


@settings(deadline=None, max_examples=300)
@given(st.lists(st.text(max_size=8), max_size=12))
def test_string_buffers_agree(values):
    assert accel.string_buffers(values) == string_buffers_py(values)


#: rows as a scan makes them: a few URNs (the key, item 1), each with its
#: judged items (from item 2 on), sometimes another judgement of a URN
TABLE_ROWS = st.lists(st.tuples(st.integers(0, 99), st.sampled_from(["urn:a:b", "urn:a:c", "URN:A:B", ""]),
                                st.sampled_from([True, False]), st.sampled_from(["x", "y", None])),
                      max_size=40)


@settings(deadline=None, max_examples=400)
@given(TABLE_ROWS, st.integers(0, 4), st.integers(0, 4))
def test_row_helpers_agree(rows, key, start):
    key = min(key, 3)
    assert _outcome(accel.transpose, rows, start) == _outcome(transpose_py, rows, start)
    assert _outcome(accel.factorize_tails, rows, key, start) == _outcome(factorize_tails_py, rows, key, start)


@settings(deadline=None, max_examples=200)
@given(TABLE_ROWS)
def test_factorize_tails_rebuilds_every_tail(rows):
    tails, codes = accel.factorize_tails(rows, 1, 2)
    per_row = tails if codes is None else [tails[c] for c in codes]
    assert per_row == [r[2:] for r in rows]
    assert len(set(zip((r[1] for r in rows), per_row))) == len(tails)


def _outcome(fn, *args):
    try:
        return fn(*args)
    except (IndexError, TypeError, ValueError, OverflowError) as exc:
        return type(exc)


@pytest.mark.parametrize("name, args, expected", [
    ("int32_offsets", ([1, 2, 3],), (b"".join(i.to_bytes(4, sys.byteorder) for i in (0, 1, 3, 6)))),
    ("int32_offsets", ([], ), b"\0\0\0\0"),
    ("int32_offsets", ([2 ** 31 - 1],), (b"\0\0\0\0" + (2 ** 31 - 1).to_bytes(4, sys.byteorder))),
    ("int32_offsets", ([2 ** 30, 2 ** 30],), OverflowError),
    ("int32_offsets", ([3, -1],), ValueError),
    ("int32_offsets", (["3"],), TypeError),
    ("string_buffers", (["ab", "", "\u00e9"],), (b"".join(i.to_bytes(4, sys.byteorder) for i in (0, 2, 2, 4)),
                                                 b"ab\xc3\xa9")),
    ("string_buffers", (["a", None],), TypeError),
    ("string_buffers", (["\udcff"],), UnicodeEncodeError),
    ("take_fixed", (b"abcdef", 2, [2, 0, 2]), b"efabef"),
    ("take_fixed", (b"abcdef", 2, [3]), IndexError),
    ("take_fixed", (b"abcdef", 2, [-1]), IndexError),
    ("take_fixed", (b"abcdef", 2, ["0"]), TypeError),
    ("take_fixed", (b"abcdef", 2, []), b""),
    ("take_segments", (b"".join(i.to_bytes(4, sys.byteorder) for i in (0, 1, 3)), b"abc", 1, [1, 0, 1]),
     (b"".join(i.to_bytes(4, sys.byteorder) for i in (0, 2, 3, 5)), b"bcabc")),
    ("take_segments", (b"".join(i.to_bytes(4, sys.byteorder) for i in (0, 1, 3)), b"abc", 1, [2]), IndexError),
    ("transpose", ([(1, "a", 2), (3, "b", 4)], 2), [[1, 3], ["a", "b"]]),
    ("transpose", ([], 2), [[], []]),
    ("transpose", ([(1, 2)], 0), []),
    ("transpose", ([(1, 2), (3,)], 2), TypeError),
    ("transpose", ([(1, 2)], -1), ValueError),
    ("factorize_tails", ([("u", 0, 1), ("v", 0, 1), ("u", 0, 1)], 0, 1), ([(0, 1), (0, 1)], [0, 1, 0])),
    ("factorize_tails", ([("u", 0, 1), ("u", 0, 2), ("u", 0, 1), ("u", 0, 2)], 0, 1),
     ([(0, 1), (0, 2)], [0, 1, 0, 1])),
    ("factorize_tails", ([("u", 1), ("v", 1)], 0, 1), ([(1,), (1,)], None)),
    ("factorize_tails", ([], 0, 1), ([], None)),
    ("factorize_tails", ([("u", 1), ("u",)], 0, 1), ([(1,), ()], None)),
    ("factorize_tails", ([("u", 1), ()], 0, 1), TypeError),
    ("factorize_tails", ([(["u"], 1), (["u"], 1)], 0, 1), TypeError),
    ("factorize_tails", ([("u", 1)], -1, 1), ValueError),
])
def test_column_helpers_table(name, args, expected):
    from urnscan.sinks import arrays

    for fn in (getattr(accel, name), getattr(arrays, f"{name}_py")):
        if expected is UnicodeEncodeError:
            with pytest.raises(UnicodeEncodeError):
                fn(*args)
        else:
            assert _outcome(fn, *args) == expected, fn


def test_take_segments_refuses_offsets_outside_its_data():
    """The compiled loop never reads past the data, whatever the offsets."""
    offsets = b"".join(i.to_bytes(4, sys.byteorder) for i in (0, 2, 9))
    with pytest.raises(ValueError):
        accel.take_segments(offsets, b"abc", 1, [1])
    backwards = b"".join(i.to_bytes(4, sys.byteorder) for i in (0, 3, 1))
    with pytest.raises(ValueError):
        accel.take_segments(backwards, b"abc", 1, [1])


def test_placed_hits_are_left_out_of_the_collector():
    """place_rows leaves the rows it makes out of the cycle collector (their
    fields cannot refer back to them); a collection while they are alive
    changes nothing in them."""
    import gc

    data = _corpus_text()
    compiled = _scan_in_chunks(data, 1 << 16, True, 40)
    assert compiled and not any(gc.is_tracked(h) for h in compiled)
    gc.collect()
    assert compiled == _scan_in_chunks(data, 1 << 16, False, 40)
    assert all(gc.is_tracked(h) for h in _scan_in_chunks(data[:2000], 1 << 16, False, 40))  # (the Python rows)


# --- plain_file_triage: a file read and looked through without the interpreter ---

#: what makes a file read otherwise than as plain text (runner.nothing_to_find)
TRIAGE_PIECES = st.sampled_from([
    b"%PDF-", b"%PDF", b"PK", b"P", b"\x1f\x8b", b"\x1f", b"BZh", b"\xfd7zXZ", b"\x28\xb5\x2f\xfd", b"From ",
    b"WARC/", b"!<arch>\n", b"!<arch>", b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff", b"\xef", b"\xef\xbd\x95", b"%",
    b"urn%3A", b"URN%3a", b"urn%3", b"%3A", b"urn%", b"urn\\:", b"URN\\:", b"urn\\", b"\\:",
    b"Return-Path:", b"RECEIVED:", b"from:", b"From", b"X-", b"X-a:", b"x-:", b"To :", b":", b"Path", b"Date: ",
    b"x" * 300,
])
CONTENTS = st.lists(st.one_of(TRIAGE_PIECES, PIECES, st.binary(max_size=6)), max_size=40).map(b"".join)


@settings(deadline=None, max_examples=400)
@given(CONTENTS, st.integers(-2, 3), st.integers(0, 2))
def test_plain_file_triage_agrees(tmp_path_factory, data, off, extra):
    from urnscan.runner import plain_file_triage_py

    path = tmp_path_factory.mktemp("triage") / "f"
    path.write_bytes(data)
    expected = max(0, len(data) + off)
    limit = expected + extra
    assert accel.plain_file_triage(str(path), expected, limit) == plain_file_triage_py(str(path), expected, limit)


@settings(deadline=None, max_examples=300)
@given(CONTENTS)
def test_a_file_with_nothing_to_find_scans_to_nothing(tmp_path_factory, data):
    """What the triage takes as its status alone is what the rules make of
    the file: scanned whole, no hit, every byte counted."""
    from urnscan.runner import ScanConfig, _Emitted, _scan_whole, nothing_to_find
    from urnscan.sources import InputRef

    if not nothing_to_find(data):
        return
    path = tmp_path_factory.mktemp("nothing") / "f.txt"
    path.write_bytes(data)
    hits = []
    ref = InputRef(str(path), len(data))
    status = _scan_whole(ref, data, ScanConfig(), _Emitted(hits.extend), None)
    assert hits == [] and status.status == "scanned" and status.bytes == len(data) and status.reason is None


@pytest.mark.parametrize("content, answer", [
    (b"plain words\n", 12),
    (b"", 0),
    (b"see urn:isbn:0451450523\n", "content"),
    (b"k=urn\\:isbn\\:0451450523\n", "content"),
    (b"k=urn\\:", "content"),
    (b"k=urn\\\n", 7),
    (b"%PDF-1.4\n", "content"),
    (b"PK\x03\x04", "content"),
    (b"\x1f\x8b\x08", "content"),
    (b"\xff\xfew\x00", "content"),
    (b"From a@b Mon Jan  1 00:00:00 2024\n", "content"),
    (b"Return-Path: <a@b>\n", "content"),  # a message's first field: its body may be encoded
    (b"x-spam: 1\n", "content"),
    (b"Fromage: brie\n", 14),
    (b"\xef\xbd\x95rn:x", "content"),   # a fullwidth "u": a suspected URN may start
    (b"?q=URN%3aisbn%3a1\n", "content"),  # a URN percent-encoded in a URL may start
    (b"urn%3 urn%41 %3A\n", 17),
    (b"return: x\n", 10),                # no "urn:" the scanner keeps
    (b"\x00\x00\x00\x00 binary", "content"),
])
def test_plain_file_triage_table(tmp_path, content, answer):
    from urnscan.runner import plain_file_triage_py

    path = tmp_path / "f"
    path.write_bytes(content)
    for triage in (accel.plain_file_triage, plain_file_triage_py):
        got = triage(str(path), len(content), 1 << 20)
        assert got == (content if answer == "content" else answer)
        assert triage(str(path), len(content) - 1, 1 << 20) is None if content else True  # it grew
    assert accel.plain_file_triage(str(tmp_path / "missing"), 3, 10) is None
    with pytest.raises(ValueError):
        accel.plain_file_triage(str(path), 11, 10)


def test_plain_file_triage_agrees_on_real_files():
    from urnscan.runner import plain_file_triage_py

    paths = SAMPLES + sorted(p for p in (ROOT / "urnscan").rglob("*") if p.is_file())
    for path in paths:
        size = path.stat().st_size
        assert accel.plain_file_triage(str(path), size, 1 << 20) == plain_file_triage_py(str(path), size, 1 << 20), path
