// SPDX-License-Identifier: MIT
/* One command to a whole fleet, for scripts/bench/mqtt-fleet.sh (not a test). Each round:
 *   floor: one QoS 1 publish on bench/floor/cmd, until every one of N plain clients has echoed it
 *          back (`mosquitto_sub -F '%U %p' | mosquitto_pub -l` on bench/floor/back/I): the broker's
 *          fan-out and fan-in with nothing of ours in the way; the echo carries the time each
 *          subscriber printed the message, so the fan-out alone is measured too;
 *   group: one `progress` on PREFIX/group/GROUP/cmd, until every one of N devices (k1..kN) has
 *          published a state (PREFIX/kI/state, the JSON the bridge read from its daemon's `state`
 *          after applying the command) whose status is this round's.
 * Then SHOTS snapshot round trips: a request on PREFIX/k1/snapshot/get with a response topic,
 * until the PNG comes back.
 * Prints one line per sample: "floor RTT_US FANOUT_US", "group RTT_US", "snapshot RTT_US BYTES".
 *   mqtt-fanout HOST PORT USER PASS PREFIX GROUP N ROUNDS SHOTS
 */
#include <mosquitto.h>
#include <mqtt_protocol.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum phase { IDLE, FLOOR, GROUP, SHOT };
static enum phase phase = IDLE;
static int n, seen_count, round_no, shot_bytes;
static char *seen;
static char tag[64];
static double latest_echo;
static char prefix[128];

static double clock_us(clockid_t c) {
    struct timespec t;
    clock_gettime(c, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* The number after the last `prefix` in `topic` (k17 -> 17, back/17 -> 17), or -1. */
static int index_after(const char *topic, const char *lead, const char *tail) {
    size_t l = strlen(lead);
    if (strncmp(topic, lead, l) != 0) return -1;
    char *end;
    long i = strtol(topic + l, &end, 10);
    if (end == topic + l || strcmp(end, tail) != 0 || i < 1 || i > n) return -1;
    return (int)i;
}

static void on_message(struct mosquitto *m, void *u, const struct mosquitto_message *msg, const mosquitto_property *p) {
    (void)m; (void)u; (void)p;
    const char *payload = msg->payload ? msg->payload : "";
    int i = -1;
    if (phase == FLOOR) {
        /* "SECONDS.NANOSECONDS TAG" */
        i = index_after(msg->topic, "bench/floor/back/", "");
        const char *space = memchr(payload, ' ', (size_t)msg->payloadlen);
        if (i < 0 || !space || (size_t)(msg->payloadlen - (space + 1 - payload)) != strlen(tag)
            || memcmp(space + 1, tag, strlen(tag)) != 0) return;
        double at = strtod(payload, NULL) * 1e6;
        if (at > latest_echo) latest_echo = at;
    } else if (phase == GROUP) {
        char lead[160];
        snprintf(lead, sizeof lead, "%s/k", prefix);
        i = index_after(msg->topic, lead, "/state");
        if (i < 0 || !memmem(payload, (size_t)msg->payloadlen, tag, strlen(tag))) return;
    } else if (phase == SHOT) {
        if (strcmp(msg->topic, "bench/shots") != 0) return;
        shot_bytes = msg->payloadlen;
        seen_count = 1;
        return;
    } else {
        return;
    }
    if (!seen[i]) { seen[i] = 1; seen_count++; }
}

static int wait_for(struct mosquitto *m, int want) {
    double deadline = clock_us(CLOCK_MONOTONIC) + 20e6;
    while (seen_count < want) {
        if (clock_us(CLOCK_MONOTONIC) > deadline) return -1;
        if (mosquitto_loop(m, 100, 1) != MOSQ_ERR_SUCCESS) return -1;
    }
    return 0;
}

static void start(enum phase p) {
    memset(seen, 0, (size_t)n + 1);
    seen_count = 0;
    latest_echo = 0;
    phase = p;
}

/* A short pause that still answers the broker (PUBACKs, stray states). */
static void settle(struct mosquitto *m, int ms) {
    double until = clock_us(CLOCK_MONOTONIC) + ms * 1e3;
    phase = IDLE;
    while (clock_us(CLOCK_MONOTONIC) < until) mosquitto_loop(m, 5, 1);
}

int main(int argc, char **argv) {
    if (argc != 10) { fprintf(stderr, "usage: mqtt-fanout HOST PORT USER PASS PREFIX GROUP N ROUNDS SHOTS\n"); return 64; }
    snprintf(prefix, sizeof prefix, "%s", argv[5]);
    const char *group = argv[6];
    n = atoi(argv[7]);
    int rounds = atoi(argv[8]), shots = atoi(argv[9]);
    seen = calloc((size_t)n + 1, 1);

    mosquitto_lib_init();
    struct mosquitto *m = mosquitto_new(NULL, true, NULL);
    mosquitto_int_option(m, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5);
    mosquitto_int_option(m, MOSQ_OPT_TCP_NODELAY, 1);
    mosquitto_username_pw_set(m, argv[3], argv[4]);
    mosquitto_message_v5_callback_set(m, on_message);
    if (mosquitto_connect(m, argv[1], atoi(argv[2]), 60) != MOSQ_ERR_SUCCESS) { fprintf(stderr, "broker connect failed\n"); return 69; }
    char states[160], gcmd[256], shot[160], line[256];
    snprintf(states, sizeof states, "%s/+/state", prefix);
    snprintf(gcmd, sizeof gcmd, "%s/group/%s/cmd", prefix, group);
    snprintf(shot, sizeof shot, "%s/k1/snapshot/get", prefix);
    mosquitto_subscribe(m, NULL, "bench/floor/back/+", 1);
    mosquitto_subscribe(m, NULL, states, 1);
    mosquitto_subscribe(m, NULL, "bench/shots", 1);
    settle(m, 500);  /* the SUBACKs, and the retained states */

    for (int r = 0; r < rounds; r++) {
        round_no = r;
        snprintf(tag, sizeof tag, "floor-%d", r);
        start(FLOOR);
        double wall0 = clock_us(CLOCK_REALTIME), t0 = clock_us(CLOCK_MONOTONIC);
        mosquitto_publish_v5(m, NULL, "bench/floor/cmd", (int)strlen(tag), tag, 1, false, NULL);
        if (wait_for(m, n) != 0) { fprintf(stderr, "floor round %d: %d of %d echoed\n", r, seen_count, n); return 75; }
        printf("floor %.1f %.1f\n", clock_us(CLOCK_MONOTONIC) - t0, latest_echo - wall0);
        settle(m, 20);

        snprintf(tag, sizeof tag, "\"status\":\"Round %d\"", r);
        snprintf(line, sizeof line, "progress 0.%d \"Round %d\"", 1 + r % 9, r);
        start(GROUP);
        t0 = clock_us(CLOCK_MONOTONIC);
        mosquitto_publish_v5(m, NULL, gcmd, (int)strlen(line), line, 1, false, NULL);
        if (wait_for(m, n) != 0) { fprintf(stderr, "group round %d: %d of %d states\n", r, seen_count, n); return 75; }
        printf("group %.1f\n", clock_us(CLOCK_MONOTONIC) - t0);
        settle(m, 20);
    }
    for (int s = 0; s < shots; s++) {
        mosquitto_property *props = NULL;
        mosquitto_property_add_string(&props, MQTT_PROP_RESPONSE_TOPIC, "bench/shots");
        start(SHOT);
        double t0 = clock_us(CLOCK_MONOTONIC);
        mosquitto_publish_v5(m, NULL, shot, 0, NULL, 1, false, props);
        mosquitto_property_free_all(&props);
        if (wait_for(m, 1) != 0) { fprintf(stderr, "snapshot %d: no PNG\n", s); return 75; }
        printf("snapshot %.1f %d\n", clock_us(CLOCK_MONOTONIC) - t0, shot_bytes);
        settle(m, 20);
    }
    mosquitto_disconnect(m);
    mosquitto_destroy(m);
    return 0;
}
