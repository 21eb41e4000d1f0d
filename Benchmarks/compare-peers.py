#!/usr/bin/env python3
"""Times inbox-format against its peers on the same corpus, alternating the
commands round by round in one run, and prints medians and ratios.

usage: Benchmarks/compare-peers.py [--messages N] [--rounds R] [--slow-rounds R] [--peers DIR]

The peers: node-peer.js (Node.js with cached Intl formatters), jq-peer.jq
(jq, without locale rules), the Messages post's own approach (PostApproach/,
a package of its own), and `jq -c .` for the 20-message page. The corpus
comes from the peers' make-corpus.py, with now = 2022-01-31T12:00:00Z, en-US,
Europe/Paris. Run it on a quiet machine: medians damp noise, they don't remove it.
"""
import argparse, os, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
NOW, LOCALE, ZONE = "2022-01-31T12:00:00Z", "en-US", "Europe/Paris"


def build():
    subprocess.run([os.path.join(ROOT, "Scripts", "setup.sh")], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["swift", "build", "-c", "release"], cwd=os.path.join(HERE, "PostApproach"), check=True,
                   stdout=subprocess.DEVNULL)


def corpus(peers, n, directory):
    path = os.path.join(directory, f"corpus-{n}.json")
    with open(path, "w") as out:
        subprocess.run([sys.executable, os.path.join(peers, "make-corpus.py"), str(n)], stdout=out, check=True)
    return path


def timed(command):
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def compare(title, commands, rounds, ours_per_round=1):
    """Runs every command once per round, in turn (inbox-format
    `ours_per_round` times before each other command, so that a few slow
    rounds still give it enough samples), and reports the medians."""
    times = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            if name != "inbox-format":
                for _ in range(ours_per_round):
                    times["inbox-format"].append(timed(commands["inbox-format"]))
                times[name].append(timed(command))
    ours = statistics.median(times["inbox-format"])
    print(f"\n{title} ({rounds} alternating rounds; inbox-format {len(times['inbox-format'])} runs)")
    print(f"| command | median | min | max | median ÷ inbox-format |")
    print(f"|---|---|---|---|---|")
    for name, samples in times.items():
        median = statistics.median(samples)
        print(f"| {name} | {median * 1000:.1f} ms | {min(samples) * 1000:.1f} ms | {max(samples) * 1000:.1f} ms | "
              f"{median / ours:.1f}× |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--slow-rounds", type=int, default=1, help="rounds for the post's approach and jq (slow)")
    parser.add_argument("--peers", default=os.path.join(ROOT, "..", "shared", "peers"))
    args = parser.parse_args()
    build()
    ours = os.path.join(ROOT, ".build", "release", "inbox-format")
    post = os.path.join(HERE, "PostApproach", ".build", "release", "PostApproach")
    options = ["--now", NOW, "--locale", LOCALE, "--time-zone", ZONE]
    with tempfile.TemporaryDirectory() as directory:
        big = corpus(args.peers, args.messages, directory)
        page = corpus(args.peers, 20, directory)
        compare(f"{args.messages:,} messages, end to end", {
            "inbox-format": [ours] + options + [big],
            "node-peer.js": ["node", os.path.join(args.peers, "node-peer.js"), big] + options,
        }, args.rounds)
        compare(f"{args.messages:,} messages, the slow peers", {
            "inbox-format": [ours] + options + [big],
            "jq-peer.jq": ["jq", "-c", "-f", os.path.join(args.peers, "jq-peer.jq"), big],
            "post's approach": [post, big] + options,
        }, args.slow_rounds, ours_per_round=5)
        compare("a 20-message page, end to end", {
            "inbox-format": [ours] + options + [page],
            "jq -c .": ["jq", "-c", ".", page],
            "node-peer.js": ["node", os.path.join(args.peers, "node-peer.js"), page] + options,
        }, max(args.rounds, 20))


if __name__ == "__main__":
    main()
