// SPDX-License-Identifier: GPL-2.0
/*
 * capetool: the tree a resolved overlay is applied to, and what a cape's
 * functions need of it that the overlay must add.
 *
 * The kernel's connector runs on the project's board tree, which enables
 * every unit's parents and gives the ADC its inputs.  A bootloader applies
 * a resolved overlay to whatever tree the user boots, where a unit under a
 * disabled parent never probes (the kernel populates no child of a
 * disabled node: an ehrpwm under its epwmss), and the ADC with no channel
 * list refuses to start ("Need at least one channel").  So resolve adds,
 * for each unit the overlay enables, a fragment enabling each disabled
 * parent, and for the ADC its channels; and says, naming it, what the tree
 * lacks that no overlay can add (a label).
 *
 * The tree: the board's stock one as its profile describes it (a bus's
 * parents, its adc-channels node), or the user's own DTB, read as is.
 */
#include <stdarg.h>
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capetool.h"

int target_tree_open(struct target_tree *t, const struct board *b, const char *path)
{
	uint8_t *buf;
	size_t len;
	int r, sym;

	memset(t, 0, sizeof(*t));
	t->b = b;
	if (!path)
		return EXIT_OK;
	t->name = in_name(path);
	r = read_file(path, &buf, &len);
	if (r) {
		err("%s: %s", t->name, strerror(-r));
		return EXIT_IO;
	}
	if (fdt_check_untrusted(buf, len)) {
		err("%s: not a valid device tree blob (--dtb takes the board's DTB)", t->name);
		free(buf);
		return EXIT_DEF;
	}
	sym = fdt_path_offset(buf, "/__symbols__");
	if (sym < 0) {
		err("%s: no __symbols__ node: the tree was built without dtc -@, and a bootloader "
		    "cannot apply an overlay to it (every reference of one is to a label)", t->name);
		free(buf);
		return EXIT_TREE;
	}
	t->dtb = buf;
	t->len = len;
	return EXIT_OK;
}

void target_tree_close(struct target_tree *t)
{
	free(t->dtb);
	memset(t, 0, sizeof(*t));
}

const char *target_tree_name(const struct target_tree *t)
{
	static char buf[160];

	if (t->name)
		return t->name;
	snprintf(buf, sizeof(buf), "board %s's stock tree", t->b->name);
	return buf;
}

/* The path of the node @label names in the DTB, or NULL. */
static const char *label_path(const struct target_tree *t, const char *label)
{
	int sym = fdt_path_offset(t->dtb, "/__symbols__");
	const char *p = sym >= 0 ? fdt_getprop(t->dtb, sym, label, NULL) : NULL;

	return p && fdt_path_offset(t->dtb, p) >= 0 ? p : NULL;
}

/* A label of the node at @path in the DTB, or NULL. */
static const char *path_label(const struct target_tree *t, const char *path)
{
	int sym = fdt_path_offset(t->dtb, "/__symbols__"), p;

	fdt_for_each_property_offset(p, t->dtb, sym) {
		const char *name;
		int l;
		const char *v = fdt_getprop_by_offset(t->dtb, p, &name, &l);

		if (v && l > 0 && !v[l - 1] && !strcmp(v, path))
			return name;
	}
	return NULL;
}

bool target_tree_node_enabled(const void *fdt, int off)
{
	int l;
	const char *s = fdt_getprop(fdt, off, "status", &l);

	return !s || (l > 0 && !s[l - 1] && (!strcmp(s, "okay") || !strcmp(s, "ok")));
}

/* The ADC inputs the node @off lists (ti,adc-channels), a bit each. */
unsigned target_tree_adc_channels(const void *fdt, int off)
{
	int l;
	const fdt32_t *c = off >= 0 ? fdt_getprop(fdt, off, "ti,adc-channels", &l) : NULL;
	unsigned m = 0;

	for (int i = 0; c && i < l / 4; i++)
		if (fdt32_to_cpu(c[i]) < 32)
			m |= 1u << fdt32_to_cpu(c[i]);
	return m;
}

/* What the overlay being completed holds, and what is to be added to it. */
struct fragment_add {
	char *label;		/* a label, or NULL: path */
	char *path;
	unsigned channels;	/* ti,adc-channels, or 0: status = "okay" */
	unsigned had;		/* the channels the tree listed */
	char *why;		/* what needs it, for the message */
};

struct complete {
	const char *src;
	const struct target_tree *t;
	void *fdt;		/* the overlay: read in place, written in a copy */
	struct fragment_add *add;
	size_t nadd;
	int errors;
};

static void want(struct complete *c, const char *label, const char *path, unsigned channels,
		 unsigned had, const char *why)
{
	for (size_t i = 0; i < c->nadd; i++)
		if (label ? c->add[i].label && !strcmp(c->add[i].label, label) :
			    c->add[i].path && !strcmp(c->add[i].path, path))
			return;
	c->add = xrealloc(c->add, (c->nadd + 1) * sizeof(*c->add));
	c->add[c->nadd++] = (struct fragment_add){ label ? xstrdup(label) : NULL,
		path ? xstrdup(path) : NULL, channels, had, xstrdup(why) };
}

/* The label fragment @frag of the overlay targets through __fixups__, or NULL. */
static const char *fragment_label(const void *fdt, int frag)
{
	int fx = fdt_path_offset(fdt, "/__fixups__"), p;
	char want_s[80];

	if (fx < 0)
		return NULL;
	snprintf(want_s, sizeof(want_s), "/%s:target:0", fdt_get_name(fdt, frag, NULL));
	fdt_for_each_property_offset(p, fdt, fx) {
		const char *label;
		int l;
		const char *v = fdt_getprop_by_offset(fdt, p, &label, &l);

		for (int o = 0; v && o < l; o += (int)strnlen(v + o, (size_t)(l - o)) + 1)
			if (strnlen(v + o, (size_t)(l - o)) == strlen(want_s) &&
			    !memcmp(v + o, want_s, strlen(want_s)))
				return label;
	}
	return NULL;
}

static const struct board_bus *bus_of(const struct board *b, const char *label)
{
	for (size_t i = 0; i < b->nbuses; i++)
		if (!strcmp(b->buses[i].label, label))
			return &b->buses[i];
	return NULL;
}

static void cerr(struct complete *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void cerr(struct complete *c, const char *fmt, ...)
{
	va_list ap;
	char *m;

	va_start(ap, fmt);
	if (vasprintf(&m, fmt, ap) < 0)
		m = NULL;
	va_end(ap);
	err("%s: %s", c->src, m ? m : fmt);
	free(m);
	c->errors++;
}

/* Every label the overlay references: the tree must have it. */
static void labels_present(struct complete *c)
{
	int fx = fdt_path_offset(c->fdt, "/__fixups__"), p;

	if (fx < 0 || !c->t->dtb)
		return;
	fdt_for_each_property_offset(p, c->fdt, fx) {
		const char *label;
		int l;
		const char *v = fdt_getprop_by_offset(c->fdt, p, &label, &l);

		if (label_path(c->t, label))
			continue;
		cerr(c, "%.*s needs the node labelled %s, which %s does not have (a bootloader "
		     "refuses the overlay: FDT_ERR_NOTFOUND)", v ? (int)strnlen(v, (size_t)l) : 0,
		     v ? v : "", label, target_tree_name(c->t));
	}
}

/* Unit @label, which the overlay enables: its disabled parents, and the ADC's inputs. */
static void unit_needs(struct complete *c, const char *label, unsigned ain)
{
	const struct target_tree *t = c->t;
	const struct board_bus *bus = bus_of(t->b, label);
	char why[160];

	snprintf(why, sizeof(why), "%s%s%s%s", label, bus && strcmp(bus->name, label) ? " (" : "",
		 bus && strcmp(bus->name, label) ? bus->name : "",
		 bus && strcmp(bus->name, label) ? ")" : "");
	if (t->dtb) {
		const char *path = label_path(t, label);
		char *anc;

		if (!path)
			return;		/* said by labels_present */
		anc = xstrdup(path);
		/* every node above it, the root's children down */
		for (char *s = strchr(anc + 1, '/'); s; s = strchr(s + 1, '/')) {
			int off;

			*s = 0;
			off = fdt_path_offset(t->dtb, anc);
			if (off >= 0 && !target_tree_node_enabled(t->dtb, off))
				want(c, path_label(t, anc), anc, 0, 0, why);
			*s = '/';
		}
		free(anc);
	} else {
		for (size_t i = 0; bus && i < bus->nparents; i++)
			want(c, bus->parents[i], NULL, 0, 0, why);
	}
	if (bus && bus->adc_channels) {
		unsigned have = 0;

		if (t->dtb) {
			const char *p = label_path(t, bus->adc_channels);

			if (!p) {
				cerr(c, "the ADC (%s) lists its inputs at the node labelled %s, which %s "
				     "does not have", label, bus->adc_channels, target_tree_name(t));
				return;
			}
			have = target_tree_adc_channels(t->dtb, fdt_path_offset(t->dtb, p));
		}
		if (!ain && !have)
			cerr(c, "it enables the ADC (%s), and neither the cape's pin words (no AIN "
			     "pin) nor %s list an input: the driver refuses to start (\"Need at least "
			     "one channel\")", label, target_tree_name(t));
		else if (ain & ~have)
			want(c, bus->adc_channels, NULL, ain | have, have, why);
	}
}

static int add_fragments(struct complete *c)
{
	unsigned next = 0, k;
	int frag, r = 0;

	fdt_for_each_subnode(frag, c->fdt, 0)
		if (sscanf(fdt_get_name(c->fdt, frag, NULL), "fragment@%u", &k) == 1 && k >= next)
			next = k + 1;
	for (size_t i = 0; i < c->nadd && !r; i++) {
		const struct fragment_add *a = &c->add[i];
		char name[32], ref[48];
		int f, ov, fx;

		snprintf(name, sizeof(name), "fragment@%u", next++);
		f = fdt_add_subnode(c->fdt, 0, name);
		if (f < 0)
			return f;
		if (a->label) {
			r = fdt_setprop_u32(c->fdt, f, "target", 0xffffffffu);
			fx = fdt_subnode_offset(c->fdt, 0, "__fixups__");
			if (fx == -FDT_ERR_NOTFOUND)
				fx = fdt_add_subnode(c->fdt, 0, "__fixups__");
			if (fx < 0)
				return fx;
			snprintf(ref, sizeof(ref), "/%s:target:0", name);
			r = r ? r : fdt_appendprop_string(c->fdt, fx, a->label, ref);
			f = fdt_subnode_offset(c->fdt, 0, name);
		} else {
			r = fdt_setprop_string(c->fdt, f, "target-path", a->path);
		}
		ov = r ? r : fdt_add_subnode(c->fdt, f, "__overlay__");
		if (ov < 0)
			return ov;
		if (!a->channels) {
			r = fdt_setprop_string(c->fdt, ov, "status", "okay");
			continue;
		}
		r = fdt_setprop(c->fdt, ov, "ti,adc-channels", NULL, 0);
		for (unsigned ch = 0; ch < 32 && !r; ch++)
			if (a->channels & (1u << ch))
				r = fdt_appendprop_u32(c->fdt, ov, "ti,adc-channels", ch);
	}
	return r;
}

int target_tree_complete(const char *src, const struct target_tree *t, const uint16_t *pins,
			 void **blob, size_t *len, FILE *say)
{
	struct complete c = { .src = src, .t = t, .fdt = *blob };
	size_t room;
	unsigned ain = 0;
	int frag, r = 0;

	for (int i = CAPE_BONE_FIRST_AIN; i < CAPE_NPINS; i++)
		if (pins[i] & CAPE_PIN_USED)
			ain |= 1u << (i - CAPE_BONE_FIRST_AIN);
	/* read where it is; written into a copy with room for what it lacks */
	labels_present(&c);
	fdt_for_each_subnode(frag, c.fdt, 0) {
		int ov = fdt_subnode_offset(c.fdt, frag, "__overlay__"), l;
		const char *label = fragment_label(c.fdt, frag), *s;

		if (ov < 0 || !label)
			continue;
		s = fdt_getprop(c.fdt, ov, "status", &l);
		if (s && l > 0 && !s[l - 1] && !strcmp(s, "okay"))
			unit_needs(&c, label, ain);
	}
	if (!c.errors && c.nadd) {
		room = *len + 1024;
		for (size_t i = 0; i < c.nadd; i++)
			room += 256 + 2 * strlen(c.add[i].path ? c.add[i].path : c.add[i].label);
		c.fdt = xmalloc(room);
		r = fdt_open_into(*blob, c.fdt, (int)room);
		r = r ? r : add_fragments(&c);
	}
	for (size_t i = 0; say && !r && !c.errors && i < c.nadd; i++) {
		const struct fragment_add *a = &c.add[i];

		if (a->channels)
			fprintf(say, "  %s: ti,adc-channels for %s (%s lists %s)\n",
				a->label, a->why, target_tree_name(t),
				a->had ? "fewer" : "none");
		else
			fprintf(say, "  %s: enabled for %s (disabled in %s)\n",
				a->label ? a->label : a->path, a->why, target_tree_name(t));
	}
	for (size_t i = 0; i < c.nadd; i++) {
		free(c.add[i].label);
		free(c.add[i].path);
		free(c.add[i].why);
	}
	free(c.add);
	if (c.fdt == *blob)
		return c.errors ? EXIT_TREE : EXIT_OK;
	if (r) {
		err("%s: %s", src, fdt_strerror(r));
		free(c.fdt);
		return EXIT_FAIL;
	}
	fdt_pack(c.fdt);
	free(*blob);
	*blob = c.fdt;
	*len = fdt_totalsize(c.fdt);
	return EXIT_OK;
}
