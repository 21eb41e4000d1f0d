import ArgumentParser
import Configuration
import Foundation
import InboxFormat
import InboxFormatCLI
import InboxFormatSupport
import Synchronization

/// `serve --config FILE`: a JSON or YAML object whose keys are the names of
/// `serve`'s options (`{"port": 8081, "metrics": false}`), read by
/// swift-configuration's parsers.
///
/// The file is read here rather than by its `FileProvider`, so that one
/// that cannot be opened is reported as every input is (exit 66).
struct ConfigFile {
  /// How messages name the file: quoted, as inputs are.
  let displayName: String
  private let snapshot: any ConfigSnapshot
  /// For JSON, the keys whose values are true or false; nil for YAML,
  /// whose parser tells Booleans from numbers itself.
  private let jsonBooleans: Set<String>?

  /// Reads and parses the file at `path`. A file that cannot be opened
  /// exits 66; one that is not a JSON or YAML object, or that has a key
  /// which is not one of ``ServeSetting``, is a usage error (64) naming the
  /// file, and the key.
  init(path: String) throws {
    let source = InputSource(path: path)
    displayName = source.displayName
    let bytes = try source.readAll()
    let format = Format(path: path, bytes: bytes)
    // The parsers keep their keys to themselves; the secrets specifier is
    // asked about each one (and marks none secret), which lists them. It
    // sees JSON's values too: JSONSerialization reads true and false as
    // numbers, which the snapshot would then give as 1 and 0.
    let keys = Mutex<[String]>([])
    let booleans = Mutex<Set<String>>([])
    do {
      switch format {
      case .json:
        snapshot = try JSONSnapshot(
          data: bytes.span.bytes, providerName: displayName,
          parsingOptions: .init(
            secretsSpecifier: .dynamic { key, value in
              let isBoolean = (value as? NSNumber).map { String(cString: $0.objCType) == "c" } ?? false
              keys.withLock { $0.append(key) }
              if isBoolean { booleans.withLock { _ = $0.insert(key) } }
              return false
            }))
      case .yaml:
        snapshot = try YAMLSnapshot(
          data: bytes.span.bytes, providerName: displayName,
          parsingOptions: .init(
            secretsSpecifier: .dynamic { key, _ in
              keys.withLock { $0.append(key) }
              return false
            }))
      }
    } catch {
      throw ValidationError("cannot read \(displayName) as \(format.rawValue): \(Self.describe(error, in: bytes))")
    }
    jsonBooleans = format == .json ? booleans.withLock { $0 } : nil
    for key in keys.withLock({ $0 }).sorted() where ServeSetting(rawValue: key) == nil {
      let suggestion = ServeSetting.nearest(to: key).map { "; did you mean \(quoted($0.rawValue))?" } ?? ""
      throw ValidationError("\(displayName) key \(quoted(key)) is not an option of serve\(suggestion)")
    }
  }

  /// How messages name the file's key for `setting`.
  func label(_ setting: ServeSetting) -> String { "\(displayName) key \(quoted(setting.rawValue))" }

  /// The file's value for `setting`, or nil when it has none (or null):
  /// true or false for a flag; a string or a number for an option, as text
  /// that the option then reads as it reads its argument. A value of
  /// another type is a usage error naming the file and the key.
  func value(of setting: ServeSetting) throws -> SettingValue? {
    let key = AbsoluteConfigKey([setting.rawValue])
    let isJSONBoolean = jsonBooleans?.contains(setting.rawValue)
    if setting.isFlag {
      let result = try? snapshot.value(forKey: key, type: .bool)
      if let result, result.value == nil { return nil }
      if case .bool(let on)? = result?.value?.content, isJSONBoolean != false { return .flag(on) }
      throw ValidationError("\(label(setting)): expected true or false")
    }
    for type in [ConfigType.string, .int, .double] where isJSONBoolean != true {
      guard let result = try? snapshot.value(forKey: key, type: type) else { continue }
      switch result.value?.content {
      case nil: return nil
      case .string(let text): return .text(text)
      case .int(let number): return .text(String(number))
      case .double(let number): return .text(String(number))
      default: continue
      }
    }
    throw ValidationError("\(label(setting)): expected a string or a number")
  }

  /// The parser's complaint on one line, with where: JSONSerialization
  /// tells the offset, which becomes a line and a column as every input's
  /// are (``InputLocation``); Yams's first line starts with them (the rest
  /// shows the line).
  private static func describe(_ error: any Error, in bytes: [UInt8]) -> String {
    guard let debug = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String else {
      let line = String(describing: error).prefix { $0 != "\n" }
      return String(line.hasSuffix(":") ? line.dropLast() : line)
    }
    guard let match = debug.firstMatch(of: /around character (\d+)/),
      let offset = Int(match.1), offset <= bytes.count
    else { return debug }
    return "\(InputLocation(offset: offset, in: bytes)): \(debug)"
  }

  enum Format: String {
    case json = "JSON"
    case yaml = "YAML"

    /// By the name's extension (`.json`, `.yaml`, `.yml`); else JSON if the
    /// first byte that is not white space opens an object, YAML otherwise.
    init(path: String, bytes: [UInt8]) {
      let name = path.split(separator: "/").last ?? ""
      let fileExtension = name.contains(".") ? name.split(separator: ".").last?.lowercased() : nil
      switch fileExtension {
      case "json": self = .json
      case "yaml", "yml": self = .yaml
      default:
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        self = first == UInt8(ascii: "{") ? .json : .yaml
      }
    }
  }
}
