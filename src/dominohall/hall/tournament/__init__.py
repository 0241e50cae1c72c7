"""Tournaments (issue 25): pairing engines as pure data (``matching``, ``arena``, ``swiss``)."""
