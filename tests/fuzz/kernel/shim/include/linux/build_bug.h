/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/build_bug.h>: compile-time checks stay compile-time. */
#ifndef KSHIM_LINUX_BUILD_BUG_H
#define KSHIM_LINUX_BUILD_BUG_H

/* 0 as an int constant expression, or a compile error if @e is true. */
#define BUILD_BUG_ON_ZERO(e) ((int)(sizeof(struct { int:(-!!(e)); })))
#define BUILD_BUG_ON_MSG(cond, msg) \
	do { _Static_assert(!(cond), msg); } while (0)
#define BUILD_BUG_ON(cond) BUILD_BUG_ON_MSG(cond, "BUILD_BUG_ON failed: " #cond)
#ifndef static_assert
#define static_assert(expr, ...) _Static_assert(expr, #expr)
#endif

#endif
