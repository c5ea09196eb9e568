// SPDX-License-Identifier: MIT
#include <systemd/sd-bus.h>
