// What the gallery shows about its pictures on request: the page overlay after a page change
// (or `o`), the information panel (`i`) and the help (`?`, `h`), their fade and their text, and
// the file details read off the frame loop. Hidden in a kiosk unless asked for.
import Dispatch
import Foundation
import Host
import Pictures
import Raster
import ScrollKit
import Synchronization

/// What the overlays say about the current page, gathered from the gallery each frame.
public struct PageFacts: Equatable, Sendable {
    /// The file's path, name and folder.
    public var path: String
    public var name: String
    public var folder: String
    /// Its position, from 0, and the number of files.
    public var index: Int
    public var count: Int
    /// Displayed size in pixels, once the header is read.
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    /// Zoom relative to one image pixel per device pixel, in percent, once the size is known.
    public var zoomPercent: Double?
    /// The encoded format's name ("JPEG"), once decoded.
    public var format: String?
    /// Why the file cannot be shown, if it cannot.
    public var failure: String?

    /// Facts about `path`, the file at `index` of `count`, with nothing loaded yet.
    public init(path: String, index: Int, count: Int) {
        self.path = path
        let url = URL(fileURLWithPath: path)
        name = url.lastPathComponent
        folder = url.deletingLastPathComponent().path
        self.index = index
        self.count = count
    }

    /// The page overlay's second line: "4 / 10 · 67%" (the zoom once the size is known).
    public var positionLine: String {
        let position = "\(index + 1) / \(count)"
        guard failure == nil, let zoomPercent, zoomPercent.isFinite else { return position }
        return position + " · " + Self.percent(zoomPercent)
    }

    /// A zoom percentage as people read one: whole percents, a decimal below 10%.
    static func percent(_ value: Double) -> String {
        value < 9.95 ? String(format: "%.1f%%", value) : "\(Int(value.rounded()))%"
    }
}

/// The information panel's rows: the file, its pixels, and what its EXIF says.
public enum InformationRows {
    /// "2.3 MB (2,345,678 bytes)": decimal units, as file managers show sizes.
    static func fileSize(_ bytes: Int) -> String {
        var grouped = ""
        for (i, digit) in String(bytes).reversed().enumerated() {
            if i > 0 && i % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        grouped = String(grouped.reversed())
        let units = [(1e9, "GB"), (1e6, "MB"), (1e3, "kB")]
        guard let (size, unit) = units.first(where: { Double(bytes) >= $0.0 }) else { return "\(bytes) bytes" }
        return String(format: "%.1f %@ (%@ bytes)", Double(bytes) / size, unit, grouped)
    }

    /// "1/250 s" below a second (the reciprocal rounded, as cameras show it), "2.5 s" above.
    static func exposure(_ seconds: Double) -> String {
        if seconds < 0.5 { return "1/\(Int((1 / seconds).rounded())) s" }
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }

    /// "f/2.8", "f/11".
    static func aperture(_ f: Double) -> String {
        f == f.rounded() && f >= 10 ? "f/\(Int(f))" : String(format: "f/%.1f", f)
    }

    /// "50 mm", "4.2 mm (26 mm in 35 mm film)".
    static func focalLength(_ mm: Double, equivalent: Int?) -> String {
        let length = mm == mm.rounded() ? "\(Int(mm)) mm" : String(format: "%.1f mm", mm)
        guard let equivalent, equivalent != Int(mm.rounded()) else { return length }
        return length + " (\(equivalent) mm in 35 mm film)"
    }

    /// "48.858222° N, 2.294500° E, 35 m": six decimals are a tenth of a metre.
    static func position(latitude: Double, longitude: Double, altitude: Double?) -> String {
        var text = String(format: "%.6f° %@, %.6f° %@", abs(latitude), latitude < 0 ? "S" : "N", abs(longitude),
                          longitude < 0 ? "W" : "E")
        if let altitude, altitude.isFinite { text += String(format: ", %.0f m", altitude) }
        return text
    }

    /// The maker and the model, the maker left out when the model names it ("Canon EOS R5",
    /// "NIKON CORPORATION" + "NIKON D750" → "NIKON D750").
    static func joined(_ make: String?, _ model: String?) -> String? {
        guard let model else { return make }
        guard let make, let brand = make.split(separator: " ").first else { return model }
        return model.lowercased().hasPrefix(brand.lowercased()) ? model : make + " " + model
    }

    /// Modification dates in the viewer's time zone, to the minute.
    static func date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    /// The rows for a page: what the gallery knows (`facts`) and what the file says
    /// (`details`, nil while being read).
    public static func rows(_ facts: PageFacts, _ details: PictureDetails?) -> [(key: String, value: String)] {
        var rows: [(key: String, value: String)] = [("Folder", facts.folder)]
        if let failure = facts.failure { rows.append(("Problem", failure)) }
        if let format = facts.format { rows.append(("Format", format)) }
        if let w = facts.pixelWidth, let h = facts.pixelHeight {
            let megapixels = Double(w) * Double(h) / 1e6
            rows.append(("Dimensions", "\(w) × \(h) pixels" + (megapixels >= 0.1 ? String(format: " (%.1f MP)", megapixels) : "")))
        }
        guard let details else {
            rows.append(("File", "reading…"))
            return rows
        }
        if let problem = details.problem { rows.append(("File", problem)) }
        if let size = details.fileSize { rows.append(("File size", fileSize(size))) }
        if let modified = details.modified { rows.append(("Modified", date(modified))) }
        if details.problem == nil {
            rows.append(("Colour profile", details.colorProfile ?? "none stated (shown as sRGB)"))
        }
        guard let exif = details.exif else { return rows }
        if let camera = joined(exif.make, exif.model) { rows.append(("Camera", camera)) }
        if let lens = joined(exif.lensMake, exif.lensModel) { rows.append(("Lens", lens)) }
        if let taken = exif.dateTaken {
            rows.append(("Taken", exif.dateTakenOffset.map { taken + " " + $0 } ?? taken))
        }
        if let t = exif.exposureTime { rows.append(("Exposure", exposure(t))) }
        if let f = exif.fNumber { rows.append(("Aperture", aperture(f))) }
        if let iso = exif.iso { rows.append(("ISO", "\(iso)")) }
        if let mm = exif.focalLength { rows.append(("Focal length", focalLength(mm, equivalent: exif.focalLength35mm))) }
        if let latitude = exif.latitude, let longitude = exif.longitude {
            rows.append(("Position", position(latitude: latitude, longitude: longitude, altitude: exif.altitude)))
        }
        return rows
    }
}

/// Reads `PictureDetails` off the frame loop, one file at a time on a serial queue of its own
/// (libdispatch's global queues wake every second once used), and keeps the latest few.
final class DetailsReader: Sendable {
    /// 64 files: the details of a folder browsed back and forth (decision; each is under 1 KiB).
    static let kept = 64

    private let queue = DispatchQueue(label: "scrollkit.details")
    private let state = Mutex<(done: [String: PictureDetails], reading: Set<String>)>(([:], []))
    private let wake = Mutex<(@Sendable () -> Void)?>(nil)
    /// Reads wait for their result (offscreen runs and tests repeat frame for frame).
    let waits: Bool

    init(waits: Bool) {
        self.waits = waits
    }

    /// Called on the reading thread when a result is ready: the host's wake.
    var onReady: (@Sendable () -> Void)? {
        get { wake.withLock { $0 } }
        set { wake.withLock { $0 = newValue } }
    }

    /// Whether a read is under way.
    var isReading: Bool { state.withLock { !$0.reading.isEmpty } }

    /// The details of `path` if read, else nil, starting the read.
    func details(for path: String) -> PictureDetails? {
        let start: Bool = state.withLock { s in
            guard s.done[path] == nil, !s.reading.contains(path) else { return false }
            s.reading.insert(path)
            return true
        }
        guard start else { return state.withLock { $0.done[path] } }
        let read: @Sendable () -> Void = { [self] in
            let details = PictureDetails.read(path: path)
            state.withLock { s in
                if s.done.count >= Self.kept { s.done.removeAll() }
                s.done[path] = details
                s.reading.remove(path)
            }
            wake.withLock { $0 }?()
        }
        if waits { read() } else { queue.async(execute: read) }
        return state.withLock { $0.done[path] }
    }
}

/// The gallery's overlays, above the pager: their views, their state and their text.
final class GalleryOverlays {
    /// 16 ms: while details are read under a host that cannot be woken from another thread,
    /// the scene is ticked this often to show them (as for picture loads).
    static let pollInterval = 16.0

    let pageOverlay = PageOverlayView()
    let infoPanel = PanelView(title: "", boldKeys: false)
    let helpPanel = PanelView(title: "Keys and gestures", boldKeys: true)
    let context: GalleryKeyBindings.Context
    let reader: DetailsReader
    private(set) var fade = OverlayFade()
    private var windowSize: CGSize = .zero
    /// The page the overlay last announced; nil before the first layout.
    private var announcedIndex: Int?
    /// What the information panel shows now: its rows change only when these do.
    private var shownInformation: (facts: PageFacts, details: PictureDetails?)?

    init(context: GalleryKeyBindings.Context, waitsForDetails: Bool) {
        self.context = context
        reader = DetailsReader(waits: waitsForDetails)
        pageOverlay.isHidden = true
        helpPanel.set(title: "Keys and gestures", rows: GalleryKeyBindings.helpRows(in: context).map { ($0.keys, $0.summary) })
    }

    /// Puts the overlays on top of `root`'s views.
    func install(in root: View) {
        for view in [pageOverlay, infoPanel, helpPanel] { root.addSubview(view) }
    }

    /// Places the overlays in a window of `size` points.
    func layout(in size: CGSize) {
        windowSize = size
        if !pageOverlay.isHidden { pageOverlay.layout(in: size) }
        if !infoPanel.isHidden { placeInfo() }
        if !helpPanel.isHidden { placeHelp() }
    }

    private var panelRoom: CGSize {
        CGSize(width: windowSize.width - 2 * OverlayStyle.margin, height: windowSize.height - 2 * OverlayStyle.margin)
    }

    private func placeInfo() {
        infoPanel.layout(maxSize: panelRoom)
        infoPanel.frame.origin = CGPoint(x: OverlayStyle.margin, y: OverlayStyle.margin)
    }

    private func placeHelp() {
        helpPanel.layout(maxSize: panelRoom)
        let size = helpPanel.frame.size
        helpPanel.frame.origin = CGPoint(x: ((windowSize.width - size.width) / 2).rounded(),
                                         y: ((windowSize.height - size.height) / 2).rounded())
    }

    /// The gallery rests on or passes page `index` at `time`: a new page is announced.
    func pageChanged(to index: Int, at time: Double) {
        guard index != announcedIndex else { return }
        // The page the gallery opens on (the first, or the file named) is no change.
        let opening = announcedIndex == nil
        announcedIndex = index
        if !opening { showPageOverlay(at: time) }
    }

    /// Shows the page overlay from `time` (a page change, or `o`).
    func showPageOverlay(at time: Double) {
        guard context.showsInformation, helpPanel.isHidden else { return }
        fade.show(at: time)
    }

    /// `i`: the information panel on or off (the help goes away).
    func toggleInfo() {
        infoPanel.isHidden.toggle()
        shownInformation = nil
        if !infoPanel.isHidden { helpPanel.isHidden = true }
    }

    /// `?`: the help on or off (the information panel and the page overlay go away).
    func toggleHelp() {
        helpPanel.isHidden.toggle()
        guard !helpPanel.isHidden else { return }
        infoPanel.isHidden = true
        fade.hide()
        placeHelp()
    }

    /// Brings the overlays up to `time` with the current page's `facts` (nil when there are no
    /// pages) and says when they next need a frame.
    func update(_ currentFacts: @autoclosure () -> PageFacts?, at time: Double) -> FrameRequest {
        let alpha = fade.alpha(at: time)
        // Gathered only when something shows them.
        let facts = alpha > 0 || !infoPanel.isHidden ? currentFacts() : nil
        if alpha > 0, let facts {
            if pageOverlay.show(name: facts.name, detail: facts.positionLine) || pageOverlay.isHidden {
                pageOverlay.layout(in: windowSize)
            }
            pageOverlay.setOpacity(alpha)
            pageOverlay.isHidden = false
        } else {
            pageOverlay.isHidden = true
        }
        let request = fade.frameRequest(at: time)
        if fade.isOver(at: time) { fade.hide() }
        guard !infoPanel.isHidden, let facts else {
            infoPanel.isHidden = true
            return request
        }
        let details = reader.details(for: facts.path)
        if shownInformation.map({ $0.facts != facts || $0.details != details }) ?? true {
            shownInformation = (facts, details)
            if infoPanel.set(title: facts.name, rows: InformationRows.rows(facts, details)) { placeInfo() }
        }
        // Without a host the reader can wake, the scene is ticked until the details arrive.
        if details == nil, reader.onReady == nil, request != .nextFrame {
            let poll = time + Self.pollInterval
            if case .at(let t) = request { return .at(min(t, poll)) }
            return .at(poll)
        }
        return request
    }
}

extension FrameRequest {
    /// The more urgent of two requests: a next frame before any timer, else the earlier time.
    func merged(with other: FrameRequest) -> FrameRequest {
        switch other {
        case .idle: self
        case .nextFrame: .nextFrame
        case .at(let time): merged(with: [time])
        }
    }
}

extension GalleryScene {
    /// The brief overlay shown after a page change or `o`.
    public var pageOverlay: PageOverlayView { overlays.pageOverlay }
    /// The information panel (`i`).
    public var informationPanel: PanelView { overlays.infoPanel }
    /// The help overlay (`?`, `h`).
    public var helpOverlay: PanelView { overlays.helpPanel }
    /// The page overlay's fade.
    public var pageOverlayFade: OverlayFade { overlays.fade }

    /// What the overlays say about the current page; nil without files.
    public var currentFacts: PageFacts? {
        guard !files.isEmpty else { return nil }
        let index = currentIndex
        var facts = PageFacts(path: files[index], index: index, count: files.count)
        guard let page = pages[index] else { return facts }
        if let failure = page.failure ?? failures[page.path] {
            facts.failure = failure.reason
            return facts
        }
        facts.format = page.pictureView.picture?.format.name
        if let size = page.imageSize, size.width > 0, size.height > 0 {
            facts.pixelWidth = Int(size.width)
            facts.pixelHeight = Int(size.height)
            if page.pixelExactScale > 0 { facts.zoomPercent = Double(page.zoomScale / page.pixelExactScale) * 100 }
        }
        return facts
    }
}
