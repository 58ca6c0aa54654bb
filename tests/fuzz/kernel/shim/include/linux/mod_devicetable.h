/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/mod_devicetable.h>: what the series adds to it
 * (struct cape_device_id, CAPEBUS_*_SIZE), taken from
 * kernel/edits/include-linux-mod_devicetable.diff by the build
 * (capebus-mod_devicetable.h, on the include path), not a copy of it.
 */
#ifndef KSHIM_LINUX_MOD_DEVICETABLE_H
#define KSHIM_LINUX_MOD_DEVICETABLE_H

#include <linux/types.h>

typedef unsigned long kernel_ulong_t;

#include "capebus-mod_devicetable.h"

#endif
