"""The engine's exceptions: each says precisely what was wrong."""


class DominoError(Exception):
    """Base class of every error the rules engine raises."""


class InvalidTileError(DominoError, ValueError):
    """A tile string that does not name a double-six tile."""


class IllegalMoveError(DominoError):
    """A well-formed move that the rules do not allow here (wrong seat, does not fit, ...)."""


class HandOverError(IllegalMoveError):
    """A move after the hand (or the game) has ended."""


class ConfigError(DominoError, ValueError):
    """An unknown preset, a player count or target the preset does not allow, a bad deal."""
