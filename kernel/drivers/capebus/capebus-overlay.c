// SPDX-License-Identifier: GPL-2.0
/*
 * capebus: cape overlays.  Before a cape is added its overlay is checked
 * against the board's rules (no __symbols__, every fragment targets one of
 * the controller's cape targets, every label it refers to is a target or a
 * declared reference) and its exclusive-use pins are collected; nothing in
 * the live tree changes before the whole overlay passes.  Then the generic
 * cape driver applies it with of_overlay_fdt_apply() and removes it with
 * of_overlay_remove(), and failures of either are reported, not ignored.
 */

#include <linux/capebus.h>
#include <linux/ktime.h>
#include <linux/libfdt.h>
#include <linux/of.h>
#include <linux/of_fdt.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "capebus-internal.h"

struct capebus_overlay_ctx {
	struct cape_device *cape;
	struct device_node *root;
	struct device_node *fixups;
	struct device_node *local_fixups;
	char *why;
	size_t why_len;
};

static bool capebus_node_in(struct device_node *np, struct device_node **list,
			    unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (list[i] == np)
			return true;

	return false;
}

/* The live node a label of the base tree's __symbols__ names, or NULL. */
static struct device_node *capebus_label_node(const char *label)
{
	struct device_node *symbols, *np = NULL;
	const char *path;

	symbols = of_find_node_by_path("/__symbols__");
	if (!symbols)
		return NULL;
	if (!of_property_read_string(symbols, label, &path))
		np = of_find_node_by_path(path);
	of_node_put(symbols);

	return np;
}

/* The label whose __fixups__ entry patches @frag's target, or NULL. */
static const char *capebus_target_label(struct capebus_overlay_ctx *ctx,
					struct device_node *frag)
{
	struct property *prop;
	const char *s;
	char want[80];

	if (!ctx->fixups)
		return NULL;

	snprintf(want, sizeof(want), "/%s:target:0", kbasename(frag->full_name));
	for_each_property_of_node(ctx->fixups, prop) {
		if (!strcmp(prop->name, "name"))
			continue;
		for (s = of_prop_next_string(prop, NULL); s;
		     s = of_prop_next_string(prop, s))
			if (!strcmp(s, want))
				return prop->name;
	}

	return NULL;
}

/* Does __local_fixups__ say @frag's target is a phandle of the overlay? */
static bool capebus_target_is_local(struct capebus_overlay_ctx *ctx,
				    const char *frag_name)
{
	struct device_node *np;
	bool local;

	if (!ctx->local_fixups)
		return false;

	np = of_get_child_by_name(ctx->local_fixups, frag_name);
	local = np && of_property_present(np, "target");
	of_node_put(np);

	return local;
}

/*
 * The live node @frag targets, found the way the overlay code will find it
 * (a "target" phandle, resolved through __fixups__, else "target-path"),
 * with a reference; NULL and @ctx->why set if there is none.
 */
static struct device_node *capebus_fragment_target(struct capebus_overlay_ctx *ctx,
						   struct device_node *frag)
{
	const char *name = kbasename(frag->full_name);
	struct device_node *np;
	const char *label;
	const char *path;
	u32 phandle;

	if (!of_property_read_u32(frag, "target", &phandle)) {
		label = capebus_target_label(ctx, frag);
		if (label) {
			np = capebus_label_node(label);
			if (!np)
				snprintf(ctx->why, ctx->why_len,
					 "fragment %s targets &%s, which the board does not have",
					 name, label);
			return np;
		}
		if (capebus_target_is_local(ctx, name)) {
			snprintf(ctx->why, ctx->why_len,
				 "fragment %s targets a node of the overlay itself",
				 name);
			return NULL;
		}
		np = of_find_node_by_phandle(phandle);
		if (!np)
			snprintf(ctx->why, ctx->why_len,
				 "fragment %s targets phandle %#x, which the board does not have",
				 name, phandle);
		return np;
	}

	if (!of_property_read_string(frag, "target-path", &path)) {
		np = of_find_node_by_path(path);
		if (!np)
			snprintf(ctx->why, ctx->why_len,
				 "fragment %s targets %s, which the board does not have",
				 name, path);
		return np;
	}

	snprintf(ctx->why, ctx->why_len, "fragment %s has no target", name);
	return NULL;
}

static int capebus_check_fragments(struct capebus_overlay_ctx *ctx)
{
	struct capebus_controller *ctrl = ctx->cape->ctrl;
	struct device_node *target, *ov;
	unsigned int fragments = 0;

	for_each_child_of_node_scoped(ctx->root, frag) {
		ov = of_get_child_by_name(frag, "__overlay__");
		if (!ov)
			continue;	/* not a fragment: the overlay code skips it */
		of_node_put(ov);
		fragments++;

		target = capebus_fragment_target(ctx, frag);
		if (!target)
			return -EINVAL;
		if (!capebus_node_in(target, ctrl->targets, ctrl->num_targets)) {
			snprintf(ctx->why, ctx->why_len,
				 "fragment %s targets %s%pOF, which is not a cape target of %s",
				 kbasename(frag->full_name),
				 of_node_is_root(target) ? "/" : "", target,
				 dev_name(&ctrl->dev));
			of_node_put(target);
			return -EINVAL;
		}
		of_node_put(target);
	}

	if (!fragments) {
		snprintf(ctx->why, ctx->why_len, "overlay has no fragments");
		return -EINVAL;
	}

	return 0;
}

/* Every label the overlay refers to must be a cape target or reference. */
static int capebus_check_fixups(struct capebus_overlay_ctx *ctx)
{
	struct capebus_controller *ctrl = ctx->cape->ctrl;
	struct device_node *np;
	struct property *prop;
	bool ok;

	if (!ctx->fixups)
		return 0;

	for_each_property_of_node(ctx->fixups, prop) {
		if (!strcmp(prop->name, "name"))
			continue;
		np = capebus_label_node(prop->name);
		if (!np) {
			snprintf(ctx->why, ctx->why_len,
				 "overlay refers to &%s, which the board does not have",
				 prop->name);
			return -EINVAL;
		}
		ok = capebus_node_in(np, ctrl->targets, ctrl->num_targets) ||
		     capebus_node_in(np, ctrl->refs, ctrl->num_refs);
		of_node_put(np);
		if (!ok) {
			snprintf(ctx->why, ctx->why_len,
				 "overlay refers to &%s, which is not a cape target or reference of %s",
				 prop->name, dev_name(&ctrl->dev));
			return -EINVAL;
		}
	}

	return 0;
}

static int capebus_read_exclusive_use(struct capebus_overlay_ctx *ctx,
				      unsigned long *pins, bool *declared)
{
	struct property *prop;
	const char *s;
	int pin;

	*declared = of_property_present(ctx->root, "exclusive-use");

	of_property_for_each_string(ctx->root, "exclusive-use", prop, s) {
		pin = capebus_header_pin_index(ctx->cape->ctrl->header, s);
		if (pin < 0) {
			snprintf(ctx->why, ctx->why_len,
				 "exclusive-use names \"%s\", which is not a header pin",
				 s);
			return -EINVAL;
		}
		__set_bit(pin, pins);
	}

	return 0;
}

/**
 * capebus_overlay_check() - check a cape's overlay before it is added
 * @cape: the cape, with its overlay and controller set
 * @pins: bitmap (CAPEBUS_MAX_PINS) to set the overlay's exclusive-use pins in
 * @declared: set if the overlay has an exclusive-use property
 * @why: where to say what is wrong
 * @why_len: bytes at @why
 *
 * Works on a private unflattened copy: the live tree is not touched.
 *
 * Return: 0 or -EINVAL (@why says why) or -ENOMEM.
 */
int capebus_overlay_check(struct cape_device *cape, unsigned long *pins,
			  bool *declared, char *why, size_t why_len)
{
	struct capebus_overlay_ctx ctx = {
		.cape = cape,
		.why = why,
		.why_len = why_len,
	};
	struct device_node *symbols;
	void *mem;
	u32 size;
	int ret;

	if (cape->overlay_len < sizeof(struct fdt_header) ||
	    fdt_magic(cape->overlay) != FDT_MAGIC) {
		snprintf(why, why_len, "overlay is not a flattened device tree");
		return -EINVAL;
	}
	size = fdt_totalsize(cape->overlay);
	if (size > cape->overlay_len || size < sizeof(struct fdt_header)) {
		snprintf(why, why_len,
			 "overlay truncated: header says %u bytes, have %zu",
			 size, cape->overlay_len);
		return -EINVAL;
	}

	/* cape->overlay is kvmalloc()ed, so aligned as unflattening needs. */
	mem = of_fdt_unflatten_tree(cape->overlay, NULL, &ctx.root);
	if (!mem || !ctx.root) {
		kfree(mem);
		snprintf(why, why_len, "overlay is malformed");
		return -EINVAL;
	}

	symbols = of_get_child_by_name(ctx.root, "__symbols__");
	if (symbols) {
		of_node_put(symbols);
		snprintf(why, why_len,
			 "overlay has a __symbols__ node (built with dtc -@?)");
		ret = -EINVAL;
		goto out;
	}

	ctx.fixups = of_get_child_by_name(ctx.root, "__fixups__");
	ctx.local_fixups = of_get_child_by_name(ctx.root, "__local_fixups__");

	ret = capebus_check_fragments(&ctx);
	if (!ret)
		ret = capebus_check_fixups(&ctx);
	if (!ret)
		ret = capebus_read_exclusive_use(&ctx, pins, declared);

	of_node_put(ctx.local_fixups);
	of_node_put(ctx.fixups);
out:
	kfree(mem);
	return ret;
}

/**
 * capebus_overlay_apply() - apply a checked cape overlay
 * @cape: the cape; its device lock is held
 *
 * An apply that fails part-way is removed again; if even that fails the
 * device tree is left marked corrupt by the overlay code (every later apply
 * and removal fails with -EBUSY): that is reported loudly.
 *
 * Return: 0 or a negative errno; @cape->apply_why says what went wrong.
 */
int capebus_overlay_apply(struct cape_device *cape)
{
	ktime_t start = ktime_get();
	int id = 0, ret, ret2;

	cape->apply_why[0] = '\0';
	ret = of_overlay_fdt_apply(cape->overlay, cape->overlay_len, &id, NULL);
	cape->apply_ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	if (!ret) {
		cape->ovcs_id = id;
		dev_dbg(&cape->dev, "overlay %d applied in %llu us\n", id,
			div_u64(cape->apply_ns, NSEC_PER_USEC));
		return 0;
	}

	if (!id) {
		snprintf(cape->apply_why, sizeof(cape->apply_why), "error %d%s",
			 ret, ret == -EBUSY ?
			 " (device tree corrupt after an earlier failed overlay change)" :
			 "");
		dev_err(&cape->dev, "overlay not applied: %s\n", cape->apply_why);
		return ret;
	}

	/* Partly applied: take it back. */
	ret2 = of_overlay_remove(&id);
	if (ret2) {
		cape->ovcs_id = id;
		cape->overlay_stuck = true;
		snprintf(cape->apply_why, sizeof(cape->apply_why),
			 "error %d; removing the partial overlay failed (%d): tree corrupt",
			 ret, ret2);
	} else {
		snprintf(cape->apply_why, sizeof(cape->apply_why),
			 "error %d (partial overlay removed)", ret);
	}
	dev_err(&cape->dev, "overlay not applied: %s\n", cape->apply_why);

	return ret;
}

/**
 * capebus_overlay_revert() - remove a cape's applied overlay
 * @cape: the cape; its device lock is held (once the cape is unregistered,
 *	the controller's lock)
 * @quiet: do not log a failure (a retry, expected to fail at times)
 *
 * of_overlay_remove() refuses (-EBUSY) when a later overlay changed the same
 * nodes (two capes setting properties of one bus node, say) or the tree is
 * marked corrupt, and can fail half-way (tree marked corrupt).  Then the
 * cape's overlay is "stuck": its id is kept so that a later attempt can
 * retry (the core tries again after each overlay removal), and the core
 * keeps the cape's pins held.
 *
 * Return: 0 if the cape has no overlay applied any more, else -EBUSY.
 */
int capebus_overlay_revert(struct cape_device *cape, bool quiet)
{
	int id = cape->ovcs_id, ret;

	if (!id)
		return 0;

	ret = of_overlay_remove(&cape->ovcs_id);
	/* A non-zero id left means the overlay is still there. */
	cape->overlay_stuck = !!cape->ovcs_id;
	if (ret && !(quiet && cape->overlay_stuck))
		dev_err(&cape->dev,
			"overlay %d %s (error %d%s)\n", id,
			cape->overlay_stuck ?
			"could not be removed; its nodes and devices stay" :
			"removed, but a notifier failed",
			ret, ret == -EBUSY ?
			": a later overlay changed the same nodes, or the device tree is corrupt" :
			"");

	return cape->overlay_stuck ? -EBUSY : 0;
}
