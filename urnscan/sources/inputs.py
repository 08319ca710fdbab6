"""Expanding what the user names into the inputs of a run.

(Over 500 lines, on purpose: the walking rules below are one algorithm --
order, globs, symbolic links, ignore files, hidden files -- whose
guarantees, one deterministic list and no input lost without a status,
read best in one place.)

:func:`expand_inputs` turns the PATH arguments of a run into a
deterministic list of :class:`InputRef`, one per input, each with a status:
``None`` (to be scanned) or the reason it cannot be.  It never raises for a
bad input, so a run can list every input with what happened to it.  This
module knows about files, directories, globs and standard input; it reads
no content and knows nothing about compression or URNs.

Walking rules (:func:`expand_inputs`)
-------------------------------------

* ``-`` is standard input.
* A directory is walked recursively.  Entries of each directory are visited
  in sorted order (by name, code point order) and directories are entered
  where they sort, so the order is deterministic.
* Hidden files and directories (a name starting with ``.``) met while
  walking are skipped unless ``hidden=True``; named explicitly they are
  always scanned.
* Nothing is dropped silently: an entry the walk passes over by these
  rules (hidden, ignored, a link not followed, a special file) is listed as
  skipped (``skipped=True``) with the reason (``"hidden"``, ``"ignored
  (.gitignore)"``, ``"symbolic link (not followed)"``, ``"special file
  (FIFO)"``), a directory as one entry (it is not entered).  Only
  ``include`` / ``exclude`` patterns, which the caller chose, drop entries
  unlisted.
* A FIFO, socket or device met while walking is not read (a FIFO may never
  end), as ripgrep and ``grep -r`` pass over them.  Named explicitly, a
  FIFO or character device is an input to read (process substitution,
  ``/dev/stdin``), and any other special file has that reason as its
  status (an error).
* With ``ignore_files=True``, the rules of ``.ignore`` files, and of
  ``.gitignore`` files inside a git work tree (a directory with ``.git``, or
  below one), apply while walking, as in ripgrep and git: the file in a
  directory and in each of its parents (up to the file system root for
  ``.ignore``, to the top of the work tree for ``.gitignore``); a deeper
  file's rule wins over a shallower one's, ``.ignore`` wins over
  ``.gitignore`` in the same directory, and within a file the last matching
  pattern wins (``!pattern`` re-includes).  The patterns are gitignore's
  (matched by the ``pathspec`` library).
* A PATH that does not exist but contains glob characters (``*``, ``?``,
  ``[``) is a glob pattern; a ``**`` segment matches any number of
  directories.  Matches are visited in sorted order; a matched directory is
  walked whole.  As in the shell, a wildcard does not match a name that
  starts with a dot unless the pattern segment does.  Globs are expanded by
  urnscan's own walker, so ``**`` terminates on symbolic-link loops too.
* PATH arguments are always followed when they are symbolic links.  Links
  met while walking are followed only with ``follow_symlinks=True`` (the
  default of this function; ``urnscan scan`` follows them with ``-L``);
  otherwise they are listed as skipped and not read, as ripgrep passes
  them over.  Followed, every
  directory is entered at most once, by its identity ``(st_dev,
  st_ino)``, and every regular file is listed once: a link to a file
  inside the directory walked is not listed (the walk lists the file under
  its own path), and of several paths to one file (st_dev, st_ino) the
  first is listed.  A link to a directory that contains the link (one of
  its ancestors on disk, e.g. ``a/loop -> ..``, however the walk reached
  it) is a loop: listed as skipped (``skipped=True``) with the reason
  ``"symbolic link loop"``, never entered, so a walk never leaves the tree
  it was given; a dangling link is listed as skipped with the reason
  ``"dangling symbolic link"``.  Like files, they are listed only when the
  ``include`` / ``exclude`` patterns keep their path.
* ``skip(path)``, when given, is asked about every file before it is
  listed, and about every entry before it is listed as passed over
  (hidden, ignored, a link not followed); what it refuses is not listed
  (``urnscan scan`` uses it to never read, nor list, its own outputs and
  their temporary files).
* The same path is listed once even if several PATH arguments reach it.
* ``include`` / ``exclude`` are glob patterns.  A pattern without ``/`` is
  matched against the file name (and, for ``exclude``, against the name of
  every directory while walking, which prunes the directory); a pattern with
  ``/`` is matched against the path relative to the PATH argument it was
  found under (for a glob, relative to its leading directory part, the part
  before the first wildcard).  ``*`` and ``?`` do not cross ``/``; ``**``
  does.  A file is kept when ``include`` is empty or one include pattern
  matches, and no exclude pattern matches.  Files named explicitly as a
  PATH are always kept.
* FIFOs, sockets and devices found while walking a directory or matched by
  a glob are listed with an error status and never opened (reading them
  could block forever or never end).  Named explicitly, a FIFO or a
  character device is read like a file: this is what shell process
  substitution, ``<(zcat a.gz)``, passes.
"""
from __future__ import annotations

import errno
import os
import re
import stat
from typing import Callable, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

from ..lazyre import LazyPattern
from .listing import Entry, EntryStat, list_entries

#: The PATH that means standard input.
STDIN = "-"

# Reasons used as InputRef.status / in SourceError messages.
NO_SUCH_FILE = "no such file or directory"
GLOB_MATCHED_NOTHING = "glob matched nothing"
DANGLING_SYMLINK = "dangling symbolic link"
SYMLINK_LOOP = "symbolic link loop"
SYMLINK_NOT_FOLLOWED = "symbolic link (not followed)"
HIDDEN = "hidden"
PERMISSION_DENIED = "permission denied"
IS_A_DIRECTORY = "is a directory"
#: met while walking, these are skipped (listed), not errors
_SKIPPED_REASONS = (DANGLING_SYMLINK, SYMLINK_LOOP)


# ---------------------------------------------------------------------------
# Input references
# ---------------------------------------------------------------------------


class InputRef(NamedTuple):
    """One input of a run.

    ``path`` is the path as reached from the PATH argument (``"-"`` for
    standard input); ``status`` is ``None`` when the input is to be scanned,
    otherwise the reason it cannot be (``"permission denied"``,
    ``"dangling symbolic link"``, ``"special file (FIFO)"``...); ``size`` is
    the size in bytes on disk (compressed size for a compressed file), or
    ``None`` when unknown (stdin, FIFOs, errors).
    """

    path: str
    status: Optional[str] = None
    size: Optional[int] = None
    #: not scanned, and not an error either (a symbolic-link loop, a
    #: dangling link or a special file met while walking); ``status`` says why
    skipped: bool = False

    @property
    def ok(self) -> bool:
        """True when the input is to be scanned."""
        return self.status is None

    @property
    def is_stdin(self) -> bool:
        return self.path == STDIN


def display_name(path: Optional[str]) -> str:
    """How a source is named in messages: ``-`` is shown as ``(stdin)``."""
    if path is None:
        return "(input)"
    if path == STDIN:
        return "(stdin)"
    return path


def _os_reason(exc: OSError) -> str:
    """A short, lower-case reason for an OS error."""
    code = exc.errno
    if code == errno.ENOENT:
        return NO_SUCH_FILE
    if code in (errno.EACCES, errno.EPERM):
        return PERMISSION_DENIED
    if code == errno.ELOOP:
        return SYMLINK_LOOP
    if code == errno.EISDIR:
        return IS_A_DIRECTORY
    text = exc.strerror or str(exc) or type(exc).__name__
    return text[:1].lower() + text[1:]


def _stat_reason(exc: OSError, path: str) -> str:
    """Why ``os.stat(path)`` failed: :func:`_os_reason`, but a dangling
    symbolic link is named as such."""
    if exc.errno == errno.ENOENT and os.path.islink(path):
        return DANGLING_SYMLINK
    return _os_reason(exc)


def _special_kind(mode: int) -> Optional[str]:
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode):
        return "character device"
    if stat.S_ISBLK(mode):
        return "block device"
    return None


# ---------------------------------------------------------------------------
# include / exclude patterns
# ---------------------------------------------------------------------------


#: the POSIX character classes a bracket expression may name
#: (``[[:alpha:]]``), as the C locale defines them (POSIX.1-2017, XBD 7.3.1)
_POSIX_CLASSES = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v", "blank": " \\t", "xdigit": "0-9A-Fa-f", "cntrl": "\\x00-\\x1f\\x7f",
    "print": "\\x20-\\x7e", "graph": "\\x21-\\x7e", "punct": re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
}
_CLASS_NAME = LazyPattern(r"\[:([a-z]+):\]")


def _bracket(body: str) -> str:
    """A glob's bracket expression ``[body]`` (the brackets left out) as a
    regular expression matching one character other than ``/``: ``!`` or
    ``^`` first negates, ``a-z`` is a range, ``[:alpha:]`` a POSIX class;
    every other character stands for itself.  As in the shell, a range
    whose end sorts before its start, or a class of no known name, stands
    for no character (the expression may then match nothing): never a
    regular expression that fails to compile."""
    negate = body[:1] in ("!", "^")
    if negate:
        body = body[1:]
    parts: List[str] = []
    i, n = 0, len(body)
    while i < n:
        named = _CLASS_NAME.match(body, i) if body[i] == "[" else None
        if named is not None:
            parts.append(_POSIX_CLASSES.get(named.group(1), ""))
            i = named.end()
        elif i + 2 < n and body[i + 1] == "-":
            if body[i] <= body[i + 2]:
                parts.append(re.escape(body[i]) + "-" + re.escape(body[i + 2]))
            i += 3
        else:
            parts.append(re.escape(body[i]))
            i += 1
    chars = "".join(parts)
    if negate:
        return "[^/" + chars + "]"
    return "(?!/)[" + chars + "]" if chars else "(?!)"


def _translate_glob(pattern: str) -> "re.Pattern[str]":
    """A glob pattern as a regular expression over ``/``-separated paths.

    ``*`` and ``?`` do not match ``/``; ``**`` matches anything, and
    ``**/`` matches zero or more whole directories.
    """
    out: List[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "*":
            if pattern.startswith("**", i):
                if pattern.startswith("**/", i):
                    out.append("(?:.*/)?")
                    i += 3
                else:
                    out.append(".*")
                    i += 2
                continue
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = i + 1
            if j < n and pattern[j] in "!^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                named = _CLASS_NAME.match(pattern, j) if pattern[j] == "[" else None
                j = named.end() if named is not None else j + 1
            if j >= n:
                out.append(re.escape(c))
            else:
                out.append(_bracket(pattern[i + 1:j]))
                i = j
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("(?s:" + "".join(out) + r")\Z")


class _Matcher:
    """A set of glob patterns (see the module docstring for the rules)."""

    def __init__(self, patterns: Iterable[str]):
        self._name: List["re.Pattern[str]"] = []
        self._path: List["re.Pattern[str]"] = []
        for pat in patterns:
            pat = str(pat).replace(os.sep, "/")
            while pat.startswith("./"):
                pat = pat[2:]
            pat = pat.strip("/")
            if not pat:
                continue
            (self._path if "/" in pat else self._name).append(_translate_glob(pat))

    def __bool__(self) -> bool:
        return bool(self._name or self._path)

    def matches(self, relpath: str) -> bool:
        relpath = relpath.replace(os.sep, "/")
        while relpath.startswith("./"):
            relpath = relpath[2:]
        name = relpath.rstrip("/").rsplit("/", 1)[-1]
        return (any(p.match(name) for p in self._name)
                or any(p.match(relpath) for p in self._path))


# ---------------------------------------------------------------------------
# expand_inputs
# ---------------------------------------------------------------------------


_MAGIC = LazyPattern(r"[*?[]")


def _has_magic(path: str) -> bool:
    return _MAGIC.search(path) is not None


class _GlobPattern:
    """A PATH glob: a fixed leading directory and wildcard segments.

    ``*``, ``?`` and ``[...]`` match within one path segment, a ``**``
    segment matches zero or more directories.  As in the shell, a wildcard
    does not match a name starting with ``.`` unless the pattern segment
    itself starts with ``.``.
    """

    def __init__(self, pattern: str):
        segs = pattern.replace(os.sep, "/").split("/")
        i = 0
        while i < len(segs) - 1 and not _has_magic(segs[i]):
            i += 1
        fixed = segs[:i]
        self.base = "/".join(fixed) if fixed else "."
        if fixed and not self.base:
            self.base = "/"
        if not fixed:
            self.prefix = ""
        elif self.base == "/":
            self.prefix = "/"
        else:
            self.prefix = self.base.rstrip("/") + "/"
        self.segments: List[Optional[Tuple["re.Pattern[str]", bool]]] = []
        for seg in segs[i:]:
            if seg == "**":
                self.segments.append(None)
            elif seg:
                self.segments.append((_translate_glob(seg), seg.startswith(".")))
        # collapse repeated ** (they mean the same) to keep matching linear
        collapsed: List[Optional[Tuple["re.Pattern[str]", bool]]] = []
        for seg in self.segments:
            if seg is None and collapsed and collapsed[-1] is None:
                continue
            collapsed.append(seg)
        self.segments = collapsed

    @staticmethod
    def _seg_ok(seg: Tuple["re.Pattern[str]", bool], name: str) -> bool:
        regex, dot_ok = seg
        if name.startswith(".") and not dot_ok:
            return False
        return regex.match(name) is not None

    def _match(self, si: int, parts: Sequence[str], pi: int, partial: bool) -> bool:
        segs = self.segments
        while True:
            if pi == len(parts):
                # all of the path consumed
                return partial or all(s is None for s in segs[si:])
            if si == len(segs):
                return False
            seg = segs[si]
            if seg is None:
                # ** : zero directories, or one more (not hidden)
                if self._match(si + 1, parts, pi, partial):
                    return True
                if parts[pi].startswith("."):
                    return False
                pi += 1
                continue
            if not self._seg_ok(seg, parts[pi]):
                return False
            si += 1
            pi += 1

    def matches(self, parts: Sequence[str]) -> bool:
        """The path (segments relative to ``base``) matches the whole pattern."""
        return bool(parts) and self._match(0, parts, 0, False)

    def could_contain(self, parts: Sequence[str]) -> bool:
        """A match may lie below the directory ``parts``."""
        return self._match(0, parts, 0, True)


def _depth_first(stack: list, ancestors: set) -> Iterator[Tuple[tuple, Entry]]:
    """The entries of the directory listings on ``stack``, depth first.

    A frame of ``stack`` is ``(identity, entries, ...)``; yields ``(frame,
    entry)``.  A frame is popped, and its directory leaves ``ancestors``,
    when its entries run out; a frame pushed meanwhile is read next.
    """
    while stack:
        frame = stack[-1]
        entry = next(frame[1], None)
        if entry is None:
            stack.pop()
            ancestors.discard(frame[0])
            continue
        yield frame, entry


class _Expander:
    def __init__(self, include: Iterable[str], exclude: Iterable[str],
                 follow_symlinks: bool, hidden: bool = True, ignore_files: bool = False,
                 skip: Optional[Callable[[str], bool]] = None, dedupe: bool = True):
        self.include = _Matcher(include)
        self.exclude = _Matcher(exclude)
        self.filtered = bool(self.include or self.exclude)
        self.follow = follow_symlinks
        self.hidden = hidden
        self.ignore_files = ignore_files
        self.skip = skip
        self.uid = os.getuid()  # access(2) checks the real user
        #: list a path once across PATH arguments (by its normpath, kept in
        #: seen_paths); one argument never reaches a path twice
        self.dedupe = dedupe
        self.seen_paths: set = set()
        self.visited_dirs: set = set()
        self.seen_files: set = set()  # (st_dev, st_ino) of files listed, when following links
        self.walk_top = ""  # real path of the directory being walked

    # -- helpers -----------------------------------------------------------

    def _emit(self, ref: InputRef) -> Iterator[InputRef]:
        if self.dedupe:
            key = ref.path if ref.path == STDIN else os.path.normpath(ref.path)
            if key in self.seen_paths:
                return
            self.seen_paths.add(key)
        yield ref

    def _refused(self, path: str) -> bool:
        return self.skip is not None and self.skip(path)

    def _new_file(self, path: str, st: os.stat_result) -> bool:
        """Whether a regular file is to be listed: not refused by ``skip``,
        and (when following links) not already listed under another path."""
        if self._refused(path):
            return False
        if self.follow:
            ident = (st.st_dev, st.st_ino)
            if ident in self.seen_files:
                return False
            self.seen_files.add(ident)
        return True

    @staticmethod
    def _link_loops(path: str) -> bool:
        """A followed link to a directory that contains the link itself."""
        target = os.path.realpath(path)
        home = os.path.realpath(os.path.dirname(path) or ".")
        return home == target or home.startswith(target.rstrip(os.sep) + os.sep)

    def _keep(self, relpath: str) -> bool:
        if self.include and not self.include.matches(relpath):
            return False
        return not (self.exclude and self.exclude.matches(relpath))

    def _file_ref(self, path: str, st: os.stat_result) -> InputRef:
        """A regular file, with ``os.access(path, R_OK)``'s verdict.  The
        mode bits give it without that system call when the real user owns
        the file and its owner may read it: for the owner, the owner's bits
        decide, whatever the group, other or ACL entries (POSIX.1e ACLs
        keep them as the ACL_USER_OBJ entry)."""
        if not (st.st_uid == self.uid and st.st_mode & stat.S_IRUSR) and not os.access(path, os.R_OK):
            return InputRef(path, PERMISSION_DENIED, st.st_size)
        return InputRef(path, None, st.st_size)

    # -- PATH arguments ------------------------------------------------------

    def expand(self, arg: str) -> Iterator[InputRef]:
        self.walk_top = ""
        if arg == STDIN:
            yield from self._emit(InputRef(STDIN, None, None))
            return
        if os.path.lexists(arg):
            yield from self._explicit(arg)
        elif _has_magic(arg):
            yield from self._glob(arg)
        else:
            yield from self._emit(InputRef(arg, NO_SUCH_FILE, None))

    def _explicit(self, path: str) -> Iterator[InputRef]:
        try:
            st = os.stat(path)
        except OSError as exc:
            yield from self._emit(InputRef(path, _stat_reason(exc, path), None))
            return
        if stat.S_ISDIR(st.st_mode):
            yield from self._walk(path, "", st)
        elif stat.S_ISREG(st.st_mode):
            if self._new_file(path, st):
                yield from self._emit(self._file_ref(path, st))
        elif stat.S_ISFIFO(st.st_mode) or stat.S_ISCHR(st.st_mode):
            # Named explicitly: process substitution, /dev/stdin...
            yield from self._emit(InputRef(path, None, None))
        else:
            kind = _special_kind(st.st_mode) or "unknown file type"
            yield from self._emit(InputRef(path, f"special file ({kind})", None))

    def _glob(self, pattern: str) -> Iterator[InputRef]:
        """Expand a glob by walking from its fixed leading directory.

        This walk shares the visited-directory set, so ``**`` terminates on
        symbolic-link loops.  A matched directory is walked whole.
        """
        pat = _GlobPattern(pattern)
        self.walk_top = os.path.realpath(pat.base)
        found = False
        try:
            base_st = os.stat(pat.base)
        except OSError:
            base_st = None
        if base_st is not None and stat.S_ISDIR(base_st.st_mode):
            listing = _entries(pat.base)
            if not isinstance(listing, InputRef):
                base_ident = (base_st.st_dev, base_st.st_ino)
                ancestors = {base_ident}
                stack: List[Tuple[tuple, Iterator, Tuple[str, ...]]] = [
                    (base_ident, iter(listing), ())]
                for (_, _, d_parts), (name, _, is_symlink) in _depth_first(stack, ancestors):
                    parts = d_parts + (name,)
                    rel = "/".join(parts)
                    path = pat.prefix + rel
                    if pat.matches(parts):
                        found = True
                        yield from self._entry(path, rel, is_symlink, ancestors)
                        continue
                    if (is_symlink and not self.follow) or not pat.could_contain(parts):
                        continue
                    try:
                        st = os.stat(path)
                    except OSError:
                        continue
                    if not stat.S_ISDIR(st.st_mode):
                        continue
                    ident = (st.st_dev, st.st_ino)
                    if ident in ancestors:
                        continue  # a loop: no match can lie below
                    sub = _entries(path)
                    if isinstance(sub, InputRef):
                        continue
                    ancestors.add(ident)
                    stack.append((ident, iter(sub), parts))
        if not found:
            yield from self._emit(InputRef(pattern, GLOB_MATCHED_NOTHING, None))

    # -- walking -------------------------------------------------------------

    def _entry(self, path: str, relpath: str, is_symlink: bool,
               ancestors: Optional[set] = None,
               stack: Optional[list] = None, rules=None) -> Iterator[InputRef]:
        """One entry found while walking a directory (or a glob match).

        A directory is walked: pushed on ``stack`` when given (inside a walk)
        or walked from here (a glob match).  ``rules`` are the ignore rules
        of the directory the entry is in.  :meth:`_descend` takes the common
        entries (plain files and directories) the same way, without a
        generator each.
        """
        if stack is not None and not self.hidden and relpath.rsplit("/", 1)[-1].startswith("."):
            yield from self._passed_over(path, relpath, HIDDEN)
            return
        if is_symlink and not self.follow:
            yield from self._passed_over(path, relpath, SYMLINK_NOT_FOLLOWED)
            return
        try:
            st = os.stat(path)
        except OSError as exc:
            if self._keep(relpath):
                reason = _stat_reason(exc, path)
                yield from self._emit(InputRef(path, reason, None, reason in _SKIPPED_REASONS))
            return
        is_dir = stat.S_ISDIR(st.st_mode)
        ignored_by = rules.ignored_by(relpath, is_dir) if rules is not None else None
        if ignored_by is not None:
            yield from self._passed_over(path, relpath, f"ignored ({ignored_by})")
            return
        if is_dir:
            ref = self._enter(path, relpath, st, is_symlink, ancestors, stack, rules)
            if ref is _WALK:
                yield from self._walk(path, relpath, st, ancestors)
            elif ref is not None:
                yield from self._emit(ref)
            return
        if not self._keep(relpath):
            return
        if stat.S_ISREG(st.st_mode):
            if is_symlink and self._inside_walk(path):
                return  # the walk lists the file under its own path
            if self._new_file(path, st):
                yield from self._emit(self._file_ref(path, st))
        else:  # not read, as ripgrep and grep -r pass over them: a FIFO may never end
            kind = _special_kind(st.st_mode) or "unknown file type"
            yield from self._emit(InputRef(path, f"special file ({kind})", None, True))

    def _enter(self, path: str, relpath: str, st: os.stat_result, is_symlink: bool,
               ancestors: Optional[set], stack: Optional[list], rules,
               parent_fd: Optional[int] = None) -> Optional[InputRef]:
        """A directory met while walking (``stack`` given) or matched by a
        glob: pushed on ``stack`` (None), or the row that says why it is not
        entered, None for no row, ``_WALK`` for a glob match to walk.
        ``parent_fd``, when given, is a descriptor of the directory that
        holds the (not linked) directory ``path``."""
        if self.exclude and self.exclude.matches(relpath):
            return None
        if is_symlink and self._link_loops(path):
            return InputRef(path, SYMLINK_LOOP, None, True) if self._keep(relpath) else None
        if stack is None:
            return _WALK
        ident = (st.st_dev, st.st_ino)
        if ident in ancestors:
            return InputRef(path, SYMLINK_LOOP, None, True) if self._keep(relpath) else None
        if ident in self.visited_dirs:
            return None  # already walked under another name
        self.visited_dirs.add(ident)
        opened = _open_listing(path, len(stack), parent_fd)
        if isinstance(opened, InputRef):
            return opened
        listing, fd = opened
        ancestors.add(ident)
        inner = rules.entering(path, relpath, {e[0] for e in listing}) if rules is not None else None
        stack.append((ident, iter(listing), path + os.sep, relpath + "/", inner, fd))
        return None

    def _passed_over(self, path: str, relpath: str, reason: str) -> Iterator[InputRef]:
        """An entry the walk does not enter nor read (hidden, ignored, a link
        not followed): listed as skipped, one row for a whole directory,
        when the include / exclude patterns keep its path and ``skip`` does
        not refuse it."""
        if self._keep(relpath) and not self._refused(path):
            yield from self._emit(InputRef(path, reason, None, True))

    def _inside_walk(self, path: str) -> bool:
        top = self.walk_top
        return bool(top) and os.path.realpath(path).startswith(top.rstrip(os.sep) + os.sep)

    def _walk(self, top: str, top_rel: str, top_st: os.stat_result,
              outer_ancestors: Optional[set] = None) -> Iterator[InputRef]:
        """Walk a directory depth-first, entries in sorted order.

        An explicit stack of directory listings keeps deep trees off the
        Python stack and tells the ancestors of every directory (to tell a
        loop from a second link to a directory walked elsewhere).  A frame
        is ``(identity, entries, path prefix, relative path prefix, ignore
        rules, descriptor or None)``.
        """
        ident = (top_st.st_dev, top_st.st_ino)
        if outer_ancestors and ident in outer_ancestors:
            if self._keep(top_rel):
                yield from self._emit(InputRef(top, SYMLINK_LOOP, None, True))
            return
        if ident in self.visited_dirs:
            return
        self.visited_dirs.add(ident)
        opened = _open_listing(top, 0)
        if isinstance(opened, InputRef):
            yield from self._emit(opened)
            return
        listing, fd = opened
        ancestors = set(outer_ancestors or ()) | {ident}
        outer_top = self.walk_top
        self.walk_top = outer_top or os.path.realpath(top)  # a glob's base, or this PATH
        rules = None
        if self.ignore_files:
            from .ignore import IgnoreRules

            rules = IgnoreRules.above(top).entering(top, top_rel, {e[0] for e in listing})
        prefix = top if top.endswith(os.sep) else top + os.sep  # as os.path.join
        stack: List[tuple] = [(ident, iter(listing), prefix, top_rel + "/" if top_rel else "", rules, fd)]
        try:
            yield from self._descend(stack, ancestors)
        finally:
            self.walk_top = outer_top
            for frame in stack:  # a walk left unfinished
                if frame[5] is not None:
                    os.close(frame[5])

    def _descend(self, stack: List[tuple], ancestors: set) -> Iterator[InputRef]:
        """The rows of the directories on ``stack``, depth first.

        Plain files and directories (known from the listing, without
        following a link: :func:`.listing.list_entries`) are taken here;
        links, special files and errors go through :meth:`_entry`.
        """
        hidden, filtered, keep, refused = self.hidden, self.filtered, self._keep, self._refused
        dedupe, seen_paths = self.dedupe, self.seen_paths
        checked = self.skip is not None or self.follow  # else every plain file is new
        S_ISREG, normpath = stat.S_ISREG, os.path.normpath
        while stack:
            depth = len(stack)
            ident, entries, d_path, d_rel, rules, fd = stack[-1]
            ignoring = rules is not None and rules.layers
            for name, st, is_link in entries:
                path = d_path + name
                rel = d_rel + name
                if not hidden and name[0] == ".":
                    if (filtered and not keep(rel)) or refused(path):
                        continue
                    ref: Optional[InputRef] = InputRef(path, HIDDEN, None, True)
                else:
                    if st is None:  # a link, a special file, or no status
                        yield from self._entry(path, rel, is_link, ancestors, stack, rules)
                        if len(stack) > depth:
                            break
                        continue
                    plain_file = S_ISREG(st.st_mode)
                    by = rules.ignored_by(rel, not plain_file) if ignoring else None
                    if by is not None:
                        if (filtered and not keep(rel)) or refused(path):
                            continue
                        ref = InputRef(path, f"ignored ({by})", None, True)
                    elif not plain_file:
                        ref = self._enter(path, rel, st, False, ancestors, stack, rules, fd)
                        if ref is None:
                            if len(stack) > depth:
                                break
                            continue
                    else:
                        if filtered and not keep(rel):
                            continue
                        if checked and not self._new_file(path, st):
                            continue
                        ref = self._file_ref(path, st)
                if dedupe:
                    key = normpath(path)
                    if key in seen_paths:
                        continue
                    seen_paths.add(key)
                yield ref
            else:
                stack.pop()
                ancestors.discard(ident)
                if fd is not None:
                    os.close(fd)


#: a walk lists a directory through a descriptor of it, opened by name in
#: its parent's, so a lookup costs one name, not a whole path
_BY_DESCRIPTOR = (os.scandir in os.supports_fd and os.open in os.supports_dir_fd
                  and os.stat in os.supports_dir_fd)
#: deeper than this, directories are listed by path (a descriptor each is
#: held while their entries are read)
_MAX_OPEN_DIRS = 64
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def _entries(path: str, fd: Optional[int] = None) -> Union[List[Entry], InputRef]:
    """The entries of the directory ``path`` (read through its descriptor
    ``fd`` when given) as :func:`.listing.list_entries` gives them, or an
    error ref."""
    try:
        return list_entries(path if fd is None else fd, EntryStat)
    except OSError as exc:
        return InputRef(path, _os_reason(exc), None)


def _open_listing(path: str, depth: int, parent_fd: Optional[int] = None
                  ) -> Union[Tuple[List[Entry], Optional[int]], InputRef]:
    """The entries of a directory sorted by name (:func:`_entries`), and an
    open descriptor of it or None; or an error ref.  ``parent_fd``: a
    descriptor of the directory holding ``path``, whose last component is
    then looked up in it."""
    if not _BY_DESCRIPTOR or depth >= _MAX_OPEN_DIRS:
        listing = _entries(path)
        return listing if isinstance(listing, InputRef) else (listing, None)
    try:
        if parent_fd is None:
            fd = os.open(path, _DIR_FLAGS)
        else:
            fd = os.open(path.rsplit(os.sep, 1)[-1], _DIR_FLAGS, dir_fd=parent_fd)
    except OSError as exc:
        return InputRef(path, _os_reason(exc), None)
    listing = _entries(path, fd)
    if isinstance(listing, InputRef):
        os.close(fd)
        return listing
    return listing, fd


#: what :meth:`_Expander._enter` says of a glob match: walk it from there
_WALK = InputRef("", "walk")


def expand_inputs(paths: Union[str, os.PathLike, Iterable[Union[str, os.PathLike]]],
                  include: Iterable[str] = (), exclude: Iterable[str] = (),
                  follow_symlinks: bool = True, *, hidden: bool = True, ignore_files: bool = False,
                  skip: Optional[Callable[[str], bool]] = None) -> Iterator[InputRef]:
    """Expand PATH arguments into the inputs of a run (see module docs).

    Yields one :class:`InputRef` per input, in a deterministic order; never
    raises for a missing, unreadable or special input (it is yielded with a
    status instead).  ``paths`` may be a single path or an iterable of them.
    """
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    paths = list(paths)
    expander = _Expander(include, exclude, follow_symlinks, hidden, ignore_files, skip, dedupe=len(paths) > 1)
    for arg in paths:
        arg = os.fsdecode(arg)
        yield from expander.expand(arg)
