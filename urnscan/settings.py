"""The environment variables urnscan reads numbers from, checked: a value
a variable does not take is a :class:`~urnscan.errors.SettingError` naming
the variable and what it takes, never a number misread."""
from __future__ import annotations

import math
import os
from typing import Callable, TypeVar

from .errors import SettingError

N = TypeVar("N", int, float)


def number_setting(name: str, default: N, kind: Callable[[str], N], *, minimum: N, takes: str) -> N:
    """The number the environment variable ``name`` holds, read by ``kind``
    (``int`` or ``float``); ``default`` when it is unset or empty.  A value
    that is no number, not finite, or below ``minimum`` is refused with
    :class:`SettingError`, whose message says it ``takes`` what."""
    text = os.environ.get(name, "")
    if not text:
        return default
    try:
        value = kind(text)
    except ValueError:
        value = None
    if value is None or not math.isfinite(value) or value < minimum:
        raise SettingError(f"{name}={text!r}: takes {takes}")
    return value
