// SPDX-License-Identifier: MIT
// Every verb and every `set` key parses to the right value.
import Testing
import Raster
@testable import HUDProtocol

/// The command on `line`; records a test failure (and returns nil) when the line does not parse.
func commandParsed(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> HUDCommand? {
    do {
        return try CommandParser.parse(line)
    } catch {
        Issue.record("'\(line)' failed: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The error message for `line`, or nil when it parses.
func commandError(_ line: String) -> String? {
    do {
        _ = try CommandParser.parse(line)
        return nil
    } catch {
        return error.description
    }
}

/// The setting of a `set` line.
func settingParsed(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> HUDSetting? {
    guard case .set(let setting)? = commandParsed(line, sourceLocation: sourceLocation) else { return nil }
    return setting
}

@Suite struct CommandParserTests {
    @Test func showTakesTheRestOfTheLineAsStatus() {
        #expect(commandParsed("show") == .show(status: nil))
        #expect(commandParsed("show Loading") == .show(status: "Loading"))
        #expect(commandParsed("show Installing update 3") == .show(status: "Installing update 3"))
        #expect(commandParsed("show   Installing \t  update  ") == .show(status: "Installing update"))
        #expect(commandParsed("show \"Copying  files\"") == .show(status: "Copying  files"))
        #expect(commandParsed("show \"\"") == .show(status: ""))
        #expect(commandParsed("  show Don't panic") == .show(status: "Don't panic"))
    }

    @Test func progressTakesAFractionAndAnOptionalStatus() {
        #expect(commandParsed("progress 0.5") == .progress(fraction: Fixed16_16(0.5), status: nil))
        #expect(commandParsed("progress 0.25 Copying files") == .progress(fraction: Fixed16_16(0.25), status: "Copying files"))
        #expect(commandParsed("progress .75 \"Copying\"") == .progress(fraction: Fixed16_16(0.75), status: "Copying"))
        #expect(commandParsed("progress 1") == .progress(fraction: .one, status: nil))
        #expect(commandParsed("progress 0") == .progress(fraction: .zero, status: nil))
        // A3: progress values are not clamped; a negative one shows the spinner (A4).
        #expect(commandParsed("progress -1") == .progress(fraction: -Fixed16_16.one, status: nil))
        #expect(commandParsed("progress 1.5") == .progress(fraction: Fixed16_16(1.5), status: nil))
        #expect(commandParsed("progress 1000") == .progress(fraction: Fixed16_16(1000), status: nil))
        #expect(commandParsed("progress -1000") == .progress(fraction: Fixed16_16(-1000), status: nil))
        // Converted with Fixed16_16(Double): 0.1 is raw round(6553.6) = 6554.
        #expect(commandParsed("progress 0.1") == .progress(fraction: Fixed16_16(raw: 6554), status: nil))
        // A numeric status after the fraction is text.
        #expect(commandParsed("progress 0.5 50") == .progress(fraction: Fixed16_16(0.5), status: "50"))
    }

    @Test func imageVerbs() {
        #expect(commandParsed("success") == .image(.success, status: nil))
        #expect(commandParsed("success Done") == .image(.success, status: "Done"))
        #expect(commandParsed("error Disk full, retrying") == .image(.error, status: "Disk full, retrying"))
        #expect(commandParsed("info \"Heads up\"") == .image(.info, status: "Heads up"))
        #expect(commandParsed("image /usr/share/logo.png") == .image(.custom(path: "/usr/share/logo.png"), status: nil))
        #expect(commandParsed("image \"/opt/my logo.png\" Hello world")
                == .image(.custom(path: "/opt/my logo.png"), status: "Hello world"))
        // --stay, unquoted and first; quoted it is the text.
        #expect(commandParsed("error --stay Disk full") == .image(.error, status: "Disk full", stays: true))
        #expect(commandParsed("success --stay") == .image(.success, status: nil, stays: true))
        #expect(commandParsed("error \"--stay\"") == .image(.error, status: "--stay"))
        #expect(commandParsed("image --stay /a.png Hi") == .image(.custom(path: "/a.png"), status: "Hi", stays: true))
        // --support beside --stay, in either order, each once; quoted it is the text.
        #expect(commandParsed("error --stay --support Disk full") == .image(.error, status: "Disk full", stays: true, support: true))
        #expect(commandParsed("error --support --stay Disk full") == .image(.error, status: "Disk full", stays: true, support: true))
        #expect(commandParsed("error --support") == .image(.error, status: nil, support: true))
        #expect(commandParsed("error --support \"--stay\"") == .image(.error, status: "--stay", support: true))
        #expect(commandParsed("error --support --support") == .image(.error, status: "--support", support: true))
        #expect(commandParsed("info \"--support\"") == .image(.info, status: "--support"))
        #expect(commandParsed("image --support /a.png Hi") == .image(.custom(path: "/a.png"), status: "Hi", support: true))
        for line in ["error --stay \"Disk full\"", "info --stay", "image --stay /a.png Hi", "error \"--stay\"",
                     "error --stay --support \"Not installing\"", "success --support", "image --support --stay /a.png", "error \"--support\""] {
            let command = commandParsed(line)
            #expect(command.flatMap { commandParsed($0.description) } == command, "\(line)")
        }
    }

    @Test func statusDismissPopReset() {
        #expect(commandParsed("status Almost there") == .status("Almost there"))
        #expect(commandParsed("status \"\"") == .status(""))
        #expect(commandParsed("dismiss") == .dismiss(delay: .zero))
        #expect(commandParsed("dismiss 1.5") == .dismiss(delay: .milliseconds(1500)))
        #expect(commandParsed("dismiss 0") == .dismiss(delay: .zero))
        #expect(commandParsed("dismiss 0.000000001") == .dismiss(delay: Interval(nanoseconds: 1)))
        // Durations are read exactly, rounding half up at the tenth decimal.
        #expect(commandParsed("dismiss 0.0000000015") == .dismiss(delay: Interval(nanoseconds: 2)))
        #expect(commandParsed("dismiss 0.0000000014999") == .dismiss(delay: Interval(nanoseconds: 1)))
        #expect(commandParsed("dismiss 1000000") == .dismiss(delay: .milliseconds(1_000_000_000)))
        #expect(commandParsed("pop") == .pop)
        #expect(commandParsed("reset") == .reset)
    }

    @Test func psplashWords() {
        #expect(commandParsed("MSG Booting the system") == .status("Booting the system"))
        #expect(commandParsed("MSG \"Booting\"") == .status("Booting"))
        // PROGRESS is a percentage; nil status (SV's showProgress without status).
        #expect(commandParsed("PROGRESS 50") == .progress(fraction: Fixed16_16(0.5), status: nil))
        #expect(commandParsed("PROGRESS 0") == .progress(fraction: .zero, status: nil))
        #expect(commandParsed("PROGRESS 100") == .progress(fraction: .one, status: nil))
        #expect(commandParsed("PROGRESS 33") == commandParsed("progress 0.33"))
        #expect(commandParsed("QUIT") == .dismiss(delay: .zero))
    }

    @Test func fbsplashWords() {
        #expect(commandParsed("0") == .progress(fraction: .zero, status: nil))
        #expect(commandParsed("25") == .progress(fraction: Fixed16_16(0.25), status: nil))
        #expect(commandParsed("100") == .progress(fraction: .one, status: nil))
        #expect(commandParsed("exit") == .dismiss(delay: .zero))
    }

    @Test func choiceKeys() {
        for style in HUDStyle.allCases { #expect(settingParsed("set style \(style.rawValue)") == .style(style)) }
        for mask in HUDMask.allCases { #expect(settingParsed("set mask \(mask.rawValue)") == .mask(mask)) }
        #expect(settingParsed("set animation flat") == .spinner(.flat))
        #expect(settingParsed("set animation native") == .spinner(.native))
        #expect(settingParsed("set mode indeterminate") == .mode(.indeterminate))
        #expect(settingParsed("set mode determinate") == .mode(.determinate))
        #expect(settingParsed("set mode annular") == .mode(.annular))
        #expect(settingParsed("set mode bar") == .mode(.bar))
        #expect(settingParsed("set mode text") == .mode(.text))
        #expect(settingParsed("set mode custom") == .mode(.customImage))
        #expect(settingParsed("set transition fade") == .transition(.fade))
        #expect(settingParsed("set transition zoom") == .transition(.zoom))
        #expect(settingParsed("set transition zoom-in") == .transition(.zoomIn))
        #expect(settingParsed("set transition zoom-out") == .transition(.zoomOut))
        #expect(settingParsed("set tint-images on") == .tintImages(true))
        #expect(settingParsed("set tint-images off") == .tintImages(false))
        #expect(settingParsed("set animated off") == .animated(false))
        #expect(settingParsed("set animated on") == .animated(true))
        #expect(settingParsed("set square on") == .square(true))
        #expect(settingParsed("set square off") == .square(false))
        #expect(settingParsed("set tap-dismiss anywhere") == .tapDismiss(.anywhere))
        #expect(settingParsed("set tap-dismiss hud") == .tapDismiss(.hud))
    }

    @Test func maxFPSIsACountOrRefresh() {
        #expect(settingParsed("set max-fps 15") == .maxFramesPerSecond(15))
        #expect(settingParsed("set max-fps 1") == .maxFramesPerSecond(1))
        #expect(settingParsed("set max-fps 1000") == .maxFramesPerSecond(1000))
        #expect(settingParsed("set max-fps refresh") == .maxFramesPerSecond(nil))
        let range = "1...1000 or refresh"
        for (word, kind) in [("0", CommandError.Kind.outOfRange(command: "set max-fps", word: "0", range: range)),
                             ("1001", .outOfRange(command: "set max-fps", word: "1001", range: range)),
                             ("99999999999999999999", .outOfRange(command: "set max-fps", word: "99999999999999999999", range: range)),
                             ("15.5", .notANumber(command: "set max-fps", word: "15.5")),
                             ("-15", .notANumber(command: "set max-fps", word: "-15")),
                             ("fast", .notANumber(command: "set max-fps", word: "fast"))] {
            #expect(throws: CommandError(kind, column: 13)) { try CommandParser.parse("set max-fps \(word)") }
        }
    }

    @Test func colourKeys() {
        #expect(settingParsed("set foreground-color #FF8000") == .foregroundColor(Color(r: 255, g: 128, b: 0)))
        #expect(settingParsed("set background-color #ff800080") == .backgroundColor(Color(r: 255, g: 128, b: 0, a: 128)))
        #expect(settingParsed("set backdrop-color #00000066") == .backdropColor(Color.black.withAlpha(0x66)))
        #expect(settingParsed("set image-color #0a0B0c") == .imageColor(Color(r: 10, g: 11, b: 12)))
        #expect(settingParsed("set content-color #123456FF") == .contentColor(Color(r: 0x12, g: 0x34, b: 0x56)))
        #expect(settingParsed("set bezel-color #FFFFFF00") == .bezelColor(Color.white.withAlpha(0)))
    }

    @Test func lengthKeys() {
        #expect(settingParsed("set font /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
                == .font(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
        #expect(settingParsed("set font \"/fonts/My Font.ttf\"") == .font(path: "/fonts/My Font.ttf"))
        #expect(settingParsed("set font-size 17.5") == .fontSize(Fixed16_16(17.5)))
        #expect(settingParsed("set ring-thickness 0") == .ringThickness(.zero))
        #expect(settingParsed("set ring-radius 18") == .ringRadius(Fixed16_16(18)))
        #expect(settingParsed("set ring-no-text-radius 24.25") == .ringNoTextRadius(Fixed16_16(24.25)))
        #expect(settingParsed("set corner-radius 2048") == .cornerRadius(Fixed16_16(2048)))
        #expect(settingParsed("set margin 20") == .margin(Fixed16_16(20)))
        #expect(settingParsed("set min-size 200x100") == .minimumSize(Size(200, 100)))
        #expect(settingParsed("set min-size 200.5X0") == .minimumSize(Size(200.5, 0)))
        #expect(settingParsed("set image-size 28x28") == .imageSize(Size(28, 28)))
        #expect(settingParsed("set offset 0,-40") == .offset(Point(0, -40)))
        #expect(settingParsed("set offset -12.5,30") == .offset(Point(-12.5, 30)))
        #expect(settingParsed("set offset -2048,2048") == .offset(Point(-2048, 2048)))
        // Fixed16_16(Double) rounding: 0.3 pt is raw round(19660.8) = 19661.
        #expect(settingParsed("set margin 0.3") == .margin(Fixed16_16(raw: 19661)))
    }

    @Test func durationKeys() {
        #expect(settingParsed("set min-dismiss 5") == .minimumDismiss(.seconds(5)))
        #expect(settingParsed("set max-dismiss 10.25") == .maximumDismiss(.milliseconds(10_250)))
        #expect(settingParsed("set max-dismiss inf") == .maximumDismiss(.forever))
        #expect(settingParsed("set max-dismiss forever") == .maximumDismiss(.forever))
        #expect(settingParsed("set fade-in 0.15") == .fadeIn(.milliseconds(150)))
        #expect(settingParsed("set fade-out .3") == .fadeOut(.milliseconds(300)))
        #expect(settingParsed("set grace 0") == .grace(.zero))
        #expect(settingParsed("set min-show 1.") == .minShow(.seconds(1)))
    }

    @Test func textKeys() {
        #expect(settingParsed("set label Please wait") == .label("Please wait"))
        #expect(settingParsed("set details \"Line one\\nline two\"") == .details("Line one\nline two"))
        #expect(settingParsed("set button Cancel") == .button("Cancel"))
        #expect(settingParsed("set label \"\"") == .label(""))
    }

    @Test func everyKeyIsListedAndParses() {
        let samples: [String: String] = [
            "style": "dark", "mask": "black", "animation": "native", "foreground-color": "#000000",
            "background-color": "#FFFFFF", "backdrop-color": "#00000066", "image-color": "#FF0000",
            "font": "/f.ttf", "font-size": "15", "ring-thickness": "2", "ring-radius": "18",
            "ring-no-text-radius": "24", "corner-radius": "14", "min-size": "1x2", "offset": "3,4",
            "image-size": "28x28", "tint-images": "on", "min-dismiss": "5", "max-dismiss": "inf",
            "fade-in": "0.15", "fade-out": "0.15", "grace": "0", "animated": "off", "mode": "bar", "label": "L",
            "details": "D", "button": "B", "margin": "20", "square": "on", "min-show": "1",
            "transition": "zoom", "content-color": "#111111", "bezel-color": "#222222",
            "tap-dismiss": "outside", "max-fps": "15", "prompt-width": "240", "text-direction": "rtl",
        ]
        #expect(Set(CommandParser.keys) == Set(samples.keys))
        #expect(CommandParser.keys.count == 37)
        for key in CommandParser.keys {
            // The parsed setting reports the key it was written with.
            #expect(settingParsed("set \(key) \(samples[key]!)")?.key == key)
        }
    }
}
