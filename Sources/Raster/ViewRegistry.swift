// Serial numbers for the views a renderer has met: names that stay with a view across frames
// and are never reused, unlike object addresses, so that tile keys and display items of a view
// that is gone can never be mistaken for a new view's.
import Foundation
import ScrollKit

/// The views a renderer has met, by object identity, each with its serial.
struct ViewRegistry {
    /// A class, so that reading the entries does not copy weak references (each copy is a
    /// runtime call; forgetting dead views reads every entry every frame).
    private final class Entry {
        weak var view: View?
        let serial: UInt64

        init(view: View, serial: UInt64) {
            self.view = view
            self.serial = serial
        }
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    /// The serial the next new view gets.
    private(set) var nextSerial: UInt64 = 1

    /// The serial of `view`, nil when it is new to the registry.
    func serial(of view: View) -> UInt64? {
        guard let entry = entries[ObjectIdentifier(view)], entry.view === view else { return nil }
        return entry.serial
    }

    /// Records `view` under `serial` (at least `nextSerial`); returns the serial of a view
    /// that had the same address and is replaced.
    mutating func admit(_ view: View, serial: UInt64) -> UInt64? {
        let id = ObjectIdentifier(view)
        let replaced = entries[id]?.serial
        entries[id] = Entry(view: view, serial: serial)
        nextSerial = max(nextSerial, serial + 1)
        return replaced
    }

    /// Forgets the views that no longer exist; returns their serials.
    mutating func removeDead() -> [UInt64] {
        var dead: [UInt64] = []
        for (id, entry) in entries where entry.view == nil {
            dead.append(entry.serial)
            entries[id] = nil
        }
        return dead
    }
}
