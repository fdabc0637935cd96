#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where a latency run's vCPU threads lost their host CPU.

Reads `perf sched timehist` output (stdin) of a `perf sched record` taken
around one `preempt latency` process and prints, for that process's vCPU
threads: how often they waited runnable (preempted by the host), for how
long in total, the longest waits, and which host tasks ran on that CPU
during each longest wait (the profile behind target 8's maxima).

A wait counts only if the thread was switched out runnable (state R in
`--state`'s column): a vCPU that slept in idle waited for work, not for
the host.

Usage: perf sched timehist --state -i DATA | vcpu_waits.py PID [TOP]
"""
import collections
import re
import sys

# time [cpu] name[tid/pid] wait sch_delay run_time [state]
LINE = re.compile(r'^\s*(\d+\.\d+)\s+\[(\d+)\]\s+(.+?)\[(\d+)(?:/(\d+))?\]'
                  r'\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*(\S*)')


def parse(stream):
    """Yield (end_s, cpu, name, tid, pid, wait_ms, run_ms) per switch-out;
    wait_ms is 0 unless the thread's previous switch-out left it runnable."""
    left = {}  # tid -> state at its last switch-out
    for line in stream:
        m = LINE.match(line)
        if not m:
            continue
        end, cpu, name, tid, pid, wait, _, run, state = m.groups()
        preempted = left.get(tid) == 'R'
        left[tid] = state
        yield (float(end), int(cpu), name.strip(), int(tid),
               int(pid or tid), float(wait) if preempted else 0.0,
               float(run))


def main():
    if len(sys.argv) not in (2, 3):
        sys.stderr.write(__doc__.split('\n\n')[-1] + '\n')
        sys.exit(2)
    pid, top = int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 3
    runs = list(parse(sys.stdin))
    waits = []  # (wait_ms, start_s, resumed_s, cpu, vcpu name)
    for end, cpu, name, _, p, wait, run in runs:
        if p == pid and name.startswith('vcpu/') and wait > 0:
            resumed = end - run / 1e3
            waits.append((wait, resumed - wait / 1e3, resumed, cpu, name))
    if not waits:
        print('vCPU threads: no wait recorded for pid %d' % pid)
        return
    total = sum(w[0] for w in waits)
    over = sum(1 for w in waits if w[0] >= 1.0)
    print('vCPU threads waited runnable %d times, %.1f ms in all; %d waits '
          'of 1 ms or more' % (len(waits), total, over))
    for wait, start, resumed, cpu, name in sorted(waits)[::-1][:top]:
        ran = collections.Counter()
        for end, c, n, tid, p, _, run in runs:
            if c != cpu or end <= start or end - run / 1e3 >= resumed:
                continue
            overlap = min(end, resumed) - max(end - run / 1e3, start)
            label = n if p == pid else '%s[%d]' % (n, p)
            ran[label] += max(overlap, 0) * 1e3
        who = ', '.join('%s %.2f ms' % kv for kv in ran.most_common(4))
        print('  %s waited %.2f ms, resumed on CPU %d, which ran meanwhile: %s'
              % (name, wait, cpu, who or 'nothing recorded'))


if __name__ == '__main__':
    main()
