"""``dominohall serve``: flags and environment variables, and the secret kept in the data folder."""

from __future__ import annotations

import stat

import uvicorn
from click.testing import CliRunner

from dominohall.cli.serve import serve


def run_serve(monkeypatch, args: list[str], env: dict[str, str]) -> dict:
    seen: dict = {}

    def fake_run(app, **options):
        seen.update(options, app=app)

    monkeypatch.setattr(uvicorn, "run", fake_run)
    result = CliRunner().invoke(serve, args, env=env)
    assert result.exit_code == 0, result.output
    return seen


def test_flags_choose_where_the_hall_listens_and_keeps_its_data(monkeypatch, tmp_path):
    data = tmp_path / "data"
    seen = run_serve(
        monkeypatch, ["--host", "127.0.0.1", "--port", "8123", "--data", str(data)], {}
    )
    assert (seen["host"], seen["port"], seen["log_level"]) == ("127.0.0.1", 8123, "info")
    secret = data / "secret"
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    first = secret.read_text()
    run_serve(monkeypatch, ["--data", str(data)], {})
    assert secret.read_text() == first  # made once: sign-ins survive a restart


def test_environment_variables_stand_in_for_flags(monkeypatch, tmp_path):
    env = {
        "DOMINOHALL_HOST": "127.0.0.1",
        "DOMINOHALL_PORT": "8124",
        "DOMINOHALL_DATA": str(tmp_path / "d"),
        "DOMINOHALL_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'other.db'}",
        "DOMINOHALL_LOG_LEVEL": "warning",
    }
    seen = run_serve(monkeypatch, [], env)
    assert (seen["port"], seen["log_level"]) == (8124, "warning")
    assert (tmp_path / "d" / "secret").exists()


def test_a_bad_log_level_is_refused(tmp_path):
    result = CliRunner().invoke(serve, ["--data", str(tmp_path), "--log-level", "loud"])
    assert result.exit_code == 2 and "loud" in result.output
