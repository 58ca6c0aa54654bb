// SPDX-License-Identifier: GPL-2.0
/*
 * capebus-rpi: the header pins the board's own device tree muxes.
 *
 * A Pi's tree may set header pins for devices of its own: mainline's Pi 2
 * B has its pin controller hog GPIO4-11 and GPIO18-21 in ALT0 for good, a
 * firmware dtparam enables a unit with its pin group.  pinctrl-bcm2835 then
 * holds those pins for that device, and a HAT's bus asking for them fails
 * to probe (its default state is refused) after the HAT was accepted; a
 * HAT's GPIO on one takes the pin from the board's function.  So the
 * connector holds them for the board: every pin of a group (brcm,pins, or
 * the generic pins = "gpioN") on the header's GPIO controller that an
 * available node of the board selects in one of its pinctrl states, the
 * pin controller's hogs included.  Not the connector's side: the connector
 * and its cape targets with what is below them (a HAT's devices, the
 * firmware's HAT's too; a target the board enables is the core's to judge,
 * capebus_controller_add_target()).
 */

#include <linux/bitmap.h>
#include <linux/capebus.h>
#include <linux/device.h>
#include <linux/of.h>

#include "rpi.h"

/* Header GPIOn's line: line @line of the controller @np. */
struct rpi_header_line {
	struct device_node *np;
	u32 line;
};

/*
 * The connector's gpio-map: GPIOn's controller and line, for n of the
 * header; an entry it does not parse leaves the rest unmapped.
 */
static void rpi_header_lines(struct device_node *conn,
			     struct rpi_header_line *lines)
{
	u32 child_cells, parent_cells, pin;
	struct device_node *parent;
	const __be32 *map, *end;
	int len;

	map = of_get_property(conn, "gpio-map", &len);
	if (!map || of_property_read_u32(conn, "#gpio-cells", &child_cells) ||
	    !child_cells)
		return;
	end = map + len / sizeof(*map);
	while (end - map > child_cells) {
		pin = be32_to_cpup(map);
		parent = of_find_node_by_phandle(be32_to_cpup(map + child_cells));
		if (!parent || of_property_read_u32(parent, "#gpio-cells",
						    &parent_cells) ||
		    !parent_cells || end - map < child_cells + 1 + parent_cells) {
			of_node_put(parent);
			return;
		}
		if (pin < RPI_NUM_PINS && !lines[pin].np) {
			lines[pin].np = parent;
			lines[pin].line = be32_to_cpup(map + child_cells + 1);
		} else {
			of_node_put(parent);
		}
		map += child_cells + 1 + parent_cells;
	}
}

/* The header pin that is line @line of @pctl, or -ENOENT. */
static int rpi_header_pin(const struct rpi_header_line *lines,
			  const struct device_node *pctl, u32 line)
{
	int pin;

	for (pin = 0; pin < RPI_NUM_PINS; pin++)
		if (lines[pin].np == pctl && lines[pin].line == line)
			return pin;

	return -ENOENT;
}

/* Add the header pins of pin group @grp to @pins. */
static void rpi_group_pins(const struct rpi_header_line *lines,
			   struct device_node *grp, unsigned long *pins)
{
	struct property *prop;
	const char *name;
	u32 line;
	int pin;

	of_property_for_each_u32(grp, "brcm,pins", line) {
		pin = rpi_header_pin(lines, grp->parent, line);
		if (pin >= 0)
			__set_bit(pin, pins);
	}
	of_property_for_each_string(grp, "pins", prop, name) {
		if (sscanf(name, "gpio%u", &line) != 1)
			continue;
		pin = rpi_header_pin(lines, grp->parent, line);
		if (pin >= 0)
			__set_bit(pin, pins);
	}
}

/* Is @np the connector's side: under @conn, or a cape target or below one? */
static bool rpi_connector_side(struct device_node *conn,
			       struct device_node *np)
{
	struct device_node *t;
	int i;

	for (; np; np = np->parent) {
		if (np == conn)
			return true;
		for (i = 0; (t = of_parse_phandle(conn, "cape-targets", i)); i++) {
			of_node_put(t);
			if (t == np)
				return true;
		}
	}

	return false;
}

/**
 * rpi_board_pins() - the header pins the board's own nodes mux
 * @dev: the connector's device
 * @pins: bitmap (CAPEBUS_MAX_PINS) the pins are added to
 *
 * Each node and the pins it muxes are logged: a HAT refused for one of them
 * is refused naming "the board".
 */
void rpi_board_pins(struct device *dev, unsigned long *pins)
{
	struct rpi_header_line lines[RPI_NUM_PINS] = { };
	struct device_node *conn = dev->of_node, *np = NULL, *grp;
	char state[16];
	int s, i, pin;

	rpi_header_lines(conn, lines);
	while ((np = of_find_all_nodes(np))) {
		DECLARE_BITMAP(mine, CAPEBUS_MAX_PINS) = { };

		if (!of_device_is_available(np) || rpi_connector_side(conn, np))
			continue;
		for (s = 0; ; s++) {
			snprintf(state, sizeof(state), "pinctrl-%d", s);
			if (!of_property_present(np, state))
				break;
			for (i = 0; (grp = of_parse_phandle(np, state, i)); i++) {
				rpi_group_pins(lines, grp, mine);
				of_node_put(grp);
			}
		}
		if (bitmap_empty(mine, RPI_NUM_PINS))
			continue;
		dev_info(dev, "%pOF muxes GPIO%*pbl: the board's\n", np,
			 RPI_NUM_PINS, mine);
		bitmap_or(pins, pins, mine, RPI_NUM_PINS);
	}
	for (pin = 0; pin < RPI_NUM_PINS; pin++)
		of_node_put(lines[pin].np);
}
