"""The sink's arrays, built from buffers, equal what ``pa.array`` builds."""
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urnscan.sinks.arrays import NAME_LISTS, dictionary, factorize, fixed, name_lists, strings, take

TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)


@settings(deadline=None)
@given(st.lists(st.one_of(st.none(), TEXT)))
def test_strings(values):
    got = strings(values)
    got.validate(full=True)
    assert got.equals(pa.array(values, pa.string()))


@settings(deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(-(2 ** 63), 2 ** 63 - 1))))
def test_int64(values):
    assert fixed(values, pa.int64()).equals(pa.array(values, pa.int64()))


@settings(deadline=None)
@given(st.lists(st.one_of(st.none(), st.booleans())))
def test_bools(values):
    got = fixed(values, pa.bool_())
    got.validate(full=True)
    assert got.equals(pa.array(values, pa.bool_()))


@settings(deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(-(2 ** 63), 2 ** 63 - 1))), st.booleans())
def test_fixed_without_nulls(values, as_bools):
    """``nullable=False``: the same array when there is no null, and a
    TypeError (never a silent false or zero) when there is one."""
    type_ = pa.bool_() if as_bools else pa.int64()
    if as_bools:
        values = [None if v is None else v % 2 == 0 for v in values]
    if None in values:
        with pytest.raises(TypeError):
            fixed(values, type_, nullable=False)
    else:
        assert fixed(values, type_, nullable=False).equals(pa.array(values, type_))


@settings(deadline=None)
@given(st.lists(st.one_of(st.none(), st.sampled_from(["a", "b", "é", ""]))))
def test_dictionary(values):
    got = dictionary(values)
    got.validate(full=True)
    assert got.to_pylist() == values
    assert got.equals(pa.array(values, pa.string()).dictionary_encode())


@settings(deadline=None)
@given(st.lists(st.lists(st.sampled_from(["a", "b", "é", ""]), max_size=3)))
def test_name_lists(rows):
    got = name_lists(rows)
    got.validate(full=True)
    assert got.equals(pa.array(rows, NAME_LISTS))


@pytest.mark.parametrize("rows, expected", [
    ([], ([], None)),
    (["a", "b"], (["a", "b"], None)),
    (["a", "b", "a", "a"], (["a", "b"], [0, 1, 0, 0])),
    ([("x",), (), ("x",)], ([("x",), ()], [0, 1, 0])),
    ([2, 1, 2, 1, 3], ([2, 1, 3], [0, 1, 0, 1, 2])),
])
def test_factorize(rows, expected):
    assert factorize(rows) == expected


@settings(deadline=None)
@given(st.lists(st.integers(0, 5)))
def test_factorize_takes_back_every_row(rows):
    distinct, codes = factorize(rows)
    assert distinct == list(dict.fromkeys(rows))
    assert (distinct if codes is None else [distinct[c] for c in codes]) == rows


def test_name_lists_of_lists_and_tuples_alike():
    rows = [["a", "b"], ("a", "b"), [], ("c",), ["a", "b"]]
    assert name_lists(rows).equals(pa.array([list(r) for r in rows], NAME_LISTS))


def test_lone_surrogates_are_escaped():
    assert strings(["a\udcff", None]).to_pylist() == ["a\\xff", None]
    # escaped bytes that make a character: its length counts in bytes
    got = strings(["\udcc2\udc80", "b"])
    got.validate(full=True)
    assert got.to_pylist() == ["\x80", "b"]


def test_long_dictionary():
    values = [None if i % 7 == 0 else f"v{i % 13}é" for i in range(3000)]
    got = dictionary(values)
    assert got.equals(pa.array(values, pa.string()).dictionary_encode()) and got.to_pylist() == values


COLUMNS = [
    lambda: strings(["a", None, "été", "", "b"]),
    lambda: strings([None, None, None, None, None]),
    lambda: fixed([1, None, -3, 2 ** 40, 0], pa.int64()),
    lambda: fixed([True, False, None, True, False], pa.bool_()),
    lambda: dictionary(["x", None, "y", "x", "ü"]),
    lambda: dictionary([None] * 5),
    lambda: name_lists([("a", "b"), (), ("é",), ("b",), ()]),
]


@settings(deadline=None)
@given(st.sampled_from(COLUMNS), st.lists(st.integers(0, 4), max_size=40))
def test_take_equals_arrow_take(column, rows):
    array = column()
    got = take(array, rows)
    got.validate(full=True)
    assert got.equals(array.take(pa.array(rows, pa.int64())))


@settings(deadline=None)
@given(st.lists(st.booleans()), st.integers(0, 20), st.integers(0, 20))
def test_true_runs_and_int64_values_of_a_slice(flags, skip, cut):
    """A column sliced at any offset, as pieces of hits are."""
    from urnscan.sinks.arrays import int64_values, true_runs

    column = fixed(flags, pa.bool_()).slice(skip, max(0, len(flags) - skip - cut))
    kept = [i for i, flag in enumerate(column.to_pylist()) if flag]
    assert [a + k for a, n in true_runs(column) for k in range(n)] == kept
    assert all(n > 0 for _, n in true_runs(column))
    numbers = [i * 7 - 3 for i in range(len(flags))]
    ints = fixed(numbers, pa.int64()).slice(skip, max(0, len(flags) - skip - cut))
    assert list(int64_values(ints)) == ints.to_pylist()


@settings(deadline=None)
@given(st.lists(st.booleans(), max_size=30), st.integers(0, 5))
def test_keep_valid_equals_arrow_filter(flags, skip):
    from urnscan.pieces import ARROW_PIECES

    batch = pa.RecordBatch.from_arrays([fixed(flags, pa.bool_()), fixed(list(range(len(flags))), pa.int64())],
                                       names=["valid", "n"]).slice(skip)
    got = ARROW_PIECES.keep_valid(batch)
    assert got.to_pylist() == batch.filter(batch.column("valid")).to_pylist()
