"""hits_to_record_batch (column-wise, judged columns built once per distinct
judgement) equals a row-by-row reference built by ``pa.RecordBatch.from_pylist``."""
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urnscan.model import Finding, Hit, Profile, Severity
from urnscan.namespaces.registry import NamespaceStatus
from urnscan.sinks.arrays import clean
from urnscan.sinks.schema import HIT_SCHEMA, hits_to_record_batch

#: text, with the lone surrogates that undecodable bytes become (surrogateescape)
TEXT = st.text(alphabet=st.one_of(st.characters(blacklist_categories=("Cs",)),
                                  st.characters(min_codepoint=0xDC80, max_codepoint=0xDCFF)), max_size=10)
OPTIONAL = st.one_of(st.none(), TEXT)
NAMES = st.sampled_from(["pair:quote", "trim:period", "fold:rfc", "embedded:url", "réglé", ""])

FINDING = st.builds(Finding, st.sampled_from(["nid-too-long", "bad-pct", "café"]),
                    st.sampled_from(list(Severity)), st.sampled_from(["too long", "über", "", "x\udc80"]),
                    st.one_of(st.none(), st.integers(0, 99)))

JUDGED = st.tuples(
    st.booleans(), st.booleans(), st.booleans(),  # valid, valid_rfc2141, valid_rfc8141
    OPTIONAL, OPTIONAL, OPTIONAL, OPTIONAL,  # canonical, key, nid, nss
    OPTIONAL, OPTIONAL, OPTIONAL,  # r-, q-, f-component
    st.lists(FINDING, max_size=3).map(tuple),
    st.one_of(st.sampled_from(list(NamespaceStatus)), st.sampled_from(["formal", "ünknown"])),
    OPTIONAL,  # ns_key
    st.one_of(st.sampled_from(list(Profile)), st.just("rfc8141")),
    OPTIONAL, OPTIONAL,  # dedup_key, dedup_rules
)


@st.composite
def hit_lists(draw):
    """Hits whose judged attributes come from a small pool (as a scan's do:
    one judgement per URN), so that they repeat."""
    pool = draw(st.lists(JUDGED, min_size=1, max_size=4))
    n = draw(st.integers(0, 30))
    hits = []
    for i in range(n):
        head = (draw(OPTIONAL), draw(OPTIONAL), draw(st.integers(0, 2 ** 40)), draw(st.integers(0, 2 ** 40)),
                draw(st.integers(1, 10 ** 6)), draw(st.integers(1, 10 ** 6)), draw(st.sampled_from(["bare", "wrapped"])),
                draw(st.booleans()), draw(st.booleans()), draw(TEXT), draw(TEXT), draw(TEXT),
                tuple(draw(st.lists(NAMES, max_size=3))), draw(OPTIONAL))
        hits.append(Hit(*head, *draw(st.sampled_from(pool))))
    return hits


def _stored(value):
    return clean(value) if isinstance(value, str) else value


def reference(hits):
    """The batch built row by row, by pyarrow's own conversion."""
    rows = []
    for h in hits:
        row = {name: _stored(v) for name, v in h._asdict().items()}
        row["stop"], row["col"] = row.pop("end"), row.pop("column")
        row["rules"] = [clean(r) for r in h.rules]
        row["findings"] = [clean(f.code) for f in h.findings]
        row["finding_messages"] = [clean(f.message) for f in h.findings]
        rows.append(row)
    return pa.RecordBatch.from_pylist(rows, schema=HIT_SCHEMA)


def _assert_same(got, expected):
    got.validate(full=True)
    assert got.schema == HIT_SCHEMA
    for name in HIT_SCHEMA.names:  # column by column, for a readable failure
        assert got.column(name).equals(expected.column(name)), name
    assert got.equals(expected)


@settings(deadline=None, max_examples=60)
@given(hit_lists())
def test_batch_equals_the_row_by_row_reference(hits):
    _assert_same(hits_to_record_batch(hits), reference(hits))


ISBN = Hit("a.txt", None, 4, 28, 1, 5, "bare", False, False, "urn:isbn:0451450523", "urn:isbn:0451450523",
           "urn:isbn:0451450523", (), None, True, True, True, "urn:isbn:0451450523", "urn:isbn:0451450523", "isbn",
           "0451450523", None, None, None, (), "formal", "urn:isbn:9780451450524", "rfc8141",
           "urn:isbn:9780451450524", "isbn-10-to-13")
BAD = ISBN._replace(urn="urn:x:", valid=False, canonical=None, key=None, nid="x", nss=None,
                    findings=(Finding("empty-nss", Severity.ERROR, "l'NSS est vide", 6),
                              Finding("nid-too-short", Severity.WARNING, "NID court", 4)),
                    namespace_status="unregistered", ns_key=None, dedup_key=None, dedup_rules=None)

TABLE = [
    ("one hit", [ISBN]),
    ("the same judgement twice", [ISBN, ISBN._replace(start=40, end=64)]),
    ("two judgements, interleaved", [ISBN, BAD, ISBN, BAD, BAD]),
    ("every column of a judgement null", [BAD._replace(nid=None)] * 3),
    ("a judgement that differs in one attribute only", [ISBN, ISBN._replace(profile="rfc2141"), ISBN]),
    ("equal judgements of other types", [ISBN, ISBN._replace(profile=Profile.RFC8141, namespace_status=NamespaceStatus.FORMAL)]),
    ("non-ASCII and undecodable text", [ISBN._replace(source="caf\udce9.txt", context="« urn:isbn:0451450523 »",
                                                      raw="urn:isbn:045\udcff", rules=("pair:«»",)), BAD]),
    ("a list of findings as a list", [BAD._replace(findings=list(BAD.findings)), BAD]),
    ("distinct judgements, the same findings", [BAD, BAD._replace(urn="urn:y:", nid="y"), ISBN,
                                                BAD._replace(urn="urn:z:", nid="z")]),
    ("empty lists beside full ones", [ISBN._replace(rules=("trim:period", "fold:rfc")), ISBN, BAD]),
]


@pytest.mark.parametrize("hits", [h for _, h in TABLE], ids=[name for name, _ in TABLE])
def test_batch_equals_the_reference_on_a_table(hits):
    _assert_same(hits_to_record_batch(hits), reference(hits))


def test_many_rows_of_few_judgements():
    hits = [ISBN._replace(start=i, end=i + 24, line=i + 1, source=f"f{i % 7}") if i % 3 else BAD
            for i in range(5000)]
    _assert_same(hits_to_record_batch(hits), reference(hits))
    _assert_same(hits_to_record_batch(hits[1:1000]), reference(hits[1:1000]))
