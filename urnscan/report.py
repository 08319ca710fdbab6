"""Plain-data reports of a URN judged under every profile (for ``check``)."""
from __future__ import annotations

from typing import Any, Dict

from .model import PROFILES, Severity, Verdict, canonical_of, key_of
from .namespaces import namespace_keys, namespace_status, ns_findings
from .namespaces._text import split_key
from .namespaces.findings import checksum_verdict
from .syntax import validate


def _finding_dict(f) -> Dict[str, Any]:
    return {"code": f.code, "severity": f.severity, "message": f.message, "position": f.position}


def check_record(value: str, profile: str) -> Dict[str, Any]:
    """Everything ``urnscan check`` says about one string, as plain data."""
    verdicts: Dict[str, Verdict] = {p: validate(value, p) for p in PROFILES}
    main = verdicts[profile]
    urn = main.urn
    key = key_of(urn) if urn else None
    findings = ns_findings(key) if key else ()
    parts = split_key(key) if key else None
    keys = namespace_keys(key) if key else None
    return {
        "input": value,
        "profile": profile,
        "valid": main.valid,
        "canonical": canonical_of(urn) if urn else None,
        "key": key,
        "nid": urn.nid if urn else None,
        "namespace_status": namespace_status(urn.nid) if urn else None,
        "ns_key": keys.ns_key if keys else None,
        # the key with the heuristics of citation deduplication, and the
        # rules (normative, then "h:" heuristic) that reached it
        "dedup_key": keys.dedup_key if keys else None,
        "dedup_rules": list(keys.dedup_rules) if keys else [],
        # namespace-level warnings (check digits, malformed identifiers)
        "namespace_findings": [_finding_dict(f) for f in findings],
        # whether the check character(s) match, for the names that carry some
        "valid_checksum": checksum_verdict(key, parts.nid, parts.nss, findings) if parts else None,
        "profiles": {
            p: {"valid": v.valid, "findings": [_finding_dict(f) for f in v.findings]}
            for p, v in verdicts.items()
        },
    }


def format_check_line(record: Dict[str, Any]) -> str:
    """``VALID|INVALID  input  profile:ok|codes ...  canonical=...  key=...``"""
    from .sinks._base import printable

    # the input as one line: its line breaks and control characters escaped
    parts = ["valid  " if record["valid"] else "INVALID", printable(record["input"])]
    for p, v in record["profiles"].items():
        codes = ",".join(f["code"] + ("" if f["severity"] == Severity.ERROR else "(w)") for f in v["findings"])
        state = "ok" if v["valid"] else "invalid"
        parts.append(f"{p}:{state}" + (f"[{codes}]" if codes else ""))
    if record["canonical"] is not None:
        parts.append(f"canonical={record['canonical']}")
        parts.append(f"key={record['key']}")
        parts.append(f"namespace={record['namespace_status']}")
        if record["ns_key"] != record["key"]:
            parts.append(f"ns_key={record['ns_key']}")
        if record["dedup_key"] != record["ns_key"]:
            parts.append(f"dedup_key={record['dedup_key']} ({','.join(record['dedup_rules'])})")
        if record["valid_checksum"] is not None:
            parts.append("checksum=" + ("ok" if record["valid_checksum"] else "wrong"))
        if record["namespace_findings"]:
            parts.append("namespace-findings=" + ",".join(f["code"] for f in record["namespace_findings"]))
    return "  ".join(parts)
