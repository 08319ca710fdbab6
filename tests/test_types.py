"""The closed sets of the core are enums whose members equal their strings,
so code and files that speak in strings read the same values."""
import json

import pytest

import urnscan
from urnscan.batch import Engine, validate_keys
from urnscan.frame import LEVELS, DedupeLevel, group_keys
from urnscan.model import ERROR, PROFILES, WARNING, Profile, Severity
from urnscan.namespaces import STATUSES, NamespaceStatus, namespace_status
from urnscan.syntax import check_profile

STRINGS = [
    (PROFILES, ("rfc8141", "rfc2141", "draft-2012", "draft-1995")),
    ((ERROR, WARNING), ("error", "warning")),
    (STATUSES, ("formal", "informal", "experimental", "unregistered")),
    (LEVELS, ("key", "ns", "heuristic")),
    (tuple(Engine), ("auto", "python", "arrow")),
]


@pytest.mark.parametrize("members, strings", STRINGS)
def test_members_equal_and_hash_as_their_strings(members, strings):
    assert members == strings
    assert [hash(m) for m in members] == [hash(s) for s in strings]
    assert json.dumps(list(members)) == json.dumps(list(strings))
    assert [f"{m}" for m in members] == list(strings)


CHECK_PROFILE = [(s, Profile(s)) for s in ("rfc8141", "rfc2141", "draft-2012", "draft-1995")] + [
    (Profile.DRAFT1995, Profile.DRAFT1995)]


@pytest.mark.parametrize("given, expected", CHECK_PROFILE)
def test_check_profile_returns_the_member(given, expected):
    got = check_profile(given)
    assert got is expected


@pytest.mark.parametrize("bad", ["RFC8141", "rfc3986", "", None, 8141])
def test_check_profile_rejects_names_outside_the_set(bad):
    with pytest.raises(urnscan.ProfileError, match="choose one of rfc8141, rfc2141, draft-2012, draft-1995"):
        check_profile(bad)


def test_results_carry_members():
    verdict = urnscan.validate("urn:x-demo:a%41", "rfc2141")
    assert verdict.profile is Profile.RFC2141
    assert verdict.urn.profile is Profile.RFC2141
    assert [type(f.severity) for f in verdict.findings] == [Severity] * len(verdict.findings)
    assert [f.severity for f in verdict.findings] == [Severity.WARNING]
    assert urnscan.validate("urn:a", "rfc8141").findings[0].severity is Severity.ERROR


STATUS = [("isbn", NamespaceStatus.FORMAL), ("ISBN", NamespaceStatus.FORMAL),
          ("x-demo", NamespaceStatus.EXPERIMENTAL), ("no-such-nid-here", NamespaceStatus.UNREGISTERED)]


@pytest.mark.parametrize("nid, expected", STATUS)
def test_namespace_status_is_a_member(nid, expected):
    assert namespace_status(nid) is expected


def test_dedupe_level_accepts_strings_and_members():
    keys = ["urn:isbn:0-306-40615-2", None]
    assert group_keys(keys, "ns") == group_keys(keys, DedupeLevel.NS)
    with pytest.raises(ValueError, match="level must be one of key, ns, heuristic"):
        group_keys(keys, "loose")


@pytest.mark.parametrize("engine", ["python", Engine.PYTHON, "arrow", Engine.ARROW, "auto"])
def test_validate_keys_takes_engine_names_and_members(engine):
    assert validate_keys(["urn:Ex:a%2c", "urn:a:b"], engine=engine) == ([True, False], ["urn:ex:a%2C", None])
