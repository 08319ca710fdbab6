"""Validate and key 100,000 mixed URNs; print URNs/s.

    python3 benchmarks/bench_core.py [--n 100000]

Baselines measured in the same run: a bare compiled-regex fullmatch of the
RFC 8141 grammar over the same strings (the floor for any Python
validator), and -- for scale -- the figures the issue quotes for go-urn and
the Rust urn crate on this machine size.
"""
import argparse
import random
import re
import string
import time

import urnscan
from urnscan import _abnf
from urnscan.batch import validate_keys

NIDS = ["isbn", "ISBN", "uuid", "ietf", "oid", "nbn", "example", "oasis", "epc", "issn", "x-foo", "urn-7", "a", "ab-",
        "publicid", "mpeg", "lex", "iso", "doi", "xmpp"]


def mixed_urns(n, seed=7):
    rnd = random.Random(seed)
    alphabet = string.ascii_letters + string.digits + "-._:"
    out = []
    for i in range(n):
        nid = rnd.choice(NIDS)
        nss = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(4, 40)))
        roll = rnd.random()
        if roll < 0.05:
            nss += "%2" + rnd.choice("cCfF")
        elif roll < 0.08:
            nss += "?+res"
        elif roll < 0.10:
            nss += "#frag"
        elif roll < 0.13:
            nss += "?bad"
        elif roll < 0.15:
            nss += "%zz"
        scheme = rnd.choice(["urn", "URN", "Urn"])
        out.append(f"{scheme}:{nid}:{nss}")
    return out


def bench(label, fn, data, repeat=3):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(data)
        best = min(best, time.perf_counter() - t0)
    rate = len(data) / best
    print(f"{label:46} {rate:12,.0f} URNs/s")
    return rate


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000)
    args = ap.parse_args()
    data = mixed_urns(args.n)
    grammar = re.compile(_abnf.RFC8141_NAMESTRING)

    def regex_only(xs):
        for s in xs:
            grammar.fullmatch(s)

    def per_string(xs):
        for s in xs:
            v = urnscan.validate(s)
            if v.urn is not None:
                v.urn.key

    def batch(xs):
        validate_keys(xs, engine="python")

    def batch_arrow(xs):
        validate_keys(xs, engine="arrow")

    print(f"{args.n:,} mixed URNs ({sum(urnscan.is_valid(s) for s in data):,} valid under rfc8141)")
    base = bench("baseline: compiled regex fullmatch only", regex_only, data)
    r1 = bench("urnscan.validate + .key, one at a time", per_string, data)
    r2 = bench("validate_keys, python engine (distinct strings)", batch, data)
    r4 = bench("validate_keys, arrow engine (distinct strings)", batch_arrow, data)
    dup = data[: args.n // 10] * 10
    r3 = bench("validate_keys, python engine (10x repeated)", batch, dup)
    print(f"ratios to the regex baseline: validate {r1 / base:.2f}, python batch {r2 / base:.2f}, "
          f"arrow batch {r4 / base:.2f}, repeated {r3 / base:.2f}")
    print(f"ratio of the arrow batch to go-urn (~400,000/s): {r4 / 400_000:.2f}")
    print("reference figures on this machine size: go-urn ~400,000/s, Rust urn ~1,800,000/s")


if __name__ == "__main__":
    main()
