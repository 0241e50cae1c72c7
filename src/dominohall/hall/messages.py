"""The shapes of the protocol's messages (docs/protocol.md), as the hall and the web write them.

Each is a ``TypedDict``: a plain dict when the program runs, so that a message is written as JSON
exactly as before, with its keys in the order the code that makes it puts them. A key that a
message carries only at times is ``NotRequired``; the ``type`` of a message and the ``kind`` of
an event are ``Literal``, so that a union of them is told apart by it.

No ``from __future__ import annotations`` here: Python 3.11 reads ``NotRequired`` when the class
is made, and not from an annotation left as a string (``__optional_keys__`` would be empty).
Keys that are Python keywords (``pass``, ``from``) come from a base declared the functional way.
"""

from typing import Literal, NotRequired, TypedDict

# 2. Tables (HTTP) -----------------------------------------------------------------------------


class SummarySeat(TypedDict):
    """A seat of a table summary (docs/protocol.md 2)."""

    seat: int
    kind: str  # "human", "bot" or "empty"
    name: str | None
    bot: str | None


class TableHead(TypedDict):
    """What a table summary and the state's ``table`` share (docs/protocol.md 2, 3.3)."""

    id: str
    link: str
    preset: str
    preset_name: str
    target: int
    timer: str
    speed: str  # "real-time" or "turn-based"
    turn_seconds: float
    private: bool
    open_to_watchers: bool
    ranked: str | None  # the pool of a ranked table
    arena: NotRequired[bool]  # true at an arena table (docs/arena.md); absent elsewhere
    cap: int | None  # a tournament game's cap in minutes of play (RULES.md 5)
    phase: str  # "seating", "playing", "between_hands" or "finished"
    host: int | None


class TableSummary(TableHead):
    """A table summary: the lobby's list and the HTTP answers (docs/protocol.md 2)."""

    seats: list[SummarySeat]
    free_seats: int
    created_at: float


class MyTable(TableSummary):
    """A my table: ``GET /api/me/tables`` and the player's socket (docs/protocol.md 2, 8)."""

    seat: int
    turn: int | None
    your_turn: bool
    deadline: float | None
    left: float | None


class RealTimeTimer(TypedDict):
    """A real-time timer of ``GET /api/timers`` (docs/protocol.md 2)."""

    id: str
    speed: Literal["real-time"]
    name: str
    turn_seconds: float


class TurnBasedTimer(TypedDict):
    """A turn-based clock of ``GET /api/timers``, and of ``turn_based`` (docs/protocol.md 2, 7)."""

    id: str
    speed: Literal["turn-based"]
    name: str
    increment: float
    cap: float


Timer = RealTimeTimer | TurnBasedTimer


class Pool(TypedDict):
    """A ranked pool as ``GET /api/presets`` offers it (docs/protocol.md 2)."""

    id: str
    name: str
    preset: str
    target: int
    players: list[int]
    teams: bool
    timers: dict[str, str]  # speed -> the timer of its games


class LanguageChoice(TypedDict):
    """One of ``GET /api/presets``' ``languages``, named in itself (docs/protocol.md 1, 2)."""

    tag: str
    name: str


# 3.3 The state, and its parts ------------------------------------------------------------------


class TableMeta(TableHead):
    """The state's ``table`` (docs/protocol.md 3.3)."""

    record: str | None


class OutOf(TypedDict):
    """``you.out``: the seat a person went out of, and why (docs/protocol.md 3.3)."""

    seat: int
    reason: str


class ResignRequest(TypedDict):
    """``you.resign``: the team's pending resign request (docs/protocol.md 3.3)."""

    seat: int  # who asked
    partner: int  # who is asked
    deadline: float  # unanswered by then, it is declined
    seconds: float  # the time to answer, from the asking


class You(TypedDict):
    """The state's ``you`` (docs/protocol.md 3.3)."""

    seat: int | None
    player: str | None
    name: str | None
    host: bool
    out: OutOf | None
    resign: ResignRequest | None


class Seat(TypedDict):
    """One of the state's ``seats`` (docs/protocol.md 3.3)."""

    seat: int
    kind: str  # "human", "bot" or "empty"
    name: str | None
    bot: str | None
    connected: bool
    score: int
    tiles: int
    team: int | None
    out: bool
    out_reason: str | None
    timeouts: int
    ready: bool
    rating: str | None


class Clock(TypedDict):
    """The state's ``clock``: the turn timer (docs/protocol.md 3.3)."""

    seat: int
    deadline: float
    seconds: float
    left: float


class NextHand(TypedDict):
    """The state's ``next_hand``: the wait between hands (docs/protocol.md 3.3)."""

    deadline: float
    left: float
    seconds: float
    ready: list[int]


class ArmFrom(TypedDict):
    """FROM: where a spinner's arm hangs, tile ``index`` of ``arm`` (docs/protocol.md 3.3)."""

    arm: int | None
    index: int


class Lead(TypedDict):
    """The layout's ``lead`` (docs/protocol.md 3.3)."""

    tile: str
    first: int
    spinner: bool


class ArmTile(TypedDict):
    """A tile of an arm's ``tiles`` (docs/protocol.md 3.3)."""

    tile: str
    facing: int
    double: bool
    spinner: NotRequired[Literal[True]]


_ArmStart = TypedDict("_ArmStart", {"from": ArmFrom | None})


class NewArm(_ArmStart):
    """An arm and where it starts: a layout update's ``arms`` (docs/protocol.md 3.2.1)."""

    arm: int


class Arm(NewArm):
    """One of the layout's ``arms`` (docs/protocol.md 3.3)."""

    tiles: list[ArmTile]
    open: bool
    end: int | None


class OpenEnd(TypedDict):
    """One of the layout's ``open_ends`` (docs/protocol.md 3.3)."""

    arm: int
    number: int


class ChainTile(TypedDict):
    """One of the layout's ``chain``, the tiles in the order laid (docs/protocol.md 3.3)."""

    tile: str
    arm: int | None
    facing: int


class Layout(TypedDict):
    """LAYOUT: the tiles laid (docs/protocol.md 3.3)."""

    lead: Lead | None
    arms: list[Arm]
    open_ends: list[OpenEnd]
    chain: list[ChainTile]


class LaidLead(TypedDict):
    """LAID, for the lead: it always carries ``spinner`` (docs/protocol.md 3.2.1)."""

    tile: str
    arm: None
    facing: int
    spinner: bool


class LaidOnArm(ArmTile):
    """LAID, for a tile laid on an arm (docs/protocol.md 3.2.1)."""

    arm: int


Laid = LaidLead | LaidOnArm


class LayoutUpdate(TypedDict):
    """An update's ``hand.layout``: the tiles laid since, and more (docs/protocol.md 3.2.1)."""

    laid: list[Laid]
    arms: list[NewArm]
    open_ends: list[OpenEnd]


class Play(TypedDict):
    """One of ``moves.play``: a tile, the arms it fits, the ends to ask (docs/protocol.md 3.3)."""

    tile: str
    arms: list[int]
    ends: list[int]


_MayPass = TypedDict("_MayPass", {"pass": bool})


class Moves(_MayPass):
    """MOVES: what the seat to move may do (docs/protocol.md 3.3)."""

    play: list[Play]
    lead: list[str]
    draw: bool


class TeamPips(TypedDict):
    """One of a breakdown's ``teams`` (docs/protocol.md 3.3)."""

    team: int
    seats: list[int]
    pips: int


class BonusCounted(TypedDict):
    """A breakdown's ``bonus``: how the winner's bonus was counted (docs/protocol.md 3.3)."""

    counted: list[int]
    pips: int
    own: int | None
    net: int | None
    rounded: int | None
    units: bool
    value: int
    scored: int
    not_scored: str | None  # "past_target"


class Breakdown(TypedDict):
    """A hand result's ``breakdown``: why the hand ended so (docs/protocol.md 3.3)."""

    why: str  # "out", "fewest_pips", "fewest_team_pips", "tie", "team_tie", "cut_short"
    tied: list[int] | None
    teams: list[TeamPips] | None
    bonus: BonusCounted | None
    penalties: list[int] | None


class HandResult(TypedDict):
    """A hand's ``result`` (docs/protocol.md 3.3), in its ``hand_over`` event too (3.2)."""

    winner: int | None
    blocked: bool
    bonus: int
    bonus_rule: str
    cut_short: bool
    revealed: list[list[str]]
    pips: list[int]
    points: list[int]
    breakdown: Breakdown


class GameResult(TypedDict):
    """The state's ``game`` once over, in the ``game_over`` event too (docs/protocol.md 3.3)."""

    over: Literal[True]
    winner: int | None
    reason: str  # "rules", "forfeit", "abandoned", "aborted" or "cap"
    placed_last: list[int]
    scores: list[int]
    record: str
    duration: float | None
    resigned: NotRequired[int]  # ended by this seat's resignation
    agreed: NotRequired[int]  # partnership: the partner who agreed to it


class Rematch(TypedDict):
    """The state's ``rematch`` (docs/protocol.md 3.3)."""

    open: bool
    people: list[int]
    accepted: list[int]
    ended_by: int | None
    table: str | None


class RematchAnswer(TypedDict):
    """The answer to ``POST /api/tables/{id}/rematch`` (docs/protocol.md 2)."""

    table: TableSummary
    rematch: Rematch | None


# 3.2 Events ------------------------------------------------------------------------------------


class EventHead(TypedDict):
    """What every event has beside its ``kind``: its version (docs/protocol.md 3.2)."""

    version: int


class CreatedEvent(EventHead):
    """The event ``created`` (docs/protocol.md 3.2)."""

    kind: Literal["created"]


class JoinedEvent(EventHead):
    """The event ``joined`` (docs/protocol.md 3.2)."""

    kind: Literal["joined"]
    seat: int
    name: str


class BotSeatedEvent(EventHead):
    """The event ``bot_seated`` (docs/protocol.md 3.2)."""

    kind: Literal["bot_seated"]
    seat: int
    bot: str


class RemovedEvent(EventHead):
    """The event ``removed`` (docs/protocol.md 3.2)."""

    kind: Literal["removed"]
    seat: int


class HostEvent(EventHead):
    """The event ``host`` (docs/protocol.md 3.2)."""

    kind: Literal["host"]
    seat: int


class StartedEvent(EventHead):
    """The event ``started`` (docs/protocol.md 3.2)."""

    kind: Literal["started"]


class DealtEvent(EventHead):
    """The event ``dealt``, as clients see it: no tiles (docs/protocol.md 3.2)."""

    kind: Literal["dealt"]
    hand: int
    leader: int


_MayHavePassed = TypedDict("_MayHavePassed", {"pass": NotRequired[Literal[True]]})


class MoveEvent(EventHead, _MayHavePassed):
    """The event ``move``: a ``play``, a ``draw`` or a ``pass`` (docs/protocol.md 3.2)."""

    kind: Literal["move"]
    seat: int
    play: NotRequired[str]
    arm: NotRequired[int]  # (none for the lead)
    draw: NotRequired[str | Literal[True]]  # the tile for the seat that drew it, else true
    hand: int
    by: str  # "player", "timer", "bot" or "forced"
    scored: int
    open: NotRequired[list[int]]  # (with a pass)


class HandOverEvent(EventHead):
    """The event ``hand_over`` (docs/protocol.md 3.2)."""

    kind: Literal["hand_over"]
    hand: int
    result: HandResult


class ReadyEvent(EventHead):
    """The event ``ready`` (docs/protocol.md 3.2)."""

    kind: Literal["ready"]
    seat: int


class OutEvent(EventHead):
    """The event ``out`` (docs/protocol.md 3.2)."""

    kind: Literal["out"]
    seat: int
    reason: str  # "timeout", "left", "disconnected" or "resigned"
    agreed: NotRequired[int]  # resigned at a partnership table: the partner who agreed


class GameOverEvent(EventHead):
    """The event ``game_over`` (docs/protocol.md 3.2)."""

    kind: Literal["game_over"]
    result: GameResult


class RematchEvent(EventHead):
    """The event ``rematch`` (docs/protocol.md 3.2)."""

    kind: Literal["rematch"]
    seat: int
    accept: bool


class RematchTableEvent(EventHead):
    """The event ``rematch_table`` (docs/protocol.md 3.2)."""

    kind: Literal["rematch_table"]
    table: str


class WatchingEvent(EventHead):
    """The event ``watching`` (docs/protocol.md 3.2)."""

    kind: Literal["watching"]
    open: bool


class RenamedEvent(EventHead):
    """The event ``renamed`` (docs/protocol.md 3.2)."""

    kind: Literal["renamed"]
    seat: int
    name: str


class ClosedEvent(EventHead):
    """The event ``closed`` (docs/protocol.md 3.2)."""

    kind: Literal["closed"]


class VacationEvent(EventHead):
    """The event ``vacation`` (docs/protocol.md 3.2)."""

    kind: Literal["vacation"]
    seat: int
    start: float
    end: float


class RemindedEvent(EventHead):
    """The event ``reminded`` (docs/protocol.md 3.2)."""

    kind: Literal["reminded"]
    seat: int


class ResumedEvent(EventHead):
    """The event ``resumed`` (docs/protocol.md 3.2)."""

    kind: Literal["resumed"]
    downtime: float


Event = (
    CreatedEvent
    | JoinedEvent
    | BotSeatedEvent
    | RemovedEvent
    | HostEvent
    | StartedEvent
    | DealtEvent
    | MoveEvent
    | HandOverEvent
    | ReadyEvent
    | OutEvent
    | GameOverEvent
    | RematchEvent
    | RematchTableEvent
    | WatchingEvent
    | RenamedEvent
    | ClosedEvent
    | VacationEvent
    | RemindedEvent
    | ResumedEvent
)


class Hand(TypedDict):
    """The state's ``hand``: the current hand, or the last one once over (docs/protocol.md 3.3)."""

    number: int
    leader: int
    turn: int | None
    tiles: list[str]
    pips: int
    layout: Layout
    boneyard: int
    ends_total: int | None
    moves: Moves | None
    log: list[Event]
    points: list[int]
    result: HandResult | None


# 7. Turn-based tables --------------------------------------------------------------------------


class SeatClock(TypedDict):
    """One of ``turn_based.clocks`` (docs/protocol.md 7)."""

    seat: int
    left: float
    running: bool
    deadline: float | None
    vacation_until: float | None


class SinceDealt(EventHead):
    """A new hand in ``since_your_move``: no leader, no tiles (docs/protocol.md 7)."""

    kind: Literal["dealt"]
    hand: int


class SinceHandOver(EventHead):
    """A hand's end in ``since_your_move``: its points, no result (docs/protocol.md 7)."""

    kind: Literal["hand_over"]
    hand: int
    winner: int | None
    points: list[int]


# What ``since_your_move`` lists: the others' moves (a draw without its tile), and these.
SinceEntry = MoveEvent | SinceDealt | SinceHandOver | OutEvent | VacationEvent | GameOverEvent


class Vacation(TypedDict):
    """VACATION (docs/protocol.md 7): the one under way (``start``, ``end``) and days left."""

    on_vacation: bool
    start: float | None
    end: float | None
    days_a_year: int
    days_left: float


class TurnBased(TurnBasedTimer):
    """The state's ``turn_based`` (docs/protocol.md 7)."""

    clocks: list[SeatClock]
    started_at: float | None
    duration: float | None
    since_your_move: list[SinceEntry] | None


class State(TypedDict):
    """STATE: the whole table as a seat may see it (docs/protocol.md 3.3)."""

    table: TableMeta
    you: You
    seats: list[Seat]
    hand: Hand | None
    clock: Clock | None
    next_hand: NextHand | None
    game: GameResult | None
    rematch: Rematch | None
    turn_based: TurnBased | None
    watchers: int
    now: float


# 3.1, 3.2 The table's socket -------------------------------------------------------------------

RequestId = str | int | float | None  # a client message's ``id``, repeated in its answer


class WelcomeYou(TypedDict):
    """The ``welcome``'s ``you`` (docs/protocol.md 3.1)."""

    seat: int | None
    player: str | None
    name: str | None


class WelcomeMessage(TypedDict):
    """The message ``welcome`` (docs/protocol.md 3.1)."""

    type: Literal["welcome"]
    protocol: int
    version: int
    you: WelcomeYou


class StateMessage(TypedDict):
    """The message ``state`` (docs/protocol.md 3.2)."""

    type: Literal["state"]
    version: int
    events: list[Event]
    state: State


class HandUpdate(TypedDict):
    """An update's ``hand``: the fields of ``state.hand`` that changed (docs/protocol.md 3.2.1)."""

    turn: int | None
    moves: Moves | None
    boneyard: NotRequired[int]
    points: NotRequired[list[int]]
    tiles: NotRequired[list[str]]
    pips: NotRequired[int]
    ends_total: NotRequired[int | None]
    layout: NotRequired[LayoutUpdate]
    result: NotRequired[HandResult]


class UpdateParts(TypedDict, total=False):
    """The parts of the state an update brings, each when it changed (docs/protocol.md 3.2.1)."""

    hand: HandUpdate
    table: TableMeta
    you: You
    seats: list[Seat]
    next_hand: NextHand | None
    game: GameResult | None
    rematch: Rematch | None
    counts: list[int]
    scores: list[int]
    turn_based: TurnBased | None


class UpdateMessage(UpdateParts):
    """The message ``update`` (docs/protocol.md 3.2, 3.2.1)."""

    type: Literal["update"]
    version: int
    events: list[Event]
    clock: Clock | None


# What a table publishes for an audience after a change (``hall/table_feed.py``).
TableMessage = StateMessage | UpdateMessage


class PresenceMessage(TypedDict):
    """The message ``presence`` (docs/protocol.md 3.2)."""

    type: Literal["presence"]
    seat: int
    connected: bool


class WatchersMessage(TypedDict):
    """The message ``watchers`` (docs/protocol.md 3.2): how many watch the table now."""

    type: Literal["watchers"]
    count: int


class AckMessage(TypedDict):
    """The message ``ack`` (docs/protocol.md 3.2)."""

    type: Literal["ack"]
    id: RequestId
    version: int


class Refusal(TypedDict):
    """A refusal's code and words, over HTTP and on the sockets (docs/protocol.md 2, 3.4)."""

    code: str
    message: str
    retry_after: NotRequired[int]  # chat_limited: the seconds to wait
    until: NotRequired[float]  # held_back: when the hold ends (seconds since the epoch)


class ErrorMessage(Refusal):
    """The message ``error`` (docs/protocol.md 3.2, 8)."""

    type: Literal["error"]
    id: RequestId


class PongMessage(TypedDict):
    """The message ``pong`` (docs/protocol.md 3.2, 8)."""

    type: Literal["pong"]
    id: RequestId


class ResignAskedMessage(ResignRequest):
    """The message ``resign_asked``, to a partnership's two seats only (docs/protocol.md 3.2)."""

    type: Literal["resign_asked"]


class ResignDeclinedMessage(TypedDict):
    """The message ``resign_declined``, to the team's two seats only (docs/protocol.md 3.2)."""

    type: Literal["resign_declined"]
    seat: int
    partner: int
    why: Literal["declined", "unanswered"]


class ClosedMessage(TypedDict):
    """The message ``closed`` (docs/protocol.md 3.2)."""

    type: Literal["closed"]
    reason: str


# 10. Table chat ------------------------------------------------------------------------------


class SaidLine(TypedDict):
    """A chat line less its ``type``: a ``chat_history``'s line (docs/protocol.md 10)."""

    room: str
    id: int
    seat: int | None
    name: str
    username: str | None
    at: float
    text: NotRequired[str]  # a typed line, or
    phrase: NotRequired[str]  # a quick phrase's id


class ChatMessage(SaidLine):
    """The message ``chat`` (docs/protocol.md 10)."""

    type: Literal["chat"]


class ChatHistoryMessage(TypedDict):
    """The message ``chat_history`` (docs/protocol.md 10)."""

    type: Literal["chat_history"]
    room: str
    lines: list[SaidLine]


class ChatTimedOutMessage(TypedDict):
    """The message ``chat_timed_out`` (docs/protocol.md 10): out of every chat until ``until``."""

    type: Literal["chat_timed_out"]
    until: float
    reason: str


TableSocketMessage = (
    WelcomeMessage
    | StateMessage
    | UpdateMessage
    | PresenceMessage
    | WatchersMessage
    | AckMessage
    | ErrorMessage
    | PongMessage
    | ClosedMessage
    | ChatMessage
    | ChatHistoryMessage
    | ChatTimedOutMessage
    | ResignAskedMessage
    | ResignDeclinedMessage
)


# 12. The lobby's socket -----------------------------------------------------------------------


class LobbyTable(TypedDict):
    """A table as the lobby shows it (docs/protocol.md 12): open, or a game that may be watched."""

    id: str
    kind: Literal["open", "game"]
    table: TableSummary
    ratings: list[str | None]  # each seat's person's shown rating in the preset's pool
    rating: int | None  # the mean of those (the featured game is the highest)
    scores: list[int] | None  # a game's scores so far


class QueueSize(TypedDict):
    """How many wait in one matchmaking queue (docs/protocol.md 12)."""

    pool: str
    players: int
    speed: str
    ranked: bool
    waiting: int


class LobbyMessage(TypedDict):
    """The message ``lobby``: the whole lobby, first on a lobby socket (docs/protocol.md 12)."""

    type: Literal["lobby"]
    tables: list[LobbyTable]
    featured: str | None
    queues: list[QueueSize]
    online: int


class LobbyUpdateMessage(TypedDict):
    """The message ``lobby_update``: what changed since the last one (docs/protocol.md 12)."""

    type: Literal["lobby_update"]
    tables: list[LobbyTable]
    gone: list[str]
    featured: str | None
    queues: NotRequired[list[QueueSize]]
    online: NotRequired[int]


LobbySocketMessage = LobbyMessage | LobbyUpdateMessage | PongMessage | ErrorMessage


# 8. The player's socket ------------------------------------------------------------------------


class TablesMessage(TypedDict):
    """The message ``tables`` (docs/protocol.md 8)."""

    type: Literal["tables"]
    tables: list[MyTable]
    your_turn: int
    now: float


class SeatedNotice(TypedDict):
    """NOTICE ``seated`` (docs/protocol.md 8): ``seat`` None once they left it again."""

    kind: Literal["seated"]
    table: str
    seat: int | None


class YourTurnNotice(TypedDict):
    """NOTICE ``your_turn`` (docs/protocol.md 8)."""

    kind: Literal["your_turn"]
    table: str
    seat: int
    version: int
    deadline: float


class ReminderNotice(TypedDict):
    """NOTICE ``reminder`` (docs/protocol.md 7, 8): ``left`` seconds on the clock."""

    kind: Literal["reminder"]
    table: str
    seat: int
    version: int
    deadline: float
    left: float


class _InvitationHead(TypedDict):
    kind: Literal["invitation"]
    reason: Literal["pairing", "rematch", "challenge", "tournament"]
    table: str


_InvitationFrom = TypedDict("_InvitationFrom", {"from": str | None})


class InvitationNotice(_InvitationHead, _InvitationFrom):
    """NOTICE ``invitation`` (docs/protocol.md 8)."""


class TableOverNotice(TypedDict):
    """NOTICE ``table_over`` (docs/protocol.md 8)."""

    kind: Literal["table_over"]
    table: str


class ChosenOptions(TypedDict):
    """A table's options as chosen (``Options.to_json``): a challenge's (docs/protocol.md 13)."""

    preset: str
    target: int
    seats: int
    timer: str
    private: bool
    ranked: NotRequired[str]  # the pool of a ranked table
    open_to_watchers: NotRequired[bool]  # chosen by the host (absent: as ``private`` says)
    arena: NotRequired[Literal[True]]
    cap: NotRequired[int]  # a tournament game's cap in minutes of play


class _ChallengeHead(TypedDict):
    kind: Literal["challenge"]
    id: str


_ChallengeFrom = TypedDict("_ChallengeFrom", {"from": str, "from_name": str})


class _ChallengeTail(TypedDict):
    options: ChosenOptions
    at: float
    expires_at: float


class ChallengeNotice(_ChallengeHead, _ChallengeFrom, _ChallengeTail):
    """NOTICE ``challenge`` (docs/protocol.md 8, 13): ``from`` the challenger's username."""


class ChallengeOverNotice(TypedDict):
    """NOTICE ``challenge_over`` (docs/protocol.md 8, 13)."""

    kind: Literal["challenge_over"]
    id: str
    outcome: Literal["accepted", "declined", "cancelled", "expired"]
    table: str | None


# NOTICE: what the player's channel tells a socket (the hall's notices, ``web/notices.py``).
Notice = (
    SeatedNotice
    | YourTurnNotice
    | ReminderNotice
    | InvitationNotice
    | TableOverNotice
    | ChallengeNotice
    | ChallengeOverNotice
)


class NoticeMessage(TypedDict):
    """The message ``notice`` (docs/protocol.md 8)."""

    type: Literal["notice"]
    notice: Notice


PlayerSocketMessage = TablesMessage | NoticeMessage | PongMessage | ErrorMessage

ServerMessage = TableSocketMessage | PlayerSocketMessage | LobbySocketMessage


# The HTTP answers' shapes that the web writes from the hall's values ----------------------------


class Player(TypedDict):
    """PLAYER (docs/protocol.md 1): a guest has no username."""

    id: str
    name: str
    username: str | None
    guest: bool
    language: str | None  # the account's chosen language (docs/translating.md), None: not chosen


class Seeking(TypedDict):
    """A seek's ``seeking`` (docs/protocol.md 5)."""

    pool: str
    players: int
    speed: str
    ranked: bool
    arena: bool
    rating: int | None  # the shown rating a ranked seek waits with
    waited: float


class QueueWait(TypedDict):
    """A seek's ``queue`` (docs/protocol.md 5)."""

    waiting: int
    average_wait: float | None


class SeekAnswer(TypedDict):
    """SEEK (docs/protocol.md 5): seeking, or paired at ``table``."""

    seeking: Seeking | None
    table: str | None
    queue: NotRequired[QueueWait]
    computer_after: NotRequired[float]


class Rating(TypedDict):
    """A rating in one pool at one speed (docs/protocol.md 5, 6)."""

    pool: str
    speed: str
    rating: int
    provisional: bool
    label: str
    games: int


class RatingPoint(TypedDict):
    """One rated game in a rating's ``history`` (docs/protocol.md 6)."""

    table: str
    at: float
    place: int
    rating: int
    change: int


class RatingWithHistory(Rating):
    """A profile's rating (docs/protocol.md 6)."""

    history: list[RatingPoint]


class RatingChange(TypedDict):
    """A seat's rating change at a game's end (docs/protocol.md 5)."""

    seat: int
    place: int
    pool: str
    speed: str
    before: int
    after: int
    change: int


class League(TypedDict):
    """A league and its points in a profile's arena (docs/protocol.md 6, docs/arena.md)."""

    league: str
    points: int
    label: str


class ArenaStanding(League):
    """One of a profile's ``arena.current``: a season going on (docs/protocol.md 6)."""

    pool: str
    speed: str
    season: int
    games: int


class ArenaAward(TypedDict):
    """One of a profile's ``arena.awards``: what a season ended gave (docs/protocol.md 6)."""

    pool: str
    speed: str
    season: int
    league: str
    rank: int
    trophy: int | None  # 1, 2 or 3 to the first three of Elite


class ArenaOf(TypedDict):
    """A profile's ``arena`` (docs/protocol.md 6, docs/arena.md)."""

    current: list[ArenaStanding]
    awards: list[ArenaAward]


class StatNumbers(TypedDict):
    """The numbers of a profile's ``stats``, all games or one preset's (docs/protocol.md 6)."""

    games: int
    won: int
    lost: int
    win_rate: float | None  # None: no games
    finished: int
    finished_share: float | None
    hands_won_out: int
    hands_won_block: int
    timeouts: int


class PresetStatNumbers(StatNumbers):
    """One of a profile's ``stats.presets`` (docs/protocol.md 6)."""

    preset: str
    preset_name: str
    hands: int
    points: int
    points_per_hand: float | None


class Stats(StatNumbers):
    """A profile's ``stats`` (docs/protocol.md 6), and the export's."""

    presets: list[PresetStatNumbers]


class GameSeat(TypedDict):
    """One of a game's ``players`` (docs/protocol.md 6)."""

    seat: int
    name: str
    username: str | None
    bot: str | None
    person: bool
    won: bool
    place: int
    score: int
    out: str | None  # "timeout", "left" or "disconnected"
    timeouts: int


class _GameBody(TypedDict):
    id: str
    link: str
    preset: str
    preset_name: str
    target: int
    private: bool
    ranked: str | None
    speed: str
    timer: str | None  # (None: not known, a game indexed before its timer was kept)
    reason: str
    winner: int | None
    hands: int
    started_at: float | None
    finished_at: float
    duration: float | None
    players: list[GameSeat]
    seat: NotRequired[int | None]  # in a history: the seat of the player whose history it is


class Game(_GameBody):
    """A finished game (docs/protocol.md 6): in every answer about games."""

    record: str  # the link to its record


class ExportedGame(_GameBody):
    """One of the export's ``games`` (docs/protocol.md 6.1): the game and its record."""

    record: dict[str, object] | None  # the game record itself, as stored


class ReplayResult(TypedDict):
    """A replay's hand's ``result`` (docs/protocol.md 6)."""

    winner: int | None
    blocked: bool
    bonus: int
    cut_short: bool
    points: list[int]


class ReplayPosition(TypedDict):
    """One of a replay's hand's ``positions`` (docs/protocol.md 6)."""

    move: dict[str, object] | None  # the game record's move as stored (None: the deal)
    turn: int | None
    layout: Layout
    tiles: list[list[str]]
    boneyard: int
    points: list[int]
    scores: list[int]


class ReplayHand(TypedDict):
    """A HAND of REPLAY (docs/protocol.md 6)."""

    number: int
    leader: int
    positions: list[ReplayPosition]
    result: ReplayResult | None


class Replay(TypedDict):
    """REPLAY (docs/protocol.md 6): every position of every hand of a finished game."""

    hands: list[ReplayHand]


class FollowedPlayer(TypedDict):
    """One of ``GET /api/me/follows`` (docs/protocol.md 13)."""

    username: str
    name: str
    since: float
    online: bool
    playing: list[TableSummary]


class ChallengePlayer(TypedDict):
    """A challenge's ``from`` or ``to``: a player by username and name (docs/protocol.md 13)."""

    username: str | None  # (None: the account deleted since, its name "Deleted player")
    name: str


class _ChallengeAnswerHead(TypedDict):
    id: str


# (``from`` is Python's: this part is written the functional way.)
_ChallengePeople = TypedDict(
    "_ChallengePeople", {"from": ChallengePlayer | None, "to": ChallengePlayer | None}
)


class _ChallengeAnswerTail(TypedDict):
    options: ChosenOptions
    at: float
    expires_at: float
    state: str  # open, accepted, declined, expired or cancelled
    table: str | None


class Challenge(_ChallengeAnswerHead, _ChallengePeople, _ChallengeAnswerTail):
    """A challenge in ``/api/challenges`` answers, and in the export (docs/protocol.md 13)."""


class EmailSettings(TypedDict):
    """``GET /api/me/email``'s ``email`` (docs/protocol.md 9)."""

    available: bool
    address: str | None
    confirmed: bool
    notify: bool
    every_minutes: float | None


class KeptEmail(TypedDict):
    """The export's ``email`` (docs/protocol.md 6): the address and choices as kept."""

    address: str
    confirmed: bool
    notify: bool


class SignedInFrom(TypedDict):
    """One of the export's ``addresses`` (docs/protocol.md 6)."""

    address: str
    first: float
    last: float


class _ExportedLineHead(TypedDict):
    table: str
    room: str  # "players" or "spectators"


class ExportedChatLine(_ExportedLineHead):
    """One of the export's ``chat`` (docs/protocol.md 6): its text, or a quick phrase's id."""

    text: NotRequired[str]
    phrase: NotRequired[str | None]
    at: float


class ExportedReport(TypedDict):
    """One of the export's ``reports`` (docs/protocol.md 6)."""

    reported: str
    line: int | None
    reason: str
    at: float
    closed: bool


class ExportedFollow(TypedDict):
    """One of the export's ``follows`` (docs/protocol.md 6.1)."""

    username: str
    since: float


class ExportedPeople(TypedDict):
    """The export's chat lines, reports, mutes and blocks (docs/protocol.md 6.1)."""

    chat: list[ExportedChatLine]
    reports: list[ExportedReport]
    muted: list[str]  # by username, a guest by id
    blocked: list[str]


class ExportedChallenges(TypedDict):
    """The export's challenges and follows (docs/protocol.md 6.1)."""

    challenges: list[Challenge]
    accept_challenges_from: str  # "everyone", "friends" or "nobody"
    follows: list[ExportedFollow]


class Export(ExportedPeople, ExportedChallenges):
    """The export, ``GET /api/me/export`` (docs/protocol.md 6.1)."""

    format: str
    exported_at: float
    player: Player | None
    ratings: list[RatingWithHistory]
    stats: Stats
    email: KeptEmail | None
    games: list[ExportedGame]
    addresses: list[SignedInFrom]


# 11. Moderation (operators) --------------------------------------------------------------------


class Who(TypedDict):
    """A report's ``reporter`` or ``reported`` (docs/protocol.md 11)."""

    id: str
    name: str
    username: str | None  # (a guest has only an id)


class ModeratedLine(TypedDict):
    """A LINE of a report's ``context`` (docs/protocol.md 11)."""

    id: int
    table: str
    room: str  # "players" or "spectators"
    player: str | None  # (None: an account deleted since)
    name: str
    text: str | None
    phrase: str | None
    at: float


class ModReport(TypedDict):
    """REPORT: an open report, as ``GET /api/mod/reports`` lists it (docs/protocol.md 11)."""

    id: int
    at: float
    reason: str
    reporter: Who | None
    reported: Who | None
    line: int | None
    context: list[ModeratedLine]


# 14. Tournaments -------------------------------------------------------------------------------


class EnteredRow(TypedDict):
    """A standings row before the start (docs/protocol.md 14)."""

    entrant: str
    name: str
    points: int


class ArenaRow(EnteredRow):
    """An arena's standings row (docs/protocol.md 14): ``sheet`` each game's points."""

    games: int
    on_fire: bool
    sheet: list[int]
    paused: bool


class SwissRow(EnteredRow):
    """A swiss' standings row (docs/protocol.md 14)."""

    head_to_head: int
    difference: int
    sonneborn_berger: float
    withdrawn: bool


class TournamentGame(TypedDict):
    """A tournament's game in progress (docs/protocol.md 14)."""

    table: str
    link: str
    entrants: list[str]
    players: list[str]  # the players' ids, so that a player's page finds their own game


class TournamentPlayed(TypedDict):
    """A tournament's game played (docs/protocol.md 14): each entrant's place at it."""

    game: str
    link: str
    entrants: list[str]
    places: list[int]
    settled: bool  # counted at a turn-based round's deadline, the game playing on apart


class Tournament(TypedDict):
    """TOURNAMENT (docs/protocol.md 14)."""

    id: str
    link: str
    name: str
    kind: str  # "arena" or "swiss"
    status: str  # "created", "running", "finished" or "cancelled"
    creator: str | None
    starts_at: float
    ends_at: float | None
    minutes: int | None
    rounds: int | None
    round: int | None
    options: ChosenOptions
    invitation_only: bool
    pairs: bool
    entrants: int
    standings: list[ArenaRow] | list[SwissRow] | list[EnteredRow]
    games: list[TournamentGame]
    round_days: int | None  # a turn-based swiss: the days each round lasts
    round_deadline: float | None
    rated: bool
    played: list[TournamentPlayed]


class TournamentMessage(TypedDict):
    """What a tournament's socket is sent: the tournament whole (docs/protocol.md 15)."""

    type: Literal["tournament"]
    tournament: Tournament
