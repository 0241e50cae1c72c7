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
    "i18n.js",
    "langswitch.js",
    "lobby.js",
    "markup.js",
    "nameprompt.js",
    "names.js",
    "notify.js",
    "pages.js",
    "pagetitle.js",
    "plural.js",
    "routes.js",
    "settings.js",
    "stylepicker.js",
    "ui.js",
    "vacation.js",
]

# Python modules whose messages reach players (paths under src/dominohall/).
PYTHON = [
    "web/accounts.py",
    "web/language.py",
    "web/refusals.py",
]
