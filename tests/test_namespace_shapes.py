"""urnscan.namespaces.shapes: the judgement of a name of a namespace's
commonest shape, in a few steps, is the judgement the namespace rules make
of it (findings, ns_key, dedup_key, rules, checksum), under every profile,
on generated names, the samples and the conformance cases; a name of
another shape is left to the rules."""
from __future__ import annotations

import json
import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urnscan import judge as judge_module
from urnscan import scan_file
from urnscan.judge import judge, namespace_rules
from urnscan.model import PROFILES
from urnscan.namespaces.checkdigits import dnb_urn_check, isbn10_check, isbn13_check
from urnscan.namespaces.registry import registry_named
from urnscan.namespaces.shapes import NAMESPACE_SHAPES, isbn_name, nbn_name, oid_arcs, uuid_hex

from .conftest import shared_path

ROOT = Path(__file__).resolve().parents[1]


def judged_by_the_rules(urn: str, profile: str = "rfc8141"):
    """judge() with no shape taken: what the namespace rules alone make."""
    rules = namespace_rules()
    judge_module._RULES = rules._replace(shapes={})
    try:
        return judge(urn, profile)
    finally:
        judge_module._RULES = rules


def assert_same_judgement(urn: str) -> None:
    for profile in PROFILES:
        assert judge(urn, profile) == judged_by_the_rules(urn, profile), (urn, profile)


def test_the_rules_are_judged_without_shapes_here():
    # the reference of this module: judged_by_the_rules() takes no shape
    assert set(NAMESPACE_SHAPES) == {"isbn", "nbn", "oid", "uuid"}
    calls = []

    def spy(*args):
        calls.append(args)
        return None

    rules = namespace_rules()
    judge_module._RULES = rules._replace(shapes={"isbn": spy})
    try:
        judge("urn:isbn:9780306406157")
    finally:
        judge_module._RULES = rules
    assert calls and calls[0][:3] == ("urn:isbn:9780306406157", "9780306406157", 9)
    judged_by_the_rules("urn:isbn:9780306406157")
    assert len(calls) == 1


# (key, NSS) -> the shape's namespace tail, or None (another shape: the rules judge it)
SHAPE_CASES = [
    (isbn_name, "urn:isbn:9780306406157", ((), "urn:isbn:9780306406157", "urn:isbn:9780306406157", "", True)),
    (isbn_name, "urn:isbn:9780306406158", (("isbn-check-digit",), "urn:isbn:9780306406158",
                                           "urn:isbn:9780306406158", "", False)),
    (isbn_name, "urn:isbn:9770306406157", (("isbn-prefix", "isbn-check-digit"), "urn:isbn:9770306406157",
                                           "urn:isbn:9770306406157", "", False)),
    (isbn_name, "urn:isbn:978-0-306-40615-7", ((), "urn:isbn:9780306406157", "urn:isbn:9780306406157",
                                               "isbn-hyphens", True)),
    (isbn_name, "urn:isbn:0306406152", ((), "urn:isbn:9780306406157", "urn:isbn:9780306406157",
                                        "isbn-10-to-13", True)),
    (isbn_name, "urn:isbn:0-8044-2957-x", ((), "urn:isbn:9780804429573", "urn:isbn:9780804429573",
                                           "isbn-hyphens,isbn-x-case,isbn-10-to-13", True)),
    (isbn_name, "urn:isbn:0-8044-2957-5", (("isbn-check-digit",), "urn:isbn:0804429575", "urn:isbn:0804429575",
                                           "isbn-hyphens", False)),  # not an ISBN: not converted
    (isbn_name, "urn:isbn:978030640615\u0667", None),  # a digit outside ASCII: isbn-malformed
    (isbn_name, "urn:isbn:97803064061570", None),
    (isbn_name, "urn:isbn:978 0 306 40615 7", None),  # spaces: h:isbn-separators reads them
    (oid_arcs, "urn:oid:1.3.6.1.4.1.5923.1.1.1.10", ((), "urn:oid:1.3.6.1.4.1.5923.1.1.1.10",
                                                   "urn:oid:1.3.6.1.4.1.5923.1.1.1.10", "", None)),
    (oid_arcs, "urn:oid:0", ((), "urn:oid:0", "urn:oid:0", "", None)),
    (oid_arcs, "urn:oid:2.16.840.1.113730.3.1.", None),  # a trailing dot: oid-malformed
    (oid_arcs, "urn:oid:1.3.06.1", None),  # a leading zero: the rules find it, the heuristic strips it
    (oid_arcs, "urn:oid:1..3", None),
    (oid_arcs, "urn:oid:1.3.6/", None),  # a trailing slash: h:trailing-slash
    (uuid_hex, "urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66",
     ((), "urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66", "urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66", "",
      None)),
    (uuid_hex, "urn:uuid:6E8BC430-9C3A-11D9-9669-0800200C9A66",
     ((), "urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66", "urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66",
      "uuid-case", None)),
    (uuid_hex, "urn:uuid:00000000-0000-0000-0000-000000000000",
     (("uuid-nil",), "urn:uuid:00000000-0000-0000-0000-000000000000",
      "urn:uuid:00000000-0000-0000-0000-000000000000", "", None)),
    (uuid_hex, "urn:uuid:FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
     (("uuid-max",), "urn:uuid:ffffffff-ffff-ffff-ffff-ffffffffffff",
      "urn:uuid:ffffffff-ffff-ffff-ffff-ffffffffffff", "uuid-case", None)),
    (uuid_hex, "urn:uuid:6e8bc4309c3a11d996690800200c9a66", None),  # no hyphens: h:uuid-repair reads it
    (uuid_hex, "urn:uuid:{6e8bc430-9c3a-11d9-9669-0800200c9a66}", None),
    (uuid_hex, "urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a6g", None),
    (nbn_name, "urn:nbn:de:bvb:19-146642", ((), "urn:nbn:de:bvb:19-146642", "urn:nbn:de:bvb:19-146642", "", True)),
    (nbn_name, "urn:nbn:de:bvb:19-146643", (("nbn-check-digit",), "urn:nbn:de:bvb:19-146643",
                                            "urn:nbn:de:bvb:19-146643", "", False)),
    (nbn_name, "urn:nbn:DE:BVB:19-146642", ((), "urn:nbn:de:bvb:19-146642", "urn:nbn:de:bvb:19-146642",
                                            "nbn-prefix-case", True)),
    (nbn_name, "urn:nbn:de-1234567x", (("nbn-check-digit",), "urn:nbn:de-1234567x", "urn:nbn:de-1234567x", "",
                                       False)),  # a German NBN must end in its digit
    (nbn_name, "urn:nbn:de:0009-2%41", ((), "urn:nbn:de:0009-2%41", "urn:nbn:de:0009-2%41", "", None)),  # no code for "%"
    (nbn_name, "urn:nbn:fi-fe2012121911131", ((), "urn:nbn:fi-fe2012121911131", "urn:nbn:fi-fe2012121911131", "",
                                              None)),  # no check digit outside Germany
    (nbn_name, "urn:nbn:SE:kb:digark-3977", ((), "urn:nbn:se:kb:digark-3977", "urn:nbn:se:kb:digark-3977",
                                             "nbn-prefix-case", None)),
    (nbn_name, "urn:nbn:de:bvb:19", None),  # no hyphen: nbn-malformed
    (nbn_name, "urn:nbn:d-1", None),
    (nbn_name, "urn:nbn:de:x-1/", None),  # a trailing slash: h:trailing-slash
]


@pytest.mark.parametrize("shape, key, expected", SHAPE_CASES)
def test_shape_table(shape, key, expected):
    at = key.index(":", 4) + 1
    tail = shape(key, key[at:], at, registry_named(None))
    if expected is None:
        assert tail is None
        return
    found, *rest = tail
    assert (tuple(f.code for f in found), *rest) == expected
    assert all(f.position is not None for f in found)
    assert_same_judgement(key)


# the NID as it may be written; the NSS of each shape, and near misses
_NIDS = {"isbn": st.sampled_from(["isbn", "ISBN", "Isbn", "iSbN"]),
         "oid": st.sampled_from(["oid", "OID", "Oid"]),
         "uuid": st.sampled_from(["uuid", "UUID", "Uuid"]),
         "nbn": st.sampled_from(["nbn", "NBN", "Nbn"])}
_DIGITS = st.text(alphabet=string.digits, min_size=13, max_size=13)


def _hyphenated(digits: str, cuts) -> str:
    """``digits`` with a hyphen after each position that ``cuts`` marks but
    the last (the template's hyphens stand between digits)."""
    return "".join(d + ("-" if cut and i < len(digits) - 1 else "") for i, (d, cut) in
                   enumerate(zip(digits, cuts)))


# ISBNs with their right check character (ISBN-10s then convert), hyphenated or not
_RIGHT_ISBN = st.one_of(
    st.text(alphabet=string.digits, min_size=9, max_size=9).map(lambda d: d + isbn10_check(d)),
    st.text(alphabet=string.digits, min_size=9, max_size=9).map(lambda d: "978" + d).map(
        lambda d: d + isbn13_check(d)),
)
_ISBN_NSS = st.one_of(
    _DIGITS,
    st.builds(lambda p, d: p + d[3:], st.sampled_from(["978", "979", "977", "000"]), _DIGITS),
    st.builds(_hyphenated, _RIGHT_ISBN, st.lists(st.booleans(), min_size=13, max_size=13)),
    _RIGHT_ISBN.map(lambda isbn: isbn[:-1] + isbn[-1].lower()),
    st.text(alphabet=string.digits + "-Xx\u0660", min_size=9, max_size=17),
)
_OID_NSS = st.one_of(
    st.lists(st.integers(min_value=0, max_value=10 ** 12).map(str), min_size=1, max_size=12).map(".".join),
    st.text(alphabet="0123456789./", min_size=1, max_size=24),
)
_HEX = string.hexdigits
_UUID_NSS = st.one_of(
    st.builds(lambda *groups: "-".join(groups), *(st.text(alphabet=_HEX, min_size=n, max_size=n)
                                                   for n in (8, 4, 4, 4, 12))),
    st.sampled_from(["00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
                     "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"]),
    st.text(alphabet=_HEX + "-{}%", min_size=30, max_size=40),
)
_NBN_PREFIX = st.builds(lambda country, subs: ":".join([country, *subs]),
                        st.sampled_from(["de", "DE", "De", "se", "fi", "at", "nl", "ch", "it", "cz", "x"]),
                        st.lists(st.text(alphabet="abBvV019", min_size=1, max_size=5), max_size=3))
_NBN_STRING = st.text(alphabet=string.ascii_letters + string.digits + "-._:/%~!", min_size=1, max_size=16)


def _with_dnb_digit(nss: str) -> str:
    """``nss`` with the DNB check digit of its name after it, where the
    table codes every character of it (else a digit as it comes)."""
    return nss + (dnb_urn_check("urn:nbn:" + nss) or "7")


_NBN_NSS = st.one_of(
    st.builds(lambda prefix, rest: _with_dnb_digit(f"{prefix}-{rest}"), _NBN_PREFIX, _NBN_STRING),
    st.builds(lambda prefix, rest: f"{prefix}-{rest}", _NBN_PREFIX, _NBN_STRING),
    st.text(alphabet="deDE:-0123bx/%\u00e9", min_size=1, max_size=20),
)
# what may follow a name: nothing, or a component (the name is then judged in full)
_AFTER = st.sampled_from(["", "", "", "#p5", "?=q", "?+r", "/"])


# the NSS of each namespace's names, of the shape and near misses
_NSS = {"isbn": _ISBN_NSS, "oid": _OID_NSS, "uuid": _UUID_NSS, "nbn": _NBN_NSS}


@pytest.mark.parametrize("namespace", sorted(_NSS))
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_names_are_judged_as_the_rules_judge_them(namespace, data):
    nid, nss, after = data.draw(_NIDS[namespace]), data.draw(_NSS[namespace]), data.draw(_AFTER)
    assert_same_judgement(f"urn:{nid}:{nss}{after}")


def test_the_samples_are_judged_as_the_rules_judge_them():
    urns = {hit.urn for path in sorted((ROOT / "data" / "samples").iterdir()) for hit in scan_file(str(path))}
    assert any(urn.lower().startswith(("urn:isbn:", "urn:uuid:")) for urn in urns)
    for urn in sorted(urns):
        assert_same_judgement(urn)


def test_the_conformance_cases_are_judged_as_the_rules_judge_them():
    lines = shared_path("conformance", "syntax.jsonl").read_text(encoding="utf-8").splitlines()
    urns = [json.loads(line)["input"] for line in lines if line.strip()]
    assert urns
    for urn in urns:
        if isinstance(urn, str) and urn[:4].lower() == "urn:":
            assert_same_judgement(urn)


def test_the_judging_benchmark_runs_both_ways_and_puts_the_rules_back(capsys, monkeypatch):
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("bench_judge", ROOT / "benchmarks" / "bench_judge.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    monkeypatch.setattr(sys, "argv", ["bench_judge.py", "--n", "40", "--repeat", "1"])
    rules = namespace_rules()
    bench.main()
    assert judge_module._RULES is rules
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 + len(bench.KINDS)
    assert all(line.rstrip().endswith("x") for line in lines[2:])
