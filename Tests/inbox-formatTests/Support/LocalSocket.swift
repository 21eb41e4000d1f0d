import Foundation
import Glibc

/// A TCP socket connected to 127.0.0.1:`port`, its reads giving up after
/// `timeout` seconds when one is given. The caller closes it.
func connectedSocket(port: Int, timeout: Int? = nil) throws -> Int32 {
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard descriptor >= 0 else { throw POSIXError(.EIO) }
  if let timeout {
    var time = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
  }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  guard connected == 0 else {
    close(descriptor)
    throw POSIXError(.ECONNREFUSED)
  }
  return descriptor
}
