"""``.ignore`` and ``.gitignore`` rules, applied the way ripgrep and git do.

:class:`IgnoreRules` is an immutable chain of the ignore files that govern
one directory of a walk: those of the directory itself and of each of its
parents.  A deeper file's decision wins over a shallower one's; in one
directory ``.ignore`` wins over ``.gitignore``; within one file the last
matching pattern wins and ``!pattern`` re-includes (gitignore(5), "PATTERN
FORMAT").  A pattern in a file above the directory walked applies to the
entries of the walk themselves, never to that directory or its parents, as
ripgrep applies it: a pattern that ignores a directory ignores what lies
below it by not entering it, so a walk that starts inside it
(``node_modules/pkg`` under a ``node_modules/`` rule, a virtual environment
a repository ignores) reads its files; git's rule would pass over them all.
``.gitignore`` files count only inside a git work tree (a
directory holding ``.git``, or below one), as in ripgrep; ``.ignore`` files
count everywhere.  The pattern syntax is gitignore's, matched by
``pathspec`` (the maintained implementation of it; ``**``, anchoring,
character classes and escapes are easy to get subtly wrong).
"""
from __future__ import annotations

import contextlib
import os
import re
import stat
import warnings
from typing import Container, Iterator, List, Optional, Tuple

__all__ = ["IgnoreRules", "GITIGNORE", "IGNORE"]

GITIGNORE = ".gitignore"
IGNORE = ".ignore"
#: ignore files larger than this are read up to their last whole line
#: within it (a runaway file is no rule set; ripgrep reads the whole file)
MAX_IGNORE_FILE_BYTES = 1 << 20
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def _ignore_lines(path: str) -> Optional[List[str]]:
    """The lines of the ignore file ``path``; None when it is no regular
    file (a FIFO named ``.ignore`` would hold the walk forever) or cannot
    be read.  Of a file over :data:`MAX_IGNORE_FILE_BYTES`, the whole
    lines within that many bytes (half a pattern would be another one)."""
    try:
        fd = os.open(path, _READ_FLAGS)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = b""
        while len(data) <= MAX_IGNORE_FILE_BYTES:
            more = os.read(fd, MAX_IGNORE_FILE_BYTES + 1 - len(data))
            if not more:
                break
            data += more
    except OSError:
        return None
    finally:
        os.close(fd)
    if len(data) > MAX_IGNORE_FILE_BYTES:
        data = data[:data.rfind(b"\n", 0, MAX_IGNORE_FILE_BYTES) + 1]
    return data.decode("utf-8", "surrogateescape").splitlines()


def _spec(path: str):
    lines = _ignore_lines(path)
    if not lines or not any(line.strip() and not line.startswith("#") for line in lines):
        return None
    import pathspec

    try:
        with _quietly():
            return pathspec.GitIgnoreSpec.from_lines(lines)
    except (ValueError, re.error):  # (GitIgnorePatternError is a ValueError)
        # git passes over a line that is no pattern ("!", a trailing "\\",
        # a range "[z-a]"): it matches nothing, and the other lines apply
        with _quietly():
            return pathspec.GitIgnoreSpec.from_lines([line for line in lines if _is_pattern(line)])


def _is_pattern(line: str) -> bool:
    import pathspec

    try:
        with _quietly():
            pathspec.GitIgnoreSpec.from_lines([line])
    except (ValueError, re.error):
        return False
    return True


@contextlib.contextmanager
def _quietly() -> Iterator[None]:
    """No FutureWarning inside: Python's ``re`` gives one for a POSIX class
    (``[[:alpha:]]``) in the regular expression ``pathspec`` makes of it,
    and a warning of a library is no message for a user."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        yield


#: how ``pathspec`` (1.x) marks, in the regular expression of a pattern,
#: the ``/`` after a directory the pattern matches: the path matched lies
#: below that directory, or is that directory when the ``/`` ends it
_BELOW_MARK = "(?P<ps_d>/)"


def _itself(spec) -> Tuple[tuple, ...]:
    """``(include, regex)`` of each pattern of ``spec``, last first, the
    regular expression matching a path itself only: not a path below a
    directory the pattern matches (``pathspec`` matches those too, as git
    never enters that directory)."""
    with _quietly():
        return tuple((pattern.include, re.compile(pattern.regex.pattern.replace(_BELOW_MARK, "(?P<ps_d>/\\Z)")))
                     for pattern in reversed(spec.patterns) if pattern.include is not None)


def _itself_ignored(patterns: Tuple[tuple, ...], path: str) -> Optional[bool]:
    """Whether the last of ``patterns`` (:func:`_itself`) that matches
    ``path`` ignores it (True) or re-includes it (False); None when none
    matches it."""
    for include, regex in patterns:
        if regex.search(path) is not None:
            return include
    return None


class IgnoreRules:
    """The ignore files of a directory and its parents (see module docs).

    A layer is ``(prefix, strip, spec, name)``: a walk path ``rel`` is
    ``prefix + rel[strip:]`` relative to the directory of the ignore file
    ``name``; a layer with a prefix is an ignore file above the walk, its
    ``spec`` the patterns of :func:`_itself`.
    """

    __slots__ = ("layers", "in_git")

    def __init__(self, layers: Tuple[tuple, ...] = (), in_git: bool = False):
        self.layers = layers
        self.in_git = in_git

    @classmethod
    def above(cls, top: str) -> "IgnoreRules":
        """The rules that the parents of the directory ``top`` give it."""
        here = os.path.abspath(top)
        chain = []  # (parent directory, path of top relative to it), deepest first
        rel = ""
        while os.path.dirname(here) != here:
            rel = os.path.basename(here) + ("/" + rel if rel else "")
            here = os.path.dirname(here)
            chain.append((here, rel))
        # .gitignore files count from the top of the work tree down
        git_top = next((d for d, _ in chain if os.path.lexists(os.path.join(d, ".git"))), None)
        layers = []
        in_git = False
        for directory, rel in reversed(chain):  # shallowest first
            in_git = in_git or directory == git_top
            for name in ((GITIGNORE, IGNORE) if in_git else (IGNORE,)):
                spec = _spec(os.path.join(directory, name))
                if spec is not None:
                    layers.append((rel + "/", 0, _itself(spec), name))
        return cls(tuple(layers), in_git)

    def entering(self, path: str, rel: str, names: Container[str]) -> "IgnoreRules":
        """The rules inside the directory ``path`` (``rel`` in the walk),
        whose entries are ``names`` (the walk has listed them: a directory
        without ignore files costs no system call)."""
        in_git = self.in_git or ".git" in names
        strip = len(rel) + 1 if rel else 0
        added = []
        for name in ((GITIGNORE, IGNORE) if in_git else (IGNORE,)):
            spec = _spec(os.path.join(path, name)) if name in names else None
            if spec is not None:
                added.append(("", strip, spec, name))
        if not added and in_git == self.in_git:
            return self
        return IgnoreRules(self.layers + tuple(added), in_git)

    def ignored_by(self, rel: str, is_dir: bool) -> Optional[str]:
        """The name of the ignore file that ignores the walk path ``rel``
        (``.gitignore`` or ``.ignore``), or None when it is not ignored."""
        for prefix, strip, spec, name in reversed(self.layers):
            path = prefix + rel[strip:] + ("/" if is_dir else "")
            include = _itself_ignored(spec, path) if prefix else spec.check_file(path).include
            if include is not None:
                return name if include else None
        return None

