import Foundation

@testable import InboxFormat

// The `mapping` target: any bytes as a mapping document, and as a JSONPath
// query. Nothing may trap or hang, and:
//
// - a document that reads as a mapping reads a set of payloads (the post's
//   shape, a channel list, a room object, NDJSON, an item of every kind)
//   without trapping, each problem a printable line, and the pipeline
//   reading a payload's items in stretches of 16 bytes (``ItemStretches``)
//   gives what it gives reading them in order: the bytes, the items left
//   out and the error;
// - a refused document or query gets a printable message, and a query's
//   position lies within the query;
// - a valid query selects from a fixed document, and the normalized path of
//   every node it selects is itself a valid query that selects exactly that
//   node (RFC 9535 §2.7).

private let payloads: [[UInt8]] = [
  #"{"items":[{"id":1,"firstname":"Ann","update_date":"2022-01-31T10:00:00Z","unread_count":2}]}"#,
  #"{"channels":[{"channel_url":"a","name":"","members":[{"user_id":"me","nickname":"Me"},{"user_id":"u","nickname":"Jane Doe","phone_number":"+33 6"}],"last_message":{"message":"<p>Hi &amp; bye</p>","created_at":1643618733000},"unread_message_count":3},{"channel_url":7,"last_message":null}]}"#,
  #"{"rooms":{"!r:x":{"name":"Room","timeline":[{"type":"m.room.message","content":{"body":"yo"},"origin_server_ts":"1643618733.5"}],"notification_count":null}}}"#,
  "{\"id\":1,\"d\":\"2022-01-31T10:00:00Z\"}\n[1,2]\n\"x\"\nnull\n{\"id\":{\"a\":[]}}\n",
  #"[{"id":-1,"title":"王小明","date":1e3,"read":true},{"id":"x","date":"nope"},true,[],{}]"#,
  // Arrays long enough after their first item to be read in stretches.
  #"{"items":[{"id":1,"firstname":"Ann","update_date":"2022-01-31T10:00:00Z","unread_count":2},{"id":2,"firstname":"Zo\u00eb","lastname":"","message":"a,{\"id\":9}","update_date":"2022-01-30T10:00:00Z"},{"id":"x","update_date":"nope"},{"id":3,"extra":[{"id":4}],"firstname":"李","update_date":"2022-01-29T10:00:00Z"},{"id":5,"message":null,"update_date":"2021-12-31T23:59:59Z","unread_count":0},{"id":6,"lastname":"Doe","update_date":"2022-01-31T11:59:00Z"}]}"#,
  #"{"channels":[{"channel_url":"a","name":"A","last_message":{"message":"hi","created_at":1643618733000},"unread_message_count":1},{"channel_url":"b","members":[{"user_id":"me","nickname":"Me"},{"user_id":"u","nickname":"Jo"}],"last_message":{"message":"<b>x</b>","created_at":1643518733000}},{"channel_url":"c","last_message":null},{"channel":{"id":"d","name":"D"},"messages":[{"text":"t","created_at":"2022-01-30T10:00:00Z"}],"read":[{"user":{"id":"me"},"unread_messages":4}]},{"channel_url":"e","name":"E","last_message":{"message":"bye","created_at":1643000000000},"unread_message_count":0}]}"#,
].map { Array($0.utf8) }

/// The tables rows are made with, built once (they hold ICU formatters).
private let tables = MessageMapper(
  context: FormattingContext(
    now: Date(timeIntervalSince1970: 1_643_630_400), locale: Locale(identifier: "en-US"),
    timeZone: TimeZone(identifier: "Europe/Paris")!)
).tables

private let document = try! JSONValue.read(
  from: Array(#"{"a":[1,2.5,"x",null,true,{"b":[{"c":"d"}]}],"e":{"f":"g","h i":["j"]},"k":-0.0,"l":"é\u0000'"}"#.utf8))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMapping(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = fuzzInput(data, size)
  readAsMapping(input)
  if let text = String(validating: input, as: UTF8.self) { readAsQuery(text, input: input) }
  return 0
}

private func readAsMapping(_ input: UnsafeBufferPointer<UInt8>) {
  let mapping: InputMapping
  do {
    mapping = try InputMapping(json: Array(input), name: "fuzz").viewer("me")
  } catch {
    fuzzCheck(isPrintableLine(error.description), "an unprintable mapping error: \(error)", input: input)
    return
  }
  for payload in payloads {
    let (messages, skipped): ([MessageAPIModel], [InboxFormatError])
    do {
      (messages, skipped) = try InboxDecoder(mapping: mapping).decodeSkippingInvalid(payload)
    } catch {
      fuzzCheck(isPrintableLine(error.description), "an unprintable payload error: \(error)", input: input)
      continue
    }
    for problem in skipped {
      fuzzCheck(isPrintableLine(problem.description), "an unprintable item error: \(problem)", input: input)
    }
    _ = messages
  }
  let skipping = input.count % 2 == 0
  for payload in payloads {
    fuzzCheck(
      run(payload, mapping: mapping, stretchLength: 16, skipping: skipping)
        == run(payload, mapping: mapping, stretchLength: nil, skipping: skipping),
      "reading in stretches and reading in order disagree", input: input)
  }
}

/// What a run of the pipeline gives.
private struct PipelineRun: Equatable {
  var bytes: [UInt8] = []
  var skipped: [InboxFormatError] = []
  var error: InboxFormatError?
}

/// The pipeline's run over `payload`, its items read in stretches of
/// `stretchLength` bytes, or in order (nil).
private func run(_ payload: [UInt8], mapping: InputMapping, stretchLength: Int?, skipping: Bool) -> PipelineRun {
  var pipeline = Pipeline(tables: tables, layout: .compact)
  pipeline.stretchLength = stretchLength ?? Int.max / 8
  var outcome = PipelineRun()
  payload.withUnsafeBufferPointer { bytes in
    do {
      _ = try pipeline.run(
        bytes: bytes, mapping: mapping, skipInvalid: skipping ? { outcome.skipped.append($0) } : nil,
        write: { outcome.bytes += $0 })
    } catch {
      outcome.error = error as? InboxFormatError
    }
  }
  // Which rows were written before an error depends on the batches done.
  if outcome.error != nil { outcome.bytes = [] }
  return outcome
}

private func readAsQuery(_ text: String, input: UnsafeBufferPointer<UInt8>) {
  let query: JSONPathQuery
  do {
    query = try JSONPathQuery(text, functions: MappingFields.functions)
  } catch {
    fuzzCheck(
      // 1-based; one past the last scalar is the end of the query.
      (1...text.unicodeScalars.count + 1).contains(error.position), "position \(error.position) outside the query",
      input: input)
    fuzzCheck(isPrintableLine(error.description), "an unprintable query error: \(error)", input: input)
    return
  }
  let nodes = query.select(from: document, environment: JSONPathEnvironment(viewer: .string("me")))
  for node in nodes.prefix(64) {
    let path = node.normalizedPath
    guard let again = try? JSONPathQuery(path) else {
      fuzzFailure("the normalized path \(path) of a node does not parse", input: input)
    }
    let selected = again.select(from: document)
    fuzzCheck(
      selected.count == 1 && selected[0].value == node.value && selected[0].normalizedPath == path,
      "the normalized path \(path) does not select its node", input: input)
  }
}

/// One line with nothing in it that drives a terminal.
private func isPrintableLine(_ text: String) -> Bool {
  !text.unicodeScalars.contains { isUnsafeForDisplay($0) || $0 == "\n" }
}
