"""The ``urnscan`` command line: argument parsing, output choice, exit codes.

Exit codes: 0 success (``check``: every input valid; ``scan``: every input
scanned), 1 some inputs invalid or failed, 2 usage errors.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from typing import Optional, Sequence

from ._version import __version__
from .errors import UrnscanError
from .interrupts import Terminated, raise_in_main_thread
from .model import DEFAULT_PROFILE, PROFILES

EXIT_OK = 0
EXIT_SOME_FAILED = 1
EXIT_USAGE = 2


def plural(n: int, word: str) -> str:
    """``1 input``, ``2 inputs``."""
    return f"{n} {word if n == 1 else word + 's'}"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # usage errors exit 2 with a clear line
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _add_check(sub) -> None:
    p = sub.add_parser(
        "check", help="validate URN strings under every profile",
        description="Judge each URN under every syntax profile and print its canonical form, "
                    "equivalence key and findings.  Exit 0 only when every input is valid under "
                    "--profile.  Use '-' to read URNs from standard input, one per line.")
    p.add_argument("urns", nargs="+", metavar="URN", help="URN strings ('-' reads standard input)")
    p.add_argument("--profile", choices=PROFILES, default=DEFAULT_PROFILE,
                   help="profile that decides the exit code (default: %(default)s)")
    p.add_argument("--json", action="store_true", help="one JSON object per input")
    p.set_defaults(run=_run_check)


def _iter_check_inputs(values: Sequence[str]):
    for value in values:
        if value == "-":
            for line in sys.stdin:
                line = line.rstrip("\r\n")
                if line:
                    yield line
        else:
            yield value


def _run_check(args) -> int:
    from .report import check_record, format_check_line

    all_valid = True
    out = sys.stdout
    for value in _iter_check_inputs(args.urns):
        record = check_record(value, args.profile)
        all_valid &= record["valid"]
        out.write((json.dumps(record, ensure_ascii=False) if args.json else format_check_line(record)) + "\n")
    return EXIT_OK if all_valid else EXIT_SOME_FAILED


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="urnscan",
        description="Find Uniform Resource Names in text, validate them against RFC 8141, RFC 2141 "
                    "and their drafts, and index them to Parquet.")
    parser.add_argument("-V", "--version", action="version", version=f"urnscan {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    _add_check(sub)
    from .cli_dedupe import add_dedupe
    from .cli_scan import add_scan

    add_scan(sub)
    add_dedupe(sub)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        with raise_in_main_thread():  # workers ended, temporary files removed
            return args.run(args)
    except Terminated:
        sys.stderr.write("urnscan: terminated\n")
        return 128 + signal.SIGTERM
    except UrnscanError as exc:
        sys.stderr.write(f"urnscan: error: {exc}\n")
        return EXIT_SOME_FAILED
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): not an error of ours; point
        # stdout at /dev/null so the interpreter's final flush stays quiet
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except OSError as exc:
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        sys.stderr.write(f"urnscan: error: {where}{exc.strerror or exc}\n")
        return EXIT_SOME_FAILED
    except KeyboardInterrupt:
        sys.stderr.write("urnscan: interrupted\n")
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
