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

static inline ssize_t kshim_strscpy(char *dst, const char *src, size_t count)
{
	size_t len;

	if (!count)
		return -E2BIG;
	len = strnlen(src, count);
	if (len == count) {
		memcpy(dst, src, count - 1);
		dst[count - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dst, src, len + 1);
	return (ssize_t)len;
}

/* strscpy(dst, src) sizes a char array as the kernel's does. */
#define __kshim_strscpy3(dst, src, count, ...)	kshim_strscpy(dst, src, count)
#define strscpy(dst, src, ...) \
	__kshim_strscpy3(dst, src, ##__VA_ARGS__, sizeof(dst) + __must_be_array(dst))

#endif
