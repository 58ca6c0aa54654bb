/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/device.h>: what <linux/capebus.h> declares with
 * it, for code that includes capebus.h for its plain types (struct
 * capebus_cape_info, struct capebus_header) and never touches a device.
 */
#ifndef KSHIM_LINUX_DEVICE_H
#define KSHIM_LINUX_DEVICE_H

#include <linux/kernel.h>

struct bus_type;
struct device_node;

struct list_head {
	struct list_head *next, *prev;
};

struct device {
	void *kshim_unused;
};

struct device_driver {
	const char *name;
};

/* Declared only: capebus.h's inline reference helpers, never called. */
struct device *get_device(struct device *dev);
void put_device(struct device *dev);

#define container_of_const(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#endif
