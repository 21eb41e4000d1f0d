import ArgumentParser
import InboxFormatCLI

/// The options of `serve` that the environment and a config file may set:
/// the one list that names them outside ArgumentParser's declarations.
///
/// Each raw value is the option's name as ArgumentParser writes it
/// (`max-body-size` for `--max-body-size`); the file key is that name and
/// the environment variable is derived from it (`INBOX_FORMAT_MAX_BODY_SIZE`).
/// `ServeSettingsTests` checks the list against the options `serve --help`
/// shows, so that an option added to `serve` cannot be left out.
enum ServeSetting: String, CaseIterable, Sendable {
  // ListeningOptions
  case host, port
  case logLevel = "log-level"
  case logFormat = "log-format"
  case drainDelay = "drain-delay"
  case metrics
  // FormattingOptions
  case now, locale
  case timeZone = "time-zone"
  case hourCycle = "hour-cycle"
  case previewLength = "preview-length"
  case fields
  case dateStyle = "date-style"
  case badgeLimit = "badge-limit"
  // MappingOptions
  case map, viewer
  // Serve's own
  case mappings
  case maxBodySize = "max-body-size"
  case maxRequestsInFlight = "max-requests-in-flight"
  case maxBodyMemory = "max-body-memory"
  case idleTimeout = "idle-timeout"
  case bodyTimeout = "body-timeout"

  typealias Serve = InboxFormatCommand.Serve

  /// Where the parsed command keeps the value.
  var keyPath: PartialKeyPath<Serve> {
    switch self {
    case .host: \.listening.host
    case .port: \.listening.port
    case .logLevel: \.listening.logLevel
    case .logFormat: \.listening.logFormat
    case .drainDelay: \.listening.drainDelay
    case .metrics: \.listening.metrics
    case .now: \.formatting.now
    case .locale: \.formatting.locale
    case .timeZone: \.formatting.timeZone
    case .hourCycle: \.formatting.hourCycle
    case .previewLength: \.formatting.previewLength
    case .fields: \.formatting.fields
    case .dateStyle: \.formatting.dateStyle
    case .badgeLimit: \.formatting.badgeLimit
    case .map: \.reading.map
    case .viewer: \.reading.viewer
    case .mappings: \.mappings
    case .maxBodySize: \.maxBodySize
    case .maxRequestsInFlight: \.maxRequestsInFlight
    case .maxBodyMemory: \.maxBodyMemory
    case .idleTimeout: \.idleTimeout
    case .bodyTimeout: \.bodyTimeout
    }
  }

  /// Whether it is a flag with an inversion (`--metrics`, `--no-metrics`)
  /// rather than an option that takes a value.
  var isFlag: Bool { keyPath is KeyPath<Serve, Bool> }

  /// The words on a command line that give it: `--port` (alone, or as
  /// `--port=8081`), or a flag and its inversion.
  var commandLineNames: [String] { isFlag ? ["--\(rawValue)", "--no-\(rawValue)"] : ["--\(rawValue)"] }

  /// The value `serve` has, as ArgumentParser shows a default (`8080`,
  /// `info`, `true`), or nil when the option is unset.
  func value(in serve: Serve) -> String? {
    // A cast to a protocol looks through an Optional: nil fails it.
    (serve[keyPath: keyPath] as? any ExpressibleByArgument)?.defaultValueDescription
  }

  /// The words that give `value` on a command line: `--name=value`, so that
  /// a value starting with `-` is not taken for an option; `--name ""` for
  /// an empty one, which `--name=` would leave missing; a flag or its
  /// inversion for a Boolean.
  func arguments(_ value: SettingValue) -> [String] {
    switch value {
    case .flag(let on): [on ? "--\(rawValue)" : "--no-\(rawValue)"]
    case .text(let text): text.isEmpty ? ["--\(rawValue)", ""] : ["--\(rawValue)=\(text)"]
    }
  }

  /// The setting a file key or a mistyped one was meant to be: the closest
  /// name at most two edits away, if exactly one is that close.
  static func nearest(to key: String) -> ServeSetting? {
    let distances = allCases.map { ($0, editDistance(key, $0.rawValue)) }
    guard let best = distances.map(\.1).min(), best <= 2 else { return nil }
    let closest = distances.filter { $0.1 == best }
    return closest.count == 1 ? closest[0].0 : nil
  }
}

/// A value that the environment or a file gives a setting, before
/// ArgumentParser reads it as the option's value.
enum SettingValue: Equatable, Sendable {
  case flag(Bool)
  case text(String)
}

/// The Levenshtein distance between two short names.
private func editDistance(_ a: String, _ b: String) -> Int {
  let b = Array(b.unicodeScalars)
  var previous = Array(0...b.count)
  for (i, x) in a.unicodeScalars.enumerated() {
    var current = [i + 1]
    for (j, y) in b.enumerated() {
      current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
    }
    previous = current
  }
  return previous[b.count]
}
