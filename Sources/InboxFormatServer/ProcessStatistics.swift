import Glibc

/// What Linux says of this process, as Prometheus clients customarily
/// export it (`process_cpu_seconds_total`, `process_resident_memory_bytes`,
/// …): read from `/proc` when the metrics are asked for.
struct ProcessStatistics: Sendable {
  /// User and system CPU time, in seconds.
  var cpuSeconds: Double
  /// Resident memory, in bytes.
  var residentBytes: Int
  /// Virtual memory, in bytes.
  var virtualBytes: Int
  /// File descriptors open.
  var openFiles: Int
  /// The soft limit on file descriptors.
  var maxFiles: Int

  /// When the process started, in seconds since 1970; nil where `/proc` does not say.
  static let startTime: Double? = {
    guard let fields = statFields(), fields.count > 19, let ticks = Double(fields[19]),
      let stat = contents(of: "/proc/stat"),
      let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
      let boot = line.split(separator: " ").last.flatMap({ Double($0) })
    else { return nil }
    return boot + ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
  }()

  /// The process as of now; nil where `/proc` does not say.
  static func read() -> ProcessStatistics? {
    // `/proc/self/stat` after the command's name: state is field 3, utime
    // 14, stime 15, vsize 23, rss 24 (pages); field n is at n - 3.
    guard let fields = statFields(), fields.count > 21, let user = Double(fields[11]),
      let system = Double(fields[12]), let virtual = Int(fields[20]), let pages = Int(fields[21])
    else { return nil }
    var limit = rlimit()
    let maxFiles = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 ? Int(limit.rlim_cur) : 0
    return ProcessStatistics(
      cpuSeconds: (user + system) / Double(sysconf(Int32(_SC_CLK_TCK))),
      residentBytes: pages * Int(sysconf(Int32(_SC_PAGESIZE))), virtualBytes: virtual, openFiles: openFileCount(),
      maxFiles: maxFiles)
  }

  /// The fields of `/proc/self/stat` after the command's name, which may
  /// hold spaces and parentheses and ends at the last `)`.
  private static func statFields() -> [Substring]? {
    guard let stat = contents(of: "/proc/self/stat"), let end = stat.lastIndex(of: ")") else { return nil }
    return stat[stat.index(after: end)...].split(separator: " ")
  }

  /// The entries of `/proc/self/fd` (the one reading it among them).
  private static func openFileCount() -> Int {
    guard let directory = opendir("/proc/self/fd") else { return 0 }
    defer { closedir(directory) }
    var count = 0
    while let entry = readdir(directory) {
      let isDot = withUnsafeBytes(of: entry.pointee.d_name) { $0.first == UInt8(ascii: ".") }
      if !isDot { count += 1 }
    }
    return count
  }

  /// A small file of `/proc` whole (its size says 0, so it is read to its end).
  private static func contents(of path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
