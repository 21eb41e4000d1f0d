import Glibc
import InboxFormatCLI

/// `inbox-format-server`: the command that `inbox-format serve` and
/// `inbox-format preview` become (execve, the same arguments and
/// environment): it parses them again, and runs those two with the server.
@main
enum InboxFormatServerMain {
  static func main() async {
    nameProcess()
    await InboxFormatCommand.main(server: ServerCommandsRunner())
  }

  /// Names the process `inbox-format`, the command that was run, as `ps`,
  /// `top` and `pgrep -x` show it: the kernel would keep the first 15 bytes
  /// of this file's name (`inbox-format-se`). Its arguments stay the
  /// command's own in `/proc/PID/cmdline`. A process that cannot rename
  /// itself keeps that name and runs all the same.
  private static func nameProcess() {
    let descriptor = open("/proc/self/comm", O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    let name = Array("inbox-format".utf8)
    _ = name.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
  }
}
