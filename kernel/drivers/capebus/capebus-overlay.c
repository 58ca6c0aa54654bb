// SPDX-License-Identifier: GPL-2.0
/*
 * capebus: cape overlays.  One resolution, one verification, of exactly
 * what is applied:
 *  - before a cape is added, capebus_overlay_check() has capebus-fdt.c
 *    check the blob's structure and resolve its references through the
 *    names the connector exports, into the blob that will be applied;
 *  - when the cape's driver applies it, of_overlay_fdt_apply() unflattens
 *    that blob, renumbers its phandles and, before changing anything, calls
 *    capebus's PRE_APPLY notifier for every fragment with its target as the
 *    overlay code resolved it; the notifier refuses whatever breaks the
 *    connector's rules, and the overlay code then applies nothing.
 * The notifier knows a cape's apply by the task making it: the overlay code
 * calls its notifiers from the task that called of_overlay_fdt_apply(), and
 * a task makes one apply at a time.  Nothing in the blob can make an apply
 * capebus makes look like someone else's.
 *
 * The notifier's rules (targets, add only, platform devices, bus
 * addresses, references, interrupts, header GPIOs) are stated in
 * Documentation/capebus/threat-model.rst; each refusal names the rule, the
 * node and the property.
 * The structure, bounds and phandles of what is applied are capebus-fdt.c's:
 * the blob it checked is the blob the overlay code unflattens.
 * Removal is of_overlay_remove(); its failures are reported, not ignored.
 */

#include <linux/capebus.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/of.h>
#include <linux/rbtree.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "capebus-fdt.h"
#include "capebus-internal.h"

/*
 * An address on a bus that a node of a cape's overlay holds: for refusing
 * a second node at the same address and naming the holder.
 */
struct capebus_bus_claim {
	struct rb_node rb;
	struct device_node *bus;
	u64 addr;
	struct cape_device *cape;
	char node[32];		/* the node's name, for naming the holder */
};

/* A node a fragment adds to its target. */
struct capebus_added {
	struct device_node *target;
	const char *name;
};

/* An overlay capebus is applying, found by its notifier through @task. */
struct capebus_apply {
	struct list_head node;
	struct task_struct *task;
	struct cape_device *cape;
	struct device_node *root;	/* the unflattened overlay, once seen */
	struct rb_root claims;		/* verified, not yet in capebus_claims */
	struct capebus_added *added;	/* the fragments' top nodes so far */
	unsigned int num_added;
	u64 verify_ns;
	struct device_node *foreign;	/* a target refused as not the cape's */
	char why[CAPEBUS_REASON_LEN];
};

/*
 * Protects capebus_applies and capebus_claims.  Taken inside the overlay
 * code's locks (the notifier runs under of_overlay_mutex and of_mutex):
 * never call into the overlay code with it held.
 */
static DEFINE_MUTEX(capebus_ov_lock);
static LIST_HEAD(capebus_applies);
static struct rb_root capebus_claims = RB_ROOT;

/* The steps an interrupt parent may take before it is found. */
#define CAPEBUS_IRQ_PARENT_STEPS	32

static int capebus_export_lookup(void *ctx, const char *name, u32 *phandle)
{
	struct capebus_controller *ctrl = ctx;
	unsigned int i;

	for (i = 0; i < ctrl->num_exports; i++) {
		if (!strcmp(ctrl->exports[i].name, name)) {
			*phandle = ctrl->exports[i].np->phandle;
			return 0;
		}
	}

	return -ENOENT;
}

static int capebus_read_exclusive_use(struct cape_device *cape,
				      unsigned long *pins, bool *declared,
				      char *why, size_t why_len)
{
	const char *s, *end;
	u32 len;
	int pin;

	s = capebus_fdt_root_prop(cape->resolved, "exclusive-use", &len);
	*declared = s;
	if (!s)
		return 0;
	if (!len || s[len - 1]) {
		snprintf(why, why_len, "exclusive-use is not a string list");
		return -EINVAL;
	}

	for (end = s + len; s < end; s += strlen(s) + 1) {
		pin = capebus_header_pin_index(cape->ctrl->header, s);
		if (pin < 0) {
			snprintf(why, why_len,
				 "exclusive-use names \"%.32s\", which is not a header pin",
				 s);
			return -EINVAL;
		}
		__set_bit(pin, pins);
	}

	return 0;
}

/**
 * capebus_overlay_check() - resolve a cape's overlay before it is added
 * @cape: the cape, with its overlay and controller set
 * @pins: bitmap (CAPEBUS_MAX_PINS) to set the overlay's exclusive-use pins in
 * @declared: set if the overlay has an exclusive-use property
 * @why: where to say what is wrong
 * @why_len: bytes at @why
 *
 * Checks the overlay's structure and resolves its references through the
 * controller's exports into @cape->resolved, the blob that will be applied
 * (see capebus-fdt.c).  What the overlay does to the live tree is verified
 * when it is applied, by capebus_overlay_notify().
 *
 * Return: 0 or -EINVAL (@why says why) or -ENOMEM.
 */
int capebus_overlay_check(struct cape_device *cape, unsigned long *pins,
			  bool *declared, char *why, size_t why_len)
{
	ktime_t start = ktime_get();
	int ret;

	*declared = false;
	kvfree(cape->resolved);
	cape->resolved = NULL;

	ret = capebus_fdt_resolve(cape->overlay, cape->overlay_len,
				  &cape->ctrl->limits, capebus_export_lookup,
				  cape->ctrl, &cape->resolved, &cape->resolved_len,
				  NULL, why, why_len);
	cape->resolve_ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	if (ret)
		return ret;

	return capebus_read_exclusive_use(cape, pins, declared, why, why_len);
}

static __printf(2, 3) int capebus_refuse(struct capebus_apply *ap,
					 const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(ap->why, sizeof(ap->why), fmt, args);
	va_end(args);

	return -EINVAL;
}

/*
 * The node of the overlay at or below @np whose phandle is @ph, or NULL.
 * The overlay's phandles are its own by construction: the resolver
 * numbered them 1..n, each once, and the kernel's resolver added to each
 * one offset past the live tree's largest phandle (of_resolve_phandles(),
 * under of_overlay_mutex as this notifier).
 */
static struct device_node *capebus_own_node(struct device_node *np,
					    phandle ph)
{
	struct device_node *found;

	if (!np || np->phandle == ph)
		return np;
	for_each_child_of_node_scoped(np, child) {
		found = capebus_own_node(child, ph);
		if (found)
			return found;
	}

	return NULL;
}

/* ---- what a cell names ---------------------------------------------------- */

enum capebus_ref {
	CAPEBUS_REF_NONE,	/* no node has that phandle */
	CAPEBUS_REF_OWN,	/* a node of the overlay */
	CAPEBUS_REF_EXPORT,	/* a node the connector exports */
	CAPEBUS_REF_BOARD,	/* any other live node */
};

/*
 * The node @ph names, and what it is.  A board node is returned with a
 * reference (of_node_put() it); the others live as long as the apply.
 */
static enum capebus_ref capebus_ref(struct capebus_apply *ap, phandle ph,
				    struct device_node **np)
{
	struct capebus_controller *ctrl = ap->cape->ctrl;
	unsigned int i;

	*np = NULL;
	if (!ph)
		return CAPEBUS_REF_NONE;
	*np = capebus_own_node(ap->root, ph);
	if (*np)
		return CAPEBUS_REF_OWN;
	for (i = 0; i < ctrl->num_exports; i++) {
		if (ctrl->exports[i].np->phandle == ph) {
			*np = ctrl->exports[i].np;
			return CAPEBUS_REF_EXPORT;
		}
	}
	*np = of_find_node_by_phandle(ph);

	return *np ? CAPEBUS_REF_BOARD : CAPEBUS_REF_NONE;
}

/*
 * Does property @prop name, by the DT convention, a provider of @stem (from
 * its "#<stem>-cells"): "<stem>", "...-<stem>", each also plural ("s",
 * "es": mboxes), or "assigned-<stem>..." (assigned-clock-parents)?
 */
static bool capebus_prop_names_stem(const char *prop, const char *stem,
				    size_t slen)
{
	static const char *const plural[] = { "", "s", "es" };
	size_t len = strlen(prop), pl, n;
	unsigned int i;

	if (!strncmp(prop, "assigned-", 9) && !strncmp(prop + 9, stem, slen))
		return true;
	for (i = 0; i < ARRAY_SIZE(plural); i++) {
		pl = strlen(plural[i]);
		if (len < slen + pl || strcmp(prop + len - pl, plural[i]))
			continue;
		n = len - pl;
		if (memcmp(prop + n - slen, stem, slen))
			continue;
		if (n == slen || prop[n - slen - 1] == '-')
			return true;
	}

	return false;
}

/*
 * Is @prop, by @np's own word, a reference to @np: does @np provide a
 * "#<stem>-cells" that @prop is named for?  The spec's cell counts
 * (#address-cells, #size-cells) are no provider's, nor #interrupt-cells
 * ("interrupts" has its own rule).  @cells gets the count.
 */
static bool capebus_provides(struct device_node *np, const char *prop,
			     u32 *cells)
{
	struct property *pp;

	for_each_property_of_node(np, pp) {
		size_t len = strlen(pp->name);

		if (len < 8 || pp->name[0] != '#' ||
		    strcmp(pp->name + len - 6, "-cells") ||
		    !strcmp(pp->name, "#address-cells") ||
		    !strcmp(pp->name, "#size-cells") ||
		    !strcmp(pp->name, "#interrupt-cells"))
			continue;
		if (!capebus_prop_names_stem(prop, pp->name + 1, len - 7))
			continue;
		if (pp->length != 4)
			*cells = U32_MAX;
		else
			*cells = be32_to_cpup(pp->value);
		return true;
	}

	return false;
}

/*
 * Properties the kernel's bindings read as references without naming them
 * for the referenced node's "#<stem>-cells": fw_devlink's own
 * (drivers/of/property.c: its bindings without cells, checked against it by
 * tests/bats/tooling/kernel-layout.bats), the spec's interrupt-parent and
 * those the OF, PCI/IOMMU, I2C, regmap and nvmem cores read.  @layout says
 * where the phandles are: every cell; a phandle with as many arguments as
 * @cells (of the named node, 0 if it has none), repeated; the first cell
 * only; or the cell at @offset of every @stride cells (the *-map tables).
 */
enum capebus_ref_layout {
	CAPEBUS_REFS_ALL,
	CAPEBUS_REFS_CELLS,
	CAPEBUS_REFS_FIRST,
	CAPEBUS_REFS_TABLE,
};

static const struct capebus_plain_ref {
	const char *name;
	char match;		/* '=' whole name, '>' suffix, '<' prefix + digits */
	enum capebus_ref_layout layout;
	const char *cells;	/* CAPEBUS_REFS_CELLS */
	u8 offset, stride;	/* CAPEBUS_REFS_TABLE */
} capebus_plain_refs[] = {
	{ "interrupt-parent", '=' },
	{ "extcon", '=' },
	{ "wakeup-parent", '=' },
	{ "leds", '=' },
	{ "backlight", '=' },
	{ "panel", '=' },
	{ "post-init-providers", '=' },
	{ "power-supplies", '=' },
	{ "remote-endpoint", '=' },
	{ "-supply", '>' },
	{ "pinctrl-", '<' },
	{ "msi-parent", '=', CAPEBUS_REFS_CELLS, "#msi-cells" },
	/* Read with optional cells: a provider need not have them. */
	{ "nvmem-cells", '=', CAPEBUS_REFS_CELLS, "#nvmem-cell-cells" },
	{ "access-controllers", '=', CAPEBUS_REFS_CELLS, "#access-controller-cells" },
	{ "framer", '=', CAPEBUS_REFS_CELLS, "#framer-cells" },
	{ "i2c-parent", '=' },
	{ "i2c-bus", '=' },
	{ "ddc-i2c-bus", '=' },
	{ "memory-region", '=' },
	{ "sram", '=' },
	{ "nvmem", '=' },
	{ "regmap", '=' },
	{ "syscon", '>', CAPEBUS_REFS_FIRST },
	{ "phy-handle", '=' },
	{ "pcs-handle", '=' },
	{ "sfp", '=' },
	/*
	 * gpiolib's legacy names, read as GPIO specifiers although no stem
	 * rule matches them (of_find_gpio_rename(), drivers/gpio/gpiolib-of.c).
	 */
	{ "gpio-sck", '=', CAPEBUS_REFS_CELLS, "#gpio-cells" },
	{ "gpio-miso", '=', CAPEBUS_REFS_CELLS, "#gpio-cells" },
	{ "gpio-mosi", '=', CAPEBUS_REFS_CELLS, "#gpio-cells" },
	{ "gpio-reset", '=', CAPEBUS_REFS_CELLS, "#gpio-cells" },
	{ "gpios-reset", '=', CAPEBUS_REFS_CELLS, "#gpio-cells" },
	{ "gpio-rtc-data", '=', CAPEBUS_REFS_CELLS, "#gpio-cells" },
	{ "gpio-rtc-sclk", '=', CAPEBUS_REFS_CELLS, "#gpio-cells" },
	{ "gpio-rtc-reset", '=', CAPEBUS_REFS_CELLS, "#gpio-cells" },
	{ "reset-n-io", '=', CAPEBUS_REFS_CELLS, "#gpio-cells" },
	{ "cirrus,gpio-nreset", '=', CAPEBUS_REFS_CELLS, "#gpio-cells" },
	{ "wlf,reset", '=', CAPEBUS_REFS_CELLS, "#gpio-cells" },
	{ "wlf,ldoena", '=', CAPEBUS_REFS_CELLS, "#gpio-cells" },
	{ "wlf,ldo1ena", '=', CAPEBUS_REFS_CELLS, "#gpio-cells" },
	{ "wlf,ldo2ena", '=', CAPEBUS_REFS_CELLS, "#gpio-cells" },
	{ "i2s1-in-sel-gpio1", '=', CAPEBUS_REFS_CELLS, "#gpio-cells" },
	{ "i2s1-in-sel-gpio2", '=', CAPEBUS_REFS_CELLS, "#gpio-cells" },
	{ "fcs,int_n", '=', CAPEBUS_REFS_CELLS, "#gpio-cells" },
	{ "gpio-ranges", '=', CAPEBUS_REFS_TABLE, NULL, 0, 4 },
	{ "iommu-map", '=', CAPEBUS_REFS_TABLE, NULL, 1, 4 },
	{ "msi-map", '=', CAPEBUS_REFS_TABLE, NULL, 1, 4 },
};

static const struct capebus_plain_ref *capebus_plain_ref(const char *name)
{
	const struct capebus_plain_ref *pr;
	size_t n = strlen(name), m;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(capebus_plain_refs); i++) {
		pr = &capebus_plain_refs[i];
		m = strlen(pr->name);
		switch (pr->match) {
		case '=':
			if (!strcmp(name, pr->name))
				return pr;
			break;
		case '>':
			if (n >= m && !strcmp(name + n - m, pr->name))
				return pr;
			break;
		case '<':
			if (n > m && !strncmp(name, pr->name, m) &&
			    strspn(name + m, "0123456789") == n - m)
				return pr;
			break;
		}
	}

	return NULL;
}

/*
 * A specifier through a nexus the connector exports (gpio-map,
 * interrupt-map): its first cell is a header pin, which the cape must
 * declare (its EEPROM's pins, its overlay's exclusive-use, configfs pins).
 */
static int capebus_verify_nexus_pin(struct capebus_apply *ap,
				    struct device_node *np,
				    struct property *prop, u32 cell)
{
	const struct capebus_header *header = ap->cape->ctrl->header;
	int pin;

	pin = capebus_header_gpio_pin(header, cell);
	if (pin < 0)
		return capebus_refuse(ap,
				      "references: property %s of node %pOFn names %u on the connector, which is no header pin",
				      prop->name, np, cell);
	if (!ap->cape->claim || !test_bit(pin, ap->cape->claim->pins))
		return capebus_refuse(ap,
				      "references: property %s of node %pOFn uses header pin %s, which the cape does not declare",
				      prop->name, np, header->pin_names[pin]);
	/*
	 * A shared pin is a bus's (the Pi's I2C1 on GPIO2/3), every cape's at
	 * once: as one cape's GPIO it would cut the bus off from the others
	 * (red team round 9).  The shared set is fixed before registration.
	 */
	if (test_bit(pin, ap->cape->ctrl->res->shared))
		return capebus_refuse(ap,
				      "references: property %s of node %pOFn uses header pin %s as a GPIO, which every cape shares (a bus's pin)",
				      prop->name, np, header->pin_names[pin]);

	return 0;
}

static int capebus_refuse_board_ref(struct capebus_apply *ap,
				    struct device_node *np,
				    struct property *prop,
				    struct device_node *to)
{
	int ret = capebus_refuse(ap,
				 "references: property %s of node %pOFn names %pOF, which the connector does not export",
				 prop->name, np, to);

	of_node_put(to);
	return ret;
}

/* A property the kernel reads as phandles (capebus_plain_refs[]). */
static int capebus_verify_plain_ref(struct capebus_apply *ap,
				    struct device_node *np,
				    struct property *prop,
				    const struct capebus_plain_ref *pr)
{
	const __be32 *cell = prop->value;
	unsigned int n = prop->length / 4, i = pr->offset;
	struct device_node *to;

	while (i < n) {
		if (capebus_ref(ap, be32_to_cpu(cell[i]), &to) == CAPEBUS_REF_BOARD)
			return capebus_refuse_board_ref(ap, np, prop, to);
		switch (pr->layout) {
		case CAPEBUS_REFS_ALL:
		case CAPEBUS_REFS_CELLS:	/* capebus_verify_specifiers() */
			i++;
			break;
		case CAPEBUS_REFS_FIRST:
			return 0;
		case CAPEBUS_REFS_TABLE:
			i += pr->stride;
			break;
		}
	}

	return 0;
}

/*
 * Specifiers, a phandle and as many argument cells as the named node says:
 * in any other property, a cell that names a node which provides what the
 * property is named for (its "#<stem>-cells"), every other cell data; in a
 * binding of capebus_plain_refs[] that gives the node's @cells, every cell
 * where a specifier starts (no arguments if the node has no @cells).  A
 * board node may not be named; through the connector's GPIO nexus, a
 * specifier names a header pin the cape declares.
 */
static int capebus_verify_specifiers(struct capebus_apply *ap,
				     struct device_node *np,
				     struct property *prop, const char *cells)
{
	const __be32 *cell = prop->value;
	unsigned int n = prop->length / 4, i = 0;
	struct device_node *to;
	enum capebus_ref kind;
	u32 args = 0;
	int ret;

	while (i < n) {
		kind = capebus_ref(ap, be32_to_cpu(cell[i]), &to);
		if (kind == CAPEBUS_REF_NONE ||
		    (!cells && !capebus_provides(to, prop->name, &args))) {
			if (kind == CAPEBUS_REF_BOARD)
				of_node_put(to);
			i++;
			continue;
		}
		if (kind == CAPEBUS_REF_BOARD)
			return capebus_refuse_board_ref(ap, np, prop, to);
		if (cells && of_property_read_u32(to, cells, &args))
			args = 0;
		if (args > n - i - 1)
			return capebus_refuse(ap,
					      "references: property %s of node %pOFn does not match the cells of %pOF",
					      prop->name, np, to);
		if (args && of_property_present(to, "gpio-map") &&
		    kind == CAPEBUS_REF_EXPORT) {
			ret = capebus_verify_nexus_pin(ap, np, prop,
						       be32_to_cpu(cell[i + 1]));
			if (ret)
				return ret;
		}
		i += 1 + args;
	}

	return 0;
}

/*
 * An interrupt parent of a cape's node: an interrupt controller the
 * overlay adds, or a nexus (interrupt-map) the connector exports, whose
 * specifiers name header pins the cape declares.  @spec is the specifier.
 */
static int capebus_verify_irq_parent(struct capebus_apply *ap,
				     struct device_node *np,
				     struct property *prop,
				     struct device_node *parent,
				     enum capebus_ref kind,
				     const __be32 *spec, u32 cells)
{
	if (kind == CAPEBUS_REF_OWN &&
	    of_property_present(parent, "interrupt-controller"))
		return 0;
	if (kind == CAPEBUS_REF_EXPORT &&
	    of_property_present(parent, "interrupt-map"))
		return cells ? capebus_verify_nexus_pin(ap, np, prop,
							be32_to_cpu(spec[0])) :
			       capebus_refuse(ap,
					      "interrupts: %pOF has no #interrupt-cells for property %s of node %pOFn",
					      parent, prop->name, np);

	return capebus_refuse(ap,
			      "interrupts: property %s of node %pOFn names %pOF, which is neither an interrupt controller of the overlay nor a nexus the connector exports",
			      prop->name, np, parent);
}

static int capebus_irq_cells(struct capebus_apply *ap, struct device_node *np,
			     struct property *prop, struct device_node *parent,
			     u32 *cells)
{
	if (of_property_read_u32(parent, "#interrupt-cells", cells) ||
	    *cells > CAPEBUS_FDT_MAX_CELLS)
		return capebus_refuse(ap,
				      "interrupts: %pOF, named by property %s of node %pOFn, has no bounded #interrupt-cells",
				      parent, prop->name, np);

	return 0;
}

/* interrupts-extended: every parent one capebus_verify_irq_parent() takes. */
static int capebus_verify_irq_extended(struct capebus_apply *ap,
				       struct device_node *np,
				       struct property *prop)
{
	const __be32 *cell = prop->value;
	unsigned int n = prop->length / 4, i = 0;
	struct device_node *parent;
	enum capebus_ref kind;
	u32 cells;
	int ret;

	while (i < n) {
		kind = capebus_ref(ap, be32_to_cpu(cell[i]), &parent);
		if (kind == CAPEBUS_REF_BOARD)
			return capebus_refuse_board_ref(ap, np, prop, parent);
		if (kind == CAPEBUS_REF_NONE)
			return capebus_refuse(ap,
					      "interrupts: property %s of node %pOFn names phandle %#x, which no node has",
					      prop->name, np, be32_to_cpu(cell[i]));
		ret = capebus_irq_cells(ap, np, prop, parent, &cells);
		if (!ret && cells > n - i - 1)
			ret = capebus_refuse(ap,
					     "interrupts: property %s of node %pOFn does not match the cells of %pOF",
					     prop->name, np, parent);
		if (!ret)
			ret = capebus_verify_irq_parent(ap, np, prop, parent, kind,
							cell + i + 1, cells);
		if (ret)
			return ret;
		i += 1 + cells;
	}

	return 0;
}

/*
 * interrupts: its parent as of_irq_find_parent() will find it once the node
 * is live, found here without leaving the overlay: a node whose search
 * would reach the fragment's __overlay__ (the target: the board's
 * interrupt parent) is refused.
 */
static int capebus_verify_irq_inherited(struct capebus_apply *ap,
					struct device_node *np,
					struct property *prop,
					struct device_node *top)
{
	struct device_node *child = np, *p = NULL;
	enum capebus_ref kind = CAPEBUS_REF_OWN;
	unsigned int steps = 0, i;
	u32 ph, cells;
	int ret;

	do {
		if (++steps > CAPEBUS_IRQ_PARENT_STEPS)
			return capebus_refuse(ap,
					      "interrupts: the interrupt parents of node %pOFn go round in a circle",
					      np);
		if (!of_property_read_u32(child, "interrupt-parent", &ph)) {
			kind = capebus_ref(ap, ph, &p);
			if (kind == CAPEBUS_REF_BOARD)
				return capebus_refuse_board_ref(ap, np, prop, p);
			if (kind == CAPEBUS_REF_NONE)
				return capebus_refuse(ap,
						      "interrupts: interrupt-parent of %pOFn names phandle %#x, which no node has",
						      child, ph);
		} else {
			p = child->parent;
			kind = CAPEBUS_REF_OWN;
			if (!p || p == top)
				return capebus_refuse(ap,
						      "interrupts: node %pOFn has interrupts but no interrupt-parent in the overlay: it would take the board's",
						      np);
		}
		/* An export leads outside the overlay: it must be the parent. */
		if (kind == CAPEBUS_REF_EXPORT &&
		    !of_property_present(p, "#interrupt-cells"))
			return capebus_refuse(ap,
					      "interrupts: %pOF, the interrupt-parent of %pOFn, is not an interrupt provider",
					      p, child);
		child = p;
	} while (!of_property_present(p, "#interrupt-cells"));

	ret = capebus_irq_cells(ap, np, prop, p, &cells);
	if (ret)
		return ret;
	if (!cells || prop->length % (4 * cells))
		return capebus_refuse(ap,
				      "interrupts: property %s of node %pOFn does not match the #interrupt-cells of %pOF",
				      prop->name, np, p);

	/* Every specifier: through a nexus, each names a header pin. */
	for (i = 0; i < prop->length / 4; i += cells) {
		ret = capebus_verify_irq_parent(ap, np, prop, p, kind,
						(const __be32 *)prop->value + i,
						cells);
		if (ret)
			return ret;
	}

	return 0;
}

/* Every reference in @prop of @np, a node the overlay adds or sets. */
static int capebus_verify_prop(struct capebus_apply *ap, struct device_node *np,
			       struct property *prop, struct device_node *top)
{
	const struct capebus_plain_ref *pr;
	const char *name = prop->name;
	int ret;

	if (!strcmp(name, "gpio-map") || !strcmp(name, "interrupt-map"))
		return capebus_refuse(ap,
				      "references: node %pOFn has %s, which cape overlays may not have",
				      np, name);
	/*
	 * A property of any length is read cell by cell: the OF core
	 * reads the whole cells of one whose length is not a multiple
	 * of 4 (a 13-byte gpios was a reference an outside review
	 * got past an earlier check that skipped such properties).
	 */
	if (!strcmp(name, "interrupts")) {
		ret = capebus_verify_irq_inherited(ap, np, prop, top);
	} else if (prop->length < 4 || !strcmp(name, "phandle") ||
		   !strcmp(name, "reg") || !strcmp(name, "ranges")) {
		return 0;	/* no whole cell, or data by the spec */
	} else if (!strcmp(name, "interrupts-extended")) {
		ret = capebus_verify_irq_extended(ap, np, prop);
	} else {
		pr = capebus_plain_ref(name);
		ret = pr && pr->layout != CAPEBUS_REFS_CELLS ?
		      capebus_verify_plain_ref(ap, np, prop, pr) :
		      capebus_verify_specifiers(ap, np, prop, pr ? pr->cells : NULL);
	}
	return ret;
}

/**
 * capebus_overlay_verify_target_prop() - the rules of references, on a
 *	property a cape's overlay sets on a target it enables
 * @cape: the cape, its overlay resolved
 * @target: the target
 * @name: the property
 * @value: its value, as capebus will set it
 * @len: bytes at @value
 * @why: where to say why not
 * @why_len: bytes at @why
 *
 * A reference the overlay declared is an export by construction (the
 * resolver patches no other into such a property); a raw cell is refused
 * where the kernel would read it as a board node's phandle, and a GPIO
 * through the connector's nexus names a header pin the cape declares, as in
 * the nodes an overlay adds.  The target's own parent is no interrupt
 * parent of the cape's.
 *
 * Return: 0, or -EINVAL (@why says why).
 */
int capebus_overlay_verify_target_prop(struct cape_device *cape,
				       struct device_node *target,
				       const char *name, const void *value,
				       u32 len, char *why, size_t why_len)
{
	struct capebus_apply ap = { .cape = cape };
	struct property prop = {
		.name = (char *)name,
		.value = (void *)value,
		.length = len,
	};
	int ret;

	ret = capebus_verify_prop(&ap, target, &prop, target->parent);
	if (ret)
		strscpy(why, ap.why, why_len);

	return ret;
}

/* ---- bus addresses -------------------------------------------------------- */

static int capebus_claim_cmp(const void *key, const struct rb_node *node)
{
	const struct capebus_bus_claim *k = key;
	const struct capebus_bus_claim *c =
		rb_entry(node, struct capebus_bus_claim, rb);

	if (k->bus != c->bus)
		return k->bus < c->bus ? -1 : 1;
	return k->addr < c->addr ? -1 : k->addr > c->addr;
}

static bool capebus_claim_less(struct rb_node *a, const struct rb_node *b)
{
	return capebus_claim_cmp(rb_entry(a, struct capebus_bus_claim, rb),
				 b) < 0;
}

static struct capebus_bus_claim *capebus_claim_find(struct rb_root *tree,
						    struct device_node *bus,
						    u64 addr)
{
	struct capebus_bus_claim key = { .bus = bus, .addr = addr };
	struct rb_node *rb = rb_find(&key, tree, capebus_claim_cmp);

	return rb ? rb_entry(rb, struct capebus_bus_claim, rb) : NULL;
}

/*
 * What @bus has at @addr (the board's node, or another cape's): said in
 * @buf, false if nothing.
 */
static bool capebus_addr_holder(struct device_node *bus,
				const struct capebus_bus *b, u64 addr,
				char *buf, size_t len)
{
	struct capebus_bus_claim *c = capebus_claim_find(&capebus_claims, bus,
							 addr);
	const __be32 *reg;
	int rlen;

	if (c) {
		snprintf(buf, len, "%s (%s)", c->cape->holder, c->node);
		return true;
	}
	for_each_child_of_node_scoped(bus, child) {
		reg = of_get_property(child, "reg", &rlen);
		if (capebus_bus_holds(b, reg, rlen, addr)) {
			snprintf(buf, len, "the board (%s)",
				 kbasename(child->full_name));
			return true;
		}
	}

	return false;
}

/*
 * Claim @np's addresses on @bus: the target (@live, checked against what
 * the board and other capes hold there) or a node of the overlay.  Every
 * node the overlay adds is claimed once, in @ap->claims.
 */
static int capebus_claim_addr(struct capebus_apply *ap, struct device_node *bus,
			      bool live, struct device_node *np)
{
	char holder[CAPEBUS_TEXT_LEN + 64], why[CAPEBUS_REASON_LEN];
	u64 addrs[CAPEBUS_BUS_MAX_ADDRS];
	struct capebus_bus_claim *claim;
	struct capebus_bus b = {};
	const __be32 *reg;
	int i, n, len;

	/*
	 * The one child the I2C core looks up by name, whatever its unit
	 * address: of_i2c_register_devices() registers the children of an
	 * adapter's "i2c-bus" child as the adapter's own, addresses this rule
	 * would compare with nothing on the bus (red team rounds 7 and 8).
	 */
	if (live && of_node_name_eq(np, "i2c-bus"))
		return capebus_refuse(ap,
				      "bus addresses: node %pOFn added to %pOF: the I2C core takes the children of an i2c-bus node for the adapter's own",
				      np, bus);
	reg = of_get_property(np, "reg", &len);
	if (!reg)
		return 0;
	/* No address cells unless both are stated: capebus_bus_addrs() refuses. */
	if (!of_property_read_u32(bus, "#size-cells", &b.size_cells) &&
	    !of_property_read_u32(bus, "#address-cells", &b.address_cells))
		capebus_bus_describe(bus, live, &b);
	n = capebus_bus_addrs(&b, reg, len, addrs, why, sizeof(why));
	if (n < 0)
		return capebus_refuse(ap, "bus addresses: node %pOFn on %pOFP: %s",
				      np, bus, why);

	for (i = 0; i < n; i++) {
		if (capebus_claim_find(&ap->claims, bus, addrs[i]))
			return capebus_refuse(ap,
					      "bus addresses: two nodes of the overlay use address %#llx on %pOF",
					      addrs[i], bus);
		if (live && capebus_addr_holder(bus, &b, addrs[i], holder,
						sizeof(holder)))
			return capebus_refuse(ap,
					      "bus addresses: address %#llx on %pOF is held by %s",
					      addrs[i], bus, holder);

		claim = kzalloc(sizeof(*claim), GFP_KERNEL);
		if (!claim)
			return -ENOMEM;
		claim->bus = of_node_get(bus);
		claim->addr = addrs[i];
		claim->cape = ap->cape;
		strscpy(claim->node, kbasename(np->full_name),
			sizeof(claim->node));
		rb_add(&claim->rb, &ap->claims, capebus_claim_less);
	}

	return 0;
}

/*
 * @np, a node the overlay adds on @bus (the target, @live, or a node of the
 * overlay), and every node below it: addresses, references.
 */
static int capebus_verify_subtree(struct capebus_apply *ap,
				  struct device_node *bus, bool live,
				  struct device_node *np,
				  struct device_node *top)
{
	struct property *prop;
	int ret;

	ret = capebus_claim_addr(ap, bus, live, np);
	if (ret)
		return ret;
	for_each_property_of_node(np, prop) {
		ret = capebus_verify_prop(ap, np, prop, top);
		if (ret)
			return ret;
	}
	for_each_child_of_node_scoped(np, child) {
		ret = capebus_verify_subtree(ap, np, false, child, top);
		if (ret)
			return ret;
	}

	return 0;
}

/* Does @np have @prop, with the same value? */
static bool capebus_prop_same(struct device_node *np, struct property *prop)
{
	struct property *have = of_find_property(np, prop->name, NULL);

	return have && have->length == prop->length &&
	       !memcmp(have->value, prop->value, prop->length);
}

/* Does @target have a child named as @child (the kernel ignores case)? */
static struct device_node *capebus_same_child(struct device_node *target,
					      struct device_node *child)
{
	const char *name = kbasename(child->full_name);

	for_each_child_of_node_scoped(target, tchild)
		if (!of_node_cmp(name, kbasename(tchild->full_name)))
			return no_free_ptr(tchild);

	return NULL;
}

/*
 * No two fragments add a node of one name to one target: the overlay code
 * would refuse that only after the notifiers, and then fail to take back
 * the changeset it built (an outside review: the cape stuck, its pins held,
 * the target left enabled).
 */
static int capebus_add_once(struct capebus_apply *ap, struct device_node *target,
			    struct device_node *child, const char *frag)
{
	const char *name = kbasename(child->full_name);
	struct capebus_added *more;
	unsigned int i;

	for (i = 0; i < ap->num_added; i++)
		if (ap->added[i].target == target &&
		    !of_node_cmp(ap->added[i].name, name))
			return capebus_refuse(ap,
					      "add only: fragment %s adds %s to %pOF, which another fragment adds too",
					      frag, name, target);

	more = krealloc_array(ap->added, ap->num_added + 1, sizeof(*more),
			      GFP_KERNEL);
	if (!more)
		return -ENOMEM;
	more[ap->num_added].target = target;
	more[ap->num_added++].name = name;
	ap->added = more;

	return 0;
}

/*
 * A node added to a target the OF core populates becomes a platform device,
 * bound to the driver its compatible names: every string of it must be one
 * the connector lets capes make (capebus_controller_add_platform_compatible()).
 * What nests below one of the cape's own devices is capebus-parents.c's.
 */
static int capebus_verify_platform(struct capebus_apply *ap,
				   struct device_node *target,
				   struct device_node *child, const char *frag)
{
	struct capebus_controller *ctrl = ap->cape->ctrl;
	struct property *prop;
	const char *compat;

	if (!of_node_check_flag(target, OF_POPULATED_BUS))
		return 0;

	of_property_for_each_string(child, "compatible", prop, compat)
		if (!capebus_controller_platform_compatible(ctrl, compat))
			return capebus_refuse(ap,
					      "platform devices: fragment %s adds %s to %pOF, a platform device of compatible %s, which %s does not let capes make",
					      frag, kbasename(child->full_name),
					      target, compat, dev_name(&ctrl->dev));

	return 0;
}

/*
 * One fragment, as the overlay code will apply it: it targets a node the
 * connector allows, shared by the board or enabled by the cape itself (a
 * target the board leaves disabled is the capes' that enable it: a node
 * there would come alive on another cape's bus), it only adds nodes (no
 * property of the target, no node the target has already), and everything
 * it adds keeps the rules.
 */
static int capebus_verify_fragment(struct capebus_apply *ap,
				   struct of_overlay_notify_data *nd)
{
	struct capebus_controller *ctrl = ap->cape->ctrl;
	struct device_node *target = nd->target, *ov = nd->overlay, *have;
	const char *frag = kbasename(ov->parent->full_name);
	const struct capebus_target *t;
	struct property *prop;
	int ret;

	t = capebus_controller_target(ctrl, target);
	if (!t)
		return capebus_refuse(ap,
				      "targets: fragment %s targets %s%pOF, which is not a cape target of %s",
				      frag, of_node_is_root(target) ? "/" : "",
				      target, dev_name(&ctrl->dev));
	if (!t->shared && !capebus_overlay_enables(ap->cape, target)) {
		/* capebus_overlay_apply() names who has it. */
		ap->foreign = target;
		return capebus_refuse(ap,
				      "targets: fragment %s targets %pOF, which it does not enable (status = \"okay\")",
				      frag, target);
	}

	for_each_property_of_node(ov, prop) {
		if (!of_prop_cmp(prop->name, "name"))
			continue;	/* the overlay code skips it too */
		/*
		 * dtc wants a bus's cell sizes beside a node with reg; the
		 * overlay code only compares them with the target's.
		 */
		if ((!of_prop_cmp(prop->name, "#address-cells") ||
		     !of_prop_cmp(prop->name, "#size-cells")) &&
		    capebus_prop_same(target, prop))
			continue;
		return capebus_refuse(ap,
				      "add only: fragment %s sets property %s of %pOF",
				      frag, prop->name, target);
	}

	for_each_child_of_node_scoped(ov, child) {
		have = capebus_same_child(target, child);
		if (have) {
			ret = capebus_refuse(ap,
					     "add only: fragment %s changes %pOF, which the board has",
					     frag, have);
			of_node_put(have);
			return ret;
		}
		ret = capebus_add_once(ap, target, child, frag);
		if (!ret)
			ret = capebus_verify_platform(ap, target, child, frag);
		if (!ret)
			ret = capebus_verify_subtree(ap, target, true, child, ov);
		if (ret)
			return ret;
	}

	return 0;
}

/* The apply the current task makes, if it is capebus's.  capebus_ov_lock. */
static struct capebus_apply *capebus_apply_current(void)
{
	struct capebus_apply *ap;

	lockdep_assert_held(&capebus_ov_lock);

	list_for_each_entry(ap, &capebus_applies, node)
		if (ap->task == current)
			return ap;

	return NULL;
}

/*
 * Take @cape's claims (every one if NULL) out of @claims: into @to if
 * given (only those on @cape's targets), else freed.
 */
static void capebus_claims_move(struct rb_root *claims, struct rb_root *to,
				struct cape_device *cape)
{
	struct capebus_bus_claim *c;
	struct rb_node *rb, *next;

	for (rb = rb_first(claims); rb; rb = next) {
		next = rb_next(rb);
		c = rb_entry(rb, struct capebus_bus_claim, rb);
		if ((cape && c->cape != cape) ||
		    (to && !capebus_controller_has_target(c->cape->ctrl, c->bus)))
			continue;
		rb_erase(rb, claims);
		if (to) {
			rb_add(&c->rb, to, capebus_claim_less);
			continue;
		}
		of_node_put(c->bus);
		kfree(c);
	}
}

static int capebus_overlay_notify(struct notifier_block *nb,
				  unsigned long action, void *arg)
{
	struct of_overlay_notify_data *nd = arg;
	struct capebus_apply *ap;
	ktime_t start;
	int ret;

	if (action != OF_OVERLAY_PRE_APPLY && action != OF_OVERLAY_POST_APPLY)
		return NOTIFY_DONE;

	guard(mutex)(&capebus_ov_lock);
	ap = capebus_apply_current();
	if (!ap)
		return NOTIFY_DONE;	/* not a cape's overlay */

	/* Applied: the addresses it holds on its targets are held now. */
	if (action == OF_OVERLAY_POST_APPLY) {
		capebus_claims_move(&ap->claims, &capebus_claims, NULL);
		return NOTIFY_OK;
	}

	start = ktime_get();
	ap->root = nd->overlay->parent->parent;
	ret = capebus_verify_fragment(ap, nd);
	ap->verify_ns += ktime_to_ns(ktime_sub(ktime_get(), start));
	if (ret && !ap->why[0])
		snprintf(ap->why, sizeof(ap->why), "cannot verify: error %d", ret);

	return notifier_from_errno(ret);
}

static struct notifier_block capebus_overlay_nb = {
	.notifier_call = capebus_overlay_notify,
};

/**
 * capebus_overlay_forget() - drop what capebus keeps for a cape's overlay
 * @cape: the cape, being released
 */
void capebus_overlay_forget(struct cape_device *cape)
{
	scoped_guard(mutex, &capebus_ov_lock)
		capebus_claims_move(&capebus_claims, NULL, cape);
	kvfree(cape->resolved);
	cape->resolved = NULL;
}

int capebus_overlay_init(void)
{
	return of_overlay_notifier_register(&capebus_overlay_nb);
}

void capebus_overlay_exit(void)
{
	of_overlay_notifier_unregister(&capebus_overlay_nb);
}

/**
 * capebus_overlay_apply() - apply a checked cape overlay
 * @cape: the cape; its device lock is held
 *
 * An apply that fails part-way is removed again; if even that fails the
 * device tree is left marked corrupt by the overlay code (every later apply
 * and removal fails with -EBUSY): that is reported loudly.
 *
 * Return: 0 or a negative errno; @cape->apply_why says what went wrong.
 */
int capebus_overlay_apply(struct cape_device *cape)
{
	struct capebus_apply ap = {
		.task = current,
		.cape = cape,
		.claims = RB_ROOT,
	};
	int id = 0, ret, ret2;
	ktime_t start;
	bool partial;

	cape->apply_why[0] = '\0';
	cape->apply_refused = false;
	if (!cape->resolved) {
		snprintf(cape->apply_why, sizeof(cape->apply_why),
			 "overlay was never resolved");
		return -EINVAL;
	}

	/*
	 * Header buses the board leaves disabled, reserved (capebus-enable.c):
	 * their rules checked, nothing enabled until the whole overlay has
	 * passed the notifier's.
	 */
	ret = capebus_overlay_enable(cape, cape->apply_why,
				     sizeof(cape->apply_why));
	if (ret) {
		cape->apply_refused = ret == -EINVAL;
		dev_err(&cape->dev, "overlay refused: %s\n", cape->apply_why);
		return ret;
	}

	scoped_guard(mutex, &capebus_ov_lock)
		list_add(&ap.node, &capebus_applies);

	start = ktime_get();
	ret = of_overlay_fdt_apply(cape->resolved, cape->resolved_len, &id, NULL);
	cape->apply_ns = ktime_to_ns(ktime_sub(ktime_get(), start));

	scoped_guard(mutex, &capebus_ov_lock) {
		cape->verify_ns = ap.verify_ns;
		list_del(&ap.node);
		capebus_claims_move(&ap.claims, NULL, NULL);
	}
	kfree(ap.added);

	/* Every rule passed: the targets now, their devices probe. */
	if (!ret)
		ret = capebus_overlay_enable_commit(cape, cape->apply_why,
						    sizeof(cape->apply_why));
	if (!ret) {
		cape->ovcs_id = id;
		dev_dbg(&cape->dev, "overlay %d applied in %llu us\n", id,
			div_u64(cape->apply_ns, NSEC_PER_USEC));
		return 0;
	}

	/*
	 * Refused by the notifier (nothing was changed: the changeset is
	 * empty), or partly applied: take it back.
	 */
	partial = id;
	ret2 = id ? of_overlay_remove(&id) : 0;
	if (ret2) {
		cape->ovcs_id = id;
		cape->overlay_stuck = true;
		snprintf(cape->apply_why, sizeof(cape->apply_why),
			 "error %d; removing the partial overlay failed (%d): it stays until it can be removed",
			 ret, ret2);
		dev_err(&cape->dev, "overlay not applied: %s\n", cape->apply_why);
		return ret;
	}

	capebus_overlay_disable(cape);
	if (ap.why[0]) {
		ssize_t n = strscpy(cape->apply_why, ap.why,
				    sizeof(cape->apply_why));

		if (ap.foreign && n >= 0)
			capebus_enable_owner(ap.foreign, cape->apply_why + n,
					     sizeof(cape->apply_why) - n);
		cape->apply_refused = true;
		dev_err(&cape->dev, "overlay refused: %s\n", cape->apply_why);
		return ret;
	}

	/* A target that could not be enabled said which, else: */
	if (!cape->apply_why[0])
		snprintf(cape->apply_why, sizeof(cape->apply_why), "error %d%s",
			 ret, partial ? " (partial overlay removed)" :
			 ret == -EBUSY ?
			 " (device tree corrupt after an earlier failed overlay change)" :
			 "");
	dev_err(&cape->dev, "overlay not applied: %s\n", cape->apply_why);

	return ret;
}

/**
 * capebus_overlay_revert() - remove a cape's applied overlay
 * @cape: the cape; its device lock is held (once the cape is unregistered,
 *	the controller's transition lock)
 * @quiet: do not log a failure (a retry, expected to fail at times)
 *
 * of_overlay_remove() refuses (-EBUSY) when a later overlay changed the same
 * nodes (two capes setting properties of one bus node, say) or the tree is
 * marked corrupt, and can fail half-way (tree marked corrupt).  Then the
 * cape's overlay is "stuck": its id is kept so that a later attempt can
 * retry (the core tries again after each overlay removal), and the core
 * keeps the cape's pins held.
 *
 * Return: 0 if the cape has no overlay applied any more, else -EBUSY.
 */
int capebus_overlay_revert(struct cape_device *cape, bool quiet)
{
	int id = cape->ovcs_id, ret;

	if (!id)
		return 0;

	ret = of_overlay_remove(&cape->ovcs_id);
	/* A non-zero id left means the overlay is still there. */
	cape->overlay_stuck = !!cape->ovcs_id;
	if (!cape->overlay_stuck) {
		scoped_guard(mutex, &capebus_ov_lock)
			capebus_claims_move(&capebus_claims, NULL, cape);
		capebus_overlay_disable(cape);
	}
	if (ret && !(quiet && cape->overlay_stuck))
		dev_err(&cape->dev,
			"overlay %d %s (error %d%s)\n", id,
			cape->overlay_stuck ?
			"could not be removed; its nodes and devices stay" :
			"removed, but a notifier failed",
			ret, ret == -EBUSY ?
			": a later overlay changed the same nodes, or the device tree is corrupt" :
			"");

	return cape->overlay_stuck ? -EBUSY : 0;
}
