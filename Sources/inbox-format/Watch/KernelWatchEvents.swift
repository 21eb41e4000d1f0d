import ArgumentParser
import CTimerFD
import Foundation

import Glibc

/// The watch loop's events from the kernel, all waited for in one poll(2):
/// inotify on the file's directory (so that a file renamed over it, or
/// deleted and created again, is seen), a timerfd on the system clock for
/// deadlines, and a pipe that the SIGINT, SIGTERM and SIGWINCH handlers write
/// to. While nothing happens, nothing runs.
final class KernelWatchEvents: WatchEventSource {
  private let inotify: Int32
  private let timer: Int32
  private let signals: Int32
  private let directory: String
  private let name: [UInt8]
  /// A redraw asked for (SIGWINCH, or the system clock set), reported once
  /// no burst of changes is pending, since the burst's render redraws too.
  private var pendingRedraw = false

  /// Starts watching `path`'s directory and handling the signals. Reports a
  /// failure on standard error and throws its exit status.
  init(watching path: String) throws {
    let slash = path.lastIndex(of: "/")
    directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    name = Array((slash.map { path[path.index(after: $0)...] } ?? path[...]).utf8)

    inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    timer = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
    var pipeEnds: [Int32] = [-1, -1]
    guard inotify >= 0, timer >= 0, pipe(&pipeEnds) == 0,
      pipeEnds.allSatisfy({ fcntl($0, F_SETFL, O_NONBLOCK) == 0 && fcntl($0, F_SETFD, FD_CLOEXEC) == 0 })
    else {
      StandardError.write("inbox-format: cannot watch \(path.debugDescription): \(String(cString: strerror(errno)))")
      throw ExitStatus.ioError
    }
    signals = pipeEnds[0]
    // Removals too, so that a file gone for good is reported (its reading
    // fails); one removed and created again within a burst is just a change.
    let changes = UInt32(IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_ONLYDIR)
    guard inotify_add_watch(inotify, directory, changes) >= 0 else {
      StandardError.write(
        "inbox-format: cannot watch \(path.debugDescription): cannot open its directory: \(String(cString: strerror(errno)))")
      throw ExitStatus.cannotOpenInput
    }
    handleSignals(writingTo: pipeEnds[1])
  }

  deinit {
    close(inotify)
    close(timer)
    close(signals)
  }

  func next(until deadline: Date?) throws -> WatchEvent {
    try arm(at: deadline)
    var burst: EventBurst?
    while true {
      if burst == nil && pendingRedraw {
        pendingRedraw = false
        return .redraw
      }
      var descriptors = [signals, inotify, timer].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      let timeout = burst?.timeout(from: .now) ?? -1
      if poll(&descriptors, nfds_t(descriptors.count), timeout) < 0 {
        if errno == EINTR { continue }
        throw failure("cannot wait for changes of")
      }
      if descriptors[0].revents != 0 {
        for signal in drain(signals) {
          if signal == SIGINT || signal == SIGTERM { return .stop }
          pendingRedraw = true
        }
      }
      if descriptors[1].revents != 0, try fileChanged() {
        let now = ContinuousClock.now
        if burst == nil { burst = EventBurst(at: now) } else { burst!.add(at: now) }
      }
      if descriptors[2].revents != 0 {
        var expirations: UInt64 = 0
        if read(timer, &expirations, 8) == 8 {
          // During a burst the file's render shows the new day; if the file
          // turns out unreadable, the timer, armed again, fires at once.
          if burst == nil { return .deadline }
        } else if errno == ECANCELED {
          // TFD_TIMER_CANCEL_ON_SET: the system clock was set.
          pendingRedraw = true
        }
      }
      if let burst, ContinuousClock.now >= burst.settlesAt { return .fileChanged }
    }
  }

  /// Arms the timer for `deadline` on the system clock, absolute so that it
  /// fires on time after a suspend, and cancelled if the clock is set.
  private func arm(at deadline: Date?) throws {
    var setting = itimerspec()
    var flags: Int32 = 0
    if let deadline {
      // A zero time would disarm the timer; a past one fires at once.
      let seconds = max(deadline.timeIntervalSince1970, 1e-9)
      let whole = seconds.rounded(.down)
      setting.it_value = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
      flags = Int32(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET)
    }
    guard timerfd_settime(timer, flags, &setting, nil) == 0 else {
      throw failure("cannot set a timer to watch")
    }
  }

  /// Reads the pending inotify events; true when one is about the watched
  /// file being written, created, renamed onto, removed or renamed away.
  /// (Reading a removed file fails and is reported; the last output stays
  /// until a new file comes.)
  private func fileChanged() throws -> Bool {
    var changed = false
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        if errno == EAGAIN { return changed }
        throw failure("cannot read the changes of")
      }
      var offset = 0
      let header = MemoryLayout<inotify_event>.size
      while offset + header <= count {
        let (mask, length) = buffer.withUnsafeBytes {
          ($0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
            Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
        }
        let eventName = buffer[(offset + header)..<(offset + header + length)].prefix { $0 != 0 }
        offset += header + length
        if mask & UInt32(IN_IGNORED) != 0 {
          StandardError.write("inbox-format: stopped watching \(directory.debugDescription): it was removed or unmounted")
          throw ExitStatus.ioError
        }
        // An overflow lost events, which may have been about the file.
        if mask & UInt32(IN_Q_OVERFLOW) != 0 || eventName.elementsEqual(name) { changed = true }
      }
    }
  }

  private func failure(_ doing: String) -> ExitCode {
    StandardError.write("inbox-format: \(doing) \(directory.debugDescription): \(String(cString: strerror(errno)))")
    return ExitStatus.ioError
  }
}

/// A burst of changes to the file, rendered once when it settles: 50 ms after
/// its last event, so a writer's several writes give one render, and at most
/// 250 ms after its first, so a file that keeps changing is still shown.
struct EventBurst {
  static let quiet = Duration.milliseconds(50)
  static let longest = Duration.milliseconds(250)

  let first: ContinuousClock.Instant
  private(set) var last: ContinuousClock.Instant

  init(at instant: ContinuousClock.Instant) {
    first = instant
    last = instant
  }

  mutating func add(at instant: ContinuousClock.Instant) {
    last = instant
  }

  var settlesAt: ContinuousClock.Instant { min(last + Self.quiet, first + Self.longest) }

  /// Whole milliseconds from `now` until the burst settles, rounded up: poll's timeout.
  func timeout(from now: ContinuousClock.Instant) -> Int32 {
    let left = now.duration(to: settlesAt)
    guard left > .zero else { return 0 }
    let (seconds, attoseconds) = left.components
    return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
  }
}

/// The write end of the pipe the signal handlers wake the loop through. A
/// handler may only make async-signal-safe calls, so it writes its signal's
/// number there and the loop does the rest; the current render finishes, and
/// no temporary file is left behind.
nonisolated(unsafe) private var signalPipeInput: Int32 = -1

private func handleSignals(writingTo descriptor: Int32) {
  signalPipeInput = descriptor
  var action = sigaction()
  action.__sigaction_handler.sa_handler = { signal in
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipeInput, &byte, 1)
    errno = savedErrno
  }
  sigemptyset(&action.sa_mask)
  action.sa_flags = SA_RESTART
  for signal in [SIGINT, SIGTERM, SIGWINCH] { sigaction(signal, &action, nil) }
}

/// The signal numbers waiting in the pipe.
private func drain(_ descriptor: Int32) -> [Int32] {
  var bytes = [UInt8](repeating: 0, count: 64)
  var signals: [Int32] = []
  while true {
    let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if count <= 0 { return signals }
    signals += bytes[..<count].map { Int32($0) }
  }
}
