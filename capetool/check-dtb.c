// SPDX-License-Identifier: GPL-2.0
/*
 * capetool check --dtb: the capes resolved for the exact tree the board
 * will boot and applied to it together, in userspace, as a bootloader
 * applies them (libfdt's fdt_overlay_apply(), U-Boot's own code): what
 * would fail, and why, before the reboot.
 *
 * Each cape has passed check's rules (its definition, the kernel's rules
 * on its portable overlay, pins, addresses and power beside the capes
 * before it) when it gets here.  Here: a pin the tree's own enabled
 * devices mux (the tree's pinctrl groups, not the profile's board-pins and
 * --variant, decide), resolve for the tree (a label the
 * tree lacks; the parents its units need and the ADC's inputs, added), a
 * node the cape adds at an address where the tree (or an earlier cape) has
 * one already, the apply itself, and after it an ADC input an earlier
 * cape's overlay lists and a later one's drops.
 */
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capetool.h"

/* The path of the node @label names in @fdt (its __symbols__), or NULL. */
static const char *sym_path(const void *fdt, const char *label)
{
	int sym = fdt_path_offset(fdt, "/__symbols__"), l;
	const char *p = sym >= 0 ? fdt_getprop(fdt, sym, label, &l) : NULL;

	return p && l > 0 && !p[l - 1] ? p : NULL;
}

/*
 * @off is a device of the tree, enabled: it and every node above it, and
 * not under /__local_fixups__ (whose pinctrl-0 are offsets, not phandles)
 * or another of dtc's /__*__ nodes.
 */
static bool enabled_device(const void *fdt, int off)
{
	for (int up; off > 0; off = up) {
		up = fdt_parent_offset(fdt, off);
		if (!target_tree_node_enabled(fdt, off) ||
		    (!up && !strncmp(fdt_get_name(fdt, off, NULL), "__", 2)))
			return false;
	}
	return off == 0 && target_tree_node_enabled(fdt, 0);
}

/* "LABEL (PATH, PROP: GROUP)", or "PATH (PROP: GROUP)" for a node without a label. */
static char *owner_name(const void *fdt, int node, const char *prop, int group)
{
	char path[512];
	const char *label = NULL;
	int sym = fdt_path_offset(fdt, "/__symbols__"), p;

	if (fdt_get_path(fdt, node, path, sizeof(path)))
		snprintf(path, sizeof(path), "%s", fdt_get_name(fdt, node, NULL));
	fdt_for_each_property_offset(p, fdt, sym) {
		const char *name;
		int l;
		const char *v = fdt_getprop_by_offset(fdt, p, &name, &l);

		if (v && l > 0 && !v[l - 1] && !strcmp(v, path)) {
			label = name;
			break;
		}
	}
	return label ? xasprintf("%s (%s, %s: %s)", label, path, prop, fdt_get_name(fdt, group, NULL))
		     : xasprintf("%s (%s: %s)", path, prop, fdt_get_name(fdt, group, NULL));
}

/*
 * The header pins the tree's own enabled devices mux: every pinctrl-N
 * group of the board's pin controller an enabled node names (the
 * controller's hogs too), its pads by the profile's pad conf offsets.  A
 * cape's pin there would be muxed twice, and the kernel's connector
 * refuses a pad the board's states mux; this is the tree the board boots,
 * whatever the profile's board-pins and --variant say.  The cape bus's
 * shared pins (its I2C, every cape's EEPROM) are the capes' to name.
 */
static void tree_pins(struct check_dtb *c)
{
	const struct board *b = c->t.b;
	const char *pm = b->pinmux ? sym_path(c->fdt, b->pinmux) : NULL;
	int pmoff = pm ? fdt_path_offset(c->fdt, pm) : -1, node, depth = 0, l;
	const fdt32_t *pc = pmoff >= 0 ? fdt_getprop(c->fdt, pmoff, "#pinctrl-cells", &l) : NULL;
	int stride = 1 + (pc && l == 4 ? (int)fdt32_to_cpu(*pc) : 1);

	for (node = pmoff >= 0 ? fdt_next_node(c->fdt, -1, &depth) : -1; node >= 0;
	     node = fdt_next_node(c->fdt, node, &depth)) {
		int prop;

		fdt_for_each_property_offset(prop, c->fdt, node) {
			const char *name;
			const fdt32_t *ph = fdt_getprop_by_offset(c->fdt, prop, &name, &l);

			/* pinctrl-0, pinctrl-1...: not pinctrl-names */
			if (strncmp(name, "pinctrl-", 8) || name[8] < '0' || name[8] > '9' ||
			    !enabled_device(c->fdt, node))
				continue;
			for (int k = 0; ph && k < l / 4; k++) {
				int g = fdt_node_offset_by_phandle(c->fdt, fdt32_to_cpu(ph[k])), pl;
				const fdt32_t *pads;

				if (g < 0 || fdt_parent_offset(c->fdt, g) != pmoff)
					continue;
				pads = fdt_getprop(c->fdt, g, "pinctrl-single,pins", &pl);
				for (int o = 0; pads && (o + stride) * 4 <= pl; o += stride)
					for (int idx = 0; idx < CAPE_NPINS; idx++)
						if (b->pins[idx].conf >= 0 && !b->shared_pin[idx] &&
						    (uint32_t)b->pins[idx].conf == fdt32_to_cpu(pads[o]) &&
						    !c->taken[idx])
							c->taken[idx] = owner_name(c->fdt, node, name, g);
			}
		}
	}
}

/* Cape @d's pins the tree's devices mux, said by device; how many devices. */
static int tree_taken(const struct check_dtb *c, const char *file, const struct cape_def *d)
{
	bool said[CAPE_NPINS] = { false };
	int bad = 0;

	for (size_t i = 0; i < d->npins; i++) {
		const char *who = c->taken[d->pins[i].idx];
		char *pins = NULL;
		size_t n = 0;

		if (!who || said[d->pins[i].idx])
			continue;
		for (size_t k = i; k < d->npins; k++) {
			int idx = d->pins[k].idx;

			if (c->taken[idx] && !strcmp(c->taken[idx], who)) {
				said[idx] = true;
				str_append(&pins, ", ", cape_pin_names[idx]);
				n++;
			}
		}
		printf("%s: %s: %s's pin%s %s %s muxed by %s, enabled in the tree: the pads are the "
		       "board's there, and the kernel's connector refuses them (disable it in the tree, "
		       "or leave the pins to it)\n", file, c->t.name, d->part_number, n > 1 ? "s" : "",
		       pins, n > 1 ? "are" : "is", who);
		free(pins);
		bad++;
	}
	return bad;
}

int check_dtb_open(struct check_dtb *c, const struct board *b, const char *path)
{
	int r;

	memset(c, 0, sizeof(*c));
	r = target_tree_open(&c->t, b, path);
	if (r)
		return r;
	c->len = c->t.len * 2 + 65536;
	c->fdt = xmalloc(c->len);
	r = fdt_open_into(c->t.dtb, c->fdt, (int)c->len);
	if (r) {
		err("%s: %s", c->t.name, fdt_strerror(r));
		check_dtb_close(c);
		return EXIT_DEF;
	}
	tree_pins(c);
	return EXIT_OK;
}

void check_dtb_close(struct check_dtb *c)
{
	for (size_t i = 0; i < c->nadded; i++) {
		free(c->added[i].path);
		free(c->added[i].part);
	}
	free(c->added);
	free(c->ain);
	for (int i = 0; i < CAPE_NPINS; i++)
		free(c->taken[i]);
	free(c->fdt);
	target_tree_close(&c->t);
}

/* The ADC inputs the tree's ADC node lists now; 0 without one. */
static unsigned adc_now(const struct check_dtb *c)
{
	const struct board *b = c->t.b;

	for (size_t i = 0; i < b->nbuses; i++) {
		const char *p = b->buses[i].adc_channels ?
				sym_path(c->fdt, b->buses[i].adc_channels) : NULL;

		if (p)
			return target_tree_adc_channels(c->fdt, fdt_path_offset(c->fdt, p));
	}
	return 0;
}

/* Who added the node at @path: a cape's part number, or NULL (the tree's own). */
static const char *adder(const struct check_dtb *c, const char *path)
{
	for (size_t i = 0; i < c->nadded; i++)
		if (!strcmp(c->added[i].path, path))
			return c->added[i].part;
	return NULL;
}

static const char *overlay_target_label(const void *ov, int frag)
{
	int fx = fdt_path_offset(ov, "/__fixups__"), p;
	char want[80];

	if (fx < 0)
		return NULL;
	snprintf(want, sizeof(want), "/%s:target:0", fdt_get_name(ov, frag, NULL));
	fdt_for_each_property_offset(p, ov, fx) {
		const char *label;
		int l;
		const char *v = fdt_getprop_by_offset(ov, p, &label, &l);

		for (int o = 0; v && o < l; o += (int)strnlen(v + o, (size_t)(l - o)) + 1)
			if (strnlen(v + o, (size_t)(l - o)) == strlen(want) &&
			    !memcmp(v + o, want, strlen(want)))
				return label;
	}
	return NULL;
}

/* The path in the tree fragment @frag of overlay @ov targets, or NULL. */
static const char *frag_target(const struct check_dtb *c, const void *ov, int frag)
{
	const char *label = overlay_target_label(ov, frag), *p;
	int l;

	if (label)
		return sym_path(c->fdt, label);
	p = fdt_getprop(ov, frag, "target-path", &l);
	return p && l > 0 && !p[l - 1] ? p : NULL;
}

/*
 * The nodes cape @part's overlay adds under each target: one at a unit
 * address where the target has a node already (the tree's own, or an
 * earlier cape's) is an address clash; with @record, they are noted as
 * @part's.
 */
static int clashes(struct check_dtb *c, const char *file, const char *part, const void *ov,
		   bool record)
{
	int frag, bad = 0;

	fdt_for_each_subnode(frag, ov, 0) {
		int body = fdt_subnode_offset(ov, frag, "__overlay__"), n;
		const char *tp = frag_target(c, ov, frag);
		int toff = tp ? fdt_path_offset(c->fdt, tp) : -1;

		if (body < 0 || toff < 0)
			continue;
		fdt_for_each_subnode(n, ov, body) {
			int t;
			const char *name = fdt_get_name(ov, n, NULL);
			char *path = xasprintf("%s%s%s", tp, strcmp(tp, "/") ? "/" : "", name);
			const char *who;

			if (record) {
				c->added = xrealloc(c->added, (c->nadded + 1) * sizeof(*c->added));
				c->added[c->nadded].path = path;
				c->added[c->nadded++].part = xstrdup(part);
				continue;
			}
			fdt_for_each_subnode(t, c->fdt, toff) {
				const char *tn = fdt_get_name(c->fdt, t, NULL), *ua = strchr(name, '@');
				char *tpath;

				if (!ua || !strchr(tn, '@') || strcmp(ua, strchr(tn, '@')))
					continue;
				tpath = xasprintf("%s%s%s", tp, strcmp(tp, "/") ? "/" : "", tn);
				who = adder(c, tpath);
				printf("%s: %s: %s's %s is at the address of %s, %s%s%s\n", file,
				       c->t.name, part, path, tpath, who ? "" : "the tree's own",
				       who ? who : "", who ? "'s (an earlier cape)" : "");
				free(tpath);
				bad++;
			}
			free(path);
		}
	}
	return bad;
}

/*
 * After the apply: an ADC input an earlier cape reads that this cape's
 * overlay dropped (each resolved overlay lists its own cape's inputs, and
 * the last one applied wins).
 */
static int after(struct check_dtb *c, const char *file, const struct cape_def *d,
		 unsigned adc_before)
{
	unsigned lost = adc_before & ~adc_now(c);
	int bad = 0;

	for (size_t k = 0; lost && k < c->nain; k++)
		for (unsigned ch = 0; ch < 8; ch++)
			if (c->ain[k].mask & lost & (1u << ch)) {
				printf("%s: %s: AIN%u of %s is not in the ADC's ti,adc-channels once %s's "
				       "overlay is applied (each resolved overlay lists its own cape's "
				       "inputs): the driver never reads it\n", file, c->t.name, ch,
				       c->ain[k].part, d->part_number);
				bad++;
			}
	return bad;
}

int check_dtb_cape(struct check_dtb *c, const char *file, const struct cape_def *d,
		   const void *portable, size_t plen, FILE *say)
{
	uint16_t words[CAPE_NPINS] = { 0 };
	bool unmuxed[CAPE_NPINS] = { false };
	void *blob = NULL;
	size_t blen;
	unsigned ain = 0, adc_before;
	int rc, r;

	if (tree_taken(c, file, d))
		return EXIT_CONFLICT;
	for (size_t i = 0; i < d->npins; i++) {
		words[d->pins[i].idx] = d->pins[i].word;
		if (cape_pin_is_ain(d->pins[i].idx))
			ain |= 1u << (d->pins[i].idx - CAPE_BONE_FIRST_AIN);
	}
	rc = overlay_resolve(file, portable, plen, c->t.b, words, d->part_number, &blob, &blen,
			     unmuxed);
	if (!rc)
		rc = target_tree_complete(file, &c->t, words, &blob, &blen, say);
	if (rc) {
		free(blob);
		return rc;
	}
	if (clashes(c, file, d->part_number, blob, false)) {
		free(blob);
		return EXIT_CONFLICT;
	}
	clashes(c, file, d->part_number, blob, true);
	adc_before = adc_now(c);
	if (ain) {
		c->ain = xrealloc(c->ain, (c->nain + 1) * sizeof(*c->ain));
		c->ain[c->nain].part = d->part_number;
		c->ain[c->nain++].mask = ain;
	}
	/* fdt_overlay_apply() takes the overlay apart: on a copy, with room to grow */
	for (;;) {
		void *ov = xmalloc(blen);
		size_t save = fdt_totalsize(c->fdt);
		void *undo = xmalloc(save);

		memcpy(ov, blob, blen);
		memcpy(undo, c->fdt, save);
		r = fdt_overlay_apply(c->fdt, ov);
		free(ov);
		if (r == -FDT_ERR_NOSPACE) {
			c->len *= 2;
			c->fdt = xrealloc(c->fdt, c->len);
			fdt_open_into(undo, c->fdt, (int)c->len);
			free(undo);
			continue;
		}
		if (r) {
			/* the tree as it was: a failed apply leaves the base damaged */
			fdt_open_into(undo, c->fdt, (int)c->len);
			free(undo);
			printf("%s: %s: a bootloader's fdt apply of %s's resolved overlay fails: %s\n",
			       file, c->t.name, d->part_number, fdt_strerror(r));
			free(blob);
			return EXIT_TREE;
		}
		free(undo);
		break;
	}
	free(blob);
	return after(c, file, d, adc_before) ? EXIT_CONFLICT : EXIT_OK;
}
