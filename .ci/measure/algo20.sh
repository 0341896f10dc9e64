#!/usr/bin/env bash
# Issue #36's "20 algorithms cost under 2 % of a core on top of the idle console" (README,
# Algorithms). One `tradedesk sim` on loopback (the first binary's; its own work is not counted)
# and, for each binary given, two consoles on accounts of their own, all in one tmux server at
# 160x50: one idle, one with 20 × `:chase buy 0.001 btc offset 5000t` (each resting 5000 ticks
# under the bid and following it up, never filling). Then ORD windows of SPAN s on the market's own
# walk ("ordinary") and DRV windows with BTC-PERP's walk paused and its index driven up 10 a
# second through POST /control ("driven": every chase wants a reprice, a cancel and a place, each
# second, and reprices as fast as the shared budget of signed actions lets). CPU of a console =
# utime + stime of /proc/PID/stat over the window; each binary's line gives its idle console, its
# console with the chases, and the difference: the cost of the 20 chases on top of its idle console
# in the same window. At the start and the end the chasing consoles' journals are read
# (`BIN algos --json`): how many chases are running.
#   .ci/measure/algo20.sh /tmp/before /tmp/after
#   ORD=2 DRV=4 SPAN=60 .ci/measure/algo20.sh /tmp/a /tmp/b /tmp/c
#   PROFILE=DIR ...   also writes each chasing console's CPU profile to DIR/cpu-N.prof (N from 1)
# Up to four binaries (keys 0x11.. to 0x88.., test keys only).
set -eu
[ $# -ge 1 ] && [ $# -le 4 ] || { echo "usage: $0 BINARY... (1 to 4)" >&2; exit 2; }
ord=${ORD:-3} drv=${DRV:-3} span=${SPAN:-60} chases=${CHASES:-20} prof=${PROFILE:-}
hz=$(getconf CLK_TCK)
sock=algo20-$$
dir=$(mktemp -d)
port=$((20000 + $$ % 20000))
drive_pid=
cleanup() {
  [ -n "$drive_pid" ] && kill "$drive_pid" 2>/dev/null || true
  tmux -L "$sock" kill-server 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
addrs=(0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A 0x1563915e194D8CfBA1943570603F7606A3115508
  0x5CbDd86a2FA8Dc4bDdd8a8f69dBa48572EeC07FB 0x7564105E977516C53bE337314c7E53838967bDaC
  0xe1fAE9b4fAB2F5726677ECfA912d96b0B683e6a9 0xdb2430B4e9AC14be6554d3942822BE74811A1AF9
  0xAe72A48c1a36bd18Af168541c53037965d26e4A8 0x62f94E9AC9349BCCC61Bfe66ddAdE6292702EcB6)
bins=("$@")
n=$#
url=http://127.0.0.1:$port
post() { curl -s -XPOST -H 'Content-Type: application/json' "$url/$1" -d "$2"; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
load() { cut -d' ' -f1 /proc/loadavg; }
# Console k (0..2n-1): binary k/2, idle when k is even; account k+1.
envof() {
  local h=$dir/home-$1 d=$(($1 + 1))
  echo "HOME=$h XDG_CONFIG_HOME=$h/.config XDG_STATE_HOME=$h/.state XDG_DATA_HOME=$h/.data XDG_CACHE_HOME=$h/.cache TRADEDESK_PRIVATE_KEY=$(printf "$d%.0s" $(seq 1 64))"
}

echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for i in "${!bins[@]}"; do echo "# binary $((i + 1)): ${bins[$i]} $(sha256sum "${bins[$i]}" | cut -c1-12)"; done
fund=()
for k in $(seq 0 $((2 * n - 1))); do fund+=(--fund "${addrs[$k]}"); done
tmux -L "$sock" new-session -d -s sim -x 100 -y 20 "exec $1 sim --listen 127.0.0.1:$port ${fund[*]} 2>$dir/sim.err"
for _ in $(seq 1 50); do post info '{"method":"ticker","params":{"symbol":"BTC-PERP"}}' >/dev/null 2>&1 && break; sleep 0.2; done
pids=()
for k in $(seq 0 $((2 * n - 1))); do
  h=$dir/home-$k
  mkdir -p "$h"
  extra=
  [ -n "$prof" ] && [ $((k % 2)) = 1 ] && extra="--cpuprofile $prof/cpu-$((k / 2 + 1)).prof"
  tmux -L "$sock" new-session -d -s "c$k" -x 160 -y 50 "cd $h && exec env $(envof "$k") ${bins[$((k / 2))]} --url $url $extra 2>$h/stderr"
done
sleep 0.5
for k in $(seq 0 $((2 * n - 1))); do pids+=("$(tmux -L "$sock" display -p -t "c$k" '#{pane_pid}')"); done
sleep 5
key() { tmux -L "$sock" send-keys -t "c$1" "${@:2}"; }
chasing=$(seq 1 2 $((2 * n - 1)))
for _ in $(seq 1 "$chases"); do # the chases, the chasing consoles in turn
  for k in $chasing; do key "$k" Escape; key "$k" Escape; done; sleep 0.3
  for k in $chasing; do key "$k" ':'; done; sleep 0.3
  for k in $chasing; do key "$k" -l 'chase buy 0.001 btc offset 5000t'; done; sleep 0.3
  for k in $chasing; do key "$k" Enter; done; sleep 1
  for k in $chasing; do key "$k" Enter; done; sleep 0.7
done
census() {
  local out="# $1: chases running" k
  for k in $chasing; do
    out="$out, binary $((k / 2 + 1)) $(env $(envof "$k") "${bins[$((k / 2))]}" algos --json --url "$url" 2>/dev/null | grep -o '"state": *"running"' | wc -l)"
  done
  echo "$out"
}
census start
sleep 10
pct() { echo "scale=3; ($2 - $1) * 100 / $hz / $span" | bc; }
window() { # one window: $1 is its label
  local t0=() t1=() l0 d0 line i a c
  for p in "${pids[@]}"; do t0+=("$(ticks "$p")"); done
  l0=$(load); d0=$(date -u +%H:%M:%S)
  sleep "$span"
  for p in "${pids[@]}"; do t1+=("$(ticks "$p")"); done
  line=$(printf '%-8s %s-%s load %5s/%-5s' "$1" "$d0" "$(date -u +%H:%M:%S)" "$l0" "$(load)")
  for i in $(seq 0 $((n - 1))); do
    a=$(pct "${t0[$((2 * i))]}" "${t1[$((2 * i))]}")
    c=$(pct "${t0[$((2 * i + 1))]}" "${t1[$((2 * i + 1))]}")
    line="$line | $((i + 1)): $(printf '%5.2f%% %5.2f%% %+5.2f' "$a" "$c" "$(echo "$c - $a" | bc)")"
  done
  echo "$line"
}
echo "# window time              load (1 min) | binary: idle, with 20 chases, on top (% of a core)"
for _ in $(seq 1 "$ord"); do window ordinary; done
px=$(post info '{"method":"ticker","params":{"symbol":"BTC-PERP"}}' | sed 's/.*"index_price":"\([0-9.]*\)".*/\1/')
px=${px%.*}
post control '{"instrument":"BTC-PERP","pause":true}' >/dev/null
(while :; do px=$((px + 10)); post control "{\"instrument\":\"BTC-PERP\",\"index\":\"$px\"}" >/dev/null; sleep 1; done) &
drive_pid=$!
sleep 10
for _ in $(seq 1 "$drv"); do window driven; done
kill "$drive_pid"; drive_pid=
post control '{"instrument":"BTC-PERP","pause":false}' >/dev/null
census end
if [ -n "$prof" ]; then # quit the chasing consoles so that they write their profiles
  for k in $chasing; do key "$k" Escape; key "$k" C-c; done
  sleep 3
fi
