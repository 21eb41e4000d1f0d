import Foundation
import InboxFormat
import InboxFormatOptions
import InboxFormatSupport
import Synchronization

/// The query of `POST /v1/rows`: the command's formatting options under
/// their JSON names, each at most once.
///
/// Values are percent-decoded as UTF-8; `+` stays a plus sign (no value
/// holds a space, and `timeZone=GMT+05:30` then means what it says).
struct RowsQuery: Sendable {
  /// The formatting settings the query names; the server's defaults stand
  /// for the others.
  var settings = FormattingSettings()
  var skipInvalid = false
  /// The mapping `map` names, among those the server has.
  var mapping: InputMapping?
  /// `viewer`: the viewer's id, for the mapping's `viewer()`.
  var viewer: String?

  /// The parameters, in the order the documentation gives them.
  static let names = FormattingSettings.Name.allCases.map(\.parameter) + ["skipInvalid", "map", "viewer"]

  /// The longest viewer id taken: ids are short, and the value is held
  /// for the request's whole formatting.
  static let longestViewer = 256

  /// Reads `query` (the part of the target after `?`), resolving names
  /// through `names` and mappings through `mappings`. Throws a 400
  /// ``Problem`` naming the first parameter that is unknown, repeated or
  /// not usable.
  init(_ query: String?, names: SettingsResolver, mappings: [InputMapping]) throws(Problem) {
    for (name, value) in try queryParameters(query, names: Self.names) {
      if let setting = FormattingSettings.Name(rawValue: name) {
        do throws(OptionError) {
          try settings.read(setting, value, names: names)
        } catch {
          throw Problem(parameter: name, error)
        }
        continue
      }
      switch name {
      case "map":
        guard let mapping = mappings.first(where: { $0.name == value }) else {
          throw Problem(
            .badRequest,
            detail: "map \(quoted(value)) is not a mapping of this server; expected "
              + mappings.map(\.name).joined(separator: ", ", lastSeparator: " or "),
            members: [("parameter", .string(name))])
        }
        self.mapping = mapping
      case "viewer":
        guard !value.isEmpty, value.utf8.count <= Self.longestViewer else {
          throw Problem(
            .badRequest, detail: "viewer must be 1 to \(Self.longestViewer) bytes long",
            members: [("parameter", .string(name))])
        }
        viewer = value
      default:  // skipInvalid
        switch value {
        case "true": skipInvalid = true
        case "false": skipInvalid = false
        default: throw Problem(parameter: name, OptionError.notOneOf(value, expected: "true or false"))
        }
      }
    }
  }
}

/// The parameters of `query` (the part of the target after `?`), each
/// name and value percent-decoded, in order. Throws a 400 ``Problem`` naming
/// the first parameter that is not among `names`, is given twice, or is not
/// percent-encoded UTF-8.
func queryParameters(_ query: String?, names: [String]) throws(Problem) -> [(name: String, value: String)] {
  guard let query, !query.isEmpty else { return [] }
  var parameters: [(name: String, value: String)] = []
  // Split at the bytes `&` and `=`, as forms are: a mark after either
  // does not hide it.
  for pair in query.pieces(separatedBy: "&") {
    let halves = pair.pieces(separatedBy: "=", omittingEmpty: false, maxSplits: 1)
    let (rawName, rawValue) = (halves[0], halves.count == 2 ? halves[1] : "")
    guard let name = percentDecoded(rawName) else {
      throw Problem(
        .badRequest, detail: "a query parameter's name is not percent-encoded UTF-8: \(quoted(String(rawName)))")
    }
    guard names.contains(name) else {
      throw Problem(
        .badRequest,
        detail:
          "unknown query parameter \(quoted(name)); expected \(names.joined(separator: ", ", lastSeparator: " or "))",
        members: [("parameter", .string(name))])
    }
    guard !parameters.contains(where: { $0.name == name }) else {
      throw Problem(
        .badRequest, detail: "\(name) is given twice; expected it at most once", members: [("parameter", .string(name))]
      )
    }
    guard let value = percentDecoded(rawValue) else {
      throw Problem(
        .badRequest, detail: "\(name) \(quoted(String(rawValue))) is not percent-encoded UTF-8",
        members: [("parameter", .string(name))])
    }
    parameters.append((name, value))
  }
  return parameters
}

/// `text` with each `%XX` turned into its byte, read as UTF-8; nil when an
/// escape is broken or the bytes are not UTF-8.
func percentDecoded(_ text: Substring) -> String? {
  guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
  var bytes: [UInt8] = []
  bytes.reserveCapacity(text.utf8.count)
  var iterator = text.utf8.makeIterator()
  while let byte = iterator.next() {
    guard byte == UInt8(ascii: "%") else {
      bytes.append(byte)
      continue
    }
    guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
    bytes.append(high << 4 | low)
  }
  return String(validating: bytes, as: UTF8.self)
}

private func hexValue(_ byte: UInt8) -> UInt8? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
  case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
  case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
  default: nil
  }
}

/// Locale names and zone ids read as the command reads them
/// (``LocaleName``, ``TimeZoneName``), each name read once: reading asks
/// ICU, and requests name the same few again and again.
///
/// Foundation and ICU keep each locale they make for the life of the
/// process, so the locales made from requests are bounded: names are
/// reduced to their canonical tag before anything is made of them, and once
/// ``mostLocales`` tags are made, a request naming another gets its
/// language alone (a bounded set: the languages with CLDR data).
final class SettingsResolver: SettingNames, Sendable {
  /// The most canonical tags of more than a language made from requests.
  static let mostLocales = 1024

  private let locales = BoundedCache<String, Locale>(capacity: 256)
  private let zones = BoundedCache<String, TimeZone>(capacity: 256)
  private let made = Mutex<Set<String>>([])
  private let mostMade: Int

  init(mostLocales: Int = SettingsResolver.mostLocales) {
    mostMade = mostLocales
  }

  /// The locale `name` names (a `locale` parameter, a range of `Accept-Language`).
  func locale(_ name: String) throws(OptionError) -> Locale {
    try locales.value(for: name) { () throws(OptionError) in
      let tag = try LocaleName.canonicalTag(from: name)
      let language = String(tag.prefix { $0 != "-" })
      let admitted = made.withLock { made in
        if tag == language || made.contains(tag) { return tag }
        guard made.count < mostMade else { return language }
        made.insert(tag)
        return tag
      }
      return try LocaleName.locale(canonicalTag: admitted, name: name)
    }
  }

  /// How many tags of more than a language were made.
  var madeCount: Int { made.withLock { $0.count } }

  /// The zone `id` names.
  func timeZone(_ id: String) throws(OptionError) -> TimeZone {
    try zones.value(for: id) { () throws(OptionError) in try TimeZoneName.timeZone(id: id) }
  }
}
