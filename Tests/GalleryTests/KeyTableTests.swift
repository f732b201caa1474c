// The key table is the one source of the viewer's keys: each of its keys gives its row's command
// where the row applies and nothing elsewhere, no key means two things, and the help overlay and
// `--help` list exactly its rows.
import Foundation
import Gallery
import ScrollKit
import Testing
import TestSupport

@Suite("Gallery key table")
struct KeyTableTests {
    static let contexts = [GalleryKeyBindings.Context(isKiosk: false), GalleryKeyBindings.Context(isKiosk: true),
                           GalleryKeyBindings.Context(isKiosk: true, showsInformation: true)]

    @Test("Every key of the table gives its own command where its row applies, and nothing where it does not",
          arguments: contexts)
    func tableGivesCommands(context: GalleryKeyBindings.Context) {
        for binding in GalleryKeyBindings.bindings {
            for press in binding.presses {
                let command = GalleryKeyBindings.command(forKey: press.key, modifiers: press.modifiers, context: context)
                #expect(command == (binding.isAvailable(in: context) ? press.command : nil), "\(press.label) in \(context)")
            }
        }
        // Where each row applies.
        func available(_ command: GalleryCommand) -> Bool {
            GalleryKeyBindings.bindings.first { $0.presses.contains { $0.command == command } }!.isAvailable(in: context)
        }
        #expect(available(.quit) == !context.isKiosk && available(.toggleFullscreen) == !context.isKiosk)
        #expect(available(.toggleInfo) == context.showsInformation && available(.toggleHelp) == context.showsInformation)
        #expect(available(.next))
    }

    @Test("No key and modifiers appear twice; Shift+Space goes back where Space goes on")
    func noAmbiguity() {
        var seen: [String: String] = [:]
        for binding in GalleryKeyBindings.bindings {
            for press in binding.presses {
                let id = "\(press.key) \(press.modifiers.rawValue)"
                #expect(seen[id] == nil, "\(press.label) is in \"\(seen[id] ?? "")\" and \"\(binding.summary)\"")
                seen[id] = binding.summary
            }
        }
        let desktop = GalleryKeyBindings.Context(isKiosk: false)
        #expect(GalleryKeyBindings.command(forKey: .space, modifiers: [.shift], context: desktop) == .previous)
        #expect(GalleryKeyBindings.command(forKey: .space, modifiers: [], context: desktop) == .next)
        // Other modifiers held do not change a key (Ctrl+0 fits); Alt and the logo key belong to the desktop.
        #expect(GalleryKeyBindings.command(forKey: .character("0"), modifiers: [.ctrl], context: desktop) == .zoomToFit)
        #expect(GalleryKeyBindings.command(forKey: .character("i"), modifiers: [.alt], context: desktop) == nil)
    }

    @Test("The help lists the table's rows that apply, then the gestures; --help's text has a line for each")
    func helpFromTable() {
        for context in Self.contexts {
            let rows = GalleryKeyBindings.helpRows(in: context)
            let applying = GalleryKeyBindings.bindings.filter { $0.isAvailable(in: context) }
            #expect(rows.count == applying.count + GalleryKeyBindings.gestures.count)
            #expect(zip(rows, applying).allSatisfy { $0.keys == $1.keysLabel && $0.summary == $1.summary })
            let text = GalleryKeyBindings.helpText(in: context).split(separator: "\n")
            #expect(text.count == rows.count)
            for (line, row) in zip(text, rows) {
                #expect(line.hasSuffix(row.summary) && line.contains(row.keys.replacingOccurrences(of: "\u{A0}", with: " ")))
            }
        }
        // Key names as people read them, each once per row.
        let desktop = GalleryKeyBindings.helpRows(in: GalleryKeyBindings.Context(isKiosk: false))
        #expect(desktop.contains { $0.keys == "Page\u{A0}Up  Backspace  Shift+Space" && $0.summary == "Previous picture" })
        #expect(desktop.contains { $0.keys == "F  F11" } && desktop.contains { $0.keys == "?  H" })
        #expect(!GalleryKeyBindings.helpRows(in: GalleryKeyBindings.Context(isKiosk: true)).contains { $0.keys == "Q" })
    }

    @Test("The README's key and gesture tables are the key table's rows")
    func readmeTables() throws {
        let readme = try String(contentsOf: PackagePaths.packageRoot().appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        /// The rows of the table whose header is `header`, as their cells.
        func table(_ header: String) -> [[String]] {
            guard let start = lines.firstIndex(of: header) else { return [] }
            return lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map { line in
                line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            }
        }
        let keys = GalleryKeyBindings.bindings.map { binding -> [String] in
            let label = binding.keysLabel.replacingOccurrences(of: "\u{A0}", with: " ").replacingOccurrences(of: "  ", with: ", ")
            let kiosk: String
            switch binding.scope {
            case .always: kiosk = "yes"
            case .desktop: kiosk = "no"
            case .information: kiosk = "with `--show-info`"
            }
            return [label, binding.summary, kiosk]
        }
        #expect(table("| Keys | What they do | In a kiosk |") == keys)
        #expect(table("| Gestures | What they do |") == GalleryKeyBindings.gestures.map { [$0.gesture, $0.summary] })
    }
}
