"""Validation under the four profiles, from the seeds' own text."""
import pytest

import urnscan
from urnscan import PROFILES, UrnError, parse, validate


# (input, profile, valid, first error code or None) -- each row cites the seed rule
@pytest.mark.parametrize("s, profile, valid, code", [
    # seed 001 section 2: NID = (alphanum) 0*30(ldh) (alphanum)
    ("urn:example:a123,z456", "rfc8141", True, None),
    ("urn:a:x", "rfc8141", False, "nid-too-short"),
    ("urn:ab-:x", "rfc8141", False, "nid-trailing-hyphen"),
    ("urn:" + "a" * 32 + ":x", "rfc8141", True, None),
    ("urn:" + "a" * 33 + ":x", "rfc8141", False, "nid-too-long"),
    ("urn:-ab:x", "rfc8141", False, "nid-leading-hyphen"),
    # seed 001 section 2: NSS = pchar *(pchar / "/")
    ("urn:example:/a", "rfc8141", False, "nss-leading-slash"),
    ("urn:example:a/b", "rfc8141", True, None),
    ("urn:example:a&b~c", "rfc8141", True, None),
    ("urn:example:", "rfc8141", False, "nss-empty"),
    # a "?" not followed by "+" or "=" SHOULD be treated as a syntax error
    ("urn:example:a?b", "rfc8141", False, "reserved-char-unencoded"),
    ("urn:example:a?+", "rfc8141", False, "empty-r-component"),
    ("urn:example:a?=", "rfc8141", False, "empty-q-component"),
    ("urn:example:a?+r?=q#f", "rfc8141", True, None),
    ("urn:example:a%4", "rfc8141", False, "bad-percent-encoding"),
    ("urn:example:caf\u00e9", "rfc8141", False, "non-ascii"),
    ("urn:example:a b", "rfc8141", False, "excluded-char"),
    ("urn:exa.mple:a", "rfc8141", False, "nid-bad-char"),
    ("url:example:a", "rfc8141", False, "bad-scheme"),
    ("urn:example", "rfc8141", False, "missing-nss"),
    ("", "rfc8141", False, "empty"),
    # seed 000 section 2.1: NID = let-num [1,31 let-num-hyp]; "urn" reserved
    ("urn:a:x", "rfc2141", True, None),
    ("urn:ab-:x", "rfc2141", True, None),
    ("urn:urn:x", "rfc2141", False, "nid-reserved"),
    # seed 000 section 2.2-2.4
    ("urn:example:a&b", "rfc2141", False, "excluded-char"),
    ("urn:example:a~b", "rfc2141", False, "excluded-char"),
    ("urn:example:%00", "rfc2141", False, "nul-octet"),
    ("urn:example:a/b?c#d", "rfc2141", True, None),
    # seed 002 section 2: NSS = 1*pchar, query = directives
    ("urn:foo:a123,456?s=res&c=x", "draft-2012", True, None),
    ("urn:foo:a123,456?x", "draft-2012", False, "bad-query-directive"),
    ("urn:foo:a/b", "draft-2012", False, "excluded-char"),
    ("urn:urn:x", "draft-2012", False, "nid-reserved"),
    # seed 004 section 2: SchemeID:ElementID, white space not significant
    ("urn:x-dns-2:library.bigstate.edu:aj17-mcc", "draft-1995", True, None),
    ("URN:x-dns-2:library.bigstate.edu:\n   aj17-mcc", "draft-1995", True, None),
    ("urn:x-dns-2:a#b", "draft-1995", False, "reserved-char-unencoded"),
    ("urn:x-dns-2:a>b", "draft-1995", False, "reserved-char-unencoded"),
])
def test_profile_rules(s, profile, valid, code):
    verdict = validate(s, profile)
    assert verdict.valid is valid
    errors = [f.code for f in verdict.findings if f.severity == "error"]
    if code is None:
        assert errors == []
    else:
        assert errors[0] == code


@pytest.mark.parametrize("s, profile, code", [
    ("urn:X-foo:bar", "rfc8141", "experimental-nid"),  # seed 001 Appendix C
    ("urn:x-dns-2:a", "draft-1995", "experimental-nid"),  # seed 004 section 2.1
    ("urn:urn-7:x", "rfc8141", "informal-nid"),  # seed 001 section 5.2
    ("urn:urn-07:x", "rfc8141", "formal-nid-rule"),  # no leading zero
    ("urn:ab:x", "rfc8141", "formal-nid-rule"),  # section 5.1 rule 3
    ("urn:xn--abc:x", "rfc8141", "formal-nid-rule"),
    ("urn:urn:x", "rfc8141", "nid-reserved"),
    ("urn:example:a/b", "rfc2141", "reserved-char-unencoded"),  # seed 000 2.3.2
    ("urn:example:%41", "rfc2141", "unnecessary-percent-encoding"),  # 2.3.1
])
def test_warnings_keep_validity(s, profile, code):
    verdict = validate(s, profile)
    assert verdict.valid
    assert code in verdict.codes
    assert all(f.severity == "warning" for f in verdict.findings)


def test_findings_carry_positions():
    verdict = validate("urn:example:ab%zz")
    (finding,) = verdict.findings
    assert finding.code == "bad-percent-encoding" and finding.position == 14


def test_parse_components():
    urn = parse("URN:Example:a%2c/b?+res?=q?+x#frag")
    assert (urn.nid, urn.nss, urn.r_component, urn.q_component, urn.f_component) == (
        "Example", "a%2c/b", "res", "q?+x", "frag")
    assert urn.canonical == "urn:example:a%2C/b?+res?=q?+x#frag"
    assert urn.key == "urn:example:a%2C/b"
    assert str(urn) == "URN:Example:a%2c/b?+res?=q?+x#frag"
    assert hash(urn) == hash(parse("URN:Example:a%2c/b?+res?=q?+x#frag"))


def test_empty_components_are_empty_strings():
    urn = parse("urn:example:a?+r#")
    assert urn.f_component == "" and urn.q_component is None


def test_parse_raises_typed_error():
    with pytest.raises(UrnError) as info:
        parse("urn:example:a?b")
    err = info.value
    assert isinstance(err, ValueError) and isinstance(err, urnscan.UrnscanError)
    assert err.code == "reserved-char-unencoded" and err.position == 13
    assert "offset 13" in str(err)


def test_unknown_profile():
    from urnscan.judge import UrnJudge, judge

    with pytest.raises(urnscan.ProfileError):
        validate("urn:example:a", profile="rfc9999")
    with pytest.raises(urnscan.ProfileError):
        judge("urn:example:a", profile="rfc9999")
    with pytest.raises(urnscan.ProfileError):
        UrnJudge("rfc9999")


def test_validate_refuses_non_str():
    from urnscan.judge import judge

    with pytest.raises(TypeError):
        validate(b"urn:example:a")
    with pytest.raises(TypeError):
        judge(b"urn:example:a")


@pytest.mark.parametrize("s", ["urn:example:a", "urn:example:a?b", "urn:a:b", "urn:example:%00"])
@pytest.mark.parametrize("profile", urnscan.PROFILES)
def test_is_valid_agrees_with_validate(s, profile):
    assert urnscan.is_valid(s, profile) == validate(s, profile).valid


# --- the walk's character sets are the grammar's ------------------------------
def _class_strings():
    from urnscan import _abnf

    names = sorted(n for n in vars(_abnf) if n.endswith("_CHARS") or n in ("ALPHA", "DIGIT", "HEXDIG", "ALPHANUM"))
    return [(n, getattr(_abnf, n)) for n in names]


@pytest.mark.parametrize("name, char_class", _class_strings())
def test_char_set_reads_a_class_as_the_regex_engine_does(name, char_class):
    import re

    from urnscan._abnf import char_set

    matched = {chr(c) for c in range(0x80) if re.fullmatch(f"[{char_class}]", chr(c))}
    assert char_set(char_class) == matched, name


WALK_SETS = [
    ("_ALNUM", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
    ("_HEX", "0123456789ABCDEFabcdef"),
    ("_PCHAR", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@"),
    ("_RFC2141_TRANS", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789()+,-.:=@;$_!*'/?#"),
    ("_RFC2141_RESERVED", "/?#"),
    ("_RFC1738_ELEMENT", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789$-_.+!*'(),;/:@&="),
    ("_NID_CHARS", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-"),
    ("_SCHEMEID_CHARS", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-."),
]


@pytest.mark.parametrize("name, expected", WALK_SETS)
def test_the_walks_sets_are_the_seeds_sets(name, expected):
    from urnscan import diagnosis

    assert getattr(diagnosis, name) == frozenset(expected)


@pytest.mark.parametrize("s, read, at", [
    ("urn:example:\u0430bc", "urn:example:abc", 12),  # Cyrillic a
    ("urn:isbn:\uff10\uff13\uff10\uff16", "urn:isbn:0306", 9),  # fullwidth digits
    ("\uff55\uff52\uff4e\uff1aisbn:0306406152", "urn:isbn:0306406152", 0),  # fullwidth scheme
    ("URN\uff1aISBN:0306406152", "URN:ISBN:0306406152", 3),  # fullwidth colon
    ("urn:\u03bfid:1.2", "urn:oid:1.2", 4),  # Greek omicron in the NID
])
def test_lookalikes_of_ascii_are_said_never_repaired(s, read, at):
    # namespaces.md §3.7: a suspected URN, its ASCII reading in the message
    for profile in PROFILES:
        verdict = validate(s, profile)
        assert not verdict.valid
        confusable = [f for f in verdict.findings if f.code == "confusable"]
        assert len(confusable) == 1 and confusable[0].severity == "warning"
        assert repr(read) in confusable[0].message and confusable[0].position == at


@pytest.mark.parametrize("s", ["urn:example:caf\u00e9", "urn:example:\u4e2d", "url\uff1aa:b", "urn:example:a"])
def test_no_lookalike_no_confusable(s):
    assert "confusable" not in [f.code for f in validate(s).findings]

