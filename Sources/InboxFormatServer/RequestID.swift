import HTTPTypes
import Synchronization

/// The id of each request, as its answer's `X-Request-Id`, its problem
/// document's `requestId` and its access log line's `request_id` give it.
///
/// A client's own `X-Request-Id` is kept when it is 1 to 128 characters of
/// `A–Z a–z 0–9 . _ -`, which can reach a log or a header as they are;
/// anything else (a longer one, another character, two fields) is replaced
/// by an id made here: this process's random prefix, then a counter, both
/// hexadecimal (`5f3a9c01-2a`). Ids made here are unique within the
/// process, and across processes but by chance; they are not secrets.
enum RequestID {
  /// The longest id kept from a client.
  static let longest = 128

  /// The client's id when it may be kept, else a new one.
  static func forRequest(_ fields: HTTPFields) -> String {
    if let given = fields.onlyValue(.xRequestID), isValid(given) { return given }
    return make()
  }

  /// Whether `id` is 1 to ``longest`` characters of `A–Z a–z 0–9 . _ -`.
  static func isValid(_ id: String) -> Bool {
    let bytes = id.utf8
    return (1...longest).contains(bytes.count)
      && bytes.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
          true
        default: false
        }
      }
  }

  /// A new id: the prefix and the next count.
  static func make() -> String {
    let count = counter.wrappingAdd(1, ordering: .relaxed).newValue
    return prefix + String(count, radix: 16)
  }

  /// Chosen once per process, so that two replicas' ids rarely meet.
  private static let prefix: String = {
    let digits = String(UInt32.random(in: .min ... .max), radix: 16)
    return String(repeating: "0", count: 8 - digits.count) + digits + "-"
  }()

  private static let counter = Atomic<UInt64>(0)
}

/// The W3C Trace Context `traceparent` field
/// (<https://www.w3.org/TR/trace-context/#traceparent-header>), read for
/// its trace id alone, which the access log gives as `trace_id`.
enum TraceParent {
  /// The trace id of `fields`' one valid `traceparent`, or nil.
  ///
  /// Valid: `version-traceid-parentid-flags` in lowercase hex, 2, 32, 16 and
  /// 2 digits; the version not `ff`; neither id all zeros; at version `00`
  /// exactly those 55 characters, at a later version those and, after a
  /// `-`, whatever that version adds (the specification's rule for versions
  /// not known yet).
  static func traceID(_ fields: HTTPFields) -> String? {
    fields.onlyValue(.traceparent).flatMap(traceID)
  }

  /// The trace id of one `traceparent` value, or nil when it is not valid.
  static func traceID(_ value: String) -> String? {
    let bytes = Array(value.utf8)
    guard bytes.count >= 55, bytes[2] == UInt8(ascii: "-"), bytes[35] == UInt8(ascii: "-"),
      bytes[52] == UInt8(ascii: "-")
    else { return nil }
    func isHex(_ range: Range<Int>) -> Bool {
      bytes[range].allSatisfy {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
      }
    }
    func isZero(_ range: Range<Int>) -> Bool { bytes[range].allSatisfy { $0 == UInt8(ascii: "0") } }
    guard isHex(0..<2), bytes[0..<2] != [UInt8(ascii: "f"), UInt8(ascii: "f")],
      isHex(3..<35), !isZero(3..<35), isHex(36..<52), !isZero(36..<52), isHex(53..<55)
    else { return nil }
    let isVersionZero = bytes[0..<2] == [UInt8(ascii: "0"), UInt8(ascii: "0")]
    if isVersionZero ? bytes.count != 55 : (bytes.count > 55 && bytes[55] != UInt8(ascii: "-")) { return nil }
    return String(decoding: bytes[3..<35], as: UTF8.self)
  }
}

extension HTTPField.Name {
  /// A request's id, the client's or one made (``RequestID``).
  static let xRequestID = HTTPField.Name("X-Request-Id")!
}
