// SPDX-License-Identifier: MIT
// HUDCommand.description is a line the parser reads back to the same command: every verb, every
// key, awkward text and awkward numbers.
import Testing
import Raster
@testable import HUDProtocol

@Suite struct CommandRoundTripTests {
    static let settings: [HUDSetting] = [
        .style(.dark), .style(.custom), .mask(.gradient), .mask(.none), .spinner(.native), .spinner(.flat),
        .foregroundColor(Color(r: 1, g: 2, b: 3)), .backgroundColor(Color(r: 255, g: 255, b: 255, a: 153)),
        .backdropColor(Color.black.withAlpha(102)), .imageColor(Color(r: 0xAB, g: 0xCD, b: 0xEF, a: 0)),
        .font(path: "/usr/share/fonts/My Font.ttf"), .fontSize(Fixed16_16(15)), .ringThickness(Fixed16_16(2.5)),
        .ringRadius(Fixed16_16(raw: 1)), .ringNoTextRadius(Fixed16_16(raw: 0x0800_0000)),
        .cornerRadius(Fixed16_16(raw: 6554)), .minimumSize(Size(200, 100.75)), .offset(Point(-12.5, 40)),
        .imageSize(Size(width: Fixed16_16(raw: 12345), height: Fixed16_16(raw: 65535))), .tintImages(false),
        .tintImages(true), .animated(false), .animated(true), .minimumDismiss(.seconds(5)), .maximumDismiss(.forever),
        .maximumDismiss(Interval(nanoseconds: 1)), .fadeIn(.milliseconds(150)), .fadeOut(.zero),
        .grace(Interval(nanoseconds: 1_000_000_000_000_000)), .mode(.customImage), .mode(.bar), .mode(.text),
        .mode(.indeterminate), .mode(.determinate), .mode(.annular), .label("Please \"wait\""),
        .details("two\nlines\tand \\ a \u{1}"), .button(""), .margin(Fixed16_16(20)), .promptWidth(Fixed16_16(240)), .textDirection(.rtl), .square(true),
        .minShow(Interval(nanoseconds: 123_456_789)), .transition(.zoomIn), .transition(.zoomOut),
        .transition(.zoom), .transition(.fade), .contentColor(Color(r: 0, g: 0, b: 0, a: 179)),
        .bezelColor(Color.white), .tapDismiss(.off), .tapDismiss(.hud), .tapDismiss(.outside), .tapDismiss(.anywhere),
        .maxFramesPerSecond(15), .maxFramesPerSecond(nil), .maxFramesPerSecond(1), .maxFramesPerSecond(1000),
    ]

    static let commands: [HUDCommand] = [
        .show(status: nil), .show(status: "Loading"), .show(status: ""), .show(status: "  spaced  out "),
        .show(status: "正在安装更新"), .show(status: "# not a comment"), .show(status: "'quoted'"),
        .progress(fraction: .zero, status: nil), .progress(fraction: Fixed16_16(0.5), status: "Copying"),
        .progress(fraction: -Fixed16_16.one, status: nil), .progress(fraction: Fixed16_16(raw: 6554), status: nil),
        .progress(fraction: Fixed16_16(1000), status: "x"), .progress(fraction: Fixed16_16(raw: -1), status: nil),
        .image(.success, status: nil), .image(.error, status: "Failed"), .image(.info, status: "Note"),
        .image(.custom(path: "/tmp/a b.png"), status: nil), .image(.custom(path: "logo.png"), status: "Hi"),
        .status("Almost"), .status(""), .dismiss(delay: .zero), .dismiss(delay: .milliseconds(1500)),
        .dismiss(delay: Interval(nanoseconds: 999_999_999)), .pop, .reset,
    ] + settings.map { .set($0) }

    @Test func everyCommandReadsBack() throws {
        for command in Self.commands {
            let line = command.description
            #expect(try CommandParser.parse(line) == command, "\(line)")
        }
    }

    @Test func everyKeyIsCoveredByTheRoundTrip() {
        #expect(Set(Self.settings.map(\.key)) == Set(CommandParser.keys))
    }

    @Test func linesLookLikeWhatAPersonWrites() {
        #expect(HUDCommand.show(status: "Loading").description == #"show "Loading""#)
        #expect(HUDCommand.progress(fraction: Fixed16_16(0.5), status: "Copying").description == #"progress 0.5 "Copying""#)
        #expect(HUDCommand.progress(fraction: Fixed16_16(raw: 6554), status: nil).description == "progress 0.1")
        #expect(HUDCommand.progress(fraction: -Fixed16_16.one, status: nil).description == "progress -1")
        #expect(HUDCommand.image(.custom(path: "/a.png"), status: nil).description == #"image "/a.png""#)
        #expect(HUDCommand.dismiss(delay: .zero).description == "dismiss")
        #expect(HUDCommand.dismiss(delay: .milliseconds(250)).description == "dismiss 0.25")
        #expect(HUDCommand.set(.foregroundColor(Color(r: 255, g: 128, b: 0))).description == "set foreground-color #FF8000")
        #expect(HUDCommand.set(.backdropColor(Color.black.withAlpha(102))).description == "set backdrop-color #00000066")
        #expect(HUDCommand.set(.minimumSize(Size(200, 100))).description == "set min-size 200x100")
        #expect(HUDCommand.set(.offset(Point(0, -40))).description == "set offset 0,-40")
        #expect(HUDCommand.set(.maximumDismiss(.forever)).description == "set max-dismiss forever")
        #expect(HUDCommand.set(.spinner(.native)).description == "set animation native")
        #expect(HUDCommand.set(.mode(.customImage)).description == "set mode custom")
        #expect(HUDCommand.set(.maxFramesPerSecond(15)).description == "set max-fps 15")
        #expect(HUDCommand.set(.maxFramesPerSecond(nil)).description == "set max-fps refresh")
        #expect(HUDCommand.set(.label("two\nlines")).description == #"set label "two\nlines""#)
        #expect(HUDCommand.status("a\u{7F}").description == #"status "a\u{7F}""#)
    }

    @Test func fixedPointPrintsTheShortestExactDecimal() {
        // Every raw value in a sweep reads back to itself, with at most five decimals.
        var failures: [String] = []
        var raw: Int32 = -65536 * 2
        while raw <= 65536 * 2 {
            let text = CommandParser.format(Fixed16_16(raw: raw))
            let decimals = text.split(separator: ".").dropFirst().first?.count ?? 0
            if Fixed16_16(Double(text)!) != Fixed16_16(raw: raw) || decimals > 5 { failures.append("\(raw) → \(text)") }
            raw += 3
        }
        #expect(failures == [])
        #expect(CommandParser.format(Fixed16_16(raw: 1)) == "0.00002")
        #expect(CommandParser.format(Fixed16_16(raw: 32768)) == "0.5")
        #expect(CommandParser.format(Fixed16_16(raw: 6554)) == "0.1")
        #expect(CommandParser.format(Fixed16_16(raw: .max)) == "32767.99998")
        #expect(CommandParser.format(Fixed16_16(raw: .min)) == "-32768")
    }

    @Test func intervalsPrintExactSeconds() {
        #expect(CommandParser.format(Interval.zero) == "0")
        #expect(CommandParser.format(Interval(nanoseconds: 1)) == "0.000000001")
        #expect(CommandParser.format(Interval.milliseconds(150)) == "0.15")
        #expect(CommandParser.format(Interval.seconds(5)) == "5")
        #expect(CommandParser.format(Interval.forever) == "forever")
    }

    @Test func isMBSettingMatchesTheMBKeys() {
        let mbKeys: Set = ["mode", "label", "details", "button", "margin", "square", "min-show", "transition",
                           "content-color", "bezel-color"]
        for setting in CommandRoundTripTests.settings {
            #expect(setting.isMBSetting == mbKeys.contains(setting.key), "\(setting.key)")
        }
    }
}
