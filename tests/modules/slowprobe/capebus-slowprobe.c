// SPDX-License-Identifier: GPL-2.0
/*
 * capebus-slowprobe: a test cape driver whose probe waits until the test
 * lets it go, so that a test can read a cape's state while a driver's
 * probe of it is under way (here: taking the cape over from the generic
 * driver, as a cape driver module loaded late does).  It binds part
 * CB-SLOW-01 and applies the cape's overlay once let go.  Never loaded
 * outside the QEMU guest.
 *
 *   cat /sys/kernel/debug/capebus-slowprobe/probing   # 1 while waiting
 *   echo 1 > /sys/kernel/debug/capebus-slowprobe/release
 */

#include <linux/atomic.h>
#include <linux/capebus.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/module.h>

static DECLARE_COMPLETION(slowprobe_go);
static atomic_t slowprobe_probing = ATOMIC_INIT(0);
static struct dentry *slowprobe_dir;

static int slowprobe_probe(struct cape_device *cape,
			   const struct cape_device_id *id)
{
	int ret;

	atomic_set(&slowprobe_probing, 1);
	/* Not for ever: a test that never lets go fails, the guest goes on. */
	if (!wait_for_completion_timeout(&slowprobe_go, 60 * HZ))
		dev_warn(&cape->dev, "not let go within 60 s\n");
	ret = capebus_cape_apply_overlay(cape);
	atomic_set(&slowprobe_probing, 0);

	return ret;
}

static void slowprobe_remove(struct cape_device *cape)
{
	capebus_cape_revert_overlay(cape);
}

static const struct cape_device_id slowprobe_ids[] = {
	{ .part_number = "CB-SLOW-01" },
	{ }
};

static struct capebus_driver slowprobe_driver = {
	.probe		= slowprobe_probe,
	.remove		= slowprobe_remove,
	.id_table	= slowprobe_ids,
	.driver		= {
		.name	= "capebus-slowprobe",
	},
};

static ssize_t slowprobe_release_write(struct file *file,
				       const char __user *ubuf, size_t count,
				       loff_t *ppos)
{
	complete(&slowprobe_go);

	return count;
}

static const struct file_operations slowprobe_release_fops = {
	.owner	= THIS_MODULE,
	.write	= slowprobe_release_write,
};

static int __init slowprobe_init(void)
{
	int ret;

	/* Before the driver: registering it probes (and waits). */
	slowprobe_dir = debugfs_create_dir("capebus-slowprobe", NULL);
	debugfs_create_atomic_t("probing", 0444, slowprobe_dir,
				&slowprobe_probing);
	debugfs_create_file("release", 0200, slowprobe_dir, NULL,
			    &slowprobe_release_fops);

	ret = capebus_driver_register(&slowprobe_driver);
	if (ret)
		debugfs_remove_recursive(slowprobe_dir);

	return ret;
}
module_init(slowprobe_init);

static void __exit slowprobe_exit(void)
{
	capebus_driver_unregister(&slowprobe_driver);
	debugfs_remove_recursive(slowprobe_dir);
}
module_exit(slowprobe_exit);

MODULE_DESCRIPTION("capebus test: a cape driver whose probe waits to be let go");
MODULE_LICENSE("GPL");
