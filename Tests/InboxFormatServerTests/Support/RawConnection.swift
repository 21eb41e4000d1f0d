import Dispatch
import Foundation
import Glibc

/// A TCP connection to a live test server, written byte by byte as a test
/// wants (a body trickled, a length that lies), each read and write on a
/// thread of its own so that blocking reads never hold a thread of the
/// server's, nor of another test.
final class RawConnection: @unchecked Sendable {
  private let descriptor: Int32

  /// Connects to 127.0.0.1:`port`; reads give up after `timeout` seconds.
  /// A `receiveBuffer` in bytes makes the kernel take little of an answer
  /// that the test does not read.
  init(port: Int, timeout: Int = 15, receiveBuffer: Int32? = nil) throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.EIO) }
    var time = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    if var size = receiveBuffer {
      setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      close(descriptor)
      throw POSIXError(.ECONNREFUSED)
    }
  }

  deinit { close(descriptor) }

  /// Sends `text`; false when the server no longer takes it (reset, closed).
  @discardableResult
  func send(_ text: String) async -> Bool {
    await onItsThread {
      var bytes = Array(text.utf8)
      return bytes.withUnsafeMutableBytes { buffer in
        var offset = 0
        while offset < buffer.count {
          let sent = Glibc.send(
            self.descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
          if sent <= 0 { return false }
          offset += sent
        }
        return true
      }
    }
  }

  /// Sends nothing more, as a client that goes away does (its FIN), while
  /// what the server still sends can be read.
  func finishSending() {
    shutdown(descriptor, Int32(SHUT_WR))
  }

  /// The first bytes (at most `count`) that have arrived and are not read
  /// yet, left to be read; empty when none have. Waits for nothing.
  func peek(_ count: Int = 64) -> String {
    var buffer = [UInt8](repeating: 0, count: count)
    let received = recv(descriptor, &buffer, count, Int32(MSG_PEEK | MSG_DONTWAIT))
    return received > 0 ? String(decoding: buffer[..<received], as: UTF8.self) : ""
  }

  /// Everything the server sends until it closes the connection (or the read times out).
  func readToEnd() async -> String {
    await onItsThread {
      var received: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = recv(self.descriptor, &buffer, buffer.count, 0)
        if count <= 0 { break }
        received += buffer[..<count]
      }
      return String(decoding: received, as: UTF8.self)
    }
  }

  /// Reads until `marker` has arrived, the connection closes or the read times out.
  func read(until marker: String) async -> String {
    await onItsThread {
      var received: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while !String(decoding: received, as: UTF8.self).contains(marker) {
        let count = recv(self.descriptor, &buffer, buffer.count, 0)
        if count <= 0 { break }
        received += buffer[..<count]
      }
      return String(decoding: received, as: UTF8.self)
    }
  }

  /// Runs `work` on a thread of its own: a read blocks until the server
  /// answers or the timeout passes, and Dispatch's global queue has as many
  /// threads as cores, so a few blocked reads there would stall every other
  /// test's reads, and the server's NDJSON formatting, for as long.
  private func onItsThread<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread { continuation.resume(returning: work()) }
    }
  }
}
