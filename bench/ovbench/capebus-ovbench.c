// SPDX-License-Identifier: GPL-2.0
/*
 * capebus-ovbench: apply an overlay with a bare of_overlay_fdt_apply() and
 * remove it again, timed, for bench/overlay-cost.sh to compare with the same
 * overlay applied as a cape (resolved and verified by capebus).  A bench
 * tool, never loaded outside the QEMU guest.
 *
 *   cat bare.dtbo > /sys/kernel/debug/capebus-ovbench/apply
 *   cat /sys/kernel/debug/capebus-ovbench/result   # "ret apply_ns remove_ns"
 *
 * The last blob written to apply stays loaded: "echo 1 > keep" applies it
 * and keeps it, "echo 0 > keep" removes it, so a shell can time the bare
 * apply the way it times a cape's "echo 1 > enable" (both writes of a shell
 * builtin), between two reads of "now" (ktime_get_ns()).
 *
 * And for bench/overlay-scale.sh, an overlay of any size through both
 * paths: a bench controller of its own (its target a bus node under a
 * disabled node, so the overlay's nodes become no devices; it exports the
 * bus and a GPIO provider) with limits far above a cape's.  The overlay
 * written is resolved by capebus_fdt_resolve() into the blob capebus
 * applies; that blob is applied bare and removed, then the overlay is
 * added as a cape (resolved, claimed, applied with the PRE_APPLY verifier)
 * and removed.
 *
 *   cat overlay.dtbo > /sys/kernel/debug/capebus-ovbench/scale
 *   cat /sys/kernel/debug/capebus-ovbench/scale_result
 *	# "ret resolve_ns bare_apply_ns cape_resolve_ns cape_apply_ns verify_ns"
 */

#include <linux/capebus.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "capebus-fdt.h"
#include "capebus-internal.h"

#define OVBENCH_MAX	(4 * 1024 * 1024)

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

static int ovbench_keep_id;

static ssize_t ovbench_keep_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	bool on;
	int ret;

	ret = kstrtobool_from_user(ubuf, count, &on);
	if (ret)
		return ret;
	guard(mutex)(&ovbench_lock);
	if (on && !ovbench_keep_id)
		ret = of_overlay_fdt_apply(ovbench_buf, ovbench_len,
					   &ovbench_keep_id, NULL);
	else if (!on && ovbench_keep_id)
		ret = of_overlay_remove(&ovbench_keep_id);
	else
		ret = -EBUSY;

	return ret ? ret : count;
}

static const struct file_operations ovbench_keep_fops = {
	.owner = THIS_MODULE,
	.write = ovbench_keep_write,
};

static int ovbench_now_get(void *data, u64 *val)
{
	*val = ktime_get_ns();

	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(ovbench_now_fops, ovbench_now_get, NULL, "%llu\n");

/* ---- scale: the bench controller ----------------------------------------- */

#define OVBENCH_PH_BUS	0x7ffe0001
#define OVBENCH_PH_GPIO	0x7ffe0002

static const char *const ovbench_pins[] = { "B.1" };

static const struct capebus_header ovbench_header = {
	.name		= "ovbench",
	.family		= "ovbench",
	.pin_names	= ovbench_pins,
	.num_pins	= ARRAY_SIZE(ovbench_pins),
};

static const struct capebus_fdt_limits ovbench_limits = {
	.max_size	= OVBENCH_MAX,
	.max_nodes	= 100000,
	.max_props	= 400000,
	.max_node_props	= 128,
	.max_refs	= 100000,
	.max_name_pairs	= U32_MAX,
};

static struct of_changeset ovbench_cs;
static struct device_node *ovbench_top, *ovbench_bus, *ovbench_gpio;
static struct device *ovbench_dev;
static struct capebus_controller *ovbench_ctrl;
static struct capebus_cape_info *ovbench_info;
static int ovbench_scale_ret;
static u64 ovbench_scale_ns[5];

static int ovbench_lookup(void *ctx, const char *name, u32 *phandle)
{
	if (!strcmp(name, "bench_bus"))
		*phandle = OVBENCH_PH_BUS;
	else if (!strcmp(name, "bench_gpio"))
		*phandle = OVBENCH_PH_GPIO;
	else
		return -ENOENT;

	return 0;
}

static int ovbench_scale_setup(void)
{
	int ret;

	of_changeset_init(&ovbench_cs);
	ovbench_top = of_changeset_create_node(&ovbench_cs, of_root, "capebus-ovbench");
	if (!ovbench_top)
		return -ENOMEM;
	ret = of_changeset_add_prop_string(&ovbench_cs, ovbench_top, "status", "disabled");
	ovbench_bus = of_changeset_create_node(&ovbench_cs, ovbench_top, "bus");
	ovbench_gpio = of_changeset_create_node(&ovbench_cs, ovbench_top, "gpio");
	if (ret || !ovbench_bus || !ovbench_gpio)
		return ret ?: -ENOMEM;
	ret = of_changeset_add_prop_u32(&ovbench_cs, ovbench_bus, "#address-cells", 1) ?:
	      of_changeset_add_prop_u32(&ovbench_cs, ovbench_bus, "#size-cells", 0) ?:
	      of_changeset_add_prop_u32(&ovbench_cs, ovbench_bus, "phandle", OVBENCH_PH_BUS) ?:
	      of_changeset_add_prop_u32(&ovbench_cs, ovbench_gpio, "#gpio-cells", 2) ?:
	      of_changeset_add_prop_u32(&ovbench_cs, ovbench_gpio, "phandle", OVBENCH_PH_GPIO) ?:
	      of_changeset_apply(&ovbench_cs);
	if (ret)
		return ret;
	/* A phandle property added after its node is attached is not read. */
	ovbench_bus->phandle = OVBENCH_PH_BUS;
	ovbench_gpio->phandle = OVBENCH_PH_GPIO;

	ovbench_info = kzalloc(sizeof(*ovbench_info), GFP_KERNEL);
	if (!ovbench_info)
		return -ENOMEM;
	strscpy(ovbench_info->text[CAPEBUS_PART_NUMBER], "BENCH-SCALE");
	strscpy(ovbench_info->text[CAPEBUS_VERSION], "00A0");
	strscpy(ovbench_info->text[CAPEBUS_BOARD_NAME], "Bench");

	ovbench_dev = root_device_register("capebus-ovbench");
	if (IS_ERR(ovbench_dev))
		return PTR_ERR(ovbench_dev);
	ovbench_ctrl = capebus_controller_alloc(ovbench_dev, &ovbench_header, NULL, 0);
	if (IS_ERR(ovbench_ctrl))
		return PTR_ERR(ovbench_ctrl);

	return capebus_controller_set_fdt_limits(ovbench_ctrl, &ovbench_limits) ?:
	       capebus_controller_add_target(ovbench_ctrl, ovbench_bus) ?:
	       capebus_controller_add_export(ovbench_ctrl, "bench_bus", ovbench_bus) ?:
	       capebus_controller_add_export(ovbench_ctrl, "bench_gpio", ovbench_gpio) ?:
	       capebus_controller_register(ovbench_ctrl);
}

static void ovbench_scale_teardown(void)
{
	if (!IS_ERR_OR_NULL(ovbench_ctrl)) {
		capebus_controller_unregister(ovbench_ctrl);
		capebus_controller_put(ovbench_ctrl);
	}
	if (!IS_ERR_OR_NULL(ovbench_dev))
		root_device_unregister(ovbench_dev);
	kfree(ovbench_info);
	of_node_put(ovbench_top);
	of_node_put(ovbench_bus);
	of_node_put(ovbench_gpio);
	if (ovbench_top && of_changeset_revert(&ovbench_cs))
		pr_err("capebus-ovbench: test nodes not removed\n");
	of_changeset_destroy(&ovbench_cs);
}

/* One overlay through both paths: see the comment at the top. */
static int ovbench_scale_run(void)
{
	struct capebus_cape_desc desc = {
		.info = ovbench_info,
		.slot = CAPEBUS_SLOT_ANY_VIRTUAL,
		.overlay = ovbench_buf,
		.overlay_len = ovbench_len,
		.overlay_source = "configfs",
	};
	char why[CAPEBUS_REASON_LEN];
	struct cape_device *cape;
	void *resolved;
	size_t len;
	ktime_t t0;
	int ret, id = 0;

	memset(ovbench_scale_ns, 0, sizeof(ovbench_scale_ns));
	t0 = ktime_get();
	ret = capebus_fdt_resolve(ovbench_buf, ovbench_len, &ovbench_limits,
				  ovbench_lookup, NULL, &resolved, &len, NULL,
				  why, sizeof(why));
	ovbench_scale_ns[0] = ktime_to_ns(ktime_sub(ktime_get(), t0));
	if (ret) {
		pr_err("capebus-ovbench: not resolved: %s\n", why);
		return ret;
	}

	t0 = ktime_get();
	ret = of_overlay_fdt_apply(resolved, len, &id, NULL);
	ovbench_scale_ns[1] = ktime_to_ns(ktime_sub(ktime_get(), t0));
	if (id && of_overlay_remove(&id))
		pr_err("capebus-ovbench: overlay %d not removed\n", id);
	kvfree(resolved);
	if (ret)
		return ret;

	cape = capebus_cape_add(ovbench_ctrl, &desc, why, sizeof(why));
	if (IS_ERR(cape)) {
		pr_err("capebus-ovbench: cape refused: %s\n", why);
		return PTR_ERR(cape);
	}
	ovbench_scale_ns[2] = cape->resolve_ns;
	ovbench_scale_ns[3] = cape->apply_ns;
	ovbench_scale_ns[4] = cape->verify_ns;
	capebus_cape_remove(cape);
	capebus_cape_put(cape);

	return 0;
}

static int ovbench_scale_release(struct inode *inode, struct file *file)
{
	guard(mutex)(&ovbench_lock);
	ovbench_scale_ret = ovbench_scale_run();

	return 0;
}

static const struct file_operations ovbench_scale_fops = {
	.owner = THIS_MODULE,
	.open = ovbench_open,
	.write = ovbench_write,
	.release = ovbench_scale_release,
};

static int ovbench_scale_result_show(struct seq_file *s, void *unused)
{
	guard(mutex)(&ovbench_lock);
	seq_printf(s, "%d %llu %llu %llu %llu %llu\n", ovbench_scale_ret,
		   ovbench_scale_ns[0], ovbench_scale_ns[1], ovbench_scale_ns[2],
		   ovbench_scale_ns[3], ovbench_scale_ns[4]);

	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ovbench_scale_result);

static int __init ovbench_init(void)
{
	int ret;

	ovbench_buf = kvmalloc(OVBENCH_MAX, GFP_KERNEL);
	if (!ovbench_buf)
		return -ENOMEM;
	ret = ovbench_scale_setup();
	if (ret) {
		ovbench_scale_teardown();
		kvfree(ovbench_buf);
		return ret;
	}
	ovbench_dir = debugfs_create_dir("capebus-ovbench", NULL);
	debugfs_create_file("apply", 0200, ovbench_dir, NULL, &ovbench_apply_fops);
	debugfs_create_file("result", 0400, ovbench_dir, NULL, &ovbench_result_fops);
	debugfs_create_file("keep", 0200, ovbench_dir, NULL, &ovbench_keep_fops);
	debugfs_create_file_unsafe("now", 0400, ovbench_dir, NULL, &ovbench_now_fops);
	debugfs_create_file("scale", 0200, ovbench_dir, NULL, &ovbench_scale_fops);
	debugfs_create_file("scale_result", 0400, ovbench_dir, NULL,
			    &ovbench_scale_result_fops);

	return 0;
}
module_init(ovbench_init);

static void __exit ovbench_exit(void)
{
	debugfs_remove_recursive(ovbench_dir);
	if (ovbench_keep_id)
		of_overlay_remove(&ovbench_keep_id);
	ovbench_scale_teardown();
	kvfree(ovbench_buf);
}
module_exit(ovbench_exit);

MODULE_DESCRIPTION("capebus bench: bare overlay apply and remove, timed");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
