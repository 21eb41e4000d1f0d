import InboxFormat

/// `--skip-invalid`: each message left out is reported on standard error as
/// it is found, one line with its location, path, id and reason, and then
/// how many were.
///
/// ```
/// inbox-format: in.json: skipped: line 3, column 28: items[1].update_date (id 7): invalid date "2022-13-01T00:00:00Z": month 13 is out of range; expected …
/// inbox-format: in.json: skipped 1 invalid message
/// ```
final class SkipReport {
  private let inputName: String
  /// How many messages were left out so far.
  private var count = 0

  init(input: InputSource) {
    inputName = input.displayName
  }

  /// Reports one message left out.
  func skip(_ problem: InboxFormatError) {
    count += 1
    StandardError.write("inbox-format: \(inputName): skipped: \(problem)")
  }

  /// Writes the count line when anything was left out; whether anything was.
  func summarize() -> Bool {
    guard count > 0 else { return false }
    StandardError.write("inbox-format: \(inputName): skipped \(count) invalid message\(count == 1 ? "" : "s")")
    return true
  }
}
