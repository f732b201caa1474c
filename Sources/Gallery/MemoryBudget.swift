// One memory budget for everything the gallery loads: the tile cache takes its share, the picture
// in the middle the most of the rest, the neighbour ahead a screen's worth and the one behind a
// sixteenth of that (`PageView.keepReducedDetail`); the private folder
// where pictures beyond the budget keep their finer levels; and the free pages given back to the
// system once the gallery comes to rest.
import CMalloc
import Dispatch
import Foundation
import Glibc
import Pictures
import Raster
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

extension GalleryScene {
    /// 4 screens of tiles: what the gallery's tile cache holds at most, below `cacheBudget`
    /// (decision: the page shown and the page a swipe either way reveals, made ahead of need,
    /// and room to draw a screen of new tiles while the stale ones they replace still stand in
    /// for them, as a zoom or an animation's next frame does).
    public static let screensOfTiles = 4
    /// 16 MiB, 64 tiles: the least tile cache (decision: a small window still holds the coarse
    /// backstop tiles and a zoom's level besides its few screens).
    public static let leastTileBudget = 16 << 20

    /// The tile cache a window of `width`×`height` device pixels needs: `screensOfTiles`
    /// screens, each counted with the part tiles its edges cut (1920×1080: 9×6 tiles of 256²,
    /// 13.5 MiB a screen, 54 MiB in all), at least `leastTileBudget`, never more than `ceiling`.
    /// The cache grew to its whole share of the memory budget (96 MiB by default) as the pager
    /// turned pages, whatever the window.
    public static func tileBudget(width: Int, height: Int, ceiling: Int) -> Int {
        let side = Renderer.tileSize
        let across = (max(width, 1) + side - 1) / side + 1, down = (max(height, 1) + side - 1) / side + 1
        return min(ceiling, max(leastTileBudget, screensOfTiles * across * down * side * side * 4))
    }
}

extension GalleryScene.Options {
    /// What one picture may hold in memory (`DecodeLimits.memoryBudget`), in bytes: two fifths
    /// of what the tile cache leaves. The picture in the middle holds its share, and when the
    /// pager moves on, the next one decodes its share before the first has let go; the
    /// neighbours keep screen-size pictures (the one behind reduced) in the fifth that is left.
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

/// Gives the allocator's free pages back to the system, off the frame loop.
///
/// Paging through pictures frees their pixels and evicts tiles, 256 KiB each, most of them made
/// on the renderer's worker threads; glibc keeps what those threads' arenas freed for reuse, so
/// after paging through 30 pictures of 2560×1600 the viewer held 98 MB of heap of which 60 MB
/// were in use (malloc_stats). `malloc_trim` returns the free pages of every arena: resident
/// memory fell from 147 to 111 MB. It took 4-9 ms for some 70 MB freed in tiles here, so it
/// runs on a queue of its own when the gallery rests, never while it animates.
public enum FreeMemory {
    /// A serial queue: its thread comes from libdispatch's overcommit pool, which, unlike the
    /// global queues, starts no once-a-second pool monitor (idle must cost nothing).
    private static let queue = DispatchQueue(label: "scrollkit.gallery.free-memory", qos: .utility)

    /// Starts returning the free pages (`malloc_trim(0)`) in the background.
    @Sendable public static func returnToSystem() {
        queue.async { _ = malloc_trim(0) }
    }

    /// 1 MiB: blocks this large or larger get mappings of their own, given back when freed:
    /// pictures and levels. Below it are tiles (256 KiB), rows and small objects, which the
    /// arenas keep for reuse, so a tile made in a frame takes memory already faulted in.
    public static let ownMappingBytes: Int32 = 1 << 20

    /// Makes pictures and levels leave as soon as they are freed, and caps the arenas; call once
    /// at start, before other threads allocate. glibc
    /// maps a block of 128 KiB or more on its own, but raises that threshold to the size of
    /// each such block freed, up to 32 MiB (mallopt(3), M_MMAP_THRESHOLD): after the first
    /// picture, every 4 MB picture decoded came from a thread's arena, whose pages stayed there
    /// when it was freed, until the gallery rested and trimmed. Setting the threshold keeps it
    /// fixed. Measured under headless sway at 1920×1080 paging through 30 pictures of
    /// 2560×1600 (`Scripts/bench-viewer.sh --quick`): peak 89.6 → 82.0 MiB, idle 45.0 → 43.9 MiB,
    /// first frames and `Scripts/bench-fling.sh` (0 late) unchanged. At 256 KiB, which maps
    /// every tile apart, the paging peak was 1.5 MB lower, but each tile made in a frame
    /// faulted its 64 pages in, and on one core zoom frames had come late when that was tried.
    public static func mapLargeBlocksApart() {
        _ = mallopt(M_MMAP_THRESHOLD, ownMappingBytes)
        // One arena per CPU, not glibc's eight: threads beyond the CPUs share an arena instead
        // of each keeping freed memory in one of its own (the loader, the painting and tile
        // threads, Dispatch's workers: four arenas of 0.1–0.8 MB here), and no more of them can
        // run at once. After paging through 30 pictures at 1920×1080 on 2 CPUs: RssAnon 14.1 to
        // 13.7 MB, two runs each. A user's MALLOC_ARENA_MAX is left to rule.
        if getenv("MALLOC_ARENA_MAX") == nil {
            _ = mallopt(M_ARENA_MAX, Int32(clamping: max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        }
    }
}
