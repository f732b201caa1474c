// `image-viewer -`: lists of paths on standard input (newlines or NULs), one picture's bytes, and
// hostile input: absurd lines, binary noise, a runaway stream, a picture past its limit.
import Foundation
@testable import Gallery
import Glibc
import SafeOutput
import Testing
import TestSupport

/// Reads `bytes` through a pipe as `StandardInput.read` would read standard input; a writer
/// thread feeds the pipe so input larger than its buffer flows.
private func readThroughPipe(_ bytes: [UInt8], separator: UInt8 = UInt8(ascii: "\n"), maxPictureBytes: Int = 1 << 20,
                             maxListBytes: Int = StandardInput.maxListBytes, folder: String? = nil) -> (StandardInput.Content, [String]) {
    var ends: [Int32] = [0, 0]
    precondition(pipe(&ends) == 0)
    let writer = ends[1]
    let done = DispatchSemaphore(value: 0)
    Thread {
        _ = try? Descriptor.writeAll(bytes, to: writer)
        close(writer)
        done.signal()
    }.start()
    var problems: [String] = []
    let content = StandardInput.read(fd: ends[0], separator: separator, maxPictureBytes: maxPictureBytes,
                                     maxListBytes: maxListBytes, folder: { folder }, problems: &problems)
    // A reader that stopped early leaves the writer blocked: closing the read end ends it (EPIPE).
    close(ends[0])
    done.wait()
    return (content, problems)
}

@Suite("Standard input", .timeLimit(.minutes(1)))
struct StandardInputTests {
    @Test("A newline list and a NUL list give their paths in order, empty entries skipped, names kept as bytes")
    func lists() throws {
        let lines = Array("a.png\n\nsub/b c.png\n".utf8) + [0x63, 0xE9, 0x0A]
        let (content, problems) = readThroughPipe(lines)
        #expect(content == .paths([RawPath("a.png"), RawPath("sub/b c.png"), RawPath(bytes: [0x63, 0xE9])]))
        #expect(problems.isEmpty)
        // With -0 a newline is part of a name.
        let (nul, nulProblems) = readThroughPipe(Array("a\nb.png\0c.png\0\0".utf8), separator: 0)
        #expect(nul == .paths([RawPath("a\nb.png"), RawPath("c.png")]) && nulProblems.isEmpty)
    }

    @Test("Absurd lines are left out and named by number; past 20 the rest are counted")
    func absurdLines() {
        var problems: [String] = []
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 5000)
        let input = Array("ok.png\n".utf8) + long + Array("\nnul\0inside\n".utf8)
        #expect(StandardInput.paths(in: input, separator: UInt8(ascii: "\n"), problems: &problems) == [RawPath("ok.png")])
        #expect(problems == [
            "stdin line 2: 5000 bytes, longer than a path can be (4096), left out",
            "stdin line 3: holds a NUL byte, which no path can (for NUL-separated paths give -0), left out",
        ])
        problems = []
        let noisy = Array(repeating: long + [UInt8(ascii: "\n")], count: 30).flatMap { $0 }
        #expect(StandardInput.paths(in: noisy, separator: UInt8(ascii: "\n"), problems: &problems).isEmpty)
        #expect(problems.count == 21 && problems.last == "stdin: 10 more entries left out")
    }

    @Test("Mutated lists never yield a path that is empty, too long or holds a separator or NUL", arguments: [0, 1, 2, 3])
    func fuzzedLists(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        for _ in 0..<200 {
            let separator: UInt8 = Bool.random(using: &rng) ? 0 : UInt8(ascii: "\n")
            var bytes = Array("photos/a.png\nb.png\0c.png\n".utf8)
            for _ in 0..<Int.random(in: 0...40, using: &rng) {
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...bytes.count, using: &rng))
                case 1 where !bytes.isEmpty: bytes.remove(at: Int.random(in: 0..<bytes.count, using: &rng))
                default: bytes += [UInt8](repeating: UInt8.random(in: 0...255, using: &rng), count: Int.random(in: 0...6000, using: &rng))
                }
            }
            var problems: [String] = []
            let paths = StandardInput.paths(in: bytes, separator: separator, problems: &problems)
            for path in paths {
                #expect(!path.bytes.isEmpty && path.bytes.count <= StandardInput.maxLineBytes)
                #expect(!path.bytes.contains(0) && !path.bytes.contains(separator))
            }
            #expect(problems.count <= StandardInput.maxProblemLines + 1)
        }
    }

    @Test("A picture's bytes become the file 'stdin'; one past its limit is refused and nothing is left")
    func picture() throws {
        let folder = try TemporaryFolder()
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Assets.sunset)))
        let (content, problems) = readThroughPipe(png, maxPictureBytes: png.count, folder: folder.path)
        #expect(content == .picture(folder.path + "/stdin") && problems.isEmpty)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.path + "/stdin"))) == png)
        unlink(folder.path + "/stdin")
        let (refused, why) = readThroughPipe(png, maxPictureBytes: png.count - 1, folder: folder.path)
        #expect(refused == .paths([]))
        #expect(why == ["stdin: the picture is larger than \(png.count - 1) bytes, not shown"])
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/stdin"))
    }

    @Test("A list that does not end is read up to its limit, its cut last line dropped, and the rest left unread")
    func runawayList() {
        // The limit lowered from 64 MiB to 1 MiB: the same code, a faster test.
        let limit = 1 << 20
        let line = Array("/nonexistent/folder/picture-with-a-long-name.png\n".utf8)
        let input = (0..<(limit / line.count + 1000)).flatMap { _ in line }
        let (content, problems) = readThroughPipe(input, maxListBytes: limit)
        guard case .paths(let paths) = content else {
            Issue.record("a list, not \(content)")
            return
        }
        #expect(paths.count == limit / line.count)
        #expect(paths.allSatisfy { $0.bytes + [UInt8(ascii: "\n")] == line })
        #expect(problems == ["stdin: the list is longer than \(limit) bytes; the rest is ignored"])
    }
}
