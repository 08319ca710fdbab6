"""The urnscan a benchmark of whole commands measures: the one ``python3 -m
urnscan`` runs from outside this checkout, as an installed command runs.

Run from inside the checkout, ``-m`` would import the checkout's own
``urnscan/`` first, which after a plain ``pip install .`` (not ``-e``) holds
no compiled accelerator -- the extension went into the installed copy --
and runs several times slower: an end-to-end benchmark measured 1.01 s
instead of 0.49 s on a real corpus that way, and said nothing.  So every
measured command runs in :data:`OUTSIDE` (given absolute paths), and
:func:`describe` names the code it measured.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile

URNSCAN = [sys.executable, "-m", "urnscan"]
#: where the measured commands run: not the checkout
OUTSIDE = tempfile.gettempdir()


def describe() -> str:
    """A line naming the urnscan measured (its version line says whether the
    compiled accelerator runs) and where it was imported from; a warning
    line after it when the numbers are the pure-Python fallback's."""
    version = subprocess.run([*URNSCAN, "-V"], cwd=OUTSIDE, capture_output=True, text=True)
    if version.returncode != 0:
        raise SystemExit(f"urnscan cannot be run here: {version.stderr.strip()[-2000:]}")
    where = subprocess.run([sys.executable, "-c", "import urnscan; print(urnscan.__file__)"], cwd=OUTSIDE,
                           capture_output=True, text=True).stdout.strip()
    line = f"measured: {version.stdout.strip()}, from {os.path.dirname(where)}"
    if "pure Python" in version.stdout:
        line += ("\nWARNING: these are the numbers of urnscan's pure-Python fallback, several times slower than "
                 "the compiled accelerator a machine with a C compiler builds at `pip install .`")
    return line
