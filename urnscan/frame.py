"""pandas helpers: load an index, extract URNs from a text column, merge
duplicate citations.

Deduplication levels, from strict to loose (each merges at least what the
previous one merges):

* ``"key"`` -- URN-equivalence (RFC 8141 section 3): case of ``urn`` and of
  the NID, case of percent-encoding hex digits, r-/q-/f-components ignored;
* ``"ns"`` -- plus the equivalences each namespace registers (ISBN-10 and
  ISBN-13, UUID case, NBN prefix case, ...; :func:`urnscan.namespaces.ns_key`);
* ``"heuristic"`` -- plus heuristics beyond the registrations, each named
  (``h:...``) so a grouping can be audited (:func:`urnscan.namespaces.dedup_key`).
"""
from __future__ import annotations

import enum
import os
from typing import Dict, Iterable, List, NamedTuple, Optional, Tuple

import pandas as pd
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from .model import DEFAULT_PROFILE, Hit, Profile, upper_percent
from .namespaces import namespace_keys, ns_key_rules
from .namespaces._text import ascii_lower
from .scanner import DEFAULT_MAX_URN_LENGTH, scan_text
from .sinks.names import DEDUPE_COLUMNS
from .syntax import validate


class DedupeLevel(enum.StrEnum):
    """How loosely :func:`dedupe` merges, strict to loose (module docstring)."""

    KEY = "key"
    NS = "ns"
    HEURISTIC = "heuristic"


LEVELS: Tuple[DedupeLevel, ...] = tuple(DedupeLevel)

def _dataset(path: str):
    return ds.dataset(_index_files(path), format="parquet")


def _index_files(path: str) -> List[str]:
    """The Parquet files of the index at ``path``: itself, or the parts of a
    dataset directory in order."""
    if os.path.isdir(path):
        files = sorted(os.path.join(path, f) for f in os.listdir(path)
                       if f.startswith("hits-") and f.endswith(".parquet"))
        if not files:
            raise FileNotFoundError(f"{path}: no hits-*.parquet parts in this directory")
        return files
    return [path]


def read_index(path: str, columns: Optional[List[str]] = None) -> pd.DataFrame:
    """An index (a Parquet file or a dataset directory written by ``urnscan
    scan``) as a DataFrame; repeated values (source, form, nid, ...) come
    back as categoricals."""
    frame = _dataset(os.fspath(path)).to_table(columns=columns).to_pandas()
    if "source" in frame:  # a plain string column in the file (it joins the files table)
        frame["source"] = frame["source"].astype("category")
    return frame


def read_files_table(path: str) -> pd.DataFrame:
    """The per-input status table of an index."""
    from .sinks.layout import FILES_TABLE_NAME, LEGACY_FILES_TABLE_NAME

    path = os.fspath(path)
    if os.path.isdir(path):
        files_path = os.path.join(path, FILES_TABLE_NAME)
        if not os.path.exists(files_path):
            files_path = os.path.join(path, LEGACY_FILES_TABLE_NAME)
    else:
        stem = path[:-len(".parquet")] if path.endswith(".parquet") else path
        files_path = stem + ".files.parquet"
    return pq.read_table(files_path).to_pandas()


def scan_series(series: pd.Series, *, profile: str = DEFAULT_PROFILE, trim: bool = True, fold: bool = True,
                max_urn_length: int = DEFAULT_MAX_URN_LENGTH) -> pd.DataFrame:
    """Extract URNs from a text column: one row per hit, the index schema's
    columns plus ``doc`` (the series' index label); offsets are character
    offsets into each text.  Missing values are skipped."""
    from .sinks.schema import hits_to_record_batch

    hits: List[Hit] = []
    docs: list = []
    for label, text in series.items():
        if text is None or (isinstance(text, float) and pd.isna(text)):
            continue
        if isinstance(text, bytes):
            text = text.decode("utf-8", "surrogateescape")
        found = list(scan_text(str(text), source=str(label), profile=profile, trim=trim, fold=fold,
                               max_urn_length=max_urn_length))
        hits.extend(found)
        docs.extend([label] * len(found))
    frame = hits_to_record_batch(hits).to_pandas()
    frame.insert(0, "doc", pd.Series(docs, dtype=series.index.dtype if len(docs) else object))
    return frame


def _level(level: str) -> DedupeLevel:
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}")
    return DedupeLevel(level)


def _missing(value: object) -> bool:
    return value is None or (isinstance(value, float) and pd.isna(value))


def group_keys(keys: Iterable[Optional[str]], level: str, cache: Optional[dict] = None
               ) -> Tuple[List[Optional[str]], List[Tuple[str, ...]]]:
    """The grouping key and the namespace rules applied, per equivalence key
    (computed: the namespace rules run once per distinct key; ``cache``, a
    dict kept from call to call for one level, makes that once for them all)."""
    level = _level(level)
    out_keys: List[Optional[str]] = []
    out_rules: List[Tuple[str, ...]] = []
    if cache is None:
        cache = {}
    for key in keys:
        if _missing(key):
            out_keys.append(None)
            out_rules.append(())
            continue
        got = cache.get(key)
        if got is None:
            if level == DedupeLevel.KEY:
                got = (key, ())
            else:
                keys_of = namespace_keys(key)
                got = keys_of[:2] if level == DedupeLevel.NS else keys_of[2:]
            cache[key] = got
        out_keys.append(got[0])
        out_rules.append(tuple(got[1]))
    return out_keys, out_rules


def _stored_group_keys(valid: pd.DataFrame, level: DedupeLevel, rules: dict
                       ) -> Optional[Tuple[List[Optional[str]], List[Tuple[str, ...]]]]:
    """:func:`group_keys` from the keys the index stores (``ns_key``,
    ``dedup_key`` and ``dedup_rules``, written by the scan); ``None`` when the
    frame lacks them.  Only an ns-level key that differs from the equivalence
    key runs the namespace rules, once per distinct key, for their names
    (``dedup_rules`` mixes them with the rules heuristics triggered);
    ``rules`` keeps those names from call to call."""
    if level == DedupeLevel.KEY:
        keys = valid["key"].astype(object).tolist()
        return keys, [()] * len(keys)
    if level == DedupeLevel.NS and "ns_key" in valid:
        out_keys, out_rules = [], []
        for key, stored in zip(valid["key"].astype(object), valid["ns_key"].astype(object)):
            if _missing(stored):
                stored, named = namespace_keys(key)[:2]
            elif stored == key:
                named = ()
            else:
                named = rules.get(key)
                if named is None:
                    named = rules[key] = ns_key_rules(key)
            out_keys.append(stored)
            out_rules.append(named)
        return out_keys, out_rules
    if level == DedupeLevel.HEURISTIC and "dedup_key" in valid and "dedup_rules" in valid:
        out_keys, out_rules = [], []
        for key, stored, named in zip(valid["key"].astype(object), valid["dedup_key"].astype(object),
                                      valid["dedup_rules"].astype(object)):
            if _missing(stored):
                stored, rules_of = namespace_keys(key)[2:]
            else:
                rules_of = tuple(named.split(",")) if isinstance(named, str) and named else ()
            out_keys.append(stored)
            out_rules.append(rules_of)
        return out_keys, out_rules
    return None


def _generic_reasons(spellings: List[str]) -> List[str]:
    """Which RFC 8141 section 3.1 normalisations tell the spellings apart:
    ``scheme-case`` (step 1, "urn" is case-insensitive), ``nid-case`` (step 2),
    ``percent-case`` (step 3, hex digits of percent-encoding) and
    ``components-ignored`` (r-, q- and f-components play no part)."""
    parsed = []
    for s in spellings:
        verdict = validate(s, Profile.RFC8141)
        if verdict.urn is not None:
            parsed.append(verdict.urn)
    reasons = []
    if len({u.scheme for u in parsed}) > 1:
        reasons.append("scheme-case")
    if len({u.nid for u in parsed}) > 1:
        reasons.append("nid-case")
    if len({u.nss for u in parsed}) > len({upper_percent(u.nss) for u in parsed}):
        reasons.append("percent-case")
    if any(u.r_component is not None or u.q_component is not None or u.f_component is not None for u in parsed):
        reasons.append("components-ignored")
    return reasons


#: RFC 6963 §3: the NID reserved for documentation; its URNs name nothing
EXAMPLE_NID = "example"


def is_example(df: pd.DataFrame) -> pd.Series:
    """Which hits of ``df`` are in the documentation namespace."""
    return df["nid"].astype(object).str.lower() == EXAMPLE_NID


def dedupe(df: pd.DataFrame, level: str = "ns", *, min_spellings: int = 1, examples: bool = True) -> pd.DataFrame:
    """Group the valid hits of an index by the resource they name.

    One row per group: ``group_key``, ``nid``, ``count`` (citations),
    ``n_spellings`` and ``spellings`` (distinct ``urn`` strings, most cited
    first), ``spelling_counts``, ``n_documents`` and ``documents``,
    ``rules`` (why the spellings were merged: RFC 8141 normalisations and the
    namespace rules applied), ``heuristic`` (whether a heuristic rule was
    needed) and ``case_variants`` (the other groups whose key differs from
    this one's only in case: probable duplicates that the level does not
    merge, such as ``urn:ietf:params:xml:ns:XMPP-Bind`` beside ``...:xmpp-bind``,
    RFC 3553 §3 comparing ``params`` names exactly; namespaces.md §3.1).
    A group with case variants is listed whatever ``min_spellings``.  Sorted
    by ``count``, then ``group_key``.  ``examples=False`` leaves out the
    URNs of the documentation namespace ``urn:example:`` (RFC 6963 §3;
    namespaces.md §1: out of the dedup statistics); the frame's
    ``attrs["examples_left_out"]`` says how many valid hits that was.
    :func:`dedupe_index` gives the same groups from an index on disk,
    read a batch at a time.
    """
    gathering = Gathering(level, examples)
    gathering.add(df)
    return gathering.groups_frame(min_spellings)


#: rows of an index :func:`dedupe_index` reads at a time (a scan writes
#: row groups of 16,384: sinks.parquet.DEFAULT_BATCH_ROWS)
DEDUPE_BATCH_ROWS = 65536


def dedupe_index(path: str, level: str = "ns", *, min_spellings: int = 1, examples: bool = True,
                 batch_rows: int = DEDUPE_BATCH_ROWS) -> pd.DataFrame:
    """:func:`dedupe` of the index at ``path`` (a Parquet file or a dataset
    directory written by ``urnscan scan``), read ``batch_rows`` rows at a
    time, of the :data:`DEDUPE_COLUMNS` it has: memory grows with the
    groups listed and the documents citing them, not with the hits (the
    whole index in a DataFrame takes some 3 KB a hit).

    With ``min_spellings`` above 1, a first pass in Arrow finds the groups
    to list (those with that many spellings, and those with case variants)
    from the distinct pairs of group key and spelling, and only their hits
    are gathered: an index of millions of distinct URNs cited once each
    holds its pairs in Arrow's columns (a few dozen bytes a pair), not
    Python objects for each group.  An index without the stored group keys
    (written by an older version) is gathered in one pass."""
    level = _level(level)
    files = _index_files(os.fspath(path))
    listed = _listed_groups(files, level, min_spellings, examples, batch_rows) if min_spellings > 1 else None
    gathering = Gathering(level, examples)
    for part in files:
        # a file a row group at a time (a dataset scan reads ahead, on threads: 80 MB more)
        with pq.ParquetFile(part) as reader:
            names = set(reader.schema_arrow.names)
            read = [c for c in DEDUPE_COLUMNS if c in names]
            for batch in reader.iter_batches(batch_size=batch_rows, columns=read, use_threads=False):
                if listed is not None:
                    batch = batch.filter(listed.holds(batch))
                    if not batch.num_rows:
                        continue
                gathering.add(batch.to_pandas())
    if listed is not None:
        gathering.examples_left_out = listed.examples_left_out
    return gathering.groups_frame(min_spellings)


#: the index column that holds each level's group key, as the scan stores it
_GROUP_KEY_COLUMN = {DedupeLevel.KEY: "key", DedupeLevel.NS: "ns_key", DedupeLevel.HEURISTIC: "dedup_key"}
#: pairs of group key and spelling held before they are made distinct again
_PAIRS_HELD = 1 << 20


class _ListedGroups(NamedTuple):
    """The group keys :func:`dedupe_index` lists, found by its first pass."""

    column: str
    keys: object  # a pyarrow array of group keys
    examples_left_out: int

    def holds(self, batch):
        """Which rows of ``batch`` belong to a listed group."""
        import pyarrow.compute as pc

        return pc.fill_null(pc.is_in(_strings(batch.column(self.column)), value_set=self.keys), False)


def _listed_groups(files: List[str], level: DedupeLevel, min_spellings: int, examples: bool,
                   batch_rows: int) -> Optional[_ListedGroups]:
    """The keys of the groups of several spellings and of those with case
    variants (a superset of what :meth:`Gathering.groups_frame` lists for
    ``min_spellings`` of 2 or more), from the stored group keys; None when
    a valid hit has no stored key (an older index: the keys are computed in
    Python, by :class:`Gathering`).

    The distinct pairs (group key, spelling) of each batch are kept, the
    spelling null where it is the key itself (most URNs are written as
    their key), and made distinct again, sorted, once they are twice as
    many as the last time (at least :data:`_PAIRS_HELD`): memory grows
    with the distinct pairs, and the work with the hits.  Sorting takes a
    few times the memory of the pairs, less than Arrow's hash grouping of
    them (the 1.8 million of the benchmark's catalogue: 540 MB at the
    peak, against 750 MB)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    column = _GROUP_KEY_COLUMN[level]
    pairs: List[pa.Table] = []
    held = left_out = 0
    limit = _PAIRS_HELD
    for part in files:
        with pq.ParquetFile(part) as reader:
            names = set(reader.schema_arrow.names)
            if not {"key", "urn", "nid", column} <= names or (level == DedupeLevel.HEURISTIC
                                                               and "dedup_rules" not in names):
                return None
            for batch in reader.iter_batches(batch_size=batch_rows, columns=list(dict.fromkeys(
                    ("key", "urn", "nid", column))), use_threads=False):
                valid = pc.is_valid(batch.column("key"))
                if not examples:
                    nids = pc.ascii_lower(_strings(batch.column("nid")))
                    example = pc.and_(valid, pc.fill_null(pc.equal(nids, EXAMPLE_NID), False))
                    left_out += pc.sum(example.cast(pa.int64())).as_py() or 0
                    valid = pc.and_(valid, pc.invert(example))
                keys = _strings(batch.column(column))
                if pc.any(pc.and_(valid, pc.is_null(keys))).as_py():
                    return None
                urns = _strings(batch.column("urn"))
                spelled = pc.if_else(pc.equal(urns, keys), pa.scalar(None, pa.string()), urns)
                found = pa.table({"g": keys, "u": spelled}).filter(valid)
                pairs.append(found.group_by(["g", "u"]).aggregate([]))
                held += pairs[-1].num_rows
                if held > limit:
                    pairs = [_sorted_distinct(pairs)]
                    held = pairs[0].num_rows
                    limit = max(limit, 2 * held)
    distinct = _sorted_distinct(pairs)
    g, u = distinct.column("g"), distinct.column("u")
    # sorted by key, then spelling: a key of several spellings follows itself
    several = g.filter(pc.and_(_same_as_before(g), pc.invert(_same_as_before(u))))
    unique = g.filter(pc.invert(_same_as_before(g)))
    return _ListedGroups(column, pa.concat_arrays([_one_array(several), _case_variant_keys(unique)]), left_out)


def _case_variant_keys(keys):
    """The ``keys`` (distinct) equal to another of them but for ASCII case
    (:func:`_case_variants`), as one array."""
    import pyarrow.compute as pc

    lowered = pc.ascii_lower(keys)
    shared = lowered.take(pc.sort_indices(lowered))
    shared = shared.filter(_same_as_before(shared))
    return _one_array(keys.filter(pc.is_in(lowered, value_set=_one_array(shared))))


def _sorted_distinct(pairs):
    """The distinct rows of the tables ``pairs`` (columns g and u), sorted."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not pairs:
        return pa.table({"g": pa.array([], pa.string()), "u": pa.array([], pa.string())})
    table = pa.concat_tables(pairs).combine_chunks()
    table = table.take(pc.sort_indices(table, sort_keys=[("g", "ascending"), ("u", "ascending")]))
    g, u = table.column("g"), table.column("u")
    return table.filter(pc.invert(pc.and_(_same_as_before(g), _same_as_before(u))))


def _same_as_before(column):
    """Row by row, whether ``column`` holds the value of the row before
    (row 0: no)."""
    import pyarrow as pa

    import pyarrow.compute as pc

    column = _one_array(column)
    n = len(column)
    if not n:
        return pa.array([], pa.bool_())
    before = pa.concat_arrays([column.slice(0, 1), column.slice(0, n - 1)])  # (row 0 beside itself)
    not_first = pa.concat_arrays([pa.array([False]), pa.repeat(True, n - 1)])
    return pc.and_(_equal(column, before), not_first)


def _one_array(column):
    """A chunked array as one array."""
    import pyarrow as pa

    return column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column


def _equal(a, b):
    """Row by row, whether ``a`` and ``b`` hold the same value (two nulls
    are the same; a null and a value are not)."""
    import pyarrow.compute as pc

    return pc.coalesce(pc.equal(a, b), pc.and_(pc.is_null(a), pc.is_null(b)))


def _strings(column):
    """A column of strings as plain strings (a dictionary column decoded)."""
    import pyarrow as pa

    return column if column.type == pa.string() else column.cast(pa.string())


class Gathering:
    """The groups of :func:`dedupe`, gathered from frames of hits given one
    after the other (:meth:`add`); the result does not depend on how the
    hits are cut into frames."""

    def __init__(self, level: str, examples: bool):
        self.level = _level(level)
        self.examples = examples
        self.examples_left_out = 0
        self.groups: Dict[str, _Group] = {}
        # one string a document for every group citing it, and the keys
        # computed once for the whole index, not once a frame
        self._documents: Dict[str, str] = {}
        self._computed: dict = {}
        self._named: dict = {}

    def add(self, df: pd.DataFrame) -> None:
        """Gather the valid hits of ``df`` (columns as :data:`DEDUPE_COLUMNS`)."""
        valid = df[df["key"].notna()]
        if not self.examples:
            example = is_example(valid)
            self.examples_left_out += int(example.sum())
            valid = valid[~example]
        stored = _stored_group_keys(valid, self.level, self._named)
        keys, rules = stored if stored is not None else group_keys(valid["key"].astype(object).tolist(),
                                                                   self.level, self._computed)
        sources = valid["source"].astype(object).tolist() if "source" in valid else [None] * len(keys)
        self._gather(keys, valid["urn"].astype(object).tolist(), sources,
                     valid["nid"].astype(object).str.lower().tolist(), rules)

    def _gather(self, keys, urns, sources, nids, rules) -> None:
        """One pass over the rows (a pandas group a key costs a hundred
        times as much on an index of many distinct URNs)."""
        groups, documents = self.groups, self._documents
        for gk, urn, source, nid, named in zip(keys, urns, sources, nids, rules):
            group = groups.get(gk)
            if group is None:
                group = groups[gk] = _Group(nid)
            group.count += 1
            group.spellings[urn] = group.spellings.get(urn, 0) + 1
            if not _missing(source):  # (None, or NaN: a categorical's missing value)
                group.documents.add(documents.setdefault(source, source))
            if named:
                group.rules.update(named)

    def groups_frame(self, min_spellings: int = 1) -> pd.DataFrame:
        """The groups gathered, as :func:`dedupe` gives them."""
        variants = _case_variants(list(self.groups))
        rows = []
        for gk, group in self.groups.items():
            # spellings most cited first, ties in the order they were met
            counts = sorted(group.spellings.items(), key=lambda item: -item[1])
            spellings = [spelling for spelling, _ in counts]
            if len(spellings) < min_spellings and gk not in variants:
                continue
            applied = sorted(group.rules)
            merged = len(spellings) > 1  # (one spelling: no rule merged anything)
            documents = sorted(group.documents)
            rows.append({
                "group_key": gk, "nid": group.nid, "count": group.count,
                "n_spellings": len(spellings), "spellings": spellings, "spelling_counts": [n for _, n in counts],
                "n_documents": len(documents), "documents": documents,
                "rules": _generic_reasons(spellings) + applied if merged else [],
                "heuristic": merged and any(r.startswith("h:") for r in applied),
                "case_variants": variants.get(gk, []),
            })
        columns = ["group_key", "nid", "count", "n_spellings", "spellings", "spelling_counts", "n_documents",
                   "documents", "rules", "heuristic", "case_variants"]
        out = pd.DataFrame(rows, columns=columns)
        if len(out):
            out = out.sort_values(["count", "group_key"], ascending=[False, True],
                                  kind="stable").reset_index(drop=True)
        out.attrs["level"] = str(self.level)
        out.attrs["examples_left_out"] = self.examples_left_out
        return out


class _Group:
    """What a group of hits gathers: its first NID, how many hits, each
    spelling's count (in the order met), the documents and the rules."""

    __slots__ = ("nid", "count", "spellings", "documents", "rules")

    def __init__(self, nid):
        self.nid = nid
        self.count = 0
        self.spellings: Dict[str, int] = {}
        self.documents: set = set()
        self.rules: set = set()


def _case_variants(keys: List[str]) -> Dict[str, List[str]]:
    """For each of ``keys`` that others equal but for ASCII case, those
    others (sorted)."""
    buckets: Dict[str, List[str]] = {}
    for key in keys:
        buckets.setdefault(ascii_lower(key), []).append(key)
    return {key: sorted(k for k in same if k != key)
            for same in buckets.values() if len(same) > 1 for key in same}


def summary_by_namespace(df: pd.DataFrame) -> pd.DataFrame:
    """Hits, valid hits, distinct keys and documents per NID (lower-cased)."""
    work = pd.DataFrame({
        "nid": df["nid"].astype(object).str.lower(),
        "valid": df["valid"].astype(bool),
        "key": df["key"].astype(object),
        "source": df["source"].astype(object),
        "status": df["namespace_status"].astype(object),
    })
    g = work.groupby("nid", dropna=False)
    out = pd.DataFrame({
        "status": g["status"].first(),
        "hits": g.size(),
        "valid": g["valid"].sum(),
        "distinct": g["key"].nunique(),
        "documents": g["source"].nunique(),
    })
    return out.sort_values(["hits"], ascending=False)

