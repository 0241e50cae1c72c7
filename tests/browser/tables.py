"""Tables made over HTTP from a signed-in page (the page's own cookie), and where they stand."""

from __future__ import annotations

from typing import Any

from .players import Person


def play_now(person: Person, preset: str, bots: list[str] | None = None, **more: Any) -> str:
    """A started table against computer players (Play now's request); its id."""
    if bots is None:
        bots = ["normal"] * (3 if preset == "partnership" else 1)
    answer = person.page.request.post(
        person.base + "/api/play-with-bots", data={"preset": preset, "bots": bots, **more}
    )
    assert answer.ok, answer.text()
    return str(answer.json()["table"]["id"])


def open_table(person: Person, table_id: str) -> None:
    person.page.goto(f"{person.base}/t/{table_id}")
    person.page.wait_for_selector(".table")


def new_table(person: Person, **options: Any) -> str:
    """A table in seating (POST /api/tables); its id."""
    answer = person.page.request.post(person.base + "/api/tables", data=options)
    assert answer.ok, answer.text()
    return str(answer.json()["table"]["id"])


def post(person: Person, path: str, body: dict[str, Any] | None = None) -> Any:
    answer = person.page.request.post(person.base + path, data=body or {})
    assert answer.ok, answer.text()
    return answer.json()


def shot(person: Person, artifacts: Any, name: str) -> None:
    person.page.screenshot(path=str(artifacts / f"{name}.png"))
