/* SPDX-License-Identifier: MIT */
/*
 * The first word of libpreempt.a's .text: linked before every other object
 * of the library (and text_end.S after them), so a program that links the
 * library statically can still tell the library's code from its own
 * (src/sched/safepoint.c).
 */
	.text
	.globl	pk_text_begin
	.hidden	pk_text_begin
pk_text_begin:
	.section .note.GNU-stack,"",%progbits
