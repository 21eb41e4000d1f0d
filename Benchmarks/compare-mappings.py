#!/usr/bin/env python3
"""Times mapped payloads against the same data in the post's shape, and
against what a shell user writes today (jq reshaping, then the command),
alternating the commands round by round in one run; prints medians and ratios.
Each shape is also read by its floor, Benchmarks/mapped-floor.cpp (simdjson
On-Demand reading the fields the shape's mapping reads, nothing formatted),
so that the ratio between two shapes can be set against the floor's own.

usage: Benchmarks/compare-mappings.py [--items N] [--rounds R] [--peers DIR] [--no-build]

The corpora: Benchmarks/make-backend-corpus.py writes the same N items in the
post's shape (`post`) and in Sendbird's and Stream Chat's; the peers'
make-sendbird-corpus.py writes the Sendbird list that sendbird-glue.jq
reshapes, and the glue's output, made once, is the same data in the post's
shape; its channels without a last message (1 in 97) have no date, which
the glue turns into 1970 and the mapping leaves out (--skip-invalid). Every
run formats with now = 2022-01-31T12:00:00Z, en-US,
Europe/Paris, viewer "me". Run it on a quiet machine: medians damp noise,
they don't remove it.
"""
import argparse, os, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BINARY = os.path.join(ROOT, ".build", "release", "inbox-format")
PINNED = ["--now", "2022-01-31T12:00:00Z", "--locale", "en-US", "--time-zone", "Europe/Paris"]


def write(path, command):
    with open(path, "w") as out:
        subprocess.run(command, stdout=out, check=True)
    return path


def timed(command, shell=False):
    start = time.perf_counter()
    status = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, shell=shell).returncode
    elapsed = time.perf_counter() - start
    # 3: --skip-invalid left items out (the peer corpus's channels without a last message).
    if status not in (0, 3):
        sys.exit(f"compare-mappings.py: {command} exited {status}")
    return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--peers", default=os.path.join(ROOT, "..", "shared", "peers"))
    parser.add_argument("--no-build", action="store_true", help="use the release build as it is")
    arguments = parser.parse_args()
    if not arguments.no_build:
        subprocess.run([os.path.join(ROOT, "Scripts", "setup.sh")], check=True, stdout=subprocess.DEVNULL)
    with tempfile.TemporaryDirectory() as directory:
        def corpus(shape):
            return write(os.path.join(directory, f"{shape}.json"),
                         [sys.executable, os.path.join(HERE, "make-backend-corpus.py"), shape, str(arguments.items)])
        post, sendbird, stream = corpus("post"), corpus("sendbird"), corpus("stream-chat")
        peer = write(os.path.join(directory, "peer-sendbird.json"),
                     [sys.executable, os.path.join(arguments.peers, "make-sendbird-corpus.py"), str(arguments.items)])
        glue = os.path.join(arguments.peers, "sendbird-glue.jq")
        # The same data in the post's shape: the peer corpus reshaped once by the glue.
        peer_post = write(os.path.join(directory, "peer-post.json"), ["jq", "-c", "-f", glue, peer])
        floor = os.path.join(directory, "mapped-floor")
        subprocess.run(["g++", "-O3", "-march=native", os.path.join(HERE, "mapped-floor.cpp"), "-lsimdjson",
                        "-o", floor], check=True)
        commands = {
            "post shape": ([BINARY] + PINNED + [post], False),
            "--map sendbird": ([BINARY] + PINNED + ["--map", "sendbird", "--viewer", "me", sendbird], False),
            "--map stream-chat": ([BINARY] + PINNED + ["--map", "stream-chat", "--viewer", "me", stream], False),
            "post shape (peer corpus, reshaped once)": ([BINARY] + PINNED + [peer_post], False),
            "--map sendbird (peer corpus)": (
                [BINARY] + PINNED + ["--map", "sendbird", "--viewer", "me", "--skip-invalid", peer], False),
            "jq glue | inbox-format (peer corpus)": (
                f"jq -c -f {glue} {peer} | {BINARY} {' '.join(PINNED)}", True),
            "floor: post shape": ([floor, "post", post], False),
            "floor: sendbird": ([floor, "sendbird", sendbird], False),
            "floor: stream-chat": ([floor, "stream-chat", stream], False),
            "floor: post shape (peer corpus)": ([floor, "post", peer_post], False),
            "floor: sendbird (peer corpus)": ([floor, "sendbird", peer], False),
        }
        sizes = {name: os.path.getsize(path) for name, path in
                 [("post shape", post), ("--map sendbird", sendbird), ("--map stream-chat", stream),
                  ("post shape (peer corpus, reshaped once)", peer_post),
                  ("--map sendbird (peer corpus)", peer), ("jq glue | inbox-format (peer corpus)", peer),
                  ("floor: post shape", post), ("floor: sendbird", sendbird), ("floor: stream-chat", stream),
                  ("floor: post shape (peer corpus)", peer_post), ("floor: sendbird (peer corpus)", peer)]}
        times = {name: [] for name in commands}
        for _ in range(arguments.rounds):
            for name, (command, shell) in commands.items():
                times[name].append(timed(command, shell))
        medians = {name: statistics.median(samples) for name, samples in times.items()}
        print(f"{arguments.items} items, {arguments.rounds} alternating rounds")
        print("| run | input | median | min | max | ratio |")
        print("|---|---|---|---|---|---|")
        # Each run against the same data in the post's shape; the glue against the mapping.
        bases = {"jq glue | inbox-format (peer corpus)": "--map sendbird (peer corpus)",
                 "--map sendbird (peer corpus)": "post shape (peer corpus, reshaped once)",
                 "post shape (peer corpus, reshaped once)": "post shape (peer corpus, reshaped once)",
                 "floor: post shape (peer corpus)": "floor: post shape (peer corpus)",
                 "floor: sendbird (peer corpus)": "floor: post shape (peer corpus)"}
        bases.update({name: "floor: post shape" for name in ("floor: sendbird", "floor: stream-chat")})
        for name, samples in times.items():
            base_name = bases.get(name, "post shape")
            base, against = medians[base_name], f"÷ {base_name}"
            print(f"| {name} | {sizes[name] / 1e6:.1f} MB | {medians[name] * 1000:.0f} ms | {min(samples) * 1000:.0f} ms"
                  f" | {max(samples) * 1000:.0f} ms | {medians[name] / base:.2f}× {against} |")


if __name__ == "__main__":
    main()
