import ArgumentParser
import Configuration
import InboxFormat
import InboxFormatCLI
import InboxFormatOptions
import InboxFormatSupport

/// Where a setting in effect came from.
enum SettingSource: Equatable, Sendable {
  case defaultValue
  case flag
  /// The variable's name.
  case environment(String)
  /// The config file's key.
  case file(key: String)

  /// As `--print-config` writes it: `default`, `flag`,
  /// `environment INBOX_FORMAT_PORT`, `file:port`.
  var description: String {
    switch self {
    case .defaultValue: "default"
    case .flag: "flag"
    case .environment(let name): "environment \(name)"
    case .file(let key): "file:\(key)"
    }
  }
}

/// `serve`'s settings in effect: each option from the command line if it
/// is there, else from its `INBOX_FORMAT_` variable, else from the config
/// file's key, else its default.
///
/// A value from the environment or the file is read by ArgumentParser as
/// the option's argument (the command is parsed again with it), and
/// checked as the option is: a bad one gets the flag's message, after the
/// variable, or the file and key, it came from.
struct ServeSettings {
  typealias Serve = InboxFormatCommand.Serve

  /// The command, with every setting in effect.
  let serve: Serve
  /// The formatting context of `serve`'s settings, resolved once while
  /// they were checked.
  let context: FormattingContext
  /// Where each setting came from.
  let sources: [ServeSetting: SettingSource]
  /// The config file's path and where that came from, if there is one.
  let config: (path: String, source: SettingSource)?

  /// A value for an option the command line leaves out.
  private struct Layer {
    let setting: ServeSetting
    let value: SettingValue
    let source: SettingSource
    /// How a message names where the value came from.
    let label: String
  }

  /// The settings of `parsed`, the command as ArgumentParser parsed
  /// `arguments` (those after the program's name), with the environment
  /// and the config file filling in what they leave out.
  ///
  /// - Throws: `ValidationError` (exit 64) for a value that cannot be used,
  ///   naming its source; exit 66 for a config file that cannot be opened.
  static func resolve(_ parsed: Serve, arguments: [String], environment: ProcessEnvironment) throws -> ServeSettings {
    // The first word that is not an option names the subcommand: the
    // root command's options take no values.
    guard let serveIndex = arguments.firstIndex(of: "serve") else { preconditionFailure("serve without serve") }
    let head = Array(arguments[...serveIndex])
    let rest = Array(arguments[(serveIndex + 1)...])
    let given = givenOnCommandLine(rest)
    let variables = EnvironmentVariables(environment)

    var config: (path: String, source: SettingSource)?
    if let path = parsed.config {
      config = (path, .flag)
    } else if let (name, path) = try variables.text(of: "config") {
      config = (path, .environment(name))
    }
    let file = try config.map { try ConfigFile(path: $0.path) }

    var layers: [Layer] = []
    for setting in ServeSetting.allCases where !given.contains(setting) {
      if let (name, value) = try variables.value(of: setting) {
        layers.append(Layer(setting: setting, value: value, source: .environment(name), label: name))
      } else if let file, let value = try file.value(of: setting) {
        layers.append(
          Layer(setting: setting, value: value, source: .file(key: setting.rawValue), label: file.label(setting)))
      }
    }

    func parse(_ layers: ArraySlice<Layer>) throws -> (Serve, FormattingContext) {
      let layered = layers.flatMap { $0.setting.arguments($0.value) }
      guard let serve = try InboxFormatCommand.parseAsRoot(head + layered + rest) as? Serve else {
        preconditionFailure("the arguments name serve")
      }
      return (serve, try serve.check(environment: environment))
    }
    let (serve, context): (Serve, FormattingContext)
    do {
      (serve, context) = try parse(layers[...])
    } catch {
      // The first layer that makes the command fail is the one to name.
      _ = try parse([])
      for end in layers.indices {
        do {
          _ = try parse(layers[...end])
        } catch {
          let layer = layers[end]
          let message = InboxFormatCommand.message(for: error)
          var values: [String] = []
          if case .text(let text) = layer.value { values = [text] }
          throw ValidationError("\(layer.label): \(OneLine.safe(message, arguments: values))")
        }
      }
      throw error
    }
    var sources: [ServeSetting: SettingSource] = [:]
    for setting in ServeSetting.allCases { sources[setting] = given.contains(setting) ? .flag : .defaultValue }
    for layer in layers { sources[layer.setting] = layer.source }
    return ServeSettings(serve: serve, context: context, sources: sources, config: config)
  }

  /// The settings that `arguments` (those after `serve`) give: each word up
  /// to `--` that is an option's name, alone or before `=`. (A word
  /// standing for a value never starts with `--` unless it follows `=`:
  /// ArgumentParser reads such a word as an option.)
  static func givenOnCommandLine(_ arguments: [String]) -> Set<ServeSetting> {
    var given: Set<ServeSetting> = []
    for word in arguments.prefix(while: { $0 != "--" }) where word.hasPrefix("--") {
      let name = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
      if let setting = ServeSetting.allCases.first(where: { $0.commandLineNames.contains(String(name)) }) {
        given.insert(setting)
      }
    }
    return given
  }

  /// What `--print-config` writes: a line for the config file, then one per
  /// setting, in columns: the name, the value, where it came from.
  func table() -> String {
    var rows = [("config", config.map(\.path), config?.source ?? .defaultValue)]
    rows += ServeSetting.allCases.map { ($0.rawValue, $0.value(in: serve), sources[$0] ?? .defaultValue) }
    let cells = rows.map { name, value, source in (name, value.map(Self.shown) ?? "(not set)", source.description) }
    let nameWidth = cells.map(\.0.count).max()! + 2
    let valueWidth = cells.map(\.1.count).max()! + 2
    return cells.map { name, value, source in
      name.padding(toLength: nameWidth) + value.padding(toLength: valueWidth) + source + "\n"
    }.joined()
  }

  /// A value as the table shows it: as it is when it is plain ASCII
  /// without spaces or quotes, else quoted and escaped.
  private static func shown(_ value: String) -> String {
    let isPlain =
      !value.isEmpty && value.unicodeScalars.allSatisfy { (0x21...0x7E).contains($0.value) && $0 != "\"" }
    return isPlain ? value : quoted(value, limit: 200)
  }
}

/// The `INBOX_FORMAT_` variables, read through swift-configuration, whose
/// key encoder names them: the key `inbox-format.max-body-size` is the
/// variable `INBOX_FORMAT_MAX_BODY_SIZE`. An empty variable counts as
/// unset, as the locale's and `SOURCE_DATE_EPOCH` do.
private struct EnvironmentVariables {
  let provider: EnvironmentVariablesProvider

  init(_ environment: ProcessEnvironment) {
    provider = EnvironmentVariablesProvider(environmentVariables: environment.variables)
  }

  /// The variable for the option `name`: its name, and its value if set.
  func text(of name: String) throws -> (name: String, value: String)? {
    let result = try provider.value(forKey: AbsoluteConfigKey(["inbox-format", name]), type: .string)
    guard case .string(let text) = result.value?.content, !text.isEmpty else { return nil }
    return (result.encodedKey, text)
  }

  /// The value the environment gives `setting`, if any: text, or for a
  /// flag a Boolean (true, false, yes, no, 1, 0), else a usage error.
  func value(of setting: ServeSetting) throws -> (name: String, value: SettingValue)? {
    guard let (name, text) = try text(of: setting.rawValue) else { return nil }
    guard setting.isFlag else { return (name, .text(text)) }
    let key = AbsoluteConfigKey(["inbox-format", setting.rawValue])
    guard case .bool(let on)? = try? provider.value(forKey: key, type: .bool).value?.content else {
      throw ValidationError(OptionError.notOneOf(text, expected: "true or false").message(naming: "\(name):"))
    }
    return (name, .flag(on))
  }
}

extension String {
  fileprivate func padding(toLength length: Int) -> String {
    count >= length ? self + " " : self + String(repeating: " ", count: length - count)
  }
}
