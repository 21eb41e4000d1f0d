/// What `preview` shows at most: checked by the command's `--locale` and by
/// the page's query, in the two executables' modules.
package enum PreviewLimits {
  /// The most screens side by side.
  package static let mostLocales = 8
}
