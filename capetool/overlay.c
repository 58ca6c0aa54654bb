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
#include "overlay-api.h"

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
	if (fdt_check_untrusted(blob, len)) {
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

char *part_slug(const char *part)
{
	char *s = xstrdup(part);

	for (char *p = s; *p; p++) {
		*p = (char)tolower((unsigned char)*p);
		if (!isalnum((unsigned char)*p) && *p != '-')
			*p = '-';
	}
	return s;
}

static uint32_t get_cell_be(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A property's string (it may lack its NUL), as a C string. */
static char *xstrndup_safe(const char *s, size_t n)
{
	char *r = xmalloc(n + 1);

	memcpy(r, s, n);
	r[n] = 0;
	return r;
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
	bool portable;		/* the board exports names: use only them, no pinmux */
	const char *err_key;	/* the key errors name; NULL: "devices" */
};

static void vberr(struct bctx *c, const struct cape_dev *dv, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
static void berr(struct bctx *c, const struct cape_dev *dv, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void vberr(struct bctx *c, const struct cape_dev *dv, const char *fmt, va_list ap)
{
	c->errors++;
	if (err_quiet)
		return;
	fprintf(stderr, "%s:%d: %s: ", c->d->file, dv ? dv->line : 0,
		c->err_key ? c->err_key : "devices");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

static void berr(struct bctx *c, const struct cape_dev *dv, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vberr(c, dv, fmt, ap);
	va_end(ap);
}

/* A pinmux group for the given pins, or NULL if the board has no pinmux. */
static struct onode *pin_group(struct bctx *c, const char *what, const int *idx, size_t n)
{
	struct onode *pm, *g;
	char *name;
	size_t used = 0;

	if (c->portable || !c->b->pinmux || !n)
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

static bool gpio_cells(struct bctx *c, const struct cape_dev *dv, struct onode *n,
		       const char *prop, int idx, uint32_t flags);

static bool gpio_ref(struct bctx *c, const struct cape_dev *dv, struct onode *n, const char *prop)
{
	return gpio_cells(c, dv, n, prop, cape_pin_index(dv->pin), dv->active_low ? 1 : 0);
}

/* Append <&bone_gpio CODE FLAGS> (portable) or <&gpioN LINE FLAGS> to @prop. */
static bool gpio_cells(struct bctx *c, const struct cape_dev *dv, struct onode *n,
		       const char *prop, int idx, uint32_t flags)
{
	const struct board_pin *bp = &c->b->pins[idx];
	const char *pin = cape_pin_names[idx];

	if (!bp->gpio) {
		berr(c, dv, "board %s cannot use %s as a GPIO", c->b->name, pin);
		return false;
	}
	if (c->portable) {
		const struct board_export *e = board_gpio_export(c->b);

		if (!e) {
			berr(c, dv, "board %s's cape connector exports no GPIO nexus for %s",
			     c->b->name, pin);
			return false;
		}
		/* the connector's nexus: <&bone_gpio PIN FLAGS>, PIN 800+n / 900+n */
		prop_ref(c->t, n, prop, e->name);
		prop_append_u32(n, prop, (uint32_t)pin_code(idx));
		prop_append_u32(n, prop, flags);
		return true;
	}
	prop_ref(c->t, n, prop, bp->gpio);
	prop_append_u32(n, prop, (uint32_t)bp->line);
	prop_append_u32(n, prop, flags);
	return true;
}

/*
 * @dv's interrupt into @n: interrupts-extended = <&bone_irq PIN TYPE>
 * through the connector's interrupt nexus (portable), or <&gpioN LINE
 * TYPE>, the pin's GPIO bank as its interrupt controller.
 */
static void add_irq(struct bctx *c, const struct cape_dev *dv, struct onode *n)
{
	const struct board_pin *bp = &c->b->pins[dv->irq_pin];
	const char *pin = cape_pin_names[dv->irq_pin];

	if (!bp->gpio) {
		berr(c, dv, "board %s has no GPIO, so no interrupt, on %s", c->b->name, pin);
		return;
	}
	if (c->portable) {
		const struct board_export *e = board_irq_export(c->b);
		char *names;

		if (!e) {
			names = board_export_list(c->b);
			berr(c, dv, "board %s's cape connector exports no interrupt nexus for %s's "
			     "interrupt (it exports: %s)", c->b->name, pin, names);
			free(names);
			return;
		}
		prop_ref(c->t, n, "interrupts-extended", e->name);
		prop_append_u32(n, "interrupts-extended", (uint32_t)pin_code(dv->irq_pin));
	} else {
		prop_ref(c->t, n, "interrupts-extended", bp->gpio);
		prop_append_u32(n, "interrupts-extended", (uint32_t)bp->line);
	}
	prop_append_u32(n, "interrupts-extended", dv->irq_type);
}

/*
 * The __overlay__ node for @target (a board label or /path): itself on a
 * board-specific overlay, its exported name on a portable one (NULL, after
 * saying so, if the connector does not export it).
 */
static struct onode *frag_on(struct bctx *c, const struct cape_dev *dv, const char *target,
			     const char *what)
{
	const struct board_export *e;
	char *names;

	if (!c->portable)
		return frag_for(c->t, target);
	e = board_export_of(c->b, target);
	if (e)
		return frag_for(c->t, e->name);
	names = board_export_list(c->b);
	berr(c, dv, "board %s's cape connector exports no name for %s (%s; it exports: %s)",
	     c->b->name, what, target, names);
	free(names);
	return NULL;
}

static void add_props(struct bctx *c, struct onode *n, const struct cape_dev *dv)
{
	for (size_t i = 0; i < dv->nprops; i++) {
		const struct prop *p = &dv->props[i];

		if (!p->ngpio) {
			prop_set(n, p->name, p->val, p->len);
			continue;
		}
		/* header-pin GPIOs: through the connector's nexus, as LEDs and keys */
		for (size_t k = 0; k < p->ngpio; k++)
			if (!gpio_cells(c, dv, n, p->name, p->gpio[k].idx, p->gpio[k].flags))
				break;
	}
}

/* Why a clock's pad needs its receiver, for the messages that say it is off. */
static const char *clock_why(const struct bus_mux *m)
{
	return m->clock ? ", a clock it takes back through the pad's receiver even where it drives it" : "";
}

/* printf at @buf[*o], as far as @sz lets it: a bounded message */
static void bput(char *buf, size_t sz, size_t *o, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void bput(char *buf, size_t sz, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*o >= sz)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *o, sz - *o, fmt, ap);
	va_end(ap);
	*o = n < 0 ? sz : *o + (size_t)n;
}

/*
 * The required mux entries of unit @bus on the shared cape bus's pins,
 * which the board keeps muxed for a board-enabled bus: into @need, the
 * holding bus's entries into @held (each CAPE_NPINS long), the first
 * holding bus into *@hb; how many.
 */
static size_t shared_needs(const struct board *b, const struct board_bus *bus,
			   const struct bus_mux **need, const struct bus_mux **held,
			   const struct board_bus **hb)
{
	size_t n = 0;

	*hb = NULL;
	for (size_t i = 0; i < bus->nmux && n < CAPE_NPINS; i++) {
		const struct bus_mux *m = &bus->mux[i], *hm;
		const struct board_bus *h = NULL;

		if (!m->required || !b->shared_pin[m->idx] ||
		    !(hm = board_shared_mux(b, m->idx, &h)) || h == bus || hm->mode == m->mode)
			continue;
		need[n] = m;
		held[n++] = hm;
		if (!*hb)
			*hb = h;
	}
	return n;
}

/*
 * A unit whose required pins are the shared cape bus's, which the board
 * keeps muxed for that bus (the cape ID EEPROMs answer there: every cape
 * is found through it), is no cape's to have: "needs P9.19 (dcan0_rx,
 * mode 2) and ..., which are the board's i2c2 (...): ...", naming the
 * units of its kind a cape can have instead; NULL if @bus is not one.
 * No variant frees a shared pin.  Malloc'ed.
 */
static char *shared_taken(const struct board *b, const struct board_bus *bus)
{
	const struct bus_mux *need[CAPE_NPINS], *held[CAPE_NPINS];
	const struct board_bus *hb;
	size_t n = shared_needs(b, bus, need, held, &hb), o = 0, alt = 0;
	char buf[1024];

	if (!n)
		return NULL;
	bput(buf, sizeof(buf), &o, "needs ");
	for (size_t i = 0; i < n; i++)
		bput(buf, sizeof(buf), &o, "%s%s (%s, mode %d)", i ? (i + 1 == n ? " and " : ", ") : "",
		     cape_pin_names[need[i]->idx], need[i]->signal, need[i]->mode);
	bput(buf, sizeof(buf), &o, ", which %s the board's %s (", n > 1 ? "are" : "is", hb->name);
	for (size_t i = 0; i < n; i++)
		bput(buf, sizeof(buf), &o, "%s%s", i ? ", " : "", held[i]->signal);
	bput(buf, sizeof(buf), &o, "): the shared cape bus, where the cape ID EEPROMs answer");
	if (hb->nreserved) {
		int lo = hb->reserved[0].addr, hi = lo;

		for (size_t i = 1; i < hb->nreserved; i++) {
			lo = hb->reserved[i].addr < lo ? hb->reserved[i].addr : lo;
			hi = hb->reserved[i].addr > hi ? hb->reserved[i].addr : hi;
		}
		if (lo == hi)
			bput(buf, sizeof(buf), &o, " (0x%02x)", lo);
		else
			bput(buf, sizeof(buf), &o, " (0x%02x-0x%02x)", lo, hi);
	}
	bput(buf, sizeof(buf), &o, "; muxed for %s, no cape's EEPROM could be read, and no --variant gives %s away",
	     bus->name, n > 1 ? "them" : "it");
	/* the units of its kind a cape can have */
	for (size_t i = 0; i < b->nbuses; i++) {
		const struct bus_mux *un[CAPE_NPINS], *uhm[CAPE_NPINS];
		const struct board_bus *u = &b->buses[i], *uh;

		if (u == bus || u->board_enabled || strcmp(u->type, bus->type) ||
		    shared_needs(b, u, un, uhm, &uh))
			continue;
		bput(buf, sizeof(buf), &o, "%s%s (", alt++ ? "; " : ": use ", u->name);
		for (size_t k = 0, w = 0; k < u->nmux; k++)
			if (u->mux[k].required)
				bput(buf, sizeof(buf), &o, "%s%s", w++ ? ", " : "", cape_pin_names[u->mux[k].idx]);
		bput(buf, sizeof(buf), &o, ")");
	}
	return xstrdup(buf);
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
	if (!bus->board_enabled) {
		char *why = shared_taken(c->b, bus);

		if (why) {
			berr(c, dv, "%s (%s) %s", bus->name, bus->label, why);
			free(why);
			return NULL;
		}
	}
	/* enabling a bus whose function pins the cape does not mux gives a dead bus */
	for (size_t i = 0; !bus->board_enabled && i < bus->nmux; i++) {
		const struct bus_mux *m = &bus->mux[i];
		const struct cape_pin *p = def_pin(c->d, m->idx);

		if (p && (p->word & CAPE_PIN_MODE_MASK) == m->mode && m->rx &&
		    !(p->word & CAPE_PIN_RX_ENABLE)) {
			/* an input with its receiver off reads nothing, nor a clock it drives */
			berr(c, dv, "%s reads %s (%s)%s, but its receiver is disabled (pins: %s, line %d): set rx = true",
			     bus->name, cape_pin_names[m->idx], m->signal, clock_why(m),
			     (p->word & CAPE_PIN_DIR_MASK) == CAPE_PIN_DIR_OUT ? "direction out" : "rx = false",
			     p->line);
			continue;
		}
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
	{
		char *what = xasprintf("bus %s", bus->name);

		ov = frag_on(c, dv, bus->label, what);
		free(what);
		if (!ov)
			return NULL;
	}
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
	if (!strcmp(want, "i2c") || !strcmp(want, "spi")) {
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
	prop_set(n, "compatible", dv->compat, dv->compat_len);
	prop_u32(n, "reg", (uint32_t)(dv->type == DEV_I2C ? dv->address : dv->cs));
	if (dv->type == DEV_SPI)
		prop_u32(n, "spi-max-frequency", (uint32_t)dv->max_freq);
	add_props(c, n, dv);
	if (dv->has_irq)
		add_irq(c, dv, n);
}

/*
 * gpio-leds / gpio-keys: one node per cape holding every LED / key; the
 * keys with autorepeat (@repeat) in a gpio-keys node of their own, with
 * autorepeat: the kernel repeats per gpio-keys device, not per key.  The
 * entries are numbered in the definition's order across both.
 */
static void add_gpio_group(struct bctx *c, enum dev_type type, bool repeat)
{
	const char *compat = type == DEV_LED ? "gpio-leds" : "gpio-keys";
	const char *what = type == DEV_LED ? "leds" : repeat ? "keys-autorepeat" : "keys";
	struct onode *parent = NULL;
	int idx[CAPE_NPINS];
	size_t n = 0, k = 0;

	for (size_t i = 0; i < c->d->ndevs; i++) {
		const struct cape_dev *dv = &c->d->devs[i];
		struct onode *e;
		char *name;

		if (dv->type != type || dv->bad)
			continue;
		if (type == DEV_KEY && dv->autorepeat != repeat) {
			k++;
			continue;
		}
		if (!parent) {
			struct onode *ov = frag_on(c, dv, c->b->devices_target, "platform devices");

			if (!ov)
				return;
			name = xasprintf("%s-%s", c->slug, what);
			parent = node_new(ov, name);
			free(name);
			prop_str(parent, "compatible", compat);
			if (repeat)
				prop_set(parent, "autorepeat", NULL, 0);
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
			if (dv->debounce >= 0)
				prop_u32(e, "debounce-interval", (uint32_t)dv->debounce);
			if (dv->wakeup)
				prop_set(e, "wakeup-source", NULL, 0);
		}
		if (n < CAPE_NPINS)
			idx[n++] = cape_pin_index(dv->pin);
	}
	if (parent)
		use_group(c, parent, pin_group(c, what, idx, n));
}

static void herr(struct bctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void herr(struct bctx *c, const char *fmt, ...)
{
	va_list ap;

	c->errors++;
	if (err_quiet)
		return;
	if (c->d->overlay_line > 0)
		fprintf(stderr, "%s:%d: overlay %s: ", c->d->file, c->d->overlay_line, c->d->overlay);
	else
		fprintf(stderr, "%s: overlay %s: ", c->d->file, c->d->overlay);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The header bus a fragment's target label names, or NULL. */
static const struct board_bus *hatch_bus(struct bctx *c, const char *label)
{
	const struct board_export *e = c->portable ? board_find_export(c->b, label) : NULL;
	const char *l = c->portable ? (e ? e->target : NULL) : label;

	for (size_t i = 0; l && i < c->b->nbuses; i++)
		if (!strcmp(c->b->buses[i].label, l))
			return &c->b->buses[i];
	return NULL;
}

/*
 * The address a hatch node's reg takes on @bus, as the kernel's connector
 * reads it (drivers/capebus/capebus-busaddr.c): on an I2C bus every entry a
 * 7-bit address (capetool cannot know whether an adapter does 10-bit, and
 * bit 30 is the adapter's own address); on an SPI bus one cell, a chip
 * select the header has a pin for.  The first address, or -1 after saying
 * why: the I2C core keeps 16 bits of a reg and the SPI core 8, so 0x10048
 * would take 0x48 and 0x100 chip select 0.
 */
static int hatch_addr(struct bctx *c, const struct board *ft, const struct onode *f,
		      const struct onode *nd, const struct board_bus *bus, const struct oprop *reg)
{
	bool i2c = !strcmp(bus->type, "i2c");
	unsigned n = (unsigned)reg->len / 4;
	char sig[40], where[200] = "";
	size_t o = 0;

	if (reg->len % 4 || (!i2c && n != 1)) {
		herr(c, "%s/%s has a reg of %zu bytes; on %s (%s) the kernel's connector allows one cell, "
		     "a chip select: the SPI core takes each cell for one (threat-model.rst, Bus addresses)",
		     f->name, nd->name, reg->len, bus->name, bus->type);
		return -1;
	}
	for (unsigned k = 0; i2c && k < n; k++) {
		uint32_t a = get_cell_be(reg->val + 4 * k);

		if (a >= 0x01 && a <= 0x7f)
			continue;
		herr(c, "%s/%s has reg 0x%x on %s, which is no 7-bit I2C address (the I2C core would use "
		     "0x%x); the kernel's connector allows 0x01-0x7f (threat-model.rst, Bus addresses)",
		     f->name, nd->name, a, bus->name, a & 0xffff);
		return -1;
	}
	if (i2c)
		return (int)get_cell_be(reg->val);
	/* as a definition's SPI device (def.c): a pin of pins muxed as that chip select */
	snprintf(sig, sizeof(sig), "%s_cs%u", bus->name, get_cell_be(reg->val));
	for (int idx = 0; idx < CAPE_NPINS && get_cell_be(reg->val) <= 0xfe; idx++)
		for (int m = 0; m < 8; m++) {
			const char *fn = board_function(ft, idx, m);
			const struct cape_pin *p;

			if (!fn || strcmp(fn, sig))
				continue;
			p = def_pin(c->d, idx);
			if (p && (p->word & CAPE_PIN_MODE_MASK) == m)
				return (int)get_cell_be(reg->val);
			if (o < sizeof(where))
				o += (size_t)snprintf(where + o, sizeof(where) - o, "%s%s mode %d",
						      o ? ", " : "", cape_pin_names[idx], m);
		}
	if (o)
		herr(c, "%s/%s has reg %u on %s: chip select %u needs a pin of pins muxed as %s (%s); there is none",
		     f->name, nd->name, get_cell_be(reg->val), bus->name, get_cell_be(reg->val), sig,
		     where);
	else
		herr(c, "%s/%s has reg 0x%x on %s, which is no chip select of the header's (no pin can be %s; "
		     "the SPI core would use %u) (threat-model.rst, Bus addresses)",
		     f->name, nd->name, get_cell_be(reg->val), bus->name, sig,
		     get_cell_be(reg->val) & 0xff);
	return -1;
}

/*
 * The escape hatch goes through the checks generated devices go through:
 * a bus it enables needs the bus's pins declared and muxed as for a
 * generated device; its GPIOs are pins the cape declares, muxed as GPIOs;
 * its nodes at a bus address hold that address (against the cape's own
 * devices here, against other capes in check: they are added to @d as
 * hatch devices).  What the kernel's resolver and connector refuse (a name
 * not exported, a target-path, a property of a target set) is theirs to
 * say: kernel_rules_check() runs them on the whole overlay (def_build()).
 */
static void check_hatch(struct bctx *c, struct cape_def *d, size_t first_fix, unsigned first_frag)
{
	struct otree *t = c->t;
	const struct board_export *ge = c->portable ? board_gpio_export(c->b) : NULL;
	const struct board_export *ie = c->portable ? board_irq_export(c->b) : NULL;
	const struct board *ft = board_functions(c->b);

	for (size_t i = 0; i < t->root->nkids; i++) {
		struct onode *f = t->root->kids[i], *ov = node_child(f, "__overlay__");
		const char *label = NULL;
		const struct board_bus *bus;
		const struct oprop *st;
		unsigned n;
		bool enables;

		if (sscanf(f->name, "fragment@%u", &n) != 1 || n < first_frag || !ov)
			continue;
		for (size_t k = first_fix; k < t->nfix; k++)
			if (t->fix[k].label && t->fix[k].node == f && !strcmp(t->fix[k].prop, "target"))
				label = t->fix[k].label;
		if (!label)
			label = prop_find(f, "target-path") ? (const char *)prop_find(f, "target-path")->val : "?";
		bus = hatch_bus(c, label);
		st = prop_find(ov, "status");
		enables = st && st->len == 5 && !memcmp(st->val, "okay", 5);
		/* a bus it enables: not the shared cape bus's pins, declared, muxed for the bus */
		if (enables && bus && !bus->board_enabled) {
			char *why = shared_taken(c->b, bus);

			if (why) {
				herr(c, "%s enables %s (%s), which %s", f->name, bus->name, label, why);
				free(why);
				enables = false;
			}
		}
		for (size_t k = 0; enables && bus && !bus->board_enabled && k < bus->nmux; k++) {
			const struct bus_mux *m = &bus->mux[k];
			const struct cape_pin *p = def_pin(d, m->idx);

			if (p && (p->word & CAPE_PIN_MODE_MASK) == m->mode && m->rx &&
			    !(p->word & CAPE_PIN_RX_ENABLE)) {
				herr(c, "%s enables %s (%s), which reads %s (%s)%s, but its receiver is disabled (line %d): set rx = true",
				     f->name, bus->name, label, cape_pin_names[m->idx], m->signal,
				     clock_why(m), p->line);
				continue;
			}
			if (!m->required || (p && (p->word & CAPE_PIN_MODE_MASK) == m->mode))
				continue;
			if (p)
				herr(c, "%s enables %s (%s), which needs %s muxed mode %d (%s); pins has it in mode %d (line %d)",
				     f->name, bus->name, label, cape_pin_names[m->idx], m->mode, m->signal,
				     p->word & CAPE_PIN_MODE_MASK, p->line);
			else
				herr(c, "%s enables %s (%s), which needs %s muxed mode %d (%s); it is not in pins: "
				     "a bus's pins are declared, so that no other cape takes them",
				     f->name, bus->name, label, cape_pin_names[m->idx], m->mode, m->signal);
		}
		/* a PWM unit it enables: one of its outputs muxed, as for a pwm device */
		if (enables && bus && !strcmp(bus->type, "pwm")) {
			char outs[256];

			if (!pwm_out_muxed(bus, d, -1, outs, sizeof(outs)))
				herr(c, "%s enables PWM unit %s (%s), but no pin of pins is muxed as one of its outputs (%s)",
				     f->name, bus->name, label, outs);
		}
		/* its nodes at a bus address */
		for (size_t k = 0; bus && ov && k < ov->nkids; k++) {
			struct onode *nd = ov->kids[k];
			const struct oprop *reg = prop_find(nd, "reg"), *cp = prop_find(nd, "compatible");
			enum dev_type type;
			struct cape_dev *dv;
			int a;

			if (!reg || reg->len < 4 || (strcmp(bus->type, "i2c") && strcmp(bus->type, "spi")))
				continue;
			type = !strcmp(bus->type, "i2c") ? DEV_I2C : DEV_SPI;
			a = hatch_addr(c, ft, f, nd, bus, reg);
			if (a < 0)
				continue;
			for (size_t m = 0; m < d->ndevs; m++) {
				const struct cape_dev *o = &d->devs[m];

				if (o->type != type || !o->bus || strcmp(o->bus, bus->name) ||
				    (type == DEV_I2C ? o->address : o->cs) != a)
					continue;
				char at[32];

				if (type == DEV_I2C)
					snprintf(at, sizeof(at), "address 0x%02x", a);
				else
					snprintf(at, sizeof(at), "chip select %d", a);
				if (o->hatch)
					herr(c, "%s/%s is at %s %s, as %s of the overlay", f->name,
					     nd->name, bus->name, at, o->compatible);
				else
					herr(c, "%s/%s is at %s %s, which devices (line %d, %s) has",
					     f->name, nd->name, bus->name, at, o->line,
					     o->compatible ? o->compatible : "?");
			}
			d->devs = xrealloc(d->devs, (d->ndevs + 1) * sizeof(*d->devs));
			dv = &d->devs[d->ndevs++];
			memset(dv, 0, sizeof(*dv));
			dv->type = type;
			dv->hatch = true;
			dv->bus = xstrdup(bus->name);
			dv->compatible = xstrndup_safe(cp ? (const char *)cp->val : nd->name,
						       cp ? cp->len : strlen(nd->name));
			if (type == DEV_I2C)
				dv->address = a;
			else
				dv->cs = a;
		}
	}
	/*
	 * Its PWM users (pwms = <&unit CHANNEL ...>): the unit on, by a device
	 * of the cape or a fragment of the hatch, and that channel's output
	 * muxed by a pin of pins, as for an LCD's backlight.
	 */
	for (size_t k = first_fix; k < t->nfix; k++) {
		const struct fixup *fx = &t->fix[k];
		const struct oprop *p = fx->label ? prop_find(fx->node, fx->prop) : NULL;
		const struct board_bus *bus = fx->label ? hatch_bus(c, fx->label) : NULL;
		bool on = false;
		char outs[256], *where;
		unsigned ch;

		if (!p || !bus || strcmp(bus->type, "pwm") || (size_t)fx->off + 8 > p->len)
			continue;
		ch = get_cell_be(p->val + fx->off + 4);
		for (size_t m = 0; m < d->ndevs && !on; m++) {
			const char *u = devkind_pwm_unit(&d->devs[m]);

			on = u && !strcmp(u, bus->name);
		}
		for (size_t i = 0; i < t->root->nkids && !on; i++) {
			struct onode *f = t->root->kids[i], *ov = node_child(f, "__overlay__");
			const struct oprop *st = ov ? prop_find(ov, "status") : NULL;

			for (size_t j = first_fix; st && j < t->nfix && !on; j++)
				on = t->fix[j].label && t->fix[j].node == f &&
				     !strcmp(t->fix[j].prop, "target") &&
				     hatch_bus(c, t->fix[j].label) == bus &&
				     st->len == 5 && !memcmp(st->val, "okay", 5);
		}
		where = path_of(fx->node);
		if (!on)
			herr(c, "%s:%s uses PWM unit %s (%s), which nothing enables: a pwm device "
			     "or a fragment setting its status = \"okay\"", where, fx->prop,
			     bus->name, fx->label);
		else if (ch > 1 || !pwm_out_muxed(bus, d, (int)ch, outs, sizeof(outs)))
			herr(c, "%s:%s uses PWM unit %s channel %u, whose output no pin of pins is muxed as%s%s%s",
			     where, fx->prop, bus->name, ch, ch > 1 ? "" : " (", ch > 1 ? " (it has channels 0 and 1)" : outs,
			     ch > 1 ? "" : ")");
		free(where);
	}
	/* its GPIOs and interrupts: pins the cape declares, muxed as GPIOs */
	for (size_t k = first_fix; k < t->nfix; k++) {
		const struct fixup *fx = &t->fix[k];
		const struct oprop *p = fx->label ? prop_find(fx->node, fx->prop) : NULL;
		const struct oprop *irqs = NULL;
		bool irq = ie && fx->label && !strcmp(fx->label, ie->name);
		char *where;
		int idx = -1;

		if (!p)
			continue;
		where = path_of(fx->node);
		if (ge && !strcmp(fx->label, ge->name) &&
		    (!strcmp(fx->prop, "interrupt-parent") || !strcmp(fx->prop, "interrupts-extended"))) {
			/* the kernel's of_irq code finds no #interrupt-cells there */
			if (ie)
				herr(c, "%s:%s: %s is the connector's GPIO nexus, no interrupt controller "
				     "(it has no #interrupt-cells), so the kernel refuses the interrupt: a header "
				     "pin's interrupt is <&%s PIN TYPE> (interrupts-extended = <&%s 912 2>, or "
				     "interrupt-parent = <&%s> with interrupts = <912 2>)", where, fx->prop,
				     fx->label, ie->name, ie->name, ie->name);
			else
				herr(c, "%s:%s: %s is the connector's GPIO nexus, no interrupt controller "
				     "(it has no #interrupt-cells), and board %s's connector exports no "
				     "interrupt nexus", where, fx->prop, fx->label, c->b->name);
			free(where);
			continue;
		}
		if (irq && !strcmp(fx->prop, "interrupt-parent")) {
			/* interrupt-parent = <&bone_irq>; interrupts = <PIN TYPE>... */
			irqs = prop_find(fx->node, "interrupts");
			if (!irqs) {
				/* its subnodes' parent: kernel_rules_check() walks them as the kernel does */
				free(where);
				continue;
			}
			if (!irqs->len || irqs->len % 8)
				herr(c, "%s:interrupt-parent is %s, whose interrupts are <PIN TYPE> pairs: "
				     "interrupts has %zu bytes", where, fx->label, irqs ? irqs->len : 0);
		} else if ((irq || (ge && !strcmp(fx->label, ge->name))) && (size_t)fx->off + 12 > p->len) {
			herr(c, "%s:%s: <&%s PIN %s> needs 3 cells at offset %u", where, fx->prop, fx->label,
			     irq ? "TYPE" : "FLAGS", fx->off);
			free(where);
			continue;
		}
		for (size_t o = 0; ; o += 8) {
			const uint8_t *pin_cell = NULL, *type_cell = NULL;
			const struct cape_pin *cp;
			int gm, mode;

			if (irqs) {
				if (irqs->len % 8 || o + 8 > irqs->len)
					break;
				pin_cell = irqs->val + o;
				type_cell = pin_cell + 4;
			} else if (o) {
				break;
			} else if ((size_t)fx->off + 8 <= p->len) {
				pin_cell = p->val + fx->off + 4;
				type_cell = irq ? pin_cell + 4 : NULL;
			} else {
				break;
			}
			idx = -1;
			if (irq || (ge && !strcmp(fx->label, ge->name))) {
				idx = pin_code_index(get_cell_be(pin_cell));
			} else if (!c->portable) {
				uint32_t line = get_cell_be(pin_cell);

				for (int x = 0; x < CAPE_NPINS && idx < 0; x++)
					if (c->b->pins[x].gpio && !strcmp(c->b->pins[x].gpio, fx->label) &&
					    (uint32_t)c->b->pins[x].line == line)
						idx = x;
				if (idx < 0)
					break;	/* not a header pin's GPIO */
			} else {
				break;
			}
			if (type_cell) {
				uint32_t ty = get_cell_be(type_cell);

				if (ty != 1 && ty != 2 && ty != 3 && ty != 4 && ty != 8)
					herr(c, "%s:%s: <&%s %u %u>: %u is no trigger the nexus maps (IRQ_TYPE_*: "
					     "1 rising, 2 falling, 3 both edges, 4 high, 8 low)", where,
					     irqs ? "interrupts" : fx->prop, fx->label, get_cell_be(pin_cell), ty, ty);
			}
			if (idx < 0) {
				herr(c, "%s:%s: <&%s %u ...> names no header pin (800+n for P8.n, 900+n for P9.n)",
				     where, irqs ? "interrupts" : fx->prop, fx->label, get_cell_be(pin_cell));
			} else if (!(cp = def_pin(d, idx))) {
				herr(c, "%s:%s uses %s as a%s, which pins does not list: a cape's %s are "
				     "its declared pins (the kernel refuses others: threat-model.rst, Header "
				     "GPIOs)", where, irqs ? "interrupts" : fx->prop, cape_pin_names[idx],
				     irq ? "n interrupt" : " GPIO", irq ? "interrupts" : "GPIOs");
			} else if ((gm = board_gpio_mode(ft, idx)) >= 0 &&
				   (mode = cp->word & CAPE_PIN_MODE_MASK) != gm) {
				herr(c, "%s:%s uses %s as a%s, which needs mode %d (%s); pins has it in mode %d (line %d)",
				     where, irqs ? "interrupts" : fx->prop, cape_pin_names[idx],
				     irq ? "n interrupt (its GPIO)" : " GPIO", gm, board_function(ft, idx, gm),
				     mode, cp->line);
			}
		}
		free(where);
	}
}

int overlay_build(struct cape_def *d, const struct board *b, void **blob, size_t *len)
{
	struct otree t = { .next_phandle = 1 };
	struct bctx c = { d, b, &t, part_slug(d->part_number), { false }, 0, b->nexports > 0, NULL };
	unsigned w1 = 0;
	int rc = EXIT_OK;

	/* the hatch's devices of an earlier build (another board) */
	while (d->ndevs && d->devs[d->ndevs - 1].hatch) {
		struct cape_dev *dv = &d->devs[--d->ndevs];

		free(dv->bus);
		free(dv->compatible);
	}
	t.root = node_new(NULL, "");
	for (size_t i = 0; i < d->npins; i++)
		prop_append(t.root, "exclusive-use", cape_pin_names[d->pins[i].idx],
			    strlen(cape_pin_names[d->pins[i].idx]) + 1);
	if (d->overlay) {
		size_t first_fix = t.nfix;
		unsigned first_frag = t.nfrag;

		rc = merge_extra(&t, d->overlay);
		if (rc == EXIT_OK)
			check_hatch(&c, d, first_fix, first_frag);
	}
	/* board-enabled buses keep the board's own pinmux */
	for (size_t i = 0; i < d->ndevs && rc == EXIT_OK; i++) {
		const struct board_bus *bus;

		if (d->devs[i].bad || !d->devs[i].bus || !(bus = board_find_bus(b, d->devs[i].bus)) ||
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

		if (dv->bad || dv->hatch)
			continue;	/* its error is said; the hatch's are in the overlay */
		switch (dv->type) {
		case DEV_I2C:
		case DEV_SPI:
			add_bus_dev(&c, dv);
			break;
		case DEV_UART:
			bus_node(&c, dv, "uart");
			break;
		case DEV_W1: {
			struct onode *ov = frag_on(&c, dv, b->devices_target, "platform devices"), *n;
			char *name = xasprintf("%s-w1-%u", c.slug, w1++);
			int idx = cape_pin_index(dv->pin);

			if (!ov) {
				free(name);
				break;
			}
			n = node_new(ov, name);
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
	if (rc == EXIT_OK)
		devkinds_build(&c);
	if (rc == EXIT_OK) {
		add_gpio_group(&c, DEV_LED, false);
		add_gpio_group(&c, DEV_KEY, false);
		add_gpio_group(&c, DEV_KEY, true);
	}
	if (rc == EXIT_OK && b->pinmux && !c.portable) {
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

/* ---- resolve: a portable overlay for one board ---- */

static uint32_t get_cell(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void prop_del(struct onode *n, const char *name)
{
	for (size_t i = 0; i < n->nprops; i++)
		if (!strcmp(n->props[i].name, name)) {
			free(n->props[i].name);
			free(n->props[i].val);
			memmove(&n->props[i], &n->props[i + 1], (n->nprops - i - 1) * sizeof(*n->props));
			n->nprops--;
			return;
		}
}

struct rctx {
	const char *src;
	const struct board *b;
	const uint16_t *pins;
	struct otree *t;
	char *slug;
	struct onode *pm;		/* the pinmux fragment's __overlay__, once made */
	bool muxed[CAPE_NPINS];
	int errors;
	struct { struct onode *node; int idx; } *gpio;	/* who uses which pin as a GPIO */
	size_t ngpio;
};

static void rerr(struct rctx *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void rerr(struct rctx *r, const char *fmt, ...)
{
	va_list ap;

	r->errors++;
	if (err_quiet)
		return;
	fprintf(stderr, "%s: %s: ", progname, r->src);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Is pin @idx one resolve muxes: used by the cape, with a pad on the board? */
static bool resolve_wants(struct rctx *r, int idx)
{
	return idx >= 0 && idx < CAPE_NPINS && (r->pins[idx] & CAPE_PIN_USED) && !r->muxed[idx] &&
	       !cape_pin_is_ain(idx) && r->b->pins[idx].conf >= 0;
}

/* The fixup (with a label) that sets @node's @prop at offset 0, or NULL. */
static struct fixup *fixup_at(struct otree *t, struct onode *node, const char *prop)
{
	for (size_t i = 0; i < t->nfix; i++)
		if (t->fix[i].label && t->fix[i].node == node && !strcmp(t->fix[i].prop, prop) &&
		    !t->fix[i].off)
			return &t->fix[i];
	return NULL;
}

/*
 * A pinctrl-single group "<slug>-<what>-pins" for the pins @idx in the
 * pinmux fragment (made on first use); NULL if it would be empty.  Pins
 * already muxed are left out.
 */
static struct onode *resolve_group(struct rctx *r, const char *what, const int *idx, size_t n)
{
	struct onode *g;
	char *name;
	size_t used = 0;

	if (!r->b->pinmux)
		return NULL;
	for (size_t i = 0; i < n; i++)
		used += resolve_wants(r, idx[i]);
	if (!used)
		return NULL;
	if (!r->pm) {
		unsigned max = 0, k;
		struct onode *f;

		for (size_t i = 0; i < r->t->root->nkids; i++)
			if (sscanf(r->t->root->kids[i]->name, "fragment@%u", &k) == 1 && k >= max)
				max = k + 1;
		r->t->nfrag = max;
		f = new_fragment(r->t, NULL);
		prop_ref(r->t, f, "target", r->b->pinmux);
		r->pm = node_new(f, "__overlay__");
	}
	name = xasprintf("%s-%s-pins", r->slug, what);
	for (unsigned k = 2;; k++) {
		for (char *a = name; *a; a++)
			if (*a == '@')
				*a = '-';	/* a device "x@3c": no unit address in a group's name */
		if (!node_child(r->pm, name))
			break;
		free(name);
		name = xasprintf("%s-%s-%u-pins", r->slug, what, k);
	}
	g = node_new(r->pm, name);
	free(name);
	prop_set(g, "pinctrl-single,pins", NULL, 0);
	for (size_t i = 0; i < n; i++) {
		uint16_t w;

		if (!resolve_wants(r, idx[i]))
			continue;
		w = r->pins[idx[i]];
		prop_append_u32(g, "pinctrl-single,pins", (uint32_t)r->b->pins[idx[i]].conf);
		prop_append_u32(g, "pinctrl-single,pins", w & 0x78);
		prop_append_u32(g, "pinctrl-single,pins", w & CAPE_PIN_MODE_MASK);
		r->muxed[idx[i]] = true;
	}
	return g;
}

/*
 * The node of the board's tree @n stands for: its fragment's target (a
 * label, or a path) and its path below __overlay__, "i2c2:/mcp2515@0";
 * NULL if @n is in no fragment.  Two fragments on one target hold one
 * node twice; the overlay code merges them, and the last pinctrl-0 wins.
 */
static char *live_key(struct rctx *r, struct onode *n)
{
	struct onode *ov = n, *f;
	const struct oprop *tp;
	struct fixup *fx;
	char *rel, *key;
	size_t ol;

	while (ov->parent && ov->parent->parent && ov->parent->parent->parent)
		ov = ov->parent;
	if (!ov->parent || !ov->parent->parent || strcmp(ov->name, "__overlay__"))
		return NULL;
	f = ov->parent;
	rel = path_of(n);
	ol = strlen(f->name) + strlen("/__overlay__") + 1;
	if ((fx = fixup_at(r->t, f, "target")))
		key = xasprintf("%s:%s", fx->label, rel + ol);
	else if ((tp = prop_find(f, "target-path")) && tp->len && !tp->val[tp->len - 1])
		key = xasprintf("%s:%s", (const char *)tp->val, rel + ol);
	else
		key = NULL;
	free(rel);
	return key;
}

/*
 * The pins each node of the board's tree uses, across the fragments that
 * hold it: one group for all of them, named in the pinctrl-0 of every
 * copy of the node, so that whichever the overlay code applies last, the
 * node's pins are muxed.
 */
struct pin_user {
	char *key, *what;
	struct onode **copies;
	size_t ncopies;
	int idx[CAPE_NPINS];
	size_t n;
};

static void pin_user_add(struct pin_user **u, size_t *nu, char *key, struct onode *node,
			 const char *what, const int *idx, size_t n)
{
	struct pin_user *p = NULL;
	bool have = false;

	for (size_t i = 0; key && i < *nu && !p; i++)
		if (!strcmp((*u)[i].key, key))
			p = &(*u)[i];
	if (!p) {
		*u = xrealloc(*u, (*nu + 1) * sizeof(**u));
		p = &(*u)[(*nu)++];
		memset(p, 0, sizeof(*p));
		p->key = key ? key : xstrdup("");
		p->what = xstrdup(what);
	} else {
		free(key);
	}
	for (size_t i = 0; i < p->ncopies; i++)
		have |= p->copies[i] == node;
	if (!have) {
		p->copies = xrealloc(p->copies, (p->ncopies + 1) * sizeof(*p->copies));
		p->copies[p->ncopies++] = node;
	}
	for (size_t i = 0; i < n; i++) {
		bool dup = false;

		for (size_t k = 0; k < p->n; k++)
			dup |= p->idx[k] == idx[i];
		if (!dup && p->n < CAPE_NPINS)
			p->idx[p->n++] = idx[i];
	}
}

/*
 * The header pin a nexus specifier's cells at @cells name (<PIN FLAGS>, or
 * <PIN TYPE> for the interrupt nexus), checked: a signal pin with a GPIO
 * on the board, muxed as that GPIO by the cape's pin word, and for an
 * interrupt a trigger the nexus maps.  Its index, or -1 after saying why.
 */
static int resolve_nexus_pin(struct rctx *r, const char *where, const char *prop,
			     const char *nexus, bool irq, const uint8_t *cells)
{
	uint32_t code = get_cell(cells), ty = get_cell(cells + 4);
	int idx = pin_code_index(code);
	const struct board *ft = board_functions(r->b);
	int gm, mode;
	const char *have;

	if (idx < 0) {
		rerr(r, "%s:%s: %s pin %u is no header signal pin (800+n for P8.n, "
		     "900+n for P9.n)", where, prop, nexus, code);
		return -1;
	}
	if (!r->b->pins[idx].gpio) {
		rerr(r, "%s:%s: %s pin %u (%s): board %s has no GPIO on that pin",
		     where, prop, nexus, code, cape_pin_names[idx], r->b->name);
		return -1;
	}
	if (irq && ty != 1 && ty != 2 && ty != 3 && ty != 4 && ty != 8) {
		rerr(r, "%s:%s: <&%s %u %u>: %u is no trigger the interrupt nexus maps (IRQ_TYPE_*: "
		     "1 rising, 2 falling, 3 both edges, 4 high, 8 low)", where, prop, nexus, code, ty, ty);
		return -1;
	}
	if (!(r->pins[idx] & CAPE_PIN_USED)) {
		rerr(r, "%s:%s: %s is used as a%s, but the cape's pin words do not declare it: the "
		     "kernel gives a cape only the pins it declares (threat-model.rst, Header GPIOs)",
		     where, prop, cape_pin_names[idx], irq ? "n interrupt" : " GPIO");
		return -1;
	}
	/* the cape's pin word must mux the pin as that GPIO */
	gm = board_gpio_mode(ft, idx);
	mode = r->pins[idx] & CAPE_PIN_MODE_MASK;
	have = board_function(ft, idx, mode);
	if (gm >= 0 && mode != gm) {
		rerr(r, "%s:%s: %s is used as a%s, but the cape's pin word muxes it mode %d%s%s%s: a GPIO needs mode %d (%s)",
		     where, prop, cape_pin_names[idx], irq ? "n interrupt" : " GPIO", mode, have ? " (" : "",
		     have ? have : "", have ? ")" : "", gm, board_function(ft, idx, gm));
		return -1;
	}
	return idx;
}

static void resolve_note_gpio(struct rctx *r, struct onode *node, int idx)
{
	r->gpio = xrealloc(r->gpio, (r->ngpio + 1) * sizeof(*r->gpio));
	r->gpio[r->ngpio].node = node;
	r->gpio[r->ngpio++].idx = idx;
}

/* Rewrite every reference to an exported name; note who uses which GPIO pin. */
static void resolve_refs(struct rctx *r)
{
	struct otree *t = r->t;
	size_t keep = 0;

	for (size_t i = 0; i < t->nfix; i++) {
		struct fixup *f = &t->fix[i];
		const struct board_export *e = f->label ? board_find_export(r->b, f->label) : NULL;
		struct oprop *p = prop_find(f->node, f->prop);
		char *where = path_of(f->node);
		bool drop = false;

		if (!f->label) {
			/* local: our own phandles, unchanged */
		} else if (!e) {
			char *names = board_export_list(r->b);

			rerr(r, "%s:%s references \"%s\", which board %s's cape connector does not "
			     "export (it exports: %s): not a portable overlay", where, f->prop,
			     f->label, r->b->name, names);
			free(names);
		} else if (!e->target && e->irq && !strcmp(f->prop, "interrupt-parent")) {
			/*
			 * interrupt-parent = <&bone_irq>; interrupts = <PIN TYPE>...
			 * -> <&gpioN>; <LINE TYPE>...: one bank for all of them
			 */
			struct oprop *ip = prop_find(f->node, "interrupts");
			const char *bank = NULL;

			if (!f->off && !ip) {
				/* the kernel takes it (subnodes inherit it); a bank here cannot be one */
				rerr(r, "%s:interrupt-parent is %s on a node without interrupts, which resolve "
				     "cannot turn into one GPIO bank for the nodes inheriting it: name it on each "
				     "node with interrupts, or write interrupts-extended = <&%s PIN TYPE>",
				     where, f->label, f->label);
				goto next;
			}
			if (f->off || !ip->len || ip->len % 8) {
				rerr(r, "%s:interrupt-parent is %s, whose interrupts are <PIN TYPE> pairs: "
				     "interrupts has %zu bytes", where, f->label, ip ? ip->len : 0);
				goto next;
			}
			for (size_t o = 0; o < ip->len; o += 8) {
				int idx = resolve_nexus_pin(r, where, "interrupts", f->label, true,
							    ip->val + o);

				if (idx < 0)
					goto next;
				if (bank && strcmp(bank, r->b->pins[idx].gpio)) {
					rerr(r, "%s:interrupts: %s's pins are on GPIO banks %s and %s, which one "
					     "interrupt-parent cannot name: write interrupts-extended = "
					     "<&%s PIN TYPE>, ... instead", where, f->label, bank,
					     r->b->pins[idx].gpio, f->label);
					goto next;
				}
				bank = r->b->pins[idx].gpio;
			}
			for (size_t o = 0; o < ip->len; o += 8) {
				int idx = pin_code_index(get_cell(ip->val + o));

				cell(ip->val + o, (uint32_t)r->b->pins[idx].line);
				resolve_note_gpio(r, f->node, idx);
			}
			free(f->label);
			f->label = xstrdup(bank);
		} else if (!e->target) {
			/* <&nexus PIN FLAGS|TYPE> -> <&controller LINE FLAGS|TYPE> */
			int idx;

			if (!p || (size_t)f->off + 12 > p->len) {
				rerr(r, "%s:%s: <&%s PIN %s> needs 3 cells at offset %u", where,
				     f->prop, f->label, e->irq ? "TYPE" : "FLAGS", f->off);
				goto next;
			}
			idx = resolve_nexus_pin(r, where, f->prop, f->label, e->irq, p->val + f->off + 4);
			if (idx < 0)
				goto next;
			cell(p->val + f->off + 4, (uint32_t)r->b->pins[idx].line);
			free(f->label);
			f->label = xstrdup(r->b->pins[idx].gpio);
			resolve_note_gpio(r, f->node, idx);
		} else if (e->target[0] == '/') {
			/* a path: only a fragment's target can name one */
			if (strcmp(f->prop, "target") || f->off || f->node->parent != t->root) {
				rerr(r, "%s:%s references %s, which board %s exports as the path %s: "
				     "only a fragment's target can name it", where, f->prop, f->label,
				     r->b->name, e->target);
				goto next;
			}
			prop_del(f->node, "target");
			prop_str(f->node, "target-path", e->target);
			drop = true;
		} else {
			free(f->label);
			f->label = xstrdup(e->target);
		}
next:
		free(where);
		if (drop) {
			free(f->label);
			free(f->prop);
			continue;
		}
		t->fix[keep++] = *f;
	}
	t->nfix = keep;
}

/* Read the overlay's __fixups__ into @t (nodes by path); 0 or errors counted. */
static void import_fixups(struct rctx *r, const void *fdt, int fx)
{
	int p;

	fdt_for_each_property_offset(p, fdt, fx) {
		const char *label, *s;
		int l;

		s = fdt_getprop_by_offset(fdt, p, &label, &l);
		for (int o = 0; o < l; o += (int)strnlen(s + o, (size_t)(l - o)) + 1) {
			size_t el = strnlen(s + o, (size_t)(l - o));
			char *e = xmalloc(el + 1), *c1, *c2, *end;
			struct onode *n = NULL;
			unsigned long off = 0;

			memcpy(e, s + o, el);
			e[el] = 0;
			c2 = strrchr(e, ':');
			if (c2 && c2 != e) {
				*c2 = 0;
				c1 = strrchr(e, ':');
				if (c1) {
					*c1 = 0;
					errno = 0;
					off = strtoul(c2 + 1, &end, 10);
					if (e[0] == '/' && c2[1] && !*end && !errno && off <= UINT32_MAX)
						n = walk(r->t->root, e);
					if (n) {
						struct oprop *pr = prop_find(n, c1 + 1);

						if (!pr || off % 4 || off + 4 > pr->len)
							n = NULL;
						else
							add_fixup(r->t, label, n, c1 + 1, (uint32_t)off);
					}
				}
			}
			if (!n)
				rerr(r, "__fixups__ entry %s = \"%.*s\" names no property cell of the overlay",
				     label, (int)el, s + o);
			free(e);
		}
	}
}

int overlay_resolve(const char *src, const void *dtbo, size_t len, const struct board *b,
		    const uint16_t *pins, const char *part, void **blob, size_t *outlen,
		    bool *unmuxed)
{
	struct otree t = { .next_phandle = 1 };
	struct rctx r = { .src = src, .b = b, .pins = pins, .t = &t, .slug = part_slug(part) };
	struct pin_user *users = NULL;
	size_t nusers = 0;
	uint32_t maxph = 0;
	int off, rc = EXIT_OK;
	const char *eu;
	int eulen;

	if (fdt_check_untrusted(dtbo, len)) {
		err("%s: not a valid flattened device tree", src);
		free(r.slug);
		return EXIT_DEF;
	}
	t.root = node_new(NULL, "");
	{
		int p;

		fdt_for_each_property_offset(p, dtbo, 0) {
			const char *pn;
			int l;
			const void *v = fdt_getprop_by_offset(dtbo, p, &pn, &l);

			prop_set(t.root, pn, v, (size_t)l);
		}
	}
	fdt_for_each_subnode(off, dtbo, 0) {
		const char *name = fdt_get_name(dtbo, off, NULL);

		if (strcmp(name, "__fixups__") && strcmp(name, "__local_fixups__"))
			import_node(dtbo, off, t.root, name, &maxph);
	}
	t.next_phandle = maxph + 1;
	if ((off = fdt_subnode_offset(dtbo, 0, "__fixups__")) >= 0)
		import_fixups(&r, dtbo, off);
	if ((off = fdt_subnode_offset(dtbo, 0, "__local_fixups__")) >= 0)
		import_local_fixups(&t, dtbo, off, t.root);
	/*
	 * The pins the overlay says it uses must be the cape's, and the other
	 * way round (create lists every pin of the cape): another cape's words
	 * on the same bus pins would mux pins this overlay never uses.
	 */
	eu = fdt_getprop(dtbo, 0, "exclusive-use", &eulen);
	{
		bool named[CAPE_NPINS] = { false };

		for (int o = 0; eu && o < eulen; o += (int)strnlen(eu + o, (size_t)(eulen - o)) + 1) {
			char name[16];
			int idx;

			snprintf(name, sizeof(name), "%.*s", (int)strnlen(eu + o, (size_t)(eulen - o)), eu + o);
			idx = cape_pin_index(name);
			if (idx >= 0)
				named[idx] = true;
			if (idx >= 0 && !(pins[idx] & CAPE_PIN_USED))
				rerr(&r, "its exclusive-use names %s, which the cape's pin "
				     "words do not use (another cape's EEPROM or definition?)", name);
		}
		for (int idx = 0; eu && idx < CAPE_NPINS; idx++)
			if ((pins[idx] & CAPE_PIN_USED) && !named[idx])
				rerr(&r, "the cape's pin words use %s, which its exclusive-use does "
				     "not name (another cape's EEPROM or definition?)", cape_pin_names[idx]);
	}
	if (!r.errors)
		resolve_refs(&r);
	if (!r.errors) {
		int idx[CAPE_NPINS];
		size_t n;

		/* pins of the board-enabled buses (the shared cape bus) are the board's to mux */
		for (size_t i = 0; i < b->nbuses; i++)
			for (size_t k = 0; b->buses[i].board_enabled && k < b->buses[i].npins; k++) {
				int x = cape_pin_index(b->buses[i].pins[k]);

				if (x >= 0)
					r.muxed[x] = true;
			}
		/* a bus a fragment enables: its pins, referenced by that node */
		for (size_t i = 0; i < t.root->nkids; i++) {
			struct onode *f = t.root->kids[i], *ov = node_child(f, "__overlay__");
			struct fixup *fx = fixup_at(&t, f, "target");
			const struct board_bus *bus = NULL;

			for (size_t k = 0; fx && ov && k < b->nbuses; k++)
				if (!strcmp(b->buses[k].label, fx->label))
					bus = &b->buses[k];
			if (!bus || bus->board_enabled)
				continue;
			n = 0;
			for (size_t k = 0; k < bus->npins; k++) {
				int x = cape_pin_index(bus->pins[k]);
				bool listed = false, match = false;

				/* a pin the unit can have: only where the cape muxes it so */
				for (size_t m = 0; x >= 0 && m < bus->nmux; m++)
					if (bus->mux[m].idx == x) {
						listed = true;
						match |= (pins[x] & CAPE_PIN_MODE_MASK) == bus->mux[m].mode;
					}
				if (x >= 0 && (!listed || match))
					idx[n++] = x;
			}
			pin_user_add(&users, &nusers, live_key(&r, ov), ov, bus->name, idx, n);
		}
		/* GPIO and interrupt users: the node holding them, or the gpio-leds/-keys parent of an entry */
		for (size_t i = 0; i < r.ngpio; i++) {
			struct onode *u = r.gpio[i].node;
			const char *what;
			size_t sl = strlen(r.slug);

			if (!prop_find(u, "compatible") && u->parent && prop_find(u->parent, "compatible"))
				u = u->parent;
			what = u->name;
			if (!strncmp(what, r.slug, sl) && what[sl] == '-' && what[sl + 1])
				what += sl + 1;
			pin_user_add(&users, &nusers, live_key(&r, u), u, what, &r.gpio[i].idx, 1);
		}
		/* one group per node of the board's tree, named by every copy of it */
		for (size_t i = 0; i < nusers; i++) {
			struct onode *g = resolve_group(&r, users[i].what, users[i].idx, users[i].n);

			for (size_t k = 0; g && k < users[i].ncopies; k++) {
				struct onode *u = users[i].copies[k];

				if (!prop_find(u, "pinctrl-names"))
					prop_str(u, "pinctrl-names", "default");
				prop_local_ref(&t, u, "pinctrl-0", g);
			}
		}
		/* the rest: a group no device names (pinctrl-single applies it to none) */
		n = 0;
		for (int i = 0; i < CAPE_NPINS; i++)
			if (resolve_wants(&r, i) && !b->board_pin[i]) {
				idx[n++] = i;
				if (unmuxed && b->pinmux)
					unmuxed[i] = true;
			}
		resolve_group(&r, "other", idx, n);
	}
	for (size_t i = 0; i < nusers; i++) {
		free(users[i].key);
		free(users[i].what);
		free(users[i].copies);
	}
	free(users);
	if (r.errors)
		rc = EXIT_DEF;
	else
		rc = serialize(&t, blob, outlen);
	for (size_t i = 0; i < t.nfix; i++) {
		free(t.fix[i].label);
		free(t.fix[i].prop);
	}
	free(t.fix);
	free(r.gpio);
	node_free(t.root);
	free(r.slug);
	return rc;
}

/* ---- what the device kinds build with (overlay-api.h) ---- */

const struct cape_def *ov_def(const struct bctx *c) { return c->d; }
const struct board *ov_board(const struct bctx *c) { return c->b; }
const char *ov_slug(const struct bctx *c) { return c->slug; }
void ov_err_key(struct bctx *c, const char *key) { c->err_key = key; }

void ov_err(struct bctx *c, const struct cape_dev *dv, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vberr(c, dv, fmt, ap);
	va_end(ap);
}

struct onode *ov_bus(struct bctx *c, const struct cape_dev *dv, const char *want)
{
	return bus_node(c, dv, want);
}

struct onode *ov_devices(struct bctx *c, const struct cape_dev *dv)
{
	return frag_on(c, dv, c->b->devices_target, "platform devices");
}

struct onode *ov_dev_node(struct bctx *c, const struct cape_dev *dv)
{
	const struct board_bus *bus = dv->bus ? board_find_bus(c->b, dv->bus) : NULL;
	const struct board_export *e;
	const char *base = dv->name, *target;
	struct onode *ov = NULL;
	char *name;

	if (!bus || dv->bad || (dv->type != DEV_I2C && dv->type != DEV_SPI))
		return NULL;
	target = bus->label;
	if (c->portable) {
		e = board_export_of(c->b, bus->label);
		if (!e)
			return NULL;
		target = e->name;
	}
	for (size_t i = 0; i < c->t->nfrags; i++)
		if (!strcmp(c->t->frags[i].target, target))
			ov = c->t->frags[i].ov;
	if (!ov)
		return NULL;
	if (!base) {
		base = strchr(dv->compatible, ',');
		base = base ? base + 1 : dv->compatible;
	}
	name = xasprintf("%s@%x", base, dv->type == DEV_I2C ? dv->address : dv->cs);
	ov = node_child(ov, name);
	free(name);
	return ov;
}

struct onode *ov_node(struct onode *parent, const char *name) { return node_new(parent, name); }
struct onode *ov_child(struct onode *parent, const char *name) { return node_child(parent, name); }
bool ov_has(struct onode *n, const char *prop) { return prop_find(n, prop) != NULL; }
void ov_str(struct onode *n, const char *prop, const char *s) { prop_str(n, prop, s); }
void ov_str_append(struct onode *n, const char *prop, const char *s)
{
	prop_append(n, prop, s, strlen(s) + 1);
}
void ov_u32(struct onode *n, const char *prop, uint32_t v) { prop_u32(n, prop, v); }
void ov_u32_append(struct onode *n, const char *prop, uint32_t v) { prop_append_u32(n, prop, v); }
void ov_flag(struct onode *n, const char *prop) { prop_set(n, prop, NULL, 0); }
void ov_raw(struct onode *n, const char *prop, const void *val, size_t len)
{
	prop_set(n, prop, val, len);
}

bool ov_unit_ref(struct bctx *c, const struct cape_dev *dv, struct onode *n, const char *prop,
		 const char *label)
{
	const struct board_export *e;

	if (!c->portable) {
		prop_ref(c->t, n, prop, label);
		return true;
	}
	e = board_export_of(c->b, label);
	if (!e) {
		char *names = board_export_list(c->b);

		ov_err(c, dv, "board %s's cape connector exports no name for %s (it exports: %s)",
		       c->b->name, label, names);
		free(names);
		return false;
	}
	prop_ref(c->t, n, prop, e->name);
	return true;
}

void ov_local_ref(struct bctx *c, struct onode *n, const char *prop, struct onode *to)
{
	prop_local_ref(c->t, n, prop, to);
}

bool ov_gpio(struct bctx *c, const struct cape_dev *dv, struct onode *n, const char *prop)
{
	return gpio_ref(c, dv, n, prop);
}
