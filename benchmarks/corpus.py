#!/usr/bin/env python3
"""Deterministic corpus generator for scanner benchmarks.

Writes roughly ``size_mb`` MiB of mixed text to a file.  The text is made
of RFC-style prose paragraphs, plain prose, XML documents and Python and
Java source, with URNs spliced in at an average rate of one per ``every``
bytes.  A JSON sidecar ``OUT.json`` is written next to ``OUT`` with the
parameters and exact counts of the URNs inserted.

Usage::

    python3 benchmarks/corpus.py OUT --size-mb N --every BYTES [--seed S]

or from Python::

    from corpus import generate
    stats = generate("big.txt", size_mb=100, every=2048, seed=0)

Speed
-----
A pool of a few thousand blocks and URN snippets is rendered once.  The
generator then draws blocks from the pool with a seeded RNG, splices URN
snippets in at line boundaries and writes the result in 8 MiB chunks.
A gigabyte takes about ten seconds on one core.

URN forms
---------
Each inserted snippet holds exactly one URN, in one of four exclusive
forms (the ``counts`` in the sidecar):

``bare``
    ``urn:nid:nss`` in running text, an XML attribute or element, or a
    string literal or comment, sometimes followed by ``.``, ``,``, ``)``
    or ``;``.
``wrapped``
    ``<urn:nid:nss>`` or ``<URN:NID:NSS>`` on one line.
``folded``
    Either a wrapper whose contents continue on the next line after white
    space (``folded_wrapped``), or a bare URN broken after a ``-`` and
    continued on an indented line (``folded_bare``).
``embedded``
    Inside a URL: resolver paths (``https://nbn-resolving.org/urn:...``),
    query values (``?urn=urn:...``) and magnet links
    (``magnet:?xt=urn:btih:...``).

The filler text contains no URNs.  It does contain decoys that look like
them: ``return:``, ``Saturn:``, ``turn:``, ``URN: label``, ``x.urn:y``, a
bare ``urn:`` and templates such as ``urn:<NID>:<NSS>``.  The sidecar
counts them as well.  Every inserted URN begins with ``urn:`` + NID +
``:`` on one line and is not preceded by a letter, digit, ``_`` or
``.``, so the regular expression in ``STRICT_PATTERN`` finds exactly
the inserted URNs.

Everything is derived from ``random.Random`` instances seeded from
``seed`` (and, for the stream, the size and rate), so the output depends
only on the arguments and ``GENERATOR_VERSION``.  Sizes are in MiB.

Sidecar
-------
``OUT.json`` holds ``parameters``, ``bytes_requested`` and
``bytes_written``, and under ``urns``: ``total``, ``counts`` (the four
forms above, which add up to ``total``), ``folded_bare`` and
``folded_wrapped`` (which add up to ``counts["folded"]``), ``as_hits``
(the same URNs as a scanner reports them: form bare or wrapped, plus the
folded and embedded flags), and breakdowns by detail, context and NID.
It also holds decoy counts, block counts by genre and, under
``timing``, the only fields that change from run to run.
"""
from __future__ import annotations

import argparse
import bisect
import json
import os
import random
import sys
import time

from urnscan.namespaces.checkdigits import dnb_urn_check

__all__ = ["generate", "STRICT_PATTERN", "GENERATOR_VERSION", "MIB"]

GENERATOR_VERSION = 1
MIB = 1 << 20

#: Matches the start of every inserted URN and nothing in the filler.
STRICT_PATTERN = r"(?i)(?<![\w.])urn:[a-z0-9][a-z0-9-]{0,31}:"

_FLUSH_BYTES = 8 * MIB
_POOL_BLOCKS = 2000
_POOL_SNIPPETS = {"prose": 3000, "xml": 1200, "python": 800, "java": 800}

# ---------------------------------------------------------------------------
# Vocabulary

_NOUNS = (
    "resolver", "registry", "namespace", "catalogue", "record", "identifier",
    "parser", "gateway", "index", "checksum", "prefix", "delimiter", "reader",
    "archive", "server", "client", "bibliography", "document", "message",
    "header", "field", "entry", "table", "buffer", "stream", "formatter",
    "library", "publisher", "agency", "syntax", "grammar", "component",
    "fragment", "query", "request", "response", "cache", "mirror", "mapping",
    "schema", "element", "attribute", "template", "profile", "registrant",
    "authority", "assignment", "revision", "draft", "specification",
    "section", "paragraph", "line", "column", "character", "octet", "escape",
    "encoding", "normaliser", "scanner", "tokenizer", "module", "interface",
    "operator", "deployment", "service", "directory", "database", "snapshot",
    "export", "import", "workflow", "validator", "policy", "label", "slip",
    "shelf", "volume", "issue", "edition", "imprint", "series", "holding",
)
_PLURALS = tuple(
    (n[:-1] + "ies") if n.endswith("y") and n[-2] not in "aeiou" else
    (n + "es") if n.endswith(("s", "x", "ch")) else n + "s"
    for n in _NOUNS
)
_VERBS = (
    "checks", "stores", "returns", "rejects", "accepts", "records", "folds",
    "splits", "resolves", "indexes", "normalises", "compares", "copies",
    "describes", "identifies", "updates", "removes", "caches", "forwards",
    "validates", "reports", "wraps", "truncates", "publishes", "assigns",
    "registers", "lists", "reads", "writes", "prints", "scans", "merges",
)
_PARTICIPLES = (
    "checked", "stored", "rejected", "accepted", "recorded", "folded",
    "resolved", "indexed", "normalised", "compared", "copied", "updated",
    "removed", "cached", "forwarded", "validated", "reported", "wrapped",
    "published", "assigned", "registered", "listed", "printed", "merged",
)
_ADJECTIVES = (
    "persistent", "local", "global", "formal", "informal", "experimental",
    "stable", "obsolete", "current", "previous", "canonical", "lexical",
    "equivalent", "distinct", "optional", "mandatory", "reserved", "private",
    "public", "archival", "national", "regional", "printed", "electronic",
    "hierarchical", "flat", "opaque", "transparent", "long", "short",
    "uppercase", "lowercase", "escaped", "unescaped", "valid", "invalid",
    "deprecated", "registered", "unregistered", "stale", "fresh", "large",
)
_ADVERBS = (
    "usually", "rarely", "always", "never", "often", "quietly", "silently",
    "explicitly", "implicitly", "eventually", "immediately", "carefully",
)
_FOREIGN = ("Zürich", "café", "naïve", "Göttingen", "Malmö", "façade", "Ærø")
_TITLE_WORDS = (
    "Resolution", "Registration", "Equivalence", "Syntax", "Namespaces",
    "Folding", "Encoding", "Considerations", "Examples", "Requirements",
    "Terminology", "Overview", "Identifiers", "Components", "Lookup",
    "Normalization", "Wrappers", "Migration", "Operations", "Security",
)

_SENTENCES = (
    "The {A} {N} {V} every {N} before the {N} is {PP}.",
    "A {N} that {V} the {A} {N} MUST NOT change the {N}.",
    "Implementations SHOULD treat the {N} as {A} unless the {N} says otherwise.",
    "When the {N} is {PP}, the {N} {V} it without further checks.",
    "In practice the {P} are {D} {PP} by the {A} {N}.",
    "Each {N} {V} at most one {A} {N}, and the {N} {V} the rest.",
    "The {N} {D} {V} the {N}; this is a {A} consequence of the {N}.",
    "{CP} are {D} {A}, which means that the {N} cannot be {PP}.",
    "Note that the {N} and the {N} are {A} in this context.",
    "If the {N} is {A}, the {N} MAY be {PP} by the {N}.",
    "This {N} {V} the {A} {P} in the order in which they appear.",
    "For this reason the {N} {D} {V} a {A} {N} to the {N}.",
    "The {A} {N} is {PP} once per {N}, not once per {N}.",
    "{CP} without a {N} are {PP} and MUST be reported.",
    "Older {P} {D} used a {A} {N} for the same purpose.",
    "The {N} does not need to know how the {N} was {PP}.",
    "A {A} {N} is one whose {N} is {PP} by a {A} {N}.",
    "It is RECOMMENDED that the {N} be {PP} before it is {PP}.",
    "The remaining {P} are {PP} as described in the previous {N}.",
    "Nothing in this {N} requires the {N} to be {A}.",
)
_FOREIGN_SENTENCES = (
    "The {N} at the {F} office {V} the {A} {P}.",
    "A {A} copy was {PP} in {F} before the {N} moved.",
    "The {N} kept its {A} {N} \u2014 the {F} {N} did not.",
)
_DECOY_SENTENCES = (
    ("Each handler must say what it will return: a {N}, an error, or nothing.", "return:"),
    ("The table of planets lists Saturn: ringed, slow and distant.", "Saturn:"),
    ("The {N} then took its turn: the {N} went back for another pass.", "turn:"),
    ("Printed forms carry a line marked URN: label only, to be filled in by hand.", "URN: label"),
    ("The configuration key x.urn:y is reserved for local use.", "x.urn:y"),
    ("A string that consists of urn: and nothing else is not a {N}.", "urn: alone"),
    ("Templates such as urn:<NID>:<NSS> describe the shape of a name, not a name.", "urn:<NID>:<NSS>"),
    ("The {N} accepts a value for return: either a {N} or a {N}.", "return:"),
    ("Saturn: the {A} {N} for the outer planets is {PP} separately.", "Saturn:"),
)

_HOSTS = ("example.org", "example.net", "example.com", "lib.example.org",
          "cs.example.edu", "registry.example.net")

# ---------------------------------------------------------------------------
# URN makers


def _isbn10(rng):
    d = [rng.randrange(10) for _ in range(9)]
    c = (11 - sum((10 - i) * x for i, x in enumerate(d)) % 11) % 11
    return "".join(map(str, d)) + ("X" if c == 10 else str(c))


def _isbn13(rng):
    d = [9, 7, rng.choice((8, 9))] + [rng.randrange(10) for _ in range(9)]
    c = (10 - sum(x * (1 if i % 2 == 0 else 3) for i, x in enumerate(d)) % 10) % 10
    return "".join(map(str, d)) + str(c)


def _hyphenate(rng, s, groups):
    out, i = [], 0
    for g in groups:
        out.append(s[i:i + g])
        i += g
    out.append(s[i:])
    return "-".join(p for p in out if p)


def _nss_isbn(rng):
    if rng.random() < 0.5:
        s = _isbn10(rng)
        if rng.random() < 0.5:
            a = rng.randint(1, 2)
            b = rng.randint(2, 5)
            s = _hyphenate(rng, s, (a, b, 9 - a - b))
    else:
        s = _isbn13(rng)
        if rng.random() < 0.5:
            a = rng.randint(1, 2)
            b = rng.randint(2, 5)
            s = _hyphenate(rng, s, (3, a, b, 9 - a - b))
    return "isbn", s


def _nss_issn(rng):
    d = [rng.randrange(10) for _ in range(7)]
    c = (11 - sum((8 - i) * x for i, x in enumerate(d)) % 11) % 11
    s = "".join(map(str, d)) + ("X" if c == 10 else str(c))
    return "issn", s[:4] + "-" + s[4:]


def _nss_uuid(rng):
    h = "%032x" % ((rng.getrandbits(128) & ~(0xF << 76) & ~(0x3 << 62))
                   | (0x4 << 76) | (0x2 << 62))
    if rng.random() < 0.15:
        h = h.upper()
    return "uuid", "-".join((h[:8], h[8:12], h[12:16], h[16:20], h[20:]))


def _nss_oid(rng):
    if rng.random() < 0.5:
        arcs = [1, 3, 6, 1, 4, 1, rng.choice((32473, 311, 2312, 9999, 4203))]
    else:
        arcs = [2, rng.choice((999, 16, 25)), rng.randint(1, 900)]
    arcs += [rng.randint(0, 60) for _ in range(rng.randint(0, 3))]
    return "oid", ".".join(map(str, arcs))


_YANG = ("interfaces", "ip", "routing", "rib-extension", "system", "hardware",
         "network-instance", "key-chain", "netconf-acm", "yang-library",
         "network-topology", "ospf", "bgp-policy", "access-control-list")


def _nss_ietf(rng):
    r = rng.random()
    if r < 0.4:
        return "ietf", "rfc:%d" % rng.randint(1000, 9700)
    if r < 0.8:
        return "ietf", "params:xml:ns:yang:ietf-" + rng.choice(_YANG)
    if r < 0.9:
        return "ietf", "params:xml:ns:netconf:base:1.%d" % rng.randint(0, 1)
    return "ietf", "params:oauth:grant-type:" + rng.choice(("jwt-bearer", "device-code", "token-exchange"))


def _nss_nbn(rng):
    if rng.random() < 0.75:
        lib = rng.choice(("bsz:24-opus", "hbz:6", "gbv:7-webdoc", "kobv:83-opus4",
                          "bvb:19", "101:1", "0009-29", "tuda-tuprints"))
        body = "de:%s-%d" % (lib, rng.randint(100, 999999))
        return "nbn", body + dnb_urn_check("urn:nbn:" + body)
    country = rng.choice(("fi", "se", "nl:ui", "at", "ch:bel"))
    return "nbn", "%s:%s-%d" % (country, rng.choice(("fe", "kb", "13", "obvsg", "1")),
                                 rng.randint(10000, 99999999))


def _nss_oasis(rng):
    return "oasis", rng.choice((
        "names:tc:SAML:2.0:assertion", "names:tc:SAML:2.0:protocol",
        "names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport",
        "names:tc:xacml:3.0:core:schema:wd-17",
        "names:tc:entity:xmlns:xml:catalog",
        "names:tc:opendocument:xmlns:office:1.0",
        "names:tc:ubl:schema:xsd:Invoice-2",
        "names:tc:dita:xsd:topic.xsd:1.3",
    ))


def _nss_mpeg(rng):
    return "mpeg", rng.choice((
        "mpeg7:schema:2001", "dash:schema:mpd:2011", "mpeg21:2002:02-DIDL-NS",
        "mpegB:cicp:ChannelConfiguration", "dash:profile:isoff-live:2011",
    ))


def _nss_epc(rng):
    co = "%07d" % rng.randint(0, 9999999)
    return "epc", rng.choice((
        "id:sgtin:%s.%06d.%d" % (co, rng.randint(0, 999999), rng.randint(1, 99999)),
        "id:sscc:%s.%010d" % (co, rng.randint(0, 9999999999)),
        "id:sgln:%s.%05d.0" % (co, rng.randint(0, 99999)),
    ))


def _nss_lex(rng):
    return "lex", "%s:%s:%s:%04d-%02d-%02d;%d" % (
        rng.choice(("br", "it", "es", "ch", "eu")),
        rng.choice(("federal", "stato", "estado", "council")),
        rng.choice(("lei", "legge", "decreto", "regulation")),
        rng.randint(1950, 2023), rng.randint(1, 12), rng.randint(1, 28),
        rng.randint(1, 20000))


def _nss_iso(rng):
    part = ":-%d" % rng.randint(1, 9) if rng.random() < 0.4 else ""
    return "iso", "std:iso:%d%s:ed-%d:v1:%s" % (
        rng.randint(100, 30000), part, rng.randint(1, 5), rng.choice(("en", "fr")))


def _nss_isan(rng):
    h = "%012X" % rng.getrandbits(48)
    return "isan", "0000-0000-%s-%s-%s-0000-0000-%s" % (
        h[:4], h[4:8], rng.randint(0, 9), rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ"))


def _nss_doi(rng):
    return "doi", "10.%d/%s.%d" % (rng.randint(1000, 99999),
                                    rng.choice(("jabc", "xyz", "proc", "ds")),
                                    rng.randint(1, 99999))


def _nss_publicid(rng):
    return "publicid", "-:%s:DTD+%s+XML+V%d.%d:EN" % (
        rng.choice(("OASIS", "Example+Corp", "W3C", "Example+Library")),
        rng.choice(("DocBook", "Widget", "Catalog", "Report")),
        rng.randint(1, 5), rng.randint(0, 9))


def _nss_example(rng):
    parts = [rng.choice(_NOUNS).replace(" ", "-") for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.5:
        parts[-1] += "-%d" % rng.randint(1, 9999)
    return "example", ":".join(parts)


_MAKERS = (
    (_nss_isbn, 14), (_nss_issn, 5), (_nss_uuid, 10), (_nss_oid, 6),
    (_nss_ietf, 14), (_nss_nbn, 12), (_nss_oasis, 7), (_nss_mpeg, 4),
    (_nss_epc, 4), (_nss_lex, 3), (_nss_iso, 4), (_nss_isan, 2),
    (_nss_doi, 4), (_nss_publicid, 3), (_nss_example, 8),
)
_MAKER_FUNCS = tuple(m for m, _ in _MAKERS)
_MAKER_WEIGHTS = tuple(w for _, w in _MAKERS)
_NS_LIKE = (_nss_ietf, _nss_oasis, _nss_mpeg, _nss_example)
# makers whose NSS always (issn, uuid, isan, lex, nbn) or often has a '-'
_HYPHENATED = (_nss_isbn, _nss_issn, _nss_uuid, _nss_ietf, _nss_nbn, _nss_isan,
               _nss_lex, _nss_example)


def _make_urn(rng, makers=None, need_hyphen=False, allow_components=True):
    """Return (urn_string, nid_lowercase)."""
    for _ in range(50):
        if makers is None:
            maker = rng.choices(_MAKER_FUNCS, _MAKER_WEIGHTS)[0]
        else:
            maker = rng.choice(makers)
        nid, nss = maker(rng)
        if need_hyphen and "-" not in nss.rstrip("-")[1:]:
            continue
        break
    else:
        nid, nss = _nss_uuid(rng)
    prefix, shown_nid = "urn", nid
    r = rng.random()
    if r < 0.08:
        prefix, shown_nid = "URN", nid.upper()
    elif r < 0.11:
        prefix = "URN"
    urn = "%s:%s:%s" % (prefix, shown_nid, nss)
    if allow_components and not need_hyphen:
        r = rng.random()
        if r < 0.02:
            urn += "?=lang=%s" % rng.choice(("en", "de", "fr"))
        elif r < 0.03:
            urn += "?+resolve=%s" % rng.choice(("html", "pdf"))
        elif r < 0.045:
            urn += "#sec-%d" % rng.randint(1, 12)
    return urn, nid


# ---------------------------------------------------------------------------
# Prose


_WORD_LISTS = {
    "N": _NOUNS, "P": _PLURALS, "V": _VERBS, "PP": _PARTICIPLES,
    "A": _ADJECTIVES, "D": _ADVERBS, "F": _FOREIGN,
    "CP": tuple(p.capitalize() for p in _PLURALS),
}
_COMPILED = {}


def _compile(template):
    """Split a template into literal strings and word lists."""
    parts = []
    i = 0
    while True:
        j = template.find("{", i)
        if j < 0:
            parts.append(template[i:])
            break
        parts.append(template[i:j])
        k = template.index("}", j)
        parts.append(_WORD_LISTS[template[j + 1:k]])
        i = k + 1
    return tuple(p for p in parts if p)


def _words(rng, template):
    parts = _COMPILED.get(template)
    if parts is None:
        parts = _COMPILED[template] = _compile(template)
    choice = rng.choice
    out = "".join(p if p.__class__ is str else choice(p) for p in parts)
    # a/an before a vowel, the only agreement the templates need
    if " a " in out or out.startswith("A "):
        words = out.split(" ")
        for i in range(len(words) - 1):
            if words[i] in ("a", "A") and words[i + 1][:1] in "aeiou":
                words[i] += "n"
        out = " ".join(words)
    return out


def _sentence(rng, decoys):
    r = rng.random()
    if r < 0.02:
        tpl, tag = rng.choice(_DECOY_SENTENCES)
        decoys[tag] = decoys.get(tag, 0) + 1
        return _words(rng, tpl)
    if r < 0.03:
        return _words(rng, rng.choice(_FOREIGN_SENTENCES))
    return _words(rng, rng.choice(_SENTENCES))


def _wrap(text, width):
    """Greedy fill of ``text`` to ``width`` columns.

    Runs of two spaces (between sentences) are kept inside a line and
    dropped at a line break.  Returns the lines, each flagged True when it
    ends a sentence.
    """
    lines, cur, n = [], "", 0
    for sent in text.split("  "):
        for w in sent.split(" "):
            if not w:
                continue
            if not cur:
                cur, n = w, len(w)
                continue
            sep = "  " if cur.endswith(".") and w[:1].isupper() else " "
            if n + len(sep) + len(w) > width:
                lines.append(cur)
                cur, n = w, len(w)
            else:
                cur += sep + w
                n += len(sep) + len(w)
    if cur:
        lines.append(cur)
    return lines


def _paragraph(rng, style):
    """One filled paragraph and its slots.

    Slots are ``(char_offset, kind, indent)`` at the start of a line that
    follows the end of a sentence, including the end of the paragraph, so
    an inserted line never splits a sentence.  ``style`` is ``"rfc"``
    (3-space indent, two spaces between sentences), ``"plain"`` or
    ``"quote"`` (a ``> `` quotation, which gets no slots).
    """
    decoys = {}
    indent = {"rfc": "   ", "plain": "", "quote": "> "}[style]
    sep = "  " if style == "rfc" else " "
    sentences = [_sentence(rng, decoys) for _ in range(rng.randint(2, 7))]
    lines = _wrap(sep.join(sentences), 72 - len(indent))
    parts, slots, off = [], [], 0
    for ln in lines:
        s = indent + ln + "\n"
        parts.append(s)
        off += len(s)
        if style != "quote" and ln.endswith("."):
            slots.append((off, "prose", indent))
    parts.append("\n")
    return "".join(parts), slots, decoys


def _heading(rng, style):
    title = " ".join(rng.sample(_TITLE_WORDS, rng.randint(1, 4)))
    if style == "rfc":
        num = ".".join(str(rng.randint(1, 9)) for _ in range(rng.randint(1, 3)))
        return "%s.  %s\n\n" % (num, title)
    return "%s\n%s\n\n" % (title, "-" * len(title))


_PEOPLE = ("Hanne Vestergaard", "Piet Oosterhuis", "Rosalind Achterberg",
           "Tomas Lindqvist", "Aiko Tanaka", "Claire Moreau", "Diego Alvarez",
           "Noor Haddad", "Wim de Ruyter", "Ines Kovac")


def _mail_header(rng):
    who = rng.choice(_PEOPLE)
    user = who.split()[0].lower()
    host = rng.choice(_HOSTS)
    subj = " ".join(rng.sample(_TITLE_WORDS, rng.randint(2, 4)))
    if rng.random() < 0.6:
        subj = "Re: " + subj
    day = rng.randint(1, 28)
    return ("From: %s <%s@%s>\nTo: names@lists.example.net\nSubject: %s\n"
            "Date: %s, %d %s %d %02d:%02d:%02d +0100\nMessage-ID: <%d.%s@%s>\n\n" % (
                who, user, host, subj,
                rng.choice(("Mon", "Tue", "Wed", "Thu", "Fri")), day,
                rng.choice(("Jan", "Mar", "May", "Aug", "Oct", "Dec")),
                rng.randint(1995, 2023), rng.randint(0, 23), rng.randint(0, 59),
                rng.randint(0, 59), rng.randint(10 ** 8, 10 ** 9), user, host))


def _page_break(rng):
    page = rng.randint(2, 80)
    author = rng.choice(("Vestergaard", "Achterberg & Oosterhuis", "Example, et al.",
                         "Lindqvist", "Moreau & Tanaka"))
    left = "%s  Expires %d %s 20%02d" % (author, rng.randint(1, 28),
                                        rng.choice(("January", "March", "May", "July",
                                                    "September", "November")),
                                        rng.randint(10, 30))
    right = "[Page %d]" % page
    footer = left + " " * max(1, 72 - len(left) - len(right)) + right
    title = rng.choice(("URNs in Plain Text", "Namespace Registration",
                        "Resolution Services", "Name Equivalence"))
    hl, hr = "Internet-Draft", "%s 20%02d" % (rng.choice(("May", "June", "October")),
                                            rng.randint(10, 30))
    gap = 72 - len(hl) - len(hr) - len(title)
    header = hl + " " * (gap // 2) + title + " " * (gap - gap // 2) + hr
    return "\n%s\n\f\n%s\n\n\n" % (footer, header)


# ---------------------------------------------------------------------------
# XML

_XML_ROOTS = ("inventory", "catalogue", "feed", "configuration", "manifest",
              "order", "registry", "collection")
_XML_CHILDREN = ("item", "entry", "record", "resource", "part", "component")
_XML_FIELDS = ("name", "title", "description", "status", "owner", "location",
               "note", "category", "version", "created", "updated")


def _xml_text(rng):
    n = rng.randint(1, 6)
    words = [rng.choice(_NOUNS + _ADJECTIVES) for _ in range(n)]
    return " ".join(words)


def _xml_block(rng):
    decoys = {}
    root = rng.choice(_XML_ROOTS)
    host = rng.choice(_HOSTS)
    parts = ['<?xml version="1.0" encoding="UTF-8"?>\n']
    parts.append('<%s xmlns="http://%s/schemas/%s/%d"\n' % (root, host, root, rng.randint(2001, 2023)))
    if rng.random() < 0.6:
        parts.append('    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"\n')
    if rng.random() < 0.4:
        parts.append('    xmlns:dc="http://purl.org/dc/elements/1.1/"\n')
    parts.append('    version="%d.%d">\n' % (rng.randint(1, 4), rng.randint(0, 9)))
    slots = []
    off = sum(len(p) for p in parts)
    slots.append((off, "xml", "  "))
    child = rng.choice(_XML_CHILDREN)
    for _ in range(rng.randint(2, 7)):
        lines = ['  <%s id="%s-%d" status="%s">\n' % (child, child[:3], rng.randint(1, 99999),
                                                     rng.choice(("active", "draft", "retired")))]
        for f in rng.sample(_XML_FIELDS, rng.randint(2, 5)):
            if f in ("created", "updated"):
                v = "20%02d-%02d-%02dT%02d:%02d:00Z" % (rng.randint(0, 24), rng.randint(1, 12),
                                                       rng.randint(1, 28), rng.randint(0, 23),
                                                       rng.randint(0, 59))
            else:
                v = _xml_text(rng)
            lines.append("    <%s>%s</%s>\n" % (f, v, f))
        if rng.random() < 0.2:
            lines.append('    <link rel="self" href="https://%s/%s/%d?view=full&amp;lang=en"/>\n'
                         % (host, child, rng.randint(1, 9999)))
        if rng.random() < 0.02:
            lines.append("    <planet>Saturn: 9.5 AU</planet>\n")
            decoys["Saturn:"] = decoys.get("Saturn:", 0) + 1
        if rng.random() < 0.02:
            lines.append("    <template>urn:&lt;NID&gt;:&lt;NSS&gt;</template>\n")
            decoys["urn:<NID>:<NSS>"] = decoys.get("urn:<NID>:<NSS>", 0) + 1
        if rng.random() < 0.1:
            lines.append("    <![CDATA[%s]]>\n" % _words(rng, rng.choice(_SENTENCES)))
        for i, ln in enumerate(lines):
            parts.append(ln)
            off += len(ln)
            if i > 0:
                slots.append((off, "xml", "    "))
        end = "  </%s>\n" % child
        parts.append(end)
        off += len(end)
        slots.append((off, "xml", "  "))
    parts.append("</%s>\n\n" % root)
    return "".join(parts), slots, decoys


# ---------------------------------------------------------------------------
# Source code

_IDENTS = ("record", "entry", "name", "value", "result", "items", "cache",
           "buf", "line", "path", "key", "text", "node", "count", "offset",
           "limit", "parts", "prefix", "suffix", "token", "header", "index")


def _ident(rng):
    a = rng.choice(_IDENTS)
    return a if rng.random() < 0.5 else a + "_" + rng.choice(_IDENTS)


def _camel(rng):
    a, b = rng.choice(_IDENTS), rng.choice(_IDENTS)
    return a + b[0].upper() + b[1:]


def _python_block(rng):
    decoys = {}
    name = "%s_%s" % (rng.choice(("load", "parse", "find", "build", "check", "merge",
                                  "resolve", "index", "split", "format")),
                      rng.choice(_IDENTS))
    args = ", ".join(_ident(rng) for _ in range(rng.randint(1, 3)))
    parts = []
    if rng.random() < 0.3:
        parts.append("import %s\n\n\n" % rng.choice(("os", "re", "json", "logging", "itertools")))
    parts.append("def %s(%s):\n" % (name, args))
    doc = _words(rng, rng.choice(_SENTENCES))
    if rng.random() < 0.15:
        parts.append('    """%s\n\n    return: list of %s\n    """\n' % (doc, rng.choice(_PLURALS)))
        decoys["return:"] = 1
    else:
        parts.append('    """%s"""\n' % doc)
    slots = []
    off = sum(len(p) for p in parts)
    slots.append((off, "python", "    "))
    acc = _ident(rng)
    parts.append("    %s = []\n" % acc)
    off += len(parts[-1])
    slots.append((off, "python", "    "))
    for _ in range(rng.randint(2, 6)):
        r = rng.random()
        v, w = _ident(rng), _ident(rng)
        if r < 0.3:
            chunk = ("    for %s in %s:\n        if not %s:\n            continue\n"
                     "        %s.append(%s.strip())\n" % (v, w, v, acc, v))
        elif r < 0.55:
            chunk = "    %s = %s.get(%r, %d)\n" % (v, w, rng.choice(_IDENTS), rng.randint(0, 64))
        elif r < 0.75:
            chunk = ("    if %s is None:\n        raise ValueError(%r)\n"
                     % (v, "missing " + rng.choice(_NOUNS)))
        elif r < 0.9:
            chunk = "    # %s\n" % _words(rng, rng.choice(_SENTENCES)).rstrip(".")
        else:
            chunk = "    %s = {%r: %d, %r: %d}\n" % (v, rng.choice(_IDENTS), rng.randint(0, 9),
                                                   rng.choice(_IDENTS), rng.randint(0, 9))
        parts.append(chunk)
        off += len(chunk)
        slots.append((off, "python", "    "))
    parts.append("    return %s\n\n\n" % acc)
    return "".join(parts), slots, decoys


def _java_block(rng):
    decoys = {}
    cls = rng.choice(("Catalog", "Resolver", "Registry", "Index", "Scanner",
                      "Record", "Gateway")) + rng.choice(("Service", "Helper", "Reader", "Store", ""))
    parts = ["package org.example.%s;\n\n" % rng.choice(("names", "catalog", "util", "index")),
             "import java.util.%s;\n\n" % rng.choice(("List", "Map", "ArrayList", "Objects")),
             "/**\n * %s\n */\n" % _words(rng, rng.choice(_SENTENCES)),
             "public final class %s {\n\n" % cls]
    slots = []
    off = sum(len(p) for p in parts)
    for _ in range(rng.randint(1, 3)):
        meth = _camel(rng)
        arg = _camel(rng)
        head = "    public String %s(String %s) {\n" % (meth, arg)
        if rng.random() < 0.1:
            head = "    // in turn: delegate to the %s\n" % rng.choice(_NOUNS) + head
            decoys["turn:"] = decoys.get("turn:", 0) + 1
        parts.append(head)
        off += len(head)
        slots.append((off, "java", "        "))
        for _ in range(rng.randint(2, 5)):
            r = rng.random()
            v = _camel(rng)
            if r < 0.35:
                st = "        String %s = %s.trim();\n" % (v, arg)
            elif r < 0.6:
                st = ("        if (%s == null) {\n            throw new IllegalArgumentException(%s);\n"
                      "        }\n" % (arg, json.dumps("no " + rng.choice(_NOUNS))))
            elif r < 0.8:
                st = "        int %s = %s.indexOf(':', %d);\n" % (v, arg, rng.randint(0, 8))
            else:
                st = "        // %s\n" % _words(rng, rng.choice(_SENTENCES))
            parts.append(st)
            off += len(st)
            slots.append((off, "java", "        "))
        tail = "        return %s;\n    }\n\n" % arg
        parts.append(tail)
        off += len(tail)
    parts.append("}\n\n")
    return "".join(parts), slots, decoys


# ---------------------------------------------------------------------------
# URN snippets.  Each is (lines, form, detail, nid); the lines
# carry no slot indentation (it is added when the snippet is spliced in).

_PROSE_BARE = (
    "The registry entry for this {N} is {U}.",
    "Names such as {U}, which the resolver returns, are {PP} for a day.",
    "The earlier record ({U}) was {PP} when the {N} changed.",
    "See {U}; the older number is {A}.",
    "{U} identifies the {N} used in the examples below.",
    "The {N} was cited as {U} in the {A} bibliography.",
    "A {A} {N} may also carry {U}, as the {N} allows.",
    "Compare {U} with the {A} form given above.",
)
_PROSE_WRAPPED = (
    "The slip gives the name as {W} and nothing else.",
    "Mail from the gateway reads {W} in the subject line.",
    "Write {W} when the {N} may be {PP} by a mail gateway.",
    "The {A} {N} {V} {W} like any other {N}.",
)
_PROSE_EMBEDDED = (
    "The {N} links to {E} from its {A} page.",
    "A resolver request such as {E} returns the {A} {N}.",
    "Download the data with {E} or from a mirror.",
    "The printed {N} shows the address {E} on the cover.",
)
_FOLD_LEADS = (
    "The namespace for this {N} is",
    "The {A} {N} is named",
    "The {N} {V}",
    "As {PP}, the name",
    "See",
)
_FOLD_TAILS = (
    "for the {A} {N}.",
    "and nothing else.",
    "in the {A} {N}.",
    "as {PP} above.",
    "once the {N} is {PP}.",
)


def _embed(rng, urn, nid, context):
    amp = "&amp;" if context == "xml" else "&"
    r = rng.random()
    if nid == "nbn" and r < 0.8:
        return rng.choice(("https://nbn-resolving.org/", "http://nbn-resolving.de/")) + urn
    if r < 0.35:
        return "https://%s/urn/%s" % (rng.choice(_HOSTS), urn)
    if r < 0.6:
        return "https://%s/resolve?urn=%s%sformat=%s" % (
            rng.choice(_HOSTS), urn, amp, rng.choice(("xml", "json", "html")))
    if r < 0.8:
        return "http://%s/lookup/%s" % (rng.choice(_HOSTS), urn)
    return None  # magnet


def _magnet(rng, context):
    amp = "&amp;" if context == "xml" else "&"
    h = "%040x" % rng.getrandbits(160)
    name = "%s-%s.tar" % (rng.choice(_NOUNS), rng.choice(_PLURALS))
    return "magnet:?xt=urn:btih:%s%sdn=%s" % (h, amp, name), "btih"


def _embedded(rng, context):
    urn, nid = _make_urn(rng, allow_components=False)
    url = _embed(rng, urn, nid, context)
    if url is None:
        url, nid = _magnet(rng, context)
    return url, nid


def _fold_bare_parts(rng):
    """Split a bare URN after a '-' in its NSS.  Returns (head, tail, nid)."""
    urn, nid = _make_urn(rng, makers=_HYPHENATED, need_hyphen=True)
    nss_start = urn.index(":", 4) + 1
    cands = [i for i in range(nss_start + 1, len(urn) - 1) if urn[i] == "-"]
    i = rng.choice(cands) + 1
    return urn[:i], urn[i:], nid


def _fold_wrapped_parts(rng):
    """Split a wrapper after a '-', ':' or '.' in the NSS, or anywhere."""
    urn, nid = _make_urn(rng, allow_components=False)
    nss_start = urn.index(":", 4) + 1
    cands = [i + 1 for i in range(nss_start, len(urn) - 1) if urn[i] in "-:."]
    if not cands or rng.random() < 0.2:
        cands = list(range(nss_start, len(urn)))
    i = rng.choice(cands)
    return "<" + urn[:i], urn[i:] + ">", nid


def _prose_snippet(rng):
    r = rng.random()
    if r < 0.42:
        urn, nid = _make_urn(rng)
        tpl = rng.choice(_PROSE_BARE)
        text = _words(rng, tpl.replace("{U}", "\0")).replace("\0", urn)
        detail = "bare_punct" if urn + "." in text or urn + "," in text or urn + ")" in text \
            or urn + ";" in text else "bare_prose"
        return _wrap(text, 66), "bare", detail, nid
    if r < 0.62:
        urn, nid = _make_urn(rng)
        w = "<%s>" % urn
        text = _words(rng, rng.choice(_PROSE_WRAPPED).replace("{W}", "\0")).replace("\0", w)
        return _wrap(text, 66), "wrapped", "wrapped_prose", nid
    if r < 0.82:
        url, nid = _embedded(rng, "prose")
        text = _words(rng, rng.choice(_PROSE_EMBEDDED).replace("{E}", "\0")).replace("\0", url)
        return _wrap(text, 66), "embedded", "embedded_url", nid
    lead = _words(rng, rng.choice(_FOLD_LEADS))
    tail = _words(rng, rng.choice(_FOLD_TAILS))
    extra = " " * rng.choice((3, 3, 6, 9))
    if r < 0.91:
        head, rest, nid = _fold_bare_parts(rng)
        return [lead + " " + head, extra + rest + " " + tail], "folded", "folded_bare", nid
    head, rest, nid = _fold_wrapped_parts(rng)
    return [lead + " " + head, extra + rest + " " + tail], "folded", "folded_wrapped", nid


def _xml_snippet(rng):
    r = rng.random()
    if r < 0.3:
        urn, nid = _make_urn(rng)
        tag = rng.choice(("identifier", "ref", "id", "sameAs"))
        return ["<%s>%s</%s>" % (tag, urn, tag)], "bare", "bare_xml_text", nid
    if r < 0.5:
        urn, nid = _make_urn(rng, makers=_NS_LIKE, allow_components=False)
        p = rng.choice(("ext", "ns1", "meta", "x"))
        if rng.random() < 0.5:
            line = '<%s:data xmlns:%s="%s" %s:version="%d"/>' % (p, p, urn, p, rng.randint(1, 5))
        else:
            line = '<import namespace="%s" schemaLocation="%s.xsd"/>' % (urn, rng.choice(_NOUNS))
        return [line], "bare", "bare_xml_attr", nid
    if r < 0.62:
        urn, nid = _make_urn(rng)
        return ["<!-- legacy form: <%s> -->" % urn], "wrapped", "wrapped_xml_comment", nid
    if r < 0.85:
        url, nid = _embedded(rng, "xml")
        return ['<link rel="%s" href="%s"/>' % (rng.choice(("cite-as", "alternate", "related")), url)], \
            "embedded", "embedded_xml_href", nid
    extra = " " * rng.choice((5, 7))
    if r < 0.93:
        head, rest, nid = _fold_wrapped_parts(rng)
        return ["<!-- printed as " + head, extra + rest + " -->"], "folded", "folded_wrapped", nid
    head, rest, nid = _fold_bare_parts(rng)
    return ["<!-- namespace " + head, extra + rest + " -->"], "folded", "folded_bare", nid


def _python_snippet(rng):
    r = rng.random()
    if r < 0.4:
        urn, nid = _make_urn(rng)
        q = rng.choice(("'", '"'))
        line = rng.choice(("%s = %s%s%s", "%s = parse(%s%s%s)", "%s.add(%s%s%s)")) % (
            _ident(rng), q, urn, q)
        return [line], "bare", "bare_code_string", nid
    if r < 0.55:
        urn, nid = _make_urn(rng)
        return ["# see %s%s" % (urn, rng.choice((".", ",", "", ")")))], "bare", "bare_code_comment", nid
    if r < 0.7:
        urn, nid = _make_urn(rng)
        return ["# legacy form <%s>" % urn], "wrapped", "wrapped_code_comment", nid
    if r < 0.92:
        url, nid = _embedded(rng, "python")
        return ['%s = "%s"' % (_ident(rng), url)], "embedded", "embedded_code_string", nid
    head, rest, nid = _fold_wrapped_parts(rng)
    return ['"""Resolve ' + head, "    " + rest + ' first."""'], "folded", "folded_wrapped", nid


def _java_snippet(rng):
    r = rng.random()
    if r < 0.45:
        urn, nid = _make_urn(rng)
        return ['String %s = "%s";' % (_camel(rng), urn)], "bare", "bare_code_string", nid
    if r < 0.6:
        urn, nid = _make_urn(rng)
        return ["// see <%s>" % urn], "wrapped", "wrapped_code_comment", nid
    if r < 0.92:
        url, nid = _embedded(rng, "java")
        return ['URI %s = URI.create("%s");' % (_camel(rng), url)], "embedded", "embedded_code_string", nid
    head, rest, nid = _fold_wrapped_parts(rng)
    return ["/* " + head, "   " + rest + " */"], "folded", "folded_wrapped", nid


_SNIPPET_MAKERS = {"prose": _prose_snippet, "xml": _xml_snippet,
                   "python": _python_snippet, "java": _java_snippet}


# ---------------------------------------------------------------------------
# Pool


class _Block:
    __slots__ = ("genre", "text", "nbytes", "slot_bytes", "slot_chars", "slot_kinds",
                 "slot_indents", "slot_groups", "decoys")

    def __init__(self, genre, units):
        texts, slots, decoys, off = [], [], {}, 0
        for text, unit_slots, unit_decoys in units:
            texts.append(text)
            slots.extend((off + c, k, i) for c, k, i in unit_slots)
            off += len(text)
            for k, v in unit_decoys.items():
                decoys[k] = decoys.get(k, 0) + v
        text = "".join(texts)
        self.genre = genre
        self.text = text
        self.nbytes = len(text.encode("utf-8"))
        self.slot_chars = [s[0] for s in slots]
        if self.nbytes == len(text):
            self.slot_bytes = list(self.slot_chars)
        else:
            self.slot_bytes = [len(text[:c].encode("utf-8")) for c in self.slot_chars]
        self.slot_kinds = [s[1] for s in slots]
        self.slot_indents = [s[2] for s in slots]
        self.slot_groups = None  # filled in by _Pool
        self.decoys = decoys


def _fixed(text):
    return (text, [], {})


class _Pool:
    """Pre-rendered blocks and URN snippets, all drawn from one seeded RNG.

    Units (paragraphs, XML documents, functions, classes) are rendered
    first; blocks are then assembled from units into sections, mail
    messages and modules, so that a block is a few kilobytes long and the
    emission loop stays cheap per byte.
    """

    def __init__(self, seed):
        rng = random.Random("urnscan-corpus/%d/%d" % (GENERATOR_VERSION, seed))
        rfc = [_paragraph(rng, "rfc") for _ in range(_UNITS["rfc"])]
        plain = [_paragraph(rng, "plain") for _ in range(_UNITS["plain"])]
        quote = [_paragraph(rng, "quote") for _ in range(_UNITS["quote"])]
        xml = [_xml_block(rng) for _ in range(_UNITS["xml"])]
        py = [_python_block(rng) for _ in range(_UNITS["python"])]
        java = [_java_block(rng) for _ in range(_UNITS["java"])]
        blocks = []
        for i in range(_POOL_BLOCKS):
            g = _GENRE_CYCLE[i % len(_GENRE_CYCLE)]
            units = []
            if g == "rfc":
                if rng.random() < 0.35:
                    units.append(_fixed(_heading(rng, "rfc")))
                units.extend(rng.choice(rfc) for _ in range(rng.randint(2, 6)))
                if rng.random() < 0.1:
                    units.append(_fixed(_page_break(rng)))
            elif g == "plain":
                if rng.random() < 0.5:
                    units.append(_fixed(_mail_header(rng)))
                    if rng.random() < 0.4:
                        units.append(_fixed("%s wrote:\n" % rng.choice(_PEOPLE)))
                        units.append(rng.choice(quote))
                    units.extend(rng.choice(plain) for _ in range(rng.randint(1, 4)))
                    units.append(_fixed("--\n%s\n\n\n" % rng.choice(_PEOPLE)))
                else:
                    if rng.random() < 0.2:
                        units.append(_fixed(_heading(rng, "plain")))
                    units.extend(rng.choice(plain) for _ in range(rng.randint(2, 5)))
            elif g == "xml":
                units.append(rng.choice(xml))
            elif g == "python":
                if rng.random() < 0.5:
                    units.append(_fixed('"""%s"""\n\nimport %s\n\n\n' % (
                        _words(rng, rng.choice(_SENTENCES)),
                        rng.choice(("os", "re", "json", "logging", "itertools")))))
                units.extend(rng.choice(py) for _ in range(rng.randint(1, 3)))
            else:
                units.append(rng.choice(java))
            blocks.append(_Block(g, units))
        self.blocks = blocks
        self.snippets = {}
        for ctx, n in _POOL_SNIPPETS.items():
            make = _SNIPPET_MAKERS[ctx]
            lst = []
            for _ in range(n):
                lines, form, detail, nid = make(rng)
                lst.append((tuple(lines), form, detail, nid))
            self.snippets[ctx] = lst
        # Render every snippet once for each (context, indent) pair that a
        # slot asks for; a slot then refers to its group by index.
        group_index = {}
        self.groups = []  # (kind, indent, [text], [nbytes])
        for b in blocks:
            gids = []
            for kind, indent in zip(b.slot_kinds, b.slot_indents):
                key = (kind, indent)
                gid = group_index.get(key)
                if gid is None:
                    gid = group_index[key] = len(self.groups)
                    texts = ["".join(indent + ln + "\n" for ln in lines)
                             for lines, *_ in self.snippets[kind]]
                    self.groups.append((kind, indent, texts,
                                        [len(s.encode("utf-8")) for s in texts]))
                gids.append(gid)
            b.slot_groups = gids
        # mean snippet size, used to keep the URN rate near one per
        # `every` bytes of output
        sizes = [n for g in self.groups for n in g[3]]
        self.avg_snippet = sum(sizes) / len(sizes)


_GENRE_NAMES = ("rfc", "plain", "xml", "python", "java")
# share of blocks by count, as a cycle over the pool
_GENRE_CYCLE = ("rfc", "xml", "plain", "rfc", "python", "rfc", "xml", "plain",
                "rfc", "java", "rfc", "xml", "plain", "python", "rfc", "xml",
                "plain", "java", "rfc", "python")
_UNITS = {"rfc": 900, "plain": 450, "quote": 120, "xml": 350, "python": 300, "java": 150}


def generate(path, size_mb, every, seed=0):
    """Write about ``size_mb`` MiB to ``path`` and ``path + ".json"``.

    ``every`` is the mean number of output bytes per inserted URN.
    Returns the statistics dict that is also written to the sidecar.
    """
    if size_mb <= 0:
        raise ValueError("size_mb must be positive")
    if every < 256:
        raise ValueError("every must be at least 256 bytes")
    t0 = time.perf_counter()
    target = int(size_mb * MIB)
    pool = _Pool(int(seed))
    rng = random.Random("urnscan-corpus-stream/%d/%d/%d/%d" % (GENERATOR_VERSION, int(seed),
                                                               target, int(every)))
    rnd = rng.random  # int(rnd() * n) is a cheap, deterministic index draw
    # gaps are measured in filler bytes so that filler + snippets gives
    # one URN per `every` bytes of output on average
    lam = 1.0 / max(every - pool.avg_snippet, every / 2.0)
    expo = rng.expovariate

    bisect_right = bisect.bisect_right
    group_texts = [g[2] for g in pool.groups]
    group_sizes = [g[3] for g in pool.groups]
    group_used = [[0] * len(g[2]) for g in pool.groups]  # insertions by snippet
    blocks = pool.blocks
    nblocks = len(blocks)
    emitted = [0] * nblocks

    written = 0          # bytes of output so far
    filler = 0           # filler bytes so far: the insertion clock
    next_at = expo(lam)  # filler offset of the next URN
    buf = []
    buf_bytes = 0

    with open(path, "wb") as fh:
        while written < target:
            bi = int(rnd() * nblocks)
            b = blocks[bi]
            emitted[bi] += 1
            end = filler + b.nbytes
            if next_at >= end or not b.slot_bytes:
                # no URN falls in this block (or it has no place for one:
                # the URN then goes into the next block's first slot)
                buf.append(b.text)
                buf_bytes += b.nbytes
                written += b.nbytes
                filler = end
            else:
                # one or more insertions in this block, each at the slot
                # nearest to where the insertion clock falls
                text = b.text
                sb = b.slot_bytes
                sc = b.slot_chars
                nslots = len(sb)
                lo = 0      # slots before this one are behind us
                last = 0    # char offset of the text not yet appended
                while next_at < end:
                    rel = next_at - filler
                    si = bisect_right(sb, rel)
                    if si >= nslots:
                        si = nslots - 1
                    elif si > 0 and rel - sb[si - 1] < sb[si] - rel:
                        si -= 1
                    if si < lo:
                        si = lo
                    lo = si
                    gid = b.slot_groups[si]
                    texts = group_texts[gid]
                    sid = int(rnd() * len(texts))
                    group_used[gid][sid] += 1
                    cpos = sc[si]
                    if cpos > last:
                        buf.append(text[last:cpos])
                        last = cpos
                    buf.append(texts[sid])
                    sn = group_sizes[gid][sid]
                    buf_bytes += sn
                    written += sn
                    next_at += expo(lam)
                buf.append(text[last:])
                buf_bytes += b.nbytes
                written += b.nbytes
                filler = end
            if buf_bytes >= _FLUSH_BYTES:
                fh.write("".join(buf).encode("utf-8"))
                buf, buf_bytes = [], 0
        if buf:
            fh.write("".join(buf).encode("utf-8"))
    elapsed = time.perf_counter() - t0

    form_counts = {"bare": 0, "wrapped": 0, "folded": 0, "embedded": 0}
    detail_counts = {}
    context_counts = {}
    nid_counts = {}
    for (kind, _indent, _texts, _sizes), used in zip(pool.groups, group_used):
        snippets = pool.snippets[kind]
        for sid, n in enumerate(used):
            if n:
                _lines, form, detail, nid = snippets[sid]
                form_counts[form] += n
                detail_counts[detail] = detail_counts.get(detail, 0) + n
                context_counts[kind] = context_counts.get(kind, 0) + n
                nid_counts[nid] = nid_counts.get(nid, 0) + n
    decoy_counts = {}
    genre_blocks = dict.fromkeys(_GENRE_NAMES, 0)
    genre_bytes = dict.fromkeys(_GENRE_NAMES, 0)
    for b, n in zip(blocks, emitted):
        if n:
            genre_blocks[b.genre] += n
            genre_bytes[b.genre] += n * b.nbytes
            for k, v in b.decoys.items():
                decoy_counts[k] = decoy_counts.get(k, 0) + n * v
    total = sum(form_counts.values())
    stats = {
        "generator": "urnscan benchmarks/corpus.py",
        "generator_version": GENERATOR_VERSION,
        "path": os.path.basename(path),
        "parameters": {"size_mb": size_mb, "every": every, "seed": seed,
                       "mb_unit_bytes": MIB},
        "bytes_requested": target,
        "bytes_written": written,
        "blocks": sum(emitted),
        "blocks_by_genre": genre_blocks,
        "filler_bytes_by_genre": genre_bytes,
        "urns": {
            "total": total,
            "counts": form_counts,
            "folded_bare": detail_counts.get("folded_bare", 0),
            "folded_wrapped": detail_counts.get("folded_wrapped", 0),
            # the same URNs described the way a scanner reports a hit:
            # form bare/wrapped, plus the folded and embedded flags
            "as_hits": {
                "form_bare": total - form_counts["wrapped"]
                - detail_counts.get("folded_wrapped", 0),
                "form_wrapped": form_counts["wrapped"] + detail_counts.get("folded_wrapped", 0),
                "folded": form_counts["folded"],
                "embedded": form_counts["embedded"],
            },
            "by_detail": dict(sorted(detail_counts.items())),
            "by_context": dict(sorted(context_counts.items())),
            "by_nid": dict(sorted(nid_counts.items())),
            "bytes_per_urn": round(written / total, 1) if total else None,
        },
        "decoys": dict(sorted(decoy_counts.items())),
        "strict_pattern": STRICT_PATTERN,
        # timing varies from run to run; everything else is reproducible
        "timing": {
            "seconds": round(elapsed, 3),
            "mb_per_second": round(written / MIB / elapsed, 1) if elapsed > 0 else None,
        },
    }
    with open(path + ".json", "w", encoding="utf-8") as fh:
        json.dump(stats, fh, indent=2)
        fh.write("\n")
    return stats


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Write a deterministic benchmark corpus with URNs spliced in, "
                    "plus a JSON sidecar OUT.json with exact counts.")
    ap.add_argument("out", metavar="OUT", help="output file")
    ap.add_argument("--size-mb", type=float, required=True,
                    help="approximate size in MiB (1 MiB = 1048576 bytes)")
    ap.add_argument("--every", type=int, required=True,
                    help="mean bytes of output per inserted URN (e.g. 2048 or 20480)")
    ap.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    args = ap.parse_args(argv)
    try:
        stats = generate(args.out, args.size_mb, args.every, seed=args.seed)
    except ValueError as exc:
        ap.error(str(exc))
    u = stats["urns"]
    print("%s: %d bytes, %d URNs (bare %d, wrapped %d, folded %d, embedded %d), "
          "%.2f s, %.1f MiB/s" % (args.out, stats["bytes_written"], u["total"],
                                  u["counts"]["bare"], u["counts"]["wrapped"],
                                  u["counts"]["folded"], u["counts"]["embedded"],
                                  stats["timing"]["seconds"],
                                  stats["timing"]["mb_per_second"] or 0.0),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
