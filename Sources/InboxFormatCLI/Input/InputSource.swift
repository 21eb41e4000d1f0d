import ArgumentParser
import Foundation
import Glibc

/// Where the payload comes from: a file, or standard input.
package struct InputSource {
  /// The file, or nil for standard input.
  let file: FileName?
  /// Whether only a regular file will do: `watch` reads its file again and
  /// again, and opening a FIFO put in its place would block it, reading a
  /// device would never end.
  var requiresRegularFile = false
  /// Tells a person why the input cannot be opened or read, before the
  /// status is thrown: a line on standard error, and in `preview` the
  /// page's banner too. Given the message without the `inbox-format: ` prefix.
  package var report: (String) -> Void = { StandardError.write("inbox-format: \($0)") }

  /// `path` of nil or `-` means standard input.
  package init(path: String?, requiresRegularFile: Bool = false) {
    self.file = path.flatMap { $0 == "-" ? nil : FileName(argument: $0) }
    self.requiresRegularFile = requiresRegularFile
  }

  /// How messages name the input: `"in.json"`, or `<stdin>`.
  package var displayName: String { file?.quoted ?? "<stdin>" }

  /// Reads every byte. A file that cannot be opened exits 66, a failed read 74.
  package func readAll() throws -> [UInt8] {
    let input = try open()
    var bytes: [UInt8] = []
    bytes.reserveCapacity(input.sizeHint + 1)
    while let chunk = try input.read() { bytes += chunk }
    return bytes
  }

  /// Opens the input for reading piece by piece. A file that cannot be
  /// opened (or is a directory, or with ``requiresRegularFile`` anything
  /// but a regular file) is reported and exits 66.
  func open() throws -> OpenInput {
    guard let file else {
      return OpenInput(descriptor: STDIN_FILENO, displayName: displayName, closesOnDeinit: false, report: report)
    }
    // O_NONBLOCK: opening a FIFO without a writer returns at once instead of
    // waiting for one; it changes nothing for a regular file.
    let descriptor = file.withCString { Glibc.open($0, O_RDONLY | O_CLOEXEC | (requiresRegularFile ? O_NONBLOCK : 0)) }
    guard descriptor >= 0 else {
      report("cannot open \(file.quoted): \(String(cString: strerror(errno)))")
      throw ExitStatus.cannotOpenInput
    }
    let input = OpenInput(descriptor: descriptor, displayName: displayName, closesOnDeinit: true, report: report)
    if input.isDirectory {
      report("cannot open \(file.quoted): it is a directory")
      throw ExitStatus.cannotOpenInput
    }
    if requiresRegularFile && !input.isRegularFile {
      report("cannot open \(file.quoted): it is not a regular file")
      throw ExitStatus.cannotOpenInput
    }
    return input
  }
}

/// An input being read, a megabyte at a time.
final class OpenInput {
  private let descriptor: Int32
  private let displayName: String
  private let closesOnDeinit: Bool
  private let report: (String) -> Void
  /// Made by the first ``read()``: a regular file is mapped instead and
  /// never needs it, and a page should not pay for zeroing it. 256 KiB: reads
  /// of it cost little next to the formatting, and NDJSON, which streams,
  /// holds a few pieces of this size at once.
  private lazy var buffer = [UInt8](repeating: 0, count: 256 << 10)

  /// What the descriptor was when opened (one fstat for every question below).
  private let status: stat?

  fileprivate init(descriptor: Int32, displayName: String, closesOnDeinit: Bool, report: @escaping (String) -> Void) {
    self.descriptor = descriptor
    self.report = report
    self.displayName = displayName
    self.closesOnDeinit = closesOnDeinit
    var status = stat()
    self.status = fstat(descriptor, &status) == 0 ? status : nil
  }

  deinit {
    if closesOnDeinit { close(descriptor) }
  }

  fileprivate var isDirectory: Bool { status.map { ($0.st_mode & S_IFMT) == S_IFDIR } ?? false }

  fileprivate var isRegularFile: Bool { status.map { ($0.st_mode & S_IFMT) == S_IFREG } ?? false }

  /// The size of a regular file, else 0.
  var sizeHint: Int { status.map { ($0.st_mode & S_IFMT) == S_IFREG ? Int($0.st_size) : 0 } ?? 0 }

  /// The whole file in memory, for a regular file that is not empty and
  /// not yet read from (standard input may be a file read partly before):
  /// mapped, so that its bytes are read where the page cache holds them
  /// instead of being copied (with a fault on every fresh page) into an
  /// array. Nil otherwise, or when it cannot be mapped: read it instead.
  func mapped() -> MappedFile? {
    guard isRegularFile, sizeHint > 0, lseek(descriptor, 0, SEEK_CUR) == 0,
      let address = mmap(nil, sizeHint, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED
    else { return nil }
    return MappedFile(address: address, count: sizeHint)
  }

  /// The next bytes, or nil at the end. A failed read is reported and exits 74.
  func read() throws -> [UInt8]? {
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count > 0 { return Array(buffer[..<count]) }
      if count == 0 { return nil }
      if errno == EINTR { continue }
      report("cannot read \(displayName): \(String(cString: strerror(errno)))")
      throw ExitStatus.ioError
    }
  }
}

/// A file mapped read-only, unmapped when released.
final class MappedFile {
  private let address: UnsafeMutableRawPointer
  private let count: Int

  fileprivate init(address: UnsafeMutableRawPointer, count: Int) {
    self.address = address
    self.count = count
    MappedInput.register(address, count: count)
  }

  deinit {
    MappedInput.register(nil, count: 0)
    munmap(address, count)
  }

  /// The file's bytes, valid while this object lives.
  var bytes: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: count)
  }
}

/// A mapped file that another process cuts short while it is read raises
/// SIGBUS at the first page past its new end. That is a read error, not a
/// crash: report it and exit 74, as a failed read(2) does. Only a fault
/// inside the mapped input is; any other SIGBUS goes to the handler that was
/// there before (the Swift runtime's backtracer, or the default: a crash).
enum MappedInput {
  /// The mapped input's bounds, read by the handler (hence plain globals:
  /// a signal handler may only read memory).
  nonisolated(unsafe) private static var start: UInt = 0
  nonisolated(unsafe) private static var end: UInt = 0
  nonisolated(unsafe) private static var previous = sigaction()

  /// Marks `address` and the `count` bytes after it as the mapped input (nil: none).
  static func register(_ address: UnsafeRawPointer?, count: Int) {
    start = UInt(bitPattern: address)
    end = start + UInt(count)
  }

  /// Installs the handler; ``ProcessSetup`` does, once.
  static func installGuard() {
    var action = sigaction()
    action.sa_flags = SA_SIGINFO
    action.__sigaction_handler.sa_sigaction = { signal, info, context in
      let address = UInt(bitPattern: info?.pointee._sifields._sigfault.si_addr)
      if address >= MappedInput.start && address < MappedInput.end {
        // Only async-signal-safe calls: write(2) and _exit(2).
        let message: StaticString = "inbox-format: cannot read the input: the file was cut short while it was read\n"
        _ = write(STDERR_FILENO, message.utf8Start, message.utf8CodeUnitCount)
        _exit(74)  // ExitStatus.ioError
      }
      // Not ours: put the previous handling back; the fault happens again and goes there.
      var previous = MappedInput.previous
      sigaction(SIGBUS, &previous, nil)
    }
    sigemptyset(&action.sa_mask)
    sigaction(SIGBUS, &action, &previous)
  }
}
