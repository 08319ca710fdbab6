"""The two searches behind urn_positions (bytes.find on short spans, NumPy
on long ones) give the same offsets on any text, any span."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import urnscan.scanner as scanner

PIECES = st.sampled_from([b"urn:", b"URN:", b"uRn:", b"a", b"1", b".", b" ", b"\n", b":", b"-", b"\xff", b"x",
                          b"urn", b"rn:", b"<", b"(", b"\x00", b"\r", b"\x1f", b"\x1fa", "\u2021".encode(),
                          b"\\", b"f", b"\\fI", b"\\f(CW", b"\\f(", b"\\n", b"n", b"\\u003c", b"\\x3e", b"u00", b"%", b"%22", b"%2"])


def both(buf, start, stop):
    old = scanner._FIND_BELOW
    try:
        scanner._FIND_BELOW = 1 << 62
        found = scanner.urn_positions_py(buf, start, stop)
        scanner._FIND_BELOW = 0
        return found, scanner.urn_positions_py(buf, start, stop)
    finally:
        scanner._FIND_BELOW = old


@pytest.mark.parametrize("buf, start, stop, expected", [
    (b"urn:a:b", 0, 7, [0]),
    (b"urn: a", 0, 6, []),
    (b"xurn:a:b urn:b:c", 0, 16, [9]),
    (b"return: urn:x:y", 0, 15, [8]),
    (b" URN:x:y", 1, 2, [1]),
    (b" URN:x:y", 2, 8, []),
    (b"(urn:x", 0, 6, [1]),
    (b"urn:", 0, 4, []),
    (b" urn:", 0, 5, [1]),
    # a line break after "urn:" may be a URN broken there
    (b"URN: urn:\nnbn:de:x", 0, 17, [5]),
    (b"urn:\r\nx:y", 0, 9, [0]),
    # a MARC subfield's code after its delimiter
    (b"\x1faurn:nbn:de:x", 0, 15, [2]),
    (b"=024  7\\$aurn:nbn:de:x", 0, 22, [10]),
    ("\u2021aurn:nbn:x".encode(), 0, 14, [4]),
    (b"\x1f-urn:nbn:x", 0, 13, []),
    # a roff font change's name: "\fI", "\fB", "\f(CW" (groff(7))
    (b"\\fIurn:ietf:rfc:2141\\fR", 0, 24, [3]),
    (b"\\f(CWurn:oid:2.25\\fP", 0, 21, [5]),
    (b"\\fIurn:a", 1, 9, [3]),
    (b"fIurn:a", 0, 7, []),
    (b"\\(CWurn:a", 0, 10, []),
    # a string literal's escape: a blank, a line break, a character by its code
    (b'"See\\nurn:ietf:rfc:2141"', 0, 24, [6]),
    (b'"\\tURN:a:b\\r\\nurn:a:c"', 0, 22, [3, 14]),
    (b'"\\u003curn:a:b\\u003e"', 0, 21, [7]),
    (b"'\\x3curn:a:b'", 0, 13, [5]),
    (b"\\'84urn:a:b\\'93 \\'aburn:a:c", 0, 27, [4, 20]),  # RTF's "\'hh"
    # ... not when its backslash is escaped, nor a letter that is no such escape
    (b'"C:\\\\nurn:a:b"', 0, 14, []),
    (b"\\burn:a:b \\u03curn:a:b \\x3urn:a:b", 0, 33, []),
    # a URL's percent-encoding
    (b"q=%22urn:a:b%22 s=a%20URN:a:b", 0, 29, [5, 22]),
    (b"%2urn:a:b %G0urn:a:b", 0, 20, []),
    # a double-byte character's second byte (Shift_JIS "\x81u" is "「", "\x81A" "、")
    (b"\x81uurn:a:b \x82\xf0\x81Aurn:a:c", 0, 21, [2, 14]),
    (b"\x82\xcdBurn:a:b \xc3\x80Burn:a:c \x81" * 2 + b"Burn", 0, 22, []),
])
def test_table(buf, start, stop, expected):
    assert both(buf, start, stop) == (expected, expected)


@settings(deadline=None, max_examples=300)
@given(st.lists(PIECES, max_size=60).map(b"".join), st.data())
def test_find_and_numpy_agree(buf, data):
    start = data.draw(st.integers(0, len(buf)))
    stop = data.draw(st.integers(start, len(buf)))
    a, b = both(buf, start, stop)
    assert a == b
