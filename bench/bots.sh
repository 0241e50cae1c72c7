#!/usr/bin/env bash
# The bots' strength benchmarks (issue 3): tournaments of at least 1,000 games, and Hard's
# decision time. Slow (tens of minutes on two cores); prints figures, asserts nothing.
# Usage: bench/bots.sh [WORKERS]
set -euo pipefail
cd "$(dirname "$0")/.."
workers="${1:-2}"
sim() {
  echo "\$ dominohall sim --workers $workers --json $*"
  date -u +%H:%M:%S
  .venv/bin/dominohall sim --workers "$workers" --json "$@"
}
sim --preset all-fives --bots hard,normal --games 1000 --seed 1
sim --preset draw --bots hard,normal --games 1000 --seed 2
sim --preset draw --bots normal,easy --games 1000 --seed 3
sim --preset all-fives --bots normal,easy --games 1000 --seed 4
sim --preset spinner-fives --bots hard,normal --games 400 --seed 5
sim --preset partnership --bots hard,normal --games 400 --seed 6
echo "\$ python bench/bots_decision_time.py --games 40"
.venv/bin/python bench/bots_decision_time.py --games 40
date -u +%H:%M:%S
