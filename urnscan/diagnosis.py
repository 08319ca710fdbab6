"""What a URN string breaks, beyond yes or no.

The compiled grammar (``syntax.py``) decides validity.  Here: the diagnostic
walk over a string the grammar rejected, which names the first rule it
breaks and where (:func:`diagnose`); and the rules of the syntax sections
that a grammar cannot say -- NID reservations and registration-level rules,
needless or NUL escapes, query keywords -- checked on a string the grammar
accepted (:func:`nid_notes`, :func:`rules_beyond_abnf`).  Every code is in
:data:`FINDING_CODES`.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable, Dict, List, Optional, Tuple

from . import _abnf
from .lazyre import LazyPattern
from .model import ERROR, WARNING, Finding, Profile, Severity, Urn

_PCT = LazyPattern(_abnf.PCT_ENCODED)
_INFORMAL_NID = LazyPattern(_abnf.RFC8141_INFORMAL_NID)
_KEYWD_DIRECTIVE = LazyPattern(f"{_abnf.DRAFT2012_DIRECTIVE}")

# the grammar's character classes as sets, for the diagnostic walk
_ALNUM = _abnf.char_set(_abnf.ALPHANUM)
_HEX = _abnf.char_set(_abnf.HEXDIG)
_PCHAR = _abnf.char_set(_abnf.PCHAR_CHARS)
_RFC2141_TRANS = _abnf.char_set(_abnf.RFC2141_TRANS_CHARS)
_RFC2141_RESERVED = _abnf.char_set(_abnf.RFC2141_RESERVED_CHARS)
_RFC1738_ELEMENT = _abnf.char_set(_abnf.DRAFT1995_ELEMENT_CHARS)
# RFC 2141 section 2.3.1: "a character MUST NOT be %-encoded if the character
# is not a reserved character" -- but a namespace may give any <other>
# character a special meaning and then MUST encode its literal use, so only an
# encoded letter or digit is certainly needless.  Flagged as a warning: the
# NSS grammar admits any "%" <hex> <hex> (the conformance corpus agrees).
_RFC2141_NEEDLESS_PCT = frozenset(ord(c) for c in _ALNUM)


#: Every code a :class:`Verdict` can carry (errors first, then warnings);
#: the README lists them.
FINDING_CODES: Tuple[str, ...] = (
    "empty", "bad-scheme", "nid-empty", "nid-bad-char", "missing-nss", "nid-leading-hyphen", "nid-too-long",
    "nid-too-short", "nid-trailing-hyphen", "nss-empty", "nss-leading-slash", "bad-percent-encoding", "non-ascii",
    "excluded-char", "empty-r-component", "empty-q-component", "bad-component-start", "bad-query-directive",
    "repeated-query-keyword", "syntax-error",
    # errors under some profiles, warnings under others
    "reserved-char-unencoded", "nul-octet", "nid-reserved",
    # warnings
    "unnecessary-percent-encoding", "experimental-nid", "informal-nid", "formal-nid-rule", "r-component-used",
    "query-in-reference", "fragment-in-reference", "white-space-unwrapped", "confusable",
)


def finding(code: str, message: str, position: Optional[int], severity: Severity = ERROR) -> Finding:
    return Finding(code, severity, message, position)


def _describe_char(ch: str) -> str:
    if ch.isascii() and ch.isprintable():
        return repr(ch)
    return f"U+{ord(ch):04X}"


# --- the diagnostic walk ---------------------------------------------------

def _walk_scheme(s: str) -> Tuple[List[Finding], int]:
    if not s:
        return [finding("empty", "empty string", 0)], -1
    if s[:4].lower() != "urn:":
        if s[:3].lower() == "urn" and len(s) > 3:
            return [finding("bad-scheme", f"'urn' must be followed by ':', found {_describe_char(s[3])}", 3)], -1
        return [finding("bad-scheme", "a URN starts with 'urn:' (case-insensitive)", 0)], -1
    return [], 4


# The rule each profile's NID (SchemeID, seed 004) comes from.
_NID_RULE = {
    Profile.RFC8141: "RFC 8141 section 2",
    Profile.RFC2141: "RFC 2141 section 2.1",
    Profile.DRAFT2012: "draft-2012 section 2.1",
    Profile.DRAFT1995: "draft-1995 section 2.1",
}
_NID_CHARS = _abnf.char_set(_abnf.LDH_CHARS)
# Seed 004 section 2.1: SchemeIDs are identifiers (RFC 1738 scheme names:
# letters, digits, "+", "-", ".")
_SCHEMEID_CHARS = _abnf.char_set(_abnf.DRAFT1995_SCHEMEID_CHARS)


def _walk_nid(s: str, start: int, profile: str) -> Tuple[List[Finding], int]:
    """Check the NID starting at ``start``; return findings and the index of
    the ':' that ends it (or -1 when the walk cannot go on)."""
    out: List[Finding] = []
    name, chars = ("SchemeID", _SCHEMEID_CHARS) if profile == Profile.DRAFT1995 else ("NID", _NID_CHARS)
    rule = _NID_RULE[profile]
    end = s.find(":", start)
    nid = s[start:] if end < 0 else s[start:end]
    if not nid:
        return [finding("nid-empty", f"no {name} after 'urn:'", start)], -1
    bad = next((i for i, c in enumerate(nid) if c not in chars), None)
    if bad is not None:
        return [finding("nid-bad-char", f"character {_describe_char(nid[bad])} is not allowed in a {name} ({rule})",
                   start + bad)], -1
    if end < 0:
        return [finding("missing-nss", f"no ':' and namespace specific string after the {name}", len(s))], -1
    if nid[0] not in _ALNUM:
        out.append(finding("nid-leading-hyphen", f"a {name} starts with a letter or digit ({rule})", start))
    if profile == Profile.DRAFT1995:
        return out, end
    if len(nid) > 32:
        out.append(finding("nid-too-long", f"NID is {len(nid)} characters long; at most 32 are allowed ({rule})",
                      start + 32))
    if profile in (Profile.RFC8141, Profile.DRAFT2012):
        # NID = (alphanum) 0*30(ldh) (alphanum)
        if len(nid) < 2:
            out.append(finding("nid-too-short", f"a NID has at least 2 characters ({rule})", start))
        elif nid[-1] == "-":
            out.append(finding("nid-trailing-hyphen", f"a NID must end with a letter or digit ({rule})", end - 1))
    return out, end


def _walk_pct(s: str, i: int, stop: int) -> Optional[Finding]:
    if i + 2 < stop and s[i + 1] in _HEX and s[i + 2] in _HEX:
        return None
    return finding("bad-percent-encoding", "'%' must be followed by two hexadecimal digits", i)


def _walk_chars(s: str, start: int, stop: int, allowed: frozenset, where: str,
                extra: str = "") -> Optional[Finding]:
    """First error in s[start:stop], where ``allowed`` are the literal
    characters of the part (plus ``extra``) and "%" must start an escape."""
    i = start
    while i < stop:
        c = s[i]
        if c == "%":
            bad = _walk_pct(s, i, stop)
            if bad:
                return bad
            i += 3
            continue
        if c not in allowed and c not in extra:
            if not c.isascii():
                # seed 004 section 2: encoding "follow[s] the same rules used by URLs" (no character set named)
                how = "as in URLs (draft-1995 section 2)" if where == "ElementID" else "as UTF-8"
                return finding("non-ascii", f"{_describe_char(c)} in the {where} must be percent-encoded {how}", i)
            return finding("excluded-char", f"character {_describe_char(c)} is not allowed in the {where}", i)
        i += 1
    return None


_NSS_EMPTY = Finding("nss-empty", ERROR, "the namespace specific string is empty", None)


def _nss_end(s: str, start: int) -> int:
    """Where the NSS ends: at the first "?" or "#" (both profiles with
    components, seed 001 section 2 and seed 002 section 2)."""
    ends = [i for i in (s.find("?", start), s.find("#", start)) if i >= 0]
    return min(ends) if ends else len(s)


def _walk_rfc8141_rest(s: str, start: int) -> List[Finding]:
    """NSS and r/q/f components (seed 001 section 2)."""
    n = len(s)
    # the NSS runs to "?+", "?=", "#", or a bare "?" (a syntax error)
    nss_end = _nss_end(s, start)
    if nss_end == start:
        return [_NSS_EMPTY._replace(position=start)]
    if s[start] == "/":
        return [finding("nss-leading-slash", "the NSS starts with pchar, not '/' (RFC 8141 section 2)", start)]
    bad = _walk_chars(s, start, nss_end, _PCHAR, "NSS", "/")
    if bad:
        return [bad]
    if nss_end == n:
        return []
    pos = nss_end
    seen_r = seen_q = False
    if s.startswith("?+", pos):
        # section 2.3.1: "The r-component ends with a "?=" sequence (which
        # begins a q-component) or a "#" character"
        seen_r = True
        pos += 2
        end = s.find("?=", pos)
        frag = s.find("#", pos)
        stop = min(x for x in (end, frag, n) if x >= 0)
        bad = _walk_component(s, pos, stop, "r-component", "?+")
        if bad:
            return [bad]
        pos = stop
    if s.startswith("?=", pos):
        # section 2.3.2: "The q-component terminates when a "#" character
        # ... appears"
        seen_q = True
        pos += 2
        frag = s.find("#", pos)
        stop = frag if frag >= 0 else n
        bad = _walk_component(s, pos, stop, "q-component", "?=")
        if bad:
            return [bad]
        pos = stop
    if pos < n and s[pos] == "?":
        what = "after the components" if (seen_r or seen_q) else "in the NSS"
        return [finding("reserved-char-unencoded",
                   f"'?' {what} must start '?+' or '?=' or be percent-encoded (RFC 8141 section 2)", pos)]
    if pos < n and s[pos] == "#":
        bad = _walk_chars(s, pos + 1, n, _PCHAR, "f-component", "/?")
        if bad:
            return [bad]
    return []


def _walk_component(s: str, start: int, stop: int, what: str, opener: str) -> Optional[Finding]:
    """First error in an r- or q-component s[start:stop]: component =
    pchar *( pchar / "/" / "?" ) (seed 001 section 2)."""
    if stop == start:
        return finding(f"empty-{what}", f"{opener!r} must be followed by a non-empty {what} (RFC 8141 section 2)", start)
    if s[start] in "/?":
        return finding("bad-component-start", f"the {what} starts with pchar, not {s[start]!r} (RFC 8141 section 2)",
                  start)
    return _walk_chars(s, start, stop, _PCHAR, what, "/?")


def _walk_rfc2141_rest(s: str, start: int) -> List[Finding]:
    """NSS of seed 000 section 2.2-2.4; MUST-level errors and SHOULD warnings."""
    if start == len(s):
        return [finding("nss-empty", "the namespace specific string is empty", start)]
    bad = _walk_chars(s, start, len(s), _RFC2141_TRANS, "NSS")
    out: List[Finding] = [bad] if bad else []
    out += _rfc2141_nss_notes(s, start)
    return out


def nss_error_beyond_grammar(s: str, start: int, profile: str) -> bool:
    """Whether the NSS from ``start`` of a string the profile's grammar
    matched breaks a MUST-level rule the grammar cannot say (an error
    finding of :func:`rules_beyond_abnf`), for the profiles with a fast
    path: RFC 2141's octet 0 (:func:`_rfc2141_nss_notes`); under RFC 8141
    the grammar alone decides (:func:`_rfc8141_notes` are warnings)."""
    return profile == Profile.RFC2141 and s.find("%00", start) >= 0


def _rfc2141_nss_notes(s: str, start: int) -> List[Finding]:
    out: List[Finding] = []
    nul = s.find("%00", start)
    if nul >= 0:
        # section 2.4: octet 0 "should NEVER be used, in either unencoded or
        # %-encoded form" -- a MUST-level rule in the conformance corpus
        out.append(finding("nul-octet", "octet 0 must never be used, not even as %00 (RFC 2141 section 2.4)", nul))
    out += _needless_escapes(s, start, len(s), "RFC 2141 section 2.3.1")
    reserved = [i for i in range(start, len(s)) if s[i] in _RFC2141_RESERVED]
    if reserved:
        out.append(finding("reserved-char-unencoded",
                      f"{s[reserved[0]]!r} is reserved; namespaces SHOULD NOT use it unencoded "
                      f"(RFC 2141 section 2.3.2){_times(len(reserved))}", reserved[0], WARNING))
    return out


def _needless_escapes(s: str, start: int, stop: int, rule: str) -> List[Finding]:
    """RFC 2141 section 2.3.1 and draft-2012 section 2.5.2: "a character
    MUST NOT be %-encoded if the character is not a reserved character" --
    flagged for letters and digits only (see _RFC2141_NEEDLESS_PCT)."""
    needless = [m for m in _PCT.finditer(s, start, stop) if int(m.group()[1:], 16) in _RFC2141_NEEDLESS_PCT]
    if not needless:
        return []
    first = needless[0].group()
    return [finding("unnecessary-percent-encoding", f"{first} encodes {chr(int(first[1:], 16))!r}, which is not reserved "
               f"and MUST NOT be %-encoded ({rule}){_times(len(needless))}", needless[0].start(), WARNING)]


def _times(n: int) -> str:
    return f"; {n} occurrences" if n > 1 else ""


def _walk_draft2012_rest(s: str, start: int) -> List[Finding]:
    """NSS, query directives and fragment of seed 002 section 2."""
    n = len(s)
    nss_end = _nss_end(s, start)
    if nss_end == start:
        return [_NSS_EMPTY._replace(position=start)]
    slash = s.find("/", start, nss_end)
    if slash >= 0:
        return [finding("excluded-char", "'/' is excluded from the NSS (draft-2012 section 2.5.3)", slash)]
    bad = _walk_chars(s, start, nss_end, _PCHAR, "NSS")
    if bad:
        return [bad]
    pos = nss_end
    if pos < n and s[pos] == "?":
        frag = s.find("#", pos)
        stop = frag if frag >= 0 else n
        q0 = pos + 1
        for part_start, part in _split_amp(s, q0, stop):
            if not _KEYWD_DIRECTIVE.fullmatch(part):
                bad = _walk_chars(s, part_start, part_start + len(part), _PCHAR, "query", "/?")
                return [bad] if bad else [finding("bad-query-directive",
                                             "a query is keywd=value directives joined by '&' (draft-2012 section 2.3)",
                                             part_start)]
        pos = stop
    if pos < n and s[pos] == "#":
        bad = _walk_chars(s, pos + 1, n, _PCHAR, "fragment", "/?")
        if bad:
            return [bad]
    return []


def _split_amp(s: str, start: int, stop: int):
    pos = start
    for part in s[start:stop].split("&"):
        yield pos, part
        pos += len(part) + 1


def _walk_draft1995_rest(s: str, start: int) -> List[Finding]:
    if start == len(s):
        return [finding("nss-empty", "the ElementID is empty", start)]
    for i in range(start, len(s)):
        c = s[i]
        if c in "#?>":
            return [finding("reserved-char-unencoded",
                       f"{c!r} is reserved in ElementIDs (draft-1995 section 2.2)", i)]
    bad = _walk_chars(s, start, len(s), _RFC1738_ELEMENT, "ElementID")
    return [bad] if bad else []


_REST_WALKERS: Dict[str, Callable[[str, int], List[Finding]]] = {
    Profile.RFC8141: _walk_rfc8141_rest,
    Profile.RFC2141: _walk_rfc2141_rest,
    Profile.DRAFT2012: _walk_draft2012_rest,
    Profile.DRAFT1995: _walk_draft1995_rest,
}


def diagnose(s: str, profile: str) -> List[Finding]:
    findings = _walk(s, profile)
    if not s.isascii():
        lookalike = _confusable(s)
        if lookalike is not None:
            findings.append(lookalike)
    return findings


def _walk(s: str, profile: str) -> List[Finding]:
    findings, pos = _walk_scheme(s)
    if pos < 0:
        return findings
    nid_findings, colon = _walk_nid(s, pos, profile)
    findings += nid_findings
    if colon < 0:
        return findings
    findings += _REST_WALKERS[profile](s, colon + 1)
    return findings


#: Cyrillic and Greek letters drawn as ASCII ones (the pairs Unicode's
#: confusables data, UTS #39, gives for the letters the scripts share)
_LOOKALIKES = {
    **dict(zip("асеорухіјѕһԁԛԝ", "aceopyxijshdqw")),
    **dict(zip("АВЕКМНОРСТХІЈЅУԚԜ", "ABEKMHOPCTXIJSYQW")),
    **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧο", "ABEZHIKMNOPTYXo")),
}


#: the fullwidth forms of ASCII's printable characters, U+FF01-U+FF5E, each
#: its ASCII character + FULLWIDTH_OFFSET (NFKC's reading of them)
FULLWIDTH_FIRST, FULLWIDTH_LAST, FULLWIDTH_OFFSET = 0xFF01, 0xFF5E, 0xFEE0
_FULLWIDTH_FORMS = {code: code - FULLWIDTH_OFFSET for code in range(FULLWIDTH_FIRST, FULLWIDTH_LAST + 1)}
_LOOKALIKE_TABLE = str.maketrans({**_FULLWIDTH_FORMS, **_LOOKALIKES})


def fullwidth_as_ascii(text: str) -> str:
    """``text`` with its fullwidth forms read as the ASCII characters they
    stand for."""
    return text.translate(_FULLWIDTH_FORMS)


def ascii_lookalike(s: str) -> Optional[str]:
    """``s`` read in ASCII: fullwidth forms (U+FF01-U+FF5E, NFKC's reading)
    and Cyrillic or Greek look-alikes of ASCII letters replaced; None when
    that leaves characters outside ASCII, or changes nothing."""
    read = s.translate(_LOOKALIKE_TABLE)
    return read if read != s and read.isascii() else None


def _confusable(s: str) -> Optional[Finding]:
    """namespaces.md §3.7: a URN written with look-alikes of ASCII
    characters (fullwidth forms an input method leaves, a Cyrillic "а") is
    a suspected URN: said, with its ASCII reading, never repaired (RFC 8141
    §3.2: ``%D0%B0`` is not ``a``, nor is a raw "а")."""
    read = ascii_lookalike(s)
    if read is None or read[:4].lower() != "urn:":
        return None
    at = next(i for i, (a, b) in enumerate(zip(s, read)) if a != b)
    return finding("confusable", f"{_describe_char(s[at])} and the like are look-alikes of ASCII characters: "
                   f"in ASCII this reads {read!r} (a suspected URN, not repaired)", at, WARNING)


# --- registration-level and MUST-level rules beyond the ABNF ---------------

@lru_cache(maxsize=4096)
def nid_notes(nid: str, profile: str) -> Tuple[Finding, ...]:
    """NID rules beyond the ABNF; the NID always starts at offset 4."""
    return tuple(_nid_rules(nid, profile, 4))


def _nid_rules(nid: str, profile: str, nid_pos: int) -> List[Finding]:
    out: List[Finding] = []
    low = nid.lower()
    if low == "urn":
        if profile == Profile.RFC2141:
            # section 2.1: "the NID "urn" is reserved and MUST NOT be used"
            out.append(finding("nid-reserved", "the NID 'urn' is reserved and MUST NOT be used (RFC 2141 section 2.1)",
                          nid_pos))
        elif profile == Profile.DRAFT2012:
            # section 2.1: "permanently reserved by this RFC and MUST NOT be used or registered"
            out.append(finding("nid-reserved", "the NID 'urn' is permanently reserved and MUST NOT be used "
                                          "(draft-2012 section 2.1)", nid_pos))
        elif profile == Profile.RFC8141:
            # seed 001 does not repeat RFC 2141's reservation (Appendix B
            # lists what changed); section 4.4 asks that NIDs and URI
            # scheme names not be confused
            out.append(finding("nid-reserved", "the NID 'urn' reads as the URI scheme name: RFC 8141 allows it but asks "
                                          "that NIDs and scheme names not be confused (section 4.4); RFC 2141, "
                                          "which it obsoletes, reserved it", nid_pos, WARNING))
    if low.startswith("x-"):
        if profile == Profile.RFC8141:
            # Appendix C: "strings conforming to URN syntax within
            # experimental URN namespaces are not valid URNs"
            out.append(finding("experimental-nid", "'X-' NIDs name experimental namespaces, whose strings are not valid "
                                              "URNs (RFC 8141 Appendix C)", nid_pos, WARNING))
        elif profile == Profile.DRAFT1995:
            # section 2.1: "SchemeIDs starting with the characters "x-" are
            # reserved for experimental purposes"
            out.append(finding("experimental-nid", "'x-' SchemeIDs are reserved for experimental purposes, as all URN "
                                              "schemes were in 1995 (draft-1995 section 2.1)", nid_pos, WARNING))
        # RFC 2141 and the 2012 draft say nothing of "X-" NIDs
    if profile != Profile.RFC8141:
        return out
    if _INFORMAL_NID.fullmatch(nid):
        out.append(finding("informal-nid", "informal namespace 'urn-<number>' (RFC 8141 section 5.2)", nid_pos, WARNING))
        return out
    if low.startswith("urn-"):
        out.append(finding("formal-nid-rule", "NIDs starting with 'urn-' are reserved for informal namespaces "
                                         "'urn-<number>' with no leading zero (RFC 8141 section 5.1, 5.2)",
                      nid_pos, WARNING))
    elif len(nid) <= 2:
        out.append(finding("formal-nid-rule", "a formal NID is more than two characters long (RFC 8141 section 5.1)",
                      nid_pos, WARNING))
    elif len(nid) >= 3 and nid[0].isalpha() and nid[1].isalpha() and nid[2] == "-" and not low.startswith("x-"):
        out.append(finding("formal-nid-rule", "NIDs starting with two letters and '-' are reserved (country codes, "
                                         "A-labels; RFC 8141 section 5.1)", nid_pos, WARNING))
    return out


def rules_beyond_abnf(text: str, urn: Urn, m: "re.Match[str]") -> List[Finding]:
    """The syntax sections' rules that the grammar of the profile cannot say."""
    if urn.profile == Profile.RFC2141:
        return _rfc2141_nss_notes(text, m.start("nss"))
    if urn.profile == Profile.DRAFT2012:
        return _draft2012_notes(urn, m)
    if urn.profile == Profile.RFC8141:
        return _rfc8141_notes(urn, m)
    return []


def _rfc8141_notes(urn: Urn, m: "re.Match[str]") -> List[Finding]:
    out: List[Finding] = []
    if "%00" in urn.nss:
        out.append(finding("nul-octet", "%00 encodes octet 0, which RFC 2141 (section 2.4) forbade; RFC 8141 allows it",
                      m.start("nss") + urn.nss.find("%00"), WARNING))
    if urn.r_component is not None:
        # section 2.3.1: "r-components SHOULD NOT be used for actual URNs
        # until additional development and standardization work is complete"
        out.append(finding("r-component-used", "r-components SHOULD NOT be used until their semantics are "
                                          "standardised (RFC 8141 section 2.3.1)", m.start("r") - 2, WARNING))
    return out


# Seed 002 section 9.2.1, "Initial registrations": the keywords "s" (section
# 2.3.1) and "c" (section 2.3.2).
_DRAFT2012_REGISTERED_KEYWORDS = frozenset(("s", "c"))


def _draft2012_notes(urn: Urn, m: "re.Match[str]") -> List[Finding]:
    out: List[Finding] = []
    nul = urn.nss.find("%00")
    if nul >= 0:
        # section 2.5.3: "The NUL octet ... MUST NOT be used in URNs, in
        # either unencoded or percent-encoded form."
        out.append(finding("nul-octet", "octet 0 MUST NOT be used in URNs, not even as %00 (draft-2012 section 2.5.3)",
                      m.start("nss") + nul))
    if "%" in urn.nss:
        out += _needless_escapes(m.string, m.start("nss"), m.end("nss"), "draft-2012 section 2.5.2")
    if urn.q_component is not None:
        # section 2.3: "The <query> part MUST NOT be present in any
        # *assigned* URN" -- it makes a URI reference to a URN
        out.append(finding("query-in-reference", "a query makes this a URI reference to a URN: it MUST NOT be part of "
                                            "an assigned URN (draft-2012 section 2.3)", m.start("q") - 1, WARNING))
        out += _repeated_keywords(urn.q_component, m.start("q"))
    if urn.f_component is not None:
        # section 2.4: "The <fragment> part MUST NOT be present in any
        # *assigned* URN" and only namespaces that register its use allow it
        out.append(finding("fragment-in-reference", "a fragment makes this a URI reference to a URN: it MUST NOT be part "
                                               "of an assigned URN, and only namespaces that register its use allow "
                                               "it (draft-2012 section 2.4)", m.start("f") - 1, WARNING))
    return out


def _repeated_keywords(query: str, at: int) -> List[Finding]:
    """Section 2.3: "Each registered <keywd> MUST NOT appear more than once
    in any URN." (directives are case-sensitive)."""
    out: List[Finding] = []
    count: Dict[str, int] = {}
    pos = at
    for directive in query.split("&"):
        keyword = directive.partition("=")[0]
        if keyword in _DRAFT2012_REGISTERED_KEYWORDS:
            count[keyword] = count.get(keyword, 0) + 1
            if count[keyword] == 2:  # one finding per keyword, at its second use
                out.append(finding("repeated-query-keyword",
                              f"the registered keyword {keyword!r} MUST NOT appear more than once "
                              f"(draft-2012 section 2.3)", pos))
        pos += len(directive) + 1
    return out
