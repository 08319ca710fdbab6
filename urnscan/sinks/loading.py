"""Load pyarrow for writing the index, without NumPy where pyarrow allows.

pyarrow imports NumPy whenever NumPy is installed, and that is close to
half of ``urnscan scan``'s start-up, though writing the index needs none of
it (:mod:`urnscan.sinks.arrays` builds its arrays with the standard
library).  Since pyarrow 18, NumPy is an optional dependency of pyarrow:
:func:`load_pyarrow_for_writing` then imports pyarrow with NumPy hidden.

pyarrow loaded this way has no NumPy conversions for the life of the
process (``to_numpy``, ``to_pandas``) and pickles with :mod:`pickle`, so
only the command line's scan to Parquet asks for it, never a library call; a process that has already
loaded NumPy or pyarrow, an older pyarrow, or one whose version cannot be
told from its installed metadata, imports pyarrow as usual.
"""
from __future__ import annotations

import importlib.util
import os
import re
import sys
from typing import Optional

#: the first pyarrow for which NumPy is optional at run time
NUMPY_OPTIONAL_SINCE = 18


def installed_major(package: str = "pyarrow") -> Optional[int]:
    """The major version of the installed ``package``, read from the name
    of the ``.dist-info`` directory beside it (no import, and none of
    ``importlib.metadata``'s start-up); None when it cannot be told."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    site = os.path.dirname(list(spec.submodule_search_locations)[0])
    try:
        names = os.listdir(site)
    except OSError:
        return None
    dist_info = re.compile(re.escape(package) + r"-(\d+)\.[^-]*\.dist-info\Z")
    majors = {int(m.group(1)) for m in map(dist_info.match, names) if m}
    return majors.pop() if len(majors) == 1 else None


def load_pyarrow_for_writing() -> bool:
    """Import ``pyarrow`` and its Parquet writer; with NumPy hidden when
    nothing has loaded either yet and the installed pyarrow allows it, and
    cloudpickle hidden (where it is installed, pyarrow pickles its objects
    with it, else with :mod:`pickle`, every version alike; it loads logging,
    dataclasses and inspect, a tenth of the start-up).  True when pyarrow
    was loaded without NumPy."""
    if "pyarrow" in sys.modules:
        return False
    major = installed_major()
    without_numpy = "numpy" not in sys.modules and major is not None and major >= NUMPY_OPTIONAL_SINCE
    hidden = [name for name in ("numpy", "cloudpickle")
              if name not in sys.modules and (without_numpy or name != "numpy")]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # importing it raises ImportError
    try:
        import pyarrow  # noqa: F401

        try:  # the compiled writer (urnscan.sinks.writer)
            import pyarrow._parquet  # noqa: F401
        except ImportError:
            pass
    finally:
        for name in hidden:
            if sys.modules.get(name, 0) is None:
                del sys.modules[name]
    return without_numpy
