import ArgumentParser
import CTimerFD
package import Foundation
import Glibc

/// The watch loop's events from the kernel, all waited for in one poll(2):
/// inotify on the file's directory (so that a file renamed over it, or
/// deleted and created again, is seen) and, when the file is a symbolic
/// link, on its target's directory too (so that edits of the target are);
/// a timerfd on the system clock for deadlines; and a pipe that the signal
/// handlers write to. While nothing happens, nothing runs.
package final class KernelWatchEvents: WatchEventSource {
  private let inotify: Int32
  private let timer: Int32
  private let signals: Int32
  private let file: FileName
  /// The watch on the file's own directory; when it goes, the watch ends.
  private let directoryWatch: Int32
  /// The watch on the directory of the file's target, when the file is a
  /// symbolic link, and the target's name there.
  private var target: (watch: Int32, directory: FileName, name: [UInt8])?
  /// A redraw asked for (SIGWINCH or SIGCONT, or the system clock set),
  /// reported once no burst of changes is pending, since the burst's render
  /// redraws too.
  private var pendingRedraw = false

  /// What inotify reports of a directory: the file written, created,
  /// renamed onto, removed or renamed away. Removals too, so that a file gone
  /// for good is reported (its reading fails); one removed and created again
  /// within a burst is just a change.
  private static let changes = UInt32(
    IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_ONLYDIR)

  /// Starts watching `file`'s directory (and its target's, for a symbolic
  /// link) and, unless `handlingSignals` is false (a server that handles
  /// them itself), handling the signals. Reports a failure on standard error
  /// and throws its exit status.
  package init(watching file: FileName, handlingSignals: Bool = true) throws {
    self.file = file
    inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    timer = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
    var pipeEnds: [Int32] = [-1, -1]
    guard inotify >= 0, timer >= 0, pipe(&pipeEnds) == 0,
      pipeEnds.allSatisfy({ fcntl($0, F_SETFL, O_NONBLOCK) == 0 && fcntl($0, F_SETFD, FD_CLOEXEC) == 0 })
    else {
      StandardError.write("inbox-format: cannot watch \(file.quoted): \(String(cString: strerror(errno)))")
      throw ExitStatus.ioError
    }
    signals = pipeEnds[0]
    let inotify = self.inotify
    directoryWatch = file.directory.withCString { inotify_add_watch(inotify, $0, Self.changes) }
    guard directoryWatch >= 0 else {
      StandardError.write(
        "inbox-format: cannot watch \(file.quoted): cannot open its directory: \(String(cString: strerror(errno)))")
      throw ExitStatus.cannotOpenInput
    }
    followTarget()
    if handlingSignals { handleSignals(writingTo: pipeEnds[1]) }
  }

  deinit {
    close(inotify)
    close(timer)
    close(signals)
  }

  /// Watches the directory of the file's final target when the file is a
  /// symbolic link, and stops watching a target it no longer leads to.
  private func followTarget() {
    var resolved: (directory: FileName, name: [UInt8])?
    var status = stat()
    if file.withCString({ lstat($0, &status) }) == 0, status.st_mode & S_IFMT == S_IFLNK,
      let path = file.withCString({ realpath($0, nil) })
    {
      let target = FileName(bytes: UnsafeRawBufferPointer(start: path, count: strlen(path)))
      free(path)
      resolved = (target.directory, target.lastComponent)
    }
    if let target, let resolved, target.directory == resolved.directory, target.name == resolved.name { return }
    if let target, target.watch != directoryWatch { inotify_rm_watch(inotify, target.watch) }
    target = nil
    guard let resolved else { return }
    let watch = resolved.directory.withCString { inotify_add_watch(inotify, $0, Self.changes) }
    // A target that cannot be watched is still read at each change of the link.
    if watch >= 0 { target = (watch, resolved.directory, resolved.name) }
  }

  package func next(until deadline: Date?) throws -> WatchEvent {
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
          if Self.stoppingSignals.contains(signal) { return .stop }
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
  /// file (or its target) being written, created, renamed onto, removed or
  /// renamed away. (Reading a removed file fails and is reported; the last
  /// output stays until a new file comes.)
  private func fileChanged() throws -> Bool {
    var changed = false
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        if errno == EAGAIN {
          // The link may lead elsewhere now.
          if changed { followTarget() }
          return changed
        }
        throw failure("cannot read the changes of")
      }
      var offset = 0
      let header = MemoryLayout<inotify_event>.size
      while offset + header <= count {
        let (watch, mask, length) = buffer.withUnsafeBytes {
          (
            $0.loadUnaligned(fromByteOffset: offset, as: Int32.self),
            $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
            Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
          )
        }
        let eventName = buffer[(offset + header)..<(offset + header + length)].prefix { $0 != 0 }
        offset += header + length
        if mask & UInt32(IN_IGNORED) != 0 {
          if watch == directoryWatch {
            StandardError.write("inbox-format: stopped watching \(file.directory.quoted): it was removed or unmounted")
            throw ExitStatus.ioError
          }
          // The target's directory went: the link leads nowhere for now.
          target = nil
          changed = true
          continue
        }
        // An overflow lost events, which may have been about the file.
        if mask & UInt32(IN_Q_OVERFLOW) != 0
          || (watch == directoryWatch && eventName.elementsEqual(file.lastComponent))
          || (watch == target?.watch && eventName.elementsEqual(target!.name))
        {
          changed = true
        }
      }
    }
  }

  private func failure(_ doing: String) -> ExitCode {
    StandardError.write("inbox-format: \(doing) \(file.directory.quoted): \(String(cString: strerror(errno)))")
    return ExitStatus.ioError
  }

  /// The signals that end the watch (once the current render is written):
  /// an interrupt, a termination, and the hangup of a terminal that closed.
  static let stoppingSignals: Set<Int32> = [SIGINT, SIGTERM, SIGHUP]
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
  // SIGWINCH (the terminal resized) and SIGCONT (the watch resumed after a
  // stop) redraw; the stopping signals end the watch, but for an interrupt
  // or a hangup the parent had the process ignore (`nohup`, a background job
  // of a script), which stays ignored.
  for signal in KernelWatchEvents.stoppingSignals.union([SIGWINCH, SIGCONT]) {
    var inherited = sigaction()
    sigaction(signal, nil, &inherited)
    let isIgnored =
      unsafeBitCast(inherited.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    if isIgnored && (signal == SIGINT || signal == SIGHUP) { continue }
    sigaction(signal, &action, nil)
  }
  // Signals a terminal or a script may send that mean nothing to a watch
  // would end it by default; they are ignored. (SIGQUIT keeps its default:
  // it asks for a core dump.)
  for signal in [SIGUSR1, SIGUSR2, SIGALRM] { Glibc.signal(signal, SIG_IGN) }
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
