import ArgumentParser
import Glibc
import InboxFormat
import InboxFormatSupport

/// `inbox-format-server`, the executable that runs `serve` and `preview`:
/// it alone links the HTTP server (Hummingbird, SwiftNIO,
/// swift-configuration, …), so that `inbox-format` starts without them.
///
/// `inbox-format` parses and checks those subcommands as every other (so
/// their help and their usage errors are its own), then replaces itself
/// with the server executable (execve): the same process id, so a
/// supervisor's signals and systemd's unit reach the server, with the
/// arguments and the environment the command received, which it parses
/// and checks again.
package enum ServerExecutable {
  /// Its file name.
  package static let name = "inbox-format-server"

  /// Where it is looked for, in order: beside this executable (a build
  /// directory), then in `../libexec/inbox-format/` from it (the Debian
  /// package's `/usr/libexec/inbox-format/`). Relative to this executable's
  /// own file, never `PATH`: the two always come from the same build.
  /// Paths are bytes, as the kernel gives them.
  static func candidates(besides executable: [UInt8]) -> [[UInt8]] {
    let directory = executable[..<(executable.lastIndex(of: UInt8(ascii: "/")) ?? executable.startIndex)]
    return ["/\(name)", "/../libexec/inbox-format/\(name)"].map { Array(directory) + Array($0.utf8) }
  }

  /// Replaces the process with the server executable, with the command's
  /// arguments as it received them (bytes, the program's name first).
  ///
  /// Returns only by throwing: exit 69 (EX_UNAVAILABLE) when there is no
  /// server executable to run, or it cannot be run, reported on standard
  /// error.
  static func replaceProcess() throws -> Never {
    guard let executable = ownPath() else {
      StandardError.write("inbox-format: cannot find \(name): /proc/self/exe cannot be read")
      throw ExitStatus.unavailable
    }
    let arguments = (0..<Int(CommandLine.argc)).map { CommandLine.unsafeArgv[$0] } + [nil]
    // The environment as the command received it (``ProcessSetup`` has
    // taken variables out of `environ` since); copies that outlive the
    // calls, as execve returns only when it fails.
    let variables = EnvironmentEntries.atStart.map { strdup($0) } + [nil]
    let paths = candidates(besides: executable)
    for path in paths {
      execve(path.map { CChar(bitPattern: $0) } + [0], arguments, variables)
      let error = errno
      if error == ENOENT || error == ENOTDIR { continue }
      StandardError.write("inbox-format: cannot run \(quoted(bytes: path)): \(String(cString: strerror(error)))")
      throw ExitStatus.unavailable
    }
    StandardError.write(
      "inbox-format: serve and preview need \(name), which is not installed: neither "
        + paths.map { quoted(bytes: $0) }.joined(separator: " nor ") + " exists")
    throw ExitStatus.unavailable
  }

  /// This executable's path, as the kernel has it.
  private static func ownPath() -> [UInt8]? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return buffer[..<count].map { UInt8(bitPattern: $0) }
  }
}
