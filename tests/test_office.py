"""Office documents in zip containers are read as their text: a URN the
word processor split over runs is found whole (urnscan.sources.office)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urnscan.runner import ScanConfig, scan_input
from urnscan.sources import InputRef
from urnscan.sources.office import APART, Flavor, flavor_of, office_text

from .container_fixtures import zip_bytes

ISBN = "urn:isbn:9780451450524"
W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _text(xml: str, flavor: Flavor, chunk: int = 1 << 16) -> str:
    data = xml.encode("utf-8")
    return b"".join(office_text([data[i:i + chunk] for i in range(0, len(data), chunk)], flavor)).decode()


TEXT_TABLE = [
    # (XML, flavour, text)
    (f'<w:document {W}><w:body><w:p><w:r><w:t>See urn:isbn:</w:t></w:r><w:proofErr w:type="spellStart"/>'
     f'<w:r><w:rPr><w:b/></w:rPr><w:t>9780451450524</w:t></w:r><w:r><w:t xml:space="preserve">. Next</w:t></w:r>'
     f'</w:p><w:p><w:r><w:t>two</w:t></w:r></w:p></w:body></w:document>',
     Flavor.WORDPROCESSING, f"See {ISBN}. Next\ntwo\n"),
    # a non-breaking hyphen inside a URN
    ('<w:document><w:p><w:r><w:t>urn:isbn:978</w:t><w:noBreakHyphen/><w:t>0451450523</w:t></w:r></w:p>'
     '</w:document>', Flavor.WORDPROCESSING, "urn:isbn:978-0451450523\n"),
    # field codes, breaks and tabs; deleted text is not text
    ('<w:document><w:p><w:r><w:instrText> HYPERLINK "urn:ietf:rfc:8141" </w:instrText></w:r>'
     '<w:r><w:t>a</w:t><w:tab/><w:t>b</w:t><w:br/><w:t>c</w:t></w:r>'
     '<w:del><w:r><w:delText>urn:isbn:0451450523</w:delText></w:r></w:del></w:p></w:document>',
     Flavor.WORDPROCESSING, ' HYPERLINK "urn:ietf:rfc:8141" a\tb\nc\n'),
    # attribute values with "urn:" come after their paragraph, set apart
    ('<w:document xmlns:o="urn:schemas-microsoft-com:office:office"><w:p><w:r><w:t>x</w:t></w:r></w:p>'
     '<w:p><w:fldSimple w:instr=" HYPERLINK &quot;urn:nbn:de:1&quot; "><w:r><w:t>y</w:t></w:r></w:fldSimple>'
     '</w:p></w:document>',
     Flavor.WORDPROCESSING, f'x\n{APART}urn:schemas-microsoft-com:office:office{APART}y\n'
                            f'{APART} HYPERLINK "urn:nbn:de:1" {APART}'),
    ('<p:sld><p:txBody><a:p><a:r><a:t>urn:isbn:</a:t></a:r><a:r><a:t>9780451450524</a:t></a:r></a:p>'
     '<a:p><a:r><a:t>a</a:t></a:r><a:br/><a:r><a:t>b</a:t></a:r></a:p></p:txBody></p:sld>',
     Flavor.DRAWING, f"{ISBN}\na\nb\n"),
    ('<sst><si><t>plain</t></si><si><r><t>urn:isbn:</t></r><r><rPr/><t>9780451450524</t></r></si></sst>',
     Flavor.SHARED_STRINGS, f"plain\n{ISBN}\n"),
    ('<office:document-content><office:body><office:text><text:h>Title</text:h>'
     '<text:p>urn:<text:span text:style-name="T1">isbn:9780451450524</text:span> and'
     '<text:s text:c="3"/>x<text:tab/>y<text:line-break/>z</text:p>'
     '<text:p><text:a xlink:href="urn:ietf:rfc:2141">the RFC</text:a></text:p>'
     '</office:text></office:body></office:document-content>',
     Flavor.OPENDOCUMENT, f"Title\n{ISBN} and   x\ty\nz\nthe RFC\n{APART}urn:ietf:rfc:2141{APART}"),
    # a huge space count is capped
    ('<r><text:p>a<text:s text:c="1000000"/>b</text:p></r>', Flavor.OPENDOCUMENT, "a" + " " * 256 + "b\n"),
    # not well-formed: the text up to the last tag before the break, then
    # the rest as it is
    ('<w:document><w:p><w:r><w:t>ok</w:t></w:r></w:p><w:p><w:t>a & b urn:isbn:0451450523</w:t></w:p>',
     Flavor.WORDPROCESSING, "ok\n<w:t>a & b urn:isbn:0451450523</w:t></w:p>"),
    ('<w:document><w:p><w:t>ok</w:t></w:p><w:p><w:t>cut here urn:isbn:0451450523',
     Flavor.WORDPROCESSING, "ok\n<w:t>cut here urn:isbn:0451450523"),
]


def _box(text: str) -> str:
    """A text box holding ``text``, as a paragraph."""
    return f"<w:txbxContent><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:txbxContent>"


def _boxed(text: str) -> str:
    """The text :func:`_box` gives: its paragraph, set apart."""
    return f"{APART}{text}\n{APART}"


def _alternates(*branches: str) -> str:
    """An mc:AlternateContent of the ``branches`` (Choice or Fallback
    elements) in a paragraph."""
    return f'<w:p><w:r><mc:AlternateContent>{"".join(branches)}</mc:AlternateContent></w:r></w:p>'


ALTERNATES_TABLE = [
    # (XML, text): one branch of each AlternateContent is read
    (_alternates(f'<mc:Choice Requires="wps"><w:drawing>{_box(ISBN)}</w:drawing></mc:Choice>',
                 f'<mc:Fallback><w:pict><v:shape><v:textbox>{_box(ISBN)}</v:textbox></v:shape></w:pict></mc:Fallback>'),
     f"{_boxed(ISBN)}\n"),
    # the first Choice, not a later one
    (_alternates(f'<mc:Choice Requires="wps">{_box("a")}</mc:Choice>',
                 f'<mc:Choice Requires="v">{_box("b")}</mc:Choice>', f'<mc:Fallback>{_box("c")}</mc:Fallback>'),
     f"{_boxed('a')}\n"),
    # the Fallback when there is no Choice
    (_alternates(f'<mc:Fallback>{_box("c")}</mc:Fallback>'), f"{_boxed('c')}\n"),
    # nested in the Choice read; the text after it is read, and the next one's Choice
    (_alternates('<mc:Choice Requires="wps">'
                 + _alternates(f'<mc:Choice Requires="a">{_box("in")}</mc:Choice>',
                               f'<mc:Fallback>{_box("out")}</mc:Fallback>') + '</mc:Choice>',
                 f'<mc:Fallback>{_box("c")}</mc:Fallback>')
     + "<w:p><w:r><w:t>after</w:t></w:r></w:p>"
     + _alternates(f'<mc:Choice Requires="b">{_box("d")}</mc:Choice>', f'<mc:Fallback>{_box("e")}</mc:Fallback>'),
     f"{_boxed('in')}\n\nafter\n{_boxed('d')}\n"),
    # nor are the attribute values of a branch not read
    (_alternates(f'<mc:Choice Requires="wps">{_box("a")}</mc:Choice>',
                 '<mc:Fallback><v:shape o:href="urn:example:shape"/></mc:Fallback>'), f"{_boxed('a')}\n"),
]


@pytest.mark.parametrize("xml, expected", ALTERNATES_TABLE)
def test_one_branch_of_alternate_content(xml, expected):
    assert _text(f"<w:document>{xml}</w:document>", Flavor.WORDPROCESSING) == expected


NBN = "urn:nbn:de:bvb:12-bsb00012345-6"

OWN_TEXT_TABLE = [
    # (content.xml, text): a note, a comment or a text box in a paragraph is
    # a text of its own, set apart; its citation mark, author and date are
    # not read
    (f'<text:p>Online: {NBN}.<text:note text:id="ftn1" text:note-class="footnote">'
     '<text:note-citation>1</text:note-citation><text:note-body><text:p>Digitalisat der BSB.</text:p>'
     '</text:note-body></text:note> Weiter im Text.</text:p>',
     f"Online: {NBN}.{APART}Digitalisat der BSB.\n{APART} Weiter im Text.\n"),
    (f'<text:p>See {NBN}<office:annotation><dc:creator>Ann</dc:creator><dc:date>2024-01-02T10:00:00</dc:date>'
     '<text:p>check</text:p></office:annotation>2 more</text:p>',
     f"See {NBN}{APART}check\n{APART}2 more\n"),
    (f'<text:p>{NBN}<draw:frame><svg:title>t</svg:title><draw:text-box><text:p>box</text:p></draw:text-box>'
     '</draw:frame>x</text:p>',
     f"{NBN}{APART}box\n{APART}x\n"),
    # a field showing a date is text of the paragraph
    ('<text:p>On <text:date>2024-01-02</text:date></text:p>', "On 2024-01-02\n"),
]


@pytest.mark.parametrize("xml, expected", OWN_TEXT_TABLE)
def test_a_text_of_its_own_is_set_apart(xml, expected):
    assert _text(f"<office:text>{xml}</office:text>", Flavor.OPENDOCUMENT) == expected


TRACKED_TABLE = [
    # (XML, flavour, text): deleted text of tracked changes is not read
    ('<w:document><w:p><w:moveTo><w:r><w:t>urn:isbn:0451450523</w:t></w:r></w:moveTo><w:r><w:t> x</w:t></w:r>'
     '<w:moveFrom><w:r><w:t>urn:isbn:0451450523</w:t></w:r></w:moveFrom></w:p></w:document>',
     Flavor.WORDPROCESSING, "urn:isbn:0451450523 x\n"),
    ('<office:text><text:tracked-changes><text:changed-region text:id="c1"><text:deletion><office:change-info>'
     '<dc:creator>Ann</dc:creator></office:change-info><text:p>urn:isbn:0451450523</text:p></text:deletion>'
     '</text:changed-region></text:tracked-changes><text:p>a<text:change text:change-id="c1"/>b</text:p>'
     '</office:text>', Flavor.OPENDOCUMENT, "ab\n"),
]


@pytest.mark.parametrize("xml, flavor, expected", TRACKED_TABLE)
def test_deleted_text_is_not_read(xml, flavor, expected):
    assert _text(xml, flavor) == expected


def test_text_table():
    for xml, flavor, expected in TEXT_TABLE:
        assert _text(xml, flavor) == expected, xml


STREAMED = (TEXT_TABLE + [(f"<w:document>{x}</w:document>", Flavor.WORDPROCESSING, t) for x, t in ALTERNATES_TABLE]
            + [(f"<office:text>{x}</office:text>", Flavor.OPENDOCUMENT, t) for x, t in OWN_TEXT_TABLE]
            + TRACKED_TABLE)


@settings(max_examples=150, deadline=None)
@given(case=st.sampled_from(STREAMED), chunk=st.integers(1, 64))
def test_text_does_not_depend_on_chunks(case, chunk):
    xml, flavor, expected = case
    assert _text(xml, flavor, chunk) == expected


FLAVOR_TABLE = [
    # (member, OpenDocument archive, flavour)
    ("word/document.xml", False, Flavor.WORDPROCESSING),
    ("word/footnotes.xml", False, Flavor.WORDPROCESSING),
    ("word/_rels/document.xml.rels", False, None),
    ("word/media/image1.png", False, None),
    ("ppt/slides/slide3.xml", False, Flavor.DRAWING),
    ("xl/sharedStrings.xml", False, Flavor.SHARED_STRINGS),
    ("xl/worksheets/sheet1.xml", False, None),
    ("docProps/core.xml", False, None),
    ("content.xml", True, Flavor.OPENDOCUMENT),
    ("styles.xml", True, Flavor.OPENDOCUMENT),
    ("meta.xml", True, None),
    ("content.xml", False, None),  # an EPUB or a plain zip
]


def test_flavor_table():
    for name, opendocument, flavor in FLAVOR_TABLE:
        assert flavor_of(name, opendocument) is flavor, name


def _scan(path):
    hits = []
    status = scan_input(InputRef(str(path)), ScanConfig(), hits.extend)
    return status, [(h.document, h.urn) for h in hits]


def test_docx_with_a_urn_split_over_runs(tmp_path):
    path = tmp_path / "paper.docx"
    path.write_bytes(zip_bytes([
        ("[Content_Types].xml", b"<Types/>"),
        ("word/document.xml", f'<w:document {W}><w:body><w:p><w:r><w:t xml:space="preserve">Cited: urn:</w:t>'
                              f'</w:r><w:r><w:rPr><w:i/></w:rPr><w:t>isbn:9780451450524</w:t></w:r></w:p>'
                              f'</w:body></w:document>'.encode()),
        ("word/_rels/document.xml.rels", b'<Relationships><Relationship Target="urn:ietf:rfc:8141"/>'
                                         b'</Relationships>'),
    ]))
    status, hits = _scan(path)
    assert status.status == "scanned"
    assert hits == [("word/document.xml", ISBN), ("word/_rels/document.xml.rels", "urn:ietf:rfc:8141")]


def test_odt_and_epub(tmp_path):
    body = (b'<office:document-content><office:body><office:text><text:p>urn:<text:span>isbn:9780451450524'
            b'</text:span></text:p></office:text></office:body></office:document-content>')
    (tmp_path / "a.odt").write_bytes(zip_bytes([
        ("mimetype", b"application/vnd.oasis.opendocument.text"), ("content.xml", body)]))
    assert _scan(tmp_path / "a.odt")[1] == [("content.xml", ISBN)]
    # the same member in an EPUB is XHTML, read as it is: the span cuts the URN
    (tmp_path / "b.epub").write_bytes(zip_bytes([("mimetype", b"application/epub+zip"), ("content.xml", body)]))
    assert _scan(tmp_path / "b.epub")[1] == []


def _docx_hits(tmp_path, body: str):
    """The URNs found in a DOCX whose ``word/document.xml`` is ``body``."""
    path = tmp_path / "doc.docx"
    path.write_bytes(zip_bytes([("word/document.xml", body.encode())]))
    return [urn for _, urn in _scan(path)[1]]


def _p(*texts: str) -> str:
    """A WordprocessingML paragraph of one run per text."""
    return "<w:p>" + "".join(f"<w:r><w:t>{t}</w:t></w:r>" for t in texts) + "</w:p>"


DOCX_TABLE = [
    # (word/document.xml, URNs found)
    # a footer's namespace, then its page number: the value is no part of it
    (f'<w:ftr {W} xmlns:w10="urn:schemas-microsoft-com:office:word">{_p("Page")}{_p("-2")}</w:ftr>',
     ["urn:schemas-microsoft-com:office:word"]),
    # a value ending in ":" stays apart from a lone name piece after it
    (f'<w:document {W} xmlns:x="urn:example:a:">{_p("Page")}{_p("2-1")}</w:document>', ["urn:example:a:"]),
    # a name broken over a line break, or over two paragraphs, is joined
    (f'<w:document {W}><w:p><w:r><w:t>urn:example:long-</w:t><w:br/><w:t>name</w:t></w:r></w:p></w:document>',
     ["urn:example:long-name"]),
    (f'<w:document {W}>{_p("urn:example:long-")}{_p("name")}</w:document>', ["urn:example:long-name"]),
    # a footnote's reference: the sentence goes on, the note is in its own part
    (f'<w:document {W}><w:p><w:r><w:t>Online: {NBN}.</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r>'
     '<w:r><w:t xml:space="preserve"> Weiter.</w:t></w:r></w:p></w:document>', [NBN]),
    # a text box in a sentence
    (f'<w:document {W}><w:p><w:r><w:t>See {NBN}</w:t></w:r><w:r><w:pict>{_box("Box")}</w:pict></w:r></w:p>'
     '</w:document>', [NBN]),
    # a text box Word wrote twice, in an AlternateContent: found once
    (f'<w:document {W}>'
     + _alternates(f'<mc:Choice Requires="wps">{_box(ISBN)}</mc:Choice>', f'<mc:Fallback>{_box(ISBN)}</mc:Fallback>')
     + '</w:document>', [ISBN]),
]


@pytest.mark.parametrize("body, urns", DOCX_TABLE)
def test_urns_found_in_a_docx(tmp_path, body, urns):
    assert _docx_hits(tmp_path, body) == urns


ODT_TABLE = [
    # (content.xml, URNs found): the name ends before a footnote
    (OWN_TEXT_TABLE[0][0], [NBN]),
    (f'<text:p>See urn:example:a:<text:note><text:note-citation>2-1</text:note-citation><text:note-body>'
     '<text:p>Note.</text:p></text:note-body></text:note></text:p>', ["urn:example:a:"]),
]


@pytest.mark.parametrize("body, urns", ODT_TABLE)
def test_urns_found_in_an_odt(tmp_path, body, urns):
    path = tmp_path / "doc.odt"
    content = f"<office:document-content><office:body><office:text>{body}</office:text></office:body>" \
              "</office:document-content>"
    path.write_bytes(zip_bytes([("mimetype", b"application/vnd.oasis.opendocument.text"),
                                ("content.xml", content.encode())]))
    assert [urn for _, urn in _scan(path)[1]] == urns


def test_a_bomb_in_an_office_member_is_stopped(tmp_path):
    """The ratio limit holds the member's XML, not only the little text it
    gives: 40 MiB of XML without text (white space between elements) is
    stopped as a bomb, as the same bytes in a plain member are."""
    from urnscan.sinks.status import ERROR

    words = "<w:p><w:r><w:t>" + "word " * 3000 + "</w:t></w:r></w:p>"  # the hit is decided before the bomb
    xml = (f'<w:document {W}><w:body><w:p><w:r><w:t>{ISBN}</w:t></w:r></w:p>{words}'.encode()
           + b" " * (40 << 20) + b"</w:body></w:document>")
    path = tmp_path / "bomb.docx"
    path.write_bytes(zip_bytes([("word/document.xml", xml)]))
    hits = []
    status = scan_input(InputRef(str(path)), ScanConfig(), hits.extend)
    assert status.status == ERROR and "over the limit" in status.reason, status
    assert [(h.document, h.urn) for h in hits] == [("word/document.xml", ISBN)]
