import ArgumentParser
import Testing

@testable import InboxFormatCLI

/// What `InboxFormatCommand.main(server:)` and the option types take for
/// granted of the command tree, so that they need not ask the runtime.
@Suite struct CommandTreeTests {
  /// `main(server:)` awaits `serve` and `preview` and runs every other
  /// subcommand synchronously.
  @Test func onlyServeAndPreviewAreAsynchronous() {
    let asynchronous = InboxFormatCommand.configuration.subcommands
      .filter { $0 is any AsyncParsableCommand.Type }
      .map { $0.configuration.commandName }
    #expect(asynchronous == ["serve", "preview"])
  }

  /// `OptionChoice` lists each case by its raw value and no descriptions:
  /// right only while no case describes itself otherwise.
  @Test func choicesAreListedByName() {
    func check<Choice: OptionChoice>(_: Choice.Type, _ names: [String]) {
      #expect(Choice.allValueStrings == names)
      #expect(Choice.allValueDescriptions.isEmpty)
      for choice in Choice.allCases {
        #expect(choice.defaultValueDescription == choice.rawValue)
        #expect(Choice(argument: choice.rawValue)?.rawValue == choice.rawValue)
      }
    }
    check(OutputFormat.self, ["json", "ndjson", "text"])
    check(WatchFormat.self, ["json", "text"])
    check(LogFormatOption.self, ["text", "json"])
    check(LogLevel.self, ["trace", "debug", "info", "notice", "warning", "error", "critical"])
  }
}
