package import ArgumentParser
package import InboxFormat
import InboxFormatOptions

/// `--map` and `--viewer`: where the payload keeps its messages, shared by
/// every subcommand that reads a payload.
package struct MappingOptions: ParsableArguments {
  @Option(
    name: .customLong("map"),
    help: ArgumentHelp(
      "How to read the payload: a built-in mapping or a mapping file.",
      discussion: """
        Built-in: \(InputMapping.builtInNames.joined(by: ", ")) (default post). \
        A name that is not a built-in is a file; `inbox-format mappings NAME` prints one to start from.
        """,
      valueName: "name|file"))
  package var map: String?

  @Option(
    help: ArgumentHelp(
      "The viewer's user id, which viewer() returns in the mapping's queries.",
      discussion: "It is how a one-to-one chat is titled by the other member.",
      valueName: "id"))
  package var viewer: String?

  package init() {}

  /// The mapping these options name, with the viewer set.
  ///
  /// A mapping file that cannot be opened exits 66 (reported on standard
  /// error); one that is not a mapping is a usage error (64) naming the
  /// file, the key and, for a query, the position in it.
  package func mapping() throws -> InputMapping {
    guard let map else { return InputMapping.post.viewer(viewer) }
    if let builtIn = InputMapping.builtIn(named: map) { return builtIn.viewer(viewer) }
    let source = InputSource(path: map)
    let json = try source.readAll()
    do {
      return try InputMapping(json: json, name: map).viewer(viewer)
    } catch {
      throw ValidationError("--map \(source.displayName): \(error)")
    }
  }
}
