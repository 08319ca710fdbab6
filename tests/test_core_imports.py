"""The core stays light: importing it loads neither pandas nor pyarrow."""
import subprocess
import sys


def test_core_imports_neither_pandas_nor_pyarrow():
    code = ("import sys, urnscan, urnscan.syntax, urnscan.equivalence, urnscan.model, urnscan._abnf;"
            "urnscan.validate('urn:example:a');"
            "bad = [m for m in ('pandas', 'pyarrow', 'dask') if m in sys.modules];"
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
