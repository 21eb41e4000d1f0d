import Foundation
import InboxFormatSupport

@testable import InboxFormat

// The `options` target: any bytes, cut at NUL bytes into a locale name, a
// zone id, a POSIX TZ value and an instant, through the readers of
// InboxFormatOptions (compiled into this harness). Nothing may trap, and:
//
// - a refusal is one line whose quoted value carries no control, bidi or
//   invisible format character, and no more than 60 characters of it;
// - what is accepted formats: a mapper for the context maps messages of
//   many dates (today, yesterday, this week, years back, a later day) into
//   rows with a non-empty date label and no control character.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOptions(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = fuzzInput(data, size)
  let fields = input.split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false)
    .map { String(decoding: $0, as: UTF8.self) }
  func field(_ index: Int) -> String? { index < fields.count ? fields[index] : nil }

  let locale = read(field(0), named: "--locale", input: input) { name throws(OptionError) in
    try LocaleName.locale(from: name)
  }
  let zone = read(field(1), named: "--time-zone", input: input) { id throws(OptionError) in
    try TimeZoneName.timeZone(id: id)
  }
  let posixZone = read(field(2), named: "TZ=", input: input) { value throws(OptionError) in
    try TimeZoneName.timeZone(posix: value, systemZone: { TimeZone(identifier: "UTC")! }, resolve: { _ in nil })
  }
  let now = read(field(3), named: "--now", input: input) { text throws(OptionError) in try Instant.parse(text) }
  _ = LocaleName.environmentLocale { $0 == "LANG" ? field(0) : nil }

  guard let locale = locale ?? Optional(LocaleName.posix), let timeZone = zone ?? posixZone else { return 0 }
  let instant = now ?? Date(timeIntervalSince1970: 1_643_630_400)
  let context = FormattingContext(now: instant, locale: locale, timeZone: timeZone)
  let mapper = MessageMapper(context: context)
  let offsets: [TimeInterval] = [0, -3_600, -129_600, -345_600, -34_560_000, 172_800]
  for offset in offsets {
    let message = MessageAPIModel(
      id: .integer(1), firstname: "Ann", updateDate: instant.addingTimeInterval(offset), unreadCount: 1)
    let row = mapper.map(message)
    fuzzCheck(
      !row.date.isEmpty,
      "an empty date label for \(locale.identifier) in \(timeZone.identifier) at \(message.updateDate) for now \(instant)",
      input: input)
    fuzzCheck(
      !row.date.unicodeScalars.contains(where: isUnsafeForDisplay),
      "a control in the date label \(row.date.debugDescription)", input: input)
  }
  return 0
}

/// What `parse` makes of `value`, or nil when it refuses it, after checking
/// that its message is one safe line.
private func read<Value>(
  _ value: String?, named name: String, input: UnsafeBufferPointer<UInt8>,
  _ parse: (String) throws(OptionError) -> Value
) -> Value? {
  guard let value else { return nil }
  do {
    return try parse(value)
  } catch {
    let message = error.message(naming: name)
    fuzzCheck(
      !message.unicodeScalars.contains(where: { isUnsafeForDisplay($0) || isHiddenInAMessage($0) }),
      "an unsafe message: \(message.debugDescription)", input: input)
    let shown = quoted(error.value)
    // At most 60 scalars, each written in at most 10 (`\u{10FFFF}`), the quotes and `…`.
    fuzzCheck(shown.unicodeScalars.count <= 60 * 10 + 3, "a value shown whole: \(shown.count) characters", input: input)
    return nil
  }
}
