"""Shared test helpers.  ``SHARED`` is the project's shared specification
folder beside the checkout.  Tests that need it skip when it is absent, so a
user's checkout runs the suite; CI sets ``URNSCAN_REQUIRE_SHARED=1`` and then a
missing folder fails those tests instead of skipping them."""
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
REQUIRE_SHARED = os.environ.get("URNSCAN_REQUIRE_SHARED", "") not in ("", "0")


def missing_shared(what: str) -> None:
    """Skip (or, when CI requires the shared folder, fail) a test whose shared
    input ``what`` is not beside the checkout."""
    message = f"the shared specification folder is not beside this checkout ({what} missing)"
    if REQUIRE_SHARED:
        pytest.fail(message + "; URNSCAN_REQUIRE_SHARED is set")
    pytest.skip(message)


def shared_path(*parts: str) -> Path:
    path = SHARED.joinpath(*parts)
    if not path.exists():
        missing_shared("/".join(parts))
    return path
