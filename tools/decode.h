/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_TOOLS_DECODE_H
#define PREEMPT_TOOLS_DECODE_H

/*
 * `preempt decode` internals, exposed so the tests can check fields and
 * predicates without parsing text.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum decode_layout {
	DECODE_LAYOUT_2020,
	DECODE_LAYOUT_PK,
	DECODE_LAYOUT_2026,
};

/* A value as typed: @wide when it cannot be a 32-bit word. */
struct decode_number {
	uint64_t value;
	bool wide;
};

enum decode_parse {
	DECODE_PARSE_OK,
	DECODE_PARSE_BAD,      /* not a number */
	DECODE_PARSE_OVERFLOW, /* more than 64 bits */
};

/*
 * Hex with or without 0x; with @dec a bare value is decimal.  A value above
 * 0xffffffff, or written with more than 8 hex digits, is @wide.
 */
enum decode_parse decode_parse_number(const char *s, bool dec,
				      struct decode_number *out);

struct decoded {
	enum decode_layout id;
	const char *layout; /* "2020", "pk", "2026" */
	unsigned int width; /* 32 or 64 */
	bool raw_x86;	    /* need-resched was stored inverted */
	uint64_t value;	    /* the word as given */
	uint64_t count;	    /* preempt_count(): need-resched masked out */
	unsigned int preempt;
	unsigned int softirq; /* the whole byte: bit 0 serving, rest bh */
	unsigned int hardirq;
	unsigned int nmi;
	int irq_disable;   /* -1 where the layout does not record it */
	uint64_t reserved; /* reserved bits that are set, in place */
	bool need_resched;
};

/* Returns 0, or -1 when a wide value meets a 32-bit layout. */
int decode_word(struct decode_number num, enum decode_layout layout,
		bool raw_x86, struct decoded *out);

enum decode_pred {
	DP_HARDIRQ_COUNT,
	DP_SOFTIRQ_COUNT,
	DP_NMI_COUNT,
	DP_IRQ_COUNT,
	DP_IN_NMI,
	DP_IN_HARDIRQ,
	DP_IN_SERVING_SOFTIRQ,
	DP_IN_SOFTIRQ,
	DP_IN_INTERRUPT,
	DP_IN_TASK,
	DP_IN_ATOMIC,
	DP_IN_ATOMIC_PREEMPT_OFF,
	DP_PREEMPTIBLE,
	DP_IRQS_DISABLED,
	DP_INTERRUPT_CONTEXT_LEVEL,
	DP_NEED_RESCHED,
	DP_NR,
};

struct decode_pred_value {
	bool known; /* false: the word does not say (irqs in 2020) */
	uint64_t value;
};

extern const char *const decode_pred_names[DP_NR];

void decode_predicates(const struct decoded *d,
		       struct decode_pred_value out[DP_NR]);

/* The context in words, e.g. "hardirq (nesting 1) that interrupted a ..." */
void decode_context(const struct decoded *d, char *buf, size_t len);

#define DECODE_MAX_NOTES 8

struct decode_notes {
	bool impossible; /* reserved bits set: exit status 1 */
	int nr;
	char text[DECODE_MAX_NOTES][128];
};

/* Oddities: impossible bits, implausible nesting. */
void decode_check(const struct decoded *d, struct decode_notes *notes);

#endif /* PREEMPT_TOOLS_DECODE_H */
