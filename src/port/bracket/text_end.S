/* SPDX-License-Identifier: MIT */
/* The end of libpreempt.a's .text and .text.unlikely: see text_begin.S. */
	.text
	.globl	pk_text_end
	.hidden	pk_text_end
pk_text_end:
	.section .text.unlikely,"ax",%progbits
	.globl	pk_text_cold_end
	.hidden	pk_text_cold_end
pk_text_cold_end:
	.section .note.GNU-stack,"",%progbits
