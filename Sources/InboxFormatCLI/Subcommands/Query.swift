import ArgumentParser
import InboxFormat

extension InboxFormatCommand {
  /// `query`: what an RFC 9535 JSONPath query selects from a JSON document.
  struct Query: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "query",
      abstract: "Print what a JSONPath query (RFC 9535) selects from a JSON document, as a JSON array.",
      discussion: """
        Functions: length, count, match, search, value, and viewer(), which returns --viewer. \
        Exit status: 64 invalid query, 65 the input is not JSON, 66 input cannot be opened.
        """
    )

    @Argument(help: "The JSONPath query, e.g. '$.items[?@.unread_count > 0].id'.")
    var path: String

    @Argument(help: "The JSON file; standard input when absent or '-'.")
    var file: String?

    @Flag(help: "Print the normalized paths of the selected nodes instead of their values.")
    var paths = false

    @Option(help: "The string viewer() returns in the query; Nothing when absent.")
    var viewer: String?

    func run() throws {
      let run: JSONPathRun
      do {
        run = try JSONPathRun(query: path, viewer: viewer)
      } catch {
        StandardError.write("inbox-format: invalid JSONPath query: \(error)")
        throw ExitStatus.usage
      }
      let input = InputSource(path: file)
      let bytes = try input.readAll()
      let output: [UInt8]
      do {
        output = try bytes.withUnsafeBufferPointer { buffer throws(InboxFormatError) in
          try run.output(for: buffer, paths: paths)
        }
      } catch {
        throw Rendering.refusal(of: input, because: error)
      }
      try StandardOutput.write(output)
    }
  }
}
