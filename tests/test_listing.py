"""A directory's entries for the walk (urnscan.sources.listing): the
compiled listing gives what the Python one gives, and both what
``os.lstat`` says of each entry."""
import errno
import os
import stat

import pytest

from urnscan.sources.listing import EntryStat, list_entries, list_entries_py

LISTERS = [list_entries_py] + ([list_entries] if list_entries is not list_entries_py else [])


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "b.txt").write_bytes(b"urn:isbn:0451450523")
    (tmp_path / "a dir").mkdir()
    (tmp_path / "a dir" / "inner.txt").write_bytes(b"")
    (tmp_path / ".hidden").write_bytes(b"x" * 70000)
    (tmp_path / "\u00e9t\u00e9.txt").write_bytes(b"x")
    os.symlink("b.txt", tmp_path / "link-to-file")
    os.symlink("a dir", tmp_path / "link-to-dir")
    os.symlink("nowhere", tmp_path / "dangling")
    os.mkfifo(tmp_path / "fifo")
    os.mkdir(tmp_path / "empty")
    name = os.fsencode(str(tmp_path)) + b"/undecodable-\xff"
    with open(name, "wb") as f:
        f.write(b"y")
    return tmp_path


def _expected(folder):
    rows = []
    for name in os.listdir(folder):
        st = os.lstat(folder / name)
        plain = stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)
        rows.append((name, EntryStat(st.st_mode, st.st_size, st.st_uid, st.st_dev, st.st_ino) if plain else None,
                     stat.S_ISLNK(st.st_mode)))
    return sorted(rows)


@pytest.mark.parametrize("lister", LISTERS)
def test_entries_are_what_lstat_says(folder, lister):
    got = lister(str(folder), EntryStat)
    assert got == _expected(folder)
    assert [name for name, _, _ in got][:3] == [".hidden", "a dir", "b.txt"]
    assert all(type(st) is EntryStat for _, st, _ in got if st is not None)


@pytest.mark.parametrize("lister", LISTERS)
def test_entries_through_a_descriptor(folder, lister):
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        first = lister(fd, EntryStat)
        assert first == lister(fd, EntryStat) == _expected(folder)  # the descriptor's position is left at the start
        os.fstat(fd)  # still open
    finally:
        os.close(fd)


@pytest.mark.parametrize("lister", LISTERS)
def test_entries_of_what_cannot_be_listed(folder, lister):
    for where, code in ((folder / "missing", errno.ENOENT), (folder / "b.txt", errno.ENOTDIR)):
        with pytest.raises(OSError) as caught:
            lister(str(where), EntryStat)
        assert caught.value.errno == code
    fd = os.open(folder / "b.txt", os.O_RDONLY)
    try:
        with pytest.raises(OSError):
            lister(fd, EntryStat)
    finally:
        os.close(fd)
    with pytest.raises(ValueError):
        lister(str(folder) + "\0x", EntryStat)


@pytest.mark.skipif(len(LISTERS) == 1, reason="the compiled version is not built")
def test_compiled_listing_agrees_on_a_real_tree():
    top = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "urnscan")
    for root, _, _ in os.walk(top):
        assert list_entries(root, EntryStat) == list_entries_py(root, EntryStat), root


@pytest.mark.skipif(len(LISTERS) == 1, reason="the compiled version is not built")
def test_compiled_listing_refuses_a_stat_type_that_is_not_a_tuple(folder):
    with pytest.raises(TypeError):
        list_entries(str(folder), dict)
