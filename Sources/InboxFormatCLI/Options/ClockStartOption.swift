package import ArgumentParser
import Foundation
import InboxFormatOptions

/// `--clock-start`, for the commands that follow the clock (`watch`, `preview`).
package struct ClockStartOption: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Start the clock at this instant, then let it run in real time: to preview a midnight.",
      discussion: "An RFC 3339 date-time or @epoch-seconds. Default: the system clock.",
      valueName: "instant"))
  package var clockStart: String?

  package init() {}

  /// The running clock `--clock-start` asks for, or nil when it is not
  /// given. A usage error when it cannot be read, or when `formatting`
  /// freezes the clock with `--now` too (a group's own `validate` cannot see
  /// the other group, so the command calls this from its own).
  package func clock(given formatting: FormattingOptions) throws -> RunningClock? {
    guard let clockStart else { return nil }
    if formatting.now != nil {
      throw ValidationError("--now freezes the clock and --clock-start runs it: give one of them")
    }
    return RunningClock(startingAt: try usable(Instant.parse(clockStart), "--clock-start"))
  }
}
