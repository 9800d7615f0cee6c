#!/usr/bin/env python3
"""Loads a Runqueue ftrace export with TRAPpy (ARM's ftrace text parser) and checks that it read
every scheduler line the kernel's own trace implies: one sched_switch per `in` and per `out`,
in time order, a sched_waking and a sched_wakeup per `wake`, one sched_migrate_task per
`migrate`, one sched_process_exit per exit. A malformed line is a line TRAPpy does not read,
so the counts differ and this exits 1.

usage: ftrace-check.py FTRACE_TEXT RAW_TRACE_LINES
"""
import sys
import warnings

import trappy

# The fields Linux 6.x's include/trace/events/sched.h prints for each event.
TASK = ["comm", "pid", "prio"]
FIELDS = {
    "sched_switch": ["prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid", "next_prio"],
    "sched_waking": TASK + ["target_cpu"],
    "sched_wakeup": TASK + ["target_cpu"],
    "sched_wakeup_new": TASK + ["target_cpu"],
    "sched_migrate_task": TASK + ["orig_cpu", "dest_cpu"],
    "sched_process_exit": TASK,
}
EVENTS = ["sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new", "sched_migrate_task", "sched_process_exit"]


def expected(raw_path):
    """What the raw trace (docs/trace.md) says the export must hold."""
    rows = [line.split() for line in open(raw_path) if line.strip()]
    rows.sort(key=lambda r: int(r[1]))  # stable: same-time events keep the trace's order
    kinds = [r[3] for r in rows]
    exits = sum(1 for r in rows if r[3] == "out" and "why=exit" in r[5:])
    switches_in = [int(r[4]) for r in rows if r[3] == "in"]
    switches_out = [int(r[4]) for r in rows if r[3] == "out"]
    return {
        "sched_switch": kinds.count("in") + kinds.count("out"),
        "sched_waking": kinds.count("wake"),
        "sched_wakeup": kinds.count("wake"),
        "sched_wakeup_new": kinds.count("new"),
        "sched_migrate_task": kinds.count("migrate"),
        "sched_process_exit": exits,
    }, switches_in, switches_out


def main(ftrace_path, raw_path):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "a .dat file is preferred": we have text by design
            trace = trappy.FTrace(ftrace_path, events=EVENTS, normalize_time=False)
    except Exception as e:  # TRAPpy refuses a line it cannot split into key=value fields
        print(f"ftrace-check: TRAPpy cannot read {ftrace_path}: {e}", file=sys.stderr)
        return 1
    want, ins, outs = expected(raw_path)
    problems = []
    for name in EVENTS:
        got = len(getattr(trace, name).data_frame)
        if got != want[name]:
            problems.append(f"{name}: parsed {got} lines, the trace implies {want[name]}")
    # Every field of every line read as Linux defines it: a field TRAPpy could not split off
    # (no `=`) is missing from its row.
    for name, fields in FIELDS.items():
        frame = getattr(trace, name).data_frame
        for field in fields:
            if len(frame) and (field not in frame or frame[field].isnull().any()):
                problems.append(f"{name}: some lines lack {field}=")
    switches = trace.sched_switch.data_frame
    if len(switches) and not problems:
        if [int(p) for p in switches["next_pid"] if int(p) != 0] != ins:
            problems.append("sched_switch next_pid order differs from the trace's switch-ins")
        if [int(p) for p in switches["prev_pid"] if int(p) != 0] != outs:
            problems.append("sched_switch prev_pid order differs from the trace's switch-outs")
    for p in problems:
        print(f"ftrace-check: {p}", file=sys.stderr)
    if not problems:
        print(f"ftrace-check: TRAPpy read {sum(want.values())} scheduler lines as the trace implies")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
