// SPDX-License-Identifier: GPL-2.0
/*
 * capebus core: the capebus bus, cape devices and drivers, the generic cape
 * driver, board controllers and their slots.
 *
 * The design follows the 2012 capebus RFC by Pantelis Antoniou (a cape bus
 * on the driver core, board controllers that identify capes, a generic cape)
 * with device-tree overlays for what capes add to the system.
 *
 * Lock order (outermost first):
 *
 *   1. callers' own locks (configfs: the cape item's mutex)
 *   2. capebus_controller.lock: slots, the resource table, the set of capes
 *   3. device_lock() of a cape (driver core: probe, remove, bind, unbind)
 *   4. of_overlay_mutex, of_mutex (of_overlay_fdt_apply(), of_overlay_remove())
 *      and, below them, the locks of the devices an overlay adds or removes
 *
 * So nothing called with a cape's device lock held (cape drivers' probe and
 * remove, the overlay helpers) may take a controller's lock, and no sysfs
 * attribute of a cape takes it either (a cape's attributes are drained by
 * device_del() under the controller's lock): a cape's description is fixed
 * when it is created and read without locks.  Slot attributes take the
 * controller's lock; slot devices are deleted without it.
 *
 * Lifetime: a controller owns its slots; a cape holds a reference on its
 * controller.  capebus_cape_add() returns a reference for the caller; the
 * core holds one more while the cape is registered.  A cape's memory is
 * freed in capebus_cape_release(), nowhere else.
 */

#define pr_fmt(fmt) "capebus: " fmt

#include <linux/capebus.h>
#include <linux/device.h>
#include <linux/firmware.h>
#include <linux/idr.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "capebus-eeprom.h"
#include "capebus-internal.h"
#include "capebus-resources.h"

/* The version bone_capemgr assumed for a part named without one. */
#define CAPEBUS_DEFAULT_VERSION	"00A0"

static char *disable_partno;
module_param(disable_partno, charp, 0444);
MODULE_PARM_DESC(disable_partno,
		 "Comma list of PART[:VERSION] that are detected but not loaded");

static char *enable_partno;
module_param(enable_partno, charp, 0444);
MODULE_PARM_DESC(enable_partno,
		 "Comma list of PART[:VERSION] loaded in virtual slots at boot, with their firmware overlay");

static DEFINE_IDA(capebus_ida);

static const char *const capebus_slot_state_names[] = {
	[CAPEBUS_SLOT_EMPTY]	= "empty",
	[CAPEBUS_SLOT_DETECTED]	= "detected",
	[CAPEBUS_SLOT_LOADED]	= "loaded",
	[CAPEBUS_SLOT_FAILED]	= "failed",
	[CAPEBUS_SLOT_DISABLED]	= "disabled",
};

/* ---- matching ---------------------------------------------------------- */

static const struct cape_device_id *
capebus_match_id(const struct cape_device_id *id, const struct cape_device *cape)
{
	if (!id)
		return NULL;

	for (; id->part_number[0]; id++) {
		if (strcmp(id->part_number, cape->ee->part_number))
			continue;
		if (id->version[0] && strcmp(id->version, cape->ee->version))
			continue;
		if (id->board_name[0] &&
		    strcmp(id->board_name, cape->ee->board_name))
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

/* The generic driver takes a cape with an overlay that no driver names. */
static bool capebus_generic_matches(struct cape_device *cape)
{
	if (!cape->overlay)
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

static int capebus_uevent(const struct device *dev, struct kobj_uevent_env *env)
{
	const struct cape_device *cape = to_cape_device(dev);
	const struct cape_eeprom *ee = cape->ee;

	if (add_uevent_var(env, "CAPEBUS_BOARD=%s", ee->board_name) ||
	    add_uevent_var(env, "CAPEBUS_PART=%s", ee->part_number) ||
	    add_uevent_var(env, "CAPEBUS_VERSION=%s", ee->version) ||
	    add_uevent_var(env, "CAPEBUS_SLOT=%u", cape->slot_nr) ||
	    add_uevent_var(env, "MODALIAS=capebus:p%sv%s",
			   ee->part_number, ee->version))
		return -ENOMEM;

	return 0;
}

/* ---- cape attributes ------------------------------------------------- */

static ssize_t board_name_show(struct device *dev, struct device_attribute *attr,
			       char *buf)
{
	return sysfs_emit(buf, "%s\n", to_cape_device(dev)->ee->board_name);
}
static DEVICE_ATTR_RO(board_name);

static ssize_t version_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", to_cape_device(dev)->ee->version);
}
static DEVICE_ATTR_RO(version);

static ssize_t manufacturer_show(struct device *dev, struct device_attribute *attr,
				 char *buf)
{
	return sysfs_emit(buf, "%s\n", to_cape_device(dev)->ee->manufacturer);
}
static DEVICE_ATTR_RO(manufacturer);

static ssize_t part_number_show(struct device *dev, struct device_attribute *attr,
				char *buf)
{
	return sysfs_emit(buf, "%s\n", to_cape_device(dev)->ee->part_number);
}
static DEVICE_ATTR_RO(part_number);

static ssize_t serial_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%s\n", to_cape_device(dev)->ee->serial);
}
static DEVICE_ATTR_RO(serial);

static ssize_t format_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	const struct cape_eeprom *ee = to_cape_device(dev)->ee;

	return sysfs_emit(buf, "%s\n",
			  ee->format == CAPE_EEPROM_FORMAT_A0 ? "A0" : "A1");
}
static DEVICE_ATTR_RO(format);

static ssize_t pins_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	const struct cape_eeprom *ee = to_cape_device(dev)->ee;
	char line[64];
	ssize_t n = 0;
	unsigned int i;

	for (i = 0; i < ee->num_pin_words; i++) {
		if (!(ee->pins[i] & CAPE_PIN_USED))
			continue;
		if (cape_pin_word_format(line, sizeof(line), i, ee->pins[i]) < 0)
			continue;
		n += sysfs_emit_at(buf, n, "%s\n", line);
	}

	return n;
}
static DEVICE_ATTR_RO(pins);

/*
 * The "power" attribute's format, shared with configfs: "<rail> <mA>" a
 * line, the rails by name, then what the cape can supply.
 */
static const char capebus_dc_supplied[] = "dc-supplied";

ssize_t capebus_power_emit(const struct cape_eeprom *ee, char *buf)
{
	ssize_t n = 0;
	int rail;

	for (rail = 0; rail < CAPEBUS_NUM_RAILS; rail++)
		n += sysfs_emit_at(buf, n, "%s %u\n", capebus_rail_name(rail),
				   ee->current_ma[rail]);
	n += sysfs_emit_at(buf, n, "%s %u\n", capebus_dc_supplied,
			   ee->dc_supplied_ma);

	return n;
}

int capebus_power_index(const char *name)
{
	int rail;

	for (rail = 0; rail < CAPEBUS_NUM_RAILS; rail++)
		if (!strcmp(name, capebus_rail_name(rail)))
			return rail;
	if (!strcmp(name, capebus_dc_supplied))
		return CAPEBUS_NUM_RAILS;

	return -EINVAL;
}

static ssize_t power_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return capebus_power_emit(to_cape_device(dev)->ee, buf);
}
static DEVICE_ATTR_RO(power);

static ssize_t id_show(struct device *dev, struct device_attribute *attr,
		       char *buf)
{
	const struct cape_eeprom *ee = to_cape_device(dev)->ee;

	return sysfs_emit(buf, "%s,%s,%s,%s\n", ee->board_name, ee->version,
			  ee->manufacturer, ee->part_number);
}
static DEVICE_ATTR_RO(id);

static ssize_t slot_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%u\n", to_cape_device(dev)->slot_nr);
}
static DEVICE_ATTR_RO(slot);

static ssize_t overlay_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", to_cape_device(dev)->overlay_source);
}
static DEVICE_ATTR_RO(overlay);

static ssize_t modalias_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	const struct cape_eeprom *ee = to_cape_device(dev)->ee;

	return sysfs_emit(buf, "capebus:p%sv%s\n", ee->part_number,
			  ee->version);
}
static DEVICE_ATTR_RO(modalias);

static struct attribute *cape_attrs[] = {
	&dev_attr_board_name.attr,
	&dev_attr_version.attr,
	&dev_attr_manufacturer.attr,
	&dev_attr_part_number.attr,
	&dev_attr_serial.attr,
	&dev_attr_format.attr,
	&dev_attr_pins.attr,
	&dev_attr_power.attr,
	&dev_attr_id.attr,
	&dev_attr_slot.attr,
	&dev_attr_overlay.attr,
	&dev_attr_modalias.attr,
	NULL
};
ATTRIBUTE_GROUPS(cape);

const struct bus_type capebus_bus_type = {
	.name		= "capebus",
	.match		= capebus_match,
	.probe		= capebus_probe,
	.remove		= capebus_remove,
	.uevent		= capebus_uevent,
	.dev_groups	= cape_groups,
};
EXPORT_SYMBOL_GPL(capebus_bus_type);

static void capebus_cape_release(struct device *dev)
{
	struct cape_device *cape = to_cape_device(dev);

	put_device(&cape->ctrl->dev);
	kfree(cape->claim);
	kfree(cape->overlay_source);
	kvfree(cape->overlay);
	kfree(cape->ee);
	kfree(cape);
}

static const struct device_type cape_device_type = {
	.name		= "cape",
	.release	= capebus_cape_release,
};

/* ---- drivers ------------------------------------------------------------ */

/**
 * __capebus_driver_register() - register a cape driver
 * @drv: the driver; its probe and id_table must be set
 * @owner: the module of the driver (capebus_driver_register() passes it)
 *
 * Return: 0 or a negative errno.
 */
int __capebus_driver_register(struct capebus_driver *drv, struct module *owner)
{
	if (!drv->probe)
		return -EINVAL;

	drv->driver.owner = owner;
	drv->driver.bus = &capebus_bus_type;

	return driver_register(&drv->driver);
}
EXPORT_SYMBOL_GPL(__capebus_driver_register);

/**
 * capebus_driver_unregister() - unregister a cape driver
 * @drv: the driver; it is unbound from every cape first
 */
void capebus_driver_unregister(struct capebus_driver *drv)
{
	driver_unregister(&drv->driver);
}
EXPORT_SYMBOL_GPL(capebus_driver_unregister);

/**
 * capebus_cape_apply_overlay() - apply a cape's device-tree overlay
 * @cape: the cape; the caller holds its device lock (a driver's probe)
 *
 * The overlay was checked when the cape was added (targets in scope, no
 * __symbols__, pins claimed).  A cape without an overlay succeeds at once.
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

	return cape->apply_err;
}
EXPORT_SYMBOL_GPL(capebus_cape_apply_overlay);

/**
 * capebus_cape_revert_overlay() - remove a cape's device-tree overlay
 * @cape: the cape; the caller holds its device lock (a driver's remove)
 *
 * A failure is reported in the log and leaves the cape's overlay marked
 * stuck: the cape keeps its pins until a later removal succeeds.
 */
void capebus_cape_revert_overlay(struct cape_device *cape)
{
	device_lock_assert(&cape->dev);

	capebus_overlay_revert(cape, false);
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

/* ---- slots -------------------------------------------------------------- */

/**
 * capebus_slot_state_name() - the sysfs word for a slot state
 * @state: the state
 *
 * Return: "empty", "detected", "loaded", "failed" or "disabled".
 */
const char *capebus_slot_state_name(enum capebus_slot_state state)
{
	if (state >= ARRAY_SIZE(capebus_slot_state_names))
		return "unknown";

	return capebus_slot_state_names[state];
}
EXPORT_SYMBOL_GPL(capebus_slot_state_name);

static enum capebus_slot_state capebus_slot_state_locked(struct capebus_slot *slot)
{
	lockdep_assert_held(&slot->ctrl->lock);

	if (!slot->cape)
		return slot->state;

	return READ_ONCE(slot->cape->dev.driver) ? CAPEBUS_SLOT_LOADED :
						   CAPEBUS_SLOT_DETECTED;
}

/**
 * capebus_slot_state() - what a slot holds now
 * @slot: the slot
 *
 * Return: the state; %CAPEBUS_SLOT_LOADED when a driver is bound to the
 * slot's cape, %CAPEBUS_SLOT_DETECTED when none is.
 */
enum capebus_slot_state capebus_slot_state(struct capebus_slot *slot)
{
	guard(mutex)(&slot->ctrl->lock);

	return capebus_slot_state_locked(slot);
}
EXPORT_SYMBOL_GPL(capebus_slot_state);

static ssize_t state_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct capebus_slot *slot = container_of(dev, struct capebus_slot, dev);

	return sysfs_emit(buf, "%s\n",
			  capebus_slot_state_name(capebus_slot_state(slot)));
}
static DEVICE_ATTR_RO(state);

static ssize_t reason_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct capebus_slot *slot = container_of(dev, struct capebus_slot, dev);

	guard(mutex)(&slot->ctrl->lock);
	return sysfs_emit(buf, "%s\n", slot->reason);
}
static DEVICE_ATTR_RO(reason);

static ssize_t nvmem_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct capebus_slot *slot = container_of(dev, struct capebus_slot, dev);

	guard(mutex)(&slot->ctrl->lock);
	return sysfs_emit(buf, "%s\n", slot->nvmem_name);
}
static DEVICE_ATTR_RO(nvmem);

static ssize_t cape_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct capebus_slot *slot = container_of(dev, struct capebus_slot, dev);

	guard(mutex)(&slot->ctrl->lock);
	return sysfs_emit(buf, "%s\n",
			  slot->cape ? dev_name(&slot->cape->dev) : "");
}
static DEVICE_ATTR_RO(cape);

static struct attribute *capebus_slot_attrs[] = {
	&dev_attr_state.attr,
	&dev_attr_reason.attr,
	&dev_attr_nvmem.attr,
	&dev_attr_cape.attr,
	NULL
};
ATTRIBUTE_GROUPS(capebus_slot);

static void capebus_slot_release(struct device *dev)
{
	struct capebus_slot *slot = container_of(dev, struct capebus_slot, dev);

	kfree(slot->desc_ee);
	kvfree(slot->eeprom);
	kvfree(slot->overlay);
	kfree(slot);
}

static const struct device_type capebus_slot_type = {
	.name		= "capebus_slot",
	.groups		= capebus_slot_groups,
	.release	= capebus_slot_release,
};

/**
 * capebus_slot() - a controller's hardware slot
 * @ctrl: the controller
 * @nr: the slot number
 *
 * Return: the slot, or NULL if @ctrl has no slot @nr.
 */
struct capebus_slot *capebus_slot(struct capebus_controller *ctrl,
				  unsigned int nr)
{
	return nr < ctrl->num_slots ? ctrl->slots[nr] : NULL;
}
EXPORT_SYMBOL_GPL(capebus_slot);

/**
 * capebus_slot_set_nvmem() - name the slot's EEPROM nvmem device
 * @slot: the slot
 * @name: the nvmem device's name (as under /sys/bus/nvmem/devices)
 */
void capebus_slot_set_nvmem(struct capebus_slot *slot, const char *name)
{
	guard(mutex)(&slot->ctrl->lock);
	strscpy(slot->nvmem_name, name ?: "", sizeof(slot->nvmem_name));
}
EXPORT_SYMBOL_GPL(capebus_slot_set_nvmem);

/**
 * capebus_slot_set_empty() - record that a slot holds no cape
 * @slot: the slot; it must hold no cape device
 */
void capebus_slot_set_empty(struct capebus_slot *slot)
{
	guard(mutex)(&slot->ctrl->lock);
	if (WARN_ON(slot->cape))
		return;
	slot->state = CAPEBUS_SLOT_EMPTY;
	slot->reason[0] = '\0';
}
EXPORT_SYMBOL_GPL(capebus_slot_set_empty);

static void capebus_slot_fail_locked(struct capebus_slot *slot, const char *why)
{
	lockdep_assert_held(&slot->ctrl->lock);

	slot->state = CAPEBUS_SLOT_FAILED;
	strscpy(slot->reason, why, sizeof(slot->reason));
	dev_err(&slot->ctrl->dev, "slot %u: %s\n", slot->nr, why);
}

/**
 * capebus_slot_set_failed() - mark a slot failed
 * @slot: the slot; it must hold no cape device
 * @fmt: printf format of the reason, shown in the slot's "reason" file
 */
void capebus_slot_set_failed(struct capebus_slot *slot, const char *fmt, ...)
{
	char why[CAPEBUS_REASON_LEN];
	va_list args;

	va_start(args, fmt);
	vsnprintf(why, sizeof(why), fmt, args);
	va_end(args);

	guard(mutex)(&slot->ctrl->lock);
	if (WARN_ON(slot->cape))
		return;
	capebus_slot_fail_locked(slot, why);
}
EXPORT_SYMBOL_GPL(capebus_slot_set_failed);

/**
 * capebus_slot_reason() - copy a slot's last failure reason
 * @slot: the slot
 * @buf: where to copy it ("" if none)
 * @len: bytes at @buf
 */
void capebus_slot_reason(struct capebus_slot *slot, char *buf, size_t len)
{
	guard(mutex)(&slot->ctrl->lock);
	strscpy(buf, slot->reason, len);
}
EXPORT_SYMBOL_GPL(capebus_slot_reason);

/**
 * capebus_slot_set_eeprom() - keep the bytes read from a slot's EEPROM
 * @slot: the slot
 * @raw: the bytes; copied
 * @len: bytes at @raw
 *
 * Return: 0 or -ENOMEM.
 */
int capebus_slot_set_eeprom(struct capebus_slot *slot, const void *raw,
			    size_t len)
{
	void *copy = kvmemdup(raw, len, GFP_KERNEL);

	if (!copy)
		return -ENOMEM;

	guard(mutex)(&slot->ctrl->lock);
	swap(slot->eeprom, copy);
	slot->eeprom_len = len;
	kvfree(copy);

	return 0;
}
EXPORT_SYMBOL_GPL(capebus_slot_set_eeprom);

/**
 * capebus_slot_read_eeprom() - read the bytes kept from a slot's EEPROM
 * @slot: the slot
 * @buf: where to copy
 * @off: offset in the EEPROM
 * @count: most bytes to copy
 *
 * Return: bytes copied (0 past the end or if nothing was read).
 */
ssize_t capebus_slot_read_eeprom(struct capebus_slot *slot, char *buf,
				 loff_t off, size_t count)
{
	guard(mutex)(&slot->ctrl->lock);

	return memory_read_from_buffer(buf, count, &off, slot->eeprom,
				       slot->eeprom ? slot->eeprom_len : 0);
}
EXPORT_SYMBOL_GPL(capebus_slot_read_eeprom);

/* Is PART[:VERSION] in a comma list of kernel parameters? */
static bool capebus_partno_listed(const char *list, const struct cape_eeprom *ee)
{
	const char *p = list;
	size_t plen = strlen(ee->part_number);

	while (p && *p) {
		const char *end = strchrnul(p, ',');
		const char *colon = strnchr(p, end - p, ':');
		const char *pend = colon ?: end;

		if (pend - p == plen && !strncmp(p, ee->part_number, plen) &&
		    (!colon || (end - colon - 1 == strlen(ee->version) &&
				!strncmp(colon + 1, ee->version, end - colon - 1))))
			return true;
		p = *end ? end + 1 : end;
	}

	return false;
}

static struct cape_device *capebus_slot_load(struct capebus_slot *slot)
{
	struct capebus_cape_desc desc = {
		.ee		= slot->desc_ee,
		.slot		= slot->nr,
		.overlay	= slot->overlay,
		.overlay_len	= slot->overlay_len,
		.overlay_source	= "eeprom",
		.detected	= true,
	};
	char why[CAPEBUS_REASON_LEN];

	return capebus_cape_add(slot->ctrl, &desc, why, sizeof(why));
}

/**
 * capebus_slot_detected() - a controller found a cape in a slot
 * @slot: the slot; it must hold no cape device
 * @ee: what the slot's EEPROM says; copied
 * @overlay: the overlay of the EEPROM's extension record, or NULL; copied
 * @overlay_len: bytes at @overlay
 *
 * Adds the cape (see capebus_cape_add()) unless its part is listed in the
 * disable_partno parameter, in which case the slot is "disabled" and keeps
 * the description, so that capebus_slot_disable() can load it later.
 *
 * Return: 0 if the cape was added or disabled, else a negative errno (the
 * slot is then "failed" with the reason).
 */
int capebus_slot_detected(struct capebus_slot *slot,
			  const struct cape_eeprom *ee,
			  const void *overlay, size_t overlay_len)
{
	struct cape_eeprom *ee_copy;
	struct cape_device *cape;
	void *ov_copy = NULL;

	ee_copy = kmemdup(ee, sizeof(*ee), GFP_KERNEL);
	if (!ee_copy)
		return -ENOMEM;
	if (overlay) {
		ov_copy = kvmemdup(overlay, overlay_len, GFP_KERNEL);
		if (!ov_copy) {
			kfree(ee_copy);
			return -ENOMEM;
		}
	}

	scoped_guard(mutex, &slot->ctrl->lock) {
		if (slot->cape) {
			kvfree(ov_copy);
			kfree(ee_copy);
			return -EBUSY;
		}
		swap(slot->desc_ee, ee_copy);
		swap(slot->overlay, ov_copy);
		slot->overlay_len = overlay ? overlay_len : 0;

		if (capebus_partno_listed(disable_partno, ee)) {
			slot->state = CAPEBUS_SLOT_DISABLED;
			snprintf(slot->reason, sizeof(slot->reason),
				 "%s disabled by disable_partno", ee->part_number);
			dev_info(&slot->ctrl->dev, "slot %u: %s\n", slot->nr,
				 slot->reason);
		}
	}
	kvfree(ov_copy);
	kfree(ee_copy);

	if (capebus_slot_state(slot) == CAPEBUS_SLOT_DISABLED)
		return 0;

	cape = capebus_slot_load(slot);
	if (IS_ERR(cape))
		return PTR_ERR(cape);
	capebus_cape_put(cape);

	return 0;
}
EXPORT_SYMBOL_GPL(capebus_slot_detected);

/**
 * capebus_slot_disable() - unload a detected cape, or load it again
 * @slot: the slot
 * @disable: true to unload the cape (its overlay is reverted, its pins and
 *	current freed) and mark the slot "disabled"; false to load the cape
 *	last detected in a disabled slot
 *
 * Return: 0, -ENOENT if no cape was detected in the slot, -EBUSY if the slot
 * holds a cape that was not detected (a declared one), or the error of
 * capebus_cape_add().
 */
int capebus_slot_disable(struct capebus_slot *slot, bool disable)
{
	struct capebus_controller *ctrl = slot->ctrl;
	struct cape_device *cape;

	if (disable) {
		scoped_guard(mutex, &ctrl->lock) {
			if (!slot->desc_ee)
				return -ENOENT;
			cape = slot->cape;
			if (cape && !cape->detected)
				return -EBUSY;
			if (cape)
				capebus_cape_get(cape);
		}
		if (cape) {
			capebus_cape_remove(cape);
			capebus_cape_put(cape);
		}
		scoped_guard(mutex, &ctrl->lock) {
			if (slot->cape)
				return -EBUSY;
			slot->state = CAPEBUS_SLOT_DISABLED;
			snprintf(slot->reason, sizeof(slot->reason),
				 "%s disabled", slot->desc_ee->part_number);
		}
		return 0;
	}

	scoped_guard(mutex, &ctrl->lock) {
		if (slot->cape)
			return slot->cape->detected ? 0 : -EBUSY;
		if (!slot->desc_ee || slot->state != CAPEBUS_SLOT_DISABLED)
			return -ENOENT;
	}

	cape = capebus_slot_load(slot);
	if (IS_ERR(cape))
		return PTR_ERR(cape);
	capebus_cape_put(cape);

	return 0;
}
EXPORT_SYMBOL_GPL(capebus_slot_disable);

/* ---- capes --------------------------------------------------------------- */

static int capebus_cape_find_overlay(struct cape_device *cape,
				     const struct capebus_cape_desc *desc)
{
	const char *version = cape->ee->version[0] ? cape->ee->version :
						     CAPEBUS_DEFAULT_VERSION;
	const struct firmware *fw;
	char name[64];
	int ret;

	if (desc->overlay) {
		cape->overlay = kvmemdup(desc->overlay, desc->overlay_len,
					 GFP_KERNEL);
		cape->overlay_len = desc->overlay_len;
		cape->overlay_source = kstrdup(desc->overlay_source ?: "eeprom",
					       GFP_KERNEL);
		return cape->overlay && cape->overlay_source ? 0 : -ENOMEM;
	}

	snprintf(name, sizeof(name), "%s-%s.dtbo", cape->ee->part_number,
		 version);
	ret = firmware_request_nowarn(&fw, name, &cape->ctrl->dev);
	if (ret) {
		dev_dbg(&cape->ctrl->dev, "%s: no firmware %s (%d)\n",
			cape->holder, name, ret);
		cape->overlay_source = kstrdup("none", GFP_KERNEL);
		return cape->overlay_source ? 0 : -ENOMEM;
	}

	cape->overlay = kvmemdup(fw->data, fw->size, GFP_KERNEL);
	cape->overlay_len = fw->size;
	release_firmware(fw);
	cape->overlay_source = kasprintf(GFP_KERNEL, "firmware %s", name);

	return cape->overlay && cape->overlay_source ? 0 : -ENOMEM;
}

/* Build the cape's claim: EEPROM pins and currents, overlay pins, extras. */
static int capebus_cape_build_claim(struct cape_device *cape,
				    const struct capebus_cape_desc *desc,
				    char *why, size_t why_len)
{
	DECLARE_BITMAP(ov_pins, CAPEBUS_NUM_PINS) = { 0 };
	bool declared = false;
	int ret;

	cape->claim = kzalloc(sizeof(*cape->claim), GFP_KERNEL);
	if (!cape->claim)
		return -ENOMEM;

	capebus_claim_from_eeprom(cape->claim, cape->ee);
	cape->claim->holder = cape->holder;

	if (cape->overlay) {
		ret = capebus_overlay_check(cape, ov_pins, &declared, why,
					    why_len);
		if (ret)
			return ret;
	}

	if (declared && !bitmap_equal(ov_pins, cape->claim->pins,
				      CAPEBUS_NUM_PINS) &&
	    !bitmap_empty(cape->claim->pins, CAPEBUS_NUM_PINS)) {
		char diff[CAPEBUS_REASON_LEN];

		capebus_pins_format_diff(diff, sizeof(diff), cape->claim->pins,
					 ov_pins);
		dev_warn(&cape->ctrl->dev,
			 "%s: EEPROM pins and overlay exclusive-use disagree: %s\n",
			 cape->holder, diff);
	}

	bitmap_or(cape->claim->pins, cape->claim->pins, ov_pins,
		  CAPEBUS_NUM_PINS);
	bitmap_or(cape->claim->pins, cape->claim->pins, desc->extra_pins,
		  CAPEBUS_NUM_PINS);

	return 0;
}

static int capebus_cape_is_in(struct device *dev, void *data)
{
	const unsigned int *nr = data;

	if (dev->type != &cape_device_type)
		return 0;

	return to_cape_device(dev)->registered && to_cape_device(dev)->slot_nr == *nr;
}

/* Number the cape's slot: slot_nr, holder and device name. */
static int capebus_cape_set_slot(struct cape_device *cape, unsigned int nr)
{
	cape->slot_nr = nr;
	snprintf(cape->holder, sizeof(cape->holder), "%s (slot %u)",
		 cape->ee->part_number, nr);

	return dev_set_name(&cape->dev, "%s-slot%u", dev_name(&cape->ctrl->dev),
			    nr);
}

/* The lowest virtual slot no registered cape is in.  ctrl->lock held. */
static unsigned int capebus_free_virtual_slot(struct capebus_controller *ctrl)
{
	unsigned int nr = ctrl->num_slots;
	struct device *other;

	lockdep_assert_held(&ctrl->lock);

	while ((other = device_find_child(&ctrl->dev, &nr, capebus_cape_is_in))) {
		put_device(other);
		nr++;
	}

	return nr;
}

/*
 * of_overlay_remove() refuses an overlay that a later one overlaps (two
 * capes setting properties of one bus node, say) until the later one is
 * gone.  After an overlay came off, try the removed capes whose overlay
 * stayed, newest first, until a pass frees none: each one that comes off
 * now gives back its pins and is released.  ctrl->lock held.
 */
static void capebus_retry_stuck_overlays(struct capebus_controller *ctrl)
{
	struct cape_device *cape, *next;
	bool progress;

	lockdep_assert_held(&ctrl->lock);

	do {
		progress = false;
		list_for_each_entry_safe(cape, next, &ctrl->stuck_capes,
					 stuck_node) {
			if (capebus_overlay_revert(cape, true))
				continue;

			dev_info(&ctrl->dev, "%s: overlay removed after all, pins released\n",
				 cape->holder);
			list_del(&cape->stuck_node);
			if (cape->slot && cape->detected && !cape->slot->cape &&
			    cape->slot->state == CAPEBUS_SLOT_FAILED) {
				cape->slot->state = CAPEBUS_SLOT_EMPTY;
				cape->slot->reason[0] = '\0';
			}
			capebus_resources_release(ctrl->res, cape->claim);
			put_device(&cape->dev);
			progress = true;
		}
	} while (progress);
}

/* Unbind, delete and drop the core's reference.  ctrl->lock held. */
static void capebus_cape_unregister(struct cape_device *cape)
{
	struct capebus_controller *ctrl = cape->ctrl;

	lockdep_assert_held(&ctrl->lock);

	if (!cape->registered)
		return;

	cape->registered = false;
	device_del(&cape->dev);

	if (cape->slot) {
		cape->slot->cape = NULL;
		/* A declared cape leaves the slot as it found it ("disabled"). */
		if (cape->detected) {
			cape->slot->state = CAPEBUS_SLOT_EMPTY;
			cape->slot->reason[0] = '\0';
		}
	}

	if (cape->overlay_stuck) {
		/*
		 * The overlay's nodes and devices are still there: keep the
		 * pins held, and the cape (whose name the pin table shows),
		 * until a retry removes the overlay.
		 */
		dev_err(&ctrl->dev,
			"%s removed but its overlay could not be: pins stay held until it is\n",
			cape->holder);
		if (cape->slot && cape->detected) {
			cape->slot->state = CAPEBUS_SLOT_FAILED;
			snprintf(cape->slot->reason, sizeof(cape->slot->reason),
				 "overlay of %s could not be removed",
				 cape->holder);
		}
		list_add(&cape->stuck_node, &ctrl->stuck_capes);
		return;
	}

	capebus_resources_release(ctrl->res, cape->claim);
	put_device(&cape->dev);

	capebus_retry_stuck_overlays(ctrl);
}

/* Claim the slot and resources and register the device.  ctrl->lock held. */
static int capebus_cape_register(struct cape_device *cape, char *why,
				 size_t why_len)
{
	struct capebus_controller *ctrl = cape->ctrl;
	struct capebus_slot *slot = cape->slot;
	struct device *other;
	int ret;

	lockdep_assert_held(&ctrl->lock);

	if (!ctrl->registered) {
		snprintf(why, why_len, "%s is going away", dev_name(&ctrl->dev));
		return -ENODEV;
	}

	if (cape->slot_nr == CAPEBUS_SLOT_ANY_VIRTUAL) {
		ret = capebus_cape_set_slot(cape, capebus_free_virtual_slot(ctrl));
		if (ret)
			return ret;
	}

	if (slot && slot->cape) {
		snprintf(why, why_len, "slot %u holds %s", slot->nr,
			 slot->cape->holder);
		return -EBUSY;
	}
	other = device_find_child(&ctrl->dev, &cape->slot_nr, capebus_cape_is_in);
	if (other) {
		snprintf(why, why_len, "slot %u holds %s", cape->slot_nr,
			 to_cape_device(other)->holder);
		put_device(other);
		return -EBUSY;
	}

	ret = capebus_resources_claim(ctrl->res, cape->claim, why, why_len);
	if (ret)
		return ret;

	cape->registered = true;
	if (slot)
		slot->cape = cape;

	ret = device_add(&cape->dev);
	if (ret) {
		snprintf(why, why_len, "cannot register device: %d", ret);
		goto err_release;
	}

	/* The core's own reference, dropped when the cape is unregistered. */
	get_device(&cape->dev);

	/* device_add() probed the cape: an overlay that failed fails the cape. */
	if (cape->apply_err) {
		snprintf(why, why_len, "overlay not applied: %s", cape->apply_why);
		capebus_cape_unregister(cape);
		return cape->apply_err;
	}

	return 0;

err_release:
	if (slot)
		slot->cape = NULL;
	cape->registered = false;
	capebus_resources_release(ctrl->res, cape->claim);
	return ret;
}

/**
 * capebus_cape_add() - add a cape to a controller
 * @ctrl: the controller
 * @desc: the cape: identity, slot (or %CAPEBUS_SLOT_ANY_VIRTUAL), overlay,
 *	extra pins
 * @why: where to write why the cape was refused
 * @why_len: bytes at @why (CAPEBUS_REASON_LEN is enough)
 *
 * This is the one way a cape comes into being, whether a controller detected
 * it or userspace declared it.  The cape's overlay (@desc->overlay, else the
 * firmware file "<part>-<version>.dtbo", else none) must carry no __symbols__
 * and target only the controller's cape targets; the cape's pins (EEPROM
 * words, the overlay's exclusive-use and @desc->extra_pins) must be free and
 * its currents within the rails' budgets.  Then the cape device is
 * registered, drivers are matched (the generic driver applies the overlay)
 * and a KOBJ_ADD uevent goes out.  If the overlay fails to apply, the cape
 * is removed again.  A refused cape changes nothing; a refused detected cape
 * (@desc->detected) marks its slot "failed" with @why, a refused declared
 * cape leaves the slot's state alone.
 *
 * Context: process context; takes @ctrl->lock, so not from a cape driver's
 * probe or remove.
 * Return: the cape, with a reference for the caller (capebus_cape_put()),
 * or an ERR_PTR: -EBUSY (pins or slot taken), -ENOSPC (power), -EINVAL
 * (overlay out of scope or malformed), -ENODEV (controller going away).
 */
struct cape_device *capebus_cape_add(struct capebus_controller *ctrl,
				     const struct capebus_cape_desc *desc,
				     char *why, size_t why_len)
{
	struct capebus_slot *slot = capebus_slot(ctrl, desc->slot);
	struct cape_device *cape;
	int ret;

	why[0] = '\0';
	if (!desc->ee || !desc->ee->part_number[0]) {
		snprintf(why, why_len, "no part number");
		return ERR_PTR(-EINVAL);
	}

	cape = kzalloc(sizeof(*cape), GFP_KERNEL);
	if (!cape)
		return ERR_PTR(-ENOMEM);

	device_initialize(&cape->dev);
	cape->dev.bus = &capebus_bus_type;
	cape->dev.type = &cape_device_type;
	cape->dev.parent = &ctrl->dev;
	cape->ctrl = ctrl;
	get_device(&ctrl->dev);
	cape->slot = slot;
	cape->detected = desc->detected;
	cape->slot_nr = desc->slot;
	snprintf(cape->holder, sizeof(cape->holder), "%s (virtual slot)",
		 desc->ee->part_number);

	cape->ee = kmemdup(desc->ee, sizeof(*desc->ee), GFP_KERNEL);
	if (!cape->ee) {
		ret = -ENOMEM;
		goto err_put;
	}

	/* A virtual slot to be chosen is numbered when the cape registers. */
	if (desc->slot != CAPEBUS_SLOT_ANY_VIRTUAL) {
		ret = capebus_cape_set_slot(cape, desc->slot);
		if (ret)
			goto err_put;
	}

	ret = capebus_cape_find_overlay(cape, desc);
	if (ret)
		goto err_put;

	ret = capebus_cape_build_claim(cape, desc, why, why_len);
	if (ret)
		goto err_put;

	scoped_guard(mutex, &ctrl->lock)
		ret = capebus_cape_register(cape, why, why_len);
	if (ret)
		goto err_put;

	dev_info(&cape->dev, "%s %s (%s), overlay %s (applied in %llu us)%s\n",
		 cape->ee->part_number, cape->ee->version,
		 cape->ee->board_name, cape->overlay_source,
		 div_u64(cape->apply_ns, NSEC_PER_USEC),
		 cape->dev.driver ? "" : ", no driver");

	return cape;

err_put:
	if (!why[0])
		snprintf(why, why_len, "error %d", ret);
	scoped_guard(mutex, &ctrl->lock) {
		if (slot && !slot->cape && desc->detected)
			capebus_slot_fail_locked(slot, why);
		else
			dev_err(&ctrl->dev, "%s refused: %s\n", cape->holder, why);
	}
	put_device(&cape->dev);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(capebus_cape_add);

/**
 * capebus_cape_remove() - remove a cape
 * @cape: a cape returned by capebus_cape_add() (the caller still holds its
 *	reference and drops it afterwards)
 *
 * Unbinds the cape's driver (the generic driver reverts the overlay),
 * deletes the device (KOBJ_REMOVE uevent), frees its pins and currents.  A
 * cape already removed (for instance by capebus_controller_unregister()) is
 * left alone.
 *
 * Context: process context; takes the controller's lock.
 */
void capebus_cape_remove(struct cape_device *cape)
{
	guard(mutex)(&cape->ctrl->lock);
	capebus_cape_unregister(cape);
}
EXPORT_SYMBOL_GPL(capebus_cape_remove);

/* ---- controllers --------------------------------------------------------- */

static void capebus_controller_release(struct device *dev)
{
	struct capebus_controller *ctrl = to_capebus_controller(dev);
	unsigned int i;

	for (i = 0; i < ctrl->num_slots; i++)
		if (ctrl->slots[i])
			put_device(&ctrl->slots[i]->dev);
	for (i = 0; i < ctrl->num_targets; i++)
		of_node_put(ctrl->targets[i]);
	for (i = 0; i < ctrl->num_refs; i++)
		of_node_put(ctrl->refs[i]);
	kfree(ctrl->targets);
	kfree(ctrl->refs);
	kfree(ctrl->slots);
	kfree(ctrl->res);
	if (ctrl->nr >= 0)
		ida_free(&capebus_ida, ctrl->nr);
	mutex_destroy(&ctrl->lock);
	kfree(ctrl);
}

const struct class capebus_class = {
	.name	= "capebus",
};
EXPORT_SYMBOL_GPL(capebus_class);

/**
 * capebus_controller_alloc() - allocate a controller and its slots
 * @parent: the board device providing the header
 * @num_slots: hardware slots
 *
 * The controller has no targets and unlimited budgets; set them, then
 * capebus_controller_register().  Release with capebus_controller_put().
 *
 * Return: the controller or an ERR_PTR.
 */
struct capebus_controller *
capebus_controller_alloc(struct device *parent, unsigned int num_slots)
{
	struct capebus_controller *ctrl;
	unsigned int i;
	int ret;

	ctrl = kzalloc(sizeof(*ctrl), GFP_KERNEL);
	if (!ctrl)
		return ERR_PTR(-ENOMEM);

	mutex_init(&ctrl->lock);
	INIT_LIST_HEAD(&ctrl->stuck_capes);
	device_initialize(&ctrl->dev);
	ctrl->dev.class = &capebus_class;
	ctrl->dev.parent = parent;
	ctrl->dev.release = capebus_controller_release;
	ctrl->nr = ida_alloc(&capebus_ida, GFP_KERNEL);
	if (ctrl->nr < 0) {
		ret = ctrl->nr;
		goto err_put;
	}
	ret = dev_set_name(&ctrl->dev, "capebus%d", ctrl->nr);
	if (ret)
		goto err_put;

	ret = -ENOMEM;
	ctrl->res = kzalloc(sizeof(*ctrl->res), GFP_KERNEL);
	ctrl->slots = kcalloc(num_slots, sizeof(*ctrl->slots), GFP_KERNEL);
	if (!ctrl->res || (num_slots && !ctrl->slots))
		goto err_put;
	ret = capebus_controller_set_resources(ctrl, NULL, NULL, NULL);
	if (ret)
		goto err_put;

	for (i = 0; i < num_slots; i++) {
		struct capebus_slot *slot = kzalloc(sizeof(*slot), GFP_KERNEL);

		if (!slot)
			goto err_put;
		device_initialize(&slot->dev);
		slot->dev.type = &capebus_slot_type;
		slot->dev.parent = &ctrl->dev;
		slot->ctrl = ctrl;
		slot->nr = i;
		ctrl->slots[i] = slot;
		ctrl->num_slots = i + 1;
		ret = dev_set_name(&slot->dev, "slot%u", i);
		if (ret)
			goto err_put;
	}

	return ctrl;

err_put:
	put_device(&ctrl->dev);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(capebus_controller_alloc);

/**
 * capebus_controller_set_resources() - set a controller's pin and power rules
 * @ctrl: the controller, not yet registered
 * @budget_ma: per rail (enum capebus_rail), mA all capes together may draw,
 *	CAPEBUS_BUDGET_UNLIMITED for no limit; NULL: no limits
 * @board_pins: bitmap of header pins the board itself uses, or NULL
 * @shared_pins: bitmap of header pins every cape may use, or NULL
 *
 * Return: 0 or a negative errno.
 */
int capebus_controller_set_resources(struct capebus_controller *ctrl,
				     const u32 *budget_ma,
				     const unsigned long *board_pins,
				     const unsigned long *shared_pins)
{
	u32 unlimited[CAPEBUS_NUM_RAILS];
	int rail, ret = 0;

	for (rail = 0; rail < CAPEBUS_NUM_RAILS; rail++)
		unlimited[rail] = CAPEBUS_BUDGET_UNLIMITED;

	guard(mutex)(&ctrl->lock);
	if (ctrl->registered)
		return -EBUSY;

	capebus_resources_init(ctrl->res, budget_ma ?: unlimited);
	if (shared_pins)
		capebus_resources_set_shared(ctrl->res, shared_pins);
	if (board_pins)
		ret = capebus_resources_reserve_board(ctrl->res, board_pins);

	return ret;
}
EXPORT_SYMBOL_GPL(capebus_controller_set_resources);

/**
 * capebus_controller_register() - make a controller and its slots visible
 * @ctrl: from capebus_controller_alloc(), targets and resources set
 *
 * Return: 0 or a negative errno.
 */
int capebus_controller_register(struct capebus_controller *ctrl)
{
	unsigned int i;
	int ret;

	ret = device_add(&ctrl->dev);
	if (ret)
		return ret;

	for (i = 0; i < ctrl->num_slots; i++) {
		ret = device_add(&ctrl->slots[i]->dev);
		if (ret)
			goto err_del;
	}

	scoped_guard(mutex, &ctrl->lock)
		ctrl->registered = true;

	ret = capebus_configfs_add_controller(ctrl);
	if (ret)
		dev_warn(&ctrl->dev, "no configfs group: %d\n", ret);

	return 0;

err_del:
	while (i--)
		device_del(&ctrl->slots[i]->dev);
	device_del(&ctrl->dev);
	return ret;
}
EXPORT_SYMBOL_GPL(capebus_controller_register);

static int capebus_cape_registered(struct device *dev, void *data)
{
	return dev->type == &cape_device_type && to_cape_device(dev)->registered;
}

/**
 * capebus_controller_unregister() - remove every cape, the slots and the
 *	controller from sysfs
 * @ctrl: the controller
 *
 * Afterwards capebus_cape_add() on @ctrl fails with -ENODEV and
 * capebus_cape_remove() of its capes does nothing.  Drop the allocation's
 * reference with capebus_controller_put().
 */
void capebus_controller_unregister(struct capebus_controller *ctrl)
{
	struct device *dev;
	unsigned int i;

	scoped_guard(mutex, &ctrl->lock) {
		ctrl->registered = false;
		while ((dev = device_find_child(&ctrl->dev, NULL,
						capebus_cape_registered))) {
			capebus_cape_unregister(to_cape_device(dev));
			put_device(dev);
		}
	}

	capebus_configfs_remove_controller(ctrl);

	for (i = 0; i < ctrl->num_slots; i++)
		device_del(&ctrl->slots[i]->dev);
	device_del(&ctrl->dev);
}
EXPORT_SYMBOL_GPL(capebus_controller_unregister);

/**
 * capebus_controller_put() - drop a reference on a controller
 * @ctrl: the controller, or an ERR_PTR or NULL
 */
void capebus_controller_put(struct capebus_controller *ctrl)
{
	if (!IS_ERR_OR_NULL(ctrl))
		put_device(&ctrl->dev);
}
EXPORT_SYMBOL_GPL(capebus_controller_put);

static int capebus_cape_is_part(struct device *dev, void *data)
{
	const struct cape_eeprom *ee = data;

	return dev->type == &cape_device_type &&
	       to_cape_device(dev)->registered &&
	       !strcmp(to_cape_device(dev)->ee->part_number, ee->part_number);
}

/* Is a cape of @ee's part on @ctrl already? */
static bool capebus_part_present(struct capebus_controller *ctrl,
				 const struct cape_eeprom *ee)
{
	struct device *dev = device_find_child(&ctrl->dev, (void *)ee,
					       capebus_cape_is_part);

	put_device(dev);
	return dev;
}

/**
 * capebus_controller_enable_parts() - load the enable_partno parts
 * @ctrl: a registered controller whose slots have been scanned
 *
 * Every PART[:VERSION] of the enable_partno parameter that no cape of @ctrl
 * already is goes into the next free virtual slot (numbered from the
 * controller's number of slots), with the firmware overlay
 * "<PART>-<VERSION>.dtbo" (version "00A0" if not given), exactly as if it had
 * been declared.
 */
void capebus_controller_enable_parts(struct capebus_controller *ctrl)
{
	const char *p = enable_partno;

	while (p && *p) {
		const char *end = strchrnul(p, ',');
		const char *colon = strnchr(p, end - p, ':');
		struct capebus_cape_desc desc = { };
		char why[CAPEBUS_REASON_LEN];
		struct cape_device *cape;
		struct cape_eeprom *ee;

		ee = kzalloc(sizeof(*ee), GFP_KERNEL);
		if (!ee)
			return;
		ee->format = CAPE_EEPROM_FORMAT_A1;
		ee->num_pin_words = CAPE_EEPROM_A1_NUM_PINS;
		strscpy(ee->part_number, p,
			min_t(size_t, (colon ?: end) - p + 1,
			      sizeof(ee->part_number)));
		strscpy(ee->version, colon ? colon + 1 : CAPEBUS_DEFAULT_VERSION,
			min_t(size_t, colon ? end - colon : sizeof(ee->version),
			      sizeof(ee->version)));
		strscpy(ee->board_name, ee->part_number, sizeof(ee->board_name));
		p = *end ? end + 1 : end;

		desc.ee = ee;
		desc.slot = CAPEBUS_SLOT_ANY_VIRTUAL;
		if (ee->part_number[0] && !capebus_part_present(ctrl, ee)) {
			cape = capebus_cape_add(ctrl, &desc, why, sizeof(why));
			if (IS_ERR(cape))
				dev_err(&ctrl->dev, "enable_partno %s: %s\n",
					ee->part_number, why);
			else
				capebus_cape_put(cape);
		}
		kfree(ee);
	}
}
EXPORT_SYMBOL_GPL(capebus_controller_enable_parts);

static int __init capebus_init(void)
{
	int ret;

	ret = bus_register(&capebus_bus_type);
	if (ret)
		return ret;

	ret = class_register(&capebus_class);
	if (ret)
		goto err_bus;

	ret = capebus_driver_register(&capebus_generic_driver);
	if (ret)
		goto err_class;

	ret = capebus_configfs_init();
	if (ret)
		goto err_generic;

	ret = capebus_bone_init();
	if (ret)
		goto err_configfs;

	return 0;

err_configfs:
	capebus_configfs_exit();
err_generic:
	capebus_driver_unregister(&capebus_generic_driver);
err_class:
	class_unregister(&capebus_class);
err_bus:
	bus_unregister(&capebus_bus_type);
	return ret;
}
module_init(capebus_init);

static void __exit capebus_exit(void)
{
	capebus_bone_exit();
	capebus_configfs_exit();
	capebus_driver_unregister(&capebus_generic_driver);
	class_unregister(&capebus_class);
	bus_unregister(&capebus_bus_type);
}
module_exit(capebus_exit);

MODULE_DESCRIPTION("capebus: expansion boards on a board's cape header");
MODULE_AUTHOR("capebus developers <capebus@lists.example.org>");
MODULE_LICENSE("GPL");
