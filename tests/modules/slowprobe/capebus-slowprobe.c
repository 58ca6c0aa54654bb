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
#include <linux/moduleparam.h>
#include <linux/string.h>

static bool slowprobe_wait = true;
module_param_named(wait, slowprobe_wait, bool, 0444);
MODULE_PARM_DESC(wait, "Wait in probe until let go (default)");

static bool slowprobe_slot_state;
module_param_named(slot_state, slowprobe_slot_state, bool, 0444);
MODULE_PARM_DESC(slot_state, "Read the cape's own slot state in probe");

/* The word the last probe read, debugfs "slot_state" (a blob). */
static char slowprobe_state[16];
static struct debugfs_blob_wrapper slowprobe_state_blob = {
	.data	= slowprobe_state,
};

static DECLARE_COMPLETION(slowprobe_go);
static atomic_t slowprobe_probing = ATOMIC_INIT(0);
static struct dentry *slowprobe_dir;

static int slowprobe_probe(struct cape_device *cape,
			   const struct cape_device_id *id)
{
	int ret;

	atomic_set(&slowprobe_probing, 1);
	/* Not for ever: a test that never lets go fails, the guest goes on. */
	if (slowprobe_wait &&
	    !wait_for_completion_timeout(&slowprobe_go, 60 * HZ))
		dev_warn(&cape->dev, "not let go within 60 s\n");
	if (slowprobe_slot_state && cape->slot) {
		strscpy(slowprobe_state,
			capebus_slot_state_name(capebus_slot_state(cape->slot)));
		slowprobe_state_blob.size = strlen(slowprobe_state);
	}
	ret = capebus_cape_apply_overlay(cape);
	atomic_set(&slowprobe_probing, 0);

	return ret;
}

static void slowprobe_remove(struct cape_device *cape)
{
	capebus_cape_revert_overlay(cape);
}

static const struct cape_device_id slowprobe_ids[] = {
	{ CAPE_DEVICE("bone", "CB-SLOW-01") },
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
	debugfs_create_blob("slot_state", 0444, slowprobe_dir,
			    &slowprobe_state_blob);

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
