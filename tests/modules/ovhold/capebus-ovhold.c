// SPDX-License-Identifier: GPL-2.0
/*
 * capebus-ovhold: a test module that applies one device-tree overlay with a
 * bare of_overlay_fdt_apply() and holds it, so that a test can stack a
 * foreign overlay on a cape's nodes (the cape's overlay then cannot be
 * removed: it is "stuck").  Never loaded outside the QEMU guest.
 *
 *   cat foreign.dtbo > /sys/kernel/debug/capebus-ovhold/apply
 *   cat /sys/kernel/debug/capebus-ovhold/id       # changeset id, 0 if none
 *   echo 1 > /sys/kernel/debug/capebus-ovhold/remove
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#define OVHOLD_MAX	(64 * 1024)

static DEFINE_MUTEX(ovhold_lock);
static struct dentry *ovhold_dir;
static char *ovhold_buf;
static size_t ovhold_len;
static int ovhold_id;

static int ovhold_open(struct inode *inode, struct file *file)
{
	guard(mutex)(&ovhold_lock);
	ovhold_len = 0;

	return 0;
}

static ssize_t ovhold_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	guard(mutex)(&ovhold_lock);
	if (count > OVHOLD_MAX - ovhold_len)
		return -EFBIG;
	if (copy_from_user(ovhold_buf + ovhold_len, ubuf, count))
		return -EFAULT;
	ovhold_len += count;

	return count;
}

static int ovhold_release(struct inode *inode, struct file *file)
{
	int id = 0, ret;

	guard(mutex)(&ovhold_lock);
	if (ovhold_id)
		return 0;
	ret = of_overlay_fdt_apply(ovhold_buf, ovhold_len, &id, NULL);
	if (ret) {
		pr_info("capebus-ovhold: apply failed: %d\n", ret);
		if (id)
			of_overlay_remove(&id);
		return 0;
	}
	ovhold_id = id;

	return 0;
}

static const struct file_operations ovhold_apply_fops = {
	.owner		= THIS_MODULE,
	.open		= ovhold_open,
	.write		= ovhold_write,
	.release	= ovhold_release,
};

static ssize_t ovhold_remove_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	int ret;

	guard(mutex)(&ovhold_lock);
	if (!ovhold_id)
		return -ENOENT;
	ret = of_overlay_remove(&ovhold_id);

	return ret ?: count;
}

static const struct file_operations ovhold_remove_fops = {
	.owner		= THIS_MODULE,
	.write		= ovhold_remove_write,
};

static int ovhold_id_get(void *data, u64 *val)
{
	guard(mutex)(&ovhold_lock);
	*val = ovhold_id;

	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(ovhold_id_fops, ovhold_id_get, NULL, "%llu\n");

static int __init ovhold_init(void)
{
	ovhold_buf = kvmalloc(OVHOLD_MAX, GFP_KERNEL);
	if (!ovhold_buf)
		return -ENOMEM;
	ovhold_dir = debugfs_create_dir("capebus-ovhold", NULL);
	debugfs_create_file("apply", 0200, ovhold_dir, NULL, &ovhold_apply_fops);
	debugfs_create_file("remove", 0200, ovhold_dir, NULL, &ovhold_remove_fops);
	debugfs_create_file("id", 0400, ovhold_dir, NULL, &ovhold_id_fops);

	return 0;
}
module_init(ovhold_init);

static void __exit ovhold_exit(void)
{
	debugfs_remove_recursive(ovhold_dir);
	if (ovhold_id)
		of_overlay_remove(&ovhold_id);
	kvfree(ovhold_buf);
}
module_exit(ovhold_exit);

MODULE_DESCRIPTION("Hold a device-tree overlay for capebus's tests");
MODULE_LICENSE("GPL");
