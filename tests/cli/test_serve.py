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


def test_the_limits_and_sessions_are_settings_with_the_documented_defaults(monkeypatch, tmp_path):
    from dominohall.web.ratelimit import Limit, Limits

    seen = run_serve(monkeypatch, ["--data", str(tmp_path)], {})
    app = seen["app"]
    assert app.state.guard.limits == Limits()  # the flags' defaults are the library's
    assert app.state.sessions.lifetime == 30 * 24 * 3600 and not app.state.sessions.secure
    assert app.state.sessions.proxies.networks == []
    assert seen["proxy_headers"] is False  # X-Forwarded-* only from --trusted-proxy

    args = ["--data", str(tmp_path), "--trusted-proxy", "10.0.0.1", "--secure-cookies"]
    args += ["--table-limit", "off", "--open-tables", "0", "--sign-in-limit", "3/1m"]
    args += ["--sockets-per-address", "0"]
    args += ["--session-days", "7"]
    env = {"DOMINOHALL_TRUSTED_PROXY": "ignored", "DOMINOHALL_ACCOUNT_LIMIT": "2/1d"}
    app = run_serve(monkeypatch, args, env)["app"]
    limits = app.state.guard.limits
    assert limits.tables_per_address is None and limits.open_tables is None
    assert limits.sockets_per_address is None
    assert limits.sign_in_per_account == Limit(3, 60)
    assert limits.accounts_per_address == Limit(2, 86400)
    assert app.state.sessions.secure and app.state.sessions.lifetime == 7 * 24 * 3600
    assert [str(n) for n in app.state.sessions.proxies.networks] == ["10.0.0.1/32"]

    env = {"DOMINOHALL_TRUSTED_PROXY": "10.0.0.1, 192.168.0.0/16"}
    app = run_serve(monkeypatch, ["--data", str(tmp_path)], env)["app"]
    assert len(app.state.sessions.proxies.networks) == 2


def test_a_bad_limit_or_proxy_is_refused_by_name(tmp_path):
    result = CliRunner().invoke(serve, ["--data", str(tmp_path), "--table-limit", "lots"])
    assert result.exit_code == 2 and "COUNT/TIME" in result.output
    result = CliRunner().invoke(serve, ["--data", str(tmp_path), "--trusted-proxy", "proxy.lan"])
    assert result.exit_code == 2 and "proxy.lan" in result.output


def test_email_is_off_without_an_smtp_server_and_set_by_flags_and_variables(monkeypatch, tmp_path):
    from dominohall.hall.mail import MailSettings

    assert run_serve(monkeypatch, ["--data", str(tmp_path)], {})["app"].state.mail is None
    env = {
        "DOMINOHALL_SMTP_HOST": "smtp.example.org",
        "DOMINOHALL_SMTP_PASSWORD": "s3cret",
        "DOMINOHALL_MAIL_FROM": "Domino Hall <hall@example.org>",
        "DOMINOHALL_PUBLIC_URL": "https://dominoes.example.org",
    }
    args = ["--data", str(tmp_path), "--smtp-user", "hall@example.org", "--email-every", "30"]
    mail = run_serve(monkeypatch, args, env)["app"].state.mail
    assert mail == MailSettings(
        host="smtp.example.org",
        port=587,
        security="starttls",
        username="hall@example.org",
        password="s3cret",
        sender="Domino Hall <hall@example.org>",
        public_url="https://dominoes.example.org",
        every=1800.0,
    )
    assert mail.every == 30 * 60 and MailSettings("h", "s", "u").every == 3600  # default: 60 min
    args = ["--data", str(tmp_path), "--smtp-security", "tls"]
    assert run_serve(monkeypatch, args, env)["app"].state.mail.port == 465

    refused = CliRunner().invoke(serve, ["--data", str(tmp_path), "--smtp-host", "smtp.lan"])
    assert refused.exit_code == 2
    assert "--mail-from" in refused.output and "--public-url" in refused.output
    env["DOMINOHALL_PUBLIC_URL"] = "dominoes.example.org"
    refused = CliRunner().invoke(serve, ["--data", str(tmp_path)], env=env)
    assert refused.exit_code == 2 and "http://" in refused.output


def test_redis_is_off_unless_a_url_is_given_by_flag_or_variable(monkeypatch, tmp_path):
    import dominohall.web

    given: list[str | None] = []
    real = dominohall.web.create_app

    def create_app(**options):
        given.append(options["redis_url"])
        return real(**options)

    monkeypatch.setattr(dominohall.web, "create_app", create_app)
    data = ["--data", str(tmp_path)]
    run_serve(monkeypatch, data, {})
    run_serve(monkeypatch, [*data, "--redis-url", "redis://127.0.0.1:6379/0"], {})
    run_serve(monkeypatch, data, {"DOMINOHALL_REDIS_URL": "rediss://hall:pw@redis.lan:6380/1"})
    assert given == [None, "redis://127.0.0.1:6379/0", "rediss://hall:pw@redis.lan:6380/1"]


def test_the_redis_prefix_is_a_flag_or_variable(monkeypatch, tmp_path):
    import dominohall.web

    given: list[str] = []
    real = dominohall.web.create_app

    def create_app(**options):
        given.append(options["redis_prefix"])
        return real(**options)

    monkeypatch.setattr(dominohall.web, "create_app", create_app)
    data = ["--data", str(tmp_path)]
    run_serve(monkeypatch, data, {})
    run_serve(monkeypatch, [*data, "--redis-prefix", "hall-b:"], {})
    run_serve(monkeypatch, data, {"DOMINOHALL_REDIS_PREFIX": "chaos:1:"})
    assert given == ["dominohall:", "hall-b:", "chaos:1:"]


def test_sockets_only_is_a_flag_or_variable_and_needs_redis(monkeypatch, tmp_path):
    import dominohall.web

    given: list[bool] = []
    real = dominohall.web.create_app

    def create_app(**options):
        given.append(options["plays_tables"])
        return real(**options)

    monkeypatch.setattr(dominohall.web, "create_app", create_app)
    data = ["--data", str(tmp_path)]
    redis = ["--redis-url", "redis://127.0.0.1:6379/0"]
    run_serve(monkeypatch, [*data, *redis], {})
    run_serve(monkeypatch, [*data, *redis, "--sockets-only"], {})
    run_serve(monkeypatch, [*data, *redis], {"DOMINOHALL_SOCKETS_ONLY": "1"})
    assert given == [True, False, False]
    refused = CliRunner().invoke(serve, [*data, "--sockets-only"])
    assert refused.exit_code == 2 and "--sockets-only needs --redis-url" in refused.output
