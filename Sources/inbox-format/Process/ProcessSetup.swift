import Foundation

import Glibc

/// What the process sets up once, first thing, before any formatting or
/// output: nothing from outside the payload may end it by a signal, and no
/// environment variable may reach ICU.
///
/// - The environment is kept as it was (``ProcessEnvironment/current``), then
///   the variables ICU and Foundation would read behind the command's back
///   are removed: the locale (`LANG`, `LC_*`, `LANGUAGE`), whose long values
///   crash ICU's default-locale setup and whose language would fill in for a
///   locale without data; `TZ`, read by ICU's default zone; and `ICU_DATA`.
///   The command reads what it needs from the copy, so output depends only on
///   the payload and the options.
/// - No signal stays blocked: a mask inherited from the parent (a test
///   runner's thread, say) would keep SIGTERM from ever reaching a watch.
/// - SIGPIPE and SIGXFSZ are ignored, so that a closed pipe or standard error
///   and a file size limit are write errors (EPIPE, EFBIG), not deaths.
/// - SIGBUS is handled for the mapped input only (``MappedInput``): a file
///   cut short while mapped is a read error; any other SIGBUS stays a crash.
enum ProcessSetup {
  /// Runs the setup (once) and returns the arguments after the command's
  /// name, as ``CommandLineArguments`` reads them.
  static func start() -> [String] {
    done
    return CommandLineArguments.strings
  }

  private static let done: Void = {
    _ = ProcessEnvironment.current
    for name in ProcessEnvironment.current.variables.keys
    where name.hasPrefix("LC_") || ["LANG", "LANGUAGE", "TZ", "ICU_DATA"].contains(name) {
      unsetenv(name)
    }
    var none = sigset_t()
    sigemptyset(&none)
    pthread_sigmask(SIG_SETMASK, &none, nil)
    signal(SIGPIPE, SIG_IGN)
    signal(SIGXFSZ, SIG_IGN)
    MappedInput.installGuard()
  }()
}

/// The command's arguments as the bytes it received: what is not UTF-8
/// (a file name in Latin-1, say) is carried through argument parsing by
/// mapping each byte of an invalid sequence to a private-use scalar, and
/// mapped back when the argument names a file (``FileName``).
enum CommandLineArguments {
  /// Every argument after the command's name.
  static let strings: [String] = raw.map(\.string)

  /// Arguments that held bytes that are not UTF-8, by the string that stands for them.
  static let bytesOfMapped: [String: [UInt8]] = Dictionary(
    raw.filter(\.isMapped).map { ($0.string, $0.bytes) }, uniquingKeysWith: { first, _ in first })

  /// The first scalar of the 128 that stand for the bytes 0x80–0xFF.
  static let firstStandIn: UInt32 = 0x10_FF80

  private static let raw: [(bytes: [UInt8], string: String, isMapped: Bool)] =
    (1..<Int(CommandLine.argc)).map { index in
      guard let argument = CommandLine.unsafeArgv[index] else { return ([], "", false) }
      let bytes = Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
      let (string, isMapped) = standIns(for: bytes)
      return (bytes, string, isMapped)
    }

  /// `bytes` as a string, each byte of an invalid UTF-8 sequence standing in as a private-use scalar.
  private static func standIns(for bytes: [UInt8]) -> (String, Bool) {
    var scalars = String.UnicodeScalarView()
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    var isMapped = false
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        scalars.append(Unicode.UTF8.decode(encoded))
        offset += encoded.count
      case .error(let length):
        for byte in bytes[offset..<offset + length] {
          scalars.append(Unicode.Scalar(firstStandIn - 0x80 + UInt32(byte))!)
        }
        offset += length
        isMapped = true
      case .emptyInput:
        return (String(scalars), isMapped)
      }
    }
  }
}
