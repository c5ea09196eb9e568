#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A fleet on one broker (docs/fleet.md, "Measured"; not a CI step): one Mosquitto on loopback, N
# daemons on small memory displays (each with its own socket and state directory) each with its
# splashhud-mqtt, all in one group; and, in the same run, the floor: N plain clients
# (`mosquitto_sub | mosquitto_pub -l`, echoing what they get) on the same broker.
#   - one group `progress` until every daemon has applied it, read from the retained state each
#     bridge publishes (the daemon's own `state` reply, read by the bridge after applying), over
#     ROUNDS commands: p50, p99, max;
#   - beside it, one QoS 1 publish until all N plain clients have echoed it (the same shape: fan-out,
#     one process each, fan-in), and its fan-out alone (the time each subscriber printed it);
#   - the broker's and one bridge's CPU and RSS over the rounds;
#   - a snapshot's round trip (P/k1/snapshot/get with a response topic -> the PNG).
#
#   scripts/bench/mqtt-fleet.sh [N (default 200)] [ROUNDS (default 100)] [SHOTS (default 20)]
#
# Uses the release build (built if missing; BIN=DIR takes the binaries from DIR). Daemons draw at
# most MAX_FPS (default 10) frames a second: 200 HUDs at the refresh rate would measure two cores'
# rendering, not the fleet's messages. Needs mosquitto, mosquitto-clients, libmosquitto-dev, gcc.
set -euo pipefail
cd "$(dirname "$0")/../.."
n="${1:-200}" rounds="${2:-100}" shots="${3:-20}" size="${SIZE:-160x96}" fps="${MAX_FPS:-10}"
bin="${BIN:-}"
if [[ -z $bin ]]; then
    for p in splashhudd splashhud-mqtt; do nice -n 19 swift build -c release --product "$p" >/dev/null; done
    bin="$(swift build -c release --show-bin-path)"
fi
# Each daemon, bridge and echo client holds a few descriptors, the broker one per client.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || ulimit -n 65536 2>/dev/null || true
work="$(mktemp -d /tmp/splashhud-mqtt-fleet.XXXXXX)"
pids=()
# Every child of this script, the subscriber halves of the echo pipelines too.
cleanup() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done; pkill -9 -P $$ 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
gcc -O2 -D_GNU_SOURCE -o "$work/mqtt-fanout" Benchmarks/mqtt-rtt/mqtt-fanout.c -lmosquitto

# shellcheck source-path=SCRIPTDIR source=mosquitto-broker.sh
source "$(dirname "$0")/mosquitto-broker.sh"
auth=(-h 127.0.0.1 -p "$port" -u bench -P bench)

t_start="$(date +%s.%N)"
for i in $(seq 1 "$n"); do
    mkdir -p "$work/k$i/state"
    "$bin/splashhudd" --display "memory:$size" --socket "$work/k$i/control" --state-dir "$work/k$i/state" \
        --max-fps "$fps" --log-level error >"$work/k$i/daemon.log" 2>&1 & pids+=("$!")
    [[ $i == 1 ]] && daemon=$!
done
for i in $(seq 1 "$n"); do
    for _ in $(seq 400); do [[ -S $work/k$i/control ]] && break; sleep 0.05; done
    "$bin/splashhud-mqtt" --broker "mqtt://127.0.0.1:$port" --device "k$i" --group fleet --socket "$work/k$i/control" \
        --username bench --password-file "$work/password" --config /dev/null --rate 10000 >"$work/k$i/bridge.log" 2>&1 & pids+=("$!")
    [[ $i == 1 ]] && bridge=$!
    # The floor's client: a plain subscriber piped into a plain publisher.
    mosquitto_sub "${auth[@]}" -q 1 -t bench/floor/cmd -F '%U %p' 2>>"$work/floor.log" \
        | mosquitto_pub "${auth[@]}" -q 1 -t "bench/floor/back/$i" -l 2>>"$work/floor.log" & pids+=("$!")
done
for i in $(seq 1 "$n"); do
    for _ in $(seq 600); do grep -q "online at" "$work/k$i/bridge.log" && break; sleep 0.05; done
    grep -q "online at" "$work/k$i/bridge.log" || { echo "bridge k$i not online:"; cat "$work/k$i/bridge.log"; exit 1; }
done
# The echo clients' subscriptions (nothing to wait on in their output): until the broker counts
# 2N + 1 connected clients after their subscribe.
for _ in $(seq 200); do
    c="$(mosquitto_sub "${auth[@]}" -t '$SYS/broker/clients/connected' -C 1 -W 2 2>/dev/null || echo 0)"
    (( c >= 3 * n )) && break; sleep 0.1
done
echo "up: $n daemons, $n bridges, $n echo pairs in $(echo "$(date +%s.%N) - $t_start" | bc -l | cut -c1-5) s; broker clients: $c"
sleep 2

ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
rss() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
b0="$(ticks "$bridge")" m0="$(ticks "$broker")" t0="$(date +%s.%N)"
"$work/mqtt-fanout" 127.0.0.1 "$port" bench bench splashhud fleet "$n" "$rounds" 0 >"$work/samples"
b1="$(ticks "$bridge")" m1="$(ticks "$broker")" t1="$(date +%s.%N)"
brss="$(rss "$bridge")" mrss="$(rss "$broker")" drss="$(rss "$daemon")"
"$work/mqtt-fanout" 127.0.0.1 "$port" bench bench splashhud fleet "$n" 0 "$shots" >>"$work/samples"
hz="$(getconf CLK_TCK)"

python3 - "$work/samples" "$n" <<'PY'
import sys
rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    rows.setdefault(f[0], []).append([float(x) for x in f[1:]])
def q(v, p): v = sorted(v); return v[min(len(v) - 1, int(round(p * (len(v) - 1))))]
def row(label, v, unit="ms"):
    print(f"{label:44s} n={len(v):4d}  p50 {q(v, .5):8.3f} {unit}  p99 {q(v, .99):8.3f} {unit}  max {max(v):8.3f} {unit}")
n = sys.argv[2]
group = [r[0] / 1000 for r in rows["group"]]
floor = [r[0] / 1000 for r in rows["floor"]]
row(f"group command, all {n} states applied", group)
row(f"floor: publish, all {n} plain clients echoed", floor)
row(f"floor: fan-out alone, all {n} received", [r[1] / 1000 for r in rows["floor"]])
print(f"{'group / floor (p50, p99)':44s} {q(group, .5) / q(floor, .5):.1f}x, {q(group, .99) / q(floor, .99):.1f}x")
shots = rows.get("snapshot", [])
if shots:
    row("snapshot round trip (k1)", [r[0] / 1000 for r in shots])
    print(f"{'snapshot PNG':44s} {int(shots[0][1])} bytes")
PY
echo "one bridge: RSS $brss KiB, CPU $(echo "($b1 - $b0) / $hz" | bc -l | cut -c1-5) s over the $(echo "$t1 - $t0" | bc -l | cut -c1-5) s of the rounds"
echo "broker:     RSS $mrss KiB, CPU $(echo "($m1 - $m0) / $hz" | bc -l | cut -c1-5) s"
echo "one daemon: RSS $drss KiB; load average $(cut -d' ' -f1-3 /proc/loadavg)"
