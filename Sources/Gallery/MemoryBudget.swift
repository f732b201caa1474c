// One memory budget for everything the gallery loads: the tile cache takes its share, the picture
// in the middle the most of the rest, its neighbours a screen's worth each; and the private folder
// where pictures beyond the budget keep their finer levels.
import Foundation
import Glibc
import Pictures
import SafeOutput
import Synchronization

extension GalleryScene {
    /// 256 MiB: the default memory for pictures and tiles (decision: the budget issue 12 sets
    /// is 300 MB over the viewer's idle figure, which leaves room for the decoders' own
    /// buffers and the allocator's slack).
    public static let defaultMemoryBudget = 256 << 20
}

extension GalleryScene {
    /// 2³² pixels (65536², 4.3 gigapixels, about the largest JPEG can declare): the gallery's
    /// pixel limit. Within it the memory budget decides what is kept of a picture, not its size.
    public static let maxPixels = 1 << 32
}

extension GalleryScene.Options {
    /// What one picture may hold in memory (`DecodeLimits.memoryBudget`), in bytes: two fifths
    /// of what the tile cache leaves. The picture in the middle holds its share, and when the
    /// pager moves on, the next one decodes its share before the first has let go; the
    /// neighbours keep screen-size pictures in the fifth that is left.
    public var pictureBudget: Int { max(0, memoryBudget - cacheBudget) / 5 * 2 }
}

/// The private folder where pictures over the memory budget keep their finer levels: made on
/// first use in $TMPDIR or /var/tmp (meant for large files, and on disk where /tmp may be held
/// in memory), mode 0700, and removed at exit. The level files in it are unlinked as soon as
/// they are made, so a process that dies leaves at most an empty folder.
public final class LevelFolder: Sendable {
    /// The one folder of this process.
    public static let shared = LevelFolder()

    private let folder = Mutex<PrivateFolder?>(nil)

    private init() {}

    /// The folder's path, made now if needed; nil when it cannot be made (pictures over the
    /// budget then keep only what memory holds).
    public func path() -> String? {
        folder.withLock { folder in
            if folder == nil {
                let tmp = getenv("TMPDIR").map { String(cString: $0) } ?? ""
                folder = try? PrivateFolder(prefix: "scrollkit-levels", parent: tmp.isEmpty ? "/var/tmp" : tmp)
                if folder != nil { atexit { LevelFolder.shared.remove() } }
            }
            return folder?.path
        }
    }

    private func remove() {
        folder.withLock { $0?.remove() }
    }
}
