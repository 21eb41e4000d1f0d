#!/usr/bin/env python3
"""Two (or more) builds of the service against each other, alternating.

usage: Benchmarks/serve-ab.py BUILD_A BUILD_B [BUILD ...] [--rounds R] [--duration S]

Each BUILD is a copy of `.build/release/inbox-format-server`. Round by round
(the order reversed every other round), each is copied into place, started
as `inbox-format serve` starts it (servelib.serve_command(): the command
hands over to it by execve), warmed up for 2 s, and loaded by wrk with the
serve-vs-node load (the 20-message page, 2 threads, 32 connections) for
`--duration` seconds. Printed per round and as medians: requests a second,
p99, and the server's CPU time (utime + stime from /proc) per request,
which a machine shared with other load moves less than requests a second.
The binary in place before the run is put back after it.
"""
import argparse, os, shutil, statistics, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import servelib  # noqa: E402

SERVER = servelib.SERVER_BINARY


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("builds", nargs="+")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--duration", type=int, default=8)
    args = parser.parse_args()
    if len(args.builds) < 2:
        raise SystemExit("serve-ab.py: give at least two builds")
    for build in args.builds:
        if not os.path.isfile(build):
            raise SystemExit(f"serve-ab.py: no file {build!r}")
    if not os.path.isfile(SERVER):
        raise SystemExit(f"serve-ab.py: build the service first ({SERVER} is missing)")
    directory = tempfile.mkdtemp(prefix="serve-ab-")
    kept = os.path.join(directory, "inbox-format-server.before")
    shutil.copy2(SERVER, kept)
    script = servelib.plain_post_script(directory, open(servelib.PAGE).read())
    results = {build: [] for build in args.builds}
    try:
        for number in range(args.rounds):
            order = args.builds if number % 2 == 0 else args.builds[::-1]
            for build in order:
                shutil.copy2(build, SERVER + ".next")
                os.replace(SERVER + ".next", SERVER)
                server = servelib.Server(build, servelib.serve_command(), os.path.join(directory, "server.log"))
                try:
                    servelib.wrk(server.url, script, 2)
                    before = cpu_seconds(server.process.pid)
                    report = servelib.wrk(server.url, script, args.duration)
                    after = cpu_seconds(server.process.pid)
                finally:
                    server.stop()
                if report["requests"] == 0 or report["non2xx"] or any(report["errors"].values()):
                    raise SystemExit(f"serve-ab.py: {build}: {report['raw']}")
                micros = 1e6 * (after - before) / report["requests"]
                results[build].append((report["rps"], report["p99"], micros))
                print(f"round {number + 1} {build}: {report['rps']:,.0f} req/s, p99 {report['p99']:.2f} ms, "
                      f"{micros:.1f} µs CPU per request", flush=True)
    finally:
        shutil.copy2(kept, SERVER + ".next")
        os.replace(SERVER + ".next", SERVER)
    print(f"\n{args.rounds} alternating rounds of {args.duration} s (medians)")
    print("| build | req/s | p99 | CPU per request |\n|---|---|---|---|")
    for build, rows in results.items():
        print(f"| {build} | {statistics.median(r[0] for r in rows):,.0f} | "
              f"{statistics.median(r[1] for r in rows):.2f} ms | {statistics.median(r[2] for r in rows):.1f} µs |")


if __name__ == "__main__":
    main()
