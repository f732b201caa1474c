// Showing a watched folder's changes: pictures added appear in sort order, removed ones vanish,
// rewritten ones reload, and the page on screen stays on screen.
import Foundation
import ScrollKit

extension GalleryScene {
    /// Takes the changes a `FolderWatcher` posted and applies the newest once the pager rests
    /// (a list that moved under a finger or a glide would turn the page away from it).
    func applyFolderChanges() {
        guard let mailbox = folderChanges else { return }
        for change in mailbox.drain() {
            // A newer list replaces an older one; the files to reload add up.
            let rewritten = (pendingFolderChange?.rewritten ?? []).union(change.rewritten)
            pendingFolderChange = FolderChange(files: change.files, rewritten: rewritten)
        }
        guard let change = pendingFolderChange, pagerRests, !router.isTouching else { return }
        pendingFolderChange = nil
        replaceFiles(change.files, rewritten: change.rewritten)
    }

    /// Shows `newFiles` instead of `files`, reloading the pages of `rewritten`.
    ///
    /// The page on screen stays when its file is still listed; when it went, the page shown
    /// is the nearest one that remains (the next one after it, else the one before). Pages of
    /// files still listed keep their picture, zoom and turn; a file listed more than once
    /// keeps its pages in order of appearance. A file that failed is tried again once rewritten.
    public func replaceFiles(_ newFiles: [String], rewritten: Set<String> = []) {
        let old = files
        let oldCurrent = old.isEmpty ? nil : currentIndex
        let moved = Self.matchOccurrences(from: old, to: newFiles)
        files = newFiles
        slots.fileCount = newFiles.count
        targetSlot = nil
        failures = failures.filter { newFiles.contains($0.key) && !rewritten.contains($0.key) }
        reported = reported.filter { newFiles.contains($0.key) && !rewritten.contains($0.key) }
        // Pages of files still listed move to their new slot; the wrap's copies at the ends
        // are made again where needed.
        var kept: [Int: PageView] = [:]
        let oldSlots = PageSlots(fileCount: old.count, wraps: options.wraps)
        for (slot, page) in pages {
            guard oldSlots.restingSlot(for: slot) == nil, let index = moved[page.index] else {
                drop(page)
                continue
            }
            page.index = index
            if rewritten.contains(page.path) {
                if let token = page.loadToken { endLoad(token) }
                page.reload()
            }
            let newSlot = slots.slot(ofFile: index)
            page.frame = pageFrame(newSlot)
            kept[newSlot] = page
        }
        pages = kept
        var current = 0
        if let oldCurrent {
            // The page shown, else the nearest survivor after it, else before it.
            let after = (oldCurrent..<old.count).lazy.compactMap { moved[$0] }.first
            let before = (0..<oldCurrent).reversed().lazy.compactMap { moved[$0] }.first
            current = after ?? before ?? 0
        }
        updateEmptyCard()
        layoutAfterChange(showing: current)
        reportTitleIfChanged()
    }

    /// Lays the pager out for the new files with `index` on screen, without moving anything
    /// the user sees when that page is the one shown before.
    private func layoutAfterChange(showing index: Int) {
        guard windowSize.width > 0 else { return }
        pager.contentSize = CGSize(width: CGFloat(slots.count) * pageStride, height: windowSize.height)
        let slot = files.isEmpty ? 0 : slots.slot(ofFile: index)
        let offset = CGPoint(x: CGFloat(slot) * pageStride, y: 0)
        if pager.contentOffset != offset {
            pager.setContentOffset(offset, animated: false)
        }
        layoutEmptyCard()
        updatePages()
        onNeedsFrame?()
    }

    /// For each index of `old`, the index of the same file in `new` (the n-th occurrence of a
    /// path maps to its n-th occurrence), or nothing when it is gone.
    static func matchOccurrences(from old: [String], to new: [String]) -> [Int: Int] {
        var places: [String: [Int]] = [:]
        for (index, file) in new.enumerated() { places[file, default: []].append(index) }
        var used: [String: Int] = [:]
        var result: [Int: Int] = [:]
        for (index, file) in old.enumerated() {
            let n = used[file, default: 0]
            used[file] = n + 1
            if let found = places[file], n < found.count { result[index] = found[n] }
        }
        return result
    }
}
