import Foundation
import Glibc

/// What the process sets up once, first thing, before any formatting or
/// output: nothing from outside the payload may end it by a signal, and no
/// environment variable may reach ICU.
///
/// - The environment is kept as it was (``EnvironmentEntries/atStart``,
///   which ``ProcessEnvironment/current`` reads when a command needs it), then
///   the variables ICU and Foundation would read behind the command's back
///   are removed: the locale (`LANG`, `LC_*`, `LANGUAGE`), whose long values
///   crash ICU's default-locale setup and whose language would fill in for a
///   locale without data; `TZ`, read by ICU's default zone; and ICU's own
///   (`ICU_DATA`, `ICU_TIMEZONE_FILES_DIR`), which would swap its data.
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
    let names = EnvironmentEntries.split(EnvironmentEntries.atStart).map(\.name).filter { name in
      name.starts(with: "LC_".utf8) || name.starts(with: "ICU_".utf8)
        || ["LANG", "LANGUAGE", "TZ"].contains { name.elementsEqual($0.utf8) }
    }
    for name in names {
      (name.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { _ = unsetenv($0.baseAddress!) }
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
package enum CommandLineArguments {
  /// Every argument after the command's name.
  package static let strings: [String] = decoded.map(\.string)

  /// Arguments that held bytes that are not UTF-8, by the string that stands for them.
  static let bytesOfMapped: [String: [UInt8]] = Dictionary(
    decoded.filter(\.isMapped).map { ($0.string, $0.bytes) }, uniquingKeysWith: { first, _ in first })

  /// The arguments' bytes.
  private static let raw: [[UInt8]] = (1..<Int(CommandLine.argc)).map { index in
    guard let argument = CommandLine.unsafeArgv[index] else { return [] }
    return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
  }

  /// The first of the private-use blocks of 128 scalars (the last ones of
  /// planes 16 and 15, then down) that no argument which is valid UTF-8
  /// holds: a stand-in is never taken for a scalar someone typed.
  private static let standInBase: UInt32 = {
    let valid = raw.compactMap { String(validating: $0, as: UTF8.self) }
    let bases: [UInt32] = [0x10_FF80, 0x10_FF00, 0x10_FE80, 0x10_FE00, 0xF_FF80, 0xF_FF00]
    return bases.first { base in
      !valid.contains { $0.unicodeScalars.contains { (base...base + 0x7F).contains($0.value) } }
    } ?? bases[0]
  }()

  private static let decoded: [(bytes: [UInt8], string: String, isMapped: Bool)] = raw.map { bytes in
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
          scalars.append(Unicode.Scalar(standInBase - 0x80 + UInt32(byte))!)
        }
        offset += length
        isMapped = true
      case .emptyInput:
        return (String(scalars), isMapped)
      }
    }
  }

  /// The byte a scalar stands in for, if it is a stand-in.
  static func byte(standingInFor scalar: Unicode.Scalar) -> UInt8? {
    guard !bytesOfMapped.isEmpty, (standInBase...standInBase + 0x7F).contains(scalar.value) else { return nil }
    return UInt8(scalar.value - standInBase + 0x80)
  }
}
