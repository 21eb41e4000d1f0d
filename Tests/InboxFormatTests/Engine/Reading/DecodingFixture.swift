import Foundation

@testable import InboxFormat

/// Helpers for the decoding tests.
enum DecodingFixture {
  static func decode(_ json: String) throws(InboxFormatError) -> [MessageAPIModel] {
    try InboxDecoder().decode(Array(json.utf8))
  }

  /// The error decoding `bytes` throws, or nil when it succeeds.
  static func error(decoding bytes: [UInt8]) -> InboxFormatError? {
    do {
      _ = try InboxDecoder().decode(bytes)
      return nil
    } catch {
      return error
    }
  }

  static func error(decoding json: String) -> InboxFormatError? {
    error(decoding: Array(json.utf8))
  }

  /// The location of the `occurrence`-th (0-based) `needle` in `json`,
  /// computed with `String` APIs rather than the scanner's line counting.
  static func location(of needle: String, in json: String, occurrence: Int = 0) -> InputLocation {
    var searchStart = json.startIndex
    var found = json.range(of: needle)!
    for _ in 0..<occurrence {
      searchStart = found.upperBound
      found = json.range(of: needle, range: searchStart..<json.endIndex)!
    }
    let prefix = json[..<found.lowerBound]
    let lines = prefix.split(separator: "\n", omittingEmptySubsequences: false)
    return InputLocation(
      line: lines.count, column: lines.last!.unicodeScalars.count + 1, byteOffset: prefix.utf8.count)
  }

  /// The location just past the last byte of `json`.
  static func endLocation(of json: String) -> InputLocation {
    let lines = json.split(separator: "\n", omittingEmptySubsequences: false)
    return InputLocation(line: lines.count, column: lines.last!.unicodeScalars.count + 1, byteOffset: json.utf8.count)
  }

  /// A minimal valid message object with the given `id` JSON text.
  static func message(id: String, extra: String = "") -> String {
    #"{"id":\#(id),"update_date":"2022-01-31T08:45:33Z"\#(extra)}"#
  }
}
