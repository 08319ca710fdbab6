"""Result types shared by every part of urnscan, and what a parsed URN
derives by itself: its canonical form and its equivalence key.

Seed 001 (RFC 8141) section 3.1: two URNs are URN-equivalent when their
assigned-names are octet-by-octet equal after (1) lower-casing the scheme
"urn", (2) lower-casing the NID, (3) upper-casing the hex digits of
percent-encoded octets in the NSS.  Percent-encoding MUST NOT be decoded;
r-, q- and f-components MUST be ignored.  Seed 000 (RFC 2141) section 5 is
the same procedure over the whole NSS; seed 002 section 5 adds step 4
(remove the fragment) and step 5a (remove the query) or 5b (reorder its
directives).

Everything here is immutable and hashable.  This module imports nothing from
the rest of the package but the grammar strings (``_abnf``), so it can be
used by the pure core and by the edges alike.
"""
from __future__ import annotations

import enum
from typing import NamedTuple, Optional, Tuple

from . import _abnf
from .lazyre import LazyPattern


class Profile(enum.StrEnum):
    """The syntax profiles, each a transcription of one seed document.
    Members equal their names as strings (``Profile.RFC8141 == "rfc8141"``)."""

    RFC8141 = "rfc8141"  # seed 001
    RFC2141 = "rfc2141"  # seed 000
    DRAFT2012 = "draft-2012"  # seed 002
    DRAFT1995 = "draft-1995"  # seed 004


PROFILES: Tuple[Profile, ...] = tuple(Profile)
DEFAULT_PROFILE = Profile.RFC8141


class Severity(enum.StrEnum):
    """How much a :class:`Finding` weighs: an error makes the string no URN
    under the profile; a warning leaves it valid."""

    ERROR = "error"
    WARNING = "warning"


ERROR = Severity.ERROR
WARNING = Severity.WARNING


class Finding(NamedTuple):
    """One observation about a URN string.

    ``code`` is stable and machine-readable (e.g. ``nid-too-long``);
    ``severity`` is ``"error"`` (the string is not a valid URN under the
    profile) or ``"warning"`` (valid syntax, but a registration-level rule or
    a SHOULD is broken); ``position`` is the 0-based offset in the judged
    string where the problem is, or ``None`` when it concerns the whole.
    """

    code: str
    severity: Severity
    message: str
    position: Optional[int] = None

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR


class Urn(NamedTuple):
    """A parsed URN, as written (nothing normalised).

    Components are ``None`` when absent and ``""`` when present but empty.
    ``canonical`` and ``key`` are derived on demand (seed 001 section 3).
    Two ``Urn`` objects compare equal when they were written identically;
    compare ``.key`` to test URN-equivalence.
    """

    nid: str
    nss: str
    r_component: Optional[str] = None
    q_component: Optional[str] = None
    f_component: Optional[str] = None
    profile: Profile = DEFAULT_PROFILE
    scheme: str = "urn"

    @property
    def assigned_name(self) -> str:
        return f"{self.scheme}:{self.nid}:{self.nss}"

    def __str__(self) -> str:
        out = self.assigned_name
        if self.r_component is not None:
            out += "?+" + self.r_component
        if self.q_component is not None:
            out += ("?=" if self.profile == Profile.RFC8141 else "?") + self.q_component
        if self.f_component is not None:
            out += "#" + self.f_component
        return out

    @property
    def canonical(self) -> str:
        """The canonical form (:func:`canonical_of`).

        >>> Urn("Example", "a%2cb", q_component="q").canonical
        'urn:example:a%2Cb?=q'
        """
        return canonical_of(self)

    @property
    def key(self) -> str:
        """The URN-equivalence key (:func:`key_of`).

        >>> Urn("Example", "a%2cb", q_component="q").key
        'urn:example:a%2Cb'
        """
        return key_of(self)


# --- canonical form and equivalence key (seed 001 section 3.1) -------------

# a triplet with a lower-case hex digit: the only ones case normalisation
# changes (a name already upper-case, the usual case, is passed over without
# a replacement per triplet)
_PCT_LOWER = LazyPattern(f"%(?:[a-f][{_abnf.HEXDIG}]|[0-9A-F][a-f])")


def upper_percent(s: str) -> str:
    """Upper-case the hex digits of every ``%HH`` triplet; decode nothing."""
    if "%" not in s:
        return s
    return _PCT_LOWER.sub(lambda m: m.group().upper(), s)


def canonical_of(urn: Urn) -> str:
    """The canonical form of a parsed URN: steps 1-3 of section 3.1 applied,
    components kept as written."""
    nss = upper_percent(urn.nss)
    out = f"urn:{urn.nid.lower()}:{nss}"
    if urn.profile == Profile.DRAFT2012:
        # seed 002 section 5 step 3 normalises percent-encoding everywhere
        if urn.q_component is not None:
            out += "?" + upper_percent(urn.q_component)
        if urn.f_component is not None:
            out += "#" + upper_percent(urn.f_component)
        return out
    if urn.r_component is not None:
        out += "?+" + urn.r_component
    if urn.q_component is not None:
        out += "?=" + urn.q_component
    if urn.f_component is not None:
        out += "#" + urn.f_component
    return out


def key_of(urn: Urn, resolution: bool = False) -> str:
    """The URN-equivalence key: the canonical assigned-name, components
    removed (seed 001 section 3.1; seed 000 section 5; seed 002 section 5
    steps 4 and 5a).  With ``resolution=True`` under draft-2012, step 5b
    instead: the query is kept with its directives sorted by keyword."""
    key = f"urn:{urn.nid.lower()}:{upper_percent(urn.nss)}"
    if resolution and urn.profile == Profile.DRAFT2012 and urn.q_component is not None:
        key += "?" + "&".join(sorted(upper_percent(urn.q_component).split("&"), key=_directive_order))
    return key


def _directive_order(directive: str) -> Tuple[str, str]:
    """Seed 002 section 5 step 5b: "Reorder the directives ... bringing
    them into a preferred <keywd> order" -- by keyword, then (for a keyword
    that is not registered and so may repeat, section 2.3) by the whole
    directive, so that no order of the same directives gives another key."""
    return directive.partition("=")[0], directive


class Verdict(NamedTuple):
    """The judgement of one string under one profile.  Never raised."""

    valid: bool
    findings: Tuple[Finding, ...]
    profile: str
    urn: Optional[Urn] = None

    @property
    def errors(self) -> Tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == ERROR)

    @property
    def warnings(self) -> Tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == WARNING)

    @property
    def codes(self) -> Tuple[str, ...]:
        return tuple(f.code for f in self.findings)


class Hit(NamedTuple):
    """One URN candidate found in text.

    Offsets are byte offsets into the (decompressed) input for byte input and
    character offsets for ``str`` input; ``end`` is exclusive.  ``line`` and
    ``column`` are 1-based and locate ``start`` (the column counts in the same
    unit as the offsets).  For a wrapped URN the span is the URN inside ``<``
    ``>``; for a folded or wrapped URN the span includes the white space that
    was removed from ``urn``.
    """

    source: Optional[str]
    #: the document inside the source (a mail message part, a WARC record, a
    #: zip member, a PDF page); null when the source is one document
    document: Optional[str]
    start: int
    end: int
    line: int
    column: int
    form: str  # "bare" or "wrapped"
    folded: bool
    embedded: bool
    raw: str  # the text of the span, as it stands in the input
    urn: str  # as written, wrapper and folding white space removed, trimmed
    literal: str  # the untrimmed RFC 2141 span (seed 000 section 2.4)
    #: the reading rules that shaped the hit (e.g. "pair:quote", "trim:period")
    rules: Tuple[str, ...]
    #: the text around the hit, white space collapsed; null when not asked for
    context: Optional[str]
    valid: bool  # under the scan's profile
    valid_rfc2141: bool
    valid_rfc8141: bool
    canonical: Optional[str]
    key: Optional[str]
    nid: Optional[str]
    nss: Optional[str]
    r_component: Optional[str]
    q_component: Optional[str]
    f_component: Optional[str]
    findings: Tuple[Finding, ...]
    namespace_status: str
    ns_key: Optional[str]
    profile: str
    # heuristic deduplication (beyond what namespaces register): the key and
    # the names of every rule applied to reach it, comma-separated, heuristic
    # ones prefixed "h:" -- so a grouping can be audited
    dedup_key: Optional[str] = None
    dedup_rules: Optional[str] = None
    #: whether the check character(s) of a name that carries them match
    #: (ISBN, ISSN, ISNI, ISAN, EIDR, a German NBN); null when it carries none
    valid_checksum: Optional[bool] = None

    @property
    def codes(self) -> Tuple[str, ...]:
        return tuple(f.code for f in self.findings)


#: the position of ``urn`` in a Hit (hits travel as plain tuples in bulk)
URN_FIELD = Hit._fields.index("urn")

#: A hit's text is about this many strings as long as its URN, one per
#: column of the index: urn, raw, literal, context, canonical, key, ns_key,
#: dedup_key and nss.  Buffers of hits are bounded by the text they hold as
#: well as by their rows (a row group of 4 KB URNs is 9 x 4 KB a row), and
#: count it as this many times the length of the URNs: one ``len`` a hit.
TEXT_PER_URN_BYTE = 9
