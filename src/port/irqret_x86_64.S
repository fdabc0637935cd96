// SPDX-License-Identifier: MIT
/*
 * Interrupt return into the task's own context (x86-64), the way the
 * kernel's exit from an interrupt calls preempt_schedule_irq() on the
 * task's stack.
 *
 * An interrupt handler runs on the vCPU's irq stack, where a task switch
 * cannot happen: the frame would stay behind for the next interrupt to
 * overwrite.  So when interrupt return owes a preemption, the handler
 * (pk_port_irq_return_redirect(), irqret.c) edits the interrupted context
 * it is about to return to: just below the interrupted rsp's 128-byte red
 * zone (which a leaf function may be using) it stores the interrupted rip,
 * points rsp at it and makes rip pk_port_irq_return_entry.  rt_sigreturn
 * then "returns" here, on the task stack, with every other register as the
 * interrupted code left it:
 *
 *	rsp + 136 ->  (the interrupted rsp)
 *	rsp + 8   ->  red zone, 128 bytes, untouched
 *	rsp       ->  interrupted rip
 *
 * The interrupted code expected no call, so everything it may hold lives
 * across the C call: the flags, all sixteen general registers and the
 * extended state (x87, SSE, AVX and whatever else XCR0 enables) through
 * XSAVE into a 64-byte aligned area of pk_port_xsave_size bytes (FXSAVE's
 * 512 when the CPU has no XSAVE).  XRSTOR faults on a header with reserved
 * bytes set, so the header is zeroed before the save.  Then the irq
 * layer's function, which pk_port_irq_return_init() was given, preempts
 * (it may switch tasks and come back on another vCPU thread; nothing here
 * depends on the thread), the
 * state comes back, and one instruction, ret $128, loads the interrupted
 * rip and rsp together: until it runs rsp stays below the slot, so a
 * signal delivered on this stack meanwhile cannot overwrite it.
 *
 * The CFI says the same to an unwinder: the frame's CFA is the interrupted
 * rsp, its return address the interrupted rip, which is not a call's
 * return (a signal frame: the unwinder must not step back one byte), and
 * the interrupted code's registers are where they were pushed.
 *
 * No .note.gnu.property, as in switch_x86_64.S: ret $128 returns to an
 * address no call pushed, which a CET shadow stack would refuse.
 */

#if defined(__x86_64__)

	.text

	.globl	pk_port_irq_return_entry
	.hidden	pk_port_irq_return_entry
	.type	pk_port_irq_return_entry, @function
	.p2align 4
pk_port_irq_return_entry:
	.cfi_startproc
	.cfi_signal_frame
	.cfi_def_cfa rsp, 136
	.cfi_offset rip, -136
	pushfq
	.cfi_adjust_cfa_offset 8
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_offset rbp, -152
	movq	%rsp, %rbp
	.cfi_def_cfa_register rbp
	pushq	%rax
	.cfi_offset rax, -160
	pushq	%rbx
	.cfi_offset rbx, -168
	pushq	%rcx
	.cfi_offset rcx, -176
	pushq	%rdx
	.cfi_offset rdx, -184
	pushq	%rsi
	.cfi_offset rsi, -192
	pushq	%rdi
	.cfi_offset rdi, -200
	pushq	%r8
	.cfi_offset r8, -208
	pushq	%r9
	.cfi_offset r9, -216
	pushq	%r10
	.cfi_offset r10, -224
	pushq	%r11
	.cfi_offset r11, -232
	pushq	%r12
	.cfi_offset r12, -240
	pushq	%r13
	.cfi_offset r13, -248
	pushq	%r14
	.cfi_offset r14, -256
	pushq	%r15
	.cfi_offset r15, -264
	cld
	/* alignment checking (AC) off, as C code expects */
	pushfq
	andq	$~0x40000, (%rsp)
	popfq
	subq	pk_port_xsave_size(%rip), %rsp
	andq	$-64, %rsp
	cmpb	$0, pk_port_has_xsave(%rip)
	je	1f
	/* the header (bytes 512-575) zeroed, then the save */
	xorl	%eax, %eax
	movq	%rax, 512(%rsp)
	movq	%rax, 520(%rsp)
	movq	%rax, 528(%rsp)
	movq	%rax, 536(%rsp)
	movq	%rax, 544(%rsp)
	movq	%rax, 552(%rsp)
	movq	%rax, 560(%rsp)
	movq	%rax, 568(%rsp)
	movl	$-1, %eax
	movl	$-1, %edx
	xsave64	(%rsp)
	jmp	3f
1:	fxsave64 (%rsp)
	/*
	 * The C code starts from the ABI's initial floating-point state, not
	 * the interrupted code's: that may be in MMX mode, round or trap its
	 * own way, or leave the upper vector halves dirty.
	 */
3:	fninit
	ldmxcsr	mxcsr_initial(%rip)
	cmpb	$0, pk_port_has_avx(%rip)
	je	4f
	vzeroupper
4:	call	*pk_port_irq_return_fn(%rip)
	cmpb	$0, pk_port_has_xsave(%rip)
	je	5f
	movl	$-1, %eax
	movl	$-1, %edx
	xrstor64 (%rsp)
	jmp	2f
5:	fxrstor64 (%rsp)
2:	leaq	-112(%rbp), %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rbx
	popq	%rax
	popq	%rbp
	.cfi_def_cfa rsp, 144
	popfq
	.cfi_adjust_cfa_offset -8
	ret	$128
	.cfi_endproc
	.size	pk_port_irq_return_entry, .-pk_port_irq_return_entry

	.section .rodata
	.p2align 2
mxcsr_initial:
	.long	0x1f80		/* all exceptions masked, round to nearest */

#endif

	.section .note.GNU-stack, "", @progbits
