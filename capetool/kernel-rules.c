// SPDX-License-Identifier: GPL-2.0
/*
 * capetool: a portable cape overlay held against the kernel's rules before
 * resolve turns it into one for the board's own tree, where a bootloader
 * applies it and nothing checks it.
 *
 * The overlay goes through the kernel's own parser and resolver,
 * capebus_fdt_resolve() of kernel/drivers/capebus/capebus-fdt.c, through
 * kcheck.h (the one way capetool calls it, HATs' overlays included),
 * resolving its references through the board profile's exports.  Then the connector's rules on what
 * it resolved to, as bone-connector-check applies them: every fragment
 * targets a cape target (an export that names a node, not a nexus; no
 * target-path, no raw phandle), sets no property of its target but status
 * (taken out by the resolver), #address-cells and #size-cells (on an I2C
 * or SPI bus, equal to the bus's: 1 and 0), and, on a target it enables,
 * the properties the export's target-properties lists; every GPIO and
 * interrupt through the connector's nexus (bone_gpio, bone_irq; found by
 * nexus.c as capebus-overlay.c finds them) on a header pin the cape
 * declares, not a shared one (capebus_verify_nexus_pin()).
 *
 * Not checked here, as the board profile does not know them: the
 * connector's cape-platform-compatibles (which platform devices a cape may
 * add), and #address-cells/#size-cells of targets other than I2C and SPI
 * buses.
 */
#include <errno.h>
#include <libfdt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capetool.h"
#include "kcheck.h"

/*
 * Export i stands for phandle EXPORT_PHANDLE + i: far above the overlay's
 * own, which the resolver renumbers 1..n.
 */
#define EXPORT_PHANDLE	0x40000000u

static int lookup(void *ctx, const char *name, uint32_t *phandle)
{
	const struct board *b = ctx;

	for (size_t i = 0; i < b->nexports; i++)
		if (!strcmp(b->exports[i].name, name)) {
			*phandle = EXPORT_PHANDLE + (uint32_t)i;
			return 0;
		}
	return -ENOENT;
}

static const struct board_export *export_of(const struct board *b, uint32_t phandle)
{
	if (phandle < EXPORT_PHANDLE || phandle - EXPORT_PHANDLE >= b->nexports)
		return NULL;
	return &b->exports[phandle - EXPORT_PHANDLE];
}

/* The I2C or SPI bus @e names, whose #address-cells is 1 and #size-cells 0. */
static bool addressed_bus(const struct board *b, const struct board_export *e)
{
	for (size_t i = 0; e->target && i < b->nbuses; i++)
		if (!strcmp(b->buses[i].label, e->target) &&
		    (!strcmp(b->buses[i].type, "i2c") || !strcmp(b->buses[i].type, "spi")))
			return true;
	return false;
}

/* One fragment of the resolved overlay: its target and what it sets of it. */
static int check_fragment(const char *src, const struct board *b, const void *out, int frag)
{
	const char *fname = fdt_get_name(out, frag, NULL);
	const fdt32_t *t = fdt_getprop(out, frag, "target", NULL);
	const struct board_export *e = t ? export_of(b, fdt32_to_cpu(*t)) : NULL;
	int body = fdt_subnode_offset(out, frag, "__overlay__"), prop, bad = 0;

	if (!e || !e->target) {
		char *names = board_export_list(b);

		if (!t)
			err("%s: %s targets a path (target-path), not a name board %s's cape connector "
			    "exports: the kernel refuses it (a cape adds nodes only under its cape "
			    "targets; it exports: %s)", src, fname, b->name, names);
		else if (e)
			err("%s: %s targets %s, the connector's %s nexus, no cape target: the kernel "
			    "refuses it", src, fname, e->name, e->irq ? "interrupt" : "GPIO");
		else
			err("%s: %s targets a raw phandle (<%u>), not through a name board %s's cape "
			    "connector exports: the kernel refuses it (target = <&NAME>; it exports: %s)",
			    src, fname, fdt32_to_cpu(*t), b->name, names);
		free(names);
		return 1;
	}
	fdt_for_each_property_offset(prop, out, body) {
		const char *name;
		int len;
		const fdt32_t *v = fdt_getprop_by_offset(out, prop, &name, &len);
		bool cells = !strcmp(name, "#address-cells") || !strcmp(name, "#size-cells");

		if (cells && addressed_bus(b, e) && len == 4 &&
		    fdt32_to_cpu(*v) == (strcmp(name, "#address-cells") ? 0u : 1u))
			continue;
		if (cells && !addressed_bus(b, e))
			continue;	/* the profile does not know the target's: the kernel compares */
		err("%s: %s sets %s of %s (%s), a node of the board's: the kernel's connector lets a cape "
		    "add nodes to its targets and enable one, and set nothing else (threat-model.rst, "
		    "Add only)%s", src, fname, name, e->name, e->target,
		    cells ? "; an I2C or SPI bus has #address-cells = <1> and #size-cells = <0>" : "");
		bad++;
	}
	return bad;
}

/* What the kernel's capebus_verify_nexus_pin() makes of a nexus specifier. */
struct nexus_ctx {
	const struct board *b;
	bool declared[CAPE_NPINS];
};

static char *nexus_pin(void *ctx, const struct nexus_spec *s)
{
	const struct nexus_ctx *n = ctx;
	int idx = pin_code_index(s->code);

	if (idx < 0)
		return xasprintf("references: property %s of node %s names %u on the connector, which is no "
				 "header pin (800+n for P8.n, 900+n for P9.n)", s->prop, s->node, s->code);
	if (!n->declared[idx])
		return xasprintf("references: property %s of node %s uses header pin %s, which the cape does "
				 "not declare", s->prop, s->node, cape_pin_names[idx]);
	if (n->b->shared_pin[idx])
		return xasprintf("references: property %s of node %s uses header pin %s as a GPIO, which every "
				 "cape shares (a bus's pin)", s->prop, s->node, cape_pin_names[idx]);
	return NULL;
}

/* The nexus specifiers of resolved overlay @out: EXIT_OK, or EXIT_DEF after saying why. */
static int check_nexus(const char *src, const struct board *b, const void *out,
		       const uint16_t words[CAPE_NPINS])
{
	const struct board_export *ge = board_gpio_export(b), *ie = board_irq_export(b);
	struct nexus_ids ids = {
		ge ? EXPORT_PHANDLE + (uint32_t)(ge - b->exports) : 0,
		ie ? EXPORT_PHANDLE + (uint32_t)(ie - b->exports) : 0,
		2, 2,	/* <&NEXUS PIN FLAGS>, <&NEXUS PIN TYPE> */
		EXPORT_PHANDLE, EXPORT_PHANDLE + (uint32_t)b->nexports,
	};
	struct nexus_ctx n = { .b = b };
	uint32_t len;
	const char *s = kcheck_root_prop(out, "exclusive-use", &len);
	char *why;

	for (int i = 0; i < CAPE_NPINS; i++)
		n.declared[i] = words[i] & CAPE_PIN_USED;
	/* the kernel's claim: the EEPROM's pins and the overlay's exclusive-use */
	for (const char *p = s; s && len && !s[len - 1] && p < s + len; p += strlen(p) + 1)
		if (cape_pin_index(p) >= 0)
			n.declared[cape_pin_index(p)] = true;
	why = nexus_walk(out, &ids, nexus_pin, &n);
	if (!why)
		return EXIT_OK;
	err("%s: the kernel refuses this overlay on board %s: %s", src, b->name, why);
	free(why);
	return EXIT_DEF;
}

int kernel_rules_check(const char *src, const void *dtbo, size_t len, const struct board *b,
		       const uint16_t words[CAPE_NPINS])
{
	const char *tfrag, *tname;
	uint32_t target;
	void *out = NULL;
	size_t out_len;
	char why[256];
	int r, frag, bad = 0, nodes = 0;

	/*
	 * No node at all (a cape of pins only): nothing of the overlay's
	 * reaches the tree, and resolve's pinmux fragment is the point (the
	 * kernel's checker refuses an overlay without fragments).
	 */
	fdt_for_each_subnode(frag, dtbo, 0)
		nodes++;
	if (!nodes)
		return EXIT_OK;
	r = kcheck_resolve(dtbo, len, lookup, (void *)b, &out, &out_len, why, sizeof(why));
	if (r) {
		err("%s: the kernel refuses this overlay (capebus-fdt.c, against board %s's "
		    "exports): %s", src, b->name, why);
		return EXIT_DEF;
	}
	for (unsigned int i = 0; !kcheck_target_prop(out, i, &target, &tfrag, &tname); i++) {
		const struct board_export *e = export_of(b, target);
		bool ok = false;

		for (size_t k = 0; e && k < e->nprops; k++)
			ok |= !strcmp(e->props[k], tname);
		if (ok)
			continue;
		err("%s: %s sets %s of %s%s%s%s, which the connector does not let capes set (its "
		    "target-properties): the kernel refuses it", src, tfrag, tname,
		    e ? e->name : "a node it does not export", e && e->target ? " (" : "",
		    e && e->target ? e->target : "", e && e->target ? ")" : "");
		bad++;
	}
	fdt_for_each_subnode(frag, out, 0) {
		if (fdt_subnode_offset(out, frag, "__overlay__") >= 0)
			bad += check_fragment(src, b, out, frag);
	}
	if (!bad && check_nexus(src, b, out, words))
		bad++;
	free(out);
	return bad ? EXIT_DEF : EXIT_OK;
}
