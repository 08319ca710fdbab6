"""Build urnscan/_accel.c into a directory with the machine's C compiler,
for the tests that check it apart from how the package was installed (a
plain ``pip install .`` puts the built module in site-packages, while the
tests import the checkout)."""
import importlib.util
import os
import shutil
import subprocess
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "urnscan" / "_accel.c"


def compiler():
    """The C compiler Python was built with (or ``CC``), if on PATH."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(cc.split()[0])


def build(directory: Path, cc: str, flags=("-O2",)):
    """(path of the built module, None) or (None, the compiler's complaint)."""
    built = Path(directory) / ("_accel" + sysconfig.get_config_var("EXT_SUFFIX"))
    command = [cc, "-shared", "-fPIC", *flags, "-I", sysconfig.get_paths()["include"], str(SOURCE), "-o", str(built)]
    done = subprocess.run(command, capture_output=True, text=True)
    return (built, None) if done.returncode == 0 else (None, done.stderr)


def load(path):
    """Import a built ``_accel`` module from its file."""
    spec = importlib.util.spec_from_file_location("_accel", str(path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
