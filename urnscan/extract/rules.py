"""The names of the reading rules, as they appear in a hit's ``rules``.

Each name says which rule shaped a hit, so a user who disagrees can see why
and turn the rule off (:class:`~urnscan.extract.options.Reading`).
"""
from __future__ import annotations

from enum import Enum


class Rule(str, Enum):
    """A reading rule that shaped a hit."""

    WRAP_1995 = "wrap:1995"  # <urn:...>, seed 004 section 2
    FOLD_WRAPPER = "fold:wrapper"  # white space removed inside a wrapper
    PAIR_QUOTE = "pair:quote"  # ended at the closing quote of the quote before it
    PAIR_PAREN = "pair:paren"  # ended at the ")" closing the "(" before it
    PAIR_EMPHASIS = "pair:emphasis"  # ended at the "*" or "_" closing Markdown's emphasis before it
    PAIR_DELIMITER = "pair:delimiter"  # "'#urn:...#'": ended at a regex's closing delimiter
    PAIR_ENCODED = "pair:encoded"  # "%22urn:...%22": a URL's "%XX" before it, ended at an encoded blank, quote or bracket
    FOLD_RFC = "fold:rfc"  # a line break after "-", ":", "." or "/" joined
    FOLD_BLANK = "fold:blank"  # ... across one empty line, onto a lone token
    FOLD_COLON = "fold:colon"  # a line break just before ":" joined
    FOLD_RFC8792 = "fold:rfc8792"  # "\" line wrapping, RFC 8792 section 7
    FOLD_TABLE = "fold:table"  # split over two rows of an ASCII table
    FOLD_QUERY = "fold:query"  # a query folded before "&", or after "?", "&" or "="
    FOLD_CONTENT_LINE = "fold:content-line"  # an iCalendar or vCard line, RFC 5545 section 3.1
    FOLD_LDIF = "fold:ldif"  # an LDIF line folded by a line break and one space, RFC 2849 note 2
    FOLD_ONE_LINE = "fold:one-line"  # inside <allOneLine> ... </allOneLine>, RFC 4475 section 2.1
    FOLD_LITERAL = "fold:literal"  # adjacent string literals joined (C, Python)
    FOLD_STRAY_BLANK = "fold:stray-blank"  # a blank after ":" inside a value that holds the name alone, removed
    EMBEDDED_URL = "embedded:url"  # inside a URL: ends at its "&"
    EMBEDDED_FORM = "embedded:form"  # a form-encoded value: ends at "&"
    CUT_ENTITY = "cut:entity"  # ended before "&amp;", "&#38;" ...
    DECODE_ENTITY = "decode:entity"  # "&amp;" in a q-component, "&#45;": URN characters
    DECODE_ROFF = "decode:roff-hyphen"  # roff's "\-" (a man page's hyphen) read as "-"
    DECODE_JSON = "decode:json-slash"  # a JSON string's "\/" read as "/"
    DECODE_UNDERSCORE = "decode:escaped-underscore"  # Markdown's and TeX's "\_" read as "_"
    DECODE_ESCAPED_COLON = "decode:escaped-colon"  # "urn\:x\:y" (Java properties, Lucene queries) read as "urn:x:y"
    DECODE_BREAK = "decode:break"  # "<wbr>", U+200B, U+00AD inside a name: a break opportunity, nothing
    DECODE_MARKUP = "decode:markup"  # inline tags after a ":" inside a name ("</span><span lang=x>"), or closing a word before one: nothing
    DECODE_PERCENT = "decode:percent"  # percent-encoded in a URL ("?urn=urn%3Anbn%3A..."), decoded once
    CUT_LIST = "cut:list"  # ended at a ",", ";", "&", "/" or "#word#" before another URN (a "," before a URL or an OpenSSL subjectAltName entry): a list
    CUT_URL_QUERY = "cut:url-query"  # inside a URL: ended at its query's "?"
    CUT_URL_PATH = "cut:url-path"  # a repository's file URL (".../bitstream/urn:.../1/x.pdf"): ended at the "/" after it
    CUT_SUBFIELD = "cut:subfield"  # ended at a MARC record's subfield delimiter ("$$", "$" in mnemonic text)
    CUT_PARAMETER = "cut:parameter"  # the value of ";name=" (or of an ExpandedNodeId's "nsu="): ended at the next ";name"
    TRIM_URL_SLASH = "trim:url-slash"  # inside a URL path: its "/" after the URN
    YAML_KEY = "trim:yaml-key"  # a YAML mapping key's ":" dropped
    TRIM_TERM = "trim:term"  # a definition list term's ":" dropped
    TRIM_COLON = "trim:colon"  # a sentence's ":" before an example, a QName's separator
    TRIM_PERIOD = "trim:period"
    TRIM_COMMA = "trim:comma"
    TRIM_SEMICOLON = "trim:semicolon"
    TRIM_QUOTE = "trim:quote"
    TRIM_PAREN = "trim:paren"  # an unbalanced ")"
    TRIM_MARK = "trim:mark"  # "!", "?", "*"
    TRIM_AMPERSAND = "trim:ampersand"
    TRIM_POSSESSIVE = "trim:possessive"  # an English possessive "'s"
    TRIM_COMMENT = "trim:comment"  # a comment's close right after the name: "*/", the "--" of "-->"
    TRIM_LABEL = "trim:label"  # a "URN:" label before a URN of its own: "URN:URN:dns:x:1"
    SUSPECT_LOOKALIKE = "suspect:lookalike"  # "ｕｒｎ：...": fullwidth forms, a suspected URN

    def __str__(self) -> str:
        return self.value


#: the rules that join a name's pieces across a gap (a line break, a mark,
#: an escape's backslash, the quotes between literals): a name cut short
#: before its second piece keeps none of them
JOINING = frozenset({
    Rule.FOLD_RFC, Rule.FOLD_BLANK, Rule.FOLD_COLON, Rule.FOLD_RFC8792, Rule.FOLD_TABLE, Rule.FOLD_QUERY,
    Rule.FOLD_CONTENT_LINE, Rule.FOLD_LDIF, Rule.FOLD_ONE_LINE, Rule.FOLD_LITERAL, Rule.FOLD_STRAY_BLANK,
    Rule.DECODE_ROFF, Rule.DECODE_JSON, Rule.DECODE_UNDERSCORE, Rule.DECODE_ESCAPED_COLON, Rule.DECODE_BREAK,
    Rule.DECODE_MARKUP,
})
