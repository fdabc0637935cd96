#!/usr/bin/env python3
"""Run a long command (make bench, make torture) with a one-line status.

On a terminal, the command's output goes by as it is and the last line of
the screen shows the run's place: LABEL, the parts seen (a part starts at
each output line that matches --part, named by its first group), how many
lines matched --count out of --total, and the time elapsed, redrawn twice
a second.  When standard output is not a terminal the command is run as
it is, its output untouched: no status at all.  The exit status is the
command's.

Usage: progress.py [--label L] [--part REGEX] [--count REGEX]
                   [--total N] -- COMMAND [ARG...]
"""
import argparse
import os
import re
import select
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("\n\n")[-1].strip())
    ap.add_argument("--label", default="")
    ap.add_argument("--part")
    ap.add_argument("--count")
    ap.add_argument("--total", type=int)
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd:
        ap.error("no command")
    if not sys.stdout.isatty():
        os.execvp(cmd[0], cmd)

    part_re = re.compile(a.part) if a.part else None
    count_re = re.compile(a.count) if a.count else None
    parts, part, counted = 0, "", 0
    out = sys.stdout.buffer
    start = time.monotonic()

    def status():
        s = int(time.monotonic() - start)
        fields = [a.label] if a.label else []
        if part_re:
            fields.append(f"part {parts}" + (f" ({part})" if part else ""))
        if count_re:
            fields.append(f"{counted}" + (f"/{a.total}" if a.total else "")
                          + " done")
        fields.append(f"{s // 60}:{s % 60:02d} elapsed")
        out.write(b"\r" + ", ".join(fields).encode() + b"\033[K")
        out.flush()

    child = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
    fd = child.stdout.fileno()
    pending = b""
    status()
    while True:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                out.write(b"\r\033[K" + line + b"\n")
                text = line.decode(errors="replace")
                m = part_re.search(text) if part_re else None
                if m:
                    parts += 1
                    part = m.group(1) if m.groups() else text
                if count_re and count_re.search(text):
                    counted += 1
        status()
    out.write(b"\r\033[K" + pending)
    out.flush()
    sys.exit(child.wait())


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        # The command had the interrupt too (same process group).
        sys.stdout.write("\r\033[K")
        sys.exit(130)
