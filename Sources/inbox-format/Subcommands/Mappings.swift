import ArgumentParser
import Foundation
import InboxFormat

extension InboxFormatCommand {
  /// `mappings`: the built-in mappings, or one of them as a file to start from.
  struct Mappings: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "mappings",
      abstract: "List the built-in mappings, or print one as a file to start your own from.",
      discussion: """
        A mapping says where a backend's payload keeps its messages and where each field comes \
        from, as RFC 9535 JSONPath queries. Use one with --map NAME, or --map FILE for your own.
        """)

    @Argument(help: "The built-in mapping to print; all are listed when absent.")
    var name: String?

    func validate() throws {
      if let name, InputMapping.builtIn(named: name) == nil {
        throw ValidationError(
          "no built-in mapping \(quoted(name)); expected one of \(InputMapping.builtInNames.joined(separator: ", "))"
        )
      }
    }

    func run() throws {
      if let name, let mapping = InputMapping.builtIn(named: name) {
        try StandardOutput.write(Array((mapping.document + "\n").utf8))
        return
      }
      let width = InputMapping.builtIns.map(\.name.count).max() ?? 0
      let lines = InputMapping.builtIns.map { mapping in
        mapping.name.padding(toLength: width + 2, withPad: " ", startingAt: 0)
          + Self.headline(of: mapping.summary ?? "")
      }
      try StandardOutput.write(Array((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// A summary's first part, the API call it names: up to the shape of
    /// the answer (`, {…}` or `, […]`) or the first `;`.
    private static func headline(of summary: String) -> String {
      let ends = [", {", ", [", "; "].compactMap { summary.range(of: $0)?.lowerBound }
      return String(summary[..<(ends.min() ?? summary.endIndex)])
    }
  }
}
