package import ArgumentParser

/// A closed set of values an option takes, each named by its raw value
/// (`--output json`, `--log-level info`).
///
/// ArgumentParser lists such values for help, errors and completion
/// scripts. Its own lists for a `CaseIterable` type go through a key path
/// and generic code that the runtime resolves by conformance look-ups, each
/// a scan of every conformance in the executable, on every start of every
/// command. These are the same lists, from code the compiler sees whole.
package protocol OptionChoice: ExpressibleByArgument, CaseIterable, RawRepresentable<String> {}

extension OptionChoice {
  /// Each case's raw value, in the order of `allCases`.
  package static var allValueStrings: [String] { allCases.map { $0.rawValue } }

  /// No value has a description of its own: ArgumentParser lists a value's
  /// description only when it differs from the value's name.
  package static var allValueDescriptions: [String: String] { [:] }
}
