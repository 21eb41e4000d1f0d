#!/usr/bin/env python3
"""Throughput and latency of `inbox-format serve` against the Node.js service
peer (../shared/peers/node-peer-server.js, one process per core), alternating
wrk runs between the two in one run, and prints medians and ratios.

usage: Benchmarks/serve-vs-node.py [--rounds R] [--duration S] [--connections C] [--peers DIR] [--no-build]

Both serve the 20-message page from the peers' make-corpus.py, POSTed to
/v1/rows?locale=en-US&timeZone=Europe/Paris&now=2022-01-31T12:00:00Z by wrk
(32 connections, 2 threads, --latency) on loopback. The machine has two
cores, shared by wrk and the server: both servers meet the same conditions.
inbox-format runs as deployed (access log on, standard error to a file).
"""
import argparse, os, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import servelib


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--duration", type=int, default=10, help="seconds of each wrk run")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--messages", type=int, default=20)
    parser.add_argument("--peers", default=os.path.join(servelib.ROOT, "..", "shared", "peers"))
    parser.add_argument("--no-build", action="store_true")
    arguments = parser.parse_args()
    if not arguments.no_build:
        servelib.build()
    with tempfile.TemporaryDirectory() as directory:
        page = servelib.page(arguments.peers, arguments.messages, directory)
        with open(page) as file:
            script = servelib.plain_post_script(directory, file.read())
        servers = {
            "inbox-format serve": servelib.Server(
                "inbox-format serve", servelib.serve_command(), os.path.join(directory, "serve.log")),
        }
        node_port = servelib.free_port()
        servers["node-peer-server.js"] = servelib.Server(
            "node-peer-server.js", ["node", os.path.join(arguments.peers, "node-peer-server.js"), "--port", str(node_port)],
            os.path.join(directory, "node.log"), port=node_port)
        try:
            results, medians = servelib.alternate(
                servers, script, arguments.rounds, arguments.duration, arguments.connections)
        finally:
            for server in servers.values():
                server.stop()
    ours, node = medians["inbox-format serve"], medians["node-peer-server.js"]
    print(f"\n{arguments.messages}-message page, {arguments.connections} connections, 2 wrk threads, "
          f"{arguments.rounds} alternating rounds of {arguments.duration} s (medians; min–max req/s)")
    servelib.print_medians(results, medians)
    print(f"| inbox-format ÷ node | {ours['rps'] / node['rps']:.1f}× | {node['p50'] / ours['p50']:.1f}× lower | "
          f"{node['p99'] / ours['p99']:.1f}× lower |")


if __name__ == "__main__":
    main()
