"""The files whose every player-facing string is marked and translated in es and pt-BR (issue 26).

The conversion goes file by file: a converted file is added here, and the coverage tests
(``test_coverage.py``) then hold it to it. Once every file is converted, ``ALL`` becomes True and
these lists are no longer read.
"""

from __future__ import annotations

ALL = False

# The page's modules (src/dominohall/web/static/js/).
PAGE = [
    "api.js",
    "app.js",
    "challengebar.js",
    "frame.js",
    "home.js",
    "howto.js",
    "i18n.js",
    "langswitch.js",
    "leaderboard.js",
    "lobby.js",
    "markup.js",
    "moderation.js",
    "mygames.js",
    "nameprompt.js",
    "names.js",
    "notifications.js",
    "notify.js",
    "pages.js",
    "pagetitle.js",
    "plural.js",
    "profile.js",
    "ranked.js",
    "replay.js",
    "routes.js",
    "settings.js",
    "stylepicker.js",
    "tournament.js",
    "tournamentlist.js",
    "ui.js",
    "vacation.js",
]

# Python modules whose messages reach players (paths under src/dominohall/).
PYTHON = [
    "hall/mail_notices.py",
    "web/accounts.py",
    "web/language.py",
    "web/notifications.py",
    "web/refusals.py",
]
