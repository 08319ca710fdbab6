"""Arrow arrays from Python values, built from buffers.

``pa.array`` of a Python list imports pandas (0.3 s of start-up) to ask
whether the list is one of pandas' objects, and ``dictionary_encode`` and
``take`` load ``pyarrow.compute``; the arrays here are assembled from
buffers with the standard library's :mod:`array`, which loads neither, is
quicker, and needs no NumPy (so ``urnscan scan`` can load pyarrow without
it: :mod:`urnscan.sinks.loading`).

* :func:`strings`, :func:`fixed` (int64, int32, bool), :func:`dictionary`
  (``dictionary<int32, string>``, values in order of first appearance, as
  ``dictionary_encode`` gives) and :func:`name_lists` (``list<string>``)
  build a column;
* :func:`take` repeats the rows of such a column: a column that is a
  function of a few distinct rows (:func:`factorize`) is built once per
  distinct row, then taken.
"""
from __future__ import annotations

from array import array
from itertools import accumulate
from typing import Any, List, Optional, Sequence, Tuple

import pyarrow as pa

from ..accel import accelerated
from ..errors import SinkError

__all__ = ["DICT", "NAME_LISTS", "clean", "strings", "fixed", "dictionary", "name_lists", "factorize", "take",
           "int64_values", "true_runs"]

DICT = pa.dictionary(pa.int32(), pa.string())
#: lists of names (reading rules, finding codes and messages).  Plain
#: strings, not dictionary ones: pyarrow reads a list of dictionary values
#: back from a Parquet file of several row groups only whole
#: (``pq.read_table``); ``ParquetFile.iter_batches()`` and ``.read()`` fail
#: with "Nested data conversions not implemented for chunked array
#: outputs".  Parquet dictionary-encodes the names on disk all the same
#: (urnscan.sinks.writer.dictionary_paths).
NAME_LISTS = pa.list_(pa.field("element", pa.string(), nullable=False))

_FILLERS = {pa.string(): "", pa.bool_(): False, pa.int64(): 0, pa.int32(): 0}
#: string and list offsets are int32
_MAX_OFFSET = (1 << 31) - 1
#: the :mod:`array` type codes of Arrow's int32 and int64 (native order, as
#: Arrow's buffers in this process)
_INT32 = next(code for code in "ilh" if array(code).itemsize == 4)
_INT64 = next(code for code in "qlL" if array(code).itemsize == 8)
_CODES = {pa.int32(): _INT32, pa.int64(): _INT64}
#: a byte per flag (0: false, anything else: true) as a binary digit, and back
_TO_DIGITS = bytes.maketrans(bytes(range(256)), b"0" + b"1" * 255)
_FROM_DIGITS = bytes.maketrans(b"01", b"\x00\x01")


def clean(value: Optional[str]) -> Optional[str]:
    """A string Arrow can store: lone surrogates (undecodable bytes of a
    file name or of the input) become ``\\xNN`` escapes."""
    if value is None:
        return None
    return value.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _validity(values: List[Any]):
    """(validity buffer, null count) of a list that holds ``None``."""
    flags = bytes([v is not None for v in values])
    return _bits(flags), flags.count(0)


def _flag_bytes(flags: Sequence[Any]) -> bytes:
    """A byte per flag: the flag itself when it is a bool (or 0 to 255)."""
    if isinstance(flags, bytes):
        return flags
    try:
        return bytes(flags)
    except (TypeError, ValueError):
        return bytes(map(bool, flags))


def _bits(flags: Sequence[Any]) -> pa.Buffer:
    """The little-endian bitmap of ``flags`` (truth values): one binary
    number read from its digits, last flag first (linear: the base is a
    power of two)."""
    if not len(flags):
        return pa.py_buffer(b"")
    digits = _flag_bytes(flags)[::-1].translate(_TO_DIGITS)
    return pa.py_buffer(int(digits, 2).to_bytes((len(flags) + 7) // 8, "little"))


def _unbits(buffer: pa.Buffer, n: int) -> bytes:
    """The first ``n`` bits of a bitmap, a byte (0 or 1) each."""
    value = int.from_bytes(memoryview(buffer)[:(n + 7) // 8], "little")
    return format(value, f"0{n}b")[::-1][:n].encode("ascii").translate(_FROM_DIGITS)


def _numbers(buffer: pa.Buffer, code: str, n: int) -> array:
    """The first ``n`` fixed-width numbers of a buffer."""
    values = array(code)
    values.frombytes(memoryview(buffer)[:n * values.itemsize])
    return values


def int64_values(column: pa.Array) -> array:
    """The numbers of an int64 column without nulls (``to_numpy`` or
    ``to_pylist`` of a large one cost more, and the first loads pandas)."""
    return _numbers(column.buffers()[1], _INT64, column.offset + len(column))[column.offset:]


def true_runs(column: pa.Array) -> List[tuple]:
    """(start, length) of each run of true rows of a bool column without
    nulls, in order (to keep them without ``pyarrow.compute``'s filter)."""
    flags = _unbits(column.buffers()[1], column.offset + len(column))[column.offset:]
    runs, start = [], flags.find(1)
    while start >= 0:
        end = flags.find(0, start)
        if end < 0:
            end = len(flags)
        runs.append((start, end - start))
        start = flags.find(1, end)
    return runs


def int32_offsets(lengths: Sequence[int]) -> bytes:
    """The int32 offsets (native order, one more than ``lengths``) of
    consecutive pieces of ``lengths``; OverflowError past 2**31 - 1.

    ``urnscan/_accel.c`` holds a compiled version (:mod:`urnscan.accel`),
    as of the three functions below; ``NAME_py`` stays this one."""
    offsets = list(accumulate(lengths, initial=0))
    if lengths and min(lengths) < 0:
        raise ValueError("a length is negative")
    if offsets[-1] > _MAX_OFFSET:
        raise OverflowError("more than 2**31 - 1 bytes or items in one column")
    return array(_INT32, offsets).tobytes()


def string_buffers(values: List[str]) -> Tuple[bytes, bytes]:
    """(int32 offsets, UTF-8 data) of a list of str; UnicodeEncodeError
    for a lone surrogate."""
    text = "".join(values)
    data = text.encode("utf-8")
    if len(data) == len(text):
        lengths = list(map(len, values))
    else:  # not ASCII: the wide values' lengths in bytes
        lengths = [len(v) if v.isascii() else len(v.encode("utf-8")) for v in values]
    return int32_offsets(lengths), data


def take_fixed(data, width: int, codes: Sequence[int]) -> bytes:
    """The rows ``codes`` of ``data`` (a buffer of rows of ``width`` bytes)."""
    data = bytes(data)
    rows = [data[i:i + width] for i in range(0, len(data) - width + 1, width)]
    if codes and min(codes) < 0:
        raise IndexError("row number out of range")
    return b"".join(map(rows.__getitem__, codes))


def take_segments(offsets, data, width: int, codes: Sequence[int]) -> Tuple[bytes, bytes]:
    """(int32 offsets, data) of the rows ``codes`` of a variable-length
    column given by its int32 ``offsets`` (one more than its rows) and its
    ``data``, items of ``width`` bytes."""
    ends = array(_INT32)
    ends.frombytes(memoryview(offsets)[:len(offsets) // 4 * 4])
    data = bytes(data)
    pieces = [data[a * width:b * width] for a, b in zip(ends, ends[1:])]
    lengths = [b - a for a, b in zip(ends, ends[1:])]
    if codes and min(codes) < 0:
        raise IndexError("row number out of range")
    return int32_offsets([lengths[c] for c in codes]), b"".join(map(pieces.__getitem__, codes))


def transpose(rows: List[tuple], stop: int) -> List[list]:
    """The first ``stop`` columns of ``rows`` (tuples of at least ``stop``
    items), a list each."""
    if stop < 0:
        raise ValueError("transpose: stop must not be negative")
    if any(len(r) < stop for r in rows):
        raise TypeError(f"transpose: rows must be tuples of at least {stop} items")
    return [[r[k] for r in rows] for k in range(stop)]


def factorize_tails(rows: List[tuple], key: int, start: int):
    """:func:`factorize` of the pairs ``(row[key], row[start:])``, keeping
    the tails: the tail of each distinct pair in order of first appearance,
    and the index in them of each row, or None when every row is distinct.

    For rows whose items from ``start`` on follow from ``row[key]`` (a hit's
    judged fields from its URN), the compiled version hashes ``row[key]``
    alone and compares the tails item by item, which an item shared by the
    rows of one URN settles at once."""
    if key < 0 or start < 0:
        raise ValueError("factorize_tails: key and start must not be negative")
    if any(len(r) <= key or len(r) < start for r in rows):
        raise TypeError(f"factorize_tails: rows must be tuples of more than {key} and at least {start} items")
    pairs, codes = factorize([(r[key], r[start:]) for r in rows])
    return [tail for _, tail in pairs], codes


int32_offsets_py, string_buffers_py, take_fixed_py, take_segments_py, transpose_py, factorize_tails_py = (
    int32_offsets, string_buffers, take_fixed, take_segments, transpose, factorize_tails)
int32_offsets = accelerated(int32_offsets_py)
string_buffers = accelerated(string_buffers_py)
take_fixed = accelerated(take_fixed_py)
take_segments = accelerated(take_segments_py)
transpose = accelerated(transpose_py)
factorize_tails = accelerated(factorize_tails_py)


def _offsets(lengths: Sequence[int]) -> pa.Buffer:
    """int32 offsets of consecutive pieces of ``lengths``."""
    try:
        return pa.py_buffer(int32_offsets(lengths))
    except OverflowError:
        raise SinkError(f"more than {_MAX_OFFSET} bytes or items in one column of a batch") from None


def strings(values: Sequence[Optional[str]]) -> pa.Array:
    """A ``string`` array; lone surrogates are escaped (:func:`clean`)."""
    values = list(values)
    n = len(values)
    validity, nulls = None, 0
    if None in values:
        validity, nulls = _validity(values)
        values = ["" if v is None else v for v in values]
    try:
        try:
            offsets, data = string_buffers(values)
        except UnicodeEncodeError:
            offsets, data = string_buffers([clean(v) for v in values])
    except OverflowError:
        raise SinkError(f"more than {_MAX_OFFSET} bytes in one column of a batch") from None
    return pa.Array.from_buffers(pa.string(), n, [validity, pa.py_buffer(offsets), pa.py_buffer(data)], nulls)


def fixed(values: Sequence[Any], type_: pa.DataType, nullable: bool = True) -> pa.Array:
    """An int64, int32 or bool array; with ``nullable=False`` the values
    are not looked through for nulls first, and a ``None`` among them
    raises TypeError."""
    values = values if type(values) is list else list(values)
    n = len(values)
    validity, nulls = None, 0
    if nullable and None in values:
        validity, nulls = _validity(values)
        filler = _FILLERS[type_]
        values = [filler if v is None else v for v in values]
    if type_ == pa.bool_():
        data = _bits(values if nullable else bytes(values))  # (bytes() takes no None)
    else:
        data = pa.py_buffer(array(_CODES[type_], values))
    return pa.Array.from_buffers(type_, n, [validity, data], nulls)


def dictionary(values: Sequence[Optional[str]]) -> pa.Array:
    """A ``dictionary<int32, string>`` array, values in order of first
    appearance (as ``dictionary_encode`` gives)."""
    values = values if isinstance(values, list) else list(values)
    if values and values[0] is None and values.count(None) == len(values):
        return pa.DictionaryArray.from_arrays(pa.nulls(len(values), pa.int32()), strings([]))
    code = dict.fromkeys(values)  # first appearance order
    nulls = None in code
    if nulls:
        del code[None]
    for i, v in enumerate(code):
        code[v] = i
    words = list(code)
    validity, null_count = None, 0
    if nulls:
        validity, null_count = _validity(values)
        code[None] = 0  # under a null bit
    indices = array(_INT32, map(code.__getitem__, values))
    indices = pa.Array.from_buffers(pa.int32(), len(values), [validity, pa.py_buffer(indices)], null_count)
    return pa.DictionaryArray.from_arrays(indices, strings(words))


def name_lists(rows: Sequence[Sequence[str]]) -> pa.Array:
    """``list<string>`` of sequences of names (never null)."""
    try:
        distinct, codes = factorize(rows)
    except TypeError:  # a list among them (unhashable)
        rows = [r if isinstance(r, tuple) else tuple(r) for r in rows]
        distinct, codes = factorize(rows)
    if codes is not None:  # built once per distinct row
        return take(name_lists(distinct), codes)
    values = strings([name for row in rows for name in row])
    return pa.ListArray.from_arrays(pa.Array.from_buffers(pa.int32(), len(rows) + 1,
                                                          [None, _offsets(list(map(len, rows)))]),
                                    values, type=NAME_LISTS)


def factorize(rows: List[Any]):
    """The distinct ``rows`` (hashable) in order of first appearance, and
    the index in them of each row (a list of ints, for :func:`take`), or
    None when every row is distinct."""
    first = dict.fromkeys(rows)
    if len(first) == len(rows):
        return rows, None
    for number, row in enumerate(first):  # (a loop over the distinct rows only)
        first[row] = number
    return list(first), list(map(first.__getitem__, rows))


def take(array_: pa.Array, codes: Sequence[int]) -> pa.Array:
    """``array_.take(codes)`` for the arrays built here (offset 0), without
    ``pyarrow.compute``: ``codes`` are row numbers."""
    n = len(codes)
    type_ = array_.type
    buffers = array_.buffers()
    if array_.null_count == len(array_) and not pa.types.is_dictionary(type_):
        return pa.nulls(n, type_)
    validity, nulls = None, 0
    if array_.null_count:
        flags = take_fixed(_unbits(buffers[0], len(array_)), 1, codes)
        nulls = flags.count(0)
        validity = _bits(flags)
    if pa.types.is_dictionary(type_):
        return pa.DictionaryArray.from_arrays(take(array_.indices, codes), array_.dictionary)
    if pa.types.is_list(type_):
        # the rows' items by their numbers in the values, then those items
        items = len(array_.values)
        offsets, numbers = _segments(array_, buffers[1], array(_INT32, range(items)), 4, codes)
        picked = array(_INT32)
        picked.frombytes(numbers)
        values = take(array_.values, picked) if items else array_.values
        return pa.ListArray.from_arrays(pa.Array.from_buffers(pa.int32(), n + 1, [None, offsets]), values,
                                        type=NAME_LISTS)
    if type_ == pa.string():
        offsets, data = _segments(array_, buffers[1], buffers[2], 1, codes)
        return pa.Array.from_buffers(type_, n, [validity, offsets, pa.py_buffer(data)], nulls)
    if type_ == pa.bool_():
        bits = take_fixed(_unbits(buffers[1], len(array_)), 1, codes)
        return pa.Array.from_buffers(type_, n, [validity, _bits(bits)], nulls)
    width = array(_CODES[type_]).itemsize
    data = take_fixed(memoryview(buffers[1])[:len(array_) * width], width, codes)
    return pa.Array.from_buffers(type_, n, [validity, pa.py_buffer(data)], nulls)


def _segments(array_: pa.Array, offsets_buffer: pa.Buffer, data_buffer: Optional[pa.Buffer], width: int,
              codes: Sequence[int]):
    """(offsets, data) of the variable-length rows ``codes`` of ``array_``
    (items of ``width`` bytes)."""
    try:
        offsets, data = take_segments(memoryview(offsets_buffer)[:(len(array_) + 1) * 4],
                                      b"" if data_buffer is None else data_buffer, width, codes)
    except OverflowError:
        raise SinkError(f"more than {_MAX_OFFSET} bytes or items in one column of a batch") from None
    return pa.py_buffer(offsets), data
