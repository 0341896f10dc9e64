#!/usr/bin/env bash
# Issue #34's 500-market row: the demo `BIN --seed 1 --markets 500` (console and embedded simulator
# in one process, 509 instruments streaming), idle, each binary given in its own tmux session at
# 200x60, all side by side, measured from 6 s after start for 60 s (the README's "Drawing on
# demand" recipe): CPU = utime + stime of /proc/PID/stat, wake-ups = voluntary context switches of
# all the process's threads, memory = peak VmHWM. ROUNDS rounds (default 3), the binaries' start
# order rotated each round.
#   .ci/measure/markets500.sh /tmp/before /tmp/after
#   ROUNDS=5 .ci/measure/markets500.sh /tmp/a /tmp/b /tmp/c
set -eu
[ $# -ge 1 ] || { echo "usage: $0 BINARY..." >&2; exit 2; }
rounds=${ROUNDS:-3} warm=${WARM:-6} span=${SPAN:-60}
hz=$(getconf CLK_TCK)
sock=markets500-$$
dir=$(mktemp -d)
cleanup() { tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
wakes() { cat /proc/"$1"/task/*/status 2>/dev/null | awk '/^voluntary_ctxt_switches/ {n += $2} END {print n + 0}'; }
hwm() { awk '/^VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$1/status"; }
load() { cut -d' ' -f1 /proc/loadavg; }
echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(nproc) CPUs, $(go version 2>/dev/null | cut -d' ' -f3)"
for b in "$@"; do echo "# $b: $(sha256sum "$b" | cut -c1-12)"; done
printf '%-6s %-40s %8s %10s %8s %s\n' round binary 'cpu%' 'wakes/s' 'MB' load
for r in $(seq 1 "$rounds"); do
  bins=("$@")
  n=${#bins[@]}
  shift_by=$(((r - 1) % n))
  order=("${bins[@]:shift_by}" "${bins[@]:0:shift_by}")
  pids=()
  for i in "${!order[@]}"; do
    home=$dir/home-$r-$i
    mkdir -p "$home"
    tmux -L "$sock" new-session -d -s "s$r-$i" -x 200 -y 60 \
      "cd $home && HOME=$home exec ${order[$i]} --seed 1 --markets 500 2>$home/stderr"
  done
  sleep 0.5
  for i in "${!order[@]}"; do
    pids+=("$(tmux -L "$sock" display -p -t "s$r-$i" '#{pane_pid}')")
  done
  sleep "$warm"
  l0=$(load)
  declare -a t0=() w0=()
  for i in "${!pids[@]}"; do t0[i]=$(ticks "${pids[$i]}"); w0[i]=$(wakes "${pids[$i]}"); done
  sleep "$span"
  l1=$(load)
  for i in "${!pids[@]}"; do
    p=${pids[$i]}
    if [ ! -r "/proc/$p/stat" ]; then echo "round $r: ${order[$i]} exited" >&2; continue; fi
    t1=$(ticks "$p") w1=$(wakes "$p")
    cpu=$(awk -v d=$((t1 - t0[i])) -v hz="$hz" -v s="$span" 'BEGIN {printf "%.2f", 100 * d / hz / s}')
    wk=$(awk -v d=$((w1 - w0[i])) -v s="$span" 'BEGIN {printf "%.1f", d / s}')
    printf '%-6s %-40s %8s %10s %8s %s\n' "$r" "${order[$i]}" "$cpu" "$wk" "$(hwm "$p")" "$l0 -> $l1"
  done
  for i in "${!order[@]}"; do tmux -L "$sock" kill-session -t "s$r-$i" 2>/dev/null || true; done
  sleep 1
done
