"""Tests of attnlib.checks, one module per module of the package."""
