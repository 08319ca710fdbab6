"""``urnscan scan``: point urnscan at a corpus, get an index."""
from __future__ import annotations

import contextlib
import math
import os
import sys
import time
from typing import Optional, TextIO

from .codes import EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE, PROFILE_CHOICES, OutputGone, plural, say_error
from ..accel import in_use as accel_in_use
from ..errors import OutputExists, OutputIsSpecial, OutputRefused, SettingError, SinkError
from ..sources.documents import BINARY_CONTENT, PDF_MISSING
from ..sources.inputs import DANGLING_SYMLINK, SYMLINK_LOOP
from ..runner import ScanConfig, default_jobs, run_scan, split_bytes_setting
from ..settings import number_setting
from ..scanner import DEFAULT_MAX_URN_LENGTH, MAX_URN_LENGTH_LIMIT, MIN_URN_LENGTH_LIMIT, _options
from ..sinks.status import ERROR, SCANNED, SKIPPED_BINARY, FileStatus
from ..sources import STDIN, expand_inputs
from ..sources.limits import DEFAULT_MAX_RATIO
from .outputs import is_stream, open_sink, own_outputs, refuse_inputs_among

FORMATS = ("parquet", "jsonl", "text")
_SUFFIXES = {".parquet": "parquet", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".txt": "text"}
COLOR_CHOICES = ("auto", "never", "always")
UNIQUE_CHOICES = ("urn", "key", "ns")
#: skipped inputs worth a note on stderr (the others follow the walking rules the user chose)
_NOTED_SKIPS = (SYMLINK_LOOP, DANGLING_SYMLINK)
#: the Hit attribute each --unique level counts
_UNIQUE_FIELD = {"urn": "urn", "key": "key", "ns": "ns_key"}


def add_scan(sub) -> None:
    from ..context import DEFAULT_CONTEXT, MAX_CONTEXT

    p = sub.add_parser(
        "scan", help="find URNs in files, directories, globs or stdin",
        description="Scan inputs for URNs and write every candidate -- valid or not, with its findings -- "
                    "to Parquet (an index with a files table beside it), JSON lines, or grep-like "
                    "'path:line:col:urn' text.  Compressed inputs (gzip, bz2, xz, zstd) are read by "
                    "content; binary files are skipped and counted.  Directories are walked the way "
                    "ripgrep walks them: hidden files and files matched by .ignore / .gitignore rules "
                    "are skipped (--hidden, --no-ignore, -u), symbolic links are followed only with -L.  "
                    "With no PATH, standard input is read when it is not a terminal, else the current "
                    "directory is scanned.  Exit status: 0 every input scanned (binary files and "
                    "symbolic-link loops skipped count as scanned), 1 some inputs could not be read or "
                    "the output could not be written, 2 usage errors.",
        epilog="Examples:  urnscan scan corpus/ -o index.parquet   |   urnscan scan '**/*.xml' --valid-only   |   "
               "zcat mail.gz | urnscan scan --format jsonl   |   urnscan scan -c docs/   |   "
               "urnscan scan --unique=key corpus/")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="a file, a directory (scanned recursively), a glob ('**' allowed), or '-' for stdin")
    out = p.add_argument_group("output")
    out.add_argument("-o", "--output", metavar="OUT",
                     help="output file or dataset directory; the format follows its suffix (.parquet, .jsonl, "
                          ".txt) or a directory / trailing '/' (Parquet dataset); '-' is standard output (text, "
                          "or --format jsonl).  A device, FIFO or socket is never replaced; a symbolic link is "
                          "written through; missing directories are created.  Default: text on stdout")
    out.add_argument("--format", choices=FORMATS, help="output format (overrides the suffix of OUT)")
    out.add_argument("--force", action="store_true", help="overwrite an existing output")
    out.add_argument("-C", "--context", type=int, default=None, metavar="N",
                     help=f"keep up to N bytes of text each side of every hit (at most {MAX_CONTEXT}), white "
                          "space collapsed: the 'context' column of Parquet and JSON lines (default "
                          f"{DEFAULT_CONTEXT}; 0 leaves it null), and in text output a 'path-line-col-text' "
                          "line after each hit (default 0: none)")
    out.add_argument("-c", "--count", action="store_true",
                     help="text output: print 'path:N' for every input with hits, instead of the hits")
    out.add_argument("-l", "--files-with-matches", action="store_true",
                     help="text output: print the path of every input with hits, instead of the hits")
    out.add_argument("--unique", nargs="?", const="urn", choices=UNIQUE_CHOICES, metavar="BY",
                     help="text output: print each distinct URN once, 'N<TAB>URN', most frequent first, "
                          "instead of the hits; --unique=key counts by equivalence key, --unique=ns by "
                          "namespace-aware key (candidates without a key are left out).  Holds one entry "
                          "per distinct value in memory")
    out.add_argument("--color", "--colour", choices=COLOR_CHOICES, default="auto", metavar="WHEN",
                     help="colour text output: auto (when stdout is a terminal and NO_COLOR is unset), "
                          "never or always; the URN is coloured, an invalid one dimmed")
    what = p.add_argument_group("what is found")
    what.add_argument("--profile", choices=PROFILE_CHOICES, default="rfc8141",
                      help="syntax profile for the extent of bare URNs and for 'valid' (default: %(default)s)")
    what.add_argument("--no-trim", action="store_true",
                      help="keep trailing sentence punctuation (the literal RFC 2141 extent)")
    what.add_argument("--no-fold", action="store_true", help="do not join URNs folded over lines")
    # reading rules (README: What it finds); each hit's "rules" names those that shaped it
    what.add_argument("--no-pair", action="store_true",
                      help="do not end a URN at the closer of the quote or parenthesis before it")
    what.add_argument("--no-code", action="store_true",
                      help="report templates, placeholders, concatenated strings, patterns and elisions too")
    what.add_argument("--no-embedded", action="store_true",
                      help="do not end a URN inside a URL or form parameters at '&'")
    what.add_argument("--percent-encoded", action="store_true",
                      help="also report URNs percent-encoded in URLs ('?urn=urn%%3Anbn%%3A...', "
                           "'/urn%%3Aisbn%%3A...'), decoded once; off by default: the text holds them "
                           "in a URL's encoding, not as URNs")
    what.add_argument("--valid-only", action="store_true", help="write only hits valid under --profile")
    what.add_argument("--max-urn-length", type=int, default=DEFAULT_MAX_URN_LENGTH, metavar="N",
                      help=f"longer candidates are reported as over-long ({MIN_URN_LENGTH_LIMIT} to "
                           f"{MAX_URN_LENGTH_LIMIT}; default: %(default)s)")
    what.add_argument("--registry", metavar="FILE",
                      help="a newer IANA URN namespace registry (urn-namespaces.xml, or JSON from "
                           "tools/build_registry.py) for namespace_status, instead of the shipped snapshot; "
                           "every worker (local or Dask) judges by FILE; without it, the file named by URNSCAN_REGISTRY, if set")
    what.add_argument("--max-ratio", type=float, default=DEFAULT_MAX_RATIO, metavar="N",
                      help="stop decompressing an input (gzip, bz2, xz, zstd, zip members, decoded documents) "
                           "whose output exceeds N times its input beyond 16 MiB: a decompression bomb; "
                           "0 turns the check off; N is a finite number (default: %(default)g)")
    walk = p.add_argument_group("which files")
    walk.add_argument("--include", action="append", default=[], metavar="GLOB",
                      help="scan only files matching GLOB (repeatable; name or relative path)")
    walk.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                      help="skip files and directories matching GLOB (repeatable)")
    walk.add_argument("--hidden", action="store_true",
                      help="also scan hidden files and directories (names starting with '.') met while walking")
    walk.add_argument("--no-ignore", action="store_true",
                      help="do not apply .ignore and .gitignore rules")
    walk.add_argument("-u", "--unrestricted", action="count", default=0,
                      help="-u: --no-ignore; -uu: --no-ignore --hidden")
    walk.add_argument("-L", "--follow", action="store_true",
                      help="follow symbolic links met while walking (loops and dangling links are listed "
                           "as skipped; each file is scanned once)")
    run = p.add_argument_group("running")
    run.add_argument("-j", "--jobs", type=int, default=None, metavar="N",
                     help="worker processes, at least 1 (default: all cores)")
    run.add_argument("-q", "--quiet", action="store_true",
                     help="print no hits on stdout, no progress, notes or summary; errors are still printed")
    run.add_argument("-s", "--no-messages", action="store_true",
                     help="no per-file notes (binary files named as PATH, symbolic-link loops and dangling "
                          "links skipped); errors are still printed")
    run.add_argument("--stats", action="store_true",
                     help="print statistics of the run on stderr at the end (inputs, bytes, hits, time)")
    run.add_argument("--dask", metavar="ADDRESS",
                     help="run the scan on a Dask cluster: a scheduler address (tcp://host:8786), or 'local' for "
                          "a local cluster of --jobs worker processes.  Writes a Parquet dataset (-o DIR/); the "
                          "inputs and DIR must be visible to every worker under the same path.  Needs "
                          "pip install 'urnscan[dask]'")
    p.set_defaults(run=run_scan_command)


#: the OUT of ``-o`` that means standard output
STDOUT = "-"


def _output_format(args) -> Optional[str]:
    if args.format:
        return args.format
    if args.output is None:
        return "text"
    out = args.output
    if out.endswith(("/", os.sep)) or os.path.isdir(out):
        return "parquet"
    suffix = _SUFFIXES.get(os.path.splitext(out)[1].lower())
    if suffix is None and is_stream(out):
        return "text"  # /dev/stdout, /dev/null, a named pipe: as standard output
    return suffix


def _check_args(args, fmt: Optional[str]) -> Optional[str]:
    """The usage error of ``args``, if any."""
    if fmt is None:
        return (f"cannot tell the output format of {args.output!r}: use a .parquet, .jsonl or .txt name, "
                "a directory, or --format")
    if fmt == "parquet" and args.output is None:
        return "Parquet output needs -o OUT, a file or a directory (not standard output)"
    if args.jobs is not None and args.jobs < 1:
        return f"--jobs must be at least 1 (got {args.jobs})"
    modes = [name for name, on in (("--count", args.count), ("--files-with-matches", args.files_with_matches),
                                   ("--unique", args.unique)) if on]
    if len(modes) > 1:
        return f"{' and '.join(modes)} cannot be combined"
    if modes and (fmt != "text" or args.output is not None):
        return f"{modes[0]} prints on standard output: it cannot be combined with -o or --format"
    if args.paths.count(STDIN) > 1:
        return "'-' (stdin) can be given once"
    return None


def _context_size(args, fmt: str) -> int:
    """``-C N``, or its default: a snippet in the index, none in text output."""
    from ..context import DEFAULT_CONTEXT

    if args.context is not None:
        return args.context
    return 0 if fmt == "text" else DEFAULT_CONTEXT


def _wants_color(args, fmt: str) -> bool:
    if fmt != "text" or args.color == "never":
        return False
    return args.color == "always" or (args.output is None and sys.stdout.isatty()
                                      and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb")


def run_scan_command(args) -> int:
    if args.output == STDOUT:  # from here on, standard output is no -o at all
        args.output = None
    fmt = _output_format(args)
    problem = _check_args(args, fmt)
    if problem:
        return _usage(problem)
    if not args.paths:  # as ripgrep: a pipe is read, a terminal means the current directory
        args.paths = [STDIN] if not sys.stdin.isatty() else ["."]
    args.context = _context_size(args, fmt)
    try:  # the environment's settings, before anything is read
        split_bytes = split_bytes_setting()
        progress_interval()
    except SettingError as exc:
        return _usage(str(exc))
    from ..namespaces.registry import PACKAGED, REGISTRY_ENV

    # resolved once: every scanner, in every worker, judges by it (a scanner
    # per file looked the environment up again)
    registry_file = args.registry or os.environ.get(REGISTRY_ENV)
    registry = PACKAGED
    if registry_file:
        from ..errors import UrnscanError
        from ..namespaces.registry import load_registry

        try:
            load_registry(registry_file)
        except (UrnscanError, ValueError) as exc:
            return _usage(f"{'--registry' if args.registry else REGISTRY_ENV}: {exc}")
        registry = os.path.abspath(registry_file)
    try:
        options = _options(args.profile, not args.no_trim, not args.no_fold, args.max_urn_length, args.context,
                           pair=not args.no_pair, code=not args.no_code, embedded=not args.no_embedded,
                           percent=args.percent_encoded,
                           registry=registry)
    except ValueError as exc:
        return _usage(str(exc).replace("context must", "--context must").replace("max_urn_length", "--max-urn-length"))
    if not math.isfinite(args.max_ratio) or args.max_ratio < 0:  # nan would stop every input at 16 MiB
        return _usage(f"--max-ratio must be 0 (no limit) or a positive finite number (got {args.max_ratio:g})")
    jobs = args.jobs or default_jobs()
    config = ScanConfig(options=options, jobs=jobs, valid_only=args.valid_only, max_ratio=args.max_ratio,
                        split_bytes=split_bytes)
    from ..namespaces.registry import registry_named

    walk = {"hidden": args.hidden or args.unrestricted >= 2,
            "ignore_files": not (args.no_ignore or args.unrestricted >= 1),
            "follow_symlinks": args.follow}
    params = {
        "command": "scan", "paths": args.paths, "profile": options.profile, "trim": options.trim,
        "fold": options.fold, "max_urn_length": options.max_urn_length, "valid_only": args.valid_only,
        "pair": options.pair, "code": options.code, "embedded": options.embedded, "percent": options.percent,
        "include": args.include, "exclude": args.exclude, **walk, "context": options.context,
        "jobs": jobs, "offsets": "bytes", "max_ratio": args.max_ratio,
        "registry": registry_file or "shipped snapshot", "registry_date": registry_named(registry).date,
    }
    if args.dask:
        return _scan_on_dask(args, fmt, config, params)
    color = _wants_color(args, fmt)
    try:
        opener = open_sink(fmt, args.output, args.force, params, inputs=args.paths, color=color,
                           context=fmt == "text" and options.context > 0)
    except SinkError as exc:
        return _output_error(exc)
    report = _Report(args, sys.stderr)
    started = time.monotonic()
    try:
        with opener as (sink, guard):
            inputs = expand_inputs(args.paths, include=args.include, exclude=args.exclude, skip=guard, **walk)
            listing = args.count or args.files_with_matches or args.unique
            lister = _Lister(args, sys.stdout, color) if listing and not args.quiet else None
            write_hits = _hit_writer(args, sink, lister, report.progress)

            def write_status(status: FileStatus) -> None:
                sink.add_file_status(status)
                report.file(status)
                if lister is not None and status.hits:
                    report.clear()
                    lister.file(status)
                    sys.stdout.flush()

            direct = write_hits == sink.write_hits  # Arrow batches may go to the sink as they come
            run_scan(inputs, config, write_hits, write_status, report.progress,
                     write_batch=getattr(sink, "write_batch", None) if direct else None)
            if lister is not None:
                report.clear()
                lister.finish()
    except BrokenPipeError as exc:  # stopped there: the errors reported by then still count
        raise OutputGone(EXIT_SOME_FAILED if report.errors else EXIT_OK) from exc
    report.finish(args.output, time.monotonic() - started)
    return EXIT_SOME_FAILED if report.errors else EXIT_OK


def _hit_writer(args, sink, lister: Optional["_Lister"], progress: Optional["_Progress"]):
    """Where the hits of the run go: the sink, unless a listing mode or
    ``-q`` takes the place of the hit lines on stdout."""
    listing = args.count or args.files_with_matches or args.unique
    to_stdout = args.output is None
    if listing or (args.quiet and to_stdout):
        def write(hits) -> None:
            if lister is not None and args.unique:
                lister.count_unique(hits)
        return write
    if progress is None or not to_stdout:
        return sink.write_hits

    def write_clearing(hits) -> None:  # the hit lines never share a line with the progress
        progress.clear()
        sink.write_hits(hits)
        sys.stdout.flush()
    return write_clearing


class _Lister:
    """``-c``, ``-l`` and ``--unique``: lines on stdout instead of hits."""

    def __init__(self, args, stream: TextIO, color: bool):
        self.args = args
        self.stream = stream
        self.color = color
        self.counts: dict = {}

    def _path(self, source: str) -> str:
        from ..sinks.text import PATH_STYLE, RESET, shown_source

        name = shown_source(source)
        return f"{PATH_STYLE}{name}{RESET}" if self.color else name

    def file(self, status: FileStatus) -> None:
        if status.hits and self.args.count:
            self.stream.write(f"{self._path(status.source)}:{status.hits}\n")
        elif status.hits and self.args.files_with_matches:
            self.stream.write(f"{self._path(status.source)}\n")

    def count_unique(self, hits) -> None:
        field = _UNIQUE_FIELD[self.args.unique]
        counts = self.counts
        for hit in hits:
            value = getattr(hit, field)
            if value is not None:
                counts[value] = counts.get(value, 0) + 1

    def finish(self) -> None:
        if not self.args.unique:
            return
        from ..sinks._base import printable
        from ..sinks.text import RESET, URN_STYLE

        for value, n in sorted(self.counts.items(), key=lambda kv: (-kv[1], kv[0])):
            shown = printable(value)
            self.stream.write(f"{n}\t{URN_STYLE}{shown}{RESET}\n" if self.color else f"{n}\t{shown}\n")


class _Report:
    """What the run tells on stderr: progress, per-file notes, errors, the
    summary or the statistics.  ``-q`` and ``-s`` never hide an error."""

    def __init__(self, args, stream: TextIO):
        self.args = args
        self.stream = stream
        self.progress = _Progress(stream) if not args.quiet and stream.isatty() else None
        #: the inputs named on the command line: a binary file among them is
        #: noted, one met while walking a directory is counted (as ripgrep
        #: passes over binary files it walks into without a word)
        self.named = frozenset(args.paths)
        self.files = self.scanned = self.binary = self.skipped = self.errors = 0
        #: PDF files met while walking and not read (no pypdfium2): one note at the end
        self.unread_pdfs = 0
        self.bytes = self.hits = self.valid = 0

    def clear(self) -> None:
        if self.progress:
            self.progress.clear()

    def file(self, status: FileStatus) -> None:
        self.files += 1
        self.bytes += status.bytes
        self.hits += status.hits
        self.valid += status.valid_hits
        if status.status == SCANNED:
            self.scanned += 1
            return
        if status.status == ERROR:
            self.errors += 1
            what = f"error: {status.reason}"
        else:
            if status.status == SKIPPED_BINARY:
                self.binary += 1
                if status.source not in self.named:
                    self.unread_pdfs += status.reason == PDF_MISSING
                    return  # in the files table and the summary's count, not on stderr
                what = "skipped (binary)" if status.reason in (None, BINARY_CONTENT) else f"skipped ({status.reason})"
            else:
                self.skipped += 1
                if status.reason not in _NOTED_SKIPS:
                    return  # hidden, ignored, a link not followed: in the files table, not on stderr
                what = f"skipped ({status.reason})"
            if self.args.quiet or self.args.no_messages:
                return
        self.clear()
        self.stream.write(f"urnscan: {_shown(status.source)}: {what}\n")

    def finish(self, output: Optional[str], elapsed: float) -> None:
        self.clear()
        if self.args.stats:
            self._stats(output, elapsed)
        elif not self.args.quiet:
            if self.unread_pdfs:
                self.stream.write(f"urnscan: {plural(self.unread_pdfs, 'PDF file')} not read: {PDF_MISSING}\n")
            parts = [f"{self.scanned} scanned", f"{self.binary} binary skipped"]
            if self.skipped:
                parts.append(f"{self.skipped} skipped")
            parts.append(plural(self.errors, "error"))
            self.stream.write(
                f"urnscan: {plural(self.files, 'input')} ({', '.join(parts)}), {self.bytes / 1e6:.1f} MB, "
                f"{plural(self.hits, 'hit')} ({self.valid} valid)" + (f" -> {_shown(output)}" if output else "") + "\n")

    def _stats(self, output: Optional[str], elapsed: float) -> None:
        rows = [("inputs", self.files), ("scanned", self.scanned), ("skipped (binary)", self.binary),
                ("skipped (walk)", self.skipped), ("errors", self.errors), ("bytes scanned", self.bytes),
                ("hits", self.hits), ("valid hits", self.valid), ("invalid hits", self.hits - self.valid)]
        lines = [f"{name:<17} {value}" for name, value in rows]
        lines.append(f"{'seconds':<17} {elapsed:.3f}")
        lines.append(f"{'MB per second':<17} {self.bytes / 1e6 / max(elapsed, 1e-9):.1f}")
        lines.append(f"{'scanner':<17} {accel_in_use()}")
        if output:
            lines.append(f"{'output':<17} {_shown(output)}")
        self.stream.write("".join(f"urnscan: {line}\n" for line in lines))


def _scan_on_dask(args, fmt: str, config: ScanConfig, params: dict) -> int:
    """``--dask ADDRESS``: the same scan on a Dask cluster, into a dataset."""
    from ..sinks.layout import check_writable

    try:
        from .. import distributed
    except ImportError as exc:
        return _usage(f"--dask needs dask and distributed ({exc.name or 'dask'} is not installed): "
                      "pip install 'urnscan[dask]'")
    if fmt != "parquet" or args.output is None:
        return _usage("--dask writes a Parquet dataset: give -o DIR/")
    if STDIN in args.paths:
        return _usage("--dask cannot read standard input ('-')")
    try:
        layout = check_writable(args.output, args.force)
        guard = own_outputs(layout)
        refuse_inputs_among(args.paths, guard)
    except SinkError as exc:
        return _output_error(exc)
    if not layout.dataset:
        return _usage("--dask writes a Parquet dataset: give a directory, -o DIR/")
    params = dict(params, dask=args.dask)
    if args.dask != "local":
        params.pop("jobs")
    started = time.monotonic()
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(distributed.connect(args.dask, n_workers=config.jobs))
        except (OSError, TimeoutError, ValueError) as exc:
            return _usage(f"cannot reach the Dask scheduler {args.dask!r}: {exc}")
        scan = distributed.scan_paths(args.paths, options=config.options, valid_only=config.valid_only,
                                      include=args.include, exclude=args.exclude, split_bytes=config.split_bytes,
                                      follow_symlinks=args.follow, hidden=params["hidden"],
                                      ignore_files=params["ignore_files"], max_ratio=config.max_ratio,
                                      skip=guard)
        result = distributed.write_dataset(scan, args.output, force=args.force, params=params)
    report = _Report(args, sys.stderr)
    report.progress = None
    for status in result.problems:
        report.file(status)
    summary = result.summary
    report.files, report.scanned, report.binary = summary.files, summary.scanned, summary.skipped_binary
    report.errors, report.bytes, report.hits, report.valid = (summary.errors, summary.bytes, summary.hits,
                                                              summary.valid_hits)
    report.skipped = summary.files - summary.scanned - summary.skipped_binary - summary.errors
    report.finish(f"{args.output} (Dask: {args.dask})", time.monotonic() - started)
    return EXIT_SOME_FAILED if summary.errors else EXIT_OK


def _usage(message: str) -> int:
    return say_error("scan", message, EXIT_USAGE)


def _output_error(exc: SinkError) -> int:
    """An output refused for what the command asks is a usage error (2); one
    the system does not let us write is a failure (1), as when the writing
    itself fails at the end."""
    if isinstance(exc, OutputExists):
        return _usage(exc.advice("--force"))
    if isinstance(exc, OutputIsSpecial):
        return _usage(f"{exc}: write to standard output instead (no -o, or -o -: text; "
                      "--format jsonl: JSON lines) and redirect it")
    if isinstance(exc, OutputRefused):
        return _usage(str(exc))
    return say_error("scan", str(exc), EXIT_SOME_FAILED)


def _shown(path: str) -> str:
    from ..sinks.text import shown_source

    return shown_source(path)


def progress_interval() -> float:
    """The seconds between two redraws of the progress line:
    ``URNSCAN_PROGRESS_INTERVAL`` when set (0 or more), else 0.1."""
    return number_setting("URNSCAN_PROGRESS_INTERVAL", 0.1, float, minimum=0.0, takes="a number of seconds, 0 or more")


class _Progress:
    """Bytes, files and hits on one stderr line, at most ten times a second
    (every ``URNSCAN_PROGRESS_INTERVAL`` seconds when that is set).

    Whoever writes to the terminal calls :meth:`clear` first, so the line
    never shares a line with a hit or a note."""

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.last = float("-inf")
        self.shown = False
        self.interval = progress_interval()

    def __call__(self, files: int, nbytes: int, hits: int) -> None:
        now = time.monotonic()
        if now - self.last < self.interval:
            return
        self.last = now
        self.stream.write(f"\rurnscan: {plural(files, 'file')}, {nbytes / 1e6:,.1f} MB, {plural(hits, 'hit')} ")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False

