// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <mosquitto.h>
#include <mqtt_protocol.h>

/* What libmosquitto's property readers allocate is the caller's to free(3): this keeps Glibc out of
   the bridge's Swift. */
static inline void CMosquitto_free(void *p) { free(p); }
