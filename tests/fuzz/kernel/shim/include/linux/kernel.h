/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/kernel.h> and what it pulls in for the parsers:
 * stdarg, ARRAY_SIZE (a compile error on a pointer, as in the kernel),
 * min/max/min_t/max_t (each argument evaluated once, min_t/max_t casting
 * both to the type first), ALIGN, and the kernel's printf family.
 *
 * snprintf() and vsnprintf() are the kernel's, not libc's: kshim.c parses
 * the format the way lib/vsprintf.c does and implements the kernel's %p
 * extensions the parsers use (%*ph: a hex dump that reads the bytes, so a
 * dump past a buffer's end is an ASan report, as it would be a KASAN one).
 */
#ifndef KSHIM_LINUX_KERNEL_H
#define KSHIM_LINUX_KERNEL_H

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>	/* first, so the macros below do not rename libc's */
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/types.h>

#define __must_be_array(a)	BUILD_BUG_ON_ZERO(__same_type((a), &(a)[0]))
#define ARRAY_SIZE(arr)	(sizeof(arr) / sizeof((arr)[0]) + __must_be_array(arr))

#define __cmp_op_min		<
#define __cmp_op_max		>
#define __cmp(op, x, y)		((x) __cmp_op_##op (y) ? (x) : (y))
#define __cmp_once_unique(op, type, x, y, ux, uy) \
	({ type ux = (x); type uy = (y); __cmp(op, ux, uy); })
#define __cmp_once(op, type, x, y) \
	__cmp_once_unique(op, type, x, y, __UNIQUE_ID(x_), __UNIQUE_ID(y_))
#define min_t(type, x, y)	__cmp_once(min, type, x, y)
#define max_t(type, x, y)	__cmp_once(max, type, x, y)
/* The kernel's min()/max() also refuse mixed signedness at compile time. */
#define __kshim_minmax(op, x, y, ux, uy) ({				\
	__auto_type ux = (x); __auto_type uy = (y);			\
	_Static_assert(__same_type(ux, uy) ||				\
		       ((__typeof__(ux))-1 < 0) == ((__typeof__(uy))-1 < 0), \
		       #op "(" #x ", " #y ") signedness error");	\
	__cmp(op, ux, uy); })
#define min(x, y)	__kshim_minmax(min, x, y, __UNIQUE_ID(x_), __UNIQUE_ID(y_))
#define max(x, y)	__kshim_minmax(max, x, y, __UNIQUE_ID(x_), __UNIQUE_ID(y_))

#define __ALIGN_KERNEL_MASK(x, mask)	(((x) + (mask)) & ~(mask))
#define ALIGN(x, a)	__ALIGN_KERNEL_MASK(x, (__typeof__(x))(a) - 1)
#define IS_ALIGNED(x, a)	(((x) & ((__typeof__(x))(a) - 1)) == 0)
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

__printf(3, 4) int kshim_snprintf(char *buf, size_t size, const char *fmt, ...);
__printf(3, 0) int kshim_vsnprintf(char *buf, size_t size, const char *fmt,
				   va_list args);
#define snprintf	kshim_snprintf
#define vsnprintf	kshim_vsnprintf

void kshim_warn(const char *what) __attribute__((noreturn));
#define WARN_ON(cond) ({ bool __c = !!(cond); if (__c) kshim_warn(#cond); __c; })
#define WARN_ON_ONCE(cond) WARN_ON(cond)

#endif
