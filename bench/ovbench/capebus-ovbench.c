// SPDX-License-Identifier: GPL-2.0
/*
 * capebus-ovbench: apply an overlay with a bare of_overlay_fdt_apply() and
 * remove it again, timed, for bench/overlay-cost.sh to compare with the same
 * overlay applied as a cape (resolved and verified by capebus).  A bench
 * tool, never loaded outside the QEMU guest.
 *
 *   cat bare.dtbo > /sys/kernel/debug/capebus-ovbench/apply
 *   cat /sys/kernel/debug/capebus-ovbench/result   # "ret apply_ns remove_ns"
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#define OVBENCH_MAX	(64 * 1024)

static DEFINE_MUTEX(ovbench_lock);
static struct dentry *ovbench_dir;
static char *ovbench_buf;
static size_t ovbench_len;
static int ovbench_ret;
static u64 ovbench_apply_ns, ovbench_remove_ns;

static int ovbench_open(struct inode *inode, struct file *file)
{
	guard(mutex)(&ovbench_lock);
	ovbench_len = 0;

	return 0;
}

static ssize_t ovbench_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	guard(mutex)(&ovbench_lock);
	if (count > OVBENCH_MAX - ovbench_len)
		return -EFBIG;
	if (copy_from_user(ovbench_buf + ovbench_len, ubuf, count))
		return -EFAULT;
	ovbench_len += count;

	return count;
}

static int ovbench_release(struct inode *inode, struct file *file)
{
	ktime_t t0, t1, t2;
	int id = 0;

	guard(mutex)(&ovbench_lock);
	t0 = ktime_get();
	ovbench_ret = of_overlay_fdt_apply(ovbench_buf, ovbench_len, &id, NULL);
	t1 = ktime_get();
	if (id && of_overlay_remove(&id))
		pr_err("capebus-ovbench: overlay %d not removed\n", id);
	t2 = ktime_get();
	ovbench_apply_ns = ktime_to_ns(ktime_sub(t1, t0));
	ovbench_remove_ns = ktime_to_ns(ktime_sub(t2, t1));

	return 0;
}

static const struct file_operations ovbench_apply_fops = {
	.owner = THIS_MODULE,
	.open = ovbench_open,
	.write = ovbench_write,
	.release = ovbench_release,
};

static int ovbench_result_show(struct seq_file *s, void *unused)
{
	guard(mutex)(&ovbench_lock);
	seq_printf(s, "%d %llu %llu\n", ovbench_ret, ovbench_apply_ns,
		   ovbench_remove_ns);

	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ovbench_result);

static int __init ovbench_init(void)
{
	ovbench_buf = kvmalloc(OVBENCH_MAX, GFP_KERNEL);
	if (!ovbench_buf)
		return -ENOMEM;
	ovbench_dir = debugfs_create_dir("capebus-ovbench", NULL);
	debugfs_create_file("apply", 0200, ovbench_dir, NULL, &ovbench_apply_fops);
	debugfs_create_file("result", 0400, ovbench_dir, NULL, &ovbench_result_fops);

	return 0;
}
module_init(ovbench_init);

static void __exit ovbench_exit(void)
{
	debugfs_remove_recursive(ovbench_dir);
	kvfree(ovbench_buf);
}
module_exit(ovbench_exit);

MODULE_DESCRIPTION("capebus bench: bare overlay apply and remove, timed");
MODULE_LICENSE("GPL");
