"""Every preset's table fits a 360 px phone: title, boneyard, the layout's ends and Resign in
view, nothing cut off and nothing to scroll sideways (issue 9: long names pushed it wider)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dominohall.rules import PRESET_LIST

from .conftest import DESKTOP, PHONE, Hall
from .players import Person
from .tables import open_table, play_now

# Every element that must be seen whole, inside the screen's width, and not clipped.
CUT_OFF = """() => {
  const W = document.documentElement.clientWidth;
  const bad = [];
  if (document.documentElement.scrollWidth > W) bad.push('the page scrolls sideways');
  const whole = ['.topbar .title', '.topbar .target', '.topbar button', '.topbar select',
                 '.info > span', '.player', '.player .name', '.actions .status'];
  for (const sel of whole) {
    for (const el of document.querySelectorAll(sel)) {
      const r = el.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.left < -0.5 || r.right > W + 0.5) bad.push(`${sel} "${el.textContent}" at ${r.left}..${r.right}`);
      if (el.scrollWidth > el.clientWidth + 1) bad.push(`${sel} "${el.textContent}" is cut off`);
    }
  }
  const board = document.querySelector('.board').getBoundingClientRect();
  for (const el of document.querySelectorAll('.board .placed, .board .slot, .board .end-mark')) {
    const r = el.getBoundingClientRect();
    if (r.left < board.left - 1 || r.right > board.right + 1 || r.top < board.top - 1
        || r.bottom > board.bottom + 1) bad.push(`a tile or an end outside the board`);
  }
  return bad;
}"""


def check_fits(person: Person, preset: Any) -> None:
    page = person.page
    page.wait_for_selector(".board .placed, .board .slot")
    page.wait_for_timeout(500)  # the camera's glide
    assert page.evaluate(CUT_OFF) == []
    assert page.is_visible(".topbar button.resign")
    assert page.inner_text(".topbar .title") == preset.name
    if preset.drawing.value == "none":
        assert page.query_selector(".boneyard") is None
    else:
        assert page.is_visible(".boneyard")


@pytest.mark.parametrize("preset", PRESET_LIST, ids=[p.id for p in PRESET_LIST])
def test_every_preset_fits_a_360_px_phone(
    hall: Hall, browser: Any, artifacts: Path, preset: Any
) -> None:
    context = browser.new_context(viewport=PHONE)
    person = Person.open(context, hall.url)
    person.sign_in("Ann")
    open_table(person, play_now(person, preset.id))
    check_fits(person, preset)
    person.page.screenshot(path=str(artifacts / f"fit-{preset.id}-360.png"))
    assert person.errors == []
    context.close()


def test_the_longest_name_at_desktop_size(hall: Hall, browser: Any, artifacts: Path) -> None:
    preset = max(PRESET_LIST, key=lambda p: len(p.name))
    context = browser.new_context(viewport=DESKTOP)
    person = Person.open(context, hall.url)
    person.sign_in("Ann")
    open_table(person, play_now(person, preset.id, bots=["normal"] * 3))
    check_fits(person, preset)
    person.page.screenshot(path=str(artifacts / f"fit-{preset.id}-desktop.png"))
    assert person.errors == []
    context.close()
