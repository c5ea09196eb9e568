#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The fleet bridge measured (docs/fleet.md, "Measured"; not a CI step): on one Mosquitto on
# loopback, N daemons on memory displays each with its splashhud-mqtt, all in one group.
#   - `ping` round trip straight on a control socket (the floor) against the same through the
#     broker and the bridge (MQTT 5 response topic), p50/p99/max and the ratio of the medians;
#   - one group command until all N bridges have replied (each reply is sent once its daemon applied it);
#   - one bridge's RSS and CPU over the run, and the broker's.
#
#   scripts/bench/mqtt-latency.sh [N (default 20)] [COUNT (default 500)]
#
# A fleet of a thousand beside a floor of plain clients, at rest, retained states and snapshots:
# scripts/bench/mqtt-fleet.sh.
#
# The bridges take --rate 10000: the default bound (20 a second) would answer most pings `busy`.
# Uses the release build (swift build -c release --product splashhudd / splashhud-mqtt), built if
# missing; BIN=DIR takes the binaries from DIR. Needs mosquitto, mosquitto-clients, libmosquitto-dev, gcc.
set -euo pipefail
cd "$(dirname "$0")/../.."
n="${1:-20}" count="${2:-500}"
bin="${BIN:-}"
if [[ -z $bin ]]; then
    for p in splashhudd splashhud-mqtt; do nice -n 19 swift build -c release --product "$p" >/dev/null; done
    bin="$(swift build -c release --show-bin-path)"
fi
work="$(mktemp -d /tmp/splashhud-mqtt-bench.XXXXXX)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
gcc -O2 -o "$work/mqtt-rtt" Benchmarks/mqtt-rtt/mqtt-rtt.c -lmosquitto

# shellcheck source-path=SCRIPTDIR source=mosquitto-broker.sh
source "$(dirname "$0")/mosquitto-broker.sh"

for i in $(seq 1 "$n"); do
    "$bin/splashhudd" --display memory:320x240 --socket "$work/control-$i" --log-level error >"$work/daemon-$i.log" 2>&1 & pids+=("$!")
done
for i in $(seq 1 "$n"); do
    for _ in $(seq 100); do [[ -S $work/control-$i ]] && break; sleep 0.05; done
    "$bin/splashhud-mqtt" --broker "mqtt://127.0.0.1:$port" --device "k$i" --group fleet --socket "$work/control-$i" \
        --username bench --password-file "$work/password" --config /dev/null --rate 10000 >"$work/bridge-$i.log" 2>&1 & pids+=("$!")
    [[ $i == 1 ]] && bridge=$!
done
for i in $(seq 1 "$n"); do
    for _ in $(seq 200); do grep -q "online at" "$work/bridge-$i.log" && break; sleep 0.05; done
done
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
b0="$(ticks "$bridge")" m0="$(ticks "$broker")" t0="$(date +%s.%N)"
"$work/mqtt-rtt" 127.0.0.1 "$port" bench bench splashhud k1 "$work/control-1" "$count" fleet "$n" >"$work/samples"
b1="$(ticks "$bridge")" m1="$(ticks "$broker")" t1="$(date +%s.%N)"
hz="$(getconf CLK_TCK)"

python3 - "$work/samples" "$n" <<'PY'
import sys, statistics
rows = {}
for line in open(sys.argv[1]):
    k, v = line.split()
    rows.setdefault(k, []).append(float(v) / 1000)
def q(v, p): v = sorted(v); return v[min(len(v) - 1, int(round(p * (len(v) - 1))))]
for k, label in (("socket", "ping on the control socket"), ("broker", "ping through broker + bridge"), ("group", f"group command, all {sys.argv[2]} replied")):
    v = rows[k]
    print(f"{label:38s} n={len(v):4d}  p50 {q(v, .5):7.3f} ms  p99 {q(v, .99):7.3f} ms  max {max(v):7.3f} ms")
print(f"{'broker / socket (p50)':38s} {q(rows['broker'], .5) / q(rows['socket'], .5):.1f}x")
PY
rss() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
echo "one bridge: RSS $(rss "$bridge") KiB, CPU $(echo "($b1 - $b0) / $hz" | bc -l | cut -c1-5) s over $(echo "$t1 - $t0" | bc -l | cut -c1-5) s"
echo "broker:     RSS $(rss "$broker") KiB, CPU $(echo "($m1 - $m0) / $hz" | bc -l | cut -c1-5) s"
echo "one daemon: RSS $(rss "${pids[1]}") KiB"
