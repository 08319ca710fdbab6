"""The examples in the core's docstrings run, python-stdnum style: each
public function of the core shows what it returns."""
import doctest
import importlib

import pytest

CORE_MODULES = ["urnscan._abnf", "urnscan.syntax", "urnscan.equivalence", "urnscan.model",
                "urnscan.namespaces.normative", "urnscan.namespaces.heuristic", "urnscan.namespaces.status",
                "urnscan.namespaces.publicid", "urnscan.cli.codes"]
DOCUMENTED = [
    ("urnscan.syntax", "parse"), ("urnscan.syntax", "validate"), ("urnscan.syntax", "is_valid"),
    ("urnscan.equivalence", "canonical"), ("urnscan.equivalence", "equivalence_key"),
    ("urnscan.equivalence", "display_form"), ("urnscan.namespaces.normative", "ns_key"),
    ("urnscan.namespaces.normative", "ns_key_rules"), ("urnscan.namespaces.heuristic", "dedup_key"),
    ("urnscan.namespaces.heuristic", "namespace_keys"), ("urnscan.namespaces.status", "namespace_status"),
    ("urnscan._abnf", "char_set"), ("urnscan.namespaces.publicid", "publicid_urn"),
    ("urnscan.namespaces.publicid", "publicid_fpi"),
]


@pytest.mark.parametrize("name", CORE_MODULES)
def test_docstring_examples_hold(name):
    module = importlib.import_module(name)
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert failed == 0 and attempted >= 1


@pytest.mark.parametrize("module, function", DOCUMENTED)
def test_public_function_has_an_example(module, function):
    doc = getattr(importlib.import_module(module), function).__doc__
    examples = doctest.DocTestParser().get_examples(doc)
    assert len(examples) >= 1, f"{module}.{function} shows no example"
