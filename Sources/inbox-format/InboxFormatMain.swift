import InboxFormatCLI

/// `inbox-format`: every subcommand but `serve` and `preview` runs here;
/// those two hand the process over to `inbox-format-server`
/// (``ServerExecutable``), so that this executable links no server.
@main
enum InboxFormatMain {
  static func main() async {
    await InboxFormatCommand.main(server: nil)
  }
}
