// SPDX-License-Identifier: GPL-2.0
/*
 * capebus: header buses the board leaves disabled, enabled for the capes
 * that ask.
 *
 * The one edit of an existing node a cape overlay may ask for is
 * status = "okay" on a cape target (a bus behind header pins that the board
 * leaves disabled until a cape uses it); capebus-fdt.c takes it out of the
 * overlay.  Made by the overlay, it would be a property the overlay code
 * replaces on a node of the base tree: removing the overlay could not free
 * the new property, and the overlay code warns so ("memory leak will occur
 * if overlay removed").  Here it is a changeset of capebus's own, applied
 * for the first cape that asks and reverted after the last one goes, so the
 * target's status is exactly what it was.  A cape's targets are reserved
 * (their rules checked, their pins held) before its overlay is applied, and
 * enabled only once the whole overlay has passed every rule: a refused
 * cape never probes a bus.
 *
 * A target the board leaves disabled is the capes' that enable it: the
 * notifier refuses a fragment of any other cape there (capebus-overlay.c).
 * A cape joins a target another cape enabled by stating status = "okay"
 * too, and counts as one more of its users.
 *
 * A cape that enables a target may set the properties the connector lets
 * capes set on it (target-properties: an RS-485 UART's rts-gpios,
 * rs485-rts-delay, ...), and no other.  capebus-fdt.c takes them out of the
 * overlay with the status; they go into the same changeset, before the
 * status, so that they are in the tree when the device the status creates
 * probes, and are reverted with it.  Only the cape that enables the target
 * sets them (not one asking for a target the board enables: its device
 * probed already), and a target carrying them has no other user.  Each
 * distinct value, "okay" too, is allocated once and kept: once the tree
 * has had a property, the OF core keeps it on the node's deadprops when it
 * is removed (and takes it off again when it is set anew), and frees it
 * only with the node, never for a node of the board's (of_get_property()
 * hands out pointers into it without a reference).  So the values are
 * bounded: CAPEBUS_ENABLE_MAX_VALUES per
 * property of a target, after which a cape stating another value is
 * refused, before anything is enabled, and one stating a kept value loads.
 * A value the tree never had (its cape was refused before the enable) is
 * freed with the changeset that held it.
 *
 * Capes share an enabled bus by address (or chip select: the overlay rules'
 * "bus addresses"), with its pads muxed once.  The cape that enables a bus
 * muxes the pads behind its pins from its pin words, and the bus records
 * those words.  A cape asking for the bus while it is enabled may state the
 * same words for those pins: its controller does not mux them again
 * (cape->shared_pins), and they are the bus's, not the cape's.  Any other
 * word for one of them is refused.  The pads keep their setting while the
 * bus is enabled, whichever of its capes goes first.
 */

#include <linux/capebus.h>
#include <linux/err.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "capebus-fdt.h"
#include "capebus-internal.h"

/*
 * One target capebus enabled once.  @users, @applied and @cs change under
 * both its @lock and capebus_enable_lock, and are read under either; the
 * rest is capebus_enable_lock's.  @lock is held across a change of the
 * target in the tree (capebus-target.c: its probe and remove), so that
 * only capes asking for this target wait for it; capebus_enable_lock is
 * held for short sections only.  An entry stays until the module goes.
 */
struct capebus_enable {
	struct list_head node;
	struct device_node *np;
	struct mutex lock;	/* see above: changes of the target */
	unsigned int users;
	struct of_changeset cs;	/* built while @users, in the tree if @applied */
	bool applied;
	struct capebus_controller *ctrl;	/* while @bus is held */
	struct capebus_claim bus;	/* the target's pins, while enabled */
	char holder[48];
	/* While @bus is held: the pin words its pads were muxed with, by whom */
	struct capebus_pin_words words;
	char muxer[48];		/* "" once it is gone */
	/* The cape whose properties the enable set, if any: it is that cape's */
	char setter[48];
	struct list_head props;	/* capebus_enable_prop: values set, kept */
};

/*
 * The distinct values of one property of one target capebus keeps: each
 * stays with the node for good once set (see above), so a cape asking for
 * another is refused, naming the property and this bound.
 */
#define CAPEBUS_ENABLE_MAX_VALUES	16

/* A property value capebus set on an enabled target, kept for reuse. */
struct capebus_enable_prop {
	struct list_head node;
	struct property *prop;
	bool in_tree;		/* live, or on the node's deadprops */
};

/*
 * Protects capebus_enables and its entries' fields; inside an entry's lock,
 * outside a controller's lock.  Never held across a changeset or a probe.
 */
static DEFINE_MUTEX(capebus_enable_lock);
static LIST_HEAD(capebus_enables);

/* @np's entry (one per node), or NULL.  capebus_enable_lock held. */
static struct capebus_enable *capebus_enable_find(struct device_node *np)
{
	struct capebus_enable *e;

	list_for_each_entry(e, &capebus_enables, node)
		if (e->np == np)
			return e;

	return NULL;
}

/* A property capebus sets on a target: @name = @len bytes at @value. */
static struct property *capebus_enable_new_prop(const char *name,
						const void *value, int len)
{
	struct property *prop = kzalloc(sizeof(*prop), GFP_KERNEL);

	if (!prop)
		return NULL;
	prop->name = kstrdup(name, GFP_KERNEL);
	prop->value = kmemdup(value, len ?: 1, GFP_KERNEL);
	prop->length = len;
	if (!prop->name || !prop->value) {
		kfree(prop->name);
		kfree(prop->value);
		kfree(prop);
		return NULL;
	}

	return prop;
}

static void capebus_enable_free_prop(struct property *prop)
{
	kfree(prop->name);
	kfree(prop->value);
	kfree(prop);
}

static struct capebus_enable *capebus_enable_of(struct device_node *np)
{
	struct capebus_enable *e = capebus_enable_find(np);

	if (e)
		return e;

	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return NULL;
	e->np = of_node_get(np);
	mutex_init(&e->lock);
	INIT_LIST_HEAD(&e->props);
	list_add(&e->node, &capebus_enables);

	return e;
}

/*
 * Hold the header pins behind target @t for it while it is enabled: they
 * are the bus's, shared by the capes that enabled it, refused to others.
 * ctrl->lock is innermost: taken here under capebus_enable_lock.
 */
static int capebus_enable_claim(struct capebus_enable *e,
				struct capebus_controller *ctrl,
				const struct capebus_target *t,
				char *why, size_t why_len)
{
	char held[CAPEBUS_REASON_LEN];
	int ret;

	if (bitmap_empty(t->pins, CAPEBUS_MAX_PINS))
		return 0;
	memset(&e->bus, 0, sizeof(e->bus));
	bitmap_copy(e->bus.pins, t->pins, CAPEBUS_MAX_PINS);
	snprintf(e->holder, sizeof(e->holder), "bus %s", t->name);
	e->bus.holder = e->holder;
	scoped_guard(mutex, &ctrl->lock)
		ret = capebus_resources_claim(ctrl->res, &e->bus, held,
					      sizeof(held));
	if (ret < 0) {
		snprintf(why, why_len, "targets: enabling %s: %s", t->name, held);
		return -EBUSY;
	}
	e->ctrl = ctrl;
	get_device(&ctrl->dev);

	return 0;
}

static void capebus_enable_unclaim(struct capebus_enable *e)
{
	if (!e->ctrl)
		return;
	scoped_guard(mutex, &e->ctrl->lock)
		capebus_resources_release(e->ctrl->res, &e->bus);
	put_device(&e->ctrl->dev);
	e->ctrl = NULL;
}

/*
 * The first cape to enable the bus behind @t muxed its pads from its pin
 * words: record them, and whose they were.  capebus_enable_lock held.
 */
static void capebus_enable_record(struct capebus_enable *e,
				  const struct cape_device *cape,
				  const struct capebus_target *t)
{
	unsigned int pin;

	bitmap_and(e->words.muxed, t->pins, cape->info->pins, CAPEBUS_MAX_PINS);
	for_each_set_bit(pin, e->words.muxed, CAPEBUS_MAX_PINS)
		strscpy(e->words.word[pin], cape->info->pin_setting[pin]);
	strscpy(e->muxer, cape->holder);
}

/* Who enabled @e's target, for refusals: not a cape that is gone. */
static const char *capebus_enable_by(const struct capebus_enable *e)
{
	return e->muxer[0] ? e->muxer : "a cape since removed";
}

/*
 * Why the cape cannot share the pad behind @pin of the bus @e enables (its
 * pin word differs from the bus's, or the bus's pad was not muxed).
 */
static void capebus_enable_refuse_pin(const struct capebus_enable *e,
				      const struct capebus_controller *ctrl,
				      const struct capebus_target *t,
				      unsigned int pin, const char *setting,
				      char *why, size_t why_len)
{
	const char *name = ctrl->header->pin_names[pin];

	if (test_bit(pin, e->words.muxed))
		snprintf(why, why_len,
			 "pin %s is held by bus %s, which another cape enabled: %s muxed it \"%s\", not \"%s\"",
			 name, t->name, capebus_enable_by(e), e->words.word[pin],
			 setting);
	else
		snprintf(why, why_len,
			 "pin %s is held by bus %s, which another cape enabled: %s left its pad as it was",
			 name, t->name, capebus_enable_by(e));
}

/*
 * A cape joining the bus @e enables: the pins of @t whose pads it leaves
 * to the bus (cape->shared_pins) must have been muxed with its words; if
 * the bus is no longer enabled, they are not muxed at all.  Checked by
 * capebus_overlay_bus_pins() when the cape was added; checked again here
 * since the capes that enabled the bus may have gone since.
 * capebus_enable_lock held.
 */
static int capebus_enable_join(struct capebus_enable *e,
			       const struct cape_device *cape,
			       const struct capebus_target *t,
			       char *why, size_t why_len)
{
	DECLARE_BITMAP(shared, CAPEBUS_MAX_PINS);
	unsigned int pin;

	if (!bitmap_and(shared, t->pins, cape->shared_pins, CAPEBUS_MAX_PINS))
		return 0;
	if (!e->users || !e->ctrl) {
		snprintf(why, why_len,
			 "targets: bus %s, whose pads it shares, is no longer enabled: pin %s is not muxed",
			 t->name,
			 cape->ctrl->header->pin_names[find_first_bit(shared,
								      CAPEBUS_MAX_PINS)]);
		return -EBUSY;
	}
	for_each_set_bit(pin, shared, CAPEBUS_MAX_PINS) {
		const char *setting = cape->info->pin_setting[pin];

		if (!capebus_bus_pin_shareable(&e->words, pin, setting)) {
			capebus_enable_refuse_pin(e, cape->ctrl, t, pin, setting,
						  why, why_len);
			return -EBUSY;
		}
	}

	return 0;
}

/*
 * The property @tp sets, as a property capebus owns: one it kept with that
 * value (no changeset of @e holds it now), or a new one, kept, unless the
 * property has had CAPEBUS_ENABLE_MAX_VALUES already (-ENOSPC).
 * capebus_enable_lock held.
 */
static struct capebus_enable_prop *
capebus_enable_prop_of(struct capebus_enable *e,
		       const struct capebus_fdt_target_prop *tp)
{
	struct capebus_enable_prop *k;
	unsigned int values = 0;

	list_for_each_entry(k, &e->props, node) {
		if (strcmp(k->prop->name, tp->name))
			continue;
		if (k->prop->length == tp->len &&
		    !memcmp(k->prop->value, tp->value, tp->len))
			return k;
		values++;
	}
	if (values >= CAPEBUS_ENABLE_MAX_VALUES)
		return ERR_PTR(-ENOSPC);

	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return ERR_PTR(-ENOMEM);
	k->prop = capebus_enable_new_prop(tp->name, tp->value, tp->len);
	if (!k->prop) {
		kfree(k);
		return ERR_PTR(-ENOMEM);
	}
	list_add(&k->node, &e->props);

	return k;
}

static void capebus_enable_prop_free(struct capebus_enable_prop *k)
{
	list_del(&k->node);
	/* A property the tree has seen stays with the node. */
	if (!k->in_tree)
		capebus_enable_free_prop(k->prop);
	kfree(k);
}

/*
 * Once @e's changeset is destroyed: the values it held that never reached
 * the tree go, so that refused capes leave nothing behind and count for
 * nothing against CAPEBUS_ENABLE_MAX_VALUES.  capebus_enable_lock held.
 */
static void capebus_enable_forget_unset(struct capebus_enable *e)
{
	struct capebus_enable_prop *k, *next;

	list_for_each_entry_safe(k, next, &e->props, node)
		if (!k->in_tree)
			capebus_enable_prop_free(k);
}

/* @np's property @tp, a value kept for it, into @e's changeset. */
static int capebus_enable_set(struct capebus_enable *e, struct device_node *np,
			      const struct capebus_fdt_target_prop *tp)
{
	struct capebus_enable_prop *k = capebus_enable_prop_of(e, tp);

	if (IS_ERR(k))
		return PTR_ERR(k);
	if (of_property_present(np, tp->name))
		return of_changeset_update_property(&e->cs, np, k->prop);
	return of_changeset_add_property(&e->cs, np, k->prop);
}

/*
 * The properties @cape's overlay sets on @np, into @e's changeset: each the
 * connector lets capes set (capebus_overlay_check_props()), then the status
 * (the changeset's notifiers run once every entry is in the tree, so the
 * device the status creates probes with them).  Returns how many of the
 * cape's through @n.  capebus_enable_lock held.
 */
static int capebus_enable_props(struct capebus_enable *e, struct device_node *np,
				struct cape_device *cape, unsigned int *n,
				char *why, size_t why_len)
{
	static const struct capebus_fdt_target_prop okay = {
		.name = "status", .value = "okay", .len = sizeof("okay"),
	};
	struct capebus_fdt_target_prop tp;
	unsigned int i;
	int ret = 0;

	*n = 0;
	for (i = 0; !ret && !capebus_fdt_target_prop(cape->resolved, i, &tp); i++) {
		if (tp.target != np->phandle)
			continue;
		ret = capebus_enable_set(e, np, &tp);
		(*n)++;
	}
	if (!ret)
		ret = capebus_enable_set(e, np, &okay);
	if (ret == -ENOSPC)
		snprintf(why, why_len,
			 "targets: property %s of %pOF has had %u distinct values, the most capebus sets (the kernel keeps each for good): only one of those may be set again",
			 tp.name, np, CAPEBUS_ENABLE_MAX_VALUES);
	else if (ret)
		snprintf(why, why_len, "cannot enable %pOF: error %d", np, ret);

	return ret;
}

/* Does @cape's overlay set properties of @np? */
static bool capebus_enable_sets_props(struct cape_device *cape,
				      struct device_node *np)
{
	struct capebus_fdt_target_prop tp;
	unsigned int i;

	for (i = 0; !capebus_fdt_target_prop(cape->resolved, i, &tp); i++)
		if (tp.target == np->phandle)
			return true;

	return false;
}

/*
 * Reserve @np for one more cape: every rule checked, its pins held for the
 * bus, the changeset that enables it built; nothing in the tree changes
 * until capebus_enable_apply().  Under @np's entry's lock: a cape reserving
 * it waits for another's enable or disable of it, and for nothing else.
 */
static int capebus_enable_get(struct device_node *np, struct cape_device *cape,
			      char *why, size_t why_len)
{
	const struct capebus_target *t;
	const char *status = "okay";
	struct capebus_enable *e;
	unsigned int nprops;
	bool props;
	int ret;

	t = capebus_controller_target(cape->ctrl, np);
	if (!t) {
		snprintf(why, why_len,
			 "targets: it enables %pOF, which is not a cape target of %s",
			 np, dev_name(&cape->ctrl->dev));
		return -EINVAL;
	}
	/* The board's, for every cape (and none sets its properties). */
	if (t->shared)
		return 0;

	props = capebus_enable_sets_props(cape, np);
	scoped_guard(mutex, &capebus_enable_lock)
		e = capebus_enable_of(np);
	if (!e)
		return -ENOMEM;
	guard(mutex)(&e->lock);
	guard(mutex)(&capebus_enable_lock);
	/*
	 * Properties describe one cape's hardware (an RS-485 transceiver's
	 * driver enable on one of its pins): a target carrying them has one
	 * user, or they would outlive their cape, pin and all (red team
	 * round 12).  Any other cape joins by stating status = "okay".
	 */
	if (e->users && (props || e->setter[0])) {
		snprintf(why, why_len,
			 "targets: %pOF is enabled by %s%s: a target carrying a cape's properties has no other user",
			 np, capebus_enable_by(e),
			 e->setter[0] ? ", with its properties" : "");
		return -EBUSY;
	}
	ret = capebus_enable_join(e, cape, t, why, why_len);
	if (ret)
		return ret;
	if (e->users) {
		e->users++;
		return 0;
	}

	if (of_property_read_string(np, "status", &status) ||
	    strcmp(status, "disabled")) {
		snprintf(why, why_len, "%pOF cannot be enabled: its status is \"%s\"",
			 np, status);
		return -EINVAL;
	}

	/* Its pins first: only a bus no other cape's pins are on is enabled. */
	ret = capebus_enable_claim(e, cape->ctrl, t, why, why_len);
	if (ret)
		return ret;

	of_changeset_init(&e->cs);
	ret = capebus_enable_props(e, np, cape, &nprops, why, why_len);
	if (ret) {
		of_changeset_destroy(&e->cs);
		capebus_enable_forget_unset(e);
		capebus_enable_unclaim(e);
		return ret;
	}
	e->users = 1;
	if (nprops)
		strscpy(e->setter, cape->holder);
	capebus_enable_record(e, cape, t);

	return 0;
}

/* @np's entry, or NULL: capebus_enable_lock not held. */
static struct capebus_enable *capebus_enable_lookup(struct device_node *np)
{
	guard(mutex)(&capebus_enable_lock);
	return capebus_enable_find(np);
}

/*
 * Put @e's status and properties in the tree, if no cape that reserved it
 * has yet (none for a target the board enables): its device probes now,
 * under @e's lock only.
 */
static int capebus_enable_apply(struct capebus_enable *e)
{
	struct of_changeset_entry *ce;
	struct capebus_enable_prop *k;
	bool applied;
	int ret;

	if (!e)
		return 0;
	guard(mutex)(&e->lock);
	scoped_guard(mutex, &capebus_enable_lock) {
		if (!e->users || e->applied)
			return 0;
		/*
		 * Once the tree has seen a property (even an apply that fails
		 * may have put it there, then on the node's deadprops), it
		 * stays with the node.
		 */
		list_for_each_entry(ce, &e->cs.entries, node)
			list_for_each_entry(k, &e->props, node)
				if (ce->prop == k->prop)
					k->in_tree = true;
	}
	ret = capebus_target_enable(e->np, &e->cs, &applied);
	scoped_guard(mutex, &capebus_enable_lock)
		e->applied = applied;

	return ret;
}

/* @e's target, disabled or never enabled: forget it.  Both locks held. */
static void capebus_enable_clear(struct capebus_enable *e)
{
	e->users = 0;
	e->applied = false;
	of_changeset_destroy(&e->cs);
	capebus_enable_forget_unset(e);
	capebus_enable_unclaim(e);
	bitmap_zero(e->words.muxed, CAPEBUS_MAX_PINS);
	e->muxer[0] = '\0';
	e->setter[0] = '\0';
}

/*
 * @cape no longer uses @np: the last one puts its status back (its device
 * removed under @np's entry's lock only; the entry keeps that last user
 * until then).
 */
static void capebus_enable_put(struct device_node *np,
			       const struct cape_device *cape)
{
	struct capebus_enable *e = capebus_enable_lookup(np);
	int ret;

	if (!e)
		return;
	guard(mutex)(&e->lock);
	scoped_guard(mutex, &capebus_enable_lock) {
		if (!e->users)
			return;
		if (e->users > 1) {
			e->users--;
			if (!strcmp(e->muxer, cape->holder))
				e->muxer[0] = '\0';
			return;
		}
		if (!e->applied) {
			capebus_enable_clear(e);
			return;
		}
	}
	ret = capebus_target_disable(np, &e->cs);
	if (ret) {
		/* Still enabled: the next cape that asks shares it. */
		pr_err("capebus: %pOF stays enabled: revert failed (%d)\n",
		       np, ret);
		return;
	}
	guard(mutex)(&capebus_enable_lock);
	capebus_enable_clear(e);
}

/*
 * Every property @cape's overlay sets on a target it enables (the resolver
 * takes none from another fragment): one the connector lets capes set on
 * that target (target-properties), set once, its references by the overlay
 * rules.  Checked before anything is enabled.
 */
static int capebus_overlay_check_props(struct cape_device *cape, char *why,
				       size_t why_len)
{
	struct capebus_controller *ctrl = cape->ctrl;
	struct capebus_fdt_target_prop tp, other;
	const struct capebus_target *t;
	struct device_node *np;
	unsigned int i, j;
	int ret = 0;

	for (i = 0; !ret && !capebus_fdt_target_prop(cape->resolved, i, &tp); i++) {
		np = of_find_node_by_phandle(tp.target);
		t = capebus_controller_target(ctrl, np);
		if (!capebus_target_settable(t, tp.name)) {
			snprintf(why, why_len,
				 "add only: fragment %s sets property %s of %pOF, which %s does not let capes set (target-properties)",
				 tp.fragment, tp.name, np, dev_name(&ctrl->dev));
			ret = -EINVAL;
		} else {
			ret = capebus_overlay_verify_target_prop(cape, np, tp.name,
								 tp.value, tp.len,
								 why, why_len);
		}
		for (j = 0; !ret && j < i; j++) {
			if (capebus_fdt_target_prop(cape->resolved, j, &other) ||
			    other.target != tp.target || strcmp(other.name, tp.name))
				continue;
			snprintf(why, why_len,
				 "add only: fragments %s and %s both set property %s of %pOF",
				 other.fragment, tp.fragment, tp.name, np);
			ret = -EINVAL;
		}
		of_node_put(np);
	}

	return ret;
}

/**
 * capebus_overlay_enable() - reserve the cape targets a cape's overlay asks for
 * @cape: the cape, its overlay resolved (capebus_overlay_check())
 * @why: where to say why not
 * @why_len: bytes at @why
 *
 * Each target the resolved overlay lists (CAPEBUS_FDT_ENABLE_PROP) must be
 * one of the controller's cape targets, and each property the overlay sets
 * on them (CAPEBUS_FDT_PROPS_PROP) one the connector lets capes set.  Those
 * the board left disabled are reserved for the cape (@cape->enabled), their
 * pins held for the bus; nothing in the tree changes until the overlay has
 * passed every rule and capebus_overlay_enable_commit() enables them.
 *
 * Context: the cape's device lock held.
 * Return: 0, -EINVAL or -EBUSY (@why says why; nothing was reserved) or
 * -ENOMEM.
 */
int capebus_overlay_enable(struct cape_device *cape, char *why, size_t why_len)
{
	struct device_node *np;
	const __be32 *ph;
	unsigned int i, n;
	u32 len = 0;
	int ret = 0;

	BUILD_BUG_ON(ARRAY_SIZE(cape->enabled) < CAPEBUS_FDT_MAX_ENABLES);
	cape->num_enabled = 0;
	ph = capebus_fdt_root_prop(cape->resolved, CAPEBUS_FDT_ENABLE_PROP, &len);
	n = ph ? min_t(u32, len / 4, CAPEBUS_FDT_MAX_ENABLES) : 0;

	for (i = 0; i < n && !ret; i++) {
		np = of_find_node_by_phandle(be32_to_cpu(ph[i]));
		ret = capebus_enable_get(np, cape, why, why_len);
		if (!ret)
			cape->enabled[cape->num_enabled++] = np;
		else
			of_node_put(np);
	}
	if (!ret)
		ret = capebus_overlay_check_props(cape, why, why_len);
	if (ret)
		capebus_overlay_disable(cape);

	return ret;
}

/*
 * Once @cape's overlay is applied (it passed every rule): enable the
 * targets capebus_overlay_enable() reserved that are not yet; their devices
 * probe now, with the cape's nodes below them, each under its target's
 * entry's lock only.  The cape's device lock held.
 */
int capebus_overlay_enable_commit(struct cape_device *cape, char *why,
				  size_t why_len)
{
	unsigned int i;
	int ret;

	for (i = 0; i < cape->num_enabled; i++) {
		ret = capebus_enable_apply(capebus_enable_lookup(cape->enabled[i]));
		if (ret) {
			snprintf(why, why_len, "cannot enable %pOF: error %d",
				 cape->enabled[i], ret);
			return ret;
		}
	}

	return 0;
}

/*
 * Does @cape's overlay ask for target @np with status = "okay"?  Its own
 * record (capebus_overlay_enable()): no lock beside the cape's device lock,
 * so the overlay code's notifier may ask.
 */
bool capebus_overlay_enables(const struct cape_device *cape,
			     const struct device_node *np)
{
	unsigned int i;

	for (i = 0; i < cape->num_enabled; i++)
		if (cape->enabled[i] == np)
			return true;

	return false;
}

/*
 * Do capes hold @np enabled (or reserved)?  Said at @buf, as the end of a
 * refusal, if @len.  Not under the OF core's locks: capebus_enable_lock is
 * taken outside them.
 */
bool capebus_enable_owner(struct device_node *np, char *buf, size_t len)
{
	struct capebus_enable *e;

	guard(mutex)(&capebus_enable_lock);
	e = capebus_enable_find(np);
	if (e && e->users)
		snprintf(buf, len, ": %s enabled it%s", capebus_enable_by(e),
			 e->setter[0] ? ", with its properties" : "");
	else
		snprintf(buf, len, of_device_is_available(np) ?
			 ": the board enables it for itself" :
			 ": the board leaves it disabled");

	return e && e->users;
}

/**
 * capebus_overlay_bus_pins() - the pins a cape's overlay gets as a bus's
 * @cape: the cape, its overlay resolved (capebus_overlay_check())
 * @muxed: bitmap (CAPEBUS_MAX_PINS) of the pins the connector will mux for
 *	the cape (its pin words)
 * @pins: bitmap (CAPEBUS_MAX_PINS) the pins are added to
 * @shared: bitmap (CAPEBUS_MAX_PINS) the pins of @muxed whose pads a bus
 *	other capes enabled has muxed already, with the cape's own pin words,
 *	are added to: the connector must not mux them again
 * @why: where to say why not
 * @why_len: bytes at @why
 *
 * The header pins behind each target the overlay enables that is disabled,
 * or enabled by capebus for other capes: while it is enabled they are held
 * for the bus (capebus_enable_claim()), not for one cape, so they are left
 * out of the cape's own claim.  A target the board enabled keeps its pins in
 * the claim of each cape that declares them.  The cape that enables a bus
 * muxes its pins, which must be free; a bus other capes enabled has its pads
 * muxed already: a cape may state the words they were muxed with (they go
 * to @shared), and is refused for any other.
 *
 * Return: 0, or -EBUSY (@why says which pin).
 */
int capebus_overlay_bus_pins(struct cape_device *cape,
			     const unsigned long *muxed, unsigned long *pins,
			     unsigned long *shared, char *why, size_t why_len)
{
	const struct capebus_header *header = cape->ctrl->header;
	const struct capebus_target *t;
	struct capebus_enable *e;
	struct device_node *np;
	unsigned int i, n, pin;
	const __be32 *ph;
	bool ours;
	u32 len = 0;
	int ret = 0;

	ph = capebus_fdt_root_prop(cape->resolved, CAPEBUS_FDT_ENABLE_PROP, &len);
	n = ph ? min_t(u32, len / 4, CAPEBUS_FDT_MAX_ENABLES) : 0;

	guard(mutex)(&capebus_enable_lock);
	for (i = 0; i < n && !ret; i++) {
		np = of_find_node_by_phandle(be32_to_cpu(ph[i]));
		t = capebus_controller_target(cape->ctrl, np);
		if (t) {
			e = capebus_enable_find(np);
			ours = e && e->ctrl;
			for_each_set_bit(pin, t->pins, header->num_pins) {
				const char *setting = cape->info->pin_setting[pin];

				if (!ours || !test_bit(pin, muxed))
					continue;
				if (capebus_bus_pin_shareable(&e->words, pin,
							      setting)) {
					set_bit(pin, shared);
					continue;
				}
				capebus_enable_refuse_pin(e, cape->ctrl, t, pin,
							  setting, why, why_len);
				ret = -EBUSY;
				break;
			}
			/*
			 * A bus this cape will be the first to enable: its
			 * pins must be free now, before the connector muxes
			 * the cape's pads (the claim comes with the enable).
			 */
			if (!ret && !ours && !t->shared) {
				DECLARE_BITMAP(need, CAPEBUS_MAX_PINS);
				char held[CAPEBUS_REASON_LEN];

				bitmap_copy(need, t->pins, CAPEBUS_MAX_PINS);
				scoped_guard(mutex, &cape->ctrl->lock) {
					/* A registered cape's own (a retry). */
					if (cape->registered)
						bitmap_andnot(need, need,
							      cape->claim->pins,
							      CAPEBUS_MAX_PINS);
					ret = capebus_resources_check(cape->ctrl->res,
								      need, held,
								      sizeof(held));
				}
				if (ret)
					snprintf(why, why_len,
						 "targets: enabling %s: %s",
						 t->name, held);
			}
			if (!t->shared)
				bitmap_or(pins, pins, t->pins, CAPEBUS_MAX_PINS);
		}
		of_node_put(np);
	}

	return ret;
}

/**
 * capebus_overlay_disable() - give back what capebus_overlay_enable() enabled
 * @cape: the cape, its overlay removed (or never applied)
 *
 * Each target's device is removed and its changeset reverted under that
 * target's lock only (capebus-target.c).
 *
 * Context: the cape's device lock held, or the cape unregistered.
 */
void capebus_overlay_disable(struct cape_device *cape)
{
	while (cape->num_enabled) {
		struct device_node *np = cape->enabled[--cape->num_enabled];

		capebus_enable_put(np, cape);
		of_node_put(np);
	}
}

/**
 * capebus_enable_adopt() - hold the buses a stuck cape keeps enabled in the
 *	controller that adopts it
 * @cape: an orphaned cape whose overlay (and so the targets it enabled)
 *	stays in the tree
 * @ctrl: the next controller of its connector, adopting it, not registered
 * @why: where to say why a bus's pins cannot be held
 * @why_len: bytes at @why
 *
 * The pins behind a target capebus enabled are the bus's, held in the
 * table of the controller that enabled it (capebus_enable_claim()), not in
 * the cape's own claim: they move to @ctrl's table with the cape, so that
 * @ctrl gives them to no other cape and its capes may join the bus.
 *
 * Context: @ctrl's transition lock held, not its lock.
 * Return: 0, or -EBUSY (@why says which pin is held in @ctrl already).
 */
int capebus_enable_adopt(struct cape_device *cape,
			 struct capebus_controller *ctrl, char *why,
			 size_t why_len)
{
	char held[CAPEBUS_REASON_LEN];
	struct capebus_enable *e;
	unsigned int i;
	int ret;

	guard(mutex)(&capebus_enable_lock);
	for (i = 0; i < cape->num_enabled; i++) {
		e = capebus_enable_find(cape->enabled[i]);
		if (!e || !e->users || !e->ctrl || e->ctrl == ctrl)
			continue;
		scoped_guard(mutex, &ctrl->lock)
			ret = capebus_resources_claim(ctrl->res, &e->bus, held,
						      sizeof(held));
		if (ret < 0) {
			snprintf(why, why_len, "bus %pOFn: %s", e->np, held);
			return -EBUSY;
		}
		capebus_enable_unclaim(e);
		e->ctrl = ctrl;
		get_device(&ctrl->dev);
	}

	return 0;
}

/**
 * capebus_enabled_bus_of() - the header bus capebus holds enabled on a pin
 * @ctrl: the controller
 * @pin: a header pin of @ctrl
 * @pins: bitmap (CAPEBUS_MAX_PINS) set to the bus's pins if there is one
 *
 * For a controller that muxes a bus's pads for the cape that enabled it:
 * while the bus stays enabled (any cape's overlay still asks for it), its
 * pads must stay as they are, whichever of its capes goes first, and once
 * it is disabled nothing holds them for it.
 *
 * Context: the controller's transition lock may be held.
 * Return: true if capebus holds a bus on @pin enabled for capes of @ctrl.
 */
bool capebus_enabled_bus_of(struct capebus_controller *ctrl, unsigned int pin,
			    unsigned long *pins)
{
	struct capebus_enable *e;

	if (pin >= CAPEBUS_MAX_PINS)
		return false;

	guard(mutex)(&capebus_enable_lock);
	list_for_each_entry(e, &capebus_enables, node) {
		if (e->users && e->ctrl == ctrl && test_bit(pin, e->bus.pins)) {
			bitmap_copy(pins, e->bus.pins, CAPEBUS_MAX_PINS);
			return true;
		}
	}

	return false;
}
EXPORT_SYMBOL_GPL(capebus_enabled_bus_of);

/* Module exit: every cape is gone. */
void capebus_enable_exit(void)
{
	struct capebus_enable *e, *next;

	guard(mutex)(&capebus_enable_lock);
	list_for_each_entry_safe(e, next, &capebus_enables, node) {
		list_del(&e->node);
		WARN_ON(e->users);
		while (!list_empty(&e->props))
			capebus_enable_prop_free(list_first_entry(&e->props,
								  struct capebus_enable_prop,
								  node));
		of_node_put(e->np);
		mutex_destroy(&e->lock);
		kfree(e);
	}
}
