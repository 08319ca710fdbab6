"""Trailing sentence punctuation (PRODUCT section 1): "see
urn:isbn:0451450523." means the URN without the period.  Balanced
parentheses are kept; an unbalanced ")" is dropped."""
from __future__ import annotations

from typing import List, Tuple

from .rules import Rule

_TRAILING = {
    ord("."): Rule.TRIM_PERIOD, ord(","): Rule.TRIM_COMMA, ord(";"): Rule.TRIM_SEMICOLON,
    ord("'"): Rule.TRIM_QUOTE, ord("!"): Rule.TRIM_MARK, ord("?"): Rule.TRIM_MARK, ord("*"): Rule.TRIM_MARK,
    ord("&"): Rule.TRIM_AMPERSAND,
}
#: the last characters trimming can remove
TRIMMABLE = frozenset(_TRAILING) | {ord(")")}


def trim(text: bytes) -> Tuple[bytes, List[Rule]]:
    """The text without its trailing punctuation, and the rules that cut."""
    rules: List[Rule] = []
    end = len(text)
    opened = closed = -1  # parentheses in text[:end], counted when first needed
    while end:
        c = text[end - 1]
        rule = _TRAILING.get(c)
        if rule is None:
            if c != 0x29:
                break
            if closed < 0:
                opened, closed = text.count(b"(", 0, end), text.count(b")", 0, end)
            if opened >= closed:
                break
            closed -= 1
            rule = Rule.TRIM_PAREN
        end -= 1
        if rule not in rules:
            rules.append(rule)
    return text[:end], rules
