#!/usr/bin/env python3
"""The service's instructions a request, counted by callgrind: a measure of
a build that the machine's other load does not move.

usage: Benchmarks/serve-instructions.py [BUILD ...] [--requests N] [--warm-up N] [--runs R] [--keep DIRECTORY]

Each BUILD is a copy of `.build/release/inbox-format-server` (default: that
file). A copy without its debug information (`strip -g`, which valgrind
needs for these binaries; the symbols stay) runs `serve` under
`valgrind --tool=callgrind --instr-atstart=no`, as `inbox-format serve`
starts it (servelib.serve_command()'s settings). One keep-alive connection
POSTs the serve-vs-node page (`--warm-up` times uncounted, then
`--requests` times counted), every answer checked to be a 200 with the same
body; then the count is dumped and the server stopped. Printed: the
instructions of the whole process (every thread: the event loops, the task
pool, the log writer) divided by the requests counted.

Requests a second and CPU time move with whatever else the machine runs;
this count does not (two runs of one build agree to within about 1%).
It leaves out the kernel's work (the sockets' system calls), which is the
same for builds that make the same calls, and the cost of an instruction,
which is not the same for every instruction: compare builds with it, and
confirm a change with `serve-ab.py`.

`--keep DIRECTORY` (a new directory) keeps each count's callgrind dump,
as DIRECTORY/run-R-build-B/callgrind.out.PID.1, for
`callgrind_annotate --inclusive=yes` or `--tree=caller`: where the
instructions go, function by function.
"""
import argparse, glob, http.client, os, re, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import servelib  # noqa: E402

def post(connection, body, times=1, expected=None):
    """POSTs the page `times` times; each answer must be a 200, with the
    body `expected` when given. Returns the last answer's body (None for none)."""
    data = None
    for _ in range(times):
        connection.request("POST", servelib.ROWS_PATH, body=body, headers={"Content-Type": "application/json"})
        answer = connection.getresponse()
        data = answer.read()
        if answer.status != 200:
            raise SystemExit(f"serve-instructions.py: {answer.status} for the page: {data[:300]!r}")
        if expected is not None and data != expected:
            raise SystemExit("serve-instructions.py: the answers differ")
    return data


def callgrind_control(pid, *arguments):
    subprocess.run(["callgrind_control", *arguments, str(pid)], check=True, capture_output=True)


def count(build, directory, body, warm_up, requests):
    binary = os.path.join(directory, "inbox-format-server")
    shutil.copy2(build, binary)
    subprocess.run(["strip", "-g", binary], check=True)
    for old in glob.glob(os.path.join(directory, "callgrind.out.*")):
        os.remove(old)
    log_path = os.path.join(directory, "server.log")
    command = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
               f"--callgrind-out-file={directory}/callgrind.out.%p", binary, *servelib.serve_command()[1:]]
    server = servelib.Server(build, command, log_path, ready_timeout=180)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        first = post(connection, body)
        post(connection, body, times=warm_up, expected=first)
        callgrind_control(server.process.pid, "--instr=on")
        post(connection, body, times=requests, expected=first)
        callgrind_control(server.process.pid, "--dump")
        connection.close()
        # Read before the server stops: its dump at exit would add the shutdown.
        dumps = glob.glob(os.path.join(directory, f"callgrind.out.{server.process.pid}.*"))
        total = 0
        for dump in dumps:
            with open(dump) as text:
                found = re.search(r"^(?:summary|totals): (\d+)", text.read(), re.MULTILINE)
            total += int(found.group(1)) if found else 0
        if not dumps or total == 0:
            raise SystemExit(f"serve-instructions.py: callgrind wrote no count in {directory}")
        return total / requests
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("builds", nargs="*")
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--warm-up", type=int, default=50)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--keep", metavar="DIRECTORY")
    args = parser.parse_args()
    if args.requests < 1 or args.warm_up < 0 or args.runs < 1:
        raise SystemExit("serve-instructions.py: --requests and --runs take 1 or more, --warm-up 0 or more")
    builds = args.builds or [servelib.SERVER_BINARY]
    for tool in ("valgrind", "callgrind_control", "strip"):
        if shutil.which(tool) is None:
            raise SystemExit(f"serve-instructions.py: {tool} is needed (apt-get install valgrind binutils)")
    for build in builds:
        if not os.path.isfile(build):
            raise SystemExit(f"serve-instructions.py: no file {build!r}")
    if args.keep is not None and os.path.lexists(args.keep):
        raise SystemExit(f"serve-instructions.py: {args.keep!r} exists; --keep takes a new directory")
    body = open(servelib.PAGE, "rb").read()
    directory = tempfile.mkdtemp(prefix="serve-instructions-")
    print("| build | run | instructions a request |\n|---|---|---|")
    for run in range(args.runs):
        for index, build in enumerate(builds):
            per_request = count(build, directory, body, args.warm_up, args.requests)
            print(f"| {build} | {run + 1} | {per_request:,.0f} |", flush=True)
            if args.keep is not None:
                kept = os.path.join(args.keep, f"run-{run + 1}-build-{index + 1}")
                os.makedirs(kept)
                for dump in glob.glob(os.path.join(directory, "callgrind.out.*.*")):
                    shutil.move(dump, kept)
    if args.keep is not None:
        print(f"callgrind dumps kept in {args.keep}")
    shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
