"""Tests for the benchmark corpus generator (benchmarks/corpus.py)."""
from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

_CORPUS_PY = Path(__file__).resolve().parents[1] / "benchmarks" / "corpus.py"


def _load_corpus_module():
    spec = importlib.util.spec_from_file_location("urnscan_bench_corpus", _CORPUS_PY)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


corpus = _load_corpus_module()

SIZE_MB = 1
EVERY = 2048


def _strip_timing(stats):
    stats = dict(stats)
    stats.pop("timing")
    stats.pop("path")
    return stats


@pytest.fixture(scope="module")
def first(tmp_path_factory):
    out = tmp_path_factory.mktemp("corpus") / "a.txt"
    stats = corpus.generate(str(out), SIZE_MB, EVERY, seed=7)
    return out, stats


def test_same_seed_is_byte_identical(first, tmp_path):
    out_a, stats_a = first
    out_b = tmp_path / "b.txt"
    stats_b = corpus.generate(str(out_b), SIZE_MB, EVERY, seed=7)
    assert out_a.read_bytes() == out_b.read_bytes()
    assert _strip_timing(stats_a) == _strip_timing(stats_b)


def test_other_seed_differs(first, tmp_path):
    out_a, _ = first
    out_c = tmp_path / "c.txt"
    corpus.generate(str(out_c), SIZE_MB, EVERY, seed=8)
    assert out_a.read_bytes() != out_c.read_bytes()


def test_size_within_five_percent(first):
    out, stats = first
    requested = SIZE_MB * corpus.MIB
    size = out.stat().st_size
    assert stats["bytes_requested"] == requested
    assert stats["bytes_written"] == size
    assert abs(size - requested) <= 0.05 * requested


def test_sidecar_written_beside_output(first):
    out, stats = first
    sidecar = Path(str(out) + ".json")
    on_disk = json.loads(sidecar.read_text(encoding="utf-8"))
    assert _strip_timing(on_disk) == _strip_timing(stats)
    assert on_disk["parameters"] == {"size_mb": SIZE_MB, "every": EVERY, "seed": 7,
                                     "mb_unit_bytes": corpus.MIB}
    assert on_disk["path"] == "a.txt"


def test_counts_are_consistent(first):
    _, stats = first
    u = stats["urns"]
    counts = u["counts"]
    assert set(counts) == {"bare", "wrapped", "folded", "embedded"}
    assert sum(counts.values()) == u["total"]
    assert all(n > 0 for n in counts.values())
    assert u["folded_bare"] + u["folded_wrapped"] == counts["folded"]
    assert u["folded_bare"] > 0 and u["folded_wrapped"] > 0
    hits = u["as_hits"]
    assert hits["form_bare"] + hits["form_wrapped"] == u["total"]
    assert sum(u["by_detail"].values()) == u["total"]
    assert sum(u["by_context"].values()) == u["total"]
    assert sum(u["by_nid"].values()) == u["total"]


def test_counts_match_the_text(first):
    out, stats = first
    text = out.read_text(encoding="utf-8")
    u = stats["urns"]
    # every "urn:" at a word boundary, decoys such as "URN: label" included
    loose = len(re.findall(r"(?i)\burn:", text))
    assert loose >= u["total"]
    # the strict pattern finds exactly the inserted URNs
    assert len(re.findall(corpus.STRICT_PATTERN, text)) == u["total"]
    # wrappers, one-line and folded
    assert len(re.findall(r"(?i)<urn:", text)) == u["as_hits"]["form_wrapped"]
    assert len(re.findall(r"(?i)<urn:[^<>\s]*>", text)) == u["counts"]["wrapped"]
    assert len(re.findall(r"(?i)<urn:[^<>\s]*\n[ \t]+[^<>\s]+>", text)) == u["folded_wrapped"]
    # bare URNs broken after '-' and continued on an indented line
    folded_bare = re.findall(r"(?i)(?<![\w.<])urn:[^\s<>\"']*-\n[ \t]+[A-Za-z0-9]", text)
    assert len(folded_bare) == u["folded_bare"]
    # URNs inside URLs follow a '/' or '='
    assert len(re.findall(r"(?i)[/=]urn:[a-z0-9]", text)) == u["counts"]["embedded"]


def test_rate_follows_every(first, tmp_path):
    _, dense = first
    assert 0.8 * EVERY <= dense["urns"]["bytes_per_urn"] <= 1.25 * EVERY
    sparse = corpus.generate(str(tmp_path / "sparse.txt"), SIZE_MB, EVERY * 10, seed=7)
    assert sparse["urns"]["total"] > 0
    assert dense["urns"]["total"] > 5 * sparse["urns"]["total"]


def test_decoys_are_present(first):
    out, stats = first
    text = out.read_text(encoding="utf-8")
    decoys = stats["decoys"]
    for needle in ("return:", "Saturn:", "turn:", "x.urn:y"):
        assert decoys.get(needle, 0) > 0, needle
        assert text.count(needle) >= decoys[needle]
    # a two-word decoy may be broken across lines, inside a "> " quote too
    assert decoys.get("URN: label", 0) > 0
    assert len(re.findall(r"URN:[\s>]+label", text)) >= decoys["URN: label"]


def test_cli_writes_output_and_sidecar(tmp_path, capsys):
    out = tmp_path / "cli.txt"
    rc = corpus.main([str(out), "--size-mb", "0.25", "--every", "4096", "--seed", "3"])
    assert rc == 0
    assert out.exists()
    stats = json.loads((tmp_path / "cli.txt.json").read_text(encoding="utf-8"))
    assert stats["parameters"]["seed"] == 3
    assert stats["bytes_written"] == out.stat().st_size
    assert "URNs" in capsys.readouterr().err


def test_rejects_bad_arguments(tmp_path):
    with pytest.raises(ValueError):
        corpus.generate(str(tmp_path / "x.txt"), 0, EVERY)
    with pytest.raises(ValueError):
        corpus.generate(str(tmp_path / "x.txt"), 1, 10)


def test_german_nbns_carry_the_check_digit_the_package_computes(first):
    """The generator uses the package's DNB check digit, so every German
    NBN it writes passes the namespace check (no nbn-check-digit finding)."""
    from urnscan import equivalence_key
    from urnscan.namespaces import ns_findings

    out, _ = first
    nbns = sorted(set(re.findall(r"urn:nbn:de:[A-Za-z0-9:._/-]*[0-9]", out.read_text(encoding="utf-8"))))
    assert len(nbns) > 10
    flagged = [u for u in nbns if "nbn-check-digit" in [f.code for f in ns_findings(equivalence_key(u))]]
    assert flagged == []
