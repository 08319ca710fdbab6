"""Inputs built to hit each reading rule's worst case (shared by
benchmarks/bench_crafted.py and tests/test_growth.py)."""


def _repeat(unit: bytes, size: int) -> bytes:
    return unit * max(1, size // len(unit))


def prose(size: int) -> bytes:
    """The baseline: prose with a URN now and then."""
    unit = (b"The registry lists each namespace with its template; see urn:isbn:0451450523 and "
            b"<urn:ietf:rfc:2141>, or \"urn:example:a-b\" (urn:nbn:de:bsz:24-opus-1).  Prose goes on for a "
            b"while here, with words, numbers like 3.14 and punctuation: commas, colons; then more.\n") * 8
    return _repeat(unit, size)


def close_parens(size: int) -> bytes:
    """Thousands of ")" after a URN."""
    return _repeat(b"see urn:example:a" + b")" * 3000 + b"\n", size)


def close_parens_over_cap(size: int) -> bytes:
    return _repeat(b"see urn:example:a" + b")" * 20000 + b"\n", size)


def slash_then_paren(size: int) -> bytes:
    """"urn:a:/" repeated, then "(" (a pattern's group)."""
    return _repeat(b" " + b"urn:a:/" * 500 + b"(\n", size)


def slash_then_brace(size: int) -> bytes:
    """"urn:a:/" repeated, then "{" (a template)."""
    return _repeat(b" " + b"urn:a:/" * 500 + b"{\n", size)


def hyphen_lines(size: int) -> bytes:
    """Every line ends in "-": a fold after every line."""
    return _repeat(b"x urn:example:start-\n" + b"   abc-\n" * 2000, size)


def urn_hyphen_lines(size: int) -> bytes:
    return _repeat(b"urn:example:a-\n", size)


def url_query(size: int) -> bytes:
    """Hundreds of URNs in one URL query."""
    query = b"&".join(b"id%d=urn:isbn:%d" % (i, 1000000 + i) for i in range(300))
    return _repeat(b"https://h.example/q?" + query + b" \n", size)


def long_url_token(size: int) -> bytes:
    """A URL token far longer than any look-back before its URN."""
    return _repeat(b"https://h.example/q?" + b"a=b&" * 5000 + b"id=urn:isbn:0451450523&x=1\n", size)


def q_component_lines(size: int) -> bytes:
    """Lines of "&c=d" after a q-component: a fold before every "&"."""
    return _repeat(b"urn:example:a?=x=1\n" + b"   &c=d\n" * 2000, size)


def many_quotes(size: int) -> bytes:
    """Quoted URNs back to back, no blank between them."""
    return _repeat(b"'urn:a:b'" * 2000 + b"\n", size)


def many_parens(size: int) -> bytes:
    """Openers piled before a URN and closers after it."""
    return _repeat(b"(" * 2000 + b"urn:a:b" + b")" * 2000 + b"\n", size)


def urn_run(size: int) -> bytes:
    """"urn:" over and over in one over-long run."""
    return _repeat(b" " + b"urn:a:" * 3000 + b"\n", size)


def entities(size: int) -> bytes:
    return _repeat(b" urn:a:b" + b"&amp;" * 500 + b"\n", size)


def reference_breaks(size: int) -> bytes:
    """A reference then a soft hyphen after each "urn:" of one line: each
    name cut at the reference in its first piece, before a chain of marks
    that goes on to the cap (breaks.joined_over_breaks)."""
    return _repeat("urn:a:&amp;\u00ad@".encode(), size)


def yaml_keys(size: int) -> bytes:
    """URN prefixes alone on their lines, blank lines between."""
    return _repeat(b"urn:example:k:\n" + b"\n" * 200 + b"  key: v\n", size)


def table_rows(size: int) -> bytes:
    return _repeat(b"| urn:example:reg: | x |\n|  widgets:v1     | y |\n", size)


def names_shown_below(size: int) -> bytes:
    """Names ending in ":" at a line's end over lines of longer names."""
    return _repeat(b"see urn:example:abc:\n" + b"urn:example:abcd " * 60 + b"\n", size)


def colon_fold_chain(size: int) -> bytes:
    """Lines each broken before ":" and each holding a "urn:": one fold far
    longer than the cap, a URN starting on every line of it."""
    return _repeat(b"   :urn:example:a\n", size)


def rfc8792_chain(size: int) -> bytes:
    """RFC 8792 "\\" folding on every line, a "urn:" on every line."""
    return _repeat(b"urn:example:a-\\\n", size)


FAMILIES = {
    "close parens (3000)": close_parens,
    "close parens (over cap)": close_parens_over_cap,
    "urn:a:/ repeated then (": slash_then_paren,
    "urn:a:/ repeated then {": slash_then_brace,
    "every line ends in -": hyphen_lines,
    "urn lines end in -": urn_hyphen_lines,
    "300 URNs in one URL query": url_query,
    "20 KB URL token": long_url_token,
    "&c=d lines after ?=": q_component_lines,
    "quoted URNs back to back": many_quotes,
    "2000 ( before, ) after": many_parens,
    "urn:a: repeated (over cap)": urn_run,
    "entities after a URN": entities,
    "a reference, then marks to the cap": reference_breaks,
    "YAML keys, blank lines": yaml_keys,
    "table rows": table_rows,
    "names ending in : over longer ones": names_shown_below,
    "fold before : on every line (over cap)": colon_fold_chain,
    "RFC 8792 fold on every line (over cap)": rfc8792_chain,
}


# One structure that grows with the input (no repetition of short units):
# with a cap at least the input size, any rule that is superlinear in the
# length of what it reads shows.

def growing_slash_paren(size: int) -> bytes:
    return b" " + b"urn:a:/" * (size // 7) + b"(\n"


def growing_slash_brace(size: int) -> bytes:
    return b" " + b"urn:a:/" * (size // 7) + b"{\n"


def growing_close_parens(size: int) -> bytes:
    return b"see urn:example:a" + b")" * size + b"\n"


def growing_open_parens(size: int) -> bytes:
    return b"(" * (size // 2) + b"urn:a:b" + b")" * (size // 2) + b"\n"


def growing_hyphen_lines(size: int) -> bytes:
    return b"x urn:example:start-\n" + b"   abc-\n" * (size // 8)


def growing_url_query(size: int) -> bytes:
    n = size // 24
    return b"https://h.example/q?" + b"&".join(b"id%d=urn:isbn:%d" % (i, 1000000 + i) for i in range(n)) + b" \n"


def growing_url_token(size: int) -> bytes:
    return b"https://h.example/q?" + b"a=b&" * (size // 4) + b"id=urn:isbn:0451450523&x=1\n"


def growing_q_component(size: int) -> bytes:
    return b"urn:example:a?=x=1\n" + b"   &c=d\n" * (size // 8)


def growing_quotes(size: int) -> bytes:
    return b"'urn:a:b'" * (size // 9) + b"\n"


def growing_urn_run(size: int) -> bytes:
    return b" " + b"urn:a:" * (size // 6) + b"\n"


def growing_blank_lines(size: int) -> bytes:
    return b"urn:example:k:\n" + b"\n" * size + b"  key: v\n"


def growing_entities(size: int) -> bytes:
    return b" urn:a:b" + b"&amp;" * (size // 5) + b"\n"


def growing_page_breaks(size: int) -> bytes:
    """A fold after every line, each across a page break."""
    page = b"\n\nAuthor   Expires 2024   [Page 1]\n\f\nInternet-Draft   Title   2024\n\n   abc-\n"
    return b"x urn:example:start-\n" + page * (size // len(page))


def growing_literals(size: int) -> bytes:
    """Adjacent literals after a URN that starts inside the first one."""
    return b"x = ('<a ns=\"urn:example:a" + b"'\n     'b" * (size // 10) + b"\">')\n"


def growing_decoded_entities(size: int) -> bytes:
    return b" urn:a:b?=x=1" + b"&amp;k=v" * (size // 8) + b"\n"


def growing_list(size: int) -> bytes:
    return b" urn:a:b" + b",urn:c:d" * (size // 8) + b"\n"


def growing_lookalikes(size: int) -> bytes:
    """URNs and suspected URNs in fullwidth forms, side by side."""
    unit = " urn:a:b \uff55\uff52\uff4e\uff1ax:y".encode("utf-8")
    return unit * (size // len(unit)) + b"\n"


def growing_fullwidth_u(size: int) -> bytes:
    """Fullwidth "u" over and over: each a place a suspected URN may start."""
    return b" " + "\uff55".encode() * (size // 3) + b"\n"


def growing_names_below(size: int) -> bytes:
    """A name ending in ":" over one line of longer names that grows."""
    return b"x urn:example:a:\n" + b"urn:example:ab " * (size // 15) + b"\n"


def growing_labels(size: int) -> bytes:
    """"urn:" over and over before one NID and NSS: each a label
    (reading.labelled) of what follows."""
    return b" " + b"urn:" * (size // 4) + b"a:b\n"


def growing_regex_literals(size: int) -> bytes:
    """JavaScript regular-expression literals, closed and not, and
    comparisons before "||", back to back in one line (code.regex_literal_at,
    code.compared)."""
    unit = b"(/urn:a:b/i.test(s)||x==='urn:a:b'||(/urn:a:b"
    return unit * (size // len(unit)) + b"\n"


def growing_encoded(size: int) -> bytes:
    """Percent-encoded prefixes over and over in one URL token, none with
    a NID, then one that has one (encoded.encoded_urns reads a run once)."""
    return b"?q=" + b"urn%3A%3A" * (size // 9) + b"urn%3Aa%3Ab\n"


def growing_escaped(size: int) -> bytes:
    """Escaped prefixes over and over in one properties value, none with a
    NID, then one that has one (escaped.escaped_urns reads a run once)."""
    return b"k=" + b"urn\\:\\:" * (size // 7) + b"urn\\:a\\:b\n"


def growing_escaped_names(size: int) -> bytes:
    """Names with escaped colons, one after another in one run longer than
    the cap (each read once, from where the last one ended)."""
    unit = b"urn\\:a\\:b,"
    return b"k=" + unit * (size // len(unit)) + b"\n"


def growing_breaks(size: int) -> bytes:
    """Names broken by "<wbr>" over and over, each mark before another
    "urn:" (breaks.joined_over_breaks reads a name up to the cap)."""
    unit = b"urn:a:b<wbr>"
    return unit * (size // len(unit)) + b"c\n"


GROWING = {
    "urn:a:/ ... (": growing_slash_paren,
    "urn:a:/ ... {": growing_slash_brace,
    "a URN then )))...": growing_close_parens,
    "((( URN )))": growing_open_parens,
    "every line ends in -": growing_hyphen_lines,
    "URNs in one URL query": growing_url_query,
    "one long URL token": growing_url_token,
    "&c=d lines after ?=": growing_q_component,
    "quoted URNs back to back": growing_quotes,
    "urn:a: repeated": growing_urn_run,
    "blank lines after a key": growing_blank_lines,
    "entities after a URN": growing_entities,
    "folds across page breaks": growing_page_breaks,
    "adjacent literals": growing_literals,
    "&amp; after ?=": growing_decoded_entities,
    "a list of URNs": growing_list,
    "URNs and fullwidth look-alikes": growing_lookalikes,
    "fullwidth u repeated": growing_fullwidth_u,
    "urn: labels repeated": growing_labels,
    "regular-expression literals and || in code": growing_regex_literals,
    "a name ending in : over longer ones": growing_names_below,
    "urn%3A repeated in a URL": growing_encoded,
    "<wbr> between names": growing_breaks,
    "urn\\: repeated in a properties value": growing_escaped,
    "escaped names in one run": growing_escaped_names,
}
