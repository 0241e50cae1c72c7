"""Domino Hall: a self-hostable online dominoes hall, its rules engine and computer players."""

__version__ = "0.1.0"
