"""The IANA "Uniform Resource Names (URN) Namespaces" registry and the IETF
URN sub-namespace registry, as a frozen snapshot.

The package ships a compact JSON derived from IANA's XML (see
``tools/build_registry.py``); :func:`load_registry` reads that, a newer IANA
``urn-namespaces.xml``, or a JSON written by the tool, so a user can point at
a newer file.  Reading files is the only I/O here.
"""
from __future__ import annotations

import contextlib
import enum
import functools
import os
import json
from os import PathLike
from typing import TYPE_CHECKING, Dict, FrozenSet, Iterable, List, NamedTuple, Optional, Tuple, Union

from ..errors import SourceError, UrnscanError

if TYPE_CHECKING:  # the XML parser is loaded when an XML registry is read
    import xml.etree.ElementTree as ET

#: Identifies the JSON layout written by :func:`registry_to_json`.
JSON_FORMAT = "urnscan-urn-registry/1"



class NamespaceStatus(enum.StrEnum):
    """The registration status of a NID (:func:`urnscan.namespaces.namespace_status`);
    registry entries are ``FORMAL`` or ``INFORMAL`` (RFC 8141 section 5)."""

    FORMAL = "formal"
    INFORMAL = "informal"
    EXPERIMENTAL = "experimental"
    UNREGISTERED = "unregistered"


FORMAL = NamespaceStatus.FORMAL
INFORMAL = NamespaceStatus.INFORMAL

_IANA_NS = "{http://www.iana.org/assignments}"
_PACKAGED = ("data", "registry.json")

PathArg = Union[str, "PathLike[str]"]


class RegistryError(UrnscanError, ValueError):
    """A registry file is neither a usable IANA XML nor a registry JSON
    (whose every field is of the type it must be)."""


class NamespaceEntry(NamedTuple):
    """One NID of the IANA registry.

    ``references`` are the registry's Reference column (``RFC5279``, an
    organisation with its URL, a person's name); ``template`` the URL of the
    registration template when there is one; ``registered`` and ``updated``
    the record's dates when IANA gives them.
    """

    nid: str
    kind: NamespaceStatus  # FORMAL or INFORMAL
    references: Tuple[str, ...] = ()
    template: Optional[str] = None
    registered: Optional[str] = None
    updated: Optional[str] = None


class Registry:
    """A snapshot of the URN namespace registries.  NIDs are lower case.

    Read-only, compared and hashed by its fields; ``formal`` and
    ``informal`` (the NIDs of each kind) are worked out once.  (A plain
    class: the ``dataclasses`` module would cost the command line's start-up
    as much as all the scanner's modules.)"""

    __slots__ = ("date", "entries", "ietf_subnamespaces", "ietf_params", "ietf_date", "formal", "informal",
                 "_by_nid")

    def __init__(self, date: str, entries: Tuple[NamespaceEntry, ...],
                 ietf_subnamespaces: FrozenSet[str] = frozenset(), ietf_params: FrozenSet[str] = frozenset(),
                 ietf_date: Optional[str] = None):
        fields = {"date": date, "entries": entries, "ietf_subnamespaces": ietf_subnamespaces,
                  "ietf_params": ietf_params, "ietf_date": ietf_date,
                  "formal": frozenset(e.nid for e in entries if e.kind == FORMAL),
                  "informal": frozenset(e.nid for e in entries if e.kind == INFORMAL),
                  "_by_nid": {e.nid: e for e in entries}}
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError(f"a Registry is read-only: cannot set {name!r}")

    def _fields(self) -> tuple:
        return self.date, self.entries, self.ietf_subnamespaces, self.ietf_params, self.ietf_date

    def __eq__(self, other) -> bool:
        return self._fields() == other._fields() if isinstance(other, Registry) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return f"Registry(date={self.date!r}, entries=<{len(self.entries)}>, ietf_date={self.ietf_date!r})"

    def entry(self, nid: str) -> Optional[NamespaceEntry]:
        """The registry record of ``nid`` (any case), or ``None``."""
        return self._by_nid.get(nid.lower())


# --- IANA XML ---------------------------------------------------------------


def _tag(name: str) -> str:
    return _IANA_NS + name


def _parse_xml(data: bytes, expected_id: str) -> ET.Element:
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise RegistryError(f"not well-formed XML: {exc}") from None
    if root.tag != _tag("registry") or root.get("id") != expected_id:
        raise RegistryError(
            f"not the IANA {expected_id!r} registry (root is {root.tag} id={root.get('id')!r})")
    return root


def _sub_registry(root: ET.Element, registry_id: str) -> ET.Element:
    for child in root.findall(_tag("registry")):
        if child.get("id") == registry_id:
            return child
    raise RegistryError(f"the XML has no sub-registry {registry_id!r}")


def _text(element: ET.Element) -> str:
    return " ".join("".join(element.itertext()).split())


def _describe_xref(xref: ET.Element, people: Dict[str, str]) -> str:
    kind, data, text = xref.get("type"), xref.get("data", ""), _text(xref)
    if kind == "rfc":
        return text or data.upper()
    if kind == "rfc-errata":
        return f"RFC Errata {data}"
    if kind == "person":
        return people.get(data, data)
    if kind == "uri" and text and text != data:
        return f"{text} <{data}>"
    return text or data


def _is_template_link(xref: ET.Element) -> bool:
    data = xref.get("data", "")
    return xref.get("type") == "uri" and (
        "/urn-formal/" in data or "/urn-informal/" in data)


def _entry_from_record(record: ET.Element, kind: NamespaceStatus,
                       people: Dict[str, str]) -> NamespaceEntry:
    name = record.findtext(_tag("name"))
    if not name or not name.strip():
        raise RegistryError("a registry record has no name")
    template = None
    references: List[str] = []
    template_xref = record.find(f"{_tag('template')}/{_tag('xref')}")
    if template_xref is not None:
        template = template_xref.get("data")
    for xref in record.findall(_tag("xref")) + record.findall(
            f"{_tag('contact')}/{_tag('xref')}"):
        if template is None and _is_template_link(xref):
            template = xref.get("data")
            continue
        references.append(_describe_xref(xref, people))
    return NamespaceEntry(
        nid=name.strip().lower(), kind=kind, references=tuple(references),
        template=template, registered=record.get("date"), updated=record.get("updated"))


def entries_from_iana_xml(data: bytes) -> Tuple[str, Tuple[NamespaceEntry, ...]]:
    """``(date, entries)`` from IANA's ``urn-namespaces.xml``."""
    root = _parse_xml(data, "urn-namespaces")
    date = (root.findtext(_tag("updated")) or "").strip()
    if not date:
        raise RegistryError("the XML has no <updated> date")
    people = {
        p.get("id", ""): (p.findtext(_tag("name")) or p.get("id", "")).strip()
        for p in root.iter(_tag("person"))
    }
    entries = []
    for registry_id, kind in (("urn-namespaces-1", FORMAL), ("urn-namespaces-2", INFORMAL)):
        for record in _sub_registry(root, registry_id).findall(_tag("record")):
            entries.append(_entry_from_record(record, kind, people))
    return date, tuple(entries)


def ietf_from_params_xml(data: bytes) -> Tuple[Optional[str], FrozenSet[str], FrozenSet[str]]:
    """``(date, sub-namespaces, params registrations)`` from IANA's
    ``params.xml`` (RFC 2648 / RFC 3553 sub-namespaces of ``urn:ietf``)."""
    root = _parse_xml(data, "params")

    def names(registry_id: str) -> FrozenSet[str]:
        records = _sub_registry(root, registry_id).findall(_tag("record"))
        return frozenset(
            (r.findtext(_tag("name")) or "").strip().lower() for r in records) - {""}

    date = (root.findtext(_tag("updated")) or "").strip() or None
    return date, names("urn-subnamespaces"), names("params-1")


# --- JSON -------------------------------------------------------------------

_ENTRY_FIELDS = (("ref", "references"), ("template", "template"),
                 ("registered", "registered"), ("updated", "updated"))


def _entry_to_json(entry: NamespaceEntry) -> Dict[str, object]:
    record: Dict[str, object] = {"nid": entry.nid}
    for json_name, attribute in _ENTRY_FIELDS:
        value = getattr(entry, attribute)
        if value:
            record[json_name] = list(value) if isinstance(value, tuple) else value
    return record


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def registry_to_json(registry: Registry, *, source: str = "") -> str:
    """A compact, deterministic JSON text: one NID a line, so a diff between
    two snapshots reads as the registry's own change log."""
    header = {"format": JSON_FORMAT, "date": registry.date, "source": source,
              "ietf": {"date": registry.ietf_date,
                       "subnamespaces": sorted(registry.ietf_subnamespaces),
                       "params": sorted(registry.ietf_params)}}
    lines = ["{" + _dumps(header)[1:-1] + ","]
    for kind in (FORMAL, INFORMAL):
        rows = [_dumps(_entry_to_json(e)) for e in registry.entries if e.kind == kind]
        lines.append(f'"{kind}":[')
        lines.append(",\n".join(rows))
        lines.append("]," if kind == FORMAL else "]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _str_or_none(value: object) -> Optional[str]:
    return value if isinstance(value, str) and value else None


#: what :func:`_expect` says a field must be, by its Python type
_KINDS = {str: "a string", list: "a list", dict: "an object"}
_MISSING = object()


def _shown(value: object) -> str:
    """A field's value as a message shows it: its JSON, cut short."""
    if value is _MISSING:
        return "missing"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _expect(value: object, kind: type, where: str, *, optional: bool = False):
    """``value``, the field ``where`` of a registry JSON, when it is a
    ``kind`` (or, ``optional``, null or missing: then None); else a
    :class:`RegistryError` naming the field and what it must be."""
    if isinstance(value, kind):
        return value
    if optional and (value is None or value is _MISSING):
        return None
    article = _KINDS[kind] + (" or null" if optional else "")
    raise RegistryError(f"not a registry JSON: {where} must be {article} (it is {_shown(value)})")


def _strings(value: object, where: str) -> Tuple[str, ...]:
    """The list of strings at field ``where`` (null or missing: none)."""
    items = _expect(value, list, where, optional=True) or ()
    return tuple(_expect(item, str, f"{where}[{i}]") for i, item in enumerate(items))


def _entries_from_json(rows: object, kind: NamespaceStatus) -> Iterable[NamespaceEntry]:
    for i, row in enumerate(_expect(rows, list, str(kind))):
        where = f"{kind}[{i}]"
        row = _expect(row, dict, where)
        optional = {name: _expect(row.get(name, _MISSING), str, f"{where}.{name}", optional=True)
                    for name in ("template", "registered", "updated")}
        yield NamespaceEntry(
            nid=_expect(row.get("nid", _MISSING), str, f"{where}.nid").lower(), kind=kind,
            references=_strings(row.get("ref", _MISSING), f"{where}.ref"),
            **{name: _str_or_none(value) for name, value in optional.items()})


def registry_from_json(text: Union[str, bytes]) -> Registry:
    """The :class:`Registry` of a JSON written by :func:`registry_to_json`,
    its whole structure checked here: :class:`RegistryError` names the
    first field that is missing or of the wrong type."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise RegistryError(f"not a registry JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != JSON_FORMAT:
        raise RegistryError(f"not a registry JSON of format {JSON_FORMAT!r}")
    date = _expect(data.get("date", _MISSING), str, "date")
    ietf = _expect(data.get("ietf", _MISSING), dict, "ietf", optional=True) or {}
    entries = tuple(_entries_from_json(data.get(FORMAL, _MISSING), FORMAL)) + tuple(
        _entries_from_json(data.get(INFORMAL, _MISSING), INFORMAL))
    return Registry(
        date=date, entries=entries,
        ietf_subnamespaces=frozenset(map(str.lower, _strings(ietf.get("subnamespaces"), "ietf.subnamespaces"))),
        ietf_params=frozenset(map(str.lower, _strings(ietf.get("params"), "ietf.params"))),
        ietf_date=_str_or_none(_expect(ietf.get("date"), str, "ietf.date", optional=True)))


# --- loading ------------------------------------------------------------------


def _read(path: PathArg) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise SourceError(f"cannot read registry file {path}: {exc.strerror or exc}") from None


def _looks_like_xml(data: bytes) -> bool:
    return data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"<"


_PACKAGED_PATH = os.path.join(os.path.dirname(__file__), *_PACKAGED)


def _packaged_json() -> bytes:
    """The shipped snapshot: beside this module on the file system (where
    pip installs it; importlib.resources would load its zip readers for
    nothing), or through importlib.resources where the package is not a
    directory (a zip import)."""
    try:
        with open(_PACKAGED_PATH, "rb") as handle:
            return handle.read()
    except OSError:
        from importlib import resources

        return resources.files(__package__).joinpath(*_PACKAGED).read_bytes()


def registry_from_iana_xml(urn_namespaces_xml: bytes,
                           params_xml: Optional[bytes] = None,
                           ietf_fallback: Optional[Registry] = None) -> Registry:
    """A :class:`Registry` from IANA's XML.  The IETF sub-namespaces come
    from ``params_xml``, else from ``ietf_fallback``, else are empty."""
    date, entries = entries_from_iana_xml(urn_namespaces_xml)
    if params_xml is not None:
        ietf_date, subnamespaces, params = ietf_from_params_xml(params_xml)
    elif ietf_fallback is not None:
        ietf_date = ietf_fallback.ietf_date
        subnamespaces, params = ietf_fallback.ietf_subnamespaces, ietf_fallback.ietf_params
    else:
        ietf_date, subnamespaces, params = None, frozenset(), frozenset()
    return Registry(date=date, entries=entries, ietf_subnamespaces=subnamespaces,
                    ietf_params=params, ietf_date=ietf_date)


@contextlib.contextmanager
def _naming(path: PathArg):
    """A :class:`RegistryError` raised inside names the file ``path``."""
    try:
        yield
    except RegistryError as exc:
        raise RegistryError(f"{os.fspath(path)}: {exc}") from None


def load_registry(path: Optional[PathArg] = None, *,
                  params: Optional[PathArg] = None) -> Registry:
    """Load a registry snapshot.

    ``path`` is ``None`` (the snapshot shipped with urnscan), an IANA
    ``urn-namespaces.xml`` or a JSON written by ``tools/build_registry.py``.
    ``params`` optionally names an IANA ``params.xml`` whose IETF
    sub-namespaces replace those of the snapshot; with an XML ``path`` and no
    ``params`` the shipped IETF sub-namespaces are kept.

    Raises :class:`~urnscan.errors.SourceError` when a file cannot be read
    and :class:`RegistryError` when its content is not a registry; either
    names the file.
    """
    params_xml = _read(params) if params is not None else None
    if path is None:
        registry = registry_from_json(_packaged_json())
    else:
        data = _read(path)
        with _naming(path):
            if _looks_like_xml(data):
                return registry_from_iana_xml(
                    data, params_xml, ietf_fallback=None if params_xml else packaged_registry())
            registry = registry_from_json(data)
    if params_xml is None:
        return registry
    with _naming(params):
        ietf_date, subnamespaces, ietf_params = ietf_from_params_xml(params_xml)
    return Registry(date=registry.date, entries=registry.entries,
                    ietf_subnamespaces=subnamespaces, ietf_params=ietf_params,
                    ietf_date=ietf_date)


#: names a newer registry file (an IANA ``urn-namespaces.xml`` or a JSON
#: from ``tools/build_registry.py``) to use instead of the shipped snapshot
REGISTRY_ENV = "URNSCAN_REGISTRY"
#: the path that names the shipped snapshot, whatever the environment says
#: (a caller that resolved the environment once passes it on)
PACKAGED = ""


@functools.lru_cache(maxsize=1)
def packaged_registry() -> Registry:
    """The snapshot shipped with urnscan, loaded once."""
    return load_registry()


@functools.lru_cache(maxsize=None)
def _registry_at(path: str) -> Registry:
    return load_registry(path)


def default_registry() -> Registry:
    """The registry namespace statuses are judged against when none is
    named: the file named by the environment variable ``URNSCAN_REGISTRY``
    when it is set, else the shipped snapshot."""
    return registry_named(None)


def registry_named(path: Optional[str]) -> Registry:
    """The registry in the file at ``path`` (loaded once per process), the
    default registry when ``path`` is None, the shipped snapshot when it is
    :data:`PACKAGED` (``urnscan scan`` resolves ``--registry FILE`` or the
    environment once and passes the result down to every scanner, in every
    worker)."""
    if path is None and os.environ.get(REGISTRY_ENV):
        try:
            return _registry_at(os.environ[REGISTRY_ENV])
        except (RegistryError, SourceError) as exc:  # the message says where the file's name came from
            raise type(exc)(f"{REGISTRY_ENV}: {exc}") from None
    return _registry_at(path) if path else packaged_registry()
