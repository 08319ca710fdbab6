"""Where a URN candidate starts and ends in text: the reading rules.

One module per rule, pure functions over a byte buffer:

=================  ==========================================================
:mod:`.pairing`    a quote or bracket before ``urn:`` ends it at its closer
:mod:`.code`       templates, placeholders, concatenation, patterns
:mod:`.elision`    ``urn:ietf:...:x`` is an elided example
:mod:`.entity`     ``&amp;`` and other character references end a URN
:mod:`.fold`       URNs folded over lines (RFC style, RFC 8792, tables)
:mod:`.layout`     YAML mapping keys lose their ``:``
:mod:`.trim`       trailing sentence punctuation
:mod:`.url`        inside a URL or form parameters a URN ends at ``&``
:mod:`.wrapper`    the 1995 wrapper ``<urn:...>``
:mod:`.reading`    the rules in order (:func:`read_at`)
:mod:`.fast`       the scanner's batch reading with its one fast path
=================  ==========================================================

Each candidate names the rules that shaped it (:class:`.rules.Rule`); the
groups of rules are switched by :class:`.options.Reading`.
"""
from .chars import BOUNDARY_BYTES, LITERAL_RUN, LOOKBACK, RUNS, after_code
from .fast import batch_reader
from .options import Reading
from .reading import Candidate, OverLong, Rejected, read_at
from .rules import Rule
from .url import StreamContext, TokenContext, token_start_in, token_stop_in, url_context
from .wrapper import WRAPPER_LIMIT


def run_pattern(profile: str):
    """The run of characters an URN may hold under ``profile``."""
    return RUNS[profile]


__all__ = ["BOUNDARY_BYTES", "LITERAL_RUN", "LOOKBACK", "after_code", "WRAPPER_LIMIT", "Candidate", "OverLong", "Reading", "Rejected", "Rule",
           "StreamContext", "TokenContext", "batch_reader", "read_at", "run_pattern", "token_start_in",
           "token_stop_in", "url_context"]
