"""benchmarks/compare_go_urn.py: the strings it builds and how it names the
classes of disagreement (the run itself needs Go and go-urn's sources)."""
import importlib.util
import os
import shutil
from pathlib import Path

import pytest

import urnscan

_CHECKOUT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("compare_go_urn", _CHECKOUT / "benchmarks" / "compare_go_urn.py")
compare = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compare)


def test_the_strings_are_the_same_every_run_and_cover_the_grammar():
    singles, groups = compare.candidates(400)
    assert (singles, groups) == compare.candidates(400)
    assert [g[0] for g in groups] == singles
    verdicts = [urnscan.is_valid(s, profile="rfc2141") for s in singles]
    assert 0.2 < sum(verdicts) / len(verdicts) < 0.9  # valid ones, and ones each rule turns down
    text = "".join(singles)
    for piece in ("%00", "%zz", "/", "?", "#", "<", "URN:", "Urn:"):
        assert piece in text


@pytest.mark.parametrize("urn", ["urn:example:a%2c", "URN:Example:a1", "urn:example:(a)=b"])
def test_variants_differ_only_by_case_or_an_escape(urn):
    import random

    varieties = compare.variants(urn, random.Random(1), n=20)
    assert len(set(varieties)) > 1
    for varied in varieties:
        assert urnscan.is_valid(varied, profile="rfc2141")
        # decoding every escape and folding case gives the original back
        assert _unescape(varied).lower() == _unescape(urn).lower()


def _unescape(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "%":
            out.append(chr(int(s[i + 1:i + 3], 16)))
            i += 3
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


@pytest.mark.parametrize("urn, ours, named", [
    ("urn:example:a/b", True, "section 2.2"),
    ("urn:example:a?b", True, "section 2.3.2"),
    ("urn:example:%zz", False, "section 2.3.1"),
    ("urn:example:%G1", False, "section 2.3.1"),
    ("urn:example:%00", False, "section 2.4"),
    ("urn:example:a b", False, "other"),
])
def test_each_disagreement_is_named_with_its_rule(urn, ours, named):
    assert named in compare.disagreement_class(urn, ours)


def test_partitions_compare_whatever_the_order():
    key = str.lower
    assert compare.partition(["urn:a:B", "URN:a:b", "urn:a:c"], key) == compare.partition(
        ["urn:a:c", "URN:a:b", "urn:a:B"], key)


@pytest.mark.skipif(shutil.which("go") is None or not os.path.isdir(
    os.path.join(compare.DEBIAN_GOPATH, "src", compare.PACKAGE)), reason="needs Go and go-urn's sources")
def test_the_comparison_runs(capsys):
    assert compare.main(["--n", "300"]) == 0
    out = capsys.readouterr().out
    assert "validity agrees on" in out and "equivalence (RFC 2141 section 5)" in out
