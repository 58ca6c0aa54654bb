/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/minmax.h>: kernel.h's min(), max(), min_t(). */
#include <linux/kernel.h>
