// `image-viewer --demo list`: 10,000 rows of text in many scripts in one scroll view, with a
// section index on the right edge, as a kiosk menu or a settings screen scrolls. The rows are one
// tall tiled view that draws only the rows a tile covers: no view per row, nothing drawn off screen.
import Foundation
import Host
import Raster
import ScrollKit
import Synchronization

/// The list's rows, made up deterministically (no network, the same every run): sections A to
/// Z of Latin names, then sections of Greek, Cyrillic, Hebrew, Arabic, Japanese, Chinese, Korean
/// and emoji, each row a title in its section's script over a line mixing them all.
public struct ListDemoContent: Sendable {
    /// One section: its index title and its rows.
    public struct Section: Sendable {
        /// What the section index and the header show: "A", "Ω", "ع", "😀".
        public let title: String
        /// The rows' titles and subtitles.
        public let rows: [(title: String, subtitle: String)]
    }

    /// The sections, in order.
    public let sections: [Section]

    /// The number of rows in all.
    public var rowCount: Int { sections.reduce(0) { $0 + $1.rows.count } }

    /// 10,000 rows: the list (issue 15).
    public static let defaultRowCount = 10_000

    // Words of each script for the made-up rows (common words, written for this demo).
    static let latinSyllables = ["an", "be", "ca", "do", "el", "fa", "gi", "ho", "ir", "ja", "ke", "lu", "ma", "no",
                                 "or", "pe", "ra", "si", "tu", "ul", "ve", "za", "mü", "ré", "sø", "ña"]
    static let greek = ["Αθήνα", "Άλφα", "Ήλιος", "Θάλασσα", "Κόσμος", "Λόγος", "Μέλισσα", "Νεφέλη", "Ουρανός", "Φωτιά"]
    static let cyrillic = ["Москва", "Альфа", "Берёза", "Волга", "Город", "Дорога", "Звезда", "Книга", "Море", "Солнце"]
    static let hebrew = ["שלום", "אור", "בית", "גן", "דרך", "הר", "ים", "ספר", "עיר", "שמש"]
    static let arabic = ["سلام", "قمر", "شمس", "بحر", "كتاب", "مدينة", "نور", "سماء", "جبل", "وردة"]
    static let japanese = ["さくら", "ひかり", "みどり", "やま", "うみ", "ほし", "そら", "はな", "つき", "かぜ"]
    static let chinese = ["東京", "北京", "山水", "天空", "花園", "月光", "書店", "長城", "海洋", "星辰"]
    static let korean = ["서울", "바다", "하늘", "사랑", "나무", "별빛", "구름", "가을", "여름", "봄날"]
    static let emoji = ["🌍", "🍎", "🚲", "🎵", "📷", "🌸", "⚽", "🐟", "☕", "🌙", "🚀", "🎈"]

    /// `rowCount` rows spread evenly over the sections.
    public init(rowCount: Int = defaultRowCount) {
        let scripts: [(title: String, words: [String])] = [
            ("Ω", Self.greek), ("Я", Self.cyrillic), ("א", Self.hebrew), ("ع", Self.arabic), ("あ", Self.japanese),
            ("中", Self.chinese), ("한", Self.korean), ("😀", Self.emoji),
        ]
        let letters = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
        let count = letters.count + scripts.count
        let total = max(rowCount, 0)
        var sections: [Section] = []
        for s in 0..<count {
            let rows = total / count + (s < total % count ? 1 : 0)
            var made: [(title: String, subtitle: String)] = []
            made.reserveCapacity(rows)
            let number = sections.reduce(0) { $0 + $1.rows.count }
            for r in 0..<rows {
                let row = number + r
                func pick(_ list: [String], _ slot: Int) -> String { list[Self.pick(list.count, row: row, slot: slot)] }
                let title = s < letters.count
                    ? letters[s] + pick(Self.latinSyllables, 0) + pick(Self.latinSyllables, 1)
                    : pick(scripts[s - letters.count].words, 0) + " " + pick(scripts[s - letters.count].words, 1)
                made.append((title + " \(row + 1)", Self.subtitle(row: row)))
            }
            sections.append(Section(title: s < letters.count ? letters[s] : scripts[s - letters.count].title, rows: made))
        }
        self.sections = sections
    }

    /// A line of four words of the scripts, in a made-up order, and an emoji.
    private static func subtitle(row: Int) -> String {
        let lists = [greek, cyrillic, hebrew, arabic, japanese, chinese, korean]
        var words: [String] = []
        for k in 0..<4 {
            let list = lists[(pick(lists.count, row: row, slot: 2 + 2 * k) + k) % lists.count]
            words.append(list[pick(list.count, row: row, slot: 3 + 2 * k)])
        }
        return words.joined(separator: " · ") + " " + emoji[pick(emoji.count, row: row, slot: 10)]
    }

    /// A number in 0..<n for word `slot` of row `row`, the same every run: Fibonacci hashing
    /// (Knuth, TAOCP 6.4) of the two, its high bits folded in, so neighbouring rows differ.
    static func pick(_ n: Int, row: Int, slot: Int) -> Int {
        var x = UInt64(truncatingIfNeeded: row &* 16 &+ slot &+ 1) &* 0x9E37_79B9_7F4A_7C15
        x ^= x >> 31
        x = x &* 0x9E37_79B9_7F4A_7C15
        return Int((x >> 32) % UInt64(n))
    }
}

/// Where everything of the list is, in points: section headers and rows stacked top to bottom
/// (UITableView's plain style).
public struct ListGeometry: Sendable {
    /// 28 pt section headers and 56 pt rows of a title and a subtitle: UITableView's plain
    /// header and subtitle-cell heights with Dynamic Type's default sizes (decision).
    public static let headerHeight: CGFloat = 28
    public static let rowHeight: CGFloat = 56
    /// 16 pt: text's left inset, UITableView's layout margin.
    public static let inset: CGFloat = 16

    /// Top of each section's header, and the row index its first row has.
    public let sectionTops: [CGFloat]
    public let sectionFirstRows: [Int]
    /// Rows per section.
    public let sectionCounts: [Int]
    /// The whole list's height.
    public let height: CGFloat

    /// The geometry of `content`.
    public init(_ content: ListDemoContent) {
        var tops: [CGFloat] = [], firsts: [Int] = [], counts: [Int] = []
        var y: CGFloat = 0, row = 0
        for section in content.sections {
            tops.append(y)
            firsts.append(row)
            counts.append(section.rows.count)
            y += Self.headerHeight + CGFloat(section.rows.count) * Self.rowHeight
            row += section.rows.count
        }
        sectionTops = tops
        sectionFirstRows = firsts
        sectionCounts = counts
        height = y
    }

    /// The top of row `row` of section `section`, in points.
    public func rowTop(section: Int, row: Int) -> CGFloat {
        sectionTops[section] + Self.headerHeight + CGFloat(row) * Self.rowHeight
    }

    /// The section whose header or rows cover `y` (clamped to the list).
    public func section(at y: CGFloat) -> Int {
        // The last section starting at or above y.
        var low = 0, high = sectionTops.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if sectionTops[mid] <= y { low = mid } else { high = mid - 1 }
        }
        return max(low, 0)
    }
}

/// The list drawn as one tall content view: a tile draws the headers and rows it covers, each
/// row's text laid out once and kept while it stays near the screen.
public final class ListContentView: View, TiledContent {
    /// The rows it shows.
    public let content: ListDemoContent
    /// Where they are.
    public let geometry: ListGeometry
    /// Room kept free on the right for the section index, in points.
    public var trailingInset: CGFloat = 0 {
        didSet { if trailingInset != oldValue { remakeDrawing() } }
    }
    private var drawing: ListDrawing

    /// A list of `content`, `width` points wide; its height is the list's.
    public init(content: ListDemoContent, width: CGFloat) {
        self.content = content
        geometry = ListGeometry(content)
        drawing = ListDrawing(content: content, geometry: geometry, textWidth: 0)
        super.init(frame: CGRect(x: 0, y: 0, width: width, height: geometry.height))
        isUserInteractionEnabled = false
        remakeDrawing()
    }

    public override func boundsDidChange(from oldBounds: CGRect) {
        super.boundsDidChange(from: oldBounds)
        if bounds.width != oldBounds.width { remakeDrawing() }
    }

    /// Row text wraps to the width: a new width lays every row out anew.
    private func remakeDrawing() {
        let width = Double(bounds.width - 2 * ListGeometry.inset - trailingInset)
        drawing = ListDrawing(content: content, geometry: geometry, textWidth: max(width, 1))
        setNeedsDisplay()
    }

    /// Rows laid out so far and not yet dropped (for tests: only rows near the screen are).
    public var laidOutRows: Int { drawing.laidOutRows }

    public func draw(_ rect: PixelRect, scale: Double, into target: Framebuffer) {
        drawing.draw(rect, scale: scale, into: target)
    }

    /// Every pixel is filled: white rows, grey headers.
    public var isOpaqueContent: Bool { true }
    /// Drawing reads immutable rows and a locked cache of layouts.
    public var drawsConcurrently: Bool { true }

    public func concurrentDrawing() -> TileDrawing? {
        let drawing = self.drawing
        return TileDrawing { rect, scale, target in drawing.draw(rect, scale: scale, into: target) }
    }
}

/// What a tile of the list needs: the rows, their places and a cache of their laid-out text,
/// shared by the renderer's threads.
final class ListDrawing: Sendable {
    /// 2048 rows: about 20 screens of 4K at 56 pt rows, so a fling back does not lay rows out
    /// again, and bounded (decision; a row's two layouts take a few KiB).
    static let keptRows = 2048

    /// Colours: iOS's grouped-list system colours (light appearance).
    static let background = Color.white.premultipliedARGB
    static let headerBackground = Color(rgb: 0xF2F2F7).premultipliedARGB
    static let separator = Color(rgb: 0xC6C6C8).premultipliedARGB
    static let titleColor = Color.black
    static let subtitleColor = Color(rgb: 0x6C6C70)
    static let headerColor = Color(rgb: 0x3C3C43)
    /// 17 pt titles and 13 pt subtitles: UITableViewCell's subtitle style; 15 pt semibold headers.
    static let titleFont = Font.systemFont(ofSize: 17)
    static let subtitleFont = Font.systemFont(ofSize: 13)
    static let headerFont = Font.systemFont(ofSize: 15, weight: .semibold)

    let content: ListDemoContent
    let geometry: ListGeometry
    let textWidth: Double
    private let layouts = Mutex<[Int: (title: TextLayout, subtitle: TextLayout)]>([:])

    init(content: ListDemoContent, geometry: ListGeometry, textWidth: Double) {
        self.content = content
        self.geometry = geometry
        self.textWidth = textWidth
    }

    var laidOutRows: Int { layouts.withLock { $0.count } }

    /// Row `row` of section `section` laid out, from the cache or made now.
    private func layout(section: Int, row: Int) -> (title: TextLayout, subtitle: TextLayout) {
        let key = geometry.sectionFirstRows[section] + row
        if let known = layouts.withLock({ $0[key] }) { return known }
        let text = content.sections[section].rows[row]
        // Left-aligned whatever the script, as rows of a left-to-right interface are; each line
        // still runs in its own directions inside.
        let made = (TextLayout(text: text.title, font: Self.titleFont, maxWidth: textWidth, numberOfLines: 1,
                               lineBreakMode: .byTruncatingTail, alignment: .left),
                    TextLayout(text: text.subtitle, font: Self.subtitleFont, maxWidth: textWidth, numberOfLines: 1,
                               lineBreakMode: .byTruncatingTail, alignment: .left))
        layouts.withLock { cache in
            // Rows far from the screen are dropped all at once; those on it are laid out again
            // as their tiles are drawn.
            if cache.count >= Self.keptRows { cache.removeAll(keepingCapacity: true) }
            cache[key] = made
        }
        return made
    }

    /// Device pixel row of `y` points at `scale`, relative to `rect`.
    private static func pixel(_ y: CGFloat, _ scale: Double, _ rect: PixelRect) -> Int {
        Int((Double(y) * scale).rounded()) - rect.y
    }

    /// Draws content pixels `rect` at `scale`: backgrounds, separators and the text of the
    /// headers and rows that intersect it, nothing else.
    func draw(_ rect: PixelRect, scale: Double, into target: Framebuffer) {
        guard scale.isFinite, scale > 0, !geometry.sectionTops.isEmpty else { return }
        target.fill(target.bounds, with: Self.background)
        let top = CGFloat(Double(rect.y) / scale), bottom = CGFloat(Double(rect.y + rect.height) / scale)
        var section = geometry.section(at: top)
        let full = PixelRect(x: 0, y: 0, width: rect.width, height: 0)
        while section < geometry.sectionTops.count, geometry.sectionTops[section] < bottom {
            let headerTop = geometry.sectionTops[section]
            let rowsTop = headerTop + ListGeometry.headerHeight
            if rowsTop > top {
                // The header: a grey band with the section's title.
                var band = full
                band.y = Self.pixel(headerTop, scale, rect)
                band.height = Self.pixel(rowsTop, scale, rect) - band.y
                target.fill(band, with: Self.headerBackground)
                let title = TextLayout(text: content.sections[section].title, font: Self.headerFont, maxWidth: textWidth,
                                       numberOfLines: 1)
                let y = headerTop + (ListGeometry.headerHeight - title.size.height) / 2
                title.draw(at: CGPoint(x: ListGeometry.inset, y: y), color: Self.headerColor, rect: rect, scale: scale,
                           into: target)
            }
            let count = geometry.sectionCounts[section]
            let first = max(Int(((top - rowsTop) / ListGeometry.rowHeight).rounded(.down)), 0)
            let last = min(Int(((bottom - rowsTop) / ListGeometry.rowHeight).rounded(.up)), count)
            if first < last {
                for row in first..<last { drawRow(section: section, row: row, rect: rect, scale: scale, into: target) }
            }
            section += 1
        }
    }

    /// One row: its title and subtitle, and a hairline separator along its bottom from the
    /// text's inset (UITableView's separator inset), one device pixel thick.
    private func drawRow(section: Int, row: Int, rect: PixelRect, scale: Double, into target: Framebuffer) {
        let rowTop = geometry.rowTop(section: section, row: row)
        let text = layout(section: section, row: row)
        // 8 pt above the title, the subtitle right below it (UITableViewCell's subtitle style).
        let titleY = rowTop + 8
        text.title.draw(at: CGPoint(x: ListGeometry.inset, y: titleY), color: Self.titleColor, rect: rect, scale: scale,
                        into: target)
        text.subtitle.draw(at: CGPoint(x: ListGeometry.inset, y: titleY + text.title.size.height), color: Self.subtitleColor,
                           rect: rect, scale: scale, into: target)
        let bottom = Self.pixel(rowTop + ListGeometry.rowHeight, scale, rect)
        let left = Int((Double(ListGeometry.inset) * scale).rounded()) - rect.x
        target.fill(PixelRect(x: left, y: bottom - 1, width: rect.width - left, height: 1), with: Self.separator)
    }
}

/// The column of section titles along the list's right edge (UITableView's section index):
/// touching or dragging along it jumps to the section under the finger.
public final class SectionIndexView: View, TiledContent {
    /// 30 pt wide, the index's touch column; entries at most 16 pt apart (iOS's spacing), in
    /// 11 pt semibold system blue (decisions, from UIKit's look).
    public static let width: CGFloat = 30
    static let maximumSpacing: CGFloat = 16
    static let font = Font.systemFont(ofSize: 11, weight: .semibold)
    static let color = Color(rgb: 0x007AFF)

    /// The titles, top to bottom.
    public let titles: [String]
    private var layouts: [TextLayout]

    /// An index of `titles`.
    public init(titles: [String]) {
        self.titles = titles
        layouts = titles.map { TextLayout(text: $0, font: Self.font) }
        super.init(frame: .zero)
    }

    /// Points between two entries' centres in the current height.
    public var spacing: CGFloat {
        titles.isEmpty ? 0 : min(Self.maximumSpacing, bounds.height / CGFloat(titles.count))
    }

    /// The entries' block is centred vertically: its top, in points.
    var entriesTop: CGFloat { (bounds.height - spacing * CGFloat(titles.count)) / 2 }

    /// The entry under `y` (bounds points), clamped to the first and last: a finger dragged
    /// past the ends stays on them.
    public func entry(at y: CGFloat) -> Int {
        guard !titles.isEmpty, spacing > 0 else { return 0 }
        let index = Int(((y - entriesTop) / spacing).rounded(.down))
        return min(max(index, 0), titles.count - 1)
    }

    /// The centre of entry `index`, bounds points.
    public func center(of index: Int) -> CGPoint {
        CGPoint(x: bounds.width / 2, y: entriesTop + (CGFloat(index) + 0.5) * spacing)
    }

    public override func boundsDidChange(from oldBounds: CGRect) {
        super.boundsDidChange(from: oldBounds)
        if bounds.size != oldBounds.size {
            // Entries closer than the font's line shrink with the spacing.
            let size = min(Self.font.size, Double(spacing) * 0.8)
            layouts = titles.map { TextLayout(text: $0, font: Self.font.withSize(max(size, 1))) }
            setNeedsDisplay()
        }
    }

    public func draw(_ rect: PixelRect, scale: Double, into target: Framebuffer) {
        for (i, layout) in layouts.enumerated() {
            let c = center(of: i)
            layout.draw(at: CGPoint(x: c.x - CGFloat(layout.size.width) / 2, y: c.y - CGFloat(layout.size.height) / 2),
                        color: Self.color, rect: rect, scale: scale, into: target)
        }
    }
}

/// The list demo's scene: the scroll view, the content and the index, and the input that goes
/// to the index rather than to the scroll view.
public final class ListDemo {
    /// The scene a host shows.
    public let scene: ViewScene
    /// The vertical scroll view.
    public let scrollView = ScrollView()
    /// The one tall content view.
    public let list: ListContentView
    /// The section index.
    public let index: SectionIndexView
    /// Keys the list does not use itself (a host's quit and fullscreen keys): called with each
    /// key press before the scroll views get it.
    public var onKey: ((Key, InputEvent.Modifiers) -> Void)?

    /// The finger or pointer holding the index, if one is.
    private enum Holder: Equatable {
        case touch(Int)
        case pointer
    }
    private var holder: Holder?

    /// A list of `content`, drawn with a tile cache of `cacheBudget` bytes.
    public init(content: ListDemoContent = ListDemoContent(), cacheBudget: Int = Renderer.defaultBudget) {
        let root = View()
        root.backgroundColor = .white
        list = ListContentView(content: content, width: 0)
        list.trailingInset = SectionIndexView.width
        index = SectionIndexView(titles: content.sections.map(\.title))
        scrollView.addSubview(list)
        scrollView.contentSize = list.frame.size
        scrollView.alwaysBounceVertical = true
        root.addSubview(scrollView)
        root.addSubview(index)
        scene = ViewScene(root: root, cacheBudget: cacheBudget)
        scene.onLayout = { [unowned self] size in self.layout(size) }
        scene.inputHandler = { [unowned self] events in self.handle(events) }
        // Jumps that follow a finger on the index are drawn when the compositor asks, never ahead.
        scene.isFollowingInput = { [unowned self] in self.holder != nil }
    }

    private func layout(_ size: CGSize) {
        scrollView.frame = CGRect(origin: .zero, size: size)
        list.frame = CGRect(x: 0, y: 0, width: size.width, height: list.geometry.height)
        scrollView.contentSize = list.frame.size
        index.frame = CGRect(x: size.width - SectionIndexView.width, y: 0, width: SectionIndexView.width, height: size.height)
    }

    /// Scrolls so that section `section`'s header is at the top (or the list's end is at the
    /// bottom), at once, stopping any fling: what tapping the index does.
    public func jump(toSection section: Int) {
        let tops = list.geometry.sectionTops
        guard tops.indices.contains(section) else { return }
        let lowest = max(list.geometry.height - scrollView.bounds.height, 0)
        scrollView.setContentOffset(CGPoint(x: 0, y: min(tops[section], lowest)), animated: false)
    }

    /// Whether window point `p` is on the index.
    private func onIndex(_ p: CGPoint?) -> Bool {
        guard let p else { return false }
        return index.frame.contains(p)
    }

    private func follow(_ p: CGPoint) {
        jump(toSection: index.entry(at: index.convert(p, from: nil).y))
    }

    /// Touches and pointer presses that begin on the index move along it; everything else goes
    /// to the scroll view.
    private func handle(_ events: [InputEvent]) {
        var routed: [InputEvent] = []
        for event in events {
            switch event.kind {
            case .key(let key, true):
                onKey?(key, event.modifiers)
                routed.append(event)
            case .touchDown(let id, let p) where holder == nil && onIndex(p):
                holder = .touch(id)
                follow(p)
            case .touchMotion(let id, let p) where holder == .touch(id):
                follow(p)
            case .touchUp(let id) where holder == .touch(id):
                holder = nil
            case .touchCancel where holder != nil && holder != .pointer:
                holder = nil
            case .pointerButton(.left, true) where holder == nil && onIndex(event.pointerLocation):
                holder = .pointer
                if let p = event.pointerLocation { follow(p) }
            case .pointerMotion(let p) where holder == .pointer:
                follow(p)
                routed.append(event)
            case .pointerButton(.left, false) where holder == .pointer:
                holder = nil
            default:
                routed.append(event)
            }
        }
        scene.router.handle(frame: routed)
    }
}
