"""The files whose every player-facing string is marked and translated in es and pt-BR (issue 26).

The conversion goes file by file: a converted file is added here, and the coverage tests
(``test_coverage.py``) then hold it to it. Once every file is converted, ``ALL`` becomes True and
these lists are no longer read.
"""

from __future__ import annotations

ALL = False

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
    "i18n.js",
    "langswitch.js",
    "layout.js",
    "lazy.js",
    "lobby.js",
    "lookagain.js",
    "markup.js",
    "nameprompt.js",
    "names.js",
    "notify.js",
    "pages.js",
    "pagetitle.js",
    "playerchannel.js",
    "plural.js",
    "ratingchange.js",
    "resign.js",
    "routes.js",
    "seating.js",
    "settings.js",
    "socket.js",
    "stylepicker.js",
    "tablepage.js",
    "tablestate.js",
    "tile.js",
    "turnbased.js",
    "ui.js",
    "vacation.js",
    "watchersopen.js",
]

# Python modules whose messages reach players (paths under src/dominohall/); "*": every one.
PYTHON = ["*"]
