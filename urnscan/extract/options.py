"""Which reading rules are on."""
from __future__ import annotations

from typing import NamedTuple


class Reading(NamedTuple):
    """Switches for the groups of reading rules (all on by default).

    ``trim``: trailing sentence punctuation and YAML key colons;
    ``fold``: URNs folded over lines are joined;
    ``pair``: a quote or parenthesis before ``urn:`` ends it at its closer;
    ``code``: templates, placeholders, concatenation, patterns and elisions
    are not URNs;
    ``embedded``: inside a URL or form parameters a URN ends at ``&``.
    """

    trim: bool = True
    fold: bool = True
    pair: bool = True
    code: bool = True
    embedded: bool = True
