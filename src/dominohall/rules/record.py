"""The game record (the project's "PGN"): read, write and check, as DESIGN.md specifies.

A record replays a game exactly: every deal and every move is written out. Checking happens in two
steps: first the whole document's shape (anything wrong there means it is not a record at all), then
the moves are replayed by the rules, and the first illegal move is reported with its place.

>>> import random
>>> game = Game("block", 2, rng=random.Random(5))
>>> hand = game.start_hand()
>>> hand.push(hand.legal_moves()[0])
>>> record = record_of(game, ["Ann", "Bob"])
>>> check_record(record)["ok"]
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from .errors import ConfigError, DominoError, IllegalMoveError, InvalidTileError
from .game import Game, check_deal
from .hand import Hand
from .moves import InvalidMoveError, Move, MoveKind
from .presets import Preset, get_preset
from .tiles import BIT, parse_tile, tile_name, tiles_of

FORMAT = "dominohall-record/1"


class RecordFormatError(DominoError):
    """The document is not a game record (bad JSON, a missing field, a malformed move, ...)."""


class RecordMoveError(IllegalMoveError):
    """A record whose move ``move`` of hand ``hand`` (0-based) breaks the rules."""

    def __init__(self, hand: int, move: int, message: str) -> None:
        super().__init__(message)
        self.hand = hand
        self.move = move
        self.message = message

    def __str__(self) -> str:
        return f"hand {self.hand}, move {self.move}: {self.message}"


@dataclass
class HandRecord:
    dealt: list[int]  # one mask per seat
    boneyard: list[int]  # draw order
    leader: int | None
    moves: list[tuple[int, Move]]  # (seat, move)
    dealt_order: list[list[int]] = field(default_factory=list)  # tiles as written, for round trips


@dataclass
class Record:
    preset: Preset
    target: int
    players: list[Any]
    hands: list[HandRecord]
    result: Any = None
    takeovers: Any = None

    @property
    def player_count(self) -> int:
        return len(self.players)


# Reading ------------------------------------------------------------------------------------


def _fail(where: str, what: str) -> RecordFormatError:
    return RecordFormatError(f"{where}: {what}" if where else what)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _tile(value: object, where: str) -> int:
    try:
        return parse_tile(value)
    except InvalidTileError as exc:
        raise _fail(where, str(exc)) from None


def parse_record(obj: object) -> Record:
    """Check the whole shape of a record and return it; RecordFormatError names what is wrong."""
    if not isinstance(obj, dict):
        raise _fail("", "a record is a JSON object")
    if "format" not in obj:
        raise _fail("", f"missing 'format' (expected {FORMAT!r})")
    if obj["format"] != FORMAT:
        raise _fail("", f"unknown format {obj['format']!r} (expected {FORMAT!r})")
    if "preset" not in obj:
        raise _fail("", "missing 'preset'")
    try:
        preset = get_preset(obj["preset"])
    except ConfigError as exc:
        raise _fail("", str(exc)) from None
    players = obj.get("players")
    if not isinstance(players, list):
        raise _fail("", "'players' must be a list of the players' names")
    try:
        preset.check_players(len(players))
    except ConfigError as exc:
        raise _fail("players", str(exc)) from None
    target = obj.get("target", preset.default_target)
    if target is None:
        target = preset.default_target
    if not _is_int(target):
        raise _fail("target", f"must be an integer, not {target!r}")
    try:
        preset.check_target(target)
    except ConfigError as exc:
        raise _fail("target", str(exc)) from None
    if "hands" not in obj:
        raise _fail("", "missing 'hands'")
    if not isinstance(obj["hands"], list):
        raise _fail("hands", "must be a list")
    n = len(players)
    hands = [_parse_hand(h, i, preset, n) for i, h in enumerate(obj["hands"])]
    if hands and hands[0].leader is None and preset.leader_is_chosen_by_chance_first():
        raise _fail(
            "hand 0",
            f"missing 'leader': {preset.id} leaves the first lead to "
            f"{preset.first_lead.value}, so the record must say who led",
        )
    return Record(preset, target, players, hands, obj.get("result"), obj.get("takeovers"))


def _parse_hand(obj: object, index: int, preset: Preset, n: int) -> HandRecord:
    where = f"hand {index}"
    if not isinstance(obj, dict):
        raise _fail(where, "a hand is a JSON object")
    dealt = obj.get("dealt")
    if not isinstance(dealt, list) or not all(isinstance(d, list) for d in dealt):
        raise _fail(where, "'dealt' must be a list of each seat's tiles")
    if "boneyard" not in obj:
        raise _fail(where, "missing 'boneyard'")
    if not isinstance(obj["boneyard"], list):
        raise _fail(where, "'boneyard' must be a list of tiles")
    dealt_tiles = [[_tile(t, f"{where}, dealt[{s}]") for t in d] for s, d in enumerate(dealt)]
    boneyard = [_tile(t, f"{where}, boneyard") for t in obj["boneyard"]]
    masks = []
    for s, tiles in enumerate(dealt_tiles):
        mask = 0
        for t in tiles:
            if mask & BIT[t]:
                raise _fail(where, f"seat {s} is dealt {tile_name(t)} twice")
            mask |= BIT[t]
        masks.append(mask)
        if len(tiles) != preset.hand_size(n) and s < n:
            raise _fail(
                where,
                f"seat {s} is dealt {len(tiles)} tiles; {preset.id} with {n} players deals "
                f"{preset.hand_size(n)}",
            )
    try:
        check_deal(preset, n, masks, boneyard)
    except ConfigError as exc:
        raise _fail(where, str(exc)) from None
    leader = obj.get("leader")
    if leader is not None and (not _is_int(leader) or not 0 <= leader < n):
        raise _fail(where, f"'leader' must be a seat 0..{n - 1}, not {leader!r}")
    raw_moves = obj.get("moves", [])
    if not isinstance(raw_moves, list):
        raise _fail(where, "'moves' must be a list")
    moves = [_parse_move(m, f"{where}, move {i}", n) for i, m in enumerate(raw_moves)]
    return HandRecord(masks, boneyard, leader, moves, dealt_tiles)


def _parse_move(obj: object, where: str, n: int) -> tuple[int, Move]:
    if not isinstance(obj, dict):
        raise _fail(where, "a move is a JSON object")
    if "seat" not in obj:
        raise _fail(where, "missing 'seat'")
    seat = obj["seat"]
    if not _is_int(seat) or not 0 <= seat < n:
        raise _fail(where, f"'seat' must be a seat 0..{n - 1}, not {seat!r}")
    try:
        return seat, Move.parse(obj)
    except InvalidMoveError as exc:
        raise _fail(where, str(exc)) from None


def load_record(source: str | Path) -> Record:
    """Read a record from a file; RecordFormatError when it is not JSON or not a record."""
    try:
        text = Path(source).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise RecordFormatError(f"{source}: not UTF-8 text") from None
    return parse_record(loads(text))


def _no_constant(name: str) -> object:
    # Python's json reads NaN and Infinity, which JSON does not have.
    raise ValueError(f"{name} is not a JSON value")


def loads(text: str) -> object:
    try:
        return json.loads(text, parse_constant=_no_constant)
    except ValueError as exc:  # JSONDecodeError included
        raise RecordFormatError(f"not JSON: {exc}") from None
    except RecursionError:
        raise RecordFormatError("not a record: nested too deeply") from None


# Replaying ----------------------------------------------------------------------------------


class ReplayStep(NamedTuple):
    """One step of a replay: a hand opened (``move`` None), or a move made in it."""

    hand: Hand
    hand_index: int
    move_index: int | None
    seat: int | None
    move: Move | None


def new_game(record: Record) -> Game:
    """The game a record is of, before its first hand."""
    return Game(record.preset, record.player_count, record.target)


def replay_steps(record: Record, game: Game) -> Iterator[ReplayStep]:
    """Replay ``record`` into ``game`` (from ``new_game``) by the rules, step by step;
    RecordMoveError at the first illegal move.

    A finished hand is settled (``game.end_hand()``) before the next step. A required leader that
    is missing (after a blocked hand with no sole winner, in presets that draw lots or pick at
    random) raises RecordFormatError when the replay reaches it.
    """
    for h, hand_record in enumerate(record.hands):
        if h > 0:
            last = game.hands[-1]
            if last.result is None:
                raise RecordMoveError(
                    h - 1,
                    len(record.hands[h - 1].moves),
                    f"hand {h - 1} is not over, yet hand {h} follows it",
                )
        if game.finished:
            raise RecordMoveError(h, 0, "the game is over: no more hands are played")
        leader = hand_record.leader
        if leader is None:
            rule = game.lead_rule(hand_record.dealt)
            if rule.leader is None:
                raise RecordFormatError(
                    f"hand {h}: missing 'leader': the rules leave this lead to {rule.by}"
                )
            leader = rule.leader
        try:
            hand = game.start_hand(hand_record.dealt, hand_record.boneyard, leader)
        except IllegalMoveError as exc:
            raise RecordMoveError(h, 0, str(exc)) from None
        yield ReplayStep(hand, h, None, None, None)
        for m, (seat, move) in enumerate(hand_record.moves):
            _replay_move(game, hand, h, m, seat, move)
            if hand.result is not None and m == len(hand_record.moves) - 1:
                game.end_hand()
            yield ReplayStep(hand, h, m, seat, move)


def replay(record: Record) -> Game:
    """Replay every hand and move by the rules; RecordMoveError at the first illegal move."""
    game = new_game(record)
    for _ in replay_steps(record, game):
        pass
    return game


def _replay_move(game: Game, hand: Hand, h: int, m: int, seat: int, move: Move) -> None:
    if hand.result is not None:
        if hand.result.cut_short:
            raise RecordMoveError(h, m, "the game is over: a side reached the target")
        raise RecordMoveError(h, m, f"hand {h} is over: no more moves")
    if seat != hand.turn:
        raise RecordMoveError(h, m, f"it is seat {hand.turn}'s turn, not seat {seat}'s")
    try:
        hand.push(move)
    except IllegalMoveError as exc:
        raise RecordMoveError(h, m, str(exc)) from None


# Checking -----------------------------------------------------------------------------------


def check_record(obj: object) -> dict[str, Any]:
    """The report of ``dominohall record check --json`` for a parsed JSON document.

    Raises RecordFormatError for a document that is not a record (exit status 2).
    """
    record = parse_record(obj)
    try:
        game = replay(record)
    except RecordMoveError as exc:
        return {"ok": False, "hand": exc.hand, "move": exc.move, "error": exc.message}
    return summary(game, record)


def summary(game: Game, record: Record | None = None) -> dict[str, Any]:
    """The state of a replayed game: scores per seat, whether it finished, each hand's outcome."""
    preset = game.preset
    n = game.players
    hands = []
    for hand in game.hands:
        result = hand.result
        points = [hand.points[preset.side_of(s)] for s in range(n)]
        if result is None or result.cut_short:
            hands.append({"winner": None, "blocked": False, "bonus": 0, "points": points})
        else:
            hands.append(
                {
                    "winner": result.winner,
                    "blocked": result.blocked,
                    "bonus": result.bonus,
                    "points": points,
                }
            )
    report: dict[str, Any] = {
        "ok": True,
        "preset": preset.id,
        "scores": game.seat_scores(),
        "finished": game.finished,
        "winner": game.winner,
        "hands": hands,
    }
    if record is not None:
        if record.result is not None:
            report["result"] = record.result
        if record.takeovers is not None:
            report["takeovers"] = record.takeovers
    return report


# Writing ------------------------------------------------------------------------------------


def hand_to_json(hand: Hand, *, with_leader: bool = True) -> dict[str, Any]:
    moves = [move.to_json(seat) for seat, move, *_ in hand.history]
    out: dict[str, Any] = {
        "dealt": [[tile_name(t) for t in tiles_of(mask)] for mask in hand.dealt],
        "boneyard": [tile_name(t) for t in hand.boneyard],
    }
    if with_leader:
        out["leader"] = hand.leader
    out["moves"] = moves
    return out


def record_of(
    game: Game,
    players: list[Any],
    *,
    result: dict[str, Any] | None = None,
    takeovers: list[dict[str, Any]] | None = None,
    time: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A game (finished or not) as a record document. Every hand writes its leader.

    ``time``: when the game was played and how long it took, at the table (optional).
    """
    if len(players) != game.players:
        raise ConfigError(f"{len(players)} names for {game.players} seats")
    record: dict[str, Any] = {
        "format": FORMAT,
        "preset": game.preset.id,
        "target": game.target,
        "players": list(players),
        "hands": [hand_to_json(h) for h in game.hands],
    }
    if result is not None:
        record["result"] = result
    if takeovers is not None:
        record["takeovers"] = takeovers
    if time is not None:
        record["time"] = time
    return record


def dumps(record: dict[str, Any]) -> str:
    """A record as JSON text: one line per move, readable and diffable."""
    lines = ["{"]
    head = {k: v for k, v in record.items() if k != "hands"}
    for key, value in head.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value)},")
    lines.append('  "hands": [')
    for i, hand in enumerate(record.get("hands", [])):
        lines.append("    {")
        keys = list(hand)
        for key in keys:
            value = hand[key]
            end = "," if key != keys[-1] else ""
            if key == "moves":
                lines.append('      "moves": [')
                for j, move in enumerate(value):
                    sep = "," if j < len(value) - 1 else ""
                    lines.append(f"        {json.dumps(move)}{sep}")
                lines.append(f"      ]{end}")
            else:
                lines.append(f"      {json.dumps(key)}: {json.dumps(value)}{end}")
        lines.append("    }" + ("," if i < len(record["hands"]) - 1 else ""))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


__all__ = [
    "FORMAT",
    "HandRecord",
    "MoveKind",
    "Record",
    "RecordFormatError",
    "RecordMoveError",
    "check_record",
    "dumps",
    "load_record",
    "new_game",
    "loads",
    "parse_record",
    "record_of",
    "ReplayStep",
    "replay",
    "replay_steps",
    "summary",
]
