/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/sort.h>: sort_r() and sort() on glibc's
 * qsort_r().  The kernel's is a heapsort; callers may rely only on the
 * order their comparison defines, which both give.  A swap function, if
 * given, is not used (the kernel's default swap moves the same bytes).
 */
#ifndef KSHIM_LINUX_SORT_H
#define KSHIM_LINUX_SORT_H

#include <stdlib.h>
#include <linux/types.h>

/* glibc's, declared only under _GNU_SOURCE, which the shim does not set. */
extern void qsort_r(void *base, size_t nmemb, size_t size,
		    int (*compar)(const void *, const void *, void *), void *arg);

typedef int (*cmp_r_func_t)(const void *a, const void *b, const void *priv);
typedef void (*swap_r_func_t)(void *a, void *b, int size, const void *priv);
typedef int (*cmp_func_t)(const void *a, const void *b);
typedef void (*swap_func_t)(void *a, void *b, int size);

static inline void sort_r(void *base, size_t num, size_t size,
			  cmp_r_func_t cmp, swap_r_func_t swap, const void *priv)
{
	(void)swap;
	qsort_r(base, num, size,
		(int (*)(const void *, const void *, void *))cmp, (void *)priv);
}

static inline void sort(void *base, size_t num, size_t size, cmp_func_t cmp,
			swap_func_t swap)
{
	(void)swap;
	qsort(base, num, size, cmp);
}

#endif
