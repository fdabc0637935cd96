/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_STRING_H
#define _LINUX_STRING_H

/* The C library's string functions plus the kernel's own. */

#include <string.h>
#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/gfp_types.h>

/** strscpy() - copy @src into @dest of @count bytes, always terminated;
 * the length copied, or -E2BIG if @src did not fit.  Any context. */
ssize_t strscpy(char *dest, const char *src, size_t count);
/** strscpy_pad() - strscpy() and zero the rest of @dest. */
ssize_t strscpy_pad(char *dest, const char *src, size_t count);
/** kstrdup() - a kmalloc()ed copy of @s (NULL stays NULL). */
char *kstrdup(const char *s, gfp_t gfp) __malloc;
/** kstrndup() - kstrdup() of at most @max bytes. */
char *kstrndup(const char *s, size_t max, gfp_t gfp) __malloc;
/** kstrdup_const() - kstrdup() (no read-only section to share here). */
const char *kstrdup_const(const char *s, gfp_t gfp);
/** kfree_const() - free what kstrdup_const() returned. */
void kfree_const(const void *x);
/** kmemdup() - a kmalloc()ed copy of @len bytes at @src. */
void *kmemdup(const void *src, size_t len, gfp_t gfp) __malloc;
/**
 * memdup_user_nul() - a kmalloc()ed, NUL-terminated copy of @len bytes of
 * user memory; ERR_PTR(-EFAULT) if they cannot be read, -ENOMEM.  Task
 * context (it may fault and sleep).
 */
char *memdup_user_nul(const void __user *src, size_t len);
/**
 * strnchrnul() - the first @c in the first @count bytes of @s, or where
 * @s (or its first @count bytes) ends.  Any context.
 */
char *strnchrnul(const char *s, size_t count, int c);
/** skip_spaces() - @str after its leading white space.  Any context. */
char *skip_spaces(const char *str);
/** strim() - cut @s's trailing white space; returns @s past its leading. */
char *strim(char *s);
/*
 * argv_split() - @str's white-space separated words as a NULL-terminated,
 * allocated vector (the count in *@argcp), freed with argv_free();
 * lib/argv_split.c.  Where @gfp may allocate.
 */
char **argv_split(gfp_t gfp, const char *str, int *argcp);
void argv_free(char **argv);
/** memchr_inv() - the first byte in @start not equal to @c, or NULL. */
void *memchr_inv(const void *start, int c, size_t bytes);
/** sysfs_streq() - equal, ignoring one trailing newline on either side. */
bool sysfs_streq(const char *s1, const char *s2);
/** match_string() - the index of @string in @array of @n, or -EINVAL. */
int match_string(const char *const *array, size_t n, const char *string);
#define memset_after(obj, v, member)                                           \
	memset((char *)(obj) + offsetofend(__typeof__(*(obj)), member), v,     \
	       sizeof(*(obj)) - offsetofend(__typeof__(*(obj)), member))
/** str_has_prefix() - strlen(@prefix) if @str starts with it, else 0. */
static inline size_t str_has_prefix(const char *str, const char *prefix)
{
	size_t len = strlen(prefix);

	return strncmp(str, prefix, len) == 0 ? len : 0;
}
static inline const char *str_on_off(bool v)
{
	return v ? "on" : "off";
}
static inline const char *str_yes_no(bool v)
{
	return v ? "yes" : "no";
}
static inline const char *str_enabled_disabled(bool v)
{
	return v ? "enabled" : "disabled";
}

#endif /* _LINUX_STRING_H */
