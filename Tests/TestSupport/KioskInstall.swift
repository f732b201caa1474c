// The kiosk service installed by Scripts/kiosk/install.sh into a folder standing for the
// system's root, with this build's image-viewer: what the kiosk tests check and run.
import CompositorHarness
import Foundation

/// One run of `Scripts/kiosk/install.sh --root`, and where it put the kiosk's files.
public struct KioskInstall {
    /// The folder standing for `/`.
    public let root: String
    /// The unit, `<root>/etc/systemd/system/scrollkit-kiosk.service`.
    public var unit: String { root + "/etc/systemd/system/scrollkit-kiosk.service" }
    /// The service's PAM file.
    public var pam: String { root + "/etc/pam.d/scrollkit-kiosk" }
    /// The kiosk's settings.
    public var settings: String { root + "/etc/scrollkit/kiosk.conf" }
    /// The folder the settings name for the pictures, inside `root`.
    public var pictures: String { root + "/srv/scrollkit-kiosk/pictures" }
    /// The launcher the unit runs (the installer's default prefix under `root`).
    public var launcher: String { root + "/usr/local/bin/scrollkit-kiosk" }
    /// What the installer wrote on standard output.
    public let output: String

    /// The installer script in this checkout.
    public static var script: URL {
        PackagePaths.packageRoot().appendingPathComponent("Scripts/kiosk/install.sh")
    }

    /// Installs into `root` (an existing folder) with the image-viewer of this build; throws
    /// with the installer's messages when it fails.
    public init(root: String) throws {
        guard let viewer = PackagePaths.builtExecutable("image-viewer") else {
            throw KioskInstallError(description: "image-viewer is not built next to the tests")
        }
        self.root = root
        let run = try runProcess(Self.script, ["--root", root, "--from", viewer.deletingLastPathComponent().path])
        guard run.status == 0 else {
            throw KioskInstallError(description: "install.sh --root \(root) failed (\(run.status)): \(run.stdout)\(run.stderr)")
        }
        output = run.stdout
    }

    /// The unit's ExecStart command line as systemd splits it: words separated by blanks, a
    /// word in double quotes kept whole (the installer quotes the launcher's path).
    public func execStart() throws -> [String] {
        let text = try String(contentsOfFile: unit, encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ExecStart=") }) else {
            throw KioskInstallError(description: "no ExecStart= in \(unit)")
        }
        var words: [String] = [], word = "", quoted = false, inWord = false
        for character in line.dropFirst("ExecStart=".count) {
            if character == "\"" {
                quoted.toggle()
                inWord = true
            } else if character == " " && !quoted {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    /// Replaces the value of setting `name` in the installed settings, as an operator edits them.
    public func set(_ name: String, _ value: String) throws {
        let text = try String(contentsOfFile: settings, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let index = lines.firstIndex(where: { $0.hasPrefix(name + "=") }) else {
            throw KioskInstallError(description: "\(name) is not in \(settings)")
        }
        lines[index] = name + "=" + value
        try lines.joined(separator: "\n").write(toFile: settings, atomically: true, encoding: .utf8)
    }
}

/// Why a kiosk install for a test failed.
public struct KioskInstallError: Error, CustomStringConvertible {
    /// The installer's messages.
    public let description: String
}
