/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/limits.h>: the C library's, and types.h's U*_MAX. */
#ifndef KSHIM_LINUX_LIMITS_H
#define KSHIM_LINUX_LIMITS_H

#include <limits.h>
#include <linux/types.h>

#endif
