// SPDX-License-Identifier: GPL-2.0
/*
 * capebus: the capebus bus, cape devices, cape drivers and the generic cape
 * driver.
 *
 * The design follows the 2012 capebus RFC by Pantelis Antoniou (a cape bus
 * on the driver core, board controllers that identify capes, a generic cape)
 * with device-tree overlays for what capes add to the system.
 *
 * A cape's attributes read its description, which is fixed when the cape is
 * created, and its controller's copy of the header: they take no lock (a
 * cape's attributes are drained by device_del(), which the core calls
 * under its controller's transition lock, never under its lock).
 */

#define pr_fmt(fmt) "capebus: " fmt

#include <linux/capebus.h>
#include <linux/ctype.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "capebus-internal.h"

/* ---- matching ---------------------------------------------------------- */

static const struct cape_device_id *
capebus_match_id(const struct cape_device_id *id, const struct cape_device *cape)
{
	if (!id)
		return NULL;

	for (; id->part_number[0]; id++) {
		/* Part numbers are a family's own: another's may be alike. */
		if (!id->family[0] || strcmp(id->family, cape_family(cape)))
			continue;
		if (strcmp(id->part_number, cape_text(cape, CAPEBUS_PART_NUMBER)))
			continue;
		if (id->version[0] &&
		    strcmp(id->version, cape_text(cape, CAPEBUS_VERSION)))
			continue;
		if (id->board_name[0] &&
		    strcmp(id->board_name, cape_text(cape, CAPEBUS_BOARD_NAME)))
			continue;
		return id;
	}

	return NULL;
}

static struct capebus_driver capebus_generic_driver;

static int capebus_specific_match(struct device_driver *drv, void *data)
{
	const struct capebus_driver *cdrv = to_capebus_driver(drv);

	return cdrv != &capebus_generic_driver &&
	       capebus_match_id(cdrv->id_table, data);
}

/*
 * The generic driver takes a cape with an overlay that no driver names,
 * whether capebus applies it or the bootloader did.
 */
static bool capebus_generic_matches(struct cape_device *cape)
{
	if (!cape->overlay && !cape->applied_by)
		return false;

	return !bus_for_each_drv(&capebus_bus_type, NULL, cape,
				 capebus_specific_match);
}

static int capebus_match(struct device *dev, const struct device_driver *drv)
{
	struct cape_device *cape = to_cape_device(dev);
	const struct capebus_driver *cdrv = to_capebus_driver(drv);

	if (cdrv == &capebus_generic_driver)
		return capebus_generic_matches(cape);

	return !!capebus_match_id(cdrv->id_table, cape);
}

static int capebus_probe(struct device *dev)
{
	struct cape_device *cape = to_cape_device(dev);
	const struct capebus_driver *cdrv = to_capebus_driver(dev->driver);

	return cdrv->probe(cape, capebus_match_id(cdrv->id_table, cape));
}

static void capebus_remove(struct device *dev)
{
	const struct capebus_driver *cdrv = to_capebus_driver(dev->driver);

	if (cdrv->remove)
		cdrv->remove(to_cape_device(dev));
}

/*
 * MODALIAS=capebus:f<family>:p<part>:v<version>.  A part number or version
 * may hold any printable character, so every byte outside [A-Za-z0-9._-]
 * is written as %XX (two upper-case hex digits): ':' then only ever
 * separates fields, and nothing fnmatch() treats specially (*?[\) reaches
 * modprobe.
 */
static size_t capebus_modalias_escape(char *buf, size_t len, size_t pos,
				      const char *s)
{
	for (; *s; s++) {
		u8 ch = *s;

		if (isalnum(ch) || ch == '.' || ch == '_' || ch == '-')
			pos += scnprintf(buf + pos, len - pos, "%c", ch);
		else
			pos += scnprintf(buf + pos, len - pos, "%%%02X", ch);
	}

	return pos;
}

/**
 * capebus_modalias() - a cape's modalias
 * @cape: the cape
 * @buf: where to write it
 * @len: bytes at @buf
 *
 * Return: its length, or -E2BIG if it does not fit.
 */
int capebus_modalias(const struct cape_device *cape, char *buf, size_t len)
{
	const struct capebus_cape_info *info = cape->info;
	size_t pos;

	pos = scnprintf(buf, len, "capebus:f");
	pos = capebus_modalias_escape(buf, len, pos, cape_family(cape));
	pos += scnprintf(buf + pos, len - pos, ":p");
	pos = capebus_modalias_escape(buf, len, pos,
				      info->text[CAPEBUS_PART_NUMBER]);
	pos += scnprintf(buf + pos, len - pos, ":v");
	pos = capebus_modalias_escape(buf, len, pos, info->text[CAPEBUS_VERSION]);

	return pos + 1 >= len ? -E2BIG : pos;
}

/* 3 bytes per escaped character of the three fields, plus the prefixes. */
#define CAPEBUS_MODALIAS_LEN	(3 * (2 * CAPEBUS_TEXT_LEN + CAPEBUS_FAMILY_LEN) + 16)

/* The numeric identity the cape's ID states, and only that. */
static int capebus_uevent_ids(const struct capebus_cape_info *info,
			      struct kobj_uevent_env *env)
{
	if (((info->ids & CAPEBUS_ID_UUID) &&
	     add_uevent_var(env, "CAPEBUS_UUID=%pUb", &info->uuid)) ||
	    ((info->ids & CAPEBUS_ID_VENDOR) &&
	     add_uevent_var(env, "CAPEBUS_VENDOR_ID=0x%04x", info->vendor_id)) ||
	    ((info->ids & CAPEBUS_ID_PRODUCT) &&
	     add_uevent_var(env, "CAPEBUS_PRODUCT_ID=0x%04x",
			    info->product_id)) ||
	    ((info->ids & CAPEBUS_ID_PRODUCT_VERSION) &&
	     add_uevent_var(env, "CAPEBUS_PRODUCT_VERSION=0x%04x",
			    info->product_version)))
		return -ENOMEM;

	return 0;
}

static int capebus_uevent(const struct device *dev, struct kobj_uevent_env *env)
{
	const struct cape_device *cape = to_cape_device(dev);
	char *alias;
	int ret;

	if (add_uevent_var(env, "CAPEBUS_FAMILY=%s", cape_family(cape)) ||
	    add_uevent_var(env, "CAPEBUS_BOARD=%s",
			   cape_text(cape, CAPEBUS_BOARD_NAME)) ||
	    add_uevent_var(env, "CAPEBUS_PART=%s",
			   cape_text(cape, CAPEBUS_PART_NUMBER)) ||
	    add_uevent_var(env, "CAPEBUS_VERSION=%s",
			   cape_text(cape, CAPEBUS_VERSION)) ||
	    add_uevent_var(env, "CAPEBUS_SLOT=%u", cape->slot_nr) ||
	    add_uevent_var(env, "CAPEBUS_BUDGET=%s",
			   cape->over_budget ? "over" : "within"))
		return -ENOMEM;

	ret = capebus_uevent_ids(cape->info, env);
	if (ret)
		return ret;

	alias = kmalloc(CAPEBUS_MODALIAS_LEN, GFP_KERNEL);
	if (!alias)
		return -ENOMEM;
	ret = capebus_modalias(cape, alias, CAPEBUS_MODALIAS_LEN);
	if (ret >= 0)
		ret = add_uevent_var(env, "MODALIAS=%s", alias);
	kfree(alias);

	return ret < 0 ? ret : 0;
}

/* ---- cape attributes ------------------------------------------------- */

static ssize_t capebus_text_show(struct device *dev, char *buf,
				 enum capebus_text which)
{
	return sysfs_emit(buf, "%s\n", cape_text(to_cape_device(dev), which));
}

static ssize_t board_name_show(struct device *dev, struct device_attribute *attr,
			       char *buf)
{
	return capebus_text_show(dev, buf, CAPEBUS_BOARD_NAME);
}
static DEVICE_ATTR_RO(board_name);

static ssize_t version_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return capebus_text_show(dev, buf, CAPEBUS_VERSION);
}
static DEVICE_ATTR_RO(version);

static ssize_t manufacturer_show(struct device *dev, struct device_attribute *attr,
				 char *buf)
{
	return capebus_text_show(dev, buf, CAPEBUS_MANUFACTURER);
}
static DEVICE_ATTR_RO(manufacturer);

static ssize_t part_number_show(struct device *dev, struct device_attribute *attr,
				char *buf)
{
	return capebus_text_show(dev, buf, CAPEBUS_PART_NUMBER);
}
static DEVICE_ATTR_RO(part_number);

static ssize_t serial_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return capebus_text_show(dev, buf, CAPEBUS_SERIAL);
}
static DEVICE_ATTR_RO(serial);

static ssize_t family_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%s\n", cape_family(to_cape_device(dev)));
}
static DEVICE_ATTR_RO(family);

/* The numeric identity: each attribute exists only if the ID states it. */
static ssize_t uuid_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%pUb\n", &to_cape_device(dev)->info->uuid);
}
static DEVICE_ATTR_RO(uuid);

static ssize_t vendor_id_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	return sysfs_emit(buf, "0x%04x\n", to_cape_device(dev)->info->vendor_id);
}
static DEVICE_ATTR_RO(vendor_id);

static ssize_t product_id_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%04x\n", to_cape_device(dev)->info->product_id);
}
static DEVICE_ATTR_RO(product_id);

static ssize_t product_version_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%04x\n",
			  to_cape_device(dev)->info->product_version);
}
static DEVICE_ATTR_RO(product_version);

static ssize_t format_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%s\n", to_cape_device(dev)->info->format);
}
static DEVICE_ATTR_RO(format);

/* One line per pin, as a PCI device's "resource" has one line per BAR. */
static ssize_t pins_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	const struct cape_device *cape = to_cape_device(dev);
	const struct capebus_header *header = cape->ctrl->header;
	const struct capebus_cape_info *info = cape->info;
	unsigned int pin;
	ssize_t n = 0;

	for_each_set_bit(pin, info->pins, header->num_pins)
		n += sysfs_emit_at(buf, n, "%s%s%s\n", header->pin_names[pin],
				   info->pin_setting[pin][0] ? " " : "",
				   info->pin_setting[pin]);

	return n;
}
static DEVICE_ATTR_RO(pins);

/*
 * The "currents" attribute's format, shared with configfs: "<rail> <mA>" a
 * line, the header's rails by name, then what the cape can supply.
 */
static const char capebus_supplied[] = "dc-supplied";

ssize_t capebus_currents_emit(const struct capebus_header *header,
			      const struct capebus_cape_info *info, char *buf)
{
	unsigned int rail;
	ssize_t n = 0;

	for (rail = 0; rail < header->num_rails; rail++)
		n += sysfs_emit_at(buf, n, "%s %u\n", header->rail_names[rail],
				   info->current_ma[rail]);
	n += sysfs_emit_at(buf, n, "%s %u\n", capebus_supplied,
			   info->supplied_ma);

	return n;
}

/* A rail's index by name, header->num_rails for "dc-supplied". */
int capebus_currents_index(const struct capebus_header *header,
			   const char *name)
{
	unsigned int rail;

	for (rail = 0; rail < header->num_rails; rail++)
		if (!strcmp(name, header->rail_names[rail]))
			return rail;
	if (!strcmp(name, capebus_supplied))
		return header->num_rails;

	return -EINVAL;
}

static ssize_t currents_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	const struct cape_device *cape = to_cape_device(dev);

	return capebus_currents_emit(cape->ctrl->header, cape->info, buf);
}
static DEVICE_ATTR_RO(currents);

static ssize_t slot_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%u\n", to_cape_device(dev)->slot_nr);
}
static DEVICE_ATTR_RO(slot);

/* "within", or "over: <rails>": the first word is for scripts. */
static ssize_t budget_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	const struct cape_device *cape = to_cape_device(dev);

	if (!cape->over_budget)
		return sysfs_emit(buf, "within\n");

	return sysfs_emit(buf, "over: %s\n", cape->budget_why);
}
static DEVICE_ATTR_RO(budget);

/*
 * The overlay's source may change once, from "none" to "firmware", when
 * capebus_cape_retry_overlay() finds the file: a word either way.
 */
static ssize_t overlay_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", READ_ONCE(to_cape_device(dev)->overlay_source));
}
static DEVICE_ATTR_RO(overlay);

static ssize_t overlay_file_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", to_cape_device(dev)->overlay_file);
}
static DEVICE_ATTR_RO(overlay_file);

static ssize_t modalias_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	int n = capebus_modalias(to_cape_device(dev), buf, PAGE_SIZE - 1);

	if (n < 0)
		return n;

	return sysfs_emit_at(buf, n, "\n") + n;
}
static DEVICE_ATTR_RO(modalias);

static struct attribute *cape_attrs[] = {
	&dev_attr_family.attr,
	&dev_attr_board_name.attr,
	&dev_attr_version.attr,
	&dev_attr_manufacturer.attr,
	&dev_attr_part_number.attr,
	&dev_attr_serial.attr,
	&dev_attr_format.attr,
	&dev_attr_pins.attr,
	&dev_attr_currents.attr,
	&dev_attr_budget.attr,
	&dev_attr_slot.attr,
	&dev_attr_overlay.attr,
	&dev_attr_overlay_file.attr,
	&dev_attr_modalias.attr,
	NULL
};

static const struct attribute_group cape_group = {
	.attrs	= cape_attrs,
};

static struct attribute *cape_id_attrs[] = {
	&dev_attr_uuid.attr,
	&dev_attr_vendor_id.attr,
	&dev_attr_product_id.attr,
	&dev_attr_product_version.attr,
	NULL
};

static umode_t cape_id_attr_visible(struct kobject *kobj, struct attribute *a,
				    int n)
{
	static const unsigned int bits[] = {
		CAPEBUS_ID_UUID, CAPEBUS_ID_VENDOR, CAPEBUS_ID_PRODUCT,
		CAPEBUS_ID_PRODUCT_VERSION,
	};
	const struct cape_device *cape = to_cape_device(kobj_to_dev(kobj));

	return n < ARRAY_SIZE(bits) && (cape->info->ids & bits[n]) ?
	       a->mode : 0;
}

static const struct attribute_group cape_id_group = {
	.attrs		= cape_id_attrs,
	.is_visible	= cape_id_attr_visible,
};

static const struct attribute_group *cape_groups[] = {
	&cape_group,
	&cape_id_group,
	NULL
};

static void capebus_cape_release(struct device *dev)
{
	struct cape_device *cape = to_cape_device(dev);

	put_device(&cape->ctrl->dev);
	kfree(cape->claim);
	capebus_overlay_forget(cape);
	kvfree(cape->overlay);
	kfree(cape->info);
	kfree(cape->applied_by);
	kfree(cape);
}

const struct device_type capebus_cape_type = {
	.name		= "cape",
	.groups		= cape_groups,
	.release	= capebus_cape_release,
};

const struct bus_type capebus_bus_type = {
	.name		= "capebus",
	.match		= capebus_match,
	.probe		= capebus_probe,
	.remove		= capebus_remove,
	.uevent		= capebus_uevent,
};

/* ---- drivers ------------------------------------------------------------ */

/*
 * A cape the generic driver holds that @data's id table names: unbind it
 * and probe it again, so that the specific driver takes it (the USB core
 * does the same for devices its generic driver holds).  Under the cape's
 * controller's transition lock, as every other probe and remove capebus
 * starts: a slot transition of the cape waits for the handover.
 */
static int capebus_reprobe_generic(struct device *dev, void *data)
{
	const struct capebus_driver *cdrv = data;
	struct cape_device *cape = to_cape_device(dev);
	bool generic;

	guard(mutex)(&cape->ctrl->transition);
	if (!cape->registered)
		return 0;

	device_lock(dev);
	generic = dev->driver == &capebus_generic_driver.driver;
	device_unlock(dev);

	if (generic && capebus_match_id(cdrv->id_table, cape)) {
		if (device_reprobe(dev))
			dev_err(dev, "not handed to %s\n", cdrv->driver.name);
	}

	return 0;
}

/*
 * A cape @data holds: unbind it, under its controller's transition lock,
 * before the driver goes (driver_unregister() would, without the lock).
 */
static int capebus_unbind_from(struct device *dev, void *data)
{
	const struct capebus_driver *cdrv = data;
	struct cape_device *cape = to_cape_device(dev);
	bool bound;

	guard(mutex)(&cape->ctrl->transition);
	if (!cape->registered)
		return 0;

	device_lock(dev);
	bound = dev->driver == &cdrv->driver;
	device_unlock(dev);

	if (bound)
		device_release_driver(dev);

	return 0;
}

/* A registered cape no driver holds: probe it, as a rescan would. */
static int capebus_attach_unbound(struct device *dev, void *data)
{
	struct cape_device *cape = to_cape_device(dev);
	int ret = 0;

	guard(mutex)(&cape->ctrl->transition);
	if (cape->registered && !READ_ONCE(dev->driver))
		ret = device_attach(dev);

	return ret < 0 ? ret : 0;
}

/*
 * Root's bind and unbind of a cape driver, in place of the driver core's
 * (suppress_bind_attrs): the same files and effect, under the cape's
 * controller's transition lock, as every other probe and remove of a cape.
 */
static ssize_t bind_store(struct device_driver *drv, const char *buf,
			  size_t count)
{
	struct device *dev = bus_find_device_by_name(&capebus_bus_type, NULL, buf);
	struct cape_device *cape;
	int ret = -ENODEV;

	if (!dev)
		return -ENODEV;
	cape = to_cape_device(dev);
	scoped_guard(mutex, &cape->ctrl->transition)
		if (cape->registered && capebus_match(dev, drv))
			ret = device_driver_attach(drv, dev);
	put_device(dev);

	return ret ?: count;
}
static DRIVER_ATTR_WO(bind);

static ssize_t unbind_store(struct device_driver *drv, const char *buf,
			    size_t count)
{
	struct device *dev = bus_find_device_by_name(&capebus_bus_type, NULL, buf);
	struct cape_device *cape;
	int ret = -ENODEV;

	if (!dev)
		return -ENODEV;
	cape = to_cape_device(dev);
	scoped_guard(mutex, &cape->ctrl->transition) {
		if (cape->registered && READ_ONCE(dev->driver) == drv) {
			device_release_driver(dev);
			ret = 0;
		}
	}
	put_device(dev);

	return ret ?: count;
}
static DRIVER_ATTR_WO(unbind);

static struct attribute *capebus_driver_attrs[] = {
	&driver_attr_bind.attr,
	&driver_attr_unbind.attr,
	NULL
};
ATTRIBUTE_GROUPS(capebus_driver);

/**
 * __capebus_driver_register() - register a cape driver
 * @drv: the driver; its probe and id_table must be set
 * @owner: the module of the driver (capebus_driver_register() passes it)
 *
 * Capes its id table names that the generic driver holds (the driver's
 * module loaded after they appeared) are handed over to it, each under its
 * controller's transition lock.  The driver's sysfs bind and unbind files
 * are capebus's (@drv->driver.groups), which take that lock too.
 *
 * Return: 0 or a negative errno.
 */
int __capebus_driver_register(struct capebus_driver *drv, struct module *owner)
{
	int ret;

	if (!drv->probe)
		return -EINVAL;

	drv->driver.owner = owner;
	drv->driver.bus = &capebus_bus_type;
	drv->driver.suppress_bind_attrs = true;
	drv->driver.groups = capebus_driver_groups;

	ret = driver_register(&drv->driver);
	if (ret || drv == &capebus_generic_driver)
		return ret;

	bus_for_each_dev(&capebus_bus_type, NULL, drv, capebus_reprobe_generic);

	return 0;
}
EXPORT_SYMBOL_GPL(__capebus_driver_register);

/**
 * capebus_driver_unregister() - unregister a cape driver
 * @drv: the driver; it is unbound from every cape first, and the capes it
 *	held go to the generic driver if it takes them
 *
 * Each cape's unbinding and probe run under its controller's transition
 * lock, as in capebus_driver_register().
 */
void capebus_driver_unregister(struct capebus_driver *drv)
{
	if (drv != &capebus_generic_driver)
		bus_for_each_dev(&capebus_bus_type, NULL, drv,
				 capebus_unbind_from);
	driver_unregister(&drv->driver);
	if (drv != &capebus_generic_driver &&
	    bus_for_each_dev(&capebus_bus_type, NULL, NULL,
			     capebus_attach_unbound))
		pr_warn("capes of %s not rescanned\n", drv->driver.name);
}
EXPORT_SYMBOL_GPL(capebus_driver_unregister);

/**
 * capebus_cape_apply_overlay() - apply a cape's device-tree overlay
 * @cape: the cape; the caller holds its device lock (a driver's probe)
 *
 * The overlay was resolved when the cape was added (structure, references
 * through the connector's exports, pins claimed); what it does to the live
 * tree is verified as it is applied.  A cape without an overlay succeeds at
 * once.
 *
 * Return: 0 or a negative errno; @cape->apply_why then says what went wrong.
 */
int capebus_cape_apply_overlay(struct cape_device *cape)
{
	device_lock_assert(&cape->dev);

	if (!cape->overlay || cape->ovcs_id)
		return 0;

	if (cape->overlay_stuck) {
		snprintf(cape->apply_why, sizeof(cape->apply_why),
			 "its previous overlay could not be removed");
		return -EBUSY;
	}

	cape->apply_err = capebus_overlay_apply(cape);
	/* A partial overlay that could not be taken back: as in a revert. */
	if (cape->overlay_stuck)
		capebus_cape_mark_stuck(cape);

	return cape->apply_err;
}
EXPORT_SYMBOL_GPL(capebus_cape_apply_overlay);

/**
 * capebus_cape_revert_overlay() - remove a cape's device-tree overlay
 * @cape: the cape; the caller holds its device lock (a driver's remove)
 *
 * A failure is reported in the log and leaves the cape's overlay marked
 * stuck, on its controller's list of stuck overlays, whichever path asked
 * (a slot transition, the driver core, root's unbind): the cape keeps its
 * pins until a retry removes it (after a cape removal, at a "rescan").
 */
void capebus_cape_revert_overlay(struct cape_device *cape)
{
	device_lock_assert(&cape->dev);

	if (capebus_overlay_revert(cape, false))
		capebus_cape_mark_stuck(cape);
}
EXPORT_SYMBOL_GPL(capebus_cape_revert_overlay);

/* The generic cape: its overlay is all it needs. */
static int capebus_generic_probe(struct cape_device *cape,
				 const struct cape_device_id *id)
{
	return capebus_cape_apply_overlay(cape);
}

static void capebus_generic_remove(struct cape_device *cape)
{
	capebus_cape_revert_overlay(cape);
}

static struct capebus_driver capebus_generic_driver = {
	.probe	= capebus_generic_probe,
	.remove	= capebus_generic_remove,
	.driver	= {
		.name	= "capebus-generic",
	},
};

/*
 * A cape is "loaded" from the end of a driver's probe to the start of its
 * unbinding: dev.driver is set before the probe runs (and cleared after
 * remove), so a state read during a driver's takeover would say "loaded"
 * with the overlay not applied yet, or already gone.
 */
static int capebus_bound_notify(struct notifier_block *nb,
				unsigned long action, void *data)
{
	struct device *dev = data;
	struct cape_device *cape;

	if (dev->type != &capebus_cape_type)
		return NOTIFY_DONE;

	cape = to_cape_device(dev);
	if (action == BUS_NOTIFY_BOUND_DRIVER)
		WRITE_ONCE(cape->bound, true);
	else if (action == BUS_NOTIFY_UNBIND_DRIVER)
		WRITE_ONCE(cape->bound, false);
	else
		return NOTIFY_DONE;
	if (cape->slot)
		capebus_slot_announce(cape->slot);

	return NOTIFY_DONE;
}

static struct notifier_block capebus_bound_nb = {
	.notifier_call	= capebus_bound_notify,
};

static int __init capebus_init(void)
{
	int ret;

	ret = bus_register(&capebus_bus_type);
	if (ret)
		return ret;

	ret = bus_register_notifier(&capebus_bus_type, &capebus_bound_nb);
	if (ret)
		goto err_bus;

	ret = class_register(&capebus_class);
	if (ret)
		goto err_notifier;

	ret = capebus_parents_init();
	if (ret)
		goto err_class;

	ret = capebus_overlay_init();
	if (ret)
		goto err_parents;

	ret = capebus_driver_register(&capebus_generic_driver);
	if (ret)
		goto err_overlay;

	ret = capebus_configfs_init();
	if (ret)
		goto err_generic;

	return 0;

err_generic:
	capebus_driver_unregister(&capebus_generic_driver);
err_overlay:
	capebus_overlay_exit();
err_parents:
	capebus_parents_exit();
err_class:
	class_unregister(&capebus_class);
err_notifier:
	bus_unregister_notifier(&capebus_bus_type, &capebus_bound_nb);
err_bus:
	bus_unregister(&capebus_bus_type);
	return ret;
}
module_init(capebus_init);

static void __exit capebus_exit(void)
{
	capebus_configfs_exit();
	capebus_driver_unregister(&capebus_generic_driver);
	capebus_overlay_exit();
	capebus_parents_exit();
	capebus_enable_exit();
	capebus_controller_exit();
	class_unregister(&capebus_class);
	bus_unregister_notifier(&capebus_bus_type, &capebus_bound_nb);
	bus_unregister(&capebus_bus_type);
}
module_exit(capebus_exit);

MODULE_DESCRIPTION("capebus: add-on boards on a board's expansion header");
MODULE_AUTHOR("capebus developers <capebus@lists.example.org>");
MODULE_LICENSE("GPL");
