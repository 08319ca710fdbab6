"""The exception hierarchy: every error urnscan raises derives from
:class:`UrnscanError`."""
from __future__ import annotations

from typing import Optional


class UrnscanError(Exception):
    """Root of every exception raised by urnscan."""


class UrnError(UrnscanError, ValueError):
    """A string is not a URN under the requested profile.

    ``code`` is the stable finding code of the first rule that failed,
    ``position`` the offset in ``value`` where it failed.
    """

    def __init__(self, message: str, *, value: str = "", code: str = "invalid",
                 position: Optional[int] = None, profile: str = "rfc8141"):
        super().__init__(message)
        self.value = value
        self.code = code
        self.position = position
        self.profile = profile


class ProfileError(UrnscanError, ValueError):
    """An unknown syntax profile was requested."""


class SourceError(UrnscanError, OSError):
    """An input could not be read (missing, unreadable, special file...)."""


class SinkError(UrnscanError, OSError):
    """Output could not be written (exists without --force, disk full...)."""


class LimitError(SourceError):
    """Decoded content outgrew a documented limit (a decompression bomb):
    reading stopped there, and what was found before is kept."""


class IndexFileError(UrnscanError, ValueError):
    """A path given as an index is not one written by ``urnscan scan`` (not
    Parquet, or without the hit columns)."""
