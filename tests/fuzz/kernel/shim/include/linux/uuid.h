/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/uuid.h>: the type. */
#ifndef KSHIM_LINUX_UUID_H
#define KSHIM_LINUX_UUID_H

#include <linux/types.h>

#define UUID_SIZE 16

typedef struct {
	__u8 b[UUID_SIZE];
} uuid_t;

#endif
