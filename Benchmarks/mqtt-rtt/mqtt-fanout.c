// SPDX-License-Identifier: MIT
/* One command to a whole fleet, for scripts/bench/mqtt-fleet.sh (not a test). First, until the
 * fleet is ready (a fleet of a thousand comes up over minutes): every one of N devices has a
 * retained state, and every one of N plain clients echoes a floor publish (sent again every second
 * until all have: a client that subscribes late misses the ones before). Then each round:
 *   floor: one QoS 1 publish on bench/floor/cmd, until every one of N plain clients has echoed it
 *          back (`mosquitto_sub -F '%U %p' | mosquitto_pub -r -l` on bench/floor/back/I, retained
 *          like a state): the broker's fan-out and fan-in with nothing of ours in the way; the echo
 *          carries the time each subscriber printed the message, so the fan-out alone is measured
 *          too; the publish is padded so that an echo is as long as the longest state seen at start;
 *   group: one `progress` on PREFIX/group/GROUP/cmd, until every one of N devices (k1..kN) has
 *          published a state (PREFIX/kI/state: the bridge passes on its daemon's `state` event,
 *          which the daemon sends at the end of the turn that applied the command and drew its
 *          frame) whose status is this round's; then GAP_MS of quiet, more than the bridges'
 *          --state-interval, so that no state of the next round waits for that interval.
 * Then SHOTS snapshot round trips: a request on PREFIX/k1/snapshot/get with a response topic,
 * until the PNG comes back.
 * Prints one line per sample: "floor RTT_US FANOUT_US", "group RTT_US", "snapshot RTT_US BYTES",
 * and "ready SECONDS" once the fleet was.
 *   mqtt-fanout HOST PORT USER PASS PREFIX GROUP N ROUNDS SHOTS GAP_MS
 */
#include <mosquitto.h>
#include <mqtt_protocol.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum phase { IDLE, FLOOR, GROUP, SHOT, READY };
static enum phase phase = IDLE;
static int n, seen_count, round_no, shot_bytes, state_bytes;
static char *stated;
static int stated_count;
static char *seen;
static char tag[1024];
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
    char lead[160];
    snprintf(lead, sizeof lead, "%s/k", prefix);
    int k = index_after(msg->topic, lead, "/state");
    if (k > 0) {
        /* Every state counts toward readiness (the retained ones at subscribe first). */
        if (!stated[k]) { stated[k] = 1; stated_count++; }
        if (msg->payloadlen > state_bytes) state_bytes = msg->payloadlen;
    }
    if (phase == READY) {
        i = index_after(msg->topic, "bench/floor/back/", "");
        const char *space = memchr(payload, ' ', (size_t)msg->payloadlen);
        if (i < 0 || !space || msg->payloadlen - (space + 1 - payload) < 5 || memcmp(space + 1, "ready", 5) != 0) return;
    } else if (phase == FLOOR) {
        /* "SECONDS.NANOSECONDS TAG" */
        i = index_after(msg->topic, "bench/floor/back/", "");
        const char *space = memchr(payload, ' ', (size_t)msg->payloadlen);
        if (i < 0 || !space || (size_t)(msg->payloadlen - (space + 1 - payload)) != strlen(tag)
            || memcmp(space + 1, tag, strlen(tag)) != 0) return;
        double at = strtod(payload, NULL) * 1e6;
        if (at > latest_echo) latest_echo = at;
    } else if (phase == GROUP) {
        i = k;
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

/* The floor's publish for `name`, padded with dots so that its echo ("SECONDS.NANOSECONDS " and
 * the publish) is as long as the longest state seen. */
static void floor_tag(const char *name) {
    int echo_head = 21, want = state_bytes - echo_head;
    if (want > (int)sizeof tag - 1) want = (int)sizeof tag - 1;
    int len = snprintf(tag, sizeof tag, "%s", name);
    while (len < want) tag[len++] = '.';
    tag[len] = 0;
}

/* A short pause that still answers the broker (PUBACKs, stray states). */
static void settle(struct mosquitto *m, int ms) {
    double until = clock_us(CLOCK_MONOTONIC) + ms * 1e3;
    phase = IDLE;
    while (clock_us(CLOCK_MONOTONIC) < until) mosquitto_loop(m, 5, 1);
}

int main(int argc, char **argv) {
    if (argc != 11) { fprintf(stderr, "usage: mqtt-fanout HOST PORT USER PASS PREFIX GROUP N ROUNDS SHOTS GAP_MS\n"); return 64; }
    snprintf(prefix, sizeof prefix, "%s", argv[5]);
    const char *group = argv[6];
    n = atoi(argv[7]);
    int rounds = atoi(argv[8]), shots = atoi(argv[9]), gap_ms = atoi(argv[10]);
    seen = calloc((size_t)n + 1, 1);
    stated = calloc((size_t)n + 1, 1);

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

    /* Ready: all N states, and all N plain clients echoing (each echo then retained). */
    double ready0 = clock_us(CLOCK_MONOTONIC);
    start(READY);
    for (int attempt = 0; seen_count < n || stated_count < n; attempt++) {
        if (clock_us(CLOCK_MONOTONIC) - ready0 > 600e6) {
            fprintf(stderr, "not ready after 600 s: %d of %d states, %d of %d echoes\n", stated_count, n, seen_count, n);
            return 75;
        }
        char name[32];
        snprintf(name, sizeof name, "ready-%d", attempt);
        floor_tag(name);
        mosquitto_publish_v5(m, NULL, "bench/floor/cmd", (int)strlen(tag), tag, 1, false, NULL);
        double until = clock_us(CLOCK_MONOTONIC) + 1e6;
        while ((seen_count < n || stated_count < n) && clock_us(CLOCK_MONOTONIC) < until) mosquitto_loop(m, 100, 1);
    }
    printf("ready %.3f\n", (clock_us(CLOCK_MONOTONIC) - ready0) / 1e6);
    fflush(stdout);
    settle(m, 200);

    for (int r = 0; r < rounds; r++) {
        round_no = r;
        char name[32];
        snprintf(name, sizeof name, "floor-%d", r);
        floor_tag(name);
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
        settle(m, gap_ms);
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
