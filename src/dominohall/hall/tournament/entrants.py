"""Who a tournament's entrant is: one player, or a fixed pair that plays partnership games as one
team; and the seats of a paired game (a pair's two players sit opposite, seats 0 and 2 against 1
and 3, as RULES.md's partnership teams)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class EntrantError(ValueError):
    """An entrant that is not one player or two distinct players, or a table they do not fill."""


@dataclass(frozen=True)
class Entrant:
    """``players``: one player's id, or a fixed pair's two; ``id`` names the entrant in pairings
    (a pair by its two players, in the order they entered)."""

    players: tuple[str, ...]

    def __post_init__(self) -> None:
        if len(self.players) not in (1, 2) or len(set(self.players)) != len(self.players):
            raise EntrantError(f"an entrant is one player or two, not {list(self.players)}")

    @property
    def id(self) -> str:
        return "+".join(self.players)

    @property
    def is_pair(self) -> bool:
        return len(self.players) == 2


def seats_of(entrants: Sequence[Entrant], seats: int) -> list[str]:
    """The players of a paired game in seat order: singles one a seat; two pairs at a partnership
    table, the first pair at seats 0 and 2, the second at 1 and 3.

    >>> seats_of([Entrant(("ann", "bob")), Entrant(("cy", "di"))], 4)
    ['ann', 'cy', 'bob', 'di']
    >>> seats_of([Entrant(("ann",)), Entrant(("cy",))], 2)
    ['ann', 'cy']
    """
    if all(e.is_pair for e in entrants):
        if len(entrants) != 2 or seats != 4:
            raise EntrantError("two pairs play at a table of four")
        first, second = entrants
        return [first.players[0], second.players[0], first.players[1], second.players[1]]
    if any(e.is_pair for e in entrants) or len(entrants) != seats:
        raise EntrantError(f"{len(entrants)} entrants do not fill a table of {seats}")
    return [e.players[0] for e in entrants]
