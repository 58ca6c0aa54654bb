// SPDX-License-Identifier: GPL-2.0
/*
 * capebus: controllers, and the one path by which a cape comes and goes
 * (capebus_cape_add(), capebus_cape_remove()), with the pin and power
 * claims and the capes whose overlay could not be removed.  Slots and
 * their state machine are in capebus-slot.c.
 *
 * Lock order (outermost first):
 *
 *   1. callers' own locks (configfs: a declared cape's op_lock)
 *   2. capebus_controller.transition: held by every slot transition
 *      (Documentation/capebus/slot-states.rst) from its check to its
 *      commit, and by everything that may wait for a driver or the device
 *      tree: a cape's addition and removal (device_add() and device_del(),
 *      so its driver's probe and remove), an overlay retry, the stuck
 *      overlays' retry, the controller module's ops, the controller's
 *      registration and unregistration, and the probes and removes a cape
 *      driver's registration and unregistration start (capebus-bus.c)
 *   2a. capebus_orphans_lock: the stuck capes a controller left behind
 *   3. device_lock() of a cape (driver core: probe, remove, bind, unbind).
 *      A cape's overlay is applied and removed under it, whoever started
 *      the probe or remove; root's sysfs bind and unbind are capebus's
 *      (capebus-bus.c) and take 2 first
 *   3a. capebus_enable.lock, one per header bus capebus enables
 *      (capebus-enable.c): held across that bus's changeset and its
 *      device's probe and remove (capebus-target.c), so only the capes
 *      asking for that bus wait for it; one at a time, never nested
 *   4. of_overlay_mutex, of_mutex (of_overlay_fdt_apply(), of_overlay_remove())
 *      and, below them, the locks of the devices an overlay adds or removes;
 *      the controller module's attach and detach (under 2) take of_mutex
 *      and the pin controller's locks the same way.  No probe of a bus
 *      capebus enables runs under them; what a cape's overlay adds below a
 *      bus already enabled still probes under them (the overlay code's
 *      notifiers), as upstream
 *   4a. capebus_enable_lock: the list of enabled buses and their entries,
 *      held for short sections around nothing but allocations and 5
 *   5. capebus_controller.lock: slot state, reason and cape, the resource
 *      table, which capes are registered.  Held only for short sections
 *      that wait for nothing below (no probe, no overlay, no ops); every
 *      reader of a slot's state takes it, so they answer at once, and so
 *      may a cape driver's probe (under 3), which also puts a cape whose
 *      overlay could not be removed on the stuck list under it.  Under it
 *      only allocations, the slots' nvmem links and the driver core's
 *      child lookups.
 *
 * So nothing called with a cape's device lock held (cape drivers' probe and
 * remove, the overlay helpers) may take a controller's transition lock (add
 * or remove a cape, change a slot's state); reading state is fine.  No sysfs
 * attribute of a cape takes a lock; slot attributes take the controller's
 * lock only.  The controller's and its slots' devices are deleted without
 * the transition lock (the controller's "rescan" takes it).
 *
 * Lifetime: a controller owns its slots and its copy of the header; a cape
 * holds a reference on its controller.  capebus_cape_add() returns a
 * reference for the caller; the core holds one more while the cape is
 * registered, and one while its overlay is stuck (on a controller's stuck
 * list or, its controller gone, on the orphans' list until the connector's
 * next controller adopts it: the core module stays meanwhile).  A cape's memory is freed
 * in its release (capebus-bus.c), nowhere else.  Nothing of the controller
 * module (its header, its ops, its module) is reached once
 * capebus_controller_unregister() has returned: a controller may outlive
 * its module (configfs holds one whose capes are declared, a stuck cape
 * its own).
 */

#define pr_fmt(fmt) "capebus: " fmt

#include <kunit/visibility.h>
#include <linux/capebus.h>
#include <linux/device.h>
#include <linux/firmware.h>
#include <linux/idr.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "capebus-internal.h"
#include "capebus-resources.h"

/* ---- capes --------------------------------------------------------------- */

static bool capebus_strict_budget;
module_param_named(strict_budget, capebus_strict_budget, bool, 0644);
MODULE_PARM_DESC(strict_budget,
		 "Refuse a cape that takes a rail over its budget (default: load it and report it)");

/*
 * An overlay in a cape's EEPROM comes with the cape: whoever made the cape
 * wrote it.  The connector's rules confine what it can name, but not a raw
 * number in a property only its driver reads as a reference
 * (Documentation/capebus/threat-model.rst): so the safe choice is the
 * default, the distribution's firmware file the controller names after the
 * cape (some ID formats name an overlay rather than carry one).
 */
static bool capebus_eeprom_overlays;
module_param_named(eeprom_overlays, capebus_eeprom_overlays, bool, 0644);
MODULE_PARM_DESC(eeprom_overlays,
		 "Use overlays embedded in cape EEPROMs (default: off, look for the firmware file instead)");

/*
 * The firmware file the controller names for @cape, in cape->overlay_file
 * ("" for none).  ctrl->transition held: the ops are the module's still.
 */
static int capebus_cape_overlay_name(struct cape_device *cape, char *why,
				     size_t why_len)
{
	struct capebus_controller *ctrl = cape->ctrl;
	char *name = cape->overlay_file;
	int ret;

	lockdep_assert_held(&ctrl->transition);

	name[0] = '\0';
	if (!ctrl->ops || !ctrl->ops->overlay_name)
		return 0;

	ret = ctrl->ops->overlay_name(ctrl, cape->info, name,
				      sizeof(cape->overlay_file));
	name[sizeof(cape->overlay_file) - 1] = '\0';
	if (ret) {
		snprintf(why, why_len, "%s names no overlay file: %d",
			 dev_name(&ctrl->dev), ret);
		return ret;
	}
	/* A file of the firmware directory, not a path out of it. */
	if (name[0] == '/' || strstr(name, "..")) {
		snprintf(why, why_len, "overlay file name \"%s\" refused",
			 name);
		name[0] = '\0';
		return -EINVAL;
	}

	return 0;
}

/*
 * Look up cape->overlay_file into a copy at @data.  It reads the cape
 * only for the file name, which never changes: callers need no lock (and
 * should hold none, as the lookup may wait on a filesystem).
 */
static int capebus_cape_request_firmware(struct cape_device *cape,
					 void **data, size_t *len)
{
	const struct firmware *fw;
	int ret;

	ret = firmware_request_nowarn(&fw, cape->overlay_file, &cape->ctrl->dev);
	if (ret) {
		dev_dbg(&cape->ctrl->dev, "%s: no firmware %s (%d)\n",
			cape->holder, cape->overlay_file, ret);
		return ret;
	}

	*data = kvmemdup(fw->data, fw->size, GFP_KERNEL);
	*len = fw->size;
	release_firmware(fw);

	return *data ? 0 : -ENOMEM;
}

/*
 * The cape's overlay: the one it comes with (EEPROM, configfs), else the
 * firmware file, else none.  Overlays from a cape's EEPROM or from
 * userspace are device-tree changes the kernel cannot vouch for: under
 * lockdown they are refused, as powerpc's dlpar does for the same reason
 * (LOCKDOWN_DEVICE_TREE).  The firmware file is the distribution's, like
 * any driver's firmware.
 */
static int capebus_cape_find_overlay(struct cape_device *cape,
				     const struct capebus_cape_desc *desc,
				     char *why, size_t why_len)
{
	bool user = desc->overlay_source &&
		    !strcmp(desc->overlay_source, "configfs");
	int ret;

	/* Its devices are in the tree already: nothing to apply, or to find. */
	if (desc->applied_by) {
		cape->applied_by = kstrdup(desc->applied_by, GFP_KERNEL);
		cape->overlay_source = "bootloader";
		return cape->applied_by ? 0 : -ENOMEM;
	}

	/*
	 * An overlay a slot's EEPROM carries is used only if the parameter
	 * says so; one root handed over (configfs: a dtbo, or an EEPROM image
	 * declaring a cape) is root's choice.
	 */
	if (desc->overlay && (user || !desc->detected ||
			      READ_ONCE(capebus_eeprom_overlays))) {
		ret = security_locked_down(LOCKDOWN_DEVICE_TREE);
		if (ret) {
			snprintf(why, why_len,
				 "kernel is locked down: an overlay from %s is refused%s",
				 user ? "userspace" : "a cape EEPROM",
				 user ? "" :
				 " (capebus.eeprom_overlays=0 uses the firmware file instead)");
			return ret;
		}
		cape->overlay = kvmemdup(desc->overlay, desc->overlay_len,
					 GFP_KERNEL);
		cape->overlay_len = desc->overlay_len;
		cape->overlay_source = user ? "configfs" : "eeprom";
		return cape->overlay ? 0 : -ENOMEM;
	}

	cape->overlay_source = "none";
	ret = capebus_cape_overlay_name(cape, why, why_len);
	if (ret || !cape->overlay_file[0])
		return ret;
	ret = capebus_cape_request_firmware(cape, &cape->overlay,
					    &cape->overlay_len);
	cape->overlay_err = ret;
	if (ret == -ENOMEM)
		return ret;
	if (!ret)
		cape->overlay_source = "firmware";

	return 0;
}

/* Build the cape's claim: EEPROM pins and currents, overlay pins, extras. */
static int capebus_cape_build_claim(struct cape_device *cape,
				    const struct capebus_cape_desc *desc,
				    char *why, size_t why_len)
{
	const struct capebus_header *header = cape->ctrl->header;
	DECLARE_BITMAP(ov_pins, CAPEBUS_MAX_PINS) = { 0 };
	bool declared = false;
	int ret;

	cape->claim = kzalloc(sizeof(*cape->claim), GFP_KERNEL);
	if (!cape->claim)
		return -ENOMEM;

	capebus_claim_from_info(cape->claim, cape->info);
	cape->claim->holder = cape->holder;

	if (cape->overlay) {
		ret = capebus_overlay_check(cape, ov_pins, &declared, why,
					    why_len);
		if (ret)
			return ret;
	}

	if (declared && !bitmap_equal(ov_pins, cape->claim->pins,
				      CAPEBUS_MAX_PINS) &&
	    !bitmap_empty(cape->claim->pins, CAPEBUS_MAX_PINS)) {
		char diff[CAPEBUS_REASON_LEN];

		capebus_pins_format_diff(header, diff, sizeof(diff),
					 cape->claim->pins, ov_pins);
		dev_warn(&cape->ctrl->dev,
			 "%s: EEPROM pins and overlay exclusive-use disagree: %s\n",
			 cape->holder, diff);
	}

	bitmap_or(cape->claim->pins, cape->claim->pins, ov_pins,
		  CAPEBUS_MAX_PINS);
	if (desc->extra_pins)
		bitmap_or(cape->claim->pins, cape->claim->pins,
			  desc->extra_pins, header->num_pins);

	/*
	 * A bus's pins are held for the bus while a cape enables it; those
	 * another cape muxed it with already are not muxed again.
	 */
	bitmap_zero(cape->shared_pins, CAPEBUS_MAX_PINS);
	if (cape->overlay) {
		bitmap_zero(ov_pins, CAPEBUS_MAX_PINS);
		ret = capebus_overlay_bus_pins(cape, cape->info->pins, ov_pins,
					       cape->shared_pins, why, why_len);
		if (ret)
			return ret;
		bitmap_andnot(cape->claim->pins, cape->claim->pins, ov_pins,
			      CAPEBUS_MAX_PINS);
	}

	return 0;
}

static int capebus_cape_is_in(struct device *dev, void *data)
{
	const unsigned int *nr = data;

	if (dev->type != &capebus_cape_type)
		return 0;

	return to_cape_device(dev)->registered && to_cape_device(dev)->slot_nr == *nr;
}

/* Number the cape's slot: slot_nr, holder and device name. */
static int capebus_cape_set_slot(struct cape_device *cape, unsigned int nr)
{
	cape->slot_nr = nr;
	snprintf(cape->holder, sizeof(cape->holder), "%s (slot %u)",
		 cape_text(cape, CAPEBUS_PART_NUMBER), nr);

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

/**
 * capebus_cape_mark_stuck() - put a cape whose overlay could not be removed
 *	on its controller's list of stuck overlays
 * @cape: the cape, @cape->overlay_stuck set; its device lock is held, or it
 *	is unregistered and its controller's transition lock is held
 *
 * Whichever path failed to remove the overlay (a driver's remove or a
 * failed apply, started by a slot transition or by the driver core: a
 * reprobe, a rescan, root's bind or unbind), the cape goes on the list,
 * with a reference, and capebus_retry_stuck_overlays() tries again.
 * Context: takes the controller's lock only, so may be called from a cape
 * driver's probe or remove.
 */
void capebus_cape_mark_stuck(struct cape_device *cape)
{
	struct capebus_controller *ctrl = cape->ctrl;

	guard(mutex)(&ctrl->lock);
	if (!cape->overlay_stuck || !list_empty(&cape->stuck_node))
		return;
	get_device(&cape->dev);
	list_add(&cape->stuck_node, &ctrl->stuck_capes);
}

/*
 * Try to remove @cape's stuck overlay: under its device lock, so that no
 * probe or remove of the cape runs meanwhile, and not while a driver holds
 * it (one that kept the cape although its overlay did not apply).  ctrl->lock
 * is taken for the list and the claims.  Return: true if it came off.
 */
static bool capebus_retry_stuck_overlay(struct capebus_controller *ctrl,
					struct cape_device *cape)
{
	guard(device)(&cape->dev);

	if (cape->dev.driver || (cape->overlay_stuck &&
				 capebus_overlay_revert(cape, true)))
		return false;

	dev_info(&ctrl->dev, "%s: overlay removed after all%s\n", cape->holder,
		 cape->registered ? "" : ", pins released");
	guard(mutex)(&ctrl->lock);
	list_del_init(&cape->stuck_node);
	/* A registered cape keeps its claim; one removed gives it back now. */
	if (cape->registered)
		return true;
	/* An adopted cape's slot is its old controller's (see below). */
	if (cape->ctrl == ctrl && cape->slot && cape->detected &&
	    !cape->slot->cape && cape->slot->state == CAPEBUS_SLOT_FAILED) {
		cape->slot->state = CAPEBUS_SLOT_EMPTY;
		cape->slot->reason[0] = '\0';
	}
	capebus_resources_release(ctrl->res, cape->claim);

	return true;
}

/*
 * of_overlay_remove() refuses an overlay that a later one overlaps (two
 * capes setting properties of one bus node, say, or a foreign overlay on
 * a cape's node) until the later one is gone.  Try the stuck overlays,
 * newest first, until a pass frees none: each cape whose overlay comes
 * off now leaves the list; one that was removed gives back its pins and
 * is released.  ctrl->transition held (only its holders take capes off
 * the list; drivers' probe and remove add them, under ctrl->lock): called
 * after each cape removal, and by the controller's "rescan".
 */
static void capebus_retry_stuck_overlays(struct capebus_controller *ctrl)
{
	struct cape_device *cape, *next;
	LIST_HEAD(todo);
	bool progress;

	lockdep_assert_held(&ctrl->transition);

	do {
		progress = false;
		scoped_guard(mutex, &ctrl->lock)
			list_splice_init(&ctrl->stuck_capes, &todo);
		list_for_each_entry_safe(cape, next, &todo, stuck_node) {
			if (!capebus_retry_stuck_overlay(ctrl, cape))
				continue;
			put_device(&cape->dev);
			progress = true;
		}
		/* Those added meanwhile are newer: they stay first. */
		scoped_guard(mutex, &ctrl->lock)
			list_splice_tail_init(&todo, &ctrl->stuck_capes);
	} while (progress);

	/*
	 * Pins and buses let go (or adopted) without a detach: the connector
	 * puts back what it held for them.
	 */
	if (ctrl->ops && ctrl->ops->settle)
		ctrl->ops->settle(ctrl);
}

/*
 * Let the controller module set the cape up (ops->attach).  ctrl->transition
 * held, ctrl->lock not: the controller is registered (ops are set).
 */
static int capebus_cape_attach(struct cape_device *cape, char *why,
			       size_t why_len)
{
	struct capebus_controller *ctrl = cape->ctrl;
	int ret;

	lockdep_assert_held(&ctrl->transition);

	if (!ctrl->ops || !ctrl->ops->attach)
		return 0;

	ret = ctrl->ops->attach(ctrl, cape, why, why_len);
	if (ret) {
		if (!why[0])
			snprintf(why, why_len, "%s cannot attach it: %d",
				 dev_name(&ctrl->dev), ret);
		return ret;
	}
	cape->attached = true;

	return 0;
}

/*
 * Undo capebus_cape_attach(), once.  ctrl->transition held: every attached
 * cape is detached by capebus_controller_unregister() at the latest, before
 * it forgets ctrl->ops.
 */
static void capebus_cape_detach(struct cape_device *cape)
{
	struct capebus_controller *ctrl = cape->ctrl;

	lockdep_assert_held(&ctrl->transition);

	if (!cape->attached)
		return;

	cape->attached = false;
	if (ctrl->ops && ctrl->ops->detach)
		ctrl->ops->detach(ctrl, cape);
}

/*
 * Unbind, delete and drop the core's reference.  ctrl->transition held;
 * ctrl->lock only around the bookkeeping, not across device_del() (the
 * driver's remove, the overlay's removal).
 */
static void capebus_cape_unregister(struct cape_device *cape)
{
	struct capebus_controller *ctrl = cape->ctrl;
	struct capebus_slot *slot = cape->slot;
	bool stuck;

	lockdep_assert_held(&ctrl->transition);

	scoped_guard(mutex, &ctrl->lock) {
		if (!cape->registered)
			return;
		cape->registered = false;
	}

	/* The slot still shows the cape ("detected" from the unbinding on). */
	device_del(&cape->dev);
	capebus_cape_detach(cape);
	if (slot)
		sysfs_remove_link(&slot->dev.kobj, "cape");

	scoped_guard(mutex, &ctrl->lock) {
		stuck = cape->overlay_stuck;
		if (slot) {
			slot->cape = NULL;
			/*
			 * A declared cape leaves the slot as it found it
			 * ("disabled", say); a detected one leaves it empty,
			 * or failed while its overlay stays.
			 */
			if (cape->detected && stuck) {
				slot->state = CAPEBUS_SLOT_FAILED;
				snprintf(slot->reason, sizeof(slot->reason),
					 "overlay of %s could not be removed",
					 cape->holder);
			} else if (cape->detected) {
				slot->state = CAPEBUS_SLOT_EMPTY;
				slot->reason[0] = '\0';
			}
		}
		/*
		 * A stuck overlay's nodes and devices are still there: its
		 * pins stay held, and the cape (whose name the pin table
		 * shows), until a retry removes the overlay.
		 */
		if (!stuck)
			capebus_resources_release(ctrl->res, cape->claim);
	}

	if (stuck) {
		dev_err(&ctrl->dev,
			"%s removed but its overlay could not be: pins stay held until it is\n",
			cape->holder);
		capebus_cape_mark_stuck(cape);
	}

	put_device(&cape->dev);
	if (!stuck)
		capebus_retry_stuck_overlays(ctrl);
}

/*
 * Claim the slot and resources and register the device.  ctrl->transition
 * held: no other cape of @ctrl comes or goes meanwhile, and the controller
 * stays registered.  ctrl->lock is taken around the claims only: the
 * driver's probe (device_add()) runs without it, so that the slot's state
 * can be read meanwhile, by the probe too.
 */
static int capebus_cape_register(struct cape_device *cape, char *why,
				 size_t why_len)
{
	struct capebus_controller *ctrl = cape->ctrl;
	struct capebus_slot *slot = cape->slot;
	struct device *other;
	int ret;

	lockdep_assert_held(&ctrl->transition);

	scoped_guard(mutex, &ctrl->lock) {
		if (!ctrl->registered) {
			snprintf(why, why_len, "%s is going away",
				 dev_name(&ctrl->dev));
			return -ENODEV;
		}

		if (cape->slot_nr == CAPEBUS_SLOT_ANY_VIRTUAL) {
			ret = capebus_cape_set_slot(cape,
						    capebus_free_virtual_slot(ctrl));
			if (ret)
				return ret;
		}

		if (slot && slot->cape) {
			snprintf(why, why_len, "slot %u holds %s", slot->nr,
				 slot->cape->holder);
			return -EBUSY;
		}
		other = device_find_child(&ctrl->dev, &cape->slot_nr,
					  capebus_cape_is_in);
		if (other) {
			snprintf(why, why_len, "slot %u holds %s",
				 cape->slot_nr, to_cape_device(other)->holder);
			put_device(other);
			return -EBUSY;
		}

		ctrl->res->strict_budget = READ_ONCE(capebus_strict_budget);
		ret = capebus_resources_claim(ctrl->res, cape->claim,
					      cape->budget_why,
					      sizeof(cape->budget_why));
		if (ret < 0) {
			strscpy(why, cape->budget_why, why_len);
			cape->budget_why[0] = '\0';
			return ret;
		}
		cape->over_budget = ret == CAPEBUS_CLAIM_OVER_BUDGET;
	}

	ret = capebus_cape_attach(cape, why, why_len);
	if (ret)
		goto err_release;

	scoped_guard(mutex, &ctrl->lock) {
		cape->registered = true;
		if (slot)
			slot->cape = cape;
	}
	/* "detected": told before device_add() probes it */
	if (slot)
		capebus_slot_announce(slot);

	ret = device_add(&cape->dev);
	if (ret) {
		snprintf(why, why_len, "cannot register device: %d", ret);
		scoped_guard(mutex, &ctrl->lock) {
			if (slot)
				slot->cape = NULL;
			cape->registered = false;
		}
		capebus_cape_detach(cape);
		goto err_release;
	}

	/* The core's own reference, dropped when the cape is unregistered. */
	get_device(&cape->dev);

	/* Information, not a veto (the uevent carries CAPEBUS_BUDGET=over). */
	if (cape->over_budget)
		dev_warn(&cape->dev, "%s is over budget: %s\n", cape->holder,
			 cape->budget_why);

	if (slot && sysfs_create_link(&slot->dev.kobj, &cape->dev.kobj, "cape"))
		dev_warn(&slot->dev, "cannot link to %s\n", dev_name(&cape->dev));

	/* device_add() probed the cape: an overlay that failed fails the cape. */
	if (cape->apply_err) {
		snprintf(why, why_len, "overlay %s: %s",
			 cape->apply_refused ? "refused" : "not applied",
			 cape->apply_why);
		capebus_cape_unregister(cape);
		return cape->apply_err;
	}

	return 0;

err_release:
	scoped_guard(mutex, &ctrl->lock)
		capebus_resources_release(ctrl->res, cape->claim);
	return ret;
}

/**
 * __capebus_cape_add() - capebus_cape_add() with the controller's
 *	transition lock held
 * @ctrl: the controller; its transition lock is held
 * @desc: the cape
 * @why: where to write why the cape was refused
 * @why_len: bytes at @why
 *
 * For the slot transitions, which hold the transition lock from their check
 * to their commit.
 *
 * Return: as capebus_cape_add().
 */
struct cape_device *__capebus_cape_add(struct capebus_controller *ctrl,
				       const struct capebus_cape_desc *desc,
				       char *why, size_t why_len)
{
	struct capebus_slot *slot = capebus_slot(ctrl, desc->slot);
	struct cape_device *cape;
	int ret;

	lockdep_assert_held(&ctrl->transition);

	why[0] = '\0';
	if (!desc->info || !desc->info->text[CAPEBUS_PART_NUMBER][0]) {
		snprintf(why, why_len, "no part number");
		return ERR_PTR(-EINVAL);
	}

	cape = kzalloc(sizeof(*cape), GFP_KERNEL);
	if (!cape)
		return ERR_PTR(-ENOMEM);

	device_initialize(&cape->dev);
	INIT_LIST_HEAD(&cape->stuck_node);
	cape->dev.bus = &capebus_bus_type;
	cape->dev.type = &capebus_cape_type;
	cape->dev.parent = &ctrl->dev;
	cape->ctrl = ctrl;
	get_device(&ctrl->dev);
	cape->slot = slot;
	cape->detected = desc->detected;
	cape->slot_nr = desc->slot;
	snprintf(cape->holder, sizeof(cape->holder), "%s (virtual slot)",
		 desc->info->text[CAPEBUS_PART_NUMBER]);

	cape->info = kmemdup(desc->info, sizeof(*desc->info), GFP_KERNEL);
	if (!cape->info) {
		ret = -ENOMEM;
		goto err_put;
	}

	/* A virtual slot to be chosen is numbered when the cape registers. */
	if (desc->slot != CAPEBUS_SLOT_ANY_VIRTUAL) {
		ret = capebus_cape_set_slot(cape, desc->slot);
		if (ret)
			goto err_put;
	}

	ret = capebus_cape_find_overlay(cape, desc, why, why_len);
	if (ret)
		goto err_put;

	ret = capebus_cape_build_claim(cape, desc, why, why_len);
	if (ret)
		goto err_put;

	ret = capebus_cape_register(cape, why, why_len);
	if (ret)
		goto err_put;

	dev_info(&cape->dev, "%s %s (%s), overlay %s%s%s (resolved in %llu us, applied in %llu us, verifying %llu us of it)%s\n",
		 cape_text(cape, CAPEBUS_PART_NUMBER),
		 cape_text(cape, CAPEBUS_VERSION),
		 cape_text(cape, CAPEBUS_BOARD_NAME), cape->overlay_source,
		 cape->overlay_file[0] ? " " : "", cape->overlay_file,
		 div_u64(cape->resolve_ns, NSEC_PER_USEC),
		 div_u64(cape->apply_ns, NSEC_PER_USEC),
		 div_u64(cape->verify_ns, NSEC_PER_USEC),
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
 * Capes of one controller come and go one at a time: this waits for any
 * other cape's addition or removal (and its driver's probe or remove) to
 * end.  The slot's state can be read meanwhile.
 *
 * Context: process context; takes @ctrl->transition, so not from a cape
 * driver's probe or remove, nor from anything they wait for.
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

	guard(mutex)(&ctrl->transition);
	cape = __capebus_cape_add(ctrl, desc, why, why_len);
	if (slot)
		capebus_slot_announce(slot);

	return cape;
}
EXPORT_SYMBOL_GPL(capebus_cape_add);

/**
 * __capebus_cape_remove() - capebus_cape_remove() with the controller's
 *	transition lock held
 * @cape: the cape; its controller's transition lock is held
 */
void __capebus_cape_remove(struct cape_device *cape)
{
	capebus_cape_unregister(cape);
}

/**
 * capebus_cape_remove() - remove a cape
 * @cape: a cape returned by capebus_cape_add() (the caller still holds its
 *	reference and drops it afterwards)
 *
 * Unbinds the cape's driver (the generic driver reverts the overlay),
 * deletes the device (KOBJ_REMOVE uevent), frees its pins and currents.  A
 * cape already removed (for instance by capebus_controller_unregister()) is
 * left alone.  Waits, like capebus_cape_add(), for any other cape of the
 * controller coming or going.
 *
 * Context: process context; takes the controller's transition lock, so not
 * from a cape driver's probe or remove.
 */
void capebus_cape_remove(struct cape_device *cape)
{
	guard(mutex)(&cape->ctrl->transition);
	__capebus_cape_remove(cape);
	if (cape->slot)
		capebus_slot_announce(cape->slot);
}
EXPORT_SYMBOL_GPL(capebus_cape_remove);

/* @np as one of @ctrl's cape targets, or NULL.  Fixed once registered. */
const struct capebus_target *
capebus_controller_target(struct capebus_controller *ctrl,
			  struct device_node *np)
{
	unsigned int i;

	for (i = 0; i < ctrl->num_targets; i++)
		if (ctrl->targets[i].np == np)
			return &ctrl->targets[i];

	return NULL;
}

/* Is @np one of @ctrl's cape targets? */
bool capebus_controller_has_target(struct capebus_controller *ctrl,
				   struct device_node *np)
{
	return capebus_controller_target(ctrl, np);
}

/*
 * What a loaded cape has to tell (over budget, overlay file missing), for
 * its slot's reason and its configfs status.  ctrl->lock held.
 * Return: the length written, 0 if nothing.
 */
size_t capebus_cape_note(const struct cape_device *cape, char *buf, size_t len)
{
	size_t n = 0;

	lockdep_assert_held(&cape->ctrl->lock);
	buf[0] = '\0';
	if (cape->applied_by)
		n += scnprintf(buf + n, len - n,
			       "applied before Linux started (%s); it stays until reboot",
			       cape->applied_by);
	if (cape->over_budget)
		n += scnprintf(buf + n, len - n, "%sover budget: %s",
			       n ? "; " : "", cape->budget_why);
	if (cape->overlay_err == -ENOENT)
		n += scnprintf(buf + n, len - n,
			       "%sno overlay: firmware %s not found",
			       n ? "; " : "", cape->overlay_file);
	else if (cape->overlay_err)
		n += scnprintf(buf + n, len - n,
			       "%sno overlay: firmware %s not applied: %s",
			       n ? "; " : "", cape->overlay_file,
			       cape->apply_why[0] ? cape->apply_why : "error");

	return n;
}

/*
 * Claim the pins @cape's newly found overlay names in exclusive-use beyond
 * those it holds, and add them to its claim.  ctrl->lock held.
 */
static int capebus_cape_claim_more(struct cape_device *cape,
				   const unsigned long *ov_pins,
				   char *why, size_t why_len)
{
	struct capebus_claim more = { .holder = cape->holder };

	bitmap_andnot(more.pins, ov_pins, cape->claim->pins, CAPEBUS_MAX_PINS);
	if (bitmap_empty(more.pins, CAPEBUS_MAX_PINS))
		return 0;
	if (capebus_resources_claim(cape->ctrl->res, &more, why, why_len))
		return -EBUSY;
	bitmap_or(cape->claim->pins, cape->claim->pins, more.pins,
		  CAPEBUS_MAX_PINS);

	return 0;
}

/*
 * Give back the pins of @pins the cape holds: a bus's pins, held for the bus
 * while it is enabled (capebus_overlay_bus_pins()).  ctrl->lock held.
 */
static void capebus_cape_claim_drop(struct cape_device *cape,
				    const unsigned long *pins)
{
	struct capebus_claim drop = { .holder = cape->holder };

	bitmap_and(drop.pins, cape->claim->pins, pins, CAPEBUS_MAX_PINS);
	capebus_resources_release(cape->ctrl->res, &drop);
	bitmap_andnot(cape->claim->pins, cape->claim->pins, pins,
		      CAPEBUS_MAX_PINS);
}

/**
 * __capebus_cape_retry_overlay() - look again for a cape's missing overlay
 *	file
 * @cape: a registered cape whose firmware file was not found when it was
 *	added (capebus_cape_add()); its controller's transition lock is held
 * @why: where to say why the overlay still does not apply
 * @why_len: bytes at @why
 *
 * With capebus built in, a cape detected before the root filesystem is
 * mounted finds no "<part>-<version>.dtbo".  When the file is there now,
 * it is checked as at the cape's addition, the pins its exclusive-use adds
 * are claimed, and the cape is probed again so that its driver applies it.
 * If any of that fails, the cape stays as it was: loaded without overlay.
 * The transition lock keeps the cape registered throughout; the controller's
 * lock is taken around the claims and the cape's state only, so that the
 * slot's state can be read while the driver probes.
 *
 * Context: process context, not from a cape driver; takes the controller's
 * lock and the cape's device lock (never one inside the other).
 * Return: 0 if the overlay is applied now or the cape needs no retry,
 * -ENOENT if the file is still missing, else the error that refused it.
 */
int __capebus_cape_retry_overlay(struct cape_device *cape, char *why,
				 size_t why_len)
{
	struct capebus_controller *ctrl = cape->ctrl;
	DECLARE_BITMAP(ov_pins, CAPEBUS_MAX_PINS) = { 0 };
	DECLARE_BITMAP(bus_pins, CAPEBUS_MAX_PINS) = { 0 };
	DECLARE_BITMAP(shared, CAPEBUS_MAX_PINS) = { 0 };
	DECLARE_BITMAP(old_pins, CAPEBUS_MAX_PINS);
	void *data = NULL;
	bool declared;
	size_t len;
	int ret;

	lockdep_assert_held(&ctrl->transition);

	why[0] = '\0';
	scoped_guard(mutex, &ctrl->lock)
		if (!cape->registered || !cape->overlay_err)
			return 0;

	/* Without ctrl->lock: the lookup may wait on a filesystem. */
	ret = capebus_cape_request_firmware(cape, &data, &len);
	if (ret) {
		scoped_guard(mutex, &ctrl->lock)
			cape->overlay_err = ret;
		snprintf(why, why_len, "firmware %s: error %d",
			 cape->overlay_file, ret);
		return ret;
	}

	/* Only the transition lock's holders change a cape's claim. */
	bitmap_copy(old_pins, cape->claim->pins, CAPEBUS_MAX_PINS);
	scoped_guard(device, &cape->dev) {
		cape->overlay = data;
		cape->overlay_len = len;
		cape->apply_err = 0;
		ret = capebus_overlay_check(cape, ov_pins, &declared, why,
					    why_len);
		if (!ret)
			ret = capebus_overlay_bus_pins(cape, cape->info->pins,
						       bus_pins, shared, why,
						       why_len);
		/* Its pads are muxed (attached): none can be a bus's now. */
		if (!ret && !bitmap_empty(shared, CAPEBUS_MAX_PINS)) {
			snprintf(why, why_len,
				 "pin %s is muxed by a bus another cape enabled since the cape was added: add it again to share the bus",
				 ctrl->header->pin_names[find_first_bit(shared,
									CAPEBUS_MAX_PINS)]);
			ret = -EBUSY;
		}
		scoped_guard(mutex, &ctrl->lock) {
			/* As at the cape's addition: a bus's pins are the bus's. */
			bitmap_andnot(ov_pins, ov_pins, bus_pins,
				      CAPEBUS_MAX_PINS);
			if (!ret)
				ret = capebus_cape_claim_more(cape, ov_pins, why,
							      why_len);
			if (!ret)
				capebus_cape_claim_drop(cape, bus_pins);
			cape->overlay_err = 0;
		}
		if (!ret)
			WRITE_ONCE(cape->overlay_source, "firmware");
	}

	/* Probe again: the driver that binds applies the overlay. */
	if (!ret) {
		ret = device_reprobe(&cape->dev);
		if (!ret && cape->apply_err) {
			snprintf(why, why_len, "overlay %s: %s",
				 cape->apply_refused ? "refused" : "not applied",
				 cape->apply_why);
			ret = cape->apply_err;
		}
		if (!ret) {
			dev_info(&cape->dev, "overlay %s found and applied\n",
				 cape->overlay_file);
			return 0;
		}
	}

	/* An overlay that could not even be taken back stays: it is stuck. */
	if (cape->ovcs_id)
		return ret;

	/* Back to loaded without an overlay. */
	scoped_guard(device, &cape->dev) {
		struct capebus_claim more = { .holder = cape->holder };
		struct capebus_claim back = { .holder = cape->holder };

		bitmap_andnot(more.pins, cape->claim->pins, old_pins,
			      CAPEBUS_MAX_PINS);
		bitmap_andnot(back.pins, old_pins, cape->claim->pins,
			      CAPEBUS_MAX_PINS);
		WRITE_ONCE(cape->overlay_source, "none");
		kvfree(cape->overlay);
		cape->overlay = NULL;
		cape->overlay_len = 0;
		capebus_overlay_forget(cape);
		scoped_guard(mutex, &ctrl->lock) {
			capebus_resources_release(ctrl->res, &more);
			/* The bus pins it gave up, if no one took them since. */
			if (!bitmap_empty(back.pins, CAPEBUS_MAX_PINS) &&
			    capebus_resources_claim(ctrl->res, &back, NULL, 0))
				bitmap_andnot(old_pins, old_pins, back.pins,
					      CAPEBUS_MAX_PINS);
			bitmap_copy(cape->claim->pins, old_pins,
				    CAPEBUS_MAX_PINS);
			cape->overlay_err = ret;
			strscpy(cape->apply_why, why, sizeof(cape->apply_why));
		}
	}
	if (!cape->dev.driver && device_attach(&cape->dev) < 0)
		dev_warn(&cape->dev, "cannot bind again\n");
	dev_err(&cape->dev, "overlay %s still not applied: %s\n",
		cape->overlay_file, why);

	return ret;
}

/**
 * capebus_cape_retry_overlay() - __capebus_cape_retry_overlay(), taking the
 *	controller's transition lock
 * @cape: a cape
 * @why: where to say why the overlay still does not apply
 * @why_len: bytes at @why
 *
 * Context: process context, not from a cape driver; waits for any cape of
 * the controller coming or going.
 * Return: as __capebus_cape_retry_overlay().
 */
int capebus_cape_retry_overlay(struct cape_device *cape, char *why,
			       size_t why_len)
{
	guard(mutex)(&cape->ctrl->transition);

	return __capebus_cape_retry_overlay(cape, why, why_len);
}

static int capebus_retry_child(struct device *dev, void *data)
{
	char why[CAPEBUS_REASON_LEN];
	unsigned int *missing = data;

	if (dev->type != &capebus_cape_type)
		return 0;
	if (capebus_cape_retry_overlay(to_cape_device(dev), why, sizeof(why)))
		(*missing)++;

	return 0;
}

/**
 * capebus_controller_retry_overlays() - look again for every missing overlay
 *	file of a controller's capes
 * @ctrl: the controller
 *
 * The stuck overlays are tried again first (capebus_retry_stuck_overlays()).
 *
 * Context: process context; see capebus_cape_retry_overlay().  The walk
 * holds no lock across a cape's retry (device_for_each_child() keeps only a
 * reference on the child).
 * Return: how many capes still lack their overlay.
 */
unsigned int capebus_controller_retry_overlays(struct capebus_controller *ctrl)
{
	unsigned int missing = 0;

	scoped_guard(mutex, &ctrl->transition)
		capebus_retry_stuck_overlays(ctrl);
	device_for_each_child(&ctrl->dev, &missing, capebus_retry_child);

	return missing;
}

static ssize_t rescan_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	bool rescan;
	int ret;

	ret = kstrtobool(buf, &rescan);
	if (ret)
		return ret;
	if (rescan)
		capebus_controller_retry_overlays(to_capebus_controller(dev));

	return count;
}
static DEVICE_ATTR_WO(rescan);

/* The core's copy of the header lives as long as the controller: no lock. */
static ssize_t family_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%s\n", to_capebus_controller(dev)->header->family);
}
static DEVICE_ATTR_RO(family);

static struct attribute *capebus_controller_attrs[] = {
	&dev_attr_rescan.attr,
	&dev_attr_family.attr,
	NULL
};
ATTRIBUTE_GROUPS(capebus_controller);

/* ---- controllers --------------------------------------------------------- */

static DEFINE_IDA(capebus_ida);

static void capebus_controller_release(struct device *dev)
{
	struct capebus_controller *ctrl = to_capebus_controller(dev);
	unsigned int i;

	for (i = 0; i < ctrl->num_slots; i++)
		if (ctrl->slots[i])
			put_device(&ctrl->slots[i]->dev);
	for (i = 0; i < ctrl->num_targets; i++) {
		of_node_put(ctrl->targets[i].np);
		kfree(ctrl->targets[i].props);
	}
	for (i = 0; i < ctrl->num_exports; i++) {
		of_node_put(ctrl->exports[i].np);
		kfree(ctrl->exports[i].name);
	}
	for (i = 0; i < ctrl->num_platform_compats; i++)
		kfree(ctrl->platform_compats[i]);
	kfree(ctrl->platform_compats);
	kfree(ctrl->targets);
	kfree(ctrl->exports);
	kfree(ctrl->slots);
	kfree(ctrl->res);
	kfree(ctrl->header);
	of_node_put(ctrl->connector);
	if (ctrl->nr >= 0)
		ida_free(&capebus_ida, ctrl->nr);
	mutex_destroy(&ctrl->lock);
	mutex_destroy(&ctrl->transition);
	kfree(ctrl);
}

const struct class capebus_class = {
	.name	= "capebus",
};

static const struct device_type capebus_controller_type = {
	.name		= "capebus_controller",
	.groups		= capebus_controller_groups,
	.release	= capebus_controller_release,
};

/**
 * capebus_header_pin_index() - a header pin by name
 * @header: the header
 * @name: the pin's name, e.g. "P9.19" (exact match)
 *
 * Return: the pin's index, or -EINVAL if @header has no such pin.
 */
int capebus_header_pin_index(const struct capebus_header *header,
			     const char *name)
{
	unsigned int i;

	for (i = 0; i < header->num_pins; i++)
		if (!strcmp(header->pin_names[i], name))
			return i;

	return -EINVAL;
}
EXPORT_SYMBOL_GPL(capebus_header_pin_index);

/**
 * capebus_header_gpio_pin() - the header pin a GPIO code of the connector's
 *	nexus names
 * @header: the header
 * @code: a GPIO specifier's first cell (struct capebus_header.gpio_codes)
 *
 * Return: the pin's index, or -ENOENT if no pin of @header has that code
 * (or the header's connector is no GPIO nexus).
 */
int capebus_header_gpio_pin(const struct capebus_header *header, u32 code)
{
	unsigned int i;

	if (!header->gpio_codes || code == CAPEBUS_GPIO_NONE)
		return -ENOENT;
	for (i = 0; i < header->num_pins; i++)
		if (header->gpio_codes[i] == code)
			return i;

	return -ENOENT;
}
EXPORT_SYMBOL_GPL(capebus_header_gpio_pin);

/* Bytes of @s with its NUL, or 0 for NULL. */
static size_t capebus_str_size(const char *s)
{
	return s ? strlen(s) + 1 : 0;
}

/* Copy @s to *@pos (NULL stays NULL) and move *@pos past it. */
static const char *capebus_str_copy(char **pos, const char *s)
{
	char *copy = *pos;
	size_t n = capebus_str_size(s);

	if (!n)
		return NULL;
	memcpy(copy, s, n);
	*pos += n;

	return copy;
}

/* A family name: a short word of [a-z0-9_-], as MODALIAS shows it. */
static bool capebus_family_valid(const char *family)
{
	size_t n;

	if (!family || !family[0])
		return false;
	n = strspn(family, "abcdefghijklmnopqrstuvwxyz0123456789_-");

	return !family[n] && n < CAPEBUS_FAMILY_LEN;
}

/*
 * A copy of @header, its names and its GPIO codes, in one allocation the
 * controller owns (freed by its release): nothing of the controller
 * module's is reached through the controller afterwards.
 */
static struct capebus_header *capebus_header_dup(const struct capebus_header *header)
{
	size_t names = sizeof(char *) * (header->num_pins + header->num_rails);
	size_t codes = header->gpio_codes ?
		       sizeof(u32) * header->num_pins : 0;
	size_t size = sizeof(*header) + names + codes;
	struct capebus_header *copy;
	const char **pin_names, **rail_names;
	unsigned int i;
	char *pos;

	if (header->num_pins > CAPEBUS_MAX_PINS ||
	    header->num_rails > CAPEBUS_MAX_RAILS ||
	    (header->num_pins && !header->pin_names) ||
	    (header->num_rails && !header->rail_names))
		return ERR_PTR(-EINVAL);

	if (!capebus_family_valid(header->family))
		return ERR_PTR(-EINVAL);

	size += capebus_str_size(header->name);
	size += capebus_str_size(header->family);
	size += capebus_str_size(header->default_version);
	for (i = 0; i < header->num_pins; i++) {
		if (!header->pin_names[i])
			return ERR_PTR(-EINVAL);
		size += capebus_str_size(header->pin_names[i]);
	}
	for (i = 0; i < header->num_rails; i++) {
		if (!header->rail_names[i])
			return ERR_PTR(-EINVAL);
		size += capebus_str_size(header->rail_names[i]);
	}

	copy = kzalloc(size, GFP_KERNEL);
	if (!copy)
		return ERR_PTR(-ENOMEM);

	*copy = *header;
	pin_names = (const char **)(copy + 1);
	rail_names = pin_names + header->num_pins;
	pos = (char *)(rail_names + header->num_rails);
	if (codes) {
		memcpy(pos, header->gpio_codes, codes);
		copy->gpio_codes = (const u32 *)pos;
		pos += codes;
	}
	copy->name = capebus_str_copy(&pos, header->name);
	copy->family = capebus_str_copy(&pos, header->family);
	copy->default_version = capebus_str_copy(&pos, header->default_version);
	for (i = 0; i < header->num_pins; i++)
		pin_names[i] = capebus_str_copy(&pos, header->pin_names[i]);
	for (i = 0; i < header->num_rails; i++)
		rail_names[i] = capebus_str_copy(&pos, header->rail_names[i]);
	copy->pin_names = pin_names;
	copy->rail_names = rail_names;

	return copy;
}

/* Was @np, or a node above it, added by an overlay? */
static bool capebus_node_from_overlay(struct device_node *np)
{
	for (; np; np = np->parent)
		if (of_node_check_flag(np, OF_OVERLAY))
			return true;

	return false;
}

/**
 * __capebus_controller_alloc() - allocate a controller and its slots
 * @parent: the board device providing the header
 * @header: the header's pins and rails; copied, with its names and codes
 * @ops: what the core may ask of the controller, or NULL; called only while
 *	the controller is registered
 * @num_slots: hardware slots
 * @owner: the controller's module (capebus_controller_alloc() passes it)
 *
 * The controller has no targets, no board or shared pins and unlimited
 * budgets; set them, then capebus_controller_register().  Release with
 * capebus_controller_put().  The controller may outlive @owner (configfs
 * keeps it while capes are declared): it keeps its own copy of @header.
 *
 * Return: the controller or an ERR_PTR: -EINVAL for a header with too many
 * pins or rails, a missing name or no valid family.
 */
struct capebus_controller *
__capebus_controller_alloc(struct device *parent,
			   const struct capebus_header *header,
			   const struct capebus_controller_ops *ops,
			   unsigned int num_slots, struct module *owner)
{
	struct capebus_header *copy;
	struct capebus_controller *ctrl;
	unsigned int i;
	int ret;

	if (!header)
		return ERR_PTR(-EINVAL);
	/*
	 * A connector states what capes may do: it comes from the board's
	 * device tree, never from an overlay (a cape's overlay adding a
	 * connector node would write its own rules: an outside review did).
	 */
	if (parent && capebus_node_from_overlay(dev_of_node(parent))) {
		dev_err(parent, "a capebus connector added by an overlay is refused\n");
		return ERR_PTR(-EPERM);
	}
	copy = capebus_header_dup(header);
	if (IS_ERR(copy))
		return ERR_CAST(copy);

	ctrl = kzalloc(sizeof(*ctrl), GFP_KERNEL);
	if (!ctrl) {
		kfree(copy);
		return ERR_PTR(-ENOMEM);
	}

	mutex_init(&ctrl->transition);
	mutex_init(&ctrl->lock);
	INIT_LIST_HEAD(&ctrl->stuck_capes);
	ctrl->limits = capebus_fdt_cape_limits;
	ctrl->header = copy;
	ctrl->ops = ops;
	ctrl->owner = owner;
	device_initialize(&ctrl->dev);
	ctrl->dev.class = &capebus_class;
	ctrl->dev.type = &capebus_controller_type;
	ctrl->dev.parent = parent;
	if (parent)
		ctrl->connector = of_node_get(dev_of_node(parent));
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
	capebus_resources_init(ctrl->res, ctrl->header, NULL);

	for (i = 0; i < num_slots; i++) {
		struct capebus_slot *slot = kzalloc(sizeof(*slot), GFP_KERNEL);

		if (!slot)
			goto err_put;
		device_initialize(&slot->dev);
		mutex_init(&slot->told_lock);
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
EXPORT_SYMBOL_GPL(__capebus_controller_alloc);

static void capebus_controller_put_action(void *ctrl)
{
	capebus_controller_put(ctrl);
}

/**
 * __devm_capebus_controller_alloc() - capebus_controller_alloc() whose
 *	reference is dropped when @parent is unbound
 * @parent: the board device providing the header
 * @header: the header's pins and rails
 * @ops: what the core may ask of the controller, or NULL
 * @num_slots: hardware slots
 * @owner: the controller's module
 *
 * Return: the controller or an ERR_PTR.
 */
struct capebus_controller *
__devm_capebus_controller_alloc(struct device *parent,
				const struct capebus_header *header,
				const struct capebus_controller_ops *ops,
				unsigned int num_slots, struct module *owner)
{
	struct capebus_controller *ctrl;
	int ret;

	ctrl = __capebus_controller_alloc(parent, header, ops, num_slots, owner);
	if (IS_ERR(ctrl))
		return ctrl;

	ret = devm_add_action_or_reset(parent, capebus_controller_put_action,
				       ctrl);

	return ret ? ERR_PTR(ret) : ctrl;
}
EXPORT_SYMBOL_GPL(__devm_capebus_controller_alloc);

/**
 * capebus_controller_set_resources() - set a controller's pin and power rules
 * @ctrl: the controller, not yet registered
 * @budget_ma: per rail of the header, mA all capes together may draw,
 *	CAPEBUS_BUDGET_UNLIMITED for no limit; NULL: no limits
 * @board_pins: bitmap of header pins the board itself uses, or NULL
 * @shared_pins: bitmap of header pins every cape may use, or NULL
 *
 * Return: 0, -EBUSY if @ctrl is registered, or -EINVAL if a board pin
 * is held twice.
 */
int capebus_controller_set_resources(struct capebus_controller *ctrl,
				     const u32 *budget_ma,
				     const unsigned long *board_pins,
				     const unsigned long *shared_pins)
{
	int ret = 0;

	guard(mutex)(&ctrl->lock);
	if (ctrl->registered)
		return -EBUSY;

	capebus_resources_init(ctrl->res, ctrl->header, budget_ma);
	if (shared_pins)
		capebus_resources_set_shared(ctrl->res, shared_pins);
	if (board_pins)
		ret = capebus_resources_reserve(ctrl->res, board_pins,
						CAPEBUS_HOLDER_BOARD);

	return ret;
}
EXPORT_SYMBOL_GPL(capebus_controller_set_resources);

/**
 * capebus_controller_set_console_pins() - the header pins the board's
 *	serial console holds
 * @ctrl: the controller, not yet registered, its resources set
 * @pins: bitmap of header pins
 *
 * Held for good as the board's pins are, but named for the console: a cape
 * asking for one is refused with "pin GPIO14 is held by the board's serial
 * console".
 *
 * Return: 0, -EBUSY if @ctrl is registered, or -EINVAL if one of @pins is
 * already held (a board pin).
 */
int capebus_controller_set_console_pins(struct capebus_controller *ctrl,
					const unsigned long *pins)
{
	guard(mutex)(&ctrl->lock);
	if (ctrl->registered)
		return -EBUSY;

	return capebus_resources_reserve(ctrl->res, pins,
					 CAPEBUS_HOLDER_CONSOLE) ? -EINVAL : 0;
}

/*
 * Hold for @holder, for good, the pins of @pins that are not shared and
 * that nobody holds yet (board-pins, console-pins stay theirs).  ctrl->lock
 * held, before registration: no cape holds any.
 */
static void capebus_controller_hold_free(struct capebus_controller *ctrl,
					 const unsigned long *pins,
					 const char *holder)
{
	struct capebus_resources *res = ctrl->res;
	DECLARE_BITMAP(free, CAPEBUS_MAX_PINS);
	unsigned int pin;

	bitmap_andnot(free, pins, res->shared, ctrl->header->num_pins);
	for_each_set_bit(pin, free, ctrl->header->num_pins)
		if (res->holder[pin])
			__clear_bit(pin, free);
	/* Cannot fail: none of @free is held. */
	capebus_resources_reserve(res, free, holder);
}

/**
 * capebus_controller_hold_board_pins() - the header pins the board's own
 *	devices use
 * @ctrl: the controller, not yet registered, its resources set
 * @pins: bitmap (CAPEBUS_MAX_PINS) of header pins the board's device tree
 *	muxes for devices of its own (a pin controller's hogs, say)
 *
 * Held for good as board-pins are: a cape asking for one is refused with
 * "pin GPIO8 is held by the board".  A shared pin stays every cape's, and
 * one board-pins or console-pins hold stays theirs.
 *
 * Return: 0, or -EBUSY if @ctrl is registered.
 */
int capebus_controller_hold_board_pins(struct capebus_controller *ctrl,
				       const unsigned long *pins)
{
	guard(mutex)(&ctrl->lock);
	if (ctrl->registered)
		return -EBUSY;

	capebus_controller_hold_free(ctrl, pins, CAPEBUS_HOLDER_BOARD);

	return 0;
}
EXPORT_SYMBOL_GPL(capebus_controller_hold_board_pins);

/**
 * capebus_controller_set_fdt_limits() - what one cape overlay may hold
 * @ctrl: the controller, not yet registered
 * @limits: the limits (copied)
 *
 * For tests and benches that need overlays larger than a cape's
 * (capebus_fdt_cape_limits, every controller's default).
 *
 * Return: 0, or -EBUSY if @ctrl is registered.
 */
int capebus_controller_set_fdt_limits(struct capebus_controller *ctrl,
				      const struct capebus_fdt_limits *limits)
{
	guard(mutex)(&ctrl->lock);
	if (ctrl->registered)
		return -EBUSY;
	ctrl->limits = *limits;

	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(capebus_controller_set_fdt_limits);

/**
 * capebus_controller_add_target() - let cape overlays target a node
 * @ctrl: the controller, not yet registered
 * @np: the node (a reference is taken), from the board's device tree
 *
 * A target translates no addresses (it has no "ranges"): a cape adds
 * devices on it, not in its parent's address space.  One the board enables
 * is shared, every cape may add nodes to it, if the header pins behind it
 * (capebus_controller_set_target_pins()) are shared pins; behind others, it
 * is the board's, no cape's, and its pins are held for the board.  One the
 * board leaves disabled is the capes' that enable it (status = "okay" in
 * their overlay): no other cape adds to it or sets anything on it.
 *
 * Return: 0, -EBUSY if @ctrl is registered, -EINVAL if @np has "ranges" or
 * was added by an overlay, or -ENOMEM.
 */
int capebus_controller_add_target(struct capebus_controller *ctrl,
				  struct device_node *np)
{
	struct capebus_target *more;
	bool shared;

	if (of_property_present(np, "ranges") || capebus_node_from_overlay(np))
		return -EINVAL;
	/* Enabled by the board, not by capebus for a cape still stuck on it. */
	shared = of_device_is_available(np) && !capebus_enable_owner(np, NULL, 0);

	guard(mutex)(&ctrl->lock);
	if (ctrl->registered)
		return -EBUSY;

	more = krealloc_array(ctrl->targets, ctrl->num_targets + 1,
			      sizeof(*more), GFP_KERNEL);
	if (!more)
		return -ENOMEM;
	memset(&more[ctrl->num_targets], 0, sizeof(*more));
	more[ctrl->num_targets].np = of_node_get(np);
	snprintf(more[ctrl->num_targets].name,
		 sizeof(more[ctrl->num_targets].name), "%pOFn", np);
	more[ctrl->num_targets].shared = shared;
	ctrl->targets = more;
	ctrl->num_targets++;

	return 0;
}
EXPORT_SYMBOL_GPL(capebus_controller_add_target);

/**
 * capebus_controller_add_platform_compatible() - let capes make platform
 *	devices of a kind
 * @ctrl: the controller, not yet registered
 * @compatible: a compatible string (copied)
 *
 * A node a cape adds to a target the OF core populates (a simple-bus, the
 * root: the kernel makes a platform device of each node added there) binds
 * the driver its compatible names, and some drivers trust their parent
 * device to be of a kind the cape cannot give them.  Such a node is
 * accepted only if every string of its compatible is one added here; a
 * controller that adds none lets capes make no platform device.
 *
 * Return: 0, -EBUSY if @ctrl is registered, -EINVAL for an empty string,
 * or -ENOMEM.
 */
int capebus_controller_add_platform_compatible(struct capebus_controller *ctrl,
					       const char *compatible)
{
	char **more;

	if (!*compatible)
		return -EINVAL;

	guard(mutex)(&ctrl->lock);
	if (ctrl->registered)
		return -EBUSY;

	more = krealloc_array(ctrl->platform_compats,
			      ctrl->num_platform_compats + 1, sizeof(*more),
			      GFP_KERNEL);
	if (!more)
		return -ENOMEM;
	ctrl->platform_compats = more;
	more[ctrl->num_platform_compats] = kstrdup(compatible, GFP_KERNEL);
	if (!more[ctrl->num_platform_compats])
		return -ENOMEM;
	ctrl->num_platform_compats++;

	return 0;
}
EXPORT_SYMBOL_GPL(capebus_controller_add_platform_compatible);

/* Was @compatible added with capebus_controller_add_platform_compatible()? */
bool capebus_controller_platform_compatible(struct capebus_controller *ctrl,
					    const char *compatible)
{
	unsigned int i;

	for (i = 0; i < ctrl->num_platform_compats; i++)
		if (!strcmp(ctrl->platform_compats[i], compatible))
			return true;

	return false;
}

/**
 * capebus_controller_set_target_pins() - the header pins behind a target
 * @ctrl: the controller, not yet registered
 * @np: one of its cape targets (capebus_controller_add_target())
 * @name: what messages call the target, e.g. the name it is exported by
 * @pins: bitmap (CAPEBUS_MAX_PINS) of the header pins the target's device
 *	drives (a bus's lines)
 *
 * A target the board leaves disabled is enabled for the capes whose overlay
 * asks (status = "okay"); while it is, its pins are held for it, shared by
 * those capes and refused to any other, and it is enabled only if no other
 * cape holds one of them.  A cape enabling it need not declare them.
 *
 * Return: 0, -EBUSY if @ctrl is registered, -ENOENT if @np is not a target.
 */
int capebus_controller_set_target_pins(struct capebus_controller *ctrl,
				       struct device_node *np, const char *name,
				       const unsigned long *pins)
{
	struct capebus_target *t;

	guard(mutex)(&ctrl->lock);
	if (ctrl->registered)
		return -EBUSY;
	t = (struct capebus_target *)capebus_controller_target(ctrl, np);
	if (!t)
		return -ENOENT;
	bitmap_copy(t->pins, pins, ctrl->header->num_pins);
	strscpy(t->name, name);

	return 0;
}

/**
 * capebus_controller_set_target_props() - the properties capes may set on a
 *	target
 * @ctrl: the controller, not yet registered
 * @np: one of its cape targets (capebus_controller_add_target())
 * @props: property names, a string list (copied)
 * @len: bytes at @props
 *
 * A cape overlay that enables @np (status = "okay") may set these
 * properties of it too (an RS-485 UART's rts-gpios, rs485-rts-delay, ...),
 * and no other; capebus sets them before the status and reverts them with
 * it (capebus-enable.c).  A target no call names gets none.
 *
 * Return: 0, -EBUSY if @ctrl is registered, -ENOENT if @np is not a target,
 * -EINVAL if @props is not a string list of names capebus may let capes
 * set (status, phandle, name and "#...-cells" are capebus's), -ENOMEM.
 */
int capebus_controller_set_target_props(struct capebus_controller *ctrl,
					struct device_node *np,
					const char *props, size_t len)
{
	struct capebus_target *t;
	const char *s;

	if (!len || props[len - 1])
		return -EINVAL;
	for (s = props; s < props + len; s += strlen(s) + 1)
		if (!*s || *s == '#' || !strcmp(s, "status") ||
		    !strcmp(s, "name") || strstr(s, "phandle"))
			return -EINVAL;

	guard(mutex)(&ctrl->lock);
	if (ctrl->registered)
		return -EBUSY;
	t = (struct capebus_target *)capebus_controller_target(ctrl, np);
	if (!t)
		return -ENOENT;
	kfree(t->props);
	t->props = kmemdup(props, len, GFP_KERNEL);
	t->props_len = t->props ? len : 0;

	return t->props ? 0 : -ENOMEM;
}

/* May a cape that enables @t (NULL: no target) set its property @name? */
bool capebus_target_settable(const struct capebus_target *t, const char *name)
{
	const char *s;

	/* A target the board enables takes none: its device probed already. */
	if (!t || !t->props || t->shared)
		return false;
	for (s = t->props; s < t->props + t->props_len; s += strlen(s) + 1)
		if (!strcmp(s, name))
			return true;

	return false;
}

/**
 * capebus_controller_add_export() - export a node to cape overlays by name
 * @ctrl: the controller, not yet registered
 * @name: the name overlays refer to it by (copied), e.g. "header_i2c"
 * @np: the node (a reference is taken); it must have a phandle
 *
 * A cape overlay's references to nodes outside itself resolve through the
 * names its connector exports, and through nothing else: not the board's
 * __symbols__.  Exporting a node lets overlays refer to it (a GPIO nexus,
 * an interrupt parent); only capebus_controller_add_target() lets them
 * add nodes to it.
 *
 * Return: 0, -EBUSY if @ctrl is registered, -EEXIST if @name is exported
 * already, -EINVAL if @np has no phandle or was added by an overlay, or
 * -ENOMEM.
 */
int capebus_controller_add_export(struct capebus_controller *ctrl,
				  const char *name, struct device_node *np)
{
	struct capebus_export *more;
	unsigned int i;
	char *copy;

	if (!np->phandle || capebus_node_from_overlay(np))
		return -EINVAL;

	guard(mutex)(&ctrl->lock);
	if (ctrl->registered)
		return -EBUSY;
	for (i = 0; i < ctrl->num_exports; i++)
		if (!strcmp(ctrl->exports[i].name, name))
			return -EEXIST;

	copy = kstrdup(name, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	more = krealloc_array(ctrl->exports, ctrl->num_exports + 1,
			      sizeof(*more), GFP_KERNEL);
	if (!more) {
		kfree(copy);
		return -ENOMEM;
	}
	more[ctrl->num_exports].name = copy;
	more[ctrl->num_exports].np = of_node_get(np);
	ctrl->exports = more;
	ctrl->num_exports++;

	return 0;
}
EXPORT_SYMBOL_GPL(capebus_controller_add_export);

/*
 * Capes whose overlay outlived their controller: its nodes and devices are
 * still in the tree, so its pins and bus addresses must not go to another
 * cape.  The cape stays (its bus addresses are held while it exists) until
 * the next controller of the same connector node adopts it, and the core
 * module stays (its state holds the overlay's enabled buses, the cape's
 * release is its code: it holds a reference on itself per orphan).  The
 * adopting controller holds the cape's pins, and those of the buses its
 * overlay keeps enabled, from its registration on, and retries the overlay
 * with its own stuck ones.
 * Newest first; capebus_orphans_lock is taken under a controller's
 * transition lock and over capebus_enable_lock and the controller's lock.
 */
static LIST_HEAD(capebus_orphans);
static DEFINE_MUTEX(capebus_orphans_lock);

/*
 * A connector's pads as the board had them (struct capebus_board_pads),
 * one entry per connector node that asked, kept until the core module
 * goes: what a stuck cape leaves muxed outlives its controller.  A
 * connector added by an overlay is refused, so the board's nodes bound
 * them.
 */
struct capebus_connector_pads {
	struct list_head node;
	struct device_node *np;
	struct capebus_board_pads pads;
};

static LIST_HEAD(capebus_connector_pads);
static DEFINE_MUTEX(capebus_connector_pads_lock);

/**
 * capebus_controller_board_pads() - where a controller module keeps its
 *	connector's pads as the board had them
 * @ctrl: the controller, with a connector node
 *
 * The same for every controller of the connector node, so that the next
 * one puts back the pads a stuck cape, or a bus its overlay keeps enabled,
 * left muxed once they are let go.  Use it under @ctrl's transition lock
 * (in its ops): one controller of a connector is registered at a time.
 *
 * Return: the connector's, or NULL (no connector node, or no memory).
 */
struct capebus_board_pads *
capebus_controller_board_pads(struct capebus_controller *ctrl)
{
	struct capebus_connector_pads *c;

	if (!ctrl->connector)
		return NULL;

	guard(mutex)(&capebus_connector_pads_lock);
	list_for_each_entry(c, &capebus_connector_pads, node)
		if (c->np == ctrl->connector)
			return &c->pads;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return NULL;
	c->np = of_node_get(ctrl->connector);
	list_add(&c->node, &capebus_connector_pads);

	return &c->pads;
}
EXPORT_SYMBOL_GPL(capebus_controller_board_pads);

/* Module exit: no controller is left. */
void capebus_controller_exit(void)
{
	struct capebus_connector_pads *c, *next;

	list_for_each_entry_safe(c, next, &capebus_connector_pads, node) {
		list_del(&c->node);
		of_node_put(c->np);
		kfree(c);
	}
}

/**
 * capebus_controller_pins_unheld() - leave only the pins capebus holds for
 *	nothing
 * @ctrl: the controller
 * @pins: bitmap (CAPEBUS_MAX_PINS) of header pins: those held in @ctrl's
 *	table (by a cape, registered or stuck, by a bus capebus keeps enabled,
 *	or by the board) are cleared
 *
 * Context: takes @ctrl's lock; call it under its transition lock (its
 * ops), so that no cape comes or goes meanwhile.
 */
void capebus_controller_pins_unheld(struct capebus_controller *ctrl,
				    unsigned long *pins)
{
	unsigned int pin;

	guard(mutex)(&ctrl->lock);
	for_each_set_bit(pin, pins, CAPEBUS_MAX_PINS)
		if (pin >= ctrl->header->num_pins || !ctrl->res ||
		    ctrl->res->holder[pin])
			clear_bit(pin, pins);
}
EXPORT_SYMBOL_GPL(capebus_controller_pins_unheld);

/* Let a cape with its overlay still in the tree go, for good. */
static void capebus_cape_let_go(struct device *dev, struct cape_device *cape)
{
	dev_err(dev, "%s: overlay %d left in the tree\n", cape->holder,
		cape->ovcs_id);
	list_del_init(&cape->stuck_node);
	put_device(&cape->dev);
}

/*
 * @ctrl is going: its stuck capes (and those it adopted) wait for the next
 * controller of its connector.  A controller with no connector node has
 * no successor to wait for: they are let go.  ctrl->transition held.
 */
static void capebus_orphan_stuck(struct capebus_controller *ctrl)
{
	struct cape_device *cape, *next;
	LIST_HEAD(stuck);

	lockdep_assert_held(&ctrl->transition);

	scoped_guard(mutex, &ctrl->lock)
		list_splice_init(&ctrl->stuck_capes, &stuck);

	guard(mutex)(&capebus_orphans_lock);
	list_for_each_entry_safe(cape, next, &stuck, stuck_node) {
		if (!ctrl->connector) {
			capebus_cape_let_go(&ctrl->dev, cape);
			continue;
		}
		dev_err(&ctrl->dev,
			"%s: overlay %d stays in the tree: its pins and bus addresses stay held for the next controller of %pOF\n",
			cape->holder, cape->ovcs_id, ctrl->connector);
		__module_get(THIS_MODULE);
		list_move_tail(&cape->stuck_node, &capebus_orphans);
	}
}

/* The same pins and rails, by name: a claim on one is a claim on the other. */
static bool capebus_header_same(const struct capebus_header *a,
				const struct capebus_header *b)
{
	unsigned int i;

	if (a->num_pins != b->num_pins || a->num_rails != b->num_rails)
		return false;
	for (i = 0; i < a->num_pins; i++)
		if (strcmp(a->pin_names[i], b->pin_names[i]))
			return false;
	for (i = 0; i < a->num_rails; i++)
		if (strcmp(a->rail_names[i], b->rail_names[i]))
			return false;

	return true;
}

/*
 * Adopt the orphaned stuck capes of @ctrl's connector, before any cape of
 * @ctrl can claim their pins.  ctrl->transition held, @ctrl not registered
 * yet.
 */
static void capebus_adopt_orphans(struct capebus_controller *ctrl)
{
	struct cape_device *cape, *next;
	char why[CAPEBUS_REASON_LEN];
	int ret;

	lockdep_assert_held(&ctrl->transition);

	if (!ctrl->connector)
		return;

	guard(mutex)(&capebus_orphans_lock);
	list_for_each_entry_safe(cape, next, &capebus_orphans, stuck_node) {
		if (cape->ctrl->connector != ctrl->connector)
			continue;
		if (!capebus_header_same(cape->ctrl->header, ctrl->header)) {
			dev_err(&ctrl->dev, "%s: another header than the one its overlay was for: it cannot hold its pins\n",
				cape->holder);
			continue;
		}
		scoped_guard(mutex, &ctrl->lock) {
			/* Its current is drawn either way: not a veto. */
			ctrl->res->strict_budget = false;
			ret = capebus_resources_claim(ctrl->res, cape->claim,
						      why, sizeof(why));
			if (ret >= 0) {
				list_move_tail(&cape->stuck_node,
					       &ctrl->stuck_capes);
				module_put(THIS_MODULE);
			}
		}
		if (ret < 0) {
			dev_err(&ctrl->dev, "%s: its overlay is in the tree but its pins cannot be held: %s\n",
				cape->holder, why);
			continue;
		}
		dev_warn(&ctrl->dev, "%s: overlay %d is still in the tree: its pins stay held until it can be removed\n",
			 cape->holder, cape->ovcs_id);
		/* And the pins of the buses it keeps enabled. */
		if (capebus_enable_adopt(cape, ctrl, why, sizeof(why)))
			dev_err(&ctrl->dev, "%s: a bus its overlay keeps enabled cannot hold its pins: %s\n",
				cape->holder, why);
	}
}

/*
 * A target the board enables is every cape's only if the board offers it to
 * them: the header pins behind it, if any, are shared-pins (the header's
 * I2C bus for capes).  One behind other header pins is a unit the board
 * uses itself (an audio interface its firmware enables): no
 * cape adds to it or enables it, and its pins are held for the board, the
 * ones board-pins or console-pins do not hold already.  ctrl->lock held,
 * before registration: the targets and the shared pins are final.
 */
static void capebus_controller_hold_board_targets(struct capebus_controller *ctrl)
{
	struct capebus_target *t;
	unsigned int i;

	for (i = 0; i < ctrl->num_targets; i++) {
		t = &ctrl->targets[i];
		if (!t->shared || bitmap_subset(t->pins, ctrl->res->shared,
						ctrl->header->num_pins))
			continue;
		t->shared = false;
		snprintf(t->holder, sizeof(t->holder), "the board's %s", t->name);
		capebus_controller_hold_free(ctrl, t->pins, t->holder);
	}
}

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

	scoped_guard(mutex, &ctrl->lock)
		capebus_controller_hold_board_targets(ctrl);

	ret = device_add(&ctrl->dev);
	if (ret)
		return ret;

	for (i = 0; i < ctrl->num_slots; i++) {
		ret = device_add(&ctrl->slots[i]->dev);
		if (ret)
			goto err_del;
	}

	scoped_guard(mutex, &ctrl->transition) {
		capebus_adopt_orphans(ctrl);
		scoped_guard(mutex, &ctrl->lock)
			ctrl->registered = true;
		capebus_retry_stuck_overlays(ctrl);
	}

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

static void capebus_controller_unregister_action(void *ctrl)
{
	capebus_controller_unregister(ctrl);
}

/**
 * devm_capebus_controller_register() - capebus_controller_register(),
 *	undone when @dev is unbound
 * @dev: the device whose unbinding unregisters @ctrl
 * @ctrl: the controller
 *
 * Return: 0 or a negative errno.
 */
int devm_capebus_controller_register(struct device *dev,
				     struct capebus_controller *ctrl)
{
	int ret;

	ret = capebus_controller_register(ctrl);
	if (ret)
		return ret;

	return devm_add_action_or_reset(dev, capebus_controller_unregister_action,
					ctrl);
}
EXPORT_SYMBOL_GPL(devm_capebus_controller_register);

static int capebus_cape_registered(struct device *dev, void *data)
{
	return dev->type == &capebus_cape_type && to_cape_device(dev)->registered;
}

/**
 * capebus_controller_unregister() - remove every cape, the slots and the
 *	controller from sysfs
 * @ctrl: the controller
 *
 * Afterwards capebus_cape_add() on @ctrl fails with -ENODEV and
 * capebus_cape_remove() of its capes does nothing.  Capes whose overlay
 * could not be removed are tried once more; those that still cannot be are
 * let go with their overlay in the tree (reported).  Waits for any cape
 * coming or going and any call into @ctrl's ops; once it has returned
 * nothing of the controller module is used through @ctrl (not its ops, its
 * module or its driver data), so the module may go while @ctrl is still
 * referenced.  Drop the allocation's reference with
 * capebus_controller_put().
 *
 * Context: process context; takes @ctrl's transition lock.
 */
void capebus_controller_unregister(struct capebus_controller *ctrl)
{
	struct device *dev;
	unsigned int i;

	scoped_guard(mutex, &ctrl->transition) {
		scoped_guard(mutex, &ctrl->lock)
			ctrl->registered = false;
		while ((dev = device_find_child(&ctrl->dev, NULL,
						capebus_cape_registered))) {
			capebus_cape_unregister(to_cape_device(dev));
			put_device(dev);
		}
		capebus_retry_stuck_overlays(ctrl);
		capebus_orphan_stuck(ctrl);
		/* Every cape is detached: the module's part is over. */
		ctrl->ops = NULL;
		ctrl->owner = NULL;
		dev_set_drvdata(&ctrl->dev, NULL);
	}

	/*
	 * Without the transition lock: removing configfs groups waits for
	 * their callbacks, removing the devices for their attributes ("rescan"),
	 * and those may wait for the transition lock.
	 */
	capebus_configfs_remove_controller(ctrl);

	for (i = 0; i < ctrl->num_slots; i++) {
		capebus_slot_set_nvmem(ctrl->slots[i], NULL);
		device_del(&ctrl->slots[i]->dev);
	}
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

/**
 * capebus_controller_set_drvdata() - keep the controller module's data
 * @ctrl: the controller
 * @data: what capebus_controller_get_drvdata() returns; set it before
 *	capebus_controller_register(), the core calls @ctrl's ops from then
 *	on, and capebus_controller_unregister() forgets it
 */
void capebus_controller_set_drvdata(struct capebus_controller *ctrl,
				    void *data)
{
	dev_set_drvdata(&ctrl->dev, data);
}
EXPORT_SYMBOL_GPL(capebus_controller_set_drvdata);

/**
 * capebus_controller_get_drvdata() - the controller module's data
 * @ctrl: the controller
 *
 * Return: what capebus_controller_set_drvdata() set, or NULL (none was, or
 * the controller is unregistered).
 */
void *capebus_controller_get_drvdata(const struct capebus_controller *ctrl)
{
	return dev_get_drvdata(&ctrl->dev);
}
EXPORT_SYMBOL_GPL(capebus_controller_get_drvdata);

/**
 * capebus_controller_name() - a controller's name, "capebus<N>"
 * @ctrl: the controller
 *
 * Return: its device's name, as sysfs and the log show it.
 */
const char *capebus_controller_name(const struct capebus_controller *ctrl)
{
	return dev_name(&ctrl->dev);
}
EXPORT_SYMBOL_GPL(capebus_controller_name);

/**
 * cape_family() - the board family of a cape's connector
 * @cape: the cape
 *
 * Return: its controller's &capebus_header.family, e.g. what a cape
 * driver's id table entry names.
 */
const char *cape_family(const struct cape_device *cape)
{
	return cape->ctrl->header->family;
}
EXPORT_SYMBOL_GPL(cape_family);

/**
 * capebus_cape_pins() - the header pins a cape holds
 * @cape: the cape
 * @pins: bitmap (CAPEBUS_MAX_PINS) to write them to: the pins of its
 *	identity (&capebus_cape_info.pins), those its overlay declares in
 *	exclusive-use and those declared besides (configfs), less the pins
 *	of a bus its overlay enables, which the bus holds
 *
 * For a controller that sets up every pin a cape holds, its settings
 * coming from the overlay's declaration rather than the cape's ID.
 *
 * Context: from the controller's @attach, or with the cape's device lock
 * held: the set changes only under the controller's transition lock, when
 * a firmware overlay found late adds its pins.
 */
void capebus_cape_pins(const struct cape_device *cape, unsigned long *pins)
{
	bitmap_copy(pins, cape->claim->pins, CAPEBUS_MAX_PINS);
}
EXPORT_SYMBOL_GPL(capebus_cape_pins);

/**
 * capebus_controller_decode() - have a controller decode an ID image
 * @ctrl: the controller
 * @image: the image, e.g. a cape EEPROM written to configfs
 * @len: bytes at @image
 * @info: what the image says
 * @overlay: set to an overlay embedded in @image, or NULL
 * @overlay_len: bytes at *@overlay
 * @why: where to say what is wrong
 * @why_len: bytes at @why
 *
 * The controller module is called only while @ctrl is registered, under
 * its transition lock (which capebus_controller_unregister() takes before
 * it forgets the ops and the module), and with a reference on the module:
 * a module on its way out is not called into.
 *
 * Context: process context; takes @ctrl's transition lock.
 * Return: 0, -EOPNOTSUPP if @ctrl reads no images, -ENODEV if it or its
 * module is going away, or the controller's error.
 */
int capebus_controller_decode(struct capebus_controller *ctrl,
			      const void *image, size_t len,
			      struct capebus_cape_info *info,
			      const void **overlay, size_t *overlay_len,
			      char *why, size_t why_len)
{
	int ret;

	*overlay = NULL;
	*overlay_len = 0;

	guard(mutex)(&ctrl->transition);
	/* ctrl->registered changes under the transition lock too. */
	if (!ctrl->registered || !try_module_get(ctrl->owner)) {
		snprintf(why, why_len, "%s is going away", dev_name(&ctrl->dev));
		return -ENODEV;
	}
	if (!ctrl->ops || !ctrl->ops->decode) {
		snprintf(why, why_len, "%s reads no ID images",
			 dev_name(&ctrl->dev));
		ret = -EOPNOTSUPP;
	} else {
		ret = ctrl->ops->decode(ctrl, image, len, info, overlay,
					overlay_len, why, why_len);
	}
	module_put(ctrl->owner);

	return ret;
}

static int capebus_cape_is_part(struct device *dev, void *data)
{
	return dev->type == &capebus_cape_type &&
	       to_cape_device(dev)->registered &&
	       !strcmp(cape_text(to_cape_device(dev), CAPEBUS_PART_NUMBER), data);
}

/* Is a cape of part @part on @ctrl already? */
static bool capebus_part_present(struct capebus_controller *ctrl,
				 const char *part)
{
	struct device *dev = device_find_child(&ctrl->dev, (void *)part,
					       capebus_cape_is_part);

	put_device(dev);
	return dev;
}

/**
 * capebus_controller_enable_parts() - load the enable_partno parts
 * @ctrl: a registered controller whose slots have been scanned
 *
 * If @ctrl's header says the partno parameters apply to its capes
 * (&capebus_header.partno_params), every PART[:VERSION] of the
 * enable_partno parameter that no cape of @ctrl already is goes into the
 * next free virtual slot (numbered from the controller's number of slots),
 * with the firmware overlay the controller names for it (version: the
 * header's default_version if not given), exactly as if it had been
 * declared.
 */
void capebus_controller_enable_parts(struct capebus_controller *ctrl)
{
	const char *def = ctrl->header->default_version ?: "";
	const char *p = capebus_partno_enabled();

	if (!ctrl->header->partno_params)
		return;

	while (p && *p) {
		const char *end = strchrnul(p, ',');
		const char *colon = strnchr(p, end - p, ':');
		struct capebus_cape_desc desc = { };
		char why[CAPEBUS_REASON_LEN];
		struct capebus_cape_info *info;
		struct cape_device *cape;
		char *part, *version;

		info = kzalloc(sizeof(*info), GFP_KERNEL);
		if (!info)
			return;
		part = info->text[CAPEBUS_PART_NUMBER];
		version = info->text[CAPEBUS_VERSION];
		strscpy(part, p, min_t(size_t, (colon ?: end) - p + 1,
				       CAPEBUS_TEXT_LEN));
		strscpy(version, colon ? colon + 1 : def,
			min_t(size_t, colon ? end - colon : CAPEBUS_TEXT_LEN,
			      CAPEBUS_TEXT_LEN));
		strscpy(info->text[CAPEBUS_BOARD_NAME], part, CAPEBUS_TEXT_LEN);
		p = *end ? end + 1 : end;

		desc.info = info;
		desc.slot = CAPEBUS_SLOT_ANY_VIRTUAL;
		if (part[0] && !capebus_part_present(ctrl, part)) {
			cape = capebus_cape_add(ctrl, &desc, why, sizeof(why));
			if (IS_ERR(cape))
				dev_err(&ctrl->dev, "enable_partno %s: %s\n",
					part, why);
			else
				capebus_cape_put(cape);
		}
		kfree(info);
	}
}
