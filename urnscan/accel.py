"""The optional compiled accelerator of the scanner's byte loops.

``urnscan/_accel.c`` holds C versions of a few functions whose pure-Python
code stays the reference (named ``NAME_py`` beside them) and the fallback:
the extension is built when the installing machine has a C compiler, and
:func:`accelerated` hands out its function when it was built.  Setting
``URNSCAN_PURE_PYTHON=1`` in the environment (before urnscan is imported)
makes the package ignore it.
"""
from __future__ import annotations

import os
from types import ModuleType
from typing import Callable, Optional, TypeVar

F = TypeVar("F", bound=Callable)

#: the environment variable that turns the compiled code off
PURE_PYTHON_VARIABLE = "URNSCAN_PURE_PYTHON"


def _turned_off() -> bool:
    """Whether the environment says to ignore the extension."""
    return os.environ.get(PURE_PYTHON_VARIABLE, "") not in ("", "0")


def _load() -> Optional[ModuleType]:
    if _turned_off():
        return None
    try:
        from . import _accel
    except ImportError:  # built without a compiler: the Python code runs
        return None
    return _accel


#: the compiled module, or None (not built, or turned off)
COMPILED = _load()


def in_use() -> str:
    """Which code runs the byte loops, in words for a user (``urnscan -V``,
    ``--stats``): a run without the compiled code is several times slower,
    and nothing else says so."""
    if COMPILED is not None:
        return "compiled accelerator"
    if _turned_off():
        return f"pure Python: {PURE_PYTHON_VARIABLE} is set"
    # (the path shows a checkout's source tree shadowing an installed copy)
    return f"pure Python: no compiled accelerator in {os.path.dirname(os.path.abspath(__file__))}"


def accelerated(python_function: F) -> F:
    """The compiled function of the same name as ``python_function`` when
    the extension is in use, else ``python_function`` itself."""
    return getattr(COMPILED, python_function.__name__, python_function)
