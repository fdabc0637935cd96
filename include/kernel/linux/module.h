/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_MODULE_H
#define _LINUX_MODULE_H

/*
 * A module is built in: module_init() is a device initcall run at boot,
 * module_exit() runs at machine_shutdown() (linux/init.h).  The MODULE_*
 * information is accepted and dropped.
 */

#include <linux/compiler.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/stringify.h>

struct module;

/*
 * A module's exit runs only if its init succeeded, as a module that failed
 * to load is never unloaded; the flag is one per file (one module).
 */
#define module_init(fn)                                                        \
	static bool __pk_module_live;                                          \
	static int __pk_module_init(void)                                      \
	{                                                                      \
		int __pk_ret = fn();                                           \
		__pk_module_live = __pk_ret == 0;                              \
		return __pk_ret;                                               \
	}                                                                      \
	___pk_define_initcall_as(__pk_module_init, #fn, 7, __COUNTER__)
#define module_exit(fn)                                                        \
	static bool __pk_module_live;                                          \
	static void __pk_module_exit(void)                                     \
	{                                                                      \
		if (__pk_module_live)                                          \
			fn();                                                  \
		__pk_module_live = false;                                      \
	}                                                                      \
	__exitcall(__pk_module_exit)
#define __pk_modinfo(tag) _Static_assert(1, tag)
#define MODULE_LICENSE(x) __pk_modinfo("license")
#define MODULE_AUTHOR(x) __pk_modinfo("author")
#define MODULE_DESCRIPTION(x) __pk_modinfo("description")
#define MODULE_VERSION(x) __pk_modinfo("version")
#define MODULE_ALIAS(x) __pk_modinfo("alias")
#define MODULE_SOFTDEP(x) __pk_modinfo("softdep")
#define MODULE_FIRMWARE(x) __pk_modinfo("firmware")
#define MODULE_INFO(tag, info) __pk_modinfo("info")
#define MODULE_IMPORT_NS(ns) __pk_modinfo("import_ns")
#define MODULE_DEVICE_TABLE(type, name) __pk_modinfo("device_table")
#define try_module_get(mod) ((void)(mod), true)
#define module_put(mod) ((void)(mod))
#define __module_get(mod) ((void)(mod))
#define module_driver(drv, reg, unreg, ...)                                    \
	static int __init drv##_init(void)                                     \
	{                                                                      \
		return reg(&(drv), ##__VA_ARGS__);                             \
	}                                                                      \
	module_init(drv##_init);                                               \
	static void __exit drv##_exit(void)                                    \
	{                                                                      \
		unreg(&(drv), ##__VA_ARGS__);                                  \
	}                                                                      \
	module_exit(drv##_exit)

#endif /* _LINUX_MODULE_H */
