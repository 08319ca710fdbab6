#!/usr/bin/env python3
"""Derive urnscan's registry snapshot (package data) from IANA's XML.

    python3 tools/build_registry.py URN_NAMESPACES_XML PARAMS_XML [-o OUT] [--check]

URN_NAMESPACES_XML is IANA's "Uniform Resource Names (URN) Namespaces"
registry (urn-namespaces.xml), PARAMS_XML its "IETF URN Sub-namespaces"
registry (params.xml).  OUT defaults to the package's
urnscan/namespaces/data/registry.json.  With --check nothing is written; the
exit status is 1 when OUT differs from what the XML gives.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPO_ROOT / "urnscan" / "namespaces" / "data" / "registry.json"
SOURCE = ("IANA Uniform Resource Names (URN) Namespaces (urn-namespaces.xml) and "
          "IETF URN Sub-namespaces (params.xml)")


def build(urn_namespaces_xml: Path, params_xml: Path) -> str:
    sys.path.insert(0, str(REPO_ROOT))
    from urnscan.namespaces.registry import registry_from_iana_xml, registry_to_json

    registry = registry_from_iana_xml(urn_namespaces_xml.read_bytes(), params_xml.read_bytes())
    return registry_to_json(registry, source=SOURCE)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("urn_namespaces_xml", type=Path, help="IANA urn-namespaces.xml")
    parser.add_argument("params_xml", type=Path, help="IANA params.xml (IETF sub-namespaces)")
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT_OUTPUT,
                        help="where to write the JSON (default: the package data file)")
    parser.add_argument("--check", action="store_true",
                        help="only compare with OUTPUT; exit 1 when it is out of date")
    args = parser.parse_args(argv)
    text = build(args.urn_namespaces_xml, args.params_xml)
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.exists() else None
        if current != text:
            print(f"{args.output} is out of date; rebuild it with {Path(__file__).name}",
                  file=sys.stderr)
            return 1
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
