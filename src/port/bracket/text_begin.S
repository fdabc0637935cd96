/* SPDX-License-Identifier: MIT */
/*
 * The first word of libpreempt.a's .text: linked before every other object
 * of the library (and text_end.S after them), so a program that links the
 * library statically can still tell the library's code from its own
 * (src/sched/safepoint.c).  The same for .text.unlikely, where the
 * compiler puts cold functions and the cold parts of others: the
 * blocking-call detector must know all of the library's callers
 * (src/debug/blocking.c).
 */
	.text
	.globl	pk_text_begin
	.hidden	pk_text_begin
pk_text_begin:
	.section .text.unlikely,"ax",%progbits
	.globl	pk_text_cold_begin
	.hidden	pk_text_cold_begin
pk_text_cold_begin:
	.section .note.GNU-stack,"",%progbits
