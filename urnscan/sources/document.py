"""One document of an input, as the container readers (:mod:`.mail`,
:mod:`.warc`, :mod:`.zipped`, :mod:`.pdf`) hand it to
:mod:`.documents`, which opens the input and picks the reader."""
from __future__ import annotations

from typing import Callable, Iterable, Iterator, NamedTuple, Optional


class Document(NamedTuple):
    """One document of an input.

    ``id`` is None for a plain input; ``chunks`` its content (in
    ``charset``, or as its byte-order mark says); ``skipped`` the reason it
    is not scanned (then ``chunks`` is not read); ``encoded_size`` the size
    it was decoded from, when known (for the ratio limit); ``text_of``, when
    set, turns ``chunks`` into the text to scan (an office document's XML
    into its words): the ratio limit holds ``chunks``, the bytes decoded.
    """

    id: Optional[str]
    chunks: Iterable[bytes]
    charset: Optional[str] = None
    skipped: Optional[str] = None
    encoded_size: Optional[int] = None
    text_of: Optional[Callable[[Iterable[bytes]], Iterator[bytes]]] = None


_BINARY_TYPES = ("image/", "audio/", "video/", "font/")


def declared_binary(content_type: Optional[str]) -> bool:
    """Whether a declared media type says binary without a look inside."""
    return bool(content_type) and content_type.strip().lower().startswith(_BINARY_TYPES)
