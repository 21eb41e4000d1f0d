import Dispatch
public import Foundation

/// Turns API messages into inbox rows for one ``FormattingContext``.
///
/// A mapper makes each of the context's formatters once, the first time a
/// row needs it, and keeps it; mapping a message never fails and never
/// reads the system clock, locale or time zone.
/// Mappers are values: share one across threads. ``now(_:)`` gives a mapper
/// for another instant that keeps the formatters and what they made.
///
/// ```swift
/// let mapper = MessageMapper(context: FormattingContext(
///   now: Date(timeIntervalSince1970: 1_643_630_400),  // 2022-01-31 12:00 UTC
///   locale: Locale(identifier: "en-US"),
///   timeZone: TimeZone(identifier: "Europe/Paris")!))
/// let row = mapper.map(MessageAPIModel(
///   id: .integer(1), firstname: "Alexander", lastname: "Anderson",
///   message: "Hello!! How are you?",
///   updateDate: Date(timeIntervalSince1970: 1_643_618_733),  // 09:45:33 Paris
///   unreadCount: 1))
/// // row.initials == "AA", row.title == "Alexander Anderson", row.date == "9:45\u{202F}AM"
/// ```
public struct MessageMapper: Sendable {
  /// The context every row is formatted for.
  public var context: FormattingContext { tables.context }
  /// Everything built from the context, behind one reference, so that the
  /// mapper is cheap to copy and to capture.
  let tables: ContextTables

  /// Creates a mapper for `context`, building its formatters.
  public init(context: FormattingContext) {
    tables = ContextTables(context: context)
  }

  private init(tables: ContextTables) {
    self.tables = tables
  }

  /// A mapper for the same context at another instant, which shares this
  /// one's formatters and the labels they made: cheap, for a live view or a
  /// service that formats with a clock that runs.
  public func now(_ now: Date) -> MessageMapper {
    MessageMapper(tables: tables.now(now))
  }

  /// The row of one message.
  public func map(_ message: MessageAPIModel) -> MessageUIModel {
    tables.withStringRules { $0.row(of: message, as: MessageUIModel.self) }
  }

  /// The rows of `messages`, in the same order.
  ///
  /// A long array (`parallelThreshold` messages or more) is cut in one
  /// part per core, mapped at the same time; the rows are the same.
  public func map(_ messages: [MessageAPIModel]) -> [MessageUIModel] {
    let parts = messages.count >= Self.parallelThreshold ? max(1, ProcessInfo.processInfo.activeProcessorCount) : 1
    return [MessageUIModel](unsafeUninitializedCapacity: messages.count) { rows, count in
      let output = RowsBuffer(rows: rows)
      DispatchQueue.concurrentPerform(iterations: parts) { part in
        let range = Self.part(part, of: parts, in: messages.indices)
        tables.withStringRules { rules in
          // By index, as `Array.map` copies each message (retaining its strings) on the way in.
          for index in range {
            (output.rows.baseAddress! + index).initialize(to: rules.row(of: messages[index], as: MessageUIModel.self))
          }
        }
      }
      count = messages.count
    }
  }

  /// Arrays shorter than this are mapped on the calling thread: handing
  /// work to other cores costs more than it saves.
  static let parallelThreshold = 8_192

  /// The `part`th of `count` nearly equal consecutive ranges of `indices`.
  private static func part(_ part: Int, of count: Int, in indices: Range<Int>) -> Range<Int> {
    let size = indices.count / count
    let extra = indices.count % count
    let start = indices.lowerBound + part * size + min(part, extra)
    return start..<start + size + (part < extra ? 1 : 0)
  }
}

/// The rows being made, written by several threads, each in its own range.
private struct RowsBuffer: @unchecked Sendable {
  let rows: UnsafeMutableBufferPointer<MessageUIModel>
}
