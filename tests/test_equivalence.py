"""Canonical form and equivalence keys (seed 001 section 3, seed 000
sections 5-6, seed 002 section 5)."""
import pytest

from urnscan import canonical, display_form, equivalence_key, UrnError
from urnscan.equivalence import confusable_in_display


# seed 001 section 3.2, each group its own equivalence class
SEED001_CLASSES = [
    ["urn:example:a123,z456", "URN:example:a123,z456", "urn:EXAMPLE:a123,z456",
     "urn:example:a123,z456?+abc", "urn:example:a123,z456?=xyz", "urn:example:a123,z456#789"],
    ["urn:example:a123,z456/foo"], ["urn:example:a123,z456/bar"], ["urn:example:a123,z456/baz"],
    ["urn:example:a123%2Cz456", "URN:EXAMPLE:a123%2cz456"],
    ["urn:example:A123,z456"], ["urn:example:a123,Z456"], ["urn:example:%D0%B0123,z456"],
]
# seed 000 section 6
SEED000_CLASSES = [
    ["URN:foo:a123,456", "urn:foo:a123,456", "urn:FOO:a123,456"],
    ["urn:foo:A123,456"], ["urn:foo:a123%2C456", "URN:FOO:a123%2c456"],
]
# seed 002 section 5.1 with step 5a
SEED002_CLASSES = [
    ["URN:foo:a123,456", "urn:foo:a123,456", "urn:FOO:a123,456", "urn:foo:a123,456#xyz", "urn:foo:a123,456?x=y"],
    ["urn:foo:A123,456"], ["urn:foo:a123%2C456", "URN:FOO:a123%2c456"],
]


@pytest.mark.parametrize("classes, profile", [
    (SEED001_CLASSES, "rfc8141"), (SEED000_CLASSES, "rfc2141"), (SEED002_CLASSES, "draft-2012"),
])
def test_seed_equivalence_classes(classes, profile):
    keys = [{equivalence_key(u, profile) for u in cls} for cls in classes]
    assert all(len(k) == 1 for k in keys)
    assert len(set().union(*keys)) == len(classes)


def test_draft2012_step_5b_keeps_sorted_query():
    a = equivalence_key("urn:foo:a?s=x&c=y", "draft-2012", resolution=True)
    b = equivalence_key("urn:foo:a?c=y&s=x", "draft-2012", resolution=True)
    assert a == b == "urn:foo:a?c=y&s=x"
    assert a != equivalence_key("urn:foo:a", "draft-2012", resolution=True)


@pytest.mark.parametrize("s, expected", [
    ("URN:EXAMPLE:a%2cb", "urn:example:a%2Cb"),
    ("urn:example:a?+%2f", "urn:example:a?+%2f"),  # components kept as written
    ("uRn:IsBn:0451450523#x", "urn:isbn:0451450523#x"),
    # seed 001 section 3.1 step 3, each mix of cases in a triplet
    ("urn:example:%af%aF%Af%AF%0a%A0%00", "urn:example:%AF%AF%AF%AF%0A%A0%00"),
    ("urn:example:a%25af%2525", "urn:example:a%25af%2525"),  # "af" after %25 is data
])
def test_canonical(s, expected):
    assert canonical(s) == expected


def test_canonical_rejects_invalid():
    with pytest.raises(UrnError):
        canonical("urn:a:b")


@pytest.mark.parametrize("s, shown", [
    ("urn:example:caf%C3%A9", "urn:example:caf\u00e9"),
    ("urn:example:a%2Cb", "urn:example:a%2Cb"),  # ASCII stays encoded
    ("urn:example:a%FFb", "urn:example:a%FFb"),  # invalid UTF-8 stays encoded
    ("urn:example:a%E2%80%AEb", "urn:example:a%E2%80%AEb"),  # RLO, could mislead
])
def test_display_form(s, shown):
    assert display_form(s) == shown


def test_display_flags_confusables():
    # seed 001 section 3.2, sixth example: Cyrillic a looks like Latin a
    assert confusable_in_display("urn:example:%D0%B0123,z456")
    assert confusable_in_display("urn:example:caf%C3%A9") is None
