// The viewer's keys as one table: which keys do what, which ones a kiosk ignores, and the words
// the help overlay and `image-viewer --help` show for them, so handling and help cannot drift.
import Foundation
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
    /// Shows the page overlay (name, position, zoom) again for a moment.
    case showPageOverlay
    /// The information panel on or off.
    case toggleInfo
    /// The help overlay on or off.
    case toggleHelp
    /// Pause the slideshow, or resume it.
    case toggleSlideshow
    /// Animations stop where they are, or play on.
    case toggleAnimation
    /// The previous page of a multi-page file (a TIFF's directories, a HEIF's images).
    case previousFilePage
    /// The next page of a multi-page file.
    case nextFilePage
    /// Fullscreen on or off.
    case toggleFullscreen
    /// Leave fullscreen (nothing when not fullscreen).
    case leaveFullscreen
    /// Quit the viewer.
    case quit
}

/// One row of the key table: keys that belong together (Left and Right), each with its
/// command, and what the row does in words.
public struct GalleryKeyBinding: Sendable {
    /// One key of the row: pressed with at least `modifiers` held, it gives `command`.
    public struct Press: Sendable {
        /// The key.
        public let key: Key
        /// Modifiers that must be held (others may be: Ctrl+0 is 0).
        public let modifiers: InputEvent.Modifiers
        /// What it does.
        public let command: GalleryCommand

        /// How the help names the key: "Page Up", "Shift+Space", "F11", "Q" (a name of two words
        /// joined by a no-break space, so the help wraps between keys, not inside one).
        public var label: String {
            let name: String
            switch key {
            case .up: name = "Up"
            case .down: name = "Down"
            case .left: name = "Left"
            case .right: name = "Right"
            case .pageUp: name = "Page\u{A0}Up"
            case .pageDown: name = "Page\u{A0}Down"
            case .home: name = "Home"
            case .end: name = "End"
            case .space: name = "Space"
            case .enter: name = "Enter"
            case .tab: name = "Tab"
            case .backspace: name = "Backspace"
            case .delete: name = "Delete"
            case .insert: name = "Insert"
            case .escape: name = "Esc"
            case .function(let n): name = "F\(n)"
            case .control: name = "Ctrl"
            case .shift: name = "Shift"
            case .alt: name = "Alt"
            case .logo: name = "Super"
            // A lone comma or full stop is lost between the help's separators: named.
            case .character(","): name = "Comma"
            case .character("."): name = "Period"
            // Letters as keycaps show them; f and F are the same key to a reader.
            case .character(let text): name = text.uppercased()
            case .other(let keysym): name = keysym
            }
            return (modifiers.contains(.ctrl) ? "Ctrl+" : "") + (modifiers.contains(.shift) ? "Shift+" : "") + name
        }
    }

    /// When the row's keys work.
    public enum Scope: Sendable {
        /// Always.
        case always
        /// Not in a kiosk: quitting and window keys (a kiosk stays up and fullscreen).
        case desktop
        /// Where the viewer shows on-screen information (not in a kiosk unless asked for).
        case information
    }

    /// The keys of the row.
    public let presses: [Press]
    /// What the row does, for the help.
    public let summary: String
    /// When its keys work.
    public let scope: Scope

    /// The row's keys as the help shows them, each name once: "Page Down  Space".
    public var keysLabel: String {
        var seen = Set<String>()
        return presses.map(\.label).filter { seen.insert($0).inserted }.joined(separator: "  ")
    }

    /// Whether the row's keys work in `context`.
    public func isAvailable(in context: GalleryKeyBindings.Context) -> Bool {
        switch scope {
        case .always: true
        case .desktop: !context.isKiosk
        case .information: context.showsInformation
        }
    }
}

/// The viewer's key table and the gestures beside it.
public enum GalleryKeyBindings {
    /// What decides which keys work: kiosk mode and whether on-screen information is shown.
    public struct Context: Hashable, Sendable {
        /// A kiosk ignores the quit and window keys.
        public var isKiosk: Bool
        /// Whether the page overlay, information panel and help may show.
        public var showsInformation: Bool

        /// A context; information shows except in a kiosk unless `showsInformation` says so.
        public init(isKiosk: Bool, showsInformation: Bool? = nil) {
            self.isKiosk = isKiosk
            self.showsInformation = showsInformation ?? !isKiosk
        }
    }

    private static func press(_ key: Key, _ command: GalleryCommand, _ modifiers: InputEvent.Modifiers = [])
        -> GalleryKeyBinding.Press {
        GalleryKeyBinding.Press(key: key, modifiers: modifiers, command: command)
    }

    private static func row(_ presses: [GalleryKeyBinding.Press], _ summary: String,
                            _ scope: GalleryKeyBinding.Scope = .always) -> GalleryKeyBinding {
        GalleryKeyBinding(presses: presses, summary: summary, scope: scope)
    }

    /// Every key the gallery uses, in the order the help lists them.
    public static let bindings: [GalleryKeyBinding] = [
        row([press(.left, .arrow(dx: -1, dy: 0)), press(.right, .arrow(dx: 1, dy: 0))],
            "Previous or next picture; pan when zoomed"),
        row([press(.up, .arrow(dx: 0, dy: -1)), press(.down, .arrow(dx: 0, dy: 1))], "Pan a zoomed picture"),
        row([press(.pageUp, .previous), press(.backspace, .previous), press(.space, .previous, .shift)], "Previous picture"),
        row([press(.pageDown, .next), press(.space, .next)], "Next picture"),
        row([press(.home, .first), press(.end, .last)], "First or last picture"),
        // "=" shares the plus key on most layouts, so unshifted it zooms in too; "_" likewise.
        row([press(.character("+"), .zoomIn), press(.character("="), .zoomIn),
             press(.character("-"), .zoomOut), press(.character("_"), .zoomOut)], "Zoom in or out"),
        row([press(.character("0"), .zoomToFit)], "Fit the picture to the window"),
        row([press(.character("1"), .zoomToActualSize)], "One picture pixel per screen pixel"),
        // swayimg's keys: [ and F5 turn anticlockwise, ] and F6 clockwise, F7 flips top to
        // bottom, F8 left to right.
        row([press(.character("["), .rotateLeft), press(.function(5), .rotateLeft)], "Turn a quarter anticlockwise"),
        row([press(.character("]"), .rotateRight), press(.function(6), .rotateRight)], "Turn a quarter clockwise"),
        row([press(.function(7), .flipVertical)], "Flip top to bottom"),
        row([press(.function(8), .flipHorizontal)], "Flip left to right"),
        row([press(.character("p"), .toggleSlideshow), press(.character("P"), .toggleSlideshow)], "Pause or resume the slideshow"),
        // swayimg's keys: S or F4 starts and stops animations, F2 and F3 step through a file's
        // frames (here its pages). , and . (< and > with Shift) are the same pair where no
        // function row is at hand; Page Up and Page Down already turn pictures.
        row([press(.character("s"), .toggleAnimation), press(.character("S"), .toggleAnimation),
             press(.function(4), .toggleAnimation)], "Pause or play animations (GIF, WebP)"),
        row([press(.function(2), .previousFilePage), press(.character(","), .previousFilePage),
             press(.character("<"), .previousFilePage)], "Previous page of a multi-page TIFF or HEIF"),
        row([press(.function(3), .nextFilePage), press(.character("."), .nextFilePage),
             press(.character(">"), .nextFilePage)], "Next page of a multi-page TIFF or HEIF"),
        row([press(.character("o"), .showPageOverlay), press(.character("O"), .showPageOverlay)],
            "Show the name, position and zoom", .information),
        row([press(.character("i"), .toggleInfo), press(.character("I"), .toggleInfo)],
            "Information: file, camera, exposure, place", .information),
        row([press(.character("?"), .toggleHelp), press(.character("h"), .toggleHelp), press(.character("H"), .toggleHelp)],
            "This help", .information),
        row([press(.character("f"), .toggleFullscreen), press(.character("F"), .toggleFullscreen),
             press(.function(11), .toggleFullscreen)], "Fullscreen on or off", .desktop),
        row([press(.escape, .leaveFullscreen)], "Leave fullscreen", .desktop),
        row([press(.character("q"), .quit), press(.character("Q"), .quit)], "Quit", .desktop),
    ]

    /// The pointer, touch and touchpad gestures (ScrollKit's scroll views handle them), for the help.
    public static let gestures: [(gesture: String, summary: String)] = [
        ("Swipe, drag, wheel", "Next or previous picture; pan when zoomed"),
        ("Pinch, Ctrl+wheel", "Zoom around the fingers or the pointer"),
        ("Double-tap, double-click", "Zoom to 1:1 there, or back to the fit"),
        ("Touchpad: two fingers", "Scroll; pinch to zoom"),
    ]

    /// The command for a press of `key` with `modifiers` held in `context`, or nil for keys the
    /// gallery does not use there. Keys held with Alt or the logo key belong to the desktop's
    /// shortcuts. Where two presses of the table match (Space, Shift+Space), the one asking
    /// for more modifiers wins.
    public static func command(forKey key: Key, modifiers: InputEvent.Modifiers, context: Context) -> GalleryCommand? {
        guard !modifiers.contains(.alt), !modifiers.contains(.logo) else { return nil }
        var best: GalleryKeyBinding.Press?
        for binding in bindings where binding.isAvailable(in: context) {
            for press in binding.presses where press.key == key && modifiers.isSuperset(of: press.modifiers) {
                if best.map({ press.modifiers.rawValue.nonzeroBitCount > $0.modifiers.rawValue.nonzeroBitCount }) ?? true {
                    best = press
                }
            }
        }
        return best?.command
    }

    /// The command for a press in a desktop window (`kiosk` false) or a kiosk that shows no
    /// information: the quit and window keys (Q, F, F11, Escape) do nothing in a kiosk.
    public static func command(forKey key: Key, modifiers: InputEvent.Modifiers, kiosk: Bool) -> GalleryCommand? {
        command(forKey: key, modifiers: modifiers, context: Context(isKiosk: kiosk))
    }

    /// The help's rows in `context`: each key row that works there, then the gestures, as
    /// (keys, what they do).
    public static func helpRows(in context: Context) -> [(keys: String, summary: String)] {
        bindings.filter { $0.isAvailable(in: context) }.map { ($0.keysLabel, $0.summary) } + gestures.map { ($0.gesture, $0.summary) }
    }

    /// The help as plain text for a terminal: one row per line, keys padded to one column.
    public static func helpText(in context: Context, indent: String = "  ") -> String {
        let rows = helpRows(in: context).map { ($0.keys.replacingOccurrences(of: "\u{A0}", with: " "), $0.summary) }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { indent + $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 }
            .joined(separator: "\n")
    }
}
