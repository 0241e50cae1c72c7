"""The ``dominohall`` command line."""
