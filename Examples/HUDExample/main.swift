// SPDX-License-Identifier: MIT
// The Swift API's example (docs/swift.md, the DocC article): SVProgressHUD's calls and an MBProgressHUD-style object, against a running
// splashhudd (`splashhud-example --socket PATH`) or a HUD this program owns on a memory display
// (`splashhud-example --local`). It prints the events it sees and the state at the end.
import HUDClient
import HUDProtocol
import SplashHUDKit

let arguments = CommandLine.arguments.dropFirst()
let local = arguments.contains("--local")
let socket = arguments.firstIndex(of: "--socket").flatMap { arguments.index(after: $0) < arguments.endIndex ? arguments[arguments.index(after: $0)] : nil }

let hud: any HUDConnection = local ? try LocalHUD(display: .memory(width: 480, height: 320)) : RemoteHUD(socket: socket)
SplashHUD.use(hud)
SplashHUD.onError { print("error: \($0)") }

let events = hud.events()
let printer = Task {
    for await event in events { print(event.line) }
}
try await Task.sleep(nanoseconds: 100_000_000)  // subscribed before the first show

// SVProgressHUD's shape.
SplashHUD.setDefaultStyle(.dark)
SplashHUD.show(status: "Preparing")
for step in 1...4 {
    try await Task.sleep(nanoseconds: 100_000_000)
    SplashHUD.showProgress(Float(step) / 4, status: "Installing \(step) of 4")
}
SplashHUD.showSuccess(status: "Installed")
await withCheckedContinuation { done in SplashHUD.dismiss(withDelay: 0.2) { done.resume() } }

// MBProgressHUD's per-HUD object, with a button whose action runs when it is pressed.
let box = ProgressHUD.show(on: hud, label: "Downloading")
box.mode = .annular
box.progress = 0.5
let pressed = AsyncStream<Void> { continuation in
    box.setButton("Cancel") { continuation.yield(); continuation.finish() }
}
try await Task.sleep(nanoseconds: 200_000_000)
box.pressButton()  // as a touch or a key would (`splashhud send press`)
for await _ in pressed { print("cancel pressed") }
await withCheckedContinuation { done in box.hide(afterDelay: 0) { done.resume() } }

let state = try hud.state()
print("state: \(state.line)")
printer.cancel()
if let local = hud as? LocalHUD { local.quit() }
