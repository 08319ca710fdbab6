"""Files pending beside an output (urnscan.tempfiles): without a name where
the system has such files, named and hidden elsewhere; both ways, a commit
moves exactly the written bytes onto the target and anything else leaves
nothing."""
from __future__ import annotations

import os

import pytest

import urnscan.tempfiles as tempfiles
from urnscan.sinks import ParquetSink
from urnscan.tempfiles import PendingFile


@pytest.fixture(params=["anonymous", "named"])
def mode(request, monkeypatch, tmp_path):
    if request.param == "named":
        monkeypatch.setattr(tempfiles, "_anonymous", lambda directory: None)
    else:
        fd = tempfiles._anonymous(str(tmp_path))
        if fd is None:
            pytest.skip("this file system has no files without a name")
        os.close(fd)
    return request.param


def test_a_committed_file_replaces_the_target(tmp_path, mode):
    target = tmp_path / "out.txt"
    target.write_text("old")
    pending = PendingFile(str(target))
    assert pending.named == (mode == "named")
    with open(pending.path, "w") as fh:
        fh.write("new")
    assert target.read_text() == "old"
    names = sorted(os.listdir(tmp_path))
    assert names == (["out.txt"] if mode == "anonymous" else [names[0], "out.txt"])
    pending.sync()
    pending.commit()
    assert target.read_text() == "new"
    assert os.listdir(tmp_path) == ["out.txt"]
    assert (target.stat().st_mode & 0o777) == 0o666 & ~_umask()


def test_a_discarded_file_leaves_nothing(tmp_path, mode):
    pending = PendingFile(str(tmp_path / "out.txt"))
    with open(pending.path, "w") as fh:
        fh.write("x" * 1000)
    pending.discard()
    assert os.listdir(tmp_path) == []


def test_the_parquet_sink_leaves_nothing_when_it_fails(tmp_path, mode):
    out = tmp_path / "index.parquet"
    with pytest.raises(RuntimeError):
        with ParquetSink(str(out)) as sink:
            sink.add_file_status("a.txt", "scanned", bytes=1)
            raise RuntimeError("scan failed")
    assert os.listdir(tmp_path) == []
    with ParquetSink(str(out)) as sink:
        sink.add_file_status("a.txt", "scanned", bytes=1)
    assert sorted(os.listdir(tmp_path)) == ["index.files.parquet", "index.parquet"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_file_the_system_refuses_to_link_is_copied_into_place(tmp_path, monkeypatch):
    """Nothing written is lost where the file without a name cannot be
    given one (a security module refusing linkat)."""
    def refuse(*args, **kwargs):
        raise PermissionError(1, "Operation not permitted")

    target = tmp_path / "out.bin"
    pending = PendingFile(str(target))
    if pending.named:
        pytest.skip("the system has no files without a name here")
    data = os.urandom(3 << 20)
    with open(pending.path, "wb") as fh:
        fh.write(data)
    monkeypatch.setattr(os, "link", refuse)
    pending.sync()
    pending.commit()
    assert target.read_bytes() == data
    assert os.listdir(tmp_path) == ["out.bin"]
