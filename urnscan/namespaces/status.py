"""Registration status of a NID: formal, informal, experimental or
unregistered."""
from __future__ import annotations

from typing import Optional, Tuple

from .registry import FORMAL, INFORMAL, NamespaceStatus, Registry, default_registry

EXPERIMENTAL = NamespaceStatus.EXPERIMENTAL
UNREGISTERED = NamespaceStatus.UNREGISTERED

#: Every value :func:`namespace_status` can return.
STATUSES: Tuple[NamespaceStatus, ...] = tuple(NamespaceStatus)


def namespace_status(nid: str, registry: Optional[Registry] = None) -> NamespaceStatus:
    """``formal`` or ``informal`` when the registry lists ``nid``;
    ``experimental`` for an ``X-`` NID (RFC 3406 §3.1; RFC 8141 Appendix C,
    which bars them from registration); otherwise ``unregistered``.

    NIDs are case-insensitive (RFC 8141 §2.1), so ``ISBN`` is ``isbn``.

    >>> namespace_status("ISBN")
    <NamespaceStatus.FORMAL: 'formal'>
    >>> [str(namespace_status(nid)) for nid in ("urn-7", "x-demo", "no-such-nid")]
    ['informal', 'experimental', 'unregistered']
    >>> namespace_status("isbn") == "formal"
    True
    """
    registry = registry if registry is not None else default_registry()
    folded = nid.lower()
    if folded in registry.formal:
        return FORMAL
    if folded in registry.informal:
        return INFORMAL
    if folded.startswith("x-"):
        return EXPERIMENTAL
    return UNREGISTERED
