"""Layout around a candidate: YAML mapping keys."""
from __future__ import annotations

import re

from .chars import blanks_end, line_break_after, line_start

_YAML_LEAD = re.compile(rb"[ \t]*(?:- )?")
#: YAML 1.2 sections 7.3 and 8.2: "- item", "key:", "'key':", '"key":'
#: (a plain key may hold ":" not followed by a blank: "sub:key: value")
_YAML_ENTRY = re.compile(rb"-[ \t\r\n]|[^\s:#'\"](?:[^\s:#]|:(?=[^\s])| (?=[^\s#]))*:(?:[ \t\r\n]|$)"
                         rb"|(['\"])[^\r\n]*?\1:")
_KEY_LIMIT = 256
_WHITE = re.compile(rb"[ \t\r\n]*")


def yaml_key(buf: bytes, p: int, end: int, hi: int) -> bool:
    """Whether the ":" ending the candidate ``buf[p:end]`` is YAML mapping
    syntax (YAML 1.2 section 8.2.2): the candidate alone at the start of its
    line (or after "- "), the line ending there, and the next non-empty line
    indented deeper and itself YAML: a mapping entry ``key:`` or a
    sequence entry ``- ``."""
    ls = line_start(buf, p)
    if ls is None or not _YAML_LEAD.fullmatch(buf, ls, p):
        return False
    indent = len(buf[ls:p]) - len(buf[ls:p].lstrip(b" \t"))
    nl = line_break_after(buf, blanks_end(buf, end, hi), hi)
    if nl < 0:
        return False
    q = _WHITE.match(buf, nl, hi).end()  # the first character of the next non-empty line
    if q >= hi:
        return False
    line = max(buf.rfind(b"\n", nl - 1, q), buf.rfind(b"\r", nl - 1, q)) + 1
    return q - line > indent and _YAML_ENTRY.match(buf, q, min(hi, q + _KEY_LIMIT)) is not None
