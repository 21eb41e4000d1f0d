import Foundation
import HTTPTypes

/// `Accept-Language`: the locale of a request without `locale`.
///
/// Ranges are taken by quality, highest first (`q` from 0 to 1, three
/// decimals; equal ones in the order written); `q=0` and ranges that are
/// not BCP 47 syntax are passed over. Each range is looked up as RFC 4647
/// §3.4 says: the range itself, then shorter and shorter by dropping its
/// last subtag (and a single-letter subtag left last, such as `-u`), until a
/// tag the service can use: one the `locale` parameter takes (a language with
/// CLDR data, a real region, known keywords). `fr-XX` gives `fr`. `*` stops
/// the search at the server's default. Nothing usable gives nil: the
/// server's default.
enum LanguageNegotiation {
  /// Ranges read from one header at most, so that a long header costs little.
  static let mostRanges = 32

  static func locale(for header: String, resolve: (String) -> Locale?) -> Locale? {
    var ranges: [(tag: String, quality: Int)] = []
    for element in header.pieces(separatedBy: ",").prefix(mostRanges) {
      let parts = element.pieces(separatedBy: ";")
      guard let first = parts.first else { continue }
      let tag = first.trimmingOptionalWhitespace
      guard isLanguageRange(tag) else { continue }
      var quality = 1000
      for parameter in parts.dropFirst() {
        let trimmed = parameter.trimmingOptionalWhitespace
        guard trimmed.lowercased().hasPrefix("q=") else { continue }
        guard let value = qualityValue(trimmed.dropFirst(2)) else {
          quality = -1
          break
        }
        quality = value
      }
      if quality > 0 { ranges.append((tag, quality)) }
    }
    // A stable sort: equal qualities keep the order written.
    let ordered = ranges.enumerated().sorted { ($0.element.quality, -$0.offset) > ($1.element.quality, -$1.offset) }
    for (_, range) in ordered {
      if range.tag == "*" { return nil }
      var subtags = range.tag.pieces(separatedBy: "-").map(String.init)
      while !subtags.isEmpty {
        if let locale = resolve(subtags.joined(separator: "-")) { return locale }
        subtags.removeLast()
        if subtags.last?.count == 1 { subtags.removeLast() }
      }
    }
    return nil
  }

  /// `*`, or `1*8ALPHA *("-" 1*8alphanum)` (RFC 4647 §2.1).
  static func isLanguageRange(_ text: String) -> Bool {
    if text == "*" { return true }
    let subtags = text.pieces(separatedBy: "-", omittingEmpty: false)
    guard let first = subtags.first, (1...8).contains(first.utf8.count), first.utf8.allSatisfy(isASCIILetter)
    else { return false }
    return subtags.dropFirst().allSatisfy { subtag in
      (1...8).contains(subtag.utf8.count) && subtag.utf8.allSatisfy { isASCIILetter($0) || isASCIIDigit($0) }
    }
  }

  /// A quality value in thousandths: `0`, `0.5`, `1`, `1.000` (RFC 9110 §12.4.2).
  static func qualityValue(_ text: Substring) -> Int? {
    let parts = text.pieces(separatedBy: ".", omittingEmpty: false)
    guard (1...2).contains(parts.count), parts[0] == "0" || parts[0] == "1" else { return nil }
    let fraction = parts.count == 2 ? parts[1] : ""
    guard fraction.utf8.count <= 3, fraction.utf8.allSatisfy(isASCIIDigit) else { return nil }
    let thousandths = Int(fraction.padding(toLength: 3, withPad: "0", startingAt: 0))!
    let value = (parts[0] == "1" ? 1000 : 0) + thousandths
    return value <= 1000 ? value : nil
  }
}

/// The media types the service reads and writes.
enum MediaTypes {
  static let json = "application/json"
  static let ndjson = "application/x-ndjson"
  static let problemJSON = "application/problem+json"
  static let yaml = "application/yaml"

  /// Types whose body is read as a payload: JSON and NDJSON under their
  /// names, plain text, and what `curl --data-binary` sends unless told
  /// otherwise (`application/x-www-form-urlencoded`). No `Content-Type`
  /// reads as a payload too.
  static let readable: Set<String> = [
    "application/json", "application/x-ndjson", "application/ndjson", "text/plain",
    "application/x-www-form-urlencoded",
  ]

  /// Whether a body of `contentType` is read; a `charset` other than UTF-8
  /// (or its subset US-ASCII) is not.
  static func isReadable(_ contentType: String?) -> Bool {
    guard let contentType else { return true }
    // A name exactly, as nearly every client sends it: the rule below gives
    // it true (the names are lowercase, without `;` or whitespace, which a
    // test holds), without taking it apart.
    if readable.contains(contentType) { return true }
    let parts = contentType.pieces(separatedBy: ";")
    guard let type = parts.first?.trimmingOptionalWhitespace.lowercased(), readable.contains(type) else {
      return false
    }
    for parameter in parts.dropFirst() {
      let pair = parameter.pieces(separatedBy: "=", maxSplits: 1).map {
        $0.trimmingOptionalWhitespace.trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
      }
      if pair.count == 2, pair[0] == "charset", !["utf-8", "utf8", "us-ascii"].contains(pair[1]) { return false }
    }
    return true
  }

  /// The answer's layout for `accept`: NDJSON when it prefers
  /// `application/x-ndjson` (or `application/ndjson`), a JSON array
  /// otherwise; nil when it allows neither (406).
  ///
  /// Each type gets the quality of the most specific range that matches it
  /// (`type/subtype`, then `type/*`, then `*/*`); the higher quality wins,
  /// then the more specific match, then the one written first, then JSON.
  static func answer(for accept: String?) -> Answer? {
    guard let accept, !accept.trimmingOptionalWhitespace.isEmpty else { return .json }
    var ranges: [(type: String, subtype: String, quality: Int)] = []
    for element in accept.pieces(separatedBy: ",").prefix(64) {
      let parts = element.pieces(separatedBy: ";")
      guard let range = parts.first?.trimmingOptionalWhitespace.lowercased() else { continue }
      let halves = range.pieces(separatedBy: "/", omittingEmpty: false)
      guard halves.count == 2, !halves[0].isEmpty, !halves[1].isEmpty else { continue }
      var quality = 1000
      for parameter in parts.dropFirst() {
        let trimmed = parameter.trimmingOptionalWhitespace
        if trimmed.lowercased().hasPrefix("q=") {
          quality = LanguageNegotiation.qualityValue(trimmed.dropFirst(2)) ?? 0
        }
      }
      ranges.append((String(halves[0]), String(halves[1]), quality))
    }
    // (quality, specificity, -position) of each type we can write.
    func rank(_ type: String, _ subtype: String) -> (Int, Int, Int)? {
      var best: (quality: Int, specificity: Int, position: Int)?
      for (position, range) in ranges.enumerated() {
        let specificity =
          if range.type == type && range.subtype == subtype { 3 } else if range.type == type && range.subtype == "*" {
            2
          } else if range.type == "*" && range.subtype == "*" { 1 } else { 0 }
        if specificity > 0 && specificity > (best?.specificity ?? 0) { best = (range.quality, specificity, position) }
      }
      guard let best, best.quality > 0 else { return nil }
      return (best.quality, best.specificity, -best.position)
    }
    var candidates: [(answer: Answer, rank: (Int, Int, Int))] = []
    if let rank = rank("application", "json") { candidates.append((.json, rank)) }
    if let rank = rank("application", "x-ndjson") { candidates.append((.ndjson(contentType: ndjson), rank)) }
    if let rank = rank("application", "ndjson") {
      candidates.append((.ndjson(contentType: "application/ndjson"), rank))
    }
    // `max` keeps the first of equals: JSON, the default, comes first.
    return candidates.max { $0.rank < $1.rank }?.answer
  }

  /// The form of a `POST /v1/rows` answer.
  enum Answer: Equatable {
    /// A JSON array, buffered: it carries `ETag`, `Cache-Control` and `Expires`.
    case json
    /// NDJSON under this media type, streamed: validators come as trailers.
    case ndjson(contentType: String)
  }
}

/// Whether `byte` is an ASCII letter (`ALPHA`).
private func isASCIILetter(_ byte: UInt8) -> Bool {
  (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
}

/// Whether `byte` is an ASCII digit (`DIGIT`).
private func isASCIIDigit(_ byte: UInt8) -> Bool {
  (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
}

extension String {
  /// ``Substring/pieces(separatedBy:omittingEmpty:maxSplits:)`` of the whole string.
  func pieces(separatedBy separator: Unicode.Scalar, omittingEmpty: Bool = true, maxSplits: Int = .max) -> [Substring] {
    self[...].pieces(separatedBy: separator, omittingEmpty: omittingEmpty, maxSplits: maxSplits)
  }
}

extension Substring {
  /// The pieces between `separator`s (an ASCII delimiter), found at its
  /// byte: HTTP's lists, parameters, ranges and query are split as octets
  /// (RFC 9110 §5.5), so a combining mark after a comma does not hide the
  /// comma, and no character boundary is looked for on a request's way.
  ///
  /// The pieces are those of `utf8.split(separator:maxSplits:omittingEmptySubsequences:)`
  /// (`NegotiationTests` holds them equal), found by walking the bytes once:
  /// each request splits its query and its header values, and the generic
  /// split costs it more than the walk.
  func pieces(separatedBy separator: Unicode.Scalar, omittingEmpty: Bool = true, maxSplits: Int = .max) -> [Substring] {
    precondition(separator.isASCII, "a delimiter of HTTP is ASCII")
    let delimiter = UInt8(separator.value)
    let bytes = utf8
    var pieces: [Substring] = []
    var start = bytes.startIndex
    var index = start
    if maxSplits > 0 {
      while index != bytes.endIndex {
        guard bytes[index] == delimiter else {
          bytes.formIndex(after: &index)
          continue
        }
        let isKept = !(omittingEmpty && start == index)
        if isKept { pieces.append(self[start..<index]) }
        bytes.formIndex(after: &index)
        start = index
        if isKept && pieces.count == maxSplits { break }
      }
    }
    if start != bytes.endIndex || !omittingEmpty { pieces.append(self[start..<bytes.endIndex]) }
    return pieces
  }
}

extension StringProtocol where UTF8View: BidirectionalCollection {
  /// The text without HTTP's optional whitespace at either end: spaces and
  /// horizontal tabs (RFC 9110 §5.6.3), all that a header value's lists and
  /// parameters put around their elements. Other white space is part of the
  /// element, as HTTP reads it.
  var trimmingOptionalWhitespace: String {
    let isOptionalWhitespace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    guard let first = utf8.firstIndex(where: { !isOptionalWhitespace($0) }),
      let last = utf8.lastIndex(where: { !isOptionalWhitespace($0) })
    else { return "" }
    return String(self[first...last])
  }
}

extension HTTPFields {
  /// The value of the fields named `name`, as `self[name]` gives it (their
  /// values joined by `, `, by `; ` for `Cookie`; nil when there is none),
  /// read in one pass over the fields: the subscript's lazy, generic join
  /// costs a request more than the few fields it reads.
  func value(_ name: HTTPField.Name) -> String? {
    var value: String?
    for field in self where field.name == name {
      if let first = value {
        value = first + (name == .cookie ? "; " : ", ") + field.value
      } else {
        value = field.value
      }
    }
    return value
  }

  /// The value of the one field named `name`; nil when there is none or
  /// more than one.
  func onlyValue(_ name: HTTPField.Name) -> String? {
    var value: String?
    for field in self where field.name == name {
      guard value == nil else { return nil }
      value = field.value
    }
    return value
  }
}
