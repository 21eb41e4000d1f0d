import ArgumentParser
import Foundation
import InboxFormat

/// What `format` and `watch` share: a payload through the formatter.
package enum Rendering {
  /// Formats the payload of `input` with `formatter`, handing the output to
  /// `write`, and returns when its first label goes stale. A regular file is
  /// mapped, unless it is NDJSON, which is read piece by piece so that its
  /// pages do not pile up in memory; other inputs are read piece by piece.
  ///
  /// A problem is reported on standard error as one line, then thrown as its
  /// exit status: 66 (cannot open), 74 (cannot read) or 65 (not a payload).
  /// With `report`, invalid messages are left out and reported to it instead.
  @discardableResult
  static func format(
    _ input: InputSource, with formatter: InboxFormatter, skipping report: SkipReport?,
    write: ([UInt8]) throws -> Void
  ) throws -> Date? {
    let reader = try input.open()
    let skip = report.map { $0.skip }
    do {
      // Only the post's mapping streams NDJSON; any other reads its input whole.
      if let file = reader.mapped(), !formatter.mapping.isPost || !InboxFormatter.isNDJSON(file.bytes) {
        return try formatter.format(bytes: file.bytes, skipInvalid: skip, write: write)
      }
      return try formatter.format(reading: reader.read, expectedSize: reader.sizeHint, skipInvalid: skip, write: write)
    } catch let error as InboxFormatError {
      throw refusal(of: input, because: error)
    }
  }

  /// Reports that `input` is not a valid payload, on one line of standard
  /// error, and returns the status to exit with.
  static func refusal(of input: InputSource, because error: any Error) -> ExitCode {
    input.report(problem(of: input, because: error))
    return ExitStatus.badInput
  }

  /// Why `input` is not a valid payload, in one line: `"in.json": line 3, column 9: …`.
  package static func problem(of input: InputSource, because error: any Error) -> String {
    if case .likelyOtherMapping(_, let mapping) as InboxFormatError = error {
      return "\(input.displayName): \(error): try --map \(mapping)"
    }
    return "\(input.displayName): \(error)"
  }
}
