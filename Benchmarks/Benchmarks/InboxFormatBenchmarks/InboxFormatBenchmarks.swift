import Benchmark
import Foundation
import InboxFormat

/// Engine only, decode only, encode only and end to end, at 20, 1k and 100k
/// messages. Instructions and allocations are the steady metrics the
/// committed thresholds (Thresholds/) check; wall clock is informative.
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.instructions, .mallocCountTotal, .wallClock, .peakMemoryResident],
    timeUnits: .microseconds,
    maxDuration: .seconds(3),
    maxIterations: 1_000,
    thresholds: [
      .instructions: .init(relative: [.p90: 5]),
      .mallocCountTotal: .init(relative: [.p90: 5]),
    ]
  )

  for count in [20, 1_000, 100_000] {
    let payload = Corpus.payload(count: count)
    let messages = try! InboxDecoder().decode(payload)
    let mapper = MessageMapper(context: Corpus.context)
    let rows = mapper.map(messages)
    let encoder = InboxEncoder(layout: .compact)

    Benchmark("engine/\(count)") { benchmark in
      for _ in benchmark.scaledIterations { blackHole(mapper.map(messages)) }
    }
    Benchmark("decode/\(count)") { benchmark in
      for _ in benchmark.scaledIterations { blackHole(try InboxDecoder().decode(payload)) }
    }
    Benchmark("encode/\(count)") { benchmark in
      for _ in benchmark.scaledIterations { blackHole(encoder.encode(rows)) }
    }
    Benchmark("end-to-end/\(count)") { benchmark in
      for _ in benchmark.scaledIterations {
        let mapper = MessageMapper(context: Corpus.context)
        blackHole(encoder.encode(mapper.map(try InboxDecoder().decode(payload))))
      }
    }
  }
}
