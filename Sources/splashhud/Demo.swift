// `splashhud demo`: the main job for now. Renders the benchmark's reference HUD frame and the
// gallery of primitives into PNG files and says where they are.
import ArgumentParser
import Foundation
import Assets
import Gallery
import Raster

struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render the reference HUD frame and the primitive gallery to PNG files.")

    @Option(name: .shortAndLong, help: "Folder for the pictures (created if missing).")
    var out: String = "out/demo"

    @Option(help: "Which frame of the spinner's 60-frame turn to draw.")
    var frame: Int = 10

    func run() throws {
        try FileManager.default.createDirectory(atPath: "\(out)/primitives", withIntermediateDirectories: true)
        var written: [String] = []
        for variant in [ReferenceFrame.Variant.full1080, .full4k] {
            let scene = try ReferenceFrame(variant)
            let pixmap = Pixmap(width: scene.geometry.width, height: scene.geometry.height)
            scene.draw(frame: frame, into: Canvas(pixmap.view))
            let path = "\(out)/reference-\(variant.rawValue).png"
            try PNGEncoder.write(pixmap.view, to: path)
            written.append(path)
        }
        let gridPath = "\(out)/gallery.png"
        try PNGEncoder.write(Gallery.grid(Gallery.primitives).view, to: gridPath)
        written.append(gridPath)
        for item in Gallery.primitives {
            try PNGEncoder.write(Gallery.render(item).view, to: "\(out)/primitives/\(item.name).png")
        }
        written.append("\(out)/primitives/ (\(Gallery.primitives.count) files)")
        print("SplashHUD demo: wrote")
        for w in written { print("  \(w)") }
    }
}
