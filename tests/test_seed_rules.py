"""The seeds' rules, one table per rule, each row under the section it
comes from (quoted in the comment above the table)."""
import pytest

from urnscan import parse, validate
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
