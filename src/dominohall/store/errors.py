"""What the store refuses."""


class Conflict(Exception):
    """Another writer already took that version of the table, or that username: nothing was
    written."""
