// The viewer's keys: which keys do what, and which ones a kiosk ignores.
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
    /// Turn the picture a quarter turn anticlockwise (on top of its EXIF orientation).
    case rotateLeft
    /// Turn the picture a quarter turn clockwise.
    case rotateRight
    /// Mirror the picture left to right.
    case flipHorizontal
    /// Mirror the picture top to bottom.
    case flipVertical
    /// Fullscreen on or off.
    case toggleFullscreen
    /// Leave fullscreen (nothing when not fullscreen).
    case leaveFullscreen
    /// Quit the viewer.
    case quit
}

/// Maps key presses to gallery commands.
public enum GalleryKeyBindings {
    /// The command for a press of `key` with `modifiers` held, or nil for keys the gallery does
    /// not use. Keys held with Alt or the logo key belong to the desktop's shortcuts. In kiosk
    /// mode the quit and window keys (Q, F, F11, Escape) do nothing: a kiosk stays up and
    /// fullscreen.
    public static func command(forKey key: Key, modifiers: InputEvent.Modifiers, kiosk: Bool) -> GalleryCommand? {
        guard !modifiers.contains(.alt), !modifiers.contains(.logo) else { return nil }
        switch key {
        case .left: return .arrow(dx: -1, dy: 0)
        case .right: return .arrow(dx: 1, dy: 0)
        case .up: return .arrow(dx: 0, dy: -1)
        case .down: return .arrow(dx: 0, dy: 1)
        case .pageUp, .backspace: return .previous
        case .pageDown: return .next
        case .space: return modifiers.contains(.shift) ? .previous : .next
        case .home: return .first
        case .end: return .last
        // "=" shares the plus key on most layouts, so unshifted it zooms in too.
        case .character("+"), .character("="): return .zoomIn
        case .character("-"), .character("_"): return .zoomOut
        case .character("0"): return .zoomToFit
        case .character("1"): return .zoomToActualSize
        // swayimg's keys: [ and F5 turn anticlockwise, ] and F6 clockwise, F7 flips top to
        // bottom, F8 left to right.
        case .character("["), .function(5): return .rotateLeft
        case .character("]"), .function(6): return .rotateRight
        case .function(7): return .flipVertical
        case .function(8): return .flipHorizontal
        case .character("f"), .character("F"), .function(11): return kiosk ? nil : .toggleFullscreen
        case .escape: return kiosk ? nil : .leaveFullscreen
        case .character("q"), .character("Q"): return kiosk ? nil : .quit
        default: return nil
        }
    }
}
