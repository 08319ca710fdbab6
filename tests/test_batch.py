"""The batch API agrees with the per-string API, on both engines."""
import json

import pytest
from hypothesis import given, settings, strategies as st

import urnscan
from urnscan.batch import validate_keys

from .conftest import SHARED
from .test_properties import rfc8141_urns

SAMPLES = ["urn:example:a", "URN:EXAMPLE:a%2c", "urn:a:b", "urn:example:a?b", "urn:example:a?+r?=q#f",
           "urn:ab-:x", "", "not a urn", "urn:isbn:0451450523", "urn:example:%zz", "urn:example:caf\u00e9"]


def _expected(strings, profile="rfc8141"):
    verdicts = [urnscan.validate(s, profile) for s in strings]
    return [v.valid for v in verdicts], [v.urn.key if v.urn else None for v in verdicts]


@pytest.mark.parametrize("engine", ["python", "arrow", "auto"])
def test_engines_agree_with_validate(engine):
    strings = SAMPLES * 300  # large enough for "auto" to pick Arrow
    if SHARED.exists():
        strings += [json.loads(line)["input"] for line in (SHARED / "conformance" / "syntax.jsonl").open()]
    assert validate_keys(strings, engine=engine) == _expected(strings)


@pytest.mark.parametrize("profile", ["rfc2141", "draft-2012", "draft-1995"])
def test_other_profiles(profile):
    assert validate_keys(SAMPLES, profile) == _expected(SAMPLES, profile)


@given(st.lists(st.one_of(rfc8141_urns(), st.text(alphabet="urnURN:%aZ09-?+=#/~&. ", max_size=20)), max_size=30))
@settings(max_examples=100, deadline=None)
def test_arrow_engine_property(strings):
    assert validate_keys(strings, engine="arrow") == _expected(strings)


def test_bad_engine():
    with pytest.raises(ValueError):
        validate_keys(["urn:a:b"], engine="gpu")


# any text, lone surrogates included (they have no UTF-8 form), beside
# URN-like strings and strings of the characters that end URN parts
any_text = st.text(st.characters(blacklist_categories=()), max_size=12)
urnish = st.text(alphabet="urnURN:%aZ09-?+=#/~&. \u00e9\ud800\udfff", max_size=20)


@given(st.lists(st.one_of(rfc8141_urns(), any_text, urnish,
                          st.builds(lambda u, t: u + t, rfc8141_urns(), any_text)), max_size=30))
@settings(max_examples=100, deadline=None)
def test_validate_keys_never_raises_and_agrees_with_validate(strings):
    for profile in urnscan.PROFILES:
        expected = _expected(strings, profile)
        for engine in ("python", "arrow"):
            assert validate_keys(strings, profile, engine=engine) == expected, (profile, engine)


@pytest.mark.parametrize("engine", ["python", "arrow", "auto"])
def test_lone_surrogate_is_invalid_not_an_error(engine):
    strings = ["\ud800", "urn:example:a", "urn:example:\udfff"] * 1000  # "auto" picks Arrow
    valid, keys = validate_keys(strings, engine=engine)
    assert valid[:3] == [False, True, False] and keys[:3] == [None, "urn:example:a", None]
