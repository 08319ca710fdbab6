"""Each reading rule as a table of (text, expected URNs), in the languages
people write URNs in, plus properties of pairing over generated text."""
import random
import re

import pytest
from hypothesis import example, given, settings, strategies as st

from urnscan import scan_bytes, scan_text
from urnscan.extract.trim import trim


def urns(text, **options):
    return [h.urn for h in scan_text(text, **options)]


def rules_of(text, **options):
    return [(h.urn, h.rules) for h in scan_text(text, **options)]


# --- delimiter pairing -------------------------------------------------------
@pytest.mark.parametrize("text, expected", [
    # XML attributes in single quotes (XMPP stanzas)
    ("<presence><c xmlns='urn:xmpp:caps:1'/></presence>", ["urn:xmpp:caps:1"]),
    ("<x xmlns='urn:example:form'><field var='urn:example:f:2'/></x>", ["urn:example:form", "urn:example:f:2"]),
    # Python dict keys and calls
    ("FEATURES = {'urn:example:feat:0': 'Feature', 'urn:example:feat:1': 'Other'}",
     ["urn:example:feat:0", "urn:example:feat:1"]),
    ("stanza.find('{urn:example:ns:1}item')", ["urn:example:ns:1"]),
    ("register('urn:example:plugin:2', handler)", ["urn:example:plugin:2"]),
    # JavaScript switch, PHP arrays, Java annotations
    ("case 'urn:example:grant:refresh':\n  return true;", ["urn:example:grant:refresh"]),
    ("$map = ['urn:example:attr:mail' => 'mail', 'urn:example:attr:cn' => 'cn'];",
     ["urn:example:attr:mail", "urn:example:attr:cn"]),
    ('@XmlSchema(namespace = "urn:example:schema:v2")', ["urn:example:schema:v2"]),
    # parentheses: the URN ends at the ")" closing the "(" before it
    ("(urn:example:a)", ["urn:example:a"]),
    ("(see urn:example:a) then", ["urn:example:a"]),
    ("(urn:sici:0000-0000(199501)13:1)", ["urn:sici:0000-0000(199501)13:1"]),  # balanced inside: kept
    ("f(urn:example:a(b)c) + 1", ["urn:example:a(b)c"]),
    # typographic quotes and backticks (Markdown)
    ("the name \u2018urn:example:typo:1\u2019 and \u201curn:example:typo:2\u201d", ["urn:example:typo:1",
                                                                                  "urn:example:typo:2"]),
    ("Use `urn:example:md:code` in the header.", ["urn:example:md:code"]),
    # no opener: an apostrophe inside the NSS stays
    ("see urn:example:o'brien:1 now", ["urn:example:o'brien:1"]),
    ("the name urn:example:dog's.", ["urn:example:dog"]),  # an English possessive
    ("urn:xmpp:mam:2's semantics", ["urn:xmpp:mam:2"]),
    # a quote opened typographically and closed straight; an apostrophe inside stays
    ("<channel xmlns=\u2018urn:example:mix:0'/>", ["urn:example:mix:0"]),
    ("by the \u2018urn:example:roster:0' namespace.", ["urn:example:roster:0"]),
    ("the \u2018urn:example:o'brien:1\u2019 name", ["urn:example:o'brien:1"]),
])
def test_pairing(text, expected):
    assert urns(text) == expected


# (text, what is read, the rules that trimmed it)
COMMENT_CLOSES = [
    ("/* the syntax used could be (urn:ogc:def:objectType:authority:code)*/",
     "urn:ogc:def:objectType:authority:code", ("pair:paren",)),
    ("/* (syntax: urn:ogc:def:objectType:authority:code)*/", "urn:ogc:def:objectType:authority:code",
     ("trim:comment", "trim:paren")),
    ("/* see urn:ietf:rfc:2141*/\n", "urn:ietf:rfc:2141", ("trim:comment",)),
    ("<!-- identifier: urn:nbn:de:bsz:14-qucosa-38418-->", "urn:nbn:de:bsz:14-qucosa-38418", ("trim:comment",)),
    ("<!-- see urn:ietf:rfc:2141.-->", "urn:ietf:rfc:2141", ("trim:comment", "trim:period")),
    # no comment's close: a "--" that no ">" follows, a "*" alone, "/*" a path's wildcard step
    ("the name urn:example:a-- then", "urn:example:a--", ()),
    ("<x>urn:example:a--</x>", "urn:example:a--", ()),
    ("see urn:example:a* here", "urn:example:a", ("trim:mark",)),
]


@pytest.mark.parametrize("text, urn, rules", COMMENT_CLOSES)
def test_a_comment_close_after_a_name_is_not_part_of_it(text, urn, rules):
    assert rules_of(text) == [(urn, rules)]


def test_pairing_names_its_rule_and_can_be_turned_off():
    assert rules_of("<c xmlns='urn:xmpp:caps:1'/>") == [("urn:xmpp:caps:1", ("pair:quote",))]
    assert rules_of("(urn:example:a)x") == [("urn:example:a", ("pair:paren",))]
    assert urns("<c xmlns='urn:xmpp:caps:1'/>", pair=False) == ["urn:xmpp:caps:1'/"]


# --- code awareness ----------------------------------------------------------
@pytest.mark.parametrize("text", [
    # a NID with an empty NSS: never a URN
    "if s.startswith('urn:uuid:'):",
    "if (id.startsWith(\"urn:isbn:\")) {",
    "x = 'urn:uuid:')",
    "prefix = \"urn:example:\"\n",
    # a quoted prefix followed by concatenation
    "id = 'urn:example:item:' + str(n)",
    "const id = \"urn:example:item-\" + uuid();",
    "local id = 'urn:example:lua:' .. name",
    "$id = 'urn:example:php:' . $name;",
    "$id = \"urn:example:php:\".$name;",
    "SELECT 'urn:example:sql:' || id FROM t;",
    "'<urn:uuid:' + uuid() + '>'",
    "String s = \"urn:example:java:\" + count;",
    "String s = \"urn:example:java:\".concat(id);",
    "const u = 'urn:example:js:item-'.concat(id, ':', n);",
    "const u = 'urn:example:js:a'.concat(suffix);",
    "scope = \"openid urn:matrix:org.matrix.msc2967.client:device:\".concat(deviceId);",
    # format and interpolation placeholders
    "name = 'urn:example:seq:%d' % n",
    "ns = \"urn:example:hash:%s\" % algo",
    "printf(\"urn:example:c:%s:%d\\n\", a, b);",
    "Value: fmt.Sprintf(\"urn:uuid:%v\", value),",
    "snprintf(buf, n, \"urn:uuid:%08lx-%04lx-%04lx\", a, b, c);",
    "printf(\"urn:example:c:%lu\\n\", n);",
    "io_lib:format(\"urn:uuid:~8.16.0b-~4.16.0b\", [A, B])",
    "io_lib:format(\"urn:example:erl:~s\", [X])",
    "'urn:example:fmt:{}'.format(x)",
    "f'urn:example:fmt:{name}'",
    "const u = `urn:example:js:${id}`;",
    "id = \"urn:example:rb:#{id}\"",
    "ID=\"urn:example:sh:$VERSION\"",
    'my $u = "urn:example:item-$id";',
    'my $u = "urn:example:v${ver}";',
    "echo urn:uuid:$(uuidgen)",
    "echo \"urn:example:sh:${NAME}\"",
    "namespace=urn:example:ac:@PACKAGE_VERSION@",
    "WHERE urn LIKE 'urn:example:sql:%'",
    "WHERE v::text LIKE '%urn:example:sql:%'",
    "WHERE v LIKE '%urn:example:sql:abc%' AND x",
    # ... also inside a 1995 wrapper
    'sprintf(buf, "<urn:uuid:%s>", id);',
    'fprintf(f, "WARC-Record-ID: <urn:uuid:%08x-%04x-%04x-%04x>\\r\\n", a, b, c, d);',
    '    return "<urn:uuid:%s>" % uuid.uuid4()',
    '"Content-ID: <urn:uuid:$part_id>\\r\\n".',
    # a shell word goes on with a variable
    'URN="urn:example:person:"$ID',
    "URN='urn:example:person:'${ID}",
    # a word between asterisks for a part of the name: documentation's placeholder
    '"urn:example:rng:*information-type*.rng:*version*"',
    "the form urn:example:*kind*:1 where",
    # regular expressions
    "re.compile(r'^urn:example:id:(\\d+)$')",
    "re.compile('urn:example:id[^1]+')",
    "pattern = (a|^urn:example:id)",
    "x|^urn:example:a|",
    "if ($urn =~ /urn:example:id:(\\S+)/i)",
    "pattern = \"urn:example:.*\"",
    "m = re.match('(?:urn:example:x:)?(.+)', s)",
    "re.compile(r'urn:example:(?P<nss>.+)')",
    "grep -E 'urn:example:[0-9]+'",
    '   .matches("(?:^|.*\\\\s)urn:example:saml:2\\\\.0:protocol(?:\\\\s.*|$)"))',
    "  $ns =~ s/urn:example:params:xml:/ietf:/;",
    "  $value =~ s/urn:example:network:domain=//xm;",
    # JavaScript regular-expression literals (ECMA-262 section 12.9.5)
    "if (/urn:example:uuid:/i.test(x)) {",
    "const A={P:/urn:example:dash:state:/,M:1};",
    "  URL_QUERY_STATE_PREFIX: /urn:example:dash:state:/,\n",
    "id = id.replace(/urn:example:uuid:/g, '');",
    "const re = /urn:example:a:b/\n",
    # SQL's "||" after a literal that no comparison "==" or "!=" precedes
    "WHERE x = 'urn:example:sql:a' || id",
    "if ($x =~ m{urn:example:a}) {",
    # templates (also with "<" escaped in XML or HTML source)
    "urn:example:ns:yang:{module}",
    "<p>named urn:example:apps:&lt;app&gt;:&lt;version&gt; here</p>",
    "<p>the node 'urn:example:keys:&#60;fingerprint&#62;'</p>",
    "URN:EXAMPLE:<ISAN-NSS>",
    "urn:example:source:[name]",
    "m = re.match('urn:example:a,[0-9]+', s)",  # a character class after a ",": a pattern
    # a character class after a letter or digit: a regular expression
    "re.compile('urn:example:isbn:97[89][0-9]{10}')",
    "m = re.match(r'urn:example:a[xX]?', s)",
    # ... or an optional part
    '<li>Each name shall be of the form "urn:example:ShortName[:SubName]".</li>',
    # the rest of the name is a TeX macro (LaTeX3's "\g_..._tl") or in a
    # roff font change: a placeholder
    "{\\URN:~urn:nbn:de:tuda-tuprints-\\g_ptxcd_thesis_urn_tl}\\\\",
    "\\newcommand{\\thesisurn}{urn:nbn:de:example-\\thesisid}",
    ".B urn:example:params:xml:ns:yang:\\fImodule\\fR",
    # a wildcard after a separator: a pattern of names
    "namespaces of the form urn:example:mix:nodes:* where * is the name",
    "matching urn:nbn:de:bsz:14-qucosa-* only",
    "every name looks like <URN:IANA:...> here",
    # code highlighted by Pygments: the interpolation is a span of its own
    "<span class=\"s1\">'urn:example:hash:</span><span class=\"si\">%s</span><span class=\"s1\">'</span>",
    # an empty element, its name a QName, escaped or not
    "<urn:example:caldav:calendar/>",
    "&lt;urn:example:caldav:calendar/&gt;",
    # the alternatives of a pattern
    "'{^(DAV:|urn:example:xml:ns:ca(rd|l)dav):}'",
    "transports use urn:example:jingle:transports:*.",
    "<p>under urn:example:a/*</p>",
    # elided examples
    "'urn:example:...:leaf'",
    "urn:example:params:... and so on",
    # ... a name cut off by an ellipsis inside its quotes
    '"urn:example:isbn:978..."',
    "| CTS URNs (`urn:example:cts:tlg\u2026`), work |",
    "\u201curn:example:a\u2026\u201d",
    "the arc urn:oid:1.3.6.1.4.1.\u2026 and below",
    # ... or after an OID's arcs, which it goes on with (a sentence's ellipsis follows a whole name)
    "code systems are URLs, not OIDs like urn:oid:2.16.840...",
    "the arc urn:oid:2.16.840\u2026 and below",
    # digits written as "#"
    "      urn:example:doc:####   ->  https://doc.example/####.txt",
    # the text column of a hex dump (hexdump -C, xxd, od, Wireshark, RFC dumps)
    "00000010  27 75 72 6e 3a 65 78 61  6d 70 6c 65 3a 64 75 6d  |'urn:example:dum|\n",
    "00000010: 2775 726e 3a65 7861 6d70 6c65 3a64 756d  'urn:example:dum\n",
    "0000   a2 01 78 24 75 72 6e 3a 65 78 61 6d 70 6c 65 3a   ..x$urn:example:\n",
    "      0530  3d75 726e 3a65 7861 6d70 6c65 3a61 6263  =urn:example:abc\n",
    # a regular expression's escaped parenthesis after the name
    'pattern = r"urn:example:group:\\([A-z0-9]+,[A-z0-9]+\\)"',
    'pattern = "urn:example:group:\\\\(\\\\d+\\\\)"',
    # a placeholder in parentheses, a wildcard in a quotation of prose
    "   Contact: <sip:alice@example.com;gr=urn:uuid:(Alice's UA's bits)>",
    '   of the form "urn:ietf:params:xml:ns:xmpp-*" specified in the XMPP RFCs',
    '   such as "urn:example:MyCompany:*" instead of',
    # a prefix in a call whose value is concatenated, or appended to, or
    # the first argument of a concatenating call
    'auto ns = std::string("urn:example:params:xml:ns:yang:") +\n    module;',
    "x = str('urn:example:a:') + y",
    'out << "urn:uuid:" << id;',
    'const NS: &str = concat!("urn:example:rtp-hdrext:", $suffix);',
    "SELECT CONCAT('urn:example:person:', id) FROM t;",
    # a variable in a fragment that is no JSON Pointer, or braced in one, or
    # before the fragment
    '"urn:example:a#$x"',
    '"urn:example:a#x/$y"',
    '"urn:example:a#/${x}"',
    '"urn:example:a#/$(x)"',
    '"urn:example:a:$x#/b"',
])
def test_code_is_not_a_urn(text):
    assert urns(text) == []


# --- RFC 5134's patterns of EPCs: "*" is a component (GS1's EPC Tag Data Standard) ---
@pytest.mark.parametrize("text, expected", [
    ("The pattern urn:epc:idpat:sgtin:0614141.112345.* matches all serials.",
     [("urn:epc:idpat:sgtin:0614141.112345.*", ())]),
    ("Filter: urn:epc:idpat:sgtin:0614141.*.* and urn:epc:id:sgtin:0614141.112345.400.",
     [("urn:epc:idpat:sgtin:0614141.*.*", ()), ("urn:epc:id:sgtin:0614141.112345.400", ("trim:period",))]),
    ('"urn:epc:pat:sgtin-96:3.0614141.112345.*"', [("urn:epc:pat:sgtin-96:3.0614141.112345.*", ())]),
    ("(urn:epc:idpat:sgtin:0614141.112345.*).", [("urn:epc:idpat:sgtin:0614141.112345.*", ("pair:paren",))]),
    # ... elsewhere a "*" after a separator is a wildcard, and ".*" a regular expression's
    ("see urn:epc:id:sgtin:0614141.112345.* here", []),
    ("see urn:example:idpat:a.* here", []),
])
def test_patterns_of_epcs(text, expected):
    assert rules_of(text) == expected


@pytest.mark.parametrize("text, expected", [
    # a name written as a pattern, its parts words that stand for others, is
    # reported as written: nothing in its syntax marks a placeholder (XEP-0053's
    # "of the form "urn:xmpp:ShortName:0""), whatever the prose says of it
    ('URNs of the form "urn:example:apps:name:X" (where "name" is the registered name)',
     ["urn:example:apps:name:X"]),
    ("designators such as urn:example:params:ext, where\n   'ext' is the name of the extension.",
     ["urn:example:params:ext"]),
    # a run of "x" that is not a whole part of the name
    ("see urn:example:boxxxx:1 and urn:example:xxxxb here", ["urn:example:boxxxx:1", "urn:example:xxxxb"]),
    # letters written for digits, or for a whole part of the name, the same:
    # well-formed as written (the namespace's checks flag a malformed ISBN,
    # UUID or OID), as the gold set's readers report "urn:isbn:978-4-XXXX-YYYY-Z"
    ("id = urn:uuid:xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx here", ["urn:uuid:xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx"]),
    ("// urn:uuid:xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx,  or \"\" if uuid is invalid",
     ["urn:uuid:xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"]),
    ("the form urn:isbn:xxx-x-xxxx-xxxx-x; or", ["urn:isbn:xxx-x-xxxx-xxxx-x"]),
    ('the set of URNs of the form "urn:isbn:n-nn-nnnnnn-n" is a URN namespace',  # RFC 3305 section 2
     ["urn:isbn:n-nn-nnnnnn-n"]),
    ("<dc:identifier id=\"isbn-id\">urn:isbn:978-4-XXXX-YYYY-Z</dc:identifier>", ["urn:isbn:978-4-XXXX-YYYY-Z"]),
    ('"urn:uuid:XXXXXXXX-XXXX-MXXX-NXXX-XXXXXXXXXXXX"', ["urn:uuid:XXXXXXXX-XXXX-MXXX-NXXX-XXXXXXXXXXXX"]),
    ("        'attrname' => 'urn:oid:x.x.x.x',", ["urn:oid:x.x.x.x"]),
    ("below the arc urn:oid:1.3.6.1.4.1.X.X.X.", ["urn:oid:1.3.6.1.4.1.X.X.X"]),
    ('as well as "urn:example:meetings#xxxxxx" (where xxxxx is the service) namespaces',
     ["urn:example:meetings#xxxxxx"]),
    ("  * support urn:example:def:crs:EPSG::XXXX in the importer", ["urn:example:def:crs:EPSG::XXXX"]),
    ("the node urn:example:a:nnnnnn/b", ["urn:example:a:nnnnnn/b"]),
    (" urn:example:xxxx-\n  1 x", ["urn:example:xxxx-1"]),
])
def test_words_standing_for_parts_keep_a_name(text, expected):
    assert urns(text) == expected


@pytest.mark.parametrize("text", [
    # PHP and Perl concatenation: " ." before a name, or a whole that is a pattern
    "'schacUserStatus' => '@urn:mace:terena.org:userStatus:' .\n        'example.org:service:active.*@',",
    "echo \"urn:example:a:\" . PHP_EOL;",
    # literals joined, then concatenated with a variable: a template
    'id = "urn:example:a:" + "b:" + n',
    'Id = "urn:example:a:" ++ Name',
])
def test_concatenation_over_lines_is_not_a_urn(text):
    assert urns(text) == []


@pytest.mark.parametrize("text, expected", [
    # string literals concatenated by an operator make one string (fold:literal)
    ('   .nameIdFormat(\n       "urn:oasis:names:tc:SAML:2.0:" +\n       "nameid-format:emailAddress")',
     ["urn:oasis:names:tc:SAML:2.0:nameid-format:emailAddress"]),
    ('String f = "urn:oasis:names:tc:SAML:2.0:nameid-"\n    + "format:persistent";', ["urn:oasis:names:tc:SAML:2.0:nameid-format:persistent"]),
    ("$x = 'urn:example:a:' .\n  'b';", ["urn:example:a:b"]),
    ('$x = "urn:example:a" . "b";', ["urn:example:ab"]),
    ("local id = 'urn:example:lua:' .. 'x'", ["urn:example:lua:x"]),
    ('X = "urn:example:erl:" ++ "x"', ["urn:example:erl:x"]),
    ('@ns "urn:example:ex:" <> "x"', ["urn:example:ex:x"]),
    ('#define NS "urn:example:c:" \\\n    "x"', ["urn:example:c:x"]),
    # ... a literal that is no name's rest is not joined: the name is whole
    ('x = "urn:example:a" + " b"', ["urn:example:a"]),
    # ... nor a key on the next line (the line above lacks its comma)
    ('  "srsName": "urn:ogc:def:crs:EPSG::4326"\n  "crs": {"type": "name"}', ["urn:ogc:def:crs:EPSG::4326"]),
    ("ns = {'urn:example:py:'\n      'key' : 1}", ["urn:example:py:"]),
    ('<x a="urn:example:in:x"\n"crs": 1>', ["urn:example:in:x"]),
    ('NS = ("urn:example:py:"\n      "key")', ["urn:example:py:key"]),
    ('x = "urn:example:a" "-b";', ["urn:example:a-b"]),
    # ... nor a literal that a key's "=" follows (a PowerShell hash table, TOML)
    ("  'org'  = 'urn:example:scim:User:org'\n  'num'  = 'urn:example:scim:User:num'\n",
     ["urn:example:scim:User:org", "urn:example:scim:User:num"]),
    ('  "grant" = "urn:example:grant:device"\n  "code" = $r.code\n', ["urn:example:grant:device"]),
    ('"a" = "urn:oid:2.999.1"\n"b" = "urn:oid:2.999.2"\n', ["urn:oid:2.999.1", "urn:oid:2.999.2"]),
    # ... nor, with no operator between them, the next item of a list, the
    # two literals meeting between letters or digits (a shell command's
    # arguments, a Lisp form, a DOCTYPE's public and system identifiers)
    ('curl -d "urn:example:grant:jwt" "$token"', ["urn:example:grant:jwt"]),
    ('{"type" "urn:example:grant:jwt" "sub" "x"}', ["urn:example:grant:jwt"]),
    ('<!DOCTYPE t PUBLIC "urn:example:doctypes:task"\n  "http://example.org/t.dtd">', ["urn:example:doctypes:task"]),
    ('<!DOCTYPE t PUBLIC "urn:example:dtd:concept" "concept.dtd">', ["urn:example:dtd:concept"]),
    ('[ "urn:example:a:b" "c" ]', ["urn:example:a:b"]),
    # a name opened by an escaped quote ends at the escaped quote closing it,
    # in whichever literal (XML in a Java, C or JSON string)
    ('String s = "<r xmlns=\\"urn:example:names:tc:SAML:2.0:" +\n    "protocol\\">";',
     ["urn:example:names:tc:SAML:2.0:protocol"]),
    ('const char *e = "<errors xmlns=\\"urn:example:params:xml:ns:"\n    "yang:ietf-restconf\\">";',
     ["urn:example:params:xml:ns:yang:ietf-restconf"]),
    ('x = "<a ns=\\"urn:example:p:" "xml:ns:" "yang:x\\" b=\\"c\\">";', ["urn:example:p:xml:ns:yang:x"]),
    ("x = '<a ns=\\'urn:example:a:b:' + 'c\\'>'", ["urn:example:a:b:c"]),
    ('x = "urn:example:a:b:" "c\\"d"', ["urn:example:a:b:"]),  # an escaped quote closes only what one opened
    # ... and one opened by a quote of the other kind (an XML attribute's in a
    # Java, C#, Go or Python string) at that quote's closer, in whichever literal
    ('String s = "<iq><query xmlns=\'urn:ietf:params:xml:ns:" +\n    "xmpp-bind\'/></iq>";',
     ["urn:ietf:params:xml:ns:xmpp-bind"]),
    ('s = "<x a=\'urn:example:a:" "b\' c=\'d\'/>"', ["urn:example:a:b"]),
    ('s = "<x a=\'urn:example:a:" + "b" + "c\'/>"', ["urn:example:a:bc"]),
    ('s = "<x a=\'urn:example:a:" + x + "\'/>"', []),
    ('s = "<x a=\'urn:example:a:" + "b" + x', []),
    # Python's triple-quoted literals
    ('x = ("""<r xmlns:p="urn:example:names:tc:SAML:"""\n     """1.0:protocol" V="1">""")',
     ["urn:example:names:tc:SAML:1.0:protocol"]),
    ("x = '''urn:example:names:tc:SAML:''' '''2.0:protocol'''", ["urn:example:names:tc:SAML:2.0:protocol"]),
    # the prefixes of Objective-C's and C's literals
    ('NSString *ns = @"urn:example:params:xml:ns:"\n    @"xmpp-stanzas";', ["urn:example:params:xml:ns:xmpp-stanzas"]),
    ('const wchar_t *ns = L"urn:example:params:" L"xml:ns:x";', ["urn:example:params:xml:ns:x"]),
    # ... and Python's string and bytes prefixes (an XML attribute inside them)
    ("x = (b'<a xmlns=\"urn:example:names:ubl:schema:xsd:'\n     b'CommonBasicComponents-2\">')",
     ["urn:example:names:ubl:schema:xsd:CommonBasicComponents-2"]),
    ('x = rb"urn:example:re:" Br"x"', ["urn:example:re:x"]),
    ("x = ('urn:example:py:'\n     R'key')", ["urn:example:py:key"]),
    ("x = ('urn:example:py:'\n     u'key')", ["urn:example:py:key"]),
    # ... not an f-string (its rest is a template), nor a name before a literal
    ('x = "urn:example:a:" f"{y}"', ["urn:example:a:"]),
    ('x = "urn:example:a:" b "c"', ["urn:example:a:"]),
    ('NSString *a = @"urn:example:a"; NSString *b = @"urn:example:b";', ["urn:example:a", "urn:example:b"]),
])
def test_concatenated_literals_are_one_string(text, expected):
    assert urns(text) == expected


@pytest.mark.parametrize("text, expected", [
    # a string that opens with markup, or an empty one, does not go on with the name
    ("'<ConfirmationMethod>' .\n    'urn:oasis:names:tc:SAML:1.0:cm:bearer' .\n    '</ConfirmationMethod>' .",
     ["urn:oasis:names:tc:SAML:1.0:cm:bearer"]),
    ("$x = '<a>' . 'urn:example:a:b' . '</a>';", ["urn:example:a:b"]),
    ("$x = 'urn:example:a:b' . '';", ["urn:example:a:b"]),
    # ... nor one that opens with a blank, an escape (a line break, a tab, a
    # quote) or a name of its own (Java, C#, Go, JavaScript, Kotlin, Python)
    ('String s = "urn:ietf:params:xml:ns:xmpp-bind" + "\\n";', ["urn:ietf:params:xml:ns:xmpp-bind"]),
    ('sb.append("urn:example:a:b" + "\\r\\n");', ["urn:example:a:b"]),
    ('w.write("urn:example:a:b" + "\\t" + value);', ["urn:example:a:b"]),
    ('x := "urn:example:a:b" + "\\"/>"', ["urn:example:a:b"]),
    ("s = 'urn:example:a:b' + ' ' + name", ["urn:example:a:b"]),
    ('val s = "urn:example:a:b" +\n    " and more"', ["urn:example:a:b"]),
    ('String s = "urn:example:a:b" +\n    "urn:example:c:d";', ["urn:example:a:b", "urn:example:c:d"]),
    ("$x = 'urn:example:a:b' . \"\\n\";", ["urn:example:a:b"]),
    ("q = 'urn:example:a:b' || ' '", ["urn:example:a:b"]),
    # ... but a literal that goes on with it is joined, and a variable, an
    # empty literal or one that opens a placeholder goes on with it
    ('x = "urn:example:a:" + "b"', ["urn:example:a:b"]),
    ('String s = "urn:example:a:" + id + "\\n";', []),
    ('String s = "urn:example:a:" + "" + id;', []),
    ('String s = "urn:example:a:" + "{0}";', []),
    ('String s = "urn:example:a:" + "%s\\n";', []),
    # a sentence's period, and a period after a blank that nothing follows
    ("He said 'urn:example:a'.", ["urn:example:a"]),
    # " ." ending a Turtle statement before the next one's prefixed name
    ('ns4:cts_urn\trdfs:label\t"urn:cts:EpiBau:epibau004" .\nns5:cts_urn rdfs:label "urn:cts:x:y" .\n',
     ["urn:cts:EpiBau:epibau004", "urn:cts:x:y"]),
    ('_:b0 dc:id "urn:example:a" .\n_:b1 dc:id "urn:example:b" .', ["urn:example:a", "urn:example:b"]),
    ("see 'urn:example:a' .\n\nNext", ["urn:example:a"]),
    # " ." ending a SPARQL triple pattern before a keyword of the group
    # graph pattern, or a Turtle statement before a SPARQL-style directive
    ('q = """SELECT ?s WHERE { ?s dc:id "urn:example:a" . FILTER(?s != ?o) }"""', ["urn:example:a"]),
    ("  ?s dc:id 'urn:example:b' .\n  OPTIONAL { ?s ?p ?o }", ["urn:example:b"]),
    ('  ?s dc:id "urn:example:c" . bind(?s AS ?t)', ["urn:example:c"]),
    ('<urn:example:s> dc:id "urn:example:d" .\nPREFIX ex: <http://example.org/>',
     ["urn:example:s", "urn:example:d"]),
    ("  ?s dc:id 'urn:example:e' .\n  GRAPH ?g { ?s ?p ?o }", ["urn:example:e"]),
    # a name that merely starts like one is PHP's or Perl's operand still
    ("$x = 'urn:example:f' . filtered($y);", []),
    ("$x = 'urn:example:g' . BASE_URL;", []),
    ("$x = 'urn:example:h' . graph_name();", []),
])
def test_concatenation_with_markup_leaves_the_name(text, expected):
    assert urns(text) == expected


def test_code_awareness_can_be_turned_off():
    assert urns("name = 'urn:example:seq:%d' % n", code=False) == ["urn:example:seq:%d"]


@pytest.mark.parametrize("text, expected", [
    # prose after a quoted URN is not concatenation
    ('the namespace "urn:example:a:b". The next', ["urn:example:a:b"]),
    ('as "urn:example:a" + a word', []),  # "+" after a quote reads as code
    ('names like "urn:example:a"... and more', ["urn:example:a"]),
    ("see urn:isbn:0451450523... and more", ["urn:isbn:0451450523"]),  # (the sentence's ellipsis)
    # "||" after a double quote is a logical OR (C, Java, Go), not SQL's concatenation
    ('  if t != "urn:example:oauth:jwt-bearer" ||\n     id != "x" {', ["urn:example:oauth:jwt-bearer"]),
    ('ok := a == "urn:example:a" || b', ["urn:example:a"]),
    # ... and after a single quote that a comparison precedes (JavaScript, PHP)
    ("  if (s !== 'urn:example:a:cb' ||\n      s === 'urn:example:b' || x)",
     ["urn:example:a:cb", "urn:example:b"]),
    ("return scheme ===\n    'urn:example:utc:sntp' || y;", ["urn:example:utc:sntp"]),
    ("if ($x != 'urn:example:php' || $y)", ["urn:example:php"]),
    # a bracket after a letter or digit opens no placeholder: an AsciiDoc
    # link's text, a footnote's mark
    ("link:https://nbn-resolving.org/urn:nbn:de:101:1-2020[URN]", ["urn:nbn:de:101:1-2020"]),
    ("see urn:isbn:0451450523[3] and more", ["urn:isbn:0451450523"]),
    ("see urn:isbn:0451450523[^1] and urn:ietf:rfc:8141[^rfc-note].", ["urn:isbn:0451450523", "urn:ietf:rfc:8141"]),
    # ... nor one after the "," or ";" ending a value: the next value of a
    # record or an array
    ("683567713,Aa,vd18#10198547/urn#urn:nbn:de:gbv:3:1-114513,[],lat,['AB 71 B 3/g, 23'],582",
     ["urn:nbn:de:gbv:3:1-114513"]),
    ("ids: urn:example:a:1;[2, 3]", ["urn:example:a:1"]),
    ("row urn:example:a:1,{\"k\": 1}", ["urn:example:a:1"]),
    # a "/" after a word is a path's or a division's, no regular expression
    ("see /urn:example:a:b/ for it", ["urn:example:a:b"]),
    ("http://h.org/urn:example:a:b/", ["urn:example:a:b"]),
    ("x = a /urn:example:a:b/ 2", ["urn:example:a:b"]),
    # an end tag after a prefix is markup, not a template
    ("<prefix>urn:example:p:</prefix>", ["urn:example:p:"]),
    # a backslash after a whole name: a TeX macro or a string's escape, not a placeholder
    ("urn:nbn:de:bsz:16-heidok-74406\\footnote{x}", ["urn:nbn:de:bsz:16-heidok-74406"]),
    ("see urn:nbn:de:bsz:16-heidok-74406\\\\ next", ["urn:nbn:de:bsz:16-heidok-74406"]),
    ('printf("urn:example:a:b-\\n");', ["urn:example:a:b-"]),
    ("urn:example:ietf\\-interfaces", ["urn:example:ietf-interfaces"]),
    # a URL's path that a TeX macro follows ends there
    ("from https://xmpp.org/protocols/urn:example:time/\\MessageBreak%", ["urn:example:time"]),
    # percent-encoding is not a placeholder
    ("urn:example:a%2Fb%3Ad", ["urn:example:a%2Fb%3Ad"]),
    ("urn:example:a%zz", ["urn:example:a%zz"]),  # broken encoding: reported, judged invalid
    ("urn:example:x%2d%2C", ["urn:example:x%2d%2C"]),
    # a "~" that starts no format directive
    ("urn:example:a~b and urn:example:~user:1", ["urn:example:a~b", "urn:example:~user:1"]),
    # a literal "$" or "@" inside a name that is no variable
    ("urn:example:price:5$ ok", ["urn:example:price:5$"]),
    # ... after a letter or digit ("$" is one of RFC 8141's sub-delims; RFC 3615 section 3)
    ("      urn:example:xsd:epp$mi.i-2.0\n      urn:example:type:fin$103\n",
     ["urn:example:xsd:epp$mi.i-2.0", "urn:example:type:fin$103"]),
    # a URN:LEX's manifestation after "$" (RFC 9676 section 3.2)
    ("urn:lex:it:stato:legge:2006-05-14;22$text-html x", ["urn:lex:it:stato:legge:2006-05-14;22$text-html"]),
    # the code of a MARC subfield before the URN (ISO 2709's 0x1F, shown as "\u2021")
    ("^7 \x1faurn:nbn:de:bvb:12-bsb00041099-5\x1f2urn\x1e", ["urn:nbn:de:bvb:12-bsb00041099-5"]),
    ("=024  7_\u2021aurn:nbn:de:bvb:12-bsb00041099-5\u20212urn", ["urn:nbn:de:bvb:12-bsb00041099-5"]),
    # a roff font change before the URN (groff(7): "\fI", "\f(CW"), and
    # pod2man's quotes around a C<...> span ("\*(C`", "\*(C'"), a size
    # change after it: roff's escapes, not a regular expression's
    (r"Use \fIurn:ietf:params:xml:ns:yang:ietf-interfaces\fR here.", ["urn:ietf:params:xml:ns:yang:ietf-interfaces"]),
    (r"""as in \&\*(R"\f(CW\*(C`urn:uuid:f81d4fae\-7dec\-11d0\-a765\-00a0c91e6bf6\*(C'\fR".""",
     ["urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"]),
    (r"The \f(CWurn:oid:2.25.329800735698586629295641978511506172918\fP arc", ["urn:oid:2.25.329800735698586629295641978511506172918"]),
    (r"the \fIURN:ISBN:0451450523\s0 form", ["URN:ISBN:0451450523"]),
    (r"see urn:example:a\*[dq] x", ["urn:example:a"]),
    # a string literal's escapes before the URN (JSON, RFC 8259 section 7; C;
    # JavaScript): a line break or a tab, "<" as Go's encoder writes it
    (r'{"redirect_uri": "http://127.0.0.1:12345/cb\nurn:ietf:wg:oauth:2.0:oob"}', ["urn:ietf:wg:oauth:2.0:oob"]),
    (r'"description": "ID Token\r\nurn:x-oca:ocpp:uid:2:233247\r\nContains"', ["urn:x-oca:ocpp:uid:2:233247"]),
    (r'printf("id:\turn:example:a\n");', ["urn:example:a"]),
    (r'{"ref": "\u003curn:ietf:rfc:2141\u003e"}', ["urn:ietf:rfc:2141"]),
    (r"x = 'see \x22urn:example:b\x22'", ["urn:example:b"]),
    # RTF's "\'hh", a character of the code page by its value (RTF 1.9.1):
    # quotes, a no-break space, Shift_JIS's "「" before the name
    (r"{\rtf1\ansi\ansicpg1252 Siehe \'84urn:ietf:rfc:8141\'93.\par}", ["urn:ietf:rfc:8141"]),
    (r"{\rtf1 Voir \'ab\'a0urn:isbn:0451450523\'a0\'bb.}", ["urn:isbn:0451450523"]),
    (r"{\rtf1\ansicpg932 \u12300\'81\'75urn:isbn:0451450523\u12301\'81\'76}", ["urn:isbn:0451450523"]),
    # ... not an escaped backslash's, nor a "'" and two hex digits alone
    (r"{\rtf1 \\'84urn:ietf:rfc:8141}", []),
    ("it's 'aburn:x:y' and l'84urn:x:y", []),
    # ... not after an escaped backslash ("C:\\nurn:" is "C:\" and a word)
    (r'"C:\\nurn:example:a"', []),
    # ... a letter before "urn:" without the escape is a word ("Iurn:"), and
    # a regular expression's escapes after it are a pattern
    ("fIurn:example:a", []),
    (r"'urn:example:a\s+'", []),
    (r"'urn:example:a\*'", []),
    # MARC mnemonic text (MarcEdit's .mrk): "$" and a code delimit a subfield in a line "=TAG  "
    ("=024  7\\$aurn:nbn:de:bvb:12-bsb00041099-5$2urn", ["urn:nbn:de:bvb:12-bsb00041099-5"]),
    ("=856  4\\$uhttp://nbn-resolving.de/urn/resolver.pl?urn=urn:nbn:de:bvb:12-bsb00041099-5$xResolving-System"
     "$zkostenfrei", ["urn:nbn:de:bvb:12-bsb00041099-5"]),
    # ... as after a name that starts a subfield's value itself (PICA+: codes of either case)
    ("004U $0urn:nbn:de:101:1-201209174957$S1", ["urn:nbn:de:101:1-201209174957"]),
    ("003@ $0123$aurn:nbn:de:101:1-2012$bx$0urn:isbn:0451450523", ["urn:nbn:de:101:1-2012", "urn:isbn:0451450523"]),
    # ... and nowhere else: a name may hold "$" and a letter
    ("=urn:lex:br:federal:lei:2002;10406~texto;pt$text-html", ["urn:lex:br:federal:lei:2002;10406~texto;pt$text-html"]),
    ("856 40 urn:lex:it:stato:legge:2006;22$text-html", ["urn:lex:it:stato:legge:2006;22$text-html"]),
    ("see urn:example:a$S1 here", ["urn:example:a$S1"]),
    # a "$" that starts a member's name in a JSON Pointer fragment (RFC 6901
    # section 6; JSON Schema's "$defs")
    ('{"$ref": "urn:uuid:deadbeef-1234-0000-0000-4321feebdaed#/$defs/bar"}',
     ["urn:uuid:deadbeef-1234-0000-0000-4321feebdaed#/$defs/bar"]),
    ('"$ref": "urn:example:schema#/properties/$id"', ["urn:example:schema#/properties/$id"]),
    # "$$" delimits a MARC record's subfields (Aleph's sequential export)
    ("000763726 655 7 L $$akirjat$$0http://urn.fi/URN:NBN:fi:au:slm:s1227$$9FENNI<KEEP>", ["URN:NBN:fi:au:slm:s1227"]),
    ('"urn:cts:greekLit:tlg0012$$n1" : "Homer"', ["urn:cts:greekLit:tlg0012"]),
    ("urn:example:user@example.org", ["urn:example:user@example.org"]),
    # "x" among other letters, or fewer than four: a name
    ("urn:example:xylophone-box and urn:example:boxxxxer", ["urn:example:xylophone-box", "urn:example:boxxxxer"]),
    ("urn:example:x-xxx-1", ["urn:example:x-xxx-1"]),
    ("urn:example:x.x.y and urn:example:x.x", ["urn:example:x.x.y", "urn:example:x.x"]),
    # a prefix that goes on with a literal, or is no call's value
    ("SELECT CONCAT('urn:example:person:', 'x') FROM t;", ["urn:example:person:"]),
    ("f('urn:example:a:', x)", ["urn:example:a:"]),
    ('out << "urn:example:abc" << id;', ["urn:example:abc"]),
    ('std::cout << "urn:example:a:" << std::endl;', ["urn:example:a:"]),
    # "^" separating an HL7 v2 field's components is no pattern's anchor
    ("PID|1||12345^^^urn:oid:2.16.840.1.113883.19.5^ISO||Doe^John", ["urn:oid:2.16.840.1.113883.19.5"]),
    ("OBX|1|CE|^urn:oid:1.2.3^ISO|\rOBX|2|CE|x^urn:oid:1.2.4^L|", ["urn:oid:1.2.3", "urn:oid:1.2.4"]),
])
def test_code_rules_leave_names_alone(text, expected):
    assert urns(text) == expected


# --- URNs percent-encoded in a URL ------------------------------------------------
@pytest.mark.parametrize("text, expected", [
    ('<a href="https://resolver.example/urn%3Anbn%3Ade%3Abvb%3A12-bsb00041099-5">x</a>',
     [("urn:nbn:de:bvb:12-bsb00041099-5", ("decode:percent",))]),
    ("https://search.example/?q=urn%3Aisbn%3A0451450523&x=1", [("urn:isbn:0451450523", ("decode:percent",))]),
    ("see https://resolver.example/?urn=URN%3ANBN%3Afi-fe201003181510.", [("URN:NBN:fi-fe201003181510", ("decode:percent",))]),
    # a link nested in another one's parameter
    ("?to=https%3A%2F%2Fresolver.example%2Furn%3Anbn%3Ade%3A0111-opus-12345&t=1",
     [("urn:nbn:de:0111-opus-12345", ("decode:percent",))]),
    # decoded once: the URN's own percent-encoding stays, as does a "%XX" of no URN character
    ("?u=urn%3Aexample%3Acaf%25C3%25A9 ?u=urn%3Aexample%3Acaf%c3%a9",
     [("urn:example:caf%C3%A9", ("decode:percent",)), ("urn:example:caf%C3%A9", ("decode:percent",))]),
    # the first prefix of a run that a NID and an NSS follow
    ("?u=urn%3A%3Aurn%3Aisbn%3A0451450523", [("urn:isbn:0451450523", ("decode:percent",))]),
    # a parameter's "&", ";", "+", "," and "=" end it
    ("?ids=urn%3Aa%3Ab,urn%3Ac%3Ad;x=urn%3Ae%3Af+g",
     [("urn:a:b", ("decode:percent",)), ("urn:c:d", ("decode:percent",)), ("urn:e:f", ("decode:percent",))]),
    # an RFC's form body broken over lines after "-" or before "%XX" (not with --no-fold)
    ("  grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Asaml2-\n  bearer&assertion=PHNh\n"
     "  client_assertion_type=urn%3Aietf%3Aparams%3Aoauth\n  %3Aclient-assertion-type%3Ajwt-bearer&\n",
     [("urn:ietf:params:oauth:grant-type:saml2-bearer", ("fold:rfc", "decode:percent")),
      ("urn:ietf:params:oauth:client-assertion-type:jwt-bearer", ("fold:rfc", "decode:percent"))]),
    ("  client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3A\n  client-assertion-type%3Ajwt-bearer\n",
     [("urn:ietf:params:oauth:client-assertion-type:jwt-bearer", ("fold:rfc", "decode:percent"))]),
    ("  type=urn%3Aietf%3Aparams%3Aoauth%3Atoken-type%3Ajwt\n\n  The next.\n  a=urn%3Aa%3Ab\n  c=d",
     [("urn:ietf:params:oauth:token-type:jwt", ("decode:percent",)), ("urn:a:b", ("decode:percent",))]),
    # "@" ends the user part of a SIP URI (a URN's own "@" is encoded with it)
    ("To: sip:urn%3auuid%3a00000000-0000-1000-0000-00FF8D82EDCB@example.com",
     [("urn:uuid:00000000-0000-1000-0000-00FF8D82EDCB", ("decode:percent",))]),
    # a path's "/" ends it (a URN's own "/" is encoded with it)
    ("https://api.example/rest/actions/urn%3Aexample%3Ashare%3A123/comments/c1",
     [("urn:example:share:123", ("decode:percent",))]),
    # a template's, with a placeholder after or in it
    ('"/insights/urn%3Aexample%3Ajob%3A{job_id}" "?q=urn%3Aexample%3A%s&x=1"', []),
    # not a URN: no NID or NSS, inside a word, inside a URN read as written (XEP-0470's node names)
    ("urn%3A x urn%3Aexample%3A x returnurn%3Aa%3Ab", []),
    ("urn:example:att:1/j@h.example?;node=urn%3Axmpp%3Amicroblog%3A0;item=x",
     [("urn:example:att:1/j@h.example?;node=urn%3Axmpp%3Amicroblog%3A0;item=x", ())]),
])
def test_percent_encoded_in_urls(text, expected):
    assert rules_of(text, percent=True) == expected


def test_percent_encoded_urns_are_embedded_and_keep_the_text_as_written():
    (hit,) = scan_text("?q=urn%3Aisbn%3A0451450523&x=1", percent=True)
    assert hit.embedded and hit.raw == "urn%3Aisbn%3A0451450523" and hit.valid
    assert (hit.start, hit.end) == (3, 3 + len(hit.raw))
    # asked for only: the text holds them in a URL's encoding
    assert urns("?q=urn%3Aisbn%3A0451450523&x=1") == []
    assert urns("a=urn%3Aa%3Ab-\n  c", percent=True, fold=False) == ["urn:a:b-"]
    # a template's unless the code rules are off
    assert urns('"/insights/urn%3Aexample%3Ajob%3A{job_id}"', percent=True, code=False) == ["urn:example:job:"]


# --- man pages: roff's "\\-" is a hyphen ---------------------------------------
@pytest.mark.parametrize("text, expected", [
    # pod2man writes every "-" as "\\-"
    ("\\&    urn:ietf:params:xml:ns:xmpp\\-bind\n", [("urn:ietf:params:xml:ns:xmpp-bind", ("decode:roff-hyphen",))]),
    ('.SH "urn:ietf:params:xml:ns:xmpp\\-session"\n',
     [("urn:ietf:params:xml:ns:xmpp-session", ("decode:roff-hyphen",))]),
    ("token type urn:ietf:params:oauth:token\\-type:jwt.\n",
     [("urn:ietf:params:oauth:token-type:jwt", ("decode:roff-hyphen", "trim:period"))]),
    ("urn:example:a\\-b\\-c", [("urn:example:a-b-c", ("decode:roff-hyphen",))]),
    ("x 'urn:example:a\\-b' y", [("urn:example:a-b", ("pair:quote", "decode:roff-hyphen"))]),
    # a backslash and hyphen that no letter or digit follows end the name
    ("urn:example:a\\- x", [("urn:example:a", ())]),
    ("urn:example:a\\-\\-b", [("urn:example:a", ())]),
    ("urn:example:a\\fR", [("urn:example:a", ())]),
    # a character name after "\\(" ("\\(rq", a closing quote; "\\(12", one half)
    ("\\*(L\"urn:example:a\\(rq and urn:example:b\\(12", [("urn:example:a", ()), ("urn:example:b", ())]),
])
def test_roff_hyphens(text, expected):
    assert rules_of(text) == expected


# --- JSON: "\\/" in a string is "/" (RFC 8259 section 7) ---------------------------
@pytest.mark.parametrize("text, expected", [
    ('{"id": "urn:doi:10.1000\\/182", "n": 1}', [("urn:doi:10.1000/182", ("decode:json-slash",))]),
    ('["urn:example:a\\/b\\/c"]', [("urn:example:a/b/c", ("decode:json-slash",))]),
    ('"urn:example:a\\/b\\-c"', [("urn:example:a/b-c", ("decode:roff-hyphen", "decode:json-slash"))]),
    # outside double quotes, or with no name after it, a backslash ends the name
    ("x = 'urn:example:a\\/b'", [("urn:example:a", ())]),
    ("see urn:example:a\\/b", [("urn:example:a", ())]),
    ('"urn:example:a\\/"', [("urn:example:a", ())]),
    ('"urn:example:a\\/ b"', [("urn:example:a", ())]),
])
def test_json_escaped_slashes(text, expected):
    assert rules_of(text) == expected


# --- Markdown and TeX: "\\_" is "_" (CommonMark section 2.4) -------------------------
@pytest.mark.parametrize("text, expected", [
    # a word processor's Markdown export escapes every "_"
    ("| subject\\_token\\_type | urn:ietf:params:oauth:token-type:access\\_token |\n",
     [("urn:ietf:params:oauth:token-type:access_token", ("decode:escaped-underscore",))]),
    ("Set `urn:ietf:params:oauth:token-type:refresh\\_token` as the type.\n",
     [("urn:ietf:params:oauth:token-type:refresh_token", ("decode:escaped-underscore",))]),
    ('**"urn:ietf:params:oauth:grant-type:device\\_code"**.',
     [("urn:ietf:params:oauth:grant-type:device_code", ("decode:escaped-underscore",))]),
    ("\\texttt{urn:ietf:params:oauth:token-type:id\\_token}\n",
     [("urn:ietf:params:oauth:token-type:id_token", ("decode:escaped-underscore",))]),
    ('    "requestedTokenType": "urn:example:access\\_token\\-x",\n',
     [("urn:example:access_token-x", ("decode:roff-hyphen", "decode:escaped-underscore"))]),
    ("urn:example:a\\_b\\_c.", [("urn:example:a_b_c", ("decode:escaped-underscore", "trim:period"))]),
    # with no letter or digit after it, the backslash ends the name
    ("urn:example:a\\_ b", [("urn:example:a", ())]),
    ("urn:example:a\\_\\_b", [("urn:example:a", ())]),
    ("urn:example:a\\_.", [("urn:example:a", ())]),
])
def test_escaped_underscores(text, expected):
    assert rules_of(text) == expected


def test_an_escaped_underscore_keeps_its_raw_text_and_is_off_without_folding():
    (hit,) = scan_text("see urn:example:access\\_token here")
    assert (hit.urn, hit.raw, hit.literal) == ("urn:example:access_token", "urn:example:access\\_token",
                                               "urn:example:access")
    assert (hit.start, hit.end) == (4, 4 + len(hit.raw))
    assert urns("see urn:example:access\\_token here", fold=False) == ["urn:example:access"]


def test_a_roff_hyphen_keeps_its_raw_text_and_is_no_fold():
    (hit,) = scan_text("see urn:example:token\\-type:jwt\n")
    assert (hit.urn, hit.raw, hit.literal, hit.folded) == ("urn:example:token-type:jwt",
                                                            "urn:example:token\\-type:jwt", "urn:example:token", False)
    assert (hit.start, hit.end) == (4, 4 + len(hit.raw))
    assert urns("see urn:example:token\\-type:jwt\n", fold=False) == ["urn:example:token"]


# --- a regular expression's delimiters inside a string of code -----------------
@pytest.mark.parametrize("text, expected", [
    ("'#urn:oasis:names:tc:SAML:attribute:assurance-certification#' => [",
     [("urn:oasis:names:tc:SAML:attribute:assurance-certification", ("pair:delimiter",))]),
    ('preg_match("@urn:example:a:b@", $v)', [("urn:example:a:b", ("pair:delimiter",))]),
    # Markdown's emphasis (CommonMark section 6.2) closes at the same marks
    ("- **urn:xmpp:mam:2**: message archive", [("urn:xmpp:mam:2", ("pair:emphasis",))]),
    ("* _urn:xmpp:mam:2_ and *urn:xmpp:sm:3*", [("urn:xmpp:mam:2", ("pair:emphasis",)), ("urn:xmpp:sm:3", ("pair:emphasis",))]),
    ("__urn:example:a__", [("urn:example:a", ("pair:emphasis",))]),
    # ... and so does GitHub Flavored Markdown's strikethrough (section 6.5), one or two "~"
    ("- ~~urn:xmpp:mix:0~~ replaced by urn:xmpp:mix:1", [("urn:xmpp:mix:0", ("pair:emphasis",)),
                                                        ("urn:xmpp:mix:1", ())]),
    ("~urn:example:a~, ~~urn:example:b~c~~", [("urn:example:a", ("pair:emphasis",)),
                                             ("urn:example:b~c", ("pair:emphasis",))]),
    ("URN:~urn:nbn:de:gbv:7-1234~(TeX)", [("urn:nbn:de:gbv:7-1234", ("pair:emphasis",))]),
    ("see urn:example:a~ and ~~urn:example:b:~~", [("urn:example:a~", ()), ("urn:example:b:~~", ())]),
    ("'~urn:example:a~'", [("urn:example:a", ("pair:delimiter",))]),
    # ... and Org's verbatim ("=...=") and code ("~...~")
    ("In Org: =urn:example:verbatim= and ~urn:example:code~ here.",
     [("urn:example:verbatim", ("pair:emphasis",)), ("urn:example:code", ("pair:emphasis",))]),
    ("=urn:example:a=b= x", [("urn:example:a=b", ("pair:emphasis",))]),
    # ... but not an "=" after a letter or digit (a key's), nor an "=" inside the name
    ("key=urn:example:a=b= x", [("urn:example:a=b=", ("embedded:form",))]),
    (" =urn:example:a?=q", [("urn:example:a?=q", ())]),
    # a URL's percent-encoding before "urn:" (RFC 3986 section 2.1) is no
    # word the URN ends: the URN ends at an encoded blank, quote or bracket
    ("curl -d 'q=controlledAsset==%22urn:ngsi-ld:Building:farm001%22' -d 'attrs=x'",
     [("urn:ngsi-ld:Building:farm001", ("pair:encoded",))]),
    ("https://h.example/wfs?FILTER=%3Cgml:Envelope%20srsName=%22urn:ogc:def:crs:EPSG::25833%22%3E%3Cgml:lowerCorner%3E",
     [("urn:ogc:def:crs:EPSG::25833", ("pair:encoded", "embedded:url"))]),
    ('"&scope=openid%20profile%20urn:zitadel:iam:org:project:id:zitadel:aud";',
     [("urn:zitadel:iam:org:project:id:zitadel:aud", ())]),
    ("q=%3CInvoice+xmlns%3D%22urn:oasis:names:specification:ubl:schema:xsd:Invoice-2%22+x%3D%22urn:example:b%22",
     [("urn:oasis:names:specification:ubl:schema:xsd:Invoice-2", ("pair:encoded",)),
      ("urn:example:b", ("pair:encoded",))]),
    ("see %3curn:ietf:rfc:2141%3e and %28urn:example:a%29", [("urn:ietf:rfc:2141", ("pair:encoded",)),
                                                           ("urn:example:a", ("pair:encoded",))]),
    # ... its own percent-encoding kept (a "%" with no two hex digits encodes nothing)
    ("x%2Furn:example:a%2Fb%2525c y", [("urn:example:a%2Fb%2525c", ())]),
    ("a%2urn:example:a x%3Gurn:example:b", []),
    # ... a mark inside the name stays, and so does a wildcard
    ("_urn:ietf:params:oauth:token-type:access_token_ x",
     [("urn:ietf:params:oauth:token-type:access_token", ("pair:emphasis",))]),
    ("a *urn:example:a*b* c", [("urn:example:a*b", ("pair:emphasis",))]),
    ("see *urn:xmpp:mix:nodes:*", []),
    # ... and a mark inside a word opens no emphasis
    ("NS_urn:example:a_b", [("urn:example:a_b", ())]),
    ("m'!urn:example:x!'", [("urn:example:x", ("pair:delimiter",))]),
    # the same delimiter without the same quote after it closes nothing
    ("'#urn:example:a#frag'", [("urn:example:a#frag", ("trim:quote",))]),
    ('"#urn:example:a#\'', [("urn:example:a#", ("trim:quote",))]),
    ("see #urn:example:a# now", [("urn:example:a#", ())]),
])
def test_regex_delimiters(text, expected):
    assert rules_of(text) == expected


def test_regex_delimiters_go_with_pairing():
    assert urns("'#urn:example:a#'", pair=False) == ["urn:example:a#"]


# --- folds -------------------------------------------------------------------
#: an iCalendar or vCard content line folded anywhere (RFC 5545 section
#: 3.1): a line break and one blank more than the content line
CONTENT_LINE_FOLDS = [
    ("BEGIN:VCARD\r\nMEMBER:urn:uuid:03a0e51f-d1aa-4385-8a53-e2902\r\n 5acd8af\r\nEND:VCARD\r\n",
     ["urn:uuid:03a0e51f-d1aa-4385-8a53-e29025acd8af"]),
    ("   ATTENDEE;CUTYPE=RESOURCE;CN=\"Room 1\":urn:uuid:88f6a54a-d3e4-4a4b-9b36-4c9\n    f3a2b6d1e\n   END:VEVENT\n",
     ["urn:uuid:88f6a54a-d3e4-4a4b-9b36-4c9f3a2b6d1e"]),
]
#: an LDIF line folded anywhere (RFC 2849 note 2): a line break and one
#: space, in a record that names its dn, changetype or objectClass
LDIF_FOLDS = [
    ("dn: uid=jd,ou=people,dc=example,dc=org\nobjectClass: eduPerson\n"
     "eduPersonEntitlement: urn:mace:example.org:entitlement:library-reso\n urces:read\nuid: jd\n",
     ["urn:mace:example.org:entitlement:library-resources:read"]),
    ("dn: cn=a,dc=example\r\neduPersonEntitlement: urn:example:abc-def-g\r\n hi-jkl-m\r\n no\r\ncn: a\r\n",
     ["urn:example:abc-def-ghi-jkl-mno"]),
    ("# entry\nobjectClass: top\ndescription: held by urn:example:group:admi\n ns since 2020\n",
     ["urn:example:group:admins"]),
    ("dn: cn=a\nchangetype: modify\nadd: eduPersonEntitlement\neduPersonEntitlement;x-a: urn:example:aa\n bb\n-\n",
     ["urn:example:aabb"]),
]
#: (text, the URNs read) of names folded over lines, and of lines that are no fold
FOLDS = [
    ("   \"urn:example:params:long-\n   name:part\" [REF]", ["urn:example:params:long-name:part"]),
    ("   urn:example:yang:module-one:\n      sub:two\n", ["urn:example:yang:module-one:sub:two"]),
    ("ns=\"urn:example:yang:ipv4-unicas\\\n    t-routing\">", ["urn:example:yang:ipv4-unicast-routing"]),
    # a NID broken after one of its hyphens, up to its 32 characters
    ('   <foo xmlns="urn:schemas-example-\n   org:service:Switch:1"/>\n', ["urn:schemas-example-org:service:Switch:1"]),
    ("   URI: urn:schemas-\r\n   example-org:device:Light:1\r\n", ["urn:schemas-example-org:device:Light:1"]),
    ("   see urn:aaaaaaaaaaaaaaaaaaaaaaaaaaaaa-\n   bbbb:c\n", []),
    ("   see urn:schemas-\n   and more\n", []),
    ("   see urn:x-\n   urn:example:a here\n", ["urn:example:a"]),
    # an OID's next arc, a version's next digit and part, after a "."
    ("   is urn:oid:2.16.840.1.113883.4.\n   642 and it is registered.\n", ["urn:oid:2.16.840.1.113883.4.642"]),
    ("   is urn:example:names:tc:SAML:2.\n   0:metadata and it is registered.\n",
     ["urn:example:names:tc:SAML:2.0:metadata"]),
    ("   is urn:example:rfc:2141.\n   2141 is where it is defined.\n", ["urn:example:rfc:2141"]),
    ("   urn:example:sha-256:\n\n   3q2-7wAbc_1\n", ["urn:example:sha-256:3q2-7wAbc_1"]),
    # ... the example's last line, its block or string closed after it
    ("<pre>\n   urn:example:sha-256:\n\n   3q2-7wAbc_1</pre>\n", ["urn:example:sha-256:3q2-7wAbc_1"]),
    ("&lt;pre&gt;   urn:example:sha-256:\n\n   3q2-7wAbc_1&lt;/pre&gt;\n", ["urn:example:sha-256:3q2-7wAbc_1"]),
    ('"   urn:example:sha-256:\n\n   3q2-7wAbc_1"\n', ["urn:example:sha-256:3q2-7wAbc_1"]),
    ("   urn:example:sha-256:\n\n   3q2-7wAbc_1</pre> and more\n", ["urn:example:sha-256:"]),
    ("   urn:example:sha-256:\n\n   3q2-7wAbc_1) and more\n", ["urn:example:sha-256:"]),
    # never across an empty line into a heading or a sentence
    ("   urn:example:params:xml:ns:\n\n   Introduction</h2>\n", ["urn:example:params:xml:ns:"]),
    ("   urn:example:params:xml:ns:\n\nAbstract\n\n   This document", ["urn:example:params:xml:ns:"]),
    ("   urn:example:params:xml:ns:\n\n   Introduction\n", ["urn:example:params:xml:ns:"]),
    ("   urn:example:params:xml:ns:\n\n   The text goes on.\n", ["urn:example:params:xml:ns:"]),
    # never a code line continuation
    ("x = \"urn:example:a:b\" + \\\n    suffix", []),
    ("x = urn:example:a:b+\\\n    suffix", ["urn:example:a:b+"]),
    ("CFLAGS += -DNS=urn:example:a:b, \\\n    -DOTHER", ["urn:example:a:b"]),
    # never out of a line comment, which ends with its line, into the code below
    ("        # references start with urn:example:ref:\n        outcome_refs = [r for r in refs]\n",
     ["urn:example:ref:"]),
    ("    // the prefix urn:example:ns-\n    value_b = 1;\n", ["urn:example:ns-"]),
    ("# see urn:example:params:oauth:\naccess_token = fetch()\n", ["urn:example:params:oauth:"]),
    # ... while a name in text still goes on
    ("prefix urn:example:ns-\n    value\n", ["urn:example:ns-value"]),
    # adjacent string literals are one string (C, Python)
    ("ns = (\"urn:example:params:\"\n      \"yang:foo\")", ["urn:example:params:yang:foo"]),
    ("char *ns = \"urn:example:c:\" \"part\";", ["urn:example:c:part"]),
    ("cap = ('urn:example:cap:1.0'\n       '?mode=explicit')", ["urn:example:cap:1.0?mode=explicit"]),
    ("ns = \"urn:example:a:\" \"b\" + x", []),  # ... then concatenated: a template
    ('    default: "urn:example:server"\n    """', ["urn:example:server"]),  # a docstring's end
    ("[\"urn:example:a\", \"urn:example:b\"]", ["urn:example:a", "urn:example:b"]),
    ("\"urn:example:a\"\n\"urn:example:b\"", ["urn:example:a", "urn:example:b"]),
    # a query broken after "?", "&" ("&amp;" in XML) or "=" goes on
    ("      urn:example:cap:with-defaults:1.0?\n         basic-mode=explicit\n",
     ["urn:example:cap:with-defaults:1.0?basic-mode=explicit"]),
    ("  <capability>\n    urn:example:cap:lib:1.0?revision=2016-06-21&amp;\n    module-set-id=ee1e\n  </capability>",
     ["urn:example:cap:lib:1.0?revision=2016-06-21&module-set-id=ee1e"]),
    ("  &lt;capability&gt;\n    urn:example:cap:lib:1.0?\n      module=m&amp;amp;\n      revision=2006-05-02\n",
     ["urn:example:cap:lib:1.0?module=m&revision=2006-05-02"]),  # ... "&amp;amp;" in an HTML page's XML
    ('   "urn:example:cap:defaults:1.0?\n      basic-mode=explicit",', ["urn:example:cap:defaults:1.0?basic-mode=explicit"]),
    ("   urn:example:cap:1.0?mode=\n      explicit&also=all\n", ["urn:example:cap:1.0?mode=explicit&also=all"]),
    ("   written urn:example:foo?=\n   a=1&b=2.", ["urn:example:foo?=a=1&b=2"]),
    # ... not onto a line of text, nor a word without "="
    ("  empty q-component:  urn:example:thing?=\n  wrong order:  urn:example:thing?=q?+r",
     ["urn:example:thing?=", "urn:example:thing?=q?+r"]),
    ("   Is it urn:example:thing?\n   Yes, it is.", ["urn:example:thing"]),
    # a label of the list left of the URN's line is no ":name" continuation
    ("   :writable-running\n      urn:example:cap:writable-running:1.0\n   :candidate\n"
     "      urn:example:cap:candidate:1.0\n", ["urn:example:cap:writable-running:1.0", "urn:example:cap:candidate:1.0"]),
    # a table cell broken before a separator goes on
    ("   | :c  | urn:example:cap:confirmed |\n   |     | -commit:1.0               |\n",
     ["urn:example:cap:confirmed-commit:1.0"]),
    ("   | :c  | urn:example:cap:candidate |\n   |     | :1.0                      |\n",
     ["urn:example:cap:candidate:1.0"]),
    ("   | :c  | urn:example:cap:candidate |\n   |     | and more                  |\n",
     ["urn:example:cap:candidate"]),
    # ... or anywhere, when its text fills the cell: a formatter's break of
    # a word longer than its column (but a name short of its border ends)
    ("   | urn:example:ac: | RFC 9999 |\n   | classes:PasswordP |          |\n   | rotected:Ext      |          |\n",
     ["urn:example:ac:classes:PasswordProtected:Ext"]),
    ("   | urn:example:ac:classes:a | RFC 9999 |\n   | Note                     |          |\n",
     ["urn:example:ac:classes:a"]),
    ("   | urn:example:oauth:token-type:a | [RFC8693] |\n   | ccess_token                    |           |\n",
     ["urn:example:oauth:token-type:access_token"]),
    ("   | urn:example:oauth:token-type:a | [RFC8693] |\n   | See-also                       |           |\n",
     ["urn:example:oauth:token-type:a"]),
    # ... and the cells right of a folded one are read too
    ("   | urn:example:yang:ietf- | urn:example:yang:ietf-ip-2 |\n   | ip                     |                           |\n",
     ["urn:example:yang:ietf-ip", "urn:example:yang:ietf-ip-2"]),
    ("   | urn:example:a:repaired- | see urn:example:x:1 |\n   | part                    |                     |\n",
     ["urn:example:a:repaired-part", "urn:example:x:1"]),
    # ... never onto the URN of the next row
    ("| urn:nbn:de:  | Germany |\n| urn:nbn:fi:  | Finland |\n| urn:nbn:se:  | Sweden  |\n",
     ["urn:nbn:de:", "urn:nbn:fi:", "urn:nbn:se:"]),
    # a quoted reply (RFC 3676 section 4.5): past the ">" marks the URN's
    # own line carries, in a wrapper too
    ("> see urn:example:yang:ietf-\n> interfaces for it\n", ["urn:example:yang:ietf-interfaces"]),
    ("> > Consider <URN:IANA:parc.xerox.com:\n> >   masinter/papers/urn-functional-req>; the",
     ["URN:IANA:parc.xerox.com:masinter/papers/urn-functional-req"]),
    ("> For example <URN:hdl:cnri.dlib/dec-\n> ember95> is a handle.", ["URN:hdl:cnri.dlib/dec-ember95"]),
    # ... written "&gt;" where a mail archive's HTML page shows the mail
    ("<PRE>\n&gt; see urn:example:yang:ietf-\n&gt; interfaces for it\n</PRE>", ["urn:example:yang:ietf-interfaces"]),
    ("&gt; &gt; urn:example:hash:sha-256:\n&gt; &gt;\n&gt; &gt; 3q2-7wAbc_1\n", ["urn:example:hash:sha-256:3q2-7wAbc_1"]),
    ("&gt; see urn:example:yang:ietf-\n&gt; &gt; interfaces\n", ["urn:example:yang:ietf-"]),
    # ... not past marks of another depth, nor into a quoted reply
    ("> see urn:example:yang:ietf-\n> > interfaces\n", ["urn:example:yang:ietf-"]),
    ("see urn:example:yang:ietf-\n> interfaces\n", ["urn:example:yang:ietf-"]),
    ("<urn:example:a:b\n> c> d", ["urn:example:a:b"]),
    *CONTENT_LINE_FOLDS,
    # ... not a line of prose, nor a continuation indented otherwise
    ("Note: urn:example:yang:ietf-foo\n is used", ["urn:example:yang:ietf-foo"]),
    ("UID:urn:example:a-b\n  c\n", ["urn:example:a-b"]),
    ("UID:urn:example:a\nDTSTAMP:20060206T001121Z\n", ["urn:example:a"]),
    *LDIF_FOLDS,
    # ... not a YAML plain scalar (it goes on with a blank), nor a line
    # after the record's end, after a line of another form, or indented
    ("description: urn:example:a:verylong\n continued text\n", ["urn:example:a:verylong"]),
    ("dn: cn=a\n\nmember: urn:example:abc\n def\n", ["urn:example:abc"]),
    ("dn: cn=a\nsome text\nmember: urn:example:abc\n def\n", ["urn:example:abc"]),
    ("  dn: cn=a\n  member: urn:example:abc\n def\n", ["urn:example:abc"]),
    # ... and no continuation: a second blank is the value's own
    ("dn: cn=a\nmember: urn:example:abc\n  def\n", ["urn:example:abc"]),
    # ... nor a tab, nor a URN of its own (a value holds one name)
    ("dn: cn=a\nmember: urn:example:abc\n\tdef\n", ["urn:example:abc"]),
    ("dn: cn=a\nmember: urn:example:a\n urn:example:b\n", ["urn:example:a", "urn:example:b"]),
    # a sentence's ":" after a version number, before the example it
    # introduces (the end of the element's text, or markup below)
    ("<p>Clients advertise support for urn:xmpp:message-retract:1:</p>", ["urn:xmpp:message-retract:1"]),
    ("The server supports urn:xmpp:mam:2:\n\n   <iq type='get'/>\n", ["urn:xmpp:mam:2"]),
    ("The ping namespace is urn:xmpp:ping:\n\n<iq type='get'/>", ["urn:xmpp:ping"]),
    # ... the line break escaped in a string literal (a source map's
    # embedded sources, a notebook's cell)
    ('{"sourcesContent":["/**\\n * when using urn:xmpp:omemo:2:\\n *   - AES-256"]}', ["urn:xmpp:omemo:2"]),
    ('"The server supports urn:xmpp:mam:2:\\r\\n",', ["urn:xmpp:mam:2"]),
    ('"The ping namespace is urn:xmpp:ping:\\n\\n<iq type=\'get\'/>"', ["urn:xmpp:ping"]),
    # ... or a comment's close before the line break (an XEP's example)
    ("      <!-- If room supports urn:xmpp:mentions:0#channel: -->\n      <field var='mentions#channel'>\n",
     ["urn:xmpp:mentions:0#channel"]),
    ("/* the server supports urn:xmpp:mam:2: */\n  code();", ["urn:xmpp:mam:2"]),
    ("<!-- the prefix urn:example:yang: -->\nnext text", ["urn:example:yang:"]),
    # ... or the name shown again, whole, on the next line
    ('should be urn:example:yang:ietf-keystore:\n\n  namespace "urn:example:yang:ietf-keystore";',
     ["urn:example:yang:ietf-keystore", "urn:example:yang:ietf-keystore"]),
    ("Register it as urn:example:reg:\nurn:example:reg\n", ["urn:example:reg", "urn:example:reg"]),
    # ... not a prefix that goes on below, nor a longer name
    ('the prefix urn:example:yang:\n\n  namespace "urn:example:yang:ietf-foo";',
     ["urn:example:yang:", "urn:example:yang:ietf-foo"]),
    ("The name is urn:example:a:\n  urn:example:ab is another.", ["urn:example:a:", "urn:example:ab"]),
    ("candidate urn:ietf:params:netconf:capability:candidate:1.0:\n  the client may", ["urn:ietf:params:netconf:capability:candidate:1.0"]),
    # ... a prefix keeps it: ending in a name, or before words
    ("<td>urn:nbn:de:</td>", ["urn:nbn:de:"]),
    # a QName's separator before a quoted local name (gSOAP's documentation)
    ('<p>Schema urn:uddi-org:api_v2:"accessPoint".', ["urn:uddi-org:api_v2"]),
    ("Element reference &quot;urn:oasis:names:tc:SAML:2.0:assertion:&quot;AuthnStatement",
     ["urn:oasis:names:tc:SAML:2.0:assertion"]),
    # a 1995 wrapper around a path naming a directory is no empty element
    ("   <URN:path:/ietf/uri/> names the directory", ["URN:path:/ietf/uri/"]),
    # a reference cited right after the URN is no "[...]" placeholder
    ("see urn:ietf:params:xml:ns:caldav[RFC4791] and", ["urn:ietf:params:xml:ns:caldav"]),
    ("urn:example:a:b[I-D.ietf-foo-bar].", ["urn:example:a:b"]),
    # a NID whose "-" is a character reference
    ('title="Schema urn:uddi&#45;org:api_v2:&quot;bindingTemplate&quot;."', ["urn:uddi-org:api_v2"]),
    # a QName's separator after a quoted namespace (gSOAP's generated headers)
    ('/// Element reference "urn:oasis:names:tc:SAML:2.0:assertion:"Issuer.', ["urn:oasis:names:tc:SAML:2.0:assertion"]),
    ('x = "urn:example:a:"s;', ["urn:example:a:"]),
    ("the prefix urn:oasis:names:tc:SAML:2.0: is used", ["urn:oasis:names:tc:SAML:2.0:"]),
    ("The server supports urn:xmpp:mam:2: and more\n", ["urn:xmpp:mam:2:"]),
    ('"the prefix urn:example:yang:\\n",', ["urn:example:yang:"]),
    ("URN Prefix:  urn:ietf:params:geopriv:\n\n   Next field: x", ["urn:ietf:params:geopriv:"]),
    # YAML: a mapping key over a deeper entry loses its ":" and is not folded
    ("namespaces:\n  urn:example:config:\n    sub:key: value\n", ["urn:example:config"]),
    ("- urn:example:list:\n    - item\n", ["urn:example:list"]),
    # the term of a definition list, its definition below, loses its ":"
    ("   urn:ietf:params:acme:error:badNonce:\n      The client sent an unacceptable anti-replay nonce.\n",
     ["urn:ietf:params:acme:error:badNonce"]),
    ("   urn:ietf:params:scim:schemas:core:2.0:Group:\n      displayName  A human-readable name.\n",
     ["urn:ietf:params:scim:schemas:core:2.0:Group"]),
    # ... or beside it, a capitalised sentence on lines indented deeper (a
    # hanging list, RFC 7591 section 2)
    ("      urn:ietf:params:oauth:grant-type:jwt-bearer: The JWT Bearer Token\n         Grant Type defined in [RFC7523].\n",
     ["urn:ietf:params:oauth:grant-type:jwt-bearer"]),
    ("   urn:ietf:params:scim:api:messages:2.0:Error:  Used to return errors.\n\n   Next.\n",
     ["urn:ietf:params:scim:api:messages:2.0:Error"]),
    ("   urn:example:a:b: The thing is cool.\n   Next line of the paragraph.\n", ["urn:example:a:b:"]),
    # ... a name alone below is the rest of the URN, a line no deeper or
    # words on the same line leave the ":" (a prefix, RFC 5141's form)
    ("   urn:example:yang:\n      ietf-interfaces\n", ["urn:example:yang:ietf-interfaces"]),
    ("   urn:example:a:\n   The same indentation.\n", ["urn:example:a:"]),
    ("   urn:iso:std:iso:9999:-1:ed-1:en: corresponds to\n   http://example.org/\n",
     ["urn:iso:std:iso:9999:-1:ed-1:en:"]),
    ("   URN Prefix:  urn:ietf:params:geopriv:\n      The prefix of the registry.\n", ["urn:ietf:params:geopriv:"]),
    # a YAML mapping key with its value on its line, beside an entry of the
    # same mapping (YAML 1.2 section 8.2.2), loses its ":"
    ("    urn:oid:2.5.4.3: [Lars L]\n    urn:oid:2.16.840.1.113730.3.1.39: [en]\n    gn: [Lars]\n",
     ["urn:oid:2.5.4.3", "urn:oid:2.16.840.1.113730.3.1.39"]),
    ("attributes:\r\n  cn: commonName\r\n  urn:oid:2.5.4.42: givenName\r\n", ["urn:oid:2.5.4.42"]),
    ("map:\n  - urn:oid:2.5.4.42: givenName\n  - urn:oid:2.5.4.4: sn\n", ["urn:oid:2.5.4.42", "urn:oid:2.5.4.4"]),
    # ... not beside a line indented otherwise, a line of prose, a key
    # without a value or with blanks, nor after another key on its line
    ("a: b\n urn:example:a: c\n", ["urn:example:a:"]),
    ("   urn:iso:std:iso:9999:-1:ed-1:en: corresponds to\n   the edition in English.\n",
     ["urn:iso:std:iso:9999:-1:ed-1:en:"]),
    ("   urn:example:a: goes on\n   key:\n   Some key: x\n", ["urn:example:a:"]),
    ("k: urn:example:a: c\nj: d\n", ["urn:example:a:"]),
    # ... nor beside a registration template's or a header's field (a capitalised word), nor before words
    ("   urn:iso:std:iso:9999:-1:ed-1:en: corresponds to\n   Note: the edition in English.\n",
     ["urn:iso:std:iso:9999:-1:ed-1:en:"]),
    ("   urn:example:ns: Registered\n   Contact: IESG\n", ["urn:example:ns:"]),
    ("   urn:example:ns: a prefix\n   key: value\n", ["urn:example:ns:"]),
    # in a quoted reply, across an empty line of the reply and under RFC 8792's "\\", its marks passed over
    # when the URN's line carries as many (RFC 3676 section 4.5)
    ("> The name is\n>\n>    urn:example:hash:sha-256:\n>\n>    3q2-7wAbc_1\n", ["urn:example:hash:sha-256:3q2-7wAbc_1"]),
    ("> > urn:example:hash:sha-256:\n> > \n> > 3q2-7wAbc_1\n", ["urn:example:hash:sha-256:3q2-7wAbc_1"]),
    ("> > urn:example:hash:sha-256:\n>\n> 3q2-7wAbc_1\n", ["urn:example:hash:sha-256:"]),
    ('> ns="urn:example:yang:ipv4-unicas\\\n>     t-routing">', ["urn:example:yang:ipv4-unicast-routing"]),
    ('> > ns="urn:example:yang:ipv4-unicas\\\n>     t-routing">', ["urn:example:yang:ipv4-unicas"]),
    # ... and a term's, a key's or a sentence's ":" read past the reply's marks, as unquoted
    ("> > urn:example:error:badNonce:\n> >    The client sent a bad nonce.\n", ["urn:example:error:badNonce"]),
    ("> urn:example:grant:jwt-bearer: The JWT Bearer\n>    Token Grant Type.\n", ["urn:example:grant:jwt-bearer"]),
    ("> urn:example:config:\n>   sub:key: value\n", ["urn:example:config"]),
    ("> The ping namespace is urn:example:ping:\n>\n> <iq type='get'/>\n", ["urn:example:ping"]),
    ("> urn:example:error:badNonce:\n     The client sent a bad nonce.\n", ["urn:example:error:badNonce:"]),
    # blanks an editor or a mail left at the end of the next line are none of its text
    ("   The set is named urn:example:collection:\n      item;version=2 \n   in this memo.\n",
     ["urn:example:collection:item;version=2"]),
    ("   urn:example:shelf:\r\n      2001-07-28;vol-12\t\r\n", ["urn:example:shelf:2001-07-28;vol-12"]),
]


@pytest.mark.parametrize("text, expected", FOLDS)
def test_folds(text, expected):
    assert urns(text) == expected


#: a line break (CRLF, LF): blanks before it, also after RFC 8792's "\\"
_LINE_END = re.compile(r"(?<!\r)(?=\r?\n)")


#: (a blank before the break of a content line or an LDIF line is part of its
#: value: RFC 5545 section 3.1, RFC 2849 note 2)
@pytest.mark.parametrize("text, expected", [row for row in FOLDS if row not in CONTENT_LINE_FOLDS + LDIF_FOLDS])
def test_blanks_at_the_ends_of_lines_change_no_reading(text, expected):
    assert urns(_LINE_END.sub(" ", text)) == expected
    assert urns(_LINE_END.sub("\t ", text)) == expected


def test_fold_rules_are_named():
    assert rules_of("   urn:example:sha-256:\n\n   3q2-7wAbc_1\n")[0][1] == ("fold:blank",)
    assert rules_of("ns=\"urn:example:y:ab\\\n    cd\">")[0][1] == ("fold:rfc8792",)
    assert rules_of("   \"urn:example:p:long-\n   name\" x")[0][1] == ("fold:rfc",)
    assert rules_of("x = \"urn:example:p:\" \"q\";")[0][1] == ("fold:literal",)
    assert rules_of("   urn:example:c:1.0?\n   mode=x\n")[0][1] == ("fold:query",)
    assert rules_of("  urn:example:config:\n    key: v\n")[0][1] == ("trim:yaml-key",)
    assert rules_of("  urn:example:a: 1\n  urn:example:b: 2\n")[0][1] == ("trim:yaml-key",)
    assert rules_of("UID:urn:example:a\r\n b\r\n")[0][1] == ("fold:content-line",)
    assert rules_of("dn: cn=a\nmember: urn:example:a\n b\n")[0][1] == ("fold:ldif",)
    assert rules_of("  urn:example:a:b:\n    The b of a.\n")[0][1] == ("trim:term",)


#: a blank after a ":" inside a value that holds the name alone: a typo,
#: the value's quotes or tags say where the name ends (fold:stray-blank)
STRAY_BLANKS = [
    ('<Attr AttributeId="urn:example:xacml:2.0:example: attribute:id" DataType="x"/>',
     [("urn:example:xacml:2.0:example:attribute:id", "urn:example:xacml:2.0:example: attribute:id")]),
    ("k = 'urn:example:a:b: c-1'\n", [("urn:example:a:b:c-1", "urn:example:a:b: c-1")]),
    ('{"code": "urn:example:cancer:stomach: 2010"}', [("urn:example:cancer:stomach:2010",
                                                       "urn:example:cancer:stomach: 2010")]),
    ("<td>urn:example:cancer:stomach: 2010</td>", [("urn:example:cancer:stomach:2010",
                                                   "urn:example:cancer:stomach: 2010")]),
    ("    <namespace>\n      urn:example:params:xml:ns:yang: ietf-lsp-ping\n    </namespace>\n",
     [("urn:example:params:xml:ns:yang:ietf-lsp-ping", "urn:example:params:xml:ns:yang: ietf-lsp-ping")]),
    # ... also where a page shows the markup as text (an RFC's HTML rendering)
    ("    &lt;namespace&gt;\n      urn:example:params:xml:ns:yang: ietf-lsp-ping\n    &lt;/namespace&gt;\n",
     [("urn:example:params:xml:ns:yang:ietf-lsp-ping", "urn:example:params:xml:ns:yang: ietf-lsp-ping")]),
    ("&lt;td&gt;urn:example:cancer:stomach: 2010&lt;/td&gt;", [("urn:example:cancer:stomach:2010",
                                                             "urn:example:cancer:stomach: 2010")]),
    # ... and in a quoted reply, every line carrying the same marks
    ("> <namespace>\n>   urn:example:params:xml:ns:yang: ietf-lsp-ping\n> </namespace>\n",
     [("urn:example:params:xml:ns:yang:ietf-lsp-ping", "urn:example:params:xml:ns:yang: ietf-lsp-ping")]),
    ("&gt; &gt; &lt;ns&gt;\n&gt; &gt;   urn:example:yang: ietf-ip\n&gt; &gt; &lt;/ns&gt;\n",
     [("urn:example:yang:ietf-ip", "urn:example:yang: ietf-ip")]),
    # more words, a placeholder, a URN or URL of its own, no closer right
    # after the rest, or a reply's ">" instead of a tag: the ":" ends it
    ('msg = "urn:example:a:b: must not be empty"', [("urn:example:a:b:", "urn:example:a:b:")]),
    ('x = "urn:example:a:b: %s" % v', [("urn:example:a:b:", "urn:example:a:b:")]),
    ('"urn:example:a:b: urn:example:a:c"', [("urn:example:a:b:", "urn:example:a:b:"),
                                            ("urn:example:a:c", "urn:example:a:c")]),
    ('"urn:example:a:b: http://example.com/"', [("urn:example:a:b:", "urn:example:a:b:")]),
    ("see urn:example:a:b: c here", [("urn:example:a:b:", "urn:example:a:b:")]),
    ("<p>Use urn:example:a:b: prefix</p>", [("urn:example:a:b:", "urn:example:a:b:")]),
    ("&lt;p&gt;Use urn:example:a:b: prefix&lt;/p&gt;", [("urn:example:a:b:", "urn:example:a:b:")]),
    ("&gt; urn:example:a:b: c\n&gt; &lt;/p&gt;\n", [("urn:example:a:b:", "urn:example:a:b:")]),
    ("> urn:example:a:b: c\n> </p>\n", [("urn:example:a:b:", "urn:example:a:b:")]),
    ("<p>\n> urn:example:a:b: c\n> </p>\n", [("urn:example:a:b:", "urn:example:a:b:")]),
    ("> <p>\n>   urn:example:a:b: c\n</p>\n", [("urn:example:a:b:", "urn:example:a:b:")]),
    ("> <p>\n> > urn:example:a:b: c\n> > </p>\n", [("urn:example:a:b:", "urn:example:a:b:")]),
    ('"urn:example:a:b: c\nd"', [("urn:example:a:b:", "urn:example:a:b:")]),
    # a tag further back than a candidate's look-back is not read
    ("<ns>" + " " * 300 + "urn:example:a:b: c</ns>", [("urn:example:a:b:", "urn:example:a:b:")]),
]


@pytest.mark.parametrize("text, expected", STRAY_BLANKS)
def test_a_stray_blank_inside_a_value_that_holds_the_name_alone(text, expected):
    hits = list(scan_text(text))
    assert [(h.urn, h.raw) for h in hits] == expected
    assert [text[h.start:h.end] for h in hits] == [h.raw for h in hits]
    assert [h.folded for h in hits] == [h.urn != h.raw for h in hits]
    assert all(h.rules == ("fold:stray-blank",) for h in hits if h.folded)
    # --no-fold: the name ends at its blank
    assert urns(text, fold=False) == [raw.split(" ")[0] for _, raw in expected]
    # the same however the input is cut into chunks
    data = text.encode()
    whole = list(scan_bytes([data]))
    for cut in range(1, len(data)):
        assert list(scan_bytes([data[:cut], data[cut:]])) == whole


def test_hex_dumps_only_as_code():
    dump = "00000010  27 75 72 6e 3a 65 78 61  6d 70 6c 65 3a 64 75 6d  |'urn:example:dum|\n"
    assert urns(dump) == []
    assert urns(dump, code=False) == ["urn:example:dum"]
    # a line of a few numbers before a URN is no dump
    assert urns("   2014 2015  urn:example:a\n") == ["urn:example:a"]


# --- URL context -------------------------------------------------------------
@pytest.mark.parametrize("text, expected", [
    ("GET /resolve?id=urn:isbn:0451450523&lang=en", ["urn:isbn:0451450523"]),
    ("https://h.example/q?" + "a=b&" * 200 + "id=urn:isbn:0451450523&lang=en", ["urn:isbn:0451450523"]),
    ("curl -d 'grant_type=urn:example:grant:x&scope=a' https://h", ["urn:example:grant:x"]),
    ("https://h.example/q?u=urn:example:a&v=urn:example:b&w=1", ["urn:example:a", "urn:example:b"]),
    ("urn:example:weather?=op=map&lat=39.56 next", ["urn:example:weather?=op=map&lat=39.56"]),  # no URL
    # a JSON string broken for display, its quote closing the next line (RFC 9449)
    ('  "jkt":\n    "urn:ietf:params:oauth:jwk-thumbprint:sha-256:0ZcOCORZNYy-DWpqq\n    30jZyJGHTN0d2HglBV3uiguA4I"\n',
     ["urn:ietf:params:oauth:jwk-thumbprint:sha-256:0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"]),
    # ... or after a "," or ";" between the items of its NSS (an OGC URN of
    # concatenated operations, in a docstring)
    ('   (e.g. "urn:example:def:op,op:EPSG::3895,\n   op:EPSG::1618")\n', ["urn:example:def:op,op:EPSG::3895,op:EPSG::1618"]),
    ('x = "urn:example:def:crs,crs:EPSG::27700;\r\n    crs:EPSG::5701";', ["urn:example:def:crs,crs:EPSG::27700;crs:EPSG::5701"]),
    # ... not a file name after a schema's namespace, nor a word
    ('xsi:schemaLocation="urn:example:netconf:base:1.0\n      netconf1.xsd"', ["urn:example:netconf:base:1.0"]),
    ('he wrote "see urn:example:a:b,\n thanks" once', ["urn:example:a:b"]),
    (' ULs="urn:example:oid:1.3.52.4,\n  urn:example:oid:1.3.52.5"', ["urn:example:oid:1.3.52.4", "urn:example:oid:1.3.52.5"]),
    ('the "urn:example:yang:ietf-a1\nnamespace" is', ["urn:example:yang:ietf-a1"]),
    # a break right after "urn:" (LaTeX's \\url in a reference list)
    ("Systems, 2007. URN: urn:\nnbn:de:hbz:465-20070308-164527-0. url:", ["urn:nbn:de:hbz:465-20070308-164527-0"]),
    ("resolver.pl?urn=urn:\nnbn:de:bvb:12-bsb00041099-5.", ["urn:nbn:de:bvb:12-bsb00041099-5"]),
    ("   Either form: <URN:\n   IANA:ISBN:0-395-36341-1> or", ["URN:IANA:ISBN:0-395-36341-1"]),
    # ... not onto a URN of its own, nor words
    ("      URN:\n         urn:example:a:b\n", ["urn:example:a:b"]),
    ("see the urn:\nThe rest.", []),
    ("   and the following is not a URN:\n   sip:alice@example.com;gr=foo.\n", []),
    # a man page rendered in UTF-8: groff's hyphenation (U+2010) at a line's end
    ("   --subject-token-type=urn:ietf:params:oauth:to\u2010\n       ken-type:id_token.\n",
     ["urn:ietf:params:oauth:token-type:id_token"]),
    ("see urn:example:ab\u2010\nthe end", ["urn:example:ab"]),
    # a break just before "-" (a URL typeset in a reference list)
    ("1998. url: http://urn.fi/URN:ISBN:978\n-951-39-7159-5.", ["URN:ISBN:978-951-39-7159-5"]),
    ("2012. URN: urn:nbn:de:hbz:464-20120315\n-103208-1. url: https://h.example/", ["urn:nbn:de:hbz:464-20120315-103208-1"]),
    # ... not a list item, an option, nor words
    ("see urn:example:a\n- next item", ["urn:example:a"]),
    ("see urn:example:abc\n-def is it", ["urn:example:abc"]),
    # a wildcard step after the URN in a path
    ('  $xpath = "/urn:example:caldav:calendar-query/*";', ["urn:example:caldav:calendar-query"]),
    # a URL opened after a single quote ends at the quote
    ("  'http://urn.fi/URN:NBN:fi:au:finaf:': both11,", ["URN:NBN:fi:au:finaf:"]),
    ("see http://h.example/urn:example:o'brien:1 x", ["urn:example:o'brien:1"]),
    # a URL broken across lines (reference lists, text drawn from PDFs)
    ("Available: http://nbn-resolving.de/urn:nbn:de:bsz:14-\n   qucosa-38418\n", ["urn:nbn:de:bsz:14-qucosa-38418"]),
    ("Retrieved from http://urn.kb.se/resolve?urn=urn:nbn:se:\r\nkth:diva-3029\r\n7.01:7 Chamberlin",
     ["urn:nbn:se:kth:diva-3029"]),
    ("xmlns(rl=urn:ietf:\n   params:xml:ns:resource-lists) selects", ["urn:ietf:params:xml:ns:resource-lists"]),
    ("https://h.example/?u=urn:example:a-\n  b&c=1", ["urn:example:a-b"]),  # and ends at "&"
    # ... but not into prose, a parameter or the URL's own query
    ("http://h.example/urn:example:a-\n  the rest", ["urn:example:a-"]),
    ("http://h.example/urn:example:a\nNext line", ["urn:example:a"]),
    ("http://h.example/r/urn:example:a/\nand more", ["urn:example:a"]),
    ("https://h.example/?u=urn:example:a-\n  &c=1", ["urn:example:a-"]),
    ("https://h.example/urn:example:a?x=\n  b&c=1", ["urn:example:a"]),
])
def test_url_context(text, expected):
    assert urns(text) == expected


def test_url_context_has_no_horizon():
    for n in (10, 100, 1000):
        text = "https://h.example/q?" + "p=v&" * n + "id=urn:isbn:0451450523&lang=en"
        assert rules_of(text) == [("urn:isbn:0451450523", ("embedded:url",))]
        assert urns(text, embedded=False) == ["urn:isbn:0451450523&lang=en"]


# --- languages: whole snippets -------------------------------------------------
@pytest.mark.parametrize("text, expected", [
    # JSON
    ('{"@context": "urn:example:ctx:1", "id": "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"}',
     ["urn:example:ctx:1", "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"]),
    # YAML
    ("issuer: urn:example:issuer:1\naudience: 'urn:example:aud:2'\nprefix: \"urn:example:p:\"\n",
     ["urn:example:issuer:1", "urn:example:aud:2", "urn:example:p:"]),  # a prefix keeps its ":"
    # XML element text and attributes
    ("<id>urn:isbn:0451450523</id><ref href=\"urn:example:r:1\"/>", ["urn:isbn:0451450523", "urn:example:r:1"]),
    # SQL
    ("INSERT INTO ids VALUES ('urn:example:row:1'), ('urn:example:row:2');", ["urn:example:row:1",
                                                                               "urn:example:row:2"]),
    # shell
    ("export NS=urn:example:env:1\nxmllint --ns 'urn:example:env:2' f.xml", ["urn:example:env:1",
                                                                             "urn:example:env:2"]),
    # Markdown
    ("* [`urn:example:md:1`](https://h.example/urn:example:md:1)", ["urn:example:md:1", "urn:example:md:1"]),
    # LaTeX
    ("\\url{urn:example:tex:1} and \\texttt{urn:example:tex:2}.", ["urn:example:tex:1", "urn:example:tex:2"]),
    # Java
    ('private static final String NS = "urn:example:java:ns";', ["urn:example:java:ns"]),
])
def test_languages(text, expected):
    assert urns(text) == expected


# --- properties -----------------------------------------------------------------
PIECES = ["urn:", "example:", "a", "b-c", ":", "'", "(", ")", '"', " ", "\n", ".", ",", "%s", "$x", "+", "&", "=",
          "http://h/?q=", "x", "/", "-\n  ", "\\\n  ", "\\-", "#", "@", " .\n",
          "\n> ", "UID:", "urn:\n", "$$", "\x1fa", " + ", "\n-1", "*", "1:", "\n   The b.", " =~ s/"]
texts = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)


@given(texts)
@settings(max_examples=500, deadline=None)
def test_a_urn_never_runs_through_the_closer_of_its_opener(text):
    for hit in scan_text(text):
        before = text[hit.start - 1] if hit.start else ""
        if hit.form != "bare":
            continue
        if before == "'":
            assert "'" not in hit.urn, (text, hit.urn)
        elif before == "(":
            depth = 0
            for ch in hit.urn:
                depth += ch == "("
                depth -= ch == ")"
                assert depth >= 0, (text, hit.urn)


@given(texts, st.lists(st.integers(0, 200), max_size=6))
@settings(max_examples=300, deadline=None)
def test_chunk_invariance_on_code_and_urls(text, cuts):
    data = text.encode()
    whole = list(scan_bytes([data]))
    points = sorted({c % (len(data) + 1) for c in cuts})
    pieces = [data[a:b] for a, b in zip([0] + points, points + [len(data)])]
    assert list(scan_bytes(pieces)) == whole


def _trim_step_by_step(text):
    """The trimming rule as PRODUCT section 1 states it, one character at a
    time from the end."""
    names = {".": "trim:period", ",": "trim:comma", ";": "trim:semicolon", "'": "trim:quote", "!": "trim:mark",
             "?": "trim:mark", "*": "trim:mark", "&": "trim:ampersand"}
    rules = []
    while text:
        name = names.get(text[-1])
        if name is None:
            if text[-1] != ")" or text.count("(") >= text.count(")"):
                break
            name = "trim:paren"
        text = text[:-1]
        if name not in rules:
            rules.append(name)
    return text, rules


@given(st.text(alphabet="ab().,;'!?*&)", max_size=16))
@settings(max_examples=500, deadline=None)
def test_trim_is_the_step_by_step_rule(tail):
    text = "urn:a:" + tail
    got, rules = trim(text.encode())
    assert (got.decode(), [r.value for r in rules]) == _trim_step_by_step(text)


# --- the command line --------------------------------------------------------------
@pytest.mark.parametrize("option, text, expected", [
    ("", "x = {'urn:example:a:1': 1, 'urn:example:b:%s' % n, 'u=urn:example:c:2&d=3'}",
     [("urn:example:a:1", ["pair:quote"]), ("urn:example:c:2", ["embedded:form"])]),
    ("--no-pair", "<c xmlns='urn:example:a:1'/>", [("urn:example:a:1'/", [])]),
    ("--no-code", "'urn:example:b:%s' % n", [("urn:example:b:%s", ["pair:quote"])]),
    ("--no-embedded", "'u=urn:example:c:2&d=3'", [("urn:example:c:2&d=3", ["trim:quote"])]),
])
def test_scan_options_and_the_rules_column(tmp_path, option, text, expected):
    import json
    import subprocess
    import sys

    path = tmp_path / "in.txt"
    path.write_text(text)
    args = [sys.executable, "-m", "urnscan", "scan", str(path), "--format", "jsonl", "-s"] + option.split()
    rows = [json.loads(line) for line in subprocess.run(args, capture_output=True, check=True).stdout.splitlines()]
    assert [(r["urn"], r["rules"]) for r in rows] == expected


# --- lists, URLs' queries and paths, literals the URN starts inside -----------
@pytest.mark.parametrize("text, expected", [
    # a comma before another URN or a URL separates the items of a list
    ('<MPD profiles="urn:mpeg:dash:profile:isoff-live:2011,urn:com:dashif:dash264">',
     [("urn:mpeg:dash:profile:isoff-live:2011", ("cut:list",)), ("urn:com:dashif:dash264", ())]),
    ('profiles="urn:mpeg:dash:profile:isoff-live:2011,http://dashif.org/guidelines/dash-if-simple"',
     [("urn:mpeg:dash:profile:isoff-live:2011", ("cut:list",))]),
    ("Accept: urn:example:a,URN:example:b", [("urn:example:a", ("cut:list",)), ("URN:example:b", ())]),
    ("urn:isbn:0451450523;urn:isbn:0451450524", [("urn:isbn:0451450523", ("cut:list",)), ("urn:isbn:0451450524", ())]),
    ("x;urn:lex:it:stato:legge:2006-05-14;22 y", [("urn:lex:it:stato:legge:2006-05-14;22", ())]),
    ('scope="urn:example:channel=HBO&amp;urn:example:rating=G,PG-13"',
     [("urn:example:channel=HBO", ("cut:entity",)), ("urn:example:rating=G,PG-13", ())]),
    # ... and so does a URL's percent-encoding before another URN (an OAuth scope list, an encoded comma)
    ("https://h.example/authorize?scope=urn:example:a%20urn:example:b&state=1",
     [("urn:example:a", ("embedded:url", "cut:list")), ("urn:example:b", ("embedded:url",))]),
    ("?acr=urn:oasis:names:tc:SAML:2.0:ac:classes:unspecified%20urn:x-c:proxy:template",
     [("urn:oasis:names:tc:SAML:2.0:ac:classes:unspecified", ("embedded:url", "cut:list")),
      ("urn:x-c:proxy:template", ())]),
    ("ids=urn:example:a%2curn:example:b", [("urn:example:a", ("embedded:form", "cut:list")),
                                           ("urn:example:b", ())]),
    # ... and a "," or ";" after a URL's path starts the next item, not the URL's
    # own name (a server's namespace URIs joined by JavaScript's Array join);
    # in the URL's query the list is the URL's
    ("value=[http://opcfoundation.org/UA/,urn:example:host:UaServerCpp,http://h.example/Demo/,urn:example:Demo:A]",
     [("urn:example:host:UaServerCpp", ("cut:list",)), ("urn:example:Demo:A", ())]),
    ("see http://h.example/urn:example:a;urn:example:b x",
     [("urn:example:a", ("embedded:url", "cut:list")), ("urn:example:b", ())]),
    ("https://h.example/r?ids=urn:example:a,urn:example:b&x=1",
     [("urn:example:a", ("embedded:url", "cut:list")), ("urn:example:b", ("embedded:url",))]),
    ("magnet:?xt=urn:btih:0123456789abcdef0123,urn:example:b&dn=x",
     [("urn:btih:0123456789abcdef0123", ("embedded:url", "cut:list")), ("urn:example:b", ("embedded:url",))]),
    ("see http://h.example/a/b,c and urn:example:d", [("urn:example:d", ())]),
    # ... and a "," before the next entry of OpenSSL's subjectAltName after "URI:"
    # (an OPC UA application's certificate), not before another word or without "URI:"
    ("subjectAltName = URI:urn:example:opcua:server,DNS:localhost,IP:127.0.0.1",
     [("urn:example:opcua:server", ("cut:list",))]),
    ('-addext "subjectAltName=URI:urn:example:opcua:client,email:a@h.example"',
     [("urn:example:opcua:client", ("cut:list",))]),
    ("URI:urn:example:def:crs,crs:EPSG::4326 x", [("urn:example:def:crs,crs:EPSG::4326", ())]),
    ("see urn:example:a,DNS:b x", [("urn:example:a,DNS:b", ())]),
    # ... and a word between two "#" before another URN: EN 16931-1's
    # specification identifier of an e-invoice (BT-24), core#compliant#CIUS#conformant#extension
    ("<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:example:kosit:standard:xrechnung_2.3"
     "#conformant#urn:example:kosit:extension:xrechnung_2.3</cbc:CustomizationID>",
     [("urn:example:kosit:standard:xrechnung_2.3", ("cut:list",)), ("urn:example:kosit:extension:xrechnung_2.3", ())]),
    ("urn:example:a#frag d", [("urn:example:a#frag", ())]),
    # ... and a "+" before a URL (xsi:schemaLocation's pairs, form-encoded), not before a name
    ("xsi:schemaLocation%3D%22urn:oasis:names:specification:ubl:schema:xsd:Invoice-2+http://h.example/I.xsd%22",
     [("urn:oasis:names:specification:ubl:schema:xsd:Invoice-2", ("pair:encoded", "cut:list"))]),
    ("urn:publicid:IDN+emulab.net+node+pc1 x", [("urn:publicid:IDN+emulab.net+node+pc1", ())]),
    # ... but not before a name that is no scheme: OGC compound references
    ('"urn:ogc:def:crs,crs:EPSG::4326,crs:EPSG::5714"', [("urn:ogc:def:crs,crs:EPSG::4326,crs:EPSG::5714", ())]),
    ("urn:example:a,b:c", [("urn:example:a,b:c", ())]),
    # a URN right after a comma is a field of comma-separated values: the
    # next comma ends it (RFC 4180 section 2: a field holding one is quoted)
    ("id,urn,title\n1,urn:isbn:0451450523,Moby Dick\n", [("urn:isbn:0451450523", ("cut:list",))]),
    ("2,urn:example:a,b:c\n", [("urn:example:a", ("cut:list",))]),
    ('2,"urn:example:a,b:c",d\n', [("urn:example:a,b:c", ())]),
    ("x,urn:example:a\n", [("urn:example:a", ())]),
    # ... and a field holding a list: its separators end its items first, the comma the last
    ("3,urn:isbn:0451450523;urn:isbn:0140289208,Title\n",
     [("urn:isbn:0451450523", ("cut:list",)), ("urn:isbn:0140289208", ("cut:list",))]),
    ("3,urn:isbn:0451450523;urn:isbn:0140289208\n",
     [("urn:isbn:0451450523", ("cut:list",)), ("urn:isbn:0140289208", ())]),
    ("3,urn:example:a%20urn:example:b,c:d\n", [("urn:example:a", ("cut:list",)), ("urn:example:b", ("cut:list",))]),
    # ... not where no comma starts the list's first item
    ("see urn:example:a;urn:example:b,c:d\n", [("urn:example:a", ("cut:list",)), ("urn:example:b,c:d", ())]),
    ("3, urn:example:a;urn:example:b,c:d\n", [("urn:example:a", ("cut:list",)), ("urn:example:b,c:d", ())]),
    # inside a URL a "?" that starts no RFC 8141 component starts the query
    ("https://h.example/images/urn:ard:image:aee7cbf8f06de976?w=960&ch=1",
     [("urn:ard:image:aee7cbf8f06de976", ("embedded:url", "cut:url-query"))]),
    ("https://h.example/r?u=urn:example:a?=q&x=1", [("urn:example:a?=q", ("embedded:url",))]),
    ("https://h.example/r/urn:example:a?+r?=q", [("urn:example:a?+r?=q", ("embedded:url",))]),
    # ... and a "/" after the URN is the next path separator
    ("https://h.example/feed/update/urn:li:activity:7016901149999955968/?utm_source=share&x=1",
     [("urn:li:activity:7016901149999955968", ("embedded:url", "cut:url-query", "trim:url-slash"))]),
    ("'https://h.example/episode/urn:ard:episode:eabead1add170e93/'",
     [("urn:ard:episode:eabead1add170e93", ("embedded:url", "trim:url-slash"))]),
    # a repository's file URL (DSpace: /bitstream/<identifier>/<sequence>/<file name>)
    ("[pdf](https://h.example/bitstream/urn:nbn:de:gbv:700-2017021015476/6/thesis_arndt.pdf), x",
     [("urn:nbn:de:gbv:700-2017021015476", ("embedded:url", "cut:url-path"))]),
    ("<http://h.example/BitStream/urn:nbn:de:gbv:700-201001304634/1/ELibD27_normdateien.pdf>",
     [("urn:nbn:de:gbv:700-201001304634", ("embedded:url", "cut:url-path"))]),
    ("| https://h.example/jspui/bitstream/urn:nbn:de:0221-2024042443254/5/SL_2024.pdf | WHO",
     [("urn:nbn:de:0221-2024042443254", ("embedded:url", "cut:url-path"))]),
    ("(http://h.example/nhh/bitstream/URN:NBN:no-bibsys_brage_22301/1/bjerksund%20petter.pdf)",
     [("URN:NBN:no-bibsys_brage_22301", ("embedded:url", "cut:url-path"))]),
    ("https://h.example/bitstream/urn:nbn:de:gbv:700-201001304634 x",
     [("urn:nbn:de:gbv:700-201001304634", ("embedded:url",))]),
    ('<a href="/bitstream/urn:nbn:de:gbv:700-201001304634/1/x.pdf">',
     [("urn:nbn:de:gbv:700-201001304634", ("embedded:url", "cut:url-path"))]),
    # ... under another path segment a "/" stays
    ("https://h.example/files/urn:example:a/b/c x", [("urn:example:a/b/c", ("embedded:url",))]),
    ("https://h.example/xbitstream/urn:example:a/b x", [("urn:example:a/b", ("embedded:url",))]),
    # the value of a URI's ";name=" parameter ends at the next parameter (SIP's GRUU, an XMPP URI's node)
    ("Route: <sip:bob@example.com;gr=urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6;lr>",
     [("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", ("cut:parameter",))]),
    ("INVITE sip:bob@example.com;gr=urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6;transport=tcp SIP/2.0",
     [("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", ("cut:parameter",))]),
    ("xmpp:pubsub.example.org?;node=urn:xmpp:microblog:0;item=abc",
     [("urn:xmpp:microblog:0", ("cut:parameter", "embedded:url"))]),
    # ... and so does a folded one, on its next line (RFC 5627 section 3.1)
    ("   Route: <sip:bob@example.com;gr=urn:uuid:f81d4fae-7dec-11d0-a765-\n     00a0c91e6bf6;lr>\n",
     [("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", ("fold:rfc", "cut:parameter"))]),
    ("see urn:lex:ch;glarus:regiere-\n  rung:erlass;2007\n", [("urn:lex:ch;glarus:regiere-rung:erlass;2007", ("fold:rfc",))]),
    # ... a ";" that starts no parameter stays, and so does one without ";name=" before
    ("x;urn=urn:lex:ch;glarus:regiere:erlass:2007-10-15;963 y", [("urn:lex:ch;glarus:regiere:erlass:2007-10-15;963", ())]),
    ("a=urn:example:y;b=1", [("urn:example:y;b=1", ("embedded:form",))]),
    # an OPC UA ExpandedNodeId: the namespace URI after "nsu=" ends before the identifier
    ('node = client.get_node("nsu=urn:example:opcua:server;i=2253")',
     [("urn:example:opcua:server", ("cut:parameter", "embedded:form"))]),
    ("ExpandedNodeId: nsu=urn:example:UA:Quickstarts:ReferenceServer;s=Scalar_Simulation_Int32",
     [("urn:example:UA:Quickstarts:ReferenceServer", ("cut:parameter", "embedded:form"))]),
    ("svr=1;nsu=urn:example:ns;i=7 x", [("urn:example:ns", ("cut:parameter",))]),
    ("xnsu=urn:example:a;i=1 x", [("urn:example:a;i=1", ("embedded:form",))]),
    # outside a URL neither applies
    ("see urn:example:a/b/ and urn:example:c?x", [("urn:example:a/b/", ()), ("urn:example:c?x", ())]),
    # a "&" right before "urn:" separates two URNs (RFC 6750 section 3), before a parameter it stays
    ('   scope="urn:example:channel=HBO&urn:example:rating=G,PG-13"',
     [("urn:example:channel=HBO", ("cut:list",)), ("urn:example:rating=G,PG-13", ())]),
    ("urn:example:weather?=op=map&lat=39.56 x", [("urn:example:weather?=op=map&lat=39.56", ())]),
    # a "/" right before "urn:": the steps of a path of qualified names (an
    # XPath over CalDAV's elements), a node named after two namespaces; the
    # next step is read as a relative path's (a "?" starts a query)
    ("$tree->GetPath('/urn:ietf:params:xml:ns:caldav:calendar-query/urn:ietf:params:xml:ns:caldav:filter/*');",
     [("urn:ietf:params:xml:ns:caldav:calendar-query", ("embedded:url", "cut:list")),
      ("urn:ietf:params:xml:ns:caldav:filter", ("embedded:url", "trim:url-slash"))]),
    ("<node>urn:xmpp:pubsub-attachments:1/urn:xmpp:microblog:0</node>",
     [("urn:xmpp:pubsub-attachments:1", ("cut:list",)), ("urn:xmpp:microblog:0", ("embedded:url",))]),
    ("see urn:example:a/URN:example:b/c x", [("urn:example:a", ("cut:list",)), ("URN:example:b/c", ("embedded:url",))]),
    # ... a "/" before anything else stays
    ("see urn:example:a/urnx:b and urn:example:a/urn x", [("urn:example:a/urnx:b", ()), ("urn:example:a/urn", ())]),
])
def test_lists_and_urls(text, expected):
    assert rules_of(text) == expected


@pytest.mark.parametrize("text, expected", [
    # a "URN:" label (a whois++ record's field) or the scheme written twice
    # before a URN of its own: the URN starts after it
    ("# URC 1\nURN:URN:dns:foo.bar:12345\nTitle:Moby Dick", [("URN:dns:foo.bar:12345", 12, ("trim:label",))]),
    ("cite urn:urn:isbn:0-306-40615-2.", [("urn:isbn:0-306-40615-2", 9, ("trim:period", "trim:label"))]),
    ("<URN:URN:dns:x.org:1>", [("URN:dns:x.org:1", 5, ("wrap:1995", "trim:label"))]),
    ("id='urn:urn:urn:ietf:rfc:2141'", [("urn:ietf:rfc:2141", 12, ("pair:quote", "trim:label"))]),
    ('"urn:URN:example:a"', [("URN:example:a", 5, ("trim:label",))]),
    # no URN after the label: the NID "urn" is judged as written
    ("x urn:urn:NSS y", [("urn:urn:NSS", 2, ())]),
    ("x urn:urn:a: y", [("urn:urn:a:", 2, ())]),
    ("x urn:urn:urn:b y", [("urn:urn:urn:b", 2, ())]),
    # "urn-5" is an informal NID (RFC 8141 section 5.2), not the scheme
    ("x urn:urn-5:a y", [("urn:urn-5:a", 2, ())]),
])
def test_a_label_before_a_urn(text, expected):
    assert [(h.urn, h.start, h.rules) for h in scan_text(text)] == expected
    assert [(h.urn, h.start) for h in scan_bytes([text.encode()])] == [(u, s) for u, s, _ in expected]


def test_labels_are_kept_without_trimming():
    assert urns("URN:URN:dns:foo.bar:12345 x", trim=False) == ["URN:URN:dns:foo.bar:12345"]


@pytest.mark.parametrize("text, expected", [
    # Python and C join adjacent literals: a URN that starts inside the first
    ("xml = ('<a xmlns:upnp=\"urn:schemas-upnp-org:metadata'\n       '-1-0/upnp/\" b=\"1\">')",
     ["urn:schemas-upnp-org:metadata-1-0/upnp/"]),
    ('s = "<id>urn:example:ab"\n    "cd</id>";', ["urn:example:abcd"]),
    ("x = ('<a>urn:example:p:'\n     'q' 'r</a>')", ["urn:example:p:qr"]),
    # the next literal opens a placeholder: a template
    ("t = ('<u:{action} xmlns:u=\"urn:schemas-upnp-org:service:'\n     '{service_type}:{version}\">')", []),
    # a quote inside the run closes the string, a concatenation follows
    ("opf += '<dc:identifier>urn:uuid:'+self.BookId+'</dc:identifier>\\n'", []),
    ("s = '<id>urn:uuid:' + book_id + '</id>'", []),
    # ... so does the closing double quote right after the run
    ('url = base + "&acr=urn:x-c:template:cesnet%20urn:x-c:proxyidp:idpentityid:" + entity_id + "&t=";',
     ["urn:x-c:template:cesnet"]),
    ('s = "see urn:example:ab" + suffix', []),
    ('s = "see urn:example:a:" + "b" + c', []),
    ('He said "see urn:ietf:rfc:2141" and left', ["urn:ietf:rfc:2141"]),
    # a literal that does not go on the URN is left alone
    ("msg = ('see urn:example:ab'\n       ' and more')", ["urn:example:ab"]),
    ("see urn:example:o'brien:1 now", ["urn:example:o'brien:1"]),
])
def test_literals_a_urn_starts_inside(text, expected):
    assert urns(text) == expected


@pytest.mark.parametrize("text, expected", [
    # a string literal of code keeps a final mark: its quote delimits it
    ('X500ATTR_OID = "urn:oid:2.5.4."', ["urn:oid:2.5.4."]),
    ("MAP = {'urn:oid:1.3.6.1.4.1.5923.1.1.1.': 'eduPerson'}", ["urn:oid:1.3.6.1.4.1.5923.1.1.1."]),
    ('perms = ["urn:xmpp:delegation:2:bare:disco#info:*"]', ["urn:xmpp:delegation:2:bare:disco#info:*"]),
    ('{"id": "urn:example:a."}', ["urn:example:a."]),
    # ... and so does an element of a list of literals (a table of test cases)
    ('cases := []string{\n\t\t"urn:ciao:!",\n\t\t"urn:ciao:!!*",\n\t}', ["urn:ciao:!", "urn:ciao:!!*"]),
    ('x = ["a", "urn:example:x!",\n', ["urn:example:x!"]),
    # ... so does a URL that is a literal of its own, its quote closing right after the URN
    ('{"@id":"https://normas.leg.br/?urn=urn:lex:br:federal:lei:2002-01-10;10406!"}',
     ["urn:lex:br:federal:lei:2002-01-10;10406!"]),
    ('<a href="https://h.example/?u=urn:example:a.">', ["urn:example:a."]),
    ("x = 'http://h.example/urn:example:a.'", ["urn:example:a."]),
    # ... but not a URL in a quotation, nor one in prose
    ('the URL "https://h.example/urn:example:a." is', ["urn:example:a"]),
    ("See https://normas.leg.br/?urn=urn:lex:br:federal:lei:2002;10406!", ["urn:lex:br:federal:lei:2002;10406"]),
    # ... a quotation in prose does not
    ('see "urn:isbn:0451450523." Then', ["urn:isbn:0451450523"]),
    ('He wrote: "urn:isbn:0451450523." Then', ["urn:isbn:0451450523"]),
    ('(see "urn:isbn:0451450523.")', ["urn:isbn:0451450523"]),
    # a registration template's or a header's next field is no fold: its label
    # ends the name, whatever ended the line before
    ("   URI: urn:ietf:params:rtp-hdrext:\n   Description: the prefix\n", ["urn:ietf:params:rtp-hdrext:"]),
    ("   URI: urn:ietf:params:xml:ns:foo:\n   XML: N/A, the requested URI is an XML namespace.\n",
     ["urn:ietf:params:xml:ns:foo:"]),
    ("   URN: urn:ietf:params:foo:\n   Contact:\n      The IESG\n", ["urn:ietf:params:foo:"]),
    ("X-Id: urn:example:a-\nSubject: hello\n", ["urn:example:a-"]),
    # ... while a name's part with a colon of its own goes on
    ("   urn:ietf:params:scim:\n   User:employeeNumber is", ["urn:ietf:params:scim:User:employeeNumber"]),
    # a docstring wrapped after a ":" inside a URN, a camel-case name going on
    ('    """The urn:oasis:names:tc:SAML:2.0:ac:classes:TimeSyncToken:\n    PhysicalVerification element"""',
     ["urn:oasis:names:tc:SAML:2.0:ac:classes:TimeSyncToken:PhysicalVerification"]),
    # ... or a compound name, its parts joined by "-" or "_"
    ("   The value urn:ietf:params:oauth:grant-type:\n   token-exchange indicates that",
     ["urn:ietf:params:oauth:grant-type:token-exchange"]),
    ("   See urn:ietf:params:oauth:token-type:\n   access_token for details.",
     ["urn:ietf:params:oauth:token-type:access_token"]),
    # ... also after "/", and parts joined by "/" and "."
    ("   The name URN:example:host.example.org:\n   papers/draft-example-00 is assigned",
     ["URN:example:host.example.org:papers/draft-example-00"]),
    ("   the handle urn:example:host.test/\n   demo-1 is resolved", ["urn:example:host.test/demo-1"]),
    # ... a sentence after a prefix is not its continuation
    ("   the prefix urn:ietf:params:xml:ns:\n   followed by a name.", ["urn:ietf:params:xml:ns:"]),
    ("   The prefix urn:example:yang:ietf-\n   is used by all modules.", ["urn:example:yang:ietf-"]),
    ("   the prefix urn:ietf:params:xml:ns:\n   e.g. the registry", ["urn:ietf:params:xml:ns:"]),
    # ... and letters then digits
    ("   The URN urn:example:params:xml:ns:\n   lost1 is, for instance, used", ["urn:example:params:xml:ns:lost1"]),
    # ... or a number (an RFC's, an ISBN), also in a quoted reply; not a
    # list item's number
    ("and urn:ietf:rfc:\n8141, the spec.\n", ["urn:ietf:rfc:8141"]),
    ("> the record, and\n> urn:ietf:rfc:\n> 8141 is the spec.\n", ["urn:ietf:rfc:8141"]),
    ("   the prefix urn:ietf:rfc:\n   2.  Terminology\n", ["urn:ietf:rfc:"]),
    # ... a capitalised name that ends the sentence goes on too
    ("   the schema urn:example:api:messages:2.0:\n   Error.  The next sentence.", ["urn:example:api:messages:2.0:Error"]),
    ("   the error urn:example:acme:error:\n   unsupportedIdentifier, and more", ["urn:example:acme:error:unsupportedIdentifier"]),
    # ... in a protocol trace, past the mark the URN's line carries too
    ('   C:       xmlns:host="urn:example:xml:ns:host-\n   C:       1.0">\n', ["urn:example:xml:ns:host-1.0"]),
    ("   C:  urn:example:xml:ns:host-\n   S:  1.0\n", ["urn:example:xml:ns:host-"]),
    # ... nor the term of a definition list under a URN heading (whose ":"
    # is the heading's, trim:term)
    ("   urn:example:schemas:core:2.0:Group:\n      displayName  A human-readable name.\n",
     ["urn:example:schemas:core:2.0:Group"]),
    ("   under urn:example:a/\n   and/or more", ["urn:example:a/"]),
    ("   the prefix urn:ietf:params:xml:ns:\n   The registration follows.", ["urn:ietf:params:xml:ns:"]),
    ("   the prefix urn:ietf:params:xml:ns:\n   Note that it ends.", ["urn:ietf:params:xml:ns:"]),
])
def test_code_literals_and_wrapped_names(text, expected):
    assert urns(text) == expected


@pytest.mark.parametrize("text, expected", [
    # a letter outside ASCII goes on the name: reported whole, judged invalid
    ('x = "urn:example:\u00e9"', [("urn:example:\u00e9", False)]),
    ("see urn:example:caf\u00e9 now", [("urn:example:caf\u00e9", False)]),
    ("(urn:example:na\u00efve)", [("urn:example:na\u00efve", False)]),
    ("https://h.example/r?u=urn:example:caf\u00e9&x=1", [("urn:example:caf\u00e9", False)]),
    # ... also past U+052F: Vietnamese letters (Latin Extended Additional),
    # polytonic Greek, the Latin ligatures of a PDF's text, and a combining
    # mark after its letter in decomposed text
    ("see urn:example:vi\u1ec7t-nam now", [("urn:example:vi\u1ec7t-nam", False)]),
    ("urn:example:\u1f00\u03c1\u03c7\u03ae.", [("urn:example:\u1f00\u03c1\u03c7\u03ae", False)]),
    ("urn:oasis:names:tc:opendocument:xmlns:o\ufb03ce:1.0 x",
     [("urn:oasis:names:tc:opendocument:xmlns:o\ufb03ce:1.0", False)]),
    ("see urn:example:cafe\u0301 now", [("urn:example:cafe\u0301", False)]),
    ("urn:example:gro\u0308\u00dfe-1)", [("urn:example:gro\u0308\u00dfe-1", False)]),
    # ... not letters of other scripts, nor signs named after no script
    ("urn:isbn:0451450523\u05d0\u05d1", [("urn:isbn:0451450523", True)]),
    ("urn:isbn:0451450523\u0e01\u0e02", [("urn:isbn:0451450523", True)]),
    ("urn:example:100\u2126 x", [("urn:example:100", True)]),
    ("urn:isbn:0451450523\u0531", [("urn:isbn:0451450523", True)]),
    # ... nor numbers of another kind: a footnote's superscript, a fraction
    ("The book urn:isbn:0451450523\u00b9 is cited.", [("urn:isbn:0451450523", True)]),
    ("see urn:example:a\u00b2 and urn:example:b\u00bd", [("urn:example:a", True), ("urn:example:b", True)]),
    ("urn:example:caf\u00e9\u00b3 x", [("urn:example:caf\u00e9", False)]),
    # punctuation outside ASCII ends it
    ("urn:isbn:0451450523\u2014next", [("urn:isbn:0451450523", True)]),
    ("\u201curn:isbn:0451450523\u201d", [("urn:isbn:0451450523", True)]),
    ("urn:isbn:0451450523\u2026", [("urn:isbn:0451450523", True)]),
    ("the urn:isbn:0451450523 \u00fc", [("urn:isbn:0451450523", True)]),
    # a script written without spaces starts the next word
    ("\u53c2\u89c1urn:isbn:0451450523\u4e2d\u6587", [("urn:isbn:0451450523", True)]),
    # fullwidth letters and digits go on the name, fullwidth punctuation ends it
    ("see urn:isbn:03064061\uff152 here", [("urn:isbn:03064061\uff152", False)]),
    ("urn:isbn:\uff10\uff13\uff10\uff16.", [("urn:isbn:\uff10\uff13\uff10\uff16", False)]),
    ("urn:isbn:4000000000\uff08\u5ca9\u6ce2\uff09", [("urn:isbn:4000000000", True)]),
    ("urn:isbn:0451450523\uff0c\u6b21", [("urn:isbn:0451450523", True)]),
])
def test_letters_outside_ascii(text, expected):
    assert [(h.urn, h.valid) for h in scan_text(text)] == expected
    assert [(h.urn, h.valid) for h in scan_bytes([text.encode()])] == expected


FW = {c: chr(ord(c) + 0xFEE0) for c in "urnURN:isbnISBN0123456789-.,)"}


def fullwidth(text: str) -> str:
    return "".join(FW.get(c, c) for c in text)


@pytest.mark.parametrize("text, expected", [
    # namespaces.md §3.7: a "urn:" in fullwidth forms starts a suspected URN, reported as written
    (f"\u898b\u3088 {fullwidth('URN:ISBN:0306406152.')}\u3002", [fullwidth("URN:ISBN:0306406152")]),
    (f"see {fullwidth('urn:')}isbn:0306406152, ok", [fullwidth("urn:") + "isbn:0306406152"]),
    ("URN\uff1aISBN:0306406152)", ["URN\uff1aISBN:0306406152"]),
    # ... not inside a word, not without a name, not where the reading rules read an ASCII "urn:"
    (f"x{fullwidth('urn:a:b')}", []),
    (f"{fullwidth('urn:')} and", []),
    ("urn:isbn:0306406152 \uff55rn:isbn:1", ["urn:isbn:0306406152", "\uff55rn:isbn:1"]),
    # a character reference ends one, as it ends a URN (entity.py): none is decoded in it
    (f"&quot;{fullwidth('urn:')}isbn:0306406152&quot; x", [fullwidth("urn:") + "isbn:0306406152"]),
    (f"{fullwidth('urn:')}isbn:0306406152&amp; x", [fullwidth("urn:") + "isbn:0306406152"]),
    (f"{fullwidth('urn:')}&#38; x", []),
    (f"{fullwidth('urn:')}isbn:0306406152&x y", [fullwidth("urn:") + "isbn:0306406152&x"]),
])
def test_suspected_urns_in_fullwidth_forms(text, expected):
    for hits in (scan_text(text), list(scan_bytes([text.encode()]))):
        assert [h.urn for h in hits] == expected
        for h in hits:
            if h.urn.startswith("urn:isbn"):
                continue
            assert h.rules == ("suspect:lookalike",) and not h.valid
            assert "confusable" in [f.code for f in h.findings]
    for h in scan_text(text):
        assert text[h.start:h.end] == h.urn  # character offsets of the text as written
    data = text.encode()
    for h in scan_bytes([data]):
        assert data[h.start:h.end].decode() == h.urn  # byte offsets


@pytest.mark.parametrize("text, expected", [
    # a paginated RFC or Internet-Draft: the URN goes on after the page break
    ("   namespace is urn:ietf:params:xml:ns:yang:ietf-restconf-\n\n\n\n"
     "Tester                   Expires September 2, 2024                [Page 7]\n\f\n"
     "Internet-Draft         Module Dependencies                  March 2024\n\n\n   monitoring for its types.\n",
     ["urn:ietf:params:xml:ns:yang:ietf-restconf-monitoring"]),
    ("   urn:example:a:\n\nBray, et al.                Standards Track                    [Page 12]\n"
     "\fRFC 8141                     URNs                           April 2017\n\n\n   b:c\n", ["urn:example:a:b:c"]),
    # ... also in a copy without the form feed, whose next page starts with its header
    ("   namespace is urn:ietf:params:xml:ns:yang:ietf-bgp-\n\n"
     "Jethanandani, et al.      Expires 24 August 2023                [Page 3]\n\n"
     "Internet-Draft                  BGP Policy                 February 2023\n\n\n   policy and is registered.\n",
     ["urn:ietf:params:xml:ns:yang:ietf-bgp-policy"]),
    ("   urn:example:a:\n\nBray, et al.                Standards Track                    [Page 12]\n"
     "RFC 8141                     URNs                           April 2017\n\n\n   b:c\n", ["urn:example:a:b:c"]),
    ("   at <urn:example:a:\n\nDoe                                                     [Page 5]\n\n"
     "INTERNET-DRAFT       Resolution of names            March 1996\n\n\n   b/1234> is found\n",
     ["urn:example:a:b/1234"]),
    # ... but without a form feed, a line after the footer that is no header is text
    ("   urn:example:a-\n\nBray, et al.                Standards Track                    [Page 12]\n\n"
     "   Some text that goes on.\n", ["urn:example:a-"]),
    # ... not onto a sentence, nor without a fold character
    ("   prefix urn:ietf:params:xml:ns:\n\nBray, et al.                Standards Track                    [Page 12]\n"
     "\fRFC 8141                     URNs                           April 2017\n\n\n   The next section.\n",
     ["urn:ietf:params:xml:ns:"]),
    ("   see urn:example:restconf\n\nTester                 Expires 2024                [Page 7]\n\f\n"
     "Internet-Draft         Module                  March 2024\n\n   monitoring\n", ["urn:example:restconf"]),
    # ... nor onto the next page's heading, left of the text
    ("   registry type: urn:ietf:params:xml:ns:dreg1.\n\n\n\nNewton & Sanz               Standards Track"
     "                    [Page 36]\n\f\nRFC 3982                       IRIS-Dreg                    January 2005"
     "\n\n\n6.2.  Bottom-Up Resolution\n", ["urn:ietf:params:xml:ns:dreg1"]),
    # RFC 4475 section 2.1: an <allOneLine> block is one line, broken anywhere
    ("   <allOneLine>\n   To: sip:b@example.com;opaque=urn:uuid:f8\n   1d4fae-7dec-11d0-a765-00a0c91e6bf6;grid=99a\n"
     "   </allOneLine>\n", ["urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"]),
    ("    <allOneLine>\n    SUBSCRIBE sip:c@example.com;gr=urn:uuid:f8\n    1d4fae-7dec-11d0-a765-00a0c91e6bf6\n"
     "     SIP/2.0\n    </allOneLine>\n", ["urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"]),
    # ... and nowhere else
    ("   </allOneLine>\n   gr=urn:uuid:f8\n   1d4fae-7dec is not\n", ["urn:uuid:f8"]),
    ("   <allOneLine>\n   gr=urn:uuid:f8\n   </allOneLine>\n", ["urn:uuid:f8"]),
    # a break just before "." inside a version number, the name going on
    ('    """The urn:oasis:names:tc:SAML:2\n    .0:metadata:AttributeAuthorityDescriptorType element"""',
     ["urn:oasis:names:tc:SAML:2.0:metadata:AttributeAuthorityDescriptorType"]),
    ("   the urn:example:a:2\n   .5 is a number here", ["urn:example:a:2"]),
    ("   version urn:example:a:2\n.  Next sentence", ["urn:example:a:2"]),
    # a sentence's ":" after the ")" closing a parenthesis opened before the URN
    ("   annotations (URI\n   urn:ietf:params:xml:ns:netmod:dsdl-annotations:1):\n",
     ["urn:ietf:params:xml:ns:netmod:dsdl-annotations:1"]),
    ("   a name urn:example:f(a): here", ["urn:example:f(a):"]),
    # a URN broken after "urn:" and an empty line, onto a line of its own
    ("   element [RFC4479].\n\n   urn:\n\n   ietf:params:xml:ns:pidf:caps\n\n3.3.1.  <devcaps> Element\n",
     ["urn:ietf:params:xml:ns:pidf:caps"]),
    ("   The prefix is urn:\n\n   ietf:params:xml:ns:pidf:caps and more words\n", []),
    # a table whose left cells wrap too
    ("   |ietf-lmap-    |urn:ietf:params:xml:ns:yang:ietf-|lmap   |RFC XXXX |\n"
     "   |common        |lmap-common                      |       |         |\n",
     ["urn:ietf:params:xml:ns:yang:ietf-lmap-common"]),
    # a number after a period and a line break starts a sentence
    ("see urn:ietf:rfc:2141.\n   2141 defines the syntax.", ["urn:ietf:rfc:2141"]),
    ("the OID urn:oid:1.2.840.\n   113549.1.1 is used", ["urn:oid:1.2.840.113549.1.1"]),
])
def test_rfc_layouts(text, expected):
    assert urns(text) == expected


@pytest.mark.parametrize("text, expected", [
    # a reference ends a URN ...
    ("&quot;urn:xmpp:sm:3&quot;", [("urn:xmpp:sm:3", "urn:xmpp:sm:3", ("cut:entity",))]),
    ("urn:example:a&amp;b=1", [("urn:example:a", "urn:example:a", ("cut:entity",))]),
    # ... but "&amp;" after a "?" separates the parameters of a component
    ("<p>urn:example:weather?=op=map&amp;lat=39.56&amp;lon=-104.85 x</p>",
     [("urn:example:weather?=op=map&lat=39.56&lon=-104.85", "urn:example:weather?=op=map&amp;lat=39.56&amp;lon=-104.85",
       ("decode:entity",))]),
    ("<li>urn:ietf:params:netconf:capability:with-defaults:1.0?basic-mode=explicit&amp;also-supported=report-all</li>",
     [("urn:ietf:params:netconf:capability:with-defaults:1.0?basic-mode=explicit&also-supported=report-all",
       "urn:ietf:params:netconf:capability:with-defaults:1.0?basic-mode=explicit&amp;also-supported=report-all",
       ("decode:entity",))]),
    # ... and a numeric reference of a name character is that character
    ("<a>urn:example:y&#x2D;z&#46;1&lt;</a>", [("urn:example:y-z.1", "urn:example:y&#x2D;z&#46;1",
                                                 ("cut:entity", "decode:entity"))]),
    ("<a>urn:example:a&#39;b</a>", [("urn:example:a", "urn:example:a", ("cut:entity",))]),
    # a reference escaped again (an HTML page showing XML source) is the reference it escapes
    ("<pre>&amp;lt;id&amp;gt;urn:example:a:b&amp;lt;/id&amp;gt;</pre>",
     [("urn:example:a:b", "urn:example:a:b", ("cut:entity",))]),
    ("<pre>urn:example:cap:1.0?mode=explicit&amp;amp;also=all x</pre>",
     [("urn:example:cap:1.0?mode=explicit&also=all", "urn:example:cap:1.0?mode=explicit&amp;amp;also=all",
       ("decode:entity",))]),
    ("<pre>urn:example:a&amp;amp;b=1</pre>", [("urn:example:a", "urn:example:a", ("cut:entity",))]),
    # a soft hyphen or zero-width space a page breaks a long name at stands for nothing
    ("<p>urn:ietf:params:xml:ns:&shy;yang:ietf-interfaces</p>",
     [("urn:ietf:params:xml:ns:yang:ietf-interfaces", "urn:ietf:params:xml:ns:&shy;yang:ietf-interfaces",
       ("decode:entity",))]),
    ("&quot;urn:example:a:&#x200B;b&quot;</span>",
     [("urn:example:a:b", "urn:example:a:&#x200B;b", ("cut:entity", "decode:entity"))]),
    # a named reference HTML defines ends it too ...
    ("urn:example:a&nbsp;b", [("urn:example:a", "urn:example:a", ("cut:entity",))]),
    ("<p>urn:example:a&rsquo;s</p>", [("urn:example:a", "urn:example:a", ("cut:entity",))]),
    # ... but one to an entity the document declares (XML section 4.2) builds
    # the name from its text: a template (an XEP's DTD), no URN
    ('<!ENTITY NS "urn:xmpp:tmp:&SN;:0">', []),
    ('<!ENTITY ns "urn:example:foo:&version;">', []),
])
def test_character_references(text, expected):
    assert [(h.urn, h.raw, h.rules) for h in scan_text(text)] == expected


#: a break opportunity written as it is -- HTML's <wbr>, U+200B, U+00AD --
#: inside a name stands for nothing (breaks.py), as its references do;
#: after the name, or before no more of it, it is no part of it
BREAK_OPPORTUNITIES = [
    ("<p>urn:ietf:params:xml:ns:<wbr>yang:ietf-interfaces</p>",
     [("urn:ietf:params:xml:ns:yang:ietf-interfaces", "urn:ietf:params:xml:ns:<wbr>yang:ietf-interfaces",
       ("decode:break",))]),
    ("<td>urn:ietf:params:<wbr/>oauth:<wbr />grant-type:<WBR>jwt-bearer</td>",
     [("urn:ietf:params:oauth:grant-type:jwt-bearer",
       "urn:ietf:params:<wbr/>oauth:<wbr />grant-type:<WBR>jwt-bearer", ("decode:break",))]),
    ("<td>urn:oid:1.2.840<wbr>.113549.1.1</td>",
     [("urn:oid:1.2.840.113549.1.1", "urn:oid:1.2.840<wbr>.113549.1.1", ("decode:break",))]),
    ("see urn:ietf:params:xml:ns:\u200byang:ietf-ip, now",
     [("urn:ietf:params:xml:ns:yang:ietf-ip", "urn:ietf:params:xml:ns:\u200byang:ietf-ip",
       ("decode:break", "trim:comma"))]),
    ("see urn:ietf:params:xml:ns:\u00adyang:ietf-ip.",
     [("urn:ietf:params:xml:ns:yang:ietf-ip", "urn:ietf:params:xml:ns:\u00adyang:ietf-ip",
       ("decode:break", "trim:period"))]),
    # none goes on: the mark is left out
    ("see urn:ietf:params:xml:ns:yang<wbr> next", [("urn:ietf:params:xml:ns:yang", "urn:ietf:params:xml:ns:yang", ())]),
    ("urn:example:y<wbr><b>bold</b>", [("urn:example:y", "urn:example:y", ())]),
    ("urn:isbn:0451450523\u200b urn:isbn:0451450524",
     [("urn:isbn:0451450523", "urn:isbn:0451450523", ()), ("urn:isbn:0451450524", "urn:isbn:0451450524", ())]),
    ("x urn:example:abc<wbrx>def y", [("urn:example:abc", "urn:example:abc", ())]),
    # another name after it: two names
    ("<td>urn:isbn:0451450523<wbr>urn:isbn:0451450524</td>",
     [("urn:isbn:0451450523", "urn:isbn:0451450523", ()), ("urn:isbn:0451450524", "urn:isbn:0451450524", ())]),
    # a quote that closed the name closes it
    ('"urn:xmpp:mam:2"<wbr>x', [("urn:xmpp:mam:2", "urn:xmpp:mam:2", ())]),
]


def assert_read_as(text, expected):
    """The names read in ``text`` as (urn, raw, rules), each span the raw text."""
    hits = list(scan_text(text))
    assert [(h.urn, h.raw, h.rules) for h in hits] == expected
    assert [text[h.start:h.end] for h in hits] == [h.raw for h in hits]  # (offsets in characters)


@pytest.mark.parametrize("text,expected", BREAK_OPPORTUNITIES)
def test_break_opportunities(text, expected):
    assert_read_as(text, expected)


#: inline tags that a word processor's HTML puts inside a name after one of
#: its ":" (its speller's SpellE and GramE spans, a change of language, a
#: bookmark) stand for nothing: phrasing content is text (breaks.py)
MARKUP_SPLITS = [
    ("<p class=MsoNormal>urn:isbn:<span class=GramE>0451450523</span>.<o:p></o:p></p>",
     [("urn:isbn:0451450523", "urn:isbn:<span class=GramE>0451450523", ("decode:markup",))]),
    ("<span lang=EN-US style='mso-ansi-language:EN-US'>urn:ietf:rfc:</span><span lang=EN-US>8141<o:p></o:p></span>",
     [("urn:ietf:rfc:8141", "urn:ietf:rfc:</span><span lang=EN-US>8141", ("decode:markup",))]),
    ('<p>urn:nbn:de:</span><a name="_Toc1"></a><span style="color:red">101-2010</span> next</p>',
     [("urn:nbn:de:101-2010", 'urn:nbn:de:</span><a name="_Toc1"></a><span style="color:red">101-2010',
       ("decode:markup",))]),
    ("<p>urn:ietf:params:<wbr>xml:ns:</SPAN><SPAN\nlang=DE>yang</SPAN></p>",
     [("urn:ietf:params:xml:ns:yang", "urn:ietf:params:<wbr>xml:ns:</SPAN><SPAN\nlang=DE>yang",
       ("decode:break", "decode:markup"))]),
    ("<font face=Arial>urn:isbn:</font><b>0451450523</b>, urn:isbn:<strong>0451450524</strong>",
     [("urn:isbn:0451450523", "urn:isbn:</font><b>0451450523", ("decode:markup",)),
      ("urn:isbn:0451450524", "urn:isbn:<strong>0451450524", ("decode:markup",))]),
    # the speller's span closes a word of the name, which goes on after it with ":"
    ("<p>urn:nbn:de:<span class=SpellE>gbv</span>:3:1-114513</p>",
     [("urn:nbn:de:gbv:3:1-114513", "urn:nbn:de:<span class=SpellE>gbv</span>:3:1-114513", ("decode:markup",))]),
    ("<p><span class=SpellE>urn:nbn:de:bsz</span>:93-opus-12345 is cited</p>",
     [("urn:nbn:de:bsz:93-opus-12345", "urn:nbn:de:bsz</span>:93-opus-12345", ("decode:markup",))]),
    ('<P>urn:nbn:de:gbv<SPAN LANG="EN-US">:3:1-114513</SPAN></P>',
     [("urn:nbn:de:gbv:3:1-114513", 'urn:nbn:de:gbv<SPAN LANG="EN-US">:3:1-114513', ("decode:markup",))]),
    # ... but a ":" the prose puts after the name, or after another element, is none of it
    ("<p><b>urn:example:a</b>: the name</p>", [("urn:example:a", "urn:example:a", ())]),
    ("<p><b>urn:example:a</b>:</p>", [("urn:example:a", "urn:example:a", ())]),
    ("<li>urn:example:a</li>:b", [("urn:example:a", "urn:example:a", ())]),
    ("<p><i>urn:example:a</i>:b</p>", [("urn:example:a", "urn:example:a", ())]),
    # a placeholder set off in italics, a footnote's mark, a cell: no part of the name
    ("<p>urn:isbn:<i>nnnnnnnnnn</i></p>", []),
    ("<p>urn:isbn:0451450523<sup>1</sup></p>", [("urn:isbn:0451450523", "urn:isbn:0451450523", ())]),
    ("<td>urn:example:a:</td><td>b</td>", [("urn:example:a:", "urn:example:a:", ())]),
    # a blank after the tags, another name, or no ":" before them: the name ends there
    ("<span>urn:example:a:</span><span> b</span>", [("urn:example:a:", "urn:example:a:", ())]),
    ("<b>urn:example:</b><b>urn:example:b</b>", [("urn:example:b", "urn:example:b", ())]),
    ("<p>urn:example:a<span>b</span></p>", [("urn:example:a", "urn:example:a", ())]),
]


@pytest.mark.parametrize("text,expected", MARKUP_SPLITS)
def test_markup_splits(text, expected):
    assert_read_as(text, expected)


def test_markup_splits_go_with_folding():
    assert urns("<p>urn:isbn:<span class=GramE>0451450523</span></p>", fold=False) == []


@pytest.mark.parametrize("text, expected", [
    # seed 004 section 2: white space is not significant in a URN; in a
    # wrapper it may follow a ":" on the same line ...
    ("e.g., <URN: Schemeid: Authorityid:Elementid>\n",
     [("URN:Schemeid:Authorityid:Elementid", "URN: Schemeid: Authorityid:Elementid", ("wrap:1995", "fold:wrapper"))]),
    ("see <URN:x-dns-2: library.bigstate.edu: aj17-mcc> here",
     [("URN:x-dns-2:library.bigstate.edu:aj17-mcc", "URN:x-dns-2: library.bigstate.edu: aj17-mcc",
       ("wrap:1995", "fold:wrapper"))]),
    ("<URN:\tdns:a:b>", [("URN:dns:a:b", "URN:\tdns:a:b", ("wrap:1995", "fold:wrapper"))]),
    # ... also written as a page showing text with markup writes it (a
    # mail archive's HTML, an RFC's HTML rendering)
    ("e.g., &lt;URN: Schemeid: Authorityid:Elementid&gt;\n",
     [("URN:Schemeid:Authorityid:Elementid", "URN: Schemeid: Authorityid:Elementid", ("wrap:1995", "fold:wrapper"))]),
    ("&lt;URN:\n  dns:a:b&gt;", [("URN:dns:a:b", "URN:\n  dns:a:b", ("wrap:1995", "fold:wrapper"))]),
    ("see &lt;urn:example:a:b&gt; there", [("urn:example:a:b", "urn:example:a:b", ("wrap:1995",))]),
    ("&lt;URN: a label&gt; x", []),
    ("&lt;URN:IANA:foo bar&gt;", [("URN:IANA:foo", "URN:IANA:foo", ())]),
    ("&lt;URN: dns:a:b", []),
    # ... but a blank after anything else is prose or code, and words are no name
    ("<URN:IANA:foo bar>", [("URN:IANA:foo", "URN:IANA:foo", ())]),
    ("see <URN: IANA: See section 3> x", []),
    ("<URN: a label> x", []),
    ("<urn: foo>", []),
    # a wrapper's percent-encoding, and a "$" inside a name, are the name's
    ("see <urn:example:a%2Fb> there", [("urn:example:a%2Fb", "urn:example:a%2Fb", ("wrap:1995",))]),
    ("see <urn:example:type:fin$103> there",
     [("urn:example:type:fin$103", "urn:example:type:fin$103", ("wrap:1995",))]),
])
def test_white_space_in_a_1995_wrapper(text, expected):
    assert_read_as(text, expected)


#: a reference that ends the name inside one piece of a joined name (across
#: a break opportunity, a fold, the quotes between literals, an escape), or
#: trimming that takes a decoded reference or the last pieces: the name
#: ends there, its span too, and the rules of the pieces after it go
CUT_INSIDE_A_JOINED_NAME = [
    ("<p>see urn:example:y&#46; end</p>", [("urn:example:y", "urn:example:y", ("decode:entity", "trim:period"))]),
    ("<p>urn:example:a?=b&amp;c&#46; x</p>",
     [("urn:example:a?=b&c", "urn:example:a?=b&amp;c", ("decode:entity", "trim:period"))]),
    ("<p>urn:example:y&shy;&#46; x</p>", [("urn:example:y", "urn:example:y", ("decode:entity", "trim:period"))]),
    ("see urn:a:b<wbr>. end", [("urn:a:b", "urn:a:b", ("trim:period",))]),
    ("see urn:a:b\u00ad, end", [("urn:a:b", "urn:a:b", ("trim:comma",))]),
    ("see (urn:a:b<wbr>c<wbr>) end", [("urn:a:bc", "urn:a:b<wbr>c", ("decode:break", "trim:paren"))]),
    # a name joined over a break opportunity is joined no further: the
    # quotes after the mark join no literals (the mark was read as the name's)
    ("see urn:a:b<wbr>' 'c x", [("urn:a:b", "urn:a:b", ("trim:quote",))]),
    ("see urn:a:<wbr>' '. x", []),
    ("see urn:a:b&amp;c\u00add end", [("urn:a:b", "urn:a:b", ("cut:entity",))]),
    ("see urn:a:b&amp;c<wbr>d end", [("urn:a:b", "urn:a:b", ("cut:entity",))]),
    ("see urn:a:bb\u00adc&amp;d end", [("urn:a:bbc", "urn:a:bb\u00adc", ("decode:break", "cut:entity"))]),
    ("   urn:ietf:params:xml:ns:yang:ietf&amp;x-\n   interfaces here\n",
     [("urn:ietf:params:xml:ns:yang:ietf", "urn:ietf:params:xml:ns:yang:ietf", ("cut:entity",))]),
    ("   urn:ietf:params:xml:ns:yang:ietf-\n   interfaces&amp;x=1 here\n",
     [("urn:ietf:params:xml:ns:yang:ietf-interfaces", "urn:ietf:params:xml:ns:yang:ietf-\n   interfaces",
       ("fold:rfc", "cut:entity"))]),
    ('x = "urn:a:b&amp;c" "d";\n', [("urn:a:b", "urn:a:b", ("cut:entity",))]),
    ('x = "urn:a:b-" "c&amp;d";\n', [("urn:a:b-c", 'urn:a:b-" "c', ("fold:literal", "cut:entity"))]),
    ("see urn:a:b&lt;c\\\n  d end", [("urn:a:b", "urn:a:b", ("cut:entity",))]),
    ("see urn:a:b\\-c&amp;d\\-e end", [("urn:a:b-c", "urn:a:b\\-c", ("decode:roff-hyphen", "cut:entity"))]),
]


@pytest.mark.parametrize("text,expected", CUT_INSIDE_A_JOINED_NAME)
def test_a_name_cut_inside_what_was_joined_or_decoded_ends_there(text, expected):
    assert_read_as(text, expected)
    hits = list(scan_text(text))
    assert [h.folded for h in hits] == [len(h.raw) > len(h.urn) and "\\" not in h.raw and "&" not in h.raw
                                        for h in hits]


#: what a name may be made of where references, break opportunities, folds,
#: escapes and literals meet
_NAME_PIECES = [b"b", b"c1", b"-", b".", b",", b":", b"?", b"?=", b"&", b"=", b"&amp;", b"&#46;", b"&#45;", b"&shy;",
                b"&quot;", b"&#x200B;", b"<wbr>", "\u00ad".encode(), "\u200b".encode(), b"-\n   ", b"\\\n  ", b"' '",
                b'" "', b"\\-", b")", b"(", b"/", b"/*", b"%41", b"%", b"'s", b"\n", b" ", b"</span><span lang=DE>",
                b"<span class=SpellE>", b"<i>"]
JOINED_NAMES = st.tuples(st.sampled_from([b"", b" ", b"(", b'"', b"'", b">", b"http://h/", b"x = '"]),
                   st.sampled_from([b"urn:", b"URN:"]), st.sampled_from([b"a:", b"isbn:", b"ietf:params:"]),
                   st.lists(st.sampled_from(_NAME_PIECES), max_size=12).map(b"".join),
                   st.sampled_from([b"", b" end", b".", b". end", b")", b"\n", b'"', b"'", b"</p>"])).map(b"".join)
_MARK_LAST = re.compile(r"(<wbr ?/?>|\u00ad|\u200b|&shy;|&#173;|&#x200b;)$", re.I)
_REFERENCE_START = re.compile(r"&#?[A-Za-z0-9]*$")
_REFERENCE_REST = re.compile(rb"[A-Za-z0-9]*;")


@given(st.lists(JOINED_NAMES, min_size=1, max_size=3).map(b" ".join))
@example(b"see urn:a:b&amp;c\xc2\xadd end")
@example(b"<p>see urn:example:y&#46; end</p>")
@example(b"see urn:a:b<wbr>' 'c x")
@settings(max_examples=1500, deadline=None)
def test_a_name_never_ends_inside_a_reference_nor_after_a_mark(data):
    """A hit's span is its raw text, and it ends neither inside a character
    reference nor with a break opportunity (which stands for nothing at
    the end of a name)."""
    for h in scan_bytes([data]):
        assert data[h.start:h.end].decode("utf-8", "replace") == h.raw
        assert not _MARK_LAST.search(h.raw)
        assert not (_REFERENCE_START.search(h.raw) and _REFERENCE_REST.match(data, h.end))


_MARK_INSIDE = re.compile(r"<wbr|\u00ad|\u200b", re.I)
#: names in wrappers, URLs, quotes and brackets, over lines and page breaks
_NSS_PIECES = [b"b", b"c1", b"-", b".", b",", b":", b"?", b"?=", b"?+", b"#", b"&", b"=", b"&amp;", b"&#46;", b"&gt;",
               b"&lt;", b"<wbr>", "\u00ad".encode(), b"-\n   ", b"\n   ", b" ", b"\t", b"%3A", b"%2F", b"%41", b"%",
               b"/", b"'", b'"', b")", b"(", b"\f\nRFC 1234   Title   May 2020\n\n   ", b"\n\n   ", b"\\\n", b"*",
               b"'s", b"..."]
WRITTEN_NAMES = st.tuples(
    st.sampled_from([b"<", b"<URN:", b"", b" ", b"(", b'"', b"http://h/", b"http://h/?u=", b"[", b"`",
                     "\u2018".encode()]),
    st.sampled_from([b"urn:", b"URN:", b"urn%3A", b""]), st.sampled_from([b"a:", b"isbn:", b"ietf:params:", b"x-y:", b"a%3A"]),
    st.lists(st.sampled_from(_NSS_PIECES), max_size=10).map(b"".join),
    st.sampled_from([b"", b">", b" end", b".", b">.", b")", b"\n", b'"', b"'", b"]", b"`", "\u2019".encode()]),
).map(b"".join)


@given(st.lists(WRITTEN_NAMES, min_size=1, max_size=3).map(b" ".join), st.booleans())
@settings(max_examples=1000, deadline=None)
def test_a_name_read_as_written_is_its_span(data, percent):
    """The span is the raw text; a hit no rule decoded, folded or unwrapped
    is its raw text; no break opportunity is left inside a URN."""
    for h in scan_bytes([data], percent=percent):
        assert data[h.start:h.end].decode("utf-8", "replace") == h.raw
        assert not _MARK_LAST.search(h.raw) and not _MARK_INSIDE.search(h.urn)
        assert not (_REFERENCE_START.search(h.raw) and _REFERENCE_REST.match(data, h.end))
        if not h.folded and not any(r.startswith(("decode:", "fold:", "wrap:", "trim:label")) for r in h.rules):
            assert h.urn == h.raw


def test_break_opportunities_go_with_folding():
    text = "<td>urn:oid:1.2.840<wbr>.113549.1.1</td>"
    assert [h.urn for h in scan_text(text, fold=False)] == ["urn:oid:1.2.840"]  # the markup ends it


#: text in a double-byte encoding (Shift_JIS, Big5, GBK, UHC), whose
#: characters' second bytes include ASCII's letters: "「" is 0x81 0x75 ("u")
#: in Shift_JIS and 0xA1 0x75 in Big5, "、" 0x81 0x41 ("A"), "：" 0x81 0x46
#: ("F"); a "urn:" after such a character starts a name (chars.after_double_byte)
DOUBLE_BYTE_TEXT = [
    ("「urn:isbn:0451450523」を参照".encode("shift_jis"), ["urn:isbn:0451450523"]),
    ("例：urn:ietf:rfc:8141、urn:isbn:0451450523。".encode("shift_jis"), ["urn:ietf:rfc:8141", "urn:isbn:0451450523"]),
    ("（urn:ietf:rfc:8141）を参照".encode("shift_jis"), ["urn:ietf:rfc:8141"]),
    ("規格はurn:ietf:rfc:8141を参照".encode("shift_jis"), ["urn:ietf:rfc:8141"]),  # a second byte 0xCD
    ("アイ「urn:isbn:0451450523」".encode("shift_jis"), ["urn:isbn:0451450523"]),  # second bytes 0x41, 0x43 before
    ("「urn:isbn:0451450523」".encode("big5"), ["urn:isbn:0451450523"]),
    ("參見：urn:ietf:rfc:8141，".encode("big5"), ["urn:ietf:rfc:8141"]),
    ("號碼urn:isbn:0451450523".encode("gbk"), ["urn:isbn:0451450523"]),  # "碼" is 0xB4 0x61
    # in EUC-JP and GB2312 a second byte is never ASCII: read as before
    ("「urn:isbn:0451450523」".encode("euc_jp"), ["urn:isbn:0451450523"]),
    ("参见urn:ietf:rfc:8141。".encode("gb2312"), ["urn:ietf:rfc:8141"]),
    # a letter after a whole double-byte character, or after UTF-8, is a
    # word's: "はBurn:" (0x82 0xCD "B"), "ÀBurn:", "Ωturn:"
    ("はBurn:ietf:rfc:8141".encode("shift_jis"), []),
    ("ÀBurn:ietf:rfc:8141".encode(), []),
    ("Ωturn:x:y ĀSaturn:x:y".encode(), []),
    (b"Saturn:x:y return:x:y", []),
    # a long sentence of characters whose second bytes are not ASCII
    # ("について" is 0x82 0xC9 0x82 0xC2 0x82 0xA2 0x82 0xC4), then a run of
    # bytes 0x80-0xFF longer than the rule reads back (254)
    (("これについては" * 8 + "「urn:isbn:0451450523」").encode("shift_jis"), ["urn:isbn:0451450523"]),
    (b"x" + b"\x81" * 255 + b"Burn:ietf:rfc:8141", []),
    (b"x" + b"\x81" * 253 + b"Burn:ietf:rfc:8141", ["urn:ietf:rfc:8141"]),
]


@pytest.mark.parametrize("data, expected", DOUBLE_BYTE_TEXT)
def test_a_name_after_a_double_byte_character(data, expected):
    hits = list(scan_bytes([data]))
    assert [h.urn for h in hits] == expected
    assert [data[h.start:h.end].decode() for h in hits] == expected
    for size in (1, 3):
        assert [h.urn for h in scan_bytes([data[i:i + size] for i in range(0, len(data), size)])] == expected


@pytest.mark.parametrize("data", [
    "\uff55\uff52\uff4e\uff1aab".encode() + b"\xef\xbc(",  # a fullwidth form broken after its lead bytes
    "\uff55\uff52\uff4e\uff1aab".encode() + b"\xef\xbd",
    "\uff55\uff52\uff4e\uff1a".encode() + b"\xef\xbc\xff x",
])
def test_a_broken_fullwidth_form_ends_a_suspected_urn(data):
    hits = list(scan_bytes([data]))
    assert [h.urn for h in hits] == ["\uff55\uff52\uff4e\uff1aab"] if b"ab" in data else hits == []
    for size in (1, 2, 3):
        assert list(scan_bytes([data[i:i + size] for i in range(0, len(data), size)])) == hits


def test_suspects_merge_with_the_candidates_in_order():
    from urnscan.extract.lookalike import merge
    from urnscan.extract.reading import Candidate

    def c(a, b):
        return Candidate(a, b, "bare", False, False, "u", "u", "u", ())

    found = [c(0, 5), c(10, 15), c(30, 40)]
    assert merge(found, [c(6, 9), c(14, 20), c(20, 25), c(41, 50)]) == [
        c(0, 5), c(6, 9), c(10, 15), c(20, 25), c(30, 40), c(41, 50)]
    assert merge(found, [c(3, 4), c(12, 31)]) is None
    assert merge([], [c(1, 2)]) == [c(1, 2)]


@pytest.mark.parametrize("jobs", [1, 2])
def test_suspected_urns_do_not_depend_on_byte_ranges(tmp_path, jobs):
    from urnscan.runner import ScanConfig, iter_inputs, run_scan

    rng = random.Random(5)
    pieces = [fullwidth("URN:ISBN:0306"), "urn:isbn:0451450523", " URN\uff1aisbn:1 ",
              "\u65e5\u672c\u8a9e", "\u3002", " ", "\n"]
    path = tmp_path / "ja.txt"
    path.write_text("".join(rng.choice(pieces) for _ in range(3000)), encoding="utf-8")
    rows = {}
    for split in (64, 200, 1 << 20):
        hits: list = []
        run_scan(list(iter_inputs([str(path)])), ScanConfig(jobs=jobs, split_bytes=split), hits.extend, lambda s: None)
        rows[split] = [(h.start, h.end, h.urn, h.rules) for h in hits]
    assert rows[64] == rows[200] == rows[1 << 20]
    assert sum(1 for r in rows[64] if r[3] == ("suspect:lookalike",)) > 100


# --- colons escaped with a backslash (escaped.py) ------------------------------
#: Java's Properties.store writes each ":" and "=" of a value as "\:" and
#: "\=", and Properties.load reads them back; Lucene's query syntax escapes
#: ":" the same way.  (text, [(urn, raw, rules)])
ESCAPED_COLONS = [
    # a SAML or OAuth setting a program wrote to a .properties file
    ("admin.client.apis.teamname=urn\\:collab\\:group\\:dev.surfteams.nl\\:nl\\:surfnet\\:diensten\\:admin_apis\n",
     [("urn:collab:group:dev.surfteams.nl:nl:surfnet:diensten:admin_apis",
       "urn\\:collab\\:group\\:dev.surfteams.nl\\:nl\\:surfnet\\:diensten\\:admin_apis", ("decode:escaped-colon",))]),
    ("grant=urn\\:ietf\\:params\\:oauth\\:grant-type\\:jwt-bearer\nnext=1\n",
     [("urn:ietf:params:oauth:grant-type:jwt-bearer", "urn\\:ietf\\:params\\:oauth\\:grant-type\\:jwt-bearer",
       ("decode:escaped-colon",))]),
    ("upnp.service=URN\\:schemas-upnp-org\\:service\\:WANIPConnection\\:1\r\n",
     [("URN:schemas-upnp-org:service:WANIPConnection:1", "URN\\:schemas-upnp-org\\:service\\:WANIPConnection\\:1",
       ("decode:escaped-colon",))]),
    ("ns=urn\\:example\\:a:b\n", [("urn:example:a:b", "urn\\:example\\:a:b", ("decode:escaped-colon",))]),
    ("q=urn\\:example\\:a\\=b\n", [("urn:example:a=b", "urn\\:example\\:a\\=b", ("decode:escaped-colon",))]),
    ("f=urn\\:example\\:a\\#part\\!1\n",
     [("urn:example:a#part!1", "urn\\:example\\:a\\#part\\!1", ("decode:escaped-colon",))]),
    # a Lucene query
    ("id:urn\\:isbn\\:0451450523 AND x", [("urn:isbn:0451450523", "urn\\:isbn\\:0451450523", ("decode:escaped-colon",))]),
    # a logical line continued: the next line's blanks left out
    ("saml.ns=urn\\:oasis\\:names\\:tc\\:SAML\\:2.0\\:\\\n    assertion\nx=1\n",
     [("urn:oasis:names:tc:SAML:2.0:assertion", "urn\\:oasis\\:names\\:tc\\:SAML\\:2.0\\:\\\n    assertion",
       ("decode:escaped-colon", "fold:rfc8792"))]),
    # a list: each name ends at the separator before the next
    ("ids=urn\\:a1\\:b,urn\\:c1\\:d;urn\\:e1\\:f\n",
     [("urn:a1:b", "urn\\:a1\\:b", ("decode:escaped-colon", "cut:list")),
      ("urn:c1:d", "urn\\:c1\\:d", ("decode:escaped-colon", "cut:list")),
      ("urn:e1:f", "urn\\:e1\\:f", ("decode:escaped-colon",))]),
    ("ids=urn\\:a1\\:b,\\\n   urn\\:c1\\:d\n",
     [("urn:a1:b", "urn\\:a1\\:b", ("decode:escaped-colon",)), ("urn:c1:d", "urn\\:c1\\:d", ("decode:escaped-colon",))]),
    # a sentence's marks and an unbalanced ")" are the sentence's
    ("see (urn\\:isbn\\:0451450523).", [("urn:isbn:0451450523", "urn\\:isbn\\:0451450523", ("decode:escaped-colon",))]),
    # what must stay: a pattern (another escape, a class, a group), an anchor,
    # a placeholder, a bare prefix, a word or a path before it
    ('PATTERN = r"^urn\\:nbn\\:de\\:gbv\\:3\\:\\d\\-\\d{3,}.*\\d+$"', []),
    ('r = r"urn\\:nbn\\:de\\:gbv\\:3\\:\\d+"', []),
    ("re.search('magnet\\:\\?xt=urn\\:(\\w+\\:\\w+\\d+)', body)", []),
    ('StringRegExp(s, "magnet\\:\\?xt\\=urn\\:btih\\:[a-fA-F0-9]{40}")', []),
    ('REGEX = r"magnet\\:\\?xt\\=urn\\:btih\\:([A-F\\d]+)"', []),
    ("sed 's:<magnet>:magnet\\:?xt=urn\\:btih\\::g'", []),
    ("x=urn\\:example\\:{0}\n", []),
    ("x=urn\\:example\\:a-{0}\n", []),
    ("x=urn\\:example\\:a-%s\n", []),
    ("x=urn\\:publicid\\:\n", []),
    ("x=http\\://host/urn\\:example\\:a\n", []),
    ("x=return\\:example\\:a\n", []),
    ("x=urn\\\\:example\\\\:a\n", []),
    # the plain reading is unchanged
    ("x = urn:example:a:b\n", [("urn:example:a:b", "urn:example:a:b", ())]),
]


def test_a_quote_inside_a_literal_pairs_across_the_literals_joined():
    assert_read_as('String s = "<iq xmlns=\'urn:example:a:" +\n    "b\'/>";',
                   [("urn:example:a:b", 'urn:example:a:" +\n    "b', ("fold:literal", "pair:quote"))])


@pytest.mark.parametrize("text,expected", ESCAPED_COLONS)
def test_escaped_colons(text, expected):
    assert_read_as(text, expected)


def test_escaped_colons_are_no_fold_and_off_without_folding():
    (hit,) = scan_text("k=urn\\:example\\:a\\:b\n")
    assert (hit.urn, hit.literal, hit.folded, hit.embedded) == ("urn:example:a:b", "urn:example:a:b", False, False)
    assert urns("k=urn\\:example\\:a\\:b\n", fold=False) == []


@pytest.mark.parametrize("split", [5, 64, 1 << 20])
def test_escaped_colons_do_not_depend_on_byte_ranges(tmp_path, split):
    from urnscan.runner import ScanConfig, iter_inputs, run_scan

    rng = random.Random(7)
    pieces = ["k=urn\\:example\\:a\\:b", "urn\\:isbn\\:0451450523", ",", "\\\n  ", " ", "\n", "x", "urn:isbn:1"]
    path = tmp_path / "app.properties"
    path.write_text("".join(rng.choice(pieces) for _ in range(3000)), encoding="utf-8")
    hits: list = []
    run_scan(list(iter_inputs([str(path)])), ScanConfig(jobs=1, split_bytes=split), hits.extend, lambda s: None)
    expected = [(h.start, h.end, h.urn, h.rules) for h in scan_bytes(path.read_bytes())]
    assert [(h.start, h.end, h.urn, h.rules) for h in hits] == expected
    assert sum(1 for r in expected if "decode:escaped-colon" in r[3]) > 100
