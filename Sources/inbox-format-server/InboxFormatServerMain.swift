import InboxFormatCLI

/// `inbox-format-server`: the command that `inbox-format serve` and
/// `inbox-format preview` become (execve, the same arguments and
/// environment): it parses them again, and runs those two with the server.
@main
enum InboxFormatServerMain {
  static func main() async {
    await InboxFormatCommand.main(server: ServerCommandsRunner())
  }
}
