// SPDX-License-Identifier: MIT
/*
 * The arm64 user copy: a byte loop that counts down x2 only after a byte
 * is stored, so at a fault on the load or the store x2 is exactly the
 * bytes not copied, and the fixup returns it.
 *
 * unsigned long pk_port_user_copy(void *dst, const void *src,
 *				   unsigned long n);
 */

#if defined(__aarch64__)

	.text
	.globl	pk_port_user_copy
	.hidden	pk_port_user_copy
	.type	pk_port_user_copy, %function
	.p2align 2
pk_port_user_copy:
	.cfi_startproc
	cbz	x2, .Lfixup
.Lload:
	ldrb	w3, [x1]
.Lstore:
	strb	w3, [x0]
	add	x0, x0, #1
	add	x1, x1, #1
	subs	x2, x2, #1
	b.ne	.Lload
.Lfixup:
	mov	x0, x2
	ret
	.cfi_endproc
	.size	pk_port_user_copy, .-pk_port_user_copy

/* The exception table: faulting instruction, where to resume. */
	.section .data.rel.ro,"aw"
	.balign	8
	.globl	pk_port_extable
	.hidden	pk_port_extable
	.type	pk_port_extable, %object
pk_port_extable:
	.quad	.Lload, .Lfixup
	.quad	.Lstore, .Lfixup
	.quad	0, 0
	.size	pk_port_extable, .-pk_port_extable

#endif

	.section .note.GNU-stack,"",%progbits
