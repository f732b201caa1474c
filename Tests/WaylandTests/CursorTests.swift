// Cursor settings from the environment (XCURSOR_THEME, XCURSOR_SIZE) and the theme names
// each shape tries; loading images needs a compositor's wl_shm and is covered live.
import Foundation
import Testing
@testable import Wayland

@Suite("Cursor settings")
struct CursorTests {
    @Test("Defaults: libwayland-cursor's theme at 24 px")
    func defaults() {
        let s = CursorSettings(environment: [:])
        #expect(s.themeName == nil)
        #expect(s.size == 24)
        #expect(s.pixelSize(scale: 1) == 24)
    }

    @Test("XCURSOR_THEME and XCURSOR_SIZE are honoured, and HiDPI multiplies the size")
    func fromEnvironment() {
        let s = CursorSettings(environment: ["XCURSOR_THEME": "Adwaita", "XCURSOR_SIZE": "32"])
        #expect(s.themeName == "Adwaita")
        #expect(s.size == 32)
        #expect(s.pixelSize(scale: 2) == 64)
        #expect(s.pixelSize(scale: 3) == 96)
    }

    @Test("Unusable values fall back to the defaults; absurd output scales are clamped",
          arguments: ["", "abc", "0", "-24", "100000", "24.5"])
    func badSize(_ value: String) {
        let s = CursorSettings(environment: ["XCURSOR_SIZE": value, "XCURSOR_THEME": "  "])
        #expect(s.size == CursorSettings.defaultSize)
        #expect(s.themeName == nil)
        #expect(s.pixelSize(scale: 0) == 24)
        #expect(s.pixelSize(scale: 1000) == 24 * CursorSettings.scaleRange.upperBound)
    }

    @Test("Each shape asks for the freedesktop name first, then the X11 core names")
    func names() {
        #expect(CursorShape.arrow.themeNames.prefix(2) == ["default", "left_ptr"])
        #expect(CursorShape.openHand.themeNames.first == "grab")
        #expect(CursorShape.openHand.themeNames.contains("openhand"))
        #expect(CursorShape.closedHand.themeNames.first == "grabbing")
        #expect(CursorShape.closedHand.themeNames.contains("closedhand"))
        #expect(CursorShape.hidden.themeNames.isEmpty)
    }
}
