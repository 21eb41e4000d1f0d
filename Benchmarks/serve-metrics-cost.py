#!/usr/bin/env python3
"""What `GET /metrics` costs `inbox-format serve`: the same server with
metrics on (the default) and with --no-metrics, alternating wrk runs in one
run, and the medians and their ratio.

usage: Benchmarks/serve-metrics-cost.py [--rounds R] [--duration S] [--connections C] [--peers DIR] [--no-build]

Both serve the 20-message page of the peers' make-corpus.py, POSTed as in
serve-vs-node.py, with the access log on and standard error to a file, as
deployed. Nobody scrapes /metrics meanwhile: the cost measured is the
counting each request does.
"""
import argparse
import os
import tempfile

import servelib


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--duration", type=int, default=10, help="seconds of each wrk run")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--peers", default=os.path.join(servelib.ROOT, "..", "shared", "peers"))
    parser.add_argument("--no-build", action="store_true")
    arguments = parser.parse_args()
    if not arguments.no_build:
        servelib.build()
    with tempfile.TemporaryDirectory() as directory:
        page = servelib.page(arguments.peers, 20, directory)
        with open(page) as file:
            script = servelib.plain_post_script(directory, file.read())
        servers = {
            "metrics on": servelib.Server(
                "metrics on", servelib.serve_command(), os.path.join(directory, "on.log")),
            "--no-metrics": servelib.Server(
                "--no-metrics", servelib.serve_command(extra=["--no-metrics"]), os.path.join(directory, "off.log")),
        }
        try:
            results, medians = servelib.alternate(
                servers, script, arguments.rounds, arguments.duration, arguments.connections)
        finally:
            for server in servers.values():
                server.stop()
    on, off = medians["metrics on"], medians["--no-metrics"]
    print(f"\n20-message page, {arguments.connections} connections, {arguments.rounds} alternating rounds of "
          f"{arguments.duration} s (medians; min–max req/s)")
    servelib.print_medians(results, medians)
    print(f"\nmetrics cost: {100 * (1 - on['rps'] / off['rps']):.1f}% of req/s (goal: at most 3%)")


if __name__ == "__main__":
    main()
