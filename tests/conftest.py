"""Shared test helpers.  ``SHARED`` is the project's shared specification
folder beside the checkout; tests that need it skip when it is absent."""
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


def shared_path(*parts: str) -> Path:
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"the shared specification folder is not beside this checkout ({'/'.join(parts)} missing)")
    return path
