// SPDX-License-Identifier: MIT
/*
 * The deterministic simulation's machine side (docs/sim.md): the decision
 * point, and the table the port's baton, clock and timers call back into.
 *
 * A point is where the seed may change what happens next: the virtual
 * clock moves on and due timers fire (the port), the machine may go to
 * another vCPU (the port's strategy), an interrupt pending here is taken
 * if interrupts are on (the irq layer, when this vCPU gets the machine),
 * and the running task may be preempted where the model allows it (here).
 */
#include <stdio.h>
#include <string.h>

#include <preempt/preempt.h>
#include <preempt/sched.h>
#include <preempt/sim.h>

#include "sched_internal.h"

/*
 * Preemption where the current model has a preemption point: everywhere
 * preemptible under full, lazy and rt (an interrupt's return could have
 * preempted there); only at cond_resched() under none and voluntary.
 */
static bool model_preempts_at(int kind)
{
	return preempt_model_preemptible() || kind == PK_SIM_COND_RESCHED;
}

static void maybe_preempt(int kind)
{
	struct rq *rq = pk_this_rq;

	if (!rq || current == rq->idle || !preemptible() ||
	    !model_preempts_at(kind) ||
	    !__atomic_load_n(&rq->nr_queued, __ATOMIC_ACQUIRE))
		return;
	if (!pk_sim_choose_preempt())
		return;
	pk_sim_event(PK_SIM_EV_PREEMPT, rq->cpu, current->comm);
	set_preempt_need_resched();
	/* none/voluntary: the cond_resched() this point sits in switches. */
	if (preempt_model_preemptible())
		preempt_schedule();
}

void pk_sim_point(int kind)
{
	if (!pk_sim_active() || pk_sim_self() < 0)
		return;
	pk_sim_port_point(kind);
	maybe_preempt(kind);
}

static void sim_resume(void)
{
	pk_irq_sim_take();
}

static const char *state_str(unsigned int state)
{
	if (state == TASK_RUNNING)
		return "R";
	if (state & TASK_DEAD)
		return "X";
	return state & TASK_UNINTERRUPTIBLE ? "D" : "S";
}

static void sim_describe(int id, char *buf, unsigned long len)
{
	struct rq *rq = id > 0 ? pk_cpu_rq(id - 1) : NULL;
	struct task_struct *curr;

	if (!id) {
		snprintf(buf, len, "host thread waiting, stack below");
		return;
	}
	if (!rq) {
		snprintf(buf, len, "?");
		return;
	}
	curr = __atomic_load_n(&rq->curr, __ATOMIC_ACQUIRE);
	snprintf(buf, len, "%s, %u queued",
		 curr == rq->idle ? "idle" : curr->comm, rq->nr_queued);
}

static void print_blocked(struct task_struct *p)
{
	unsigned int state = __atomic_load_n(&p->__state, __ATOMIC_ACQUIRE);

	if (state == TASK_RUNNING || (state & (TASK_DEAD | TASK_NEW)))
		return;
	fprintf(stderr, "task:%-15s state:%s pid:%-5d cpu:%d\n", p->comm,
		state_str(state), p->pid, p->cpu);
}

static void sim_dump(void)
{
	fprintf(stderr, "Tasks blocked:\n");
	pk_for_each_task(print_blocked);
	fflush(stderr);
}

const struct pk_sim_ops pk_sim_sched_ops = {
	.timer_fire = pk_irq_sim_timer_fire,
	.resume = sim_resume,
	.describe = sim_describe,
	.dump = sim_dump,
};
