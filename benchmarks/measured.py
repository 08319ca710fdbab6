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


#: whether the PDF inputs of a corpus are read (the ``pdf`` extra) or
#: passed over, as a plain ``pip install .`` and ripgrep both do
PDF_TEXT = {True: "PDF text read (pypdfium2)", False: "PDF inputs skipped (no pypdfium2: the pdf extra)"}


def describe() -> str:
    """A line naming the urnscan measured (its version line says whether the
    compiled accelerator runs), whether it reads the text of PDF inputs, and
    where it was imported from; a warning line after it when the numbers are
    the pure-Python fallback's."""
    version = subprocess.run([*URNSCAN, "-V"], cwd=OUTSIDE, capture_output=True, text=True)
    if version.returncode != 0:
        raise SystemExit(f"urnscan cannot be run here: {version.stderr.strip()[-2000:]}")
    probe = ("import urnscan; from urnscan.sources.pdf import pdf_available; "
             "print(pdf_available()); print(urnscan.__file__)")
    pdf, where = subprocess.run([sys.executable, "-c", probe], cwd=OUTSIDE, capture_output=True,
                                text=True).stdout.strip().split("\n", 1)
    line = f"measured: {version.stdout.strip()}, {PDF_TEXT[pdf == 'True']}, from {os.path.dirname(where)}"
    if "pure Python" in version.stdout:
        line += ("\nWARNING: these are the numbers of urnscan's pure-Python fallback, several times slower than "
                 "the compiled accelerator a machine with a C compiler builds at `pip install .`")
    return line
