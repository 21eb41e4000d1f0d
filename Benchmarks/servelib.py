"""What the service scripts share: building, starting and stopping servers,
running wrk and reading its report. Loopback only; every wait is bounded."""
import os, re, signal, socket, statistics, subprocess, sys, tempfile, time, urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BINARY = os.path.join(ROOT, ".build", "release", "inbox-format")
# What `serve` hands over to (execve), beside the command.
SERVER_BINARY = BINARY + "-server"
NOW, LOCALE, ZONE = "2022-01-31T12:00:00Z", "en-US", "Europe/Paris"
ROWS_PATH = f"/v1/rows?locale={LOCALE}&timeZone={ZONE}&now={NOW}"


def build():
    subprocess.run([os.path.join(ROOT, "Scripts", "setup.sh")], check=True, stdout=subprocess.DEVNULL)


PAGE = os.path.join(ROOT, "Data", "corpus", "page-20.json")


def page(peers, messages, directory):
    """The peers' corpus of `messages` messages, as a file: for 20, the
    committed copy of `make-corpus.py 20` (so the load checks need no
    peers), else written by make-corpus.py into `directory`."""
    if messages == 20:
        return PAGE
    path = os.path.join(directory, f"page-{messages}.json")
    with open(path, "w") as out:
        subprocess.run([sys.executable, os.path.join(peers, "make-corpus.py"), str(messages)], stdout=out, check=True)
    return path


class Server:
    """A server process on loopback, its standard error in a file."""

    def __init__(self, name, command, log_path, port=None, ready_timeout=30):
        self.name, self.log_path = name, log_path
        self.log = open(log_path, "wb")
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=self.log, cwd=ROOT)
        deadline = time.monotonic() + ready_timeout
        self.port = port
        while self.port is None and time.monotonic() < deadline:
            with open(log_path, "rb") as log:
                found = re.search(rb"serving on http://127\.0\.0\.1:(\d+)", log.read())
            if found:
                self.port = int(found.group(1))
            elif self.process.poll() is not None:
                raise SystemExit(f"{name} exited with {self.process.returncode}; see {log_path}")
            else:
                time.sleep(0.05)
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise SystemExit(f"{name} did not answer /healthz within {ready_timeout} s; see {log_path}")

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def rss_kb(self):
        """The resident memory of the process (and, for a cluster, of its children), in KB."""
        pids = [self.process.pid] + children(self.process.pid)
        total = 0
        for pid in pids:
            try:
                with open(f"/proc/{pid}/status") as status:
                    total += next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
            except (OSError, StopIteration):
                pass
        return total

    def terminate(self):
        self.process.send_signal(signal.SIGTERM)

    def wait(self, timeout):
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self):
        if self.process.poll() is None:
            self.terminate()
            if self.wait(15) is None:
                self.process.kill()
                self.process.wait()
        self.log.close()


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as listing:
            return [int(child) for child in listing.read().split()]
    except OSError:
        return []


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve_command(port=0, extra=()):
    return [BINARY, "serve", "--port", str(port), "--locale", LOCALE, "--time-zone", ZONE, *extra]


def wrk_script(directory, good_body, bad_body=None, bad_every=0):
    """A wrk script posting `good_body` (and `bad_body` every `bad_every`th
    request) that counts the statuses it gets and prints them when done."""
    path = os.path.join(directory, f"post-{bad_every}.lua")
    with open(path, "w") as script:
        script.write(f"""
local good_body = {lua_string(good_body)}
local bad_body = {lua_string(bad_body or "")}
local bad_every = {bad_every}
local threads = {{}}
function setup(thread) table.insert(threads, thread) end
function init(args)
  statuses = {{}}
  sent = 0
  local headers = {{["Content-Type"] = "application/json"}}
  good = wrk.format("POST", "{ROWS_PATH}", headers, good_body)
  bad = wrk.format("POST", "{ROWS_PATH}", headers, bad_body)
end
function request()
  sent = sent + 1
  if bad_every > 0 and sent % bad_every == 0 then return bad end
  return good
end
function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end
function done(summary, latency, requests)
  local total = {{}}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do total[status] = (total[status] or 0) + count end
  end
  for status, count in pairs(total) do io.write(string.format("STATUS %d %d\\n", status, count)) end
end
""")
    return path


def plain_post_script(directory, body):
    """The lightest wrk script: one request, built once, POSTed again and
    again (wrk calls no Lua per request)."""
    path = os.path.join(directory, "post-plain.lua")
    with open(path, "w") as script:
        script.write(f"""
wrk.method = "POST"
wrk.path = "{ROWS_PATH}"
wrk.headers["Content-Type"] = "application/json"
wrk.body = {lua_string(body)}
""")
    return path


def lua_string(text):
    return "[==[" + text + "]==]" if "]==]" not in text else repr(text)


def wrk(url, script, duration, connections=32, threads=2, timeout=10):
    """Runs wrk with --latency and returns what it reports."""
    command = ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{duration}s", "--latency",
               "--timeout", f"{timeout}s", "-s", script, url]
    output = subprocess.run(command, capture_output=True, text=True, timeout=duration + 60).stdout
    return parse_wrk(output)


UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def parse_wrk(output):
    report = {"raw": output, "statuses": {}, "errors": {}}
    found = re.search(r"Requests/sec:\s+([\d.]+)", output)
    report["rps"] = float(found.group(1)) if found else 0.0
    for percentile in ("50", "99"):
        found = re.search(rf"^\s+{percentile}%\s+([\d.]+)(us|ms|s|m)\s*$", output, re.M)
        report[f"p{percentile}"] = float(found.group(1)) * UNITS[found.group(2)] if found else float("nan")
    found = re.search(r"(\d+) requests in", output)
    report["requests"] = int(found.group(1)) if found else 0
    found = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    if found:
        report["errors"] = dict(zip(("connect", "read", "write", "timeout"), map(int, found.groups())))
    found = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    report["non2xx"] = int(found.group(1)) if found else 0
    for status, count in re.findall(r"^STATUS (\d+) (\d+)$", output, re.M):
        report["statuses"][int(status)] = int(count)
    return report


def alternate(servers, script, rounds, duration, connections):
    """wrk runs against each of `servers` (name: Server) in turn, the order
    reversed every other round, after a short warm-up of each (formatters,
    caches, JIT). Returns each server's reports, and the medians of their
    req/s, p50 and p99."""
    for server in servers.values():
        wrk(server.url, script, 2, connections)
    results = {name: [] for name in servers}
    names = list(servers)
    for round in range(rounds):
        for name in names if round % 2 == 0 else names[::-1]:
            report = wrk(servers[name].url, script, duration, connections)
            if report["non2xx"] or sum(report["errors"].values()) or report["requests"] == 0:
                print(f"{name}: {report['non2xx']} answers not 2xx or 3xx, socket errors {report['errors']}",
                      file=sys.stderr)
            results[name].append(report)
            print(f"round {round + 1} {name}: {report['rps']:.0f} req/s, p50 {report['p50']:.2f} ms, "
                  f"p99 {report['p99']:.2f} ms", file=sys.stderr)
    medians = {name: {key: statistics.median(r[key] for r in reports) for key in ("rps", "p50", "p99")}
               for name, reports in results.items()}
    return results, medians


def print_medians(results, medians):
    """The table of `alternate`'s medians, with each server's range of req/s."""
    print("| server | req/s | p50 | p99 |")
    print("|---|---|---|---|")
    for name, median in medians.items():
        rps = [r["rps"] for r in results[name]]
        print(f"| {name} | {median['rps']:,.0f} ({min(rps):,.0f}–{max(rps):,.0f}) | {median['p50']:.2f} ms | "
              f"{median['p99']:.2f} ms |")

