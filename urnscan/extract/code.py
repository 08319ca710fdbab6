"""Code awareness: templates, placeholders, string concatenation and
regular expressions make text that looks like an URN something else.

A careful reader of code sees ``'urn:example:seq:%d' % n``,
``"urn:x:" + id``, `` `urn:x:${id}` `` and ``/urn:ietf:id:(\\S+)/`` as the
pieces of a name that the program builds or matches, not as a name.
"""
from __future__ import annotations

from ..lazyre import LazyPattern
from .chars import ALNUM, LITERAL_PREFIX, line_start


#: printf and SQL placeholders: "%s", "%5.2f", "%(name)s", "%1$s", "%02d",
#: C's length modifiers ("%lu", "%08lx", "%zu"), Go's verbs ("%v", "%+v",
#: "%q", "%T") -- but never a percent-encoding ("%2F", RFC 3986 section 2.1)
_PRINTF = LazyPattern(rb"%(?:\([A-Za-z_][A-Za-z0-9_]*\)|[0-9]+\$)?[-+ #0]*[0-9]*(?:\.[0-9]+)?"
                      rb"(?:hh|h|ll|l|L|q|j|z|t)?[sdifuxXoeEgGcrvqTtpbS]")
_PCT = LazyPattern(rb"%[0-9A-Fa-f]{2}")
_WIDTH = LazyPattern(rb"%0[1-9](?:hh|h|ll|l|z|j|t)?[dxXsuo]")
#: Erlang's io_lib:format directives: "~s", "~ts", "~p", and any with a
#: field width or precision ("~8.16.0b", "~.16b")
_ERLANG_FORMAT = LazyPattern(rb"~t?[spw](?![A-Za-z0-9])|~[0-9]*\.[0-9]*(?:\.[0-9]*)?[A-Za-z]|~[0-9]+[A-Za-z]")
#: shell, Perl, PHP and template-engine variables: "$name", "$1" where a
#: part of the name starts ("urn:isbn:$isbn", "item-$id"), "${x}",
#: "$(cmd)", "@VERSION@" (autoconf substitutions); a "$" after a letter
#: or digit is a character of the name (RFC 3615's "urn:swift:type:fin$103",
#: RFC 8141 section 2's sub-delims)
_VARIABLE = LazyPattern(rb"(?<![A-Za-z0-9])\$[A-Za-z_0-9]|\$[{(]|@[A-Za-z_][A-Za-z0-9_]*@")
_BRACED_VARIABLE = LazyPattern(rb"\$[{(]")
#: a fragment that is a JSON Pointer (RFC 6901 section 6: "#/$defs/bar")
#: names members, and JSON Schema's keywords start with "$" (draft 2020-12
#: section 8.2.4: "$defs"): a "$" that starts one of its reference tokens
#: is the member's name, not a variable (but "${x}", "$(cmd)" still are)
_POINTER_START = b"#/"
#: a word between asterisks for a part of the name, as documentation marks
#: up what the reader fills in (Markdown's or AsciiDoc's emphasis:
#: "urn:pubid:...:rng:*information-type*.rng:*version*"): the part starts
#: and ends at the name's delimiters
_STARRED_WORD = LazyPattern(rb"(?<![^:/.=])\*[A-Za-z][A-Za-z0-9_-]*\*(?![^:/.])")
#: regular-expression syntax inside the run: ".*", ".+", "(?P<", "(?:"
_REGEX_INSIDE = LazyPattern(rb"\.[*+]|\(\?")
#: a pattern of EPCs, a name of RFC 5134's namespace: GS1's EPC Tag Data
#: Standard writes "*" for any value of a component in its EPC Pure
#: Identity Pattern URI (``urn:epc:idpat:sgtin:0614141.112345.*``) and its
#: EPC Tag Pattern URI (``urn:epc:pat:sgtin-96:3.0614141.112345.*``)
_EPC_PATTERN = LazyPattern(rb"[Uu][Rr][Nn]:[Ee][Pp][Cc]:(?:idpat|pat):")
#: an escape right after the run: "\d", "\w", "\S", "\.", "\(" ...
_REGEX_ESCAPE = frozenset(b"dDwWsSbB.*+?|^$")  # not brackets: troff's "\\[dq]", "\\(lq" are quotes
#: ... but "\(" before what no troff character name starts with (its
#: names are two letters or digits, "\(lq", "\(12"): "\([A-z0-9]+,"
_ESCAPED_PARENTHESIS = LazyPattern(rb"\((?![A-Za-z0-9]{2})")
#: ... and roff's escapes that begin as a regular expression's do: a
#: defined string ("\*(C'", the closing quote pod2man writes after a
#: C<...> code span; "\*[name]") and a size change ("\s-1", "\s0")
#: (groff(7), "Escape sequences")
_ROFF_ESCAPE = LazyPattern(rb"\*(?:\([!-~]{2}|\[[!-~]{1,32}\])|s[-+]?[0-9]")
#: Perl's match, substitution and transliteration operators right before
#: the URN, their delimiter last ("s/", "qr{", "m#", "=~ /")
_PERL_DELIMITERS = frozenset(b"/{#|!")
_PERL_OPERATOR = LazyPattern(rb"(?:(?<![A-Za-z0-9_$@%&])(?:s|m|qr|tr|y)|[=!]~[ \t]*)[/{#|!]\Z")
#: an RFC's citation of a reference ("[RFC4791]", "[I-D.ietf-x-y]",
#: "[W3C.REC-xml-20081126]", RFC 7322 section 4.8.6)
_CITATION = LazyPattern(rb"\[(?:RFC[0-9]{1,5}|BCP[0-9]{1,4}|STD[0-9]{1,4}|I-D\.[A-Za-z0-9.-]+|[A-Z][A-Z0-9]+\.[A-Za-z0-9.-]+)\]")
#: what starts a placeholder or a pattern right after the run:
#: "{x}", "${x}", "#{x}", "[0-9]", "[x]"
_OPEN_AFTER = frozenset(b"{[")
_AFTER_TEMPLATE = frozenset(b"{[<")
#: code highlighted by Pygments (Sphinx's HTML): a string's interpolation,
#: "%s" or "{}", is a span of the class "si" (String.Interpol)
_HIGHLIGHTED_INTERPOLATION = b'</span><span class="si">'
#: a regular expression's character class after a name's letter or digit:
#: a range ("97[89][0-9]{10}", "[a-fA-F]"), a negation ("[^:]"), or a
#: quantifier or another class after it ("[xX]?", "[89][")
_CHARACTER_CLASS = LazyPattern(rb"\[(?:\^|[^\]\s]{0,40}?[A-Za-z0-9]-[A-Za-z0-9]|[^\]\s]{1,40}\][*+?{\[])")
#: a footnote's reference in Markdown (GitHub's, PHP Markdown Extra's):
#: "[^" and a label of letters, digits, "-" and "_" -- where a negated
#: class of a pattern holds a mark or an escape ("[^:]", "[^\\s]") -- and no
#: quantifier after the "]"
_FOOTNOTE = LazyPattern(rb"\[\^[A-Za-z0-9][A-Za-z0-9_-]{0,31}\](?![*+?{])")
#: the text ends where a template's "<nss>" begins
_TEMPLATE_LAST = frozenset(b":/=-(")
#: a run ending in one of these ends a value of a list: what follows opens the next
_SEPARATOR_LAST = frozenset(b",;")
#: a TeX control word ("\thesisurn", LaTeX3's "\g_x_tl") or a roff font
#: change ("\fI"): two letters at least, not a one-letter escape of a
#: string ("\n", "\t") nor roff's "\-" and "\(hy"
_CONTROL_WORD = LazyPattern(rb"\\[A-Za-z][A-Za-z_@]")
#: ... and only after these: a "/" that a macro follows ends a URL's path
#: ("https://xmpp.org/protocols/urn:xmpp:time/\MessageBreak" in a LaTeX
#: message), not a name that the macro goes on with
_MACRO_AFTER = frozenset(b":-=")
#: "<" escaped ("&lt;", "&#60;", "&#x3c;") before a placeholder's name
_ESCAPED_PLACEHOLDER = LazyPattern(rb"&(?:lt|#0*60|#[xX]0*3[cC]);[A-Za-z0-9_]")

#: a keyword of SPARQL that starts what follows a triple pattern's "."
#: inside a group graph pattern (SPARQL 1.1 Query section 19.8, rules
#: GroupGraphPatternSub and GraphPatternNotTriples: FILTER, OPTIONAL,
#: BIND, GRAPH, MINUS, SERVICE, VALUES), or a SPARQL-style directive of
#: Turtle 1.1 (section 6.5, sparqlPrefix and sparqlBase: PREFIX, BASE);
#: keywords match in any case (SPARQL 1.1 section 19.3, Turtle 1.1
#: section 6.5).  After " ." it is no operand of PHP's or Perl's
#: concatenation: ``?s dc:id "urn:example:a" . FILTER(?s != ?o)`` ends a
#: triple pattern, and the quoted name is whole
SPARQL_KEYWORD = rb"(?i:FILTER|OPTIONAL|BIND|GRAPH|MINUS|SERVICE|VALUES|PREFIX|BASE)(?![A-Za-z0-9_.:-])"

#: string concatenation after a closing quote: "+" (Python, Java, JS, C#),
#: "++" (Erlang, Haskell),
#: ".." (Lua), "." before a variable, or after a blank (a sentence's
#: period follows the quote) and before a name, a call or a string that
#: goes on with the name -- on the same line or the next (PHP, Perl; a
#: string opening with markup, "'</id>'", closes an element the URN
#: was complete in; a prefixed name is no operand: " ." ends a Turtle or
#: N3 statement, "ns5:cts_urn" starts the next, and so does a keyword of
#: SPARQL or Turtle: SPARQL_KEYWORD), "||" after a single
#: quote (SQL's strings; after a double quote it is C's, Java's or Go's
#: logical OR), the "concat" method of JavaScript's and Java's strings;
#: also Python's "%" formatting operator, and a variable right after the
#: quote (a shell word: ``URN="urn:li:person:"$ID``)
CONCATENATION = (rb"(?:\$[A-Za-z_{(]|[ \t]*(?:\+\+?(?!\+)|\.\.(?!\.)|\.[ \t]*\$|\.concat[ \t]*\(|(?<=')[ \t]*\|\|"
                 rb"|%[ \t]*[(A-Za-z_])"
                 rb"|[ \t]+\.[ \t]*(?:\r\n?|\n)?[ \t]*(?:(?![A-Za-z_][A-Za-z0-9_.-]*:(?!:))(?!" + SPARQL_KEYWORD + rb")"
                 rb"[A-Za-z_($]|['\"][^<\s'\"]))")
_CONCATENATION = LazyPattern(CONCATENATION)


#: the characters without which :func:`has_placeholder` finds none
MAY_HOLD_PLACEHOLDER = LazyPattern(rb"[%$@~*]|##")


def has_placeholder(text: bytes) -> bool:
    """A format or interpolation placeholder inside the text, or digits
    written as a run of "#" ("urn:ietf:rfc:####").  Letters written for
    digits or for a part of the name are no placeholder here
    ("urn:uuid:xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx",
    "urn:isbn:978-4-XXXX-YYYY-Z", "urn:xmpp:ShortName:0"): such a name is
    well-formed as written, and reported as written; its namespace's
    checks say what is wrong with it (``isbn-malformed``, ``uuid-malformed``)."""
    if b"##" in text:
        return True
    if b"%" in text:
        for m in _PRINTF.finditer(text):
            if not _PCT.match(text, m.start()) or _WIDTH.match(text, m.start()):
                return True
        if text.endswith(b"%") or text.endswith(b"%'"):
            return True  # a SQL LIKE wildcard ("LIKE 'urn:uuid:%'", "LIKE '%urn:uuid:%'")
    if b"*" in text and _STARRED_WORD.search(text) is not None:
        return True
    if b"~" in text and _ERLANG_FORMAT.search(text) is not None:
        return True
    if text[:8].lower() == b"urn:lex:":
        # RFC 9676 section 3.2: "$" introduces a URN:LEX's manifestation
        # ("...;22$text-html"), "@" its expression
        return _BRACED_VARIABLE.search(text) is not None
    if b"$" not in text and b"@" not in text:
        return False
    fragment = text.find(b"#")
    pointer = fragment if text.startswith(_POINTER_START, fragment) else len(text)
    for m in _VARIABLE.finditer(text):
        at = m.start()
        if at > pointer and text[at - 1] == 0x2F and text[at] == 0x24 and text[at + 1] not in b"{(":
            continue  # "urn:uuid:...#/$defs/bar": a member of the pointer's object
        return True
    return False


def epc_pattern(text: bytes) -> bool:
    """Whether ``text`` is a pattern of EPCs (:data:`_EPC_PATTERN`), whose
    ``*`` components are its registered syntax, neither a wildcard of a
    pattern of names nor a regular expression's ``.*``."""
    return _EPC_PATTERN.match(text) is not None


def is_pattern(buf: bytes, p: int, lo: int, text: bytes, end: int, hi: int) -> bool:
    """Regular-expression syntax in or around the candidate at p whose text
    ends at ``end``: an anchor "^" before it, ".*", "(?" inside, an escape
    right after it, a "$" anchor before a closing quote or slash, or a
    JavaScript regular-expression literal holding it."""
    if p > lo:
        before = buf[p - 1]
        if before == 0x5E and not _component_separator(buf, p - 1, lo):
            return True  # "^urn:..."
        if before == 0x3A and p - 3 >= lo and buf[p - 3:p] == b"(?:":
            return True  # "(?:urn:..."
        if before in _PERL_DELIMITERS and _PERL_OPERATOR.search(buf, max(lo, p - 8), p) is not None:
            return True  # "s/urn:ietf:params:xml:/ietf:/", "$ns =~ /urn:.../"
        if before == 0x2F and regex_literal_at(buf, p, lo, end, hi):
            return True  # "/urn:uuid:/i.test(s)", "{P: /urn:mpeg:dash:state:/,"
    if (b".*" in text or b".+" in text or b"(?" in text) and _REGEX_INSIDE.search(text) and not epc_pattern(text):
        return True
    if end + 1 < hi and buf[end] == 0x5C:
        k = end + 2 if buf[end + 1] == 0x5C else end + 1  # "\\." as a string literal writes the escape "\."
        if (k < hi and (buf[k] in _REGEX_ESCAPE or (buf[k] == 0x28 and _ESCAPED_PARENTHESIS.match(buf, k, hi)))
                and _ROFF_ESCAPE.match(buf, k, min(hi, k + 36)) is None):
            return True
    last = text[-1]
    if last == 0x24 and (end >= hi or buf[end] in b"'\"/)"):
        return True  # "...$'": an anchor
    return last == 0x28  # a group opened: "urn:ietf:id:(\\S+)"


def _component_separator(buf: bytes, c: int, lo: int) -> bool:
    """Whether the "^" at c separates the components of an HL7 v2 field
    (HL7 v2.5 section 2.5.4: ``12345^^^urn:oid:2.16.840.1.113883.19.5^ISO``)
    rather than anchoring a pattern: another "^", or a letter or digit,
    comes right before it, where no pattern has an anchor; or the "|"
    opening the field, on a line that starts as a segment does (``PID|``:
    a three-character segment ID, section 2.5.2)."""
    if c <= lo:
        return False
    before = buf[c - 1]
    if before == 0x5E or before in ALNUM:
        return True
    if before != 0x7C:
        return False
    ls = line_start(buf, c)
    return ls is not None and ls >= lo and _SEGMENT_START.match(buf, ls, c) is not None


#: an HL7 v2 segment's ID and the field separator after it (HL7 v2.5 section 2.5.2)
_SEGMENT_START = LazyPattern(rb"[A-Z][A-Z0-9]{2}\|")


#: where ECMAScript reads a "/" as the start of a regular-expression
#: literal rather than a division (ECMA-262 section 12.9.5, "Regular
#: Expression Literals": after a punctuator, not after an operand)
_REGEX_LITERAL_AFTER = frozenset(b"(,=:[!&|?{};")
#: a literal's flags (ECMA-262 section 22.2.3.1) and what may follow it:
#: a method call, a separator, a closing bracket or the end of the line
_REGEX_FLAGS = LazyPattern(rb"[dgimsuvy]{0,8}(?:[.,;)\]}\r\n]|\Z)")
#: how far back the punctuator before the literal is looked for
_PUNCTUATOR_REACH = 16


def regex_literal_at(buf: bytes, p: int, lo: int, end: int, hi: int) -> bool:
    """Whether the "/" before ``urn:`` at p opens a JavaScript
    regular-expression literal: a punctuator before it (blanks between),
    and a "/" closing it in the run, at ``end`` at the latest, flags and a
    separator after that (``/urn:uuid:/i.test(s)``,
    ``PREFIX: /urn:mpeg:dash:state:/,``).  A path (``see /urn:x:y/``) or a
    URL's (``http://h/urn:x:y/``) has a word before its "/"."""
    floor = max(lo, p - 1 - _PUNCTUATOR_REACH)
    k = _blanks_back(buf, p - 2, floor)
    if k < floor or buf[k] not in _REGEX_LITERAL_AFTER:
        return False
    close = buf.find(b"/", p, min(hi, end + 1))
    return close >= 0 and _REGEX_FLAGS.match(buf, close + 1, hi) is not None


def is_template(buf: bytes, text: bytes, end: int, hi: int) -> bool:
    """``urn:ietf:params:xml:ns:yang:{module}``, ``urn:foo:<nss>``,
    ``urn:alert:source:[x]``: a placeholder follows the text, also written
    as markup escapes it (``urn:xmpp:jingle:apps:&lt;app&gt;`` in XML or
    HTML source), or as a TeX macro or a roff font change that the rest of
    the name stands in, after ``:``, ``-`` or ``=``
    (``urn:nbn:de:tuda-tuprints-\\g_thesis_urn_tl``,
    ``urn:ietf:params:xml:ns:yang:\\fImodule\\fR``).  An end tag (``</id>``)
    or a comment after it is markup, not a placeholder."""
    if end >= hi:
        return False
    after = buf[end]
    if after == 0x26:  # "&"
        m = _ESCAPED_PLACEHOLDER.match(buf, end, min(hi, end + 16))
        return m is not None and text[-1] in _TEMPLATE_LAST
    if after == 0x5C:  # "\"
        return text[-1] in _MACRO_AFTER and _CONTROL_WORD.match(buf, end, min(hi, end + 3)) is not None
    if after not in _AFTER_TEMPLATE:
        return False
    if (after in _OPEN_AFTER and text[-1] in _SEPARATOR_LAST
            and _CHARACTER_CLASS.match(buf, end, min(hi, end + 64)) is None):
        # "...:3:1-114513,[],lat", "urn:x:a,{...}": a bracket or brace after
        # the "," or ";" that ends the run opens the next value of a record
        # or an array (RFC 4180 section 2, RFC 8259 section 5), not a
        # placeholder, which stands where a part of the name goes, after
        # ":", "-", "=" or inside a word; the separator is then trimmed as
        # any other (RFC 3986 section 2.2: a sub-delim that ends a name in
        # text delimits it); a character class there is still a pattern's
        return False
    if after == 0x5B:
        if _CITATION.match(buf, end, min(hi, end + 64)) is not None:
            return False  # "urn:ietf:params:xml:ns:caldav[RFC4791]": a reference cited, no placeholder
        if (text[-1] not in _TEMPLATE_LAST and buf[end + 1:end + 2].isalnum()
                and _CHARACTER_CLASS.match(buf, end, min(hi, end + 64)) is None):
            return False  # "...:1-2020[URN]", an AsciiDoc link's text; "...:0451450523[3]", a footnote's mark
        if text[-1] not in _TEMPLATE_LAST and _FOOTNOTE.match(buf, end, min(hi, end + 64)) is not None:
            return False  # "urn:example:a[^1]": a Markdown footnote's reference, not a negated class
    if after in _OPEN_AFTER:
        return True
    if after == 0x3C and text[-1] in _TEMPLATE_LAST:
        if buf.startswith(_HIGHLIGHTED_INTERPOLATION, end, hi):
            return True  # Pygments' "si" class: "'urn:x:</span><span class="si">%s</span>'"
        return end + 1 >= hi or buf[end + 1] not in b"/!"
    return False


def concatenated(buf: bytes, closer_at: int, hi: int, opener_at: int = -1) -> bool:
    """Whether the quoted string that closes at ``closer_at`` (opened at
    ``opener_at``, when known) is followed by a concatenation or formatting
    operator, and so goes on with what is concatenated: not when that is a
    literal whose text cannot go on with it (:data:`_WHOLE_BEFORE`)."""
    if closer_at + 1 >= hi or buf[closer_at + 1] not in _MAY_CONCATENATE:
        return False
    m = _CONCATENATION.match(buf, closer_at + 1, min(hi, closer_at + 1 + 64))
    if m is None:
        return False
    if opener_at > 0 and buf.startswith(b"||", m.end() - 2) and compared(buf, opener_at):
        return False  # "x === 'urn:a:b' || ...": a logical OR, not SQL's "||"
    return _WHOLE_BEFORE.match(buf, closer_at + 1, min(hi, closer_at + 1 + 64)) is None


#: an operator, then a string literal whose text cannot go on with the
#: one before: it starts with a blank, an escape (a line break "\n", a
#: tab, a quote: Java's, C#'s, Go's, JavaScript's, Python's string escapes)
#: or a "urn:" of its own; what is concatenated is outside the string's
#: text (``"urn:example:a" + "\n"``), which is whole
_WHOLE_BEFORE = LazyPattern(rb"[ \t]*(?:\+\+?|\.\.?|\|\|)[ \t]*(?:(?:\r\n?|\n)[ \t]*)?(?:" + LITERAL_PREFIX + rb")?"
                           rb"['\"](?:[ \t]|\\[nrt'\"]|[uU][rR][nN]:)")


#: after the quote closing a name's prefix (a literal ending in ":"): the
#: value of a call of it concatenated (``std::string("urn:x:") + id``,
#: ``str('urn:x:') + id``), or C++'s and Ruby's "<<" appending to it
#: what is no literal and no end of line
_CONTINUED_CALL = LazyPattern(rb"[ \t]*\)?[ \t]*(?:\+(?!\+)|<<(?![ \t]*(?:std::)?endl\b|[ \t]*[\"']))")
#: before the literal: the first argument of a concatenating call (Rust's
#: ``concat!(``, SQL's and Java's ``CONCAT(``), after which another
#: argument that is no literal goes on with it
_CONCAT_CALL = LazyPattern(rb"(?i:concat)!?[ \t]{0,8}\([ \t]{0,8}\Z")
_NEXT_ARGUMENT = LazyPattern(rb"[ \t]*,[ \t]*[$A-Za-z_]")


def continued_prefix(buf: bytes, opener_at: int, closer_at: int, hi: int) -> bool:
    """Whether the literal opening at ``opener_at`` and closing at
    ``closer_at``, a name's prefix, goes on outside itself with something
    that is no literal: a template of names, not a name."""
    if _CONTINUED_CALL.match(buf, closer_at + 1, min(hi, closer_at + 1 + 64)) is not None:
        return True
    return (_NEXT_ARGUMENT.match(buf, closer_at + 1, min(hi, closer_at + 1 + 64)) is not None
            and _CONCAT_CALL.search(buf[max(0, opener_at - 24):opener_at]) is not None)


#: how far back a comparison before a literal is looked for (blanks and
#: one line break between)
_COMPARISON_REACH = 64


def compared(buf: bytes, q: int) -> bool:
    """Whether a comparison "==", "===", "!=" or "!==" stands before the
    literal opening at q: the literal is then an operand of C's, Java's,
    JavaScript's or PHP's comparison, and an "||" after it their logical
    OR (SQL compares with "=" and "<>", and its "||" binds tighter)."""
    floor = max(0, q - _COMPARISON_REACH)
    k = _blanks_back(buf, q - 1, floor)
    if k >= floor and buf[k] == 0x0A:
        k -= 1
    if k >= floor and buf[k] == 0x0D:
        k -= 1
    k = _blanks_back(buf, k, floor)
    return k - 1 >= floor and buf[k] == 0x3D and buf[k - 1] in b"=!"


def _blanks_back(buf: bytes, k: int, floor: int) -> int:
    """The index of the last byte at or before k, not before ``floor``,
    that is not a space or a tab (``floor - 1`` when there is none)."""
    while k >= floor and buf[k] in b" \t":
        k -= 1
    return k


#: what may follow a closing quote in a concatenation
_MAY_CONCATENATE = frozenset(b" \t+.|%$")
