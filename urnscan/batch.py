"""Validate and key many URN strings at once.

The per-string API builds a :class:`Verdict` with findings for each input;
an index needs only validity and the equivalence key, and real corpora
repeat the same URNs many times.  This module answers that question for a
whole list: each distinct string is judged once, by the compiled grammar
alone (for rfc8141 the grammar is the whole of validity; other profiles
fall back to :func:`urnscan.validate`).
"""
from __future__ import annotations

import re
from typing import Iterable, List, Optional, Tuple

from . import _abnf
from .equivalence import upper_percent
from .model import DEFAULT_PROFILE
from .syntax import check_profile, validate

_RFC8141 = re.compile(_abnf.RFC8141_NAMESTRING)
_RFC8141_SIMPLE = re.compile(_abnf.RFC8141_SIMPLE)


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


def validate_keys(strings: Iterable[str], profile: str = DEFAULT_PROFILE) -> Tuple[List[bool], List[Optional[str]]]:
    """``(valid, keys)`` for every string, in order; ``None`` keys for
    invalid strings.  Same verdicts as :func:`urnscan.validate`."""
    check_profile(profile)
    judge = _judge_rfc8141 if profile == "rfc8141" else _judge_any(profile)
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
