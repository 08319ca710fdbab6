"""Parse and validate URN strings under the four syntax profiles.

``valid`` means syntactically valid: the profile's ABNF plus the MUST-level
rules of its syntax section.  Registration-level rules (an ``X-`` NID, the
informal ``urn-<n>`` form, RFC 8141 section 5.1, RFC 2141's SHOULD NOT on
unencoded reserved characters) are reported as warnings beside it.

The compiled grammar (``_abnf``) decides validity; ``diagnosis`` explains
*which* rule failed and where, and adds the rules a grammar cannot say.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Tuple

from . import _abnf
from .diagnosis import FINDING_CODES, diagnose, finding, nid_notes, nss_error_beyond_grammar, rules_beyond_abnf
from .errors import ProfileError, UrnError
from .lazyre import LazyPattern
from .model import DEFAULT_PROFILE, ERROR, PROFILES, WARNING, Finding, Profile, Urn, Verdict

__all__ = ["FINDING_CODES", "check_profile", "validate", "parse", "is_valid"]

_GRAMMAR = {
    Profile.RFC8141: LazyPattern(_abnf.RFC8141_NAMESTRING),
    Profile.RFC2141: LazyPattern(_abnf.RFC2141_URN),
    Profile.DRAFT2012: LazyPattern(_abnf.DRAFT2012_URN),
    Profile.DRAFT1995: LazyPattern(_abnf.DRAFT1995_URN),
}
# Fast paths: a string these match is valid under the profile's grammar
# with no components and no percent-encoding (the NID rules still apply).
_SIMPLE = {
    Profile.RFC8141: LazyPattern(_abnf.RFC8141_SIMPLE),
    Profile.RFC2141: LazyPattern(_abnf.RFC2141_SIMPLE),
}
_WS_1995 = LazyPattern("[" + _abnf.DRAFT1995_WHITESPACE + "]+")


def check_profile(profile: str) -> Profile:
    """``profile`` as a :class:`Profile`, or :class:`ProfileError`."""
    try:
        return _PROFILE_OF[profile]
    except (KeyError, TypeError):  # (TypeError: an unhashable value)
        raise ProfileError(f"unknown profile {profile!r}; choose one of {', '.join(PROFILES)}") from None


#: check_profile's table (a dict lookup: it runs for every URN judged)
_PROFILE_OF = {p.value: p for p in Profile}


_new = tuple.__new__  # a NamedTuple without its argument handling (the fast path's)


def _judge(s: str, profile: str) -> Verdict:
    simple = _SIMPLE.get(profile)
    m = simple.fullmatch(s) if simple is not None else None
    if m is not None:
        nid = m.group("nid")
        notes, error = _nid_verdict(nid, profile)
        if error:
            return Verdict(False, notes, profile, None)
        urn = _new(Urn, (nid, m.group("nss"), None, None, None, profile, m.group("scheme")))
        return _new(Verdict, (True, notes, profile, urn))
    if profile == Profile.DRAFT1995:
        return _judge_draft1995(s)
    return _judge_text(s, profile)


def _judge_text(text: str, profile: str) -> Verdict:
    m = _GRAMMAR[profile].fullmatch(text)
    if m is None:
        findings = diagnose(text, profile)
        if not any(f.severity == ERROR for f in findings):
            findings.append(finding("syntax-error", f"not a URN under {profile}", None))
        return Verdict(False, tuple(findings), profile, None)
    g = m.groupdict()
    urn = Urn(m.group("nid"), m.group("nss"), g.get("r"), g.get("q"), g.get("f"), profile, m.group("scheme"))
    findings = list(nid_notes(urn.nid, profile))
    findings += rules_beyond_abnf(text, urn, m)
    valid = not any(f.severity == ERROR for f in findings)
    return Verdict(valid, tuple(findings), profile, urn if valid else None)


def _judge_draft1995(s: str) -> Verdict:
    """Seed 004 section 2: "The start of the wrapper is an opening angle
    bracket (<), the string "URN" ..., and a delimiting colon (:).  The tail
    of the wrapper is a closing angle bracket (>).  Freestanding URNs that
    include any white space must be wrapped in this fashion." and "White
    space ... is allowed but is not significant within a URN".  So white
    space is dropped after "urn:" (inside the "urn" token it is not white
    space within a URN); the positions of the findings are offsets into
    ``s`` as written."""
    wrapped = len(s) >= 2 and s[0] == "<" and s[-1] == ">"
    body_at = 1 if wrapped else 0
    body_end = len(s) - body_at
    space = _WS_1995.search(s, body_at + 4, body_end)
    if space is None and not wrapped:
        return _judge_text(s, Profile.DRAFT1995)
    head_end = min(body_at + 4, body_end)
    text = s[body_at:head_end] + _WS_1995.sub("", s[head_end:body_end])
    verdict = _judge_text(text, Profile.DRAFT1995)
    # where each character of ``text`` stands in ``s`` (and where text ends)
    at = list(range(body_at, head_end))
    at += [i for i in range(head_end, body_end) if s[i] not in _abnf.DRAFT1995_WHITESPACE]
    at.append(body_end)
    findings = [f if f.position is None else f._replace(position=at[f.position]) for f in verdict.findings]
    if space is not None and not wrapped:
        findings.append(finding("white-space-unwrapped", "a freestanding URN that includes white space must be wrapped "
                           "as <URN:...> (draft-1995 section 2)", space.start(), WARNING))
    return verdict._replace(findings=tuple(findings))


@lru_cache(maxsize=4096)
def _nid_verdict(nid: str, profile: str) -> Tuple[Tuple[Finding, ...], bool]:
    """:func:`nid_notes` of ``nid``, and whether one is an error (a pure
    function of its arguments, met again with every URN of a namespace)."""
    notes = nid_notes(nid, profile)
    return notes, any(f.severity == ERROR for f in notes)


def _nid_has_error(nid: str, profile: str) -> bool:
    return _nid_verdict(nid, profile)[1]


def _valid(s: str, profile: str) -> bool:
    """``_judge(s, profile).valid`` without building the verdict where the
    profile's fast path or its grammar decides it."""
    simple = _SIMPLE.get(profile)
    if simple is not None:
        m = simple.fullmatch(s)
        if m is not None:
            return not _nid_has_error(m.group("nid"), profile)
        m = _GRAMMAR[profile].fullmatch(s)
        if m is None:
            return False  # as _judge_text decides it, without saying why
        return not (_nid_has_error(m.group("nid"), profile)
                    or nss_error_beyond_grammar(s, m.start("nss"), profile))
    return _judge(s, profile).valid


def validate(s: str, profile: str = DEFAULT_PROFILE) -> Verdict:
    """Judge ``s`` as a whole URN string under ``profile``.  Never raises on
    a ``str``; ``findings`` say which rule failed and where.

    >>> verdict = validate("urn:example:a b")
    >>> verdict.valid, verdict.codes, verdict.errors[0].position
    (False, ('excluded-char',), 13)
    >>> verdict = validate("urn:X-demo:a")
    >>> verdict.valid, [(f.code, f.severity) for f in verdict.findings]
    (True, [('experimental-nid', <Severity.WARNING: 'warning'>)])
    >>> validate("urn:isbn:0451450523", "draft-1995").urn.nid
    'isbn'
    """
    return _judge(s, _checked(s, profile))


def _checked(s: str, profile: str) -> Profile:
    """``profile`` as a :class:`Profile`, once ``s`` is a ``str`` and
    ``profile`` a profile (:class:`ProfileError`, TypeError)."""
    profile = check_profile(profile)
    if not isinstance(s, str):
        raise TypeError(f"validate() takes a str, not {type(s).__name__}")
    return profile


def parse(s: str, profile: str = DEFAULT_PROFILE) -> Urn:
    """Parse ``s`` into a :class:`Urn`, or raise :class:`UrnError` naming the
    first rule that failed.  Nothing is normalised.

    >>> urn = parse("URN:Example:a%2cb?=q#f")
    >>> urn.scheme, urn.nid, urn.nss, urn.q_component, urn.f_component
    ('URN', 'Example', 'a%2cb', 'q', 'f')
    >>> str(urn)
    'URN:Example:a%2cb?=q#f'
    >>> parse("urn:a:b")
    Traceback (most recent call last):
        ...
    urnscan.errors.UrnError: a NID has at least 2 characters ... (nid-too-short, profile rfc8141)
    >>> parse("urn:a:b", "rfc2141").nid
    'a'
    """
    verdict = validate(s, profile)
    if verdict.urn is None:
        first = next(f for f in verdict.findings if f.severity == ERROR)
        where = "" if first.position is None else f" at offset {first.position}"
        raise UrnError(f"{first.message}{where} ({first.code}, profile {profile})", value=s,
                       code=first.code, position=first.position, profile=profile)
    return verdict.urn


def is_valid(s: str, profile: str = DEFAULT_PROFILE) -> bool:
    """Whether ``s`` is a syntactically valid URN under ``profile``.

    >>> is_valid("urn:isbn:0451450523")
    True
    >>> is_valid("urn:example:a?b")  # a bare "?" starts no component
    False
    >>> is_valid("urn:example:a?b", "rfc2141")  # reserved, but allowed
    True
    """
    return _valid(s, _checked(s, profile))
