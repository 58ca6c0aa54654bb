/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/crc32.h>: crc32_le() is the kernel's, the
 * reflected CRC-32 (polynomial 0xedb88320) with neither the initial nor
 * the final inversion, so ~crc32_le(~0, p, n) is zlib's crc32(0, p, n).
 * Implemented in kshim.c, checked against 0xcbf43926 at start-up.
 */
#ifndef KSHIM_LINUX_CRC32_H
#define KSHIM_LINUX_CRC32_H

#include <linux/types.h>

u32 crc32_le(u32 crc, const unsigned char *p, size_t len);

#endif
