// SPDX-License-Identifier: GPL-2.0
/*
 * capebus-deferreason: a test module for series patch 0003 (driver core:
 * free a deferred probe reason recorded off the deferred list).  Never
 * loaded outside the QEMU guest.
 *
 * __driver_probe_device() answers a driver that registers while a device
 * is half-way through device_add() with dev_err_probe(-EPROBE_DEFER,
 * "Device not ready to probe"): the reason is recorded, but the device is
 * not put on the deferred list, because device_add() probes it again
 * itself.  Before the fix nothing freed that reason: driver_bound() and
 * device_del() free it only for a device on the list.  The race needs a
 * module loading while an overlay adds platform devices (mdev loading
 * leds-gpio while a cape loads); this module makes the same state at will:
 *
 *   echo 1 > /sys/kernel/debug/capebus-deferreason/run
 *
 * adds a platform device no driver takes, records a deferred probe reason
 * for it the way __driver_probe_device() does, and unregisters it.  A
 * kmemleak scan then finds the reason's string if the driver core leaked
 * it.
 */

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/platform_device.h>

static struct dentry *deferreason_dir;

static ssize_t deferreason_run(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct platform_device *pdev;
	int ret;

	pdev = platform_device_register_simple("capebus-deferreason",
					       PLATFORM_DEVID_AUTO, NULL, 0);
	if (IS_ERR(pdev))
		return PTR_ERR(pdev);
	ret = dev_err_probe(&pdev->dev, -EPROBE_DEFER,
			    "Device not ready to probe (test)\n");
	platform_device_unregister(pdev);

	return ret == -EPROBE_DEFER ? count : -EIO;
}

static const struct file_operations deferreason_fops = {
	.owner	= THIS_MODULE,
	.write	= deferreason_run,
};

static int __init deferreason_init(void)
{
	deferreason_dir = debugfs_create_dir("capebus-deferreason", NULL);
	debugfs_create_file("run", 0200, deferreason_dir, NULL,
			    &deferreason_fops);

	return 0;
}
module_init(deferreason_init);

static void __exit deferreason_exit(void)
{
	debugfs_remove_recursive(deferreason_dir);
}
module_exit(deferreason_exit);

MODULE_DESCRIPTION("capebus test: a deferred probe reason recorded off the deferred list");
MODULE_LICENSE("GPL");
