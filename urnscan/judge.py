"""Judge a found URN once: verdicts under the profiles, canonical form, keys,
namespace status.  Real corpora repeat the same URNs, so judgements are
cached per distinct string (bounded)."""
from __future__ import annotations

from collections import namedtuple
from typing import TYPE_CHECKING, Callable, Dict, List, NamedTuple, Optional

from . import _abnf
from .equivalence import canonical_of, key_of
from .lazyre import LazyPattern
from .model import DEFAULT_PROFILE, URN_FIELD, Finding, Hit, Profile
from .syntax import _checked, _judge, _nid_has_error, _nid_verdict, _valid, check_profile

if TYPE_CHECKING:
    from .namespaces.registry import Registry


#: The fields of a :class:`Hit` that depend on its URN alone (all but the
#: profile): a Hit is the position fields, these, and the profile in between.
Judgement = namedtuple("Judgement", [f for f in Hit._fields[Hit._fields.index("valid"):] if f != "profile"])


def _nid_token(urn: str) -> Optional[str]:
    end = urn.find(":", 4)
    return urn[4:end] if end > 4 else None


class _NamespaceRules(NamedTuple):
    checks: dict
    findings_of_parts: Callable
    checksum_verdict: Callable
    keys_of_parts: Callable
    key_parts: type
    registry_named: Callable
    namespace_status: Callable
    shapes: dict  # namespaces.shapes.NAMESPACE_SHAPES


_RULES: Optional[_NamespaceRules] = None


def namespace_rules() -> _NamespaceRules:
    """The namespace rules, loaded with the first URN judged (not with the
    scanner: a scan that finds nothing never needs them), and kept here so
    that judging a URN runs no import statement."""
    global _RULES
    if _RULES is None:
        from .namespaces.findings import NAMESPACE_CHECKS, checksum_verdict, findings_of_parts
        from .namespaces._text import KeyParts
        from .namespaces.heuristic import keys_of_parts
        from .namespaces.registry import registry_named
        from .namespaces.shapes import NAMESPACE_SHAPES
        from .namespaces.status import namespace_status

        _RULES = _NamespaceRules(NAMESPACE_CHECKS, findings_of_parts, checksum_verdict, keys_of_parts, KeyParts,
                                 registry_named, namespace_status, NAMESPACE_SHAPES)
    return _RULES


def judge(urn: str, profile: str = DEFAULT_PROFILE, registry: Optional["Registry"] = None) -> Judgement:
    """The fields of a :class:`Hit` that depend on ``urn`` alone, judged
    under ``profile`` with namespace statuses from ``registry`` (the
    default registry when None)."""
    return _new(Judgement, _judged(urn, _checked(urn, profile), registry))


_new = tuple.__new__


def _judged(urn: str, profile: str, registry: Optional["Registry"]) -> tuple:
    """:func:`judge`'s fields as a plain tuple (the scan places them in its
    rows without making a :class:`Judgement` of them)."""
    if registry is None:
        registry = (_RULES or namespace_rules()).registry_named(None)
    if profile in _PLAIN_PROFILES:
        plain = _PLAIN.fullmatch(urn)
        if plain is not None:
            return _judged_plain(plain.group("nid"), plain.group("nss"), profile, registry)
    return _judged_in_full(urn, profile, registry)


def _judged_in_full(urn: str, profile: str, registry: "Registry") -> tuple:
    """:func:`_judged` of any string: the verdicts of the profiles' grammars."""
    namespace_status = (_RULES or namespace_rules()).namespace_status
    verdict = _judge(urn, profile)
    parsed = verdict.urn
    v2141 = verdict.valid if profile == "rfc2141" else _valid(urn, "rfc2141")
    v8141 = verdict.valid if profile == "rfc8141" else _valid(urn, "rfc8141")
    if parsed is None:
        nid = _nid_token(urn)
        status = namespace_status(nid, registry) if nid else "unregistered"
        return _invalid(v2141, v8141, nid, verdict.findings, status)
    key = key_of(parsed)
    bare = parsed.r_component is None and parsed.q_component is None and parsed.f_component is None
    return _of_namespace((True, v2141, v8141, key if bare else canonical_of(parsed), key, parsed.nid, parsed.nss,
                          parsed.r_component, parsed.q_component, parsed.f_component),
                         key, parsed.nid.lower(), verdict.findings, namespace_status(parsed.nid, registry), registry)


def _invalid(v2141: bool, v8141: bool, nid: Optional[str], findings: tuple, status) -> tuple:
    """The judgement of a string invalid under the profile: no parts, no keys."""
    return (False, v2141, v8141, None, None, nid, None, None, None, None, findings, status, None, None, None, None)


def _of_namespace(head: tuple, key: str, nid: str, findings: tuple, status, registry: "Registry") -> tuple:
    """A valid URN's judgement: ``head`` (its fields up to the findings),
    then its findings with its namespace's, its namespace status, keys,
    rules and checksum verdict.  ``nid``: its NID lower-cased."""
    NAMESPACE_CHECKS, findings_of_parts, checksum_verdict, keys_of_parts, KeyParts, _, _, shapes = \
        _RULES or namespace_rules()
    checksum = None
    # the key is "urn:" + the NID lower-cased + ":" + the NSS (a NID holds no
    # ":"), so it is split here as split_key would split it
    at = len(nid) + 5
    nss = key[at:]
    shape = shapes.get(nid)
    if shape is not None:
        tail = shape(key, nss, at, registry)
        if tail is not None:  # the commonest shape of the namespace's names: namespaces.shapes
            return head + (findings + tail[0], status) + tail[1:]
    if nid in NAMESPACE_CHECKS:
        of_namespace = findings_of_parts(key, nid, nss, at, registry)
        findings += of_namespace
        checksum = checksum_verdict(key, nid, nss, of_namespace)
    keys = keys_of_parts(key, _new(KeyParts, (nid, nss, at)))
    # the normative rules named once, before the heuristics they led to
    rules = tuple(dict.fromkeys(keys.dedup_rules)) if keys.ns_key != key else keys.dedup_rules
    return head + (findings, status, keys.ns_key, keys.dedup_key, ",".join(rules), checksum)


#: the profiles whose verdict on a plain name (_abnf.PLAIN_URN) is its NID's
_PLAIN_PROFILES = frozenset({Profile.RFC8141, Profile.RFC2141})
_PLAIN = LazyPattern(_abnf.PLAIN_URN)
#: (NID as written, profile, id of the registry) -> what a plain name with
#: that NID is judged: valid under the profile, under RFC 2141, under RFC
#: 8141, the NID's findings under the profile, the NID lower-cased, its
#: namespace status, and the registry (held, so that its id names no other
#: while the entry lasts).  Cleared when full (an input may hold many NIDs).
_PLAIN_NIDS: Dict[tuple, tuple] = {}
PLAIN_NIDS_SIZE = 4096


def _judged_plain(nid: str, nss: str, profile: str, registry: "Registry") -> tuple:
    """:func:`_judged` of ``urn:<nid>:<nss>``, a plain name: its verdict
    under each profile is its NID's (the grammars' fast paths, ``_SIMPLE``
    in :mod:`urnscan.syntax`, take it whole), its key is the name with the
    NID lower-cased, and its canonical form is its key (seed 001 section 3.1:
    no percent-encoding to normalise, no component)."""
    cached = (nid, profile, id(registry))
    known = _PLAIN_NIDS.get(cached)
    if known is None:
        if len(_PLAIN_NIDS) >= PLAIN_NIDS_SIZE:
            _PLAIN_NIDS.clear()
        notes, error = _nid_verdict(nid, profile)
        known = _PLAIN_NIDS[cached] = (not error, not _nid_has_error(nid, Profile.RFC2141),
                                       not _nid_has_error(nid, Profile.RFC8141), notes, nid.lower(),
                                       (_RULES or namespace_rules()).namespace_status(nid, registry), registry)
    valid, v2141, v8141, notes, folded, status, _ = known
    if not valid:
        return _invalid(v2141, v8141, nid, notes, status)
    key = f"urn:{folded}:{nss}"
    return _of_namespace((True, v2141, v8141, key, key, nid, nss, None, None, None), key, folded, notes, status,
                         registry)


_BEFORE_PROFILE = Hit._fields.index("profile") - Hit._fields.index("valid")

#: Hit fields per URN, per (profile, registry), shared by every UrnJudge of
#: the process: judge() is a pure function of (urn, profile, registry), and
#: a scan of many files (one scanner each) or of the same corpus again meets
#: the same URNs.  Two generations of SHARED_CACHE_SIZE entries each: when
#: the young one is full it becomes the old one, and a URN met again in the
#: old one moves back to the young -- URNs that keep coming back stay cached
#: however many distinct URNs pass by (a single dict cleared when full would
#: drop them every SHARED_CACHE_SIZE new URNs).
SHARED_CACHE_SIZE = 1 << 16
#: ... or once the URNs of the young one are this long together: a
#: judgement holds about four strings as long as its URN (the URN, its
#: canonical form, key and NSS), so a generation of 4 KB URNs held 1 GB by
#: count alone; this keeps one to about 32 MB, while 65,536 URNs of the
#: usual length (30 to 60 characters) stay under it
SHARED_CACHE_CHARS = 8 << 20
_SHARED_TAILS: Dict[tuple, Dict[str, tuple]] = {}
_OLD_TAILS: Dict[tuple, Dict[str, tuple]] = {}
_YOUNG_CHARS: Dict[tuple, int] = {}  # the length of the young generation's URNs
#: UrnJudge.shared's judges, by profile and registry (registries are
#: loaded once per process and kept)
_JUDGES: Dict[tuple, "UrnJudge"] = {}


def forget_judgements() -> None:
    """Empty the shared cache (the next scan judges every URN again, as a
    new process would)."""
    for generation in (_SHARED_TAILS, _OLD_TAILS):
        for tails in generation.values():
            tails.clear()
    _YOUNG_CHARS.clear()


class UrnJudge:
    """Cached :func:`judge` for one profile and one registry: the judged
    fields of a :class:`Hit`.  ``registry`` is the path of a registry file
    (see :func:`urnscan.namespaces.registry.registry_named`; None: the
    default registry), resolved once, here."""

    def __init__(self, profile: str = DEFAULT_PROFILE, registry: Optional[str] = None):
        self.profile = profile
        self._profile = check_profile(profile)  # (as the judgement reads it)
        self.registry = namespace_rules().registry_named(registry)
        self._cache_key = (profile, id(self.registry))
        _SHARED_TAILS.setdefault(self._cache_key, {})

    @classmethod
    def shared(cls, profile: str = DEFAULT_PROFILE, registry: Optional[str] = None) -> "UrnJudge":
        """The process's one judge for ``profile`` and ``registry`` (a
        judge holds nothing of its own: a scanner per file need not make
        one).  The default registry is looked up again each time, as the
        environment may name another."""
        key = (profile, id(namespace_rules().registry_named(registry)))
        judge = _JUDGES.get(key)
        if judge is None:
            judge = _JUDGES[key] = cls(profile, registry)
        return judge

    def tail(self, urn: str) -> tuple:
        """The fields of a :class:`Hit` that depend on ``urn`` alone: the
        judgement, then the profile."""
        key = self._cache_key
        tails = _SHARED_TAILS[key]
        t = tails.get(urn)
        if t is None:
            t = _OLD_TAILS.get(key, {}).get(urn)
            if t is None:
                j = _judged(urn, self._profile, self.registry)
                t = j[:_BEFORE_PROFILE] + (self.profile,) + j[_BEFORE_PROFILE:]
            chars = _YOUNG_CHARS.get(key, 0) + len(urn)
            if len(tails) >= SHARED_CACHE_SIZE or chars > SHARED_CACHE_CHARS:
                _OLD_TAILS[key] = tails
                tails = _SHARED_TAILS[key] = {}
                chars = len(urn)
            tails[urn] = t
            _YOUNG_CHARS[key] = chars
        return t

    def young_tails(self) -> Dict[str, tuple]:
        """The younger generation of the shared cache: URN -> the fields
        :meth:`tail` gives (read by the accelerator's ``place_rows``)."""
        return _SHARED_TAILS[self._cache_key]

    def rows(self, spans: List[tuple], hits: List[Hit]) -> None:
        """Append to ``hits`` one row per span: a span is the fields of a
        :class:`Hit` up to ``context`` (where the scanner found it), the
        row adds the judgement of its ``urn``."""
        new = tuple.__new__
        append = hits.append
        cached = _SHARED_TAILS[self._cache_key].get
        tail = self.tail
        for span in spans:
            t = cached(span[URN_FIELD])
            append(new(Hit, span + (tail(span[URN_FIELD]) if t is None else t)))

    def overlong_hit(self, source, start, end, line, column, shown: str, finding: Finding,
                     document=None) -> Hit:
        namespace_status = namespace_rules().namespace_status
        nid = _nid_token(shown)
        return Hit(source, document, start, end, line, column, "bare", False, False, shown, shown, shown, (), None,
                   False, False, False, None, None, nid, None, None, None, None, (finding,),
                   namespace_status(nid, self.registry) if nid else "unregistered", None, self.profile, None, None)
