"""The scanner's reading rules, as tables of (text, expected URNs)."""
import pytest

import urnscan
from urnscan import scan_bytes, scan_text


def urns(text, **options):
    return [h.urn for h in scan_text(text, **options)]


@pytest.mark.parametrize("text, expected", [
    # bare candidates at a token boundary (PRODUCT section 1)
    ("see urn:isbn:0451450523 here", ["urn:isbn:0451450523"]),
    ("URN:ISBN:0451450523", ["URN:ISBN:0451450523"]),
    ("return:x Saturn:y x.urn:a:b turn:c:d a-urn:e:f 1urn:g:h", []),
    ("URN: a field label, the urn: a vessel, urn:foo", []),
    ("urn:com.example:jmap:todo", []),  # '.' cannot be in a NID
    ("urn:ietf:", []),  # no NSS
    # ended by the first excluded character (seed 000 section 2.4)
    ('"urn:example:a"', ["urn:example:a"]),
    ("urn:example:a|b", ["urn:example:a"]),
    ("urn:example:a\u2014b", ["urn:example:a"]),  # a letter outside ASCII goes on (test_reading_rules)
    # RFC 8141's repertoire admits "&" and "~"
    ("urn:example:weather?=op=map&lat=39.56 next", ["urn:example:weather?=op=map&lat=39.56"]),
    ("urn:example:a~b", ["urn:example:a~b"]),
    # trailing sentence punctuation trimmed, balanced parentheses kept
    ("see urn:isbn:0451450523.", ["urn:isbn:0451450523"]),
    ("(see urn:isbn:0451450523), and", ["urn:isbn:0451450523"]),
    ("'urn:example:a';", ["urn:example:a"]),
    ("urn:sici:1046-8188(199501)13:1%3C69:FTTHBI%3E2.0.TX;2-F.", ["urn:sici:1046-8188(199501)13:1%3C69:FTTHBI%3E2.0.TX;2-F"]),
    ("(e.g., urn:nbn:fi:st:).", ["urn:nbn:fi:st:"]),  # a prefix keeps its ':'
    ("is it urn:example:a?", ["urn:example:a"]),
    # wrapped (seed 004 section 2)
    ("<urn:x-dns-2:library.bigstate.edu:aj17-mcc>", ["urn:x-dns-2:library.bigstate.edu:aj17-mcc"]),
    ("<URN:foo:bar-\n     baz>.", ["URN:foo:bar-baz"]),
    ("Alert-Info: <urn:alert:service:normal>;appearance=1", ["urn:alert:service:normal"]),
    ("<urn:spppAddRequest>", []),  # an XML QName
    ("<urn:foo:bar and then| more", ["urn:foo:bar"]),  # unclosed: the bare rule
    # folded bare URNs
    ('"urn:ietf:params:rtp-\n   hdrext:sdes:cname" [RFC7941]', ["urn:ietf:params:rtp-hdrext:sdes:cname"]),
    ('the attribute "urn:ietf:params:scim:\n   schemas:core:2.0:User" is', ["urn:ietf:params:scim:schemas:core:2.0:User"]),
    ('xmlns="urn:ietf:params:xml:ns:yang:ietf-ipv4-unicas\\\n   t-routing">', ["urn:ietf:params:xml:ns:yang:ietf-ipv4-unicast-routing"]),
    ("urn:example:weather?=op=map&lat=39.56\n   &lon=-104.85", ["urn:example:weather?=op=map&lat=39.56&lon=-104.85"]),
    ("   urn:ietf:params:oauth:ckt:sha-256:\n\n   SWvYr63zB-WwjGSwQhv53AFSijRKQ72oj63RZp2iU-w\n",
     ["urn:ietf:params:oauth:ckt:sha-256:SWvYr63zB-WwjGSwQhv53AFSijRKQ72oj63RZp2iU-w"]),
    # a URN split over two rows of an ASCII table
    ("   | urn:example:registry:       | Entry one  |\n   | widgets:v1:Gear           | Detail     |\n",
     ["urn:example:registry:widgets:v1:Gear"]),
    ("   | urn:example:registry:       | Entry one  |\n   | Another text | widgets:v1:Gear |\n",
     ["urn:example:registry:"]),  # not the same column: not a fold
    # a break just before ":"
    ('ns="urn:example:yang\\\n     :module-a"', ["urn:example:yang:module-a"]),
    ("   id urn:example:schema\n      :part-two\n", ["urn:example:schema:part-two"]),
    # YAML mapping keys lose their ":", prefixes keep it
    ("namespaces:\n  urn:example:config:\n    description: settings\n", ["urn:example:config"]),
    ("  - urn:example:list:\n      value: 1\n", ["urn:example:list"]),
    ("prefix urn:example:config:\n    description: settings\n", ["urn:example:config:"]),
    ("  urn:example:config:\nnext: line\n", ["urn:example:config:"]),
    # the next line starting a URN or a URL of its own is not a continuation
    ("   prefix urn:example:reg:\n   http://example.com/x\n", ["urn:example:reg:"]),
    ("  urn:example:one:\n  urn:example:two:x\n", ["urn:example:one:", "urn:example:two:x"]),
    # line breaks that end a URN
    ('schemaLocation="urn:example:schema\n   schema.xsd"', ["urn:example:schema"]),
    ("   o  urn:example:a123,z456/foo\n\n   o  urn:example:a123,z456/bar", ["urn:example:a123,z456/foo", "urn:example:a123,z456/bar"]),
    ("URN Prefix:  urn:ietf:params:geopriv:\n\n   Designated Expert: someone", ["urn:ietf:params:geopriv:"]),
    ("the prefix urn:ietf:params:xml:ns:\n   which is registered", ["urn:ietf:params:xml:ns:"]),
    ("   names under urn:example:registry:\n   namespace.\n", ["urn:example:registry:"]),
    # embedded in URLs
    ("http://nbn-resolving.de/urn:nbn:de:bsz:24-opus-12345", ["urn:nbn:de:bsz:24-opus-12345"]),
    ("magnet:?xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a&dn=file", ["urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a"]),
    ("GET /uri-res/N2L?urn:cid:foo@huh.com HTTP/1.0", ["urn:cid:foo@huh.com"]),
    ("'grant_type=urn:ietf:params:oauth:grant-type:device_code&scope=a+b'",
     ["urn:ietf:params:oauth:grant-type:device_code"]),  # form-encoded parameters
    ("body: a=1&grant_type=urn:example:x&b=2", ["urn:example:x"]),
    # templates, patterns and elisions are not URNs
    ("urn:ietf:params:xml:ns:yang:{module}", []),
    ("URN:ISAN:<ISAN-NSS>", []),
    ("urn:alert:source:[some-unknown]", []),
    ("if ($urn =~ /urn:ietf:id:(\\S+)/i)", []),
    ("'urn:ietf:...:ietf-interfaces'", []),
    ("urn:ietf:params:xml:ns:yang:... and", []),  # an elided prefix
    ("urn:ietf:params:\u2026", []),
    ("as in urn:ietf:rfc:2141... and so", ["urn:ietf:rfc:2141"]),  # a sentence's ellipsis
    ("see urn:isbn:0451450523\u2026 later", ["urn:isbn:0451450523"]),
    # character references end a URN in markup
    ("<a href='?u=urn:example:a&amp;b=1'>", ["urn:example:a"]),
    ("urn:example:a&quot; more", ["urn:example:a"]),
])
def test_reading_rules(text, expected):
    assert urns(text) == expected


def test_hit_fields_bare():
    (hit,) = scan_text("line one\n  see urn:ISBN:0451450523.")
    assert (hit.start, hit.end, hit.line, hit.column) == (15, 34, 2, 7)
    assert hit.form == "bare" and not hit.folded and not hit.embedded
    assert hit.raw == hit.urn == "urn:ISBN:0451450523"
    assert hit.literal == "urn:ISBN:0451450523."
    assert hit.valid and hit.valid_rfc2141 and hit.valid_rfc8141
    assert hit.canonical == hit.key == "urn:isbn:0451450523"
    assert hit.nid == "ISBN" and hit.nss == "0451450523" and hit.profile == "rfc8141"


def test_hit_fields_wrapped_and_folded():
    text = "x <URN:foo:bar-\n  baz> y"
    (hit,) = scan_text(text)
    assert hit.form == "wrapped" and hit.folded
    assert text[hit.start:hit.end] == hit.raw == "URN:foo:bar-\n  baz"
    assert hit.urn == "URN:foo:bar-baz"


def test_folded_span_covers_removed_white_space():
    text = 'the "urn:ietf:params:rtp-\n   hdrext:sdes:cname" here'
    (hit,) = scan_text(text)
    assert hit.folded and text[hit.start:hit.end] == "urn:ietf:params:rtp-\n   hdrext:sdes:cname"


def test_no_trim_keeps_the_literal_span():
    assert urns("see urn:isbn:0451450523).", trim=False) == ["urn:isbn:0451450523)."]


def test_no_fold_option():
    assert urns('"urn:ietf:params:rtp-\n   hdrext:sdes:cname"', fold=False) == ["urn:ietf:params:rtp-"]


def test_invalid_candidates_are_reported_with_findings():
    hits = list(scan_text("bad: urn:" + "a" * 40 + ":x and urn:example:a%zz and urn:ab-:c"))
    assert [h.valid for h in hits] == [False, False, False]
    assert [h.codes[0] for h in hits] == ["nid-too-long", "bad-percent-encoding", "nid-trailing-hyphen"]
    assert hits[2].valid_rfc2141  # RFC 2141 allows a trailing hyphen
    assert hits[0].canonical is None and hits[0].nid == "a" * 40


def test_profile_changes_the_extent():
    text = "urn:example:a&b~c"
    assert urns(text) == ["urn:example:a&b~c"]
    assert urns(text, profile="rfc2141") == ["urn:example:a"]


def test_character_offsets_for_text_and_byte_offsets_for_bytes():
    text = "caf\u00e9 \u65e5\u672c urn:example:a \u00e9\nx urn:example:b"
    char_hits = list(scan_text(text))
    assert [text[h.start:h.end] for h in char_hits] == ["urn:example:a", "urn:example:b"]
    assert char_hits[0].column == 9 and char_hits[1].column == 3
    data = text.encode("utf-8")
    byte_hits = list(scan_bytes([data]))
    assert [data[h.start:h.end] for h in byte_hits] == [b"urn:example:a", b"urn:example:b"]
    assert byte_hits[0].column == 14


#: a UTF-8 byte-order mark is part of the offsets, but no column of line 1
_MARK = b"\xef\xbb\xbf"


@pytest.mark.parametrize("data, placed", [
    (_MARK + b"urn:ietf:rfc:2141 x", [(3, 1, 1)]),
    (_MARK + b"see urn:ietf:rfc:2141\nurn:ietf:rfc:8141", [(7, 1, 5), (25, 2, 1)]),
    (_MARK + b"\r\n  urn:ietf:rfc:2141", [(7, 2, 3)]),
    (b"urn:ietf:rfc:2141 " + _MARK + b"urn:ietf:rfc:8141", [(0, 1, 1), (21, 1, 22)]),  # a mark later: a character
    (b"\xef\xbburn:ietf:rfc:2141", [(2, 1, 3)]),  # half a mark
    (b"urn:ietf:rfc:2141", [(0, 1, 1)]),
])
def test_a_byte_order_mark_is_no_column(data, placed):
    whole = [(h.start, h.line, h.column) for h in scan_bytes([data])]
    byte_by_byte = [(h.start, h.line, h.column) for h in scan_bytes([data[i:i + 1] for i in range(len(data))])]
    assert whole == byte_by_byte == placed


def test_a_byte_order_mark_is_no_character_column():
    (hit,) = scan_text("\ufeffurn:ietf:rfc:2141 x")
    assert (hit.start, hit.line, hit.column) == (1, 1, 1)


@pytest.mark.parametrize("data, lines", [
    (b"a\nb\nurn:example:a\n", [3]),
    (b"a\r\nb\r\nurn:example:a\r\n", [3]),
    (b"a\rb\rurn:example:a\r urn:example:b", [3, 4]),
])
def test_line_ends(data, lines):
    assert [h.line for h in scan_bytes([data])] == lines


def test_bad_bytes_never_lose_the_rest():
    data = b"urn:example:a \xff\xfe\x00 NUL\x00urn:example:b \xc3( urn:example:c"
    assert [h.urn for h in scan_bytes([data])] == ["urn:example:a", "urn:example:b", "urn:example:c"]


def test_over_long_candidate_is_reported_not_buffered():
    data = b"x urn:example:" + b"a" * 5000 + b" then urn:example:b"
    hits = list(scan_bytes([data], max_urn_length=1000))
    assert [h.codes for h in hits] == [("over-long",), ("example-namespace",)]
    assert hits[0].start == 2 and hits[0].end == 2 + 12 + 5000 and not hits[0].valid
    assert len(hits[0].urn) == 1000
    assert hits[1].urn == "urn:example:b"


@pytest.mark.parametrize("separator", [b";", b",", b"&", b"/", b"%20"])
@pytest.mark.parametrize("chunk", [5, 1000, 1 << 20])
def test_a_list_longer_than_the_cap_on_one_line_gives_every_item(separator, chunk):
    # the run of URN characters goes past the cap, its first item does not:
    # each item is read as in a short list (it was one over-long hit)
    items = [b"urn:isbn:%010d" % i for i in range(300)]
    data = b"x " + separator.join(items) + b" end urn:example:b"
    hits = list(scan_bytes([data[i:i + chunk] for i in range(0, len(data), chunk)], max_urn_length=256))
    assert [h.urn.encode() for h in hits] == items + [b"urn:example:b"]
    assert all(h.valid for h in hits)
    short = separator.join(items[:3])
    assert [h.rules for h in hits[:2]] == [h.rules for h in scan_bytes([b"x " + short + b" end"])][:2]
    # a first item longer than the cap stays over-long
    data = b"x urn:example:" + b"a" * 300 + separator + b"urn:ex:b"
    assert [h.codes for h in scan_bytes([data], max_urn_length=256)][0] == ("over-long",)


@pytest.mark.parametrize("chunk", [7, 1 << 20])
def test_a_candidate_folded_past_the_cap_is_over_long_not_cut(chunk):
    data = b"   urn:example:a" + b"x-\n   " * 300 + "end and urn:example:b\n\u00e9".encode()
    hits = list(scan_bytes([data[i:i + chunk] for i in range(0, len(data), chunk)], max_urn_length=1000))
    assert [h.codes for h in hits] == [("over-long",), ("example-namespace",)]
    assert hits[0].urn == "urn:example:ax-" and not hits[0].valid
    assert hits[1].urn == "urn:example:b"
    # ... under the cap, it is joined
    assert [h.urn for h in scan_bytes([data])] == ["urn:example:a" + "x-" * 300 + "end", "urn:example:b"]
    # adjacent literals too
    code = b'x = ("urn:example:a-"' + b'\n     "bc-"' * 300 + b')'
    assert [h.codes for h in scan_bytes([code], max_urn_length=1000)] == [("over-long",)]


def test_public_names():
    from urnscan import model, scanner

    for name, owner in (("scan_text", scanner), ("scan_bytes", scanner), ("scan_file", scanner), ("Hit", model)):
        assert name in urnscan.__all__ and getattr(urnscan, name) is getattr(owner, name)
    hits = list(urnscan.scan_text("see urn:isbn:0451450523."))
    assert [(type(h), h.urn, h.start) for h in hits] == [(urnscan.Hit, "urn:isbn:0451450523", 4)]


@pytest.mark.parametrize("cap", [16, 40, 67])
def test_long_nid_under_a_small_cap_is_over_long(cap):
    data = b"x urn:" + b"n" * 60 + b":value then urn:ex:b"
    hits = list(scan_bytes([data], max_urn_length=cap))
    assert hits[0].codes == ("over-long",) and hits[0].start == 2
    assert hits[-1].urn == "urn:ex:b"


@pytest.mark.parametrize("text, dedup_key, rules", [
    ("URN:ISBN:0-395-36341-1", "urn:isbn:9780395363416", "isbn-hyphens,isbn-10-to-13"),
    ("urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6", "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "uuid-case"),
    ("urn:oid:1.3.06.1", "urn:oid:1.3.6.1", "h:oid-leading-zeros"),
    ("urn:ietf:rfc:2141", "urn:ietf:rfc:2141", ""),
    ("urn:ab-:x", None, None),
])
def test_dedup_key_and_its_rules(text, dedup_key, rules):
    (hit,) = scan_text(text)
    assert (hit.dedup_key, hit.dedup_rules) == (dedup_key, rules)
    if hit.ns_key is not None:
        from urnscan.namespaces import dedup_key as heuristic_key

        assert hit.dedup_key == heuristic_key(hit.ns_key)[0]  # never splits what ns_key merges


def test_wrong_input_types_say_what_to_use():
    with pytest.raises(TypeError, match="scan_bytes"):
        list(scan_text(b"urn:a:b"))
    with pytest.raises(TypeError, match="scan_text"):
        list(scan_bytes(["urn:a:b"]))
    with pytest.raises(TypeError, match="scan_text"):
        list(scan_bytes("urn:a:b"))
    with pytest.raises(TypeError, match="path"):
        list(urnscan.scan_file(0))
    with pytest.raises(TypeError, match="validate"):
        urnscan.validate_keys("urn:ab:c")
    for bad in (None, 4.5, 8, 15, (1 << 20) + 1, 10 ** 12):
        with pytest.raises(ValueError, match="max_urn_length"):
            list(scan_text("urn:a:b", max_urn_length=bad))
    for good in (16, 1 << 20):  # the bounds themselves are taken
        assert [h.urn for h in scan_text("see urn:a:b", max_urn_length=good)] == ["urn:a:b"]


def test_scan_bytes_takes_one_bytes_object_too():
    data = b"see urn:isbn:0451450523 and urn:ietf:rfc:2141."
    assert list(scan_bytes(data)) == list(scan_bytes([data])) == list(scan_bytes([data[:9], data[9:]]))
    assert [h.urn for h in scan_bytes(bytearray(data))] == ["urn:isbn:0451450523", "urn:ietf:rfc:2141"]


@pytest.mark.parametrize("data, a, b, expected", [
    (b"a\nb\rc\r\nd", 0, 8, 3), (b"\r\n\r\n", 0, 4, 2), (b"\r\r\n\n", 0, 4, 3), (b"x\r\ny", 2, 4, 1),
    (b"x\r\ny", 0, 2, 1), (b"no breaks", 0, 9, 0), (b"\n" * 9000 + b"\r", 0, 9001, 9001), (b"", 0, 0, 0),
])
def test_count_breaks(data, a, b, expected):
    from urnscan.scanner import count_breaks

    assert count_breaks(data, a, b) == expected
    if b"\r" not in data:
        assert count_breaks(data, a, b, may_have_cr=False) == expected


def test_the_largest_max_urn_length_still_bounds_what_the_scanner_holds():
    from urnscan.scanner import MAX_URN_LENGTH_LIMIT, ByteScanner, _options

    scanner = ByteScanner("x", _options(max_urn_length=MAX_URN_LENGTH_LIMIT))
    chunk = b"a" * (1 << 20)
    hits = scanner.feed(b"see urn:ex:")
    held = 0
    for _ in range(24):  # a run of 24 MiB of name characters
        hits += scanner.feed(chunk)
        held = max(held, len(scanner._buf))
    hits += scanner.finish()
    assert [h.codes for h in hits] == [("over-long",)]
    assert held <= 2 * MAX_URN_LENGTH_LIMIT + 4 * len(chunk)
