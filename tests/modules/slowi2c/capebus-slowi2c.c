// SPDX-License-Identifier: GPL-2.0
/*
 * capebus-slowi2c: a test I2C device driver whose probe waits until the
 * test lets it go, as a chip behind a slow bus does (a bit-banged bus, a
 * device that wakes slowly).  A cape that enables a header bus and adds a
 * "capebus-test,slow-i2c" node on it has that bus's probe, and so its
 * enable, take as long as the test says: what else waits meanwhile is
 * what the test looks at.  Never loaded outside the QEMU guest.
 *
 *   cat /sys/kernel/debug/capebus-slowi2c/probing   # 1 while waiting
 *   echo 1 > /sys/kernel/debug/capebus-slowi2c/release
 */

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/i2c.h>
#include <linux/jiffies.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>

static DECLARE_COMPLETION(slowi2c_go);
static atomic_t slowi2c_probing = ATOMIC_INIT(0);
static struct dentry *slowi2c_dir;

static int slowi2c_probe(struct i2c_client *client)
{
	atomic_set(&slowi2c_probing, 1);
	/* Not for ever: a test that never lets go fails, the guest goes on. */
	if (!wait_for_completion_timeout(&slowi2c_go, 60 * HZ))
		dev_warn(&client->dev, "not let go within 60 s\n");
	atomic_set(&slowi2c_probing, 0);

	return 0;
}

static const struct of_device_id slowi2c_of_match[] = {
	{ .compatible = "capebus-test,slow-i2c" },
	{ }
};
MODULE_DEVICE_TABLE(of, slowi2c_of_match);

static struct i2c_driver slowi2c_driver = {
	.probe		= slowi2c_probe,
	.driver		= {
		.name		= "capebus-slowi2c",
		.of_match_table	= slowi2c_of_match,
	},
};

static ssize_t slowi2c_release_write(struct file *file,
				     const char __user *ubuf, size_t count,
				     loff_t *ppos)
{
	complete(&slowi2c_go);

	return count;
}

static const struct file_operations slowi2c_release_fops = {
	.owner	= THIS_MODULE,
	.write	= slowi2c_release_write,
};

static int __init slowi2c_init(void)
{
	int ret;

	slowi2c_dir = debugfs_create_dir("capebus-slowi2c", NULL);
	debugfs_create_atomic_t("probing", 0444, slowi2c_dir, &slowi2c_probing);
	debugfs_create_file("release", 0200, slowi2c_dir, NULL,
			    &slowi2c_release_fops);

	ret = i2c_add_driver(&slowi2c_driver);
	if (ret)
		debugfs_remove_recursive(slowi2c_dir);

	return ret;
}
module_init(slowi2c_init);

static void __exit slowi2c_exit(void)
{
	i2c_del_driver(&slowi2c_driver);
	debugfs_remove_recursive(slowi2c_dir);
}
module_exit(slowi2c_exit);

MODULE_DESCRIPTION("capebus test: an I2C device whose probe waits to be let go");
MODULE_LICENSE("GPL");
