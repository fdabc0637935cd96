// SPDX-License-Identifier: MIT
/*
 * `preempt tour`: walk the probe script on this thread's real word and show,
 * at every step, the raw word, its fields and every predicate; then walk it
 * under every model and say whether any answer changed.
 */
#include <stdio.h>
#include <string.h>

#include <preempt/preempt.h>
#include <preempt/probe.h>

#include "cli.h"

static const char *context_name(const struct pk_context *c)
{
	static const char *const level[] = {"task", "softirq", "hardirq",
					    "nmi"};

	return level[c->interrupt_context_level];
}

static void print_legend(void)
{
	printf("fields:  P preempt depth, S softirq byte (+1 serving, +2 per "
	       "bh-disable),\n"
	       "         H hardirq nesting, N NMI nesting, I irq-disable "
	       "depth (bits 24-30)\n"
	       "predicates, 1/0:  ta in_task  at in_atomic  pr preemptible  "
	       "id irqs_disabled\n"
	       "   so in_softirq  ss in_serving_softirq  ii in_interrupt  hi "
	       "in_hardirq  nm in_nmi\n\n");
	printf("  # %-40s %-8s  P  S  H N  I  ctx     ta at pr id so ss ii hi "
	       "nm\n",
	       "transition", "count");
}

static void print_step(int n, const char *what, const char *op)
{
	struct pk_context c;
	unsigned int pc;
	char label[96];

	pk_context_read(&c);
	pc = c.count;
	snprintf(label, sizeof(label), "%s", what);
	printf("%3d %-40.40s %08x %2u %02x %2u %u %2u  %-7s %2d %2d %2d %2d "
	       "%2d "
	       "%2d %2d %2d %2d\n",
	       n, label, pc, pc & PREEMPT_MASK,
	       (pc & SOFTIRQ_MASK) >> SOFTIRQ_SHIFT,
	       (pc & HARDIRQ_MASK) >> HARDIRQ_SHIFT,
	       (pc & NMI_MASK) >> NMI_SHIFT,
	       (pc & HARDIRQ_DISABLE_MASK) >> HARDIRQ_DISABLE_SHIFT,
	       context_name(&c), c.in_task, c.in_atomic, c.preemptible,
	       c.irqs_disabled, c.in_softirq, c.in_serving_softirq,
	       c.in_interrupt, c.in_hardirq, c.in_nmi);
	if (op)
		printf("    %s\n", op);
}

static int walk_and_print(void)
{
	struct pk_probe_state st = {0};

	print_step(0, "a plain thread: a preemptible task", NULL);
	for (size_t i = 0; i < pk_probe_script_len; i++) {
		if (pk_probe_apply(&st, pk_probe_script[i].op))
			return 1;
		print_step((int)i + 1, pk_probe_script[i].what,
			   pk_probe_op_str(pk_probe_script[i].op));
	}
	return 0;
}

static void show_need_resched(void)
{
	printf("\nneed-resched is bit 31, stored inverted (x86): the raw word "
	       "reads\n");
	printf("  %08x  with nothing owed\n", pk_preempt_word);
	set_preempt_need_resched();
	printf("  %08x  after set_preempt_need_resched(): preempt_count() "
	       "still %d,\n",
	       pk_preempt_word, preempt_count());
	printf("            so preempt_enable()'s decrement reaching 0 means "
	       "'depth 0 and resched owed'\n");
	clear_preempt_need_resched();
}

/* Walk under every model; true when every predicate agreed each time. */
static bool models_agree(void)
{
	struct pk_context first[64], seen;
	enum preempt_model saved = preempt_model();
	bool same = true;

	for (int m = 0; m < PREEMPT_MODEL_NR; m++) {
		struct pk_probe_state st = {0};

		preempt_model_set((enum preempt_model)m);
		for (size_t i = 0; i < pk_probe_script_len && i < 64; i++) {
			pk_probe_apply(&st, pk_probe_script[i].op);
			pk_context_read(m ? &seen : &first[i]);
			if (m && memcmp(&seen, &first[i], sizeof(seen)))
				same = false;
		}
	}
	preempt_model_set(saved);
	return same;
}

int cmd_tour(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("usage: preempt tour [--model=none|voluntary|"
			       "full|lazy|rt]\n");
			return 0;
		}
		if (!strncmp(argv[i], "--model=", 8)) {
			int m = preempt_model_parse(argv[i] + 8);

			if (m < 0)
				return cli_usage_error("tour",
						       "unknown model '%s'",
						       argv[i] + 8);
			preempt_model_set((enum preempt_model)m);
			continue;
		}
		return cli_usage_error("tour", "unknown option '%s'", argv[i]);
	}
	printf("libpreempt tour: this thread's context word, step by step "
	       "(model: %s)\n\n",
	       preempt_model_str(preempt_model()));
	print_legend();
	if (walk_and_print())
		return 1;
	show_need_resched();
	printf("\nthe same walk under none, voluntary, full, lazy and rt: %s\n",
	       models_agree() ? "every predicate identical in every model"
			      : "PREDICATES DIFFER (bug)");
	return preempt_count() == 0 ? 0 : 1;
}
