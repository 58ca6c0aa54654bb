// SPDX-License-Identifier: GPL-2.0
/*
 * capebus: check an untrusted cape overlay, resolve it against the names
 * its connector exports, and write the blob the overlay code will apply.
 *
 * The blob comes from an EEPROM or from userspace.  Its structure, bounds,
 * phandles and declared references are checked here, before the kernel's
 * overlay code sees it (Documentation/capebus/threat-model.rst: Structure,
 * Bounds, References, Phandles), in two walks of the structure block: the
 * first checks every token, offset, name, nesting and limit without writing
 * anything, the second indexes it into arrays sized by what the first
 * counted, so no write depends on an assumption about the blob.  Each step
 * costs O(n log n) in the blob's size.
 *
 * The blob written has no __fixups__ (each resolved through the caller's
 * lookup: nothing is left for of_resolve_phandles() to look up in the
 * board's __symbols__), its own phandles renumbered 1..n, and its
 * __local_fixups__ (only the kernel knows the live tree's largest phandle).
 * The one edit of an existing node a cape may ask for, status = "okay" on
 * a target, is taken out of its fragment with the properties set beside it
 * and listed at the root, for capebus to make itself, counted and exactly
 * reverted (capebus-enable.c).
 *
 * What the overlay then does to the live tree is checked by the notifier
 * (capebus-overlay.c) on the tree the overlay code unflattened from this
 * very blob.
 */

#include <kunit/visibility.h>
#include <linux/bitmap.h>
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "capebus-fdt.h"

#define CB_FDT_MAGIC		0xd00dfeed
#define CB_FDT_HEADER_SIZE	40
#define CB_FDT_RSV_SIZE		16
#define CB_FDT_BEGIN_NODE	1
#define CB_FDT_END_NODE		2
#define CB_FDT_PROP		3
#define CB_FDT_NOP		4
#define CB_FDT_END		9

/* What an overlay's phandle property may not hold (the kernel skips it). */
#define CB_PHANDLE_ILLEGAL	0xffffffff

/*
 * Far above a real cape's (an LCD cape's overlay: ~40 nodes, ~200
 * properties), and low enough that what the kernel does with an overlay
 * stays short.  Its overlay code compares every changeset entry with every
 * later one on a node of the same name (find_dup_cset_prop(), two
 * kasprintf()s a pair): 2000 properties on nodes named alike took it 15
 * minutes in QEMU (an outside review), 504 took 35 s, so those pairs have
 * a bound of their own, 1024 (one node of 32 properties is 496).  Of the
 * 250 overlays in bb.org-overlays, the most on the nodes they add is 582
 * and the most properties in one node 24; one that sets 46 properties on
 * its targets (RoboticsCape, which no cape target allows) counts 1071.
 */
const struct capebus_fdt_limits capebus_fdt_cape_limits = {
	.max_size	= 32 * 1024,
	.max_nodes	= 256,
	.max_props	= 512,
	.max_node_props	= 32,
	.max_refs	= 256,
	.max_name_pairs	= 1024,
};
EXPORT_SYMBOL_IF_KUNIT(capebus_fdt_cape_limits);

/* Where a node sits in the overlay format. */
enum cb_kind {
	CB_ROOT,
	CB_FRAGMENT,	/* a child of the root other than the two below */
	CB_OVERLAY,	/* a fragment's __overlay__: stands for its target */
	CB_BODY,	/* below an __overlay__: a node the cape adds */
	CB_FIXUPS,	/* /__fixups__ */
	CB_LOCAL,	/* /__local_fixups__ and below */
	CB_OTHER,	/* below a fragment, not __overlay__ (refused) */
};

struct cb_node {
	const char *name;
	u32 name_len;
	int parent;
	u32 begin;		/* struct offset of its FDT_BEGIN_NODE */
	u32 end;		/* struct offset just past its FDT_END_NODE */
	u32 first_prop;		/* its properties: props[first_prop...] */
	u32 num_props;
	u32 first_child;	/* its children: children[first_child...] */
	u32 num_children;
	u32 phandle;		/* its phandle property, as the blob has it */
	u32 new_phandle;	/* what capebus renumbers it to, 0 if none */
	enum cb_kind kind;
	bool enables;		/* an __overlay__ whose status capebus takes */
};

struct cb_prop {
	int node;
	const char *name;
	u32 len;
	u32 value;		/* struct offset of the value */
};

struct cb_fdt {
	u8 *buf;		/* a private, writable copy of the blob */
	u32 size;
	u32 off_struct, size_struct;
	u32 off_strings, size_strings;
	const struct capebus_fdt_limits *lim;
	struct cb_node *nodes;
	u32 num_nodes;
	struct cb_prop *props;
	u32 num_props;
	u32 *children;		/* node indexes, each node's sorted by name */
	u32 *prop_order;	/* prop indexes, each node's sorted by name */
	u32 *phandles;		/* node indexes with a phandle, by phandle */
	u32 num_phandles;
	unsigned long *patched;	/* struct cells a reference patches */
	u32 *work;		/* num_nodes u32s for one step at a time */
	void *index;		/* the one allocation the arrays above are in */
	u32 num_refs;
	int fixups;		/* node index of /__fixups__, or -1 */
	int local_fixups;	/* node index of /__local_fixups__, or -1 */
	u32 enables[CAPEBUS_FDT_MAX_ENABLES];	/* target phandles, big-endian */
	unsigned int num_enables;
	u8 *tprops;		/* CAPEBUS_FDT_PROPS_PROP's records */
	u32 tprops_len;
	char *why;
	size_t why_len;
};

static u32 cb_be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static void cb_put_be32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static __printf(2, 3) int cb_bad(struct cb_fdt *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->why, f->why_len, fmt, ap);
	va_end(ap);

	return -EINVAL;
}

static u32 cb_align4(u32 n)
{
	return (n + 3) & ~3u;
}

static u8 *cb_struct(const struct cb_fdt *f)
{
	return f->buf + f->off_struct;
}

static const char *cb_name(const struct cb_fdt *f, int node)
{
	return node ? f->nodes[node].name : "/";
}

/* A block of @size bytes at @off lies within the blob, after the header. */
static bool cb_block_ok(u32 total, u32 off, u32 size)
{
	return off >= CB_FDT_HEADER_SIZE && off <= total && size <= total - off;
}

/* Do [a, a + alen) and [b, b + blen) share a byte? */
static bool cb_overlap(u32 a, u32 alen, u32 b, u32 blen)
{
	return alen && blen && a < b + blen && b < a + alen;
}

static int cb_fdt_header(struct cb_fdt *f, size_t len)
{
	u32 rsv;

	if (len < CB_FDT_HEADER_SIZE || cb_be32(f->buf) != CB_FDT_MAGIC)
		return cb_bad(f, "overlay is not a flattened device tree");

	f->size = cb_be32(f->buf + 4);
	if (f->size > len || f->size < CB_FDT_HEADER_SIZE)
		return cb_bad(f, "overlay truncated: header says %u bytes, have %zu",
			      f->size, len);
	if (cb_be32(f->buf + 20) < 17 || cb_be32(f->buf + 24) > 17)
		return cb_bad(f, "overlay is of flattened tree version %u, not 17",
			      cb_be32(f->buf + 20));

	f->off_struct = cb_be32(f->buf + 8);
	f->off_strings = cb_be32(f->buf + 12);
	rsv = cb_be32(f->buf + 16);
	f->size_strings = cb_be32(f->buf + 32);
	f->size_struct = cb_be32(f->buf + 36);

	if (!cb_block_ok(f->size, f->off_struct, f->size_struct) ||
	    f->off_struct % 4 || f->size_struct % 4 ||
	    !cb_block_ok(f->size, f->off_strings, f->size_strings) ||
	    !cb_block_ok(f->size, rsv, CB_FDT_RSV_SIZE) || rsv % 8)
		return cb_bad(f, "overlay's header points outside it");
	/*
	 * The blocks may not overlap: a name checked in the strings must not
	 * change when a reference is patched into a value in the structure
	 * (found by an outside review: "nameZZZZ" patched into "name").
	 */
	if (cb_overlap(f->off_struct, f->size_struct, f->off_strings, f->size_strings) ||
	    cb_overlap(f->off_struct, f->size_struct, rsv, CB_FDT_RSV_SIZE) ||
	    cb_overlap(f->off_strings, f->size_strings, rsv, CB_FDT_RSV_SIZE))
		return cb_bad(f, "overlay's blocks overlap");

	/* The kernel ignores an overlay's memory reservations: refuse any. */
	if (cb_be32(f->buf + rsv) || cb_be32(f->buf + rsv + 4) ||
	    cb_be32(f->buf + rsv + 8) || cb_be32(f->buf + rsv + 12))
		return cb_bad(f, "overlay reserves memory");

	return 0;
}

/*
 * An ASCII letter or digit: the kernel's isalnum() also takes the ISO
 * 8859-1 letters (0xc0-0xff), which the DT spec does not (found by the
 * fuzzer: "fr\xe1gment@0" passed).
 */
static bool cb_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* Characters the DT spec allows in node names (plus one '@'). */
static bool cb_node_name_ok(const char *s, size_t len)
{
	unsigned int at = 0;
	size_t i;

	if (!len || s[0] == '@')
		return false;
	for (i = 0; i < len; i++) {
		if (s[i] == '@') {
			at++;
			continue;
		}
		if (!cb_alnum(s[i]) && !strchr(",._+-", s[i]))
			return false;
	}

	return at <= 1;
}

static bool cb_prop_name_ok(const char *s, size_t len)
{
	size_t i;

	if (!len)
		return false;
	for (i = 0; i < len; i++)
		if (!cb_alnum(s[i]) && !strchr(",._+?#-", s[i]))
			return false;

	return true;
}

static enum cb_kind cb_kind_of(const struct cb_fdt *f, int parent,
			       const char *name)
{
	if (parent < 0)
		return CB_ROOT;
	switch (f->nodes[parent].kind) {
	case CB_ROOT:
		if (!strcmp(name, "__fixups__"))
			return CB_FIXUPS;
		if (!strcmp(name, "__local_fixups__"))
			return CB_LOCAL;
		return CB_FRAGMENT;
	case CB_FRAGMENT:
		return strcmp(name, "__overlay__") ? CB_OTHER : CB_OVERLAY;
	case CB_OVERLAY:
	case CB_BODY:
		return CB_BODY;
	default:
		return f->nodes[parent].kind;
	}
}

/*
 * The structure block, token by token.  The first walk (@fill false)
 * checks everything and counts nodes and properties; the second fills the
 * arrays allocated for exactly that many.
 */
struct cb_walk {
	int stack[CAPEBUS_FDT_MAX_DEPTH + 1];
	const char *names[CAPEBUS_FDT_MAX_DEPTH + 1];
	u32 props_at[CAPEBUS_FDT_MAX_DEPTH + 1];
	bool had_child[CAPEBUS_FDT_MAX_DEPTH + 1];
	int depth;
};

static int cb_walk_node(struct cb_fdt *f, struct cb_walk *w, bool fill,
			u32 at, u32 *off)
{
	const u8 *s = cb_struct(f);
	const char *name = (const char *)s + *off;
	u32 end = f->size_struct;
	size_t nlen = strnlen(name, end - *off);
	int parent = w->depth >= 0 ? w->stack[w->depth] : -1;
	struct cb_node *n;

	if (nlen == end - *off)
		return cb_bad(f, "overlay has an unterminated node name");
	if (w->depth < 0 && (f->num_nodes || nlen))
		return cb_bad(f, "overlay has more than one root");
	if (w->depth >= 0 && !cb_node_name_ok(name, nlen))
		return cb_bad(f, "node name \"%.*s\" is not allowed by the DT spec",
			      (int)min_t(size_t, nlen, 32), name);
	if (nlen > CAPEBUS_FDT_MAX_NAME)
		return cb_bad(f, "node name \"%.32s...\" is longer than %d characters",
			      name, CAPEBUS_FDT_MAX_NAME);
	if (w->depth == CAPEBUS_FDT_MAX_DEPTH)
		return cb_bad(f, "overlay nests nodes deeper than %d",
			      CAPEBUS_FDT_MAX_DEPTH);
	if (cb_align4(nlen + 1) > end - *off)
		return cb_bad(f, "overlay's structure is truncated");
	if (f->num_nodes == f->lim->max_nodes)
		return cb_bad(f, "overlay has more than %u nodes",
			      f->lim->max_nodes);

	if (fill) {
		n = &f->nodes[f->num_nodes];
		n->name = name;
		n->name_len = nlen;
		n->parent = parent;
		n->begin = at;
		n->first_prop = f->num_props;
		n->kind = cb_kind_of(f, parent, name);
	}
	if (w->depth >= 0)
		w->had_child[w->depth] = true;
	w->depth++;
	w->stack[w->depth] = f->num_nodes++;
	w->names[w->depth] = w->depth ? name : "/";
	w->props_at[w->depth] = 0;
	w->had_child[w->depth] = false;
	*off += cb_align4(nlen + 1);

	return 0;
}

static int cb_walk_prop(struct cb_fdt *f, struct cb_walk *w, bool fill,
			u32 *off)
{
	const u8 *s = cb_struct(f);
	u32 len, nameoff, end = f->size_struct;
	const char *name, *node;
	size_t nlen;
	struct cb_prop *p;

	if (w->depth < 0)
		return cb_bad(f, "overlay has a property outside any node");
	node = w->names[w->depth];
	if (end - *off < 8)
		return cb_bad(f, "overlay's structure is truncated");
	len = cb_be32(s + *off);
	nameoff = cb_be32(s + *off + 4);
	*off += 8;
	if (nameoff >= f->size_strings)
		return cb_bad(f, "overlay has a property name outside its strings");
	name = (const char *)f->buf + f->off_strings + nameoff;
	nlen = strnlen(name, f->size_strings - nameoff);
	if (nlen == f->size_strings - nameoff)
		return cb_bad(f, "overlay has an unterminated property name");
	if (!cb_prop_name_ok(name, nlen))
		return cb_bad(f,
			      "node %s has a property named \"%.*s\", which the DT spec does not allow",
			      node, (int)min_t(size_t, nlen, 32), name);
	/* libfdt, and so the kernel, does not see it: refuse it. */
	if (w->had_child[w->depth])
		return cb_bad(f, "property %s of node %s follows a subnode",
			      name, node);
	if (len > end - *off || cb_align4(len) > end - *off)
		return cb_bad(f, "property %s of node %s runs past the structure",
			      name, node);
	if (w->props_at[w->depth] == f->lim->max_node_props)
		return cb_bad(f, "node %s has more than %u properties",
			      node, f->lim->max_node_props);
	if (f->num_props == f->lim->max_props)
		return cb_bad(f, "overlay has more than %u properties",
			      f->lim->max_props);

	if (fill) {
		p = &f->props[f->num_props];
		p->node = w->stack[w->depth];
		p->name = name;
		p->len = len;
		p->value = *off;
		f->nodes[p->node].num_props++;
	}
	w->props_at[w->depth]++;
	f->num_props++;
	*off += cb_align4(len);

	return 0;
}

static int cb_fdt_walk(struct cb_fdt *f, bool fill)
{
	const u8 *s = cb_struct(f);
	u32 end = f->size_struct, off = 0, tag, at;
	struct cb_walk w = { .depth = -1 };
	bool done = false;
	int ret;

	f->num_nodes = 0;
	f->num_props = 0;
	while (off < end) {
		at = off;
		if (end - off < 4)
			return cb_bad(f, "overlay's structure is truncated");
		tag = cb_be32(s + off);
		off += 4;
		if (done && tag != CB_FDT_NOP)
			return cb_bad(f, "overlay has data after its end");
		/* As libfdt: the root closed, only the end may follow. */
		if (!done && w.depth < 0 && f->num_nodes && tag != CB_FDT_END)
			return cb_bad(f, "overlay has data after its root");

		switch (tag) {
		case CB_FDT_BEGIN_NODE:
			ret = cb_walk_node(f, &w, fill, at, &off);
			if (ret)
				return ret;
			break;
		case CB_FDT_PROP:
			ret = cb_walk_prop(f, &w, fill, &off);
			if (ret)
				return ret;
			break;
		case CB_FDT_END_NODE:
			if (w.depth < 0)
				return cb_bad(f, "overlay closes a node it never opened");
			if (fill)
				f->nodes[w.stack[w.depth]].end = off;
			w.depth--;
			break;
		case CB_FDT_NOP:
			break;
		case CB_FDT_END:
			if (w.depth >= 0 || !f->num_nodes)
				return cb_bad(f, "overlay ends inside a node");
			done = true;
			break;
		default:
			return cb_bad(f, "overlay has an unknown token %#x at %u",
				      tag, at);
		}
	}

	if (!done)
		return cb_bad(f, "overlay has no end token");

	return 0;
}

/* ---- the index: children and properties by name, nodes by phandle ------- */

static int cb_cmp_child(const void *a, const void *b, const void *priv)
{
	const struct cb_fdt *f = priv;
	const struct cb_node *x = &f->nodes[*(const u32 *)a];
	const struct cb_node *y = &f->nodes[*(const u32 *)b];

	return strcasecmp(x->name, y->name);
}

static int cb_cmp_prop(const void *a, const void *b, const void *priv)
{
	const struct cb_fdt *f = priv;

	return strcmp(f->props[*(const u32 *)a].name,
		      f->props[*(const u32 *)b].name);
}

static int cb_cmp_phandle(const void *a, const void *b, const void *priv)
{
	const struct cb_fdt *f = priv;
	u32 x = f->nodes[*(const u32 *)a].phandle;
	u32 y = f->nodes[*(const u32 *)b].phandle;

	return x < y ? -1 : x > y;
}

/*
 * Each node's children, sorted by name ignoring case as the kernel compares
 * node names (of_node_cmp()), so that two siblings it could not tell apart
 * are refused; each node's properties sorted by name, no two alike.
 */
static int cb_index(struct cb_fdt *f)
{
	u32 i, j, *fill;

	/* Children: a node's are contiguous, placed by counting. */
	for (i = 1; i < f->num_nodes; i++)
		f->nodes[f->nodes[i].parent].num_children++;
	for (i = 0, j = 0; i < f->num_nodes; i++) {
		f->nodes[i].first_child = j;
		j += f->nodes[i].num_children;
	}
	fill = f->work;
	memset(fill, 0, f->num_nodes * sizeof(*fill));
	for (i = 1; i < f->num_nodes; i++) {
		const struct cb_node *p = &f->nodes[f->nodes[i].parent];

		f->children[p->first_child + fill[f->nodes[i].parent]++] = i;
	}

	for (i = 0; i < f->num_props; i++)
		f->prop_order[i] = i;

	for (i = 0; i < f->num_nodes; i++) {
		const struct cb_node *n = &f->nodes[i];
		u32 *c = &f->children[n->first_child];
		u32 *p = &f->prop_order[n->first_prop];

		sort_r(c, n->num_children, sizeof(*c), cb_cmp_child, NULL, f);
		for (j = 1; j < n->num_children; j++)
			if (!strcasecmp(f->nodes[c[j - 1]].name, f->nodes[c[j]].name))
				return cb_bad(f, "node %s has two children named %s and %s",
					      cb_name(f, i), f->nodes[c[j - 1]].name,
					      f->nodes[c[j]].name);

		sort_r(p, n->num_props, sizeof(*p), cb_cmp_prop, NULL, f);
		for (j = 1; j < n->num_props; j++)
			if (!strcmp(f->props[p[j - 1]].name, f->props[p[j]].name))
				return cb_bad(f, "node %s has two properties named %s",
					      cb_name(f, i), f->props[p[j]].name);
	}

	return 0;
}

/* The child of @parent named exactly @name (@len bytes), or -1. */
static int cb_find_child(const struct cb_fdt *f, int parent, const char *name,
			 size_t len)
{
	const struct cb_node *n = &f->nodes[parent];
	const u32 *c = &f->children[n->first_child];
	u32 lo = 0, hi = n->num_children;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		const struct cb_node *m = &f->nodes[c[mid]];
		int cmp = strncasecmp(name, m->name, len);

		if (!cmp && m->name_len > len)
			cmp = -1;
		if (!cmp)
			/* One child at most matches ignoring case (cb_index()). */
			return m->name_len == len && !strncmp(name, m->name, len) ?
			       (int)c[mid] : -1;
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}

	return -1;
}

static const struct cb_prop *cb_find_prop(const struct cb_fdt *f, int node,
					  const char *name)
{
	const struct cb_node *n = &f->nodes[node];
	const u32 *p = &f->prop_order[n->first_prop];
	u32 lo = 0, hi = n->num_props;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		int cmp = strcmp(name, f->props[p[mid]].name);

		if (!cmp)
			return &f->props[p[mid]];
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}

	return NULL;
}

/* The node of the overlay whose phandle property is @ph, or -1. */
static int cb_find_phandle(const struct cb_fdt *f, u32 ph)
{
	u32 lo = 0, hi = f->num_phandles;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		u32 have = f->nodes[f->phandles[mid]].phandle;

		if (have == ph)
			return f->phandles[mid];
		if (ph < have)
			hi = mid;
		else
			lo = mid + 1;
	}

	return -1;
}

/* ---- what the overlay code will spend on it --------------------------- */

static u64 cb_pairs(u64 n)
{
	return n * (n ? n - 1 : 0) / 2;
}

/*
 * The overlay code checks its changeset for duplicates by comparing each
 * entry with every later one on a node of the same name, ignoring case
 * (drivers/of/overlay.c: find_dup_cset_node_entry(), find_dup_cset_prop()):
 * quadratic in the entries that share a node name.  Count those pairs as it
 * will meet them: the nodes the cape adds, and their properties, by name; a
 * fragment's own properties land on its target, whose name is not known
 * here, so they are counted as one group.
 */
static int cb_check_cost(struct cb_fdt *f)
{
	u64 pairs, target_props = 0, nodes, props;
	u32 *byname, n = 0, i, j;

	byname = f->work;
	for (i = 0; i < f->num_nodes; i++) {
		if (f->nodes[i].kind == CB_BODY)
			byname[n++] = i;
		else if (f->nodes[i].kind == CB_OVERLAY)
			target_props += f->nodes[i].num_props;
	}
	sort_r(byname, n, sizeof(*byname), cb_cmp_child, NULL, f);

	pairs = cb_pairs(target_props);
	for (i = 0; i < n; i = j) {
		nodes = 0;
		props = 0;
		for (j = i; j < n; j++) {
			if (strcasecmp(f->nodes[byname[i]].name,
				       f->nodes[byname[j]].name))
				break;
			nodes++;
			props += f->nodes[byname[j]].num_props;
		}
		pairs += cb_pairs(nodes) + cb_pairs(props);
	}

	if (pairs > f->lim->max_name_pairs)
		return cb_bad(f,
			      "overlay's nodes share names so that the overlay code would compare %llu pairs of their entries, more than the %u a cape may have",
			      pairs, f->lim->max_name_pairs);

	return 0;
}

/* ---- what may be where ---------------------------------------------------- */

static bool cb_base_is(const char *name, const char *base)
{
	const char *at = strchr(name, '@');
	size_t len = at ? at - name : strlen(name);

	return len == strlen(base) && !strncasecmp(name, base, len);
}

static int cb_check_fragment(struct cb_fdt *f, int frag)
{
	const struct cb_node *n = &f->nodes[frag];
	bool target = false, path = false;
	u32 i;

	for (i = 0; i < n->num_children; i++) {
		const struct cb_node *c = &f->nodes[f->children[n->first_child + i]];

		if (c->kind != CB_OVERLAY)
			return cb_bad(f,
				      "fragment %s has a node %s, which the overlay format does not define",
				      n->name, c->name);
	}
	if (n->num_children != 1)
		return cb_bad(f, "node %s at the root is not a fragment (no __overlay__)",
			      n->name);

	for (i = n->first_prop; i < n->first_prop + n->num_props; i++) {
		const struct cb_prop *p = &f->props[i];

		if (!strcmp(p->name, "target") && p->len == 4)
			target = true;
		else if (!strcmp(p->name, "target-path") && p->len &&
			 strnlen((const char *)cb_struct(f) + p->value, p->len) ==
			 p->len - 1)
			path = true;
		else
			return cb_bad(f,
				      "fragment %s has a property %s, which the overlay format does not define",
				      n->name, p->name);
	}
	if (target == path)
		return cb_bad(f, "fragment %s needs one target or target-path",
			      n->name);

	return 0;
}

/* The root holds fragments, __fixups__ and __local_fixups__ only. */
static int cb_check_root(struct cb_fdt *f)
{
	static const char * const meta[] = {
		"__fixups__", "__local_fixups__", "__symbols__", "__overlay__",
	};
	const struct cb_node *root = &f->nodes[0];
	unsigned int fragments = 0;
	u32 i, j;
	int ret;

	f->fixups = -1;
	f->local_fixups = -1;

	/* The root properties cb_emit() writes are capebus's: "capebus,..." */
	for (i = root->first_prop; i < root->first_prop + root->num_props; i++)
		if (!strncmp(f->props[i].name, "capebus,", 8))
			return cb_bad(f, "overlay sets %s, which capebus reserves",
				      f->props[i].name);

	for (i = 0; i < root->num_children; i++) {
		int c = f->children[root->first_child + i];
		const char *name = f->nodes[c].name;

		for (j = 0; j < ARRAY_SIZE(meta); j++)
			if (cb_base_is(name, meta[j]) && strcmp(name, meta[j]))
				return cb_bad(f,
					      "node %s at the root is not %s, but the kernel would take it for it",
					      name, meta[j]);
		if (!strcmp(name, "__symbols__"))
			return cb_bad(f, "overlay has a __symbols__ node (built with dtc -@?)");
		if (!strcmp(name, "__overlay__"))
			return cb_bad(f, "node __overlay__ at the root is not in a fragment");
		if (f->nodes[c].kind == CB_FIXUPS) {
			f->fixups = c;
			if (f->nodes[c].num_children)
				return cb_bad(f, "__fixups__ has a subnode");
			continue;
		}
		if (f->nodes[c].kind == CB_LOCAL) {
			f->local_fixups = c;
			continue;
		}
		ret = cb_check_fragment(f, c);
		if (ret)
			return ret;
		fragments++;
	}

	if (!fragments)
		return cb_bad(f, "overlay has no fragments");

	return 0;
}

static bool cb_is_cells(const char *name)
{
	size_t len = strlen(name);

	return name[0] == '#' && len > 6 && !strcmp(name + len - 6, "-cells");
}

/* The strings of a string list, counted as the OF core counts them. */
static u32 cb_count_strings(const u8 *val, u32 len)
{
	u32 i, n = 0;

	for (i = 0; i < len; i++)
		n += !val[i];

	return n + (len && val[len - 1]);
}

static bool cb_is_string_prop(const char *name)
{
	return !strcmp(name, "compatible") || !strcmp(name, "status") ||
	       !strcmp(name, "device_type") || !strcmp(name, "label");
}

/*
 * Properties the kernel reads specially, wherever they are: a phandle only
 * in the nodes a cape adds (4 bytes, neither 0 nor the kernel's "illegal"),
 * never "linux,phandle" or "ibm,phandle" (the kernel's unflattener takes
 * them for a phandle as well, the latter over "phandle") nor a "name" (the
 * kernel derives it from the node's); every "#...-cells" one cell, bounded.
 */
static int cb_check_props(struct cb_fdt *f)
{
	u32 i, v, max;

	for (i = 0; i < f->num_props; i++) {
		const struct cb_prop *p = &f->props[i];
		const struct cb_node *n = &f->nodes[p->node];
		const u8 *val = cb_struct(f) + p->value;

		/*
		 * Strings the OF core and the driver core read without a
		 * length (strcmp(), "%s" into uevents and modalias): each ends
		 * in a NUL here, as the overlay code copies exactly their
		 * bytes, and none overflows a uevent.
		 */
		max = strcmp(p->name, "compatible") ? CAPEBUS_FDT_MAX_LABEL :
		      CAPEBUS_FDT_MAX_COMPATIBLE_LEN;
		if (cb_is_string_prop(p->name) &&
		    (!p->len || val[p->len - 1] || p->len > max))
			return cb_bad(f,
				      "node %s has a %s that is no NUL-terminated string of at most %u bytes",
				      cb_name(f, p->node), p->name, max);
		if (!strcmp(p->name, "compatible") &&
		    cb_count_strings(val, p->len) > CAPEBUS_FDT_MAX_COMPATIBLES)
			return cb_bad(f,
				      "node %s has a compatible of more than %d strings or %d bytes",
				      cb_name(f, p->node), CAPEBUS_FDT_MAX_COMPATIBLES,
				      CAPEBUS_FDT_MAX_COMPATIBLE_LEN);
		if (!strcmp(p->name, "name") || !strcmp(p->name, "linux,phandle") ||
		    !strcmp(p->name, "ibm,phandle"))
			return cb_bad(f,
				      "node %s has a property %s, which cape overlays may not have",
				      cb_name(f, p->node), p->name);
		if (!strcmp(p->name, "phandle")) {
			if (n->kind != CB_BODY)
				return cb_bad(f,
					      "node %s has a phandle, but is not a node the overlay adds",
					      cb_name(f, p->node));
			if (p->len != 4 || !cb_be32(val) ||
			    cb_be32(val) == CB_PHANDLE_ILLEGAL)
				return cb_bad(f, "node %s has a phandle that is not one",
					      n->name);
			f->nodes[p->node].phandle = cb_be32(val);
			continue;
		}
		if (!cb_is_cells(p->name))
			continue;
		if (!strcmp(p->name, "#address-cells"))
			max = CAPEBUS_FDT_MAX_ADDRESS_CELLS;
		else if (!strcmp(p->name, "#size-cells"))
			max = CAPEBUS_FDT_MAX_SIZE_CELLS;
		else
			max = CAPEBUS_FDT_MAX_CELLS;
		v = p->len == 4 ? cb_be32(val) : U32_MAX;
		if (v > max)
			return cb_bad(f, "property %s of node %s is not one cell of at most %u",
				      p->name, cb_name(f, p->node), max);
	}

	return 0;
}

/*
 * The overlay's own phandles: no two alike, renumbered 1..n in node order.
 * The kernel adds the live tree's largest phandle to each (and to each
 * __local_fixups__ cell): small numbers cannot wrap onto a live node.
 */
static int cb_number_phandles(struct cb_fdt *f)
{
	u32 i;

	f->num_phandles = 0;
	for (i = 0; i < f->num_nodes; i++)
		if (f->nodes[i].phandle)
			f->phandles[f->num_phandles++] = i;
	sort_r(f->phandles, f->num_phandles, sizeof(*f->phandles),
	       cb_cmp_phandle, NULL, f);
	for (i = 1; i < f->num_phandles; i++)
		if (f->nodes[f->phandles[i - 1]].phandle ==
		    f->nodes[f->phandles[i]].phandle)
			return cb_bad(f, "nodes %s and %s have one phandle",
				      f->nodes[f->phandles[i - 1]].name,
				      f->nodes[f->phandles[i]].name);

	for (i = 0, f->num_phandles = 0; i < f->num_nodes; i++)
		if (f->nodes[i].phandle)
			f->nodes[i].new_phandle = ++f->num_phandles;

	return 0;
}

/*
 * Mark the cell at @offset of @p patched by a reference; refuse a cell
 * another reference patches, and references beyond the limit.
 */
static int cb_patch_cell(struct cb_fdt *f, const struct cb_prop *p, u32 offset,
			 const char *what)
{
	u32 cell;

	if (offset % 4 || offset > p->len || p->len - offset < 4)
		return cb_bad(f, "%s is outside property %s of %s", what,
			      p->name, cb_name(f, p->node));
	/* A phandle there would be a cell count, or a node's own phandle. */
	if (cb_is_cells(p->name) || !strcmp(p->name, "phandle"))
		return cb_bad(f, "%s patches property %s of %s, which holds no reference",
			      what, p->name, cb_name(f, p->node));
	cell = (p->value + offset) / 4;
	if (test_bit(cell, f->patched))
		return cb_bad(f, "two references patch cell %u of property %s of %s",
			      offset / 4, p->name, cb_name(f, p->node));
	if (f->num_refs == f->lim->max_refs)
		return cb_bad(f, "overlay has more than %u references",
			      f->lim->max_refs);
	__set_bit(cell, f->patched);
	f->num_refs++;

	return 0;
}

/*
 * One node of __local_fixups__ (@lf) and the node of the overlay it
 * describes (@node), as the kernel's adjust_local_phandle_references()
 * pairs them: every cell it lists must hold the phandle of a node the
 * overlay adds, in a property of a node the overlay adds.
 */
static int cb_local_fixups(struct cb_fdt *f, int lf, int node)
{
	const struct cb_node *l = &f->nodes[lf];
	u32 i, k;
	int ret;

	for (i = l->first_prop; i < l->first_prop + l->num_props; i++) {
		const struct cb_prop *lp = &f->props[i];
		const u8 *offs = cb_struct(f) + lp->value;
		const struct cb_prop *p;

		if (!lp->len || lp->len % 4)
			return cb_bad(f, "__local_fixups__ entry %s of %s is not a list of offsets",
				      lp->name, cb_name(f, node));
		if (f->nodes[node].kind != CB_BODY)
			return cb_bad(f,
				      "__local_fixups__ patches property %s of %s, which is not a node the overlay adds",
				      lp->name, cb_name(f, node));
		p = cb_find_prop(f, node, lp->name);
		if (!p)
			return cb_bad(f,
				      "__local_fixups__ names property %s of %s, which it does not have",
				      lp->name, cb_name(f, node));

		for (k = 0; k < lp->len; k += 4) {
			u32 offset = cb_be32(offs + k), ph;
			u8 *cell = cb_struct(f) + p->value + offset;
			int to;

			ret = cb_patch_cell(f, p, offset, "a local reference");
			if (ret)
				return ret;
			ph = cb_be32(cell);
			to = cb_find_phandle(f, ph);
			if (to < 0)
				return cb_bad(f,
					      "property %s of %s refers to phandle %#x, which no node of the overlay has",
					      p->name, cb_name(f, node), ph);
			cb_put_be32(cell, f->nodes[to].new_phandle);
		}
	}

	for (i = 0; i < l->num_children; i++) {
		int c = f->children[l->first_child + i];
		int o = cb_find_child(f, node, f->nodes[c].name,
				      f->nodes[c].name_len);

		if (o < 0)
			return cb_bad(f,
				      "__local_fixups__ names node %s of %s, which the overlay does not have",
				      f->nodes[c].name, cb_name(f, node));
		/*
		 * Not __fixups__ or __local_fixups__: the blob written has no
		 * __fixups__, and the kernel would look for it in vain.
		 */
		if (f->nodes[o].kind == CB_FIXUPS || f->nodes[o].kind == CB_LOCAL)
			return cb_bad(f,
				      "__local_fixups__ names node %s, which is no fragment",
				      f->nodes[c].name);
		ret = cb_local_fixups(f, c, o);
		if (ret)
			return ret;
	}

	return 0;
}

/* Is @p "okay" (or "ok"), as the kernel reads a status? */
static bool cb_okay(const struct cb_fdt *f, const struct cb_prop *p)
{
	const u8 *v = cb_struct(f) + p->value;

	return (p->len == 5 && !memcmp(v, "okay", 5)) ||
	       (p->len == 3 && !memcmp(v, "ok", 3));
}

/* The node at an absolute path of the overlay, names matched exactly. */
static int cb_node_by_path(const struct cb_fdt *f, const char *path,
			   size_t len)
{
	const char *p = path, *end = path + len, *slash;
	int node = 0;

	if (!len || *p != '/')
		return -1;
	p++;
	while (p < end && node >= 0) {
		slash = memchr(p, '/', end - p);
		if (!slash)
			slash = end;
		node = cb_find_child(f, node, p, slash - p);
		p = slash + (slash < end);
	}

	return node;
}

/* One "path:property:offset" entry of a __fixups__ label. */
static int cb_fixup_one(struct cb_fdt *f, const char *label, const char *ent,
			u32 phandle)
{
	const char *c1 = strchr(ent, ':'), *c2, *s;
	const struct cb_prop *p;
	char pname[64];
	u32 offset = 0;
	int node, ret;

	c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	if (!c2 || c2 == c1 + 1 || c2 - c1 - 1 >= (int)sizeof(pname) || !c2[1] ||
	    strlen(c2 + 1) > 7)
		return cb_bad(f, "fixup \"%.64s\" of &%s is not path:property:offset",
			      ent, label);
	for (s = c2 + 1; *s; s++) {
		if (!isdigit(*s))
			return cb_bad(f, "fixup \"%.64s\" of &%s has a bad offset",
				      ent, label);
		offset = offset * 10 + (*s - '0');
	}
	memcpy(pname, c1 + 1, c2 - c1 - 1);
	pname[c2 - c1 - 1] = '\0';

	node = cb_node_by_path(f, ent, c1 - ent);
	if (node <= 0)
		return cb_bad(f, "fixup of &%s names %.*s, which the overlay does not have",
			      label, (int)min_t(size_t, c1 - ent, 64), ent);
	p = cb_find_prop(f, node, pname);
	if (!p)
		return cb_bad(f, "fixup of &%s names property %s of %s, which it does not have",
			      label, pname, f->nodes[node].name);
	/*
	 * A node the cape adds, the target of a fragment, or a property a
	 * fragment sets on its target: taken out for capebus to set on a
	 * target the cape enables (cb_take_props()), refused by the
	 * notifier's targets and add only rules anywhere else.
	 */
	if (f->nodes[node].kind != CB_BODY &&
	    !(f->nodes[node].kind == CB_OVERLAY && strcmp(pname, "status")) &&
	    !(f->nodes[node].kind == CB_FRAGMENT && !strcmp(pname, "target")))
		return cb_bad(f,
			      "fixup of &%s patches %s of %s, which is not a node the overlay adds",
			      label, pname, f->nodes[node].name);
	ret = cb_patch_cell(f, p, offset, "a fixup");
	if (ret)
		return ret;

	cb_put_be32(cb_struct(f) + p->value + offset, phandle);

	return 0;
}

static int cb_resolve_fixups(struct cb_fdt *f, capebus_fdt_lookup_t lookup,
			     void *ctx)
{
	const struct cb_node *n;
	const char *ent, *val;
	u32 i, phandle, left;
	int ret;

	if (f->fixups < 0)
		return 0;
	n = &f->nodes[f->fixups];

	for (i = n->first_prop; i < n->first_prop + n->num_props; i++) {
		const struct cb_prop *p = &f->props[i];

		if (lookup(ctx, p->name, &phandle))
			return cb_bad(f,
				      "overlay refers to &%s, which the connector does not export",
				      p->name);
		val = (const char *)cb_struct(f) + p->value;
		if (!p->len || val[p->len - 1])
			return cb_bad(f, "fixups of &%s are not a string list",
				      p->name);
		for (ent = val, left = p->len; left;
		     left -= strlen(ent) + 1, ent += strlen(ent) + 1) {
			ret = cb_fixup_one(f, p->name, ent, phandle);
			if (ret)
				return ret;
		}
	}

	return 0;
}

/* The overlay's phandle properties get the numbers cb_number_phandles() gave. */
static void cb_renumber(struct cb_fdt *f)
{
	u32 i;

	for (i = 0; i < f->num_props; i++) {
		const struct cb_prop *p = &f->props[i];

		if (!strcmp(p->name, "phandle"))
			cb_put_be32(cb_struct(f) + p->value,
				    f->nodes[p->node].new_phandle);
	}
}

/* Overwrite @p, tag to value, with FDT_NOP tokens: every reader skips them. */
static void cb_nop_prop(struct cb_fdt *f, const struct cb_prop *p)
{
	u32 o;

	for (o = p->value - 12; o < p->value + cb_align4(p->len); o += 4)
		cb_put_be32(cb_struct(f) + o, CB_FDT_NOP);
}

/*
 * A fragment (by "target", after the fixups) that sets status = "okay" on
 * its target: record the target, take the property out.  Any other value,
 * or a target-path fragment, is left for the notifier to refuse as an edit.
 */
static int cb_take_enables(struct cb_fdt *f)
{
	u32 i, j, target;

	for (i = 0; i < f->num_props; i++) {
		const struct cb_prop *p = &f->props[i];
		const struct cb_prop *t;
		int ov = p->node;

		if (strcmp(p->name, "status") || f->nodes[ov].kind != CB_OVERLAY)
			continue;
		t = cb_find_prop(f, f->nodes[ov].parent, "target");
		if (!t || !cb_okay(f, p))
			continue;
		f->nodes[ov].enables = true;

		memcpy(&target, cb_struct(f) + t->value, sizeof(target));
		for (j = 0; j < f->num_enables; j++)
			if (f->enables[j] == target)
				break;
		if (j == f->num_enables) {
			if (j == CAPEBUS_FDT_MAX_ENABLES)
				return cb_bad(f, "overlay enables more than %d targets",
					      CAPEBUS_FDT_MAX_ENABLES);
			f->enables[f->num_enables++] = target;
		}
		cb_nop_prop(f, p);
	}

	return 0;
}

/* cb_take_props() leaves status (taken) and the cells the notifier checks. */
static bool cb_kept_prop(const char *name)
{
	return !strcmp(name, "status") || !strcmp(name, "#address-cells") ||
	       !strcmp(name, "#size-cells");
}

/*
 * The other properties of a fragment that enables its target, set on the
 * target: recorded at the root (CAPEBUS_FDT_PROPS_PROP), references
 * resolved, and overwritten with FDT_NOP tokens as its status is.  capebus
 * refuses them unless the connector lets capes set them on that target, and
 * sets them itself, before the status, reverted with it.
 */
static int cb_take_props(struct cb_fdt *f)
{
	u8 *s = cb_struct(f), *r;
	u32 i, len = 0;

	for (i = 0; i < f->num_props; i++) {
		const struct cb_prop *p = &f->props[i];
		const struct cb_node *ov = &f->nodes[p->node];

		if (!ov->enables || cb_kept_prop(p->name))
			continue;
		len += 8 + cb_align4(f->nodes[ov->parent].name_len + 1 +
				     strlen(p->name) + 1) + cb_align4(p->len);
	}
	if (!len)
		return 0;
	/*
	 * Each record repeats its fragment's and its property's names, which
	 * the blob may give once (red team round 12: 32 KiB made 1.3 MiB).
	 */
	if (len > CAPEBUS_FDT_MAX_TARGET_PROPS)
		return cb_bad(f, "target properties: their record takes %u bytes, more than %u",
			      len, CAPEBUS_FDT_MAX_TARGET_PROPS);
	f->tprops = kvzalloc(len, GFP_KERNEL);
	if (!f->tprops)
		return -ENOMEM;

	r = f->tprops;
	for (i = 0; i < f->num_props; i++) {
		const struct cb_prop *p = &f->props[i];
		const struct cb_node *ov = &f->nodes[p->node];
		const struct cb_node *frag;
		const struct cb_prop *t;
		size_t nlen = strlen(p->name);

		if (!ov->enables || cb_kept_prop(p->name))
			continue;
		frag = &f->nodes[ov->parent];
		t = cb_find_prop(f, ov->parent, "target");
		memcpy(r, s + t->value, 4);
		cb_put_be32(r + 4, p->len);
		r += 8;
		memcpy(r, frag->name, frag->name_len);
		memcpy(r + frag->name_len + 1, p->name, nlen);
		r += cb_align4(frag->name_len + 1 + nlen + 1);
		memcpy(r, s + p->value, p->len);
		r += cb_align4(p->len);
		cb_nop_prop(f, p);
	}
	f->tprops_len = len;

	return 0;
}

/*
 * The blob the overlay code gets: header, an empty reservation map, the
 * structure without /__fixups__ and with the list of targets to enable (if
 * any) as the root's first property, the strings with its name appended.
 */
static int cb_emit(struct cb_fdt *f, void **out, size_t *out_len)
{
	const u32 enable_len = f->num_enables ? sizeof(CAPEBUS_FDT_ENABLE_PROP) : 0;
	const u32 enable_prop = f->num_enables ? 12 + 4 * f->num_enables : 0;
	const u32 props_len = f->tprops_len ? sizeof(CAPEBUS_FDT_PROPS_PROP) : 0;
	const u32 props_prop = f->tprops_len ? 12 + f->tprops_len : 0;
	const struct cb_node *root = &f->nodes[0];
	u32 ins = root->begin + 8;	/* past BEGIN_NODE and the empty name */
	u32 skip_from = f->size_struct, skip_to = f->size_struct;
	u32 size_struct, off_struct, off_strings, total;
	const u8 *s = cb_struct(f);
	u8 *b, *d;

	if (f->fixups >= 0) {
		skip_from = f->nodes[f->fixups].begin;
		skip_to = f->nodes[f->fixups].end;
	}

	/* Leading NOPs are dropped: the root comes first. */
	size_struct = (ins - root->begin) + enable_prop + props_prop +
		      (skip_from - ins) + (f->size_struct - skip_to);
	off_struct = CB_FDT_HEADER_SIZE + CB_FDT_RSV_SIZE;
	off_strings = off_struct + size_struct;
	total = off_strings + f->size_strings + enable_len + props_len;

	b = kvzalloc(total, GFP_KERNEL);
	if (!b)
		return -ENOMEM;

	cb_put_be32(b, CB_FDT_MAGIC);
	cb_put_be32(b + 4, total);
	cb_put_be32(b + 8, off_struct);
	cb_put_be32(b + 12, off_strings);
	cb_put_be32(b + 16, CB_FDT_HEADER_SIZE);
	cb_put_be32(b + 20, 17);
	cb_put_be32(b + 24, 16);
	cb_put_be32(b + 32, f->size_strings + enable_len + props_len);
	cb_put_be32(b + 36, size_struct);

	d = b + off_struct;
	memcpy(d, s + root->begin, ins - root->begin);
	d += ins - root->begin;
	if (f->num_enables) {
		cb_put_be32(d, CB_FDT_PROP);
		cb_put_be32(d + 4, 4 * f->num_enables);
		cb_put_be32(d + 8, f->size_strings);
		memcpy(d + 12, f->enables, 4 * f->num_enables);
		d += enable_prop;
	}
	if (f->tprops_len) {
		cb_put_be32(d, CB_FDT_PROP);
		cb_put_be32(d + 4, f->tprops_len);
		cb_put_be32(d + 8, f->size_strings + enable_len);
		memcpy(d + 12, f->tprops, f->tprops_len);
		d += props_prop;
	}
	memcpy(d, s + ins, skip_from - ins);
	d += skip_from - ins;
	memcpy(d, s + skip_to, f->size_struct - skip_to);

	memcpy(b + off_strings, f->buf + f->off_strings, f->size_strings);
	memcpy(b + off_strings + f->size_strings, CAPEBUS_FDT_ENABLE_PROP,
	       enable_len);
	memcpy(b + off_strings + f->size_strings + enable_len,
	       CAPEBUS_FDT_PROPS_PROP, props_len);

	*out = b;
	*out_len = total;

	return 0;
}

static void cb_count(const struct cb_fdt *f, struct capebus_fdt_info *info)
{
	u32 i;

	memset(info, 0, sizeof(*info));
	for (i = 0; i < f->num_nodes; i++) {
		if (f->nodes[i].kind != CB_BODY)
			continue;
		info->nodes++;
		info->props += f->nodes[i].num_props;
	}
	info->phandles = f->num_phandles;
	info->refs = f->num_refs;
}

/* Bytes for @n items of @size, rounded up so that what follows is aligned. */
static size_t cb_span(size_t n, size_t size)
{
	size_t bytes = array_size(n, size);

	return bytes > SIZE_MAX - sizeof(long) ? SIZE_MAX : ALIGN(bytes, sizeof(long));
}

static void *cb_carve(u8 **at, size_t n, size_t size)
{
	void *p = *at;

	*at += cb_span(n, size);
	return p;
}

/*
 * The index arrays, zeroed, in one allocation rather than one each: with
 * the allocator's debugging on (kmemleak records every allocation's stack),
 * each allocation and free cost more than the walk that fills the array.
 */
static int cb_alloc(struct cb_fdt *f)
{
	size_t nodes = max_t(u32, f->num_nodes, 1), props = max_t(u32, f->num_props, 1);
	size_t cells = BITS_TO_LONGS(f->size_struct / 4 + 1);
	size_t total = 0;
	u8 *at;

	total = size_add(total, cb_span(nodes, sizeof(*f->nodes)));
	total = size_add(total, cb_span(props, sizeof(*f->props)));
	total = size_add(total, cb_span(nodes, sizeof(*f->children)));
	total = size_add(total, cb_span(props, sizeof(*f->prop_order)));
	total = size_add(total, cb_span(nodes, sizeof(*f->phandles)));
	total = size_add(total, cb_span(cells, sizeof(*f->patched)));
	total = size_add(total, cb_span(nodes, sizeof(*f->work)));
	f->index = kvzalloc(total, GFP_KERNEL);
	if (!f->index)
		return -ENOMEM;

	at = f->index;
	f->nodes = cb_carve(&at, nodes, sizeof(*f->nodes));
	f->props = cb_carve(&at, props, sizeof(*f->props));
	f->children = cb_carve(&at, nodes, sizeof(*f->children));
	f->prop_order = cb_carve(&at, props, sizeof(*f->prop_order));
	f->phandles = cb_carve(&at, nodes, sizeof(*f->phandles));
	f->patched = cb_carve(&at, cells, sizeof(*f->patched));
	f->work = cb_carve(&at, nodes, sizeof(*f->work));

	return 0;
}

static void cb_free(struct cb_fdt *f)
{
	kvfree(f->index);
	kvfree(f->tprops);
	kvfree(f->buf);
}

/**
 * capebus_fdt_resolve() - check a cape overlay and resolve it through exports
 * @blob: the overlay as it came (an EEPROM's or userspace's bytes)
 * @len: bytes at @blob
 * @limits: what the overlay may hold; NULL for capebus_fdt_cape_limits
 * @lookup: what an exported name stands for
 * @ctx: passed to @lookup
 * @out: where to store the resolved blob (kvfree() it)
 * @out_len: where to store its size
 * @info: where to store what the overlay holds, or NULL
 * @why: where to say what is wrong
 * @why_len: bytes at @why
 *
 * Return: 0; -EINVAL if the overlay is malformed, beyond @limits or refers
 * to a name that is not exported (@why says which rule it broke); -ENOMEM.
 */
int capebus_fdt_resolve(const void *blob, size_t len,
			const struct capebus_fdt_limits *limits,
			capebus_fdt_lookup_t lookup, void *ctx,
			void **out, size_t *out_len,
			struct capebus_fdt_info *info, char *why, size_t why_len)
{
	struct cb_fdt f = {
		.lim = limits ?: &capebus_fdt_cape_limits,
		.why = why,
		.why_len = why_len,
	};
	int ret;

	*out = NULL;
	*out_len = 0;
	if (why_len)
		why[0] = '\0';
	if (info)
		memset(info, 0, sizeof(*info));

	if (len > f.lim->max_size)
		return cb_bad(&f, "overlay is %zu bytes, more than the %u a cape may have",
			      len, f.lim->max_size);
	f.buf = kvmalloc(len ? len : 1, GFP_KERNEL);
	if (!f.buf)
		return -ENOMEM;
	memcpy(f.buf, blob, len);

	ret = cb_fdt_header(&f, len);
	if (!ret)
		ret = cb_fdt_walk(&f, false);
	if (!ret)
		ret = cb_alloc(&f);
	if (!ret)
		ret = cb_fdt_walk(&f, true);
	if (!ret)
		ret = cb_index(&f);
	if (!ret)
		ret = cb_check_cost(&f);
	if (!ret)
		ret = cb_check_root(&f);
	if (!ret)
		ret = cb_check_props(&f);
	if (!ret)
		ret = cb_number_phandles(&f);
	if (!ret && f.local_fixups >= 0)
		ret = cb_local_fixups(&f, f.local_fixups, 0);
	if (!ret)
		ret = cb_resolve_fixups(&f, lookup, ctx);
	if (!ret) {
		cb_renumber(&f);
		ret = cb_take_enables(&f);
	}
	if (!ret)
		ret = cb_take_props(&f);
	if (!ret)
		ret = cb_emit(&f, out, out_len);
	if (!ret && info)
		cb_count(&f, info);

	cb_free(&f);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(capebus_fdt_resolve);

/**
 * capebus_fdt_root_prop() - a property of the root of a resolved overlay
 * @fdt: a blob capebus_fdt_resolve() wrote
 * @name: the property
 * @len: where to store its length
 *
 * Return: the property's value, or NULL if the root has no such property.
 */
const void *capebus_fdt_root_prop(const void *fdt, const char *name, u32 *len)
{
	const u8 *b = fdt, *s = b + cb_be32(b + 8);
	const char *strings = (const char *)b + cb_be32(b + 12);
	u32 off = 8, plen;

	/* capebus_fdt_resolve() wrote: root first, its properties next. */
	for (;;) {
		if (cb_be32(s + off) == CB_FDT_NOP) {
			off += 4;
			continue;
		}
		if (cb_be32(s + off) != CB_FDT_PROP)
			break;
		plen = cb_be32(s + off + 4);
		if (!strcmp(strings + cb_be32(s + off + 8), name)) {
			*len = plen;
			return s + off + 12;
		}
		off += 12 + cb_align4(plen);
	}

	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(capebus_fdt_root_prop);

/**
 * capebus_fdt_target_prop() - a property a fragment sets on its target
 * @fdt: a blob capebus_fdt_resolve() wrote
 * @i: which (0 for the first)
 * @tp: where to store it; its pointers point into @fdt
 *
 * Return: 0, or -ENOENT if the overlay sets fewer than @i + 1.
 */
int capebus_fdt_target_prop(const void *fdt, unsigned int i,
			    struct capebus_fdt_target_prop *tp)
{
	u32 len = 0, at = 0, left, flen, nlen;
	const u8 *r;

	r = capebus_fdt_root_prop(fdt, CAPEBUS_FDT_PROPS_PROP, &len);
	if (!r)
		return -ENOENT;
	/* capebus_fdt_resolve() wrote it: every record is whole. */
	for (;;) {
		if (len - at < 8)
			return -ENOENT;
		left = len - at - 8;
		tp->target = cb_be32(r + at);
		tp->len = cb_be32(r + at + 4);
		tp->fragment = (const char *)r + at + 8;
		flen = strnlen(tp->fragment, left);
		if (flen + 1 >= left)
			return -ENOENT;
		tp->name = tp->fragment + flen + 1;
		nlen = strnlen(tp->name, left - flen - 1);
		if (cb_align4(flen + 1 + nlen + 1) + (u64)tp->len > left)
			return -ENOENT;
		tp->value = r + at + 8 + cb_align4(flen + 1 + nlen + 1);
		if (!i)
			return 0;
		i--;
		at += 8 + cb_align4(flen + 1 + nlen + 1) + cb_align4(tp->len);
	}
}
EXPORT_SYMBOL_IF_KUNIT(capebus_fdt_target_prop);
