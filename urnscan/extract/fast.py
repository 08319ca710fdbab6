"""The scanner's reading of many positions at once, with one fast path.

The fast path takes the commonest case -- a bare URN after a blank, a
double quote, ">" or "=", outside a URL, that neither a pairing, a fold, a
character reference nor a template can shape -- in one compiled-regex call,
and hands the extent to :func:`.reading.finish`, the same function the
reference reading ends with.  Every other case is read by
:func:`.reading.read_at`.  tests/test_fast_paths.py proves both equal on
generated and real text.
"""
from __future__ import annotations

import re
from functools import lru_cache

from .chars import LITERAL_RUN, NID_SCAN_LIMIT, RUNS, class_body
from .options import Reading
from .pairing import Opener
from .reading import Candidate, OverLong, finish, read_at

#: the characters before "urn:" the fast path takes: no opener whose closer
#: an URN may hold, no pattern syntax, no "<" wrapper
_PLAIN_BEFORE = {b" "[0]: None, b"\t"[0]: None, b"\n"[0]: None, b"\r"[0]: None, b">"[0]: None, b"="[0]: None,
                 b","[0]: None, b";"[0]: None, b'"'[0]: Opener.DOUBLE_QUOTE}


def _plain(profile: str) -> "re.Pattern[bytes]":
    """NID token (1), the RFC 2141 run (2), the rest of the profile's run,
    neither holding "&" (an entity or a URL may cut there), and then what
    rules out every fold, template, ellipsis and table cell: another
    character but a blank, line break, "\\", "{", "[", "<", "&", "|" or the
    first byte of U+2026; one blank before a word; "<" of an end tag, or
    after a character no template ends with; a line break after a character
    no fold ends with, the next line starting with neither ":" nor "&"; or
    the end of what may be read."""
    literal = class_body(LITERAL_RUN).replace(b"&", b"")
    run = class_body(RUNS[profile]).replace(b"&", b"")
    return re.compile(
        rb"([A-Za-z0-9][A-Za-z0-9-]{0,%d}:)(?>([%s]*)[%s]*)"
        rb"(?:(?=[^ \t\r\n\\{\[<&|\xe2])|(?=[ \t][^ \t\r\n|])|(?=<[/!])|(?<![:/=(-])(?=<)"
        rb"|(?<![-:./])(?=[ \t]*(?:\r\n?|\n)(?![ \t]*[:&]))|\Z)"
        % (NID_SCAN_LIMIT - 2, literal, run))


def batch_reader(profile: str, reading: Reading, cap: int):
    """``read_all(buf, positions, pos, n, final, window, context, base)``:
    the candidates at ``positions`` (ascending, each a "urn:" in ``buf``)
    as the streaming scanner reads them: a position before ``pos`` (inside
    the previous candidate) is skipped; each is read up to ``n`` when
    ``final`` else ``p + window``; ``context`` (a :class:`.url.StreamContext`
    at absolute offset ``base`` of ``buf[0]``) gives the URL context.
    Returns ``(found, pos, overlong)``: the :class:`Candidate` tuples in
    order, the position from which to go on, and the position of an
    over-long candidate (which stops the reading) or -1."""
    return _make_batch(profile, Reading(*map(bool, reading)), cap)


@lru_cache(maxsize=None)
def _make_batch(profile: str, reading: Reading, cap: int):
    plain_match = _plain(profile).match
    plain_before = _PLAIN_BEFORE

    def read_all(buf, positions, pos, n, final, window, context, base):
        found = []
        append = found.append
        for p in positions:
            if p < pos:
                continue  # inside the previous candidate
            hi = n if final else p + window
            url = context.at(buf, base, p)
            cand = None
            if p and url is None and buf[p - 1] in plain_before:
                m = plain_match(buf, p + 4, hi)
                if m is not None and m.end() - p <= cap and buf[m.end() - 1] != 0x3A:
                    e = m.end()
                    opener = plain_before[buf[p - 1]]
                    closer_at = e if opener is not None and e < hi and buf[e] == 0x22 else -1
                    cand = finish(buf, p, hi, m.end(1), [(p, e)], opener, closer_at,
                                  buf[p:m.end(2)].decode("ascii"), [], None, False, reading)
                    if cand is None:
                        pos = p + 1
                        continue
            if cand is None:
                cand = read_at(buf, p, hi, profile=profile, reading=reading, cap=cap, context=url)
            if cand is None:
                pos = p + 1
            elif type(cand) is OverLong:
                return found, pos, p
            else:
                append(cand)
                pos = cand.end if cand.end > p else p + 1
        return found, pos, -1

    return read_all


__all__ = ["batch_reader", "Candidate"]
