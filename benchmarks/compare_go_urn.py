"""urnscan's RFC 2141 validation and equivalence beside go-urn's, on the same strings.

    python3 benchmarks/compare_go_urn.py [--n 6000] [--index INDEX] [--gopath DIR]

go-urn (github.com/leodido/go-urn, the 1.2 series: RFC 2141) is one of
the validators urnscan is compared with.  This builds a small Go program
against it (Go and go-urn's sources: on Debian, ``apt-get install golang-go
golang-github-leodido-go-urn-dev``; no network is used), feeds it and
``urnscan`` the same strings and prints:

* how often the two agree on validity, and every class of disagreement
  with a few examples, each class named by what the string holds and the
  section of RFC 2141 that decides it;
* for groups of valid strings that differ only by letter case or by
  percent-encoding, whether the two group them alike (go-urn's
  ``Normalize()`` against urnscan's ``equivalence_key`` under ``rfc2141``).

The strings are seeded random URNs built from every character class of
RFC 2141's grammar (section 2), with the case and percent-encoding
variants of each; ``--index`` adds the distinct URNs of an index written
by ``urnscan scan``.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from typing import Dict, Iterable, List, Optional, Tuple

import urnscan

#: go-urn's package path, below a GOPATH's src/
PACKAGE = "github.com/leodido/go-urn"
DEBIAN_GOPATH = "/usr/share/gocode"

#: one string a line (JSON) in; out: ok, and go-urn's Normalize() of it
GO_PROGRAM = r"""package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	urn "github.com/leodido/go-urn"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		var s string
		if err := json.Unmarshal(in.Bytes(), &s); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		u, ok := urn.Parse([]byte(s))
		normal := ""
		if ok {
			normal = u.Normalize().String()
		}
		line, _ := json.Marshal([]interface{}{ok, normal})
		fmt.Fprintln(out, string(line))
	}
}
"""

# RFC 2141 section 2: <trans> is upper, lower, number, <other> and <reserved>
OTHER = "()+,-.:=@;$_!*'"
RESERVED = "/?#"
#: section 2.4's excluded characters, and characters outside US-ASCII
EXCLUDED = '\\"&<>[]^`{|}~ '
NON_ASCII = "\u00e9\u00df\u4e2d"
HEX = "0123456789abcdefABCDEF"
NID_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-"


def random_urn(rng: random.Random) -> str:
    """A string shaped like a URN, each piece drawn so that most are valid
    and the rest break one rule of RFC 2141's grammar or its section 2.4."""
    prefix = rng.choice(["urn", "urn", "URN", "Urn"])
    length = rng.choice([1, 2, 3, 5, 8, 31, 32, 33])
    nid = "".join(rng.choice(NID_CHARS) for _ in range(length))
    if rng.random() < 0.05:
        nid = "urn"
    pieces = []
    for _ in range(rng.randint(0, 12)):
        roll = rng.random()
        if roll < 0.6 or roll >= 0.96:
            pieces.append(rng.choice("abcXYZ019" + OTHER))
        elif roll < 0.75:
            pieces.append("%" + rng.choice(HEX) + rng.choice(HEX))
        elif roll < 0.8:
            pieces.append(rng.choice(["%", "%0", "%zz", "%G1", "%00"]))
        elif roll < 0.9:
            pieces.append(rng.choice(RESERVED))
        elif roll < 0.95:
            pieces.append(rng.choice(EXCLUDED))
        else:
            pieces.append(rng.choice(NON_ASCII))
    return f"{prefix}:{nid}:{''.join(pieces)}"


def nss_start(s: str) -> int:
    """Where the NSS of a string shaped like a URN starts (after the colon
    ending its NID); its length when it has none."""
    colon = s.find(":", 4)
    return colon + 1 if colon > 0 else len(s)


def variants(urn: str, rng: random.Random, n: int = 3) -> List[str]:
    """Strings that differ from ``urn`` only by the case of its letters
    (the prefix, the NID, the NSS, the hex digits of its escapes) or by
    percent-encoding one character of the NSS: RFC 2141 section 5 makes
    some of them equivalent to it, and not others."""
    start = nss_start(urn)
    out = []
    for _ in range(n):
        chars = list(urn)
        for i, c in enumerate(chars):
            if c.isalpha() and rng.random() < 0.3:
                chars[i] = c.swapcase()
        varied = "".join(chars)
        if start < len(urn) and rng.random() < 0.5:
            i = rng.randrange(start, len(urn))
            c = varied[i]
            in_escape = "%" in varied[max(0, i - 2):i]
            if not in_escape and (c.isascii() and c.isalnum() or c in OTHER):
                varied = varied[:i] + f"%{ord(c):02X}" + varied[i + 1:]
        out.append(varied)
    return out


def candidates(n: int, seed: int = 2141) -> Tuple[List[str], List[List[str]]]:
    """``n`` random strings and, for each, a group: it and its variants."""
    rng = random.Random(seed)
    singles, groups = [], []
    for _ in range(n):
        urn = random_urn(rng)
        singles.append(urn)
        groups.append([urn, *variants(urn, rng)])
    return singles, groups


def disagreement_class(s: str, ours: bool) -> str:
    """What a string the two validators judge differently holds, named
    with the rule of RFC 2141 that decides it (go-urn judges ``not ours``)."""
    nss = s[nss_start(s):]
    if ours and any(c in nss for c in RESERVED):
        return ("'/', '?' or '#' unencoded in the NSS: allowed by the grammar (section 2.2, <reserved>), "
                "'SHOULD NOT' in section 2.3.2: urnscan valid with a warning, go-urn invalid")
    escapes = [nss[i + 1:i + 3] for i in range(len(nss)) if nss[i] == "%"]
    if not ours and any(len(e) == 2 and not all(c in HEX for c in e) for e in escapes):
        return ("'%' followed by two characters that are not <hex>: section 2.3.1 says it MUST be two hex "
                "digits: urnscan invalid, go-urn valid")
    if not ours and "00" in escapes:
        return ("%00: section 2.4, octet 0 'should NEVER be used, in either unencoded or %-encoded form': "
                "urnscan invalid, go-urn valid")
    return f"other (urnscan {'valid' if ours else 'invalid'}, go-urn {'invalid' if ours else 'valid'})"


def build_checker(gopath: str, work: str) -> str:
    """The Go program built against go-urn under ``gopath``; its path."""
    go = shutil.which("go")
    if go is None:
        raise SystemExit("go is not installed (on Debian: apt-get install golang-go)")
    if not os.path.isdir(os.path.join(gopath, "src", PACKAGE)):
        raise SystemExit(f"go-urn's sources are not under {gopath}/src/{PACKAGE} "
                         "(on Debian: apt-get install golang-github-leodido-go-urn-dev; or give --gopath)")
    own = os.path.join(work, "gopath")
    source = os.path.join(own, "src", "gourncheck")
    os.makedirs(source)
    with open(os.path.join(source, "main.go"), "w") as fh:
        fh.write(GO_PROGRAM)
    binary = os.path.join(work, "gourncheck")
    env = {**os.environ, "GO111MODULE": "off", "GOPATH": f"{own}{os.pathsep}{gopath}", "GOPROXY": "off",
           "GOFLAGS": "", "GOCACHE": os.path.join(work, "gocache")}
    built = subprocess.run([go, "build", "-o", binary, "gourncheck"], env=env, capture_output=True, text=True)
    if built.returncode != 0:
        raise SystemExit(f"building the go-urn checker failed:\n{built.stderr[-2000:]}")
    return binary


def go_urn(binary: str, strings: List[str]) -> List[Tuple[bool, str]]:
    """go-urn's (Parse ok, Normalize().String()) of each string."""
    feed = "".join(json.dumps(s) + "\n" for s in strings)
    done = subprocess.run([binary], input=feed, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the go-urn checker failed: {done.stderr[-2000:]}")
    return [tuple(json.loads(line)) for line in done.stdout.splitlines()]


def partition(strings: Iterable[str], key) -> List[frozenset]:
    """The strings grouped by ``key`` (as sets, so two partitions compare
    whatever the order)."""
    groups: Dict[str, set] = defaultdict(set)
    for s in strings:
        groups[key(s)].add(s)
    return sorted((frozenset(g) for g in groups.values()), key=sorted)


def index_urns(path: str) -> List[str]:
    import pyarrow.parquet as pq

    return sorted(set(pq.read_table(path, columns=["urn"]).column("urn").to_pylist()))


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=6000, help="random strings (each with three variants)")
    ap.add_argument("--index", help="also the distinct URNs of this index (urnscan scan ... -o INDEX)")
    ap.add_argument("--gopath", default=DEBIAN_GOPATH, help=f"a GOPATH holding src/{PACKAGE}")
    ap.add_argument("--examples", type=int, default=3, help="examples shown per class")
    args = ap.parse_args(argv)

    singles, groups = candidates(args.n)
    real = index_urns(args.index) if args.index else []
    strings = list(dict.fromkeys([*singles, *(s for g in groups for s in g), *real]))
    work = tempfile.mkdtemp(prefix="urnscan-go-urn-")
    try:
        theirs = dict(zip(strings, go_urn(build_checker(args.gopath, work), strings)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    ours = {s: urnscan.is_valid(s, profile="rfc2141") for s in strings}

    agree = sum(ours[s] == theirs[s][0] for s in strings)
    print(f"{len(strings)} distinct strings ({len(real)} from the index): validity agrees on {agree} "
          f"({agree / len(strings):.2%})")
    print(f"  both valid {sum(ours[s] and theirs[s][0] for s in strings)}, "
          f"both invalid {sum(not ours[s] and not theirs[s][0] for s in strings)}")
    classes: Dict[str, List[str]] = defaultdict(list)
    for s in strings:
        if ours[s] != theirs[s][0]:
            classes[disagreement_class(s, ours[s])].append(s)
    indexed = set(real)
    for name, members in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        found = [s for s in members if s in indexed]
        shown = ", ".join(json.dumps(s) for s in [*sorted(members, key=len)[:args.examples], *found[:args.examples]])
        print(f"- {len(members)} ({len(found)} of them from the index): {name}\n    e.g. {shown}")

    pairs = differ = 0
    for group in groups:
        valid = [s for s in dict.fromkeys(group) if ours[s] and theirs[s][0]]
        if len(valid) < 2:
            continue
        pairs += len(valid) * (len(valid) - 1) // 2
        by_go = partition(valid, lambda s: theirs[s][1])
        by_us = partition(valid, lambda s: urnscan.equivalence_key(s, profile="rfc2141"))
        if by_go != by_us:
            differ += 1
            if differ <= args.examples:
                print(f"  equivalence differs: go-urn {[sorted(g) for g in by_go]} "
                      f"urnscan {[sorted(g) for g in by_us]}")
    print(f"equivalence (RFC 2141 section 5) over {pairs} pairs of valid variants: "
          f"{'the same grouping in every group' if not differ else f'{differ} groups grouped otherwise'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
