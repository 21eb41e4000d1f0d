import Glibc
import InboxFormatOptions

/// Replaces files whole: a reader opens the old file or the new one, never
/// part of one, and no temporary file outlives a call.
enum AtomicFile {
  /// Writes `bytes` to a temporary file beside `path`, then renames it over
  /// `path`. On a failure, `path` is left as it was, the temporary file is
  /// removed, and an ``OutputFault`` says why.
  static func replace(_ path: FileName, with bytes: [UInt8]) throws(OutputFault) {
    // Same directory, so the rename stays on one file system and is atomic;
    // a dot name, so listings skip it while it exists, and a short one, so
    // that it fits wherever OUT's own name does.
    var template = path.directory.appending(".inbox-format-XXXXXX".utf8).bytes.map { CChar(bitPattern: $0) } + [0]
    let descriptor = mkstemp(&template)
    guard descriptor >= 0 else { throw failure(path, errno) }
    // No fsync: a preview need not survive a power cut, and readers see the
    // new file as soon as it is renamed.
    var error: Int32? =
      bytes.withUnsafeBytes { writeAll($0, to: descriptor) } ?? (fchmod(descriptor, creationMode) == 0 ? nil : errno)
    if close(descriptor) != 0 { error = error ?? errno }
    if error == nil && path.withCString({ rename(template, $0) }) != 0 { error = errno }
    if let error {
      unlink(template)
      throw failure(path, error)
    }
  }

  /// What `open(path, O_CREAT, 0666)` would give: mkostemp makes files 0600.
  private static let creationMode: mode_t = {
    let mask = umask(0)
    umask(mask)
    return 0o666 & ~mask
  }()

  private static func failure(_ path: FileName, _ error: Int32) -> OutputFault {
    OutputFault(output: path.quoted, reason: String(cString: strerror(error)))
  }
}
