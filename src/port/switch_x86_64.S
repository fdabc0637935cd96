// SPDX-License-Identifier: MIT
/*
 * The x86-64 context switch (System V ABI).
 *
 * A call preserves rbx, rbp, r12-r15, rsp, the x87 control word and the
 * control bits of MXCSR; the caller of pk_port_switch() has already saved
 * everything else it needs. So a switch pushes those on the current stack,
 * stores rsp in from->sp, loads to->sp and pops the same frame from there:
 *
 *		  -8  MXCSR (4 bytes), x87 control word (2), padding (2)
 *	to->sp ->  0  r15
 *		   8  r14
 *		  16  r13
 *		  24  r12
 *		  32  rbx
 *		  40  rbp
 *		  48  return address
 *
 * The control words sit in the red zone below the saved rsp, with no
 * adjustment of rsp for them: nothing writes below a suspended context's
 * rsp (a signal is delivered on the running stack, and the kernel skips
 * the running stack's 128-byte red zone itself), and the resumed context
 * reads them back before anything runs on its stack.
 *
 * initial_frame() in context.c builds the same frame on a fresh stack with
 * pk_port_trampoline as the return address, so the first switch to it
 * "returns" into the trampoline with the entry function in rbx and its
 * argument in r12.
 *
 * rdi (from) is left untouched across the swap and returned in rax: the
 * code that resumes learns which context switched to it, on its own stack,
 * without any shared variable (which would be wrong once a task moves to
 * another thread).
 *
 * The control words are saved and restored because a task may change the
 * rounding mode or exception masks (fesetround()) and the ABI promises its
 * callers those survive a call. ldmxcsr also brings back MXCSR's sticky
 * status flags: each context keeps its own, which the ABI allows.
 *
 * No .note.gnu.property: a program linking this is not marked for CET, so
 * the kernel gives it no shadow stack, which this switch does not manage.
 */

#if defined(__x86_64__) && !defined(PK_PORT_UCONTEXT)

	.text

/* struct pk_context *pk_port_switch(struct pk_context *from,
 *				     struct pk_context *to) */
	.globl	pk_port_switch
	.type	pk_port_switch, @function
	.p2align 4
pk_port_switch:
	.cfi_startproc
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset rbp, 0
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset rbx, 0
	pushq	%r12
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset r12, 0
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset r13, 0
	pushq	%r14
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset r14, 0
	pushq	%r15
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset r15, 0
	stmxcsr	-8(%rsp)
	fnstcw	-4(%rsp)

	/* The swap. The frame on the new stack has the same layout, so the
	 * CFI above describes it as well as the old one. */
	movq	%rsp, (%rdi)
	movq	(%rsi), %rsp

	ldmxcsr	-8(%rsp)
	fldcw	-4(%rsp)
	popq	%r15
	.cfi_adjust_cfa_offset -8
	.cfi_restore r15
	popq	%r14
	.cfi_adjust_cfa_offset -8
	.cfi_restore r14
	popq	%r13
	.cfi_adjust_cfa_offset -8
	.cfi_restore r13
	popq	%r12
	.cfi_adjust_cfa_offset -8
	.cfi_restore r12
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore rbx
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore rbp
	movq	%rdi, %rax
	/* A ret, not pop + jmp: a scheduler switches at one call site,
	 * so the return stack predicts this ret and the returns above it.
	 * A jmp wins the two-call-site ping-pong (11 -> 5 ns) but leaves
	 * the return stack one entry off, and every return after it
	 * mispredicts: 14 -> 29 ns through three frames (bench_switch). */
	ret
	.cfi_endproc
	.size	pk_port_switch, .-pk_port_switch

/*
 * A new context's first instructions, reached by pk_port_switch()'s ret
 * with rsp 16-byte aligned and two zero words above it (a null frame
 * pointer and a null return address). rip is marked undefined so DWARF
 * unwinders (backtrace(), gdb, libdw) stop here; frame-pointer walkers
 * stop at the zero rbp the frame restored.
 */
	.globl	pk_port_trampoline
	.hidden	pk_port_trampoline
	.type	pk_port_trampoline, @function
	.p2align 4
pk_port_trampoline:
	.cfi_startproc
	.cfi_undefined rip
	movq	%rdi, %rsi		/* prev: the context switched from */
	movq	%r12, %rdi		/* arg */
	call	*%rbx			/* entry(arg, prev), rsp aligned */
	call	pk_port_entry_returned	/* hidden: no PLT needed */
	ud2
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
