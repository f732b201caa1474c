// The card a page shows instead of its picture when the file cannot be shown (and the gallery
// when there is nothing to show): a rounded panel with a title and a wrapped message.
import Foundation
import Raster
import ScrollKit

/// A rounded panel with a title line and a message, drawn in tiles at any scale.
///
/// Lay it out with `layout(maxWidth:)`: it sizes itself to its text, up to that width in
/// points, and wraps lines (inside over-long words too, as file names can be).
public final class CardView: View, TiledContent {
    /// 2 pt per font dot: 10 × 18 pt glyphs, a comfortable reading size on a 1080p screen
    /// and on a touchscreen kiosk at arm's length (decision).
    public static let dotSize: CGFloat = 2
    /// 24 pt between the panel's edge and its text (decision).
    public static let padding: CGFloat = 24
    /// 12 pt: the panel's corner radius (decision, close to iOS alert corners).
    public static let cornerRadius: CGFloat = 12
    /// 2 pt: the panel's border (decision).
    public static let borderWidth: CGFloat = 2
    /// 12 pt between the title and the message (decision).
    public static let titleGap: CGFloat = 12
    /// 640 pt: the widest panel, so long messages wrap into readable lines (decision).
    public static let maximumWidth: CGFloat = 640

    /// Panel fill: a dark grey that stands out on the black page (premultiplied ARGB).
    static let fillColor: UInt32 = 0xFF2C_2C30
    /// Panel border: a muted red that says "problem" without shouting.
    static let borderColor: UInt32 = 0xFFB0_3A3A
    /// Title text: white.
    static let titleColor: UInt32 = 0xFFFF_FFFF
    /// Message text: light grey.
    static let messageColor: UInt32 = 0xFFC8_C8C8

    /// The first line: the file's name.
    public let title: String
    /// The rest: why it cannot be shown.
    public let message: String

    private var titleLines: [[Character]] = []
    private var messageLines: [[Character]] = []

    /// A card for `title` and `message`; call `layout(maxWidth:)` to size it.
    public init(title: String, message: String) {
        self.title = title
        self.message = message
        super.init(frame: .zero)
        layout(maxWidth: Self.maximumWidth)
    }

    /// Wraps the text for a panel at most `maxWidth` points wide (and never wider than
    /// `maximumWidth`), then sets the bounds' size to fit it; the caller positions the frame.
    public func layout(maxWidth: CGFloat) {
        let dot = Self.dotSize
        let advance = CGFloat(BitmapFont.advance) * dot
        let width = min(max(maxWidth, 2 * Self.padding + advance), Self.maximumWidth)
        let columns = max(Int((width - 2 * Self.padding + dot) / advance), 1)
        titleLines = BitmapFont.wrap(BitmapFont.printable(title), columns: columns)
        messageLines = message.isEmpty ? [] : BitmapFont.wrap(BitmapFont.printable(message), columns: columns)
        let longest = (titleLines + messageLines).map(\.count).max() ?? 0
        let textWidth = CGFloat(longest) * advance - dot
        let lineHeight = CGFloat(BitmapFont.lineHeight) * dot
        let glyphHeight = CGFloat(BitmapFont.glyphHeight) * dot
        let textHeight = CGFloat(titleLines.count + messageLines.count - 1) * lineHeight + glyphHeight
            + (messageLines.isEmpty ? 0 : Self.titleGap)
        let size = CGSize(width: min(max(textWidth + 2 * Self.padding, 0), width).rounded(.up),
                          height: (textHeight + 2 * Self.padding).rounded(.up))
        frame = CGRect(origin: frame.origin, size: size)
        setNeedsDisplay()
    }

    /// The lines as laid out: title lines, then message lines (for tests and logs).
    public var lines: [String] { (titleLines + messageLines).map { String($0) } }

    /// Draws the panel and its text for content pixels `rect` at `scale` device pixels per point.
    public func draw(_ rect: PixelRect, scale: Double, into target: Framebuffer) {
        guard scale > 0, scale.isFinite else { return }
        let s = CGFloat(scale)
        let panel = DeviceRect(x: Double(-rect.x), y: Double(-rect.y), width: Double(bounds.width * s),
                               height: Double(bounds.height * s))
        target.fillRoundedRect(panel, radius: Double(Self.cornerRadius * s), fill: Self.fillColor,
                               border: Self.borderColor, borderWidth: Double(Self.borderWidth * s))
        let dot = Self.dotSize
        let lineHeight = CGFloat(BitmapFont.lineHeight) * dot
        var y = Self.padding
        for line in titleLines {
            drawLine(line, at: CGPoint(x: Self.padding, y: y), color: Self.titleColor, rect: rect, scale: s, into: target)
            y += lineHeight
        }
        y += Self.titleGap
        for line in messageLines {
            drawLine(line, at: CGPoint(x: Self.padding, y: y), color: Self.messageColor, rect: rect, scale: s, into: target)
            y += lineHeight
        }
    }

    /// Fills each set dot of `line` (top-left at `origin`, points) as a device-pixel square
    /// whose edges are the dot's edges rounded to pixels, so every tile agrees on them.
    private func drawLine(_ line: [Character], at origin: CGPoint, color: UInt32, rect: PixelRect, scale: CGFloat,
                          into target: Framebuffer) {
        let dot = Self.dotSize
        let advance = CGFloat(BitmapFont.advance) * dot
        let height = CGFloat(BitmapFont.glyphHeight) * dot
        // Skip lines that miss the tile entirely.
        let top = Int((origin.y * scale).rounded()) - rect.y, bottom = Int(((origin.y + height) * scale).rounded()) - rect.y
        guard bottom > 0, top < target.height else { return }
        for (i, c) in line.enumerated() where c != " " {
            let left = origin.x + CGFloat(i) * advance
            let gx0 = Int((left * scale).rounded()) - rect.x, gx1 = Int(((left + advance) * scale).rounded()) - rect.x
            guard gx1 > 0, gx0 < target.width else { continue }
            for dy in 0..<BitmapFont.glyphHeight {
                for dx in 0..<BitmapFont.glyphWidth where BitmapFont.dot(c, x: dx, y: dy) {
                    let px = left + CGFloat(dx) * dot, py = origin.y + CGFloat(dy) * dot
                    let x0 = Int((px * scale).rounded()), x1 = Int(((px + dot) * scale).rounded())
                    let y0 = Int((py * scale).rounded()), y1 = Int(((py + dot) * scale).rounded())
                    let r = PixelRect(x: x0 - rect.x, y: y0 - rect.y, width: x1 - x0, height: y1 - y0)
                        .intersection(target.bounds)
                    if !r.isEmpty { target.fill(r, with: color) }
                }
            }
        }
    }

    /// Drawing reads only the laid-out lines, which change on the main thread between frames.
    public var drawsConcurrently: Bool { true }
}
