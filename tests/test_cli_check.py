"""`urnscan check` as a user runs it: a subprocess, real exit codes."""
import json
import subprocess
import sys

import pytest


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "urnscan", *args], capture_output=True, text=True, input=stdin)


def test_check_valid_exits_zero():
    out = run("check", "URN:ISBN:0451450523", "urn:example:a%2c?+r#f")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("valid") and "key=urn:isbn:0451450523" in lines[0]
    assert "canonical=urn:example:a%2C?+r#f" in lines[1]
    assert "rfc2141:ok[reserved-char-unencoded(w)]" in lines[1]


def test_check_invalid_exits_one_and_says_why():
    out = run("check", "urn:example:a", "urn:a:x")
    assert out.returncode == 1
    assert out.stdout.splitlines()[1].startswith("INVALID  urn:a:x  rfc8141:invalid[nid-too-short]")


def test_check_prints_one_line_per_input():
    """An input with a line break or a tab in it (white space the 1995 draft
    unwraps) stays on its line, escaped; --json keeps it as it is."""
    out = run("check", "urn:ab:c\nd", "urn:ab:c\td")
    lines = out.stdout.splitlines()
    assert len(lines) == 2 and out.returncode == 1
    assert lines[0].startswith("INVALID  urn:ab:c\\nd  rfc8141:invalid[excluded-char]")
    assert lines[1].startswith("INVALID  urn:ab:c\\td  ")
    assert json.loads(run("check", "--json", "urn:ab:c\nd").stdout)["input"] == "urn:ab:c\nd"


def test_check_profile_decides_exit_code():
    assert run("check", "--profile", "rfc2141", "urn:a:x").returncode == 0


def test_check_json():
    out = run("check", "--json", "urn:X-foo:bar")
    record = json.loads(out.stdout)
    assert record["valid"] is True and record["key"] == "urn:x-foo:bar"
    codes = [f["code"] for f in record["profiles"]["rfc8141"]["findings"]]
    assert codes == ["experimental-nid"]
    assert set(record["profiles"]) == {"rfc8141", "rfc2141", "draft-2012", "draft-1995"}


def test_check_says_whether_the_check_character_matches():
    out = run("check", "urn:isbn:0-306-40615-2", "urn:isbn:0-306-40615-3", "urn:example:a")
    ok, wrong, none = out.stdout.splitlines()
    assert "checksum=ok" in ok and "checksum=wrong" in wrong and "checksum" not in none
    record = json.loads(run("check", "--json", "urn:isbn:0-306-40615-3").stdout)
    assert record["valid_checksum"] is False


def test_check_reads_stdin():
    out = run("check", "-", stdin="urn:example:a\n\nurn:example:b\n")
    assert out.returncode == 0 and len(out.stdout.splitlines()) == 2


@pytest.mark.parametrize("args", [("check",), ("check", "--profile", "nope", "urn:a:b"), ("frobnicate",), ()])
def test_usage_errors_exit_two(args):
    out = run(*args)
    assert out.returncode == 2 and "error" in out.stderr


def test_version_and_help():
    from urnscan import __version__

    from urnscan.accel import in_use

    assert run("--version").stdout.strip() == f"urnscan {__version__} ({in_use()})"
    assert "check" in run("--help").stdout


def _run_into(args, stdout: str, buffered: bool):
    """``urnscan ARGS`` with standard output on a full device (``full``) or
    on a pipe whose reader is gone (``closed pipe``), written through at
    once or buffered."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    command = [sys.executable, "-m", "urnscan", *args]
    if stdout == "full":
        if not os.path.exists("/dev/full"):
            pytest.skip("no /dev/full")
        with open("/dev/full", "w") as full:
            return subprocess.run(command, stdout=full, stderr=subprocess.PIPE, text=True, env=env)
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    proc.stdout.close()  # gone before the command writes
    return subprocess.CompletedProcess(command, proc.wait(timeout=60), None, proc.stderr.read())


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("args, stdout, code, message", [
    (["--version"], "full", 1, "urnscan: error: standard output: No space left on device\n"),
    (["--help"], "full", 1, "urnscan: error: standard output: No space left on device\n"),
    (["scan", "--help"], "full", 1, "urnscan: error: standard output: No space left on device\n"),
    (["--version"], "closed pipe", 0, ""),
    (["check", "--help"], "closed pipe", 0, ""),
])
def test_help_and_version_say_when_standard_output_fails(args, stdout, code, message, buffered):
    """A write error of --help or --version is one line and exit status 1 (it
    was an internal error, or exit 0 in silence); a reader gone away is quiet."""
    res = _run_into(args, stdout, buffered)
    assert (res.returncode, res.stderr) == (code, message)


def test_check_shows_namespace_knowledge():
    out = run("check", "URN:ISBN:0-451-45052-4", "urn:isbn:0451450523")
    first, second = out.stdout.splitlines()
    assert "namespace=formal" in first and "namespace-findings=isbn-check-digit" in first
    assert "ns_key=urn:isbn:9780451450524" in second and "namespace-findings" not in second
    record = json.loads(run("check", "--json", "urn:isbn:0451450524").stdout)
    assert [f["code"] for f in record["namespace_findings"]] == ["isbn-check-digit"]


@pytest.mark.parametrize("command", [["check", "urn:ab:c"], ["scan", "-"]])
def test_an_unknown_profile_is_refused_with_the_names_of_the_others(command):
    res = subprocess.run([sys.executable, "-m", "urnscan", *command, "--profile", "rfc9999"],
                         capture_output=True, text=True, input="")
    assert res.returncode == 2
    assert res.stderr.splitlines()[-1].endswith(
        "argument --profile: invalid choice: 'rfc9999' (choose from 'rfc8141', 'rfc2141', 'draft-2012', 'draft-1995')")


@pytest.mark.parametrize("urn, ns_key, dedup_key, rules", [
    # the heuristic beyond the namespace's rules, shown with its rule
    ("urn:iso:std:iso:9999:-1:ed-1:en", None, "urn:iso:std:iso:9999:-1", ("h:iso-same-standard",)),
    ("urn:oid:1.02.3/", None, "urn:oid:1.2.3", ("h:trailing-slash", "h:oid-leading-zeros")),
    # normative rules alone: the ns_key, no dedup_key beside it (its rules, in JSON)
    ("URN:ISBN:0-451-45052-3", "urn:isbn:9780451450524", None, ("isbn-hyphens", "isbn-10-to-13")),
    ("urn:example:foo", None, None, ()),
])
def test_check_shows_the_dedup_key_where_heuristics_change_it(urn, ns_key, dedup_key, rules):
    line = run("check", urn).stdout.strip()
    assert (f"ns_key={ns_key}" in line) if ns_key else "ns_key=" not in line
    assert (f"dedup_key={dedup_key} ({','.join(rules)})" in line) if dedup_key else "dedup_key=" not in line
    record = json.loads(run("check", "--json", urn).stdout)
    assert record["dedup_key"] == (dedup_key or ns_key or record["key"])
    assert record["dedup_rules"] == list(rules)


_GOOD_REGISTRY = {"format": "urnscan-urn-registry/1", "date": "2020-01-01",
                  "ietf": {"date": "2020-01-01", "subnamespaces": ["rfc"], "params": ["xml"]},
                  "formal": [{"nid": "isbn", "ref": ["RFC8254"], "template": "t", "registered": "2000-01-01"}],
                  "informal": [{"nid": "urn-1"}]}


def _registry_with(path: str, value):
    """The good registry with the field at ``path`` (``a.b[0].c``) set to ``value``."""
    import copy
    import re

    doc = copy.deepcopy(_GOOD_REGISTRY)
    *parents, last = [int(p) if p.isdigit() else p for p in re.findall(r"[^.\[\]]+", path)]
    place = doc
    for part in parents:
        place = place[part]
    place[last] = value
    return doc


@pytest.mark.parametrize("field, value, says", [
    ("ietf.subnamespaces", [1], "ietf.subnamespaces[0] must be a string (it is 1)"),
    ("ietf.subnamespaces", 1, "ietf.subnamespaces must be a list or null (it is 1)"),
    ("ietf.params", "xml", 'ietf.params must be a list or null (it is "xml")'),
    ("ietf.date", 2020, "ietf.date must be a string or null (it is 2020)"),
    ("ietf", [], "ietf must be an object or null (it is [])"),
    ("date", None, "date must be a string (it is null)"),
    ("formal", {"nid": "isbn"}, 'formal must be a list (it is {"nid": "isbn"})'),
    ("informal", None, "informal must be a list (it is null)"),
    ("formal[0]", "isbn", 'formal[0] must be an object (it is "isbn")'),
    ("formal[0].nid", 7, "formal[0].nid must be a string (it is 7)"),
    ("formal[0].ref", "RFC8254", 'formal[0].ref must be a list or null (it is "RFC8254")'),
    ("formal[0].ref", [None], "formal[0].ref[0] must be a string (it is null)"),
    ("formal[0].template", ["t"], 'formal[0].template must be a string or null (it is ["t"])'),
    ("informal[0].updated", {}, "informal[0].updated must be a string or null (it is {})"),
])
def test_a_registry_json_with_a_wrong_field_is_a_usage_error_naming_it(tmp_path, field, value, says):
    """A registry JSON whose field has the wrong type was an internal error
    (TypeError); it is refused, naming the variable, the file and the field."""
    registry = tmp_path / "reg.json"
    registry.write_text(json.dumps(_registry_with(field, value)))
    import os

    env = dict(os.environ, URNSCAN_REGISTRY=str(registry))
    res = subprocess.run([sys.executable, "-m", "urnscan", "check", "urn:isbn:0451450523"],
                         capture_output=True, text=True, env=env)
    assert (res.returncode, res.stderr) == (
        2, f"urnscan check: error: URNSCAN_REGISTRY: {registry}: not a registry JSON: {says}\n")
    res = run("scan", "-", "--registry", str(registry), stdin="urn:isbn:0451450523\n")
    assert (res.returncode, res.stderr) == (2, f"urnscan scan: error: --registry: {registry}: not a registry JSON: {says}\n")


def test_a_good_registry_json_is_judged_by(tmp_path):
    registry = tmp_path / "reg.json"
    registry.write_text(json.dumps(_GOOD_REGISTRY))
    res = run("scan", "-", "--registry", str(registry), "--format", "jsonl", stdin="urn:isbn:0451450523 urn:oid:1.2\n")
    assert res.returncode == 0, res.stderr
    assert [json.loads(line)["namespace_status"] for line in res.stdout.splitlines()] == ["formal", "unregistered"]


@pytest.mark.parametrize("command", [["check", "urn:isbn:0451450523"], ["scan", "-"]])
def test_an_unreadable_registry_named_by_the_environment_is_a_usage_error_naming_it(tmp_path, command):
    import os

    env = dict(os.environ, URNSCAN_REGISTRY=str(tmp_path / "none.json"))
    res = subprocess.run([sys.executable, "-m", "urnscan", *command], capture_output=True, text=True, env=env,
                         input="")
    assert (res.returncode, res.stderr) == (2, f"urnscan {command[0]}: error: URNSCAN_REGISTRY: cannot read "
                                               f"registry file {tmp_path / 'none.json'}: No such file or directory\n")


@pytest.mark.parametrize("given, shown", [
    (b"urn:isbn:\xff", "urn:isbn:\udcff"),  # an undecodable byte: a raw 0xFF was written
    (b"urn:ab:\xc3\xa9", "urn:ab:\u00e9"),  # UTF-8 stays characters
])
def test_check_json_is_valid_utf8_whatever_the_bytes_given(given, shown):
    import os

    for args, stdin in (([os.fsdecode(given)], None), (["-"], given + b"\n")):
        res = subprocess.run([sys.executable, "-m", "urnscan", "check", "--json", *args], capture_output=True,
                             input=stdin)
        assert json.loads(res.stdout.decode("utf-8"))["input"] == shown


@pytest.mark.parametrize("stdin, judged", [
    (b"\xef\xbb\xbfurn:isbn:0451450523\n", ["valid    urn:isbn:0451450523"]),  # was INVALID, bad-scheme
    (b"\xef\xbb\xbf\nurn:isbn:0451450523\n", ["valid    urn:isbn:0451450523"]),  # a mark alone on line 1
    (b"urn:isbn:0451450523\n\xef\xbb\xbfurn:isbn:0451450523\n",  # not at the start: part of the string
     ["valid    urn:isbn:0451450523", "INVALID  \\ufeffurn:isbn:0451450523"]),  # escaped, as shown
])
def test_check_reads_no_byte_order_mark_at_the_start_of_its_input(stdin, judged):
    res = subprocess.run([sys.executable, "-m", "urnscan", "check", "-"], capture_output=True, input=stdin)
    assert [line[:len(j)] for line, j in zip(res.stdout.decode().splitlines(), judged)] == judged
    assert len(res.stdout.splitlines()) == len(judged)


_STOP_AT_IMPORT = """
import sys
import importlib.abc

STOP_AT = sys.argv[1]


class Stop(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == STOP_AT:
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, Stop())
sys.argv[1:] = ["check", "urn:isbn:0451450523"]
import _urnscan_entry
_urnscan_entry.main()
"""


@pytest.mark.parametrize("module", [
    "urnscan.scanner",  # imported with the package, before the command can handle anything
    "urnscan.cli.check",  # imported while the command's parser is built
])
def test_ctrl_c_while_the_command_starts_is_a_line_and_130(module):
    """A Ctrl-C in the first tenth of a second, while the package was
    imported or the parser built, printed a traceback."""
    res = subprocess.run([sys.executable, "-c", _STOP_AT_IMPORT, module], capture_output=True, text=True)
    assert (res.returncode, res.stderr, res.stdout) == (130, "urnscan: interrupted\n", "")


def test_the_installed_command_starts_outside_the_package():
    """The ``urnscan`` command's entry point, whose import catches the Ctrl-C above."""
    from importlib.metadata import entry_points

    (command,) = [e for e in entry_points(group="console_scripts") if e.name == "urnscan"]
    assert command.value == "_urnscan_entry:main"
