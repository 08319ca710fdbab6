"""The ``urnscan`` command's entry point, kept outside the package.

Importing :mod:`urnscan` takes a tenth of a second or so, and the command
can handle a Ctrl-C only once that import is done: a Ctrl-C that came
sooner printed a traceback of the import.  Here, where nothing of the
package has run yet, it ends the command as a later one does: a line on
standard error and exit status 130 (128 + SIGINT).
"""
import os
import sys

#: 128 + SIGINT, as a shell reports a command that SIGINT ended
EXIT_INTERRUPTED = 130


def main() -> None:
    try:
        from urnscan.cli import run
    except KeyboardInterrupt:
        try:
            sys.stderr.write("urnscan: interrupted\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        os._exit(EXIT_INTERRUPTED)
    run()
