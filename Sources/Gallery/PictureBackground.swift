// What shows through a picture's transparent pixels: the image viewers' checkerboard by default,
// or a solid colour (`--background checker|black|white|#rrggbb`), drawn under the picture.
import Foundation
import Raster
import ScrollKit

/// The backdrop of transparent pictures.
///
/// The checkerboard follows eog (its scroll view's `CHECK_MEDIUM` pattern): 8-point squares of
/// #808080 and #CCCCCC that keep their size on screen at every zoom and start at the picture's
/// top-left corner, so they move with the picture when it pans. Squares of constant screen
/// size read as "background", not as part of the picture, at any zoom; and drawn under the
/// picture view rather than into its tiles, they stay sharp (the picture's tiles are scaled
/// from power-of-two levels between zooms) and stay cached while an animation redraws its
/// frames over them.
public enum PictureBackground: Hashable, Sendable {
    /// Grey and light grey squares (the default).
    case checkerboard
    /// A solid colour.
    case color(Color)

    /// 8 pt: the side of a checkerboard square (eog's CHECK_MEDIUM, in points).
    public static let squareSide = 8.0
    /// #808080 and #CCCCCC: eog's CHECK_GRAY and CHECK_LIGHT. A black logo shows on both, and so
    /// does a white one on the darker.
    public static let darkSquare = Color(rgb: 0x808080)
    public static let lightSquare = Color(rgb: 0xCCCCCC)

    /// Parses what `--background` takes: `checker`, `black`, `white` or `#rrggbb` (six hex
    /// digits, either case). Nil for anything else.
    public init?(argument: String) {
        switch argument.lowercased() {
        case "checker", "checkerboard": self = .checkerboard
        case "black": self = .color(.black)
        case "white": self = .color(.white)
        default:
            let digits = argument.utf8.dropFirst()
            guard argument.utf8.first == UInt8(ascii: "#"), digits.count == 6,
                  digits.allSatisfy({ Self.isHexDigit($0) }), let rgb = UInt32(String(argument.dropFirst()), radix: 16) else {
                return nil
            }
            self = .color(Color(rgb: rgb))
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// The line `--background` prints for an argument it cannot read.
    public static func invalidArgumentMessage(_ argument: String) -> String {
        "--background must be checker, black, white or #rrggbb (six hex digits, e.g. #1e1e1e), not '\(argument)'"
    }

    /// A view to lay under a transparent picture: the checkerboard, or a plain view filled
    /// with the colour.
    func makeView() -> View {
        switch self {
        case .checkerboard:
            return CheckerboardView()
        case .color(let color):
            let view = View()
            view.backgroundColor = color
            return view
        }
    }
}

/// The checkerboard: squares of `PictureBackground.squareSide` points, the first (dark) one at
/// the view's top-left, painted into each frame at the device scale (whole device pixels a
/// square) rather than cut into tiles, which held 9 MB under a picture fitted to 1620×1080.
final class CheckerboardView: View, PatternContent {
    init() {
        super.init(frame: .zero)
        isUserInteractionEnabled = false
    }

    let pattern = CheckerPattern(first: PictureBackground.darkSquare.premultipliedARGB,
                                 second: PictureBackground.lightSquare.premultipliedARGB, side: PictureBackground.squareSide)
}
