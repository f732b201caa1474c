// Pointer cursors from the user's cursor theme through libwayland-cursor: which theme and
// size (pure, from XCURSOR_THEME/XCURSOR_SIZE), and the cursor surface shown on our window.
import CWaylandClient
import CWaylandCursor
import CWaylandProtocols
import Foundation

/// The cursor images the viewer uses.
public enum CursorShape: String, CaseIterable, Sendable {
    /// The default arrow.
    case arrow
    /// An open hand: the content under the pointer can be dragged.
    case openHand
    /// A closed hand: the content is being dragged.
    case closedHand
    /// No cursor at all (kiosks).
    case hidden

    /// Theme cursor names to try, best first: the CSS/freedesktop name, then the X11 core
    /// or legacy names older themes ship (Adwaita has all; DMZ has left_ptr, openhand…).
    public var themeNames: [String] {
        switch self {
        case .arrow: return ["default", "left_ptr"]
        case .openHand: return ["grab", "openhand", "hand1"]
        case .closedHand: return ["grabbing", "closedhand", "fleur"]
        case .hidden: return []
        }
    }
}

/// Which cursor theme to load and at what size, as the environment says.
public struct CursorSettings: Equatable, Sendable {
    /// 24 px: the cursor size when XCURSOR_SIZE is unset or unusable (libwayland-cursor's,
    /// GTK's and Qt's default).
    public static let defaultSize = 24
    /// Accepted XCURSOR_SIZE values, in pixels at scale 1 (beyond 256 a cursor covers the
    /// content; a hostile value must not make us load huge images).
    public static let sizeRange = 8...256
    /// Accepted output scales for cursors: wl_output.scale beyond 8 is garbage.
    public static let scaleRange = 1...8

    /// The theme name (XCURSOR_THEME), nil for libwayland-cursor's default theme.
    public var themeName: String?
    /// Nominal cursor size in pixels at scale 1.
    public var size: Int

    /// Settings from `XCURSOR_THEME` and `XCURSOR_SIZE` in `environment`.
    public init(environment: [String: String]) {
        let theme = environment["XCURSOR_THEME"]?.trimmingCharacters(in: .whitespaces)
        themeName = theme?.isEmpty == false ? theme : nil
        if let text = environment["XCURSOR_SIZE"], let value = Int(text.trimmingCharacters(in: .whitespaces)),
           Self.sizeRange.contains(value) {
            size = value
        } else {
            size = Self.defaultSize
        }
    }

    /// The theme's pixel size for an output of integer `scale` (clamped to `scaleRange`).
    public func pixelSize(scale: Int) -> Int { size * Self.clampScale(scale) }

    /// `scale` within `scaleRange`.
    public static func clampScale(_ scale: Int) -> Int { min(max(scale, scaleRange.lowerBound), scaleRange.upperBound) }
}

/// One loaded image of a cursor: its buffer (owned by the theme) and geometry in pixels.
struct CursorImage {
    let buffer: OpaquePointer
    let width: Int32, height: Int32
    let hotspotX: Int32, hotspotY: Int32
}

/// A libwayland-cursor theme at one pixel size.
final class CursorTheme {
    let scale: Int
    private let theme: OpaquePointer
    private var cache: [CursorShape: CursorImage?] = [:]

    /// Loads the theme for `scale`, nil when libwayland-cursor cannot.
    init?(settings: CursorSettings, scale: Int, shm: OpaquePointer) {
        let scale = CursorSettings.clampScale(scale)
        let size = Int32(settings.pixelSize(scale: scale))
        let loaded: OpaquePointer?
        if let name = settings.themeName {
            loaded = name.withCString { wl_cursor_theme_load($0, size, shm) }
        } else {
            loaded = wl_cursor_theme_load(nil, size, shm)
        }
        guard let loaded else { return nil }
        self.theme = loaded
        self.scale = scale
    }

    deinit { wl_cursor_theme_destroy(theme) }

    /// The first image of the first name the theme has for `shape`; animation is ignored,
    /// since the shapes used here are still in every theme.
    func image(for shape: CursorShape) -> CursorImage? {
        if let cached = cache[shape] { return cached }
        var found: CursorImage?
        for name in shape.themeNames {
            guard let cursor = wl_cursor_theme_get_cursor(theme, name), cursor.pointee.image_count > 0,
                  let images = cursor.pointee.images, let image = images[0],
                  let buffer = wl_cursor_image_get_buffer(image) else { continue }
            let i = image.pointee
            found = CursorImage(buffer: buffer, width: Int32(clamping: i.width), height: Int32(clamping: i.height),
                                hotspotX: Int32(clamping: i.hotspot_x), hotspotY: Int32(clamping: i.hotspot_y))
            break
        }
        cache[shape] = .some(found)
        return found
    }
}

/// The surface that shows our cursor while the pointer is over the window.
final class CursorSurface {
    /// Kept so the connection outlives the surface and theme buffers destroyed in deinit.
    private let display: Display
    private let surface: OpaquePointer
    private let settings: CursorSettings
    private let shm: OpaquePointer
    private var theme: CursorTheme?
    private var themeFailed: Int?

    /// Creates the surface, nil when the compositor lacks wl_compositor or wl_shm.
    init?(display: Display, settings: CursorSettings) {
        guard let compositor = display.globals.compositor, let shm = display.globals.shm,
              let surface = wl_compositor_create_surface(compositor) else { return nil }
        self.display = display
        self.surface = surface
        self.shm = shm
        self.settings = settings
    }

    deinit {
        theme = nil  // its buffers go before the connection does
        wl_surface_destroy(surface)
    }

    /// Shows `shape` for `pointer`, whose latest `enter` had `serial`, at output `scale`.
    /// Returns false when the theme has no image for the shape (the caller may fall back).
    @discardableResult
    func show(_ shape: CursorShape, pointer: OpaquePointer, serial: UInt32, scale: Int) -> Bool {
        guard shape != .hidden else {
            wl_pointer_set_cursor(pointer, serial, nil, 0, 0)
            return true
        }
        guard let image = loadTheme(scale: scale)?.image(for: shape) else { return false }
        var scale = Int32(theme?.scale ?? 1)
        // A theme lacking the scaled size hands out the nearest one, whose sides may not be
        // multiples of the scale, which wl_surface forbids (invalid_size): show it unscaled.
        if image.width % scale != 0 || image.height % scale != 0 { scale = 1 }
        // wl_surface.set_buffer_scale: the compositor shows the scale-times larger image at
        // the nominal size, sharp on HiDPI outputs; the hotspot is in surface coordinates.
        wl_surface_set_buffer_scale(surface, scale)
        wl_surface_attach(surface, image.buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, image.width, image.height)
        wl_surface_commit(surface)
        wl_pointer_set_cursor(pointer, serial, surface, image.hotspotX / scale, image.hotspotY / scale)
        return true
    }

    private func loadTheme(scale: Int) -> CursorTheme? {
        let wanted = CursorSettings.clampScale(scale)
        if let theme, theme.scale == wanted { return theme }
        // A theme that failed to load at this scale is not retried on every pointer event.
        guard themeFailed != wanted else { return nil }
        theme = CursorTheme(settings: settings, scale: wanted, shm: shm)
        themeFailed = theme == nil ? wanted : nil
        return theme
    }
}
