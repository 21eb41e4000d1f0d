import Glibc

/// Writes every byte of `bytes` to `descriptor`, going on after a signal
/// interrupts a write and after a short one. Returns nil when all is
/// written, else the `errno` of the write that failed (`EPIPE`: the reader
/// went away); the one loop of the command's and the service's outputs.
package func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
  guard let base = bytes.baseAddress else { return nil }
  var offset = 0
  while offset < bytes.count {
    let written = write(descriptor, base + offset, bytes.count - offset)
    if written < 0 && errno == EINTR { continue }
    // Nothing written of a non-empty buffer would loop for ever.
    if written <= 0 { return written < 0 ? errno : EIO }
    offset += written
  }
  return nil
}
