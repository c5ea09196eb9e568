// SPDX-License-Identifier: MIT
// SWUpdate's frames as one overall bar (core/progress_thread.c, 2022.12 on):
// - START sets `nsteps`; each image's RUN raises `cur_step` (the first image is 1) with
//   `cur_percent` 0 and its name; PROGRESS follows only when the percentage changes; a last RUN
//   carries `cur_step` = nsteps + 1; then SUCCESS or FAILURE, after which every count is reset to 0.
// - DOWNLOAD carries `dwl_percent` alone, before START when SWUpdate downloads first, or between
//   PROGRESS frames when it installs while downloading.
// The bar is max(download, ((cur_step - 1) * 100 + cur_percent) / nsteps), and never goes back
// within one update (nsteps 0 counts as no install progress yet). Its text is the image being
// installed, or the download's percentage while nothing is installed yet.

public struct SWUpdateProgress: Sendable {
    public private(set) var percent = 0
    public private(set) var status = ""
    private var active = false

    public init() {}

    /// What the HUD should show after `frame`; nil when it changes nothing there. A FAILURE's
    /// reason is not in the frame (2022.12 leaves `info` empty): `reason` fetches it from
    /// SWUpdate's status messages.
    public mutating func view(for frame: SWUpdateFrame, reason: () -> String?) -> UpdateView? {
        switch frame.status {
        case .start:
            begin()
            status = "Installing update"
            return .progress(percent: 0, status: status)
        case .download:
            if !active { begin() }
            if frame.step == 0 { status = "Downloading \(frame.downloadPercent)%" }
            return advance(to: Int(frame.downloadPercent))
        case .run, .progress:
            if !active { begin() }
            if frame.step >= 1, frame.step <= frame.steps, !frame.image.isEmpty {
                status = frame.steps > 1 ? "\(frame.image) (\(frame.step) of \(frame.steps))" : frame.image
            }
            return advance(to: max(Int(frame.downloadPercent), Self.overall(frame)))
        case .success:
            active = false
            return .succeeded(status: "Update installed")
        case .failure:
            active = false
            let fallback = frame.image.isEmpty ? "The update failed" : "The update failed while installing \(frame.image)"
            return .failed(reason: reason() ?? fallback)
        case .idle, .done, .subprocess:
            return nil
        }
    }

    /// The install's share of the bar, 0...100.
    static func overall(_ frame: SWUpdateFrame) -> Int {
        guard frame.steps > 0, frame.step >= 1 else { return 0 }
        let done = (Int(frame.step) - 1) * 100 + Int(frame.stepPercent)
        return min(100, done / Int(frame.steps))
    }

    private mutating func begin() {
        active = true
        percent = 0
        status = "Installing update"
    }

    private mutating func advance(to candidate: Int) -> UpdateView {
        percent = max(percent, min(candidate, 100))
        return .progress(percent: percent, status: status)
    }
}
