/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/errno.h>: the UAPI numbers (EINVAL 22,
 * ENOMEM 12, EMSGSIZE 90, ENODATA 61, EBADMSG 74, ...) are the system's
 * own, which glibc's <errno.h> also includes; then the kernel-internal
 * ones the UAPI header leaves out.
 */
#ifndef KSHIM_LINUX_ERRNO_H
#define KSHIM_LINUX_ERRNO_H

#include_next <linux/errno.h>

#define ERESTARTSYS	512
#define ENOTSUPP	524

#endif
