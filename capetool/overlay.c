// SPDX-License-Identifier: GPL-2.0
/*
 * capetool: overlay building.  A definition and a board profile become an
 * ordinary dtc-style overlay: fragment@N { target = <&label>; __overlay__ },
 * references to base-tree labels in __fixups__, references between our own
 * nodes in __local_fixups__, no __symbols__, and the root property
 * exclusive-use listing the header pins.  The tree is built in memory, then
 * written with libfdt's sequential-write API.
 */
#include <ctype.h>
#include <errno.h>
#include <libfdt.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "capetool.h"

extern char **environ;

struct oprop {
	char *name;
	uint8_t *val;
	size_t len;
};

struct onode {
	char *name;
	struct onode *parent;
	struct oprop *props;
	size_t nprops;
	struct onode **kids;
	size_t nkids;
};

struct fixup {
	char *label;		/* NULL: local fixup */
	struct onode *node;
	char *prop;
	uint32_t off;
};

struct otree {
	struct onode *root;
	struct fixup *fix;
	size_t nfix;
	unsigned nfrag;
	uint32_t next_phandle;
	struct { char *target; struct onode *ov; } *frags;
	size_t nfrags;
};

static struct onode *node_new(struct onode *parent, const char *name)
{
	struct onode *n = xcalloc(1, sizeof(*n));

	n->name = xstrdup(name);
	n->parent = parent;
	if (parent) {
		parent->kids = xrealloc(parent->kids, (parent->nkids + 1) * sizeof(*parent->kids));
		parent->kids[parent->nkids++] = n;
	}
	return n;
}

static struct onode *node_child(struct onode *n, const char *name)
{
	for (size_t i = 0; i < n->nkids; i++)
		if (!strcmp(n->kids[i]->name, name))
			return n->kids[i];
	return NULL;
}

static void node_free(struct onode *n)
{
	for (size_t i = 0; i < n->nprops; i++) {
		free(n->props[i].name);
		free(n->props[i].val);
	}
	free(n->props);
	for (size_t i = 0; i < n->nkids; i++)
		node_free(n->kids[i]);
	free(n->kids);
	free(n->name);
	free(n);
}

static struct oprop *prop_find(struct onode *n, const char *name)
{
	for (size_t i = 0; i < n->nprops; i++)
		if (!strcmp(n->props[i].name, name))
			return &n->props[i];
	return NULL;
}

static void prop_set(struct onode *n, const char *name, const void *val, size_t len)
{
	struct oprop *p = prop_find(n, name);

	if (!p) {
		n->props = xrealloc(n->props, (n->nprops + 1) * sizeof(*n->props));
		p = &n->props[n->nprops++];
		p->name = xstrdup(name);
	} else {
		free(p->val);
	}
	p->val = xmalloc(len);
	if (len)
		memcpy(p->val, val, len);
	p->len = len;
}

static void prop_append(struct onode *n, const char *name, const void *val, size_t len)
{
	struct oprop *p = prop_find(n, name);

	if (!p) {
		prop_set(n, name, val, len);
		return;
	}
	p->val = xrealloc(p->val, p->len + len);
	memcpy(p->val + p->len, val, len);
	p->len += len;
}

static void prop_str(struct onode *n, const char *name, const char *s)
{
	prop_set(n, name, s, strlen(s) + 1);
}

static void cell(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24; p[1] = (v >> 16) & 0xff; p[2] = (v >> 8) & 0xff; p[3] = v & 0xff;
}

static void prop_u32(struct onode *n, const char *name, uint32_t v)
{
	uint8_t b[4];

	cell(b, v);
	prop_set(n, name, b, 4);
}

static void prop_append_u32(struct onode *n, const char *name, uint32_t v)
{
	uint8_t b[4];

	cell(b, v);
	prop_append(n, name, b, 4);
}

static void add_fixup(struct otree *t, const char *label, struct onode *n, const char *prop,
		      uint32_t off)
{
	t->fix = xrealloc(t->fix, (t->nfix + 1) * sizeof(*t->fix));
	t->fix[t->nfix].label = label ? xstrdup(label) : NULL;
	t->fix[t->nfix].node = n;
	t->fix[t->nfix].prop = xstrdup(prop);
	t->fix[t->nfix].off = off;
	t->nfix++;
}

/* Append <&label> to prop: an unresolved phandle, fixed up on apply. */
static void prop_ref(struct otree *t, struct onode *n, const char *prop, const char *label)
{
	struct oprop *p = prop_find(n, prop);

	add_fixup(t, label, n, prop, p ? (uint32_t)p->len : 0);
	prop_append_u32(n, prop, 0xffffffffU);
}

/* Append a phandle to one of our own nodes: a local fixup. */
static void prop_local_ref(struct otree *t, struct onode *n, const char *prop, struct onode *to)
{
	struct oprop *p = prop_find(n, prop), *ph = prop_find(to, "phandle");
	uint32_t v;

	if (!ph) {
		prop_u32(to, "phandle", t->next_phandle);
		ph = prop_find(to, "phandle");
		t->next_phandle++;
	}
	v = (uint32_t)ph->val[0] << 24 | (uint32_t)ph->val[1] << 16 |
	    (uint32_t)ph->val[2] << 8 | ph->val[3];
	add_fixup(t, NULL, n, prop, p ? (uint32_t)p->len : 0);
	prop_append_u32(n, prop, v);
}

static struct onode *new_fragment(struct otree *t, char **namep)
{
	char name[32];
	struct onode *f;

	snprintf(name, sizeof(name), "fragment@%u", t->nfrag++);
	f = node_new(t->root, name);
	if (namep)
		*namep = f->name;
	return f;
}

/* The __overlay__ node of the fragment for @target (label or /path). */
static struct onode *frag_for(struct otree *t, const char *target)
{
	struct onode *f;

	for (size_t i = 0; i < t->nfrags; i++)
		if (!strcmp(t->frags[i].target, target))
			return t->frags[i].ov;
	t->frags = xrealloc(t->frags, (t->nfrags + 1) * sizeof(*t->frags));
	f = new_fragment(t, NULL);
	if (target[0] == '/')
		prop_str(f, "target-path", target);
	else
		prop_ref(t, f, "target", target);
	t->frags[t->nfrags].target = xstrdup(target);
	t->frags[t->nfrags].ov = node_new(f, "__overlay__");
	return t->frags[t->nfrags++].ov;
}

static char *path_of(const struct onode *n)
{
	char *p, *q;

	if (!n->parent)
		return xstrdup("");
	p = path_of(n->parent);
	q = xasprintf("%s/%s", p, n->name);
	free(p);
	return q;
}

/* ---- serialization ---- */

#define FDT_CHECK(x) do { int r_ = (x); if (r_ < 0) return r_; } while (0)

static int sw_node(void *fdt, const struct onode *n)
{
	FDT_CHECK(fdt_begin_node(fdt, n->name));
	for (size_t i = 0; i < n->nprops; i++)
		FDT_CHECK(fdt_property(fdt, n->props[i].name, n->props[i].val, (int)n->props[i].len));
	for (size_t i = 0; i < n->nkids; i++)
		FDT_CHECK(sw_node(fdt, n->kids[i]));
	return fdt_end_node(fdt);
}

static void build_fixup_nodes(struct otree *t)
{
	struct onode *fx = NULL, *lfx = NULL;

	for (size_t i = 0; i < t->nfix; i++) {
		struct fixup *f = &t->fix[i];
		char *path = path_of(f->node);

		if (f->label) {
			char *s = xasprintf("%s:%s:%u", path, f->prop, f->off);

			if (!fx)
				fx = node_new(NULL, "__fixups__");
			prop_append(fx, f->label, s, strlen(s) + 1);
			free(s);
		} else {
			struct onode *n;
			char *save, *tok, *dup = xstrdup(path);

			if (!lfx)
				lfx = node_new(NULL, "__local_fixups__");
			n = lfx;
			for (tok = strtok_r(dup, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
				struct onode *c = node_child(n, tok);

				n = c ? c : node_new(n, tok);
			}
			prop_append_u32(n, f->prop, f->off);
			free(dup);
		}
		free(path);
	}
	/* attach after the fragments, in the order dtc uses */
	if (fx) {
		fx->parent = t->root;
		t->root->kids = xrealloc(t->root->kids, (t->root->nkids + 1) * sizeof(void *));
		t->root->kids[t->root->nkids++] = fx;
	}
	if (lfx) {
		lfx->parent = t->root;
		t->root->kids = xrealloc(t->root->kids, (t->root->nkids + 1) * sizeof(void *));
		t->root->kids[t->root->nkids++] = lfx;
	}
}

static int serialize(struct otree *t, void **blob, size_t *len)
{
	size_t cap = 4096;

	build_fixup_nodes(t);
	for (;;) {
		void *buf = xcalloc(1, cap);
		int r;

		r = fdt_create(buf, (int)cap);
		if (!r)
			r = fdt_finish_reservemap(buf);
		if (!r)
			r = sw_node(buf, t->root);
		if (!r)
			r = fdt_finish(buf);
		if (r == -FDT_ERR_NOSPACE) {
			free(buf);
			cap *= 2;
			continue;
		}
		if (r < 0) {
			err("building overlay: %s", fdt_strerror(r));
			free(buf);
			return EXIT_FAIL;
		}
		*blob = buf;
		*len = fdt_totalsize(buf);
		return EXIT_OK;
	}
}

/* ---- merging a hand-written overlay (escape hatch) ---- */

static struct onode *import_node(const void *fdt, int off, struct onode *parent, const char *name,
				 uint32_t *maxph)
{
	struct onode *n = node_new(parent, name);
	int p, c;

	fdt_for_each_property_offset(p, fdt, off) {
		const char *pn;
		int len;
		const void *v = fdt_getprop_by_offset(fdt, p, &pn, &len);

		prop_set(n, pn, v, (size_t)len);
		if ((!strcmp(pn, "phandle") || !strcmp(pn, "linux,phandle")) && len == 4) {
			uint32_t ph = fdt32_to_cpu(*(const fdt32_t *)v);

			if (ph > *maxph && ph != 0xffffffffU)
				*maxph = ph;
		}
	}
	fdt_for_each_subnode(c, fdt, off)
		import_node(fdt, c, n, fdt_get_name(fdt, c, NULL), maxph);
	return n;
}

static struct onode *walk(struct onode *n, const char *path)
{
	char *dup = xstrdup(path), *save, *tok;

	for (tok = strtok_r(dup, "/", &save); tok && n; tok = strtok_r(NULL, "/", &save))
		n = node_child(n, tok);
	free(dup);
	return n;
}

static void import_local_fixups(struct otree *t, const void *fdt, int off, struct onode *n)
{
	int p, c;

	fdt_for_each_property_offset(p, fdt, off) {
		const char *pn;
		int len;
		const fdt32_t *v = fdt_getprop_by_offset(fdt, p, &pn, &len);

		for (int i = 0; i + 4 <= len; i += 4)
			add_fixup(t, NULL, n, pn, fdt32_to_cpu(v[i / 4]));
	}
	fdt_for_each_subnode(c, fdt, off) {
		struct onode *k = n ? node_child(n, fdt_get_name(fdt, c, NULL)) : NULL;

		if (k)
			import_local_fixups(t, fdt, c, k);
	}
}

static int compile_dtso(const char *src, uint8_t **buf, size_t *len)
{
	char tmpl[] = "/tmp/capetool-XXXXXX";
	int fd = mkstemp(tmpl), status, r;
	pid_t pid;
	char *argv[] = { "dtc", "-q", "-I", "dts", "-O", "dtb", "-o", tmpl, (char *)src, NULL };

	if (fd < 0)
		return -errno;
	close(fd);
	if (access(src, R_OK)) {
		r = -errno;
		unlink(tmpl);
		return r;
	}
	r = posix_spawnp(&pid, "dtc", NULL, NULL, argv, environ);
	if (r) {
		unlink(tmpl);
		err("%s: cannot run dtc to compile it: %s (give a .dtbo instead)", src, strerror(r));
		return -r;
	}
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		unlink(tmpl);
		err("%s: dtc failed", src);
		return -EINVAL;
	}
	r = read_file(tmpl, buf, len);
	unlink(tmpl);
	return r;
}

static int merge_extra(struct otree *t, const char *path)
{
	uint8_t *blob;
	size_t len;
	int r, off, fx;
	const char *dot = strrchr(path, '.');
	uint32_t maxph = 0;
	struct { char *from, *to; } *ren = NULL;
	size_t nren = 0;
	int bad = 0;

	if (dot && !strcmp(dot, ".dtso"))
		r = compile_dtso(path, &blob, &len);
	else
		r = read_file(path, &blob, &len);
	if (r) {
		if (r != -EINVAL)
			err("%s: %s", path, strerror(-r));
		return r == -ENOENT || r == -EACCES ? EXIT_IO : EXIT_DEF;
	}
	/* the whole structure, not just the header: we walk all of it */
	if (fdt_check_header(blob) || fdt_totalsize(blob) > len || fdt_check_full(blob, len)) {
		err("%s: not a valid flattened device tree", path);
		free(blob);
		return EXIT_DEF;
	}
	/* fragments, renumbered after ours */
	fdt_for_each_subnode(off, blob, 0) {
		const char *name = fdt_get_name(blob, off, NULL);
		char *newname;
		struct onode *f;

		if (fdt_subnode_offset(blob, off, "__overlay__") < 0)
			continue;
		f = new_fragment(t, &newname);
		{
			int p, c;

			fdt_for_each_property_offset(p, blob, off) {
				const char *pn;
				int l;
				const void *v = fdt_getprop_by_offset(blob, p, &pn, &l);

				prop_set(f, pn, v, (size_t)l);
			}
			fdt_for_each_subnode(c, blob, off)
				import_node(blob, c, f, fdt_get_name(blob, c, NULL), &maxph);
		}
		ren = xrealloc(ren, (nren + 1) * sizeof(*ren));
		ren[nren].from = xstrdup(name);
		ren[nren].to = xstrdup(newname);
		nren++;
	}
	/* __fixups__: "path:prop:off" with the fragment renamed */
	fx = fdt_subnode_offset(blob, 0, "__fixups__");
	if (fx >= 0) {
		int p;

		fdt_for_each_property_offset(p, blob, fx) {
			const char *label, *s;
			int l;

			s = fdt_getprop_by_offset(blob, p, &label, &l);
			for (int o = 0; o < l; o += (int)strnlen(s + o, (size_t)(l - o)) + 1) {
				/* one entry, bounded by the property (it may lack its NUL) */
				size_t el = strnlen(s + o, (size_t)(l - o));
				char *e, *c1, *c2;
				struct onode *n = NULL;

				e = xmalloc(el + 1);
				memcpy(e, s + o, el);
				e[el] = 0;
				c1 = el ? strchr(e + 1, ':') : NULL;

				if (c1 && (c2 = strchr(c1 + 1, ':'))) {
					char *frag = e + 1, *rest = strchr(frag, '/');

					*c1 = 0;
					*c2 = 0;
					if (rest)
						*rest = 0;
					for (size_t i = 0; i < nren; i++)
						if (!strcmp(ren[i].from, frag)) {
							n = node_child(t->root, ren[i].to);
							if (n && rest) {
								*rest = '/';
								n = walk(n, rest);
							}
						}
					if (n)
						add_fixup(t, label, n, c1 + 1,
							  (uint32_t)strtoul(c2 + 1, NULL, 0));
				}
				if (!n) {
					/* a reference left unresolved would break the overlay */
					err("%s: __fixups__ entry \"%.*s\" names no node of its fragments",
					    path, (int)el, s + o);
					bad++;
				}
				free(e);
			}
		}
	}
	fx = fdt_subnode_offset(blob, 0, "__local_fixups__");
	if (fx >= 0) {
		int c;

		fdt_for_each_subnode(c, blob, fx) {
			const char *name = fdt_get_name(blob, c, NULL);

			for (size_t i = 0; i < nren; i++)
				if (!strcmp(ren[i].from, name))
					import_local_fixups(t, blob, c, node_child(t->root, ren[i].to));
		}
	}
	for (size_t i = 0; i < nren; i++) {
		free(ren[i].from);
		free(ren[i].to);
	}
	free(ren);
	if (maxph >= t->next_phandle)
		t->next_phandle = maxph + 1;
	free(blob);
	return bad ? EXIT_DEF : EXIT_OK;
}

/* ---- from definition to tree ---- */

static char *slug(const char *part)
{
	char *s = xstrdup(part);

	for (char *p = s; *p; p++) {
		*p = (char)tolower((unsigned char)*p);
		if (!isalnum((unsigned char)*p) && *p != '-')
			*p = '-';
	}
	return s;
}

static const struct cape_pin *def_pin(const struct cape_def *d, int idx)
{
	for (size_t i = 0; i < d->npins; i++)
		if (d->pins[i].idx == idx)
			return &d->pins[i];
	return NULL;
}

struct bctx {
	const struct cape_def *d;
	const struct board *b;
	struct otree *t;
	char *slug;
	bool muxed[CAPE_NPINS];
	int errors;
};

static void berr(struct bctx *c, const struct cape_dev *dv, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void berr(struct bctx *c, const struct cape_dev *dv, const char *fmt, ...)
{
	va_list ap;

	c->errors++;
	if (err_quiet)
		return;
	fprintf(stderr, "%s:%d: devices: ", c->d->file, dv ? dv->line : 0);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* A pinmux group for the given pins, or NULL if the board has no pinmux. */
static struct onode *pin_group(struct bctx *c, const char *what, const int *idx, size_t n)
{
	struct onode *pm, *g;
	char *name;
	size_t used = 0;

	if (!c->b->pinmux || !n)
		return NULL;
	pm = frag_for(c->t, c->b->pinmux);
	name = xasprintf("%s-%s-pins", c->slug, what);
	g = node_new(pm, name);
	free(name);
	prop_set(g, "pinctrl-single,pins", NULL, 0);
	for (size_t i = 0; i < n; i++) {
		const struct cape_pin *p = def_pin(c->d, idx[i]);
		int conf = c->b->pins[idx[i]].conf;

		if (!p || conf < 0 || c->muxed[idx[i]])
			continue;
		prop_append_u32(g, "pinctrl-single,pins", (uint32_t)conf);
		prop_append_u32(g, "pinctrl-single,pins", p->word & 0x78);
		prop_append_u32(g, "pinctrl-single,pins", p->word & CAPE_PIN_MODE_MASK);
		c->muxed[idx[i]] = true;
		used++;
	}
	if (!used) {
		/* every pin already muxed: drop the empty group */
		pm->nkids--;
		node_free(g);
		return NULL;
	}
	return g;
}

static void use_group(struct bctx *c, struct onode *n, struct onode *g)
{
	if (!g)
		return;
	prop_str(n, "pinctrl-names", "default");
	prop_local_ref(c->t, n, "pinctrl-0", g);
}

static bool gpio_ref(struct bctx *c, const struct cape_dev *dv, struct onode *n, const char *prop)
{
	int idx = cape_pin_index(dv->pin);
	const struct board_pin *bp = &c->b->pins[idx];

	if (!bp->gpio) {
		berr(c, dv, "board %s cannot use %s as a GPIO", c->b->name, dv->pin);
		return false;
	}
	prop_ref(c->t, n, prop, bp->gpio);
	prop_append_u32(n, prop, (uint32_t)bp->line);
	prop_append_u32(n, prop, dv->active_low ? 1 : 0);
	return true;
}

static void add_props(struct onode *n, const struct cape_dev *dv)
{
	for (size_t i = 0; i < dv->nprops; i++)
		prop_set(n, dv->props[i].name, dv->props[i].val, dv->props[i].len);
}

static struct onode *bus_node(struct bctx *c, const struct cape_dev *dv, const char *want)
{
	const struct board_bus *bus = board_find_bus(c->b, dv->bus);
	struct onode *ov;

	if (!bus || strcmp(bus->type, want)) {
		char *have = NULL;

		for (size_t i = 0; i < c->b->nbuses; i++) {
			char *n;

			if (strcmp(c->b->buses[i].type, want))
				continue;
			n = have ? xasprintf("%s, %s", have, c->b->buses[i].name)
				 : xstrdup(c->b->buses[i].name);
			free(have);
			have = n;
		}
		berr(c, dv, "board %s has no %s bus \"%s\" (it has: %s)", c->b->name, want, dv->bus,
		     have ? have : "none");
		free(have);
		return NULL;
	}
	/* enabling a bus whose function pins the cape does not mux gives a dead bus */
	for (size_t i = 0; !bus->board_enabled && i < bus->nmux; i++) {
		const struct bus_mux *m = &bus->mux[i];
		const struct cape_pin *p = def_pin(c->d, m->idx);

		if (!m->required || (p && (p->word & CAPE_PIN_MODE_MASK) == m->mode))
			continue;
		if (p)
			berr(c, dv, "%s needs %s muxed mode %d (%s); pins has it in mode %d (line %d)",
			     bus->name, cape_pin_names[m->idx], m->mode, m->signal,
			     p->word & CAPE_PIN_MODE_MASK, p->line);
		else
			berr(c, dv, "%s needs %s muxed mode %d (%s); it is not in pins", bus->name,
			     cape_pin_names[m->idx], m->mode, m->signal);
	}
	ov = frag_for(c->t, bus->label);
	if (!bus->board_enabled && !prop_find(ov, "status")) {
		int idx[CAPE_NPINS];
		size_t n = 0;

		prop_str(ov, "status", "okay");
		for (size_t i = 0; i < bus->npins; i++) {
			int k = cape_pin_index(bus->pins[i]);

			if (k >= 0 && def_pin(c->d, k))
				idx[n++] = k;
		}
		use_group(c, ov, pin_group(c, bus->name, idx, n));
	}
	if (strcmp(want, "uart")) {
		prop_u32(ov, "#address-cells", 1);
		prop_u32(ov, "#size-cells", 0);
	}
	return ov;
}

static void add_bus_dev(struct bctx *c, const struct cape_dev *dv)
{
	struct onode *ov = bus_node(c, dv, dv->type == DEV_I2C ? "i2c" : "spi");
	const char *base;
	char *name;
	struct onode *n;

	if (!ov)
		return;
	base = dv->name;
	if (!base) {
		base = strchr(dv->compatible, ',');
		base = base ? base + 1 : dv->compatible;
	}
	name = xasprintf("%s@%x", base, dv->type == DEV_I2C ? dv->address : dv->cs);
	if (node_child(ov, name)) {
		berr(c, dv, "two devices at %s on %s", name, dv->bus);
		free(name);
		return;
	}
	n = node_new(ov, name);
	free(name);
	prop_str(n, "compatible", dv->compatible);
	prop_u32(n, "reg", (uint32_t)(dv->type == DEV_I2C ? dv->address : dv->cs));
	if (dv->type == DEV_SPI)
		prop_u32(n, "spi-max-frequency", (uint32_t)dv->max_freq);
	add_props(n, dv);
}

/* gpio-leds / gpio-keys: one node per cape holding every LED / key. */
static void add_gpio_group(struct bctx *c, enum dev_type type)
{
	const char *compat = type == DEV_LED ? "gpio-leds" : "gpio-keys";
	const char *what = type == DEV_LED ? "leds" : "keys";
	struct onode *parent = NULL;
	int idx[CAPE_NPINS];
	size_t n = 0, k = 0;

	for (size_t i = 0; i < c->d->ndevs; i++) {
		const struct cape_dev *dv = &c->d->devs[i];
		struct onode *e;
		char *name;

		if (dv->type != type)
			continue;
		if (!parent) {
			name = xasprintf("%s-%s", c->slug, what);
			parent = node_new(frag_for(c->t, c->b->devices_target), name);
			free(name);
			prop_str(parent, "compatible", compat);
		}
		name = xasprintf("%s-%zu", type == DEV_LED ? "led" : "key", k++);
		e = node_new(parent, name);
		free(name);
		prop_str(e, "label", dv->label);
		if (!gpio_ref(c, dv, e, "gpios"))
			continue;
		if (type == DEV_LED) {
			prop_str(e, "default-state", dv->default_state);
			if (dv->trigger)
				prop_str(e, "linux,default-trigger", dv->trigger);
		} else {
			prop_u32(e, "linux,code", (uint32_t)dv->code);
		}
		if (n < CAPE_NPINS)
			idx[n++] = cape_pin_index(dv->pin);
	}
	if (parent)
		use_group(c, parent, pin_group(c, what, idx, n));
}

int overlay_build(const struct cape_def *d, const struct board *b, void **blob, size_t *len)
{
	struct otree t = { .next_phandle = 1 };
	struct bctx c = { d, b, &t, slug(d->part_number), { false }, 0 };
	unsigned w1 = 0;
	int rc = EXIT_OK;

	t.root = node_new(NULL, "");
	for (size_t i = 0; i < d->npins; i++)
		prop_append(t.root, "exclusive-use", cape_pin_names[d->pins[i].idx],
			    strlen(cape_pin_names[d->pins[i].idx]) + 1);
	if (d->overlay)
		rc = merge_extra(&t, d->overlay);
	/* board-enabled buses keep the board's own pinmux */
	for (size_t i = 0; i < d->ndevs && rc == EXIT_OK; i++) {
		const struct board_bus *bus;

		if (!d->devs[i].bus || !(bus = board_find_bus(b, d->devs[i].bus)) ||
		    !bus->board_enabled)
			continue;
		for (size_t k = 0; k < bus->npins; k++) {
			int idx = cape_pin_index(bus->pins[k]);

			if (idx >= 0)
				c.muxed[idx] = true;
		}
	}
	for (size_t i = 0; i < d->ndevs && rc == EXIT_OK; i++) {
		const struct cape_dev *dv = &d->devs[i];

		switch (dv->type) {
		case DEV_I2C:
		case DEV_SPI:
			add_bus_dev(&c, dv);
			break;
		case DEV_UART:
			bus_node(&c, dv, "uart");
			break;
		case DEV_W1: {
			char *name = xasprintf("%s-w1-%u", c.slug, w1++);
			struct onode *n = node_new(frag_for(&t, b->devices_target), name);
			int idx = cape_pin_index(dv->pin);

			free(name);
			prop_str(n, "compatible", "w1-gpio");
			if (gpio_ref(&c, dv, n, "gpios"))
				use_group(&c, n, pin_group(&c, n->name + strlen(c.slug) + 1, &idx, 1));
			break;
		}
		default:
			break;
		}
	}
	if (rc == EXIT_OK) {
		add_gpio_group(&c, DEV_LED);
		add_gpio_group(&c, DEV_KEY);
	}
	if (rc == EXIT_OK && b->pinmux) {
		/* pins no device consumes still get their pad configuration */
		int idx[CAPE_NPINS];
		size_t n = 0;

		for (size_t i = 0; i < d->npins; i++)
			if (!c.muxed[d->pins[i].idx] && b->pins[d->pins[i].idx].conf >= 0)
				idx[n++] = d->pins[i].idx;
		pin_group(&c, "other", idx, n);
	}
	if (rc == EXIT_OK && c.errors)
		rc = EXIT_DEF;
	if (rc == EXIT_OK)
		rc = serialize(&t, blob, len);
	for (size_t i = 0; i < t.nfix; i++) {
		free(t.fix[i].label);
		free(t.fix[i].prop);
	}
	free(t.fix);
	for (size_t i = 0; i < t.nfrags; i++)
		free(t.frags[i].target);
	free(t.frags);
	node_free(t.root);
	free(c.slug);
	return rc;
}
