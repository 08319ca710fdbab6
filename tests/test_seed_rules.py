"""The seeds' rules, one table per rule, each row under the section it
comes from (quoted in the comment above the table)."""
import unicodedata

import pytest
from hypothesis import given, settings, strategies as st

from urnscan import PROFILES, display_form, equivalence_key, parse, validate
from urnscan.equivalence import confusable_in_display
from urnscan.model import ERROR

# --- seed 001 (RFC 8141) section 2.3.1 -------------------------------------
# "The sequence "?+" introduces the r-component.  The r-component ends with a
# "?=" sequence (which begins a q-component) or a "#" character (number sign,
# which begins an f-component).  If neither of those appear, the r-component
# continues to the end of the URN."
# Section 2: q-component = pchar *( pchar / "/" / "?" ) -- never empty, and
# it starts with a pchar.
R_COMPONENT_ENDS = [
    ("urn:example:a?+r?=", "empty-q-component"),
    ("urn:example:a?+r?=#f", "empty-q-component"),
    ("urn:example:a?+r?=?x", "bad-component-start"),
    ("urn:example:a?+r?=/x", "bad-component-start"),
    ("urn:example:a?+?r", "bad-component-start"),
    ("urn:example:a?+/r", "bad-component-start"),
    ("urn:example:a?+#f", "empty-r-component"),
    ("urn:example:a?+r?=q?=%zz", "bad-percent-encoding"),
]


@pytest.mark.parametrize("s, code", R_COMPONENT_ENDS, ids=[r[0] for r in R_COMPONENT_ENDS])
def test_rfc8141_section_2_3_1_r_component_ends_at_question_equals(s, code):
    verdict = validate(s, "rfc8141")
    assert not verdict.valid
    assert [f.code for f in verdict.findings if f.severity == ERROR][0] == code


R_COMPONENT_SPLITS = [
    # (input, r, q, f)
    ("urn:example:a?+r?=q", "r", "q", None),
    ("urn:example:a?+r?=q?=x", "r", "q?=x", None),  # 2.3.2: q ends only at "#"
    ("urn:example:a?+r?+s?=q", "r?+s", "q", None),
    ("urn:example:a?+r??=q", "r?", "q", None),  # the first "?=" ends r
    ("urn:example:a?+r?#f", "r?", None, "f"),
    ("urn:example:a?+r?", "r?", None, None),
    ("urn:example:a?+r/?x%3D?=q#f?=", "r/?x%3D", "q", "f?="),
    ("urn:example:a?=q?+r", None, "q?+r", None),  # no r after q: "?+" is q data
    ("urn:example:a?+==?=q", "==", "q", None),
]


@pytest.mark.parametrize("s, r, q, f", R_COMPONENT_SPLITS, ids=[r[0] for r in R_COMPONENT_SPLITS])
def test_rfc8141_section_2_3_parse_splits_components(s, r, q, f):
    urn = parse(s, "rfc8141")
    assert (urn.nss, urn.r_component, urn.q_component, urn.f_component) == ("a", r, q, f)


# --- seed 002 (draft-2012) section 2.5.3 -----------------------------------
# "The NUL octet (0 hex) is renowned for a long history of trouble in
# implementations.  It MUST NOT be used in URNs, in either unencoded or
# percent-encoded form."
# --- seed 002 section 2.3 ---------------------------------------------------
# "Each registered <keywd> MUST NOT appear more than once in any URN." and
# "these directives are regarded as case-sensitive"; section 9.2.1 registers
# "s" and "c".
DRAFT2012_MUST_NOT = [
    ("urn:foo:a%00", False, "nul-octet"),
    ("urn:foo:%00a?s=x", False, "nul-octet"),
    ("urn:foo:a?s=a&s=b", False, "repeated-query-keyword"),
    ("urn:foo:a?c=x&c=y", False, "repeated-query-keyword"),
    ("urn:foo:a?s=I2L&c=ToC&s=I2L", False, "repeated-query-keyword"),
    ("urn:foo:a?s=I2L&c=ToC", True, None),  # the section 2.3.2 example
    ("urn:foo:a?S=a&s=b", True, None),  # keywords are case-sensitive
    ("urn:foo:a?x=1&x=2", True, None),  # "x" is not registered
    ("urn:foo:a?s-x=1&s-x=2", True, None),
]


@pytest.mark.parametrize("s, valid, code", DRAFT2012_MUST_NOT, ids=[r[0] for r in DRAFT2012_MUST_NOT])
def test_draft2012_sections_2_3_and_2_5_3_must_not(s, valid, code):
    verdict = validate(s, "draft-2012")
    assert verdict.valid is valid
    errors = [f.code for f in verdict.findings if f.severity == ERROR]
    assert errors == ([] if code is None else [code])


def test_draft2012_repeated_keyword_points_at_its_second_use():
    (finding,) = validate("urn:foo:a?s=a&c=b&s=c", "draft-2012").errors
    assert finding.position == len("urn:foo:a?s=a&c=b&")


# --- seed 002 section 5, step 5b ------------------------------------------
# "5b. Reorder the directives in the <query> part of the URI, if present,
# bringing them into a preferred <keywd> order." -- any order of the same
# directives is the same resolution request, keywords repeated or not.
STEP_5B_CLASSES = [
    ["urn:foo:a?x=1&x=2", "urn:foo:a?x=2&x=1", "URN:FOO:a?x=2&x=1#frag"],
    ["urn:foo:a?s=I2L&c=ToC", "urn:foo:a?c=ToC&s=I2L"],
    ["urn:foo:a?c=%2f", "urn:foo:a?c=%2F"],  # step 3 in the query too
    ["urn:foo:a?x=1"], ["urn:foo:a?x=1&x=1"], ["urn:foo:a"], ["urn:foo:a?X=1"],
]


def test_draft2012_step_5b_classes():
    keys = [{equivalence_key(u, "draft-2012", resolution=True) for u in cls} for cls in STEP_5B_CLASSES]
    assert all(len(k) == 1 for k in keys)
    assert len(set().union(*keys)) == len(STEP_5B_CLASSES)


# --- seed 004 (draft-1995) section 2 ---------------------------------------
# "The start of the wrapper is an opening angle backet (<), the string "URN"
# (the case of the letters does not matter), and a delimiting colon (:).
# The tail of the wrapper is a closing angle bracket (>).  Freestanding URNs
# that include any white space must be wrapped in this fashion." ...
# "White space (the characters Space, Tab, CR, and LF) is allowed but is not
# significant within a URN."
DRAFT1995_WHITE_SPACE = [
    # (input, valid, codes, the URN read)
    ("u r n:x-dns-2:a", False, ["bad-scheme"], None),  # white space in the "urn" token
    ("urn :x-dns-2:a", False, ["bad-scheme"], None),
    ("<u rn:x-dns-2:a>", False, ["bad-scheme"], None),
    ("<urn:x-dns-2:library.bigstate.edu:\n   aj17-mcc>", True, ["experimental-nid"],
     "urn:x-dns-2:library.bigstate.edu:aj17-mcc"),
    ("<URN: x-dns-2 : a\tb\r\n>", True, ["experimental-nid"], "URN:x-dns-2:ab"),
    ("urn:x-dns-2:library.bigstate.edu:\n   aj17-mcc", True, ["experimental-nid", "white-space-unwrapped"],
     "urn:x-dns-2:library.bigstate.edu:aj17-mcc"),
    ("urn:x-dns-2:a\u00a0b", False, ["non-ascii"], None),  # NO-BREAK SPACE is not white space here
    ("urn:x-dns-2:a\fb", False, ["excluded-char"], None),
    ("<urn:x-dns-2:a>b>", False, ["reserved-char-unencoded"], None),
]


@pytest.mark.parametrize("s, valid, codes, urn", DRAFT1995_WHITE_SPACE, ids=[repr(r[0]) for r in DRAFT1995_WHITE_SPACE])
def test_draft1995_section_2_white_space_and_wrapper(s, valid, codes, urn):
    verdict = validate(s, "draft-1995")
    assert verdict.valid is valid
    assert list(verdict.codes) == codes
    assert (None if verdict.urn is None else str(verdict.urn)) == urn


@pytest.mark.parametrize("s, code, position", [
    # positions are offsets into the input as written, white space included
    ("urn:x-dns-2: a b#c", "reserved-char-unencoded", 16),
    ("<urn:x-dns-2:\n a%zz>", "bad-percent-encoding", 16),
    ("urn: x-dns-2 :a b", "white-space-unwrapped", 4),
    ("<URN:  x/y:a>", "nid-bad-char", 8),
    ("<urn: x-dns-2:  >", "nss-empty", 16),
])
def test_draft1995_finding_positions_point_into_the_input(s, code, position):
    finding = next(f for f in validate(s, "draft-1995").findings if f.code == code)
    assert finding.position == position
    assert s[position] == {"reserved-char-unencoded": "#", "bad-percent-encoding": "%", "white-space-unwrapped": " ",
                           "nid-bad-char": "/", "nss-empty": ">"}[code]


# every invalid verdict names the rule that failed, never only "syntax-error"
@given(st.text(alphabet="urnURN:ab-?+=#/%2fzZ0&.~ \t\u00e9<>x", max_size=16),
       st.sampled_from(["", "urn:ab:", "urn:", "<urn:x-a:", "urn:x.y:", "urn:s:a?"]))
@settings(max_examples=400)
def test_every_invalid_verdict_names_its_rule(tail, head):
    for profile in PROFILES:
        verdict = validate(head + tail, profile)
        assert verdict.valid or "syntax-error" not in verdict.codes, (profile, verdict.findings)


# --- findings cite the profile that applies --------------------------------
# seed 004 section 2.1: "SchemeIDs starting with the characters "x-" are
#   reserved for experimental purposes."
# seed 001 Appendix C: "strings conforming to URN syntax within experimental
#   URN namespaces are not valid URNs"; RFC 2141 and the 2012 draft have no
#   such rule.
# seed 001 section 2.3.1: "Thus r-components SHOULD NOT be used for actual
#   URNs until additional development and standardization work is complete"
# seed 002 section 2.3: "The <query> part MUST NOT be present in any
#   *assigned* URN"; section 2.4: "The <fragment> part MUST NOT be present
#   in any *assigned* URN"
# seed 000 section 2.1 / seed 002 section 2.1: the NID "urn" MUST NOT be used;
#   seed 001 has no such rule.
CITED = [
    # (input, profile, code, the message cites, the message must not cite)
    ("urn:X-foo:bar", "rfc8141", "experimental-nid", "RFC 8141 Appendix C", "draft"),
    ("urn:x-dns-2:a", "draft-1995", "experimental-nid", "draft-1995 section 2.1", "RFC 8141"),
    ("urn:X-foo:bar", "rfc2141", None, None, None),
    ("urn:X-foo:bar", "draft-2012", None, None, None),
    ("urn:urn:x", "rfc8141", "nid-reserved", "RFC 8141", None),
    ("urn:urn:x", "rfc2141", "nid-reserved", "RFC 2141 section 2.1", "8141"),
    ("urn:urn:x", "draft-2012", "nid-reserved", "draft-2012 section 2.1", "8141"),
    ("urn:urn:x", "draft-1995", None, None, None),
    ("urn:example:a?+r", "rfc8141", "r-component-used", "RFC 8141 section 2.3.1", None),
    ("urn:example:a?=q#f", "rfc8141", None, None, None),
    ("urn:foo:a?s=I2L", "draft-2012", "query-in-reference", "draft-2012 section 2.3", "8141"),
    ("urn:foo:a#xyz", "draft-2012", "fragment-in-reference", "draft-2012 section 2.4", "8141"),
    ("urn:ab:x", "draft-2012", None, None, None),  # RFC 8141 section 5.1 is not a 2012 rule
    ("urn:a:x", "draft-2012", "nid-too-short", "draft-2012 section 2.1", "8141"),
    ("urn:ab-:x", "draft-2012", "nid-trailing-hyphen", "draft-2012 section 2.1", "8141"),
    ("urn:" + "a" * 33 + ":x", "rfc2141", "nid-too-long", "RFC 2141 section 2.1", "8141"),
    ("urn:ab:%00", "draft-2012", "nul-octet", "draft-2012 section 2.5.3", "8141"),
    ("urn:ab:%00", "rfc2141", "nul-octet", "RFC 2141 section 2.4", "8141"),
    # seed 000 section 2.3.1 / seed 002 section 2.5.2: "a character MUST NOT
    # be %-encoded if the character is not a reserved character"
    ("urn:ab:x%41", "rfc2141", "unnecessary-percent-encoding", "RFC 2141 section 2.3.1", "draft"),
    ("urn:ab:x%41?s=%42", "draft-2012", "unnecessary-percent-encoding", "draft-2012 section 2.5.2", "RFC"),
    ("urn:abc:x%41", "rfc8141", None, None, None),
]


@pytest.mark.parametrize("s, profile, code, cites, not_cites", CITED, ids=[f"{r[1]}:{r[0]}" for r in CITED])
def test_findings_cite_the_profile_that_applies(s, profile, code, cites, not_cites):
    verdict = validate(s, profile)
    registration = {"experimental-nid", "nid-reserved", "r-component-used", "query-in-reference",
                    "fragment-in-reference", "formal-nid-rule", "unnecessary-percent-encoding"}
    if code is None:
        assert not registration & set(verdict.codes), verdict.findings
        return
    (finding,) = [f for f in verdict.findings if f.code == code]
    assert cites in finding.message
    assert not_cites is None or not_cites not in finding.message


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("s", ["urn:X-foo:bar", "urn:urn:x", "urn:example:a?+r?=q#f", "urn:foo:a?s=x#f",
                               "urn:ab:%00", "urn:a-:x", "urn:urn-07:x%41/"])
def test_no_finding_cites_another_profile(s, profile):
    others = {"rfc8141": ("draft-2012", "draft-1995"), "rfc2141": ("RFC 8141", "draft-"),
              "draft-2012": ("RFC 8141", "draft-1995"), "draft-1995": ("RFC 8141", "RFC 2141", "draft-2012")}
    for finding in validate(s, profile).findings:
        # a finding may recall what an older text said, naming it as such
        if "obsoletes" in finding.message or "forbade" in finding.message:
            continue
        assert not any(o in finding.message for o in others[profile]), (profile, finding)


# --- seed 001 section 3.2, sixth example -----------------------------------
# "on casual visual inspection of a URN presented in a human-oriented
# interface the following URN might appear the same as the first three URNs
# (because U+0430 CYRILLIC SMALL LETTER A can be confused with U+0061 LATIN
# SMALL LETTER A), but it is not URN-equivalent to the first three URNs"
# -- the display form (section 4.4) is flagged where it looks like another
# URN: canonically equivalent characters (NFC) look the same.
DISPLAY = [
    # (input, display form, flagged, the warning names)
    ("urn:example:%D0%B0123,z456", "urn:example:\u0430123,z456", True, "CYRILLIC"),
    ("urn:example:a%CC%81", "urn:example:a\u0301", True, "urn:example:%C3%A1"),  # a + COMBINING ACUTE
    ("urn:example:A%CC%8A", "urn:example:A\u030a", True, "urn:example:%C3%85"),
    ("urn:example:%E2%84%AB", "urn:example:\u212b", True, "urn:example:%C3%85"),  # ANGSTROM SIGN
    ("urn:example:%EF%AC%81x", "urn:example:\ufb01x", True, "LIGATURE FI"),  # looks like ASCII "fi"
    ("urn:example:%EF%BD%81", "urn:example:\uff41", True, "FULLWIDTH"),
    ("urn:example:%C3%A1", "urn:example:\u00e1", False, None),  # already NFC, not ASCII-like
    ("urn:example:caf%C3%A9", "urn:example:caf\u00e9", False, None),
    ("urn:example:a123,z456", "urn:example:a123,z456", False, None),
]


@pytest.mark.parametrize("s, shown, flagged, names", DISPLAY, ids=[r[0] for r in DISPLAY])
def test_rfc8141_section_3_2_display_form_confusables(s, shown, flagged, names):
    assert display_form(s) == shown
    warning = confusable_in_display(s)
    assert (warning is not None) is flagged
    if flagged:
        assert names in warning


def test_nfc_twins_are_different_urns_and_one_is_flagged():
    a, b = "urn:example:a%CC%81", "urn:example:%C3%A1"
    assert unicodedata.normalize("NFC", display_form(a)) == display_form(b)
    assert equivalence_key(a) != equivalence_key(b)  # section 3.1: never decoded
    assert confusable_in_display(a) and not confusable_in_display(b)


# --- the finding codes -----------------------------------------------------
# one input for each code (and the profile it is judged under)
EXAMPLE_OF_CODE = {
    "empty": ("", "rfc8141"), "bad-scheme": ("url:a:b", "rfc8141"), "nid-empty": ("urn::a", "rfc8141"),
    "nid-bad-char": ("urn:a_b:c", "rfc8141"), "missing-nss": ("urn:abc", "rfc8141"),
    "nid-leading-hyphen": ("urn:-ab:c", "rfc8141"), "nid-too-long": ("urn:" + "a" * 33 + ":c", "rfc8141"),
    "nid-too-short": ("urn:a:c", "rfc8141"), "nid-trailing-hyphen": ("urn:ab-:c", "rfc8141"),
    "nss-empty": ("urn:abc:", "rfc8141"), "nss-leading-slash": ("urn:abc:/a", "rfc8141"),
    "bad-percent-encoding": ("urn:abc:%zz", "rfc8141"), "non-ascii": ("urn:abc:\u00e9", "rfc8141"),
    "excluded-char": ("urn:abc:a b", "rfc8141"), "empty-r-component": ("urn:abc:a?+", "rfc8141"),
    "empty-q-component": ("urn:abc:a?=", "rfc8141"), "bad-component-start": ("urn:abc:a?=/q", "rfc8141"),
    "bad-query-directive": ("urn:abc:a?q", "draft-2012"), "repeated-query-keyword": ("urn:abc:a?c=1&c=2", "draft-2012"),
    "reserved-char-unencoded": ("urn:abc:a?b", "rfc8141"), "nul-octet": ("urn:abc:%00", "rfc2141"),
    "nid-reserved": ("urn:urn:a", "rfc2141"), "unnecessary-percent-encoding": ("urn:abc:%41", "rfc2141"),
    "experimental-nid": ("urn:x-abc:a", "rfc8141"), "informal-nid": ("urn:urn-7:a", "rfc8141"),
    "formal-nid-rule": ("urn:ab:a", "rfc8141"), "r-component-used": ("urn:abc:a?+r", "rfc8141"),
    "query-in-reference": ("urn:abc:a?s=x", "draft-2012"), "fragment-in-reference": ("urn:abc:a#f", "draft-2012"),
    "white-space-unwrapped": ("urn:x-abc:a b", "draft-1995"),
    "confusable": ("urn:abc:\u0430", "rfc8141"),
}


def test_every_finding_code_has_an_example_and_is_documented():
    from pathlib import Path

    from urnscan.syntax import FINDING_CODES

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    for code in FINDING_CODES:
        assert f"`{code}`" in readme, code
        if code == "syntax-error":  # only when no rule explains a failure, which never happens
            continue
        s, profile = EXAMPLE_OF_CODE[code]
        assert code in validate(s, profile).codes, (code, validate(s, profile).findings)


@given(st.text(alphabet="urnURN:ab-?+=#/%2f0&.~ \u00e9<>x", max_size=16),
       st.sampled_from(["", "urn:ab:", "urn:x-ab:", "urn:urn:", "urn:s:a?", "<urn:x:"]))
def test_every_finding_code_is_listed(tail, head):
    from urnscan.syntax import FINDING_CODES

    for profile in PROFILES:
        assert set(validate(head + tail, profile).codes) <= set(FINDING_CODES)
