// SPDX-License-Identifier: MIT
/*
 * Linus's objection to the 2020 series was code generation.  On x86-64,
 * with debug checks off, preempt_disable() must be one incl on the TLS
 * slot and preempt_enable()'s fast path one decl plus one conditional
 * branch (the x86 kernel's shape).  objdump tells.
 */
#include <stdio.h>
#include <stdlib.h>

#include "pk_test.h"

#define MAX_INSNS 64

struct insn {
	char mnemonic[16];
	char operands[96];
	char reloc[96]; /* the relocation applied to this instruction */
};

/* Parse `objdump -dr` of @obj for the body of @func. */
static int disassemble(const char *obj, const char *func, struct insn *out)
{
	char cmd[1024], line[512], header[128];
	int n = 0, in_func = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd),
		 "objdump -dr --no-show-raw-insn --no-addresses %s 2>&1", obj);
	snprintf(header, sizeof(header), "<%s>:", func);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		char *s = line;

		if (strstr(line, header)) {
			in_func = 1;
			continue;
		}
		if (!in_func)
			continue;
		if (line[0] == '\n' || line[0] == '<')
			break;
		while (*s == ' ' || *s == '\t')
			s++;
		if (strncmp(s, "R_X86_64", 8) == 0 ||
		    strncmp(s, "R_AARCH64", 9) == 0) {
			if (n)
				snprintf(out[n - 1].reloc,
					 sizeof(out[n - 1].reloc), "%.95s", s);
			continue;
		}
		if (n == MAX_INSNS)
			break;
		memset(&out[n], 0, sizeof(out[n]));
		if (sscanf(s, "%15s %95[^\n]", out[n].mnemonic,
			   out[n].operands) >= 1)
			n++;
	}
	pclose(p);
	return n;
}

static bool is_padding(const struct insn *i)
{
	return !strncmp(i->mnemonic, "nop", 3) ||
	       !strcmp(i->mnemonic, "endbr64") || !strcmp(i->mnemonic, "xchg");
}

/* The thread-pointer-relative address load of initial-exec TLS. */
static bool is_tls_offset_load(const struct insn *i)
{
	return !strcmp(i->mnemonic, "mov") && strstr(i->reloc, "GOTTPOFF");
}

static bool writes_tls(const struct insn *i)
{
	return strstr(i->operands, "%fs:") != NULL;
}

static void preempt_disable_is_one_incl(void **state)
{
	struct insn insns[MAX_INSNS];
	int n = disassemble(CODEGEN_PROBE, "probe_preempt_disable", insns);
	int incl = 0, other = 0;

	(void)state;
	assert_true(n > 0);
	for (int i = 0; i < n; i++) {
		if (is_padding(&insns[i]) || is_tls_offset_load(&insns[i]) ||
		    !strcmp(insns[i].mnemonic, "ret"))
			continue;
		if (!strcmp(insns[i].mnemonic, "incl") && writes_tls(&insns[i]))
			incl++;
		else
			other++;
	}
	assert_int_equal(incl, 1);
	assert_int_equal(other, 0);
}

static void preempt_enable_is_one_decl_and_one_branch(void **state)
{
	struct insn insns[MAX_INSNS];
	int n = disassemble(CODEGEN_PROBE, "probe_preempt_enable", insns);
	int decl = -1, tls_writes = 0;

	(void)state;
	for (int i = 0; i < n; i++) {
		if (writes_tls(&insns[i]))
			tls_writes++;
		if (!strcmp(insns[i].mnemonic, "decl") && writes_tls(&insns[i]))
			decl = i;
	}
	assert_true(decl >= 0);
	assert_int_equal(tls_writes, 1);
	/* The fast path: the decl, one conditional jump, then the return. */
	assert_true(decl + 2 < n);
	assert_true(!strcmp(insns[decl + 1].mnemonic, "je") ||
		    !strcmp(insns[decl + 1].mnemonic, "jne"));
	/* Only instruction between decl and return: that branch. */
	if (!strcmp(insns[decl + 1].mnemonic, "je"))
		assert_string_equal(insns[decl + 2].mnemonic, "ret");
	/* The slow path is the call to preempt_schedule(), nothing else. */
	for (int i = decl + 2; i < n; i++)
		if (insns[i].reloc[0])
			assert_non_null(
				strstr(insns[i].reloc, "preempt_schedule"));
}

/*
 * Built with CONFIG_PREEMPTION=0 (the kernel's PREEMPTION=n): the enable is
 * the decl alone, no test, no call, as target 3 of issue 19 asks under
 * none and voluntary.
 */
static void preemption_off_enable_is_one_decl(void **state)
{
	struct insn insns[MAX_INSNS];
	int n = disassemble(CODEGEN_PROBE_NOPREEMPT, "probe_preempt_enable",
			    insns);
	int decl = 0, other = 0;

	(void)state;
	assert_true(n > 0);
	for (int i = 0; i < n; i++) {
		if (is_padding(&insns[i]) || is_tls_offset_load(&insns[i]) ||
		    !strcmp(insns[i].mnemonic, "ret"))
			continue;
		if (!strcmp(insns[i].mnemonic, "decl") && writes_tls(&insns[i]))
			decl++;
		else
			other++;
	}
	assert_int_equal(decl, 1);
	assert_int_equal(other, 0);
}

static void debug_checks_go_out_of_line(void **state)
{
	struct insn insns[MAX_INSNS];
	int n = disassemble(CODEGEN_PROBE_DEBUG, "probe_preempt_disable",
			    insns);
	bool calls_add = false;

	(void)state;
	for (int i = 0; i < n; i++)
		calls_add |=
			strstr(insns[i].reloc, "preempt_count_add") != NULL;
	assert_true(calls_add);
}

/*
 * A task resumes on whatever vCPU thread picked it: across a call every
 * access must find the word through the current thread pointer.  x86-64:
 * each access is %fs-relative, and the thread pointer is never taken into
 * a register.
 */
static void x86_word_accesses_are_fs_relative(void **state)
{
	struct insn insns[MAX_INSNS];
	int n = disassemble(CODEGEN_PROBE, "probe_word_across_calls", insns);
	int fs = 0;

	(void)state;
	assert_true(n > 0);
	for (int i = 0; i < n; i++) {
		assert_null(strstr(insns[i].operands, "%fs:0x0,"));
		fs += writes_tls(&insns[i]);
	}
	assert_int_equal(fs, 3); /* incl, decl, and in_atomic()'s load */
}

/*
 * `while (!need_resched())` must read the word on every turn: an
 * interrupt handler on this thread changes it between two reads, and a
 * load the compiler hoisted out of the loop would spin for ever.  A loop
 * is a backward jump; the %fs load must sit between its target and it.
 */
static bool load_inside_loop(const char *obj, const char *func)
{
	char cmd[1024], line[512], header[128];
	unsigned long load = 0, addr, target;
	bool in_func = false, inside = false;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "objdump -d --no-show-raw-insn %s 2>&1",
		 obj);
	snprintf(header, sizeof(header), "<%s>:", func);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		char mnem[16] = "", ops[128] = "";

		if (strstr(line, header)) {
			in_func = true;
			continue;
		}
		if (!in_func)
			continue;
		if (line[0] == '\n')
			break;
		if (sscanf(line, " %lx: %15s %127[^\n]", &addr, mnem, ops) < 2)
			continue;
		if (strstr(ops, "%fs:") && !load)
			load = addr;
		/* "jns 1a <probe_x+0xa>": a jump back to at or before load. */
		if (mnem[0] == 'j' && sscanf(ops, "%lx", &target) == 1 &&
		    target <= addr && load && target <= load && load <= addr)
			inside = true;
	}
	pclose(p);
	assert_true(load != 0);
	return inside;
}

/* GCC keeps such loops but merges two reads; clang hoists the loop's. */
static void wait_loops_reread_the_word(void **state)
{
	struct insn insns[MAX_INSNS];
	int n = disassemble(CODEGEN_PROBE, "probe_word_read_twice", insns);
	int loads = 0;
	char cmd[2048];

	(void)state;
	for (int i = 0; i < n; i++)
		loads += writes_tls(&insns[i]);
	assert_int_equal(loads, 2);
	assert_true(
		load_inside_loop(CODEGEN_PROBE, "probe_spin_until_resched"));
	assert_true(load_inside_loop(CODEGEN_PROBE, "probe_spin_while_atomic"));
	if (system("command -v clang >/dev/null 2>&1")) {
		printf("no clang: the loops checked with the build compiler\n");
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 "clang -O2 -std=gnu11 -DCONFIG_DEBUG_PREEMPT=0 -I%s/include "
		 "-c %s/tests/codegen/probe.c -o %s/probe_clang.o",
		 PREEMPT_SOURCE_DIR, PREEMPT_SOURCE_DIR, PREEMPT_BINARY_DIR);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/probe_clang.o", PREEMPT_BINARY_DIR);
	assert_true(load_inside_loop(cmd, "probe_spin_until_resched"));
	assert_true(load_inside_loop(cmd, "probe_spin_while_atomic"));
}

/*
 * arm64, where GCC would read tpidr_el0 once per function: the headers
 * read it at each access.  Needs the cross compiler (scripts/deps.sh
 * installs it); without one the test fails, it is never skipped.
 */
static void arm64_reads_the_thread_pointer_at_each_access(void **state)
{
	char cmd[2048], line[512];
	int mrs = 0, in_func = 0;
	FILE *p;

	(void)state;
	if (system("command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 && "
		   "command -v aarch64-linux-gnu-objdump >/dev/null 2>&1")) {
		fail_msg("no aarch64-linux-gnu-gcc/objdump: run "
			 "scripts/deps.sh");
	}
	snprintf(cmd, sizeof(cmd),
		 "aarch64-linux-gnu-gcc -O2 -std=gnu11 "
		 "-DCONFIG_DEBUG_PREEMPT=0 -I%s/include -c "
		 "%s/tests/codegen/probe.c -o %s/probe_aarch64.o && "
		 "aarch64-linux-gnu-objdump -d --no-show-raw-insn "
		 "%s/probe_aarch64.o",
		 PREEMPT_SOURCE_DIR, PREEMPT_SOURCE_DIR, PREEMPT_BINARY_DIR,
		 PREEMPT_BINARY_DIR);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		if (strstr(line, "<probe_word_across_calls>:"))
			in_func = 1;
		else if (in_func && line[0] == '\n')
			in_func = 0;
		else if (in_func && strstr(line, "mrs") &&
			 strstr(line, "tpidr_el0"))
			mrs++;
	}
	assert_int_equal(pclose(p), 0);
	assert_int_equal(mrs, 3);
}

/*
 * arm64: every update of the word is one atomic read-modify-write (an LSE
 * atomic, an LL/SC loop, or libgcc's outline-atomics helper that picks
 * one), never a plain store, so a signal handler on the same thread never
 * loses an update (include/preempt/preempt.h).  Checked in each probe_update_*
 * function, compiled three ways: the default (outline atomics), LL/SC
 * inline (-mno-outline-atomics) and LSE inline (-march=armv8.1-a).
 */
static bool is_prefix_of(const char *mnemonic, const char *const *list)
{
	for (; *list; list++)
		if (!strncmp(mnemonic, *list, strlen(*list)))
			return true;
	return false;
}

static void arm64_check_updates(const char *flags)
{
	static const char *const atomics[] = {
		"ldadd", "ldclr", "ldset", "ldeor", "cas",   "swp", "stadd",
		"stclr", "stset", "steor", "stxr",  "stlxr", NULL,
	};
	static const char *const stores[] = {"str",  "stur", "stp",
					     "stlr", "stll", NULL};
	char cmd[2048], line[512], func[128] = "";
	int funcs = 0, atomic = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd),
		 "aarch64-linux-gnu-gcc -O2 -std=gnu11 %s "
		 "-DCONFIG_DEBUG_PREEMPT=0 -I%s/include -c "
		 "%s/tests/codegen/probe.c -o %s/probe_aarch64_upd.o && "
		 "aarch64-linux-gnu-objdump -dr --no-show-raw-insn "
		 "%s/probe_aarch64_upd.o",
		 flags, PREEMPT_SOURCE_DIR, PREEMPT_SOURCE_DIR,
		 PREEMPT_BINARY_DIR, PREEMPT_BINARY_DIR);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		char mnemonic[32], operands[256] = "";
		const char *s = strchr(line, ':');

		if (strstr(line, ">:\n")) {
			/* A new function: the last one had its atomic? */
			if (func[0])
				assert_true(atomic > 0);
			func[0] = '\0';
			atomic = 0;
			if (strstr(line, "<probe_update_")) {
				snprintf(func, sizeof(func), "%.100s", line);
				funcs++;
			}
			continue;
		}
		if (!func[0] || !s || strstr(line, "R_AARCH64"))
			continue;
		if (sscanf(s + 1, " %31s %255[^\n]", mnemonic, operands) < 1)
			continue;
		if (is_prefix_of(mnemonic, atomics) ||
		    (!strcmp(mnemonic, "bl") &&
		     strstr(operands, "<__aarch64_")))
			atomic++;
		else if (is_prefix_of(mnemonic, stores) &&
			 !strstr(operands, "[sp"))
			fail_msg("%s: a plain store in %s: %s", flags, func,
				 line);
	}
	if (func[0])
		assert_true(atomic > 0);
	assert_int_equal(pclose(p), 0);
	assert_int_equal(funcs, 5);
}

static void arm64_updates_the_word_atomically_only(void **state)
{
	(void)state;
	if (system("command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 && "
		   "command -v aarch64-linux-gnu-objdump >/dev/null 2>&1"))
		fail_msg("no aarch64-linux-gnu-gcc/objdump: run "
			 "scripts/deps.sh");
	arm64_check_updates("");
	arm64_check_updates("-mno-outline-atomics");
	arm64_check_updates("-march=armv8.1-a");
}

#if defined(__x86_64__)
#define X86_64 1
#else
#define X86_64 0
#endif

int main(void)
{
	/* The probe objects are this build's: the x86-64 shape is checked
	 * where they are x86-64; the arm64 one from the cross compiler's
	 * output, on every host. */
	const struct CMUnitTest tests[] = {
		pk_unit_test_if(X86_64, preempt_disable_is_one_incl),
		pk_unit_test_if(X86_64,
				preempt_enable_is_one_decl_and_one_branch),
		pk_unit_test_if(X86_64, preemption_off_enable_is_one_decl),
		pk_unit_test_if(X86_64, debug_checks_go_out_of_line),
		pk_unit_test_if(X86_64, x86_word_accesses_are_fs_relative),
		pk_unit_test_if(X86_64, wait_loops_reread_the_word),
		cmocka_unit_test(arm64_reads_the_thread_pointer_at_each_access),
		cmocka_unit_test(arm64_updates_the_word_atomically_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
