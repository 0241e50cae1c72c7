"""The rules engine: tiles, presets, layouts, one hand as a state machine, games, views, records.

Standard library only. Tiles are ints 0..27, sets of tiles are bitmasks, moves are small frozen values.

>>> import random
>>> from dominohall.rules import Game
>>> game = Game("all-fives", players=2, rng=random.Random(7))
>>> hand = game.start_hand()
>>> len(hand.legal_moves()) > 0
True
"""

from .compiled import warn_if_stale
from .errors import (
    ConfigError,
    DominoError,
    HandOverError,
    IllegalMoveError,
    InvalidTileError,
)
from .game import Game, LeadRule, check_deal, deal, draw_lots
from .hand import Hand, HandResult, legal_moves_of
from .layout import Layout
from .moves import DRAW, PASS, InvalidMoveError, Move, MoveKind
from .presets import (
    DEFAULT_PRESET,
    PRESET_LIST,
    PRESETS,
    Bonus,
    Count,
    CountValue,
    Drawing,
    FirstLead,
    GameEnd,
    LayoutKind,
    NextLead,
    Preset,
    get_preset,
)
from .scoring import in_units, play_score, round_to_five
from .tiles import (
    PIPS,
    RANK,
    Tile,
    TileSet,
    heaviest,
    make_tile,
    mask_of,
    parse_tile,
    pips_of,
    tile_name,
    tiles_of,
)
from .view import PublicMove, View

__all__ = [
    "Bonus",
    "ConfigError",
    "Count",
    "CountValue",
    "DEFAULT_PRESET",
    "DRAW",
    "DominoError",
    "Drawing",
    "FirstLead",
    "Game",
    "GameEnd",
    "Hand",
    "HandOverError",
    "HandResult",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidTileError",
    "LayoutKind",
    "LeadRule",
    "Layout",
    "Move",
    "MoveKind",
    "NextLead",
    "PASS",
    "PIPS",
    "PRESETS",
    "PRESET_LIST",
    "Preset",
    "PublicMove",
    "RANK",
    "Tile",
    "TileSet",
    "View",
    "check_deal",
    "deal",
    "draw_lots",
    "get_preset",
    "heaviest",
    "in_units",
    "legal_moves_of",
    "make_tile",
    "mask_of",
    "parse_tile",
    "pips_of",
    "play_score",
    "round_to_five",
    "tile_name",
    "tiles_of",
]

warn_if_stale()  # a working copy whose compiled engine misses an edit of its source
