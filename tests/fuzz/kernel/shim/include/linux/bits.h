/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/bits.h>. */
#ifndef KSHIM_LINUX_BITS_H
#define KSHIM_LINUX_BITS_H

#include <limits.h>

#define BITS_PER_LONG		(CHAR_BIT * (int)sizeof(long))
#define BIT(nr)			(1UL << (nr))
#define BIT_ULL(nr)		(1ULL << (nr))
#define BIT_MASK(nr)		(1UL << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)
#define GENMASK(h, l) \
	(((~0UL) - (1UL << (l)) + 1) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l) \
	(((~0ULL) - (1ULL << (l)) + 1) & (~0ULL >> (64 - 1 - (h))))

#endif
