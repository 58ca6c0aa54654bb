/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/string.h>: libc's functions (which ASan
 * intercepts and checks), and strscpy() with the kernel's contract.
 */
#ifndef KSHIM_LINUX_STRING_H
#define KSHIM_LINUX_STRING_H

#include <string.h>
#include <linux/errno.h>
#include <linux/types.h>

static inline ssize_t strscpy(char *dst, const char *src, size_t count)
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

#endif
