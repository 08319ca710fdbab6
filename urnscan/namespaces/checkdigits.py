"""Check-character algorithms of the identifier systems that URN namespaces
wrap.  Each function takes the payload *without* its check character (a
string of the right alphabet, already validated by the caller) and returns
the expected check character as a one-character string.
"""
from __future__ import annotations

import string
from itertools import accumulate
from operator import mul
from typing import Optional

_ALNUM36 = string.digits + string.ascii_uppercase
_ALNUM36_VALUE = {ch: i for i, ch in enumerate(_ALNUM36)}

# Weighted digit sums run once per distinct URN of a scan.  For ASCII digits
# they are taken over the code points in C (sum(map(mul, weights, octets)),
# or sums of slices for the alternate weights of an EAN-13) and 48 ("0")
# times the weights used is subtracted: the same integer as summing
# weight * int(digit) one digit at a time.  Anything else (other
# Unicode digits, letters) takes the digit-by-digit loop.
_ISBN10_WEIGHTS = tuple(range(10, 1, -1))
_ISSN_WEIGHTS = tuple(range(8, 1, -1))


def _ascii_digits(s: str) -> bool:
    return s.isascii() and s.isdigit()


def _weighted(weights, digits: str) -> int:
    """sum(w * int(d) for w, d in zip(weights, digits)) for ASCII digits."""
    octets = digits.encode("ascii")
    return sum(map(mul, weights, octets)) - 48 * sum(weights[:len(octets)])


def _mod11(weights, digits: str) -> str:
    """Modulus 11 over descending weights, "X" for 10 (ISBN-10 and ISSN)."""
    if _ascii_digits(digits):
        total = _weighted(weights, digits)
    else:
        total = sum(weight * int(d) for weight, d in zip(weights, digits))
    value = (11 - total % 11) % 11
    return "X" if value == 10 else str(value)


def isbn10_check(first9: str) -> str:
    """ISBN-10: modulus 11, weights 10 down to 2, "X" for 10 (ISO 2108:1992;
    IANA isbn template v2, "Syntax")."""
    return _mod11(_ISBN10_WEIGHTS, first9)


def isbn13_check(first12: str) -> str:
    """ISBN-13 (an EAN-13): modulus 10, alternate weights 1 and 3 (ISO 2108;
    IANA isbn template v2, "Rules for Lexical Equivalence")."""
    if _ascii_digits(first12):
        # weight 1 at even indexes and 3 at odd ones: every digit once and
        # the odd ones twice more, summed over the code points in C
        octets = first12.encode("ascii")
        odd = octets[1::2]
        total = sum(octets) + 2 * sum(odd) - 48 * (len(octets) + 2 * len(odd))
    else:
        total = sum((1 if i % 2 == 0 else 3) * int(d) for i, d in enumerate(first12))
    return str((10 - total % 10) % 10)


def issn_check(first7: str) -> str:
    """ISSN: modulus 11 with weights 8 down to 2, "X" for 10 (ISO 3297;
    IANA issn template, "Syntax")."""
    return _mod11(_ISSN_WEIGHTS, first7)


def iso7064_mod11_2(digits: str) -> str:
    """ISO/IEC 7064 MOD 11-2, the ISNI check character (ISO 27729; IANA isni
    template)."""
    total = 0
    for d in digits:
        total = (total + int(d)) * 2
    value = (12 - total % 11) % 11
    return "X" if value == 10 else str(value)


def iso7064_mod37_36(chars: str) -> str:
    """ISO/IEC 7064 MOD 37,36 (hybrid system), the ISAN check character
    (RFC 4246 §3) and the EIDR one (RFC 7972 §2).  ``chars`` are digits and
    upper-case letters."""
    modulus = 36
    product = modulus
    values = _ALNUM36_VALUE
    for ch in chars:
        value = values.get(ch)
        if value is None:
            value = _ALNUM36.index(ch)  # raises as before for a character outside the alphabet
        remainder = (product + value) % modulus or modulus
        product = remainder * 2 % (modulus + 1)
    return _ALNUM36[(modulus + 1 - product) % modulus]


# German National Library (DNB) check digit for urn:nbn:de (namespaces.md §4;
# a validation heuristic, not part of RFC 8458).  Each character maps to a
# code; codes are concatenated as digit strings.
_DNB_CODES = {
    **dict(zip("0123456789", ("1", "2", "3", "4", "5", "6", "7", "8", "9", "41"))),
    **{letter: str(code) for letter, code in zip(
        string.ascii_uppercase,
        (18, 14, 19, 15, 16, 21, 22, 23, 24, 25, 42, 26, 27,
         13, 28, 29, 31, 12, 32, 33, 11, 34, 35, 36, 37, 38))},
    ":": "17", "-": "39", "_": "43", "/": "45", ".": "47",
}


def dnb_urn_check(urn_without_check: str) -> Optional[str]:
    """The DNB check digit of a whole ``urn:nbn:de:...`` string (including
    the ``urn:nbn:de:`` part, excluding the final check digit).

    Returns ``None`` when a character has no code in the DNB table (e.g. a
    ``%`` of percent-encoding): the algorithm is then undefined.
    """
    octets = _dnb_coded(urn_without_check)
    if not octets:
        return None  # a character without a code, or no character
    last = _DNB_UNITS[octets[-1]]  # the last code digit; no code ends in 0
    # sum(position * int(d)) over the code digits, positions from 1, by
    # character: a code's units digit stands at the position q that the
    # lengths of the codes up to it add up to, its tens digit (0 for a
    # one-digit code) at q - 1, so the sum is
    # sum(q * (tens + units)) - sum(tens), every step over bytes in C
    weighted = (sum(map(mul, accumulate(octets.translate(_DNB_LENGTHS)), octets.translate(_DNB_DIGIT_SUMS)))
                - sum(octets.translate(_DNB_TENS)))
    return str(weighted // last % 10)


def dnb_checkable(urn_without_check: str) -> bool:
    """Whether :func:`dnb_urn_check` is defined for the string: every
    character has a code in the DNB table."""
    return _dnb_coded(urn_without_check) is not None


def _dnb_coded(text: str) -> Optional[bytes]:
    """``text`` upper-cased (as the DNB table is written) as bytes, or None
    when a character of it has no code."""
    upper = text.upper()
    if not upper.isascii():
        return None
    octets = upper.encode("ascii")
    return None if octets.translate(None, _DNB_CHARACTERS) else octets


def _dnb_table(of_code) -> bytes:
    """A 256-byte table: ``of_code(code)`` for each character of the DNB
    table, 0 elsewhere."""
    table = bytearray(256)
    for ch, code in _DNB_CODES.items():
        table[ord(ch)] = of_code(code)
    return bytes(table)


_DNB_CHARACTERS = bytes(sorted(map(ord, _DNB_CODES)))
_DNB_LENGTHS = _dnb_table(len)
_DNB_TENS = _dnb_table(lambda code: int(code[-2]) if len(code) == 2 else 0)
_DNB_UNITS = _dnb_table(lambda code: int(code[-1]))
_DNB_DIGIT_SUMS = _dnb_table(lambda code: sum(map(int, code)))
