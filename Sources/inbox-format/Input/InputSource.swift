import ArgumentParser
import Foundation

import Glibc

/// Where the payload comes from: a file, or standard input.
struct InputSource {
  /// The path, or nil for standard input.
  let path: String?

  /// `path` of nil or `-` means standard input.
  init(path: String?) {
    self.path = path == "-" ? nil : path
  }

  /// How errors name the input.
  var displayName: String { path ?? "<stdin>" }

  /// Reads every byte. A file that cannot be opened exits 66, a failed read 74.
  func readAll() throws -> [UInt8] {
    guard let path else { return try readAll(from: STDIN_FILENO) }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      StandardError.write("inbox-format: cannot open \(path.debugDescription): \(String(cString: strerror(errno)))")
      throw ExitStatus.cannotOpenInput
    }
    defer { close(descriptor) }
    var status = stat()
    if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
      StandardError.write("inbox-format: cannot open \(path.debugDescription): it is a directory")
      throw ExitStatus.cannotOpenInput
    }
    return try readAll(from: descriptor)
  }

  private func readAll(from descriptor: Int32) throws -> [UInt8] {
    var bytes: [UInt8] = []
    var status = stat()
    if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
      bytes.reserveCapacity(Int(status.st_size) + 1)
    }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count == 0 { return bytes }
      if count < 0 {
        if errno == EINTR { continue }
        StandardError.write("inbox-format: cannot read \(displayName): \(String(cString: strerror(errno)))")
        throw ExitStatus.ioError
      }
      bytes.append(contentsOf: chunk[..<count])
    }
  }
}
