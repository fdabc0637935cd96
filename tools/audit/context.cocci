// SPDX-License-Identifier: MIT
// `preempt audit`: every use of a context predicate, classified.  Rules run
// in order for each file; the first rule that explains a call site reports
// it, and later rules skip it.  Output, one line per use, tab-separated:
//   AUDIT kind file line column predicate function detail
// kinds: assertion, gfp-choice, sleep-choice, decision, passed-on.

@initialize:python@
@@
import re

seen = set()

SLEEPING = {
    "msleep", "msleep_interruptible", "ssleep", "usleep_range", "fsleep",
    "usleep_range_state", "schedule", "schedule_timeout",
    "schedule_timeout_interruptible", "schedule_timeout_uninterruptible",
    "schedule_timeout_killable", "cond_resched", "might_sleep",
    "mutex_lock", "mutex_lock_interruptible", "mutex_lock_killable",
    "down", "down_interruptible", "down_killable", "down_timeout",
    "down_read", "down_write", "wait_event", "wait_event_interruptible",
    "wait_event_timeout", "wait_event_interruptible_timeout",
    "wait_for_completion", "wait_for_completion_timeout",
    "wait_for_completion_interruptible",
    "wait_for_completion_interruptible_timeout", "synchronize_rcu",
    "synchronize_net", "synchronize_irq", "flush_work", "flush_workqueue",
    "flush_scheduled_work", "cancel_work_sync", "cancel_delayed_work_sync",
    "vmalloc", "vzalloc", "vfree", "copy_from_user", "copy_to_user",
    "request_firmware", "kthread_stop", "msleep_interruptible",
    "usb_control_msg", "usb_bulk_msg",
}

ATOMIC = {
    "mdelay", "udelay", "ndelay", "spin_lock", "spin_lock_irqsave",
    "spin_lock_bh", "spin_lock_irq", "raw_spin_lock", "mutex_trylock",
    "down_trylock", "schedule_work", "queue_work", "tasklet_schedule",
    "tasklet_hi_schedule", "schedule_delayed_work", "queue_delayed_work",
    "irq_work_queue", "call_rcu", "kfree_rcu", "dev_kfree_skb_any",
    "dev_kfree_skb_irq", "netif_rx", "cpu_relax", "readl_poll_timeout_atomic",
    "usb_submit_urb",
}

def tokens(*parts):
    return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", " ".join(parts)))

def out(kind, p, pred, detail=""):
    for q in p:
        key = (q.file, q.line, q.column)
        if key in seen:
            continue
        seen.add(key)
        print("AUDIT\t%s\t%s\t%s\t%s\t%s\t%s\t%s" % (kind, q.file, q.line,
              int(q.column) + 1, pred, q.current_element, detail))

def branch_kind(*parts):
    t = tokens(*parts)
    gfp = sorted(x for x in t if x.startswith("GFP_"))
    if gfp:
        return "gfp-choice", " ".join(gfp)
    sl = sorted(t & SLEEPING)
    at = sorted(t & ATOMIC)
    if sl or at:
        return "sleep-choice", " ".join(sl + at)
    return "decision", ""

// WARN_ON(in_interrupt()) and the like: asserting, not deciding.
@assertion@
identifier pred = {in_interrupt, in_atomic, in_softirq, in_irq, in_hardirq,
                   in_serving_softirq, preemptible, irqs_disabled, in_task};
// WARN_ON(), BUG_ON() and their kin, and drivers' own assertion macros
// (b43legacy's B43legacy_WARN_ON(), zd1211rw's ZD_ASSERT()).
identifier w =~ "WARN|BUG_ON|ASSERT";
position p;
@@
 w(..., <+... pred@p() ...+>, ...)

@script:python depends on assertion@
p << assertion.p;
pred << assertion.pred;
w << assertion.w;
@@
out("assertion", p, pred, w)

// x = pred() ? A : B, as a value or an argument.
@choice@
identifier pred = {in_interrupt, in_atomic, in_softirq, in_irq, in_hardirq,
                   in_serving_softirq, preemptible, irqs_disabled, in_task};
position p;
expression E1, E2;
@@
 (<+... pred@p() ...+>) ? E1 : E2

@script:python depends on choice@
p << choice.p;
pred << choice.pred;
E1 << choice.E1;
E2 << choice.E2;
@@
kind, detail = branch_kind(E1, E2)
out(kind, p, pred, detail)

// if (pred()) A else B: what do the branches do?
@branch@
identifier pred = {in_interrupt, in_atomic, in_softirq, in_irq, in_hardirq,
                   in_serving_softirq, preemptible, irqs_disabled, in_task};
position p;
statement S1, S2;
@@
(
 if (<+... pred@p() ...+>) S1 else S2
|
 if (<+... pred@p() ...+>) S1
)

@script:python depends on branch@
p << branch.p;
pred << branch.pred;
S1 << branch.S1;
S2 << branch.S2 = "";
@@
kind, detail = branch_kind(S1, S2)
out(kind, p, pred, detail)

// while (!pred()) and friends decide too.
@loop@
identifier pred = {in_interrupt, in_atomic, in_softirq, in_irq, in_hardirq,
                   in_serving_softirq, preemptible, irqs_disabled, in_task};
position p;
statement S;
@@
(
 while (<+... pred@p() ...+>) S
|
 for (...; <+... pred@p() ...+>; ...) S
)

@script:python depends on loop@
p << loop.p;
pred << loop.pred;
@@
out("decision", p, pred, "loop")

// Anything else: the answer is returned, stored or passed on.
@other@
identifier pred = {in_interrupt, in_atomic, in_softirq, in_irq, in_hardirq,
                   in_serving_softirq, preemptible, irqs_disabled, in_task};
position p;
@@
 pred@p()

@script:python depends on other@
p << other.p;
pred << other.pred;
@@
out("passed-on", p, pred)
