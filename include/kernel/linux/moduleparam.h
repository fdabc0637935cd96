/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_MODULEPARAM_H
#define _LINUX_MODULEPARAM_H

/*
 * module_param(): a variable set from the kernel-style command line in
 * $PREEMPT_CMDLINE, parsed at boot before the initcalls as parse_args()
 * parses the kernel's: "mod.name=value" separated by spaces, values in
 * double quotes may hold spaces, a bare "mod.flag" sets a bool.  The name
 * is KBUILD_MODNAME "." name when the file is compiled with
 * -DKBUILD_MODNAME='"mod"' (as Kbuild does), else the bare name.  A value
 * that does not parse is reported and the variable left as it was.
 */

#include <linux/compiler.h>
#include <linux/stringify.h>
#include <linux/types.h>

#ifdef KBUILD_MODNAME
#define MODULE_PARAM_PREFIX KBUILD_MODNAME "."
#else
#define MODULE_PARAM_PREFIX ""
#endif

struct kernel_param;
struct kernel_param_ops {
	unsigned int flags;
	int (*set)(const char *val, const struct kernel_param *kp);
	int (*get)(char *buffer, const struct kernel_param *kp);
	void (*free)(void *arg);
};
struct kparam_array {
	unsigned int max;
	unsigned int elemsize;
	unsigned int *num;
	const struct kernel_param_ops *ops;
	void *elem;
};
struct kparam_string {
	unsigned int maxlen;
	char *string;
};
struct kernel_param {
	const char *name;
	const struct kernel_param_ops *ops;
	unsigned short perm;
	union {
		void *arg;
		const struct kparam_string *str;
		const struct kparam_array *arr;
	};
};

/* Referenced by every parameter: links the parser (src/kernel/init.c). */
extern const char pk_kernel_params[];

#define __module_param_call(prefix, name_, ops_, arg_, perm_, id)              \
	static const struct kernel_param __PASTE(__pk_param_, id) = {          \
		.name = prefix #name_,                                         \
		.ops = (ops_),                                                 \
		.perm = (perm_),                                               \
		{.arg = (void *)(arg_)}};                                      \
	static const struct kernel_param *const __PASTE(__pk_param_p_, id)     \
		__attribute__((__section__("pk_params"), __used__)) =          \
			&__PASTE(__pk_param_, id);                             \
	static const char *const __PASTE(__pk_param_ref_, id) __used =         \
		pk_kernel_params
#define module_param_cb(name, ops, arg, perm)                                  \
	__module_param_call(MODULE_PARAM_PREFIX, name, ops, arg, perm,         \
			    __COUNTER__)
#define module_param_named(name, value, type, perm)                            \
	module_param_cb(name, &param_ops_##type, &(value), perm)
#define module_param(name, type, perm)                                         \
	module_param_named(name, name, type, perm)
#define module_param_unsafe(name, type, perm) module_param(name, type, perm)
#define core_param(name, var, type, perm)                                      \
	__module_param_call("", name, &param_ops_##type, &(var), perm,         \
			    __COUNTER__)
#define module_param_array_named(name, array, type, nump, perm)                \
	static const struct kparam_array __PASTE(__pk_param_arr_, name) = {    \
		.max = sizeof(array) / sizeof((array)[0]),                     \
		.elemsize = sizeof((array)[0]),                                \
		.num = (nump),                                                 \
		.ops = &param_ops_##type,                                      \
		.elem = (array)};                                              \
	__module_param_call(MODULE_PARAM_PREFIX, name, &param_array_ops,       \
			    &__PASTE(__pk_param_arr_, name), perm,             \
			    __COUNTER__)
/* A string copied into char @string[@len]; too long is refused. */
#define module_param_string(name, string, len, perm)                           \
	static const struct kparam_string __PASTE(__pk_param_str_,             \
						  name) = {(len), (string)};   \
	__module_param_call(MODULE_PARAM_PREFIX, name, &param_ops_string,      \
			    &__PASTE(__pk_param_str_, name), perm,             \
			    __COUNTER__)
#define module_param_array(name, type, nump, perm)                             \
	module_param_array_named(name, name, type, nump, perm)
#define module_param_hw_named(name, value, type, hwtype, perm)                 \
	module_param_named(name, value, type, perm)
#define module_param_hw(name, type, hwtype, perm)                              \
	module_param_hw_named(name, name, type, hwtype, perm)
#define module_param_hw_array(name, type, hwtype, nump, perm)                  \
	module_param_array_named(name, name, type, nump, perm)
#define MODULE_PARM_DESC(var, desc) _Static_assert(1, "parm_desc")

/* <stdbool.h>'s bool is a macro: a "bool" parameter arrives as _Bool. */
#define param_ops__Bool param_ops_bool

extern const struct kernel_param_ops param_ops_byte, param_ops_short,
	param_ops_ushort, param_ops_int, param_ops_uint, param_ops_long,
	param_ops_ulong, param_ops_ullong, param_ops_hexint, param_ops_charp,
	param_ops_bool, param_ops_invbool, param_array_ops, param_ops_string;
int param_set_copystring(const char *val, const struct kernel_param *kp);
int param_set_int(const char *val, const struct kernel_param *kp);
int param_set_uint(const char *val, const struct kernel_param *kp);
int param_set_bool(const char *val, const struct kernel_param *kp);
int param_get_int(char *buffer, const struct kernel_param *kp);

/**
 * pk_parse_args() - as the kernel's parse_args(): apply "name=value" pairs of
 * @args to @params (@num of them); calls @unknown for names not among them
 * (NULL: -ENOENT).  The string is modified.  Task context.  Returns 0 or the
 * first error.
 */
int pk_parse_args(const char *doing, char *args,
		  const struct kernel_param *const *params, unsigned int num,
		  int (*unknown)(char *param, char *val, const char *doing,
				 void *arg),
		  void *arg);

#endif /* _LINUX_MODULEPARAM_H */
