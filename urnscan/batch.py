"""Validate and key many URN strings at once.

The per-string API builds a :class:`Verdict` with findings for each input;
an index needs only validity and the equivalence key, and real corpora
repeat the same URNs many times.  This module answers that question for a
whole list: each distinct string is judged once, by the compiled grammar
alone (for rfc8141 the grammar is the whole of validity; other profiles
fall back to :func:`urnscan.validate`).
"""
from __future__ import annotations

import enum
from typing import Iterable, List, Optional, Tuple

from . import _abnf
from .lazyre import LazyPattern
from .model import DEFAULT_PROFILE, Profile, upper_percent
from .syntax import check_profile, validate

_RFC8141 = LazyPattern(_abnf.RFC8141_NAMESTRING)
_RFC8141_SIMPLE = LazyPattern(_abnf.RFC8141_SIMPLE)


def _judge_rfc8141(s: str) -> Tuple[bool, Optional[str]]:
    m = _RFC8141_SIMPLE.fullmatch(s)
    if m is not None:
        return True, f"urn:{m.group('nid').lower()}:{m.group('nss')}"
    m = _RFC8141.fullmatch(s)
    if m is None:
        return False, None
    nss = m.group("nss")
    return True, f"urn:{m.group('nid').lower()}:{upper_percent(nss) if '%' in nss else nss}"


def _judge_any(profile: str):
    def judge(s: str) -> Tuple[bool, Optional[str]]:
        v = validate(s, profile)
        return v.valid, (v.urn.key if v.urn is not None else None)
    return judge


#: below this many strings the per-string path is faster than Arrow's
ARROW_MIN_BATCH = 2048


class Engine(enum.StrEnum):
    """Who runs the grammar over a batch (:func:`validate_keys`)."""

    AUTO = "auto"
    PYTHON = "python"
    ARROW = "arrow"


def validate_keys(strings: Iterable[str], profile: str = DEFAULT_PROFILE, *,
                  engine: str = Engine.AUTO) -> Tuple[List[bool], List[Optional[str]]]:
    """``(valid, keys)`` for every string, in order; ``None`` keys for
    invalid strings.  Same verdicts as :func:`urnscan.validate`.

    ``engine``: ``"python"`` (each distinct string once, through the compiled
    grammar), ``"arrow"`` (the same grammar run by Arrow's vectorised regex
    engine over the whole batch; rfc8141 only), or ``"auto"``: Arrow for
    rfc8141 batches of at least ``ARROW_MIN_BATCH`` strings when pyarrow is
    installed.  Measured in ``benchmarks/bench_core.py``."""
    profile = check_profile(profile)
    if isinstance(strings, (str, bytes)):
        raise TypeError("validate_keys takes an iterable of strings, not one string (use validate for one)")
    if engine not in tuple(Engine):
        raise ValueError("engine must be 'auto', 'python' or 'arrow'")
    if profile == Profile.RFC8141 and engine != Engine.PYTHON:
        strings = strings if isinstance(strings, list) else list(strings)
        if engine == Engine.ARROW or len(strings) >= ARROW_MIN_BATCH:
            arrow = _arrow_engine() if engine == Engine.AUTO else _arrow_engine(required=True)
            if arrow is not None:
                return arrow(strings)
    judge = _judge_rfc8141 if profile == Profile.RFC8141 else _judge_any(profile)
    seen = {}
    valid: List[bool] = []
    keys: List[Optional[str]] = []
    for s in strings:
        result = seen.get(s)
        if result is None:
            result = seen[s] = judge(s)
        valid.append(result[0])
        keys.append(result[1])
    return valid, keys


def _arrow_engine(required: bool = False):
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
    except ImportError:
        if required:
            raise
        return None

    pattern = "^" + _abnf.RFC8141_NAMESTRING_RE2 + "$"

    def run(strings: List[str]) -> Tuple[List[bool], List[Optional[str]]]:
        try:
            arr = pa.array(strings, type=pa.string())
        except UnicodeEncodeError:
            # a lone surrogate has no UTF-8 form; a URN is ASCII (seed 001
            # section 2), so every non-ASCII string is invalid: judge "" instead
            arr = pa.array([s if s.isascii() else "" for s in strings], type=pa.string())
        parts = pc.extract_regex(arr, pattern)
        valid = pc.is_valid(parts)
        nid = pc.utf8_lower(pc.struct_field(parts, "nid"))
        nss = pc.struct_field(parts, "nss")
        keys = pc.binary_join_element_wise("urn:", nid, ":", nss, "").to_pylist()
        # section 3.1 step 3 (upper-case the hex digits of %HH) where needed
        for i in pc.indices_nonzero(pc.match_substring(nss, "%")).to_pylist():
            keys[i] = upper_percent(keys[i])
        return valid.to_pylist(), keys

    return run
