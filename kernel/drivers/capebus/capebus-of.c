// SPDX-License-Identifier: GPL-2.0
/*
 * capebus: a controller's rules from its connector node.  Every family's
 * connector binding states its header's rules alike (see the capebus
 * connector bindings): pins the board holds or shares, per-rail budgets,
 * the nodes capes may extend, the names cape overlays may use, the pins
 * behind each bus, the properties capes may set on a bus they enable.
 */

#include <linux/bitmap.h>
#include <linux/capebus.h>
#include <linux/cleanup.h>
#include <linux/device.h>
#include <linux/of.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "capebus-internal.h"

/* A string list of header pin names, as a bitmap. */
static int capebus_of_read_pins(struct capebus_controller *ctrl,
				struct device *dev, struct device_node *np,
			  const char *prop_name, unsigned long *pins)
{
	struct property *prop;
	const char *s;
	int pin;

	of_property_for_each_string(np, prop_name, prop, s) {
		pin = capebus_header_pin_index(ctrl->header, s);
		if (pin < 0)
			return dev_err_probe(dev, -EINVAL,
					     "%s: \"%s\" is not a header pin\n",
					     prop_name, s);
		__set_bit(pin, pins);
	}

	return 0;
}

/* Hand every node of a phandle list property to @add. */
static int capebus_of_read_nodes(struct capebus_controller *ctrl,
				 struct device *dev, const char *prop_name,
				 int (*add)(struct capebus_controller *ctrl,
					    struct device_node *np))
{
	struct device_node *np;
	int i, n, ret;

	n = of_count_phandle_with_args(dev->of_node, prop_name, NULL);
	if (n == -ENOENT)
		return 0;
	if (n < 0)
		return dev_err_probe(dev, n, "bad %s\n", prop_name);

	for (i = 0; i < n; i++) {
		np = of_parse_phandle(dev->of_node, prop_name, i);
		if (!np)
			return dev_err_probe(dev, -EINVAL, "bad %s entry %d\n",
					     prop_name, i);
		ret = add(ctrl, np);
		of_node_put(np);
		if (ret)
			return ret;
	}

	return n;
}

/*
 * The connector's export-symbols node: each property a name cape overlays
 * may use, its value the node the name stands for.
 */
static int capebus_of_read_exports(struct capebus_controller *ctrl,
				   struct device *dev)
{
	struct property *prop;
	struct device_node *np;
	int ret;

	struct device_node *exports __free(device_node) =
		of_get_child_by_name(dev->of_node, "export-symbols");
	if (!exports)
		return 0;

	for_each_property_of_node(exports, prop) {
		if (!strcmp(prop->name, "name") || !strcmp(prop->name, "phandle"))
			continue;
		np = of_parse_phandle(exports, prop->name, 0);
		if (!np || prop->length != sizeof(__be32)) {
			of_node_put(np);
			return dev_err_probe(dev, -EINVAL,
					     "export-symbols: %s is not one phandle\n",
					     prop->name);
		}
		ret = capebus_controller_add_export(ctrl, prop->name, np);
		of_node_put(np);
		if (ret)
			return dev_err_probe(dev, ret, "cannot export %s\n",
					     prop->name);
	}

	return 0;
}

/*
 * The connector's target-pins node: each property names an exported cape
 * target, its value the header pins behind it.  While a cape enables the
 * target, they are the bus's.
 */
static int capebus_of_read_target_pins(struct capebus_controller *ctrl,
				       struct device *dev)
{
	struct property *prop;
	struct device_node *np;
	int ret;

	struct device_node *tp __free(device_node) =
		of_get_child_by_name(dev->of_node, "target-pins");
	struct device_node *exports __free(device_node) =
		of_get_child_by_name(dev->of_node, "export-symbols");
	if (!tp)
		return 0;

	for_each_property_of_node(tp, prop) {
		DECLARE_BITMAP(pins, CAPEBUS_MAX_PINS) = { 0 };

		if (!strcmp(prop->name, "name") || !strcmp(prop->name, "phandle"))
			continue;
		ret = capebus_of_read_pins(ctrl, dev, tp, prop->name, pins);
		if (ret)
			return ret;
		np = exports ? of_parse_phandle(exports, prop->name, 0) : NULL;
		ret = np ? capebus_controller_set_target_pins(ctrl, np,
							      prop->name, pins) :
			   -ENOENT;
		of_node_put(np);
		if (ret)
			return dev_err_probe(dev, ret,
					     "target-pins: %s is not an exported cape target\n",
					     prop->name);
	}

	return 0;
}

/*
 * The connector's target-properties node: each property names an exported
 * cape target, its value the properties a cape overlay that enables the
 * target may set on it (an RS-485 UART's).  No other may be set.
 */
static int capebus_of_read_target_props(struct capebus_controller *ctrl,
					struct device *dev)
{
	struct property *prop;
	struct device_node *np;
	int ret;

	struct device_node *tp __free(device_node) =
		of_get_child_by_name(dev->of_node, "target-properties");
	struct device_node *exports __free(device_node) =
		of_get_child_by_name(dev->of_node, "export-symbols");
	if (!tp)
		return 0;

	for_each_property_of_node(tp, prop) {
		if (!strcmp(prop->name, "name") || !strcmp(prop->name, "phandle"))
			continue;
		np = exports ? of_parse_phandle(exports, prop->name, 0) : NULL;
		ret = np ? capebus_controller_set_target_props(ctrl, np,
							       prop->value,
							       prop->length) :
			   -ENOENT;
		of_node_put(np);
		if (ret == -EINVAL)
			return dev_err_probe(dev, ret,
					     "target-properties: %s is not a list of properties capes may set\n",
					     prop->name);
		if (ret)
			return dev_err_probe(dev, ret,
					     "target-properties: %s is not an exported cape target\n",
					     prop->name);
	}

	return 0;
}

/* cape-platform-compatibles: the platform devices capes may make. */
static int capebus_of_read_platform_compatibles(struct capebus_controller *ctrl,
						struct device *dev)
{
	struct property *prop;
	const char *compat;
	int ret;

	of_property_for_each_string(dev->of_node, "cape-platform-compatibles",
				    prop, compat) {
		ret = capebus_controller_add_platform_compatible(ctrl, compat);
		if (ret)
			return dev_err_probe(dev, ret,
					     "cape-platform-compatibles: %s\n",
					     compat);
	}

	return 0;
}

/* "<rail>-budget-microamp" for each of the header's rails, in mA. */
static int capebus_of_read_budgets(struct capebus_controller *ctrl,
				   struct device *dev, u32 *budget)
{
	const struct capebus_header *header = ctrl->header;
	unsigned int rail;
	u32 ua;

	for (rail = 0; rail < header->num_rails; rail++) {
		char *prop __free(kfree) = kasprintf(GFP_KERNEL, "%s-budget-microamp",
						     header->rail_names[rail]);
		if (!prop)
			return -ENOMEM;
		budget[rail] = CAPEBUS_BUDGET_UNLIMITED;
		if (!of_property_read_u32(dev->of_node, prop, &ua))
			budget[rail] = ua / 1000;
	}

	return 0;
}

/**
 * capebus_controller_of_read() - set a controller's rules from its node
 * @ctrl: the controller, allocated, not registered
 * @dev: the device whose node is the connector
 *
 * Reads the connector properties every capebus connector binding shares:
 * "<rail>-budget-microamp" per rail of the header, "board-pins",
 * "shared-pins", "console-pins", "cape-targets" (required),
 * "cape-platform-compatibles",
 * and the "export-symbols", "target-pins" and "target-properties" child
 * nodes, and hands them to capebus_controller_set_resources(),
 * _set_console_pins(), _add_target(), _add_platform_compatible(), _add_export(),
 * _set_target_pins() and _set_target_props().
 *
 * Return: 0, or an error (logged, naming the property).
 */
int capebus_controller_of_read(struct capebus_controller *ctrl,
			       struct device *dev)
{
	DECLARE_BITMAP(board, CAPEBUS_MAX_PINS) = { 0 };
	DECLARE_BITMAP(shared, CAPEBUS_MAX_PINS) = { 0 };
	DECLARE_BITMAP(console, CAPEBUS_MAX_PINS) = { 0 };
	u32 budget[CAPEBUS_MAX_RAILS];
	int ret;

	ret = capebus_of_read_budgets(ctrl, dev, budget);
	if (ret)
		return ret;
	ret = capebus_of_read_pins(ctrl, dev, dev->of_node, "board-pins", board);
	if (ret)
		return ret;
	ret = capebus_of_read_pins(ctrl, dev, dev->of_node, "shared-pins", shared);
	if (ret)
		return ret;
	ret = capebus_of_read_pins(ctrl, dev, dev->of_node, "console-pins", console);
	if (ret)
		return ret;

	ret = capebus_controller_set_resources(ctrl, budget, board, shared);
	if (ret)
		return dev_err_probe(dev, ret, "board-pins overlap shared-pins\n");
	/* Not shared: the console's pins are no cape's. */
	if (bitmap_intersects(console, shared, CAPEBUS_MAX_PINS) ||
	    capebus_controller_set_console_pins(ctrl, console))
		return dev_err_probe(dev, -EINVAL,
				     "console-pins overlap board-pins or shared-pins\n");

	ret = capebus_of_read_nodes(ctrl, dev, "cape-targets",
				    capebus_controller_add_target);
	if (ret < 0)
		return ret;
	if (!ret)
		return dev_err_probe(dev, -EINVAL, "no cape-targets\n");

	ret = capebus_of_read_platform_compatibles(ctrl, dev);
	if (ret)
		return ret;

	ret = capebus_of_read_exports(ctrl, dev);
	if (ret)
		return ret;

	ret = capebus_of_read_target_pins(ctrl, dev);
	if (ret)
		return ret;

	return capebus_of_read_target_props(ctrl, dev);
}
EXPORT_SYMBOL_GPL(capebus_controller_of_read);
