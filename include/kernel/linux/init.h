/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_INIT_H
#define _LINUX_INIT_H

/*
 * Initcalls run when the machine boots: machine_boot() starts the vCPUs,
 * then runs every initcall of the program level by level (early, pure,
 * core, postcore, arch, subsys, fs, device = module_init, late) in a
 * kthread, "kernel_init", and returns when they are done.  A failing
 * initcall is reported ("initcall fn returned -E"), as the kernel does
 * with initcall_debug, and boot goes on.  Exit calls (module_exit) run in
 * reverse order at machine_shutdown(), before it waits for the tasks.
 */

#include <linux/compiler.h>
#include <linux/types.h>

typedef int (*initcall_t)(void);
typedef void (*exitcall_t)(void);

struct pk_initcall {
	int level;
	initcall_t fn;
	const char *name;
};
struct pk_exitcall {
	exitcall_t fn;
	const char *name;
};

/* Referenced by every initcall: links the runner (src/kernel/init.c). */
extern const char pk_kernel_initcalls[];

/* An entry is a pointer in section pk_initcalls (same size, no padding). */
#define ___pk_define_initcall_as(fn, name, lvl, id)                            \
	static const struct pk_initcall __PASTE(__pk_initcall_,                \
						id) = {(lvl), (fn), name};     \
	static const struct pk_initcall *const __PASTE(__pk_initcall_p_, id)   \
		__attribute__((__section__("pk_initcalls"), __used__)) =       \
			&__PASTE(__pk_initcall_, id);                          \
	static const char *const __PASTE(__pk_initcall_ref_, id) __used =      \
		pk_kernel_initcalls
#define ___pk_define_initcall(fn, lvl, id)                                     \
	___pk_define_initcall_as(fn, #fn, lvl, id)
#define __pk_define_initcall(fn, lvl)                                          \
	___pk_define_initcall(fn, lvl, __COUNTER__)

#define early_initcall(fn) __pk_define_initcall(fn, 0)
#define pure_initcall(fn) __pk_define_initcall(fn, 1)
#define core_initcall(fn) __pk_define_initcall(fn, 2)
#define core_initcall_sync(fn) __pk_define_initcall(fn, 2)
#define postcore_initcall(fn) __pk_define_initcall(fn, 3)
#define postcore_initcall_sync(fn) __pk_define_initcall(fn, 3)
#define arch_initcall(fn) __pk_define_initcall(fn, 4)
#define arch_initcall_sync(fn) __pk_define_initcall(fn, 4)
#define subsys_initcall(fn) __pk_define_initcall(fn, 5)
#define subsys_initcall_sync(fn) __pk_define_initcall(fn, 5)
#define fs_initcall(fn) __pk_define_initcall(fn, 6)
#define fs_initcall_sync(fn) __pk_define_initcall(fn, 6)
#define rootfs_initcall(fn) __pk_define_initcall(fn, 6)
#define device_initcall(fn) __pk_define_initcall(fn, 7)
#define device_initcall_sync(fn) __pk_define_initcall(fn, 7)
#define late_initcall(fn) __pk_define_initcall(fn, 8)
#define late_initcall_sync(fn) __pk_define_initcall(fn, 8)
#define __initcall(fn) device_initcall(fn)
#define PK_NR_INITCALL_LEVELS 9

#define ___pk_define_exitcall(fn, id)                                          \
	static const struct pk_exitcall __PASTE(__pk_exitcall_, id) = {fn,     \
								       #fn};   \
	static const struct pk_exitcall *const __PASTE(__pk_exitcall_p_, id)   \
		__attribute__((__section__("pk_exitcalls"), __used__)) =       \
			&__PASTE(__pk_exitcall_, id)
#define __exitcall(fn) ___pk_define_exitcall(fn, __COUNTER__)

/*
 * __setup(str, fn) and early_param(str, fn): handlers for options of the
 * kernel-style command line ($PREEMPT_CMDLINE) that are no module
 * parameters, as the kernel's.  Boot runs the early_param() handlers
 * first (an option named exactly @str; @fn gets its value, NULL without
 * "=", and returns 0, or the option is reported malformed), then sets the
 * module parameters, then offers every other option to the __setup()
 * handlers: @str is a prefix ("foo=" or "nofoo"), @fn gets the rest of the
 * option after it and returns 1 when it took the option (0: the next
 * handler of a matching prefix is asked).  All before the initcalls.
 */
struct obs_kernel_param {
	const char *str;
	int (*setup_func)(char *);
	int early;
};

#define ___pk_setup_param(str_, fn, early_, id)                                \
	static const struct obs_kernel_param __PASTE(__pk_setup_,              \
						     id) = {str_, fn, early_}; \
	static const struct obs_kernel_param *const __PASTE(__pk_setup_p_, id) \
		__attribute__((__section__("pk_setups"), __used__)) =          \
			&__PASTE(__pk_setup_, id);                             \
	static const char *const __PASTE(__pk_setup_ref_, id) __used =         \
		pk_kernel_initcalls
#define __setup_param(str, unique_id, fn, early)                               \
	___pk_setup_param(str, fn, early, __COUNTER__)
#define __setup(str, fn) __setup_param(str, fn, fn, 0)
#define early_param(str, fn) __setup_param(str, fn, fn, 1)

#endif /* _LINUX_INIT_H */
