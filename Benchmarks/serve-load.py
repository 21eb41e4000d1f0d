#!/usr/bin/env python3
"""Load checks of `inbox-format serve`, each one pass or fail:

1. Under load (wrk, 32 connections, --duration seconds) with one request in
   ten malformed, every request is answered 200 or 400 (never 5xx, no socket
   error), and the server's resident memory stays flat: sampled after a
   warm-up, at the middle and at the end, the second half grows it by at
   most 10% + 5 MB.
2. Slow clients do not delay the others: during that run, 4 clients trickle
   a request head and 4 a request body at one byte a second; the others' p99
   latency stays within 2x (+10 ms) of a run without them, just before. The
   slow ones are cut off by the server's timeouts (head: --idle-timeout,
   10 s; body: --body-timeout, 30 s), with 408 for a body.
3. SIGTERM under load: with wrk running and a slow client holding a request
   open, SIGTERM makes the server exit with status 0 within 10 s (the slow
   one is cancelled after the 8 s grace period), and every request it
   accepted was answered: the answers wrk counted equal the answers the
   server's access log wrote, none of them cut short. wrk's errors are only
   those of reconnecting to a closed listener and of each connection being
   closed once after its last answer; no timeouts.

usage: Benchmarks/serve-load.py [--duration S] [--no-build]
Loopback only; every loop is bounded and the script stops by itself.
"""
import argparse, json, os, re, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import servelib

failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message)
    if not condition:
        failures.append(message)


class SlowClient(threading.Thread):
    """Sends a request one byte a second: its head (`part="head"`), or a
    head at once and then its body. Records how the server answered and when."""

    def __init__(self, port, part, seconds):
        super().__init__(daemon=True)
        self.port, self.part, self.seconds = port, part, seconds
        self.outcome, self.elapsed = "still open", None

    def run(self):
        body = b'{"items":[]}' + b" " * 200
        head = (f"POST {servelib.ROWS_PATH} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n").encode()
        start = time.monotonic()
        with socket.create_connection(("127.0.0.1", self.port), timeout=2) as connection:
            connection.settimeout(1.0)  # each wait for an answer is the second between two bytes
            trickled = head if self.part == "head" else body
            if self.part == "body":
                connection.sendall(head)
            for index in range(min(len(trickled), self.seconds)):
                try:
                    connection.sendall(trickled[index:index + 1])
                except OSError:
                    break
                try:
                    answer = connection.recv(4096)
                    if answer == b"":
                        self.outcome = "closed"
                        break
                    self.outcome = answer.split(b"\r\n", 1)[0].decode(errors="replace")
                    break
                except socket.timeout:
                    pass  # nothing yet: one second passed
                except OSError:
                    self.outcome = "reset"
                    break
            self.elapsed = time.monotonic() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=int, default=30, help="seconds of the main wrk run")
    parser.add_argument("--no-build", action="store_true")
    arguments = parser.parse_args()
    if not arguments.no_build:
        servelib.build()
    with tempfile.TemporaryDirectory() as directory:
        with open(servelib.PAGE) as file:
            good = file.read()
        bad = good[: len(good) // 2]  # cut in the middle: invalid JSON
        script = servelib.wrk_script(directory, good, bad, bad_every=10)

        print(f"1, 2. {arguments.duration} s of wrk, one request in ten malformed, slow clients alongside")
        server = servelib.Server("serve", servelib.serve_command(), os.path.join(directory, "serve.log"))
        try:
            servelib.wrk(server.url, script, 2)
            baseline = servelib.wrk(server.url, script, max(3, arguments.duration // 3))
            rss = [server.rss_kb()]
            slow = [SlowClient(server.port, part, arguments.duration + 10) for part in ["head"] * 4 + ["body"] * 4]
            for client in slow:
                client.start()
            sampler = threading.Timer(arguments.duration / 2, lambda: rss.append(server.rss_kb()))
            sampler.start()
            loaded = servelib.wrk(server.url, script, arguments.duration)
            sampler.join()
            rss.append(server.rss_kb())
            for client in slow:
                client.join(timeout=45)
        finally:
            server.stop()
        statuses = loaded["statuses"]
        print(f"     {loaded['requests']:,} requests, {loaded['rps']:,.0f}/s; statuses {statuses}; "
              f"socket errors {loaded['errors']}")
        check(set(statuses) <= {200, 400} and statuses.get(200, 0) > 0 and statuses.get(400, 0) > 0,
              "every answer is 200 or 400 (a tenth 400)")
        check(sum(statuses.values()) == loaded["requests"], "wrk counted an answer for every request")
        check(sum(loaded["errors"].values()) == 0, "no socket errors")
        print(f"     RSS after warm-up {rss[0] / 1024:.1f} MB, middle {rss[1] / 1024:.1f} MB, "
              f"end {rss[2] / 1024:.1f} MB")
        check(rss[2] <= rss[1] * 1.10 + 5 * 1024, "memory flat: the second half grew RSS by at most 10% + 5 MB")
        print(f"     p50/p99 without slow clients {baseline['p50']:.2f}/{baseline['p99']:.2f} ms, "
              f"with them {loaded['p50']:.2f}/{loaded['p99']:.2f} ms")
        check(loaded["p99"] <= 2 * baseline["p99"] + 10, "slow clients do not delay the others (p99 within 2x + 10 ms)")
        for client in slow:
            print(f"     slow {client.part}: {client.outcome}"
                  + (f" after {client.elapsed:.0f} s" if client.elapsed is not None else ""))
        if arguments.duration + 10 > 31:
            check(all(c.outcome == "closed" for c in slow if c.part == "head"),
                  "a trickled head is cut off (idle timeout)")
            check(all(c.outcome.startswith("HTTP/1.1 408") for c in slow if c.part == "body"),
                  "a trickled body gets 408 (body timeout)")

        print("3. SIGTERM under load")
        log_path = os.path.join(directory, "serve-sigterm.log")
        server = servelib.Server("serve", servelib.serve_command(), log_path)
        try:
            holder = SlowClient(server.port, "body", 60)
            holder.start()
            load = subprocess.Popen(
                ["wrk", "-t", "2", "-c", "32", "-d", "8s", "--latency", "--timeout", "10s", "-s", script, server.url],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            time.sleep(3)
            start = time.monotonic()
            server.terminate()
            status = server.wait(20)
            elapsed = time.monotonic() - start
            report = servelib.parse_wrk(load.communicate(timeout=60)[0])
            holder.join(timeout=30)
        finally:
            server.stop()
        check(status == 0, f"exit status 0 (got {status})")
        check(elapsed <= 10, f"exited {elapsed:.1f} s after SIGTERM (at most 10 s)")
        with open(log_path, errors="replace") as log:
            lines = log.read().splitlines()
        answered = [l for l in lines if re.search(r'\] POST "/v1/rows" (200|400) [\d.]+ ms', l)]
        aborted = [l for l in lines if " aborted after " in l]
        counted = sum(count for status, count in report["statuses"].items() if status in (200, 400))
        print(f"     wrk: {report['requests']:,} requests, statuses {report['statuses']}, socket errors "
              f"{report['errors']}; server: {len(answered):,} answers logged, {len(aborted)} cut short; "
              f"the slow client: {holder.outcome}")
        check(counted == len(answered), "every request the server answered reached wrk (counts equal)")
        check(not aborted, "no answer cut short")
        check(set(report["statuses"]) <= {200, 400}, "no other status during shutdown")
        # After the listener closes, wrk's reconnections fail (counted as
        # connect or write errors), and each of its 32 connections is closed
        # once, after its last answer, while wrk waits to send on it (a read
        # error for a request the server never accepted); a timeout would be
        # a request left waiting.
        check(report["errors"].get("timeout", 0) == 0 and report["errors"].get("read", 0) <= 32,
              "no timeouts, and at most one closed connection per wrk connection")
    print(f"\n{len(failures)} failed" if failures else "\nall load checks passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
