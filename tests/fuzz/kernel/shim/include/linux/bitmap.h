/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/bitmap.h> and the bitops it pulls in: bitmaps
 * are arrays of unsigned long, bit @nr is bit nr % BITS_PER_LONG of word
 * nr / BITS_PER_LONG, and bitmap_zalloc() is kmalloc_array() of whole
 * longs, zeroed (a real heap block, so ASan sees a bit index past it).
 */
#ifndef KSHIM_LINUX_BITMAP_H
#define KSHIM_LINUX_BITMAP_H

#include <linux/bits.h>
#include <linux/slab.h>
#include <linux/types.h>

#define BITS_TO_LONGS(nr)	(((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define DECLARE_BITMAP(name, bits) unsigned long name[BITS_TO_LONGS(bits)]

static inline bool test_bit(unsigned long nr, const volatile unsigned long *addr)
{
	return 1UL & (addr[BIT_WORD(nr)] >> (nr & (BITS_PER_LONG - 1)));
}

static inline void __set_bit(unsigned long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

/* Single-threaded here: the atomic forms are the plain ones. */
#define set_bit(nr, addr)	__set_bit(nr, addr)
#define clear_bit(nr, addr)	__clear_bit(nr, addr)

static inline unsigned long *bitmap_alloc(unsigned int nbits, gfp_t flags)
{
	return kmalloc_array(BITS_TO_LONGS(nbits), sizeof(unsigned long), flags);
}

static inline unsigned long *bitmap_zalloc(unsigned int nbits, gfp_t flags)
{
	return bitmap_alloc(nbits, flags | __GFP_ZERO);
}

static inline void bitmap_free(const unsigned long *bitmap)
{
	kfree(bitmap);
}

#endif
