import Benchmark
import Foundation
import InboxFormat

/// Engine only (``MessageMapper``), decode only (``InboxDecoder``), encode
/// only (``InboxEncoder``) and end to end (``InboxFormatter``, the command's
/// path, also with every optional field), at 20, 1k and 100k messages. Allocations (and instructions, where the machine exposes CPU
/// counters) are the steady metrics: the committed p90 thresholds
/// (Thresholds/) hold them within 5%. Wall clock and memory are checked only
/// against gross regressions, since a shared machine makes them noisy.
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.instructions, .mallocCountTotal, .wallClock, .peakMemoryResident],
    timeUnits: .microseconds,
    maxDuration: .seconds(3),
    maxIterations: 1_000,
    thresholds: [
      .instructions: .init(relative: [.p90: 5]),
      .mallocCountTotal: .init(relative: [.p90: 5]),
      .wallClock: .init(relative: [.p90: 150]),
      .peakMemoryResident: .init(relative: [.p90: 50]),
    ]
  )

  for count in [20, 1_000, 100_000] {
    let payload = Corpus.payload(count: count)
    let messages = try! InboxDecoder().decode(payload)
    let mapper = MessageMapper(context: Corpus.context)
    let rows = mapper.map(messages)
    let encoder = InboxEncoder(layout: .compact)

    Benchmark("engine_\(count)") { benchmark in
      for _ in benchmark.scaledIterations { blackHole(mapper.map(messages)) }
    }
    Benchmark("decode_\(count)") { benchmark in
      for _ in benchmark.scaledIterations { blackHole(try InboxDecoder().decode(payload)) }
    }
    Benchmark("encode_\(count)") { benchmark in
      for _ in benchmark.scaledIterations { blackHole(encoder.encode(rows)) }
    }
    // What the command does: a formatter built for the run (its label
    // caches start empty), the payload's bytes in, the output's bytes out.
    Benchmark("end-to-end_\(count)") { benchmark in
      for _ in benchmark.scaledIterations {
        try InboxFormatter(context: Corpus.context).format(payload) { blackHole($0) }
      }
    }
    // The same with every optional field and compact dates (the dearest
    // style): what a default row does not pay for.
    let everyField = Corpus.context.fields(RowField.all).dateStyle(.compact)
    Benchmark("end-to-end-every-field_\(count)") { benchmark in
      for _ in benchmark.scaledIterations {
        try InboxFormatter(context: everyField).format(payload) { blackHole($0) }
      }
    }
  }
}
