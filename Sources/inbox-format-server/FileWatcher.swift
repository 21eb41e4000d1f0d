import Foundation
import InboxFormatCLI
import InboxFormatServer
import Synchronization

/// Reads a previewed file (the payload, or the mock) at start and after
/// each change the kernel reports, on a thread of its own, and hands each
/// reading to the source: its bytes when `accept` takes them, else its
/// message, which is also written on standard error.
enum FileWatcher {
  /// Why a reading is not shown: the message, located, as the command words it.
  struct Rejected: Error {
    var message: String
  }

  /// What a reading must be to be shown: returns how many rows it makes,
  /// throws ``Rejected`` when it is not.
  typealias Accept = @Sendable (InputSource, [UInt8]) throws(Rejected) -> Int

  /// Starts watching `path`, and returns once the first reading is in
  /// `source`. Throws the exit status when the file cannot be opened at
  /// start (66) or watched (74), and with `exitingOnFirstRejection`, when
  /// its first reading is rejected (65); otherwise a rejected reading is
  /// shown.
  static func start(
    _ path: String, into source: PreviewSource, exitingOnFirstRejection: Bool = false,
    accepting accept: @escaping Accept
  ) throws {
    let started = DispatchSemaphore(value: 0)
    let failure = Mutex<(any Error)?>(nil)
    let thread = Thread {
      // Watching starts before the first reading, so no change falls between them.
      let events: KernelWatchEvents
      do {
        events = try KernelWatchEvents(watching: FileName(argument: path), handlingSignals: false)
        let accepted = try read(input(path, reportingTo: source), accepting: accept, into: source)
        if !accepted && exitingOnFirstRejection { throw ExitStatus.badInput }
      } catch {
        failure.withLock { $0 = error }
        started.signal()
        return
      }
      started.signal()
      watch(path, events: events, accepting: accept, into: source)
    }
    thread.name = "inbox-format watcher"
    thread.start()
    started.wait()
    if let error = failure.withLock({ $0 }) { throw error }
  }

  /// Reads the file after each change until the watch itself fails (its
  /// directory went): that is reported, and the page keeps what it has.
  private static func watch(
    _ path: String, events: KernelWatchEvents, accepting accept: Accept, into source: PreviewSource
  ) {
    let input = input(path, reportingTo: source)
    while true {
      do {
        guard try events.next(until: nil) == .fileChanged else { continue }
      } catch {
        source.update(problem: "\(input.displayName) is no longer watched: its directory went")
        return
      }
      // A file that cannot be read has been reported, and its next good state will show.
      _ = try? read(input, accepting: accept, into: source)
    }
  }

  /// The file as an input whose problems go to standard error and to the page.
  private static func input(_ path: String, reportingTo source: PreviewSource) -> InputSource {
    var input = InputSource(path: path, requiresRegularFile: true)
    input.report = { message in
      StandardError.write("inbox-format: \(message)")
      source.update(problem: message)
    }
    return input
  }

  /// Reads `input` once: bytes that `accept` takes go to `source`, and
  /// true is returned; others are reported, and their message goes there
  /// instead.
  private static func read(_ input: InputSource, accepting accept: Accept, into source: PreviewSource) throws -> Bool {
    let bytes = try input.readAll()
    do {
      source.update(payload: bytes, rows: try accept(input, bytes))
      return true
    } catch {
      input.report(error.message)
      return false
    }
  }
}
