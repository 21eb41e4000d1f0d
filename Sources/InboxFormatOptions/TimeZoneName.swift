package import Foundation

/// Turns time zone names into time zones: the ids of `--time-zone` and of
/// requests, and the POSIX `TZ` variable.
///
/// An id is a zone of the IANA database as Foundation's ICU data has it
/// (`Europe/Paris`, and the aliases it keeps: `US/Pacific`, `Asia/Calcutta`,
/// `ACT`, `SystemV/AST4`), `UTC`, `GMT`, or a fixed offset `GMT+5`,
/// `GMT-03:30`, `UTC+0545` (hours ahead of UTC, as ICU reads them). Offsets
/// beyond ±14:00, which no place uses, are refused.
package enum TimeZoneName {
  /// The longest name read.
  static let longestName = 128

  /// The zone an id names (`--time-zone`, a request's `timeZone`).
  package static func timeZone(id: String) throws(OptionError) -> TimeZone {
    guard !id.isEmpty, id.utf8.count <= longestName, id.unicodeScalars.allSatisfy(isIdentifierScalar) else {
      throw .unknownTimeZone(id)
    }
    if let offset = try fixedOffset(id) { return try zone(offsetSeconds: offset, id: id) }
    return try named(id, as: id)
  }

  /// The zone the POSIX `TZ` variable names, as C programs read it:
  ///
  /// - empty: UTC;
  /// - `:` then an IANA id, or the path of a zone file in a zoneinfo
  ///   directory (`:/etc/localtime` is the system's zone, `systemZone`);
  /// - an IANA id (`Europe/Paris`, `EST5EDT`);
  /// - a POSIX zone without daylight saving time, `std offset`, where the
  ///   offset is hours *west* of UTC: `UTC0`, `JST-9`, `<+0530>-5:30`, and
  ///   `UTC+14` for UTC−14, as `date` reads it. One with a daylight saving
  ///   rule (`CET-1CEST,M3.5.0,M10.5.0/3`) is refused: an IANA zone says the
  ///   same, with its history.
  ///
  /// `resolve` turns a path into the one it leads to through symbolic
  /// links (the file system is the caller's to read).
  package static func timeZone(
    posix value: String, systemZone: () -> TimeZone, resolve: (String) -> String?
  ) throws(OptionError) -> TimeZone {
    if value.isEmpty { return TimeZone(identifier: "UTC")! }
    var name = Substring(value)
    if name.hasPrefix(":") { name = name.dropFirst() }
    guard name.utf8.count <= 4096, name.unicodeScalars.allSatisfy({ $0.isASCII && !isHiddenControl($0) }) else {
      throw .unknownTimeZone(value)
    }
    if name.hasPrefix("/") {
      guard let target = resolve(String(name)) else { throw .zoneFileOutsideZoneinfo(value) }
      if let zone = try? zoneInZoneinfo(target) { return zone }
      if name == "/etc/localtime" { return systemZone() }
      throw .zoneFileOutsideZoneinfo(value)
    }
    // `GMT+5` is UTC−5 to POSIX, not the zone ICU would read.
    if (try? fixedOffset(String(name))) == nil, let zone = try? named(String(name), as: value) { return zone }
    guard let rule = POSIXZone(String(name)) else { throw .unknownTimeZone(value) }
    guard !rule.hasDaylightSavingTime else { throw .posixDaylightSavingRule(value) }
    return try zone(offsetSeconds: -rule.secondsWest, id: value)
  }

  /// The zone of a zone file's path: the part after `zoneinfo/`, an IANA id.
  private static func zoneInZoneinfo(_ path: String) throws(OptionError) -> TimeZone {
    guard let range = path.range(of: "/zoneinfo/", options: .backwards) else { throw .zoneFileOutsideZoneinfo(path) }
    var id = String(path[range.upperBound...])
    // Debian's tzdata has posix/ and right/ copies of every zone.
    for prefix in ["posix/", "right/"] where id.hasPrefix(prefix) { id.removeFirst(prefix.count) }
    guard let zone = try? named(id, as: path) else { throw .zoneFileOutsideZoneinfo(path) }
    return zone
  }

  /// The zone of the IANA database called `name`.
  ///
  /// Foundation reads names that start with `GMT` and a sign as offsets,
  /// and traps on some it cannot read (`GMT+12:R0`): those are read by
  /// ``fixedOffset(_:)`` only, never handed to it.
  private static func named(_ name: String, as value: String) throws(OptionError) -> TimeZone {
    let upper = name.uppercased()
    let looksLikeAnOffset =
      (upper.hasPrefix("GMT") || upper.hasPrefix("UTC")) && ["+", "-"].contains(upper.dropFirst(3).first)
    guard name.unicodeScalars.allSatisfy(isIdentifierScalar), !looksLikeAnOffset,
      let zone = TimeZone(identifier: name)
    else { throw .unknownTimeZone(value) }
    return zone
  }

  /// The offset, in seconds east of UTC, of `GMT±h[h][[:]mm]` or `UTC…`;
  /// nil when `id` is not of that form.
  private static func fixedOffset(_ id: String) throws(OptionError) -> Int? {
    let upper = id.uppercased()
    guard upper.hasPrefix("GMT") || upper.hasPrefix("UTC"), id.count > 3 else { return nil }
    var rest = Substring(id.dropFirst(3))
    guard let signCharacter = rest.first, signCharacter == "+" || signCharacter == "-" else { return nil }
    rest = rest.dropFirst()
    let sign = signCharacter == "+" ? 1 : -1
    let hours: Substring
    var minutes: Substring = "0"
    if let colon = rest.firstIndex(of: ":") {
      (hours, minutes) = (rest[..<colon], rest[rest.index(after: colon)...])
      guard minutes.count == 2 else { throw .unknownTimeZone(id) }
    } else if rest.count > 2 {
      (hours, minutes) = (rest.dropLast(2), rest.suffix(2))
    } else {
      hours = rest
    }
    guard (1...2).contains(hours.count), hours.allSatisfy(isASCIIDigit), minutes.allSatisfy(isASCIIDigit),
      let h = Int(hours), let m = Int(minutes), m < 60
    else { throw .unknownTimeZone(id) }
    return sign * (h * 3600 + m * 60)
  }

  private static func zone(offsetSeconds: Int, id: String) throws(OptionError) -> TimeZone {
    guard abs(offsetSeconds) <= 14 * 3600, let zone = TimeZone(secondsFromGMT: offsetSeconds) else {
      throw .offsetOutOfRange(id)
    }
    return zone
  }

  private static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCII
      && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "/_-+:".unicodeScalars.contains(scalar))
  }

  private static func isHiddenControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || scalar.value == 0x7F
  }
}

/// A POSIX `TZ` zone: `std offset [dst [offset] [,rule]]` (IEEE Std 1003.1,
/// 8.3), read far enough to know its standard offset and whether it has a
/// daylight saving part.
struct POSIXZone {
  /// The standard offset, in seconds west of UTC (POSIX's sign).
  var secondsWest: Int
  /// Whether a daylight saving zone name follows the offset.
  var hasDaylightSavingTime: Bool

  init?(_ text: String) {
    var rest = Substring(text)
    guard Self.takeName(&rest), let offset = Self.takeOffset(&rest) else { return nil }
    secondsWest = offset
    if rest.isEmpty {
      hasDaylightSavingTime = false
      return
    }
    guard Self.takeName(&rest) else { return nil }
    hasDaylightSavingTime = true
  }

  /// A zone name: three or more letters, or `<…>` of letters, digits, `+` and `-`.
  private static func takeName(_ rest: inout Substring) -> Bool {
    if rest.first == "<" {
      guard let close = rest.firstIndex(of: ">") else { return false }
      let name = rest[rest.index(after: rest.startIndex)..<close]
      guard name.count >= 3, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-") })
      else { return false }
      rest = rest[rest.index(after: close)...]
      return true
    }
    let name = rest.prefix(while: { $0.isASCII && $0.isLetter })
    guard name.count >= 3 else { return false }
    rest = rest.dropFirst(name.count)
    return true
  }

  /// `[+-]hh[:mm[:ss]]`, hours 0 to 24.
  private static func takeOffset(_ rest: inout Substring) -> Int? {
    var sign = 1
    if let first = rest.first, first == "+" || first == "-" {
      sign = first == "-" ? -1 : 1
      rest = rest.dropFirst()
    }
    var parts: [Int] = []
    while parts.count < 3 {
      let digits = rest.prefix(while: isASCIIDigit)
      guard (1...2).contains(digits.count), let value = Int(digits) else { return nil }
      parts.append(value)
      rest = rest.dropFirst(digits.count)
      guard rest.first == ":" else { break }
      rest = rest.dropFirst()
    }
    guard parts[0] <= 24, parts.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
    let seconds = parts[0] * 3600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0)
    return sign * seconds
  }
}

/// Whether `character` is one of 0 to 9.
private func isASCIIDigit(_ character: Character) -> Bool {
  character.isASCII && character.isNumber
}
