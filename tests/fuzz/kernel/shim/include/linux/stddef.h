/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/stddef.h>: offsetof, sizeof_field. */
#ifndef KSHIM_LINUX_STDDEF_H
#define KSHIM_LINUX_STDDEF_H

#include_next <linux/stddef.h>	/* UAPI part: __struct_group, ... */
#include <stdbool.h>
#include <stddef.h>

#define sizeof_field(TYPE, MEMBER) sizeof((((TYPE *)0)->MEMBER))
#define offsetofend(TYPE, MEMBER) \
	(offsetof(TYPE, MEMBER) + sizeof_field(TYPE, MEMBER))

#endif
