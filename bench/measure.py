#!/usr/bin/env python3
"""Runs one command and measures it: wall time, user and sys CPU, peak RSS, and peak private memory.

Usage: bench/measure.py [--timeout S] [--stdout FILE] [--stderr FILE] -- CMD...
Prints one line: "wall_s user_s sys_s maxrss_kib peak_rssanon_kib" and exits with the command's status.

Peak RSS is the kernel's (GNU time's %M, VmHWM). The command runs under /usr/bin/time, not as a child of
Python: a forked child's peak RSS counts its parent's pages from before exec, about 2 MiB under time(1) and
14 MiB under Python. Private memory is RssAnon from /proc/PID/status, which the kernel keeps no peak of: a
thread samples it every 50 ms while the command runs (every 10 ms in its first half second, so short commands
get samples too); a spike between samples can be missed. The command gets SIGINT at the timeout (it may save its
state), then SIGKILL 10 s later; the line is still printed, and the status is 124 as with timeout(1).
"""
import argparse, os, signal, subprocess, sys, tempfile, threading, time

parser = argparse.ArgumentParser()
parser.add_argument("--timeout", type=float, default=900)
parser.add_argument("--stdout", default=os.devnull)
parser.add_argument("--stderr", default=os.devnull)
parser.add_argument("command", nargs=argparse.REMAINDER)
args = parser.parse_args()
command = args.command[1:] if args.command[:1] == ["--"] else args.command
if not command:
    parser.error("no command")


def rss_anon_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def command_pid(timed):
    """The pid of the command time(1) runs, once it has forked it (at most 5 s); None if time ended first."""
    for _ in range(5000):
        try:
            with open(f"/proc/{timed.pid}/task/{timed.pid}/children") as children:
                pids = children.read().split()
            if pids:
                return int(pids[0])
        except OSError:
            return None
        if timed.poll() is not None:
            return None
        time.sleep(0.001)
    return None


with open(args.stdout, "wb") as out, open(args.stderr, "wb") as err, tempfile.NamedTemporaryFile("r") as usage:
    start = time.monotonic()
    timed = subprocess.Popen(["/usr/bin/time", "-f", "%U %S %M", "-o", usage.name, *command],
                             stdin=subprocess.DEVNULL, stdout=out, stderr=err)
    pid = command_pid(timed)
    peak_anon = 0
    exited = threading.Event()

    def sample():
        global peak_anon
        while pid is not None:
            peak_anon = max(peak_anon, rss_anon_kib(pid))
            if exited.wait(0.01 if time.monotonic() - start < 0.5 else 0.05):
                return

    interrupted = threading.Event()

    def signal_command(number):
        if number == signal.SIGINT:
            interrupted.set()
        if pid is not None:
            os.kill(pid, number)

    sampler = threading.Thread(target=sample)
    sampler.start()
    timers = [threading.Timer(max(0, args.timeout - (time.monotonic() - start)), signal_command, [signal.SIGINT]),
              threading.Timer(max(0, args.timeout + 10 - (time.monotonic() - start)), signal_command, [signal.SIGKILL])]
    for timer in timers:
        timer.start()
    # The command is time's child, so it stays unreaped until time has waited for it: the sampler never reads a
    # recycled pid. time exits right after the command.
    status = timed.wait()
    wall = time.monotonic() - start
    for timer in timers:
        timer.cancel()
    exited.set()
    sampler.join()
    fields = usage.read().split()[-3:]   # time prefixes "Command exited with non-zero status N" lines

user, system, max_rss = fields if len(fields) == 3 else ("nan", "nan", "0")
print(f"{wall:.3f} {user} {system} {max_rss} {peak_anon}")
sys.exit(124 if interrupted.is_set() else status)
