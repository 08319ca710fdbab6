"""Regular expressions compiled on their first use.

Compiled when their modules were imported, the command's patterns (more
than a hundred) cost 23 ms of every run's start-up; a scan of a real
corpus (9,500 files of Debian packages: XML schemas, documentation, code,
archives) used 48 of them, and a file without a URN uses none.  A
:class:`LazyPattern` stands where a compiled pattern stood, and compiles
when one of its methods is first asked for.
"""
from __future__ import annotations

import re
from typing import Any, Union


class LazyPattern:
    """A regular expression compiled on its first use: its methods
    (``match``, ``fullmatch``, ``search``, ``finditer``, ``sub``, ...) and
    attributes are the compiled pattern's.  ``pattern`` and ``flags`` are
    its source and flags, read without compiling it (a pattern built from
    others reads theirs)."""

    __slots__ = ("pattern", "flags", "__dict__")

    def __init__(self, pattern: Union[str, bytes], flags: int = 0):
        self.pattern = pattern
        self.flags = flags

    def __getattr__(self, name: str) -> Any:
        # called once per name: the compiled pattern's bound method (or
        # attribute) is kept in the instance, where later lookups find it
        if name.startswith("__"):
            raise AttributeError(name)
        value = getattr(re.compile(self.pattern, self.flags), name)
        setattr(self, name, value)
        return value

    def __reduce__(self):
        return LazyPattern, (self.pattern, self.flags)

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r})"
