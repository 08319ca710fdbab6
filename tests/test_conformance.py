"""The shared conformance corpus: every case, under every profile it gives
a result for."""
import json

import pytest

from urnscan import PROFILES, equivalence_key, parse, validate

from .conftest import SHARED, missing_shared, shared_path


def _cases():
    path = SHARED / "conformance" / "syntax.jsonl"
    if not path.exists():
        return [pytest.param(None, id="absent")]
    return [pytest.param(json.loads(line), id=f"{i}") for i, line in enumerate(path.open(encoding="utf-8"))]


@pytest.mark.parametrize("case", _cases())
def test_syntax_case(case):
    if case is None:
        missing_shared("conformance/syntax.jsonl")
    profiles = [p for p in PROFILES if p in case]
    assert profiles, case
    for profile in profiles:
        assert validate(case["input"], profile).valid is case[profile]["valid"], (profile, case["note"])
    expected = case["rfc8141"]
    if expected["valid"]:
        urn = parse(case["input"])
        got = {"canonical": urn.canonical, "key": urn.key, "nid": urn.nid, "nss": urn.nss,
               "r": urn.r_component, "q": urn.q_component, "f": urn.f_component}
        assert got == {k: expected[k] for k in got}


def test_equivalence_classes():
    groups = json.loads(shared_path("conformance", "equivalence.json").read_text(encoding="utf-8"))
    for group in groups:
        # seed 002 section 5: step 5b (caching resolution results) instead of 5a
        resolution = (bool(group.get("resolution")) or "5b" in str(group.get("step", ""))
                      or "step 5b" in group["source"])
        keys = [{equivalence_key(u, group["profile"], resolution=resolution) for u in cls}
                for cls in group["equivalent"]]
        assert all(len(k) == 1 for k in keys), group["source"]
        assert len(set().union(*keys)) == len(keys), group["source"]
