import Foundation
import Glibc
import InboxFormatSupport
import Synchronization

/// The caching rule of `POST /v1/rows`: an answer holds as long as every
/// label in it does.
enum Caching {
  /// A year, the longest freshness given: for answers whose labels never
  /// go stale, and for those a request's `now` pins.
  static let longest = 31_536_000
  private static let pinnedCacheControl = "public, max-age=\(longest), immutable"
  private static let longestCacheControl = "max-age=\(longest)"

  /// `Cache-Control` of an answer: `max-age` whole seconds from `now` to
  /// `validUntil` (rounded down, at least 0; a year when nothing goes stale),
  /// or, when the request named its `now`, an answer that never changes.
  static func freshness(now: Date, validUntil: Date?, pinned: Bool) -> (cacheControl: String, seconds: Int) {
    if pinned { return (pinnedCacheControl, longest) }
    guard let validUntil else { return (longestCacheControl, longest) }
    let seconds = validUntil.timeIntervalSince(now)
    let whole = seconds.isFinite ? Int(max(0, min(Double(longest), seconds.rounded(.down)))) : 0
    return ("max-age=\(whole)", whole)
  }

  /// Whether `ifNoneMatch` (a list of entity tags, or `*`) matches `tag`,
  /// compared weakly as RFC 9110 §13.1.2 says (`W/"x"` matches `"x"`).
  static func matches(ifNoneMatch: String, tag: String) -> Bool {
    for candidate in ifNoneMatch.pieces(separatedBy: ",") {
      var value = candidate.trimmingOptionalWhitespace
      if value == "*" { return true }
      if value.hasPrefix("W/") { value.removeFirst(2) }
      if value == tag { return true }
    }
    return false
  }

  private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

  /// An HTTP-date (RFC 9110 §5.6.7): `Tue, 01 Feb 2022 00:00:00 GMT`.
  static func httpDate(_ date: Date) -> String {
    var seconds = time_t(max(-62_135_596_800, min(253_402_300_799, date.timeIntervalSince1970.rounded(.down))))
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let year = String(parts.tm_year + 1900)
    return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
      + "\(String(repeating: "0", count: max(0, 4 - year.count)))\(year) "
      + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
  }
}

/// HTTP-dates (``Caching/httpDate(_:)``), each second's made once: a
/// service writes `Expires` on every answer, and most are in the second of
/// the one before.
final class HTTPDates: Sendable {
  private let last = Mutex<(second: Double, text: String)>((.nan, ""))

  /// `date` as an HTTP-date.
  func text(_ date: Date) -> String {
    let second = date.timeIntervalSince1970.rounded(.down)
    if let kept = last.withLock({ $0.second == second ? $0.text : nil }) { return kept }
    let text = Caching.httpDate(date)
    last.withLock { $0 = (second, text) }
    return text
  }
}

/// An RFC 8941 list of strings: each member an sf-string, `"` and `\`
/// escaped; what an sf-string cannot hold (a scalar outside printable
/// ASCII) written as the messages write hidden characters, `\u{2026}`
/// (on the wire `\\u{2026}`), so that the field stays valid.
func structuredStringList(_ strings: [String]) -> String {
  strings.map { string in
    var member = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": member += "\\\""
      case "\\": member += "\\\\"
      case " "..."~": member.unicodeScalars.append(scalar)
      default:
        // The messages' escape, its `\` escaped as an sf-string escapes one.
        var escape = ""
        appendHiddenEscaped(scalar, to: &escape)
        member += "\\" + escape
      }
    }
    return member + "\""
  }.joined(separator: ", ")
}

/// A strong validator of an answer, built as its body is written: FNV-1a
/// 64 taken over the body's 64-bit little-endian words (the last, short
/// one padded with zeros) rather than its bytes, eight times fewer steps,
/// in four lanes: word *i* goes to lane *i* mod 4, so that four
/// multiplications are under way at once rather than one after another.
/// The lanes are then folded in order, and the media type and language
/// taken after them, both part of what a client gets; last comes the
/// body's length, in hex: `"3f1c0a77d2e4b9a8-5a4"`. The same body gives
/// the same tag in every process, whatever pieces it was added in. Not a
/// cryptographic hash: it tells answers apart, it does not authenticate them.
struct EntityTagHasher {
  private static let basis: UInt64 = 0xcbf2_9ce4_8422_2325

  /// FNV-1a's one step: `hash` with `value` taken in.
  @inline(__always)
  private static func step(_ hash: UInt64, _ value: UInt64) -> UInt64 {
    (hash ^ value) &* 0x0000_0100_0000_01B3
  }

  private var lane0 = basis
  private var lane1 = basis
  private var lane2 = basis
  private var lane3 = basis
  private var length = 0
  /// Bytes of an unfinished word, from its low end.
  private var pending: UInt64 = 0

  mutating func add(_ bytes: UnsafeRawBufferPointer) {
    var offset = 0
    func word(at offset: Int) -> UInt64 {
      UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    /// Takes the next byte into the unfinished word.
    func takeByte() {
      pending |= UInt64(bytes[offset]) << (8 * UInt64(length % 8))
      length += 1
      offset += 1
    }
    while length % 8 != 0, offset < bytes.count {
      takeByte()
      if length % 8 == 0 {
        mix(pending, intoLaneOf: length - 8)
        pending = 0
      }
    }
    // Whole words up to lane 0's, then four words at a time, then the rest.
    while length % 32 != 0, bytes.count - offset >= 8 {
      mix(word(at: offset), intoLaneOf: length)
      offset += 8
      length += 8
    }
    while bytes.count - offset >= 32 {
      lane0 = Self.step(lane0, word(at: offset))
      lane1 = Self.step(lane1, word(at: offset + 8))
      lane2 = Self.step(lane2, word(at: offset + 16))
      lane3 = Self.step(lane3, word(at: offset + 24))
      offset += 32
      length += 32
    }
    while bytes.count - offset >= 8 {
      mix(word(at: offset), intoLaneOf: length)
      offset += 8
      length += 8
    }
    while offset < bytes.count { takeByte() }
  }

  mutating func add(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { add($0) }
  }

  /// Takes the word that starts at byte `start` of the body into its lane.
  private mutating func mix(_ word: UInt64, intoLaneOf start: Int) {
    switch start / 8 % 4 {
    case 0: lane0 = Self.step(lane0, word)
    case 1: lane1 = Self.step(lane1, word)
    case 2: lane2 = Self.step(lane2, word)
    default: lane3 = Self.step(lane3, word)
    }
  }

  /// The tag of the body added, in the media type and language given.
  func tag(contentType: String, language: String) -> String {
    var copy = self
    if length % 8 != 0 { copy.mix(pending, intoLaneOf: length - length % 8) }
    // The lanes folded in order.
    var hash = Self.step(Self.basis, copy.lane0)
    hash = Self.step(hash, copy.lane1)
    hash = Self.step(hash, copy.lane2)
    hash = Self.step(hash, copy.lane3)
    hash = Self.step(hash, 0)
    for byte in contentType.utf8 { hash = Self.step(hash, UInt64(byte)) }
    hash = Self.step(hash, 0)
    for byte in language.utf8 { hash = Self.step(hash, UInt64(byte)) }
    // `"`, the hash in 16 digits, `-`, the length's digits, `"`: written
    // in place, as every answer has one.
    let lengthDigits = max(1, (UInt64.bitWidth - UInt64(length).leadingZeroBitCount + 3) / 4)
    return String(unsafeUninitializedCapacity: 19 + lengthDigits) { text in
      func write(_ value: UInt64, digits: Int, at start: Int) {
        for index in 0..<digits {
          text[start + index] = hexDigit(UInt8(truncatingIfNeeded: value >> (4 * (digits - 1 - index))) & 0xF)
        }
      }
      text[0] = UInt8(ascii: "\"")
      write(hash, digits: 16, at: 1)
      text[17] = UInt8(ascii: "-")
      write(UInt64(length), digits: lengthDigits, at: 18)
      text[18 + lengthDigits] = UInt8(ascii: "\"")
      return 19 + lengthDigits
    }
  }
}
