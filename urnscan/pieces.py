"""Hits travel between processes in bounded pieces, in one of two shapes.

* :data:`HIT_PIECES`: a list of :class:`~urnscan.model.Hit` (any sink can
  take it; finding messages kept);
* :data:`ARROW_PIECES`: a :class:`pyarrow.RecordBatch` of the index schema
  (built in the worker, cheap to pickle; the Parquet sink writes it as it
  is, and nothing is done per row in the process that writes).

Both answer the same questions, so the runner and the stitching of byte
ranges are written once.
"""
from __future__ import annotations

from typing import List, Optional, Sequence

from .model import TEXT_PER_URN_BYTE, URN_FIELD, Hit
from .sinks.names import COLUMN_OF_FIELD

#: hits per piece, and the bytes of text a piece holds at most (about: see
#: model.TEXT_PER_URN_BYTE), whichever comes first: a piece is a few MB,
#: whatever the density of hits and the length of their URNs (8,192 hits of
#: 4 KB URNs were 300 MB, and a worker has up to 8 pieces waiting)
PIECE_ROWS = 8192
PIECE_TEXT = 8 << 20


class PieceBuffer:
    """Hits gathered into pieces: :meth:`add` one, and :meth:`take` the
    piece once it is full (``rows`` hits, or about ``text`` bytes of text;
    a hit larger than that is a piece alone) and at the end."""

    __slots__ = ("hits", "rows", "chars", "limit")

    def __init__(self, rows: int = PIECE_ROWS, text: Optional[int] = None):
        self.hits: List[Hit] = []
        self.rows = rows
        self.chars = 0  # the length of the URNs gathered
        self.limit = max(1, (PIECE_TEXT if text is None else text) // TEXT_PER_URN_BYTE)

    def add(self, hit: Hit) -> bool:
        """Add a hit; whether the piece is full."""
        self.hits.append(hit)
        self.chars += len(hit[URN_FIELD])
        return len(self.hits) >= self.rows or self.chars >= self.limit

    def take(self) -> List[Hit]:
        hits, self.hits, self.chars = self.hits, [], 0
        return hits



class HitPieces:
    """Pieces as lists of :class:`Hit`."""

    arrow = False

    @staticmethod
    def encode(hits: Sequence[Hit]) -> List[Hit]:
        return list(hits)

    @staticmethod
    def wire(piece):
        """The piece as a worker sends it (a list pickles as it is)."""
        return piece

    @staticmethod
    def rows(piece) -> int:
        return len(piece)

    @staticmethod
    def valid(piece) -> int:
        return sum(1 for h in piece if h.valid)

    @staticmethod
    def starts(piece) -> List[int]:
        return [h.start for h in piece]

    @staticmethod
    def last_end(piece) -> int:
        return piece[-1].end

    @staticmethod
    def tail(piece, i: int):
        return piece[i:]

    @staticmethod
    def keep_valid(piece):
        return [h for h in piece if h.valid]

    @staticmethod
    def relocate(piece, lines_before: int, line_start: int):
        """Line numbers counted from a range start made absolute: add the
        lines before it; a hit on the range's first line gets its column
        from ``line_start`` (the start of that line in the file)."""
        return [h._replace(line=lines_before + h.line,
                           column=h.start - line_start + 1 if h.line == 1 else h.column) for h in piece]


class ArrowPieces:
    """Pieces as record batches of the index schema."""

    arrow = True

    @staticmethod
    def encode(hits: Sequence[Hit]):
        from .sinks.schema import hits_to_record_batch

        return hits_to_record_batch(hits)

    @staticmethod
    def wire(piece):
        """The piece as a worker sends it: a small one pickled as its
        Arrow IPC stream, unpickled as the record batch (see
        :class:`_StreamedBatch`); a large one as it is."""
        return _StreamedBatch(piece) if piece.num_rows < STREAMED_ROWS else piece

    @staticmethod
    def rows(piece) -> int:
        return piece.num_rows

    @staticmethod
    def valid(piece) -> int:
        column = piece.column("valid")  # never null
        bits = int.from_bytes(memoryview(column.buffers()[1])[:(column.offset + len(column) + 7) // 8], "little")
        return ((bits >> column.offset) & ((1 << len(column)) - 1)).bit_count()

    @staticmethod
    def starts(piece) -> List[int]:
        return piece.column("start").to_pylist()

    @staticmethod
    def last_end(piece) -> int:
        return piece.column(_STOP)[piece.num_rows - 1].as_py()

    @staticmethod
    def tail(piece, i: int):
        return piece.slice(i)

    @staticmethod
    def keep_valid(piece):
        """The valid rows, as one batch (``filter`` would load
        ``pyarrow.compute``)."""
        import pyarrow as pa

        from .sinks.arrays import true_runs

        runs = true_runs(piece.column("valid"))
        if runs == [(0, piece.num_rows)]:
            return piece
        if not runs:
            return piece.slice(0, 0)
        kept = pa.Table.from_batches([piece.slice(a, n) for a, n in runs], schema=piece.schema)
        return kept.combine_chunks().to_batches()[0]

    @staticmethod
    def relocate(piece, lines_before: int, line_start: int):
        line = _int64_column(piece, "line")
        column = [start - line_start + 1 if n == 1 else col
                  for n, start, col in zip(line, _int64_column(piece, "start"), _int64_column(piece, _COL))]
        schema = piece.schema
        piece = piece.set_column(schema.get_field_index("line"), schema.field("line"),
                                 _int64s([n + lines_before for n in line]))
        return piece.set_column(schema.get_field_index(_COL), schema.field(_COL), _int64s(column))


#: a piece of fewer hits crosses to the writing process as its IPC stream
#: (:class:`_StreamedBatch`).  Pickled itself, a record batch of the index
#: schema cost about 0.5 ms to pickle and as much to unpickle, whatever its
#: rows (its schema and each column go through Python); its IPC stream,
#: 0.1-0.2 ms to write and 0.06-0.1 ms to read (PyArrow 26; 2 to 2,000
#: hits).  Over the real corpus at --jobs 2 (pieces of a few hits, one per
#: task), the three processes ran 0.7 % fewer instructions (callgrind).
#: Pieces of thousands of hits stay plain: streamed too, the dense file's
#: run took more CPU, most of it in the kernel
STREAMED_ROWS = 1024


class _StreamedBatch:
    """A record batch that pickles as its Arrow IPC stream, and unpickles
    as the record batch."""

    __slots__ = ("batch",)

    def __init__(self, batch):
        self.batch = batch

    def __reduce__(self):
        import pyarrow as pa

        sink = pa.BufferOutputStream()
        with pa.ipc.new_stream(sink, self.batch.schema) as writer:
            writer.write_batch(self.batch)
        return _batch_of_stream, (sink.getvalue().to_pybytes(),)


def _batch_of_stream(data: bytes):
    """The record batch of an IPC stream of one (:class:`_StreamedBatch`)."""
    import pyarrow as pa

    return pa.ipc.open_stream(data).read_next_batch()


#: the index's names of Hit.end and Hit.column (urnscan.sinks.names)
_STOP, _COL = COLUMN_OF_FIELD["end"], COLUMN_OF_FIELD["column"]


def _int64_column(piece, name: str):
    from .sinks.arrays import int64_values

    return int64_values(piece.column(name))


def _int64s(values):
    from .sinks.arrays import fixed
    import pyarrow as pa

    return fixed(values, pa.int64())


HIT_PIECES = HitPieces()
ARROW_PIECES = ArrowPieces()
