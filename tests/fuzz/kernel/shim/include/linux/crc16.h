/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/crc16.h>: crc16() is lib/crc16.c's, the
 * reflected CRC-16 of polynomial 0x8005 (0xa001) with no inversions, so
 * crc16(0, p, n) is CRC-16/ARC.  Implemented in kshim.c, checked against
 * 0xbb3d at start-up.
 */
#ifndef KSHIM_LINUX_CRC16_H
#define KSHIM_LINUX_CRC16_H

#include <linux/types.h>

u16 crc16(u16 crc, const u8 *buffer, size_t len);

#endif
