"""Arrow arrays from Python values, built from buffers.

``pa.array`` of a Python list imports pandas (0.3 s of start-up) to ask
whether the list is one of pandas' objects, and ``dictionary_encode`` and
``take`` load ``pyarrow.compute``; the arrays here are assembled from
buffers (NumPy for the arithmetic), which loads neither and is quicker.

* :func:`strings`, :func:`fixed` (int64, int32, bool), :func:`dictionary`
  (``dictionary<int32, string>``, values in order of first appearance, as
  ``dictionary_encode`` gives) and :func:`name_lists`
  (``list<dictionary<int32, string>>``) build a column;
* :func:`take` repeats the rows of such a column: a column that is a
  function of a few distinct rows (:func:`factorize`) is built once per
  distinct row, then taken.
"""
from __future__ import annotations

from typing import Any, List, Optional, Sequence

import numpy as np  # loaded by pyarrow in any case
import pyarrow as pa

from ..errors import SinkError

__all__ = ["DICT", "NAME_LISTS", "clean", "strings", "fixed", "dictionary", "name_lists", "factorize", "take"]

DICT = pa.dictionary(pa.int32(), pa.string())
NAME_LISTS = pa.list_(pa.field("element", DICT, nullable=False))

_FILLERS = {pa.string(): "", pa.bool_(): False, pa.int64(): 0, pa.int32(): 0}
#: string and list offsets are int32
_MAX_OFFSET = (1 << 31) - 1


def clean(value: Optional[str]) -> Optional[str]:
    """A string Arrow can store: lone surrogates (undecodable bytes of a
    file name or of the input) become ``\\xNN`` escapes."""
    if value is None:
        return None
    return value.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _validity(values: List[Any]):
    """(validity buffer, null count) of a list that holds ``None``."""
    valid = np.fromiter((v is not None for v in values), bool, len(values))
    return _bits(valid), len(values) - int(np.count_nonzero(valid))


def _bits(flags) -> pa.Buffer:
    return pa.py_buffer(np.packbits(flags, bitorder="little"))


def _offsets(lengths) -> pa.Buffer:
    """int32 offsets of consecutive pieces of ``lengths``."""
    offsets = np.zeros(len(lengths) + 1, np.int64)
    np.cumsum(lengths, out=offsets[1:])
    if offsets[-1] > _MAX_OFFSET:
        raise SinkError(f"more than {_MAX_OFFSET} bytes or items in one column of a batch")
    return pa.py_buffer(offsets.astype(np.int32))


def strings(values: Sequence[Optional[str]]) -> pa.Array:
    """A ``string`` array; lone surrogates are escaped (:func:`clean`)."""
    values = list(values)
    n = len(values)
    validity, nulls = None, 0
    if None in values:
        validity, nulls = _validity(values)
        values = ["" if v is None else v for v in values]
    text = "".join(values)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        values = [clean(v) for v in values]
        text = "".join(values)
        data = text.encode("utf-8")
    lengths = np.fromiter(map(len, values), np.int64, n)
    if len(data) != len(text):  # not ASCII: the wide values' lengths in bytes
        wide = np.flatnonzero(~np.fromiter(map(str.isascii, values), bool, n))
        lengths[wide] = [len(values[i].encode("utf-8")) for i in wide.tolist()]
    return pa.Array.from_buffers(pa.string(), n, [validity, _offsets(lengths), pa.py_buffer(data)], nulls)


def fixed(values: Sequence[Any], type_: pa.DataType) -> pa.Array:
    """An int64, int32 or bool array."""
    values = list(values)
    n = len(values)
    validity, nulls = None, 0
    if None in values:
        validity, nulls = _validity(values)
        filler = _FILLERS[type_]
        values = [filler if v is None else v for v in values]
    if type_ == pa.bool_():
        data = _bits(np.fromiter(values, bool, n))
    else:
        data = pa.py_buffer(np.fromiter(values, type_.to_pandas_dtype(), n))
    return pa.Array.from_buffers(type_, n, [validity, data], nulls)


def dictionary(values: Sequence[Optional[str]]) -> pa.Array:
    """A ``dictionary<int32, string>`` array, values in order of first
    appearance (as ``dictionary_encode`` gives)."""
    values = values if isinstance(values, list) else list(values)
    code = dict.fromkeys(values)  # first appearance order
    nulls = None in code
    if nulls:
        del code[None]
    for i, v in enumerate(code):
        code[v] = i
    words = list(code)
    if nulls:
        code[None] = -1
    indices = np.fromiter(map(code.__getitem__, values), np.int32, len(values))
    validity, null_count = None, 0
    if nulls:
        valid = indices >= 0
        null_count = len(values) - int(np.count_nonzero(valid))
        validity = _bits(valid)
        indices[~valid] = 0
    indices = pa.Array.from_buffers(pa.int32(), len(values), [validity, pa.py_buffer(indices)], null_count)
    return pa.DictionaryArray.from_arrays(indices, strings(words))


def name_lists(rows: Sequence[Sequence[str]]) -> pa.Array:
    """``list<dictionary<string>>`` of sequences of names (never null)."""
    rows = [r if isinstance(r, tuple) else tuple(r) for r in rows]
    distinct, codes = factorize(rows)
    if codes is not None:  # built once per distinct row
        return take(name_lists(distinct), codes)
    lengths = np.fromiter(map(len, rows), np.int64, len(rows))
    values = dictionary([name for row in rows for name in row])
    return pa.ListArray.from_arrays(pa.Array.from_buffers(pa.int32(), len(rows) + 1, [None, _offsets(lengths)]),
                                    values, type=NAME_LISTS)


def factorize(rows: List[Any]):
    """The distinct ``rows`` (hashable) in order of first appearance, and
    the index in them of each row as a NumPy array for :func:`take`, or
    None when every row is distinct."""
    first: dict = {}
    setdefault = first.setdefault
    codes = [setdefault(r, len(first)) for r in rows]
    if len(first) == len(rows):
        return rows, None
    return list(first), np.array(codes, np.intp)


def take(array: pa.Array, codes) -> pa.Array:
    """``array.take(codes)`` for the arrays built here (offset 0), without
    ``pyarrow.compute``: ``codes`` is a NumPy array of row numbers."""
    n = len(codes)
    type_ = array.type
    buffers = array.buffers()
    if array.null_count == len(array) and not pa.types.is_dictionary(type_):
        return pa.nulls(n, type_)
    validity, nulls = None, 0
    if array.null_count:
        valid = np.unpackbits(np.frombuffer(buffers[0], np.uint8), count=len(array), bitorder="little")
        valid = valid.astype(bool)[codes]
        nulls = n - int(np.count_nonzero(valid))
        validity = _bits(valid)
    if pa.types.is_dictionary(type_):
        return pa.DictionaryArray.from_arrays(take(array.indices, codes), array.dictionary)
    if pa.types.is_list(type_):
        offsets, values = _segments(array, buffers[1], array.values.indices.buffers()[1], 4, codes)
        indices = pa.Array.from_buffers(pa.int32(), len(values) // 4, [None, pa.py_buffer(values)])
        return pa.ListArray.from_arrays(pa.Array.from_buffers(pa.int32(), n + 1, [None, offsets]),
                                        pa.DictionaryArray.from_arrays(indices, array.values.dictionary),
                                        type=NAME_LISTS)
    if type_ == pa.string():
        offsets, data = _segments(array, buffers[1], buffers[2], 1, codes)
        return pa.Array.from_buffers(type_, n, [validity, offsets, pa.py_buffer(data)], nulls)
    if type_ == pa.bool_():
        bits = np.unpackbits(np.frombuffer(buffers[1], np.uint8), count=len(array), bitorder="little")
        return pa.Array.from_buffers(type_, n, [validity, _bits(bits.astype(bool)[codes])], nulls)
    values = np.frombuffer(buffers[1], type_.to_pandas_dtype(), len(array))[codes]
    return pa.Array.from_buffers(type_, n, [validity, pa.py_buffer(values)], nulls)


def _segments(array: pa.Array, offsets_buffer: pa.Buffer, data_buffer: Optional[pa.Buffer], width: int, codes):
    """(offsets, data) of the variable-length rows ``codes`` of ``array``
    (items of ``width`` bytes)."""
    offsets = np.frombuffer(offsets_buffer, np.int32, len(array) + 1).astype(np.int64)
    data = b"" if data_buffer is None else data_buffer.to_pybytes()
    ends = (offsets * width).tolist()
    pieces = [data[a:b] for a, b in zip(ends, ends[1:])]
    return _offsets(np.diff(offsets)[codes]), b"".join(map(pieces.__getitem__, codes.tolist()))
