// SPDX-License-Identifier: GPL-2.0
/*
 * capebus: a platform device made below a cape's own device gets no driver.
 *
 * A cape chooses the compatible of every node it adds, so it chooses
 * drivers; if one of them makes platform devices of the nodes below (a
 * simple-pm-bus, an MFD), the cape chooses a driver and its parent's driver
 * too, and with them what the child takes for its parent's driver data
 * (Documentation/capebus/threat-model.rst, Parents).  So a platform device
 * with a node of its own, whose parent device was made from a cape's node
 * (one an overlay added below a cape target), is given a driver override no
 * driver has: it binds nothing, and says so (root may still bind it through
 * its driver_override attribute).  What a cape adds directly under a board
 * bus is the connector's platform compatibles' (capebus-overlay.c).
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
