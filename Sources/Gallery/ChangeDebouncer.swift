// When the changes seen in watched folders are worth a new listing: after the folder has been
// quiet a moment, and with the files still being written held back. A pure state machine; time
// is a parameter.
import SafeOutput

/// Gathers the notices of a folder watch into settled batches.
///
/// A copy shows up as a file created, written in pieces, then closed (IN_CLOSE_WRITE), or as a
/// finished file moved in (IN_MOVED_TO: rsync, `mv`, an editor's save). A file is "being
/// written" from its first notice until it is closed, moved in or removed: the watcher does not
/// show such a file yet, so a picture half copied never shows as broken. A batch is reported
/// once no notice has come for `settle` ms, so copying a hundred files relists once, not a
/// hundred times; but never later than `longest` ms after its first notice while notices keep
/// coming, so a long copy shows its pictures as they arrive.
struct ChangeDebouncer: Equatable {
    /// 250 ms of quiet settles a batch (decision: longer than the gap between the close and
    /// rename of tools that write a temporary file, short enough to feel immediate).
    static let settle = 250.0
    /// 1000 ms: a batch is reported at most this long after its first notice.
    static let longest = 1000.0
    /// 10 s: a file written to with no notice for this long (its writer stalled, or holds it
    /// open without writing) is shown as it is; when it is closed at last it reloads.
    static let staleWriting = 10_000.0

    /// What the watcher learnt from one kernel event.
    enum Notice: Equatable {
        /// A file was created or changed in place: it is not finished until closed.
        case writing(RawPath)
        /// A file was closed after writing, moved in, or made as a link: it is complete.
        case written(RawPath)
        /// A file was removed or moved out.
        case removed(RawPath)
        /// Something else changed the listing (a folder appeared or went, attributes, the
        /// kernel's queue overflowed).
        case listingChanged
    }

    /// What a settled batch says.
    struct Batch: Equatable {
        /// Files completed since the last batch: their pages reload.
        var written: Set<RawPath>
    }

    /// Files being written, with the time of their latest notice (ms).
    private(set) var writing: [RawPath: Double] = [:]
    private var written: Set<RawPath> = []
    private var firstNotice: Double?
    private var lastNotice: Double?

    /// Takes one notice at `now` (ms).
    mutating func note(_ notice: Notice, at now: Double) {
        switch notice {
        case .writing(let path): writing[path] = now
        case .written(let path):
            writing[path] = nil
            written.insert(path)
        case .removed(let path):
            writing[path] = nil
            written.remove(path)
        case .listingChanged: break
        }
        firstNotice = firstNotice ?? now
        lastNotice = now
    }

    /// When `take` will next have a batch (ms): the settle or the longest wait of the pending
    /// notices, or the moment a written file goes stale; nil when nothing is pending (the
    /// watcher then waits without a timeout).
    var deadline: Double? {
        var earliest: Double?
        if let first = firstNotice, let last = lastNotice { earliest = min(last + Self.settle, first + Self.longest) }
        if let oldest = writing.values.min() { earliest = min(earliest ?? .infinity, oldest + Self.staleWriting) }
        return earliest
    }

    /// The batch due at `now`, if any: files that went stale are taken as written. Resets
    /// the pending notices; files still being written stay.
    mutating func take(at now: Double) -> Batch? {
        guard let due = deadline, now >= due else { return nil }
        for (path, time) in writing where time + Self.staleWriting <= now {
            writing[path] = nil
            written.insert(path)
        }
        defer {
            written = []
            firstNotice = nil
            lastNotice = nil
        }
        return Batch(written: written)
    }
}
