// SPDX-License-Identifier: GPL-2.0
/*
 * capetool check --dtb: the capes resolved for the exact tree the board
 * will boot and applied to it together, in userspace, as a bootloader
 * applies them (libfdt's fdt_overlay_apply(), U-Boot's own code): what
 * would fail, and why, before the reboot.
 *
 * Each cape has passed check's rules (its definition, the kernel's rules
 * on its portable overlay, pins, addresses and power beside the capes
 * before it) when it gets here.  Here: resolve for the tree (a label the
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
	free(c->fdt);
	target_tree_close(&c->t);
}

/* The path of the node @label names in @fdt (its __symbols__), or NULL. */
static const char *sym_path(const void *fdt, const char *label)
{
	int sym = fdt_path_offset(fdt, "/__symbols__"), l;
	const char *p = sym >= 0 ? fdt_getprop(fdt, sym, label, &l) : NULL;

	return p && l > 0 && !p[l - 1] ? p : NULL;
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
