/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of the <linux/compiler*.h> bits the parsers use. */
#ifndef KSHIM_LINUX_COMPILER_H
#define KSHIM_LINUX_COMPILER_H

#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#ifndef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#endif
#define __maybe_unused		__attribute__((__unused__))
#define __must_check		__attribute__((__warn_unused_result__))
#define __packed		__attribute__((__packed__))
#define noinline		__attribute__((__noinline__))
#define fallthrough		__attribute__((__fallthrough__))
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define __same_type(a, b)	__builtin_types_compatible_p(__typeof__(a), __typeof__(b))
#define ___PASTE(a, b)		a##b
#define __PASTE(a, b)		___PASTE(a, b)
#define __UNIQUE_ID(prefix)	__PASTE(__PASTE(__UNIQUE_ID_, prefix), __COUNTER__)

#endif
