import Benchmark
import Foundation
import InboxFormat

/// Engine only (``MessageMapper``), decode only (``InboxDecoder``), encode
/// only (``InboxEncoder``) and end to end (``InboxFormatter``, the command's
/// path, also with every optional field), at 20, 1k and 100k messages; a page
/// through a service's kept formatter (``InboxFormatterCache``); and a
/// Sendbird channel list through its mapping, at 1k and 100k. Allocations (and instructions, where the machine exposes CPU
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

  // A run of a few dozen allocations is held within 8 of them rather than
  // 5%: allocations are counted process-wide, and the runtime's or
  // Dispatch's own threads move such a count by a few. A regression per
  // message adds one for each of its 20 or 1,000 messages, far past 8.
  let fewAllocations = Benchmark.Configuration(
    thresholds: Benchmark.defaultConfiguration.thresholds!.merging(
      [.mallocCountTotal: .init(absolute: [.p90: 8])]) { _, few in few })

  // At 100,000 messages rows are made on several threads at once. Their
  // date labels are made once for all of them (the library's `MadeLabels`), but each
  // thread still fills memo tables of its own with initials, badges and the
  // other styles' days: how many threads take part varies from run to run,
  // and with it these counts (6% seen between runs of the same build, with
  // a core kept busy). They are held within 15%; the 20- and 1,000-message
  // runs, made on one thread, hold the per-message ones.
  let parallel = Benchmark.Configuration(
    thresholds: Benchmark.defaultConfiguration.thresholds!.merging(
      [.mallocCountTotal: .init(relative: [.p90: 15])]) { _, parallel in parallel })
  func configuration(_ count: Int) -> Benchmark.Configuration {
    count == 100_000 ? parallel : Benchmark.defaultConfiguration
  }

  for count in [20, 1_000, 100_000] {
    let payload = Corpus.payload(count: count)
    let messages = try! InboxDecoder().decode(payload)
    let mapper = MessageMapper(context: Corpus.context)
    let rows = mapper.map(messages)
    let encoder = InboxEncoder(layout: .compact)

    Benchmark("engine_\(count)", configuration: count <= 1_000 ? fewAllocations : parallel) {
      benchmark in
      for _ in benchmark.scaledIterations { blackHole(mapper.map(messages)) }
    }
    Benchmark("decode_\(count)", configuration: count == 20 ? fewAllocations : Benchmark.defaultConfiguration) {
      benchmark in
      for _ in benchmark.scaledIterations { blackHole(try InboxDecoder().decode(payload)) }
    }
    Benchmark("encode_\(count)", configuration: count == 20 ? fewAllocations : Benchmark.defaultConfiguration) {
      benchmark in
      for _ in benchmark.scaledIterations { blackHole(encoder.encode(rows)) }
    }
    // What the command does: a formatter built for the run (its label
    // caches start empty), the payload's bytes in, the output's bytes out.
    Benchmark("end-to-end_\(count)", configuration: configuration(count)) { benchmark in
      for _ in benchmark.scaledIterations {
        try InboxFormatter(context: Corpus.context).format(payload) { blackHole($0) }
      }
    }
    // The same with every optional field and compact dates (the dearest
    // style): what a default row does not pay for.
    let everyField = Corpus.context.fields(RowField.all).dateStyle(.compact)
    Benchmark("end-to-end-every-field_\(count)", configuration: configuration(count)) { benchmark in
      for _ in benchmark.scaledIterations {
        try InboxFormatter(context: everyField).format(payload) { blackHole($0) }
      }
    }
  }

  // What a Swift service does per request with the library: the formatter
  // kept for the request's settings (``InboxFormatterCache``), at the
  // request's instant, a 20-message page of bytes in, the rows' bytes out.
  // The service's own per-request cost (serve-vs-node.py) is the bound.
  let formatters = InboxFormatterCache(capacity: 64)
  let page = Corpus.payload(count: 20)
  Benchmark("service-page_20", configuration: fewAllocations) { benchmark in
    for iteration in benchmark.scaledIterations {
      let context = Corpus.context.now(Corpus.now.addingTimeInterval(Double(iteration)))
      _ = try page.withUnsafeBufferPointer { bytes in
        try formatters.formatter(for: context).format(bytes: bytes) { blackHole($0) }
      }
    }
  }

  // A mapped payload end to end: the same kind of messages as Sendbird
  // channels, read in one pass along the mapping's plan. Made in the
  // benchmark's setup, so that the other benchmarks' processes, which
  // register it too, do not hold it.
  let sendbird = InputMapping.builtIn(named: "sendbird")!.viewer("me")
  for count in [1_000, 100_000] {
    Benchmark(
      "mapped-sendbird_\(count)", configuration: configuration(count),
      closure: { benchmark, channels in
        for _ in benchmark.scaledIterations {
          do {
            try InboxFormatter(context: Corpus.context, mapping: sendbird).format(channels) { blackHole($0) }
          } catch {
            fatalError("the Sendbird corpus does not format: \(error)")
          }
        }
      },
      setup: { Corpus.sendbirdPayload(count: count) })
  }
}
