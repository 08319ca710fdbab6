"""Extraction quality on the shared gold set of real snippets, scored by the
shared scorer exactly as a user runs it."""
import json
import subprocess
import sys

from .conftest import ROOT, shared_path

#: PRODUCT: F1 on valid hits of at least 0.99 on every gold set
MIN_F1_VALID = 0.99


def test_public_gold_set_is_read_as_a_careful_reader_reads_it():
    scorer = shared_path("eval", "score_gold.py")
    done = subprocess.run([sys.executable, str(scorer), "--json"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["f1_valid"] >= MIN_F1_VALID, summary
    assert summary["f1"] >= MIN_F1_VALID, summary
