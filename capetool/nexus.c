// SPDX-License-Identifier: GPL-2.0
/*
 * capetool: the specifiers a cape's resolved overlay makes through the
 * connector's GPIO and interrupt nexus, found as the kernel finds them
 * (capebus_verify_prop() of kernel/drivers/capebus/capebus-overlay.c, on
 * the live tree when the overlay is applied), for the one rule the kernel
 * holds them to (capebus_verify_nexus_pin(): the first cell is a header
 * pin the cape declares, not a shared one), which the caller applies:
 * kernel-rules.c for a cape (bone_gpio, bone_irq), hat-overlay.c for a HAT
 * (hat_gpio, hat_irq).  In every node a fragment adds, at every depth:
 *  - interrupts: its parent as of_irq_find_parent() finds it, the node's
 *    or an ancestor's interrupt-parent inside the overlay; a node whose
 *    search leaves the overlay would take the board's, and is refused;
 *  - interrupts-extended: each parent an interrupt controller of the
 *    overlay or the interrupt nexus;
 *  - a GPIO property (named for #gpio-cells: "gpios", "...-gpio", ...,
 *    and gpiolib's legacy names): each <&NEXUS PIN FLAGS> in it.
 * The kernel checks more of the same properties (references to the
 * board's nodes, cell counts of other providers); here, only what the
 * nexus takes and what the interrupt rules refuse on the way.
 */
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capetool.h"

/* The steps an interrupt parent may take before it is found (CAPEBUS_IRQ_PARENT_STEPS). */
#define NEXUS_IRQ_PARENT_STEPS	32
/* The most cells a specifier may have (CAPEBUS_FDT_MAX_CELLS). */
#define NEXUS_MAX_CELLS		8

struct walk {
	const void *fdt;
	const struct nexus_ids *ids;
	nexus_fn fn;
	void *ctx;
};

/*
 * Does @prop name, by the DT convention, a provider of "gpio": "gpio",
 * "...-gpio", plural ("s", "es"), or "assigned-gpio..."
 * (capebus_prop_names_stem())?
 */
static bool names_gpio(const char *prop)
{
	static const char *const plural[] = { "", "s", "es" };
	static const char stem[] = "gpio";
	size_t len = strlen(prop), slen = sizeof(stem) - 1;

	if (!strncmp(prop, "assigned-", 9) && !strncmp(prop + 9, stem, slen))
		return true;
	for (size_t i = 0; i < sizeof(plural) / sizeof(plural[0]); i++) {
		size_t pl = strlen(plural[i]), n;

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

/* gpiolib's legacy GPIO names, read as specifiers though no stem rule matches (capebus_plain_refs[]). */
static bool legacy_gpio(const char *prop)
{
	static const char *const names[] = {
		"gpio-sck", "gpio-miso", "gpio-mosi", "gpio-reset", "gpios-reset", "gpio-rtc-data",
		"gpio-rtc-sclk", "gpio-rtc-reset", "reset-n-io", "cirrus,gpio-nreset", "wlf,reset",
		"wlf,ldoena", "wlf,ldo1ena", "wlf,ldo2ena", "i2s1-in-sel-gpio1", "i2s1-in-sel-gpio2",
		"fcs,int_n",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(prop, names[i]))
			return true;
	return false;
}

static uint32_t cell_at(const void *v, uint32_t i)
{
	return fdt32_ld((const fdt32_t *)v + i);
}

/* A u32 property of @node, its first cell as of_property_read_u32(): 0 and *v, or -1. */
static int read_u32(const void *fdt, int node, const char *name, uint32_t *v)
{
	int len;
	const void *p = fdt_getprop(fdt, node, name, &len);

	if (!p || len < 4)
		return -1;
	*v = cell_at(p, 0);
	return 0;
}

static bool has(const void *fdt, int node, const char *name)
{
	return fdt_getprop(fdt, node, name, NULL) != NULL;
}

/* The overlay's own node of phandle @ph, or -1 (an export's, the board's, none). */
static int own_node(const struct walk *w, uint32_t ph)
{
	int n;

	if (!ph || ph == w->ids->gpio || ph == w->ids->irq)
		return -1;
	n = fdt_node_offset_by_phandle(w->fdt, ph);
	return n >= 0 ? n : -1;
}

/* What phandle @ph stands for, as a refusal names it. */
static const char *ref_name(const struct walk *w, uint32_t ph)
{
	int n = own_node(w, ph);

	if (n >= 0)
		return fdt_get_name(w->fdt, n, NULL);
	if (ph && ph == w->ids->gpio)
		return "the connector's GPIO nexus";
	if (ph && ph == w->ids->irq)
		return "the connector's interrupt nexus";
	if (ph >= w->ids->export_first && ph < w->ids->export_end)
		return "a node the connector exports";
	return "a node the overlay does not have";
}

/* An interrupt parent as a refusal names it: its own node @p, or what @ph stands for. */
static const char *parent_name(const struct walk *w, uint32_t ph, int p)
{
	return p >= 0 ? fdt_get_name(w->fdt, p, NULL) : ref_name(w, ph);
}

/* A phandle an interrupt may name: the overlay's own node's or an export's. */
static bool known(const struct walk *w, uint32_t ph)
{
	return own_node(w, ph) >= 0 || (ph && (ph == w->ids->gpio || ph == w->ids->irq)) ||
	       (ph >= w->ids->export_first && ph < w->ids->export_end);
}

static char *spec(const struct walk *w, int node, const char *prop, bool irq, uint32_t code)
{
	struct nexus_spec s = { fdt_get_name(w->fdt, node, NULL), prop, irq, code };

	return w->fn(w->ctx, &s);
}

/* A specifier through interrupt parent @ph (@parent its own node, or -1) at @cells of @prop. */
static char *irq_parent(const struct walk *w, int node, const char *prop, uint32_t ph, int parent,
			const void *spec_cells)
{
	if (parent >= 0 && has(w->fdt, parent, "interrupt-controller"))
		return NULL;
	if (ph == w->ids->irq)
		return spec(w, node, prop, true, cell_at(spec_cells, 0));
	return xasprintf("interrupts: property %s of node %s names %s, which is neither an interrupt "
			 "controller of the overlay nor a nexus the connector exports", prop,
			 fdt_get_name(w->fdt, node, NULL), parent_name(w, ph, parent));
}

/* #interrupt-cells of @ph: the nexus's, or its own node's; 0 and *cells, or a refusal. */
static char *irq_cells(const struct walk *w, int node, const char *prop, uint32_t ph, int parent,
		       uint32_t *cells)
{
	if (ph == w->ids->irq) {
		*cells = w->ids->irq_cells;
		return NULL;
	}
	if (parent >= 0 && !read_u32(w->fdt, parent, "#interrupt-cells", cells) &&
	    *cells <= NEXUS_MAX_CELLS)
		return NULL;
	return xasprintf("interrupts: %s, named by property %s of node %s, has no bounded #interrupt-cells",
			 parent_name(w, ph, parent), prop, fdt_get_name(w->fdt, node, NULL));
}

/* interrupts-extended (capebus_verify_irq_extended()). */
static char *irq_extended(const struct walk *w, int node, const char *prop, const void *v, uint32_t n)
{
	for (uint32_t i = 0; i < n;) {
		uint32_t ph = cell_at(v, i), cells;
		int parent = own_node(w, ph);
		char *why;

		if (!known(w, ph))
			return xasprintf("interrupts: property %s of node %s names phandle %#x, which no node has",
					 prop, fdt_get_name(w->fdt, node, NULL), ph);
		if ((why = irq_cells(w, node, prop, ph, parent, &cells)))
			return why;
		if (cells > n - i - 1)
			return xasprintf("interrupts: property %s of node %s does not match the cells of %s",
					 prop, fdt_get_name(w->fdt, node, NULL), ref_name(w, ph));
		if (!cells && ph == w->ids->irq)
			return xasprintf("interrupts: the nexus has no #interrupt-cells for property %s of node %s",
					 prop, fdt_get_name(w->fdt, node, NULL));
		if ((why = irq_parent(w, node, prop, ph, parent, (const fdt32_t *)v + i + 1)))
			return why;
		i += 1 + cells;
	}
	return NULL;
}

/*
 * interrupts: its parent as of_irq_find_parent() will find it, without
 * leaving the overlay (capebus_verify_irq_inherited()); @top is the
 * fragment's __overlay__, which stands for the board's target.
 */
static char *irq_inherited(const struct walk *w, int node, const char *prop, const void *v, int len,
			   int top)
{
	const char *name = fdt_get_name(w->fdt, node, NULL);
	int child = node, p = -1, steps = 0;
	uint32_t ph = 0, cells;
	char *why;

	for (;;) {
		if (++steps > NEXUS_IRQ_PARENT_STEPS)
			return xasprintf("interrupts: the interrupt parents of node %s go round in a circle", name);
		if (!read_u32(w->fdt, child, "interrupt-parent", &ph)) {
			p = own_node(w, ph);
			if (!known(w, ph))
				return xasprintf("interrupts: interrupt-parent of %s names phandle %#x, which no node has",
						 fdt_get_name(w->fdt, child, NULL), ph);
			/* an export leads outside the overlay: it must be the parent */
			if (p < 0 && ph != w->ids->irq)
				return xasprintf("interrupts: %s, the interrupt-parent of %s, is not an interrupt provider",
						 ref_name(w, ph), fdt_get_name(w->fdt, child, NULL));
			if (p < 0)
				break;
		} else {
			ph = 0;
			p = fdt_parent_offset(w->fdt, child);
			if (p < 0 || p == top)
				return xasprintf("interrupts: node %s has interrupts but no interrupt-parent in the "
						 "overlay: it would take the board's", name);
		}
		if (has(w->fdt, p, "#interrupt-cells"))
			break;
		child = p;
	}
	if ((why = irq_cells(w, node, prop, ph, p, &cells)))
		return why;
	if (!cells || len % (4 * (int)cells))
		return xasprintf("interrupts: property %s of node %s does not match the #interrupt-cells of %s",
				 prop, name, parent_name(w, ph, p));
	for (uint32_t i = 0; i < (uint32_t)len / 4; i += cells)
		if ((why = irq_parent(w, node, prop, ph, p, (const fdt32_t *)v + i)))
			return why;
	return NULL;
}

/* A GPIO property: each <&NEXUS PIN FLAGS>, past the overlay's own controllers' specifiers. */
static char *gpios(const struct walk *w, int node, const char *prop, const void *v, uint32_t n)
{
	bool legacy = legacy_gpio(prop);

	for (uint32_t i = 0; i < n;) {
		uint32_t ph = cell_at(v, i), args;
		int own = own_node(w, ph);
		char *why;

		if (ph == w->ids->gpio && w->ids->gpio) {
			args = w->ids->gpio_cells;
		} else if (own >= 0 && !read_u32(w->fdt, own, "#gpio-cells", &args)) {
			;
		} else if (own >= 0 && legacy) {
			args = 0;
		} else {
			i++;	/* data, or a board node's: not the nexus */
			continue;
		}
		if (args > n - i - 1)
			return xasprintf("references: property %s of node %s does not match the cells of %s",
					 prop, fdt_get_name(w->fdt, node, NULL), ref_name(w, ph));
		if (args && own < 0 && (why = spec(w, node, prop, false, cell_at(v, i + 1))))
			return why;
		i += 1 + args;
	}
	return NULL;
}

/* Every nexus specifier of @node (a node the fragment at @top adds) and its subnodes. */
static char *walk_node(const struct walk *w, int node, int top)
{
	int prop, child;
	char *why = NULL;

	fdt_for_each_property_offset(prop, w->fdt, node) {
		const char *name;
		int len;
		const void *v = fdt_getprop_by_offset(w->fdt, prop, &name, &len);

		if (!strcmp(name, "interrupts"))
			why = irq_inherited(w, node, name, v, len, top);
		else if (len < 4)
			continue;
		else if (!strcmp(name, "interrupts-extended"))
			why = irq_extended(w, node, name, v, (uint32_t)len / 4);
		else if (names_gpio(name) || legacy_gpio(name))
			why = gpios(w, node, name, v, (uint32_t)len / 4);
		if (why)
			return why;
	}
	fdt_for_each_subnode(child, w->fdt, node)
		if ((why = walk_node(w, child, top)))
			return why;
	return NULL;
}

char *nexus_walk(const void *fdt, const struct nexus_ids *ids, nexus_fn fn, void *ctx)
{
	const struct walk w = { fdt, ids, fn, ctx };
	int frag, top, child;
	char *why;

	fdt_for_each_subnode(frag, fdt, 0) {
		top = fdt_subnode_offset(fdt, frag, "__overlay__");
		if (top < 0)
			continue;
		fdt_for_each_subnode(child, fdt, top)
			if ((why = walk_node(&w, child, top)))
				return why;
	}
	return NULL;
}
