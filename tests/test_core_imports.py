"""The core stays light: importing it loads neither pandas nor pyarrow."""
import os
import subprocess
import sys

import pytest


def test_core_imports_neither_pandas_nor_pyarrow():
    code = ("import sys, urnscan, urnscan.syntax, urnscan.equivalence, urnscan.model, urnscan._abnf;"
            "urnscan.validate('urn:example:a');"
            "bad = [m for m in ('pandas', 'pyarrow', 'dask') if m in sys.modules];"
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_scan_to_parquet_loads_neither_pandas_nor_pyarrow_compute(tmp_path):
    """Start-up: pyarrow imports pandas (0.3 s) when it builds an array from a
    Python list, and dictionary_encode loads pyarrow.compute; the sink builds
    its arrays from buffers instead.  Hits with nulls, non-ASCII text and
    several files, at --jobs 1 and 2."""
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "a.txt").write_text("see urn:isbn:0451450523, URN:Foo:bär and urn:x: and <urn:ietf:rfc:2141>\n")
    code = ("import sys\nfrom urnscan.cli import main\n"
            f"for jobs in ('1', '2'):\n"
            f"    main(['scan', {str(tmp_path)!r}, '-o', {str(tmp_path / 'o.parquet')!r}, '--force', '-q', '-j', jobs])\n"
            "print(','.join(m for m in ('pandas', 'pyarrow.compute', 'dask') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def _import_log(*args: str) -> set:
    out = subprocess.run([sys.executable, "-X", "importtime", *args], capture_output=True, text=True)
    assert out.returncode in (0, 1), out.stderr[-2000:]
    return {line.rsplit("|", 1)[1].strip() for line in out.stderr.splitlines() if line.startswith("import time:")}


def _modules_loaded_by(*args: str) -> set:
    """The modules a ``python -X importtime ARGS`` process (and the worker
    processes it starts) imports, read from its import log, beyond those
    the interpreter's own start-up imports (``site`` and what it loads)."""
    return _import_log(*args) - _import_log("-c", "pass")


def _numpy_optional() -> bool:
    from urnscan.sinks.loading import NUMPY_OPTIONAL_SINCE, installed_major

    return (installed_major() or 0) >= NUMPY_OPTIONAL_SINCE


def _numpy_unused() -> bool:
    """pyarrow can do without NumPy, and the scanner's compiled loops run
    (the pure-Python scanner's prefilter is NumPy's)."""
    from urnscan.accel import COMPILED

    return _numpy_optional() and COMPILED is not None


#: what the command line's scan never loads: NumPy too, where nothing needs
#: it (urnscan.sinks.loading)
NEVER_FOR_A_SCAN = ("pandas", "pyarrow.compute", "dask", "cloudpickle", *(("numpy",) if _numpy_unused() else ()))


#: what a scan that finds nothing, to Parquet, leaves unloaded
NOT_FOR_AN_EMPTY_SCAN = [*NEVER_FOR_A_SCAN, "pyarrow.fs", "pyarrow.parquet", "secrets", "urnscan.namespaces.findings",
                         "urnscan.namespaces.heuristic", "urnscan.namespaces.normative", "xml.etree.ElementTree",
                         "urnscan.sources.mail", "urnscan.sources.warc", "urnscan.sources.zipped",
                         "urnscan.sources.pdf", "email.parser", "zipfile", "warcio", "pypdfium2"]


def test_the_command_line_scan_of_an_empty_file_loads_only_what_it_needs(tmp_path):
    (tmp_path / "empty.txt").write_bytes(b"")
    loaded = _modules_loaded_by("-m", "urnscan", "scan", str(tmp_path / "empty.txt"),
                                "-o", str(tmp_path / "o.parquet"), "-q")
    assert "urnscan.sinks.parquet" in loaded and "urnscan.judge" in loaded  # the log is read
    assert [m for m in NOT_FOR_AN_EMPTY_SCAN if m in loaded] == []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_command_line_scan_never_loads_pandas_or_pyarrow_compute(tmp_path, jobs):
    """Thousands of hits, many of the same URN (the judged columns are taken
    from their distinct rows, the dictionaries are long) and some nulls."""
    lines = [f"urn:isbn:04514505{i % 97:02d} <urn:ietf:rfc:{i % 500}> caf\u00e9 urn:foo:{i}%zz URN:Example:a{i % 3}?=q\n"
             for i in range(1500)]
    (tmp_path / "a.txt").write_text("".join(lines))
    (tmp_path / "b.txt").write_text("".join(lines[:500]))
    loaded = _modules_loaded_by("-m", "urnscan", "scan", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"),
                                "-o", str(tmp_path / "o.parquet"), "-q", "--jobs", jobs)
    assert "urnscan.sinks.parquet" in loaded and "urnscan.namespaces.heuristic" in loaded
    assert [m for m in NEVER_FOR_A_SCAN if m in loaded] == []
    import pyarrow.parquet as pq

    assert pq.read_table(tmp_path / "o.parquet").num_rows == 4 * 2000


def _scan_in_a_process(tmp_path, name: str, *args: str, before: str = "") -> tuple:
    """The hits table of ``urnscan scan`` run by a fresh interpreter (after
    the statements ``before``), and whether that process loaded NumPy."""
    import pyarrow.parquet as pq

    out = tmp_path / f"{name}.parquet"
    code = (f"import sys\n{before}\nfrom urnscan.cli import main\n"
            f"rc = main([*{list(args)!r}, '-o', {str(out)!r}, '--force', '-q'])\n"
            "print(rc, 'numpy' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "URNSCAN_SPLIT_BYTES": "4096"})
    assert done.returncode == 0, done.stderr[-2000:]
    rc, numpy_loaded = done.stdout.split()
    assert rc == "0"
    return pq.read_table(out).drop_columns(["source"]), numpy_loaded == "True"


def test_pyarrow_without_numpy_writes_the_same_index(tmp_path):
    """The scan's pyarrow without NumPy (where it allows) and with it write
    the same rows: byte ranges of a file split (``URNSCAN_SPLIT_BYTES``)
    relocated and stitched, ``--valid-only`` filtering pieces, at
    ``--jobs 2``."""
    text = "".join(f"line {i}: urn:isbn:04514505{i % 97:02d} <urn:ietf:rfc:{i % 50}> caf\u00e9 urn:foo:{i}%zz\n"
                   for i in range(600))
    (tmp_path / "big.txt").write_text(text)
    for args in (["--jobs", "2"], ["--jobs", "2", "--valid-only"], ["--jobs", "1"]):
        scan = ["scan", str(tmp_path / "big.txt"), *args]
        lean, lean_numpy = _scan_in_a_process(tmp_path, "lean", *scan)
        usual, usual_numpy = _scan_in_a_process(tmp_path, "usual", *scan, before="import numpy")
        assert usual_numpy and not (lean_numpy and _numpy_unused())
        assert lean.num_rows > 600 and lean.equals(usual)


def test_an_older_pyarrow_is_loaded_as_usual(tmp_path):
    (tmp_path / "a.txt").write_text("urn:isbn:0451450523 and urn:ietf:rfc:2141\n")
    older = "import urnscan.sinks.loading as loading\nloading.installed_major = lambda package='pyarrow': 17"
    table, numpy_loaded = _scan_in_a_process(tmp_path, "older", "scan", str(tmp_path / "a.txt"), before=older)
    assert numpy_loaded and table.column("urn").to_pylist() == ["urn:isbn:0451450523", "urn:ietf:rfc:2141"]


def test_the_installed_major_version_is_read_from_the_dist_info_name(tmp_path, monkeypatch):
    from urnscan.sinks.loading import installed_major

    site = tmp_path / "site"
    (site / "fakepkg").mkdir(parents=True)
    (site / "fakepkg" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(site))
    assert installed_major("fakepkg") is None  # no metadata
    (site / "fakepkg-19.0.1.dist-info").mkdir()
    (site / "fakepkg_other-3.0.dist-info").mkdir()
    assert installed_major("fakepkg") == 19
    (site / "fakepkg-20.0.0.dist-info").mkdir()
    assert installed_major("fakepkg") is None  # two installs: cannot tell
    assert installed_major("no_such_package_here") is None


PACKAGE_FACE = [
    ("parse", "urnscan.syntax"), ("validate", "urnscan.syntax"), ("is_valid", "urnscan.syntax"),
    ("canonical", "urnscan.equivalence"), ("equivalence_key", "urnscan.equivalence"),
    ("display_form", "urnscan.equivalence"), ("validate_keys", "urnscan.batch"),
    ("scan_text", "urnscan.scanner"), ("scan_bytes", "urnscan.scanner"), ("scan_file", "urnscan.scanner"),
    ("Urn", "urnscan.model"), ("Verdict", "urnscan.model"), ("Finding", "urnscan.model"), ("Hit", "urnscan.model"),
    ("PROFILES", "urnscan.model"), ("DEFAULT_PROFILE", "urnscan.model"),
    ("UrnscanError", "urnscan.errors"), ("UrnError", "urnscan.errors"), ("ProfileError", "urnscan.errors"),
    ("SourceError", "urnscan.errors"), ("SinkError", "urnscan.errors"),
    ("read_index", "urnscan.frame"), ("read_files_table", "urnscan.frame"), ("dedupe", "urnscan.frame"),
    ("dedupe_index", "urnscan.frame"),
    ("scan_series", "urnscan.frame"), ("summary_by_namespace", "urnscan.frame"),
]


def test_the_package_face_is_the_modules_own_objects():
    import importlib

    import urnscan

    assert sorted(urnscan.__all__) == sorted(["__version__", *(name for name, _ in PACKAGE_FACE)])
    got = [(name, getattr(urnscan, name) is getattr(importlib.import_module(module), name))
           for name, module in PACKAGE_FACE]
    assert got == [(name, True) for name, _ in PACKAGE_FACE]


CORE_IMPORTS = [
    # module, the package modules it may import (anywhere in it, functions included)
    ("_abnf", set()),
    ("lazyre", set()),
    ("errors", set()),
    ("model", {"_abnf", "lazyre"}),
    ("diagnosis", {"_abnf", "lazyre", "model"}),
    ("syntax", {"_abnf", "diagnosis", "errors", "lazyre", "model"}),
    ("equivalence", {"lazyre", "model", "syntax"}),
    ("batch", {"_abnf", "lazyre", "model", "syntax"}),
]


def _package_imports(module: str) -> set:
    import ast
    from pathlib import Path

    tree = ast.parse((Path(__file__).resolve().parents[1] / "urnscan" / f"{module}.py").read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found.update([node.module] if node.module else [alias.name for alias in node.names])
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("urnscan"):
            found.add(node.module.split(".", 1)[1] if "." in node.module else node.module)
    return found


@pytest.mark.parametrize("module, allowed", CORE_IMPORTS)
def test_the_core_imports_downward_only(module, allowed):
    """model <- syntax <- equivalence: no cycle, and none hidden inside a
    function."""
    assert _package_imports(module) == allowed


def test_the_grammars_compile_on_first_use():
    code = ("import urnscan, urnscan.syntax as s;"
            "before = sorted(p.pattern[:20] for p in s._GRAMMAR.values() if 'fullmatch' in vars(p));"
            "urnscan.validate('urn:example:a?=b');"
            "after = [str(p) for p in s._GRAMMAR if 'fullmatch' in vars(s._GRAMMAR[p])];"
            "print(before, after)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["[]", "['rfc8141']"]


@pytest.mark.parametrize("text", ["urn:example:a", "urn:example:a?=b#c", "URN:ex:%2c", "urn:", "x urn:a:b"])
def test_a_lazy_pattern_is_the_compiled_pattern(text):
    import pickle
    import re

    from urnscan import _abnf
    from urnscan.lazyre import LazyPattern

    for source, flags in ((_abnf.RFC8141_NAMESTRING, 0), (_abnf.RFC2141_URN, 0), (_abnf.DRAFT1995_URN, re.I)):
        lazy, compiled = LazyPattern(source, flags), re.compile(source, flags)
        assert (lazy.pattern, lazy.flags) == (source, flags) and not vars(lazy)  # read, not compiled
        again = pickle.loads(pickle.dumps(lazy))
        for pattern in (lazy, again):
            assert [m and m.span() for m in (pattern.fullmatch(text), pattern.search(text))] == \
                [m and m.span() for m in (compiled.fullmatch(text), compiled.search(text))]
            assert pattern.sub("-", text) == compiled.sub("-", text) and pattern.groups == compiled.groups
    with pytest.raises(AttributeError):
        LazyPattern("a").__deepcopy__


def test_importing_the_command_compiles_no_pattern():
    """The patterns of the reading rules, the sources and the sinks are
    compiled where they are first used: a run that meets no URN compiles
    none of them."""
    code = ("import re, sys\n"
            "compiled = []\n"
            "original = re._compile\n"
            "def counting(pattern, flags):\n"
            "    caller = sys._getframe(2).f_globals.get('__name__', '')\n"
            "    if caller.startswith('urnscan'):\n"
            "        compiled.append(caller)\n"
            "    return original(pattern, flags)\n"
            "re._compile = counting\n"
            "import urnscan.cli.scan\n"
            "print(len(compiled), sorted(set(compiled)))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split()[0] == "0", out.stdout