"""pandas helpers and `urnscan dedupe`."""
import json
import subprocess
import sys

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import urnscan
from urnscan.frame import DEDUPE_COLUMNS, dedupe, read_files_table, read_index, scan_series, summary_by_namespace

CITATIONS = """\
Refs: urn:isbn:0-395-36341-1 and URN:ISBN:978-0-395-36341-6, also <urn:isbn:9780395363416>.
UUID urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6 = urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6.
RFC: urn:ietf:rfc:2141 and URN:IETF:rfc:2141; NBN urn:nbn:DE:hbz:6-85729 vs urn:nbn:de:hbz:6-85729.
Percent: urn:example:a%2cb and urn:example:a%2Cb; components urn:example:x?+r and urn:example:x#f.
Different: urn:example:A and urn:example:a; invalid urn:ab-:x.
"""


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    root = tmp_path_factory.mktemp("idx")
    (root / "a.txt").write_text(CITATIONS)
    (root / "b.txt").write_text("again urn:isbn:0395363411 here\n")
    out = root / "index.parquet"
    res = subprocess.run([sys.executable, "-m", "urnscan", "scan", str(root / "a.txt"), str(root / "b.txt"),
                          "-o", str(out), "-q"], capture_output=True)
    assert res.returncode == 0, res.stderr
    return out


def test_read_index_has_categoricals(index):
    df = read_index(index)
    assert isinstance(df["source"].dtype, pd.CategoricalDtype)
    assert isinstance(df["nid"].dtype, pd.CategoricalDtype)
    assert len(df) == 17
    files = read_files_table(index)
    assert set(files["status"]) == {"scanned"}


def _group_of(groups, urn):
    return next(g for g in groups.itertuples() if urn in g.spellings)


@pytest.mark.parametrize("level, together, apart", [
    ("key", ["urn:ietf:rfc:2141", "URN:IETF:rfc:2141"], ["urn:isbn:0-395-36341-1", "URN:ISBN:978-0-395-36341-6"]),
    ("key", ["urn:example:a%2cb", "urn:example:a%2Cb"], ["urn:example:A", "urn:example:a"]),
    ("key", ["urn:example:x?+r", "urn:example:x#f"], []),
    ("ns", ["urn:isbn:0-395-36341-1", "URN:ISBN:978-0-395-36341-6", "urn:isbn:9780395363416", "urn:isbn:0395363411"],
     ["urn:example:A", "urn:example:a"]),
    ("ns", ["urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6", "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"], []),
    ("ns", ["urn:nbn:DE:hbz:6-85729", "urn:nbn:de:hbz:6-85729"], []),
])
def test_dedupe_levels(index, level, together, apart):
    groups = dedupe(read_index(index), level)
    assert len({_group_of(groups, u).group_key for u in together}) == 1
    if apart:
        assert len({_group_of(groups, u).group_key for u in apart}) == len(apart)


def test_dedupe_says_why(index):
    groups = dedupe(read_index(index), "ns")
    isbn = _group_of(groups, "urn:isbn:0395363411")
    assert isbn.count == 4 and isbn.n_documents == 2
    assert {"isbn-10-to-13", "isbn-hyphens", "scheme-case", "nid-case"} <= set(isbn.rules)
    pct = _group_of(groups, "urn:example:a%2cb")
    assert pct.rules == ["percent-case"]


def test_ns_level_never_splits_key_level(index):
    df = read_index(index)
    by_key = dedupe(df, "key")
    by_ns = dedupe(df, "ns")
    for g in by_key.itertuples():
        assert len({_group_of(by_ns, s).group_key for s in g.spellings}) == 1


def test_invalid_hits_are_not_grouped(index):
    groups = dedupe(read_index(index), "heuristic")
    assert not any("urn:ab-:x" in g.spellings for g in groups.itertuples())


def test_scan_series():
    s = pd.Series(["see urn:isbn:0451450523.", None, "nothing", "<URN:foo:bar> caf\u00e9 urn:x:y"], index=[10, 11, 12, 13])
    hits = scan_series(s)
    assert hits["doc"].tolist() == [10, 13, 13]
    assert hits["urn"].tolist() == ["urn:isbn:0451450523", "URN:foo:bar", "urn:x:y"]
    assert hits["start"].tolist() == [4, 1, 19]


def test_summary_by_namespace(index):
    summary = summary_by_namespace(read_index(index))
    assert summary.loc["isbn", "hits"] == 4 and summary.loc["isbn", "distinct"] == 4
    assert summary.loc["isbn", "status"] == "formal"


def test_frame_names_are_lazy_attributes():
    assert urnscan.dedupe is dedupe and urnscan.read_index is read_index


def test_dedupe_cli(index, tmp_path):
    out = tmp_path / "groups.jsonl"
    res = subprocess.run([sys.executable, "-m", "urnscan", "dedupe", str(index), "-o", str(out)],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert "urn:isbn:9780395363416  4 citations, 4 spellings, 2 documents" in res.stdout
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert all(r["n_spellings"] >= 2 or r["case_variants"] for r in rows)
    again = subprocess.run([sys.executable, "-m", "urnscan", "dedupe", str(index), "-o", str(out)], capture_output=True)
    assert again.returncode == 2
    csv = tmp_path / "g.csv"
    subprocess.run([sys.executable, "-m", "urnscan", "dedupe", str(index), "--all", "-o", str(csv)], check=True,
                   capture_output=True)
    every = pd.read_csv(csv, keep_default_na=False)
    assert len(every) >= len(rows)
    assert set(every["group_key"]) >= {r["group_key"] for r in rows}


@pytest.mark.parametrize("level", ["key", "ns", "heuristic"])
def test_dedupe_flags_groups_apart_only_by_case(index, level):
    # namespaces.md §3.1: a name compared exactly (example, ietf:params) is
    # not merged with a spelling that differs in case, but flagged
    groups = dedupe(read_index(index), level, min_spellings=2)
    upper, lower = _group_of(groups, "urn:example:A"), _group_of(groups, "urn:example:a")
    assert upper.group_key != lower.group_key
    assert list(upper.case_variants) == [lower.group_key] and list(lower.case_variants) == [upper.group_key]
    rfc = _group_of(groups, "URN:IETF:rfc:2141")  # its case variants merged: none left apart
    assert list(rfc.case_variants) == []


def test_dedupe_cli_says_which_groups_differ_only_in_case(tmp_path):
    text = tmp_path / "in.txt"
    text.write_text("urn:ietf:params:xml:ns:XMPP-Bind and urn:ietf:params:xml:ns:xmpp-bind twice "
                    "urn:ietf:params:xml:ns:xmpp-bind; urn:isbn:0451450523\n")
    index = tmp_path / "i.parquet"
    subprocess.run([sys.executable, "-m", "urnscan", "scan", str(text), "-o", str(index), "-q"], check=True)
    csv = tmp_path / "g.csv"
    res = subprocess.run([sys.executable, "-m", "urnscan", "dedupe", str(index), "-o", str(csv)],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert ("differs only in case from: urn:ietf:params:xml:ns:XMPP-Bind "
            "(a probable duplicate, not merged at level 'ns')") in res.stdout
    assert "isbn" not in res.stdout  # one spelling, no variant: not a duplicate
    rows = pd.read_csv(csv, keep_default_na=False)
    assert sorted(rows["case_variants"]) == ["urn:ietf:params:xml:ns:XMPP-Bind", "urn:ietf:params:xml:ns:xmpp-bind"]


def test_dedupe_leaves_out_the_documentation_namespace_unless_asked(index):
    df = read_index(index)
    every = dedupe(df, "ns", min_spellings=1)
    assert any(g.nid == "example" for g in every.itertuples())
    kept = dedupe(df, "ns", min_spellings=1, examples=False)
    assert not any(g.nid == "example" for g in kept.itertuples())
    assert set(kept["group_key"]) == {g.group_key for g in every.itertuples() if g.nid != "example"}


def test_dedupe_cli_groups_examples_with_the_option(index):
    def run(*options):
        res = subprocess.run([sys.executable, "-m", "urnscan", "dedupe", str(index), "--all", *options],
                             capture_output=True, text=True)
        assert res.returncode == 0, res.stderr
        return res

    default, asked = run(), run("--examples")
    assert "urn:example:" not in default.stdout and "urn:example:" in asked.stdout
    assert "valid hits of urn:example: left out, --examples groups them" in default.stderr
    assert "left out" not in asked.stderr


def test_dedupe_cli_errors(tmp_path):
    res = subprocess.run([sys.executable, "-m", "urnscan", "dedupe", str(tmp_path / "missing.parquet")],
                         capture_output=True, text=True)
    assert res.returncode == 1 and "no such file" in res.stderr
    bad = tmp_path / "bad.parquet"
    bad.write_text("not parquet")
    res = subprocess.run([sys.executable, "-m", "urnscan", "dedupe", str(bad)], capture_output=True, text=True)
    assert res.returncode == 1 and "not a Parquet file" in res.stderr


def _samples_index(tmp_path_factory):
    from pathlib import Path

    samples = Path(__file__).resolve().parents[1] / "data" / "samples"
    out = tmp_path_factory.mktemp("samples") / "samples.parquet"
    res = subprocess.run([sys.executable, "-m", "urnscan", "scan", str(samples), "-o", str(out), "-q"],
                         capture_output=True)
    assert res.returncode == 0, res.stderr
    return out


@pytest.fixture(scope="module")
def indexes(index, tmp_path_factory):
    return [index, _samples_index(tmp_path_factory)]


def _plain(groups):
    return groups.to_dict("list"), dict(groups.attrs)


@pytest.mark.parametrize("level", ["key", "ns", "heuristic"])
def test_dedupe_from_stored_keys_equals_dedupe_recomputed(indexes, level):
    for path in indexes:
        df = read_index(path)
        assert {"ns_key", "dedup_key", "dedup_rules"} <= set(df.columns)
        recomputed = dedupe(df.drop(columns=["ns_key", "dedup_key", "dedup_rules"]), level)
        assert _plain(dedupe(df, level)) == _plain(recomputed)
        assert len(recomputed) > 5


def test_dedupe_reads_the_stored_keys(index, monkeypatch):
    """With the stored columns, the heuristic level runs no namespace rule
    and the ns level only names the rules of keys the rules changed."""
    from urnscan import frame

    df = read_index(index)
    expected = {level: _plain(dedupe(df, level)) for level in ("ns", "heuristic")}
    calls = []
    monkeypatch.setattr(frame, "namespace_keys", lambda key: calls.append(key))
    rules_of = urnscan.namespaces.ns_key_rules
    monkeypatch.setattr(frame, "ns_key_rules", lambda key: calls.append(key) or rules_of(key))
    assert _plain(dedupe(df, "heuristic")) == expected["heuristic"]
    assert calls == []
    assert _plain(dedupe(df, "ns")) == expected["ns"]
    changed = sorted(set(df.loc[df["key"].notna() & (df["ns_key"] != df["key"]), "key"].astype(object)))
    assert sorted(calls) == changed and len(changed) >= 2
    # and a stored key is the one grouped by
    tampered = df.assign(dedup_key=df["dedup_key"].astype(object).where(df["urn"] != "urn:example:A",
                                                                        "urn:example:a"))
    merged = _group_of(dedupe(tampered, "heuristic"), "urn:example:A")
    assert set(merged.spellings) == {"urn:example:A", "urn:example:a"}


def test_dedupe_counts_spellings_documents_and_rules_per_group():
    """One group's fields, built from the rows in one pass: spellings most
    cited first (ties in the order met), their counts, the documents that
    cite them, the rules that merged them."""
    rows = [("a.txt", "urn:ietf:rfc:2141"), ("b.txt", "URN:IETF:rfc:2141"), ("b.txt", "URN:IETF:rfc:2141"),
            ("c.txt", "urn:IETF:rfc:2141"), (None, "urn:ietf:rfc:2141"), ("a.txt", "urn:isbn:0451450523")]
    df = pd.DataFrame({
        "source": [s for s, _ in rows], "urn": [u for _, u in rows],
        "key": [urnscan.equivalence_key(u) for _, u in rows],
        "nid": [u.split(":")[1] for _, u in rows],
    })
    groups = dedupe(df, "key")
    first = groups.iloc[0]
    assert (first.group_key, first.nid, first["count"]) == ("urn:ietf:rfc:2141", "ietf", 5)
    assert first.spellings == ["urn:ietf:rfc:2141", "URN:IETF:rfc:2141", "urn:IETF:rfc:2141"]
    assert first.spelling_counts == [2, 2, 1]
    assert first.documents == ["a.txt", "b.txt", "c.txt"] and first.n_documents == 3
    assert first.rules == ["scheme-case", "nid-case"] and not first.heuristic
    second = groups.iloc[1]
    assert (second.spellings, second.rules, second.documents) == (["urn:isbn:0451450523"], [], ["a.txt"])


@pytest.mark.parametrize("level", ["key", "ns", "heuristic"])
@pytest.mark.parametrize("examples", [True, False])
@pytest.mark.parametrize("min_spellings", [1, 2, 3])
def test_dedupe_index_reads_in_batches_what_dedupe_gives_of_the_whole(indexes, tmp_path, level, examples,
                                                                      min_spellings):
    """The groups of an index read a batch at a time do not depend on the
    batch's size, nor on the index's parts (a dataset directory), whether
    every group is listed or only those of several spellings (found first,
    in Arrow) and those with case variants."""
    import pyarrow.parquet as pq

    from urnscan.frame import dedupe_index

    for n, path in enumerate(indexes):
        whole = _plain(dedupe(read_index(path), level, min_spellings=min_spellings, examples=examples))
        for rows in (1, 7, 65536):
            assert _plain(dedupe_index(path, level, min_spellings=min_spellings, examples=examples,
                                       batch_rows=rows)) == whole
        table = pq.read_table(path)
        parts = tmp_path / f"parts{n}"
        parts.mkdir()
        third = -(-table.num_rows // 3)
        for i in range(3):
            pq.write_table(table.slice(i * third, third), parts / f"hits-{i:05d}.parquet")
        assert _plain(dedupe_index(parts, level, min_spellings=min_spellings, examples=examples,
                                   batch_rows=5)) == whole
    if not examples:
        assert whole[1]["examples_left_out"] > 0
    if min_spellings == 2:  # the case variants of the fixture are listed with one spelling each
        assert any(len(v) and s == 1 for v, s in zip(whole[0]["case_variants"], whole[0]["n_spellings"]))


@pytest.mark.parametrize("level", ["key", "ns", "heuristic"])
def test_dedupe_index_gathers_only_the_hits_of_the_groups_it_lists(indexes, tmp_path, monkeypatch, level):
    """With ``min_spellings`` 2, the first pass finds the groups to list and
    only their hits are gathered in Python; an index without the stored
    group keys (written by an older version) is gathered whole, and gives
    the same groups."""
    import pyarrow.parquet as pq

    from urnscan import frame

    index = indexes[1]  # the samples: most URNs in one spelling
    gathered = []
    add = frame.Gathering.add
    monkeypatch.setattr(frame.Gathering, "add", lambda self, df: gathered.append(len(df)) or add(self, df))
    df = read_index(index)
    expected = _plain(dedupe(df, level, min_spellings=2))
    gathered.clear()
    assert _plain(frame.dedupe_index(index, level, min_spellings=2)) == expected
    listed = sum(expected[0]["count"])
    assert sum(gathered) == listed < int(df["key"].notna().sum())
    older = tmp_path / "older.parquet"
    stored = {"key": "ns_key", "ns": "ns_key", "heuristic": "dedup_rules"}[level]
    pq.write_table(pq.read_table(index).drop_columns([stored]), older)
    gathered.clear()
    assert _plain(frame.dedupe_index(older, level, min_spellings=2)) == expected
    assert sum(gathered) == (listed if level == "key" else len(df))


def _repeated_index(path, rows: int) -> None:
    """An index of ``rows`` hits citing 40 URNs over and over, from 50 documents."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    urns = [f"urn:isbn:97803953634{n:02d}" if n % 2 else f"URN:Example:item-{n}" for n in range(40)]
    cited = [urns[i % 40] for i in range(rows)]
    pq.write_table(pa.table({
        "source": [f"doc-{i % 50}.txt" for i in range(rows)], "urn": cited,
        "key": [urnscan.equivalence_key(u) for u in cited], "nid": [u.split(":")[1] for u in cited],
    }), path, row_group_size=4096)


def test_dedupe_index_memory_grows_with_distinct_keys_not_with_hits(tmp_path):
    """Four times the hits of the same 40 URNs: the memory dedupe_index
    takes (Python and NumPy objects, traced) stays the same, where a frame
    of the whole index would grow fourfold."""
    import tracemalloc

    from urnscan.frame import dedupe_index

    def peak(rows: int):
        path = tmp_path / f"i{rows}.parquet"
        _repeated_index(path, rows)
        tracemalloc.start()
        try:
            groups = dedupe_index(path, "ns", min_spellings=1, batch_rows=2048)
            return tracemalloc.get_traced_memory()[1], groups
        finally:
            tracemalloc.stop()

    small, few = peak(20_000)
    large, many = peak(80_000)
    assert list(many["group_key"]) == list(few["group_key"]) and len(many) == 40
    assert many["count"].sum() == 80_000 and many["n_documents"].max() <= 50
    assert large < 1.5 * small


def _distinct_index(path, distinct: int) -> None:
    """An index of ``distinct`` ISBN URNs cited once each (a catalogue),
    and one URN cited in two spellings."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    cited = [f"urn:isbn:978{n:010d}" for n in range(distinct)] + ["urn:ietf:rfc:2141", "URN:IETF:rfc:2141"]
    keys = [u.lower() if u.startswith("URN:IETF") else u for u in cited]
    pq.write_table(pa.table({
        "source": [f"doc-{i % 50}.txt" for i in range(len(cited))], "urn": cited, "key": keys,
        "nid": [u.split(":")[1] for u in cited], "ns_key": keys, "dedup_key": keys, "dedup_rules": [""] * len(cited),
    }), path, row_group_size=4096)


def test_dedupe_index_memory_does_not_grow_with_urns_cited_in_one_spelling(tmp_path):
    """Four times the distinct URNs, each in one spelling: the Python
    memory dedupe_index takes to list the groups of several spellings stays
    the same (the distinct pairs of key and spelling are Arrow's columns),
    where gathering every group grows fourfold."""
    import tracemalloc

    from urnscan.frame import dedupe_index

    def peak(distinct: int, min_spellings: int):
        path = tmp_path / f"d{distinct}.parquet"
        if not path.exists():
            _distinct_index(path, distinct)
        tracemalloc.start()
        try:
            groups = dedupe_index(path, "ns", min_spellings=min_spellings, batch_rows=2048)
            return tracemalloc.get_traced_memory()[1], groups
        finally:
            tracemalloc.stop()

    small, few = peak(10_000, 2)
    large, many = peak(40_000, 2)
    assert list(many["group_key"]) == list(few["group_key"]) == ["urn:ietf:rfc:2141"]
    assert large < 1.5 * small
    every_small, _ = peak(10_000, 1)
    every_large, every = peak(40_000, 1)
    assert len(every) == 40_001 and every_large > 2 * every_small


_SPELLINGS = {  # group key: its spellings (the key itself among them or not)
    "urn:ietf:rfc:2141": ["urn:ietf:rfc:2141", "URN:IETF:rfc:2141", "urn:IETF:rfc:2141"],
    "urn:ietf:params:xml:ns:XMPP-Bind": ["urn:ietf:params:xml:ns:XMPP-Bind"],
    "urn:ietf:params:xml:ns:xmpp-bind": ["urn:ietf:params:xml:ns:xmpp-bind", "URN:ietf:params:xml:ns:xmpp-bind"],
    "urn:isbn:9780395363416": ["urn:isbn:9780395363416", "urn:isbn:0-395-36341-1"],
    "urn:example:a": ["urn:example:a", "URN:EXAMPLE:a"],
    "urn:example:A": ["urn:example:A"],
    "urn:nbn:de:1": ["URN:NBN:DE:1"],
    "urn:uuid:0": ["urn:uuid:0"],
}


@settings(deadline=None, max_examples=60)
@given(st.lists(st.tuples(st.sampled_from(sorted(_SPELLINGS)), st.integers(0, 2), st.booleans()), max_size=60),
       st.integers(1, 9), st.integers(2, 3), st.booleans(), st.sampled_from(["key", "ns", "heuristic"]))
def test_dedupe_index_lists_the_groups_dedupe_lists(tmp_path_factory, cited, batch_rows, min_spellings, examples,
                                                    level):
    """Whatever the hits (keys in one spelling or several, case variants,
    examples, invalid hits), the batch size and how often the pairs of the
    first pass are made distinct again, dedupe_index lists the groups
    dedupe lists of the whole frame."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from urnscan import frame

    rows = [(key, _SPELLINGS[key][n % len(_SPELLINGS[key])], valid) for key, n, valid in cited]
    table = pa.table({
        "source": [f"doc-{i % 3}.txt" for i in range(len(rows))], "urn": [u for _, u, _ in rows],
        "key": [k if v else None for k, _, v in rows], "nid": [u.split(":")[1] for _, u, _ in rows],
        "ns_key": [k if v else None for k, _, v in rows], "dedup_key": [k if v else None for k, _, v in rows],
        "dedup_rules": ["" if v else None for _, _, v in rows],
    }, schema=pa.schema([(name, pa.string()) for name in DEDUPE_COLUMNS]))
    path = tmp_path_factory.mktemp("index") / "hits.parquet"
    pq.write_table(table, path)
    expected = _plain(dedupe(table.to_pandas(), level, min_spellings=min_spellings, examples=examples))
    held, frame._PAIRS_HELD = frame._PAIRS_HELD, 4
    try:
        got = _plain(frame.dedupe_index(path, level, min_spellings=min_spellings, examples=examples,
                                        batch_rows=batch_rows))
    finally:
        frame._PAIRS_HELD = held
    assert got == expected
