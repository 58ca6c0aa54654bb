// SPDX-License-Identifier: GPL-2.0
/*
 * capebus: resolve an untrusted cape overlay against the names its
 * connector exports, and write the blob the overlay code will apply.
 *
 * The blob comes from an EEPROM or from userspace.  Before the kernel's
 * overlay code sees it, this file
 *  - checks it is a well-formed flattened tree: every offset inside the
 *    blob, every string terminated, tokens nested, properties before
 *    subnodes (libfdt, and so the kernel's unflattening, does not see a
 *    property that follows a subnode), names by the DT spec's characters,
 *    no two siblings and no two properties of a node with one name;
 *  - checks the root holds only what the overlay format defines:
 *    fragments (one "target" or "target-path", one "__overlay__" child),
 *    "__fixups__" and "__local_fixups__" ("__symbols__" is refused: a
 *    cape does not add labels to the board);
 *  - resolves every __fixups__ reference through the caller's lookup (the
 *    connector's exports), writing the phandle at exactly the offset the
 *    entry names, refusing entries that point into the overlay's metadata
 *    or at a location another entry also patches;
 *  - takes out of the fragments the one edit of an existing node a cape
 *    may ask for, status = "okay" on a target (enabling a header bus the
 *    board leaves disabled), and lists those targets at the root: capebus
 *    makes that edit itself, counted and exactly reverted, rather than
 *    through the overlay (whose removal would leak the property);
 *  - writes a new blob without __fixups__, so that nothing is left for
 *    the kernel's resolver (of_resolve_phandles()) to look up in the
 *    board's __symbols__, and with a cookie property at the root by which
 *    capebus's PRE_APPLY notifier knows the overlay for its own.
 * Phandles inside the overlay (__local_fixups__) are still renumbered by
 * the kernel: only it knows the live tree's largest phandle.
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
#include <linux/slab.h>
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

struct cb_node {
	const char *name;
	int parent;
	u32 begin;		/* struct offset of its FDT_BEGIN_NODE */
	u32 end;		/* struct offset just past its FDT_END_NODE */
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
	struct cb_node *nodes;
	unsigned int num_nodes;
	struct cb_prop *props;
	unsigned int num_props;
	int fixups;		/* node index of /__fixups__, or -1 */
	int local_fixups;	/* node index of /__local_fixups__, or -1 */
	u32 enables[CAPEBUS_FDT_MAX_ENABLES];	/* target phandles, big-endian */
	unsigned int num_enables;
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

static const u8 *cb_struct(const struct cb_fdt *f)
{
	return f->buf + f->off_struct;
}

/* A block of @size bytes at @off lies within the blob, after the header. */
static bool cb_block_ok(u32 total, u32 off, u32 size)
{
	return off >= CB_FDT_HEADER_SIZE && off <= total && size <= total - off;
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

	/* The kernel ignores an overlay's memory reservations: refuse any. */
	if (cb_be32(f->buf + rsv) || cb_be32(f->buf + rsv + 4) ||
	    cb_be32(f->buf + rsv + 8) || cb_be32(f->buf + rsv + 12))
		return cb_bad(f, "overlay reserves memory");

	return 0;
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
		if (!isalnum(s[i]) && !strchr(",._+-", s[i]))
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
		if (!isalnum(s[i]) && !strchr(",._+?#-", s[i]))
			return false;

	return true;
}

static int cb_add_node(struct cb_fdt *f, const char *name, int parent,
		       u32 begin)
{
	struct cb_node *n = &f->nodes[f->num_nodes];

	n->name = name;
	n->parent = parent;
	n->begin = begin;
	n->end = 0;

	return f->num_nodes++;
}

static int cb_walk_prop(struct cb_fdt *f, int node, bool after_child, u32 *off)
{
	const u8 *s = cb_struct(f);
	u32 len, nameoff, end = f->size_struct;
	const char *name;
	size_t nlen;
	struct cb_prop *p;

	if (node < 0)
		return cb_bad(f, "overlay has a property outside any node");
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
			      f->nodes[node].name, (int)min_t(size_t, nlen, 32), name);
	/* libfdt, and so the kernel, does not see it: refuse it. */
	if (after_child)
		return cb_bad(f, "property %s of node %s follows a subnode",
			      name, f->nodes[node].name);
	if (len > end - *off || cb_align4(len) > end - *off)
		return cb_bad(f, "property %s of node %s runs past the structure",
			      name, f->nodes[node].name);

	p = &f->props[f->num_props++];
	p->node = node;
	p->name = name;
	p->len = len;
	p->value = *off;
	*off += cb_align4(len);

	return 0;
}

static int cb_fdt_walk(struct cb_fdt *f)
{
	int stack[CAPEBUS_FDT_MAX_DEPTH + 1];
	bool had_child[CAPEBUS_FDT_MAX_DEPTH + 1];
	const u8 *s = cb_struct(f);
	u32 end = f->size_struct, off = 0, tag, at;
	int depth = -1, ret;
	bool done = false;
	const char *name;
	size_t nlen;

	while (off < end) {
		at = off;
		tag = cb_be32(s + off);
		off += 4;
		if (done && tag != CB_FDT_NOP)
			return cb_bad(f, "overlay has data after its end");

		switch (tag) {
		case CB_FDT_BEGIN_NODE:
			name = (const char *)s + off;
			nlen = strnlen(name, end - off);
			if (nlen == end - off)
				return cb_bad(f, "overlay has an unterminated node name");
			if (depth < 0 && (f->num_nodes || nlen))
				return cb_bad(f, "overlay has more than one root");
			if (depth >= 0 && !cb_node_name_ok(name, nlen))
				return cb_bad(f, "node name \"%.*s\" is not allowed by the DT spec",
					      (int)min_t(size_t, nlen, 32), name);
			if (depth == CAPEBUS_FDT_MAX_DEPTH)
				return cb_bad(f, "overlay nests nodes deeper than %d",
					      CAPEBUS_FDT_MAX_DEPTH);
			if (cb_align4(nlen + 1) > end - off)
				return cb_bad(f, "overlay's structure is truncated");
			if (depth >= 0)
				had_child[depth] = true;
			ret = cb_add_node(f, name, depth >= 0 ? stack[depth] : -1, at);
			stack[++depth] = ret;
			had_child[depth] = false;
			off += cb_align4(nlen + 1);
			break;
		case CB_FDT_PROP:
			ret = cb_walk_prop(f, depth >= 0 ? stack[depth] : -1,
					   depth >= 0 && had_child[depth], &off);
			if (ret)
				return ret;
			break;
		case CB_FDT_END_NODE:
			if (depth < 0)
				return cb_bad(f, "overlay closes a node it never opened");
			f->nodes[stack[depth--]].end = off;
			break;
		case CB_FDT_NOP:
			break;
		case CB_FDT_END:
			if (depth >= 0 || !f->num_nodes)
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

/* Length of a node name up to its unit address. */
static size_t cb_base_len(const char *name)
{
	const char *at = strchr(name, '@');

	return at ? at - name : strlen(name);
}

static bool cb_base_is(const char *name, const char *base)
{
	return cb_base_len(name) == strlen(base) &&
	       !strncmp(name, base, strlen(base));
}

/* No two siblings, and no two properties of one node, share a name. */
static int cb_check_unique(struct cb_fdt *f)
{
	unsigned int i, j;

	for (i = 1; i < f->num_nodes; i++)
		for (j = i + 1; j < f->num_nodes &&
		     f->nodes[j].begin < f->nodes[f->nodes[i].parent].end; j++)
			if (f->nodes[j].parent == f->nodes[i].parent &&
			    !strcmp(f->nodes[i].name, f->nodes[j].name))
				return cb_bad(f, "node %s has two children named %s",
					      f->nodes[i].parent ?
					      f->nodes[f->nodes[i].parent].name : "/",
					      f->nodes[i].name);

	/* A node's properties are consecutive in @props. */
	for (i = 0; i < f->num_props; i++)
		for (j = i + 1; j < f->num_props &&
		     f->props[j].node == f->props[i].node; j++)
			if (!strcmp(f->props[i].name, f->props[j].name))
				return cb_bad(f, "node %s has two properties named %s",
					      f->props[i].node ?
					      f->nodes[f->props[i].node].name : "/",
					      f->props[i].name);

	return 0;
}

static const struct cb_prop *cb_find_prop(const struct cb_fdt *f, int node,
					  const char *name)
{
	unsigned int i;

	for (i = 0; i < f->num_props; i++)
		if (f->props[i].node == node && !strcmp(f->props[i].name, name))
			return &f->props[i];

	return NULL;
}

static int cb_find_child(const struct cb_fdt *f, int parent, const char *name,
			 size_t len)
{
	unsigned int i;

	for (i = parent + 1; i < f->num_nodes; i++)
		if (f->nodes[i].parent == parent &&
		    strlen(f->nodes[i].name) == len &&
		    !strncmp(f->nodes[i].name, name, len))
			return i;

	return -1;
}

static int cb_check_fragment(struct cb_fdt *f, int frag)
{
	const char *name = f->nodes[frag].name;
	bool target = false, path = false;
	unsigned int i, children = 0;

	for (i = frag + 1; i < f->num_nodes; i++) {
		if (f->nodes[i].parent != frag)
			continue;
		if (strcmp(f->nodes[i].name, "__overlay__"))
			return cb_bad(f,
				      "fragment %s has a node %s, which the overlay format does not define",
				      name, f->nodes[i].name);
		children++;
	}
	if (children != 1)
		return cb_bad(f, "node %s at the root is not a fragment (no __overlay__)",
			      name);

	for (i = 0; i < f->num_props; i++) {
		const struct cb_prop *p = &f->props[i];

		if (p->node != frag)
			continue;
		if (!strcmp(p->name, "target") && p->len == 4)
			target = true;
		else if (!strcmp(p->name, "target-path") && p->len &&
			 strnlen((const char *)cb_struct(f) + p->value, p->len) ==
			 p->len - 1)
			path = true;
		else
			return cb_bad(f,
				      "fragment %s has a property %s, which the overlay format does not define",
				      name, p->name);
	}
	if (target == path)
		return cb_bad(f, "fragment %s needs one target or target-path", name);

	return 0;
}

/* The root holds fragments, __fixups__ and __local_fixups__ only. */
static int cb_check_root(struct cb_fdt *f)
{
	static const char * const meta[] = {
		"__fixups__", "__local_fixups__", "__symbols__", "__overlay__",
	};
	unsigned int i, j, fragments = 0;
	int ret;

	f->fixups = -1;
	f->local_fixups = -1;

	if (cb_find_prop(f, 0, CAPEBUS_FDT_COOKIE_PROP))
		return cb_bad(f, "overlay sets %s, which capebus reserves",
			      CAPEBUS_FDT_COOKIE_PROP);
	if (cb_find_prop(f, 0, CAPEBUS_FDT_ENABLE_PROP))
		return cb_bad(f, "overlay sets %s, which capebus reserves",
			      CAPEBUS_FDT_ENABLE_PROP);

	for (i = 1; i < f->num_nodes; i++) {
		const char *name = f->nodes[i].name;

		if (f->nodes[i].parent)
			continue;
		for (j = 0; j < ARRAY_SIZE(meta); j++)
			if (cb_base_is(name, meta[j]) && strcmp(name, meta[j]))
				return cb_bad(f,
					      "node %s at the root is not %s, but the kernel would take it for it",
					      name, meta[j]);
		if (!strcmp(name, "__symbols__"))
			return cb_bad(f, "overlay has a __symbols__ node (built with dtc -@?)");
		if (!strcmp(name, "__overlay__"))
			return cb_bad(f, "node __overlay__ at the root is not in a fragment");
		if (!strcmp(name, "__fixups__")) {
			f->fixups = i;
			continue;
		}
		if (!strcmp(name, "__local_fixups__")) {
			f->local_fixups = i;
			continue;
		}
		ret = cb_check_fragment(f, i);
		if (ret)
			return ret;
		fragments++;
	}

	if (!fragments)
		return cb_bad(f, "overlay has no fragments");

	return 0;
}

static bool cb_local_fixup_at(const struct cb_fdt *f, int node,
			      const char *prop, u32 offset);

/* A fragment whose target phandle __local_fixups__ renumbers: its own node. */
static int cb_check_self_targets(struct cb_fdt *f)
{
	unsigned int i;

	for (i = 1; i < f->num_nodes; i++)
		if (!f->nodes[i].parent && (int)i != f->fixups &&
		    (int)i != f->local_fixups &&
		    cb_local_fixup_at(f, i, "target", 0))
			return cb_bad(f, "fragment %s targets a node of the overlay itself",
				      f->nodes[i].name);

	return 0;
}

static bool cb_in_subtree(const struct cb_fdt *f, int node, int top)
{
	for (; node >= 0; node = f->nodes[node].parent)
		if (node == top)
			return true;

	return false;
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

/* Is (@node, @prop, @offset) a location __local_fixups__ also patches? */
static bool cb_local_fixup_at(const struct cb_fdt *f, int node,
			      const char *prop, u32 offset)
{
	int chain[CAPEBUS_FDT_MAX_DEPTH + 1], n = 0, lf = f->local_fixups;
	const struct cb_prop *p;
	u32 i;

	if (lf < 0)
		return false;
	for (; node > 0 && n <= CAPEBUS_FDT_MAX_DEPTH; node = f->nodes[node].parent)
		chain[n++] = node;
	while (n-- && lf >= 0)
		lf = cb_find_child(f, lf, f->nodes[chain[n]].name,
				   strlen(f->nodes[chain[n]].name));
	if (lf < 0)
		return false;
	p = cb_find_prop(f, lf, prop);
	if (!p)
		return false;
	for (i = 0; i + 4 <= p->len; i += 4)
		if (cb_be32(cb_struct(f) + p->value + i) == offset)
			return true;

	return false;
}

/* One "path:property:offset" entry of a __fixups__ label. */
static int cb_fixup_one(struct cb_fdt *f, const char *label, const char *ent,
			u32 phandle, unsigned long *done, unsigned int done_max)
{
	const char *c1 = strchr(ent, ':'), *c2, *s;
	const struct cb_prop *p;
	char pname[64];
	u32 offset = 0;
	unsigned int bit;
	int node;

	c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	if (!c2 || c2 == c1 + 1 || c2 - c1 - 1 >= (int)sizeof(pname) || !c2[1] ||
	    strlen(c2 + 1) > 7)
		return cb_bad(f, "fixup \"%s\" of &%s is not path:property:offset",
			      ent, label);
	for (s = c2 + 1; *s; s++) {
		if (!isdigit(*s))
			return cb_bad(f, "fixup \"%s\" of &%s has a bad offset",
				      ent, label);
		offset = offset * 10 + (*s - '0');
	}
	memcpy(pname, c1 + 1, c2 - c1 - 1);
	pname[c2 - c1 - 1] = '\0';

	node = cb_node_by_path(f, ent, c1 - ent);
	if (node <= 0)
		return cb_bad(f, "fixup of &%s names %.*s, which the overlay does not have",
			      label, (int)(c1 - ent), ent);
	if ((f->fixups >= 0 && cb_in_subtree(f, node, f->fixups)) ||
	    (f->local_fixups >= 0 && cb_in_subtree(f, node, f->local_fixups)))
		return cb_bad(f, "fixup of &%s points into the overlay's fixup tables",
			      label);
	p = cb_find_prop(f, node, pname);
	if (!p)
		return cb_bad(f, "fixup of &%s names property %s of %s, which it does not have",
			      label, pname, f->nodes[node].name);
	if (offset % 4 || offset > p->len || p->len - offset < 4)
		return cb_bad(f, "fixup of &%s is outside property %s of %s",
			      label, pname, f->nodes[node].name);

	/* Each cell at most once, and never one __local_fixups__ also patches. */
	bit = (p->value + offset) / 4;
	if (bit >= done_max || test_bit(bit, done) ||
	    cb_local_fixup_at(f, node, pname, offset))
		return cb_bad(f, "two fixups patch cell %u of property %s of %s",
			      offset / 4, pname, f->nodes[node].name);
	__set_bit(bit, done);

	cb_put_be32(f->buf + f->off_struct + p->value + offset, phandle);

	return 0;
}

static int cb_resolve_fixups(struct cb_fdt *f, capebus_fdt_lookup_t lookup,
			     void *ctx)
{
	unsigned int i, cells = f->size_struct / 4;
	unsigned long *done;
	const char *ent, *val;
	u32 phandle, left;
	int ret = 0;

	if (f->fixups < 0)
		return 0;

	done = bitmap_zalloc(cells, GFP_KERNEL);
	if (!done)
		return -ENOMEM;

	for (i = 0; i < f->num_props && !ret; i++) {
		const struct cb_prop *p = &f->props[i];

		if (p->node != f->fixups)
			continue;
		if (lookup(ctx, p->name, &phandle)) {
			ret = cb_bad(f,
				     "overlay refers to &%s, which the connector does not export",
				     p->name);
			break;
		}
		val = (const char *)cb_struct(f) + p->value;
		if (!p->len || val[p->len - 1]) {
			ret = cb_bad(f, "fixups of &%s are not a string list",
				     p->name);
			break;
		}
		for (ent = val, left = p->len; left && !ret;
		     left -= strlen(ent) + 1, ent += strlen(ent) + 1)
			ret = cb_fixup_one(f, p->name, ent, phandle, done, cells);
	}

	/* __fixups__ has no subnodes in the format. */
	for (i = f->fixups + 1; !ret && i < f->num_nodes; i++)
		if (f->nodes[i].parent == f->fixups)
			ret = cb_bad(f, "__fixups__ has a subnode %s",
				     f->nodes[i].name);

	bitmap_free(done);
	return ret;
}

/*
 * A fragment (by "target", after the fixups) that sets status = "okay" on
 * its target: record the target, and overwrite the property with FDT_NOP
 * tokens, which every reader of the format skips.  Any other value, or a
 * target-path fragment, is left for the notifier to refuse as an edit.
 */
static int cb_take_enables(struct cb_fdt *f)
{
	unsigned int i, j;
	u32 o, target;
	u8 *s = f->buf + f->off_struct;

	for (i = 0; i < f->num_props; i++) {
		const struct cb_prop *p = &f->props[i];
		const struct cb_prop *t;
		int ov = p->node, frag;

		if (strcmp(p->name, "status") || ov <= 0 ||
		    strcmp(f->nodes[ov].name, "__overlay__"))
			continue;
		frag = f->nodes[ov].parent;
		if (frag <= 0 || f->nodes[frag].parent != 0)
			continue;
		t = cb_find_prop(f, frag, "target");
		if (!t || !((p->len == 5 && !memcmp(s + p->value, "okay", 5)) ||
			    (p->len == 3 && !memcmp(s + p->value, "ok", 3))))
			continue;

		memcpy(&target, s + t->value, sizeof(target));
		for (j = 0; j < f->num_enables; j++)
			if (f->enables[j] == target)
				break;
		if (j == f->num_enables) {
			if (j == CAPEBUS_FDT_MAX_ENABLES)
				return cb_bad(f, "overlay enables more than %d targets",
					      CAPEBUS_FDT_MAX_ENABLES);
			f->enables[f->num_enables++] = target;
		}
		for (o = p->value - 12; o < p->value + cb_align4(p->len); o += 4)
			cb_put_be32(s + o, CB_FDT_NOP);
	}

	return 0;
}

/*
 * The blob the overlay code gets: header, an empty reservation map, the
 * structure without /__fixups__ and with the cookie (and the list of
 * targets to enable, if any) as the root's first properties, the strings
 * with their names appended.
 */
static int cb_emit(struct cb_fdt *f, u32 cookie, void **out, size_t *out_len)
{
	const u32 cookie_len = sizeof(CAPEBUS_FDT_COOKIE_PROP);
	const u32 enable_len = f->num_enables ? sizeof(CAPEBUS_FDT_ENABLE_PROP) : 0;
	const u32 enable_prop = f->num_enables ? 12 + 4 * f->num_enables : 0;
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
	size_struct = (ins - root->begin) + 16 + enable_prop +
		      (skip_from - ins) + (f->size_struct - skip_to);
	off_struct = CB_FDT_HEADER_SIZE + CB_FDT_RSV_SIZE;
	off_strings = off_struct + size_struct;
	total = off_strings + f->size_strings + cookie_len + enable_len;

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
	cb_put_be32(b + 32, f->size_strings + cookie_len + enable_len);
	cb_put_be32(b + 36, size_struct);

	d = b + off_struct;
	memcpy(d, s + root->begin, ins - root->begin);
	d += ins - root->begin;
	cb_put_be32(d, CB_FDT_PROP);
	cb_put_be32(d + 4, 4);
	cb_put_be32(d + 8, f->size_strings);
	cb_put_be32(d + 12, cookie);
	d += 16;
	if (f->num_enables) {
		cb_put_be32(d, CB_FDT_PROP);
		cb_put_be32(d + 4, 4 * f->num_enables);
		cb_put_be32(d + 8, f->size_strings + cookie_len);
		memcpy(d + 12, f->enables, 4 * f->num_enables);
		d += enable_prop;
	}
	memcpy(d, s + ins, skip_from - ins);
	d += skip_from - ins;
	memcpy(d, s + skip_to, f->size_struct - skip_to);

	memcpy(b + off_strings, f->buf + f->off_strings, f->size_strings);
	memcpy(b + off_strings + f->size_strings, CAPEBUS_FDT_COOKIE_PROP,
	       cookie_len);
	memcpy(b + off_strings + f->size_strings + cookie_len,
	       CAPEBUS_FDT_ENABLE_PROP, enable_len);

	*out = b;
	*out_len = total;

	return 0;
}

/**
 * capebus_fdt_resolve() - check a cape overlay and resolve it through exports
 * @blob: the overlay as it came (an EEPROM's or userspace's bytes)
 * @len: bytes at @blob
 * @lookup: what an exported name stands for
 * @ctx: passed to @lookup
 * @cookie: the value of the root's CAPEBUS_FDT_COOKIE_PROP in the result
 * @out: where to store the resolved blob (kvfree() it)
 * @out_len: where to store its size
 * @why: where to say what is wrong
 * @why_len: bytes at @why
 *
 * Return: 0; -EINVAL if the overlay is malformed or refers to a name that is
 * not exported (@why says which rule it broke); -ENOMEM.
 */
int capebus_fdt_resolve(const void *blob, size_t len,
			capebus_fdt_lookup_t lookup, void *ctx, u32 cookie,
			void **out, size_t *out_len, char *why, size_t why_len)
{
	struct cb_fdt f = { .why = why, .why_len = why_len };
	int ret;

	*out = NULL;
	*out_len = 0;
	if (why_len)
		why[0] = '\0';

	f.buf = kvmalloc(len ? len : 1, GFP_KERNEL);
	if (!f.buf)
		return -ENOMEM;
	memcpy(f.buf, blob, len);

	ret = cb_fdt_header(&f, len);
	if (ret)
		goto out;

	/* Every node takes 12 bytes or more, every property 12 or more. */
	f.nodes = kvmalloc_array(f.size_struct / 12 + 1, sizeof(*f.nodes),
				 GFP_KERNEL);
	f.props = kvmalloc_array(f.size_struct / 12 + 1, sizeof(*f.props),
				 GFP_KERNEL);
	if (!f.nodes || !f.props) {
		ret = -ENOMEM;
		goto out;
	}

	ret = cb_fdt_walk(&f);
	if (!ret)
		ret = cb_check_unique(&f);
	if (!ret)
		ret = cb_check_root(&f);
	if (!ret)
		ret = cb_check_self_targets(&f);
	if (!ret)
		ret = cb_resolve_fixups(&f, lookup, ctx);
	if (!ret)
		ret = cb_take_enables(&f);
	if (!ret)
		ret = cb_emit(&f, cookie, out, out_len);
out:
	kvfree(f.props);
	kvfree(f.nodes);
	kvfree(f.buf);
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
