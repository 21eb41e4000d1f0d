#!/usr/bin/env python3
"""Times inbox-format against its peers on the same corpus, alternating the
commands round by round in one run, and prints medians and ratios.

usage: Benchmarks/compare-peers.py [--messages N] [--ndjson-messages N] [--rounds R] [--slow-rounds R] [--peers DIR]

The peers: node-peer.js (Node.js with cached Intl formatters), jq-peer.jq
(jq, without locale rules), the Messages post's own approach (PostApproach/,
a package of its own), and `jq -c .` for the 20-message page. The floors:
simdjson-floor.cpp (simdjson On-Demand reading every field the rows need,
whole process) for the large run, and for the page one-date.swift (a static
Swift program formatting one date with Foundation) and a static hello, beside
`inbox-format --version`. The NDJSON run reports its peak resident memory.
Every executable is timed from a copy of it, as installed (see installed()).
The corpus comes from the peers' make-corpus.py, with now =
2022-01-31T12:00:00Z, en-US, Europe/Paris. Run it on a quiet machine: medians
damp noise, they don't remove it.
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
NOW, LOCALE, ZONE = "2022-01-31T12:00:00Z", "en-US", "Europe/Paris"


def build(peers, directory):
    """Builds the command, the post's approach and the floors; returns the floors' paths."""
    subprocess.run([os.path.join(ROOT, "Scripts", "setup.sh")], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["swift", "build", "-c", "release"], cwd=os.path.join(HERE, "PostApproach"), check=True,
                   stdout=subprocess.DEVNULL)
    floors = {name: os.path.join(directory, name) for name in ("simdjson-floor", "one-date", "hello")}
    subprocess.run(["g++", "-O3", "-march=native", os.path.join(peers, "simdjson-floor.cpp"), "-lsimdjson",
                    "-o", floors["simdjson-floor"]], check=True)
    subprocess.run(["swiftc", "-O", "-static-stdlib", os.path.join(peers, "one-date.swift"), "-o", floors["one-date"]],
                   check=True, stderr=subprocess.DEVNULL)
    hello = os.path.join(directory, "hello.swift")
    with open(hello, "w") as source:
        source.write('print("hello")\n')
    subprocess.run(["swiftc", "-O", "-static-stdlib", hello, "-o", floors["hello"]], check=True)
    return floors


def installed(path, directory):
    """A copy of the executable at `path` in `directory`, written as an
    installer writes one. A freshly linked executable starts with more page
    faults than a copy of it (its pages sit in the page cache as the linker
    wrote them; Results/2026-11-27.md), so every executable timed here, ours
    and the floors alike, is a copy."""
    copy = os.path.join(directory, "installed-" + os.path.basename(path))
    shutil.copy2(path, copy)
    return copy


def corpus(peers, n, directory, ndjson=False):
    path = os.path.join(directory, f"corpus-{n}.{'ndjson' if ndjson else 'json'}")
    with open(path, "w") as out:
        subprocess.run([sys.executable, os.path.join(peers, "make-corpus.py"), str(n)] + (["--ndjson"] if ndjson else []),
                       stdout=out, check=True)
    return path


def measured(command):
    """Wall time and peak resident memory (bytes) of one run of `command`."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"compare-peers.py: {command} failed")
    return elapsed, usage.ru_maxrss * 1024


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


def memory(title, command, rounds):
    """Runs `command` `rounds` times and reports the median time and the peak resident memory."""
    runs = [measured(command) for _ in range(rounds)]
    print(f"\n{title} ({rounds} runs)")
    print("| command | median | peak resident memory: median | min | max |")
    print("|---|---|---|---|---|")
    peaks = [m / (1 << 20) for _, m in runs]
    print(f"| inbox-format | {statistics.median(t for t, _ in runs) * 1000:.0f} ms | "
          f"{statistics.median(peaks):.1f} MiB | {min(peaks):.1f} MiB | {max(peaks):.1f} MiB |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--ndjson-messages", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--slow-rounds", type=int, default=1, help="rounds for the post's approach and jq (slow)")
    parser.add_argument("--peers", default=os.path.join(ROOT, "..", "shared", "peers"))
    args = parser.parse_args()
    ours = os.path.join(ROOT, ".build", "release", "inbox-format")
    post = os.path.join(HERE, "PostApproach", ".build", "release", "PostApproach")
    options = ["--now", NOW, "--locale", LOCALE, "--time-zone", ZONE]
    with tempfile.TemporaryDirectory() as directory:
        floors = {name: installed(path, directory) for name, path in build(args.peers, directory).items()}
        ours, post = installed(ours, directory), installed(post, directory)
        big = corpus(args.peers, args.messages, directory)
        page = corpus(args.peers, 20, directory)
        compare(f"{args.messages:,} messages, end to end", {
            "inbox-format": [ours] + options + [big],
            "simdjson floor": [floors["simdjson-floor"], big],
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
            "one-date floor": [floors["one-date"]],
            "inbox-format --version": [ours, "--version"],
            "static hello": [floors["hello"]],
            "node-peer.js": ["node", os.path.join(args.peers, "node-peer.js"), page] + options,
        }, max(args.rounds, 20))
        lines = corpus(args.peers, args.ndjson_messages, directory, ndjson=True)
        memory(f"{args.ndjson_messages:,} messages of NDJSON in, NDJSON out",
               [ours] + options + ["--output", "ndjson", lines], args.rounds)


if __name__ == "__main__":
    main()
