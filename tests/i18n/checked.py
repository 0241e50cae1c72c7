"""The files whose every player-facing string is marked and translated in es and pt-BR (issue 26).

The conversion goes file by file: a converted file is added here, and the coverage tests
(``test_coverage.py``) then hold it to it. Once every file is converted, ``ALL`` becomes True and
these lists are no longer read.
"""

from __future__ import annotations

ALL = True

# The page's modules (src/dominohall/web/static/js/).
PAGE = [
    "announcer.js",
    "api.js",
    "app.js",
    "board.js",
    "challengebar.js",
    "chat.js",
    "choices.js",
    "clock.js",
    "frame.js",
    "game.js",
    "handend.js",
    "handlog.js",
    "home.js",
    "howto.js",
    "i18n.js",
    "langswitch.js",
    "layout.js",
    "lazy.js",
    "leaderboard.js",
    "lobby.js",
    "lookagain.js",
    "markup.js",
    "moderation.js",
    "mygames.js",
    "nameprompt.js",
    "names.js",
    "notifications.js",
    "notify.js",
    "pages.js",
    "pagetitle.js",
    "playerchannel.js",
    "plural.js",
    "profile.js",
    "ranked.js",
    "ratingchange.js",
    "replay.js",
    "resign.js",
    "routes.js",
    "seating.js",
    "settings.js",
    "socket.js",
    "stylepicker.js",
    "tablepage.js",
    "tablestate.js",
    "tile.js",
    "tournament.js",
    "tournamentlist.js",
    "turnbased.js",
    "ui.js",
    "vacation.js",
    "watchersopen.js",
]

# Python modules whose messages reach players (paths under src/dominohall/); "*": every one.
PYTHON = ["*"]
# Python modules whose messages reach players (paths under src/dominohall/).
PYTHON = [
    "hall/mail_notices.py",
    "web/accounts.py",
    "web/language.py",
    "web/notifications.py",
    "web/refusals.py",
]
