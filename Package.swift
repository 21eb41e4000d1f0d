// swift-tools-version:6.1
import PackageDescription

// How the executables are linked, for a start that is a few milliseconds long:
// - their relative relocations packed (DT_RELR, which lld writes and glibc
//   2.36 and later read): the dynamic loader applies some 76,000 of them at
//   every start, from a table of 14 KB packed instead of 1.8 MB read from
//   the file;
// - the C++ runtime linked in (libstdc++ through Link/libstdc++.so, a
//   linker script; libgcc), as the Swift runtime, Foundation and ICU that
//   use it are: the loader maps, relocates and initializes no libstdc++,
//   and looks up some 760 fewer symbols.
let executableLinking: [LinkerSetting] = [
  .unsafeFlags(
    [
      "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
      "-L", Context.packageDirectory + "/Link", "-Xclang-linker", "-static-libgcc",
    ],
    .when(platforms: [.linux]))
]

let package = Package(
  name: "inbox-format",
  products: [
    .library(name: "InboxFormat", targets: ["InboxFormat"]),
    .executable(name: "inbox-format", targets: ["inbox-format"]),
    // `serve` and `preview`, which `inbox-format` hands over to (execve):
    // the only executable that links the HTTP server and its packages.
    .executable(name: "inbox-format-server", targets: ["inbox-format-server"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    // Property-based tests only; no macros, so no swift-syntax to build.
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    // The service (`inbox-format-server`) only: the library and the command depend on none of these.
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    // `GET /metrics`: Prometheus collectors and their text exposition, in a registry the application owns.
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    // `serve`'s settings from INBOX_FORMAT_* variables and a JSON or YAML file;
    // YAML is a trait (it brings Yams), JSON the default one.
    .package(
      url: "https://github.com/apple/swift-configuration",
      from: "1.4.0",
      traits: [.defaults, "YAML"]
    ),
    // `swift package generate-documentation` (the library's DocC catalog); a plugin, linked into nothing.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    // `packageAccess: false` leaves the library out of the package's access
    // domain: it can declare nothing `package`, so the service, the preview,
    // the options and the command build on its public API alone, and the
    // compiler refuses anything else.
    .target(name: "InboxFormat", dependencies: ["CInboxBytes", "InboxFormatSupport"], packageAccess: false),
    // Plumbing below the library, shared by it, the options, the service and
    // the command: the one escaper of messages and logs, the one JSON string
    // rule, which locale names ICU reads, the bounded cache. Public API only.
    .target(name: "InboxFormatSupport", packageAccess: false),
    // Option values, query parameters and environment variables, read into
    // a context: shared by the command and the service.
    .target(name: "InboxFormatOptions", dependencies: ["InboxFormat", "InboxFormatSupport"]),
    // The HTTP service behind `inbox-format serve`: a target of its own, so
    // that the library gains no server dependency. Not a product.
    .target(
      name: "InboxFormatServer",
      dependencies: [
        "InboxFormat",
        "InboxFormatOptions",
        "InboxFormatSupport",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ],
      // The preview page's files, embedded by Scripts/embed-preview.py.
      exclude: ["Preview/Assets"]
    ),
    // The 16-byte masks of the scanning loops (SSE2, or a portable loop), in a header.
    .target(name: "CInboxBytes"),
    // timerfd(2), which Swift's Glibc module does not declare.
    .systemLibrary(name: "CTimerFD"),
    // The command's subcommands and options, every one declared here (help,
    // man pages and completions are whole), and all but `serve` and
    // `preview` run here. No server dependency: a command that links none
    // starts without the server's conformances to scan and relocations to make.
    .target(
      name: "InboxFormatCLI",
      dependencies: [
        "InboxFormat",
        "InboxFormatOptions",
        "InboxFormatSupport",
        "CTimerFD",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // `inbox-format`: `serve` and `preview` replace the process with
    // `inbox-format-server`, found beside it.
    .executableTarget(name: "inbox-format", dependencies: ["InboxFormatCLI"], linkerSettings: executableLinking),
    // The same command with `serve` and `preview` running the server.
    .executableTarget(
      name: "inbox-format-server",
      dependencies: [
        "InboxFormat",
        "InboxFormatOptions",
        "InboxFormatCLI",
        "InboxFormatServer",
        "InboxFormatSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Configuration", package: "swift-configuration"),
        .product(name: "Logging", package: "swift-log"),
      ],
      linkerSettings: executableLinking
    ),
    .testTarget(
      name: "InboxFormatTests",
      dependencies: [
        "GoldenCases", "InboxFormat", "InboxFormatSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(name: "InboxFormatSupportTests", dependencies: ["InboxFormatSupport", "SmallCases"]),
    // Every small input of an alphabet, for the tests that hold a shortcut equal to its rule.
    .target(name: "SmallCases", path: "Tests/SmallCases"),
    // The golden cases of Data/golden, read once for the test targets that run them.
    .target(name: "GoldenCases", dependencies: ["InboxFormat"], path: "Tests/GoldenCases"),
    .testTarget(
      name: "InboxFormatServerTests",
      dependencies: [
        "GoldenCases",
        "SmallCases",
        "InboxFormat",
        "InboxFormatOptions",
        "InboxFormatServer",
        "InboxFormatSupport",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOCore", package: "swift-nio"),
      ]
    ),
    .testTarget(
      name: "inbox-formatTests",
      dependencies: [
        "GoldenCases", "InboxFormat", "InboxFormatOptions", "InboxFormatCLI", "InboxFormatSupport", "inbox-format",
        "inbox-format-server",
      ],
      resources: []
    ),
  ]
)

// Every target gets the same strictness: Swift 6 mode is the tools-version
// default; these catch the remaining implicit imports and existentials.
for target in package.targets where target.type != .system && target.name != "CInboxBytes" {
  var settings = target.swiftSettings ?? []
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
  target.swiftSettings = settings
}
