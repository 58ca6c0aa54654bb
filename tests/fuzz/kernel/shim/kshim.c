// SPDX-License-Identifier: GPL-2.0
/*
 * The out-of-line part of the userspace kernel shim: lib/ctype.c's table,
 * lib/crc32.c's crc32_le(), lib/crc16.c's crc16(), and the subset of
 * lib/vsprintf.c the parsers print with.  Built with the sanitizers but
 * without coverage instrumentation: the fuzzers' coverage is the kernel
 * files'.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/crc16.h>
#include <linux/crc32.h>
#include <linux/ctype.h>
#include <linux/string.h>
#include <linux/types.h>

#include "kshim.h"

/* A WARN_ON() in the kernel code is a bug report, as syzkaller counts it. */
void kshim_warn(const char *what)
{
	fprintf(stderr, "kshim: kernel WARNING: %s\n", what);
	abort();
}

/* lib/ctype.c */
const unsigned char _ctype[] = {
_C,_C,_C,_C,_C,_C,_C,_C,				/* 0-7 */
_C,_C|_S,_C|_S,_C|_S,_C|_S,_C|_S,_C,_C,			/* 8-15 */
_C,_C,_C,_C,_C,_C,_C,_C,				/* 16-23 */
_C,_C,_C,_C,_C,_C,_C,_C,				/* 24-31 */
_S|_SP,_P,_P,_P,_P,_P,_P,_P,				/* 32-39 */
_P,_P,_P,_P,_P,_P,_P,_P,				/* 40-47 */
_D,_D,_D,_D,_D,_D,_D,_D,				/* 48-55 */
_D,_D,_P,_P,_P,_P,_P,_P,				/* 56-63 */
_P,_U|_X,_U|_X,_U|_X,_U|_X,_U|_X,_U|_X,_U,		/* 64-71 */
_U,_U,_U,_U,_U,_U,_U,_U,				/* 72-79 */
_U,_U,_U,_U,_U,_U,_U,_U,				/* 80-87 */
_U,_U,_U,_P,_P,_P,_P,_P,				/* 88-95 */
_P,_L|_X,_L|_X,_L|_X,_L|_X,_L|_X,_L|_X,_L,		/* 96-103 */
_L,_L,_L,_L,_L,_L,_L,_L,				/* 104-111 */
_L,_L,_L,_L,_L,_L,_L,_L,				/* 112-119 */
_L,_L,_L,_P,_P,_P,_P,_C,				/* 120-127 */
0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,			/* 128-143 */
0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,			/* 144-159 */
_S|_SP,_P,_P,_P,_P,_P,_P,_P,_P,_P,_P,_P,_P,_P,_P,_P,	/* 160-175 */
_P,_P,_P,_P,_P,_P,_P,_P,_P,_P,_P,_P,_P,_P,_P,_P,	/* 176-191 */
_U,_U,_U,_U,_U,_U,_U,_U,_U,_U,_U,_U,_U,_U,_U,_U,	/* 192-207 */
_U,_U,_U,_U,_U,_U,_U,_P,_U,_U,_U,_U,_U,_U,_U,_L,	/* 208-223 */
_L,_L,_L,_L,_L,_L,_L,_L,_L,_L,_L,_L,_L,_L,_L,_L,	/* 224-239 */
_L,_L,_L,_L,_L,_L,_L,_P,_L,_L,_L,_L,_L,_L,_L,_L};	/* 240-255 */

/* lib/crc32.c's crc32_le(): reflected, polynomial 0xedb88320, a byte at a time. */
static u32 crc32_table[256];

u32 crc32_le(u32 crc, const unsigned char *p, size_t len)
{
	u32 c;
	int i, k;

	if (!crc32_table[1]) {
		for (i = 0; i < 256; i++) {
			for (c = (u32)i, k = 0; k < 8; k++)
				c = (c >> 1) ^ ((c & 1) ? 0xedb88320u : 0);
			crc32_table[i] = c;
		}
	}
	while (len--)
		crc = crc32_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

/* lib/crc16.c's crc16(): reflected, polynomial 0xa001, a byte at a time. */
static u16 crc16_table[256];

u16 crc16(u16 crc, const u8 *buffer, size_t len)
{
	u16 c;
	int i, k;

	if (!crc16_table[1]) {
		for (i = 0; i < 256; i++) {
			for (c = (u16)i, k = 0; k < 8; k++)
				c = (u16)((c >> 1) ^ ((c & 1) ? 0xa001u : 0));
			crc16_table[i] = c;
		}
	}
	while (len--)
		crc = (u16)((crc >> 8) ^ crc16_table[(crc ^ *buffer++) & 0xff]);
	return crc;
}

/* Where kshim_vsnprintf() writes: like lib/vsprintf.c's buf/end pair. */
struct kshim_out {
	char *buf;
	size_t size;
	size_t len;	/* what the whole output takes, as snprintf() counts */
};

static void out_ch(struct kshim_out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void out_str(struct kshim_out *o, const char *s, size_t n)
{
	while (n--)
		out_ch(o, *s++);
}

/* One conversion, through libc's snprintf() (which ASan checks). */
__attribute__((format(printf, 2, 3)))
static void out_fmt(struct kshim_out *o, const char *fmt, ...)
{
	char small[128], *tmp = small;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();
	if ((size_t)n >= sizeof(small)) {
		tmp = malloc((size_t)n + 1);
		if (!tmp)
			abort();
		va_start(ap, fmt);
		vsnprintf(tmp, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	out_str(o, tmp, (size_t)n);
	if (tmp != small)
		free(tmp);
}

static const char hex_asc[] = "0123456789abcdef";

/* lib/vsprintf.c's hex_string(): %*ph, %*phC, %*phD, %*phN. */
static const char *out_hex(struct kshim_out *o, const u8 *addr, int width,
			   const char *fmt)
{
	int i, len = 1;
	char sep;

	/* @fmt is at "ph": past it, and past the separator letter. */
	switch (fmt[2]) {
	case 'C': sep = ':'; fmt += 3; break;
	case 'D': sep = '-'; fmt += 3; break;
	case 'N': sep = 0; fmt += 3; break;
	default: sep = ' '; fmt += 2; break;
	}
	if (width == 0)
		return fmt;
	if (!addr) {
		out_str(o, "(null)", 6);
		return fmt;
	}
	if (width > 0)
		len = width < 64 ? width : 64;
	for (i = 0; i < len; i++) {
		out_ch(o, hex_asc[addr[i] >> 4]);
		out_ch(o, hex_asc[addr[i] & 0xf]);
		if (sep && i != len - 1)
			out_ch(o, sep);
	}
	return fmt;
}

/*
 * The kernel's vsnprintf() for the conversions the parsers use: flags
 * "-+ #0", width and precision (digits or '*'), qualifiers hh h l ll z t,
 * conversions d i u x X o c s p %, and %p's 'h' extension.  Anything else
 * (a %p extension not implemented here, %n, floating point) is a test
 * bug: abort.
 */
int kshim_vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	struct kshim_out o = { .buf = buf, .size = size };
	char spec[32], *sp;
	int width, prec;
	char qual[3];

	if (size > INT_MAX)
		kshim_warn("vsnprintf() size > INT_MAX");

	while (*fmt) {
		if (*fmt != '%') {
			out_ch(&o, *fmt++);
			continue;
		}
		fmt++;
		if (*fmt == '%') {
			out_ch(&o, *fmt++);
			continue;
		}
		sp = spec;
		*sp++ = '%';
		while (*fmt && strchr("-+ #0", *fmt) && sp < spec + 8)
			*sp++ = *fmt++;
		width = -1;
		if (*fmt == '*') {
			width = va_arg(args, int);
			fmt++;
		} else if (isdigit(*fmt)) {
			width = 0;
			while (isdigit(*fmt))
				width = width * 10 + (*fmt++ - '0');
		}
		prec = -1;
		if (*fmt == '.') {
			fmt++;
			prec = 0;
			if (*fmt == '*') {
				prec = va_arg(args, int);
				if (prec < 0)	/* the kernel clamps it */
					prec = 0;
				fmt++;
			} else {
				while (isdigit(*fmt))
					prec = prec * 10 + (*fmt++ - '0');
			}
		}
		memset(qual, 0, sizeof(qual));
		if (*fmt == 'h' || *fmt == 'l') {
			qual[0] = *fmt++;
			if (*fmt == qual[0])
				qual[1] = *fmt++;
		} else if (*fmt == 'z' || *fmt == 't') {
			qual[0] = *fmt++;
		}

		if (*fmt == 'p') {
			void *p = va_arg(args, void *);

			if (fmt[1] == 'h') {
				fmt = out_hex(&o, p, width, fmt);
				continue;
			}
			if (isalnum(fmt[1])) {
				fprintf(stderr, "kshim: %%p%c not implemented\n", fmt[1]);
				abort();
			}
			fmt++;
			out_fmt(&o, "%p", p);
			continue;
		}

		if (width >= 0)
			sp += sprintf(sp, "%d", width);
		if (prec >= 0)
			sp += sprintf(sp, ".%d", prec);
		sp = stpcpy(sp, qual);
		*sp++ = *fmt;
		*sp = '\0';

		switch (*fmt++) {
		case 'd':
		case 'i':
			if (!strcmp(qual, "l"))
				out_fmt(&o, spec, va_arg(args, long));
			else if (!strcmp(qual, "ll"))
				out_fmt(&o, spec, va_arg(args, long long));
			else if (!strcmp(qual, "z"))
				out_fmt(&o, spec, va_arg(args, ssize_t));
			else if (!strcmp(qual, "t"))
				out_fmt(&o, spec, va_arg(args, ptrdiff_t));
			else
				out_fmt(&o, spec, va_arg(args, int));
			break;
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			if (!strcmp(qual, "l"))
				out_fmt(&o, spec, va_arg(args, unsigned long));
			else if (!strcmp(qual, "ll"))
				out_fmt(&o, spec, va_arg(args, unsigned long long));
			else if (!strcmp(qual, "z"))
				out_fmt(&o, spec, va_arg(args, size_t));
			else if (!strcmp(qual, "t"))
				out_fmt(&o, spec, va_arg(args, ptrdiff_t));
			else
				out_fmt(&o, spec, va_arg(args, unsigned int));
			break;
		case 'c':
			out_fmt(&o, spec, va_arg(args, int));
			break;
		case 's': {
			const char *s = va_arg(args, const char *);

			/* The kernel prints "(null)" and, for a bad pointer, "(efault)". */
			out_fmt(&o, spec, s ? s : "(null)");
			break;
		}
		default:
			fprintf(stderr, "kshim: conversion %s not implemented\n", spec);
			abort();
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int kshim_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int n;

	va_start(args, fmt);
	n = kshim_vsnprintf(buf, size, fmt, args);
	va_end(args);
	return n;
}

/* Start-up self-check of the shim, called by every harness. */
void kshim_selftest(void)
{
	char b[32];

	if (~crc32_le(~0u, (const unsigned char *)"123456789", 9) != 0xcbf43926u) {
		fprintf(stderr, "kshim: crc32_le is wrong\n");
		abort();
	}
	if (crc16(0, (const u8 *)"123456789", 9) != 0xbb3d) {
		fprintf(stderr, "kshim: crc16 is wrong\n");
		abort();
	}
	kshim_snprintf(b, sizeof(b), "%*ph|%.*s|%zu|%#x", 3, "\x01\xab\xff", 2, "abc",
		       (size_t)42, 255u);
	if (strcmp(b, "01 ab ff|ab|42|0xff")) {
		fprintf(stderr, "kshim: vsnprintf is wrong: \"%s\"\n", b);
		abort();
	}
	if (kshim_snprintf(b, 4, "%s", "abcdef") != 6 || strcmp(b, "abc") ||
	    kshim_snprintf(NULL, 0, "%d", 12345) != 5) {
		fprintf(stderr, "kshim: vsnprintf truncation is wrong\n");
		abort();
	}
	if (!isalnum(0xe9) || isalnum(0xd7) || isalnum(0x80) || !isalnum('Z')) {
		fprintf(stderr, "kshim: _ctype is not the kernel's\n");
		abort();
	}
}

ssize_t kshim_strscpy(char *dst, const char *src, size_t count)
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
