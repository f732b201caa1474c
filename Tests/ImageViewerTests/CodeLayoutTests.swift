// The viewer's binary as the linker laid it out: the functions sessions run (the list
// Scripts/make-symbol-order.sh writes) placed together at the start of its code, so that what
// stays resident of it is a few contiguous megabytes, not pages all over its 18 MB.
import Foundation
import Testing

@Suite("The viewer's code layout")
struct CodeLayoutTests {
    /// `nm --defined-only` of the viewer built beside this test bundle: each code symbol's
    /// address, by name (a name defined twice keeps its first address).
    static func codeSymbols(of binary: String) throws -> [String: UInt64] {
        let nm = Process()
        nm.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        nm.arguments = ["nm", "--defined-only", binary]
        let output = Pipe()
        nm.standardOutput = output
        try nm.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        nm.waitUntilExit()
        var symbols: [String: UInt64] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 2)
            guard fields.count == 3, "tTwW".contains(fields[1]), let address = UInt64(fields[0], radix: 16) else { continue }
            if symbols[String(fields[2])] == nil { symbols[String(fields[2])] = address }
        }
        return symbols
    }

    @Test("The listed functions lie in the first megabytes of the code, in the list's order where each has a section of its own")
    func orderedCode() throws {
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let list = try String(contentsOf: package.appendingPathComponent("Packaging/symbol-order.txt"), encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
        try #require(list.count > 1000, "the list holds \(list.count) names")
        let viewer = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("image-viewer").path
        try #require(FileManager.default.isExecutableFile(atPath: viewer), "no image-viewer at \(viewer)")
        let symbols = try Self.codeSymbols(of: viewer)
        let addresses = symbols.values.sorted()
        let (start, end) = (try #require(addresses.first), try #require(addresses.last))
        let listed = list.compactMap { symbols[$0] }
        // The viewer beside this bundle is built with -enable-testing and assertions, which
        // inline and specialize otherwise than the release build the list comes from: about
        // half of the names are there (2,816 of 5,467), enough to see how they were placed.
        try #require(listed.count >= 1000, "\(listed.count) of the \(list.count) listed functions are in the viewer")
        // Unordered, the listed functions are spread over all the code (half of them beyond its
        // middle); ordered, all but the few the linker could not move lie in the first half.
        let early = listed.filter { $0 < start + (end - start) / 2 }.count
        #expect(early * 100 >= listed.count * 97, "\(early) of \(listed.count) listed functions in the first half of the code")
        // The first hundred come in the list's order, but for those in a file whose functions
        // share one section (Swift's standard library, C files), which moves as a whole: 89 of
        // 99 pairs ascend in this build; unordered, about half.
        let first = Array(listed.prefix(100))
        let ascending = zip(first, first.dropFirst()).filter { $0 < $1 }.count
        #expect(ascending >= 75, "only \(ascending) of the first 100 listed functions follow the one before")
    }
}
