// SPDX-License-Identifier: MIT
/* The fleet bridge's round trips, for scripts/bench/mqtt-latency.sh (not a test):
 *   socket: `ping` straight on a daemon's control socket (the floor);
 *   broker: `ping` to P/DEVICE/cmd with an MQTT 5 response topic, until its reply comes back
 *           (operator -> broker -> splashhud-mqtt -> daemon -> splashhud-mqtt -> broker -> operator);
 *   group:  one `progress` to P/group/GROUP/cmd, until every one of N bridges has replied.
 * Prints one line per sample: "KIND MICROSECONDS".
 *   mqtt-rtt HOST PORT USER PASS PREFIX DEVICE SOCKET COUNT GROUP N
 */
#include <mosquitto.h>
#include <mqtt_protocol.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static int replies;

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void on_message(struct mosquitto *m, void *u, const struct mosquitto_message *msg, const mosquitto_property *p) {
    (void)m; (void)u; (void)msg; (void)p;
    replies++;
}

static int wait_replies(struct mosquitto *m, int n) {
    double deadline = now_us() + 10e6;
    while (replies < n) {
        if (now_us() > deadline) return -1;
        if (mosquitto_loop(m, 100, 1) != MOSQ_ERR_SUCCESS) return -1;
    }
    return 0;
}

static int publish(struct mosquitto *m, const char *topic, const char *payload, const char *response, int i) {
    mosquitto_property *props = NULL;
    char id[32];
    snprintf(id, sizeof id, "%d", i);
    mosquitto_property_add_string(&props, MQTT_PROP_RESPONSE_TOPIC, response);
    mosquitto_property_add_binary(&props, MQTT_PROP_CORRELATION_DATA, id, (uint16_t)strlen(id));
    int rc = mosquitto_publish_v5(m, NULL, topic, (int)strlen(payload), payload, 1, false, props);
    mosquitto_property_free_all(&props);
    return rc;
}

int main(int argc, char **argv) {
    if (argc != 11) { fprintf(stderr, "usage: mqtt-rtt HOST PORT USER PASS PREFIX DEVICE SOCKET COUNT GROUP N\n"); return 64; }
    const char *prefix = argv[5], *device = argv[6], *sock = argv[7], *group = argv[9];
    int count = atoi(argv[8]), n = atoi(argv[10]);
    char buf[512];

    /* The control socket, straight. */
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    strncpy(a.sun_path, sock, sizeof a.sun_path - 1);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) { perror("connect"); return 69; }
    for (int i = 0; i < count; i++) {
        double t0 = now_us();
        if (write(fd, "ping\n", 5) != 5) return 74;
        size_t got = 0;
        while (got == 0 || buf[got - 1] != '\n') {
            ssize_t r = read(fd, buf + got, sizeof buf - got);
            if (r <= 0) return 74;
            got += (size_t)r;
        }
        printf("socket %.1f\n", now_us() - t0);
    }
    close(fd);

    mosquitto_lib_init();
    struct mosquitto *m = mosquitto_new(NULL, true, NULL);
    mosquitto_int_option(m, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5);
    mosquitto_int_option(m, MOSQ_OPT_TCP_NODELAY, 1);
    mosquitto_username_pw_set(m, argv[3], argv[4]);
    mosquitto_message_v5_callback_set(m, on_message);
    if (mosquitto_connect(m, argv[1], atoi(argv[2]), 30) != MOSQ_ERR_SUCCESS) { fprintf(stderr, "broker connect failed\n"); return 69; }
    char response[128], cmd[256], gcmd[256];
    snprintf(response, sizeof response, "bench/replies/%d", getpid());
    snprintf(cmd, sizeof cmd, "%s/%s/cmd", prefix, device);
    snprintf(gcmd, sizeof gcmd, "%s/group/%s/cmd", prefix, group);
    mosquitto_subscribe(m, NULL, response, 1);
    for (int i = 0; i < 20; i++) mosquitto_loop(m, 10, 1);  /* the SUBACK */

    for (int i = 0; i < count; i++) {
        replies = 0;
        double t0 = now_us();
        publish(m, cmd, "ping", response, i);
        if (wait_replies(m, 1) != 0) { fprintf(stderr, "no reply to ping %d\n", i); return 75; }
        printf("broker %.1f\n", now_us() - t0);
    }
    for (int i = 0; i < count / 5 + 1; i++) {
        replies = 0;
        snprintf(buf, sizeof buf, "progress 0.%d \"Fleet\"", 1 + i % 9);
        double t0 = now_us();
        publish(m, gcmd, buf, response, i);
        if (wait_replies(m, n) != 0) { fprintf(stderr, "group round %d: %d of %d replied\n", i, replies, n); return 75; }
        printf("group %.1f\n", now_us() - t0);
    }
    mosquitto_disconnect(m);
    mosquitto_destroy(m);
    return 0;
}
