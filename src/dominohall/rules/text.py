"""The layout as plain text, for the terminal (``record show``, ``play``).

>>> from dominohall.rules import Layout, LayoutKind, parse_tile
>>> lay = Layout(LayoutKind.LINE)
>>> _ = lay.lead(parse_tile("6-6"), 6); _ = lay.place(parse_tile("6-4"), 1)
>>> print(layout_text(lay))
lead [6|6]
arm 0: (open 6)
arm 1: [6|4] (open 4)
"""

from __future__ import annotations

from .hand import HandResult
from .layout import NO_ARM, Layout
from .tiles import OTHER_HALF


def layout_text(layout: Layout, indent: str = "") -> str:
    if layout.empty:
        return f"{indent}(no tile laid yet)"
    arms: dict[int, list[str]] = {}
    lines = []
    for tile, arm, facing in layout.chain:
        face = f"[{facing}|{OTHER_HALF[tile][facing]}]"
        if arm == NO_ARM:
            lines.append(f"{indent}lead {face}")
        else:
            arms.setdefault(arm, []).append(face)
    for arm in sorted(set(arms) | set(layout.open_arms)):
        tiles = "".join(arms.get(arm, []))
        state = f"(open {layout.tips[arm]})" if arm in layout.open_arms else "(not open yet)"
        lines.append(f"{indent}arm {arm}: {tiles + ' ' if tiles else ''}{state}")
    return "\n".join(lines)


def hand_end_text(result: HandResult, names: list[str]) -> str:
    """How a hand ended, in words.

    >>> hand_end_text(HandResult(1, True, 12), ["Ann", "Bob"])
    'Bob wins the blocked hand (fewest pips): bonus 12'
    """
    if result.cut_short:
        return "the target is reached: the game ends at once"
    if result.winner is None:
        return "the hand is blocked with a tie: nobody scores the bonus"
    how = "wins the blocked hand (fewest pips)" if result.blocked else "goes out"
    return f"{names[result.winner]} {how}: bonus {result.bonus}"
