// How often each thread of a process ran, from /proc: the measure of "idle wakes nothing".
import CompositorHarness
import Foundation
import Glibc

/// Context switches of every thread of `pid` (voluntary and involuntary), by thread id, with
/// the thread's name.
func contextSwitches(of pid: pid_t) -> [String: (name: String, switches: Int)] {
    let tasks = "/proc/\(pid)/task"
    var result: [String: (String, Int)] = [:]
    for tid in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
        guard let status = try? String(contentsOfFile: "\(tasks)/\(tid)/status", encoding: .utf8) else { continue }
        var name = "?", switches = 0
        for line in status.split(separator: "\n") {
            let fields = line.split(whereSeparator: \.isWhitespace)
            if line.hasPrefix("Name:") { name = fields.dropFirst().joined(separator: " ") }
            if line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") {
                switches += Int(fields.last ?? "") ?? 0
            }
        }
        result[tid] = (name, switches)
    }
    return result
}

/// The threads of `pid` that woke during the next `seconds` seconds ("name (tid): switches"),
/// and every thread's "name tid". A thread that appeared meanwhile counts with all its switches.
func threadsWaking(in pid: pid_t, during seconds: UInt32) -> (woke: [String], threads: [String]) {
    let before = contextSwitches(of: pid)
    sleep(seconds)
    let after = contextSwitches(of: pid)
    let woke = after.compactMap { tid, now -> String? in
        let delta = now.switches - (before[tid]?.switches ?? 0)
        return delta == 0 ? nil : "\(now.name) (\(tid)): \(delta)"
    }
    return (woke.sorted(), after.map { "\($0.value.name) \($0.key)" }.sorted())
}

/// Waits until no thread of `pid` but its main one ran for a whole second: work started
/// before (a neighbour picture decoding, slowed by a loaded machine) has finished. Throws after
/// `timeout` seconds, naming the threads still running.
func awaitOtherThreadsQuiet(_ pid: pid_t, timeout: Double = 20) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        let before = contextSwitches(of: pid)
        usleep(1_000_000)
        let busy = contextSwitches(of: pid).filter { tid, now in
            tid != "\(pid)" && now.switches != (before[tid]?.switches ?? 0)
        }
        if busy.isEmpty { return }
        guard Date() < deadline else {
            throw HarnessError(description: "threads of \(pid) still running after \(timeout) s: \(busy.map { "\($0.value.name) (\($0.key))" })")
        }
    }
}
