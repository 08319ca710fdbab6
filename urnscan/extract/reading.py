"""The reading rules in order: where the candidate whose ``urn:`` is at a
given position starts and ends, and which rules shaped it.

This is the one reading of every rule; the scanner's fast path
(:mod:`.fast`) takes the common case in one regex call and is tested equal
to this reading.
"""
from __future__ import annotations

from typing import List, NamedTuple, Optional, Tuple, Union

from .chars import BOUNDARY_BYTES, LITERAL_RUN, NID_SCAN_LIMIT, NID_TOKEN, RUNS
from .code import concatenated, has_placeholder, is_pattern, is_template
from .elision import elided
from .entity import entity_cut
from .fold import fold
from .layout import yaml_key
from .options import Reading
from .pairing import Opener, closer_cut, opener_before, pair_rule
from .rules import Rule
from .trim import trim
from .wrapper import wrapped

_ASCII_QUOTES = frozenset({Opener.SINGLE_QUOTE, Opener.DOUBLE_QUOTE, Opener.BACKTICK})


class Candidate(NamedTuple):
    start: int  # buffer index of "urn:"
    end: int  # exclusive
    form: str  # "bare" or "wrapped"
    folded: bool
    embedded: bool
    urn: str
    literal: str  # the untrimmed RFC 2141 span (seed 000 section 2.4)
    raw: str  # buf[start:end]
    rules: Tuple[str, ...]


class OverLong(NamedTuple):
    """A run of URN characters from ``start`` longer than the cap; the
    streaming layer finds where it ends without buffering it."""

    start: int


Found = Union[Candidate, OverLong, None]


def read_at(buf: bytes, p: int, hi: int, *, profile: str, reading: Reading, cap: int,
            context: Optional[Rule] = None) -> Found:
    """The candidate whose ``urn:`` is at ``buf[p:p+4]``, reading at most
    ``LOOKBACK`` bytes before p (all of ``buf[:p]`` is input) and up to
    ``hi``; ``context`` is the URL context of the token before p
    (:func:`.url.url_context`).  ``None`` when there is no URN there."""
    if p and buf[p - 1] in BOUNDARY_BYTES:
        return None  # "return:", "Saturn:", "x.urn:"
    opener = opener_before(buf, p, 0)
    if opener is Opener.ANGLE:
        found = wrapped(buf, p, hi, profile)
        if found is not None:
            end, joined, folded = found
            rules = (Rule.WRAP_1995.value, Rule.FOLD_WRAPPER.value) if folded else (Rule.WRAP_1995.value,)
            return Candidate(p, end, "wrapped", folded, False, joined.decode("ascii"), _literal(buf, p, end),
                             buf[p:end].decode("ascii"), rules)
    nid = NID_TOKEN.match(buf, p + 4, min(hi, p + 4 + NID_SCAN_LIMIT))
    if nid is None:
        return None
    nss_start = nid.end()
    if nss_start - p > cap:
        return OverLong(p)  # the NID token alone is longer than the cap
    run = RUNS[profile]
    e = run.match(buf, nss_start, min(hi, p + cap + 1)).end()
    if e - p > cap:
        return OverLong(p)
    return _bare(buf, p, hi, nss_start, e, opener, profile, reading, cap, context)


def _literal(buf: bytes, p: int, e: int) -> str:
    return buf[p:LITERAL_RUN.match(buf, p + 4, e).end()].decode("ascii")


def _bare(buf: bytes, p: int, hi: int, nss_start: int, e: int, opener: Optional[Opener], profile: str,
          reading: Reading, cap: int, context: Optional[Rule]) -> Found:
    """The rest of :func:`read_at` for a bare candidate whose NID token ends
    at ``nss_start`` and whose run of the profile's characters ends at
    ``e`` (at most ``cap`` after p)."""
    literal = _literal(buf, p, e)
    rules: List[Rule] = []
    pairing = opener if reading.pair else None
    if pairing is not None:
        cut = closer_cut(buf, nss_start, e, pairing)
        if cut < e:
            e = cut
            rules.append(pair_rule(pairing))
    closed = opener is not None and buf.startswith(opener.closer, e, hi)
    segments = [(p, e)]
    yaml = False
    if context is not None and reading.embedded:
        amp = buf.find(b"&", nss_start, e)
        if amp >= 0:
            segments = [(p, amp)]
        rules.append(context)
    else:
        yaml = reading.trim and buf[e - 1] == 0x3A and yaml_key(buf, p, e, hi)
        if reading.fold and not closed and not yaml:
            segments = fold(buf, segments, hi, RUNS[profile], p + cap,
                            pairing.closer if pairing is not None else None, rules)
    return finish(buf, p, hi, nss_start, segments, opener, e if closed else -1, literal, rules, context, yaml,
                  reading)


def finish(buf: bytes, p: int, hi: int, nss_start: int, segments, opener: Optional[Opener], closer_at: int,
           literal: str, rules: List[Rule], context: Optional[Rule], yaml: bool, reading: Reading) -> Found:
    """The rules that judge an extent once it is known: character
    references, code, YAML keys, trimming and the empty NSS.  ``closer_at``
    is where the opener's closer ends the first line (-1 when it does not)."""
    text = b"".join(buf[a:b] for a, b in segments) if len(segments) > 1 else buf[p:segments[0][1]]
    end = segments[-1][1]
    kept = entity_cut(text)
    entity = kept < len(text)
    if entity:
        end -= len(text) - kept
        text = text[:kept]
        rules.append(Rule.CUT_ENTITY)
    if reading.code and _code(buf, p, hi, text, end, opener, closer_at, entity):
        return None
    if yaml:
        text, end = text[:-1], end - 1
        rules.append(Rule.YAML_KEY)
    if reading.trim:
        trimmed, cut_by = trim(text)
        if reading.code and trimmed.endswith(b"("):
            return None  # a pattern such as "urn:ietf:id:(\\S+)"
        end -= len(text) - len(trimmed)
        text = trimmed
        rules.extend(cut_by)
    if len(text) <= nss_start - p:
        return None  # "urn:" NID ":" and nothing after it
    folded = len(segments) > 1
    urn = text.decode("ascii")
    embedded = context is not None and reading.embedded
    return Candidate(p, end, "bare", folded, embedded, urn, literal,
                     buf[p:end].decode("ascii") if folded else urn, tuple(r.value for r in rules))


def _code(buf: bytes, p: int, hi: int, text: bytes, end: int, opener: Optional[Opener], closer_at: int,
          entity: bool) -> bool:
    """Whether the text is a template, a pattern or an elided example
    rather than a URN (:mod:`.code`, :mod:`.elision`)."""
    if elided(text, buf, end):
        return True
    if not entity and is_template(buf, text, end, hi):
        return True
    if has_placeholder(text) or is_pattern(buf, p, 0, text, end, hi):
        return True
    return closer_at >= 0 and opener in _ASCII_QUOTES and concatenated(buf, closer_at, hi)
