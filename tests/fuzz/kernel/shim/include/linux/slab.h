/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/slab.h>: every allocator is a real malloc() of
 * exactly the bytes asked for, so AddressSanitizer sees the first byte
 * past a block.  As in the kernel: kvmalloc() refuses (and warns about)
 * more than INT_MAX bytes, the _array forms return NULL on a size_t
 * overflow, __GFP_ZERO zeroes, and a 0-byte allocation is a valid pointer
 * that must not be dereferenced (ZERO_SIZE_PTR there, malloc(0) here).
 */
#ifndef KSHIM_LINUX_SLAB_H
#define KSHIM_LINUX_SLAB_H

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#define __GFP_ZERO	0x100u
#define __GFP_NOWARN	0x200u
#define GFP_KERNEL	0x1u
#define GFP_ATOMIC	0x2u

void kshim_warn(const char *what) __attribute__((noreturn));

static inline void *kmalloc(size_t size, gfp_t flags)
{
	void *p = malloc(size);

	if (p && (flags & __GFP_ZERO))
		memset(p, 0, size);
	return p;
}

static inline void *kzalloc(size_t size, gfp_t flags)
{
	return kmalloc(size, flags | __GFP_ZERO);
}

static inline void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return kmalloc(bytes, flags);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	return kmalloc_array(n, size, flags | __GFP_ZERO);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

static inline void *kvmalloc(size_t size, gfp_t flags)
{
	if (size > INT_MAX) {
		if (!(flags & __GFP_NOWARN))
			kshim_warn("kvmalloc() of more than INT_MAX bytes");
		return NULL;
	}
	return kmalloc(size, flags);
}

static inline void *kvzalloc(size_t size, gfp_t flags)
{
	return kvmalloc(size, flags | __GFP_ZERO);
}

static inline void *kvmalloc_array(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return kvmalloc(bytes, flags);
}

static inline void *kvcalloc(size_t n, size_t size, gfp_t flags)
{
	return kvmalloc_array(n, size, flags | __GFP_ZERO);
}

static inline void kvfree(const void *p)
{
	free((void *)p);
}

static inline void *kmemdup(const void *src, size_t len, gfp_t flags)
{
	void *p = kmalloc(len, flags);

	if (p)
		memcpy(p, src, len);
	return p;
}

#define kvmemdup(src, len, flags)	kmemdup(src, len, flags)

/* <linux/cleanup.h>'s __free(kfree), which slab.h defines in the kernel. */
static inline void __free_kfree(void *p)
{
	kfree(*(void **)p);
}
#define __free(name)	__attribute__((__cleanup__(__free_##name)))

#endif
