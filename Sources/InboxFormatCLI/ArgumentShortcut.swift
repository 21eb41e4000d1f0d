import ArgumentParser
import InboxFormatOptions

/// The command lines most runs give, read without ArgumentParser: `format`
/// (named, or by default) with long options, and `--version` alone.
///
/// An accelerator of ArgumentParser's parse of ``InboxFormatCommand``.
/// Before it reads an argument, ArgumentParser reflects over the command
/// tree and over two commands of its own that look for a completion-script
/// request, and each reflection's casts are conformance look-ups: scans of
/// every conformance record in the executable. That is over half of a
/// 20-message page's instructions.
///
/// The shortcut builds the very `Format` value ArgumentParser would, and
/// validates it with the same `validate()` methods; `run()` is the same.
/// It reads a command line only where it reads it as ArgumentParser does,
/// and gives nil for everything else, which ArgumentParser then parses and
/// reports: help, completion scripts, other subcommands, short, unknown or
/// repeated options, `--`, an empty argument or value, an option whose
/// separate value starts with `-`, a second file, a file named like a
/// subcommand, and any value that fails validation.
/// `ArgumentShortcutTests` holds it to ArgumentParser's parse over
/// generated command lines.
enum ArgumentShortcut {
  /// `--version` alone.
  case version
  /// `format`, parsed and validated.
  case format(InboxFormatCommand.Format)

  /// How `arguments` (without the executable's name) parse, or nil when
  /// ArgumentParser is to parse them.
  init?(_ arguments: [String]) {
    if arguments == ["--version"] {
      self = .version
      return
    }
    var position = arguments.startIndex
    if arguments.first == InboxFormatCommand.Format._commandName { position += 1 }
    // Arrays, not sets: a hashed collection of a type not yet in use costs
    // a conformance scan to instantiate. An empty value is refused, so ""
    // stands for an option not given. Like ArgumentParser, the scan reads
    // characters: `-` followed by a combining mark is no dash to either.
    var file: String?
    var values = [String](repeating: "", count: Self.optionNames.count)
    var flags = [Bool](repeating: false, count: Self.flagNames.count)
    while position < arguments.endIndex {
      let argument = arguments[position]
      position += 1
      if argument == "-" || !(argument.isEmpty || argument.hasPrefix("-")) {
        guard file == nil, !Self.subcommandNames.contains(argument) else { return nil }
        file = argument
        continue
      }
      guard argument.hasPrefix("--") else { return nil }
      let equals = argument.firstIndex(of: "=")
      let name = equals.map { String(argument[..<$0]) } ?? argument
      if let flag = Self.flagNames.firstIndex(of: name) {
        guard equals == nil, !flags[flag] else { return nil }
        flags[flag] = true
        continue
      }
      guard let option = Self.optionNames.firstIndex(of: name), values[option].isEmpty else { return nil }
      let value: String
      if let equals {
        value = String(argument[argument.index(after: equals)...])
      } else {
        guard position < arguments.endIndex, !arguments[position].hasPrefix("-") else { return nil }
        value = arguments[position]
        position += 1
      }
      guard !value.isEmpty else { return nil }
      values[option] = value
    }
    func given(_ option: String) -> String? {
      Self.optionNames.firstIndex(of: option).flatMap { values[$0].isEmpty ? nil : values[$0] }
    }
    func given(flag: String) -> Bool { Self.flagNames.firstIndex(of: flag).map { flags[$0] } ?? false }

    var command = InboxFormatCommand.Format()
    command.file = file
    var formatting = FormattingOptions()
    for (setting, option) in zip(FormattingSettings.Name.allCases, Self.optionNames) {
      formatting[setting] = given(option)
    }
    command.formatting = formatting
    var reading = MappingOptions()
    reading.map = given("--map")
    reading.viewer = given("--viewer")
    command.reading = reading
    if let output = given("--output") {
      guard let format = OutputFormat(argument: output) else { return nil }
      command.output = format
    } else {
      command.output = .byDefault
    }
    command.pretty = given(flag: "--pretty")
    command.skipInvalid = given(flag: "--skip-invalid")
    do {
      try command.formatting.validate()
      try command.reading.validate()
      try command.validate()
    } catch {
      return nil
    }
    self = .format(command)
  }

  /// `format`'s options that take a value: the formatting settings' (in
  /// the settings' order), `--map`, `--viewer` and `--output`.
  static let optionNames = FormattingSettings.Name.allCases.map { $0.option } + ["--map", "--viewer", "--output"]

  /// `format`'s flags.
  static let flagNames = ["--pretty", "--skip-invalid"]

  /// The words ArgumentParser may read as a subcommand rather than a file.
  static let subcommandNames = InboxFormatCommand.configuration.subcommands.map { $0._commandName } + ["help"]
}
