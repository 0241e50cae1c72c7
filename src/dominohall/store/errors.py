"""What the store refuses."""


class Conflict(Exception):
    """Another writer already took that version of the table, or that username: nothing was
    written."""


class StoreClosed(Exception):
    """The store was closed (the hall is stopping) before these events were written: nothing of
    them was committed."""
