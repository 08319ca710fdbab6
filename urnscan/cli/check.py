"""``urnscan check``: URN strings judged under every profile."""
from __future__ import annotations

import sys
from typing import Sequence

from .codes import EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE, PROFILE_CHOICES, OutputGone, registry_problem, say_error
from ..model import DEFAULT_PROFILE


def add_check(sub) -> None:
    p = sub.add_parser(
        "check", help="validate URN strings under every profile",
        description="Judge each URN under every syntax profile and print its canonical form, "
                    "equivalence key and findings.  Exit 0 only when every input is valid under "
                    "--profile (a run whose reader went away before every input was judged, as with "
                    "'| head', exits 1 unless it had judged them all valid).  Use '-' to read URNs from "
                    "standard input, one per line.")
    p.add_argument("urns", nargs="+", metavar="URN", help="URN strings ('-' reads standard input)")
    p.add_argument("--profile", choices=PROFILE_CHOICES, default=DEFAULT_PROFILE,
                   help="profile that decides the exit code (default: %(default)s)")
    p.add_argument("--json", action="store_true", help="one JSON object per input")
    p.set_defaults(run=run_check)


#: the byte-order mark some editors write at the start of a UTF-8 file:
#: at the start of standard input it is no part of the first URN (as
#: ``urnscan scan`` reads it)
BYTE_ORDER_MARK = "\ufeff"


def _iter_check_inputs(values: Sequence[str]):
    for value in values:
        if value == "-":
            for n, line in enumerate(sys.stdin):
                line = line.rstrip("\r\n")
                if n == 0:
                    line = line.removeprefix(BYTE_ORDER_MARK)
                if line:
                    yield line
        else:
            yield value


def run_check(args) -> int:
    from ..report import check_record, format_check_line
    from ..sinks.jsonl import json_line

    problem = registry_problem()
    if problem:
        return say_error("check", problem, EXIT_USAGE)
    all_valid = True
    out = sys.stdout
    inputs = _iter_check_inputs(args.urns)
    try:
        for value in inputs:
            record = check_record(value, args.profile)
            all_valid &= record["valid"]
            out.write((json_line(record) if args.json else format_check_line(record)) + "\n")
    except BrokenPipeError as exc:
        # exit 0 says every input is valid: not when some were never judged
        unjudged = next(inputs, None) is not None
        raise OutputGone(EXIT_OK if all_valid and not unjudged else EXIT_SOME_FAILED) from exc
    return EXIT_OK if all_valid else EXIT_SOME_FAILED
