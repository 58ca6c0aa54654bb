// SPDX-License-Identifier: GPL-2.0
/*
 * capebus: cape overlays.  One resolution, one verification, of exactly
 * what is applied:
 *  - before a cape is added, capebus_overlay_check() has capebus-fdt.c
 *    check the blob's structure and resolve its references through the
 *    names the connector exports, into the blob that will be applied;
 *  - when the cape's driver applies it, of_overlay_fdt_apply() unflattens
 *    that blob and, before changing anything, calls capebus's PRE_APPLY
 *    notifier for every fragment with its target as the overlay code
 *    resolved it; the notifier refuses whatever breaks the connector's
 *    rules (targets, add-only, bus addresses, phandles), and the overlay
 *    code then applies nothing.
 * Removal is of_overlay_remove(); its failures are reported, not ignored.
 * See Documentation/capebus/overlays-and-pins.rst for the rules and the
 * threat model.
 */

#include <linux/capebus.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/of.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "capebus-fdt.h"
#include "capebus-internal.h"

/*
 * A device address a cape's overlay holds on a bus node it adds to: for
 * naming the holder when another cape wants the same address.
 */
struct capebus_bus_claim {
	struct list_head node;
	struct device_node *bus;
	u32 addr;
	struct cape_device *cape;
};

/*
 * An overlay capebus is applying, found by its notifier through the cookie
 * capebus_fdt_resolve() put at the overlay's root.
 */
struct capebus_apply {
	struct list_head node;
	u32 cookie;
	struct cape_device *cape;
	struct device_node *root;
	struct list_head claims;	/* verified, not yet in capebus_claims */
	u64 verify_ns;
	char why[CAPEBUS_REASON_LEN];
};

/*
 * Protects capebus_applies and capebus_claims.  Taken inside the overlay
 * code's locks (the notifier runs under of_overlay_mutex and of_mutex):
 * never call into the overlay code with it held.
 */
static DEFINE_MUTEX(capebus_ov_lock);
static LIST_HEAD(capebus_applies);
static LIST_HEAD(capebus_claims);
static atomic_t capebus_ov_cookie = ATOMIC_INIT(0);

static int capebus_export_lookup(void *ctx, const char *name, u32 *phandle)
{
	struct capebus_controller *ctrl = ctx;
	unsigned int i;

	for (i = 0; i < ctrl->num_exports; i++) {
		if (!strcmp(ctrl->exports[i].name, name)) {
			*phandle = ctrl->exports[i].np->phandle;
			return 0;
		}
	}

	return -ENOENT;
}

static int capebus_read_exclusive_use(struct cape_device *cape,
				      unsigned long *pins, bool *declared,
				      char *why, size_t why_len)
{
	const char *s, *end;
	u32 len;
	int pin;

	s = capebus_fdt_root_prop(cape->resolved, "exclusive-use", &len);
	*declared = s;
	if (!s)
		return 0;
	if (!len || s[len - 1]) {
		snprintf(why, why_len, "exclusive-use is not a string list");
		return -EINVAL;
	}

	for (end = s + len; s < end; s += strlen(s) + 1) {
		pin = capebus_header_pin_index(cape->ctrl->header, s);
		if (pin < 0) {
			snprintf(why, why_len,
				 "exclusive-use names \"%.32s\", which is not a header pin",
				 s);
			return -EINVAL;
		}
		__set_bit(pin, pins);
	}

	return 0;
}

/**
 * capebus_overlay_check() - resolve a cape's overlay before it is added
 * @cape: the cape, with its overlay and controller set
 * @pins: bitmap (CAPEBUS_MAX_PINS) to set the overlay's exclusive-use pins in
 * @declared: set if the overlay has an exclusive-use property
 * @why: where to say what is wrong
 * @why_len: bytes at @why
 *
 * Checks the overlay's structure and resolves its references through the
 * controller's exports into @cape->resolved, the blob that will be applied
 * (see capebus-fdt.c).  What the overlay does to the live tree is verified
 * when it is applied, by capebus_overlay_notify().
 *
 * Return: 0 or -EINVAL (@why says why) or -ENOMEM.
 */
int capebus_overlay_check(struct cape_device *cape, unsigned long *pins,
			  bool *declared, char *why, size_t why_len)
{
	ktime_t start = ktime_get();
	int ret;

	*declared = false;
	kvfree(cape->resolved);
	cape->resolved = NULL;
	cape->cookie = atomic_inc_return(&capebus_ov_cookie);

	ret = capebus_fdt_resolve(cape->overlay, cape->overlay_len,
				  capebus_export_lookup, cape->ctrl,
				  cape->cookie, &cape->resolved,
				  &cape->resolved_len, why, why_len);
	cape->resolve_ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	if (ret)
		return ret;

	return capebus_read_exclusive_use(cape, pins, declared, why, why_len);
}

/* The apply in flight whose overlay @ov (a fragment's __overlay__) is in. */
static struct capebus_apply *capebus_apply_of(struct device_node *ov)
{
	struct device_node *root = ov->parent ? ov->parent->parent : NULL;
	struct capebus_apply *ap;
	u32 cookie;

	lockdep_assert_held(&capebus_ov_lock);

	if (!root || of_property_read_u32(root, CAPEBUS_FDT_COOKIE_PROP, &cookie))
		return NULL;

	list_for_each_entry(ap, &capebus_applies, node)
		if (ap->cookie == cookie) {
			ap->root = root;
			return ap;
		}

	return NULL;
}

static __printf(2, 3) int capebus_refuse(struct capebus_apply *ap,
					 const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(ap->why, sizeof(ap->why), fmt, args);
	va_end(args);

	return -EINVAL;
}

/* Is @np in the overlay's tree, inside a fragment's __overlay__? */
static bool capebus_in_overlay_body(struct device_node *np)
{
	struct device_node *p;

	for (p = np->parent; p; p = p->parent)
		if (of_node_name_eq(p, "__overlay__") && p->parent &&
		    p->parent->parent && !p->parent->parent->parent)
			return true;

	return false;
}

static struct device_node *capebus_overlay_find_phandle(struct device_node *np,
							phandle ph)
{
	struct device_node *found;

	if (np->phandle == ph)
		return np;
	for_each_child_of_node_scoped(np, child) {
		found = capebus_overlay_find_phandle(child, ph);
		if (found)
			return found;
	}

	return NULL;
}

/* The node @ph names: an exported one, or one the overlay adds; or NULL. */
static struct device_node *capebus_phandle_target(struct capebus_apply *ap,
						  phandle ph)
{
	struct capebus_controller *ctrl = ap->cape->ctrl;
	struct device_node *np;
	unsigned int i;

	for (i = 0; i < ctrl->num_exports; i++)
		if (ctrl->exports[i].np->phandle == ph)
			return ctrl->exports[i].np;

	np = capebus_overlay_find_phandle(ap->root, ph);
	if (np && capebus_in_overlay_body(np))
		return np;

	return NULL;
}

/*
 * Properties whose cells hold phandles, by name: the ones the kernel's
 * consumers parse with of_parse_phandle*() (compare the fw_devlink table in
 * drivers/of/property.c).  @cells names the provider's specifier size
 * property; NULL means every cell is a phandle.
 */
static const struct capebus_phandle_prop {
	const char *name;
	const char *cells;
	char match;	/* '=' whole name, '>' suffix, '<' prefix + digits */
} capebus_phandle_props[] = {
	{ "gpios", "#gpio-cells", '=' },
	{ "gpio", "#gpio-cells", '=' },
	{ "-gpios", "#gpio-cells", '>' },
	{ "-gpio", "#gpio-cells", '>' },
	{ "interrupt-parent", NULL, '=' },
	{ "interrupts-extended", "#interrupt-cells", '=' },
	{ "clocks", "#clock-cells", '=' },
	{ "pwms", "#pwm-cells", '=' },
	{ "dmas", "#dma-cells", '=' },
	{ "io-channels", "#io-channel-cells", '=' },
	{ "resets", "#reset-cells", '=' },
	{ "phys", "#phy-cells", '=' },
	{ "power-domains", "#power-domain-cells", '=' },
	{ "mboxes", "#mbox-cells", '=' },
	{ "iommus", "#iommu-cells", '=' },
	{ "hwlocks", "#hwlock-cells", '=' },
	{ "interconnects", "#interconnect-cells", '=' },
	{ "mux-controls", "#mux-control-cells", '=' },
	{ "sound-dai", "#sound-dai-cells", '=' },
	{ "thermal-sensors", "#thermal-sensor-cells", '=' },
	{ "nvmem-cells", NULL, '=' },
	{ "-supply", NULL, '>' },
	{ "pinctrl-", NULL, '<' },
	{ "remote-endpoint", NULL, '=' },
	{ "phy-handle", NULL, '=' },
	{ "memory-region", NULL, '=' },
	{ "sram", NULL, '=' },
	{ "leds", NULL, '=' },
	{ "backlight", NULL, '=' },
	{ "panel", NULL, '=' },
	{ "extcon", NULL, '=' },
	{ "i2c-bus", NULL, '=' },
	{ "ddc-i2c-bus", NULL, '=' },
	{ "wakeup-parent", NULL, '=' },
};

static const struct capebus_phandle_prop *capebus_phandle_prop(const char *name)
{
	const struct capebus_phandle_prop *pp;
	size_t n = strlen(name), m;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(capebus_phandle_props); i++) {
		pp = &capebus_phandle_props[i];
		m = strlen(pp->name);
		switch (pp->match) {
		case '=':
			if (!strcmp(name, pp->name))
				return pp;
			break;
		case '>':
			if (n > m && !strcmp(name + n - m, pp->name))
				return pp;
			break;
		case '<':
			if (n > m && !strncmp(name, pp->name, m) &&
			    strspn(name + m, "0123456789") == n - m)
				return pp;
			break;
		}
	}

	return NULL;
}

/*
 * A GPIO of the connector's nexus: the header pin it names is one the cape
 * declared (its EEPROM's pins, its overlay's exclusive-use, configfs pins).
 */
static int capebus_verify_nexus_pin(struct capebus_apply *ap,
				    struct device_node *np,
				    struct property *prop, u32 cell)
{
	const struct capebus_header *header = ap->cape->ctrl->header;
	int pin;

	if (!header->gpio_codes)
		return 0;
	pin = capebus_header_gpio_pin(header, cell);
	if (pin < 0)
		return capebus_refuse(ap,
				      "property %s of node %pOFn names GPIO %u of the connector, which is no header pin",
				      prop->name, np, cell);
	if (!ap->cape->claim || !test_bit(pin, ap->cape->claim->pins))
		return capebus_refuse(ap,
				      "property %s of node %pOFn uses header pin %s, which the cape does not declare",
				      prop->name, np, header->pin_names[pin]);

	return 0;
}

/* Every phandle in @prop of @np points into the overlay or at an export. */
static int capebus_verify_phandle_prop(struct capebus_apply *ap,
				       struct device_node *np,
				       struct property *prop)
{
	const struct capebus_phandle_prop *pp = capebus_phandle_prop(prop->name);
	const __be32 *cell = prop->value;
	unsigned int n = prop->length / 4, i = 0;
	struct device_node *to;
	u32 args;
	phandle ph;
	int ret;

	if (!strcmp(prop->name, "gpio-map") || !strcmp(prop->name, "interrupt-map"))
		return capebus_refuse(ap, "node %pOFn has %s, which cape overlays may not have",
				      np, prop->name);
	if (!pp)
		return 0;
	if (prop->length % 4 || !n)
		return capebus_refuse(ap, "property %s of node %pOFn is not a list of cells",
				      prop->name, np);

	while (i < n) {
		ph = be32_to_cpu(cell[i++]);
		if (!ph && pp->cells)
			continue;	/* an empty entry, e.g. in cs-gpios */
		to = capebus_phandle_target(ap, ph);
		if (!to)
			return capebus_refuse(ap,
					      "property %s of node %pOFn refers to phandle %#x, which is neither in the overlay nor exported by the connector",
					      prop->name, np, ph);
		if (!pp->cells)
			continue;
		if (of_property_read_u32(to, pp->cells, &args) || args > n - i)
			return capebus_refuse(ap,
					      "property %s of node %pOFn does not match %s of %pOFn",
					      prop->name, np, pp->cells, to);
		if (args && !strcmp(pp->cells, "#gpio-cells") &&
		    of_property_present(to, "gpio-map")) {
			ret = capebus_verify_nexus_pin(ap, np, prop,
						       be32_to_cpu(cell[i]));
			if (ret)
				return ret;
		}
		i += args;
	}

	return 0;
}

static int capebus_verify_phandles(struct capebus_apply *ap,
				   struct device_node *np)
{
	struct property *prop;
	int ret;

	for_each_property_of_node(np, prop) {
		ret = capebus_verify_phandle_prop(ap, np, prop);
		if (ret)
			return ret;
	}

	for_each_child_of_node_scoped(np, child) {
		ret = capebus_verify_phandles(ap, child);
		if (ret)
			return ret;
	}

	return 0;
}

/* The cape whose overlay holds @addr on @bus, or NULL.  capebus_ov_lock. */
static struct cape_device *capebus_bus_holder(struct list_head *claims,
					      struct device_node *bus, u32 addr)
{
	struct capebus_bus_claim *c;

	list_for_each_entry(c, claims, node)
		if (c->bus == bus && c->addr == addr)
			return c->cape;

	return NULL;
}

/* The address @np asks for on @bus, if @bus has one-cell, sizeless reg. */
static bool capebus_bus_addr(struct device_node *bus, struct device_node *np,
			     u32 *addr)
{
	u32 acells, scells;

	if (of_property_read_u32(bus, "#address-cells", &acells) ||
	    of_property_read_u32(bus, "#size-cells", &scells) ||
	    acells != 1 || scells != 0)
		return false;

	return !of_property_read_u32_index(np, "reg", 0, addr);
}

static int capebus_verify_address(struct capebus_apply *ap,
				  struct device_node *bus,
				  struct device_node *np)
{
	struct capebus_bus_claim *claim;
	struct cape_device *holder;
	u32 addr, other;

	if (!capebus_bus_addr(bus, np, &addr))
		return 0;

	if (capebus_bus_holder(&ap->claims, bus, addr))
		return capebus_refuse(ap, "two nodes of the overlay use address %#x on %pOF",
				      addr, bus);

	for_each_child_of_node_scoped(bus, child) {
		if (of_property_read_u32_index(child, "reg", 0, &other) ||
		    other != addr)
			continue;
		holder = capebus_bus_holder(&capebus_claims, bus, addr);
		return capebus_refuse(ap, "address %#x on %pOF is held by %s (%s)",
				      addr, bus, holder ? holder->holder : "the board",
				      kbasename(child->full_name));
	}

	claim = kzalloc(sizeof(*claim), GFP_KERNEL);
	if (!claim)
		return -ENOMEM;
	claim->bus = of_node_get(bus);
	claim->addr = addr;
	claim->cape = ap->cape;
	list_add_tail(&claim->node, &ap->claims);

	return 0;
}

/* Does @np have @prop, with the same value? */
static bool capebus_prop_same(struct device_node *np, struct property *prop)
{
	struct property *have = of_find_property(np, prop->name, NULL);

	return have && have->length == prop->length &&
	       !memcmp(have->value, prop->value, prop->length);
}

/*
 * One fragment, as the overlay code will apply it: it targets a node the
 * connector allows, it only adds nodes (no property of the target, no node
 * the target has already), each at a free bus address, and every phandle
 * in it points into the overlay or at a node the connector exports.
 */
static int capebus_verify_fragment(struct capebus_apply *ap,
				   struct of_overlay_notify_data *nd)
{
	struct capebus_controller *ctrl = ap->cape->ctrl;
	struct device_node *target = nd->target, *ov = nd->overlay;
	const char *frag = kbasename(ov->parent->full_name);
	struct property *prop;
	int ret;

	if (!capebus_controller_has_target(ctrl, target))
		return capebus_refuse(ap,
				      "fragment %s targets %s%pOF, which is not a cape target of %s",
				      frag, of_node_is_root(target) ? "/" : "",
				      target, dev_name(&ctrl->dev));

	for_each_property_of_node(ov, prop) {
		if (!of_prop_cmp(prop->name, "name") ||
		    !of_prop_cmp(prop->name, "phandle") ||
		    !of_prop_cmp(prop->name, "linux,phandle"))
			continue;	/* the overlay code skips these too */
		/*
		 * dtc wants a bus's cell sizes beside a node with reg; the
		 * overlay code only compares them with the target's.
		 */
		if ((!of_prop_cmp(prop->name, "#address-cells") ||
		     !of_prop_cmp(prop->name, "#size-cells")) &&
		    capebus_prop_same(target, prop))
			continue;
		return capebus_refuse(ap,
				      "fragment %s sets property %s of %pOF: overlays may only add nodes",
				      frag, prop->name, target);
	}

	for_each_child_of_node_scoped(ov, child) {
		for_each_child_of_node_scoped(target, tchild) {
			if (of_node_cmp(kbasename(child->full_name),
					kbasename(tchild->full_name)))
				continue;
			return capebus_refuse(ap,
					      "fragment %s changes %pOF, which the board has: overlays may only add nodes",
					      frag, tchild);
		}
		ret = capebus_verify_address(ap, target, child);
		if (ret)
			return ret;
	}

	return capebus_verify_phandles(ap, ov);
}

static int capebus_overlay_notify(struct notifier_block *nb,
				  unsigned long action, void *arg)
{
	struct of_overlay_notify_data *nd = arg;
	struct capebus_apply *ap;
	ktime_t start;
	int ret = 0;

	if (action != OF_OVERLAY_PRE_APPLY && action != OF_OVERLAY_POST_APPLY)
		return NOTIFY_DONE;

	guard(mutex)(&capebus_ov_lock);
	ap = capebus_apply_of(nd->overlay);
	if (!ap)
		return NOTIFY_DONE;	/* not a cape's overlay */

	if (action == OF_OVERLAY_POST_APPLY) {
		/* Applied: its addresses are held now. */
		list_splice_tail_init(&ap->claims, &capebus_claims);
		return NOTIFY_OK;
	}

	start = ktime_get();
	ret = capebus_verify_fragment(ap, nd);
	ap->verify_ns += ktime_to_ns(ktime_sub(ktime_get(), start));
	if (ret && !ap->why[0])
		snprintf(ap->why, sizeof(ap->why), "cannot verify: error %d", ret);

	return notifier_from_errno(ret);
}

static struct notifier_block capebus_overlay_nb = {
	.notifier_call = capebus_overlay_notify,
};

static void capebus_claims_free(struct list_head *claims,
				struct cape_device *cape)
{
	struct capebus_bus_claim *c, *next;

	list_for_each_entry_safe(c, next, claims, node) {
		if (cape && c->cape != cape)
			continue;
		list_del(&c->node);
		of_node_put(c->bus);
		kfree(c);
	}
}

/**
 * capebus_overlay_forget() - drop what capebus keeps for a cape's overlay
 * @cape: the cape, being released
 */
void capebus_overlay_forget(struct cape_device *cape)
{
	scoped_guard(mutex, &capebus_ov_lock)
		capebus_claims_free(&capebus_claims, cape);
	kvfree(cape->resolved);
	cape->resolved = NULL;
}

int capebus_overlay_init(void)
{
	return of_overlay_notifier_register(&capebus_overlay_nb);
}

void capebus_overlay_exit(void)
{
	of_overlay_notifier_unregister(&capebus_overlay_nb);
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
	struct capebus_apply ap = { .cookie = cape->cookie, .cape = cape };
	int id = 0, ret, ret2;
	ktime_t start;

	cape->apply_why[0] = '\0';
	cape->apply_refused = false;
	if (!cape->resolved) {
		snprintf(cape->apply_why, sizeof(cape->apply_why),
			 "overlay was never resolved");
		return -EINVAL;
	}

	/* Header buses the board leaves disabled, first (capebus-enable.c). */
	ret = capebus_overlay_enable(cape, cape->apply_why,
				     sizeof(cape->apply_why));
	if (ret) {
		cape->apply_refused = ret == -EINVAL;
		dev_err(&cape->dev, "overlay refused: %s\n", cape->apply_why);
		return ret;
	}

	INIT_LIST_HEAD(&ap.claims);
	scoped_guard(mutex, &capebus_ov_lock)
		list_add(&ap.node, &capebus_applies);

	start = ktime_get();
	ret = of_overlay_fdt_apply(cape->resolved, cape->resolved_len, &id, NULL);
	cape->apply_ns = ktime_to_ns(ktime_sub(ktime_get(), start));

	scoped_guard(mutex, &capebus_ov_lock) {
		cape->verify_ns = ap.verify_ns;
		list_del(&ap.node);
		capebus_claims_free(&ap.claims, NULL);
	}

	if (!ret) {
		cape->ovcs_id = id;
		dev_dbg(&cape->dev, "overlay %d applied in %llu us\n", id,
			div_u64(cape->apply_ns, NSEC_PER_USEC));
		return 0;
	}

	if (!id) {
		capebus_overlay_disable(cape);
		snprintf(cape->apply_why, sizeof(cape->apply_why), "error %d%s",
			 ret, ret == -EBUSY ?
			 " (device tree corrupt after an earlier failed overlay change)" :
			 "");
		dev_err(&cape->dev, "overlay not applied: %s\n", cape->apply_why);
		return ret;
	}

	/*
	 * Refused by the notifier (nothing was changed: the changeset is
	 * empty), or partly applied: take it back.
	 */
	ret2 = of_overlay_remove(&id);
	if (ret2) {
		cape->ovcs_id = id;
		cape->overlay_stuck = true;
		snprintf(cape->apply_why, sizeof(cape->apply_why),
			 "error %d; removing the partial overlay failed (%d): tree corrupt",
			 ret, ret2);
		dev_err(&cape->dev, "overlay not applied: %s\n", cape->apply_why);
		return ret;
	}

	capebus_overlay_disable(cape);
	if (ap.why[0]) {
		cape->apply_refused = true;
		strscpy(cape->apply_why, ap.why, sizeof(cape->apply_why));
		dev_err(&cape->dev, "overlay refused: %s\n", cape->apply_why);
		return ret;
	}

	snprintf(cape->apply_why, sizeof(cape->apply_why),
		 "error %d (partial overlay removed)", ret);
	dev_err(&cape->dev, "overlay not applied: %s\n", cape->apply_why);

	return ret;
}

/**
 * capebus_overlay_revert() - remove a cape's applied overlay
 * @cape: the cape; its device lock is held (once the cape is unregistered,
 *	the controller's transition lock)
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
	if (!cape->overlay_stuck) {
		scoped_guard(mutex, &capebus_ov_lock)
			capebus_claims_free(&capebus_claims, cape);
		capebus_overlay_disable(cape);
	}
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
