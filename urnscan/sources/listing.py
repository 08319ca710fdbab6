"""A directory's entries as the walk reads them, in one call.

For each entry: its name, and for a plain file or a directory (as
``lstat`` finds it: a link is never followed here) the five fields of its
status the walk uses; None for a link, a special file, or an entry whose
status cannot be read (the walk then looks at it again by its path, and
says why).  Entries come sorted by name.

``urnscan/_accel.c`` holds a compiled version (:mod:`urnscan.accel`) that
lists the directory and reads every status without the interpreter, and
without building an ``os.DirEntry`` and an ``os.stat_result`` per entry;
``list_entries_py`` stays this one.
"""
from __future__ import annotations

import os
import stat
from typing import List, NamedTuple, Optional, Tuple, Union

from ..accel import accelerated


class EntryStat(NamedTuple):
    """The fields of ``os.lstat`` the walk reads."""

    st_mode: int
    st_size: int
    st_uid: int
    st_dev: int
    st_ino: int


#: (name, status of a plain file or directory or None, is a symbolic link)
Entry = Tuple[str, Optional[EntryStat], bool]


def list_entries(where: Union[int, str], stat_type: type = EntryStat) -> List[Entry]:
    """The entries of the directory ``where`` (a descriptor of it, or its
    path), sorted by name; OSError when it cannot be listed."""
    entries = []
    with os.scandir(where) as listing:
        for entry in listing:
            status, link = None, False
            try:
                link = entry.is_symlink()
                if entry.is_file(follow_symlinks=False) or entry.is_dir(follow_symlinks=False):
                    st = entry.stat(follow_symlinks=False)
                    if stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode):
                        status = stat_type(st.st_mode, st.st_size, st.st_uid, st.st_dev, st.st_ino)
            except OSError:
                pass
            entries.append((entry.name, status, link))
    entries.sort()
    return entries


list_entries_py = list_entries
list_entries = accelerated(list_entries_py)
