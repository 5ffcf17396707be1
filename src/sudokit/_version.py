"""The package version (single source, read by setuptools)."""

__version__ = "0.1.0"
