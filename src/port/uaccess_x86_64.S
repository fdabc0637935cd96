// SPDX-License-Identifier: MIT
/*
 * The x86-64 user copy: one rep movsb.  A fault leaves rcx holding the
 * bytes not yet copied (the instruction is restartable, its registers
 * exact at every byte), so the fixup only returns rcx.
 *
 * unsigned long pk_port_user_copy(void *dst, const void *src,
 *				   unsigned long n);
 */

#if defined(__x86_64__)

	.text
	.globl	pk_port_user_copy
	.hidden	pk_port_user_copy
	.type	pk_port_user_copy, @function
pk_port_user_copy:
	.cfi_startproc
	movq	%rdx, %rcx
.Lcopy:
	rep movsb
.Lfixup:
	movq	%rcx, %rax
	ret
	.cfi_endproc
	.size	pk_port_user_copy, .-pk_port_user_copy

/* The exception table: faulting instruction, where to resume. */
	.section .data.rel.ro,"aw"
	.balign	8
	.globl	pk_port_extable
	.hidden	pk_port_extable
	.type	pk_port_extable, @object
pk_port_extable:
	.quad	.Lcopy, .Lfixup
	.quad	0, 0
	.size	pk_port_extable, .-pk_port_extable

#endif

	.section .note.GNU-stack,"",@progbits
