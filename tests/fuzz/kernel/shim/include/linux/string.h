/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/string.h>: libc's functions (which ASan
 * intercepts and checks), and strscpy() with the kernel's contract (two arguments for an array).
 */
#ifndef KSHIM_LINUX_STRING_H
#define KSHIM_LINUX_STRING_H

#include <string.h>
#include <linux/errno.h>
#include <linux/types.h>

/* Out of line, as the kernel's (kshim.c): inlined, a short literal source draws GCC's -Wstringop-overread. */
ssize_t kshim_strscpy(char *dst, const char *src, size_t count);

/* strscpy(dst, src) sizes a char array as the kernel's does. */
#define __kshim_strscpy3(dst, src, count, ...)	kshim_strscpy(dst, src, count)
#define strscpy(dst, src, ...) \
	__kshim_strscpy3(dst, src, ##__VA_ARGS__, sizeof(dst) + __must_be_array(dst))

/* Each @old in @str replaced by @new; the end of @str. */
static inline char *strreplace(char *str, char old, char new)
{
	for (; *str; ++str)
		if (*str == old)
			*str = new;
	return str;
}

#endif
