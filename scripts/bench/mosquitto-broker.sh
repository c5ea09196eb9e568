# SPDX-License-Identifier: MIT
# shellcheck shell=bash disable=SC2154  # work and pids are the caller's
# Sourced by the MQTT benchmarks: a Mosquitto on a free loopback port with a password file (user
# and password "bench"), its pid added to the caller's `pids`, in the caller's `$work`. Sets
# `port`, `broker` and `$work/password` (the bridges' --password-file).
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
mosquitto_passwd -b -c "$work/passwd" bench bench
cat > "$work/mosquitto.conf" <<CONF
listener $port 127.0.0.1
# A fleet's bridges, echo clients and subscribers, each one connection (-1: no limit but the
# descriptors, which mqtt-fleet.sh raises).
max_connections -1
allow_anonymous false
password_file $work/passwd
persistence false
set_tcp_nodelay true
max_queued_messages 10000
user root
CONF
mosquitto -c "$work/mosquitto.conf" >"$work/broker.log" 2>&1 & broker=$!; pids+=("$broker")
for _ in $(seq 50); do (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
echo bench >"$work/password"
