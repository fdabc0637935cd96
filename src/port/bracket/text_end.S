/* SPDX-License-Identifier: MIT */
/* The end of libpreempt.a's .text: see text_begin.S. */
	.text
	.globl	pk_text_end
	.hidden	pk_text_end
pk_text_end:
	.section .note.GNU-stack,"",%progbits
