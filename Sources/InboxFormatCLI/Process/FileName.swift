import Glibc
import InboxFormat
import InboxFormatSupport

/// A file name as the command received it: bytes, which need not be UTF-8.
///
/// Messages show it through ``quoted``, escaped and cut as payload values
/// are, and invalid bytes as `\x{FF}`; the system gets the bytes themselves.
package struct FileName: Equatable {
  /// The name's bytes, without a terminating NUL.
  let bytes: [UInt8]

  /// The file an argument names: its bytes as received, even when they are not UTF-8.
  package init(argument: String) {
    bytes = CommandLineArguments.bytesOfMapped[argument] ?? Array(argument.utf8)
  }

  init(bytes: some Sequence<UInt8>) {
    self.bytes = Array(bytes)
  }

  /// The name for a message: `"in.json"`.
  package var quoted: String { InboxFormatSupport.quoted(bytes: bytes) }

  /// Whether the name is empty.
  var isEmpty: Bool { bytes.isEmpty }

  /// The directory part, `.` for a name without one, `/` for one at the root.
  var directory: FileName {
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return FileName(bytes: ".".utf8) }
    return FileName(bytes: slash == 0 ? [UInt8(ascii: "/")] : Array(bytes[..<slash]))
  }

  /// The last component: the name within ``directory``.
  var lastComponent: [UInt8] {
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return bytes }
    return Array(bytes[(slash + 1)...])
  }

  /// `component` inside this directory.
  func appending(_ component: some Sequence<UInt8>) -> FileName {
    FileName(bytes: bytes + [UInt8(ascii: "/")] + component)
  }

  /// Calls `body` with the name as a C string.
  func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
    try (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { try body($0.baseAddress!) }
  }
}
