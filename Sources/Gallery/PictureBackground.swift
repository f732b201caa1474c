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

/// The checkerboard as tiled content: squares of `PictureBackground.squareSide` points, drawn
/// at the device scale the renderer asks for, the first (dark) one at the view's top-left.
final class CheckerboardView: View, TiledContent {
    init() {
        super.init(frame: .zero)
        isUserInteractionEnabled = false
    }

    func draw(_ rect: PixelRect, scale: Double, into target: Framebuffer) {
        Self.draw(rect, scale: scale, into: target)
    }

    /// Fills `target` with the squares content pixels `rect` cover at `scale` device pixels
    /// per point (whole device pixels a square, at least one).
    static func draw(_ rect: PixelRect, scale: Double, into target: Framebuffer) {
        let side = max(1, Int((PictureBackground.squareSide * (scale.isFinite ? scale : 1)).rounded()))
        let dark = PictureBackground.darkSquare.premultipliedARGB, light = PictureBackground.lightSquare.premultipliedARGB
        let w = min(rect.width, target.width), h = min(rect.height, target.height)
        guard w > 0, h > 0 else { return }
        // Square rows and columns that `rect` touches; each square is filled clipped to the target.
        let firstRow = floorDivide(rect.y, side), lastRow = floorDivide(rect.y + h - 1, side)
        let firstColumn = floorDivide(rect.x, side), lastColumn = floorDivide(rect.x + w - 1, side)
        for row in firstRow...lastRow {
            for column in firstColumn...lastColumn {
                let square = PixelRect(x: column * side - rect.x, y: row * side - rect.y, width: side, height: side)
                target.fill(square.intersection(PixelRect(x: 0, y: 0, width: w, height: h)),
                            with: (row + column) & 1 == 0 ? dark : light)
            }
        }
    }

    /// `a / b` rounded towards minus infinity (tiles left of or above the origin have negative
    /// coordinates).
    private static func floorDivide(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    var isOpaqueContent: Bool { true }
    var drawsConcurrently: Bool { true }

    func concurrentDrawing() -> TileDrawing? {
        TileDrawing { rect, scale, target in CheckerboardView.draw(rect, scale: scale, into: target) }
    }
}
