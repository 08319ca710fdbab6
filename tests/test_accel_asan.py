"""urnscan/_accel.c built with AddressSanitizer and UndefinedBehaviorSanitizer
answers like the Python references on random and edge buffers, with no
sanitizer report.  Skipped without a C compiler or without libasan."""
import os
import subprocess
import sys

import pytest

from . import accel_build
from .conftest import ROOT

FUZZ = ROOT / "tests" / "accel_fuzz.py"
BUFFERS = 3000


def _libasan(cc: str):
    out = subprocess.run([cc, "-print-file-name=libasan.so"], capture_output=True, text=True)
    path = out.stdout.strip()
    return path if out.returncode == 0 and os.path.isabs(path) and os.path.exists(path) else None


def test_accelerator_under_address_sanitizer(tmp_path):
    cc = accel_build.compiler()
    if cc is None:
        pytest.skip("no C compiler")
    libasan = _libasan(cc)
    if libasan is None:
        pytest.skip("no libasan for this compiler")
    built, complaint = accel_build.build(tmp_path, cc, ("-O1", "-g", "-fno-omit-frame-pointer",
                                                        "-fsanitize=address,undefined", "-fno-sanitize-recover=all"))
    if built is None and "sanitize" in complaint:
        pytest.skip(f"the compiler cannot build with sanitizers: {complaint[-300:]}")
    assert built is not None, complaint
    env = dict(os.environ, LD_PRELOAD=libasan, ASAN_OPTIONS="detect_leaks=0",
               UBSAN_OPTIONS="print_stacktrace=1", PYTHONMALLOC="malloc", PYTHONPATH=str(ROOT))
    run = subprocess.run([sys.executable, str(FUZZ), str(built), str(BUFFERS)], capture_output=True, text=True,
                         env=env, cwd=tmp_path, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "Sanitizer" not in run.stderr and "runtime error" not in run.stderr, run.stderr[-3000:]
    assert int(run.stdout.split()[-1]) > 200 * BUFFERS  # every buffer was checked
