// A view that shows text (UIKit's `UILabel`): laid out again only when its text, font, limits
// or size change, and drawn in tiles like any content, so it scrolls with its superview and
// costs nothing while nothing changes.
import Foundation
import ScrollKit
import Synchronization

/// Text in one font and colour, wrapped and truncated to the view's bounds.
///
/// Like `UILabel`: the text block is centred vertically in the bounds (less `textInsets`),
/// lines are aligned by `textAlignment`, at most `numberOfLines` lines are shown (0: as many
/// as fit the height) and `lineBreakMode` says how the last one ends. `sizeThatFits` gives
/// the size the text needs. Labels ignore touches unless `isUserInteractionEnabled` is set.
public final class Label: View, TiledContent {
    /// The text; newlines start new paragraphs.
    public var text: String {
        didSet { if text != oldValue { setNeedsDisplay() } }
    }
    /// The font (fallback fonts fill in the scripts it lacks).
    public var font: Font = .systemFont(ofSize: Font.labelFontSize) {
        didSet { if font != oldValue { setNeedsDisplay() } }
    }
    /// The colour of the glyphs (emoji keep their own colours, at this colour's opacity).
    public var textColor: Color = .black {
        didSet { if textColor != oldValue { setNeedsDisplay() } }
    }
    /// Where lines sit between the edges.
    public var textAlignment: TextAlignment = .natural {
        didSet { if textAlignment != oldValue { setNeedsDisplay() } }
    }
    /// The most lines shown; 0 shows as many as fit the height. UIKit's default is 1.
    public var numberOfLines: Int = 1 {
        didSet { if numberOfLines != oldValue { setNeedsDisplay() } }
    }
    /// How lines wrap and how the last one ends when the text does not fit.
    public var lineBreakMode: LineBreakMode = .byTruncatingTail {
        didSet { if lineBreakMode != oldValue { setNeedsDisplay() } }
    }
    /// Room between the bounds and the text, in points (none by default; an overlay's plate
    /// wants some).
    public var textInsets: EdgeInsets = .zero {
        didSet { if textInsets != oldValue { setNeedsDisplay() } }
    }
    /// A rounded panel drawn under the text, filling the bounds (an overlay's translucent
    /// plate); nil draws none. `backgroundColor` still works and is filled square.
    public var roundedBackground: RoundedBackground? {
        didSet { if roundedBackground != oldValue { setNeedsDisplay() } }
    }

    /// What the layout depends on.
    private struct Inputs: Equatable {
        var text: String
        var font: Font
        var alignment: TextAlignment
        var numberOfLines: Int
        var mode: LineBreakMode
        /// The room for text, in points.
        var width: Double
        var height: Double
    }

    // The layout is made when first needed, which may be on a renderer thread drawing a tile
    // (the view's properties do not change while the renderer draws).
    private let layoutCache = Mutex<(inputs: Inputs?, layout: TextLayout?)>((nil, nil))

    /// A label showing `text`, placed at `frame`.
    public init(text: String = "", frame: CGRect = .zero) {
        self.text = text
        super.init(frame: frame)
        isUserInteractionEnabled = false
    }

    /// The text as laid out in the current bounds.
    public var textLayout: TextLayout {
        let inputs = currentInputs
        return layoutCache.withLock { cache in
            if cache.inputs != inputs || cache.layout == nil {
                cache.layout = Self.layout(inputs)
                cache.inputs = inputs
            }
            return cache.layout!
        }
    }

    /// The size, in points, the label needs to show its text within `size` (a width or height
    /// of 0 or less, or not finite, means unlimited): the lines' extent plus `textInsets`,
    /// rounded up to whole points.
    public func sizeThatFits(_ size: CGSize) -> CGSize {
        func room(_ v: CGFloat, _ a: CGFloat, _ b: CGFloat) -> Double {
            v > 0 && v.isFinite ? max(Double(v - a - b), 0) : .infinity
        }
        var inputs = currentInputs
        inputs.width = room(size.width, textInsets.left, textInsets.right)
        inputs.height = room(size.height, textInsets.top, textInsets.bottom)
        let fitted = Self.layout(inputs).size
        return CGSize(width: (fitted.width + textInsets.left + textInsets.right).rounded(.up),
                      height: (fitted.height + textInsets.top + textInsets.bottom).rounded(.up))
    }

    /// Resizes the label to its text on one line per paragraph (or as `numberOfLines` allows),
    /// keeping its origin.
    public func sizeToFit() {
        frame = CGRect(origin: frame.origin, size: sizeThatFits(.zero))
    }

    public override func boundsDidChange(from oldBounds: CGRect) {
        super.boundsDidChange(from: oldBounds)
        if bounds.size != oldBounds.size { setNeedsDisplay() }
    }

    private var currentInputs: Inputs {
        Inputs(text: text, font: font, alignment: textAlignment, numberOfLines: numberOfLines, mode: lineBreakMode,
               width: max(Double(bounds.width - textInsets.left - textInsets.right), 0),
               height: max(Double(bounds.height - textInsets.top - textInsets.bottom), 0))
    }

    /// The text laid out for `inputs`: wrapped to the width and, with no line limit, cut to
    /// the lines that fit the height (at least one), as `UILabel` does.
    private static func layout(_ inputs: Inputs) -> TextLayout {
        func make(_ lines: Int) -> TextLayout {
            TextLayout(text: inputs.text, font: inputs.font, maxWidth: inputs.width, numberOfLines: lines,
                       lineBreakMode: inputs.mode, alignment: inputs.alignment)
        }
        let layout = make(inputs.numberOfLines)
        guard inputs.height.isFinite, Double(layout.size.height) > inputs.height + 0.001, layout.lines.count > 1 else {
            return layout
        }
        let fitting = layout.lines.filter { $0.top + $0.height <= inputs.height + 0.001 }.count
        return make(max(fitting, 1))
    }

    /// Everything a tile needs, taken on the view's thread.
    private struct Snapshot: Sendable {
        let layout: TextLayout
        let origin: CGPoint
        let color: Color
        let background: RoundedBackground?
        let size: CGSize

        func draw(_ rect: PixelRect, scale: Double, into target: Framebuffer) {
            background?.draw(size: size, rect: rect, scale: scale, into: target)
            layout.draw(at: origin, color: color, rect: rect, scale: scale, into: target)
        }
    }

    private var snapshot: Snapshot {
        let layout = textLayout
        let room = bounds.inset(by: textInsets)
        // Centred vertically in the room, as UILabel does.
        let y = Double(textInsets.top) + (Double(room.height) - Double(layout.size.height)) / 2
        return Snapshot(layout: layout, origin: CGPoint(x: textInsets.left, y: y), color: textColor,
                        background: roundedBackground, size: bounds.size)
    }

    /// Draws the plate and the text for content pixels `rect` at `scale`.
    public func draw(_ rect: PixelRect, scale: Double, into target: Framebuffer) {
        snapshot.draw(rect, scale: scale, into: target)
    }

    /// Drawing reads the layout (immutable) and glyphs from the shared, locked cache.
    public var drawsConcurrently: Bool { true }

    /// The label as it is now, for drawing tiles ahead on a background thread.
    public func concurrentDrawing() -> TileDrawing? {
        let snapshot = self.snapshot
        return TileDrawing { rect, scale, target in snapshot.draw(rect, scale: scale, into: target) }
    }
}
