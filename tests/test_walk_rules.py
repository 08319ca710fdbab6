"""Walking the ripgrep way: hidden files, .ignore / .gitignore, symbolic links."""
import os
import subprocess

import pytest

from urnscan.sources import expand_inputs


def listed(*args, **kw):
    return [(r.path, r.status, r.skipped) for r in expand_inputs(list(args), **kw)]


def paths(*args, **kw):
    """The inputs to be read (not those passed over)."""
    return [r.path for r in expand_inputs(list(args), **kw) if r.ok]


@pytest.fixture()
def repo(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    files = {
        ".git/HEAD": "ref", ".gitignore": "*.log\nbuild/\n!keep.log\n/top-only.txt\n",
        ".ignore": "secret*\n", "a.txt": "x", "debug.log": "x", "keep.log": "x",
        "top-only.txt": "x", "build/out.txt": "x", "src/top-only.txt": "x",
        "src/.gitignore": "!debug.log\n", "src/debug.log": "x", "src/secret.txt": "x",
        "src/.hidden.txt": "x", ".hidden/inner.txt": "x",
        "src/.ignore": "!secret.txt\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    monkeypatch.chdir(tmp_path)
    return root


# (walk options, files listed)
CASES = [
    (dict(hidden=False, ignore_files=True),
     ["repo/a.txt", "repo/keep.log", "repo/src/debug.log", "repo/src/secret.txt",
      "repo/src/top-only.txt"]),
    (dict(hidden=True, ignore_files=True),
     [".git/HEAD", ".gitignore", ".hidden/inner.txt", ".ignore", "a.txt", "keep.log",
      "src/.gitignore", "src/.hidden.txt", "src/.ignore", "src/debug.log", "src/secret.txt",
      "src/top-only.txt"]),
    (dict(hidden=False, ignore_files=False),
     ["repo/a.txt", "repo/build/out.txt", "repo/debug.log", "repo/keep.log", "repo/src/debug.log",
      "repo/src/secret.txt", "repo/src/top-only.txt", "repo/top-only.txt"]),
]


@pytest.mark.parametrize("options,expected", CASES)
def test_hidden_and_ignore_rules(repo, options, expected):
    expected = [p if p.startswith("repo/") else "repo/" + p for p in expected]
    assert paths("repo", **options) == expected


def test_what_the_walk_passes_over_is_listed_not_dropped(repo):
    passed_over = [(p, why) for p, why, skipped in listed("repo", hidden=False, ignore_files=True) if skipped]
    assert passed_over == [
        ("repo/.git", "hidden"), ("repo/.gitignore", "hidden"), ("repo/.hidden", "hidden"),
        ("repo/.ignore", "hidden"), ("repo/build", "ignored (.gitignore)"),
        ("repo/debug.log", "ignored (.gitignore)"), ("repo/src/.gitignore", "hidden"),
        ("repo/src/.hidden.txt", "hidden"), ("repo/src/.ignore", "hidden"),
        ("repo/top-only.txt", "ignored (.gitignore)"),
    ]
    assert ("repo/src/secret.txt", None, False) in listed("repo", hidden=False, ignore_files=True)
    (repo / "secret.txt").write_text("x")
    assert ("repo/secret.txt", "ignored (.ignore)", True) in listed("repo", hidden=False, ignore_files=True)


def test_gitignore_counts_only_in_a_git_work_tree(repo):
    os.rename(repo / ".git", repo / "not-git")
    (repo / "secret.txt").write_text("x")
    got = paths("repo", hidden=False, ignore_files=True)
    assert "repo/debug.log" in got and "repo/build/out.txt" in got     # .gitignore: no effect
    assert "repo/secret.txt" not in got                                # .ignore: still applies


def test_rules_of_parent_directories_apply(repo):
    # walking repo/src alone: the .gitignore and .ignore of repo still count
    (repo / "src" / "secret2.txt").write_text("x")
    got = paths("repo/src", hidden=False, ignore_files=True)
    assert "repo/src/secret2.txt" not in got and "repo/src/secret.txt" in got


# (the rules of the repository, the directory walked, what the walk lists)
INSIDE_AN_IGNORED_DIRECTORY = [
    ("node_modules/\n", "node_modules/pkg", ["a.txt", "b.log", "sub/c.txt"]),
    ("/vendor\n", "vendor/pkg", ["a.txt", "b.log", "sub/c.txt"]),
    ("vendor/**\n", "vendor/pkg", []),  # a pattern of what lies below: it matches the entries
    ("*\n!*/\n!*.txt\n", "node_modules/pkg", ["a.txt", "sub/c.txt"]),
    # the rules still apply to what the walk meets, as ripgrep applies them
    ("node_modules/\n*.log\nsub/\n", "node_modules/pkg", ["a.txt"]),
    ("/node_modules/pkg/sub\n", "node_modules/pkg", ["a.txt", "b.log"]),
    ("/node_modules/pkg/sub/c.txt\n", "node_modules/pkg", ["a.txt", "b.log"]),
    ("node_modules/\n!node_modules/pkg/b.log\n*.log\n", "node_modules/pkg", ["a.txt", "sub/c.txt"]),
    ("node_modules/\n*.log\n!node_modules/pkg/b.log\n", "node_modules/pkg", ["a.txt", "b.log", "sub/c.txt"]),
    ("*.log\n!b.log\n", "node_modules/pkg", ["a.txt", "b.log", "sub/c.txt"]),
]


@pytest.mark.parametrize("rules,walked,expected", INSIDE_AN_IGNORED_DIRECTORY)
def test_a_walk_inside_an_ignored_directory_reads_it_the_ripgrep_way(tmp_path, monkeypatch, rules, walked, expected):
    # ripgrep tests a parent's pattern against the entries of the walk, never
    # against the directory walked or its parents
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text(rules)
    for rel in ("a.txt", "b.log", "sub/c.txt"):
        (tmp_path / walked / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / walked / rel).write_text("x")
    monkeypatch.chdir(tmp_path)
    assert paths(walked, hidden=False, ignore_files=True) == [f"{walked}/{rel}" for rel in expected]


def test_named_files_are_scanned_whatever_the_rules(repo):
    assert paths("repo/debug.log", "repo/src/.hidden.txt", hidden=False, ignore_files=True) == [
        "repo/debug.log", "repo/src/.hidden.txt"]


@pytest.fixture()
def links(tmp_path, monkeypatch):
    top = tmp_path / "top"
    (top / "a").mkdir(parents=True)
    (top / "a" / "one.txt").write_text("x")
    (top / "a" / "loop").symlink_to("..")
    (top / "b").symlink_to("a")
    (top / "a" / "alias.txt").symlink_to("one.txt")
    (tmp_path / "outside.txt").write_text("x")
    (top / "a" / "out.txt").symlink_to(tmp_path / "outside.txt")
    (top / "a" / "dangling").symlink_to("nowhere")
    monkeypatch.chdir(tmp_path)
    return top


def test_links_are_not_followed_by_default_the_ripgrep_way(links):
    assert listed("top/b", follow_symlinks=False) == [
        ("top/b/alias.txt", "symbolic link (not followed)", True),
        ("top/b/dangling", "symbolic link (not followed)", True),
        ("top/b/loop", "symbolic link (not followed)", True),
        ("top/b/one.txt", None, False),
        ("top/b/out.txt", "symbolic link (not followed)", True),
    ]


def test_followed_links_never_leave_the_tree_and_each_file_is_listed_once(links):
    # b -> a and a/loop -> ..: the walk of top/b never reaches top's other entries
    assert listed("top/b", follow_symlinks=True) == [
        ("top/b/dangling", "dangling symbolic link", True),
        ("top/b/loop", "symbolic link loop", True),
        ("top/b/one.txt", None, False),
        ("top/b/out.txt", None, False),          # a link to a file outside: listed
    ]
    got = listed("top", follow_symlinks=True)
    assert [p for p, _, _ in got].count("top/a/one.txt") == 1
    assert not any(p.startswith("top/b/") for p, _, _ in got)   # b: a directory walked already


def test_skip_refuses_files(links):
    refused = paths("top/a", follow_symlinks=False, skip=lambda p: p.endswith("one.txt"))
    assert refused == []


# (entry refused by skip, walk options): an entry the walk would list as
# passed over is not listed either ("urnscan scan" never lists its own
# hidden temporary files, an ignored output, a hidden dataset directory)
PASSED_OVER_SKIPS = [
    ("repo/src/.hidden.txt", dict(hidden=False, ignore_files=True)),
    ("repo/.hidden", dict(hidden=False, ignore_files=True)),
    ("repo/debug.log", dict(hidden=False, ignore_files=True)),
    ("repo/build", dict(hidden=False, ignore_files=True)),
    ("repo/.hidden/inner.txt", dict(hidden=True, ignore_files=False)),
]


@pytest.mark.parametrize("refused,options", PASSED_OVER_SKIPS)
def test_skip_refuses_entries_passed_over_too(repo, refused, options):
    every = listed("repo", follow_symlinks=False, **options)
    assert refused in [p for p, _, _ in every]
    got = listed("repo", follow_symlinks=False, skip=lambda p: p == refused, **options)
    assert got == [row for row in every if row[0] != refused]


def test_skip_refuses_a_link_not_followed(links):
    every = listed("top/a", follow_symlinks=False)
    got = listed("top/a", follow_symlinks=False, skip=lambda p: p == "top/a/alias.txt")
    assert ("top/a/alias.txt", "symbolic link (not followed)", True) in every
    assert got == [row for row in every if row[0] != "top/a/alias.txt"]


# ---------------------------------------------------------------------------
# .gitignore rules against git itself
# ---------------------------------------------------------------------------

GITIGNORES = {
    ".gitignore": "*.log\n!important.log\n/root-only.txt\nbuild/\ndocs/**/draft-*\n\\#hash.txt\n"
                  "*.tmp\n!keep/*.tmp\nspace\\ name.txt\n[ab]?.dat\n",
    "src/.gitignore": "!debug.log\ngenerated/\n*.bak\n/local.txt\n",
    "src/deep/.gitignore": "!*.bak\nroot-only.txt\n",
}
PATHS = [
    "a.log", "important.log", "root-only.txt", "src/root-only.txt", "src/deep/root-only.txt",
    "build/x.txt", "src/build/y.txt", "docs/a/b/draft-1.md", "docs/final.md", "#hash.txt",
    "x.tmp", "keep/y.tmp", "keep/sub/z.tmp", "space name.txt", "a1.dat", "c1.dat", "ab1.dat",
    "src/debug.log", "src/other.log", "src/generated/g.txt", "src/f.bak", "src/deep/f.bak",
    "src/local.txt", "src/deep/local.txt", "plain.txt", "src/deep/plain.txt",
]


def test_gitignore_rules_list_what_git_lists(tmp_path):
    import shutil

    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")
    root = tmp_path / "r"
    for rel, text in {**GITIGNORES, **{p: "x" for p in PATHS}}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    subprocess.run([git, "init", "-q", str(root)], check=True)
    listed = subprocess.run([git, "-C", str(root), "ls-files", "--others", "--exclude-standard", "-z"],
                            capture_output=True, check=True).stdout.decode().split("\0")
    expected = sorted(p for p in listed if p)
    ours = sorted(os.path.relpath(p, root) for p in paths(str(root), hidden=True, ignore_files=True)
                  if "/.git/" not in p)
    assert ours == expected


# (lines of an ignore file that are no pattern, as git reads them: each
# matches nothing, and the file's other lines apply)
NOT_PATTERNS = ["!", "\\", "build\\", "[z-a]", "[[:alpha:]]x", "[\n"]


@pytest.mark.parametrize("line", NOT_PATTERNS)
@pytest.mark.parametrize("name", [".ignore", ".gitignore"])
def test_a_line_that_is_no_pattern_is_passed_over(tmp_path, monkeypatch, line, name):
    import warnings

    root = tmp_path / "r"
    (root / ".git").mkdir(parents=True)
    (root / "sub").mkdir()
    (root / name).write_text(f"secret*\n{line}\n*.log\n")
    for rel in ("a.txt", "secret.txt", "x.log", "build", "z", "sub/b.txt"):
        (root / rel).write_text("x")
    monkeypatch.chdir(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert paths("r", hidden=False, ignore_files=True) == ["r/a.txt", "r/build", "r/sub/b.txt", "r/z"]
        # the rules of a parent apply the same way to a walk below it
        assert paths("r/sub", hidden=False, ignore_files=True) == ["r/sub/b.txt"]


def test_lines_that_are_no_patterns_match_what_git_lists(tmp_path):
    import shutil

    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")
    root = tmp_path / "r"
    root.mkdir()
    (root / ".gitignore").write_text("secret*\n!\n\\\nbuild\\\n*.log\n")
    for rel in ("a.txt", "secret.txt", "x.log", "build", "build\\", "!"):
        (root / rel).write_text("x")
    subprocess.run([git, "init", "-q", str(root)], check=True)
    listed = subprocess.run([git, "-C", str(root), "ls-files", "--others", "--exclude-standard", "-z"],
                            capture_output=True, check=True).stdout.decode().split("\0")
    ours = sorted(os.path.relpath(p, root) for p in paths(str(root), hidden=True, ignore_files=True)
                  if "/.git/" not in p)
    assert ours == sorted(p for p in listed if p)


def test_an_ignore_file_that_is_a_fifo_is_not_read(tmp_path):
    import threading

    root = tmp_path / "r"
    root.mkdir()
    (root / "a.txt").write_text("x")
    os.mkfifo(root / ".ignore")  # opened for reading, it would wait for a writer forever
    found = []
    walk = threading.Thread(target=lambda: found.extend(paths(str(root), hidden=False, ignore_files=True)),
                            daemon=True)
    walk.start()
    walk.join(20)
    assert not walk.is_alive()
    assert found == [str(root / "a.txt")]


def test_an_ignore_file_past_the_limit_gives_its_whole_lines_only(tmp_path, monkeypatch):
    from urnscan.sources.ignore import MAX_IGNORE_FILE_BYTES

    root = tmp_path / "r"
    root.mkdir()
    head = b"first.txt\n"
    # "skip.txt" straddles the limit: "sk" is within it, and no pattern
    padding = b"#" * (MAX_IGNORE_FILE_BYTES - len(head) - 3) + b"\n"
    (root / ".ignore").write_bytes(head + padding + b"skip.txt\n")
    for rel in ("first.txt", "sk", "skip.txt", "a.txt"):
        (root / rel).write_text("x")
    monkeypatch.chdir(tmp_path)
    assert paths("r", hidden=False, ignore_files=True) == ["r/a.txt", "r/sk", "r/skip.txt"]
