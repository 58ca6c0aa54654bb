// SPDX-License-Identifier: GPL-2.0
/*
 * capebus-devwatch: counts the platform devices the driver core adds for
 * one device tree node, so that a test can tell whether a bus was enabled
 * (and its driver probed) at all, even for a moment.  Never loaded outside
 * the QEMU guest.
 *
 *   insmod capebus-devwatch.ko node=serial-header4
 *   cat /sys/module/capebus_devwatch/parameters/adds
 */

#include <linux/atomic.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>
#include <linux/of.h>
#include <linux/platform_device.h>

static char *devwatch_node = "";
module_param_named(node, devwatch_node, charp, 0444);
MODULE_PARM_DESC(node, "The node's name (its full name: serial-header4)");

static atomic_t devwatch_adds = ATOMIC_INIT(0);

static int devwatch_adds_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&devwatch_adds));
}

static const struct kernel_param_ops devwatch_adds_ops = {
	.get	= devwatch_adds_get,
};
module_param_cb(adds, &devwatch_adds_ops, NULL, 0444);
MODULE_PARM_DESC(adds, "Platform devices added for the node since loading");

static int devwatch_notify(struct notifier_block *nb, unsigned long action,
			   void *data)
{
	struct device *dev = data;

	if (action == BUS_NOTIFY_ADD_DEVICE && dev->of_node &&
	    !strcmp(kbasename(dev->of_node->full_name), devwatch_node))
		atomic_inc(&devwatch_adds);

	return NOTIFY_DONE;
}

static struct notifier_block devwatch_nb = {
	.notifier_call	= devwatch_notify,
};

static int __init devwatch_init(void)
{
	return bus_register_notifier(&platform_bus_type, &devwatch_nb);
}
module_init(devwatch_init);

static void __exit devwatch_exit(void)
{
	bus_unregister_notifier(&platform_bus_type, &devwatch_nb);
}
module_exit(devwatch_exit);

MODULE_DESCRIPTION("capebus test: count the devices added for a node");
MODULE_LICENSE("GPL");
