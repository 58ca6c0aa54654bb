/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/types.h> for the kernel-parser fuzzers: the
 * UAPI types (__u8, __be32, ...) from the system's <linux/types.h>, then
 * the kernel-internal names on top, as the kernel's own header does.
 */
#ifndef KSHIM_LINUX_TYPES_H
#define KSHIM_LINUX_TYPES_H

#include_next <linux/types.h>	/* UAPI: __u8 ... __u64, __be16, __be32 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>		/* ssize_t */

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;

typedef unsigned int gfp_t;

/* <linux/limits.h>, which the kernel's types.h brings. */
#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)
#define S32_MAX		((s32)(U32_MAX >> 1))

#endif
