// Where each picture's page sits in the gallery's pager, and how `--wrap` lets the last page lead
// on to the first with ScrollKit's paging left as it is.

/// The pager's slots: one per file and, when wrapping, a copy of the last file's page before
/// the first and of the first file's after the last.
///
/// Wrapping visibly, as a swipe past the last page shows the first sliding in, is the carousel
/// iOS apps build on a paging UIScrollView: the content holds copies of the end pages beyond
/// each end, the swipe pages onto the copy like onto any page, and once the pager rests there
/// it is moved, unseen, to the page the copy shows. ScrollKit's paging, rubber band and
/// delegate calls stay untouched (a paging scroll view that itself wrapped would need an
/// unbounded content and offset, which UIScrollView does not have); keys and the slideshow use
/// the same copies, so all three wrap alike.
struct PageSlots: Equatable {
    /// The number of files.
    var fileCount: Int
    /// Whether wrapping was asked for (`GalleryScene.Options.wraps`).
    var wraps: Bool

    /// Whether the copies exist: wrapping, with two files or more (one has nothing to wrap to).
    var isWrapping: Bool { wraps && fileCount > 1 }

    /// The number of slots.
    var count: Int { fileCount + (isWrapping ? 2 : 0) }

    /// The file shown in slot `slot` (0..<count).
    func file(atSlot slot: Int) -> Int {
        isWrapping ? ((slot - 1) % fileCount + fileCount) % fileCount : slot
    }

    /// The slot of file `index` itself (not a copy).
    func slot(ofFile index: Int) -> Int { isWrapping ? index + 1 : index }

    /// For a copy's slot at either end, the slot of the file it copies; nil for any other slot.
    func restingSlot(for slot: Int) -> Int? {
        guard isWrapping, slot == 0 || slot == count - 1 else { return nil }
        return self.slot(ofFile: file(atSlot: slot))
    }
}
