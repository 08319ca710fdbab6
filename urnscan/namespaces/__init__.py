"""What urnscan knows about URN namespaces.

* the IANA registry snapshot and the status of a NID
  (:func:`load_registry`, :func:`default_registry`, :func:`namespace_status`);
* the namespace-aware equivalence key, built from the equivalences each
  namespace registers (:func:`ns_key`, :func:`ns_key_rules`);
* namespace-level warnings such as wrong check digits (:func:`ns_findings`);
* a heuristic deduplication key for citations (:func:`dedup_key`).

Pure functions over strings; the only I/O is reading the registry file.
Imports nothing from urnscan but :mod:`urnscan.model`,
:mod:`urnscan.errors` and the grammar strings of :mod:`urnscan._abnf`.
"""
from __future__ import annotations

from .findings import FINDING_CODES, ns_findings
from .heuristic import NamespaceKeys, dedup_key, namespace_keys
from .normative import ns_key, ns_key_rules
from .registry import (
    NamespaceEntry,
    Registry,
    RegistryError,
    default_registry,
    load_registry,
)
from .status import (
    EXPERIMENTAL,
    FORMAL,
    INFORMAL,
    STATUSES,
    NamespaceStatus,
    UNREGISTERED,
    namespace_status,
)

__all__ = [
    "EXPERIMENTAL",
    "FINDING_CODES",
    "FORMAL",
    "INFORMAL",
    "NamespaceEntry",
    "NamespaceKeys",
    "NamespaceStatus",
    "Registry",
    "RegistryError",
    "STATUSES",
    "UNREGISTERED",
    "dedup_key",
    "default_registry",
    "load_registry",
    "namespace_keys",
    "namespace_status",
    "ns_findings",
    "ns_key",
    "ns_key_rules",
]
