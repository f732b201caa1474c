// The viewer's keys: which xkbcommon keysym names do what, and which ones a kiosk ignores.
import ScrollKit

/// What a key press asks the gallery to do.
public enum GalleryCommand: Hashable, Sendable {
    /// The previous image.
    case previous
    /// The next image.
    case next
    /// The first image.
    case first
    /// The last image.
    case last
    /// An arrow key: pans a zoomed image that can still move that way, otherwise Left and
    /// Right turn the page. `dx`, `dy` are −1, 0 or 1 in screen directions.
    case arrow(dx: Int, dy: Int)
    /// Zoom in one step.
    case zoomIn
    /// Zoom out one step.
    case zoomOut
    /// Back to the fit.
    case zoomToFit
    /// One image pixel per device pixel.
    case zoomToActualSize
    /// Fullscreen on or off.
    case toggleFullscreen
    /// Leave fullscreen (nothing when not fullscreen).
    case leaveFullscreen
    /// Quit the viewer.
    case quit
}

/// Maps key presses to gallery commands.
public enum GalleryKeyMap {
    /// The command for a press of the key named `name` (an xkbcommon keysym name) with
    /// `modifiers` held, or nil for keys the gallery does not use. Keys held with Alt or the
    /// logo key belong to the desktop's shortcuts. In kiosk mode the quit and window keys
    /// (Q, F, F11, Escape) do nothing: a kiosk stays up and fullscreen.
    public static func command(forKey name: String, modifiers: InputEvent.Modifiers, kiosk: Bool) -> GalleryCommand? {
        guard !modifiers.contains(.alt), !modifiers.contains(.logo) else { return nil }
        switch name {
        case "Left", "KP_Left": return .arrow(dx: -1, dy: 0)
        case "Right", "KP_Right": return .arrow(dx: 1, dy: 0)
        case "Up", "KP_Up": return .arrow(dx: 0, dy: -1)
        case "Down", "KP_Down": return .arrow(dx: 0, dy: 1)
        case "Prior", "Page_Up", "KP_Prior", "KP_Page_Up", "BackSpace": return .previous
        case "Next", "Page_Down", "KP_Next", "KP_Page_Down": return .next
        case "space", "KP_Space": return modifiers.contains(.shift) ? .previous : .next
        case "Home", "KP_Home": return .first
        case "End", "KP_End": return .last
        // "=" shares the plus key on most layouts, so unshifted it zooms in too.
        case "plus", "KP_Add", "equal": return .zoomIn
        case "minus", "KP_Subtract", "underscore": return .zoomOut
        case "0", "KP_0": return .zoomToFit
        case "1", "KP_1": return .zoomToActualSize
        case "f", "F", "F11": return kiosk ? nil : .toggleFullscreen
        case "Escape": return kiosk ? nil : .leaveFullscreen
        case "q", "Q": return kiosk ? nil : .quit
        default: return nil
        }
    }
}
