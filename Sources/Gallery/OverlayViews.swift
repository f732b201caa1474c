// The gallery's on-screen information as views: the brief page overlay (name, position, zoom)
// with its fade, and the rounded two-column panel the information and help overlays share.
// Labels on translucent plates, drawn in tiles like any content.
import Foundation
import Host
import Raster
import ScrollKit

/// When a brief overlay shows and how opaque it is: opaque for `hold` ms after it was shown,
/// then fading to nothing over `fadeDuration` ms, as the scroll indicators fade after scrolling.
/// Time is a parameter (ms on the scene's clock); nothing is asked of a frame once it has gone.
public struct OverlayFade: Equatable, Sendable {
    /// 1500 ms: long enough to read a file name and "4 / 10" at a glance (decision; the
    /// scroll indicators' 500 ms is for a bar, not for words).
    public static let hold = 1500.0
    /// 300 ms: the fade, the scroll indicators' (`ScrollIndicator.fadeDuration`).
    public static let fadeDuration = ScrollIndicator.fadeDuration

    /// When it was last shown, ms; nil when hidden.
    public private(set) var shownAt: Double?

    /// Hidden.
    public init() {}

    /// Shows it, opaque, from `time` (ms); showing it again restarts the hold.
    public mutating func show(at time: Double) {
        shownAt = time
    }

    /// Hides it at once.
    public mutating func hide() {
        shownAt = nil
    }

    /// Opacity at `time`, 0…1.
    public func alpha(at time: Double) -> Double {
        guard let shownAt else { return 0 }
        let fadeStart = shownAt + Self.hold
        guard time > fadeStart else { return time >= shownAt ? 1 : 0 }
        return max(0, 1 - (time - fadeStart) / Self.fadeDuration)
    }

    /// What it asks of the frame loop at `time`: every frame while fading, a wake-up when the
    /// fade is due while holding, nothing once gone.
    public func frameRequest(at time: Double) -> FrameRequest {
        guard let shownAt else { return .idle }
        let fadeStart = shownAt + Self.hold
        if time < fadeStart { return .at(fadeStart) }
        return time < fadeStart + Self.fadeDuration ? .nextFrame : .idle
    }

    /// Whether it is gone by `time` (it may be forgotten).
    public func isOver(at time: Double) -> Bool {
        guard let shownAt else { return true }
        return time >= shownAt + Self.hold + Self.fadeDuration
    }
}

/// Colours and sizes the overlays share.
enum OverlayStyle {
    /// Black at 62 %: white text reads over any photo, and the photo still shows through
    /// (decision, close to iOS's dark HUD material).
    static let plate = Color(rgb: 0x000000, alpha: 0.62)
    /// 12 pt: the plates' corners, the error card's (decision).
    static let cornerRadius: CGFloat = 12
    /// 16 pt between an overlay and the window's edge (decision).
    static let margin: CGFloat = 16
    /// Text colours: white for what matters, light grey for what names it.
    static let text = Color.white
    static let secondaryText = Color(rgb: 0xC8C8C8)
    /// 15 pt semibold names, 13 pt details: UIKit's subheadline and footnote sizes (decision).
    static let nameFont = Font.systemFont(ofSize: 15, weight: .semibold)
    static let detailFont = Font.systemFont(ofSize: 13)
    /// The panels: a 17 pt semibold title (UIKit's headline), 14 pt rows.
    static let titleFont = Font.systemFont(ofSize: 17, weight: .semibold)
    static let rowFont = Font.systemFont(ofSize: 14)
    static let rowKeyFont = Font.systemFont(ofSize: 14, weight: .semibold)

    /// `color` at `opacity` of its own alpha.
    static func faded(_ color: Color, _ opacity: Double) -> Color {
        var c = color
        c.alpha *= min(max(opacity, 0), 1)
        return c
    }
}

/// A view whose own pixels are a rounded plate filling its bounds, its subviews (labels)
/// drawing the text: the error card and the overlays.
public protocol PlateView: TiledContent {
    /// The plate as it is now.
    var plate: RoundedBackground { get }
}

extension PlateView {
    /// Draws the plate for content pixels `rect` at `scale`.
    public func draw(_ rect: PixelRect, scale: Double, into target: Framebuffer) {
        plate.draw(size: bounds.size, rect: rect, scale: scale, into: target)
    }

    /// The plate depends on the size and its own colours only.
    public var drawsConcurrently: Bool { true }

    public func concurrentDrawing() -> TileDrawing? {
        let plate = self.plate, size = bounds.size
        return TileDrawing { rect, scale, target in plate.draw(size: size, rect: rect, scale: scale, into: target) }
    }
}

/// The brief overlay of a page change: the file's name and, below it, "4 / 10 · 67%", on a
/// rounded translucent plate at the bottom of the window.
public final class PageOverlayView: View, PlateView {
    /// 10 pt above and below the text, 14 pt beside it (decision).
    static let insets = EdgeInsets(top: 10, left: 14, bottom: 10, right: 14)
    /// 24 pt from the window's bottom edge, clear of a touchscreen's bottom bezel (decision).
    static let bottomMargin: CGFloat = 24

    private let nameLabel = Label()
    private let detailLabel = Label()

    /// The file's name shown.
    public var name: String { nameLabel.text }
    /// The line below it: position and zoom.
    public var detail: String { detailLabel.text }
    /// How opaque the overlay is, 0…1 (the fade).
    public private(set) var opacity: Double = 1

    /// An overlay showing nothing yet; `show(name:detail:)` fills it.
    public override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
        nameLabel.font = OverlayStyle.nameFont
        nameLabel.textAlignment = .center
        // A long name keeps its start and its extension.
        nameLabel.lineBreakMode = .byTruncatingMiddle
        detailLabel.font = OverlayStyle.detailFont
        detailLabel.textAlignment = .center
        addSubview(nameLabel)
        addSubview(detailLabel)
        applyOpacity()
    }

    /// Sets the text; returns whether it changed (the caller lays the overlay out again).
    @discardableResult
    public func show(name: String, detail: String) -> Bool {
        guard name != nameLabel.text || detail != detailLabel.text else { return false }
        nameLabel.text = name
        detailLabel.text = detail
        return true
    }

    /// Fades the plate and the text to `opacity` of their colours.
    public func setOpacity(_ opacity: Double) {
        guard opacity != self.opacity else { return }
        self.opacity = opacity
        applyOpacity()
    }

    private func applyOpacity() {
        nameLabel.textColor = OverlayStyle.faded(OverlayStyle.text, opacity)
        detailLabel.textColor = OverlayStyle.faded(OverlayStyle.secondaryText, opacity)
        setNeedsDisplay()
    }

    /// Sizes the overlay to its text, at most `window`'s width less the margins, and places it
    /// centred at the bottom of `window`.
    public func layout(in window: CGSize) {
        let insets = Self.insets
        let room = max(window.width - 2 * OverlayStyle.margin - insets.left - insets.right, 1)
        let nameSize = nameLabel.sizeThatFits(CGSize(width: room, height: 0))
        let detailSize = detailLabel.sizeThatFits(CGSize(width: room, height: 0))
        let width = (min(max(nameSize.width, detailSize.width), room) + insets.left + insets.right).rounded(.up)
        let height = (nameSize.height + detailSize.height + insets.top + insets.bottom).rounded(.up)
        frame = CGRect(x: ((window.width - width) / 2).rounded(), y: window.height - Self.bottomMargin - height,
                       width: width, height: height)
        nameLabel.frame = CGRect(x: insets.left, y: insets.top, width: width - insets.left - insets.right,
                                 height: nameSize.height)
        detailLabel.frame = CGRect(x: insets.left, y: insets.top + nameSize.height, width: width - insets.left - insets.right,
                                   height: detailSize.height)
        setNeedsDisplay()
    }

    /// The translucent plate, faded with the text.
    public var plate: RoundedBackground {
        RoundedBackground(color: OverlayStyle.faded(OverlayStyle.plate, opacity), cornerRadius: OverlayStyle.cornerRadius)
    }
}

/// A rounded translucent panel with a title and rows of two columns (a name, its value): the
/// information panel and the help overlay.
///
/// Lay it out with `layout(maxSize:)`: it sizes itself to its rows, up to that size. Values
/// wrap onto two lines at most; rows that do not fit the height are left out, and on small
/// windows the text is set smaller (down to 75 %) first.
public final class PanelView: View, PlateView {
    /// 16 pt around the text, 12 pt between the columns, 4 pt between rows, 8 pt under the title (decisions).
    static let padding: CGFloat = 16
    static let columnGap: CGFloat = 12
    static let rowGap: CGFloat = 4
    static let titleGap: CGFloat = 8
    /// 560 pt: the widest panel, so long values wrap into readable lines (decision).
    public static let maximumWidth: CGFloat = 560
    /// The smallest text scale on small windows (decision: 10.5 pt rows).
    static let minimumTextScale = 0.75

    private let titleLabel = Label()
    private var keyLabels: [Label] = []
    private var valueLabels: [Label] = []
    /// Whether the left column is set in the row font's semibold weight (the help's keys).
    private let boldKeys: Bool

    /// The title shown.
    public var title: String { titleLabel.text }
    /// The rows shown, as given to `setRows` (those that fit are visible).
    public private(set) var rows: [(key: String, value: String)] = []
    /// How many rows fit the last layout.
    public private(set) var visibleRowCount = 0

    /// A panel titled `title`; `boldKeys` sets the left column in semibold.
    public init(title: String, boldKeys: Bool) {
        self.boldKeys = boldKeys
        super.init(frame: .zero)
        isUserInteractionEnabled = false
        isHidden = true
        titleLabel.text = title
        titleLabel.font = OverlayStyle.titleFont
        titleLabel.textColor = OverlayStyle.text
        titleLabel.lineBreakMode = .byTruncatingMiddle
        addSubview(titleLabel)
    }

    /// Sets the title and the rows; returns whether anything changed (lay the panel out again then).
    @discardableResult
    public func set(title: String, rows: [(key: String, value: String)]) -> Bool {
        let same = title == titleLabel.text && rows.count == self.rows.count
            && zip(rows, self.rows).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        guard !same else { return false }
        titleLabel.text = title
        self.rows = rows
        while keyLabels.count < rows.count {
            let key = Label(), value = Label()
            // Keys wrap between names (a row of several keys), values onto a second line.
            key.numberOfLines = 2
            key.lineBreakMode = .byWordWrapping
            key.textColor = boldKeys ? OverlayStyle.text : OverlayStyle.secondaryText
            value.textColor = boldKeys ? OverlayStyle.secondaryText : OverlayStyle.text
            value.numberOfLines = 2
            value.lineBreakMode = .byTruncatingMiddle
            addSubview(key)
            addSubview(value)
            keyLabels.append(key)
            valueLabels.append(value)
        }
        for (i, label) in keyLabels.enumerated() {
            label.text = i < rows.count ? rows[i].key : ""
            valueLabels[i].text = i < rows.count ? rows[i].value : ""
        }
        return true
    }

    /// Lays the rows out within `maxSize` points (and never wider than `maximumWidth`) and sets
    /// the bounds' size to fit them; the caller positions the frame.
    public func layout(maxSize: CGSize) {
        let width = min(max(maxSize.width, 2 * Self.padding + 2), Self.maximumWidth)
        var scale = 1.0
        var placed = place(width: width, scale: scale)
        // Smaller text first, then fewer rows.
        func height(_ p: (width: CGFloat, titleBottom: CGFloat, rowBottoms: [CGFloat])) -> CGFloat {
            (p.rowBottoms.last ?? p.titleBottom) + Self.padding
        }
        while height(placed) > maxSize.height && scale > Self.minimumTextScale {
            scale = max(scale - 0.05, Self.minimumTextScale)
            placed = place(width: width, scale: scale)
        }
        var shown = rows.count
        while shown > 0 && placed.rowBottoms[shown - 1] + Self.padding > maxSize.height { shown -= 1 }
        visibleRowCount = shown
        for i in keyLabels.indices {
            keyLabels[i].isHidden = i >= shown
            valueLabels[i].isHidden = i >= shown
        }
        let height = shown > 0 ? placed.rowBottoms[shown - 1] + Self.padding : placed.titleBottom + Self.padding
        frame = CGRect(origin: frame.origin, size: CGSize(width: placed.width, height: min(height, max(maxSize.height, 0)).rounded(.up)))
        setNeedsDisplay()
    }

    /// Places the title and every row for a panel `width` wide with text at `scale`; returns
    /// the panel's width (the text's, when narrower) and where the title and each row end.
    private func place(width: CGFloat, scale: Double) -> (width: CGFloat, titleBottom: CGFloat, rowBottoms: [CGFloat]) {
        let keyFont = (boldKeys ? OverlayStyle.rowKeyFont : OverlayStyle.rowFont).withSize(OverlayStyle.rowFont.size * scale)
        let valueFont = OverlayStyle.rowFont.withSize(OverlayStyle.rowFont.size * scale)
        titleLabel.font = OverlayStyle.titleFont.withSize(OverlayStyle.titleFont.size * scale)
        let inner = width - 2 * Self.padding
        for i in rows.indices {
            keyLabels[i].font = keyFont
            valueLabels[i].font = valueFont
        }
        // The names' column: as wide as its widest entry, at most 40 % of the panel.
        let keyWidths = rows.indices.map { keyLabels[$0].sizeThatFits(.zero).width }
        let keyColumn = min(keyWidths.max() ?? 0, (inner * 0.4).rounded(.down))
        let valueRoom = max(inner - keyColumn - Self.columnGap, 1)
        let titleSize = titleLabel.sizeThatFits(CGSize(width: inner, height: 0))
        var y = Self.padding + titleSize.height + Self.titleGap
        let titleBottom = y
        var widest = titleSize.width
        var bottoms: [CGFloat] = []
        for i in rows.indices {
            let valueSize = valueLabels[i].sizeThatFits(CGSize(width: valueRoom, height: 0))
            let keyHeight = keyLabels[i].sizeThatFits(CGSize(width: keyColumn, height: 0)).height
            let height = max(valueSize.height, keyHeight)
            keyLabels[i].frame = CGRect(x: Self.padding, y: y, width: keyColumn, height: keyHeight)
            valueLabels[i].frame = CGRect(x: Self.padding + keyColumn + Self.columnGap, y: y, width: valueRoom, height: valueSize.height)
            widest = max(widest, keyColumn + Self.columnGap + valueSize.width)
            y += height
            bottoms.append(y)
            y += Self.rowGap
        }
        let panelWidth = (min(widest, inner) + 2 * Self.padding).rounded(.up)
        titleLabel.frame = CGRect(x: Self.padding, y: Self.padding, width: panelWidth - 2 * Self.padding, height: titleSize.height)
        for label in valueLabels { label.frame.size.width = max(panelWidth - 2 * Self.padding - keyColumn - Self.columnGap, 1) }
        return (panelWidth, titleBottom, bottoms)
    }

    /// The rows' text as laid out, "name: value" for each visible row (for tests and logs).
    public var lines: [String] {
        (0..<visibleRowCount).map { "\(keyLabels[$0].text): \(valueLabels[$0].textLayout.lines.map(\.text).joined(separator: " "))" }
    }

    /// The translucent plate.
    public var plate: RoundedBackground { RoundedBackground(color: OverlayStyle.plate, cornerRadius: OverlayStyle.cornerRadius) }
}
