#!/usr/bin/env bash
# Issue #34's 500-market row: the demo `BIN --seed 1 --markets 500` (console and embedded simulator
# in one process, 509 instruments streaming), idle, each binary given in its own tmux session at
# 200x60, all side by side, measured as idle.sh measures (from 6 s after start for 60 s; CPU,
# wake-ups, peak memory; ROUNDS rounds, the start order rotated), without the bare floor.
#   .ci/measure/markets500.sh /tmp/before /tmp/after
#   ROUNDS=5 .ci/measure/markets500.sh /tmp/a /tmp/b /tmp/c
set -eu
MODES=markets500 BARE=${BARE:-none} exec "$(cd "$(dirname "$0")" && pwd)/idle.sh" "$@"
