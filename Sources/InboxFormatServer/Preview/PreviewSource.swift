import Synchronization

/// What the preview shows of its file: the last payload that decoded, and
/// why the latest reading did not, when it did not.
package struct PreviewDocument: Sendable, Equatable {
  /// The last payload that decoded; nil until one has.
  package var payload: [UInt8]?
  /// The latest reading's problem, as the command words it
  /// (`"mock.json": line 3, column 9: …`); nil when it decoded.
  package var problem: String?
  /// Counts the payloads that decoded: the rows made of one are kept under it.
  package var version = 0
  /// How many rows the payload makes, when the watcher counted them: a
  /// window of a large file is then made without the rows after it.
  package var rowCount: Int?
}

/// The preview's file as its watcher last read it, and who is waiting for
/// the next reading: the page's event streams.
///
/// The command's watcher calls ``update(payload:rows:)`` or ``update(problem:)``
/// after each change it sees; every stream then renders again.
package final class PreviewSource: Sendable {
  private struct State {
    var document = PreviewDocument()
    var waiting: [Int: AsyncStream<Void>.Continuation] = [:]
    var nextID = 0
  }
  private let state = Mutex(State())

  /// A source with nothing read yet.
  package init() {}

  /// The document now.
  package var document: PreviewDocument { state.withLock { $0.document } }

  /// A reading that decoded: it is shown, and a problem shown goes.
  package func update(payload: [UInt8], rows: Int? = nil) {
    publish { document in
      document.payload = payload
      document.rowCount = rows
      document.problem = nil
      document.version += 1
    }
  }

  /// A reading that did not decode, or could not be read: the problem is
  /// shown over the last payload that decoded, which stays.
  package func update(problem: String) {
    publish { $0.problem = problem }
  }

  /// A stream that yields once after each reading from now on, and ends
  /// when the task iterating it is cancelled; readings that come while the
  /// reader is busy are one element.
  func changes() -> AsyncStream<Void> {
    let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let id = state.withLock { state in
      state.nextID += 1
      state.waiting[state.nextID] = continuation
      return state.nextID
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.state.withLock { $0.waiting.removeValue(forKey: id) }
    }
    return stream
  }

  /// How many streams wait for the next reading.
  var waitingCount: Int { state.withLock { $0.waiting.count } }

  private func publish(_ change: (inout PreviewDocument) -> Void) {
    let waiting = state.withLock { state in
      change(&state.document)
      return Array(state.waiting.values)
    }
    for continuation in waiting { continuation.yield() }
  }
}
