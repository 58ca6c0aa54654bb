// SPDX-License-Identifier: GPL-2.0
/*
 * capebus: the device of a header bus capebus enables, made and removed by
 * capebus itself, outside the OF core's locks.
 *
 * The changeset that enables a target (capebus-enable.c) sets its status
 * and properties only.  Left to the OF core, the status would make the
 * target's platform device in of_platform_notify(), an OF_RECONFIG notifier
 * called with of_mutex held: the bus's probe, and the probes of every device
 * on it, would then run with every device-tree change in the system waiting.
 * So the target is marked OF_POPULATED across the apply and the revert, as
 * a device that a driver populated itself is, and the notifier leaves it
 * alone; the device is made once the apply has returned, and removed before
 * the revert starts, as the notifier would have made and removed it: a
 * platform device, under the parent's platform device, for a node whose
 * parent is the root or a bus populated with its children (for any other,
 * the notifier does nothing, and neither does capebus: a node below an I2C
 * or SPI controller is that bus core's, which makes its devices in its own
 * notifier).  That notifier makes a platform device of an "arm,primecell"
 * node too; so does capebus.
 */

#include <linux/of.h>
#include <linux/of_platform.h>
#include <linux/platform_device.h>

#include "capebus-internal.h"

/* Would of_platform_notify() make and remove @np's device? */
static bool capebus_target_on_bus(struct device_node *np)
{
	struct device_node *parent = np->parent;

	return parent && (of_node_is_root(parent) ||
			  of_node_check_flag(parent, OF_POPULATED_BUS));
}

/* Make @np's device, as of_platform_notify() does on OF_RECONFIG_CHANGE_ADD. */
static int capebus_target_device_add(struct device_node *np)
{
	struct platform_device *parent, *pdev;

	parent = of_find_device_by_node(np->parent);
	pdev = of_platform_device_create(np, NULL, parent ? &parent->dev : NULL);
	platform_device_put(parent);
	/* NULL also when someone populated it meanwhile: then it is made. */
	if (!pdev && !of_node_check_flag(np, OF_POPULATED)) {
		pr_err("capebus: %pOF: cannot create its device\n", np);
		return -ENODEV;
	}

	return 0;
}

/* Remove @np's device, as of_platform_notify() does on ..._CHANGE_REMOVE. */
static void capebus_target_device_del(struct device_node *np)
{
	struct platform_device *pdev;

	if (!of_node_check_flag(np, OF_POPULATED))
		return;
	pdev = of_find_device_by_node(np);
	if (!pdev)
		return;
	of_platform_device_destroy(&pdev->dev, NULL);
	platform_device_put(pdev);
}

/**
 * capebus_target_enable() - apply the changeset that enables a target, then
 *	make its device
 * @np: the target
 * @cs: its changeset (status = "okay", the properties capes set)
 * @applied: set to whether @cs is in the tree on return
 *
 * The target's device, its probe and the probes of the devices below it run
 * after of_changeset_apply() has returned, with none of the OF core's locks
 * held.  If the device cannot be made, the changeset is reverted.
 *
 * Context: process context; the caller serialises the changes of @np.
 * Return: 0 or a negative errno.
 */
int capebus_target_enable(struct device_node *np, struct of_changeset *cs,
			  bool *applied)
{
	bool ours = capebus_target_on_bus(np) &&
		    !of_node_test_and_set_flag(np, OF_POPULATED);
	int ret;

	ret = of_changeset_apply(cs);
	*applied = !ret;
	if (!ours)
		return ret;
	of_node_clear_flag(np, OF_POPULATED);
	if (ret)
		return ret;

	ret = capebus_target_device_add(np);
	if (ret)
		*applied = !!of_changeset_revert(cs);

	return ret;
}

/**
 * capebus_target_disable() - remove a target's device, then revert the
 *	changeset that enabled it
 * @np: the target
 * @cs: the changeset capebus_target_enable() applied
 *
 * The device and those below it are removed before of_changeset_revert(),
 * with none of the OF core's locks held.  If the revert fails (the target
 * stays enabled), the device is made again.
 *
 * Context: process context; the caller serialises the changes of @np.
 * Return: 0, or the revert's negative errno (@cs is still applied).
 */
int capebus_target_disable(struct device_node *np, struct of_changeset *cs)
{
	bool ours = capebus_target_on_bus(np);
	int ret;

	if (ours) {
		capebus_target_device_del(np);
		of_node_set_flag(np, OF_POPULATED);
	}
	ret = of_changeset_revert(cs);
	if (ours) {
		of_node_clear_flag(np, OF_POPULATED);
		if (ret)
			capebus_target_device_add(np);
	}

	return ret;
}
