// swift-tools-version:6.1
import PackageDescription

import struct Foundation.URL

// SwiftPM names a path dependency after its folder, which is whatever the
// checkout is called: ask for it instead of assuming "inbox-format".
let rootPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .lastPathComponent

// The benchmarks live in their own package so that package-benchmark (and its
// malloc interposer) stays out of `swift test` and out of packages that depend
// on inbox-format. Run them from this folder: `swift package benchmark`.
let package = Package(
  name: "InboxFormatBenchmarks",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(path: "../"),
    .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
  ],
  targets: [
    .executableTarget(
      name: "InboxFormatBenchmarks",
      dependencies: [
        .product(name: "InboxFormat", package: rootPackage),
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/InboxFormatBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
  ]
)
