"""Judge a found URN once: verdicts under the profiles, canonical form, keys,
namespace status.  Real corpora repeat the same URNs, so judgements are
cached per distinct string (bounded)."""
from __future__ import annotations

from collections import namedtuple
from typing import Dict, Optional

from .equivalence import canonical_of, key_of
from .model import DEFAULT_PROFILE, Finding, Hit
from .syntax import _valid, is_valid, validate


#: The fields of a :class:`Hit` that depend on its URN alone (all but the
#: profile): a Hit is the position fields, these, and the profile in between.
Judgement = namedtuple("Judgement", [f for f in Hit._fields[Hit._fields.index("valid"):] if f != "profile"])


def _nid_token(urn: str) -> Optional[str]:
    end = urn.find(":", 4)
    return urn[4:end] if end > 4 else None


def judge(urn: str, profile: str = DEFAULT_PROFILE) -> Judgement:
    # the namespace rules load with the first URN judged, not with the scanner
    from .namespaces.findings import NAMESPACE_CHECKS, findings_of_parts
    from .namespaces.heuristic import namespace_keys
    from .namespaces.status import namespace_status

    verdict = validate(urn, profile)
    parsed = verdict.urn
    v2141 = verdict.valid if profile == "rfc2141" else _valid(urn, "rfc2141")
    v8141 = verdict.valid if profile == "rfc8141" else is_valid(urn, "rfc8141")
    if parsed is None:
        nid = _nid_token(urn)
        status = namespace_status(nid) if nid else "unregistered"
        return Judgement(False, v2141, v8141, None, None, nid, None, None, None, None, verdict.findings,
                         status, None, None, None)
    key = key_of(parsed)
    findings = verdict.findings
    nid = parsed.nid.lower()
    if nid in NAMESPACE_CHECKS:
        # the key is "urn:" + the NID lower-cased + ":" + the NSS (a NID holds
        # no ":"), so it is split here as split_key would split it
        at = len(nid) + 5
        findings += findings_of_parts(key, nid, key[at:], at)
    keys = namespace_keys(key)
    # the normative rules named once, before the heuristics they led to
    rules = tuple(dict.fromkeys(keys.dedup_rules)) if keys.ns_key != key else keys.dedup_rules
    return Judgement(True, v2141, v8141, canonical_of(parsed), key, parsed.nid, parsed.nss, parsed.r_component,
                     parsed.q_component, parsed.f_component, findings, namespace_status(parsed.nid), keys.ns_key,
                     keys.dedup_key, ",".join(rules))


_BEFORE_PROFILE = Hit._fields.index("profile") - Hit._fields.index("valid")

#: Hit fields per URN, per profile, shared by every UrnJudge of the process:
#: judge() is a pure function of (urn, profile), and a scan of many files
#: (one scanner each) or of the same corpus again meets the same URNs.
#: Two generations of SHARED_CACHE_SIZE entries each: when the young one is
#: full it becomes the old one, and a URN met again in the old one moves
#: back to the young -- URNs that keep coming back stay cached however many
#: distinct URNs pass by (a single dict cleared when full would drop them
#: every SHARED_CACHE_SIZE new URNs).
SHARED_CACHE_SIZE = 1 << 16
_SHARED_TAILS: Dict[str, Dict[str, tuple]] = {}
_OLD_TAILS: Dict[str, Dict[str, tuple]] = {}


class UrnJudge:
    """Cached :func:`judge` for one profile: the judged fields of a :class:`Hit`."""

    def __init__(self, profile: str = DEFAULT_PROFILE):
        self.profile = profile
        _SHARED_TAILS.setdefault(profile, {})

    def cached_tails(self) -> Dict[str, tuple]:
        """The young generation of the cache behind :meth:`tail` (read it,
        never write it; a URN missing there may still be known to
        :meth:`tail`)."""
        return _SHARED_TAILS[self.profile]

    def tail(self, urn: str) -> tuple:
        """The fields of a :class:`Hit` that depend on ``urn`` alone: the
        judgement, then the profile."""
        profile = self.profile
        tails = _SHARED_TAILS[profile]
        t = tails.get(urn)
        if t is None:
            t = _OLD_TAILS.get(profile, {}).get(urn)
            if t is None:
                j = judge(urn, profile)
                t = (*j[:_BEFORE_PROFILE], profile, *j[_BEFORE_PROFILE:])
            if len(tails) >= SHARED_CACHE_SIZE:
                _OLD_TAILS[profile] = tails
                tails = _SHARED_TAILS[profile] = {}
            tails[urn] = t
        return t

    def overlong_hit(self, source, start, end, line, column, shown: str, finding: Finding,
                     document=None) -> Hit:
        from .namespaces.status import namespace_status

        nid = _nid_token(shown)
        return Hit(source, document, start, end, line, column, "bare", False, False, shown, shown, shown, (), None,
                   False, False, False, None, None, nid, None, None, None, None, (finding,),
                   namespace_status(nid) if nid else "unregistered", None, self.profile, None, None)
