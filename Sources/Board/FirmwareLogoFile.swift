// SPDX-License-Identifier: MIT
// `logo = firmware`: the boot logo the firmware published in ACPI's BGRT, as the kernel exposes it
// (drivers/acpi/bgrt.c; Documentation/ABI/testing/sysfs-firmware-acpi): `status` (bit 0: on the
// screen; bits 1-2: how it is turned), `type` (0: BMP), `xoffset`, `yoffset` and the `image`.
// Each file is read with a size limit and each value checked: firmware tables are not to be trusted,
// so anything odd is a reason for no logo, never a crash.
import Assets
import HUD
import Images
import LinuxSystem
import Raster

public enum FirmwareLogoFile {
    /// Where the kernel puts the BGRT.
    public static let sysfsDirectory = "/sys/firmware/acpi/bgrt"
    /// The largest image read (a firmware logo is tens of kilobytes; 32 MiB holds a full 4K BMP).
    public static let maxImageBytes: UInt64 = 32 << 20

    /// Why there is no firmware logo to draw.
    public enum Absence: Error, Equatable, CustomStringConvertible {
        /// No BGRT: no ACPI, no logo published, or `bgrt_disable` on the kernel command line.
        case none(directory: String)
        /// The firmware says the logo is not on the screen (`status` bit 0 clear).
        case notShown(status: UInt32)
        /// A file is missing, unreadable or holds what a BGRT cannot.
        case invalid(String)

        public var description: String {
            switch self {
            case .none(let d): return "the firmware published no boot logo (no \(d): no ACPI BGRT, or bgrt_disable)"
            case .notShown(let s): return "the firmware says its boot logo is not on the screen (BGRT status \(s))"
            case .invalid(let why): return "the firmware's boot logo cannot be shown: \(why)"
            }
        }
    }

    /// The firmware's logo in `directory`.
    public static func read(directory: String = sysfsDirectory) -> Result<FirmwareLogo, Absence> {
        Result { () throws(Absence) in try load(directory) }
    }

    private static func load(_ directory: String) throws(Absence) -> FirmwareLogo {
        guard (try? Files.status(atPath: directory)) != nil else { throw .none(directory: directory) }
        let status = try number(directory, "status", max: 0xFF)
        guard status & 1 == 1 else { throw .notShown(status: status) }
        let type = try number(directory, "type", max: 0xFF)
        guard type == 0 else { throw .invalid("BGRT image type \(type), not a BMP (0)") }
        let x = try number(directory, "xoffset", max: 32767), y = try number(directory, "yoffset", max: 32767)
        let bytes: [UInt8]
        do { bytes = try AssetFile.read(directory + "/image", maxBytes: maxImageBytes) } catch {
            throw .invalid("\(directory)/image: \(error.reason)")
        }
        let image: Pixmap
        do { image = try BMPDecoder.decode(bytes) } catch { throw .invalid("\(directory)/image: \(error)") }
        // Bits 1-2: 1 is 90° counter-clockwise, 3 is 90° clockwise (Rotation turns clockwise).
        let orientation: Rotation = [.r0, .r270, .r180, .r90][Int(status >> 1 & 3)]
        return FirmwareLogo(image: image, x: Int32(x), y: Int32(y), orientation: orientation)
    }

    /// The decimal number in `directory/name`, at most `max`.
    private static func number(_ directory: String, _ name: String, max: UInt32) throws(Absence) -> UInt32 {
        let path = directory + "/" + name
        let bytes: [UInt8]
        do { bytes = try AssetFile.read(path, maxBytes: 4096) } catch { throw .invalid("\(path): \(error.reason)") }
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace
        guard let value = UInt32(text), value <= max else { throw .invalid("\(path) holds '\(text.prefix(32))', not a number from 0 to \(max)") }
        return value
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
