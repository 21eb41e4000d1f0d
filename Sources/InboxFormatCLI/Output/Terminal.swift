import Glibc
import InboxFormat

/// What the inbox view needs to know about where it is written.
enum Terminal {
  /// The widths the view takes, from a terminal or `COLUMNS`; a value
  /// outside is ignored (a huge one would be a huge allocation).
  static let usableColumns = 10...4096
  /// The heights a terminal may report; outside, its height is not used.
  static let usableLines = 2...4096

  /// The size of the terminal on `descriptor`, or nil when it is not a
  /// terminal, or does not report a usable size.
  static func size(of descriptor: Int32) -> (columns: Int, lines: Int)? {
    guard isatty(descriptor) == 1 else { return nil }
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, usableColumns.contains(Int(size.ws_col)),
      usableLines.contains(Int(size.ws_row))
    else { return nil }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  /// The inbox view for standard output: on a terminal, its width (and,
  /// with `fillsScreen`, its height less a line, so that the screen never
  /// scrolls), and colour unless `NO_COLOR` is set or `TERM` is `dumb`;
  /// elsewhere as for a file.
  static func standardOutputLayout(environment: ProcessEnvironment, fillsScreen: Bool = false) -> InboxEncoder.Layout {
    guard isatty(STDOUT_FILENO) == 1 else { return fileLayout(environment: environment) }
    // https://no-color.org: set and not empty means no colour.
    let color = (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    let size = size(of: STDOUT_FILENO)
    return .text(
      width: size?.columns ?? fallbackWidth(environment), color: color,
      height: fillsScreen ? size.map { $0.lines - 1 } : nil)
  }

  /// The inbox view for a file or a pipe: `COLUMNS` columns, else 80, no colour.
  static func fileLayout(environment: ProcessEnvironment) -> InboxEncoder.Layout {
    .text(width: fallbackWidth(environment), color: false)
  }

  private static func fallbackWidth(_ environment: ProcessEnvironment) -> Int {
    guard let columns = environment["COLUMNS"].flatMap({ Int($0) }), usableColumns.contains(columns) else { return 80 }
    return columns
  }
}
