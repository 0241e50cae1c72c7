"""A layout as the protocol shows it (docs/protocol.md LAYOUT): arms with their tiles from the
root outward, where each arm starts, and the open ends; kept up tile by tile for live tables, and
made from a record's moves for replays."""

from __future__ import annotations

from ..rules import Layout, tile_name
from ..rules.layout import NO_ARM
from ..rules.presets import LayoutKind
from ..rules.tiles import IS_DOUBLE
from . import messages


def layout_json(layout: Layout) -> messages.Layout:
    """Arms with their tiles from the root outward, where each arm starts, and the open ends."""
    return ShownLayout(layout.kind).json(layout)


class ShownLayout:
    """The layout's JSON kept up as tiles are laid: each tile is placed once per hand, not once
    per version (the chain is replayed on a layout of its own to learn where spinners' ends hang).
    """

    def __init__(self, kind: LayoutKind) -> None:
        self.replay = Layout(kind)
        self.arms: dict[int, tuple[messages.NewArm, list[messages.ArmTile]]] = {}
        self.chain: list[messages.ChainTile] = []
        self.lead: messages.Lead | None = None
        self.laid: list[messages.Laid] = []  # each tile as an update shows it, in order laid
        self.opened: list[tuple[int, messages.NewArm]] = []  # (tiles laid before, a new arm)

    def follows(self, layout: Layout) -> bool:
        """Whether ``layout`` is this one with tiles added (not another hand, nothing taken back)."""
        n = len(self.chain)
        return len(layout.chain) >= n and layout.chain[:n] == self.replay.chain

    def catch_up(self, layout: Layout) -> None:
        """Lay the tiles ``layout`` has that this one has not yet."""
        for laid in layout.chain[len(self.chain) :]:
            self._lay(*laid)

    def since(self, laid: int, layout: Layout) -> messages.LayoutUpdate:
        """The tiles laid after the first ``laid``, the arms they opened, the open ends now."""
        self.catch_up(layout)
        return {
            "laid": self.laid[laid:],
            "arms": [arm for n, arm in self.opened if n >= laid],
            "open_ends": [{"arm": k, "number": layout.tips[k]} for k in sorted(layout.open_arms)],
        }

    def json(self, layout: Layout) -> messages.Layout:
        if layout.empty:
            return {"lead": None, "arms": [], "open_ends": [], "chain": []}
        self.catch_up(layout)
        open_arms = sorted(layout.open_arms)
        arms: list[messages.Arm] = [
            {
                **start,
                "tiles": list(tiles),  # entries are never changed once made
                "open": k in open_arms,
                "end": layout.tips[k] if k in open_arms else None,
            }
            for k, (start, tiles) in sorted(self.arms.items())
        ]
        return {
            "lead": self.lead,
            "arms": arms,
            "open_ends": [{"arm": k, "number": layout.tips[k]} for k in open_arms],
            "chain": list(self.chain),
        }

    def _open(self, arm: int, start: messages.ArmFrom | None) -> None:
        entry: messages.NewArm = {"arm": arm, "from": start}
        self.arms[arm] = (entry, [])
        self.opened.append((len(self.chain), entry))

    def _lay(self, tile: int, arm: int, facing: int) -> None:
        replay, arms = self.replay, self.arms
        if arm == NO_ARM:
            replay.lead(tile, facing)
            spinner = replay.spinners == 1
            name = tile_name(tile, facing)
            self.lead = {"tile": name, "first": facing, "spinner": spinner}
            self._open(0, None)
            self._open(1, None)
            if spinner:
                for k in (2, 3):
                    self._open(k, {"arm": None, "index": 0})
            self.chain.append({"tile": name, "arm": None, "facing": facing})
            self.laid.append({"tile": name, "arm": None, "facing": facing, "spinner": spinner})
            return
        spinners_before, next_arm = replay.spinners, replay.next_arm
        replay.place(tile, arm)
        entry: messages.ArmTile = {
            "tile": tile_name(tile),
            "facing": facing,
            "double": IS_DOUBLE[tile],
        }
        tiles = arms[arm][1]
        index = len(tiles)
        if replay.spinners > spinners_before:
            entry["spinner"] = True
        tiles.append(entry)
        if replay.spinners > spinners_before:
            for k in (next_arm, next_arm + 1):
                self._open(k, {"arm": arm, "index": index})
        self.chain.append({"tile": tile_name(tile), "arm": arm, "facing": facing})
        self.laid.append({**entry, "arm": arm})
