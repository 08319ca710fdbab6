"""``urnscan scan`` never reads its own outputs: which paths the walk's
``skip`` refuses, for an output file and for a dataset directory."""
import os

import pytest

from urnscan.cli.outputs import _OwnOutputs
from urnscan.tempfiles import reserve

# (output, name in the output's directory, refused)
CASES = [
    ("out.parquet", "out.parquet", True),
    ("out.parquet", "out.files.parquet", True),
    ("out.parquet", "xout.parquet", False),
    ("out.parquet", "out.parquet.txt", False),
    ("out.parquet", ".out.parquet.123.0123abcd.tmp", True),
    ("out.parquet", ".out.parquet.123.0123abcd.tmp.gz", False),
    ("out.parquet", ".other.parquet.123.0123abcd.tmp", False),
    ("out.parquet", "notes.tmp", False),
    ("ds/", "hits-00000.parquet", True),
    ("ds/", "hits-1.parquet", False),
    ("ds/", "_files.pq", True),
    ("ds/", "_files.parquet", True),
    ("ds/", ".hits-00001.parquet.9.tmp", True),
    ("ds/", "readme.txt", False),
]


def guard(tmp_path, out):
    if out.endswith("/"):
        return _OwnOutputs.of_dataset(str(tmp_path / out))
    return _OwnOutputs.of_files(str(tmp_path / out), str(tmp_path / out.replace(".parquet", ".files.parquet")))


@pytest.mark.parametrize("out,name,refused", CASES)
def test_the_run_refuses_its_own_outputs_and_nothing_else(tmp_path, out, name, refused):
    (tmp_path / "ds").mkdir()
    skip = guard(tmp_path, out)
    home = tmp_path / out.rstrip("/") if out.endswith("/") else tmp_path
    assert skip(str(home / name)) is refused
    assert skip(str(tmp_path / "elsewhere" / name)) is False     # another directory
    os.symlink(home, tmp_path / "alias")
    assert skip(str(tmp_path / "alias" / name)) is refused        # the same directory by a link


def test_the_temporary_files_of_an_output_are_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    skip = guard(tmp_path, "out.parquet")
    tmp = reserve("out.parquet")
    assert skip(tmp) and skip(os.path.abspath(tmp))
