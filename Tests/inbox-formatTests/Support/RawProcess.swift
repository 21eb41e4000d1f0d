import Foundation
import Glibc

/// Runs the built `inbox-format` the way a shell would, with what
/// Foundation's `Process` cannot give it: arguments as raw bytes (file names
/// that are not UTF-8), standard streams closed or opened on a device,
/// standard input fed from a generator until the reader goes away (EPIPE),
/// a deadline after which the child is killed, and its peak memory.
///
/// The child starts with every signal at its default action and none
/// blocked, whatever the test runner set for itself.
enum RawProcess {
  /// Where a standard stream of the child goes.
  enum Stream: Sendable {
    /// A pipe that the parent reads to the end (or writes, for standard input).
    case pipe
    /// Not open at all: `2>&-`.
    case closed
    /// Opened on this path: `/dev/full`, `/dev/null`, a FIFO, a file.
    case path(String)
    /// A pipe whose reader is gone before the child starts: writes fail with EPIPE.
    case brokenPipe
  }

  /// What is written to standard input when it is a pipe: chunks from
  /// `next` until it returns nil or the child closes its end.
  struct Feed {
    var next: () -> [UInt8]?

    static func bytes(_ bytes: [UInt8]) -> Feed {
      var sent = false
      return Feed {
        defer { sent = true }
        return sent ? nil : bytes
      }
    }

    /// `prefix`, then `unit` over and over until `limit` bytes in all.
    static func endless(_ prefix: [UInt8] = [], repeating unit: [UInt8], limit: Int) -> Feed {
      var chunk: [UInt8] = []
      while chunk.count < 1 << 16 { chunk += unit }
      var written = 0
      var prefixSent = prefix.isEmpty
      return Feed {
        if !prefixSent {
          prefixSent = true
          written += prefix.count
          return prefix
        }
        guard written < limit else { return nil }
        written += chunk.count
        return chunk
      }
    }
  }

  struct Result: CustomStringConvertible {
    /// The exit status, when the child exited.
    var exitStatus: Int32?
    /// The signal that ended the child, when one did.
    var signal: Int32?
    var stdout: [UInt8]
    var stderr: [UInt8]
    /// Whether the deadline passed and the child was killed.
    var timedOut: Bool
    /// Bytes of standard input the child accepted.
    var bytesFed: Int
    /// Whether feeding standard input ended because the child closed it.
    var feedMetEPIPE: Bool
    /// The child's peak resident memory, in kilobytes, as sampled (VmHWM)
    /// while it ran. (wait4's ru_maxrss would count the test process's own
    /// memory: posix_spawn's child shares it until exec.)
    var peakMemoryKB: Int
    var elapsed: Duration

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    /// The lines of standard error, without their line breaks.
    var stderrLines: [Substring] { stderrText.split(separator: "\n", omittingEmptySubsequences: false).dropLast() }

    var description: String {
      let ending = signal.map { "signal \($0)" } ?? exitStatus.map { "status \($0)" } ?? "?"
      return "\(ending)\(timedOut ? " (timed out)" : ""), stderr \(stderrText.debugDescription)"
    }
  }

  /// Runs the built binary with `arguments` (bytes, no NUL), the given
  /// environment only (plus PATH), in `directory` when given.
  static func run(
    _ arguments: [[UInt8]],
    environment: [String: String] = [:],
    directory: String? = nil,
    stdin: Stream = .path("/dev/null"),
    feed: Feed? = nil,
    stdout: Stream = .pipe,
    stderr: Stream = .pipe,
    timeout: Duration = .seconds(20),
    executable: String = BuiltBinary.url.path
  ) throws -> Result {
    BuiltBinary.ignoreBrokenPipes
    let started = ContinuousClock.now
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var all = sigset_t()
    sigfillset(&all)
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    // Parent ends, child ends; every descriptor close-on-exec, so that no
    // other child started meanwhile holds them open.
    var parentEnds: [Int32: Int32] = [:]
    var childEnds: [Int32] = []
    defer { for end in childEnds { close(end) } }
    for (target, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
      switch stream {
      case .pipe:
        var ends: [Int32] = [-1, -1]
        guard GNU.pipe2(&ends, O_CLOEXEC) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        let (parent, child) = target == 0 ? (ends[1], ends[0]) : (ends[0], ends[1])
        _ = fcntl(parent, F_SETFL, fcntl(parent, F_GETFL) | O_NONBLOCK)
        parentEnds[target] = parent
        childEnds.append(child)
        posix_spawn_file_actions_adddup2(&actions, child, target)
      case .brokenPipe:
        var ends: [Int32] = [-1, -1]
        guard GNU.pipe2(&ends, O_CLOEXEC) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        close(ends[0])
        childEnds.append(ends[1])
        posix_spawn_file_actions_adddup2(&actions, ends[1], target)
      case .closed:
        posix_spawn_file_actions_addclose(&actions, target)
      case .path(let path):
        posix_spawn_file_actions_addopen(&actions, target, path, target == 0 ? O_RDONLY : O_WRONLY, 0)
      }
    }
    _ = GNU.addclosefrom(&actions, 3)
    if let directory { _ = GNU.addchdir(&actions, directory) }

    let argv = [Array(executable.utf8)] + arguments
    var environmentLines = environment.merging(["PATH": "/usr/bin:/bin"]) { mine, _ in mine }
      .map { Array("\($0.key)=\($0.value)".utf8) }
    environmentLines.sort { $0.lexicographicallyPrecedes($1) }
    var pid: pid_t = 0
    let spawned = withCStrings(argv) { argv in
      withCStrings(environmentLines) { envp in
        posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
      }
    }
    for end in childEnds { close(end) }
    childEnds = []
    guard spawned == 0 else {
      for end in parentEnds.values { close(end) }
      throw POSIXError(.init(rawValue: spawned) ?? .EIO)
    }

    var output: [Int32: [UInt8]] = [1: [], 2: []]
    var pendingInput: [UInt8] = []
    var inputOffset = 0
    var feedNext = (feed ?? .bytes([])).next
    var bytesFed = 0
    var metEPIPE = false
    var timedOut = false
    let deadline = started + timeout
    var buffer = [UInt8](repeating: 0, count: 1 << 16)

    var peakMemoryKB = 0
    while !parentEnds.isEmpty {
      peakMemoryKB = max(peakMemoryKB, highWaterMark(of: pid))
      if !timedOut, ContinuousClock.now >= deadline {
        kill(pid, SIGKILL)
        timedOut = true
        if let input = parentEnds.removeValue(forKey: 0) { close(input) }
      }
      var descriptors = parentEnds.map { pollfd(fd: $1, events: Int16($0 == 0 ? POLLOUT : POLLIN), revents: 0) }
      let left = ContinuousClock.now.duration(to: deadline)
      // Wake at least every 20 ms to sample the child's memory.
      let wait = timedOut ? 1000 : max(1, min(20, Int32(clamping: left.components.seconds * 1000 + 1)))
      let ready = poll(&descriptors, nfds_t(descriptors.count), wait)
      if ready < 0 && errno != EINTR { break }
      for descriptor in descriptors where descriptor.revents != 0 {
        guard let target = parentEnds.first(where: { $0.value == descriptor.fd })?.key else { continue }
        if target == 0 {
          // Write what is pending, then the next chunk, until EAGAIN.
          while true {
            if inputOffset == pendingInput.count {
              guard let next = feedNext() else {
                close(descriptor.fd)
                parentEnds[0] = nil
                break
              }
              pendingInput = next
              inputOffset = 0
              if next.isEmpty { continue }
            }
            let count = pendingInput[inputOffset...].withUnsafeBytes { write(descriptor.fd, $0.baseAddress, $0.count) }
            if count > 0 {
              inputOffset += count
              bytesFed += count
              continue
            }
            if errno == EAGAIN || errno == EINTR { break }
            metEPIPE = errno == EPIPE
            close(descriptor.fd)
            parentEnds[0] = nil
            feedNext = { nil }
            break
          }
        } else {
          let count = buffer.withUnsafeMutableBytes { read(descriptor.fd, $0.baseAddress, $0.count) }
          if count > 0 {
            output[target]! += buffer[..<count]
          } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
            close(descriptor.fd)
            parentEnds[target] = nil
          }
        }
      }
    }

    peakMemoryKB = max(peakMemoryKB, highWaterMark(of: pid))
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let signalNumber = status & 0x7F
    return Result(
      exitStatus: signalNumber == 0 ? (status >> 8) & 0xFF : nil,
      signal: signalNumber == 0 ? nil : signalNumber,
      stdout: output[1]!, stderr: output[2]!, timedOut: timedOut,
      bytesFed: bytesFed, feedMetEPIPE: metEPIPE,
      peakMemoryKB: peakMemoryKB, elapsed: started.duration(to: .now))
  }

  /// Runs with string arguments.
  static func run(
    _ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
    stdin: Stream = .path("/dev/null"), feed: Feed? = nil, stdout: Stream = .pipe, stderr: Stream = .pipe,
    timeout: Duration = .seconds(20)
  ) throws -> Result {
    try run(
      arguments.map { Array($0.utf8) }, environment: environment, directory: directory, stdin: stdin, feed: feed,
      stdout: stdout, stderr: stderr, timeout: timeout)
  }
}

/// The peak resident memory of a running process, in kilobytes (0 once it has exited).
private func highWaterMark(of pid: pid_t) -> Int {
  guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
  else { return 0 }
  return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
}

/// glibc's extensions, which Swift's Glibc module does not declare.
private enum GNU {
  private static func symbol<Function>(_ name: String, as type: Function.Type) -> Function {
    guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { fatalError("no \(name) in libc") }
    return unsafeBitCast(address, to: type)
  }

  static let pipe2 = symbol("pipe2", as: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
  static let addclosefrom = symbol(
    "posix_spawn_file_actions_addclosefrom_np",
    as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
  static let addchdir = symbol(
    "posix_spawn_file_actions_addchdir_np",
    as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)
}

/// Calls `body` with a NULL-terminated array of C strings made of `strings`.
private func withCStrings<Result>(
  _ strings: [[UInt8]], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result
) -> Result {
  let pointers: [UnsafeMutablePointer<CChar>?] =
    strings.map { bytes in
      let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
      for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
      pointer[bytes.count] = 0
      return pointer
    } + [nil]
  defer { for pointer in pointers { pointer?.deallocate() } }
  return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
