/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/overflow.h>: the checked arithmetic and the
 * saturating size helpers as the kernel defines them.  array_size(),
 * size_mul() and size_add() give SIZE_MAX on overflow, which every
 * allocator of the shim refuses, as the kernel's do.
 */
#ifndef KSHIM_LINUX_OVERFLOW_H
#define KSHIM_LINUX_OVERFLOW_H

#include <stdint.h>
#include <linux/types.h>

#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
#define check_sub_overflow(a, b, d)	__builtin_sub_overflow(a, b, d)
#define check_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)

static inline size_t size_mul(size_t factor1, size_t factor2)
{
	size_t bytes;

	if (check_mul_overflow(factor1, factor2, &bytes))
		return SIZE_MAX;
	return bytes;
}

static inline size_t size_add(size_t addend1, size_t addend2)
{
	size_t bytes;

	if (check_add_overflow(addend1, addend2, &bytes))
		return SIZE_MAX;
	return bytes;
}

#define array_size(a, b)	size_mul(a, b)

#endif
