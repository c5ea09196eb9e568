// SPDX-License-Identifier: MIT
import Runtime
import Testing

@Test func runtimeLoggerLabelNamesTheModule() {
    #expect(runtimeLoggerLabel == "splashhud.runtime")
}
