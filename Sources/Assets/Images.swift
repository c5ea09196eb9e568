// SPDX-License-Identifier: MIT
// Fonts and text sit on Images (PNG, the file checks): whoever draws text draws images too, so the
// HUD, the runtime and the tools see both through one import. What needs images alone (the MQTT
// bridge) imports Images and links neither FreeType nor the text stack.
@_exported import Images
