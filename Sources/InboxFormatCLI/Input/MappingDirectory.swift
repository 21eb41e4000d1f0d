import ArgumentParser
import Foundation
package import InboxFormat
import InboxFormatSupport

/// `serve --mappings DIR`: the mapping files of a directory, read once.
package enum MappingDirectory {
  /// The mappings of the `.json` files in `path`, each named by its file's
  /// name without `.json`, in name order. A directory that cannot be read
  /// exits 66; a file that is not a mapping, or a name a built-in has, is a
  /// usage error (64) naming the file.
  package static func read(_ path: String) throws -> [InputMapping] {
    let directory = URL(fileURLWithPath: path, isDirectory: true)
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".json") }.sorted()
    } catch {
      StandardError.write(
        "inbox-format: cannot read the mappings directory \(quoted(path)): \(error.localizedDescription)")
      throw ExitStatus.cannotOpenInput
    }
    var mappings: [InputMapping] = []
    for file in names {
      let name = String(file.dropLast(".json".count))
      let shown = quoted(directory.appendingPathComponent(file).path)
      guard InputMapping.builtIn(named: name) == nil else {
        throw ValidationError("--mappings: \(shown) has the name of a built-in mapping; rename it")
      }
      let json = try InputSource(path: directory.appendingPathComponent(file).path).readAll()
      do {
        mappings.append(try InputMapping(json: json, name: name))
      } catch {
        throw ValidationError("--mappings: \(shown): \(error)")
      }
    }
    return mappings
  }
}
