"""The urnscan a benchmark of whole commands measures: the one ``python3 -m
urnscan`` runs from outside this checkout, as an installed command runs.

Run from inside the checkout, ``-m`` would import the checkout's own
``urnscan/`` first, which after a plain ``pip install .`` (not ``-e``) holds
no compiled accelerator -- the extension went into the installed copy --
and runs several times slower: an end-to-end benchmark measured 1.01 s
instead of 0.49 s on a real corpus that way, and said nothing.  Any other
directory can shadow a module too: Python puts the working directory first
on ``sys.path`` for ``-m`` and ``-c``, so a stray ``nt.py`` in a shared
temporary directory ran inside every measured scan of a corpus (pathlib
tries ``import nt``).  So every measured command runs with ``-P`` (no
working directory on ``sys.path``, Python 3.11) in :data:`OUTSIDE`, an
empty directory of its own (given absolute paths), and :func:`describe`
names the code it measured.
"""
from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import time

URNSCAN = [sys.executable, "-P", "-m", "urnscan"]
#: where the measured commands run: an empty directory, not the checkout
OUTSIDE = tempfile.mkdtemp(prefix="urnscan-measured-")
atexit.register(shutil.rmtree, OUTSIDE, ignore_errors=True)


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
    pdf, where = subprocess.run([sys.executable, "-P", "-c", probe], cwd=OUTSIDE, capture_output=True,
                                text=True).stdout.strip().split("\n", 1)
    line = f"measured: {version.stdout.strip()}, {PDF_TEXT[pdf == 'True']}, from {os.path.dirname(where)}"
    if "pure Python" in version.stdout:
        line += ("\nWARNING: these are the numbers of urnscan's pure-Python fallback, several times slower than "
                 "the compiled accelerator a machine with a C compiler builds at `pip install .`")
    return line


#: a fixed amount of work for one CPU, in pure Python (no I/O, no memory
#: traffic to speak of): what :func:`two_process_scaling` runs
_BUSY_LOOP = "n = 0\nfor i in range({count}):\n    n += i\n"


def two_process_scaling(count: int = 20_000_000, repeat: int = 3) -> float:
    """How many times the work of one CPU-bound process this machine does
    with two of them at once: 2.0 with two free cores; less where the two
    cores share one physical core, or a host with other guests.  It is the
    ceiling of ``--jobs 2`` over ``--jobs 1`` for work that is CPU-bound,
    measured in the same run as the ratios it bounds (the best of
    ``repeat`` runs each way)."""
    loop = [sys.executable, "-c", _BUSY_LOOP.format(count=count)]
    alone, together = [], []
    for _ in range(repeat):  # in turns: a host busier for a while slows both alike
        alone.append(_wall(lambda: subprocess.run(loop, check=True)))
        together.append(_wall(lambda: _both(loop)))
    return scaling(min(alone), min(together))


def scaling(alone: float, together: float) -> float:
    """The work rate of two processes run at once, in units of one run
    alone: each took ``together`` seconds for what one did in ``alone``."""
    if alone <= 0 or together <= 0:
        raise ValueError("times must be positive")
    return 2 * alone / together


def _both(args) -> None:
    procs = [subprocess.Popen(args) for _ in range(2)]
    codes = [proc.wait() for proc in procs]
    if any(codes):
        raise subprocess.CalledProcessError(max(codes), args)


def _wall(run) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start
