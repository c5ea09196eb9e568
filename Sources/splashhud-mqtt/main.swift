// SPDX-License-Identifier: MIT
// `splashhud-mqtt`: a splashhudd's control socket carried to an MQTT broker, for fleets
// (docs/fleet.md). Never in the initramfs: it starts after the network.
import MQTTBridge

BridgeCommand.main()
