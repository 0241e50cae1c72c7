"""Five Up on a phone: every open end is marked where it is, in view and on no tile, and an end
has one name everywhere (its button, its place on the layout, the board's label)."""

from __future__ import annotations

import re
import statistics
from pathlib import Path
from typing import Any

import pytest

from .chains import random_layout
from .conftest import SIZES, Hall
from .players import Person
from .tables import open_table, play_now

# Draw a layout with the page's own Board in a box the size of a phone's (or desktop's) board,
# and say for each open end whether it is marked, inside the board, and clear of every tile.
MARKS = """async ([layouts, width, height]) => {
  const { Board } = await import('/static/js/board.js');
  const { html, render } = await import('/static/js/ui.js');
  const { halvesOf } = await import('/static/js/tile.js');
  const box = document.createElement('div');
  box.className = 'table';
  box.style.cssText = `position:fixed;left:0;top:0;width:${width}px;height:${height}px;display:block`;
  document.body.append(box);
  const out = [];
  for (const [chain, ends] of layouts) {
    render(html`<${Board} chain=${chain} kind="all_doubles_spinners" openEnds=${ends} lit=${null}
      onEnd=${() => {}} label="test" />`, box);
    await new Promise((r) => setTimeout(r, 80));
    const frame = box.querySelector('.board').getBoundingClientRect();
    const tiles = [...box.querySelectorAll('.placed rect.body')].map((t) => t.getBoundingClientRect());
    const seen = {};
    for (const m of box.querySelectorAll('.end-mark')) {
      const r = m.querySelector('circle').getBoundingClientRect();
      const inside = r.left >= frame.left - 1 && r.right <= frame.right + 1 && r.top >= frame.top - 1
        && r.bottom <= frame.bottom + 1;
      const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
      const onTile = tiles.some((t) => cx > t.left + 1 && cx < t.right - 1 && cy > t.top + 1 && cy < t.bottom - 1);
      seen[m.dataset.arm] = inside && !onTile && r.width >= 10;
    }
    out.push(ends.map((e) => seen[String(e.arm)] === true));
  }
  render(null, box);
  box.remove();
  return out;
}"""

BUTTON = re.compile(r"(Left|Right|Top|Bottom)( [1-9])? · [0-6]")


@pytest.mark.parametrize("size", SIZES)
def test_every_open_end_is_marked_in_view(page: Any, size: dict[str, int]) -> None:
    # The board's share of the screen: below the top bar and the players, above the hand.
    width, height = size["width"] - (250 if size["width"] > 700 else 0), size["height"] - 330
    layouts = [random_layout("five-up", seed, players) for seed in range(24) for players in (2, 4)]
    page.emulate_media(reduced_motion="reduce")  # the camera in place at once
    marked = page.evaluate(MARKS, [layouts, width, height])
    missing = [(i, m) for i, m in enumerate(marked) if not all(m)]
    assert missing == []
    assert max(len(ends) for _, ends in layouts) >= 4  # hands with many open ends were met


@pytest.mark.parametrize("size", SIZES)
def test_end_buttons_and_the_layout_name_an_end_alike(
    hall: Hall, browser: Any, artifacts: Path, size: dict[str, int]
) -> None:
    context = browser.new_context(viewport=size)
    person = Person.open(context, hall.url)
    person.sign_in("Ann")
    open_table(person, play_now(person, "five-up", target=100))
    page = person.page
    chosen = 0
    for _ in range(150):
        situation = person.wait_situation()
        if situation == "game_over":
            break
        if situation == "my_turn" and page.query_selector(".hand-tile.fits"):
            version = person.version()
            # A tile that fits two ends when there is one (its name says "... and the ..."):
            # the first lit tile alone left whole games without a choice of ends.
            two = ".hand-tile.fits[aria-label*=' and the ']"
            lit = two if page.query_selector(two) else ".hand-tile.fits"
            if person.click_tile(f"{lit} >> nth=0"):
                buttons = page.eval_on_selector_all(
                    ".end-choice",
                    "bs => bs.map((b) => [b.textContent.trim(), b.getAttribute('aria-label')])",
                )
                slots = page.eval_on_selector_all(
                    ".board .slot", "gs => gs.map((g) => g.getAttribute('aria-label'))"
                )
                for text, label in buttons:
                    assert BUTTON.fullmatch(text), text
                    # "Play 6-4 on the right end 2 (4)" and the layout's "Play on the right end 2, 4"
                    name = re.search(r"on the (.+) \(\d\)$", label)[1]
                    assert any(f"on the {name}, " in s for s in slots), (label, slots)
                    assert name.lower().startswith(text.split(" · ")[0].split(" ")[0].lower())
                view = page.viewport_size["width"]
                edges = page.eval_on_selector_all(
                    ".actions button", "bs => bs.map((b) => b.getBoundingClientRect().right)"
                )
                assert max(edges) <= view, edges  # every end's button and Cancel in view
                chosen += 1
                page.screenshot(path=str(artifacts / f"five-up-ends-{size['width']}.png"))
                page.click(".end-choice >> nth=0")
            person.wait_moved_on(version)
            if chosen >= 3:
                break
            continue
        person.play_turn()
    assert chosen >= 1, "no tile fitted two ends"
    assert person.errors == []
    context.close()


# Five Up's layouts drawn by the page's Board in a box the size of the table's board: the short
# side of the smallest tile, and how much of the board's height and width the layout spans.
SPREAD = """async ([layouts, width, height]) => {
  const { Board } = await import('/static/js/board.js');
  const { html, render } = await import('/static/js/ui.js');
  const box = document.createElement('div');
  box.className = 'table';
  box.style.cssText = `position:fixed;left:0;top:0;width:${width}px;height:${height}px;display:block`;
  document.body.append(box);
  const out = [];
  for (const [chain, ends] of layouts) {
    render(html`<${Board} chain=${chain} kind="all_doubles_spinners" openEnds=${ends} lit=${null}
      onEnd=${() => {}} label="test" />`, box);
    await new Promise((r) => setTimeout(r, 60));
    const tiles = [...box.querySelectorAll('.placed rect.body')].map((t) => t.getBoundingClientRect());
    const cut = () => [...box.querySelectorAll('.end-tag')].map((t) => t.getBoundingClientRect())
      .filter((r) => r.left < -0.5 || r.right > width + 0.5 || r.top < -0.5 || r.bottom > height + 0.5).length;
    let tagsCut = cut();
    // A tile that fits every end: each lit end's name stands beyond it, on the board too.
    render(html`<${Board} chain=${chain} kind="all_doubles_spinners" openEnds=${ends}
      lit=${new Set(ends.map((e) => e.arm))} onEnd=${() => {}} label="test" />`, box);
    await new Promise((r) => setTimeout(r, 60));
    tagsCut += cut();
    out.push({
      tagsCut,
      short: Math.min(...tiles.map((r) => Math.min(r.width, r.height))),
      tall: (Math.max(...tiles.map((r) => r.bottom)) - Math.min(...tiles.map((r) => r.top))) / height,
    });
  }
  render(null, box);
  box.remove();
  return out;
}"""


def test_a_long_five_up_layout_fills_a_phone_held_sideways(hall: Hall, browser: Any) -> None:
    """Issue 21: on a phone held sideways the board was a strip (76 px), so a long line ran in
    one straight row across the width with tiles about 10 px."""
    person = Person.open(browser.new_context(viewport={"width": 844, "height": 390}), hall.url)
    person.sign_in("Xena")
    open_table(person, play_now(person, "five-up", target=100))
    board = person.page.eval_on_selector(
        ".board", "b => { const r = b.getBoundingClientRect(); return [r.width, r.height]; }"
    )
    layouts = [random_layout("five-up", seed, players) for seed in range(16) for players in (2, 3)]
    # And an early one, drawn large: the 6-6 lead (a spinner) with a line each side, four ends.
    early = [
        {"a": 6, "b": 6, "arm": None, "match": 6, "ends": 2},
        {"a": 6, "b": 1, "arm": 0, "match": 6},
        {"a": 6, "b": 5, "arm": 1, "match": 6},
        {"a": 1, "b": 3, "arm": 0, "match": 1},
        {"a": 5, "b": 2, "arm": 1, "match": 5},
    ]
    ends = [{"arm": 0, "number": 3}, {"arm": 1, "number": 2}]
    layouts.append((early, ends + [{"arm": 2, "number": 6}, {"arm": 3, "number": 6}]))
    person.page.emulate_media(reduced_motion="reduce")  # the camera in place at once
    found = person.page.evaluate(SPREAD, [layouts, *board])
    assert min(f["short"] for f in found) >= 16
    assert statistics.mean(f["short"] for f in found) >= 22
    assert statistics.median(f["tall"] for f in found) >= 0.4  # the board's height used
    assert sum(f["tagsCut"] for f in found) == 0  # every end's name whole on the board
    assert person.errors == []
    person.page.context.close()
