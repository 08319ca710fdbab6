"""Exit codes and the wording the commands share.

Exit codes: 0 success (``check``: every input valid; ``scan``: every input
scanned), 1 some inputs invalid or failed, or an output could not be
written, 2 usage errors (what the command line asks cannot be done: an
existing output without --force, an output that is no regular file or is
an input...), 130 interrupted (Ctrl-C), 143 terminated (SIGTERM).
"""
from __future__ import annotations

import errno
import sys
from typing import Optional

from ..errors import UrnscanError
from ..model import PROFILES

EXIT_OK = 0
EXIT_SOME_FAILED = 1
EXIT_USAGE = 2
#: 128 + SIGINT, as a shell reports a command that Ctrl-C ended
EXIT_INTERRUPTED = 130

#: the profiles as --profile names them (argparse shows the choices of a
#: refused value by their repr: plain strings, not the enum's members)
PROFILE_CHOICES = tuple(p.value for p in PROFILES)


class OutputGone(BrokenPipeError):
    """The reader of standard output went away (``| head``) and the command
    stopped there, quietly; ``code`` is the exit status of what it had done
    by then (1 when an input error was already reported), never a success
    the unfinished run did not earn."""

    def __init__(self, code: int):
        super().__init__(errno.EPIPE, "the reader of standard output went away")
        self.code = code


def plural(n: int, word: str) -> str:
    """``1 input``, ``2 inputs``.

    >>> plural(1, "input"), plural(3, "hit")
    ('1 input', '3 hits')
    """
    return f"{n} {word if n == 1 else word + 's'}"


def say_error(command: str, message: str, code: int) -> int:
    """Write the one-line error of ``urnscan COMMAND`` (of ``urnscan`` when
    ``command`` is empty) on stderr and give
    back the exit status ``code``.  The paths the message names are shown
    as input names are (control characters and line breaks escaped), so
    it stays one line and never drives the terminal."""
    from ..sinks._base import printable

    prog = f"urnscan {command}" if command else "urnscan"
    sys.stderr.write(f"{prog}: error: {printable(message)}\n")
    return code


def registry_problem() -> Optional[str]:
    """Why the registry file the environment variable ``URNSCAN_REGISTRY``
    names cannot be judged by, if it cannot (the message names the variable
    and the file): a usage error, found before any input is judged."""
    from ..namespaces.registry import default_registry

    try:
        default_registry()
    except UrnscanError as exc:
        return str(exc)
    return None
