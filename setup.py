"""The optional C accelerator; every other setting is in pyproject.toml.

``optional=True``: when the extension cannot be compiled (no C compiler,
no Python headers) the build goes on and the package runs its pure-Python
code (see urnscan/accel.py)."""
from setuptools import Extension, setup

setup(ext_modules=[Extension("urnscan._accel", ["urnscan/_accel.c"], optional=True)])
