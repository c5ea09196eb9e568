#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A fleet on one broker (docs/fleet.md, "Measured"; not a CI step): one Mosquitto on loopback, N
# kiosks, each a daemon on a small memory display (its own socket and state directory) with its
# splashhud-mqtt, all in one group; and, in the same run, the floor: N plain clients
# (`mosquitto_sub | mosquitto_pub -r -l`, echoing what they get, retained) on the same broker.
#   - at rest (REST seconds, nothing sent, the HUDs hidden): the broker's, one kiosk's (daemon and
#     bridge) and one echo client's CPU and memory;
#   - a fresh subscriber's wait for every retained state: `mosquitto_sub` on PREFIX/+/state from
#     its start to the N-th distinct retained one, against the same for the N retained echoes;
#   - one group `progress` until the last kiosk has drawn it: until every bridge has published
#     the state its daemon sent at the end of the turn that applied the command and drew its frame,
#     over ROUNDS commands: p50, p99, max; beside it one QoS 1 publish until all N plain clients
#     have echoed it (the same shape: fan-out, one process each, fan-in), and its fan-out alone;
#   - a snapshot's round trip (P/k1/snapshot/get with a response topic -> the PNG).
#
#   scripts/bench/mqtt-fleet.sh [N (default 200)] [ROUNDS (default 100)] [SHOTS (default 20)]
#
# Kiosks start BATCH (default 50) at a time, each batch's bridges online before the next, while
# MemAvailable stays over MIN_FREE_MIB (default 2048): a fleet that does not fit stops there and
# is measured at the count it reached, with the reason printed. Daemons draw at most MAX_FPS
# (default 10) frames a second: a thousand HUDs at the refresh rate would measure two cores'
# rendering, not the fleet's messages. Descriptors: the broker holds one a client (3N + a few);
# the limit is raised to the hard one and checked. Uses the release build (built if missing; BIN=DIR takes the binaries from DIR).
# Needs mosquitto, mosquitto-clients, libmosquitto-dev, gcc.
set -euo pipefail
cd "$(dirname "$0")/../.."
want="${1:-200}" rounds="${2:-100}" shots="${3:-20}" size="${SIZE:-160x96}" fps="${MAX_FPS:-10}"
batch="${BATCH:-50}" rest="${REST:-30}" min_free="${MIN_FREE_MIB:-2048}"
bin="${BIN:-}"
if [[ -z $bin ]]; then
    for p in splashhudd splashhud-mqtt; do nice -n 19 swift build -c release --product "$p" >/dev/null; done
    bin="$(swift build -c release --show-bin-path)"
fi
ulimit -n "$(ulimit -Hn)" 2>/dev/null || ulimit -n 65536 2>/dev/null || true
(( $(ulimit -n) > 3 * want + 64 )) || { echo "descriptors: ulimit -n $(ulimit -n) is under 3 x $want + 64 for the broker"; exit 1; }
work="$(mktemp -d /tmp/splashhud-mqtt-fleet.XXXXXX)"
pids=()
# Every child of this script, the subscriber halves of the echo pipelines too.
cleanup() { exec 2>/dev/null; for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done; pkill -9 -P $$ 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
gcc -O2 -D_GNU_SOURCE -o "$work/mqtt-fanout" Benchmarks/mqtt-rtt/mqtt-fanout.c -lmosquitto

# shellcheck source-path=SCRIPTDIR source=mosquitto-broker.sh
source "$(dirname "$0")/mosquitto-broker.sh"
auth=(-h 127.0.0.1 -p "$port" -u bench -P bench)
# The bridges' least time between two state publishes (their default); a round waits longer.
state_interval=0.5

mem_available() { awk '/MemAvailable/ {print int($2 / 1024)}' /proc/meminfo; }
kiosk() {
    mkdir -p "$work/k$1/state"
    "$bin/splashhudd" --display "memory:$size" --socket "$work/k$1/control" --state-dir "$work/k$1/state" \
        --max-fps "$fps" --log-level error >"$work/k$1/daemon.log" 2>&1 & pids+=("$!")
    [[ $1 == 1 ]] && daemon=$!
    return 0
}
bridge() {
    for _ in $(seq 400); do [[ -S $work/k$1/control ]] && break; sleep 0.05; done
    "$bin/splashhud-mqtt" --broker "mqtt://127.0.0.1:$port" --device "k$1" --group fleet --socket "$work/k$1/control" \
        --username bench --password-file "$work/password" --config /dev/null --rate 10000 \
        --state-interval "$state_interval" >"$work/k$1/bridge.log" 2>&1 & pids+=("$!")
    [[ $1 == 1 ]] && bridge=$!
    # The floor's client: a plain subscriber piped into a plain publisher.
    mosquitto_sub "${auth[@]}" -q 1 -t bench/floor/cmd -F '%U %p' 2>>"$work/floor.log" \
        | mosquitto_pub "${auth[@]}" -q 1 -r -t "bench/floor/back/$1" -l 2>>"$work/floor.log" & pids+=("$!")
    [[ $1 == 1 ]] && echo_pub=$!
    return 0
}
online() {
    for _ in $(seq 1200); do grep -q "online at" "$work/k$1/bridge.log" && return 0; sleep 0.05; done
    echo "bridge k$1 not online:"; cat "$work/k$1/bridge.log"; exit 1
}

free0="$(mem_available)" t_start="$(date +%s.%N)" n=0 stop=""
while (( n < want )); do
    free="$(mem_available)"
    (( free >= min_free )) || { stop="memory: MemAvailable $free MiB, under MIN_FREE_MIB=$min_free"; break; }
    last=$(( n + batch < want ? n + batch : want ))
    for i in $(seq $((n + 1)) "$last"); do kiosk "$i"; done
    for i in $(seq $((n + 1)) "$last"); do bridge "$i"; done
    for i in $(seq $((n + 1)) "$last"); do online "$i"; done
    n=$last
done
(( n > 0 )) || { echo "no kiosk started: $stop"; exit 1; }
echo_sub="$(pgrep -o -P $$ -x mosquitto_sub)"
echo "up: $n of $want kiosks (daemon + bridge) and $n echo pairs in $(echo "$(date +%s.%N) - $t_start" | bc -l | cut -c1-6) s${stop:+; stopped by $stop}"
# Until every state is retained and every echo client answers (fan-out prints "ready SECONDS").
"$work/mqtt-fanout" 127.0.0.1 "$port" bench bench splashhud fleet "$n" 0 0 0 >"$work/ready"
used=$(( free0 - $(mem_available) ))
# Each process's share of the pages it maps (PSS): what the fleet costs, without the other work
# on the machine that moves MemAvailable.
pss="$(for p in $(pgrep -P $$); do cat "/proc/$p/smaps_rollup" 2>/dev/null; done | awk '/^Pss:/ {s += $2} END {print int(s / 1024)}')"
echo "ready after $(cut -d' ' -f2 "$work/ready") s more; all $(pgrep -c -P $$) processes: PSS $pss MiB ($(( pss * 1024 / n )) KiB a kiosk with its echo pair); MemAvailable fell by $used MiB"

# CPU time in microseconds, all threads, from the scheduler's own accounting: a kiosk at rest
# spends less than the 10 ms of a clock tick in a minute.
cpu_us() { cat /proc/"$1"/task/*/schedstat | awk '{s += $1} END {printf "%d", s / 1000}'; }
# Resident, and of it what is the process's own (Private_*): the rest is the binary and libraries,
# shared by every copy.
mem() { awk '/^Rss:/ {r = $2} /^Private_(Clean|Dirty):/ {p += $2} END {print r, p}' "/proc/$1/smaps_rollup"; }
sleep 2
at_rest=("$broker" "$daemon" "$bridge" "$echo_sub" "$echo_pub")
declare -A r0
for p in "${at_rest[@]}"; do r0[$p]="$(cpu_us "$p")"; done
sleep "$rest"
{
    for p in "${at_rest[@]}"; do echo "rest $p $(( $(cpu_us "$p") - ${r0[$p]} )) $(mem "$p")"; done
} >"$work/rest"

# A fresh subscriber's wait for every retained message, states and echoes interleaved: from its
# start to the N-th distinct topic with the retained flag (a live heartbeat may arrive among them).
retained() {
    local t0 sub last=""
    # The file exists before the subscriber's own redirection, which a loaded machine may delay.
    : >"$work/fresh"
    t0="$(date +%s.%N)"
    mosquitto_sub "${auth[@]}" -q 1 -t "$2" -F '%r %U %t' >>"$work/fresh" 2>/dev/null & sub=$!
    for _ in $(seq 2400); do
        last="$(awk -v n="$n" '$1 == 1 && !seen[$3]++ && ++c == n {print $2; exit}' "$work/fresh")"
        [[ -n $last ]] && break; sleep 0.05
    done
    kill "$sub"; wait "$sub" || true
    [[ -n $last ]] || { echo "$1: fewer than $n retained messages in 120 s" >&2; exit 1; }
    echo "$1 $(echo "($last - $t0) * 1000000" | bc -l)"
}
for _ in 1 2 3 4 5; do
    retained retained splashhud/+/state
    retained retained-floor 'bench/floor/back/+'
done >"$work/samples"

b0="$(cpu_us "$bridge")" m0="$(cpu_us "$broker")" t0="$(date +%s.%N)"
"$work/mqtt-fanout" 127.0.0.1 "$port" bench bench splashhud fleet "$n" "$rounds" 0 "$(echo "$state_interval * 1000 + 100" | bc)" >>"$work/samples"
b1="$(cpu_us "$bridge")" m1="$(cpu_us "$broker")" t1="$(date +%s.%N)"
"$work/mqtt-fanout" 127.0.0.1 "$port" bench bench splashhud fleet "$n" 0 "$shots" 0 >>"$work/samples"

python3 - "$work/samples" "$n" "$work/rest" "$rest" <<'PY'
import sys
rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    rows.setdefault(f[0], []).append([float(x) for x in f[1:]])
def q(v, p): v = sorted(v); return v[min(len(v) - 1, int(round(p * (len(v) - 1))))]
def row(label, v, unit="ms"):
    print(f"{label:46s} n={len(v):4d}  p50 {q(v, .5):8.3f} {unit}  p99 {q(v, .99):8.3f} {unit}  max {max(v):8.3f} {unit}")
n = sys.argv[2]
group = [r[0] / 1000 for r in rows["group"]]
floor = [r[0] / 1000 for r in rows["floor"]]
row(f"group command, the last of {n} kiosks drew it", group)
row(f"floor: publish, all {n} plain clients echoed", floor)
row(f"floor: fan-out alone, all {n} received", [r[1] / 1000 for r in rows["floor"]])
print(f"{'group / floor (p50, p99)':46s} {q(group, .5) / q(floor, .5):.1f}x, {q(group, .99) / q(floor, .99):.1f}x")
states = [r[0] / 1000 for r in rows["retained"]]
echoes = [r[0] / 1000 for r in rows["retained-floor"]]
row(f"fresh subscriber: all {n} retained states", states)
row(f"floor: all {n} retained echoes", echoes)
print(f"{'retained states / floor (p50)':46s} {q(states, .5) / q(echoes, .5):.1f}x")
shots = rows.get("snapshot", [])
if shots:
    row("snapshot round trip (k1)", [r[0] / 1000 for r in shots])
    print(f"{'snapshot PNG':46s} {int(shots[0][1])} bytes")
rest = float(sys.argv[4])
r = {}
for i, line in enumerate(open(sys.argv[3])):
    _, pid, us, rss, own = line.split()
    r[("broker", "daemon", "bridge", "echo sub", "echo pub")[i]] = (int(us) / 1000, int(rss), int(own))
print(f"at rest, {rest:.0f} s with nothing sent: CPU ms (a second), RSS KiB, of it private KiB")
for k, (cpu, rss, own) in r.items():
    print(f"  {k:10s} {cpu:8.2f} ms ({cpu / rest:6.3f} ms/s)  RSS {rss:6d}  private {own:6d}")
kiosk = [r["daemon"][i] + r["bridge"][i] for i in range(3)]
echo = [r["echo sub"][i] + r["echo pub"][i] for i in range(3)]
print(f"  {'kiosk':10s} {kiosk[0]:8.2f} ms ({kiosk[0] / rest:6.3f} ms/s)  RSS {kiosk[1]:6d}  private {kiosk[2]:6d}")
print(f"  {'kiosk / echo pair (CPU, RSS, private)':40s} {kiosk[0] / max(echo[0], 0.001):.1f}x, {kiosk[1] / echo[1]:.1f}x, {kiosk[2] / echo[2]:.1f}x")
PY
echo "during the rounds ($(echo "$t1 - $t0" | bc -l | cut -c1-6) s): one bridge CPU $(( (b1 - b0) / 1000 )) ms, broker CPU $(( (m1 - m0) / 1000 )) ms, broker RSS $(mem "$broker" | cut -d' ' -f1) KiB"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"
