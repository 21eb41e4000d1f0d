import ArgumentParser
import InboxFormat

/// The steps `format` and `watch` share: payload bytes in, messages out;
/// rows in, output bytes out.
enum Rendering {
  /// Reads and decodes the payload of `input`. A problem is reported on
  /// standard error as one line, then thrown as its exit status: 66 (cannot
  /// open), 74 (cannot read) or 65 (not a payload). With `report`, invalid
  /// messages are left out and reported to it instead.
  static func messages(from input: InputSource, skipping report: SkipReport? = nil) throws -> [MessageAPIModel] {
    let bytes = try input.readAll()
    do {
      guard let report else { return try InboxDecoder().decode(bytes) }
      let (messages, skipped) = try InboxDecoder().decodeSkippingInvalid(bytes)
      skipped.forEach(report.skip)
      return messages
    } catch {
      throw refusal(of: input, because: error)
    }
  }

  /// Reports that `input` is not a valid payload, on one line of standard
  /// error, and returns the status to exit with.
  static func refusal(of input: InputSource, because error: any Error) -> ExitCode {
    StandardError.write("inbox-format: \(input.displayName): \(error)")
    return ExitStatus.badInput
  }

  /// The bytes of `rows`: JSON in `layout`, or the inbox view.
  static func bytes(of rows: [MessageUIModel], as form: Form) -> [UInt8] {
    switch form {
    case .json(let layout): InboxEncoder(layout: layout).encode(rows)
    case .text(let view): Array(view.render(rows).utf8)
    }
  }

  /// What rows are written as.
  enum Form {
    case json(InboxEncoder.Layout)
    case text(InboxTextView)
  }
}
