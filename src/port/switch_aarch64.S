// SPDX-License-Identifier: MIT
/*
 * The arm64 context switch (AAPCS64).
 *
 * A call preserves x19-x28, the frame pointer x29, sp, the low 64 bits of
 * v8-v15 (d8-d15) and the FPCR modes; x30 holds where to return. A switch
 * stores them in a 176-byte frame on the current stack, stores sp in
 * from->sp, loads to->sp and restores the same frame from there:
 *
 *	to->sp ->   0  x19, x20
 *		   16  x21, x22
 *		   32  x23, x24
 *		   48  x25, x26
 *		   64  x27, x28
 *		   80  x29, x30 (frame pointer, return address)
 *		   96  d8, d9
 *		  112  d10, d11
 *		  128  d12, d13
 *		  144  d14, d15
 *		  160  FPCR, padding (sp stays 16-byte aligned)
 *
 * initial_frame() in context.c builds the same frame on a fresh stack with
 * x30 = pk_port_trampoline, x19 = the entry function, x20 its argument and
 * x29 = 0. x0 (from) survives the swap and is the return value: the code
 * that resumes learns which context switched to it.
 */

#if defined(__aarch64__) && !defined(PK_PORT_UCONTEXT)

	.text

/* struct pk_context *pk_port_switch(struct pk_context *from,
 *				     struct pk_context *to) */
	.globl	pk_port_switch
	.type	pk_port_switch, %function
	.p2align 4
pk_port_switch:
	.cfi_startproc
	sub	sp, sp, #176
	.cfi_adjust_cfa_offset 176
	stp	x19, x20, [sp, #0]
	stp	x21, x22, [sp, #16]
	stp	x23, x24, [sp, #32]
	stp	x25, x26, [sp, #48]
	stp	x27, x28, [sp, #64]
	stp	x29, x30, [sp, #80]
	.cfi_rel_offset x29, 80
	.cfi_rel_offset x30, 88
	stp	d8, d9, [sp, #96]
	stp	d10, d11, [sp, #112]
	stp	d12, d13, [sp, #128]
	stp	d14, d15, [sp, #144]
	mrs	x9, fpcr
	str	x9, [sp, #160]

	/* The swap: sp cannot be a load/store operand, go through x9. */
	mov	x9, sp
	str	x9, [x0]
	ldr	x9, [x1]
	mov	sp, x9

	ldr	x9, [sp, #160]
	msr	fpcr, x9
	ldp	x19, x20, [sp, #0]
	ldp	x21, x22, [sp, #16]
	ldp	x23, x24, [sp, #32]
	ldp	x25, x26, [sp, #48]
	ldp	x27, x28, [sp, #64]
	ldp	x29, x30, [sp, #80]
	ldp	d8, d9, [sp, #96]
	ldp	d10, d11, [sp, #112]
	ldp	d12, d13, [sp, #128]
	ldp	d14, d15, [sp, #144]
	add	sp, sp, #176
	.cfi_adjust_cfa_offset -176
	.cfi_restore x29
	.cfi_restore x30
	ret				/* x0 = from: the caller's "prev" */
	.cfi_endproc
	.size	pk_port_switch, .-pk_port_switch

/*
 * A new context's first instructions, reached by pk_port_switch()'s ret
 * with sp 16-byte aligned below a zero frame record. x30 is marked
 * undefined so DWARF unwinders stop here; frame-record walkers stop at the
 * zero x29.
 */
	.globl	pk_port_trampoline
	.hidden	pk_port_trampoline
	.type	pk_port_trampoline, %function
	.p2align 4
pk_port_trampoline:
	.cfi_startproc
	.cfi_undefined x30
	mov	x1, x0			/* prev: the context switched from */
	mov	x0, x20			/* arg */
	blr	x19			/* entry(arg, prev) */
	bl	pk_port_entry_returned
	brk	#0x3e8
	.cfi_endproc
	.size	pk_port_trampoline, .-pk_port_trampoline

#endif

#if defined(__ELF__)
#if defined(__arm__)
	.section .note.GNU-stack, "", %progbits
#else
	.section .note.GNU-stack, "", @progbits
#endif
#endif
