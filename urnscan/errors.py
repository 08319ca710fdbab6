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


class OutputRefused(SinkError):
    """An output refused before anything is written, for what the caller
    asked rather than for what the system allows: it exists and overwriting
    was not asked for, it is a directory where a file goes, or it is one of
    the inputs.  The command line makes it a usage error."""


class OutputExists(OutputRefused):
    """The output exists and overwriting it was not asked for.  The message
    names the Python argument (``force=True``); :meth:`advice` names the
    option of a command instead."""

    def __init__(self, path: str, what: str = "already exists"):
        super().__init__(f"{path}: {what}; use force=True to overwrite")
        self.path = path
        self.what = what

    def __reduce__(self):  # rebuilt from its fields, not from the message
        return type(self), (self.path, self.what)

    def advice(self, option: str) -> str:
        return f"{self.path}: {self.what}; use {option} to overwrite"


class OutputIsSpecial(OutputRefused):
    """The output path is a device, a FIFO or a socket: writing a file in
    its place would replace it, so it is never written."""


class MemberError(SourceError):
    """One member of an archive could not be read whole while the archive
    around it stays readable (a zip member with a bad CRC or corrupt
    deflate data, a member compressed on its own that does not decode):
    the member's text before the damage is kept, the members after it are
    read, and the input then ends with an error that names it."""


class LimitError(SourceError):
    """Decoded content outgrew a documented limit (a decompression bomb):
    reading stopped there, and what was found before is kept."""


class SettingError(UrnscanError, ValueError):
    """An environment variable urnscan reads (``URNSCAN_SPLIT_BYTES``...)
    holds a value it does not take."""


class IndexFileError(UrnscanError, ValueError):
    """A path given as an index is not one written by ``urnscan scan`` (not
    Parquet, or without the hit columns)."""
