"""The README and the commands agree."""
import re
import subprocess
import sys
from pathlib import Path

from urnscan.sinks.schema import describe_schema

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def test_readme_schema_is_the_code_schema():
    block = README.split("<!-- schema:begin -->")[1].split("<!-- schema:end -->")[0]
    assert block.strip() == describe_schema().strip()


def test_quick_start_has_two_commands():
    section = re.search(r"^## Quick start\n(.*?)^## ", README, re.S | re.M).group(1)
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    commands = [line for line in block.splitlines() if line.strip() and not line.startswith("#")]
    assert len(commands) == 2
    assert "urnscan scan data/samples" in commands[0] and "pytest" in commands[1]
    # CI runs the README's test command: its install, then its pytest line
    ci = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text(encoding="utf-8")
    install, pytest_line = (part.strip() for part in commands[1].split("&&"))
    assert install in ci and pytest_line in ci.splitlines()


def test_every_documented_option_exists():
    helps = {cmd: subprocess.run([sys.executable, "-m", "urnscan", cmd, "--help"], capture_output=True,
                                 text=True).stdout for cmd in ("scan", "check", "dedupe")}
    helps["urnscan"] = subprocess.run([sys.executable, "-m", "urnscan", "--help"], capture_output=True,
                                      text=True).stdout
    for option in re.findall(r"`(--[a-z-]+)", README):
        assert any(option in text for text in helps.values()), option


def _options_of_every_command():
    from urnscan.cli import build_parser

    parser = build_parser()
    commands = {"urnscan": parser}
    for action in parser._actions:
        if getattr(action, "choices", None) and isinstance(action.choices, dict):
            commands.update({f"urnscan {name}": sub for name, sub in action.choices.items()})
    return {(cmd, opt) for cmd, p in commands.items() for a in p._actions for opt in a.option_strings
            if opt not in ("-h", "--help")}


def test_every_option_of_every_command_is_in_the_readme():
    section = re.search(r"^## Command line\n(.*?)^## ", README, re.S | re.M).group(1)
    options = _options_of_every_command()
    assert ("urnscan scan", "--unique") in options and ("urnscan", "-V") in options
    missing = sorted(f"{cmd} {opt}" for cmd, opt in options
                     if not re.search(rf"(?<![\w-]){re.escape(opt)}(?![\w-])", section))
    assert not missing, f"options not described in the README's command-line section: {missing}"


def _rule_rows():
    section = re.search(r"^## What it finds\n(.*?)^## ", README, re.S | re.M).group(1)
    table = section.split("| rule | what it does |")[1].split("\n\n")[0]
    return [row for row in table.splitlines()[2:] if row.startswith("| `")]


def test_readme_lists_every_reading_rule():
    from urnscan.extract import Rule

    names = {name for row in _rule_rows() for name in re.findall(r"`([a-z0-9]+:[a-z0-9-]+)`", row.split(" | ")[0])}
    assert names == {rule.value for rule in Rule}


def test_readme_rule_examples_hold():
    from urnscan import scan_text

    checked = 0
    for row in _rule_rows():
        names = re.findall(r"`([a-z0-9]+:[a-z0-9-]+)`", row.split(" | ")[0])
        m = re.search(r"`([^`]*)` -> `([^`]*)`", row)
        if m is None:
            continue
        text, urn = m.group(1).replace("\u23ce", "\n"), m.group(2)
        asked = {"percent": True} if "`percent=True`" in row.split(" | ")[-1] else {}  # a rule read when asked for
        hits = [h for h in scan_text(text, **asked) if h.urn == urn]
        assert hits, (text, [h.urn for h in scan_text(text, **asked)])
        assert set(names[:1]) <= set(hits[0].rules), (text, hits[0].rules)
        checked += 1
    assert checked >= 12
