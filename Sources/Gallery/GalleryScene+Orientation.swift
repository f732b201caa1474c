// Turning and flipping pictures with swayimg's keys, on top of their EXIF orientation, each file
// keeping its turn for the rest of the session.
import Pictures

extension GalleryScene {
    /// Turns or flips the picture on screen (keys `[` `]` F5–F8): every page of its file is
    /// redrawn turned and fitted afresh, and pages of it made later (paging away and back, a
    /// wrap's copy) show it turned too. A page showing an error card has nothing to turn.
    func turnCurrentPage(_ command: GalleryCommand) {
        guard let page = currentPage, page.loadState != .failed else { return }
        let step: Orientation
        switch command {
        case .rotateLeft: step = .left
        case .rotateRight: step = .right
        case .flipHorizontal: step = .upMirrored
        case .flipVertical: step = .downMirrored
        default: return
        }
        let turned = orientation(ofFile: page.path).followed(by: step)
        orientations[page.path] = turned == .up ? nil : turned
        for other in pages.values where other.path == page.path { other.setOrientation(turned) }
        // A replay's page gets the turned size and fits it, as the live one did.
        reportLayout(of: page)
    }

    /// The turn the user gave the file at `path` (`.up` for none).
    public func orientation(ofFile path: String) -> Orientation { orientations[path] ?? .up }
}
