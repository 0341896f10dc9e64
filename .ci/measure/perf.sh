#!/usr/bin/env bash
# Every figure of README's Performance section (but "The test suite", which is timed apart), in one
# run: builds what the chosen steps need from this tree first (and a BEFORE binary), then runs each
# measurement in turn, never two at once, and writes OUT/results.txt, one figure a line, labelled as
# the section's rows name them (`idle.stream.cpu  0.28 / 0.28 / 0.28 %`), each step headed by its
# time (date -u), uptime, commit, CPU and Go; every step's raw output is beside it in OUT/raw/.
#   .ci/measure/perf.sh                      # all steps, about 20 min on a quiet 2-core machine
#   BEFORE=f18daf9 .ci/measure/perf.sh       # also a binary of that commit (or a binary's path)
#                                            # beside this tree's in the idle and 500-market rounds
#   QUICK=1 .ci/measure/perf.sh              # every step briefly (one 5 s idle round, benchmarks
#                                            # 100 ms once; the latency tests at their fixed length,
#                                            # about a minute each): 5 min, tests the script only
#   STEPS="idle requests" .ci/measure/perf.sh    SKIP="latency-terminal-1p" .ci/measure/perf.sh
#   OUT=/tmp/perf-run .ci/measure/perf.sh    # default /tmp/perf-YYYYmmddTHHMMSSZ
# The steps, in the order they run (`STEPS=list` prints them):
#   idle        the seeded demo streaming and polling and the bare Bubble Tea floor at 200x60,
#               ROUNDS (3) rounds of SPAN (60) s side by side (idle.sh)
#   markets500  the demo with 500 synthetic markets, the same rounds (markets500.sh)
#   requests    requests a second of the idle streaming demo (a long and a short open) at 200x60:
#               strace of its socket writes for REQSPAN (90) s from 10 s after start
#   startup     start to first live frame: STARTS (5) runs of `--seed 1 --log`, "first live frame"
#   latency-terminal     TestEventToTerminalLatency (orders and keys to the pseudo-terminal)
#   latency-terminal-1p  the same with GOMAXPROCS=1 (the whole test process on one processor)
#   latency-screen       TestEventToScreenLatency (to the console's frame; streaming and polling)
#   idlecpu-test         TestIdleCPU (in process, 5 s each mode)
#   polling     TestPollingReusesConnections, TestSoakFaults, TestRecoversWithinTwoPollIntervals -v
#   bench-ui    ui's frame, ticker update, start-up and fills benchmarks
#   bench-panes the history pane, chart, streamed tickers and screen flush benchmarks
#   bench-state state's ApplyTickers, CheckOrder, FillsPage1
#   bench-api   signing and decoding a signed order, in libsecp256k1 as the shipped binary signs
#               (the api/keyfile import added by a test-only overlay) and in the test's pure Go
#   bench-sim   the simulator's matching, HTTP, market step and state write benchmarks, checking
#               signatures in libsecp256k1 as `tradedesk sim` does
#   bench-fanout  BenchmarkStreamFanOut, -benchtime 3s -count 2
set -euo pipefail
SKIP=${SKIP:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(git -C "$here" rev-parse --show-toplevel)
all_steps="idle markets500 requests startup latency-terminal latency-terminal-1p latency-screen idlecpu-test polling bench-ui bench-panes bench-state bench-api bench-sim bench-fanout"
[ "${STEPS:-}" != list ] || { echo "$all_steps"; exit 0; }
steps=${STEPS:-$all_steps}
steps=${steps//,/ }
for s in $steps ${SKIP//,/ }; do
  [[ " $all_steps " == *" $s "* ]] || { echo "unknown step $s; the steps: $all_steps" >&2; exit 2; }
done
for s in ${SKIP//,/ }; do steps=$(echo " $steps " | sed "s/ $s / /g"); done
quick=${QUICK:-}
out=${OUT:-/tmp/perf-$(date -u +%Y%m%dT%H%M%SZ)}
bin=$out/bin raw=$out/raw res=$out/results.txt
mkdir -p "$bin" "$raw"
: >"$res"
sock=perf-$$
cleanup() { tmux -L "$sock" kill-server 2>/dev/null || true; }
trap cleanup EXIT

commit=$(git -C "$root" rev-parse --short HEAD)
[ -z "$(git -C "$root" status --porcelain --untracked-files=no)" ] || commit="$commit (with uncommitted changes)"
cpu=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)
gover=$(go version | cut -d' ' -f3)

wants() { [[ " $steps " == *" $1 "* ]]; }
wants_any() { local s; for s in "$@"; do wants "$s" && return 0; done; return 1; }
put() { printf '%-36s %s\n' "$1" "$2" >>"$res"; }
stamp() { echo "$(date -u '+%Y-%m-%d %H:%M:%S UTC'); uptime: $(uptime | sed 's/^ *//')"; }
begin() {
  printf '\n## %s\n# start %s\n# commit %s; %s, %s CPUs; %s%s\n' "$1" "$(stamp)" "$commit" "$cpu" \
    "$(nproc)" "$gover" "${quick:+; QUICK (figures not comparable)}" | tee -a "$res" >"$raw/$1.txt"
  echo "$(date -u +%H:%M:%S) $1" >&2
}
end() { echo "# end $(stamp)" | tee -a "$raw/$1.txt" >>"$res"; }

# ---- build: everything the chosen steps need, before any measurement ----
test_bin() { # $1 package dir, $2 binary name, $3 overlay (optional)
  (cd "$root" && go test -c ${3:+-overlay "$3"} -o "$bin/$2" "./$1")
}
linked_overlay() { # api/keyfile imported by an external test file: secp.UseLinked, as main links it
  local ov=$out/overlay
  mkdir -p "$ov"
  for pkg in api sim; do
    printf 'package %s_test\n\n// Signs and checks signatures in libsecp256k1, as the shipped binary does.\nimport _ "github.com/tradedesk/tradedesk/api/keyfile"\n' \
      "$pkg" >"$ov/${pkg}_linked_test.go"
  done
  printf '{"Replace": {"%s": "%s", "%s": "%s"}}\n' \
    "$root/api/zz_perf_linked_test.go" "$ov/api_linked_test.go" \
    "$root/api/sim/zz_perf_linked_test.go" "$ov/sim_linked_test.go" >"$ov/overlay.json"
  echo "$ov/overlay.json"
}
build() {
  echo "$(date -u +%H:%M:%S) build" >&2
  (cd "$root" && go build -o "$bin/after" .)
  if [ -n "${BEFORE:-}" ] && wants_any idle markets500; then
    if [ -f "$BEFORE" ]; then
      cp "$BEFORE" "$bin/before"
    else
      rm -rf "$out/before-src" && mkdir -p "$out/before-src"
      git -C "$root" archive "$BEFORE" | tar -x -C "$out/before-src"
      (cd "$out/before-src" && go build -o "$bin/before" .)
    fi
  fi
  wants idle && (cd "$here/bare" && GOFLAGS=-mod=mod go build -o "$bin/bare" .)
  wants_any latency-terminal latency-terminal-1p latency-screen idlecpu-test polling bench-ui && test_bin ui ui.test
  if wants bench-panes; then
    for p in ui/components/history ui/chart ui/components/tickers ui/screen; do test_bin "$p" "$(basename "$p").test"; done
  fi
  wants bench-state && test_bin state state.test
  local ov=
  wants_any bench-api bench-sim && ov=$(linked_overlay)
  wants bench-api && test_bin api api.test && test_bin api api-linked.test "$ov"
  wants_any bench-sim bench-fanout && test_bin api/sim sim.test
  wants bench-sim && test_bin api/sim sim-linked.test "$ov"
  return 0
}

# ---- parsing ----
# bench FILE NAME UNIT: the range of UNIT over NAME's runs in FILE (go test -bench output), as
# "min–max" in µs/ms for times, KB for B/op, k for rates; "(no run)" when NAME did not run.
bench() {
  awk -v name="$2" -v unit="$3" '
    function t(v) { return v >= 1e6 ? sprintf(v >= 1e8 ? "%.0f" : v >= 1e7 ? "%.1f" : "%.2f", v / 1e6) " ms" : v >= 1e3 ? sprintf(v >= 1e5 ? "%.0f" : v >= 1e4 ? "%.1f" : "%.2f", v / 1e3) " µs" : sprintf("%.0f", v) " ns" }
    function f(v) {
      if (unit == "ns/op" || unit ~ /^ns\/|-ns$/) return t(v)
      if (unit == "B/op") return sprintf(v >= 1e4 ? "%.0f" : "%.1f", v / 1000) " KB"
      if (unit == "allocs/op") return sprintf("%.0f", v) " allocs"
      if (unit ~ /\/s$|\/cpu-s$/) return sprintf(v >= 1e5 ? "%.0f" : "%.1f", v / 1000) "k " unit
      return sprintf("%.3g", v) " " unit
    }
    { n = $1; sub(/-[0-9]+$/, "", n) }
    n == name { for (i = 3; i < NF; i += 2) if ($(i + 1) == unit) { v[++c] = $i + 0 } }
    END {
      if (!c) { print "(no run)"; exit }
      lo = hi = v[1]; for (i = 2; i <= c; i++) { if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i] }
      a = f(lo); b = f(hi); split(a, pa, " "); split(b, pb, " ")
      if (a == b) print a " (" c (c == 1 ? " run)" : " runs)")
      else if (pa[2] == pb[2]) print pa[1] "–" b " (" c (c == 1 ? " run)" : " runs)")
      else print a "–" b " (" c (c == 1 ? " run)" : " runs)")
    }' "$1"
}
# puts FILE LABEL NAME UNIT...: one result line per unit: the first LABEL, then LABEL.bytes for
# B/op, LABEL.allocs for allocs/op, LABEL.ns for ns/op
puts() {
  local f=$1 label=$2 name=$3 u l
  shift 3
  put "$label" "$(bench "$f" "$name" "$1")"
  shift
  for u in "$@"; do
    case $u in
    B/op) l=$label.bytes ;;
    allocs/op) l=$label.allocs ;;
    ns/op) l=$label.ns ;;
    *) l=$label.${u//\//_} ;;
    esac
    put "$l" "$(bench "$f" "$name" "$u")"
  done
}
# logged FILE PATTERN: the text after PATTERN on the first line of FILE that has it
logged() { grep -m1 -o -- "$2.*" "$1" | sed "s/^$2//" || echo "(not logged)"; }

# ---- the steps ----
btime() { if [ -n "$quick" ]; then echo "-test.benchtime 100ms -test.count 1"; else echo "-test.benchtime ${1:-1s} -test.count ${2:-3}"; fi; }
runbench() { # $1 step, $2 package dir, $3 binary, $4 pattern, rest: btime's arguments
  (cd "$root/$2" && "$bin/$3" -test.run '^$' -test.bench "$4" -test.benchmem $(btime "${@:5}")) 2>&1 | tee -a "$raw/$1.txt" >/dev/null
}
idle_rounds() { # $1 step (idle or markets500), $2 script, $3 the floor's binary (none: no floor)
  local bins=("$bin/after") r s
  [ -f "$bin/before" ] && bins+=("$bin/before")
  if [ -n "$quick" ]; then r=1 s=5; else r=${ROUNDS:-3} s=${SPAN:-60}; fi
  ROUNDS=$r SPAN=$s WARM=${WARM:-6} BARE=$3 "$here/$2" "${bins[@]}" 2>&1 | tee -a "$raw/$1.txt" >/dev/null
  awk -v step="$1" -f - "$raw/$1.txt" >>"$res" <<'AWK'
# round program cpu% wakes/s MB load: per program, each round's CPU and wake-ups, the memory's
# range, and the ratios per round: this tree's / BEFORE's, the streaming demo's / the floor's.
function key(p) { sub(/.*\//, "", p); sub(/^after:/, "", p); sub(/^before:/, "before.", p); if (step == "markets500") { sub(/\.?markets500$/, "", p) } return p }
function lab(k, what) { return step (k == "" ? "" : "." k) "." what }
function list(a, k, u, s, i) { s = ""; for (i = 1; i <= rounds; i++) s = s (i > 1 ? " / " : "") ((k, i) in a ? a[k, i] : "-"); return s u }
function ratio(k1, k2, lo, hi, i, x, c) { c = 0; for (i = 1; i <= rounds; i++) if ((k1, i) in cpu && (k2, i) in cpu && cpu[k2, i] > 0) { x = cpu[k1, i] / cpu[k2, i]; if (!c++ || x < lo) lo = x; if (c == 1 || x > hi) hi = x } return c ? sprintf(lo == hi ? "%.2f" : "%.2f–%.2f", lo, hi) : "-" }
$1 ~ /^[0-9]+$/ && NF >= 6 {
  k = key($2); r = $1 + 0; if (r > rounds) rounds = r
  if (!(k in seen)) { seen[k] = 1; order[++n] = k }
  cpu[k, r] = $3; wk[k, r] = $4
  if (!(k in lo) || $5 < lo[k]) lo[k] = $5; if (!(k in hi) || $5 > hi[k]) hi[k] = $5
  ld["", r] = $6 " " $7 " " $8
}
END {
  for (j = 1; j <= n; j++) {
    k = order[j]
    printf "%-36s %s\n", lab(k, "cpu"), list(cpu, k, " % of a core")
    printf "%-36s %s\n", lab(k, "wakes"), list(wk, k, " wake-ups/s")
    printf "%-36s %s\n", lab(k, "mb"), (lo[k] == hi[k] ? lo[k] : lo[k] "–" hi[k]) " MB"
  }
  for (j = 1; j <= n; j++) {
    k = order[j]; bk = "before" (k == "" ? "" : "." k)
    if (k !~ /^before/ && k != "bare" && (bk in seen)) printf "%-36s %s\n", lab(k, "after_before"), ratio(k, bk)
  }
  if (("stream", 1) in cpu && ("bare", 1) in cpu) printf "%-36s %s\n", step ".stream.per_floor", ratio("stream", "bare")
  printf "%-36s %s\n", step ".load", list(ld, "", " (1 min, each round start -> end)")
}
AWK
}
step_requests() {
  local span=${REQSPAN:-90} home=$out/requests-home pid n all
  [ -n "$quick" ] && span=10
  mkdir -p "$home"
  tmux -L "$sock" new-session -d -s req -x 200 -y 60 "cd $home && HOME=$home exec $bin/after --seed 1 2>$home/stderr"
  sleep 0.5
  pid=$(tmux -L "$sock" display -p -t req '#{pane_pid}')
  sleep 10
  timeout -s INT "$span" strace -f -p "$pid" -e trace=write,writev,sendto,sendmsg -s 40 -o "$raw/requests.strace" 2>>"$raw/requests.txt" || true
  tmux -L "$sock" kill-session -t req
  n=$(grep -c '"POST /info' "$raw/requests.strace" || true)
  all=$(grep -cE '"(GET|POST|PUT|DELETE) /' "$raw/requests.strace" || true)
  echo "POST /info in $span s: $n; HTTP requests of any kind: $all" >>"$raw/requests.txt"
  put requests.per_s "$(awk -v n="$n" -v s="$span" 'BEGIN {printf "%.3f/s", n / s}') ($n POST /info in $span s, from 10 s after start; $all HTTP requests in all)"
}
step_startup() {
  local runs=${STARTS:-5} i home ms all=()
  [ -n "$quick" ] && runs=2
  for i in $(seq 1 "$runs"); do
    home=$out/startup-home-$i
    mkdir -p "$home"
    tmux -L "$sock" new-session -d -s "st$i" -x 200 -y 60 "cd $home && HOME=$home exec $bin/after --seed 1 --log $home/run.log 2>$home/stderr"
    sleep 2
    tmux -L "$sock" send-keys -t "st$i" q
    sleep 1
    tmux -L "$sock" kill-session -t "st$i" 2>/dev/null || true
    ms=$(grep -h '"first live frame"' "$home/run.log" | grep -o '"ms":[0-9.]*' | cut -d: -f2 || true)
    echo "run $i: first live frame ${ms:-not logged} ms" >>"$raw/startup.txt"
    all+=("${ms:-?}")
  done
  put startup.first_frame "$(printf '%s\n' "${all[@]}" | grep -v '?' | sort -n | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%.1f–%.1f ms", lo, hi}') (runs in order: ${all[*]} ms)"
}
measure_test() { # $1 step, $2 test name, rest: env
  (cd "$root/ui" && env TRADEDESK_MEASURE=1 "${@:3}" "$bin/ui.test" -test.run "^$2\$" -test.v -test.count 1) 2>&1 | tee -a "$raw/$1.txt" >/dev/null || echo "# $2 failed" | tee -a "$res"
}
step_latency_terminal() { # $1 step, $2 label, rest: env
  measure_test "$1" TestEventToTerminalLatency "${@:3}"
  put "$2.order" "$(logged "$raw/$1.txt" 'order to terminal: ')"
  put "$2.key" "$(logged "$raw/$1.txt" 'key to terminal (selection moved): ')"
}
step_latency_screen() {
  local f=$raw/latency-screen.txt m
  measure_test latency-screen TestEventToScreenLatency
  for m in stream polling; do
    put "latency.screen.$m.order" "$(logged "$f" "$m: order to screen " | sed 's/; fill.*//')"
    put "latency.screen.$m.fill" "$(logged "$f" "$m: order to screen " | sed 's/.*fill to position and account //')"
  done
}
step_idlecpu_test() {
  measure_test idlecpu-test TestIdleCPU
  put idlecpu.test.stream "$(logged "$raw/idlecpu-test.txt" 'idle console, stream: ')"
  put idlecpu.test.poll "$(logged "$raw/idlecpu-test.txt" 'idle console, polling: ')"
}
step_polling() {
  local f=$raw/polling.txt
  (cd "$root/ui" && "$bin/ui.test" -test.run '^(TestPollingReusesConnections|TestSoakFaults|TestRecoversWithinTwoPollIntervals)$' -test.v -test.count 1) 2>&1 | tee -a "$f" >/dev/null || echo "# a polling test failed" | tee -a "$res"
  put polling.keepalive "$(grep -m1 -oE '[0-9]+ requests \([0-9]+ ticker polls\) over [0-9]+ connections' "$f" || echo '(not logged)')"
  put polling.soak.goroutines "$(grep -m1 -o 'goroutines while down \[[0-9 ]*\]' "$f" | tr -d '[]' |
    awk '{lo = hi = $4; for (i = 4; i <= NF; i++) { if ($i < lo) lo = $i; if ($i > hi) hi = $i } printf "%d–%d goroutines (%d samples, the soak'"'"'s last round while down)", lo, hi, NF - 3}' || echo '(not logged)')"
  put polling.recover "$(logged "$f" 'fresh ' | sed 's/ after the exchange came back.*//')"
}
step_bench_ui() {
  local f=$raw/bench-ui.txt
  runbench bench-ui ui ui.test '^Benchmark(Frame|FrameMedian|FrameWithFills|LadderFrame|StartToFirstLiveFrame|FillsPane|FillsNewPage)$'
  runbench bench-ui ui ui.test '^BenchmarkTickerUpdate$' 1s 5
  puts "$f" frame.median BenchmarkFrameMedian median-ns
  puts "$f" frame.p99 BenchmarkFrameMedian p99-ns
  puts "$f" frame.mean BenchmarkFrame ns/op B/op allocs/op
  puts "$f" frame.fills BenchmarkFrameWithFills ns/op B/op allocs/op
  puts "$f" frame.ladder BenchmarkLadderFrame ns/op B/op allocs/op
  puts "$f" ticker.update BenchmarkTickerUpdate ns/op B/op allocs/op
  puts "$f" startup.bench BenchmarkStartToFirstLiveFrame ns/op
  puts "$f" fills.pane.10 BenchmarkFillsPane/loaded=10 ns/op
  puts "$f" fills.pane.10000 BenchmarkFillsPane/loaded=10000 ns/op
  puts "$f" fills.newpage.100 BenchmarkFillsNewPage/loaded=100 ns/op
  puts "$f" fills.newpage.10000 BenchmarkFillsNewPage/loaded=10000 ns/op
}
step_bench_panes() {
  local f=$raw/bench-panes.txt n
  runbench bench-panes ui/components/history history.test '^BenchmarkHistoryPane$'
  runbench bench-panes ui/chart chart.test '^BenchmarkRender120x30$'
  runbench bench-panes ui/components/tickers tickers.test '^BenchmarkStreamedTicker$'
  runbench bench-panes ui/screen screen.test '^BenchmarkFlushAChangedScreen$'
  for n in 10 10000; do
    puts "$f" history.pane.$n "BenchmarkHistoryPane/loaded=$n/filtered=false" ns/op
    puts "$f" history.pane.$n.filtered "BenchmarkHistoryPane/loaded=$n/filtered=true" ns/op
  done
  puts "$f" chart.render BenchmarkRender120x30 ns/op
  puts "$f" tickers.streamed BenchmarkStreamedTicker ns/op B/op allocs/op
  puts "$f" screen.flush BenchmarkFlushAChangedScreen ns/op B/op allocs/op
}
step_bench_state() {
  local f=$raw/bench-state.txt
  runbench bench-state state state.test '^Benchmark(ApplyTickers|CheckOrder|FillsPage1)$'
  puts "$f" state.applytickers BenchmarkApplyTickers ns/op
  puts "$f" state.checkorder BenchmarkCheckOrder ns/op
  puts "$f" fills.page1 BenchmarkFillsPage1 ns/op
}
step_bench_api() {
  local f=$raw/bench-api.txt v
  for v in linked pure; do
    echo "# $v" >>"$f"
    local b=api-linked.test label=sign
    [ $v = pure ] && b=api.test label=sign.pure
    runbench bench-api api "$b" '^Benchmark(SignOrder|SignFloor|DecodeSignedRequest)$'
    awk -v v="# $v" '$0 == v {on = 1; next} /^# (linked|pure)$/ {on = 0} on' "$f" >"$raw/bench-api-$v.txt"
    puts "$raw/bench-api-$v.txt" "$label.order" BenchmarkSignOrder ns/op
    puts "$raw/bench-api-$v.txt" "$label.floor" BenchmarkSignFloor ns/op
    put "$label.ratio" "$(awk '{n = $1; sub(/-[0-9]+$/, "", n)} n == "BenchmarkSignOrder" && (!o || $3 < o) {o = $3} n == "BenchmarkSignFloor" && (!fl || $3 < fl) {fl = $3} END {if (fl) printf "%.2fx, fastest to fastest\n", o / fl; else print "-"}' "$raw/bench-api-$v.txt")"
    puts "$raw/bench-api-$v.txt" "$label.decode" BenchmarkDecodeSignedRequest ns/op
  done
}
step_bench_sim() {
  local f=$raw/bench-sim.txt
  runbench bench-sim api/sim sim-linked.test '^Benchmark(Matching|HTTPSignedActions|HTTPPresigned|HTTPPresignedData|MarketStep|MarketStep500|MarketStep500Streamed|StateWrite)$'
  puts "$f" sim.matching BenchmarkMatching orders/s ns/op allocs/op
  puts "$f" sim.http.signed BenchmarkHTTPSignedActions actions/s
  puts "$f" sim.http.presigned BenchmarkHTTPPresigned actions/s
  puts "$f" sim.http.presigned_data BenchmarkHTTPPresignedData actions/s
  puts "$f" sim.marketstep BenchmarkMarketStep ns/op
  puts "$f" sim.marketstep500 BenchmarkMarketStep500 ns/op B/op allocs/op
  puts "$f" sim.marketstep500.streamed BenchmarkMarketStep500Streamed ns/op B/op allocs/op
  puts "$f" sim.statewrite.small BenchmarkStateWrite/2x10 ns/op
  puts "$f" sim.statewrite.large BenchmarkStateWrite/40x200 ns/op stmts/write
}
step_bench_fanout() {
  local f=$raw/bench-fanout.txt
  runbench bench-fanout api/sim sim.test '^BenchmarkStreamFanOut$' 3s 2
  puts "$f" sim.fanout BenchmarkStreamFanOut msgs/s
  puts "$f" sim.fanout.per_cpu BenchmarkStreamFanOut msgs/cpu-s
  puts "$f" sim.fanout.dropped BenchmarkStreamFanOut dropped
}

run_step() {
  begin "$1"
  case $1 in
  idle) idle_rounds idle idle.sh "${BARE:-$bin/bare}" ;;
  markets500) idle_rounds markets500 markets500.sh none ;;
  requests) step_requests ;;
  startup) step_startup ;;
  latency-terminal) step_latency_terminal latency-terminal latency.terminal ;;
  latency-terminal-1p) step_latency_terminal latency-terminal-1p latency.terminal1p GOMAXPROCS=1 ;;
  latency-screen) step_latency_screen ;;
  idlecpu-test) step_idlecpu_test ;;
  polling) step_polling ;;
  bench-ui) step_bench_ui ;;
  bench-panes) step_bench_panes ;;
  bench-state) step_bench_state ;;
  bench-api) step_bench_api ;;
  bench-sim) step_bench_sim ;;
  bench-fanout) step_bench_fanout ;;
  esac
  end "$1"
}

echo "# tradedesk performance run: $commit${BEFORE:+, before $BEFORE}; steps: $steps" | tee -a "$res"
echo "# start $(stamp)" >>"$res"
put run.commit "$commit${BEFORE:+ (before: $BEFORE)}"
put run.machine "$cpu, $(nproc) CPUs, $(uname -sr), $gover"
build 2>&1 | tee "$raw/build.txt"
put run.start "$(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg) (after the build)"
for s in $all_steps; do
  wants "$s" || continue
  run_step "$s" || echo "# step $s FAILED (exit $?): its raw output is $raw/$s.txt" | tee -a "$res" >&2
done
echo >>"$res"
put run.end "$(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# done $(stamp)" >>"$res"
echo "results: $res (raw outputs in $raw)" >&2
