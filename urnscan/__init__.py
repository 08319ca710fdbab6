"""urnscan: find Uniform Resource Names in free text, validate them against
the URN specifications, and index them.

The core (syntax, validation, equivalence) is pure and imports neither pandas
nor pyarrow; the pandas helpers are loaded on first use.
"""
from ._version import __version__
from .batch import validate_keys
from .equivalence import canonical, display_form, equivalence_key
from .errors import ProfileError, SinkError, SourceError, UrnError, UrnscanError
from .model import DEFAULT_PROFILE, PROFILES, Finding, Hit, Urn, Verdict
from .scanner import scan_bytes, scan_file, scan_text
from .syntax import is_valid, parse, validate

_FRAME_NAMES = ("read_index", "read_files_table", "dedupe", "dedupe_index", "scan_series", "summary_by_namespace")


def __getattr__(name):
    # the pandas helpers load pandas: imported on first use only
    if name in _FRAME_NAMES:
        from . import frame

        return getattr(frame, name)
    raise AttributeError(f"module 'urnscan' has no attribute {name!r}")


__all__ = [*_FRAME_NAMES,
    "__version__", "parse", "validate", "is_valid", "validate_keys", "canonical", "equivalence_key", "display_form",
    "scan_text", "scan_bytes", "scan_file",
    "Urn", "Verdict", "Finding", "Hit", "PROFILES", "DEFAULT_PROFILE",
    "UrnscanError", "UrnError", "ProfileError", "SourceError", "SinkError",
]
