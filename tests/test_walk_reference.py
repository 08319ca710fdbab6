"""The walk of ``expand_inputs`` equals a plain recursive walk that follows
the walking rules word for word, over generated trees (files, directories,
hidden names, links, FIFOs, .ignore / .gitignore files), and the table of
what the walk says of each kind of entry."""
import fnmatch
import os
import shutil
import socket
import stat
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from urnscan.sources import InputRef, expand_inputs, inputs
from urnscan.sources.ignore import GITIGNORE, IGNORE, IgnoreRules

# ---------------------------------------------------------------------------
# the reference: one os.lstat per entry, the rules in the order the docs give
# ---------------------------------------------------------------------------


def reference(top, *, hidden, ignore_files, include=(), exclude=()):
    """The rows of walking the directory ``top`` without following links."""

    def name_matches(patterns, rel):
        return any(fnmatch.fnmatchcase(rel.rsplit("/", 1)[-1], p) for p in patterns)

    def keep(rel):
        return (not include or name_matches(include, rel)) and not name_matches(exclude, rel)

    def dot_names(directory):
        return {n for n in (".git", GITIGNORE, IGNORE) if os.path.lexists(os.path.join(directory, n))}

    rows = []

    def visit(directory, rel_dir, rules):
        for name in sorted(os.listdir(directory)):
            path = os.path.join(directory, name)
            rel = f"{rel_dir}/{name}" if rel_dir else name
            info = os.lstat(path)
            if not hidden and name.startswith("."):
                reason = "hidden"
            elif stat.S_ISLNK(info.st_mode):
                reason = "symbolic link (not followed)"
            else:
                by = rules.ignored_by(rel, stat.S_ISDIR(info.st_mode)) if rules else None
                reason = f"ignored ({by})" if by else None
            if reason is not None:
                if keep(rel):
                    rows.append(InputRef(path, reason, None, True))
            elif stat.S_ISDIR(info.st_mode):
                if not name_matches(exclude, rel):
                    visit(path, rel, rules.entering(path, rel, dot_names(path)) if rules else None)
            elif not keep(rel):
                continue
            elif stat.S_ISREG(info.st_mode):
                rows.append(InputRef(path, None, info.st_size))
            else:
                rows.append(InputRef(path, "special file (FIFO)", None, True))

    rules = IgnoreRules.above(top).entering(top, "", dot_names(top)) if ignore_files else None
    visit(top, "", rules)
    return rows


# ---------------------------------------------------------------------------
# generated trees
# ---------------------------------------------------------------------------

NAMES = st.sampled_from(["a", "b", "B", "ab", "a.txt", "b.log", "é", "_x", ".h", ".hid.txt", "d"])
PATTERNS = st.sampled_from(["*.txt", "a*", "!ab", "/b", "d/", "a/", "B", "*.log", "!a.txt", "é/", "**/ab", "b/"])
LEAVES = st.one_of(
    st.binary(max_size=8).map(lambda b: ("file", b)),
    st.just(("fifo", None)),
    st.sampled_from(["a", "../a", "nowhere", ".", "..", "d/ab"]).map(lambda t: ("link", t)),
    st.lists(PATTERNS, max_size=4).map(lambda ps: ("rules", "\n".join(ps) + "\n")),
)
TREES = st.recursive(LEAVES, lambda children: st.dictionaries(NAMES, children, max_size=5), max_leaves=25)


def build(directory, tree):
    for name, node in tree.items():
        path = os.path.join(directory, name)
        if isinstance(node, dict):
            os.mkdir(path)
            build(path, node)
        elif node[0] == "file":
            with open(path, "wb") as fh:
                fh.write(node[1])
        elif node[0] == "fifo":
            os.mkfifo(path)
        elif node[0] == "link":
            os.symlink(node[1], path)
        else:  # an ignore file under this name, and one under its own
            for rules_name in (name, IGNORE if name < "b" else GITIGNORE):
                with open(os.path.join(directory, rules_name), "w") as fh:
                    fh.write(node[1])


#: how directories are listed: through descriptors (all, or the first two
#: levels), or by path alone (where descriptors cannot be used)
LISTERS = {"descriptors": (inputs._BY_DESCRIPTOR, inputs._MAX_OPEN_DIRS), "two levels": (True, 2),
           "paths": (False, 0)}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=st.dictionaries(NAMES, TREES, max_size=6), git=st.booleans(), hidden=st.booleans(),
       ignore_files=st.booleans(), include=st.lists(st.sampled_from(["*.txt", "a*", "b"]), max_size=2),
       exclude=st.lists(st.sampled_from(["*.log", "d", ".h"]), max_size=2), lister=st.sampled_from(sorted(LISTERS)))
def test_the_walk_equals_a_plain_reference_walk(tree, git, hidden, ignore_files, include, exclude, lister):
    root = tempfile.mkdtemp()
    saved = inputs._BY_DESCRIPTOR, inputs._MAX_OPEN_DIRS
    inputs._BY_DESCRIPTOR, inputs._MAX_OPEN_DIRS = LISTERS[lister]
    try:
        top = os.path.join(root, "top")
        os.mkdir(top)
        if git:
            os.mkdir(os.path.join(top, ".git"))
        build(top, tree)
        options = dict(hidden=hidden, ignore_files=ignore_files, include=include, exclude=exclude)
        got = list(expand_inputs([top], follow_symlinks=False, **options))
        assert got == reference(top, **options)
        # a path reached by two PATH arguments is listed once, the first time
        assert list(expand_inputs([top, top + "/", top], follow_symlinks=False, **options)) == got
        for ref in [r for r in got if r.ok][:1]:
            spelled = top + "/./" + os.path.relpath(ref.path, top)
            again = list(expand_inputs([spelled, top], follow_symlinks=False, **options))
            assert again == [ref._replace(path=spelled)] + [r for r in got if r != ref]
    finally:
        inputs._BY_DESCRIPTOR, inputs._MAX_OPEN_DIRS = saved
        shutil.rmtree(root)


# ---------------------------------------------------------------------------
# what the walk says of each kind of entry
# ---------------------------------------------------------------------------


def make(kind, path):
    if kind == "file":
        path.write_bytes(b"12345")
    elif kind == "dir":
        path.mkdir()
        (path / "in.txt").write_bytes(b"1")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(path))
        return sock
    elif kind.startswith("link:"):
        path.symlink_to(kind[5:])
    return None


# (entry "x" in the walked directory, follow links, rows as (path, status, size, skipped))
ENTRIES = [
    ("file", False, [("t/x", None, 5, False)]),
    ("dir", False, [("t/x/in.txt", None, 1, False)]),
    ("fifo", False, [("t/x", "special file (FIFO)", None, True)]),
    ("socket", False, [("t/x", "special file (socket)", None, True)]),
    ("link:../elsewhere.txt", False, [("t/x", "symbolic link (not followed)", None, True)]),
    ("link:../elsewhere.txt", True, [("t/x", None, 3, False)]),
    ("link:nowhere", True, [("t/x", "dangling symbolic link", None, True)]),
    ("link:.", True, [("t/x", "symbolic link loop", None, True)]),
    ("link:x", True, [("t/x", "symbolic link loop", None, True)]),
    ("link:../other", True, [("t/x/o.txt", None, 2, False)]),
    ("link:y.txt", True, [("t/y.txt", None, 1, False)]),     # listed once, under its own path
]


@pytest.mark.parametrize("kind,follow,rows", ENTRIES)
def test_what_the_walk_says_of_each_kind_of_entry(tmp_path, monkeypatch, kind, follow, rows):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t").mkdir()
    (tmp_path / "elsewhere.txt").write_bytes(b"abc")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "o.txt").write_bytes(b"ab")
    if kind == "link:y.txt":
        (tmp_path / "t" / "y.txt").write_bytes(b"y")
    sock = make(kind, tmp_path / "t" / "x")
    try:
        got = [tuple(r) for r in expand_inputs(["t"], follow_symlinks=follow)]
    finally:
        if sock is not None:
            sock.close()
    assert got == rows


@pytest.mark.parametrize("name,hidden,ignore,rows", [
    (".x", False, False, [("t/.x", "hidden", None, True)]),
    (".x", True, False, [("t/.x", None, 5, False)]),
    ("x", False, True, [("t/x", "ignored (.ignore)", None, True)]),
    ("x", False, False, [("t/x", None, 5, False)]),
])
def test_hidden_and_ignored_entries(tmp_path, monkeypatch, name, hidden, ignore, rows):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / name).write_bytes(b"12345")
    (tmp_path / ".ignore").write_text("x\n")   # above the walked directory: it applies
    got = [tuple(r) for r in expand_inputs(["t"], hidden=hidden, ignore_files=ignore)]
    assert got == rows


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc/self/fd")
@pytest.mark.parametrize("taken", [0, 1, 3, None])
def test_a_walk_finished_or_left_leaves_no_descriptor_open(tmp_path, taken):
    for rel in ("a/b/c/one.txt", "a/b/two.txt", "a/three.txt", "d/four.txt"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(b"x")
    before = sorted(os.listdir("/proc/self/fd"))
    walk = expand_inputs([str(tmp_path)])
    got = list(walk) if taken is None else [next(walk) for _ in range(taken)]
    walk.close()
    assert sorted(os.listdir("/proc/self/fd")) == before
    assert len(got) == (4 if taken is None else taken)
