// swift-tools-version:6.0
import PackageDescription

// The Messages post's approach, built on its own for compare-peers.py: a
// package of its own keeps it out of the benchmark plugin's runs.
let package = Package(
  name: "PostApproach",
  targets: [.executableTarget(name: "PostApproach")]
)
