// SPDX-License-Identifier: GPL-2.0
/*
 * capebus-bone: the connector muxes the pads behind a cape's header pins.
 *
 * A cape states its pins and their settings (its EEPROM's pin words); a cape
 * overlay never targets the pin controller.  The connector node names the
 * pin controller (cape-pinctrl, a pinctrl-single instance) and, per header
 * pin, the pad behind it and the mux modes the pad offers capes (cape-pads:
 * <pin-code pad-offset mode-mask> triples, the pin code 800 + n for P8.n and
 * 900 + n for P9.n as in the connector's gpio-map, bit n of the mask for
 * mode n).  A cape whose pin asks for a mode its pad does not offer is
 * refused before anything is added or written: the pin words come from an
 * untrusted EEPROM, and some modes of the header's pads are inputs of units
 * the board uses itself (on the Black, gpmc_ad8-11 in mode 2 are the eMMC
 * controller's data lines).  For each cape with muxable pins, a changeset
 * the connector owns adds:
 *
 *   - under the pin controller, per pin, a group node
 *     "capebus-pad-<pad>-<value>" (bone_pad_group_name()) with one
 *     pinctrl-single,pins entry, in the pin controller's own cell layout
 *     (its #pinctrl-cells: <offset value> for 1, <offset conf mux> for 2,
 *     the AM335x control module's, as AM33XX_PADCONF() writes them), the
 *     value the AM335x conf_ register layout of the pin's setting
 *     (bone_pin_setting_conf(), bone_pinmux_entry());
 *   - under the connector, a node "<cape>" with pinctrl-0 pointing at the
 *     groups and pinctrl-names = "default": the cape device's of_node.
 *
 * Then the cape device gets its pinctrl handle and the default state is
 * selected: the pin controller requests the pads and writes them, and
 * refuses pads someone else holds (a board hog, say).  pinctrl-single never
 * forgets a group or function it has parsed (its name, pins and values stay
 * until the pin controller unbinds), and takes a group by its name, with
 * the pads and values it was first parsed with.  A group per pad and value,
 * named after both and nothing else, bounds what distinct capes leave
 * there by what the connector offers: the pads of cape-pads, times the
 * modes each offers, times the 12 settings of the other pad bits (pull
 * off, down or up; receiver on or off; slew fast or slow).  A group per
 * cape, named after its cells, grew with every distinct set of pin words
 * an EEPROM can state.  Every cape on a pad at a value gets the group that
 * says exactly that, so no cape can hand another its pads.  The nodes
 * themselves go with the changeset: the OF core frees a node it detached
 * once its last reference is put, and pinctrl-single keeps a copy of the
 * name (series patch "pinctrl: single: give groups and functions a copy of
 * the node's name").  The nodes' phandles are the cape's slot's and pins',
 * so the tree a cape leaves is the same each time.
 *
 * pinctrl-single writes a pad when a state is selected and leaves its
 * register as it is when the pad is freed.  So the connector reads each
 * pad's value before it first muxes it for a cape, and once capebus holds
 * the pad for nothing (its cape removed, the stuck overlay of a cape
 * removed before come off, the bus it was muxed for disabled: whichever
 * path let go of it) a consumer of the connector's own selects that value
 * again and lets go: a removed cape's function is not left routed to the
 * pad.  Not so while capebus holds it: a stuck cape's devices, or an
 * enabled bus's, still use it.  The values are kept by the capebus core
 * for the connector node (capebus_controller_board_pads()), not by its
 * controller: a stuck cape and the buses it keeps enabled outlive the
 * controller, and the next one (which adopts them) puts their pads back.
 */

#include <linux/bitmap.h>
#include <linux/capebus.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fwnode.h>
#include <linux/io.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/pinctrl/consumer.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "bone.h"

/* The phandles the connector gives its group nodes start here. */
#define BONE_PINMUX_PHANDLE_BASE	0xcb000000

/*
 * The pin controller's #pinctrl-cells: pinctrl-single's legacy binding has
 * none and means 1.  A pin controller with pinctrl-single,bits-per-mux
 * reads its cells as <offset value mask>, not as a pad's value: refused.
 */
static int bone_pinmux_read_cells(struct device *dev, struct bone_pinmux *pm)
{
	if (of_property_read_bool(pm->pctl_np, "pinctrl-single,bits-per-mux")) {
		dev_err(dev,
			"cape-pinctrl %pOF: pinctrl-single,bits-per-mux pin controllers are not supported (one register per pad only)\n",
			pm->pctl_np);
		return -EINVAL;
	}
	if (of_property_read_u32(pm->pctl_np, "#pinctrl-cells", &pm->cells))
		pm->cells = 1;
	if (pm->cells != 1 && pm->cells != 2) {
		dev_err(dev,
			"cape-pinctrl %pOF: #pinctrl-cells = <%u>: only <1> (<offset value>) and <2> (<offset conf mux>) are supported\n",
			pm->pctl_np, pm->cells);
		return -EINVAL;
	}

	return 0;
}

/*
 * Map the pin controller's registers to read the pads' values before capes
 * change them: pinctrl-single has no call that reads a pad.  Read only;
 * pinctrl-single writes them.  Without them (or without the core's place
 * for the values), pads are not put back, nor held for a bus once the cape
 * that muxed them is gone.
 */
static void bone_pinmux_map(struct device *dev, struct capebus_controller *ctrl,
			    struct bone_pinmux *pm)
{
	pm->board = capebus_controller_board_pads(ctrl);
	if (!pm->board) {
		dev_warn(dev, "no memory for the board's pad values: pads are not put back when capes go\n");
		return;
	}
	if (of_property_read_u32(pm->pctl_np, "pinctrl-single,register-width",
				 &pm->width) ||
	    (pm->width != 8 && pm->width != 16 && pm->width != 32)) {
		dev_warn(dev, "cape-pinctrl %pOF: no register width: pads are not put back when capes go\n",
			 pm->pctl_np);
		return;
	}
	pm->regs = of_iomap(pm->pctl_np, 0);
	if (!pm->regs)
		dev_warn(dev, "cape-pinctrl %pOF: cannot map its registers: pads are not put back when capes go\n",
			 pm->pctl_np);
}

/* The value of the pad behind @pin now. */
static u32 bone_pad_read(const struct bone_pinmux *pm, unsigned int pin)
{
	void __iomem *reg = pm->regs + pm->pad[pin];

	switch (pm->width) {
	case 8:
		return readb(reg);
	case 16:
		return readw(reg);
	default:
		return readl(reg);
	}
}

/**
 * bone_pinmux_init() - read the connector's pin controller and pad table
 * @dev: the connector's device (its of_node is the connector)
 * @ctrl: the connector's controller (not registered yet)
 * @pm: filled in; bone_pinmux_exit() undoes it
 *
 * Without cape-pinctrl the connector muxes nothing.
 *
 * Return: 0, or -EINVAL (bad cape-pads, or a pin controller whose cell
 * layout the connector cannot write; the log says which).
 */
int bone_pinmux_init(struct device *dev, struct capebus_controller *ctrl,
		     struct bone_pinmux *pm)
{
	struct device_node *np = dev->of_node;
	struct property *prop;
	const char *name;
	int i, n, pin;
	u32 code, pad, modes;

	memset(pm, 0, sizeof(*pm));
	INIT_LIST_HEAD(&pm->keepers);
	for (i = 0; i < CAPEBUS_MAX_PINS; i++)
		pm->pad[i] = BONE_PAD_NONE;

	pm->pctl_np = of_parse_phandle(np, "cape-pinctrl", 0);
	if (!pm->pctl_np)
		return 0;
	if (bone_pinmux_read_cells(dev, pm))
		goto err;
	bone_pinmux_map(dev, ctrl, pm);

	n = of_property_count_u32_elems(np, "cape-pads");
	if (n < 0 || n % 3) {
		dev_err(dev, "cape-pads: not <pin-code pad-offset mode-mask> triples\n");
		goto err;
	}
	for (i = 0; i < n; i += 3) {
		of_property_read_u32_index(np, "cape-pads", i, &code);
		of_property_read_u32_index(np, "cape-pads", i + 1, &pad);
		of_property_read_u32_index(np, "cape-pads", i + 2, &modes);
		pin = capebus_header_gpio_pin(&bone_header, code);
		if (pin < 0 || pad == BONE_PAD_NONE || pad % 4 ||
		    modes & ~BONE_PAD_MODES_ALL) {
			dev_err(dev, "cape-pads: bad entry <%u 0x%x 0x%x>\n",
				code, pad, modes);
			goto err;
		}
		pm->pad[pin] = pad;
		pm->modes[pin] = modes;
	}

	/*
	 * The board's shared cape bus (shared-pins: the bone's I2C2, where
	 * every cape's ID EEPROM answers) is muxed by the board for its own
	 * bus device.  Every cape names those pins in its EEPROM; none may
	 * claim their pads, or the first cape would meet pinctrl's refusal
	 * and the second the first's group.
	 */
	of_property_for_each_string(np, "shared-pins", prop, name) {
		pin = capebus_header_pin_index(&bone_header, name);
		if (pin >= 0) {
			pm->pad[pin] = BONE_PAD_NONE;
			pm->modes[pin] = 0;
		}
	}

	return 0;

err:
	if (pm->regs)
		iounmap(pm->regs);
	pm->regs = NULL;
	of_node_put(pm->pctl_np);
	pm->pctl_np = NULL;
	return -EINVAL;
}

static struct property *bone_new_prop(const char *name, const void *value,
				      int len)
{
	struct property *pp = kzalloc(sizeof(*pp), GFP_KERNEL);

	if (!pp)
		return NULL;
	pp->name = kstrdup(name, GFP_KERNEL);
	pp->value = kmemdup(value, len, GFP_KERNEL);
	pp->length = len;
	if (!pp->name || !pp->value) {
		kfree(pp->name);
		kfree(pp->value);
		kfree(pp);
		return NULL;
	}
	of_property_set_flag(pp, OF_DYNAMIC);

	return pp;
}

/*
 * A node of the changeset @ocs, with its "name" (and "phandle", if
 * @phandle) properties in place before the changeset is applied: attaching
 * a node takes both from the node's own properties, and the properties a
 * changeset adds come after the attach (so nodes of_changeset_create_node()
 * makes are named "<NULL>" and have no phandle).  The node is private until
 * the changeset is applied.  Returns it with a reference for the caller;
 * the changeset holds its own.
 */
static struct device_node *bone_new_node(struct of_changeset *ocs,
					 struct device_node *parent,
					 const char *name, u32 phandle)
{
	__be32 ph = cpu_to_be32(phandle);
	struct device_node *np;
	struct property *pp;

	np = of_changeset_create_node(ocs, parent, name);
	if (!np)
		return NULL;

	pp = bone_new_prop("name", name, strlen(name) + 1);
	if (!pp)
		goto err;
	pp->next = np->properties;
	np->properties = pp;
	if (phandle) {
		pp = bone_new_prop("phandle", &ph, sizeof(ph));
		if (!pp)
			goto err;
		pp->next = np->properties;
		np->properties = pp;
	}

	return np;

err:
	/* The changeset's reference frees it when the changeset goes. */
	of_node_put(np);
	return NULL;
}

/*
 * An unused phandle for the group node of header pin @pin of a consumer:
 * the one of @nr (a cape's slot, or a keeper's number from the top down)
 * and @pin, unless something else took it.  The controller's transition
 * lock is held: no other cape of the connector comes or goes meanwhile.
 */
static u32 bone_pinmux_phandle(unsigned int nr, unsigned int pin)
{
	struct device_node *np;
	unsigned int i;
	u32 ph;

	for (i = 0; i < 64; i++) {
		ph = BONE_PINMUX_PHANDLE_BASE +
		     (i * 0x1000 + nr % 0x1000) * CAPEBUS_MAX_PINS + pin;
		np = of_find_node_by_phandle(ph);
		if (!np)
			return ph;
		of_node_put(np);
	}

	return 0;
}

/*
 * Pads a consumer holds: its groups and node, its pinctrl handle, and per
 * pin the value it gives the pad.
 */
struct bone_pads {
	struct of_changeset ocs;
	struct device_node *node;
	struct pinctrl *pinctrl;
	DECLARE_BITMAP(pins, CAPEBUS_MAX_PINS);
	u32 conf[CAPEBUS_MAX_PINS];
};

/* What the connector set up for one cape (cape->ctrl_data). */
struct bone_cape_pinmux {
	struct bone_pads pads;
};

/*
 * The pads of an enabled bus, held for the capes that share them once the
 * cape that muxed them is gone: a consumer device of the connector's own,
 * never registered, named "<controller>-bus-pads<N>" in the pin
 * controller's tables.
 */
struct bone_pad_keeper {
	struct list_head node;
	struct device dev;
	struct bone_pads pads;
};

/*
 * The pins of @mask the connector muxes as @info's pin words say: their
 * pads' values into @conf, the pins into @pins.
 */
static void bone_pinmux_confs(const struct bone_pinmux *pm,
			      const struct capebus_cape_info *info,
			      const unsigned long *mask, u32 *conf,
			      unsigned long *pins)
{
	unsigned int pin;

	bitmap_zero(pins, CAPEBUS_MAX_PINS);
	for_each_set_bit(pin, mask, bone_header.num_pins)
		if (pm->pad[pin] != BONE_PAD_NONE &&
		    !bone_pin_setting_conf(info->pin_setting[pin], &conf[pin]))
			set_bit(pin, pins);
}

/*
 * Into @pads->ocs, a group node under the pin controller for each header
 * pin of @mask (bone_pinmux_confs()'s; bone_pinmux_init() checked the
 * cell layout): its pad at the pin's value in @pads->conf, named after
 * both, its phandle @nr's and the pin's, in @phandles.  The pins go to
 * @pads->pins, their names to @names.  Returns the number of groups, or a
 * negative errno (-ENOSPC: no free phandle).
 */
static int bone_pads_groups(struct bone_pinmux *pm, u32 nr,
			    const unsigned long *mask, struct bone_pads *pads,
			    u32 *phandles, char *names, size_t names_len)
{
	char group[BONE_PAD_GROUP_NAME_LEN];
	u32 cells[BONE_PINMUX_MAX_CELLS];
	struct device_node *np;
	unsigned int pin;
	size_t len = 0;
	int n = 0, ret;
	u32 conf, ph;

	bitmap_zero(pads->pins, CAPEBUS_MAX_PINS);
	for_each_set_bit(pin, mask, bone_header.num_pins) {
		conf = pads->conf[pin];
		ph = bone_pinmux_phandle(nr, pin);
		if (!ph)
			return -ENOSPC;
		ret = bone_pad_group_name(pm->pad[pin], conf, group,
					  sizeof(group));
		if (ret)
			return ret;
		np = bone_new_node(&pads->ocs, pm->pctl_np, group, ph);
		if (!np)
			return -ENOMEM;
		/*
		 * The group never becomes a device: fw_devlink links the cape
		 * to the pin controller's device instead (as it does for the
		 * groups there at boot when the pin controller binds), and
		 * does not hold the cape's probe back waiting for one.
		 */
		fw_devlink_purge_absent_suppliers(of_fwnode_handle(np));
		ret = of_changeset_add_prop_u32_array(&pads->ocs, np,
						      "pinctrl-single,pins", cells,
						      bone_pinmux_entry(pm->cells,
									pm->pad[pin],
									conf, cells));
		/* The changeset holds the node. */
		of_node_put(np);
		if (ret)
			return ret;
		phandles[n++] = ph;
		set_bit(pin, pads->pins);
		if (len < names_len)
			len += scnprintf(names + len, names_len - len, "%s%s",
					 len ? " " : "",
					 bone_header.pin_names[pin]);
	}

	return n;
}

/*
 * Does every pin of @mask the connector muxes ask for a mode its pad offers
 * capes?  0, or -EPERM with @why naming the first that does not.
 */
static int bone_pinmux_check_modes(const struct bone_pinmux *pm,
				   const struct capebus_cape_info *info,
				   const unsigned long *mask, char *why,
				   size_t why_len)
{
	unsigned int pin;
	u32 conf;
	int ret;

	for_each_set_bit(pin, mask, bone_header.num_pins) {
		if (pm->pad[pin] == BONE_PAD_NONE ||
		    bone_pin_setting_conf(info->pin_setting[pin], &conf))
			continue;
		ret = bone_pad_check_mode(bone_header.pin_names[pin],
					  pm->modes[pin], conf, why, why_len);
		if (ret)
			return ret;
	}

	return 0;
}

/*
 * The header pin of @mask the connector would mux (@info sets it) whose pad
 * the pin controller group @grp sets, or a negative number: its
 * pinctrl-single,pins entries are 1 + @pm->cells cells, the pad's offset
 * first.
 */
static int bone_pinmux_group_pin(const struct bone_pinmux *pm,
				 const struct capebus_cape_info *info,
				 struct device_node *grp,
				 const unsigned long *mask)
{
	int i, n = of_property_count_u32_elems(grp, "pinctrl-single,pins");
	unsigned int pin;
	u32 pad, conf;

	for (i = 0; i + pm->cells < n; i += 1 + pm->cells) {
		if (of_property_read_u32_index(grp, "pinctrl-single,pins", i, &pad))
			break;
		for_each_set_bit(pin, mask, bone_header.num_pins)
			if (pm->pad[pin] == pad &&
			    !bone_pin_setting_conf(info->pin_setting[pin], &conf))
				return pin;
	}

	return -ENOENT;
}

/*
 * Does a node of the board's select a pinctrl state that muxes the pad of
 * a pin of @mask?  Every available node but the connector's capes and
 * keepers (the nodes under @conn), the pin controller's hogs included.  The
 * pin controller would refuse the cape such a pad too, but only after it
 * had written the pads of the cape's groups before it: pinctrl muxes a
 * state one group at a time, and a refused cape writes no pad.  0, or
 * -EBUSY with @why naming the pin and the node.
 */
static int bone_pinmux_check_board(const struct bone_pinmux *pm,
				   struct device_node *conn,
				   const struct capebus_cape_info *info,
				   const unsigned long *mask, char *why,
				   size_t why_len)
{
	struct device_node *np = NULL, *grp;
	char state[16];
	int s, i, pin;

	while ((np = of_find_all_nodes(np))) {
		if (np->parent == conn || !of_device_is_available(np))
			continue;
		for (s = 0; ; s++) {
			snprintf(state, sizeof(state), "pinctrl-%d", s);
			if (!of_property_present(np, state))
				break;
			for (i = 0; (grp = of_parse_phandle(np, state, i)); i++) {
				pin = grp->parent == pm->pctl_np ?
				      bone_pinmux_group_pin(pm, info, grp, mask) :
				      -ENOENT;
				of_node_put(grp);
				if (pin < 0)
					continue;
				snprintf(why, why_len,
					 "pin %s is held by the board: %pOF muxes its pad (%s)",
					 bone_header.pin_names[pin], np, state);
				of_node_put(np);
				return -EBUSY;
			}
		}
	}

	return 0;
}

/* Let go of pads bone_pads_get() took for @dev (none counts). */
static void bone_pads_put(struct device *dev, struct bone_pads *pads)
{
	if (pads->pinctrl) {
		pinctrl_put(pads->pinctrl);
		pads->pinctrl = NULL;
		device_set_node(dev, NULL);
		of_changeset_revert(&pads->ocs);
	}
	of_changeset_destroy(&pads->ocs);
	of_node_put(pads->node);
	pads->node = NULL;
}

/*
 * Mux the pads behind the pins of @mask (bone_pinmux_confs()'s) with the
 * values in @pads->conf, for @dev: a group per pad under the pin
 * controller, a node @name under the connector @conn that selects them (@dev's of_node
 * from then on), and @dev's pinctrl handle.  Nothing to mux leaves
 * @pads->pinctrl NULL.  bone_pads_put() undoes it, also after a failure.
 */
static int bone_pads_get(struct bone_pinmux *pm, struct device_node *conn,
			 struct device *dev, const char *name, u32 phnr,
			 const unsigned long *mask, struct bone_pads *pads,
			 char *why, size_t why_len)
{
	u32 *phandles __free(kfree) = NULL;
	struct pinctrl_state *state;
	char pins[CAPEBUS_REASON_LEN / 2];
	struct pinctrl *pinctrl;
	int n, ret;

	of_changeset_init(&pads->ocs);
	phandles = kcalloc(CAPEBUS_MAX_PINS, sizeof(*phandles), GFP_KERNEL);
	if (!phandles)
		return -ENOMEM;
	n = bone_pads_groups(pm, phnr, mask, pads, phandles, pins,
			     sizeof(pins));
	if (n == -ENOSPC)
		snprintf(why, why_len, "no free phandle for its pin groups");
	if (n <= 0)
		return n;

	pads->node = bone_new_node(&pads->ocs, conn, name, 0);
	if (!pads->node)
		return -ENOMEM;
	ret = of_changeset_add_prop_u32_array(&pads->ocs, pads->node,
					      "pinctrl-0", phandles, n);
	if (!ret)
		ret = of_changeset_add_prop_string(&pads->ocs, pads->node,
						   "pinctrl-names", "default");
	if (ret)
		return ret;

	ret = of_changeset_apply(&pads->ocs);
	if (ret) {
		snprintf(why, why_len, "cannot add its pin groups: %d", ret);
		return ret;
	}

	device_set_node(dev, of_fwnode_handle(pads->node));
	pinctrl = pinctrl_get(dev);
	ret = PTR_ERR_OR_ZERO(pinctrl);
	if (!ret) {
		state = pinctrl_lookup_state(pinctrl, PINCTRL_STATE_DEFAULT);
		ret = PTR_ERR_OR_ZERO(state);
		if (!ret)
			ret = pinctrl_select_state(pinctrl, state);
		if (ret)
			pinctrl_put(pinctrl);
	}
	if (ret) {
		snprintf(why, why_len,
			 "pin controller %pOFP refused the pads of %s: error %d (its log says why)",
			 pm->pctl_np, pins, ret);
		device_set_node(dev, NULL);
		of_changeset_revert(&pads->ocs);
		return ret;
	}
	pads->pinctrl = pinctrl;
	dev_dbg(dev, "pads of %s muxed by %pOF\n", pins, pm->pctl_np);

	return 0;
}

static void bone_keeper_release(struct device *dev)
{
	kfree(container_of(dev, struct bone_pad_keeper, dev));
}

/* A pad consumer of the connector's own, never registered, named @fmt. */
static __printf(1, 2) struct bone_pad_keeper *bone_keeper_new(const char *fmt,
							      ...)
{
	struct bone_pad_keeper *k;
	va_list args;
	char *name;
	int ret;

	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return NULL;
	device_initialize(&k->dev);
	k->dev.release = bone_keeper_release;
	INIT_LIST_HEAD(&k->node);
	of_changeset_init(&k->pads.ocs);
	va_start(args, fmt);
	name = kvasprintf(GFP_KERNEL, fmt, args);
	va_end(args);
	ret = name ? dev_set_name(&k->dev, "%s", name) : -ENOMEM;
	kfree(name);
	if (ret) {
		put_device(&k->dev);
		return NULL;
	}

	return k;
}

/*
 * Put the pads behind the pins of @mask (of those capebus muxed) back as
 * they were before capebus first muxed them, for @ctrl_name's connector:
 * none of its consumers holds them now.  pinctrl-single left the registers
 * as the last consumer set them: a consumer of the connector's own selects
 * the old values, then lets go.
 */
static void bone_pinmux_restore(struct bone_pinmux *pm,
				struct device_node *conn, const char *ctrl_name,
				const unsigned long *mask)
{
	DECLARE_BITMAP(pins, CAPEBUS_MAX_PINS);
	char why[CAPEBUS_REASON_LEN] = "";
	struct bone_pad_keeper *k;
	int ret = -ENOMEM;

	if (!bitmap_and(pins, mask, pm->board->known, CAPEBUS_MAX_PINS))
		return;
	bitmap_andnot(pm->board->known, pm->board->known, pins,
		      CAPEBUS_MAX_PINS);

	k = bone_keeper_new("%s-board-pads", ctrl_name);
	if (k) {
		memcpy(k->pads.conf, pm->board->value, sizeof(k->pads.conf));
		ret = bone_pads_get(pm, conn, &k->dev, dev_name(&k->dev), 0x800,
				    pins, &k->pads, why, sizeof(why));
		bone_pads_put(&k->dev, &k->pads);
		put_device(&k->dev);
	}
	if (ret)
		pr_warn("%s: the pads of %*pbl stay as the last cape set them: %d %s\n",
			ctrl_name, CAPEBUS_MAX_PINS, pins, ret, why);
}

/* Let go of a keeper's pads, muxed as they are. */
static void bone_keeper_free(struct bone_pad_keeper *k)
{
	list_del(&k->node);
	bone_pads_put(&k->dev, &k->pads);
	put_device(&k->dev);
}

/*
 * Hold the pads of @keep (the pins of one bus capebus holds enabled for
 * @ctrl's capes), muxed as they are, for the bus: the cape that muxed them
 * is gone (or was its connector's last controller's).  pinctrl-single
 * writes a held pad's value when the keeper selects it: the value read
 * back.
 */
static void bone_pinmux_keep(struct bone_pinmux *pm, struct device_node *conn,
			     struct capebus_controller *ctrl,
			     const unsigned long *keep)
{
	char why[CAPEBUS_REASON_LEN] = "";
	struct bone_pad_keeper *k;
	unsigned int pin;
	int ret = -ENOMEM;

	k = bone_keeper_new("%s-bus-pads%u", capebus_controller_name(ctrl),
			    pm->next_keeper);
	if (!k)
		goto fail;
	for_each_set_bit(pin, keep, CAPEBUS_MAX_PINS)
		k->pads.conf[pin] = bone_pad_read(pm, pin);
	ret = bone_pads_get(pm, conn, &k->dev, dev_name(&k->dev),
			    0xfff - pm->next_keeper % 0x100, keep, &k->pads,
			    why, sizeof(why));
	if (!ret) {
		pm->next_keeper++;
		list_add(&k->node, &pm->keepers);
		return;
	}
	bone_pads_put(&k->dev, &k->pads);
	put_device(&k->dev);
fail:
	pr_warn("%s: the pads of %*pbl, of a bus capes still use, stay as they are, but unheld: %d %s\n",
		capebus_controller_name(ctrl), CAPEBUS_MAX_PINS, keep, ret, why);
}

/*
 * Bring the pads in line with what capebus holds for @ctrl's capes, once
 * a cape came or went, or capebus let go of (or adopted) pins without
 * either.  A keeper whose bus is disabled lets go of its pads.  Of the pads
 * capebus muxed that no consumer of the connector holds: those of a bus
 * capebus holds enabled get a keeper (their cape is gone, or was the
 * connector's last controller's); those capebus holds for nothing now go
 * back as the board had them, as do those of @mine (the pins of a cape
 * being detached whose claim is not yet given back, or NULL) but a bus's.
 * Not capes but capebus's holds decide: a cape whose driver is unbound no
 * longer uses the bus it shares.
 */
static void bone_pinmux_settle(struct bone_pinmux *pm, struct device_node *conn,
			       struct capebus_controller *ctrl,
			       const unsigned long *mine)
{
	DECLARE_BITMAP(loose, CAPEBUS_MAX_PINS);
	DECLARE_BITMAP(back, CAPEBUS_MAX_PINS);
	DECLARE_BITMAP(bus, CAPEBUS_MAX_PINS);
	struct bone_pad_keeper *k, *next;
	unsigned int pin;

	list_for_each_entry_safe(k, next, &pm->keepers, node) {
		pin = find_first_bit(k->pads.pins, CAPEBUS_MAX_PINS);
		if (!capebus_enabled_bus_of(ctrl, pin, bus) ||
		    !bitmap_subset(k->pads.pins, bus, CAPEBUS_MAX_PINS))
			bone_keeper_free(k);
	}
	if (!pm->board || !pm->regs)
		return;

	bitmap_andnot(loose, pm->board->known, pm->capes, CAPEBUS_MAX_PINS);
	list_for_each_entry(k, &pm->keepers, node)
		bitmap_andnot(loose, loose, k->pads.pins, CAPEBUS_MAX_PINS);
	bitmap_copy(back, loose, CAPEBUS_MAX_PINS);
	capebus_controller_pins_unheld(ctrl, back);
	for_each_set_bit(pin, loose, CAPEBUS_MAX_PINS)
		if (mine && test_bit(pin, mine) &&
		    !capebus_enabled_bus_of(ctrl, pin, bus))
			set_bit(pin, back);
	bone_pinmux_restore(pm, conn, capebus_controller_name(ctrl), back);

	bitmap_andnot(loose, loose, back, CAPEBUS_MAX_PINS);
	while ((pin = find_first_bit(loose, CAPEBUS_MAX_PINS)) < CAPEBUS_MAX_PINS) {
		if (!capebus_enabled_bus_of(ctrl, pin, bus)) {
			clear_bit(pin, loose);
			continue;
		}
		bitmap_and(bus, bus, loose, CAPEBUS_MAX_PINS);
		bitmap_andnot(loose, loose, bus, CAPEBUS_MAX_PINS);
		bone_pinmux_keep(pm, conn, ctrl, bus);
	}
}

/**
 * bone_pinmux_sync() - bring the pads in line with what capebus holds
 * @pm: the connector's pin table
 * @conn: the connector's node
 * @ctrl: its controller
 *
 * For the controller's settle op: a stuck cape's overlay came off (its
 * pads, and a bus's it kept enabled, go back as the board had them), or
 * the controller adopted stuck capes (the buses they keep enabled get a
 * keeper).
 *
 * Context: the controller's transition lock is held (it serializes @pm).
 */
void bone_pinmux_sync(struct bone_pinmux *pm, struct device_node *conn,
		      struct capebus_controller *ctrl)
{
	if (pm->pctl_np)
		bone_pinmux_settle(pm, conn, ctrl, NULL);
}

/**
 * bone_pinmux_attach() - mux the pads behind a cape's header pins
 * @pm: the connector's pin table
 * @conn: the connector's node
 * @cape: the cape (not registered yet); its of_node is set on success
 * @why: where to say why the pads cannot be muxed
 * @why_len: bytes at @why
 *
 * The pads of @cape->shared_pins are a bus's, muxed already: they are not
 * muxed again.  A pin asking for a mode its pad does not offer capes
 * (cape-pads), or whose pad a node of the board's muxes, refuses the cape
 * before anything is added or written.  The pads' values before are kept,
 * to be put back when capebus lets go of them.
 *
 * Context: the controller's transition lock is held (it serializes @pm).
 * Return: 0 (nothing to do counts), or a negative errno with @why set:
 * -EPERM for a mode not offered, -EBUSY for a pad of the board's, the pin
 * controller's own when it refuses a pad (pinctrl says -EINVAL for a pad
 * someone else holds).
 */
int bone_pinmux_attach(struct bone_pinmux *pm, struct device_node *conn,
		       struct cape_device *cape, char *why, size_t why_len)
{
	DECLARE_BITMAP(mask, CAPEBUS_MAX_PINS);
	DECLARE_BITMAP(muxed, CAPEBUS_MAX_PINS);
	DECLARE_BITMAP(read, CAPEBUS_MAX_PINS);
	struct bone_cape_pinmux *cp;
	unsigned int pin;
	int ret;

	if (!pm->pctl_np)
		return 0;

	bitmap_andnot(mask, cape->info->pins, cape->shared_pins,
		      CAPEBUS_MAX_PINS);
	ret = bone_pinmux_check_modes(pm, cape->info, mask, why, why_len);
	if (!ret)
		ret = bone_pinmux_check_board(pm, conn, cape->info, mask, why,
					      why_len);
	if (ret)
		return ret;

	/* A bus disabled since (its last user's driver unbound): its pads. */
	bone_pinmux_settle(pm, conn, cape->ctrl, NULL);
	cp = kzalloc(sizeof(*cp), GFP_KERNEL);
	if (!cp)
		return -ENOMEM;
	bone_pinmux_confs(pm, cape->info, mask, cp->pads.conf, muxed);
	bitmap_zero(read, CAPEBUS_MAX_PINS);
	if (pm->regs && pm->board)
		bitmap_andnot(read, muxed, pm->board->known, CAPEBUS_MAX_PINS);
	for_each_set_bit(pin, read, CAPEBUS_MAX_PINS)
		pm->board->value[pin] = bone_pad_read(pm, pin);
	ret = bone_pads_get(pm, conn, &cape->dev, dev_name(&cape->dev),
			    cape->slot_nr, muxed, &cp->pads, why, why_len);
	if (ret) {
		bone_pads_put(&cape->dev, &cp->pads);
		kfree(cp);
		return ret;
	}
	if (pm->board)
		bitmap_or(pm->board->known, pm->board->known, read,
			  CAPEBUS_MAX_PINS);
	if (cp->pads.pinctrl)
		bitmap_or(pm->capes, pm->capes, cp->pads.pins, CAPEBUS_MAX_PINS);

	cape->ctrl_data = cp;

	return 0;
}

/**
 * bone_pinmux_detach() - free a cape's pads and remove its pin group
 * @pm: the connector's pin table
 * @conn: the connector's node
 * @cape: a cape bone_pinmux_attach() succeeded for (or had nothing to do)
 *
 * The pads it muxed for a bus capebus still holds enabled (other capes'
 * overlays use it) stay muxed, held for the bus (a keeper per bus), until
 * the bus is disabled.  The others are put back as the board had them,
 * unless the cape's overlay could not be removed (its devices use them):
 * then once it comes off (bone_pinmux_sync()).
 *
 * Context: the controller's transition lock is held; the cape device is not
 * registered, its overlay removed (the buses it enabled are given back).
 */
void bone_pinmux_detach(struct bone_pinmux *pm, struct device_node *conn,
			struct cape_device *cape)
{
	struct bone_cape_pinmux *cp = cape->ctrl_data;
	DECLARE_BITMAP(mine, CAPEBUS_MAX_PINS);

	if (!cp)
		return;

	cape->ctrl_data = NULL;
	bitmap_zero(mine, CAPEBUS_MAX_PINS);
	if (cp->pads.pinctrl) {
		bitmap_andnot(pm->capes, pm->capes, cp->pads.pins,
			      CAPEBUS_MAX_PINS);
		if (!cape->overlay_stuck)
			bitmap_copy(mine, cp->pads.pins, CAPEBUS_MAX_PINS);
	}
	bone_pads_put(&cape->dev, &cp->pads);
	bone_pinmux_settle(pm, conn, cape->ctrl, mine);
	kfree(cp);
}

/**
 * bone_pinmux_exit() - let go of what bone_pinmux_init() took
 * @pm: the connector's pin table
 *
 * Every cape is detached and the controller unregistered.  A keeper left
 * holds the pads of a bus a stuck cape's overlay keeps enabled: the pads
 * stay muxed as they are (pinctrl-single leaves a freed pad's register
 * alone), and the bus's pins stay held, in capebus's table, by the
 * connector's next controller, which adopts the stuck cape with its buses
 * (capebus_enable_adopt()), as they do for the stuck cape's own pads, which
 * its detach let go.  Their values before stay with the core: the next
 * controller holds the bus's pads again, and puts them back once capebus
 * lets go of them.
 */
void bone_pinmux_exit(struct bone_pinmux *pm)
{
	struct bone_pad_keeper *k, *next;

	list_for_each_entry_safe(k, next, &pm->keepers, node)
		bone_keeper_free(k);
	if (pm->regs)
		iounmap(pm->regs);
	pm->regs = NULL;
	of_node_put(pm->pctl_np);
	pm->pctl_np = NULL;
}
