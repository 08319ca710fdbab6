"""Where a run of URN characters holds more than one URI.

* A comma right before ``urn:`` or before a URL's ``scheme://`` separates
  the items of a list (``profiles="urn:mpeg:dash:profile:isoff-live:2011,
  urn:com:dashif:dash264"``, a DASH manifest; ``Accept`` and ``Link``
  headers): RFC 8141 section 2 lets an NSS hold ``,`` but not a second
  ``urn:`` scheme after one in a list.  A comma before a name that is not
  a scheme stays (``urn:ogc:def:crs,crs:EPSG::4326,crs:EPSG::5714``, OGC's
  compound references).  So does a ``&`` right before ``urn:``
  (``scope="urn:example:channel=HBO&urn:example:rating=G,PG-13"``, RFC
  6750 section 3): a q-component's parameters are ``name=value``.  A
  ``;`` right before ``urn:`` separates items too
  (``urn:isbn:0451450523;urn:isbn:0451450524``, a catalogue's list; a
  URN:LEX's ``;`` before a number stays, RFC 9676), and so does a ``/``
  right before ``urn:``: the steps of a path of qualified names, an
  XPath over a namespace's elements (``/urn:ietf:params:xml:ns:caldav:
  calendar-query/urn:ietf:params:xml:ns:caldav:filter/*``, CalDAV's
  RFC 4791 names) or a node named after two namespaces (XEP-0470's
  ``urn:xmpp:pubsub-attachments:1/urn:xmpp:microblog:0``).  RFC 8141
  section 2 lets an NSS hold ``/``, but a second ``urn:`` scheme there is
  another name, as after ``,``.  A URL's percent-encoding right before
  ``urn:`` separates them as well (``scope=urn:a:b%20urn:c:d``, an OAuth
  scope list's encoded blanks; ``%2C``, an encoded comma): the encoding
  is the URL's, around names written as they are; and so does a ``+``
  right before a URL's ``scheme://`` (a form-encoded blank between the
  pairs of an ``xsi:schemaLocation``: ``urn:...:Invoice-2+http://...xsd``).
  A word between two ``#`` right before ``urn:`` joins the identifiers of
  an e-invoice's specification identifier (EN 16931-1, BT-24: the core,
  then ``#compliant#`` and a CIUS, then ``#conformant#`` and an
  extension: ``urn:xoev-de:kosit:standard:xrechnung_2.3#conformant#urn:
  xoev-de:kosit:extension:xrechnung_2.3``): RFC 3986 section 3.5 lets a
  fragment hold no ``#``, and the word is no part of either name.
* A URN written as OpenSSL's ``URI:`` entry of a certificate's
  subjectAltName ends at the ``,`` before the next entry's type
  (``subjectAltName = URI:urn:example:opcua:server,DNS:localhost``: OPC UA
  puts a server's ApplicationUri there, OPC 10000-6 section 6.2.2): the
  value is a comma-separated list of ``type:value`` entries whose types are
  ``email``, ``URI``, ``DNS``, ``RID``, ``IP``, ``dirName`` and
  ``otherName`` (OpenSSL's x509v3_config(5), "Subject Alternative Name").
  A ``,`` before any other word stays, and so does one after a URN that no
  ``URI:`` opens.
* A URN right after a comma is a field of comma-separated values (RFC
  4180 section 2: a field holding a comma is quoted), and the next comma
  ends it: ``2,urn:isbn:0451450524,Title``; the separators above end it
  before that (``2,urn:isbn:0451450524;urn:isbn:0140289208,Title``, a
  field holding a list).
* Inside a URL (``https://h/images/urn:ard:image:aee7?w=960``), a ``?``
  that starts no RFC 8141 component (``?+``, ``?=``, section 2.3) starts the
  URL's query, and a ``/`` after the URN is the next path separator
  (``.../episode/urn:ard:episode:eabead1add170e93/``).
"""
from __future__ import annotations

from ..lazyre import LazyPattern
from .chars import LOOKBACK, RUNS, class_body
from .entity import REFERENCE_PATTERN

_LIST_ITEM = LazyPattern(rb",(?=[Uu][Rr][Nn]:|[A-Za-z][A-Za-z0-9+.-]{0,30}://)|\+(?=[A-Za-z][A-Za-z0-9+.-]{0,30}://)"
                         rb"|(?:[&;/]|%[0-9A-Fa-f]{2}|#[A-Za-z]{1,32}#)(?=[Uu][Rr][Nn]:)")
#: the next entry of OpenSSL's subjectAltName list after a "URI:" entry
_SAN_ENTRY = LazyPattern(rb",(?=(?:email|URI|DNS|RID|IP|dirName|otherName):)")
_URL_QUERY = LazyPattern(rb"\?(?![+=])")
#: a character reference ending where the text searched ends (entity.py)
_REFERENCE_END = LazyPattern(REFERENCE_PATTERN + rb"\Z")


#: how far back the comma that starts a field of comma-separated values
#: is looked for, from a later item of a list in it: within the bytes a
#: scanner keeps before a candidate, so that chunks change nothing
_FIELD_REACH = LOOKBACK
#: a URN right after a comma (the start of a field), then URN characters
#: (RFC 8141's, the widest repertoire): the first item of a list up to a
#: later one
_FIELD_START = LazyPattern(rb",[Uu][Rr][Nn]:[" + class_body(RUNS["rfc8141"]) + rb"]*\Z")


def _later_item_of_a_field(buf: bytes, p: int) -> bool:
    """Whether the URN at p follows a list separator (``;``, ``&``, ``/``,
    ...) in a field of comma-separated values: the list's first item
    starts right after a comma, within :data:`_FIELD_REACH` bytes on the
    same line (``3,urn:isbn:0451450523;urn:isbn:0140289208,Title``)."""
    if buf[p - 1] not in b";&/#" and not (p >= 3 and buf[p - 3] == 0x25):
        return False
    lo = max(0, p - _FIELD_REACH)
    comma = buf.rfind(b",", lo, p)
    return comma >= 0 and _FIELD_START.match(buf, comma, p) is not None


def list_end(buf: bytes, p: int, start: int, end: int) -> int:
    """Where the first item of a list in ``buf[start:end]`` (the NSS of the
    candidate at p on) ends, or -1."""
    if p and (buf[p - 1] == 0x2C or _later_item_of_a_field(buf, p)):
        # a field of comma-separated values: its items end before the next comma
        field_end = buf.find(b",", start, end)
        if field_end >= 0:
            end = field_end
    else:
        field_end = -1
    m = _LIST_ITEM.search(buf, start, end)
    while m is not None and buf[m.start()] == 0x3B and _REFERENCE_END.search(buf, max(start, m.start() - 10),
                                                                                m.start() + 1) is not None:
        m = _LIST_ITEM.search(buf, m.end(), end)  # the ";" of a character reference ("&amp;urn:"): entity.py reads it
    cut = field_end if m is None else m.start()
    if p >= 4 and buf[p - 4:p] == b"URI:":
        san = _SAN_ENTRY.search(buf, start, end if cut < 0 else cut)
        if san is not None:
            cut = san.start()
    return cut


#: the path segment of a repository's file URL before its identifier:
#: DSpace's ``/bitstream/<identifier>/<sequence>/<file name>`` (its
#: "bitstream" servlet; repositories that register URNs as identifiers
#: serve ``.../bitstream/urn:nbn:de:gbv:700-2017021015476/6/thesis.pdf``)
_FILE_URL_SEGMENT = b"/bitstream/"


def file_url_path_end(buf: bytes, p: int, text: bytes, start: int) -> int:
    """For a URN at ``buf[p]`` inside a URL, whose text is ``text``: the
    index in ``text`` of the "/" that ends it when the URL is a
    repository's file URL (:data:`_FILE_URL_SEGMENT` right before it; the
    sequence number and file name follow), looked for from ``start``; -1
    otherwise."""
    n = len(_FILE_URL_SEGMENT)
    if p < n or buf[p - n:p].lower() != _FILE_URL_SEGMENT:
        return -1
    return text.find(b"/", start)


def url_query_start(text: bytes, start: int) -> int:
    """The index in ``text`` of a "?" from ``start`` on that starts a URL's
    query rather than an RFC 8141 component, or -1."""
    m = _URL_QUERY.search(text, start)
    return -1 if m is None else m.start()
