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


def test_every_documented_option_exists():
    helps = {cmd: subprocess.run([sys.executable, "-m", "urnscan", cmd, "--help"], capture_output=True,
                                 text=True).stdout for cmd in ("scan", "check", "dedupe")}
    for option in re.findall(r"`(--[a-z-]+)`", README):
        assert any(option in text for text in helps.values()), option
