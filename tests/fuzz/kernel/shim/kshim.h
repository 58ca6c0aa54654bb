/* SPDX-License-Identifier: GPL-2.0 */
/* What the harnesses call of the shim itself. */
#ifndef KSHIM_H
#define KSHIM_H

#include <stdarg.h>
#include <stddef.h>

/* Abort unless crc32_le, vsnprintf and _ctype behave as the kernel's. */
void kshim_selftest(void);
int kshim_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int kshim_vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
	__attribute__((format(printf, 3, 0)));
void kshim_warn(const char *what) __attribute__((noreturn));

#endif
