"""``urnscan scan``: point urnscan at a corpus, get an index."""
from __future__ import annotations

import contextlib
import os
import sys
import time
from typing import Optional, TextIO

from . import cli
from .errors import SinkError
from .model import PROFILES
from .runner import ScanConfig, default_jobs, iter_inputs, run_scan
from .scanner import DEFAULT_MAX_URN_LENGTH, _options
from .sinks.status import SKIPPED_BINARY, FileStatus
from .tempfiles import reserve

FORMATS = ("parquet", "jsonl", "text")
_SUFFIXES = {".parquet": "parquet", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".txt": "text"}


def add_scan(sub) -> None:
    p = sub.add_parser(
        "scan", help="find URNs in files, directories, globs or stdin",
        description="Scan inputs for URNs and write every candidate -- valid or not, with its findings -- "
                    "to Parquet (an index with a files table beside it), JSON lines, or grep-like "
                    "'path:line:col:urn' text.  Compressed inputs (gzip, bz2, xz, zstd) are read by "
                    "content; binary files are skipped and reported.  Exit status: 0 every input "
                    "scanned (binary files skipped count as scanned), 1 some inputs could not be read, "
                    "2 usage errors.",
        epilog="Examples:  urnscan scan corpus/ -o index.parquet   |   urnscan scan '**/*.xml' --valid-only   |   "
               "zcat mail.gz | urnscan scan - --format jsonl")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="a file, a directory (scanned recursively), a glob ('**' allowed), or '-' for stdin")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="output file or dataset directory; the format follows its suffix (.parquet, .jsonl, "
                        ".txt) or a directory / trailing '/' (Parquet dataset).  Default: text on stdout")
    p.add_argument("--format", choices=FORMATS, help="output format (overrides the suffix of OUT)")
    p.add_argument("--force", action="store_true", help="overwrite an existing output")
    p.add_argument("--profile", choices=PROFILES, default="rfc8141",
                   help="syntax profile for the extent of bare URNs and for 'valid' (default: %(default)s)")
    p.add_argument("--no-trim", action="store_true",
                   help="keep trailing sentence punctuation (the literal RFC 2141 extent)")
    p.add_argument("--no-fold", action="store_true", help="do not join URNs folded over lines")
    p.add_argument("--valid-only", action="store_true", help="write only hits valid under --profile")
    p.add_argument("--include", action="append", default=[], metavar="GLOB",
                   help="scan only files matching GLOB (repeatable; name or relative path)")
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                   help="skip files and directories matching GLOB (repeatable)")
    p.add_argument("-j", "--jobs", type=int, default=0, metavar="N",
                   help="worker processes (default: all cores)")
    p.add_argument("--max-urn-length", type=int, default=DEFAULT_MAX_URN_LENGTH, metavar="N",
                   help="longer candidates are reported as over-long (default: %(default)s)")
    p.add_argument("--registry", metavar="FILE",
                   help="a newer IANA URN namespace registry (urn-namespaces.xml, or JSON from "
                        "tools/build_registry.py) for namespace_status, instead of the shipped snapshot; "
                        "the same as setting URNSCAN_REGISTRY (on a Dask cluster, set that on the workers)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress, per-file notes or summary on stderr")
    p.add_argument("--dask", metavar="ADDRESS",
                   help="run the scan on a Dask cluster: a scheduler address (tcp://host:8786), or 'local' for "
                        "a local cluster of --jobs worker processes.  Writes a Parquet dataset (-o DIR/); the "
                        "inputs and DIR must be visible to every worker under the same path.  Needs "
                        "pip install 'urnscan[dask]'")
    p.set_defaults(run=run_scan_command)


def _output_format(args) -> Optional[str]:
    if args.format:
        return args.format
    if args.output is None:
        return "text"
    out = args.output
    if out.endswith(("/", os.sep)) or os.path.isdir(out):
        return "parquet"
    return _SUFFIXES.get(os.path.splitext(out)[1].lower())


def run_scan_command(args) -> int:
    fmt = _output_format(args)
    if fmt is None:
        return _usage(f"cannot tell the output format of {args.output!r}: use a .parquet, .jsonl or .txt name, "
                      "a directory, or --format")
    if fmt == "parquet" and args.output is None:
        return _usage("Parquet output needs -o OUT")
    if args.jobs < 0:
        return _usage("--jobs must be positive")
    try:
        options = _options(args.profile, not args.no_trim, not args.no_fold, args.max_urn_length)
    except ValueError as exc:
        return _usage(str(exc))
    jobs = args.jobs or default_jobs()
    config = ScanConfig(options=options, jobs=jobs, valid_only=args.valid_only)
    if args.paths.count("-") > 1:
        return _usage("'-' (stdin) can be given once")
    if args.registry:
        from .errors import UrnscanError
        from .namespaces.registry import REGISTRY_ENV, load_registry

        try:
            load_registry(args.registry)
        except (UrnscanError, ValueError) as exc:
            return _usage(f"--registry: {exc}")
        os.environ[REGISTRY_ENV] = os.path.abspath(args.registry)  # worker processes inherit it
    from .namespaces import default_registry

    params = {
        "command": "scan", "paths": args.paths, "profile": options.profile, "trim": options.trim,
        "fold": options.fold, "max_urn_length": options.max_urn_length, "valid_only": args.valid_only,
        "include": args.include, "exclude": args.exclude, "jobs": jobs, "offsets": "bytes",
        "registry": args.registry or "shipped snapshot", "registry_date": default_registry().date,
    }
    if args.dask:
        return _scan_on_dask(args, fmt, config, params)
    try:
        opener = _open_sink(fmt, args.output, args.force, params)
    except SinkError as exc:
        return _usage(str(exc))
    progress = _Progress(sys.stderr) if not args.quiet and sys.stderr.isatty() else None
    inputs = iter_inputs(args.paths, args.include, args.exclude)
    with opener as sink:
        def write_status(status: FileStatus) -> None:
            sink.add_file_status(status)
            if not args.quiet and status.status != "scanned":
                if progress:
                    progress.clear()
                what = "skipped (binary)" if status.status == SKIPPED_BINARY else f"error: {status.reason}"
                sys.stderr.write(f"urnscan: {_shown(status.source)}: {what}\n")

        summary = run_scan(inputs, config, sink.write_hits, write_status, progress,
                           write_batch=getattr(sink, "write_batch", None))
    if progress:
        progress.clear()
    if not args.quiet:
        sys.stderr.write(
            f"urnscan: {summary.files} inputs ({summary.scanned} scanned, {summary.skipped_binary} binary skipped, "
            f"{summary.errors} errors), {summary.bytes / 1e6:.1f} MB, {summary.hits} hits "
            f"({summary.valid_hits} valid)" + (f" -> {args.output}" if args.output else "") + "\n")
    return cli.EXIT_SOME_FAILED if summary.errors else cli.EXIT_OK


def _scan_on_dask(args, fmt: str, config: ScanConfig, params: dict) -> int:
    """``--dask ADDRESS``: the same scan on a Dask cluster, into a dataset."""
    from .sinks.parquet import check_writable

    try:
        from . import distributed
    except ImportError as exc:
        return _usage(f"--dask needs dask and distributed ({exc.name or 'dask'} is not installed): "
                      "pip install 'urnscan[dask]'")
    if fmt != "parquet" or args.output is None:
        return _usage("--dask writes a Parquet dataset: give -o DIR/")
    if "-" in args.paths:
        return _usage("--dask cannot read standard input ('-')")
    try:
        layout = check_writable(args.output, args.force)
    except SinkError as exc:
        return _usage(str(exc))
    if not layout.dataset:
        return _usage("--dask writes a Parquet dataset: give a directory, -o DIR/")
    params = dict(params, dask=args.dask)
    if args.dask != "local":
        params.pop("jobs")
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(distributed.connect(args.dask, n_workers=config.jobs))
        except (OSError, TimeoutError, ValueError) as exc:
            return _usage(f"cannot reach the Dask scheduler {args.dask!r}: {exc}")
        scan = distributed.scan_paths(args.paths, options=config.options, valid_only=config.valid_only,
                                      include=args.include, exclude=args.exclude, split_bytes=config.split_bytes)
        result = distributed.write_dataset(scan, args.output, force=args.force, params=params)
    summary = result.summary
    if not args.quiet:
        for status in result.problems:
            what = "skipped (binary)" if status.status == SKIPPED_BINARY else f"error: {status.reason}"
            sys.stderr.write(f"urnscan: {_shown(status.source)}: {what}\n")
        sys.stderr.write(
            f"urnscan: {summary.files} inputs ({summary.scanned} scanned, {summary.skipped_binary} binary skipped, "
            f"{summary.errors} errors), {summary.bytes / 1e6:.1f} MB, {summary.hits} hits "
            f"({summary.valid_hits} valid) -> {args.output} (Dask: {args.dask})\n")
    return cli.EXIT_SOME_FAILED if summary.errors else cli.EXIT_OK


def _usage(message: str) -> int:
    sys.stderr.write(f"urnscan scan: error: {message}\n")
    return cli.EXIT_USAGE


def _shown(path: str) -> str:
    return "(stdin)" if path == "-" else path


def _open_sink(fmt: str, out: Optional[str], force: bool, params: dict):
    """A context manager giving the sink; checks the output up front."""
    if fmt == "parquet":
        from .sinks.parquet import ParquetSink, check_writable

        check_writable(out, force)
        return ParquetSink(out, params=params, force=force)
    if out is None:
        return _line_sink(fmt, sys.stdout, None)
    from .sinks.parquet import check_dir_writable

    files_path = _files_path(out, fmt)
    for path in (out, files_path):
        if os.path.isdir(path):
            raise SinkError(f"{path}: is a directory")
        if os.path.lexists(path) and not force:
            raise SinkError(f"{path}: exists; use --force to overwrite")
    check_dir_writable(os.path.dirname(os.path.abspath(out)))
    return _atomic_line_sink(fmt, out, files_path)


def _files_path(out: str, fmt: str) -> str:
    stem, ext = os.path.splitext(out)
    return f"{stem}.files{ext or ('.jsonl' if fmt == 'jsonl' else '.txt')}"


@contextlib.contextmanager
def _line_sink(fmt: str, stream: TextIO, files_stream: Optional[TextIO]):
    from .sinks.jsonl import JsonlSink

    sink = JsonlSink(stream, files_stream=files_stream) if fmt == "jsonl" else _TextWithFiles(stream, files_stream)
    try:
        yield sink
    finally:
        sink.close()


class _TextWithFiles:
    """The text sink, plus a 'path<TAB>status<TAB>reason' files list."""

    def __init__(self, stream: TextIO, files_stream: Optional[TextIO]):
        from .sinks.text import TextSink

        self.sink = TextSink(stream)
        self.files_stream = files_stream
        self.write_hits = self.sink.write_hits

    def add_file_status(self, status: FileStatus) -> None:
        self.sink.add_file_status(status)
        if self.files_stream is not None:
            self.files_stream.write(f"{status.source}\t{status.status}\t{status.reason or ''}\t{status.hits}\n")

    def close(self) -> None:
        self.sink.close()
        if self.files_stream is not None:
            self.files_stream.flush()


@contextlib.contextmanager
def _atomic_line_sink(fmt: str, out: str, files_path: str):
    """Write beside the targets, rename into place only on success."""
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)  # as the Parquet sink does
    tmp_out = reserve(os.path.abspath(out))
    try:
        tmp_files = reserve(os.path.abspath(files_path))
    except BaseException:
        os.remove(tmp_out)
        raise
    try:
        with open(tmp_out, "w", encoding="utf-8") as fh, open(tmp_files, "w", encoding="utf-8") as ffh:
            with _line_sink(fmt, fh, ffh) as sink:
                yield sink
            for f in (fh, ffh):
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp_out, out)
        os.replace(tmp_files, files_path)
    except BaseException:
        for path in (tmp_out, tmp_files):
            with contextlib.suppress(OSError):
                os.remove(path)
        raise


class _Progress:
    """Bytes, files and hits on one stderr line, at most ten times a second."""

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.last = 0.0
        self.shown = False

    def __call__(self, files: int, nbytes: int, hits: int) -> None:
        now = time.monotonic()
        if now - self.last < 0.1:
            return
        self.last = now
        self.stream.write(f"\rurnscan: {files} files, {nbytes / 1e6:,.1f} MB, {hits} hits ")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False

