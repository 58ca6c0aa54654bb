// SPDX-License-Identifier: GPL-2.0
/*
 * capetool: a HAT's overlay against the Raspberry Pi connector, as the
 * kernel takes it.  A v1 HAT embeds its overlay; a HAT+ names one, which
 * capetool looks for beside the settings or image (NAME.dtbo, or a source
 * NAME.dtso or NAME.dts, compiled with dtc by dt-source.c, without -@: the
 * kernel refuses an overlay's __symbols__).  The overlay goes through the
 * kernel's own resolver (capebus-fdt.c, kcheck.h) with the connector's
 * exports from the board profile, then through the connector's rules the
 * kernel applies on the live tree (capebus-overlay.c, capebus-enable.c), as
 * tests/fuzz/kernel/bone-connector-check.c states them: each fragment's
 * target a cape target, nothing set on it but its #address-cells and
 * #size-cells, platform devices only of the listed compatibles, no target
 * property the connector does not list (the Pi's lists none); then the pins
 * it holds: exclusive-use, and the target-pins of each unit it enables; and
 * every GPIO and interrupt it takes through the connector's nexus (hat_gpio,
 * hat_irq; found by nexus.c as capebus-overlay.c finds them) on a pin it
 * declares, not a shared one (capebus_verify_nexus_pin()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libfdt.h>
#include "capetool.h"
#include "hat.h"
#include "kcheck.h"

/* Exported names stand for these phandles: one per board node. */
#define EXPORT_PHANDLE_BASE 0x40000000u

char *hat_overlay_find(const char *file, const char *name)
{
	static const char *const ext[] = { ".dtbo", ".dtso", ".dts" };
	const char *slash = is_stdio(file) ? NULL : strrchr(file, '/');

	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		char *p = slash ? xasprintf("%.*s/%s%s", (int)(slash - file), file, name, ext[i])
				: xasprintf("%s%s", name, ext[i]);

		if (!access(p, R_OK))
			return p;
		free(p);
	}
	return NULL;
}

/* The export that first names a board node stands for it. */
static int node_of(const struct rpi_board *b, int i)
{
	for (int j = 0; j < i; j++)
		if (b->exports[j].target && b->exports[i].target &&
		    !strcmp(b->exports[j].target, b->exports[i].target))
			return j;
	return i;
}

static int lookup(void *ctx, const char *name, uint32_t *phandle)
{
	const struct rpi_board *b = ctx;

	for (int i = 0; i < b->nexports; i++)
		if (!strcmp(b->exports[i].name, name)) {
			*phandle = EXPORT_PHANDLE_BASE + (uint32_t)node_of(b, i);
			return 0;
		}
	return -ENOENT;
}

/* The export a phandle of the resolved overlay stands for, -1: none. */
static int export_of(const struct rpi_board *b, uint32_t ph)
{
	if (ph < EXPORT_PHANDLE_BASE || ph - EXPORT_PHANDLE_BASE >= (uint32_t)b->nexports)
		return -1;
	return (int)(ph - EXPORT_PHANDLE_BASE);
}

static bool listed(char *const *l, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(l[i], s))
			return true;
	return false;
}

/* The connector's rules for fragment @frag of resolved overlay @out. */
static char *check_fragment(const struct rpi_board *b, const void *out, int frag)
{
	const char *fname = fdt_get_name(out, frag, NULL), *pname, *c;
	const fdt32_t *t = fdt_getprop(out, frag, "target", NULL);
	int body = fdt_subnode_offset(out, frag, "__overlay__"), prop, child, len, e;
	const struct rpi_export *x;

	e = t ? export_of(b, fdt32_to_cpu(*t)) : -1;
	if (e < 0 || !b->exports[e].target)
		return xasprintf("%s targets no cape target (the connector's: its exports but the GPIO nexus)",
				 fname);
	x = &b->exports[e];
	fdt_for_each_property_offset(prop, out, body) {
		const fdt32_t *v = fdt_getprop_by_offset(out, prop, &pname, &len);
		int k = !strcmp(pname, "#address-cells") ? 0 : !strcmp(pname, "#size-cells") ? 1 : -1;

		if (k >= 0 && len == 4 && x->cells[k] >= 0 && fdt32_to_cpu(*v) == (uint32_t)x->cells[k])
			continue;
		return xasprintf("add only: fragment %s sets property %s of %s", fname, pname, x->target);
	}
	if (!x->devices)
		return NULL;
	fdt_for_each_subnode(child, out, body) {
		c = fdt_getprop(out, child, "compatible", &len);
		for (int at = 0; c && at < len; at += (int)strlen(c + at) + 1)
			if (!listed(b->platform, b->nplatform, c + at))
				return xasprintf("%s: a platform device of compatible %s, which the connector does not list",
						 fdt_get_name(out, child, NULL), c + at);
	}
	return NULL;
}

/* What the kernel's capebus_verify_nexus_pin() makes of a nexus specifier. */
struct nexus_ctx {
	const struct rpi_board *b;
	uint64_t declared;
};

static char *nexus_pin(void *ctx, const struct nexus_spec *s)
{
	const struct nexus_ctx *n = ctx;

	if (s->code >= RPI_HAT_GPIO_BANK0_NUM)
		return xasprintf("references: property %s of node %s names %u on the connector, which is no header pin",
				 s->prop, s->node, s->code);
	if (!(n->declared >> s->code & 1))
		return xasprintf("references: property %s of node %s uses header pin GPIO%u, which the cape does not declare",
				 s->prop, s->node, s->code);
	if (n->b->shared_pins >> s->code & 1)
		return xasprintf("references: property %s of node %s uses header pin GPIO%u as a GPIO, which every cape "
				 "shares (a bus's pin)", s->prop, s->node, s->code);
	return NULL;
}

/* The phandles the connector's nexus exports stand for; <&NEXUS PIN FLAGS>. */
static void nexus_ids_of(const struct rpi_board *b, struct nexus_ids *ids)
{
	memset(ids, 0, sizeof(*ids));
	ids->gpio_cells = ids->irq_cells = 2;
	ids->export_first = EXPORT_PHANDLE_BASE;
	ids->export_end = EXPORT_PHANDLE_BASE + (uint32_t)b->nexports;
	for (int i = 0; i < b->nexports; i++)
		if (!b->exports[i].target)
			*(b->exports[i].irq ? &ids->irq : &ids->gpio) = EXPORT_PHANDLE_BASE + (uint32_t)node_of(b, i);
}

int hat_overlay_check(const struct rpi_board *b, const void *blob, size_t len, uint64_t map_pins,
		      struct hat_overlay *ov, char **why)
{
	struct nexus_ids ids;
	struct nexus_ctx nctx = { b, map_pins };
	char kwhy[256] = "";
	void *out = NULL;
	size_t out_len;
	const char *s;
	uint32_t plen, target;
	const char *fname, *pname;
	int r, frag;

	*why = NULL;
	ov->pins = ov->units = 0;
	r = kcheck_resolve(blob, len, lookup, (void *)b, &out, &out_len, kwhy, sizeof(kwhy));
	if (r) {
		/* one of Raspberry Pi's own: its parameters and board labels are import-rpi's to turn */
		bool rpi = len >= sizeof(struct fdt_header) && !fdt_check_header(blob) &&
			   fdt_totalsize(blob) <= len && fdt_subnode_offset(blob, 0, "__overrides__") >= 0;

		*why = xasprintf("the kernel refuses it: %s%s", kwhy,
				 rpi ? " (a Raspberry Pi overlay, with __overrides__: capetool import-rpi turns it into one for the connector)"
				     : "");
		return EXIT_DEF;
	}
	fdt_for_each_subnode(frag, out, 0) {
		if (fdt_subnode_offset(out, frag, "__overlay__") < 0)
			continue;
		if ((*why = check_fragment(b, out, frag)))
			goto refused;
	}
	if (!kcheck_target_prop(out, 0, &target, &fname, &pname)) {
		int e = export_of(b, target);

		*why = xasprintf("fragment %s sets property %s of %s, which the connector does not let HATs set (target-properties)",
				 fname, pname, e >= 0 ? b->exports[e].target : "a node it does not export");
		goto refused;
	}
	s = kcheck_root_prop(out, "capebus,enable-targets", &plen);
	for (uint32_t i = 0; s && i + 4 <= plen; i += 4) {
		int e = export_of(b, fdt32_to_cpu(*(const fdt32_t *)(s + i)));

		if (e >= 0)
			ov->units |= 1ULL << e;
	}
	s = kcheck_root_prop(out, "exclusive-use", &plen);
	if (s && (!plen || s[plen - 1])) {
		*why = xasprintf("exclusive-use is not a string list");
		goto refused;
	}
	for (const char *p = s; s && p < s + plen; p += strlen(p) + 1) {
		int g = rpi_gpio_of_name(p);

		if (g < 0) {
			*why = xasprintf("exclusive-use names \"%.32s\", which is not a header pin", p);
			goto refused;
		}
		ov->pins |= 1ULL << g;
	}
	for (int g = 0; g < RPI_HAT_GPIO_BANK0_NUM; g++)
		if (hat_overlay_held(b, ov) >> g & 1 && hat_board_pin_holder(b, g)) {
			*why = xasprintf("pin GPIO%d is held by %s: %s", g, hat_board_pin_holder(b, g),
					 hat_board_pin_why(b, g));
			goto refused;
		}
	nctx.declared |= ov->pins;
	nexus_ids_of(b, &ids);
	if ((*why = nexus_walk(out, &ids, nexus_pin, &nctx)))
		goto refused;
	free(out);
	return EXIT_OK;
refused:
	free(out);
	return EXIT_DEF;
}

const char *hat_board_pin_holder(const struct rpi_board *b, int g)
{
	if (b->board_pins >> g & 1)
		return "the board";
	if (b->console_pins >> g & 1)
		return "the board's serial console";
	return NULL;
}

const char *hat_board_pin_why(const struct rpi_board *b, int g)
{
	static char why[160];

	snprintf(why, sizeof(why), "%s, one of the connector's %s, which no HAT may claim",
		 b->pin_of_gpio[g] ? b->pin[b->pin_of_gpio[g] - 1].use : "?",
		 b->board_pins >> g & 1 ? "board-pins" : "console-pins");
	return why;
}

uint64_t hat_overlay_held(const struct rpi_board *b, const struct hat_overlay *ov)
{
	uint64_t held = ov->pins;

	for (int e = 0; e < b->nexports; e++)
		if (ov->units >> e & 1)
			held |= b->exports[e].pins;
	return held & ~b->shared_pins;
}

int hat_overlay_of(const struct rpi_board *b, const char *file, int version, const uint8_t *dt,
		   size_t dtlen, uint64_t map_pins, struct hat_overlay *ov, char **why)
{
	uint8_t *blob;
	size_t len;
	char *name;
	int rc;

	memset(ov, 0, sizeof(*ov));
	*why = NULL;
	if (!dt)
		return EXIT_OK;
	if (version == RPI_HAT_VERSION_1) {
		ov->file = xstrdup("its device tree atom");
		return hat_overlay_check(b, dt, dtlen, map_pins, ov, why);
	}
	name = xasprintf("%.*s", (int)dtlen, (const char *)dt);
	ov->file = hat_overlay_find(file, name);
	if (!ov->file) {
		ov->missing = xasprintf("%s.dtbo", name);
		free(name);
		return EXIT_OK;
	}
	free(name);
	if ((rc = dt_source_read(ov->file, NULL, 0, false, &blob, &len)))
		return rc;
	rc = hat_overlay_check(b, blob, len, map_pins, ov, why);
	free(blob);
	return rc;
}

void hat_overlay_free(struct hat_overlay *ov)
{
	free(ov->file);
	free(ov->missing);
	memset(ov, 0, sizeof(*ov));
}
