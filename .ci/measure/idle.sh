#!/usr/bin/env bash
# Issue #34's idle rows: for each tradedesk binary given, the seeded demo streaming
# (`BIN --seed 1`) and polling (`BIN --seed 1 --no-stream`), plus a bare Bubble Tea v1.3.10
# program (a static one-line screen, alternate screen, 30 frames a second: the floor), each in its
# own tmux session at 200x60, all side by side, measured from 6 s after start for 60 s (the
# README's "Drawing on demand" recipe): CPU = utime + stime of /proc/PID/stat, wake-ups =
# voluntary context switches of all the process's threads (/proc/PID/task/*/status), memory =
# peak VmHWM. ROUNDS rounds (default 3), the programs' start order rotated each round.
#   .ci/measure/idle.sh /tmp/before /tmp/after
#   ROUNDS=5 SPAN=60 .ci/measure/idle.sh /tmp/a /tmp/b
# Build the binaries first, e.g. before and after a change:
#   git -C REPO worktree add /tmp/b OLDCOMMIT && (cd /tmp/b && go build -o /tmp/before .)
#   (cd REPO && go build -o /tmp/after .)
# The bare program is built from bare/ beside this script (BARE=path to use another binary,
# BARE=none to leave it out). MODES=stream (or poll) runs one of the demo's two modes;
# MODES=markets500 the demo with 500 synthetic markets (markets500.sh).
# THREADS=1 also prints each thread's voluntary switches a second, the busiest first (the
# busiest of a Go program at idle is usually sysmon). NICE=-20 runs every program at that
# niceness (needs root); at load 17-20 on 2026-11-27 it did not bring the wake-ups down to a quiet
# machine's, so prefer a quiet machine and note the load, which the script prints each round.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 BINARY..." >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
rounds=${ROUNDS:-3} warm=${WARM:-6} span=${SPAN:-60}
hz=$(getconf CLK_TCK)
sock=idle-$$
dir=$(mktemp -d)
cleanup() { tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT
bare=${BARE:-}
if [ -z "$bare" ]; then  # BARE=none leaves the floor out
  bare=$dir/bare
  (cd "$here/bare" && GOFLAGS=-mod=mod go build -o "$bare" .)
fi
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
wakes() { cat /proc/"$1"/task/*/status 2>/dev/null | awk '/^voluntary_ctxt_switches/ {n += $2} END {print n + 0}'; }
perthread() { for t in /proc/"$1"/task/*; do echo "$(basename "$t") $(awk '/^voluntary_ctxt_switches/ {print $2}' "$t/status" 2>/dev/null)"; done; }
hwm() { awk '/^VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$1/status"; }
load() { cut -d' ' -f1 /proc/loadavg; }
echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(nproc) CPUs, $(go version 2>/dev/null | cut -d' ' -f3)${NICE:+, nice $NICE}"
names=() cmds=()
for b in "$@"; do
  echo "# $b: $(sha256sum "$b" | cut -c1-12)"
  for mode in ${MODES:-stream poll}; do
    names+=("$b:$mode")
    case $mode in
    stream) cmds+=("$b --seed 1") ;;
    poll) cmds+=("$b --seed 1 --no-stream") ;;
    markets500) cmds+=("$b --seed 1 --markets 500") ;;
    *) echo "MODES: stream, poll or markets500, not $mode" >&2; exit 2 ;;
    esac
  done
done
[ "$bare" = none ] || { names+=(bare) cmds+=("$bare"); }
printf '%-6s %-44s %8s %10s %8s %s\n' round program 'cpu%' 'wakes/s' 'MB' load
for r in $(seq 1 "$rounds"); do
  n=${#names[@]}
  shift_by=$(((r - 1) % n))
  idx=($(seq "$shift_by" $((n - 1))) $(seq 0 $((shift_by - 1))))
  pids=()
  for i in "${idx[@]}"; do
    home=$dir/home-$r-$i
    mkdir -p "$home"
    tmux -L "$sock" new-session -d -s "s$r-$i" -x 200 -y 60 \
      "cd $home && HOME=$home exec ${NICE:+nice -n $NICE} ${cmds[$i]} 2>$home/stderr"
  done
  sleep 0.5
  for i in "${idx[@]}"; do pids[i]=$(tmux -L "$sock" display -p -t "s$r-$i" '#{pane_pid}'); done
  sleep "$warm"
  l0=$(load)
  declare -a t0=() w0=()
  declare -A th0=()
  for i in "${idx[@]}"; do
    t0[i]=$(ticks "${pids[$i]}") w0[i]=$(wakes "${pids[$i]}")
    while read -r tid v; do [ -n "$v" ] && th0[$tid]=$v; done < <(perthread "${pids[$i]}")
  done
  sleep "$span"
  l1=$(load)
  for i in $(seq 0 $((n - 1))); do
    p=${pids[$i]}
    if [ ! -r "/proc/$p/stat" ]; then echo "round $r: ${names[$i]} exited" >&2; continue; fi
    t1=$(ticks "$p") w1=$(wakes "$p")
    cpu=$(awk -v d=$((t1 - t0[i])) -v hz="$hz" -v s="$span" 'BEGIN {printf "%.2f", 100 * d / hz / s}')
    wk=$(awk -v d=$((w1 - w0[i])) -v s="$span" 'BEGIN {printf "%.1f", d / s}')
    printf '%-6s %-44s %8s %10s %8s %s\n' "$r" "${names[$i]}" "$cpu" "$wk" "$(hwm "$p")" "$l0 -> $l1"
    if [ -n "${THREADS:-}" ]; then
      perthread "$p" | while read -r tid v; do
        [ -n "$tid" ] && [ -n "$v" ] || continue
        awk -v t="$tid" -v d=$((v - ${th0[$tid]:-0})) -v s="$span" 'BEGIN {printf "%.1f %s\n", d / s, t}'
      done | sort -rn | awk '{printf "         thread %s %s/s\n", $2, $1}'
    fi
  done
  for i in "${idx[@]}"; do tmux -L "$sock" kill-session -t "s$r-$i" 2>/dev/null || true; done
  sleep 1
done
