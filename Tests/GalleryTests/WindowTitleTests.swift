// The window title names what is shown: the file and its place, escaped and shortened as a title
// bar can show it, and reported to the host on every page change.
import Foundation
import Gallery
import Testing

@Suite("Window title")
struct WindowTitleTests {
    @Test("Name, place and application; no count for one file; a gallery without files says so")
    func format() {
        #expect(WindowTitle.gallery(file: "/home/ann/Pictures/sunset.png", index: 0, count: 5) == "sunset.png (1/5) — ScrollKit")
        #expect(WindowTitle.gallery(file: "relative/dir/b.jpg", index: 1, count: 2) == "b.jpg (2/2) — ScrollKit")
        #expect(WindowTitle.gallery(file: "only.webp", index: 0, count: 1) == "only.webp — ScrollKit")
        #expect(WindowTitle.gallery(file: nil, index: 0, count: 0) == "No pictures — ScrollKit")
        #expect(WindowTitle.showing("Test card") == "Test card — ScrollKit")
    }

    @Test("Control characters are escaped; a name the viewer reached through an alias keeps its escapes")
    func hostileNames() {
        // ESC [ 3 1 m would recolour a terminal; a newline would forge a second line in a task list.
        #expect(WindowTitle.displayName(ofPath: "/tmp/red\u{1B}[31m.png") == "red\\x1B[31m.png")
        #expect(WindowTitle.displayName(ofPath: "/tmp/two\nlines.png") == "two\\nlines.png")
        #expect(WindowTitle.displayName(ofPath: "/tmp/c1\u{9B}.png") == "c1\\u{9B}.png")
        // A Latin-1 name reaches the gallery as an alias whose last component is already escaped.
        #expect(WindowTitle.displayName(ofPath: "/tmp/scrollkit-names-x/1/caf\\xE9.png") == "caf\\xE9.png")
        #expect(WindowTitle.displayName(ofPath: "/tmp/Urlaub ünïcödé 写真.jpg") == "Urlaub ünïcödé 写真.jpg")
    }

    @Test("A long name keeps its start and extension around an ellipsis, at most 80 characters")
    func longNames() {
        let long = String(repeating: "a", count: 150) + "-end.jpeg"
        let shown = WindowTitle.displayName(ofPath: "/p/" + long)
        #expect(shown.count == WindowTitle.maxNameLength)
        #expect(shown.hasPrefix(String(repeating: "a", count: 40) + "…"))
        #expect(shown.hasSuffix("aaa-end.jpeg"))
        let exact = String(repeating: "b", count: 80)
        #expect(WindowTitle.displayName(ofPath: exact) == exact, "80 characters are kept whole")
        // Characters, not bytes: 100 CJK characters (300 bytes) are cut to 80 characters.
        #expect(WindowTitle.displayName(ofPath: String(repeating: "写", count: 100)).count == 80)
    }

    @Test("The gallery reports the new title on every page change, and only then")
    func galleryReportsPageChanges() throws {
        let h = Harness(files: [Assets.sunset, Assets.bubbles, Assets.mosaic])
        var titles: [String] = []
        h.scene.onTitleChange = { titles.append($0) }
        #expect(h.scene.title == "01-sunset.png (1/3) — ScrollKit")
        h.run(Step.key(100, "Right") + Step.key(600, "Right") + Step.key(1100, "Right") + Step.key(1600, "Home"))
        #expect(titles == ["02-bubbles-alpha.png (2/3) — ScrollKit", "03-mosaic-palette.png (3/3) — ScrollKit",
                           "01-sunset.png (1/3) — ScrollKit"],
                "a Right at the last page changes nothing and reports nothing; Home's slide past the second page names only the first")
        // A drag that does not reach the next page's middle springs back: no change, no report.
        titles = []
        h.run(Step.drag(2200, from: CGPoint(x: 600, y: 200), to: CGPoint(x: 450, y: 200), hold: 100))
        #expect(h.scene.currentIndex == 0 && titles.isEmpty, "\(titles)")
    }

    @Test("A gallery opened on one file of its folder is titled by that file; a folder change that alters the count retitles it")
    func startPageAndFolderChanges() {
        let h = Harness(files: [Assets.sunset, Assets.bubbles, Assets.mosaic], startingAt: 2)
        var titles: [String] = []
        h.scene.onTitleChange = { titles.append($0) }
        // Before the first layout (what the window is created with) and after it.
        #expect(h.scene.title == "03-mosaic-palette.png (3/3) — ScrollKit")
        h.run([])
        #expect(h.scene.title == "03-mosaic-palette.png (3/3) — ScrollKit" && titles.isEmpty, "\(titles)")
        // A picture added before the one shown: the same page, one more file, a new place.
        h.scene.replaceFiles([Assets.arrow, Assets.sunset, Assets.bubbles, Assets.mosaic])
        h.run([])
        #expect(titles == ["03-mosaic-palette.png (4/4) — ScrollKit"])
        // The page shown removed: the one before it is shown and named.
        h.scene.replaceFiles([Assets.arrow, Assets.sunset, Assets.bubbles])
        h.run([])
        #expect(titles.last == "02-bubbles-alpha.png (3/3) — ScrollKit" && titles.count == 2, "\(titles)")
        h.scene.replaceFiles([])
        h.run([])
        #expect(titles.last == "No pictures — ScrollKit" && titles.count == 3, "\(titles)")
    }
}
