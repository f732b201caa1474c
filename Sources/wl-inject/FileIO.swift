// Lines to standard output and standard error, each in one unbuffered write so a test reading
// a pipe sees it at once (swift-system's descriptor, SafeOutput's whole-write loop).
import SafeOutput
import SystemPackage

/// Writes `text` and a newline to `fd`; a failed write is dropped (there is nowhere to report it).
func writeLine(_ text: String, to fd: FileDescriptor) {
    _ = try? fd.writeAllWaiting(Array((text + "\n").utf8))
}
