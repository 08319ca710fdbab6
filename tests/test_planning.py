"""The one plan of a run, local or on Dask: which files are cut into byte
ranges, which are streamed, how files are batched into tasks."""
import gzip
import zipfile

import pytest

from urnscan.planning import COMPRESSED_FACTOR, MIN_FILE_COST, PEEK_ABOVE, Batch, Layout, plan_file, planned_whole
from urnscan.sources import InputRef

SPLIT = 4096


def _plain(path, size):
    line = b"text urn:example:a line\r\n"
    path.write_bytes((line * (size // len(line) + 1))[:size])


def _gzip(path, size):
    path.write_bytes(gzip.compress(b"urn:example:x " * size, compresslevel=0)[:size])


def _binary(path, size):
    path.write_bytes(bytes(range(256)) * (size // 256))


def _zip(path, size):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("a.txt", b"urn:example:a " * (size // 14))


@pytest.mark.parametrize("make, size, layout", [
    (_plain, 2 * SPLIT, Layout.RANGES),
    (_plain, 2 * SPLIT - 1, Layout.WHOLE),  # too small to cut
    (_gzip, 4 * SPLIT, Layout.COMPRESSED),  # a stream is never cut
    (_binary, 4 * SPLIT, Layout.WHOLE),  # skipped whole as binary
    (_zip, 4 * SPLIT, Layout.WHOLE),  # a container's documents are read in order
])
def test_plan_file(tmp_path, make, size, layout):
    path = tmp_path / "f"
    make(path, size)
    size = path.stat().st_size
    planned = plan_file(str(path), size, SPLIT)
    assert planned.layout == layout
    if layout is Layout.RANGES:
        ranges = planned.ranges
        assert ranges[0].start == 0 and ranges[-1].stop == size and len(ranges) == size // SPLIT
        assert all(a.stop == b.start for a, b in zip(ranges, ranges[1:]))
        data = path.read_bytes()
        assert all(data[r.start - 1:r.start + 1] != b"\r\n" for r in ranges[1:])  # never between CR and LF
    else:
        assert planned.ranges == ()


@pytest.mark.parametrize("size, split_bytes, whole", [
    (0, 1000, True),
    (1999, 1000, True),  # under two ranges
    (2000, 1000, False),  # two ranges: looked at
    (PEEK_ABOVE, PEEK_ABOVE, True),
    (PEEK_ABOVE + 1, PEEK_ABOVE, False),  # large enough to be streamed if compressed
])
def test_planned_whole(size, split_bytes, whole):
    assert planned_whole(size, split_bytes) is whole


def test_a_small_or_unreadable_file_is_planned_whole_without_reading(tmp_path):
    missing = str(tmp_path / "gone")
    assert plan_file(missing, 10, SPLIT).layout is Layout.WHOLE  # small: not even opened
    assert plan_file(missing, 10 * SPLIT, SPLIT).layout is Layout.WHOLE  # its scan reports the error


@pytest.mark.parametrize("sizes, layouts, max_bytes, max_files, full_after", [
    ([10, 10, 10], None, 3 * MIN_FILE_COST, None, [False, False, True]),  # small files cost MIN_FILE_COST
    ([5000, 5000], None, 10000, None, [False, True]),
    ([1000, 1000], [Layout.COMPRESSED, Layout.WHOLE], 1000 * COMPRESSED_FACTOR + MIN_FILE_COST, None,
     [False, True]),
    ([1, 1, 1], None, 1 << 30, 2, [False, True, True]),
    ([None], None, MIN_FILE_COST, None, [True]),  # a file of unknown size counts as a small one
])
def test_batch_is_full(sizes, layouts, max_bytes, max_files, full_after):
    batch = Batch(max_bytes, max_files)
    layouts = layouts or [Layout.WHOLE] * len(sizes)
    got = [batch.add(InputRef(f"f{i}", None, size), layout) for i, (size, layout) in enumerate(zip(sizes, layouts))]
    assert got == full_after
    assert [r.path for r in batch.refs] == [f"f{i}" for i in range(len(sizes))]
