/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/sizes.h>. */
#ifndef KSHIM_LINUX_SIZES_H
#define KSHIM_LINUX_SIZES_H

#define SZ_1K	0x00000400
#define SZ_4K	0x00001000
#define SZ_64K	0x00010000

#endif
