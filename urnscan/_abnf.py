"""The seeds' grammars as named regular-expression strings.

Each rule is a string built from smaller named strings, next to the section
of the seed it transcribes.  Nothing is compiled here
(:class:`urnscan.lazyre.LazyPattern` compiles a rule where it is used, on
first use, so that importing costs nothing);
the ``*_CHARS`` strings are regex character-class bodies, and
:func:`char_set` reads one as the set of characters it admits, so the
character-by-character checks use the very sets the grammar does.
Character classes are written for ASCII only: every rule below excludes
non-ASCII characters, which must be percent-encoded (RFC 8141 section 2,
RFC 2141 section 2.4).

Seeds: 000 = RFC 2141, 001 = draft-ietf-urnbis-rfc2141bis-urn-20 (RFC 8141),
002 = draft-ietf-urnbis-rfc2141bis-urn-03 (2012), 004 =
draft-ietf-uri-urn-syntax-00 (1995).
"""


# --- RFC 5234 core rules and RFC 3986 building blocks --------------------
ALPHA = "A-Za-z"
DIGIT = "0-9"
HEXDIG = "0-9A-Fa-f"
ALPHANUM = ALPHA + DIGIT

# RFC 3986 section 2.1: pct-encoded = "%" HEXDIG HEXDIG
PCT_ENCODED = f"%[{HEXDIG}][{HEXDIG}]"
# RFC 3986 section 2.3: unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
UNRESERVED_CHARS = ALPHANUM + r"\-._~"
# RFC 3986 section 2.2: sub-delims = "!" / "$" / "&" / "'" / "(" / ")"
#                                  / "*" / "+" / "," / ";" / "="
SUB_DELIMS_CHARS = r"!$&'()*+,;="
# RFC 3986 section 3.3: pchar = unreserved / pct-encoded / sub-delims / ":" / "@"
PCHAR_CHARS = UNRESERVED_CHARS + SUB_DELIMS_CHARS + ":@"
PCHAR = f"(?:[{PCHAR_CHARS}]|{PCT_ENCODED})"

# --- Seed 001 (RFC 8141) section 2 ----------------------------------------
# Every repetition below is possessive ("*+", "++", "?+") and every
# alternative starts with a different character, so a match never gives
# back what it took: the matcher runs in time linear in the input, whatever
# the input (no backtracking).  RE2 (the Arrow engine) has no possessive
# quantifiers and needs none; its spelling is RFC8141_NAMESTRING_RE2 below.
#   NID = (alphanum) 0*30(ldh) (alphanum) ;  ldh = alphanum / "-"
LDH_CHARS = ALPHANUM + r"\-"
RFC8141_NID = f"[{ALPHANUM}](?:[{LDH_CHARS}]{{0,30}}[{ALPHANUM}])"
#   NSS = pchar *(pchar / "/")
RFC8141_NSS = f"{PCHAR}(?:[{PCHAR_CHARS}/]++|{PCT_ENCODED})*+"
#   r-component = pchar *( pchar / "/" / "?" ), after "?+".  Section 2.3.1:
#   "The r-component ends with a "?=" sequence (which begins a q-component)
#   or a "#" character" -- so a "?" inside it is never followed by "=".
RFC8141_R_COMPONENT = f"{PCHAR}(?:[{PCHAR_CHARS}/]++|{PCT_ENCODED}|\\?(?!=))*+"
#   q-component = pchar *( pchar / "/" / "?" ), after "?=".  Section 2.3.2:
#   it "terminates when a "#" character ... appears".
RFC8141_Q_COMPONENT = f"{PCHAR}(?:[{PCHAR_CHARS}/?]++|{PCT_ENCODED})*+"
#   f-component = fragment ; RFC 3986 section 3.5: fragment = *( pchar / "/" / "?" )
RFC8141_F_COMPONENT = f"(?:[{PCHAR_CHARS}/?]++|{PCT_ENCODED})*+"
#   namestring = assigned-name [ rq-components ] [ "#" f-component ]
#   assigned-name = "urn" ":" NID ":" NSS      ("urn" is case-insensitive,
#   RFC 3986 section 3.1)
#   rq-components = [ "?+" r-component ] [ "?=" q-component ]
RFC8141_NAMESTRING = (
    f"(?P<scheme>[Uu][Rr][Nn]):(?P<nid>{RFC8141_NID}):(?P<nss>{RFC8141_NSS})"
    f"(?:\\?\\+(?P<r>{RFC8141_R_COMPONENT}))?+"
    f"(?:\\?=(?P<q>{RFC8141_Q_COMPONENT}))?+"
    f"(?:#(?P<f>{RFC8141_F_COMPONENT}))?+"
)
#   The same language for RE2, which matches in linear time by construction
#   but knows neither possessive quantifiers nor look-ahead: an r-component
#   "?" is followed by a character other than "=" (a run of "?" may end the
#   r-component, before "?=", "#" or the end).
_PCHAR_BUT_EQUALS = f"(?:[{PCHAR_CHARS.replace('=', '')}]|{PCT_ENCODED})"
_RE2_R_COMPONENT = f"{PCHAR}(?:{PCHAR}|/|\\?+(?:{_PCHAR_BUT_EQUALS}|/))*\\?*"
_RE2_QF_CHAR = f"(?:{PCHAR}|[/?])"
RFC8141_NAMESTRING_RE2 = (
    f"(?P<scheme>[Uu][Rr][Nn]):(?P<nid>{RFC8141_NID}):(?P<nss>{PCHAR}(?:{PCHAR}|/)*)"
    f"(?:\\?\\+(?P<r>{_RE2_R_COMPONENT}))?"
    f"(?:\\?=(?P<q>{PCHAR}{_RE2_QF_CHAR}*))?"
    f"(?:#(?P<f>{_RE2_QF_CHAR}*))?"
)
#   Section 5.2: InformalNamespaceName = "urn-" Number ;
#   Number = DigitNonZero 0*Digit
RFC8141_INFORMAL_NID = r"[Uu][Rr][Nn]-[1-9][0-9]*"
#   The common case, as one character-class run: no "%", no components.  A
#   string it matches is a namestring with r, q and f absent.
RFC8141_SIMPLE = (
    f"(?P<scheme>[Uu][Rr][Nn]):(?P<nid>{RFC8141_NID}):"
    f"(?P<nss>[{PCHAR_CHARS.replace('%', '')}][{PCHAR_CHARS}/]*)"
)
#   The repertoire of a URN in running text: every character of the
#   namestring grammar (pchar, "/", "?", "#", and "%" of pct-encoded).
RFC8141_REPERTOIRE = PCHAR_CHARS + "/?#%"

# --- Seed 000 (RFC 2141) section 2 ----------------------------------------
#   <NID> ::= <let-num> [ 1,31<let-num-hyp> ]          (section 2.1)
RFC2141_NID = f"[{ALPHANUM}][{LDH_CHARS}]{{0,31}}"
#   <other> ::= "(" | ")" | "+" | "," | "-" | "." | ":" | "=" | "@" | ";"
#             | "$" | "_" | "!" | "*" | "'"                  (section 2.2)
RFC2141_OTHER_CHARS = r"()+,\-.:=@;$_!*'"
#   <reserved> ::= "%" | "/" | "?" | "#"                     (section 2.3)
RFC2141_RESERVED_CHARS = "/?#"
#   <trans> ::= <upper> | <lower> | <number> | <other> | <reserved>
#   ("%" itself only as the start of an escape, section 2.3.1)
RFC2141_TRANS_CHARS = ALPHANUM + RFC2141_OTHER_CHARS + RFC2141_RESERVED_CHARS
#   <URN chars> ::= <trans> | "%" <hex> <hex> ;  <NSS> ::= 1*<URN chars>
RFC2141_NSS = f"(?:[{RFC2141_TRANS_CHARS}]++|{PCT_ENCODED})++"
#   <URN> ::= "urn:" <NID> ":" <NSS>  ("urn:" is case-insensitive)
RFC2141_URN = f"(?P<scheme>[Uu][Rr][Nn]):(?P<nid>{RFC2141_NID}):(?P<nss>{RFC2141_NSS})"
#   The common case: no escapes, no reserved characters.
RFC2141_SIMPLE = (
    f"(?P<scheme>[Uu][Rr][Nn]):(?P<nid>{RFC2141_NID}):(?P<nss>[{ALPHANUM + RFC2141_OTHER_CHARS}]+)"
)
#   The names both fast paths above take (the commonest by far): an RFC 8141
#   NID (a subset of RFC 2141's) and an NSS of <let-num> and <other> only,
#   which pchar admits too (RFC 3986 section 3.3): no "%", no reserved
#   character, no component.  Under either profile such a string is valid
#   when its NID is, and its NSS is its key's as written (seed 001 section 3.1).
PLAIN_URN = f"(?P<scheme>[Uu][Rr][Nn]):(?P<nid>{RFC8141_NID}):(?P<nss>[{ALPHANUM + RFC2141_OTHER_CHARS}]+)"
#   Section 2.4: <excluded> ::= octets 1-32 | "\" | """ | "&" | "<" | ">" |
#   "[" | "]" | "^" | "`" | "{" | "|" | "}" | "~" | octets 127-255.
#   An URN ends at the first excluded character.  The repertoire is the rest
#   of printable ASCII.
RFC2141_REPERTOIRE = RFC2141_TRANS_CHARS + "%"

# --- Seed 002 (draft-ietf-urnbis-rfc2141bis-urn-03, 2012) section 2 --------
#   NID = (ALPHA / DIGIT) 0*30(ALPHA / DIGIT / "-") (ALPHA / DIGIT)  (2.1)
DRAFT2012_NID = RFC8141_NID
#   NSS = 1*pchar                                                   (2.2)
DRAFT2012_NSS = f"(?:[{PCHAR_CHARS}]++|{PCT_ENCODED})++"
#   keywd = ALPHA *( ["-"] (ALPHA / DIGIT) )                       (2.3)
DRAFT2012_KEYWD = f"[{ALPHA}](?:-?[{ALPHANUM}])*+"
#   v-pchar = unreserved / pct-encoded / v-subdels
#   v-subdels = "!" / "$" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
#             / ":" / "@" / "/" / "?"          (sub-delims except "&")
DRAFT2012_VPCHAR_CHARS = UNRESERVED_CHARS + "!$'()*+,;=:@/?"
#   directive = keywd "=" value ; value = *v-pchar
DRAFT2012_DIRECTIVE = f"{DRAFT2012_KEYWD}=(?:[{DRAFT2012_VPCHAR_CHARS}]++|{PCT_ENCODED})*+"
#   urn-query = directive *( "&" directive )
DRAFT2012_QUERY = f"{DRAFT2012_DIRECTIVE}(?:&{DRAFT2012_DIRECTIVE})*+"
#   URI = scheme ":" path-rootless [ "?" query ] [ "#" fragment ]
#   with path-rootless = urn-path = NID ":" NSS (single segment, no "/")
DRAFT2012_URN = (
    f"(?P<scheme>[Uu][Rr][Nn]):(?P<nid>{DRAFT2012_NID}):(?P<nss>{DRAFT2012_NSS})"
    f"(?:\\?(?P<q>{DRAFT2012_QUERY}))?+"
    f"(?:#(?P<f>{RFC8141_F_COMPONENT}))?+"
)
#   Section 2.5.3: excluded = CTL / SP / DQUOTE / "#" / "%" / "/" / "<" /
#   ">" / "?" / "[" / "\" / "]" / "^" / "`" / "{" / "|" / "}" / DEL / non-ASCII
#   -- for the NSS; "?" and "#" then introduce the query and fragment.
DRAFT2012_REPERTOIRE = PCHAR_CHARS + "/?#%"

# --- Seed 004 (draft-ietf-uri-urn-syntax-00, 1995) section 2 ---------------
#   A URN is "SchemeID:ElementID" after the "URN:" of the wrapper; encoding
#   follows the URL rules of RFC 1738 section 2.2.  SchemeIDs are
#   identifiers (RFC 1738 scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]).
DRAFT1995_SCHEMEID_CHARS = ALPHANUM + r"+.\-"
DRAFT1995_SCHEMEID = f"[{ALPHANUM}][{DRAFT1995_SCHEMEID_CHARS}]*+"
#   ElementID: RFC 1738 uchar / reserved, but "#" and "?" are reserved for
#   future use and ">" closes the wrapper (section 2.2).
#   RFC 1738: unreserved = alpha | digit | safe | extra ;
#   safe = "$" | "-" | "_" | "." | "+" ; extra = "!" | "*" | "'" | "(" | ")" | ","
#   reserved = ";" | "/" | "?" | ":" | "@" | "&" | "="
DRAFT1995_ELEMENT_CHARS = ALPHANUM + r"$\-_.+!*'(),;/:@&="
DRAFT1995_ELEMENTID = f"(?:[{DRAFT1995_ELEMENT_CHARS}]++|{PCT_ENCODED})++"
DRAFT1995_URN = (
    f"(?P<scheme>[Uu][Rr][Nn]):(?P<nid>{DRAFT1995_SCHEMEID}):(?P<nss>{DRAFT1995_ELEMENTID})"
)
DRAFT1995_REPERTOIRE = DRAFT1995_ELEMENT_CHARS + "%#?"
#   White space (Space, Tab, CR, LF) is allowed but not significant.
DRAFT1995_WHITESPACE = " \t\r\n"


# --- the character classes as sets ---------------------------------------
def char_set(char_class: str) -> frozenset:
    r"""The characters a character-class body admits, as a set (rfc3986
    derives its sets from its strings the same way): ``"A-Za-z"`` is the 52
    letters, ``"\-._~"`` four punctuation characters -- a backslash escapes
    the next character, a "-" between two characters makes a range.

    >>> sorted(char_set(SUB_DELIMS_CHARS)) == sorted("!$&'()*+,;=")
    True
    >>> sorted(char_set(r"a-c\-"))
    ['-', 'a', 'b', 'c']
    """
    out = set()
    i, n = 0, len(char_class)
    while i < n:
        low, i = _class_char(char_class, i)
        if i + 1 < n and char_class[i] == "-":
            high, i = _class_char(char_class, i + 1)
            out.update(map(chr, range(ord(low), ord(high) + 1)))
        else:
            out.add(low)
    return frozenset(out)


def _class_char(char_class: str, i: int):
    if char_class[i] == "\\":
        return char_class[i + 1], i + 2
    return char_class[i], i + 1
