// Running a command-line tool so that its parsing messages go through the same safe output as
// everything else: arguments quoted in an error are escaped, and a help text that cannot be
// written ends with a failure status instead of vanishing.
import ArgumentParser
import Glibc

/// Exit status of a tool whose output could not be written (a full disk, a closed pipe):
/// 74, EX_IOERR of sysexits.h.
public let outputFailureStatus: Int32 = 74

extension ParsableCommand {
    /// Parses the command line and runs the command, as `main()` does, but prints parsing
    /// errors with control characters escaped (they quote the arguments) and exits with
    /// `outputFailureStatus` when the help or version text cannot be written.
    public static func safeMain() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            let text = fullMessage(for: error)
            if code == .success {
                guard !text.isEmpty else { Glibc.exit(0) }
                do {
                    try Descriptor.writeAll(Array((text + "\n").utf8), to: STDOUT_FILENO)
                } catch {
                    Diagnostics.line("\(commandName): writing to standard output failed: \(error)")
                    Glibc.exit(outputFailureStatus)
                }
            } else if !text.isEmpty {
                Diagnostics.lines(text)
            }
            Glibc.exit(code.rawValue)
        }
    }

    private static var commandName: String {
        configuration.commandName ?? String(describing: Self.self)
    }
}
