import Foundation

// What both harnesses share: how a broken property becomes a crash that
// libFuzzer records, and how inputs are shown in its message.

/// Stops the run with `message`: libFuzzer catches the trap, prints the
/// message above its report and saves the input as a crash artifact.
func fuzzFailure(_ message: String, input: UnsafeBufferPointer<UInt8>) -> Never {
  let shown = String(decoding: input.prefix(400), as: UTF8.self).debugDescription
  fatalError("\(message)\ninput (\(input.count) bytes): \(shown)")
}

/// Checks a property of the input; see ``fuzzFailure(_:input:)``.
@inline(__always)
func fuzzCheck(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, input: UnsafeBufferPointer<UInt8>
) {
  if !condition() { fuzzFailure(message(), input: input) }
}

/// The bytes libFuzzer hands over, as a buffer (empty for a null pointer).
func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeBufferPointer<UInt8> {
  guard let data, size > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
  return UnsafeBufferPointer(start: data, count: size)
}

/// Whether a scalar is one that text written for a person must not carry
/// raw: a control character (Cc: C0, DEL, C1), a line or paragraph
/// separator, or a bidi embedding, override or isolate. (By value: asking
/// for the general category scalar by scalar would halve the runs.)
func isUnsafeForDisplay(_ scalar: Unicode.Scalar) -> Bool {
  switch scalar.value {
  case 0...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
  default: false
  }
}
