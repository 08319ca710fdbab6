"""The sink's arrays, built from buffers, equal what ``pa.array`` builds."""
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from urnscan.sinks.schema import _array, _dictionary

TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)


@settings(deadline=None)
@given(st.lists(st.one_of(st.none(), TEXT)))
def test_strings(values):
    got = _array(values, pa.string())
    got.validate(full=True)
    assert got.equals(pa.array(values, pa.string()))


@settings(deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(-(2 ** 63), 2 ** 63 - 1))))
def test_int64(values):
    assert _array(values, pa.int64()).equals(pa.array(values, pa.int64()))


@settings(deadline=None)
@given(st.lists(st.one_of(st.none(), st.booleans())))
def test_bools(values):
    got = _array(values, pa.bool_())
    got.validate(full=True)
    assert got.equals(pa.array(values, pa.bool_()))


@settings(deadline=None)
@given(st.lists(st.one_of(st.none(), st.sampled_from(["a", "b", "é", ""]))))
def test_dictionary(values):
    got = _dictionary(values)
    got.validate(full=True)
    assert got.to_pylist() == values
    assert got.equals(pa.array(values, pa.string()).dictionary_encode())


def test_lone_surrogates_are_escaped():
    from urnscan.sinks.schema import _strings

    assert _strings(["a\udcff", None]).to_pylist() == ["a\\xff", None]


def test_dictionary_long_and_short_agree(monkeypatch):
    import urnscan.sinks.schema as schema

    values = [None if i % 7 == 0 else f"v{i % 13}é" for i in range(3000)]
    long = _dictionary(values)
    monkeypatch.setattr(schema, "_COMPUTE_FROM", 1 << 30)
    short = _dictionary(values)
    assert long.equals(short) and long.to_pylist() == values
