"""What urnscan knows about URN namespaces.

* the IANA registry snapshot and the status of a NID
  (:func:`load_registry`, :func:`default_registry`, :func:`namespace_status`);
* the namespace-aware equivalence key, built from the equivalences each
  namespace registers (:func:`ns_key`, :func:`ns_key_rules`);
* namespace-level warnings such as wrong check digits (:func:`ns_findings`);
* a heuristic deduplication key for citations (:func:`dedup_key`);
* a formal public identifier and its ``urn:publicid:`` name, one from the
  other (:func:`publicid_urn`, :func:`publicid_fpi`).

Pure functions over strings; the only I/O is reading the registry file.
Imports nothing from urnscan but :mod:`urnscan.model`,
:mod:`urnscan.errors` and the grammar strings of :mod:`urnscan._abnf`
(and :mod:`urnscan._lazy`: the names below load with their first use).
"""
from __future__ import annotations

from .._lazy import lazy_exports

#: each name, and the module that defines it (loaded on first use: a scan
#: that meets no URN never loads the namespace rules)
_EXPORTS = {
    "FINDING_CODES": "findings", "ns_findings": "findings",
    "NamespaceKeys": "heuristic", "dedup_key": "heuristic", "namespace_keys": "heuristic",
    "ns_key": "normative", "ns_key_rules": "normative",
    "publicid_fpi": "publicid", "publicid_urn": "publicid",
    "NamespaceEntry": "registry", "Registry": "registry", "RegistryError": "registry",
    "default_registry": "registry", "load_registry": "registry",
    "EXPERIMENTAL": "status", "FORMAL": "status", "INFORMAL": "status", "STATUSES": "status",
    "NamespaceStatus": "status", "UNREGISTERED": "status", "namespace_status": "status",
}

__all__ = sorted(_EXPORTS)

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
