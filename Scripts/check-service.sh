#!/usr/bin/env bash
# Checks the running service against its OpenAPI document with schemathesis:
# starts the release build of `inbox-format serve` on a free loopback port,
# runs a bounded number of generated requests per operation (positive and
# negative: bodies, query values, headers, other methods), checking that no
# answer is a 5xx and that every answer conforms to the document (status,
# media type, headers, schema); then scrapes GET /metrics before and after a
# few known requests, reads both with prometheus_client's parser (setup.sh
# installs it) and checks that the request counts moved by exactly those;
# then stops the server with SIGTERM and expects exit status 0. The
# preview's operations (tagged `preview`) are left out: `serve` answers 404
# there, and the preview's event stream never ends by itself; its tests
# (PreviewEventsTests, Tests/Browser) check them.
#
# usage: Scripts/check-service.sh [MAX_EXAMPLES]   (default 300, about 30 s; CI uses the default)
set -euo pipefail
cd "$(dirname "$0")/.."
examples="${1:-300}"
scratch="$(mktemp -d)"  # schemathesis keeps its example database in the directory it runs in
log="$scratch/serve.log"
# Made here: the server's redirection makes it in the background job,
# which the first look at it below may come before.
: > "$log"
.build/release/inbox-format serve --port 0 --locale en-US --time-zone Europe/Paris 2>"$log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$scratch"' EXIT
port=""
for _ in $(seq 100); do
  port="$(sed -n 's|^inbox-format: serving on http://127\.0\.0\.1:\([0-9]*\)$|\1|p' "$log")"
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "check-service: the server did not start:" >&2; cat "$log" >&2; exit 1; }
status=0
(cd "$scratch" && schemathesis run "http://127.0.0.1:$port/openapi.yaml" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,unsupported_method,allow_header_conformance \
  --phases examples,coverage,fuzzing --max-examples "$examples" --seed 20220131 \
  --request-timeout 10 --no-color --exclude-tag preview) || status=$?
python3 - "$port" <<'PYTHON' || status=1
import sys, urllib.error, urllib.request
from prometheus_client.parser import text_string_to_metric_families

base = f"http://127.0.0.1:{sys.argv[1]}"

def call(method, path, body=None):
    request = urllib.request.Request(base + path, data=body, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()

def scrape():
    status, headers, body = call("GET", "/metrics")
    assert status == 200, status
    assert headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8", headers
    assert headers["Cache-Control"] == "no-store", headers
    counts = {}
    for family in text_string_to_metric_families(body.decode("utf-8")):
        for sample in family.samples:
            if sample.name == "inbox_format_http_requests_total":
                labels = sample.labels
                counts[(labels["route"], labels["method"], labels["status"])] = sample.value
    return counts

payload = open("Data/examples/messages.json", "rb").read()
known = {
    ("/v1/rows", "POST", "200"): lambda: call("POST", "/v1/rows?now=2022-01-31T12:00:00Z", payload),
    ("/healthz", "GET", "200"): lambda: call("GET", "/healthz"),
    ("unmatched", "GET", "404"): lambda: call("GET", "/check-service/%1B?token=secret"),
}
before = scrape()
for series, request in known.items():
    for _ in range(3):
        request()
after = scrape()
for series in known:
    moved = after.get(series, 0) - before.get(series, 0)
    if moved != 3:
        sys.exit(f"check-service: {series} moved by {moved} for 3 requests")
if any("check-service" in route or "secret" in route for route, _, _ in after):
    sys.exit("check-service: a request's path is a label")
print(f"check-service: /metrics parses, {len(after)} request series, counts exact")
PYTHON
kill -TERM "$server"
code=0
wait "$server" || code=$?
[ "$code" -eq 0 ] || { echo "check-service: the server exited with $code after SIGTERM" >&2; exit 1; }
trap 'rm -rf "$scratch"' EXIT
answers='\] [A-Z]+ ".*" [0-9]{3} [0-9.]+ ms'
echo "check-service: $(grep -cE "$answers" "$log") requests answered"
if grep -qE '\] [A-Z]+ ".*" 5[0-9]{2} [0-9.]+ ms' "$log"; then
  echo "check-service: the access log holds a 5xx:" >&2
  grep -E '\] [A-Z]+ ".*" 5[0-9]{2} [0-9.]+ ms' "$log" | head -5 >&2
  exit 1
fi
exit "$status"
