"""Trailing sentence punctuation (PRODUCT section 1): "see
urn:isbn:0451450523." means the URN without the period.  Balanced
parentheses are kept; an unbalanced ")" is dropped."""
from __future__ import annotations

from typing import List, Tuple

from ..lazyre import LazyPattern
from .rules import Rule

_TRAILING = {
    ord("."): Rule.TRIM_PERIOD, ord(","): Rule.TRIM_COMMA, ord(";"): Rule.TRIM_SEMICOLON,
    ord("'"): Rule.TRIM_QUOTE, ord("!"): Rule.TRIM_MARK, ord("?"): Rule.TRIM_MARK, ord("*"): Rule.TRIM_MARK,
    ord("&"): Rule.TRIM_AMPERSAND,
}
#: the last characters trimming can remove
TRIMMABLE = frozenset(_TRAILING) | {ord(")")}
#: the rule that trims each trailing mark but ")"
TRAILING_RULES = dict(_TRAILING)


_BLOCK = LazyPattern(rb"[.,;'!?*&)]*\Z")


def trim(text: bytes) -> Tuple[bytes, List[Rule]]:
    """The text without its trailing punctuation, and the rules that cut
    (in the order they cut, from the end).  Linear: the trailing block of
    punctuation is found in one pass, and the ")" that stay are the first
    ones of the block that a "(" before it balances."""
    s = _BLOCK.search(text).start()
    if s == len(text):
        return text, []
    block = text[s:]
    keep = s
    if b")" in block:
        balanced = text.count(b"(", 0, s) - text.count(b")", 0, s)  # ")" of the block a "(" still opens
        if balanced > 0:
            pieces = block.split(b")", balanced)
            if len(pieces) > balanced:  # the balanced-th ")" of the block exists: keep up to it
                keep = s + len(block) - len(pieces[-1])
            else:  # every ")" of the block is balanced: trim after the last
                keep = s + block.rfind(b")") + 1
    removed = text[keep:]
    # each rule once, in the order trimming meets it from the end
    last = sorted(((removed.rfind(c), rule) for c, rule in _BY_CHAR if c in removed), reverse=True)
    rules: List[Rule] = []
    for _, rule in last:
        if rule not in rules:
            rules.append(rule)
    return text[:keep], rules


_BY_CHAR = [(bytes([c]), rule) for c, rule in _TRAILING.items()] + [(b")", Rule.TRIM_PAREN)]
