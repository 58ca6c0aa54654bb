// SPDX-License-Identifier: GPL-2.0
/*
 * capebus: a platform device made below a cape's own device gets no driver.
 *
 * Some drivers trust their parent device: they read its driver data as the
 * type their usual parent's driver stores there (MFD cells, the children of
 * vexpress-config's bridge, ...).  A cape chooses the compatible of every
 * node it adds, so it chooses drivers; if a driver bound to one of its nodes
 * makes platform devices of the nodes below (simple-pm-bus, an MFD reading
 * its cells from the tree, any driver that populates its node), the cape
 * chooses the parent's driver too, and with it what the child's driver
 * takes for its parent's data: a cape could hand a vexpress child a
 * simple-pm-bus's clocks as its bridge's operations, and the kernel would
 * call through them.
 *
 * So when a platform device is added whose parent device was made from a
 * cape's node, and it has a node of its own, it is given a driver override
 * no driver has: it binds nothing, and says so (root may still bind it by
 * hand, through its driver_override attribute).  The rule needs no list of
 * drivers or compatibles; what the cape adds directly under a board bus is
 * the subject of the connector's platform compatibles (capebus-overlay.c).
 * A cape's node is one an overlay added below a cape target.
 */

#include <linux/device.h>
#include <linux/notifier.h>
#include <linux/of.h>
#include <linux/platform_device.h>

#include "capebus-internal.h"

/* A driver_override no driver has: "capebus" drivers are on the capebus bus. */
#define CAPEBUS_NO_DRIVER	"capebus:nested-in-a-cape"

static int capebus_is_target(struct device *dev, const void *data)
{
	return capebus_controller_has_target(to_capebus_controller(dev),
					     (struct device_node *)data);
}

/*
 * Was @np added by an overlay below a cape target?  The first node above it
 * that no overlay added is the fragment's target.
 */
static bool capebus_cape_node(struct device_node *np)
{
	struct device *dev;

	if (!np || !of_node_check_flag(np, OF_OVERLAY))
		return false;
	while (np && of_node_check_flag(np, OF_OVERLAY))
		np = np->parent;
	if (!np)
		return false;

	dev = class_find_device(&capebus_class, NULL, np, capebus_is_target);
	put_device(dev);

	return dev;
}

static int capebus_parents_notify(struct notifier_block *nb,
				  unsigned long action, void *data)
{
	struct device *dev = data;
	int ret;

	if (action != BUS_NOTIFY_ADD_DEVICE || !dev->of_node || !dev->parent ||
	    !capebus_cape_node(dev->parent->of_node))
		return NOTIFY_DONE;

	/*
	 * device_add() goes on whatever a notifier says: without the override
	 * (no memory for it) the device could bind, so say it loudly.
	 */
	ret = device_set_driver_override(dev, CAPEBUS_NO_DRIVER);
	if (ret) {
		dev_err(dev, "%pOF below a cape's device not held back: %d\n",
			dev->of_node, ret);
		return notifier_from_errno(ret);
	}

	dev_warn(dev, "no driver for %pOF: its parent device %s is a cape's\n",
		 dev->of_node, dev_name(dev->parent));

	return NOTIFY_OK;
}

static struct notifier_block capebus_parents_nb = {
	.notifier_call	= capebus_parents_notify,
};

int capebus_parents_init(void)
{
	return bus_register_notifier(&platform_bus_type, &capebus_parents_nb);
}

void capebus_parents_exit(void)
{
	bus_unregister_notifier(&platform_bus_type, &capebus_parents_nb);
}
