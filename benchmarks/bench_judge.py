"""Judge distinct URNs, a namespace at a time; print microseconds a URN.

    python3 benchmarks/bench_judge.py [--n 20000] [--repeat 5]

A scan judges each distinct URN once (validity under the profiles, keys,
namespace findings and rules, checksum verdict); a catalogue of ISBNs, or
a data set of UUIDs, is nothing but distinct URNs.  For each kind of name
this prints the cost of ``urnscan.judge.judge`` beside its baseline in the
same run: the same names judged by the namespace rules alone, with the
fast paths of :mod:`urnscan.namespaces.shapes` turned off (they answer for
the commonest shapes of a name in a few namespaces; names of another shape
and other namespaces take the rules either way, so their two columns
measure the noise of the machine).  The times are the best of ``--repeat``
runs, the two ways in turns; the speed-up is the median of each run's.
"""
from __future__ import annotations

import argparse
import statistics
import time

from urnscan import judge as judge_module
from urnscan.judge import judge, namespace_rules

#: (label, the i-th name of the kind)
KINDS = [
    ("ISBN-13, 13 digits", lambda i: f"urn:isbn:978{i:010d}"),
    ("ISBN-13, hyphens", lambda i: f"urn:isbn:978-{i % 10}-{i:06d}-{i % 97:02d}-{i % 10}"),
    ("ISBN-10", lambda i: f"urn:ISBN:{i:09d}{i % 10}"),
    ("ISBN, spaces", lambda i: f"urn:isbn:978 {i % 10} {i:06d} {i % 97:02d} {i % 10}"),
    ("UUID, lower case", lambda i: f"urn:uuid:{i:08x}-9c3a-11d9-9669-0800200c9a66"),
    ("UUID, upper case", lambda i: f"urn:uuid:{i:08X}-9C3A-11D9-9669-0800200C9A66"),
    ("ISSN, NNNN-NNNC", lambda i: f"urn:issn:{i % 10000:04d}-{i % 1000:03d}{i % 10}"),
    ("ISSN, no hyphen", lambda i: f"urn:ISSN:{i % 10000:04d}{i % 1000:03d}{i % 10}"),
    ("NBN, German", lambda i: f"urn:nbn:de:bvb:{i % 997}-opus4-{i}{i % 10}"),
    ("NBN, Swedish", lambda i: f"urn:nbn:se:uu:diva-{i}"),
    ("NBN, upper-case prefix", lambda i: f"URN:NBN:DE:GBV:{i % 997}-{i}{i % 10}"),
    ("OID", lambda i: f"urn:oid:1.3.6.1.4.1.{i}.{i % 7}"),
    ("OID, leading zeros", lambda i: f"urn:oid:1.3.6.1.4.1.0{i}"),
    ("IETF RFC", lambda i: f"urn:ietf:rfc:{i}"),
    ("example (no rules)", lambda i: f"urn:example:thing-{i}"),
]


def per_urn(urns, rules) -> float:
    """Microseconds a URN to judge ``urns`` with ``rules`` in place."""
    saved = judge_module._RULES
    judge_module._RULES = rules
    try:
        start = time.perf_counter()
        for urn in urns:
            judge(urn)
        return (time.perf_counter() - start) / len(urns) * 1e6
    finally:
        judge_module._RULES = saved


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20000, help="distinct URNs of each kind")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with_shapes = namespace_rules()
    rules_alone = with_shapes._replace(shapes={})
    print(f"judge() of {args.n} distinct URNs of each kind, us a URN (best of {args.repeat}; the speed-up is the "
          "median of the runs' own)")
    print(f"{'kind':24} {'rules alone':>12} {'with shapes':>12} {'speed-up':>9}")
    for label, name in KINDS:
        urns = [name(i) for i in range(args.n)]
        judge(urns[0])  # (the rules load with the first URN)
        alone, shaped, ratios = [], [], []
        for i in range(args.repeat):  # in turns, each first every other time: the machine's moods fall on both
            if i % 2:
                shaped.append(per_urn(urns, with_shapes))
                alone.append(per_urn(urns, rules_alone))
            else:
                alone.append(per_urn(urns, rules_alone))
                shaped.append(per_urn(urns, with_shapes))
            ratios.append(alone[-1] / shaped[-1])
        print(f"{label:24} {min(alone):12.1f} {min(shaped):12.1f} {statistics.median(ratios):8.2f}x", flush=True)


if __name__ == "__main__":
    main()
