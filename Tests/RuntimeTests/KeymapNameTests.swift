// SPDX-License-Identifier: MIT
// Where the on-screen keyboard's layout comes from (KeymapName.swift): the profile's keymap, else
// vconsole.conf's KEYMAP, else console-setup's XKBLAYOUT (its first layout), else us.
import Foundation
import HUD
@testable import Runtime
import Testing

@Suite("On-screen keyboard: the keymap's name")
struct KeymapNameTests {
    @Test func order() {
        let vconsole = "# written by systemd-localed\nKEYMAP=\"fr-latin9\"\nFONT=eurlatgr\n"
        let keyboard = "XKBMODEL=\"pc105\"\nXKBLAYOUT=\"de,ru\"\nXKBVARIANT=\"\"\n"
        #expect(KeymapName.layout(profile: "ru", vconsole: vconsole, keyboard: keyboard).name == "ru")
        #expect(KeymapName.layout(profile: nil, vconsole: vconsole, keyboard: keyboard).name == "fr")
        #expect(KeymapName.layout(profile: nil, vconsole: nil, keyboard: keyboard).name == "de")
        #expect(KeymapName.layout(profile: nil, vconsole: "FONT=x\n", keyboard: nil).name == "us")
        // A keymap without a layout here falls through to the next source, then to us.
        #expect(KeymapName.layout(profile: nil, vconsole: "KEYMAP=uk", keyboard: "XKBLAYOUT=fr").name == "fr")
        #expect(KeymapName.layout(profile: nil, vconsole: "KEYMAP=uk", keyboard: "XKBLAYOUT=gb").name == "us")
    }

    /// The prompt's tag for the VT's keys: the configured keymap's letters, nothing when none is.
    @Test func consoleName() {
        #expect(KeymapName.consoleName(vconsole: "KEYMAP=de-latin1-nodeadkeys\n", keyboard: "XKBLAYOUT=fr") == "de")
        #expect(KeymapName.consoleName(vconsole: "FONT=x\n", keyboard: "XKBLAYOUT=\"gb,ru\"") == "gb")
        #expect(KeymapName.consoleName(vconsole: nil, keyboard: "XKBMODEL=pc105\n") == nil)
        #expect(KeymapName.consoleName(vconsole: "KEYMAP=\"-\"", keyboard: nil) == nil)
    }

    @Test func assignments() {
        #expect(KeymapName.value(of: "KEYMAP", in: "  KEYMAP=de-latin1 # comment\n") == "de-latin1")
        #expect(KeymapName.value(of: "KEYMAP", in: "XKEYMAP=fr\n#KEYMAP=fr\nKEYMAP='us'\nKEYMAP=\"de\"") == "de")
        #expect(KeymapName.value(of: "KEYMAP", in: "KEYMAP=\n") == nil && KeymapName.value(of: "KEYMAP", in: "") == nil)
    }

    /// The files themselves: a directory of our own stands in for /etc.
    @Test func readsTheFiles() throws {
        let dir = "/tmp/splashhud-keymap-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "KEYMAP=de-nodeadkeys\n".write(toFile: dir + "/vconsole.conf", atomically: true, encoding: .utf8)
        #expect(KeymapName.layout(profile: nil, vconsolePath: dir + "/vconsole.conf", keyboardPath: dir + "/missing").name == "de")
        #expect(KeymapName.layout(profile: nil, vconsolePath: dir + "/missing", keyboardPath: dir + "/missing").name == "us")
    }
}
