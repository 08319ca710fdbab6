"""The benchmarks of whole commands measure the installed urnscan, and say
which code ran (benchmarks/measured.py)."""
import importlib.util
import subprocess
from pathlib import Path

import pytest

import urnscan
from urnscan.accel import COMPILED

_CHECKOUT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("measured", _CHECKOUT / "benchmarks" / "measured.py")
measured = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(measured)


def test_commands_run_outside_the_checkout():
    # -m from inside would import the checkout's urnscan/ before an installed copy
    assert not Path(measured.OUTSIDE).resolve().is_relative_to(_CHECKOUT)


def test_the_working_directory_shadows_no_module(tmp_path):
    # Python puts the working directory first on sys.path for -m: a package
    # named urnscan there (the checkout) or a stray nt.py (pathlib tries
    # "import nt") would run inside the measured command
    (tmp_path / "urnscan").mkdir()
    (tmp_path / "urnscan" / "__main__.py").write_text("print('shadow')\n")
    (tmp_path / "nt.py").write_text("raise SystemExit('shadowed nt')\n")
    probe = "import pathlib, urnscan; print(urnscan.__file__)"
    shown = subprocess.run([*measured.URNSCAN, "-V"], cwd=tmp_path, capture_output=True, text=True)
    where = subprocess.run([*measured.URNSCAN[:2], "-c", probe], cwd=tmp_path, capture_output=True, text=True)
    assert shown.stdout.startswith(f"urnscan {urnscan.__version__} (")
    assert where.returncode == 0 and not Path(where.stdout.strip()).is_relative_to(tmp_path)


def test_commands_run_in_an_empty_directory_of_their_own():
    assert not any(Path(measured.OUTSIDE).iterdir())


def _package_named(line: str) -> Path:
    return Path(line.split(", from ", 1)[1])


def test_describe_names_the_code_measured():
    from urnscan.sources.pdf import pdf_available

    first, *warning = measured.describe().splitlines()
    assert first.startswith(f"measured: urnscan {urnscan.__version__} (")
    assert (_package_named(first) / "__init__.py").is_file()
    assert bool(warning) == ("pure Python" in first)
    # whether the corpus's PDFs were read is part of what was measured
    assert f", {measured.PDF_TEXT[pdf_available()]}, from " in first


def test_describe_warns_of_the_pure_python_fallback(monkeypatch):
    monkeypatch.setenv("URNSCAN_PURE_PYTHON", "1")
    first, warning = measured.describe().splitlines()
    assert "(pure Python: URNSCAN_PURE_PYTHON is set), " in first
    assert warning.startswith("WARNING: these are the numbers of urnscan's pure-Python fallback")


@pytest.mark.parametrize("value", ["", "0"])
def test_the_variable_unset_or_zero_keeps_the_compiled_code(monkeypatch, value):
    if COMPILED is None:
        pytest.skip("the compiled accelerator is not built here")
    monkeypatch.setenv("URNSCAN_PURE_PYTHON", value)
    assert "(compiled accelerator)" in measured.describe()


@pytest.mark.parametrize("alone, together, expected", [
    (1.0, 1.0, 2.0),  # two free cores: twice the work in the same time
    (1.0, 2.0, 1.0),  # one core shared: no gain
    (1.0, 1.6, 1.25),  # two cores sharing one physical core, or a busy host
])
def test_scaling_is_the_work_rate_of_two_processes(alone, together, expected):
    assert measured.scaling(alone, together) == pytest.approx(expected)


@pytest.mark.parametrize("alone, together", [(0.0, 1.0), (1.0, 0.0), (-1.0, 1.0)])
def test_scaling_refuses_times_that_are_not_positive(alone, together):
    with pytest.raises(ValueError):
        measured.scaling(alone, together)


def test_two_process_scaling_runs_the_loop_alone_and_twice_at_once():
    ratio = measured.two_process_scaling(count=200_000, repeat=1)
    # two processes never do more than about twice the work of one (start-up
    # noise aside), and always some of it
    assert 0.2 < ratio < 3.0
