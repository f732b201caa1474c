// Names the picture loader can open for files whose names are not UTF-8, and the private folder
// that holds them and a picture read from standard input.
import Foundation
import SafeOutput
import Synchronization

/// UTF-8 paths for files the loader could not otherwise open.
///
/// The loader (in Pictures) takes String paths, and a String cannot hold a name such as
/// "caf\xE9.jpg" (Latin-1), so each such file gets a symbolic link in a private folder, named
/// with the file's escaped name so messages and error cards show it, pointing at the file's
/// real bytes. A file keeps its link for the run: a folder listed again (a change seen by
/// `FolderWatcher`) names it as before, so its page is recognised. The folder is removed at exit.
public final class PathAliases: Sendable {
    /// The one set of links of this process (listing runs on the main thread and on the
    /// folder watcher's).
    public static let shared = PathAliases()

    private struct State {
        var folder: PrivateFolder?
        var count = 0
        var links: [RawPath: String] = [:]
    }

    private let state = Mutex(State())

    /// An empty set; the folder is made when first needed.
    init() {}

    /// A UTF-8 path that opens `file`: the path itself when it is UTF-8, else its link; the
    /// escaped name itself when no link can be made (the load then fails with a message
    /// naming the file).
    public func path(for file: RawPath) -> String {
        if let text = file.string { return text }
        return state.withLock { state in
            if let link = state.links[file] { return link }
            guard let holder = Self.newHolder(&state) else { return file.description }
            var target = file
            if file.bytes.first != UInt8(ascii: "/") {
                target = RawPath(FileManager.default.currentDirectoryPath).appending(file.bytes)
            }
            let link = holder + "/" + TerminalText.escaped(bytes: file.lastComponent)
            guard (try? SystemCalls.makeSymbolicLink(to: target, at: RawPath(link))) != nil else { return file.description }
            state.links[file] = link
            return link
        }
    }

    /// A new empty folder inside the private one, for a file that must keep its own name
    /// ("stdin" for a picture read from standard input); nil when none can be made.
    public func newFolder() -> String? {
        state.withLock { Self.newHolder(&$0) }
    }

    private static func newHolder(_ state: inout State) -> String? {
        if state.folder == nil {
            state.folder = try? PrivateFolder(prefix: "scrollkit-names")
            if state.folder != nil { atexit { PathAliases.shared.removeFolder() } }
        }
        guard let folder = state.folder else { return nil }
        state.count += 1
        let holder = folder.appending("\(state.count)")
        return (try? SystemCalls.makeFolder(RawPath(holder), permissions: .ownerReadWriteExecute)) != nil ? holder : nil
    }

    private func removeFolder() {
        state.withLock { $0.folder?.remove() }
    }
}
