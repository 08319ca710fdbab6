"""``urnscan dedupe``: the duplicate citations of an index, merged."""
from __future__ import annotations

import argparse
import json
import os
import sys

from .codes import EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE, plural, say_error
from ..errors import IndexFileError, OutputExists, OutputRefused, SinkError
from ..sinks.names import DEDUPE_COLUMNS
from ..tempfiles import atomic_file, landing

_FORMATS = {".parquet": "parquet", ".csv": "csv", ".jsonl": "jsonl", ".json": "jsonl"}


def add_dedupe(sub) -> None:
    p = sub.add_parser(
        "dedupe", help="merge duplicate citations in an index",
        description="Group the valid hits of an index (a Parquet file or dataset written by 'urnscan scan') "
                    "by the resource they name and print each group with its spellings, counts, citing "
                    "documents and the rules that merged them.  Levels: 'key' (RFC 8141 URN-equivalence), "
                    "'ns' (plus the equivalences each namespace registers; default), 'heuristic' (plus named "
                    "heuristic rules, marked h:...).")
    p.add_argument("index", metavar="INDEX", help="Parquet file or dataset directory from 'urnscan scan'")
    p.add_argument("--level", choices=("key", "ns", "heuristic"), default="ns", help="default: %(default)s")
    p.add_argument("--all", action="store_true", help="list every resource, not only those cited in several spellings")
    p.add_argument("--examples", action="store_true",
                   help="also group the URNs of the documentation namespace urn:example: (RFC 6963), left out "
                        "by default")
    p.add_argument("-o", "--output", metavar="OUT", help="also write the groups to OUT (.parquet, .csv or .jsonl)")
    p.add_argument("--force", action="store_true", help="overwrite an existing OUT")
    p.add_argument("--limit", type=_count, default=None, metavar="N",
                   help="print at most N groups (default: all; 0 prints none, the summary and -o OUT still "
                        "have them all)")
    p.set_defaults(run=run_dedupe)


def run_dedupe(args) -> int:
    fmt = None
    if args.output:
        fmt = _FORMATS.get(os.path.splitext(args.output)[1].lower())
        if fmt is None:
            return _usage(f"cannot tell the format of {args.output!r}: use .parquet, .csv or .jsonl")
        try:
            _check_output(args.output, args.force, args.index)
        except OutputExists as exc:
            return _usage(exc.advice("--force"))
        except OutputRefused as exc:
            return _usage(str(exc))
        except SinkError as exc:
            return _failed(str(exc))
    if not os.path.exists(args.index):
        return _failed(f"{args.index}: no such file or directory")
    try:
        index_columns(args.index)
    except IndexFileError as exc:
        return _failed(f"{args.index}: {exc}")
    try:
        from ..frame import dedupe_index
    except ImportError as exc:  # pandas is a dependency: a broken install
        return _failed(f"'urnscan dedupe' needs {exc.name or 'pandas'}: pip install pandas")
    import pyarrow as pa

    try:
        groups = dedupe_index(args.index, args.level, min_spellings=1 if args.all else 2, examples=args.examples)
    except (OSError, ValueError, pa.ArrowException) as exc:
        return _failed(f"{args.index}: cannot be read: {getattr(exc, 'strerror', None) or exc}")
    shown = groups if args.limit is None else groups.head(args.limit)
    out = sys.stdout
    for row in shown.itertuples(index=False):
        rules = ", ".join(row.rules) if row.rules else "-"
        out.write(f"{row.group_key}  {row.count} citations, {row.n_spellings} spellings, "
                  f"{row.n_documents} documents  [{rules}]\n")
        for spelling, count in zip(row.spellings, row.spelling_counts):
            out.write(f"    {count:>6}  {spelling}\n")
        docs = list(row.documents)
        more = f" (+{len(docs) - 5} more)" if len(docs) > 5 else ""
        out.write(f"    cited in: {', '.join(docs[:5])}{more}\n")
        if len(row.case_variants):
            out.write(f"    differs only in case from: {', '.join(row.case_variants)} "
                      f"(a probable duplicate, not merged at level {args.level!r})\n")
    citations = int(groups["count"].sum()) if len(groups) else 0
    printed = f", {len(shown)} printed" if len(shown) < len(groups) else ""
    examples = "" if args.examples else _examples_left_out(groups.attrs["examples_left_out"])
    sys.stderr.write(f"urnscan dedupe: {plural(len(groups), 'group')} at level {args.level!r} "
                     f"({plural(citations, 'citation')}{examples}){printed}\n")
    if args.output:
        try:
            _write_groups(groups, args.output, fmt)
        except OSError as exc:
            return _failed(f"{args.output}: cannot write: {getattr(exc, 'strerror', None) or exc}")
    return EXIT_OK


def _examples_left_out(n: int) -> str:
    """What the summary says of the urn:example: citations left out."""
    return f"; {plural(n, 'valid hit')} of urn:example: left out, --examples groups them" if n else ""


def _count(text: str) -> int:
    """An argparse type: a whole number, 0 or more."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more (got {n})")
    return n


def _check_output(path: str, force: bool, index: str) -> None:
    """Before any work: ``path`` is not the index, may be written (nothing
    there, or a regular file and ``force``), and its directory exists --
    unlike ``urnscan scan``, dedupe creates none."""
    from ..sinks.layout import check_dir_writable, check_file_target

    if os.path.exists(path) and os.path.exists(index) and os.path.samefile(path, index):
        raise OutputRefused(f"{path}: is the index read; write the groups elsewhere")
    if os.path.isdir(index) and _within(path, index):
        raise OutputRefused(f"{path}: is in the dataset read ({index}); write the groups elsewhere")
    check_file_target(path, force)
    directory = os.path.dirname(landing(path)) or "."
    if not os.path.isdir(directory):
        why = "is not a directory" if os.path.exists(directory) else "does not exist"
        raise SinkError(f"{path}: cannot write: {directory} {why}")
    check_dir_writable(directory)


def _within(path: str, directory: str) -> bool:
    """Whether ``path``, its symbolic links followed, is ``directory`` or
    lies anywhere below it."""
    real, home = os.path.realpath(path), os.path.realpath(directory)
    return os.path.commonpath((real, home)) == home


#: the columns dedupe needs: every urnscan index has them (and, read when
#: there, the keys a scan stores: DEDUPE_COLUMNS)
_NEEDED = ("source", "urn", "key", "nid")


def index_columns(path: str):
    """The column names of the urnscan index at ``path`` (a Parquet file or a
    dataset directory of them with the hit columns); :class:`IndexFileError`
    says why it is not one."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ..sinks.layout import PART_GLOB

    if os.path.isdir(path):
        import glob

        parts = sorted(glob.glob(os.path.join(glob.escape(path), PART_GLOB)))
        if not parts:
            raise IndexFileError(f"not an urnscan dataset (no {PART_GLOB} in this directory)")
        path = parts[0]
    try:
        os.fsencode(path).decode("utf-8")
    except UnicodeDecodeError:  # pyarrow opens files by UTF-8 names only
        raise IndexFileError("cannot be read: pyarrow opens only files whose names are UTF-8; "
                             "rename it (or its directory)") from None
    try:
        schema = pq.read_schema(path)
    except (OSError, pa.ArrowException) as exc:
        raise IndexFileError("not a Parquet file" if isinstance(exc, pa.ArrowInvalid)
                             else f"cannot be read: {getattr(exc, 'strerror', None) or exc}") from None
    missing = [c for c in _NEEDED if c not in schema.names]
    if missing:
        raise IndexFileError(f"a Parquet file, but not an urnscan index (no column "
                             f"{', '.join(map(repr, missing))}); give the output of 'urnscan scan -o FILE.parquet'")
    read = [c for c in DEDUPE_COLUMNS if c in schema.names]
    wrong = [f"{c!r} holds {schema.field(c).type}" for c in read if not _is_text(schema.field(c).type)]
    if wrong:
        raise IndexFileError(f"a Parquet file, but not an urnscan index (column {', '.join(wrong)}, not text); "
                             "give the output of 'urnscan scan -o FILE.parquet'")
    return tuple(schema.names)


def _is_text(kind) -> bool:
    """Whether the Arrow type ``kind`` holds strings (plain or dictionary-encoded)."""
    import pyarrow as pa

    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    return pa.types.is_string(kind) or pa.types.is_large_string(kind)


def _failed(message: str) -> int:
    return say_error("dedupe", message, EXIT_SOME_FAILED)


def _write_groups(groups, path: str, fmt: str) -> None:
    with atomic_file(os.path.abspath(path)) as tmp:
        if fmt == "parquet":
            groups.to_parquet(tmp, index=False)
        elif fmt == "csv":
            flat = groups.copy()
            for col in ("spellings", "spelling_counts", "documents", "rules", "case_variants"):
                flat[col] = flat[col].map(lambda xs: " | ".join(str(x) for x in xs))
            flat.to_csv(tmp, index=False)
        else:
            with open(tmp, "w", encoding="utf-8") as fh:
                for rec in groups.to_dict(orient="records"):
                    fh.write(json.dumps(rec, ensure_ascii=False, default=_plain) + "\n")


def _plain(value):
    if hasattr(value, "tolist"):
        return value.tolist()
    return str(value)


def _usage(message: str) -> int:
    return say_error("dedupe", message, EXIT_USAGE)
