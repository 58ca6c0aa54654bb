// SPDX-License-Identifier: GPL-2.0
/*
 * capebus: a controller's hardware slots and their state machine
 * (Documentation/capebus/slot-states.rst).  Every transition, reported by
 * the controller module (capebus_slot_detected(), _set_empty(),
 * _set_failed()) or asked for through configfs (capebus_slot_disable(),
 * capebus_slot_override()), is taken whole under the controller's
 * transition lock, from its check to its commit; see the lock order in
 * capebus-controller.c.
 */

#define pr_fmt(fmt) "capebus: " fmt

#include <linux/capebus.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "capebus-internal.h"

static const char *const capebus_slot_state_names[] = {
	[CAPEBUS_SLOT_EMPTY]	= "empty",
	[CAPEBUS_SLOT_DETECTED]	= "detected",
	[CAPEBUS_SLOT_LOADED]	= "loaded",
	[CAPEBUS_SLOT_FAILED]	= "failed",
	[CAPEBUS_SLOT_DISABLED]	= "disabled",
};

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

	return capebus_cape_state(slot->cape);
}

/* The slot's reason file: its failure, or what its cape has to tell. */
static void capebus_slot_reason_locked(struct capebus_slot *slot, char *buf,
				       size_t len)
{
	const struct cape_device *cape = slot->cape;

	lockdep_assert_held(&slot->ctrl->lock);
	/* A loaded cape has no failure, but may have something to tell. */
	if (slot->reason[0] || !cape || !capebus_cape_note(cape, buf, len))
		strscpy(buf, slot->reason, len);
}

/**
 * capebus_slot_state() - what a slot holds now
 * @slot: the slot
 *
 * Context: process context.  Takes only the controller's lock, which is
 * never held across a driver's probe or remove or an overlay change: a cape
 * driver's probe may ask for its own slot's state.
 * Return: the state; %CAPEBUS_SLOT_LOADED when a driver is bound to the
 * slot's cape (its probe has returned), %CAPEBUS_SLOT_DETECTED when none
 * is (or a driver's probe still runs).
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

	char why[CAPEBUS_REASON_LEN];

	capebus_slot_reason(slot, why, sizeof(why));
	return sysfs_emit(buf, "%s\n", why);
}
static DEVICE_ATTR_RO(reason);

static struct attribute *capebus_slot_attrs[] = {
	&dev_attr_state.attr,
	&dev_attr_reason.attr,
	NULL
};
ATTRIBUTE_GROUPS(capebus_slot);

static void capebus_slot_release(struct device *dev)
{
	struct capebus_slot *slot = container_of(dev, struct capebus_slot, dev);

	put_device(slot->nvmem);
	mutex_destroy(&slot->told_lock);
	kvfree(slot->override_image);
	kfree(slot->override_info);
	kvfree(slot->override_overlay);
	kfree(slot->desc_info);
	kvfree(slot->eeprom);
	kvfree(slot->overlay);
	kfree(slot->applied_by);
	kfree(slot);
}

const struct device_type capebus_slot_type = {
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
 * capebus_slot_set_nvmem() - link a slot to its EEPROM's nvmem device
 * @slot: the slot, registered
 * @nvmem: the nvmem device, or NULL for none; a reference is taken
 *
 * The slot's "nvmem" link points to @nvmem.
 */
void capebus_slot_set_nvmem(struct capebus_slot *slot, struct device *nvmem)
{
	guard(mutex)(&slot->ctrl->lock);
	if (slot->nvmem == nvmem)
		return;
	if (slot->nvmem) {
		sysfs_remove_link(&slot->dev.kobj, "nvmem");
		put_device(slot->nvmem);
		slot->nvmem = NULL;
	}
	if (!nvmem)
		return;
	if (sysfs_create_link(&slot->dev.kobj, &nvmem->kobj, "nvmem")) {
		dev_warn(&slot->dev, "cannot link to %s\n", dev_name(nvmem));
		return;
	}
	slot->nvmem = get_device(nvmem);
}

/**
 * capebus_slot_set_empty() - record that a slot holds no cape
 * @slot: the slot
 *
 * For a slot whose EEPROM does not answer, is blank, or went away (its
 * driver unbound): what the EEPROM described is forgotten and a cape
 * detected in the slot is removed (its overlay reverted, its pins and
 * current freed).  An override, or a declared cape in the slot, stays.
 */
void capebus_slot_set_empty(struct capebus_slot *slot)
{
	struct capebus_controller *ctrl = slot->ctrl;
	struct cape_device *cape = NULL;

	guard(mutex)(&ctrl->transition);
	CLASS(capebus_slot_told, told)(slot);
	scoped_guard(mutex, &ctrl->lock) {
		kfree(slot->desc_info);
		slot->desc_info = NULL;
		kvfree(slot->overlay);
		slot->overlay = NULL;
		slot->overlay_len = 0;
		if (slot->override_info)
			return;	/* the override stands in for the EEPROM */
		if (slot->cape && !slot->cape->detected) {
			/* A declared cape: not the EEPROM's; nothing behind it now. */
			slot->state = CAPEBUS_SLOT_EMPTY;
			slot->reason[0] = '\0';
			return;
		}
		if (slot->cape && slot->cape->applied_by)
			return;	/* its overlay stays in the tree: so does it */
		if (slot->cape)
			cape = capebus_cape_get(slot->cape);
	}
	if (cape) {
		__capebus_cape_remove(cape);
		capebus_cape_put(cape);
	}

	guard(mutex)(&ctrl->lock);
	if (slot->cape)
		return;
	slot->state = CAPEBUS_SLOT_EMPTY;
	slot->reason[0] = '\0';
}
EXPORT_SYMBOL_GPL(capebus_slot_set_empty);

void capebus_slot_fail_locked(struct capebus_slot *slot, const char *why)
{
	lockdep_assert_held(&slot->ctrl->lock);

	slot->state = CAPEBUS_SLOT_FAILED;
	strscpy(slot->reason, why, sizeof(slot->reason));
	dev_err(&slot->ctrl->dev, "slot %u: %s\n", slot->nr, why);
}

/**
 * capebus_slot_set_failed() - mark a slot failed
 * @slot: the slot
 * @fmt: printf format of the reason, shown in the slot's "reason" file
 *
 * For a slot whose EEPROM does not parse: what the EEPROM described before
 * is forgotten, and a cape detected in the slot from it is removed.  An
 * override stands in for the EEPROM: the slot is left alone.  A declared
 * cape in the slot stays: the slot is failed underneath it, and shows so
 * once the declared cape goes.
 */
void capebus_slot_set_failed(struct capebus_slot *slot, const char *fmt, ...)
{
	struct capebus_controller *ctrl = slot->ctrl;
	struct cape_device *cape = NULL;
	char why[CAPEBUS_REASON_LEN];
	va_list args;

	va_start(args, fmt);
	vsnprintf(why, sizeof(why), fmt, args);
	va_end(args);

	guard(mutex)(&ctrl->transition);
	CLASS(capebus_slot_told, told)(slot);
	scoped_guard(mutex, &ctrl->lock) {
		if (slot->override_info)
			return;	/* the override stands in for the EEPROM */
		kfree(slot->desc_info);
		slot->desc_info = NULL;
		kvfree(slot->overlay);
		slot->overlay = NULL;
		slot->overlay_len = 0;
		if (!slot->cape || !slot->cape->detected) {
			capebus_slot_fail_locked(slot, why);
			return;
		}
		if (slot->cape->applied_by) {
			dev_warn(&ctrl->dev, "slot %u: %s (%s stays: applied before Linux started)\n",
				 slot->nr, why, slot->cape->holder);
			return;
		}
		cape = capebus_cape_get(slot->cape);
	}

	/* The EEPROM no longer describes the cape detected from it. */
	__capebus_cape_remove(cape);
	capebus_cape_put(cape);

	guard(mutex)(&ctrl->lock);
	if (!slot->cape)
		capebus_slot_fail_locked(slot, why);
}
EXPORT_SYMBOL_GPL(capebus_slot_set_failed);

/**
 * capebus_slot_reason() - copy a slot's last failure reason, or what its
 *	loaded cape reports (over budget, overlay file not found)
 * @slot: the slot
 * @buf: where to copy it ("" if none)
 * @len: bytes at @buf
 */
void capebus_slot_reason(struct capebus_slot *slot, char *buf, size_t len)
{
	guard(mutex)(&slot->ctrl->lock);
	capebus_slot_reason_locked(slot, buf, len);
}

/**
 * capebus_slot_announce() - tell userspace a slot's state, if it changed
 * @slot: the slot
 *
 * A KOBJ_CHANGE uevent on the controller's device (a slot has no bus or
 * class, and the driver core sends no uevent of such a device), with
 * CAPEBUS_SLOT (the slot's number), CAPEBUS_SLOT_STATE (the state file's
 * word) and CAPEBUS_SLOT_REASON (the reason file's text, in printable
 * ASCII: it may come from a cape's EEPROM), and a sysfs_notify() on the
 * slot's state file for poll().  Nothing is sent if the slot is as the
 * last uevent told, so every place a state may change can call this.
 *
 * Context: process; may sleep.  Not under the controller's @lock.
 */
void capebus_slot_announce(struct capebus_slot *slot)
{
	char slot_env[32], state_env[48], reason_env[CAPEBUS_REASON_LEN + 24];
	char *envp[4];
	enum capebus_slot_state state;
	char why[CAPEBUS_REASON_LEN];
	char *c;

	lockdep_assert_not_held(&slot->ctrl->lock);
	guard(mutex)(&slot->told_lock);
	scoped_guard(mutex, &slot->ctrl->lock) {
		state = capebus_slot_state_locked(slot);
		capebus_slot_reason_locked(slot, why, sizeof(why));
	}
	if (state == slot->told_state && !strcmp(why, slot->told_reason))
		return;
	slot->told_state = state;
	strscpy(slot->told_reason, why, sizeof(slot->told_reason));

	if (!device_is_registered(&slot->dev))
		return;	/* its KOBJ_ADD, or KOBJ_REMOVE, tells */
	for (c = why; *c; c++)
		if (*c < 0x20 || *c > 0x7e)
			*c = '?';
	snprintf(slot_env, sizeof(slot_env), "CAPEBUS_SLOT=%u", slot->nr);
	snprintf(state_env, sizeof(state_env), "CAPEBUS_SLOT_STATE=%s",
		 capebus_slot_state_name(state));
	snprintf(reason_env, sizeof(reason_env), "CAPEBUS_SLOT_REASON=%s", why);
	envp[0] = slot_env;
	envp[1] = state_env;
	envp[2] = reason_env;
	envp[3] = NULL;
	kobject_uevent_env(&slot->ctrl->dev.kobj, KOBJ_CHANGE, envp);
	sysfs_notify(&slot->dev.kobj, NULL, "state");
}

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

/*
 * Add the slot's cape: the one its override image describes if it has one,
 * else the one its EEPROM described.  The description is copied under the
 * lock, the cape added without it.  ctrl->transition held.
 */
static struct cape_device *capebus_slot_load(struct capebus_slot *slot)
{
	struct capebus_cape_desc desc = {
		.slot		= slot->nr,
		.detected	= true,
	};
	struct capebus_cape_info *info;
	char why[CAPEBUS_REASON_LEN];
	struct cape_device *cape;
	char *applied_by = NULL;
	void *overlay = NULL;
	const void *ov;

	lockdep_assert_held(&slot->ctrl->transition);

	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return ERR_PTR(-ENOMEM);

	scoped_guard(mutex, &slot->ctrl->lock) {
		const struct capebus_cape_info *src = slot->override_info ?:
						      slot->desc_info;

		if (!src) {
			kfree(info);
			return ERR_PTR(-ENOENT);
		}
		*info = *src;
		ov = slot->override_info ? slot->override_overlay : slot->overlay;
		desc.overlay_len = slot->override_info ?
				   slot->override_overlay_len : slot->overlay_len;
		desc.overlay_source = slot->override_info ? "configfs" : "eeprom";
		if (ov)
			overlay = kvmemdup(ov, desc.overlay_len, GFP_KERNEL);
		if (!slot->override_info && slot->applied_by)
			applied_by = kstrdup(slot->applied_by, GFP_KERNEL);
		if ((ov && !overlay) ||
		    (!slot->override_info && slot->applied_by && !applied_by)) {
			kvfree(overlay);
			kfree(info);
			return ERR_PTR(-ENOMEM);
		}
	}

	desc.info = info;
	desc.overlay = overlay;
	desc.applied_by = applied_by;
	cape = __capebus_cape_add(slot->ctrl, &desc, why, sizeof(why));
	kfree(applied_by);
	kvfree(overlay);
	kfree(info);

	return cape;
}

/**
 * capebus_slot_detected() - a controller found a cape in a slot
 * @slot: the slot; it must hold no cape device
 * @info: the cape, as the slot's ID EEPROM describes it; copied
 * @overlay: the overlay of the EEPROM's extension record, or NULL; copied
 * @overlay_len: bytes at @overlay
 *
 * Adds the cape (see capebus_cape_add()) unless its part is listed in the
 * disable_partno parameter and the controller's header says that applies
 * (&capebus_header.partno_params), in which case the slot is "disabled" and keeps
 * the description, so that capebus_slot_disable() can load it later.
 *
 * Return: 0 if the cape was added or disabled, -EEXIST if the slot holds
 * a cape already (whose state it keeps), else a negative errno (the slot is
 * then "failed" with the reason; -EBUSY: a pin, rail or bus address another
 * cape holds).
 */
int capebus_slot_detected(struct capebus_slot *slot,
			  const struct capebus_cape_info *info,
			  const void *overlay, size_t overlay_len)
{
	struct capebus_cape_info *info_copy;
	struct cape_device *cape;
	void *ov_copy = NULL;

	info_copy = kmemdup(info, sizeof(*info), GFP_KERNEL);
	if (!info_copy)
		return -ENOMEM;
	if (overlay) {
		ov_copy = kvmemdup(overlay, overlay_len, GFP_KERNEL);
		if (!ov_copy) {
			kfree(info_copy);
			return -ENOMEM;
		}
	}

	guard(mutex)(&slot->ctrl->transition);
	CLASS(capebus_slot_told, told)(slot);

	scoped_guard(mutex, &slot->ctrl->lock) {
		if (slot->cape && !slot->override_info) {
			if (slot->cape->applied_by)
				dev_warn(&slot->ctrl->dev,
					 "slot %u: its EEPROM names %s now; %s stays (applied before Linux started) until reboot\n",
					 slot->nr, info->text[CAPEBUS_PART_NUMBER],
					 slot->cape->holder);
			/*
			 * A cape declared into the (disabled) slot holds it:
			 * the EEPROM's cape is the slot's disabled one when
			 * that goes, as it was before its EEPROM came again.
			 */
			if (!slot->cape->detected && !slot->cape->applied_by) {
				swap(slot->desc_info, info_copy);
				swap(slot->overlay, ov_copy);
				slot->overlay_len = overlay ? overlay_len : 0;
				slot->state = CAPEBUS_SLOT_DISABLED;
				snprintf(slot->reason, sizeof(slot->reason),
					 "%s disabled: a declared cape holds the slot",
					 info->text[CAPEBUS_PART_NUMBER]);
			}
			kvfree(ov_copy);
			kfree(info_copy);
			return -EEXIST;
		}
		swap(slot->desc_info, info_copy);
		swap(slot->overlay, ov_copy);
		slot->overlay_len = overlay ? overlay_len : 0;
		/* An override stands in for whatever the EEPROM says. */
		if (slot->override_info) {
			kvfree(ov_copy);
			kfree(info_copy);
			return 0;
		}

		if (slot->ctrl->header->partno_params &&
		    capebus_partno_disabled(info)) {
			slot->state = CAPEBUS_SLOT_DISABLED;
			snprintf(slot->reason, sizeof(slot->reason),
				 "%s disabled by disable_partno",
				 info->text[CAPEBUS_PART_NUMBER]);
			dev_info(&slot->ctrl->dev, "slot %u: %s\n", slot->nr,
				 slot->reason);
		}
	}
	kvfree(ov_copy);
	kfree(info_copy);

	if (capebus_slot_state(slot) == CAPEBUS_SLOT_DISABLED)
		return 0;

	cape = capebus_slot_load(slot);
	if (IS_ERR(cape))
		return PTR_ERR(cape);
	scoped_guard(mutex, &slot->ctrl->lock)
		slot->reason[0] = '\0';
	capebus_cape_put(cape);

	return 0;
}
EXPORT_SYMBOL_GPL(capebus_slot_detected);

/**
 * capebus_slot_set_applied_by() - say the overlay of a slot's cape is in the
 *	live tree already
 * @slot: the slot
 * @by: what says so (a bootloader's record of the overlays it applied: the
 *	controller knows its family's), shown in the cape's state; copied.
 *	NULL for a cape whose overlay capebus applies.
 *
 * Call it before capebus_slot_detected() for the cape the slot's EEPROM
 * describes.  That cape then gets no overlay of capebus's: its devices are
 * in the tree already.  It holds its pins as any other (a cape declared
 * later on them is refused naming it), cannot be disabled or overridden,
 * and stays when its EEPROM goes: its nodes stay in the tree until reboot.
 *
 * Return: 0 or -ENOMEM.
 */
int capebus_slot_set_applied_by(struct capebus_slot *slot, const char *by)
{
	char *copy = NULL;

	if (by) {
		copy = kstrdup(by, GFP_KERNEL);
		if (!copy)
			return -ENOMEM;
	}
	scoped_guard(mutex, &slot->ctrl->lock)
		swap(slot->applied_by, copy);
	kfree(copy);

	return 0;
}
EXPORT_SYMBOL_GPL(capebus_slot_set_applied_by);

/* The description a slot loads: its override's, else its EEPROM's. */
static const struct capebus_cape_info *
capebus_slot_desc_locked(struct capebus_slot *slot)
{
	lockdep_assert_held(&slot->ctrl->lock);

	return slot->override_info ?: slot->desc_info;
}

/*
 * The "enable" transition: load the slot's cape.  On success the reason
 * clears; on refusal the slot keeps the state it had (failed or disabled)
 * with the refusal as its reason, so the same write can succeed once the
 * cause is gone.  ctrl->transition held.
 */
static int capebus_slot_enable(struct capebus_slot *slot)
{
	struct capebus_controller *ctrl = slot->ctrl;
	enum capebus_slot_state before;
	struct cape_device *cape;

	lockdep_assert_held(&ctrl->transition);

	scoped_guard(mutex, &ctrl->lock)
		before = slot->state;

	cape = capebus_slot_load(slot);

	guard(mutex)(&ctrl->lock);
	if (IS_ERR(cape)) {
		if (!slot->cape && before == CAPEBUS_SLOT_DISABLED)
			slot->state = CAPEBUS_SLOT_DISABLED;
		return PTR_ERR(cape);
	}
	slot->reason[0] = '\0';
	capebus_cape_put(cape);

	return 0;
}

/**
 * capebus_slot_disable() - unload a slot's detected cape, or load it again
 * @slot: the slot
 * @disable: true to unload the cape (its overlay is reverted, its pins and
 *	current freed) and mark the slot "disabled"; false to load the cape
 *	last detected (or overridden) in the slot, or, if it is loaded, to
 *	look again for its overlay file if that was missing
 *
 * The transitions of Documentation/capebus/slot-states.rst, each taken whole
 * under the controller's transition lock, so concurrent writers see one of
 * the documented outcomes.  Writing the state the slot is in succeeds.
 *
 * Return: 0, -ENOENT if no cape was ever detected in the slot, -EBUSY if a
 * declared cape is in it (unless it is disabled already and @disable), or
 * the error of capebus_cape_add() (the slot keeps its state and says why).
 */
int capebus_slot_disable(struct capebus_slot *slot, bool disable)
{
	struct capebus_controller *ctrl = slot->ctrl;
	const struct capebus_cape_info *info;
	struct cape_device *cape = NULL;

	guard(mutex)(&ctrl->transition);
	CLASS(capebus_slot_told, told)(slot);

	scoped_guard(mutex, &ctrl->lock) {
		info = capebus_slot_desc_locked(slot);
		if (!info)
			return -ENOENT;
		if (slot->cape && !slot->cape->detected)
			return disable && slot->state == CAPEBUS_SLOT_DISABLED ?
			       0 : -EBUSY;
		if (disable && slot->cape && slot->cape->applied_by) {
			dev_info(&ctrl->dev,
				 "slot %u: %s was applied before Linux started (%s): it stays until reboot\n",
				 slot->nr, slot->cape->holder,
				 slot->cape->applied_by);
			return -EBUSY;
		}
		if (slot->cape)
			cape = capebus_cape_get(slot->cape);
	}

	/* Enabling a loaded cape looks again for its missing overlay file. */
	if (!disable && cape) {
		char why[CAPEBUS_REASON_LEN];

		__capebus_cape_retry_overlay(cape, why, sizeof(why));
		capebus_cape_put(cape);
		return 0;
	}
	if (!disable)
		return capebus_slot_enable(slot);

	if (cape) {
		__capebus_cape_remove(cape);
		capebus_cape_put(cape);
	}

	guard(mutex)(&ctrl->lock);
	if (slot->cape)
		return -EBUSY;
	info = capebus_slot_desc_locked(slot);
	slot->state = CAPEBUS_SLOT_DISABLED;
	snprintf(slot->reason, sizeof(slot->reason), "%s disabled",
		 info->text[CAPEBUS_PART_NUMBER]);
	return 0;
}

/**
 * capebus_slot_override() - stand an ID image in for a slot's EEPROM
 * @slot: the slot
 * @image: the image (as the controller's EEPROMs hold it); 0 bytes to go
 *	back to what the EEPROM says
 * @len: bytes at @image
 * @why: on failure, why
 * @why_len: bytes at @why
 *
 * For a cape whose EEPROM is blank, wrong or missing: the controller
 * decodes @image and the cape it describes replaces the slot's detected
 * cape (or fills the empty slot), exactly as if the EEPROM said so.  With
 * 0 bytes the slot goes back to its EEPROM's cape, if it had one.
 *
 * Return: 0, -EINVAL if the controller cannot decode @image, -EBUSY if a
 * declared cape is in the slot, or the error of adding the cape (the slot
 * is then "failed").
 */
int capebus_slot_override(struct capebus_slot *slot, const void *image,
			  size_t len, char *why, size_t why_len)
{
	struct capebus_controller *ctrl = slot->ctrl;
	struct capebus_cape_info *info = NULL;
	void *copy = NULL, *ov_copy = NULL;
	struct cape_device *cape = NULL;
	const void *ov = NULL;
	size_t ov_len = 0;
	int ret;

	why[0] = '\0';
	if (len) {
		info = kzalloc(sizeof(*info), GFP_KERNEL);
		copy = kvmemdup(image, len, GFP_KERNEL);
		if (!info || !copy) {
			ret = -ENOMEM;
			goto out;
		}
		ret = capebus_controller_decode(ctrl, copy, len, info, &ov,
						&ov_len, why, why_len);
		if (ret) {
			ret = ret == -ENOMEM ? ret : -EINVAL;
			goto out;
		}
		if (!info->text[CAPEBUS_PART_NUMBER][0]) {
			snprintf(why, why_len, "no part number");
			ret = -EINVAL;
			goto out;
		}
		if (ov) {
			ov_copy = kvmemdup(ov, ov_len, GFP_KERNEL);
			if (!ov_copy) {
				ret = -ENOMEM;
				goto out;
			}
		}
	}

	mutex_lock(&ctrl->transition);
	scoped_guard(mutex, &ctrl->lock) {
		if (slot->cape && !slot->cape->detected) {
			snprintf(why, why_len, "slot %u holds %s", slot->nr,
				 slot->cape->holder);
			ret = -EBUSY;
			goto unlock;
		}
		if (slot->cape && slot->cape->applied_by) {
			snprintf(why, why_len,
				 "slot %u holds %s, applied before Linux started (%s): it stays until reboot",
				 slot->nr, slot->cape->holder,
				 slot->cape->applied_by);
			ret = -EBUSY;
			goto unlock;
		}
		if (slot->cape)
			cape = capebus_cape_get(slot->cape);
	}
	if (cape) {
		__capebus_cape_remove(cape);
		capebus_cape_put(cape);
	}

	scoped_guard(mutex, &ctrl->lock) {
		swap(slot->override_image, copy);
		slot->override_len = len;
		swap(slot->override_info, info);
		swap(slot->override_overlay, ov_copy);
		slot->override_overlay_len = slot->override_overlay ? ov_len : 0;
		slot->state = CAPEBUS_SLOT_EMPTY;
		slot->reason[0] = '\0';
		if (slot->cape || (!slot->override_info && !slot->desc_info)) {
			ret = 0;
			goto unlock;
		}
	}

	cape = capebus_slot_load(slot);
	ret = PTR_ERR_OR_ZERO(cape);
	if (ret)
		capebus_slot_reason(slot, why, why_len);
	else
		capebus_cape_put(cape);
unlock:
	capebus_slot_announce(slot);
	mutex_unlock(&ctrl->transition);
out:
	kvfree(ov_copy);
	kvfree(copy);
	kfree(info);
	return ret;
}

/**
 * capebus_slot_read_override() - read a slot's override image
 * @slot: the slot
 * @buf: where to copy, or NULL to ask for the size
 * @count: most bytes to copy
 *
 * Return: bytes copied (the size if @buf is NULL), 0 if there is none.
 */
ssize_t capebus_slot_read_override(struct capebus_slot *slot, void *buf,
				   size_t count)
{
	guard(mutex)(&slot->ctrl->lock);

	if (!slot->override_image)
		return 0;
	if (!buf)
		return slot->override_len;
	count = min(count, slot->override_len);
	memcpy(buf, slot->override_image, count);

	return count;
}
