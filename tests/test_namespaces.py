"""Tests for urnscan.namespaces: registry, status, ns_key, ns_findings, dedup_key.

Examples come from the registrations as quoted in namespaces.md (uuid RFC 4122
/ 9562, isbn/issn/isni/doi/nan/gdst/mrn IANA templates, nbn RFC 8458, ietf
RFC 2648 / 3553, mpeg RFC 3614, epc RFC 5134, lex RFC 9676, iso RFC 5141,
s1000d RFC 4688, isan RFC 4246, eidr RFC 7972).
"""
from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import urnscan
from urnscan import equivalence_key, validate
from urnscan.errors import SourceError
from urnscan.model import WARNING, Hit
from urnscan.namespaces import (
    EXPERIMENTAL,
    FINDING_CODES,
    FORMAL,
    INFORMAL,
    STATUSES,
    UNREGISTERED,
    Registry,
    RegistryError,
    dedup_key,
    default_registry,
    load_registry,
    namespace_status,
    ns_findings,
    ns_key,
    ns_key_rules,
)
from urnscan.namespaces.checkdigits import isbn10_check, isbn13_check, issn_check
from urnscan.namespaces.registry import registry_to_json

from .conftest import shared_path

REPO = Path(__file__).resolve().parents[1]
BUILD_TOOL = REPO / "tools" / "build_registry.py"


def iana_file(name: str) -> Path:
    return shared_path("iana", name)


# --- minimal registry files, so loading is tested without ../shared -------------

NEWER_XML = textwrap.dedent("""\
    <?xml version='1.0' encoding='UTF-8'?>
    <registry xmlns="http://www.iana.org/assignments" id="urn-namespaces">
      <title>Uniform Resource Names (URN) Namespaces</title>
      <updated>2030-01-31</updated>
      <registry id="urn-namespaces-1">
        <record date="2029-12-01">
          <name>NewNid</name>
          <template><xref type="uri" data="https://www.iana.org/assignments/urn-formal/newnid">newnid-template</xref></template>
          <xref type="uri" data="https://example.org/">Example Body</xref>
        </record>
        <record><name>uuid</name><xref type="rfc" data="rfc9562"/></record>
      </registry>
      <registry id="urn-namespaces-2">
        <record><name>urn-9</name><contact><xref type="person" data="A_B"/></contact></record>
      </registry>
      <people><person id="A_B"><name>A. B.</name></person></people>
    </registry>
    """)

PARAMS_XML = textwrap.dedent("""\
    <?xml version='1.0' encoding='UTF-8'?>
    <registry xmlns="http://www.iana.org/assignments" id="params">
      <updated>2030-02-02</updated>
      <registry id="urn-subnamespaces">
        <record><name>rfc</name></record>
        <record><name>params</name></record>
        <record><name>newsub</name></record>
      </registry>
      <registry id="params-1">
        <record><name>xml</name></record>
      </registry>
    </registry>
    """)


@pytest.fixture
def newer_xml(tmp_path: Path) -> Path:
    path = tmp_path / "urn-namespaces.xml"
    path.write_text(NEWER_XML, encoding="utf-8")
    return path


@pytest.fixture
def params_xml(tmp_path: Path) -> Path:
    path = tmp_path / "params.xml"
    path.write_text(PARAMS_XML, encoding="utf-8")
    return path


# --- registry -------------------------------------------------------------------


def test_packaged_registry_is_the_2026_07_28_snapshot():
    registry = default_registry()
    assert registry.date == "2026-07-28"
    assert len(registry.formal) == 97 and len(registry.informal) == 8
    assert {"isbn", "uuid", "doi", "lex", "isni", "wmo"} <= registry.formal
    assert registry.informal == {f"urn-{n}" for n in range(1, 9)}
    assert registry.ietf_subnamespaces == {"rfc", "fyi", "std", "bcp", "id", "mtg", "params"}
    assert {"xml", "oauth", "capport:unrestricted"} <= registry.ietf_params
    assert registry.ietf_date == "2026-02-02"


def test_registry_entries_keep_reference_and_template():
    registry = default_registry()
    assert registry.entry("UUID").references == ("RFC9562",)
    assert registry.entry("uuid").updated == "2023-11-17"
    assert registry.entry("dvb").references == ("RFC5328", "RFC7354")
    assert registry.entry("isbn").template.endswith("/urn-formal/isbn")
    assert registry.entry("meta").references == ("Juha Hakala",)
    assert registry.entry("urn-7").references == ("RFC6050",)
    assert registry.entry("nope") is None


def test_registry_is_frozen_and_cached():
    registry = default_registry()
    assert default_registry() is registry
    with pytest.raises(AttributeError):
        registry.date = "2000-01-01"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        registry.entries[0].nid = "x"  # type: ignore[misc]
    assert hash(registry) == hash(load_registry())


def test_packaged_registry_equals_the_iana_xml():
    from_xml = load_registry(iana_file("urn-namespaces.xml"),
                             params=iana_file("params.xml"))
    assert from_xml == default_registry()


def test_packaged_data_file_is_what_the_tool_builds():
    result = subprocess.run(
        [sys.executable, str(BUILD_TOOL), str(iana_file("urn-namespaces.xml")),
         str(iana_file("params.xml")), "--check"],
        capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_load_a_newer_iana_xml(newer_xml: Path):
    registry = load_registry(newer_xml)
    assert isinstance(registry, Registry)
    assert registry.date == "2030-01-31"
    assert registry.formal == {"newnid", "uuid"}
    assert registry.informal == {"urn-9"}
    entry = registry.entry("newnid")
    assert entry.references == ("Example Body <https://example.org/>",)
    assert entry.template == "https://www.iana.org/assignments/urn-formal/newnid"
    assert entry.registered == "2029-12-01"
    assert registry.entry("urn-9").references == ("A. B.",)
    # without params.xml the shipped IETF sub-namespaces are kept
    assert registry.ietf_subnamespaces == default_registry().ietf_subnamespaces
    assert namespace_status("NEWNID", registry) == FORMAL
    assert namespace_status("isbn", registry) == UNREGISTERED
    assert namespace_status("urn-9", registry) == INFORMAL


def test_load_with_a_newer_params_xml(newer_xml: Path, params_xml: Path):
    registry = load_registry(newer_xml, params=params_xml)
    assert registry.ietf_subnamespaces == {"rfc", "params", "newsub"}
    assert registry.ietf_params == {"xml"}
    assert registry.ietf_date == "2030-02-02"
    assert ns_findings("urn:ietf:newsub:x", registry) == ()
    assert [f.code for f in ns_findings("urn:ietf:fyi:1", registry)] == [
        "ietf-subnamespace-unregistered"]


def test_the_tool_writes_a_json_that_loads_back(tmp_path: Path, newer_xml: Path,
                                                params_xml: Path):
    out = tmp_path / "registry.json"
    result = subprocess.run(
        [sys.executable, str(BUILD_TOOL), str(newer_xml), str(params_xml), "-o", str(out)],
        capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert load_registry(out) == load_registry(newer_xml, params=params_xml)
    check = subprocess.run(
        [sys.executable, str(BUILD_TOOL), str(newer_xml), str(params_xml), "-o", str(out),
         "--check"], capture_output=True, text=True)
    assert check.returncode == 0
    out.write_text(out.read_text().replace("2030-01-31", "2030-01-30"))
    stale = subprocess.run(
        [sys.executable, str(BUILD_TOOL), str(newer_xml), str(params_xml), "-o", str(out),
         "--check"], capture_output=True, text=True)
    assert stale.returncode == 1


def test_json_round_trip(tmp_path: Path):
    path = tmp_path / "registry.json"
    path.write_text(registry_to_json(default_registry()), encoding="utf-8")
    assert load_registry(path) == default_registry()


def test_missing_registry_file_is_a_source_error(tmp_path: Path):
    with pytest.raises(SourceError):
        load_registry(tmp_path / "absent.xml")


@pytest.mark.parametrize("content", [
    "not json at all",
    '{"format": "something-else", "date": "2020-01-01"}',
    '{"format": "urnscan-urn-registry/1", "date": "2020-01-01", "formal": [{"x": 1}]}',
    "<registry xmlns='http://www.iana.org/assignments' id='params'/>",
    "<registry xmlns='http://www.iana.org/assignments' id='urn-namespaces'>"
    "<updated>2020-01-01</updated></registry>",
    "<unclosed",
])
def test_bad_registry_content_is_a_registry_error(tmp_path: Path, content: str):
    path = tmp_path / "bad"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(RegistryError):
        load_registry(path)


# --- status -----------------------------------------------------------------------


@pytest.mark.parametrize("nid, status", [
    ("isbn", FORMAL), ("ISBN", FORMAL), ("Uuid", FORMAL), ("doi", FORMAL),
    ("isni", FORMAL), ("example", FORMAL), ("urn-1", INFORMAL), ("URN-8", INFORMAL),
    ("urn-9", UNREGISTERED), ("urn-01", UNREGISTERED), ("x-pdf", EXPERIMENTAL),
    ("X-PDF", EXPERIMENTAL), ("services", UNREGISTERED), ("tag", UNREGISTERED),
    ("xpdf", UNREGISTERED), ("", UNREGISTERED),
])
def test_namespace_status(nid: str, status: str):
    assert namespace_status(nid) == status
    assert status in STATUSES


# --- ns_key: one table row per registered rule -----------------------------------

NS_KEY_CASES = [
    # uuid: RFC 4122 §3 / RFC 9562 §4
    ("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
     "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", ()),
    ("urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
     "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", ("uuid-case",)),
    ("urn:uuid:%7BF81D4FAE-7DEC-11D0-A765-00A0C91E6BF6%7D",
     "urn:uuid:%7BF81D4FAE-7DEC-11D0-A765-00A0C91E6BF6%7D", ()),  # malformed: no rule
    # isbn: IANA template v2, examples 1 and 2 and the lexical-equivalence steps
    ("urn:isbn:951-0-18435-7", "urn:isbn:9789510184356", ("isbn-hyphens", "isbn-10-to-13")),
    ("urn:isbn:978-951-0-18435-6", "urn:isbn:9789510184356", ("isbn-hyphens",)),
    ("urn:isbn:9789510184356", "urn:isbn:9789510184356", ()),
    ("urn:isbn:0451450523", "urn:isbn:9780451450524", ("isbn-10-to-13",)),
    ("urn:isbn:0-8044-2957-x", "urn:isbn:9780804429573",
     ("isbn-hyphens", "isbn-x-case", "isbn-10-to-13")),
    ("urn:isbn:979-10-90636-07-1", "urn:isbn:9791090636071", ("isbn-hyphens",)),
    ("urn:isbn:0-451-45052-4", "urn:isbn:0451450524", ("isbn-hyphens",)),  # bad check: no 13
    ("urn:isbn:978-4-XXXX-YYYY-Z", "urn:isbn:978-4-XXXX-YYYY-Z", ()),
    # issn: IANA template; examples 0317-8471 and 1050-124X
    ("urn:issn:0317-8471", "urn:issn:0317-8471", ()),
    ("urn:issn:03178471", "urn:issn:0317-8471", ("issn-hyphen",)),
    ("urn:issn:1050-124x", "urn:issn:1050-124X", ("issn-x-case",)),
    ("urn:issn:1050124x", "urn:issn:1050-124X", ("issn-hyphen", "issn-x-case")),
    ("urn:issn:0317-847", "urn:issn:0317-847", ()),
    # isni: IANA template, example 0000000121241960; "x" -> "X"
    ("urn:isni:0000000121241960", "urn:isni:0000000121241960", ()),
    ("urn:isni:000000012146438x", "urn:isni:000000012146438X", ("isni-x-case",)),
    # isan: RFC 4246 §2 case-insensitive
    ("urn:isan:0000-0000-D07A-0090-Q-0000-0000-X",
     "urn:isan:0000-0000-D07A-0090-Q-0000-0000-X", ()),
    ("urn:isan:0000-0000-d07a-0090-q-0000-0000-x",
     "urn:isan:0000-0000-D07A-0090-Q-0000-0000-X", ("isan-case",)),
    ("urn:isan:0000-0000-d07a-0090", "urn:isan:0000-0000-d07a-0090", ()),
    # nbn: RFC 8458 §4.3 examples; prefix case only
    ("urn:nbn:fi-fe201003181510", "urn:nbn:fi-fe201003181510", ()),
    ("urn:nbn:FI-fe201003181510", "urn:nbn:fi-fe201003181510", ("nbn-prefix-case",)),
    ("urn:nbn:SE:UU:DIVA-3475", "urn:nbn:se:uu:diva-3475", ("nbn-prefix-case",)),
    ("urn:nbn:ch:bel-9039", "urn:nbn:ch:bel-9039", ()),
    ("urn:nbn:DE:GBV:089-3321752945", "urn:nbn:de:gbv:089-3321752945", ("nbn-prefix-case",)),
    ("urn:nbn:de:gbv:089-ABC", "urn:nbn:de:gbv:089-ABC", ()),
    ("urn:nbn:DE:gbv:089_ABC", "urn:nbn:DE:gbv:089_ABC", ()),  # no "-": malformed
    # nan: IANA template, example URN:NAN:fi:ka:a-1510439051
    ("urn:nan:FI:KA:a-1510439051", "urn:nan:fi:ka:a-1510439051", ("nan-prefix-case",)),
    ("urn:nan:fi:ka:A-1510439051", "urn:nan:fi:ka:a-1510439051", ("nan-prefix-case",)),
    ("urn:nan:fi:ka:a-ABC1510439051", "urn:nan:fi:ka:a-ABC1510439051", ()),
    # oid: RFC 3061 §2 exact match; example from §3
    ("urn:oid:0.9.2342.19200300.100.4", "urn:oid:0.9.2342.19200300.100.4", ()),
    ("urn:oid:1.3.06.1", "urn:oid:1.3.06.1", ()),
    # ietf: RFC 2648 §2 whole URN case-insensitive; params exact (RFC 3553 §3)
    ("urn:ietf:RFC:2648", "urn:ietf:rfc:2648", ("ietf-case",)),
    ("urn:ietf:id:IETF-URN-IETF-06", "urn:ietf:id:ietf-urn-ietf-06", ("ietf-case",)),
    ("urn:ietf:mtg:41-URN%2Cx", "urn:ietf:mtg:41-urn%2Cx", ("ietf-case",)),
    ("urn:ietf:params:xml:ns:XMPP-Bind", "urn:ietf:params:xml:ns:XMPP-Bind", ()),
    ("urn:ietf:params:dns:rr-type-codes:SOA", "urn:ietf:params:dns:rr-type-codes:SOA", ()),
    ("urn:ietf:PARAMS:xml:ns:xmpp-bind", "urn:ietf:PARAMS:xml:ns:xmpp-bind", ()),
    # oasis (RFC 3121 §2), xmlorg (RFC 3120 §2), epc (RFC 5134 §2): exact
    ("urn:oasis:names:tc:SAML:2.0:assertion", "urn:oasis:names:tc:SAML:2.0:assertion", ()),
    ("urn:oasis:names:tc:docbook:dtd:xml:docbook:5.0b1",
     "urn:oasis:names:tc:docbook:dtd:xml:docbook:5.0b1", ()),
    ("urn:xmlorg:objects:Foo:Bar", "urn:xmlorg:objects:Foo:Bar", ()),
    ("urn:epc:ID:SGTIN:900100.0003456.1234567", "urn:epc:ID:SGTIN:900100.0003456.1234567", ()),
    # mpeg: RFC 3614 §2, only the standard-name segment
    ("urn:mpeg:MPEG7:cs:GenreCS:2001", "urn:mpeg:mpeg7:cs:GenreCS:2001", ("mpeg-standard-case",)),
    ("urn:mpeg:mpeg7:cs:GenreCS:2001", "urn:mpeg:mpeg7:cs:GenreCS:2001", ()),
    # lex: RFC 9676 §3.3 case-insensitive; percent-encoding stays canonical
    ("urn:lex:it:stato:legge:2003-09-21;456", "urn:lex:it:stato:legge:2003-09-21;456", ()),
    ("urn:lex:IT:Stato:Legge:2003-09-21;456", "urn:lex:it:stato:legge:2003-09-21;456",
     ("lex-case",)),
    ("urn:lex:DE:Stadt:M%C3%BCnchen", "urn:lex:de:stadt:m%C3%BCnchen", ("lex-case",)),
    ("urn:lex:de:stadt:M%C3%9CNCHEN", "urn:lex:de:stadt:m%C3%BCnchen", ("lex-case",)),  # "Ü" too
    ("urn:lex:it:regione:SANIT%C3%80", "urn:lex:it:regione:sanit%C3%A0", ("lex-case",)),
    ("urn:lex:it:x:a%2Fb%FF", "urn:lex:it:x:a%2Fb%FF", ()),  # no letter, no UTF-8: kept
    # ... and §3.2: "/" is always converted to "-"
    ("urn:lex:it:stato:legge:2003/09/21;456", "urn:lex:it:stato:legge:2003-09-21;456", ("lex-slash",)),
    ("urn:lex:IT:stato:legge:2/2003", "urn:lex:it:stato:legge:2-2003", ("lex-case", "lex-slash")),
    # iso: RFC 5141 §2.9 all elements; examples from §2.4.2
    ("urn:iso:std:iso:9999:-1:ed-1:en", "urn:iso:std:iso:9999:-1:ed-1:en", ()),
    ("urn:iso:std:ISO-IEC:9075:-3:stage-95.99:ed-2:EN",
     "urn:iso:std:iso-iec:9075:-3:stage-95.99:ed-2:en", ("iso-case",)),
    # s1000d: RFC 4688 §2 case-insensitive; example from §2
    ("urn:s1000d:DMC-AE-A-07-05-0000-00A-040A-A_I-001_L-EN",
     "urn:s1000d:DMC-AE-A-07-05-0000-00A-040A-A_I-001_L-EN", ()),
    ("urn:s1000d:dmc-ae-a-07-05-0000-00a-040a-a_i-001_l-en",
     "urn:s1000d:DMC-AE-A-07-05-0000-00A-040A-A_I-001_L-EN", ("s1000d-case",)),
    # doi: IANA template; example 4 keeps %23 ("#" cannot stand raw in an NSS)
    ("urn:doi:10.1000/456%23789", "urn:doi:10.1000/456%23789", ()),
    ("urn:doi:10.1000/ABC", "urn:doi:10.1000/abc", ("doi-case",)),
    ("urn:doi:10.1000/a%2Fb", "urn:doi:10.1000/a/b", ("doi-percent-decode",)),
    ("urn:doi:10.1000/%41bc", "urn:doi:10.1000/abc", ("doi-percent-decode", "doi-case")),
    ("urn:doi:10.1000/x%25y", "urn:doi:10.1000/x%25y", ()),
    ("urn:doi:10.1000/caf%C3%89", "urn:doi:10.1000/caf%C3%89", ()),  # ASCII only folds
    ("urn:doi:nodoi", "urn:doi:nodoi", ()),
    # eidr: RFC 7972 §2 case-insensitive
    ("urn:eidr:10.5240:7791-8534-2C23-9030-8610-5",
     "urn:eidr:10.5240:7791-8534-2c23-9030-8610-5", ("eidr-case",)),
    # namespaces.md §2: whole NSS case-insensitive
    ("urn:service:SOS", "urn:service:sos", ("service-case",)),
    ("urn:alert:service:Call-Waiting", "urn:alert:service:call-waiting", ("alert-case",)),
    ("urn:stalwart:JMAP:MailFilter", "urn:stalwart:jmap:mailfilter", ("stalwart-case",)),
    # namespaces.md §2: one case-insensitive part
    ("urn:mrn:IMO:IMO-Number:9743368", "urn:mrn:imo:imo-number:9743368",
     ("mrn-oid-osnid-case",)),
    ("urn:mrn:iala:aton:US:1234X5", "urn:mrn:iala:aton:US:1234X5", ()),
    ("urn:ddi:INT.Example:Obj:1", "urn:ddi:int.example:Obj:1", ("ddi-agency-case",)),
    ("urn:gdst:example.com:product:class:12345.ABCDEFGHIJKLMEN",
     "urn:gdst:example.com:product:class:12345.abcdefghijklmen", ("gdst-id-case",)),
    ("urn:gs1:GDD:BIE:Abc", "urn:gs1:gdd:bie:Abc", ("gs1-literal-case",)),
    ("urn:gs1:gdd:bdt:Std", "urn:gs1:gdd:bdt:Std", ()),  # an assigned name, though it spells a literal
    ("urn:gs1:gdd:cl:Cl", "urn:gs1:gdd:cl:Cl", ()),
    ("urn:gs1:STD:X", "urn:gs1:std:X", ("gs1-literal-case",)),
    ("urn:gs1:Abc:gdd", "urn:gs1:Abc:gdd", ()),
    # newsml: RFC 3085, ProviderId, DateId, NewsItemId and RevisionId (with its update flag)
    ("urn:newsml:IPTC.org:20001006:IIC3BRF:1A", "urn:newsml:iptc.org:20001006:iic3brf:1a",
     ("newsml-id-case",)),
    ("urn:newsml:iptc.org:20001006:iic3brf:1a", "urn:newsml:iptc.org:20001006:iic3brf:1a", ()),
    # meta: IANA template, the prefix before "-" is case-insensitive, the meta-string is not
    ("urn:meta:MARC-bd245", "urn:meta:marc-bd245", ("meta-prefix-case",)),
    ("urn:meta:DC:Terms-Title", "urn:meta:dc:terms-Title", ("meta-prefix-case",)),
    ("urn:meta:dc:elements1.1-title", "urn:meta:dc:elements1.1-title", ()),
    ("urn:meta:danMARC2-b52", "urn:meta:danmarc2-b52", ("meta-prefix-case",)),
    ("urn:meta:NoHyphen", "urn:meta:NoHyphen", ()),
    # pwid: IANA template, case-insensitive but for the archived URI beyond its scheme and host
    ("urn:pwid:Archive.ORG:2016-01-22T10:08:09Z:PAGE:HTTPS://WWW.DKKB.DK/Path",
     "urn:pwid:archive.org:2016-01-22t10:08:09z:page:https://www.dkkb.dk/Path", ("pwid-case",)),
    ("urn:pwid:archive.org:2016-01-22t10:08:09z:page:https://User@Example.org/A",
     "urn:pwid:archive.org:2016-01-22t10:08:09z:page:https://User@example.org/A", ("pwid-case",)),
    ("urn:pwid:archive.org:2016-01-22t10:08:09z:part:urn:ISBN:0451450523",
     "urn:pwid:archive.org:2016-01-22t10:08:09z:part:urn:ISBN:0451450523", ()),
    ("urn:pwid:not-a-pwid", "urn:pwid:not-a-pwid", ()),
    ("urn:smpte:UL:060E2B34", "urn:smpte:ul:060e2b34", ("smpte-ul-case",)),
    ("urn:smpte:umid:ABC", "urn:smpte:umid:ABC", ()),
    # gsma: RFC 7254, case-insensitive; "vers=0" is the version a URN without the parameter has
    ("urn:gsma:imei:90420156-025763-0", "urn:gsma:imei:90420156-025763-0", ()),
    ("urn:gsma:IMEI:90420156-025763-0", "urn:gsma:imei:90420156-025763-0", ("gsma-case",)),
    ("urn:gsma:imei:90420156-025763-0;vers=0", "urn:gsma:imei:90420156-025763-0", ("gsma-vers-0",)),
    ("urn:gsma:IMEI:90420156-025763-0;VERS=0", "urn:gsma:imei:90420156-025763-0",
     ("gsma-case", "gsma-vers-0")),
    ("urn:gsma:imei:90420156-025763-0;vers=1", "urn:gsma:imei:90420156-025763-0;vers=1", ()),
    ("urn:gsma:imei:90420156-025763-0;vers=0;svn=42", "urn:gsma:imei:90420156-025763-0;svn=42",
     ("gsma-vers-0",)),
    # baseline only (RFC 8141 §3.2 examples)
    ("urn:example:A123,z456", "urn:example:A123,z456", ()),
    ("urn:example:a123%2Cz456", "urn:example:a123%2Cz456", ()),
    ("urn:xmpp:Jingle:1", "urn:xmpp:Jingle:1", ()),
    # not a key: returned as is
    ("URN:ISBN:0451450523", "URN:ISBN:0451450523", ()),
    ("urn:ISBN:0451450523", "urn:ISBN:0451450523", ()),
    ("urn::x", "urn::x", ()),
    ("", "", ()),
]


@pytest.mark.parametrize("key, expected, rules", NS_KEY_CASES)
def test_ns_key(key: str, expected: str, rules: tuple):
    assert ns_key(key) == expected
    assert ns_key_rules(key) == rules
    assert ns_key(expected) == expected


@pytest.mark.parametrize("same", [
    ["urn:isbn:951-0-18435-7", "urn:isbn:9510184357", "urn:isbn:978-951-0-18435-6",
     "urn:isbn:9789510184356"],
    ["urn:issn:1050-124X", "urn:issn:1050124X", "urn:issn:1050-124x", "urn:issn:1050124x"],
    ["urn:nbn:de:gbv:089-3321752945", "urn:nbn:DE:GBV:089-3321752945",
     "urn:nbn:De:Gbv:089-3321752945"],
    ["urn:ietf:rfc:2141", "urn:ietf:RFC:2141", "urn:ietf:Rfc:2141"],
    ["urn:gsma:imei:90420156-025763-0", "urn:gsma:IMEI:90420156-025763-0;vers=0"],
    ["urn:lex:it:stato:legge:2003-09-21;456", "urn:lex:IT:Stato:legge:2003/09/21;456"],
    ["urn:meta:marc-bd245", "urn:meta:MARC-bd245"],
    ["urn:doi:10.1000/456%23789", "urn:doi:10.1000/%34%35%36%23789"],
])
def test_ns_key_merges_what_the_registration_makes_equal(same: list):
    assert len({ns_key(k) for k in same}) == 1


@pytest.mark.parametrize("different", [
    ["urn:nbn:de:gbv:089-abc", "urn:nbn:de:gbv:089-ABC"],  # NBN strings are case-sensitive
    ["urn:nbn:fi-fe2010", "urn:nbn:fi:fe2010"],  # delimiters are not equivalent
    ["urn:ietf:params:xml:ns:a", "urn:ietf:params:xml:ns:A", "urn:ietf:PARAMS:xml:ns:a"],
    ["urn:epc:id:sgtin:1.2.3", "urn:epc:ID:sgtin:1.2.3"],
    ["urn:oasis:names:tc:SAML:2.0", "urn:oasis:names:tc:saml:2.0"],
    ["urn:mpeg:mpeg7:cs:GenreCS", "urn:mpeg:mpeg7:cs:genrecs"],
    ["urn:lex:it:a", "urn:lex:it:%D0%B0"],  # RFC 8141 §3.2: Cyrillic is not Latin
    ["urn:isbn:979-10-90636-07-1", "urn:isbn:10-90636-07-1"],  # 979 has no ISBN-10
    ["urn:isbn:0-451-45052-3", "urn:isbn:0-451-45052-X"],  # a typo stays apart
    ["urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
     "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf7"],
])
def test_ns_key_keeps_apart_what_the_registration_keeps_apart(different: list):
    keys = [ns_key(k) for k in different]
    assert len(set(keys)) == len(keys)


# --- findings -------------------------------------------------------------------------

VALID_CHECKS = [
    "urn:isbn:951-0-18435-7", "urn:isbn:978-951-0-18435-6", "urn:isbn:0-8044-2957-X",
    "urn:isbn:0451450523", "urn:isbn:979-10-90636-07-1",
    "urn:issn:0317-8471", "urn:issn:1050-124X", "urn:issn:1050124x",
    "urn:isni:0000000121241960", "urn:isni:000000012146438X",
    "urn:isan:0000-0000-D07A-0090-Q-0000-0000-X", "urn:isan:1881-66C7-3420-6541-Y-9F3A-0245-O",
    "urn:isan:0000-0001-8CFA-0000-I-0000-0000-K", "urn:isan:0000-0000-d07a-0090-q",
    "urn:eidr:10.5240:7791-8534-2C23-9030-8610-5",
    "urn:nbn:de:gbv:089-3321752945", "urn:nbn:de:bvb:12-bsb00103137-3",
    "urn:nbn:de:0183-mbi0003721", "urn:nbn:de:0074-1000-9", "urn:nbn:DE:0074-1007-4",
    "urn:nbn:fi-fe201003181510", "urn:nbn:se:uu:diva-3475",
    "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
    "urn:oid:0.9.2342.19200300.100.4",
    "urn:ietf:rfc:2648", "urn:ietf:id:ietf-urn-ietf-06", "urn:ietf:mtg:41-urn",
    "urn:ietf:params:xml:ns:xmpp-bind", "urn:ietf:params:capport:unrestricted",
    "urn:doi:10.1000/456%23789", "urn:lex:it:stato:legge:2003-09-21;456",
    "urn:s1000d:DMC-AE-A-07-05-0000-00A-040A-A_I-001_L-EN",
    "urn:nan:fi:ka:a-1510439051",
]


@pytest.mark.parametrize("key", VALID_CHECKS)
def test_no_findings_for_valid_names(key: str):
    assert ns_findings(key) == ()


INVALID_CHECKS = [
    # RFC 6963 §3: documentation only, tagged (namespaces.md §1)
    ("urn:example:anything", ["example-namespace"]),
    ("urn:isbn:951-0-18435-8", ["isbn-check-digit"]),
    ("urn:isbn:978-951-0-18435-7", ["isbn-check-digit"]),
    ("urn:isbn:0-8044-2957-1", ["isbn-check-digit"]),
    ("urn:isbn:1234567890128", ["isbn-prefix"]),
    ("urn:isbn:978-4-XXXX-YYYY-Z", ["isbn-malformed"]),
    ("urn:issn:0317-8472", ["issn-check-digit"]),
    ("urn:issn:1050-1240", ["issn-check-digit"]),
    ("urn:issn:317-8471", ["issn-malformed"]),
    ("urn:isni:0000000121241961", ["isni-check-digit"]),
    ("urn:isni:0000%200001%202124%201960", ["isni-malformed"]),
    ("urn:isan:0000-0001-8CFA-0000-A-0000-0000-K", ["isan-check-digit"]),
    ("urn:isan:1881-66C7-3420-6541-Y-9F3A-0245-A", ["isan-check-digit"]),
    ("urn:isan:1881-66C7-3420-6541-X-9F3A-0245-A", ["isan-check-digit", "isan-check-digit"]),
    ("urn:isan:0000-0000-D07A-0090", ["isan-malformed"]),
    ("urn:eidr:10.5240:7791-8534-2C23-9030-8610-6", ["eidr-check-digit"]),
    ("urn:eidr:10.5240:7791-8534", ["eidr-malformed"]),
    ("urn:nbn:de:gbv:089-3321752946", ["nbn-check-digit"]),
    ("urn:nbn:de:0074-1000-8", ["nbn-check-digit"]),
    ("urn:nbn:de:gbv:089-abc", ["nbn-check-digit"]),
    ("urn:nbn:de_x", ["nbn-malformed"]),
    ("urn:nan:fi", ["nan-malformed"]),
    ("urn:uuid:%7Bf81d4fae-7dec-11d0-a765-00a0c91e6bf6%7D", ["uuid-malformed"]),
    ("urn:uuid:f81d4fae7dec11d0a76500a0c91e6bf6", ["uuid-malformed"]),
    ("urn:uuid:00000000-0000-0000-0000-000000000000", ["uuid-nil"]),
    ("urn:uuid:FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", ["uuid-max"]),
    ("urn:oid:1.3.06.1", ["oid-leading-zeros"]),
    ("urn:oid:1..2", ["oid-malformed"]),
    ("urn:ietf:rfc:abc", ["ietf-malformed"]),
    ("urn:ietf:rfc", ["ietf-malformed"]),
    ("urn:ietf:foo:1", ["ietf-subnamespace-unregistered"]),
    ("urn:ietf:params:nonexistent:x", ["ietf-params-unregistered"]),
    ("urn:ietf:params", ["ietf-params-unregistered"]),
    ("urn:doi:abc", ["doi-malformed"]),
    ("urn:lex:it", ["lex-malformed"]),
    ("urn:s1000d:XYZ-1", ["s1000d-malformed"]),
]


@pytest.mark.parametrize("key, codes", INVALID_CHECKS)
def test_findings_for_invalid_names(key: str, codes: list):
    findings = ns_findings(key)
    assert [f.code for f in findings] == codes
    assert all(f.severity == WARNING for f in findings)
    assert all(f.code in FINDING_CODES for f in findings)
    assert all(f.position is not None and 0 <= f.position < len(key) for f in findings)


@pytest.mark.parametrize("key", ["urn:isbn:951-0-18435-8", "urn:issn:0317-8472",
                                 "urn:isni:0000000121241961", "urn:nbn:de:0074-1000-8"])
def test_check_digit_findings_point_at_the_check_character(key: str):
    (finding,) = ns_findings(key)
    assert finding.position == len(key) - 1


def test_findings_use_the_given_registry(newer_xml: Path, params_xml: Path):
    registry = load_registry(newer_xml, params=params_xml)
    assert [f.code for f in ns_findings("urn:ietf:params:oauth:x", registry)] == [
        "ietf-params-unregistered"]
    assert ns_findings("urn:ietf:params:oauth:x") == ()


@given(st.text("ab:", max_size=8), st.frozensets(st.text("ab:", max_size=5), max_size=6))
def test_a_params_name_is_registered_when_it_or_a_name_above_it_is(name: str, registered: frozenset):
    from urnscan.namespaces.findings import _under_registered

    expected = any(name == p or name.startswith(p + ":") for p in registered)
    assert _under_registered(name, registered) == expected


# --- check digits against independently computed values -------------------------


@given(st.text("0123456789", min_size=9, max_size=9))
def test_isbn10_and_isbn13_of_one_book_share_an_ns_key(first9: str):
    isbn10 = first9 + isbn10_check(first9)
    body = "978" + first9
    isbn13 = body + isbn13_check(body)
    hyphenated = f"{isbn10[0]}-{isbn10[1:4]}-{isbn10[4:9]}-{isbn10[9]}"
    assert ns_key(f"urn:isbn:{isbn10}") == ns_key(f"urn:isbn:{isbn13}") == f"urn:isbn:{isbn13}"
    assert ns_key(f"urn:isbn:{hyphenated}") == f"urn:isbn:{isbn13}"
    assert ns_findings(f"urn:isbn:{isbn10}") == ns_findings(f"urn:isbn:{isbn13}") == ()


# the IANA isbn template's two forms: 10 digits (the last may be "X") or 13,
# hyphens allowed between any two of them
_ISBN10 = re.compile(r"[0-9](?:-?[0-9]){8}-?[0-9Xx]")
_ISBN13 = re.compile(r"[0-9](?:-?[0-9]){12}")


@given(st.lists(st.text("0123456789Xx", min_size=1, max_size=1), min_size=1, max_size=15),
       st.lists(st.booleans(), max_size=15), st.sampled_from(["", "-", " ", "a"]), st.booleans())
def test_isbn_compact_reads_the_ten_and_thirteen_digit_forms(digits, hyphens, end, again):
    from urnscan.namespaces.normative import isbn_compact

    nss = digits[0] + "".join(("-" if h else "") + d for d, h in zip(digits[1:], hyphens + [False] * 15)) + end
    if again:
        isbn_compact(nss)  # (the answer kept for the NSS asked last is the same)
    expected = nss.replace("-", "") if _ISBN10.fullmatch(nss) or _ISBN13.fullmatch(nss) else None
    assert isbn_compact(nss) == expected
    assert isbn_compact("other") is None


@given(st.text("0123456789", min_size=7, max_size=7))
def test_issn_with_and_without_hyphen(first7: str):
    issn = first7 + issn_check(first7)
    compact, hyphenated = f"urn:issn:{issn}", f"urn:issn:{issn[:4]}-{issn[4:]}"
    assert ns_key(compact) == ns_key(hyphenated) == hyphenated
    assert ns_findings(compact) == ()
    wrong = issn[:7] + ("0" if issn[7] != "0" else "1")
    assert [f.code for f in ns_findings(f"urn:issn:{wrong}")] == ["issn-check-digit"]


# --- dedup_key -----------------------------------------------------------------------

DEDUP_CASES = [
    ("urn:uuid:%7Bf81d4fae-7dec-11d0-a765-00a0c91e6bf6%7D",
     "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", ("h:uuid-repair",)),
    ("urn:uuid:F81D4FAE7DEC11D0A76500A0C91E6BF6",
     "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", ("h:uuid-repair",)),
    ("urn:uuid:%7Bf81d4fae-7dec-11d0-a765-00a0c91e6bf6",
     "urn:uuid:%7Bf81d4fae-7dec-11d0-a765-00a0c91e6bf6", ()),  # unbalanced brace
    ("urn:oid:1.3.06.1", "urn:oid:1.3.6.1", ("h:oid-leading-zeros",)),
    ("urn:ietf:RFC:0822", "urn:ietf:rfc:822", ("ietf-case", "h:ietf-leading-zeros")),
    ("urn:doi:10.17487/RFC8174", "urn:ietf:rfc:8174", ("doi-case", "h:doi-rfc-to-ietf")),
    ("urn:eidr:10.5240:7791-8534-2C23-9030-8610-5",
     "urn:doi:10.5240/7791-8534-2c23-9030-8610-5", ("eidr-case", "h:eidr-to-doi")),
    ("urn:isbn:0%20451%2045052%203", "urn:isbn:9780451450524",
     ("h:isbn-separators", "isbn-hyphens", "isbn-10-to-13")),
    ("urn:isbn:978%E2%80%900451450524", "urn:isbn:9780451450524",
     ("h:isbn-separators", "isbn-hyphens")),
    ("urn:isbn:978\u20100451450524", "urn:isbn:9780451450524", ("h:isbn-separators", "isbn-hyphens")),
    ("urn:isbn:978 0 451 45052 4", "urn:isbn:9780451450524", ("h:isbn-separators", "isbn-hyphens")),
    ("urn:isbn:9780451450524", "urn:isbn:9780451450524", ()),  # no separator: nothing to read
    ("urn:isbn:978-0451450524", "urn:isbn:9780451450524", ("isbn-hyphens",)),
    ("urn:isni:0000%200001%202124%201960", "urn:isni:0000000121241960", ("h:isni-spaces",)),
    ("urn:lex:it:stato:legge:2003-09-21;456@originale",
     "urn:lex:it:stato:legge:2003-09-21;456", ("h:lex-work",)),
    ("urn:lex:it:stato:legge:2003-09-21;456$text-html",
     "urn:lex:it:stato:legge:2003-09-21;456", ("h:lex-work",)),
    ("urn:lex:de:stadt:M%C3%BCnchen:satzung", "urn:lex:de:stadt:muenchen:satzung",
     ("lex-case", "h:lex-transliterate")),
    ("urn:lex:it:regione:sanit%C3%A0:legge", "urn:lex:it:regione:sanita:legge",
     ("h:lex-transliterate",)),
    ("urn:lex:it:stato:legge:2/2003", "urn:lex:it:stato:legge:2-2003", ("lex-slash",)),
    ("urn:iso:std:iso:9999:-1:ed-1:en", "urn:iso:std:iso:9999:-1", ("h:iso-same-standard",)),
    ("urn:iso:std:iso-iec:9075:-3:stage-95.99:ed-2:en", "urn:iso:std:iso-iec:9075:-3",
     ("h:iso-same-standard",)),
    ("urn:iso:std:iso-iec:tr:9999:-1:ed-1:en", "urn:iso:std:iso-iec:tr:9999:-1",
     ("h:iso-same-standard",)),
    ("urn:iso:std:iso:9999:-1:ed-2:en:amd:1:v2", "urn:iso:std:iso:9999:-1",
     ("h:iso-same-standard",)),
    # RFC 5141 §2.4: an addition (":tech...") is a resource in its own right
    ("urn:iso:std:iso:20022:tech:xsd:pain.001.001.03", "urn:iso:std:iso:20022:tech:xsd:pain.001.001.03", ()),
    ("urn:iso:std:iso:20022:ed-1:en:tech:xsd:pain.001.001.03", "urn:iso:std:iso:20022:tech:xsd:pain.001.001.03",
     ("h:iso-same-standard",)),
    ("urn:iso:std:iso:9999:-1:ed-1:en:clause:3.1:tech:rdf", "urn:iso:std:iso:9999:-1:tech:rdf",
     ("h:iso-same-standard",)),
    # ... and so may a segment the grammar does not name; a stray ":" names nothing
    ("urn:iso:std:iso:11073:10101", "urn:iso:std:iso:11073:10101", ()),
    ("urn:iso:std:iso:11073:ed-1:10101", "urn:iso:std:iso:11073:10101", ("h:iso-same-standard",)),
    ("urn:iso:std:iso:9999:-1:ed-1:en:", "urn:iso:std:iso:9999:-1", ("h:iso-same-standard",)),
    ("urn:iso:std:iso:105:-c12:ed-1:en:clause:a.1,a.2", "urn:iso:std:iso:105:-c12", ("h:iso-same-standard",)),
    ("urn:iso:std:iso:5817:ed-2:v2:en:cor:1:en", "urn:iso:std:iso:5817", ("h:iso-same-standard",)),
    ("urn:iso:std:iso:128:-71:stage-30.98.v2:ed-1:en", "urn:iso:std:iso:128:-71", ("h:iso-same-standard",)),
    ("urn:s1000d:DMC-AE-A-07-05-0000-00A-040A-A_I-001_L-EN",
     "urn:s1000d:DMC-AE-A-07-05-0000-00A-040A-A", ("h:s1000d-same-module",)),
    ("urn:dev:mac:0024BEFFFE804FF1", "urn:dev:mac:0024befffe804ff1", ("h:dev-mac-case",)),
    ("urn:example:foo/", "urn:example:foo", ("h:trailing-slash",)),
    ("urn:isbn:0-451-45052-3/", "urn:isbn:9780451450524",
     ("h:trailing-slash", "isbn-hyphens", "isbn-10-to-13")),
    ("urn:isbn:951-0-18435-7", "urn:isbn:9789510184356", ("isbn-hyphens", "isbn-10-to-13")),
    # a heuristic reads the key the trailing-slash rule left, not the one before
    ("urn:oid:1.02.3/", "urn:oid:1.2.3", ("h:trailing-slash", "h:oid-leading-zeros")),
    ("urn:ietf:params:xml:ns:XMPP-Bind", "urn:ietf:params:xml:ns:XMPP-Bind", ()),
    ("urn:nbn:de:gbv:089-ABC", "urn:nbn:de:gbv:089-ABC", ()),
    ("not a key", "not a key", ()),
]


@pytest.mark.parametrize("key, expected, rules", DEDUP_CASES)
def test_dedup_key(key: str, expected: str, rules: tuple):
    assert dedup_key(key) == (expected, rules)


@pytest.mark.parametrize("key", [case[0] for case in DEDUP_CASES])
def test_dedup_rules_list_the_normative_rules_then_the_heuristics(key: str):
    normative = ns_key_rules(key)
    names = dedup_key(key)[1]
    assert names[:len(normative)] == normative
    assert not any(n.startswith("h:") for n in normative)
    heuristic_part = names[len(normative):]
    assert not heuristic_part or heuristic_part[0].startswith("h:")


def test_dedup_key_does_not_merge_ietf_params_case_variants():
    assert dedup_key("urn:ietf:params:xml:ns:a")[0] != dedup_key("urn:ietf:params:xml:ns:A")[0]


# --- properties -------------------------------------------------------------------------

RULED_NIDS = ["uuid", "isbn", "issn", "isni", "isan", "nbn", "nan", "oid", "ietf", "doi",
              "eidr", "lex", "iso", "s1000d", "mpeg", "gs1", "smpte", "mrn", "gdst", "dev",
              "service", "epc", "example", "ISBN", "x-pdf"]
NSS_PIECES = st.one_of(
    st.sampled_from(list("0123456789abcdefABCDEFxX-:/.;@$_~{} %")),
    st.sampled_from(["%2F", "%20", "%41", "%7B", "%7D", "%C3%BC", "%E2%80%90", "%25", "%2f",
                     "%D0%B0", "978", "979", "std:", "rfc:", "params:", "10.5240:",
                     "10.17487/rfc", "mac:", "de:", "_I-001", "_L-EN", "ul:", "gdd:", "0000"]),
)
KEYS = st.builds(lambda nid, pieces: f"urn:{nid}:{''.join(pieces)}",
                 st.sampled_from(RULED_NIDS), st.lists(NSS_PIECES, max_size=24))
ANY_TEXT = st.one_of(st.text(), KEYS)


@settings(max_examples=400)
@given(ANY_TEXT)
def test_ns_key_is_total_and_idempotent(key: str):
    result = ns_key(key)
    assert isinstance(result, str)
    assert ns_key(result) == result
    assert ns_key_rules(result) == ()
    assert bool(ns_key_rules(key)) == (result != key)


@settings(max_examples=400)
@given(KEYS, st.sampled_from(["URN", "Urn", "urn"]))
def test_ns_key_is_a_function_of_the_equivalence_key(key: str, scheme: str):
    """Spellings RFC 8141 section 3.1 makes equivalent (case of "urn", of the
    NID, of percent-encoding hex digits; components) reach one ns_key and
    one dedup_key through their equivalence key."""
    verdict = validate(key)
    assume(verdict.valid)
    urn = verdict.urn
    spelling = f"{scheme}:{urn.nid.swapcase()}:" + re.sub(
        "%[0-9A-Fa-f]{2}", lambda m: m.group().swapcase(), urn.nss) + "?=q#f"
    assert equivalence_key(spelling) == equivalence_key(key)
    assert ns_key(equivalence_key(spelling)) == ns_key(equivalence_key(key))
    assert dedup_key(equivalence_key(spelling)) == dedup_key(equivalence_key(key))


@settings(max_examples=400)
@given(KEYS, st.sampled_from(["", "/", "?=q", "#f"]))
def test_the_judgement_holds_the_keys_and_findings_of_its_key(key: str, tail: str):
    """judge() splits the key it made itself, not with split_key: its fields
    are those the public functions give for that key."""
    from urnscan.judge import judge
    from urnscan.namespaces.findings import checksum_verdict
    from urnscan.namespaces.heuristic import namespace_keys

    judged = judge(key + tail)
    assume(judged.valid)
    keys = namespace_keys(judged.key)
    assert (judged.ns_key, judged.dedup_key) == (keys.ns_key, keys.dedup_key)
    rules = keys.dedup_rules if keys.ns_key == judged.key else tuple(dict.fromkeys(keys.dedup_rules))
    assert judged.dedup_rules == ",".join(rules)
    of_namespace = ns_findings(judged.key)
    assert judged.findings[len(judged.findings) - len(of_namespace):] == of_namespace
    nid, _, nss = judged.key[4:].partition(":")
    assert judged.valid_checksum == checksum_verdict(judged.key, nid, nss, of_namespace)


@settings(max_examples=400)
@given(ANY_TEXT)
def test_dedup_key_depends_only_on_ns_key(key: str):
    grouped, rules = dedup_key(key)
    assert isinstance(grouped, str) and all(isinstance(r, str) for r in rules)
    assert dedup_key(ns_key(key))[0] == grouped
    assert rules[:len(ns_key_rules(key))] == ns_key_rules(key)


@settings(max_examples=400)
@given(ANY_TEXT)
def test_dedup_key_is_idempotent(key: str):
    grouped = dedup_key(key)[0]
    assert dedup_key(grouped) == (grouped, ())


@settings(max_examples=400)
@given(ANY_TEXT)
def test_ns_findings_never_raise_and_are_warnings(key: str):
    findings = ns_findings(key)
    assert isinstance(findings, tuple)
    for finding in findings:
        assert finding.severity == WARNING
        assert finding.code in FINDING_CODES
        assert finding.position is None or 0 <= finding.position <= len(key)


CASE_INSENSITIVE_NIDS = ["ietf", "lex", "iso", "service", "alert", "eidr", "stalwart"]


@given(st.sampled_from(CASE_INSENSITIVE_NIDS),
       st.text("abcdefXYZ0123456789-:.;", min_size=1, max_size=20))
def test_case_insensitive_namespaces_merge_case_variants(nid: str, nss: str):
    assume(not (nid == "ietf" and nss.split(":", 1)[0].lower() == "params"))  # RFC 3553 §3: exact
    assert ns_key(f"urn:{nid}:{nss}") == ns_key(f"urn:{nid}:{nss.swapcase()}")


# --- purity -------------------------------------------------------------------------------


def test_imports_only_model_errors_and_grammar_and_no_dataframe_library():
    script = textwrap.dedent(f"""
        import importlib.abc, sys, types
        class Block(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path, target=None):
                if name.split(".")[0] in ("pandas", "pyarrow"):
                    raise ImportError("blocked: " + name)
        sys.meta_path.insert(0, Block())
        package = types.ModuleType("urnscan")
        package.__path__ = [{str(REPO / "urnscan")!r}]
        sys.modules["urnscan"] = package
        from urnscan.namespaces import dedup_key, namespace_status, ns_findings, ns_key
        assert ns_key("urn:isbn:951-0-18435-7") == "urn:isbn:9789510184356"
        assert namespace_status("isbn") == "formal"
        ns_findings("urn:issn:0317-8471"); dedup_key("urn:oid:1.01")
        loaded = {{m for m in sys.modules if m.startswith("urnscan.")}}
        outside = {{m for m in loaded if not m.startswith("urnscan.namespaces")}}
        assert outside <= {{"urnscan.model", "urnscan.errors", "urnscan._abnf", "urnscan._lazy",
                            "urnscan.lazyre"}}, outside
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_environment_names_a_newer_registry(monkeypatch, tmp_path):
    from urnscan.namespaces import default_registry, namespace_status
    from urnscan.namespaces.registry import REGISTRY_ENV

    xml = iana_file("urn-namespaces.xml")
    edited = tmp_path / "urn-namespaces.xml"
    edited.write_text(xml.read_text(encoding="utf-8").replace("<name>isbn</name>", "<name>isbnx</name>", 1),
                      encoding="utf-8")
    assert namespace_status("isbn") == "formal"
    monkeypatch.setenv(REGISTRY_ENV, str(edited))
    assert namespace_status("isbnx") == "formal" and namespace_status("isbn") == "unregistered"
    assert default_registry().date
    monkeypatch.delenv(REGISTRY_ENV)
    assert namespace_status("isbn") == "formal"


def test_a_registry_passed_in_is_used_without_the_environment(monkeypatch, tmp_path):
    """The registry travels with the scan options: no environment variable
    is read or set, and the default registry is left alone."""
    from urnscan import scan_bytes
    from urnscan.judge import UrnJudge
    from urnscan.namespaces.registry import REGISTRY_ENV

    xml = iana_file("urn-namespaces.xml")
    edited = tmp_path / "urn-namespaces.xml"
    edited.write_text(xml.read_text(encoding="utf-8").replace("<name>isbn</name>", "<name>isbnx</name>", 1),
                      encoding="utf-8")
    monkeypatch.delenv(REGISTRY_ENV, raising=False)
    text = [b"see urn:isbnx:123 and urn:isbn:0-451-45052-3\n"]
    statuses = {h.nid: h.namespace_status for h in scan_bytes(text, registry=str(edited))}
    assert statuses == {"isbnx": "formal", "isbn": "unregistered"}
    # the same URNs judged by the default registry are not taken from the
    # other registry's cache
    statuses = {h.nid: h.namespace_status for h in scan_bytes(text)}
    assert statuses == {"isbnx": "unregistered", "isbn": "formal"}
    assert REGISTRY_ENV not in __import__("os").environ
    status_at = Hit._fields.index("namespace_status") - Hit._fields.index("valid")
    assert UrnJudge("rfc8141", str(edited)).tail("urn:isbnx:1")[status_at] == "formal"


def test_the_packaged_registry_is_read_beside_the_module_or_through_importlib(monkeypatch, tmp_path):
    from urnscan.namespaces import registry

    beside = registry._packaged_json()
    assert beside.lstrip()[:1] == b"{"
    monkeypatch.setattr(registry, "_PACKAGED_PATH", str(tmp_path / "not-there.json"))  # not a directory install
    assert registry._packaged_json() == beside


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["example", "oasis", "isbn", "ietf", "uuid", "lex", "doi", "x-y", "nbn", "Example"]),
       st.text(alphabet="abc019-./:%AF{}", max_size=20))
def test_namespace_keys_quick_exit_is_the_whole_computation(nid, nss):
    """A key no rule or heuristic applies to leaves namespace_keys at once,
    with what the rounds of rules would give."""
    from urnscan.namespaces.heuristic import NamespaceKeys, _apply_heuristics, namespace_keys
    from urnscan.namespaces.normative import rewrite_key

    key = f"urn:{nid}:{nss}"
    normalised, rules = rewrite_key(key)
    applied = list(rules)
    assert namespace_keys(key) == NamespaceKeys(normalised, rules, _apply_heuristics(normalised, applied),
                                                tuple(applied))


# --- valid_checksum: the check characters of the names that carry them (namespaces.md §5)
@pytest.mark.parametrize("urn, expected", [
    ("urn:isbn:0-306-40615-2", True),
    ("urn:isbn:0-306-40615-3", False),
    ("urn:isbn:978-0-306-40615-7", True),
    ("urn:isbn:9780306406158", False),
    ("urn:isbn:030640615x", False),
    ("urn:isbn:12", None),  # malformed: nothing to check
    ("urn:issn:1050-124X", True),
    ("urn:issn:1050-1241", False),
    ("urn:isni:0000000121241960", True),
    ("urn:isni:0000000121241961", False),
    ("urn:isan:0000-0000-9E59-0000-O-0000-0000-2", True),
    ("urn:isan:0000-0000-9E59-0000-P", False),
    ("urn:eidr:10.5240:7791-8534-2C23-9030-8610-5", True),
    ("urn:eidr:10.5240:7791-8534-2C23-9030-8610-6", False),
    ("urn:eidr:10.5237:abc", None),  # another DOI prefix: no check character
    ("urn:nbn:de:gbv:089-3321752945", True),
    ("urn:nbn:de:gbv:089-3321752944", False),
    ("urn:nbn:fi-fe201003181510", None),  # the DNB digit is Germany's only
    ("urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66", None),
    ("urn:example:a", None),
    ("urn:a:b", None),  # not a URN under RFC 8141
])
def test_valid_checksum(urn, expected):
    from urnscan.judge import judge
    from urnscan.report import check_record

    assert judge(urn).valid_checksum is expected
    assert check_record(urn, "rfc8141")["valid_checksum"] is expected
    hits = urnscan.scan_text(f"see {urn} here")
    assert [h.valid_checksum for h in hits] == [expected]


# --- publicid: RFC 3151 section 1.1, an FPI and its name one from the other
@pytest.mark.parametrize("fpi, urn", [
    ("-//OASIS//DTD DocBook XML V4.1.2//EN", "urn:publicid:-:OASIS:DTD+DocBook+XML+V4.1.2:EN"),  # §3
    ("ISO/IEC 10179:1996//DTD DSSSL Architecture//EN",
     "urn:publicid:ISO%2FIEC+10179%3A1996:DTD+DSSSL+Architecture:EN"),
    ("+//IDN example.org::foo//DTD x//EN", "urn:publicid:%2B:IDN+example.org;foo:DTD+x:EN"),
    ("-//A'B//X?#%//EN", "urn:publicid:-:A%27B:X%3F%23%25:EN"),
])
def test_publicid_transcription(fpi, urn):
    from urnscan.namespaces import publicid_fpi, publicid_urn

    assert publicid_urn(fpi) == urn
    assert publicid_fpi(urn) == fpi
    assert validate(urn).valid


def test_publicid_white_space_is_normalized_first():
    from urnscan.namespaces import publicid_urn

    assert publicid_urn("  -//W3C//DTD \t XHTML 1.0\nStrict//EN ") == "urn:publicid:-:W3C:DTD+XHTML+1.0+Strict:EN"


@pytest.mark.parametrize("urn", ["urn:isbn:1", "urn:publicid:a%zz", "urn:publicid:a%C3", "urn:publicid:a b"])
def test_publicid_fpi_of_what_is_no_transcription(urn):
    from urnscan.namespaces import publicid_fpi

    assert publicid_fpi(urn) is None


@given(st.text(alphabet=st.sampled_from("ABCxyz019 -'()+,./:=?;#%"), max_size=40))
def test_publicid_round_trip(fpi):
    from urnscan.namespaces import publicid_fpi, publicid_urn

    normal = " ".join(fpi.split())
    urn = publicid_urn(fpi)
    assert publicid_fpi(urn) == normal
    assert validate(urn).valid or not normal
