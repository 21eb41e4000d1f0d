import CInboxBytes
import Testing

@testable import InboxFormat

/// The scanner's shortcuts against the rules they stand for: locations
/// counted by the column kernels against counting every byte, numbers read
/// without an overflow check on their first eighteen digits against
/// `Int64`'s own reading, and a scalar skipped without the skip's stack
/// against the same scalar skipped inside an array, bytes compared by word
/// loads against comparing them one by one, and a string's UTF-8 checked
/// with the table's commonest rows first against the standard library's
/// validation.
@Suite struct ScannerAcceleratorTests {
  /// The rule of a location (``InputLocation/init(offset:in:)``).
  static func ruleLocation(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
    let location = InputLocation(offset: offset, in: bytes)
    return (location.line, location.column)
  }

  static let pieces: [String] = ["a", "é", "山", "😀", "\n", " ", "\"", "\r\n", "ab", "\u{7F}"]

  func randomText(_ random: inout SplitMix, length: Int) -> [UInt8] {
    var text: [UInt8] = []
    while text.count < length {
      // Long runs without a line feed, past a lane's 255 blocks, now and then.
      let piece = random.next(below: 50) == 0 ? String(repeating: "ж", count: 3000) : Self.pieces[random.next(below: 9)]
      text += Array(piece.utf8)
    }
    // Random bytes too: the count holds for any bytes, not only UTF-8.
    if random.next(below: 4) == 0 { text += (0..<random.next(below: 40)).map { _ in UInt8(random.next(below: 256)) } }
    return text
  }

  /// Every column kernel answers as counting byte by byte does, at every
  /// length and alignment.
  @Test func columnKernelsCountAsTheRule() {
    var random = SplitMix(seed: 0xC01_0305)
    for round in 0..<4000 {
      let text = randomText(&random, length: random.next(below: round % 10 == 0 ? 9000 : 100))
      let start = text.isEmpty ? 0 : random.next(below: text.count)
      text.withUnsafeBufferPointer { bytes in
        let count = bytes.count - start
        let feed = bytes[start...].firstIndex(of: UInt8(ascii: "\n")).map { $0 - start } ?? count
        let columns = bytes[start..<start + feed].count { $0 & 0xC0 != 0x80 }
        var kernels: [(String, (UnsafePointer<UInt8>, Int, UnsafeMutablePointer<Int>) -> Int)] = [
          ("engine", inbox_columns), ("portable", inbox_columns_portable),
        ]
        #if arch(x86_64) || arch(i386)
          kernels.append(("sse2", inbox_columns_sse2))
        #endif
        for (name, kernel) in kernels {
          var counted = 0
          let length = kernel(bytes.baseAddress! + start, count, &counted)
          #expect(length == feed && counted == columns, "round \(round), \(name): \(length), \(counted)")
        }
      }
    }
  }

  /// Locations asked in any order (forward from the last one, and back)
  /// are the rule's.
  @Test func locationsAreTheRules() {
    var random = SplitMix(seed: 0x10CA_7E)
    for round in 0..<300 {
      let text = randomText(&random, length: random.next(below: 6000))
      text.withUnsafeBufferPointer { bytes in
        var scanner = JSONScanner(bytes: bytes, origin: InputLocation(line: 1, column: 1, byteOffset: 0))
        for _ in 0..<20 {
          let offset = random.next(below: bytes.count + 1)
          let location = scanner.location(at: offset)
          let rule = Self.ruleLocation(of: offset, in: text)
          #expect(
            location.line == rule.line && location.column == rule.column && location.byteOffset == offset,
            "round \(round), offset \(offset)")
        }
      }
    }
  }

  /// Integers of every length around Int64's limits read as `Int64(_:)`
  /// reads them: the value, or out of range.
  @Test func numbersAreReadAsInt64ReadsThem() throws {
    var random = SplitMix(seed: 0x0DD_1615)
    var texts = ["9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809"]
    texts += ["999999999999999999", "1000000000000000000", "99999999999999999999", "0", "-0", "10"]
    for _ in 0..<20_000 {
      let length = 1 + random.next(below: 24)
      var digits = String(1 + random.next(below: 9))
      for _ in 1..<length { digits += String(random.next(below: 10)) }
      texts.append(random.next(below: 2) == 0 ? "-" + digits : digits)
    }
    for text in texts {
      let json = Array((text + " ").utf8)
      let token = try json.withUnsafeBufferPointer { bytes in
        var scanner = JSONScanner(bytes: bytes)
        let token = try scanner.scanNumber()
        #expect(scanner.position == bytes.count - 1, "\(text)")
        return token
      }
      switch (token, Int64(text)) {
      case (.integer(let read), let expected?): #expect(read == expected, "\(text)")
      case (.outOfRange, nil): break
      default: Issue.record("\(text): \(token)")
      }
    }
  }

  /// A scalar skipped alone (followed by a space) ends where it ends as the
  /// element of an array, which the skip's stack reads, and fails with the
  /// same reason one byte further in the array: the array's skip is the
  /// plain loop the shortcut leaves.
  @Test func aScalarSkipsAsInsideAnArray() {
    let scalars = [
      #""abc""#, #""a\"b""#, #""é山😀""#, #""\x""#, "\"a\u{1}\"", #""abc"#, "\"\u{FF}\"", "12", "-0.5e3", "01", "1.",
      "-", "1e", "true", "tru", "false", "fals", "null", "nul", "x", "}", "99999999999999999999",
    ]
    func skip(_ text: String) -> Result<Int, InboxFormatError> {
      Array(text.utf8).withUnsafeBufferPointer { bytes in
        var scanner = JSONScanner(bytes: bytes)
        return Result { () throws(InboxFormatError) in
          try scanner.skipValue(depth: 0)
          return scanner.position
        }
      }
    }
    for text in scalars {
      switch (skip(text + " "), skip("[" + text + " ]")) {
      case (.success(let end), .success(let arrayEnd)):
        #expect(end + 3 == arrayEnd, "\(text)")
      case (
        .failure(.syntax(let reason, let expected, let location)),
        .failure(.syntax(let arrayReason, let arrayExpected, let arrayLocation))
      ):
        #expect(reason == arrayReason && expected == arrayExpected, "\(text)")
        // The end of the input lies two bytes further in the array (`"abc ]`).
        if reason != "unexpected end of input" {
          #expect(location.byteOffset + 1 == arrayLocation.byteOffset, "\(text)")
        }
      case (let alone, let inArray):
        Issue.record("\(text): \(alone) alone, \(inArray) in an array")
      }
    }
  }

  /// ``sameBytes(_:_:count:)`` against `elementsEqual`, at every length
  /// from 0 to 40 (each branch and its edges), for equal bytes and for one
  /// byte changed at each place.
  @Test func sameBytesIsElementsEqual() {
    var random = SplitMix(seed: 0x5A3E)
    for count in 0...40 {
      let first = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      var changes: [[UInt8]] = [first]
      for place in 0..<count {
        var changed = first
        changed[place] ^= UInt8(truncatingIfNeeded: random.next() | 1)
        changes.append(changed)
      }
      for second in changes {
        // A byte past the end of each, so that an empty one has an address.
        let (a, b) = (first + [0], second + [0])
        let same = a.withUnsafeBytes { a in
          b.withUnsafeBytes { b in sameBytes(a.baseAddress!, b.baseAddress!, count: count) }
        }
        #expect(same == first.elementsEqual(second), "\(count) bytes")
      }
    }
  }

  /// A string's UTF-8 is checked with the table's commonest rows taken
  /// first (two-byte leads, and three-byte leads other than E0 and ED):
  /// every lead byte, with every second byte and a choice of third and
  /// fourth bytes at the table's edges, is accepted exactly when the
  /// standard library's own validation accepts it.
  @Test func stringsAreValidUTF8AsTheStandardLibrarySays() {
    let thirds: [UInt8] = [0x41, 0x80, 0xBF, 0xC0, 0xE0]
    let fourths: [UInt8] = [0x41, 0x80, 0xBF, 0xC0]
    var checked = 0
    for lead in UInt8(0x80)...0xFF {
      // Not `"` or `\`, which end or escape the string, nor a control.
      for second in UInt8(0x20)...0xFF where second != 0x22 && second != 0x5C {
        for third in thirds {
          for fourth in fourths {
            let text = [lead, second, third, fourth]
            let bytes = [0x22] + text + [0x22]
            let scanned = bytes.withUnsafeBufferPointer { buffer -> Bool in
              var scanner = JSONScanner(bytes: buffer)
              return (try? scanner.scanString()) != nil
            }
            let valid = String(validating: text, as: UTF8.self) != nil
            if scanned != valid {
              Issue.record("\(text.map { String($0, radix: 16) }): scanned \(scanned), valid \(valid)")
            }
            checked += 1
          }
        }
      }
    }
    #expect(checked == 128 * 222 * 5 * 4)
  }
}
