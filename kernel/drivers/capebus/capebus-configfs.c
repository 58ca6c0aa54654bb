// SPDX-License-Identifier: GPL-2.0
/*
 * capebus: the configfs interface, /sys/kernel/config/capebus.
 *
 *   capebus/<ctrl>/slots/<N>/	one per hardware slot, made by the kernel:
 *				state, reason, eeprom, cape, disable
 *   capebus/<ctrl>/capes/<name>/	made by mkdir: a cape declared by userspace
 *
 * A declared cape is a description (text fields or a whole EEPROM image, a
 * slot, an overlay, extra pins) until "enable" hands it to capebus_cape_add(),
 * the path a detected cape takes too: same overlay checks, same pin and power
 * accounting, same device, drivers and uevents.  "enable" 0 and rmdir remove
 * the cape again.  See Documentation/capebus/configfs.rst and
 * Documentation/ABI/testing/configfs-capebus.
 *
 * Lock order (outermost first; it continues in capebus-controller.c):
 *
 *   1. configfs: the directories' inode locks and su_mutex (mkdir, rmdir),
 *      and a fragment's frag_sem, held for reading around every attribute
 *      callback; rmdir and configfs_unregister_group() take it for writing,
 *      so they wait for callbacks in flight and none runs afterwards
 *   2. capebus_cfs_cape.op_lock: one declared cape's "enable" (load,
 *      unload, overlay retry) and rmdir, one at a time; held across the
 *      core's capebus_cape_add() and _remove(), so across the cape's probe
 *      and overlay: no reader takes it
 *   3. capebus_controller.transition (the core's: adding, removing capes,
 *      decoding an ID image), then device locks and the overlay mutexes
 *   4. capebus_cfs_cape.lock: one declared cape's description, its device
 *      pointer and its status; held only for short sections, with nothing
 *      under it but
 *   5. capebus_controller.lock (the core's, short: slot and cape state)
 *
 * So every attribute answers while a cape's enable waits for its driver:
 * readers take 4 and 5 only, and nothing holds either across 3.  While an
 * enable is in flight (@loading) the description cannot change: the stores
 * refuse as for an enabled cape, so the enable reads it without @lock.
 *
 * capebus_cfs_ctrl.lock and capebus_cfs_ctrls_lock are leaves: nothing is
 * taken while they are held.
 *
 * Lifetime: a controller's group is registered when the controller is and
 * holds a reference on it.  When the controller goes, the core removes its
 * capes; the group goes at once if no cape is declared in it, else when the
 * last declared cape is removed (rmdir), from a work item, since configfs
 * cannot remove a directory that still holds directories userspace made.
 * A declared cape holds a reference on the module (configfs does that), so
 * the module cannot be unloaded while one exists.
 */

#define pr_fmt(fmt) "capebus: " fmt

#include <linux/bitmap.h>
#include <linux/capebus.h>
#include <linux/cleanup.h>
#include <linux/configfs.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include "capebus-internal.h"
#include "capebus-resources.h"

/* The largest overlay a declared cape may carry, and the largest ID image. */
#define CAPEBUS_CFS_DTBO_MAX	SZ_1M
#define CAPEBUS_CFS_IMAGE_MAX	SZ_32K

/*
 * configfs refuses a binary write past cb_max_size with EFBIG, but still
 * hands what it buffered so far to ->write() at close, and the writer's
 * data arrives in page-sized pieces: a file one page too long would be
 * handed over cut at exactly the maximum.  So configfs may buffer twice
 * the maximum, and a hand-over longer than the maximum is refused whole.
 */
#define CAPEBUS_CFS_BUFFERED(max)	(2 * (max))

struct capebus_cfs_ctrl;

/**
 * struct capebus_cfs_slot - slots/<N>
 * @group: the configfs group
 * @cc: the controller's group
 * @slot: the hardware slot
 * @lock: protects @override_why
 * @override_why: why the last override image was refused, "" if it was not
 */
struct capebus_cfs_slot {
	struct config_group group;
	struct capebus_cfs_ctrl *cc;
	struct capebus_slot *slot;
	struct mutex lock;	/* @override_why; a leaf lock */
	char override_why[CAPEBUS_REASON_LEN];
};

/**
 * struct capebus_cfs_ctrl - one controller's group, capebus/<ctrl>
 * @group: the configfs group, named like the controller
 * @slots_group: slots/
 * @capes_group: capes/
 * @ctrl: the controller (a reference is held)
 * @node: in capebus_cfs_ctrls
 * @remove_work: unregisters the group once a dead controller's last
 *	declared cape is gone
 * @lock: protects @dead and @num_capes
 * @dead: the controller was unregistered; no new capes
 * @num_capes: declared capes (items in capes/)
 * @num_slots: entries in @slots
 * @slots: slots/<N>
 *
 * Every group embedded here holds a reference on @group, dropped by its
 * release, so the memory goes when the last of them does.
 */
struct capebus_cfs_ctrl {
	struct config_group group;
	struct config_group slots_group;
	struct config_group capes_group;
	struct capebus_controller *ctrl;
	struct list_head node;
	struct work_struct remove_work;
	struct mutex lock;	/* @dead, @num_capes; a leaf lock */
	bool dead;
	unsigned int num_capes;
	unsigned int num_slots;
	struct capebus_cfs_slot slots[] __counted_by(num_slots);
};

/**
 * struct capebus_cfs_cape - capes/<name>, a cape declared by userspace
 * @item: the configfs item
 * @cc: the controller's group (the item's parent keeps it)
 * @op_lock: serializes enable (load, unload, overlay retry) and rmdir
 * @lock: protects everything below, for short sections only
 * @fields: the text fields, pins and currents written
 * @eeprom: an EEPROM image to use instead of @fields, or NULL
 * @eeprom_len: bytes at @eeprom
 * @dtbo: the overlay, or NULL for the EEPROM's or the firmware's
 * @dtbo_len: bytes at @dtbo
 * @pins: header pins the cape uses besides its overlay's exclusive-use
 * @slot: a hardware slot number or %CAPEBUS_SLOT_ANY_VIRTUAL
 * @cape: the cape device while enabled (a reference is held), else NULL
 * @loading: an enable is handing the description to the core (@op_lock
 *	held): the description is frozen, @cape is not set yet
 * @failed: the last enable was refused; @why says why
 * @why: the reason of the last refusal
 * @dropped: the binary attribute whose last write was dropped, or NULL
 * @dropped_why: why: "" (written while enabled) or "N bytes, at most M"
 */
struct capebus_cfs_cape {
	struct config_item item;
	struct capebus_cfs_ctrl *cc;
	struct mutex op_lock;	/* enable and rmdir; held across the core */
	struct mutex lock;	/* the description and @cape; short */
	struct capebus_cape_info *fields;
	void *eeprom;
	size_t eeprom_len;
	void *dtbo;
	size_t dtbo_len;
	DECLARE_BITMAP(pins, CAPEBUS_MAX_PINS);
	unsigned int slot;
	struct cape_device *cape;
	bool loading;
	bool failed;
	char why[CAPEBUS_REASON_LEN];
	const char *dropped;
	char dropped_why[48];
};

static LIST_HEAD(capebus_cfs_ctrls);
static DEFINE_MUTEX(capebus_cfs_ctrls_lock);
static struct workqueue_struct *capebus_cfs_wq;

static struct capebus_cfs_cape *to_cfs_cape(struct config_item *item)
{
	return container_of(item, struct capebus_cfs_cape, item);
}

static struct capebus_cfs_slot *to_cfs_slot(struct config_item *item)
{
	return container_of(to_config_group(item), struct capebus_cfs_slot,
			    group);
}

static struct capebus_cfs_ctrl *to_cfs_ctrl(struct config_item *item)
{
	return container_of(to_config_group(item), struct capebus_cfs_ctrl,
			    group);
}

static bool capebus_cfs_ctrl_dead(struct capebus_cfs_ctrl *cc)
{
	guard(mutex)(&cc->lock);
	return cc->dead;
}

/* ---- slots/<N> ----------------------------------------------------------- */

static ssize_t capebus_cfs_slot_state_show(struct config_item *item, char *page)
{
	struct capebus_slot *slot = to_cfs_slot(item)->slot;

	return sysfs_emit(page, "%s\n",
			  capebus_slot_state_name(capebus_slot_state(slot)));
}

static ssize_t capebus_cfs_slot_reason_show(struct config_item *item,
					    char *page)
{
	char why[CAPEBUS_REASON_LEN];

	capebus_slot_reason(to_cfs_slot(item)->slot, why, sizeof(why));

	return sysfs_emit(page, "%s\n", why);
}

static ssize_t capebus_cfs_slot_cape_show(struct config_item *item, char *page)
{
	struct capebus_slot *slot = to_cfs_slot(item)->slot;

	guard(mutex)(&slot->ctrl->lock);
	return sysfs_emit(page, "%s\n",
			  slot->cape ? dev_name(&slot->cape->dev) : "");
}

static ssize_t capebus_cfs_slot_disable_show(struct config_item *item,
					     char *page)
{
	struct capebus_slot *slot = to_cfs_slot(item)->slot;

	return sysfs_emit(page, "%d\n",
			  capebus_slot_state(slot) == CAPEBUS_SLOT_DISABLED);
}

static ssize_t capebus_cfs_slot_disable_store(struct config_item *item,
					      const char *page, size_t len)
{
	struct capebus_cfs_slot *cs = to_cfs_slot(item);
	bool disable;
	int ret;

	ret = kstrtobool(page, &disable);
	if (ret)
		return ret;

	if (capebus_cfs_ctrl_dead(cs->cc))
		return -ENODEV;

	ret = capebus_slot_disable(cs->slot, disable);

	return ret ?: len;
}

static ssize_t capebus_cfs_slot_eeprom_read(struct config_item *item,
					    void *buf, size_t len)
{
	struct capebus_slot *slot = to_cfs_slot(item)->slot;

	if (!buf) {
		guard(mutex)(&slot->ctrl->lock);
		return slot->eeprom ? slot->eeprom_len : 0;
	}

	return capebus_slot_read_eeprom(slot, buf, 0, len);
}

/* Hand an override image (or none, @len 0) to the core; note a refusal. */
static int capebus_cfs_slot_set_override(struct capebus_cfs_slot *cs,
					 const void *buf, size_t len)
{
	char why[CAPEBUS_REASON_LEN];
	int ret;

	if (capebus_cfs_ctrl_dead(cs->cc)) {
		snprintf(why, sizeof(why), "%s was removed",
			 dev_name(&cs->cc->ctrl->dev));
		ret = -ENODEV;
	} else {
		ret = capebus_slot_override(cs->slot, buf, len, why,
					    sizeof(why));
	}

	guard(mutex)(&cs->lock);
	if (ret)
		snprintf(cs->override_why, sizeof(cs->override_why), "%s",
			 why[0] ? why : "error");
	else
		cs->override_why[0] = '\0';

	return ret;
}

/*
 * An ID image that stands in for the slot's EEPROM.  configfs hands it
 * over at close and ignores the result: "override_status" says what became
 * of it.  "clear_override" goes back to the EEPROM (an empty write never
 * reaches a configfs binary attribute).
 */
static ssize_t capebus_cfs_slot_override_write(struct config_item *item,
					       const void *buf, size_t len)
{
	struct capebus_cfs_slot *cs = to_cfs_slot(item);
	int ret;

	if (!len)
		return 0;
	if (len > CAPEBUS_CFS_IMAGE_MAX) {
		guard(mutex)(&cs->lock);
		snprintf(cs->override_why, sizeof(cs->override_why),
			 "image too large: %zu bytes, at most %u", len,
			 CAPEBUS_CFS_IMAGE_MAX);
		return -EFBIG;
	}
	ret = capebus_cfs_slot_set_override(cs, buf, len);

	return ret ?: len;
}

static ssize_t capebus_cfs_slot_clear_override_store(struct config_item *item,
						     const char *page,
						     size_t len)
{
	bool clear;
	int ret;

	ret = kstrtobool(page, &clear);
	if (ret)
		return ret;
	if (!clear)
		return -EINVAL;

	ret = capebus_cfs_slot_set_override(to_cfs_slot(item), NULL, 0);

	return ret ?: len;
}

static ssize_t capebus_cfs_slot_override_read(struct config_item *item,
					      void *buf, size_t len)
{
	return capebus_slot_read_override(to_cfs_slot(item)->slot, buf, len);
}

static ssize_t capebus_cfs_slot_override_status_show(struct config_item *item,
						     char *page)
{
	struct capebus_cfs_slot *cs = to_cfs_slot(item);
	bool active = capebus_slot_read_override(cs->slot, NULL, 0) > 0;

	guard(mutex)(&cs->lock);
	if (cs->override_why[0])
		return sysfs_emit(page, "refused: %s\n", cs->override_why);

	return sysfs_emit(page, "%s\n", active ? "active" : "none");
}

CONFIGFS_ATTR_RO(capebus_cfs_slot_, state);
CONFIGFS_ATTR_RO(capebus_cfs_slot_, reason);
CONFIGFS_ATTR_RO(capebus_cfs_slot_, cape);
CONFIGFS_ATTR(capebus_cfs_slot_, disable);
CONFIGFS_ATTR_RO(capebus_cfs_slot_, override_status);
CONFIGFS_ATTR_WO(capebus_cfs_slot_, clear_override);
CONFIGFS_BIN_ATTR_RO(capebus_cfs_slot_, eeprom, NULL, CAPEBUS_CFS_IMAGE_MAX);
CONFIGFS_BIN_ATTR(capebus_cfs_slot_, override, NULL,
		  CAPEBUS_CFS_BUFFERED(CAPEBUS_CFS_IMAGE_MAX));

static struct configfs_attribute *capebus_cfs_slot_attrs[] = {
	&capebus_cfs_slot_attr_state,
	&capebus_cfs_slot_attr_reason,
	&capebus_cfs_slot_attr_cape,
	&capebus_cfs_slot_attr_disable,
	&capebus_cfs_slot_attr_override_status,
	&capebus_cfs_slot_attr_clear_override,
	NULL
};

static struct configfs_bin_attribute *capebus_cfs_slot_bin_attrs[] = {
	&capebus_cfs_slot_attr_eeprom,
	&capebus_cfs_slot_attr_override,
	NULL
};

/* The groups embedded in a capebus_cfs_ctrl each pin its top group. */
static void capebus_cfs_slot_release(struct config_item *item)
{
	config_group_put(&to_cfs_slot(item)->cc->group);
}

static struct configfs_item_operations capebus_cfs_slot_item_ops = {
	.release	= capebus_cfs_slot_release,
};

static const struct config_item_type capebus_cfs_slot_type = {
	.ct_item_ops	= &capebus_cfs_slot_item_ops,
	.ct_attrs	= capebus_cfs_slot_attrs,
	.ct_bin_attrs	= capebus_cfs_slot_bin_attrs,
	.ct_owner	= THIS_MODULE,
};

static void capebus_cfs_slots_release(struct config_item *item)
{
	struct capebus_cfs_ctrl *cc = container_of(to_config_group(item),
						   struct capebus_cfs_ctrl,
						   slots_group);

	config_group_put(&cc->group);
}

static struct configfs_item_operations capebus_cfs_slots_item_ops = {
	.release	= capebus_cfs_slots_release,
};

static const struct config_item_type capebus_cfs_slots_type = {
	.ct_item_ops	= &capebus_cfs_slots_item_ops,
	.ct_owner	= THIS_MODULE,
};

/* ---- capes/<name> -------------------------------------------------------- */

/* Enabled, or being enabled: the description may not change. */
static bool capebus_cfs_cape_enabled(struct capebus_cfs_cape *c)
{
	lockdep_assert_held(&c->lock);

	return c->cape || c->loading;
}

/* Remove the cape device, if any.  The description stays. */
static void capebus_cfs_cape_unload(struct capebus_cfs_cape *c)
{
	struct cape_device *cape;

	lockdep_assert_held(&c->op_lock);

	scoped_guard(mutex, &c->lock) {
		cape = c->cape;
		c->cape = NULL;
	}
	if (!cape)
		return;

	/* Without @lock: this waits for the cape's driver and overlay. */
	capebus_cape_remove(cape);
	capebus_cape_put(cape);
}

/*
 * The identity from the text fields; -EINVAL if one that is needed is not
 * set.  The description is frozen (@loading).
 */
static int capebus_cfs_cape_from_fields(struct capebus_cfs_cape *c,
					struct capebus_cape_info *info,
					char *why, size_t why_len)
{
	const char *board, *version, *part;

	lockdep_assert_held(&c->op_lock);

	*info = *c->fields;
	board = info->text[CAPEBUS_BOARD_NAME];
	version = info->text[CAPEBUS_VERSION];
	part = info->text[CAPEBUS_PART_NUMBER];
	if (board[0] && version[0] && part[0])
		return 0;

	snprintf(why, why_len, "missing fields:%s%s%s (or write eeprom)",
		 board[0] ? "" : " board_name", version[0] ? "" : " version",
		 part[0] ? "" : " part_number");

	return -EINVAL;
}

/*
 * The identity and the embedded overlay from the ID image, by the
 * controller.  The description is frozen (@loading).
 */
static int capebus_cfs_cape_from_image(struct capebus_cfs_cape *c,
				       struct capebus_cape_info *info,
				       const void **overlay, size_t *overlay_len,
				       char *why, size_t why_len)
{
	char reason[CAPEBUS_REASON_LEN];
	int ret;

	lockdep_assert_held(&c->op_lock);

	reason[0] = '\0';
	ret = capebus_controller_decode(c->cc->ctrl, c->eeprom, c->eeprom_len,
					info, overlay, overlay_len, reason,
					sizeof(reason));
	if (!ret)
		return 0;

	if (ret == -ENODATA && !reason[0])
		strscpy(reason, "blank");
	snprintf(why, why_len, "eeprom: %s", reason[0] ? reason : "malformed");

	return ret == -ENOMEM || ret == -ENODEV || ret == -EOPNOTSUPP ?
	       ret : -EINVAL;
}

/*
 * Hand the description to the core.  The cape is disabled.  Neither @lock
 * nor any lock a reader takes is held while the core adds the cape (and its
 * driver probes it): @loading keeps the description as it is meanwhile.
 */
static int capebus_cfs_cape_load(struct capebus_cfs_cape *c)
{
	struct capebus_cape_desc desc = {
		.overlay_source	= "configfs",
	};
	struct capebus_cape_info *info __free(kfree) =
		kzalloc(sizeof(*info), GFP_KERNEL);
	char *why __free(kfree) = kzalloc(CAPEBUS_REASON_LEN, GFP_KERNEL);
	struct cape_device *cape = NULL;
	const void *overlay = NULL;
	size_t overlay_len = 0;
	int ret;

	lockdep_assert_held(&c->op_lock);

	if (!info || !why)
		return -ENOMEM;

	scoped_guard(mutex, &c->lock) {
		c->failed = false;
		c->why[0] = '\0';
		c->loading = true;
	}

	if (c->eeprom)
		ret = capebus_cfs_cape_from_image(c, info, &overlay,
						  &overlay_len, why,
						  CAPEBUS_REASON_LEN);
	else
		ret = capebus_cfs_cape_from_fields(c, info, why,
						   CAPEBUS_REASON_LEN);
	if (!ret) {
		desc.info = info;
		desc.slot = c->slot;
		desc.extra_pins = c->pins;
		if (c->dtbo) {
			desc.overlay = c->dtbo;
			desc.overlay_len = c->dtbo_len;
		} else if (overlay) {
			desc.overlay = overlay;
			desc.overlay_len = overlay_len;
			desc.overlay_source = "eeprom";
		}

		cape = capebus_cape_add(c->cc->ctrl, &desc, why,
					CAPEBUS_REASON_LEN);
		ret = PTR_ERR_OR_ZERO(cape);
	}

	guard(mutex)(&c->lock);
	c->loading = false;
	if (ret) {
		c->failed = true;
		if (why[0])
			strscpy(c->why, why);
		else
			snprintf(c->why, sizeof(c->why), "error %d", ret);
		return ret;
	}
	c->cape = cape;

	return 0;
}

/* Text fields that end up in a firmware file name: no '/'. */
static bool capebus_cfs_text_is_file_name(enum capebus_text t)
{
	return t == CAPEBUS_VERSION || t == CAPEBUS_PART_NUMBER;
}

static ssize_t capebus_cfs_cape_show_text(struct config_item *item,
					  char *page, enum capebus_text t)
{
	struct capebus_cfs_cape *c = to_cfs_cape(item);

	guard(mutex)(&c->lock);
	return sysfs_emit(page, "%s\n", c->fields->text[t]);
}

/*
 * Printable ASCII, no longer than the controller's ID format allows
 * (capebus_header.text_max); one newline may end it.  Every byte written
 * counts: a NUL or any other control byte inside is refused, not cut at.
 */
static ssize_t capebus_cfs_cape_store_text(struct config_item *item,
					   const char *page, size_t len,
					   enum capebus_text t)
{
	struct capebus_cfs_cape *c = to_cfs_cape(item);
	unsigned int max = c->cc->ctrl->header->text_max[t];
	size_t n = len;
	size_t i;

	if (!max || max >= CAPEBUS_TEXT_LEN)
		max = CAPEBUS_TEXT_LEN - 1;
	if (n && page[n - 1] == '\n')
		n--;
	if (n > max)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		u8 ch = page[i];

		if (ch < 0x20 || ch > 0x7e ||
		    (capebus_cfs_text_is_file_name(t) && ch == '/'))
			return -EINVAL;
	}

	guard(mutex)(&c->lock);
	if (capebus_cfs_cape_enabled(c))
		return -EBUSY;

	memcpy(c->fields->text[t], page, n);
	c->fields->text[t][n] = '\0';

	return len;
}

static ssize_t capebus_cfs_cape_board_name_show(struct config_item *item, char *page)
{
	return capebus_cfs_cape_show_text(item, page, CAPEBUS_BOARD_NAME);
}

static ssize_t capebus_cfs_cape_board_name_store(struct config_item *item,
						 const char *page, size_t len)
{
	return capebus_cfs_cape_store_text(item, page, len, CAPEBUS_BOARD_NAME);
}

static ssize_t capebus_cfs_cape_version_show(struct config_item *item, char *page)
{
	return capebus_cfs_cape_show_text(item, page, CAPEBUS_VERSION);
}

static ssize_t capebus_cfs_cape_version_store(struct config_item *item,
					      const char *page, size_t len)
{
	return capebus_cfs_cape_store_text(item, page, len, CAPEBUS_VERSION);
}

static ssize_t capebus_cfs_cape_manufacturer_show(struct config_item *item, char *page)
{
	return capebus_cfs_cape_show_text(item, page, CAPEBUS_MANUFACTURER);
}

static ssize_t capebus_cfs_cape_manufacturer_store(struct config_item *item,
						   const char *page, size_t len)
{
	return capebus_cfs_cape_store_text(item, page, len, CAPEBUS_MANUFACTURER);
}

static ssize_t capebus_cfs_cape_part_number_show(struct config_item *item, char *page)
{
	return capebus_cfs_cape_show_text(item, page, CAPEBUS_PART_NUMBER);
}

static ssize_t capebus_cfs_cape_part_number_store(struct config_item *item,
						  const char *page, size_t len)
{
	return capebus_cfs_cape_store_text(item, page, len, CAPEBUS_PART_NUMBER);
}

static ssize_t capebus_cfs_cape_serial_show(struct config_item *item, char *page)
{
	return capebus_cfs_cape_show_text(item, page, CAPEBUS_SERIAL);
}

static ssize_t capebus_cfs_cape_serial_store(struct config_item *item,
					     const char *page, size_t len)
{
	return capebus_cfs_cape_store_text(item, page, len, CAPEBUS_SERIAL);
}

static ssize_t capebus_cfs_cape_slot_show(struct config_item *item, char *page)
{
	struct capebus_cfs_cape *c = to_cfs_cape(item);

	guard(mutex)(&c->lock);
	if (c->slot == CAPEBUS_SLOT_ANY_VIRTUAL)
		return sysfs_emit(page, "virtual\n");

	return sysfs_emit(page, "%u\n", c->slot);
}

static ssize_t capebus_cfs_cape_slot_store(struct config_item *item,
					   const char *page, size_t len)
{
	struct capebus_cfs_cape *c = to_cfs_cape(item);
	struct capebus_controller *ctrl = c->cc->ctrl;
	struct capebus_slot *slot;
	unsigned int nr;
	int ret;

	if (sysfs_streq(page, "virtual")) {
		nr = CAPEBUS_SLOT_ANY_VIRTUAL;
	} else {
		ret = kstrtouint(page, 0, &nr);
		if (ret)
			return ret;
		if (nr >= ctrl->num_slots)
			return -EINVAL;
	}

	guard(mutex)(&c->lock);
	if (capebus_cfs_cape_enabled(c))
		return -EBUSY;

	/* A detected cape keeps its slot until it is disabled. */
	slot = capebus_slot(ctrl, nr);
	if (slot) {
		guard(mutex)(&ctrl->lock);
		if (slot->cape && slot->cape->detected)
			return -EBUSY;
	}

	c->slot = nr;

	return len;
}

static ssize_t capebus_cfs_cape_pins_show(struct config_item *item, char *page)
{
	struct capebus_cfs_cape *c = to_cfs_cape(item);
	const struct capebus_header *header = c->cc->ctrl->header;
	ssize_t n = 0;
	unsigned int pin;

	guard(mutex)(&c->lock);
	for_each_set_bit(pin, c->pins, header->num_pins)
		n += sysfs_emit_at(page, n, "%s\n", header->pin_names[pin]);

	return n;
}

/* A list of header pin names, separated by spaces, commas or newlines. */
static ssize_t capebus_cfs_cape_pins_store(struct config_item *item,
					   const char *page, size_t len)
{
	struct capebus_cfs_cape *c = to_cfs_cape(item);
	const struct capebus_header *header = c->cc->ctrl->header;
	DECLARE_BITMAP(pins, CAPEBUS_MAX_PINS) = { 0 };
	char *buf, *p, *name;
	int pin;

	buf = kmemdup_nul(page, len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;

	p = buf;
	while ((name = strsep(&p, " ,\t\n"))) {
		if (!*name)
			continue;
		pin = capebus_header_pin_index(header, name);
		if (pin < 0) {
			kfree(buf);
			return -EINVAL;
		}
		__set_bit(pin, pins);
	}
	kfree(buf);

	guard(mutex)(&c->lock);
	if (capebus_cfs_cape_enabled(c))
		return -EBUSY;

	bitmap_copy(c->pins, pins, CAPEBUS_MAX_PINS);

	return len;
}

static ssize_t capebus_cfs_cape_currents_show(struct config_item *item,
					      char *page)
{
	struct capebus_cfs_cape *c = to_cfs_cape(item);

	guard(mutex)(&c->lock);
	return capebus_currents_emit(c->cc->ctrl->header, c->fields, page);
}

/*
 * "<rail> <mA>" pairs, separated by newlines or commas: the rails' names
 * (or "dc-supplied") as the cape device's "currents" attribute prints them.
 * @ma and @set are indexed like capebus_currents_index().
 */
static int capebus_cfs_parse_currents(const struct capebus_header *header,
				      char *buf, u16 *ma, bool *set)
{
	char *pair, *name;
	int i;

	while ((pair = strsep(&buf, ",\n"))) {
		pair = strim(pair);
		if (!*pair)
			continue;
		name = strsep(&pair, " \t");
		if (!pair)
			return -EINVAL;
		i = capebus_currents_index(header, name);
		if (i < 0 || kstrtou16(skip_spaces(pair), 10, &ma[i]))
			return -EINVAL;
		set[i] = true;
	}

	return 0;
}

/* Rails not named keep their value. */
static ssize_t capebus_cfs_cape_currents_store(struct config_item *item,
					       const char *page, size_t len)
{
	struct capebus_cfs_cape *c = to_cfs_cape(item);
	const struct capebus_header *header = c->cc->ctrl->header;
	u16 ma[CAPEBUS_MAX_RAILS + 1] = { };	/* the rails, then dc-supplied */
	bool set[CAPEBUS_MAX_RAILS + 1] = { };
	unsigned int i, n = header->num_rails;
	char *buf;
	int ret;

	buf = kmemdup_nul(page, len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ret = capebus_cfs_parse_currents(header, buf, ma, set);
	kfree(buf);
	if (ret)
		return ret;

	guard(mutex)(&c->lock);
	if (capebus_cfs_cape_enabled(c))
		return -EBUSY;

	for (i = 0; i < n; i++)
		if (set[i])
			c->fields->current_ma[i] = ma[i];
	if (set[n])
		c->fields->supplied_ma = ma[n];

	return len;
}

static ssize_t capebus_cfs_cape_enable_show(struct config_item *item,
					    char *page)
{
	struct capebus_cfs_cape *c = to_cfs_cape(item);

	guard(mutex)(&c->lock);
	return sysfs_emit(page, "%d\n", capebus_cfs_cape_enabled(c));
}

static ssize_t capebus_cfs_cape_enable_store(struct config_item *item,
					     const char *page, size_t len)
{
	struct capebus_cfs_cape *c = to_cfs_cape(item);
	bool enable;
	int ret;

	ret = kstrtobool(page, &enable);
	if (ret)
		return ret;

	guard(mutex)(&c->op_lock);

	/*
	 * A cape the core removed with its controller is loaded again (or
	 * not); a loaded one looks again for its missing overlay file.
	 */
	if (enable) {
		struct cape_device *cape = NULL;
		bool registered = false;

		scoped_guard(mutex, &c->lock)
			if (c->cape)
				cape = capebus_cape_get(c->cape);
		if (cape) {
			scoped_guard(mutex, &cape->ctrl->lock)
				registered = cape->registered;
			if (registered) {
				char why[CAPEBUS_REASON_LEN];

				capebus_cape_retry_overlay(cape, why,
							   sizeof(why));
			}
			capebus_cape_put(cape);
			if (registered)
				return len;
		}
	}
	capebus_cfs_cape_unload(c);
	scoped_guard(mutex, &c->lock) {
		c->dropped = NULL;
		if (!enable) {
			c->failed = false;
			c->why[0] = '\0';
			return len;
		}
	}

	ret = capebus_cfs_cape_load(c);

	return ret ?: len;
}

/* The note "status" adds while a binary write was dropped. */
static ssize_t capebus_cfs_cape_dropped_note(struct capebus_cfs_cape *c,
					     char *page, ssize_t n)
{
	if (!c->dropped)
		return n;
	if (!c->dropped_why[0])
		return n + sysfs_emit_at(page, n,
					 " (a write to %s while enabled was dropped)",
					 c->dropped);

	return n + sysfs_emit_at(page, n, " (a write to %s was dropped: %s)",
				 c->dropped, c->dropped_why);
}

static ssize_t capebus_cfs_cape_status_show(struct config_item *item,
					    char *page)
{
	struct capebus_cfs_cape *c = to_cfs_cape(item);
	struct capebus_controller *ctrl = c->cc->ctrl;
	ssize_t n;

	guard(mutex)(&c->lock);
	if (c->loading) {
		/* Being added: its device comes, its driver probes. */
		n = sysfs_emit(page, "%s",
			       capebus_slot_state_name(CAPEBUS_SLOT_DETECTED));
	} else if (!c->cape) {
		if (c->failed)
			n = sysfs_emit(page, "%s: %s",
				       capebus_slot_state_name(CAPEBUS_SLOT_FAILED),
				       c->why);
		else
			n = sysfs_emit(page, "%s",
				       capebus_slot_state_name(CAPEBUS_SLOT_DISABLED));
	} else {
		guard(mutex)(&ctrl->lock);
		if (!c->cape->registered)
			n = sysfs_emit(page, "%s: %s was removed",
				       capebus_slot_state_name(CAPEBUS_SLOT_FAILED),
				       dev_name(&ctrl->dev));
		else
			n = sysfs_emit(page, "%s",
				       capebus_slot_state_name(capebus_cape_state(c->cape)));
		if (c->cape->registered) {
			char note[CAPEBUS_REASON_LEN];

			if (capebus_cape_note(c->cape, note, sizeof(note)))
				n += sysfs_emit_at(page, n, " (%s)", note);
		}
	}
	n = capebus_cfs_cape_dropped_note(c, page, n);

	return n + sysfs_emit_at(page, n, "\n");
}

static ssize_t capebus_cfs_cape_cape_show(struct config_item *item, char *page)
{
	struct capebus_cfs_cape *c = to_cfs_cape(item);

	guard(mutex)(&c->lock);
	if (!c->cape)
		return sysfs_emit(page, "\n");

	guard(mutex)(&c->cc->ctrl->lock);
	return sysfs_emit(page, "%s\n",
			  c->cape->registered ? dev_name(&c->cape->dev) : "");
}

/*
 * Binary attributes reach the driver when the file is closed and configfs
 * ignores what ->write() returns: a write while enabled, or one longer than
 * @max (see CAPEBUS_CFS_BUFFERED()), is dropped whole and the previous value
 * kept (see the ABI document); "status" says so until the next "enable" or
 * the next write that is kept.  The data is checked only by "enable".
 */
static ssize_t capebus_cfs_cape_store_blob(struct capebus_cfs_cape *c,
					   const char *name, void **blob,
					   size_t *blob_len, const void *buf,
					   size_t len, size_t max)
{
	void *copy;

	if (len > max) {
		guard(mutex)(&c->lock);
		c->dropped = name;
		snprintf(c->dropped_why, sizeof(c->dropped_why),
			 "%zu bytes, at most %zu", len, max);
		return -EFBIG;
	}

	copy = kvmemdup(buf, len, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;

	guard(mutex)(&c->lock);
	if (capebus_cfs_cape_enabled(c)) {
		c->dropped = name;
		c->dropped_why[0] = '\0';
		kvfree(copy);
		return -EBUSY;
	}

	swap(*blob, copy);
	*blob_len = len;
	kvfree(copy);
	c->dropped = NULL;

	return len;
}

static ssize_t capebus_cfs_cape_read_blob(struct capebus_cfs_cape *c,
					  const void *blob, size_t blob_len,
					  void *buf, size_t len)
{
	guard(mutex)(&c->lock);
	if (!blob)
		return 0;
	if (!buf)
		return blob_len;

	len = min(len, blob_len);
	memcpy(buf, blob, len);

	return len;
}

static ssize_t capebus_cfs_cape_eeprom_read(struct config_item *item,
					    void *buf, size_t len)
{
	struct capebus_cfs_cape *c = to_cfs_cape(item);

	return capebus_cfs_cape_read_blob(c, c->eeprom, c->eeprom_len, buf, len);
}

static ssize_t capebus_cfs_cape_eeprom_write(struct config_item *item,
					     const void *buf, size_t len)
{
	struct capebus_cfs_cape *c = to_cfs_cape(item);

	return capebus_cfs_cape_store_blob(c, "eeprom", &c->eeprom,
					   &c->eeprom_len, buf, len,
					   CAPEBUS_CFS_IMAGE_MAX);
}

static ssize_t capebus_cfs_cape_dtbo_read(struct config_item *item, void *buf,
					  size_t len)
{
	struct capebus_cfs_cape *c = to_cfs_cape(item);

	return capebus_cfs_cape_read_blob(c, c->dtbo, c->dtbo_len, buf, len);
}

static ssize_t capebus_cfs_cape_dtbo_write(struct config_item *item,
					   const void *buf, size_t len)
{
	struct capebus_cfs_cape *c = to_cfs_cape(item);

	return capebus_cfs_cape_store_blob(c, "dtbo", &c->dtbo, &c->dtbo_len,
					   buf, len, CAPEBUS_CFS_DTBO_MAX);
}

CONFIGFS_ATTR(capebus_cfs_cape_, board_name);
CONFIGFS_ATTR(capebus_cfs_cape_, version);
CONFIGFS_ATTR(capebus_cfs_cape_, manufacturer);
CONFIGFS_ATTR(capebus_cfs_cape_, part_number);
CONFIGFS_ATTR(capebus_cfs_cape_, serial);
CONFIGFS_ATTR(capebus_cfs_cape_, slot);
CONFIGFS_ATTR(capebus_cfs_cape_, pins);
CONFIGFS_ATTR(capebus_cfs_cape_, currents);
CONFIGFS_ATTR(capebus_cfs_cape_, enable);
CONFIGFS_ATTR_RO(capebus_cfs_cape_, status);
CONFIGFS_ATTR_RO(capebus_cfs_cape_, cape);
CONFIGFS_BIN_ATTR(capebus_cfs_cape_, eeprom, NULL,
		  CAPEBUS_CFS_BUFFERED(CAPEBUS_CFS_IMAGE_MAX));
CONFIGFS_BIN_ATTR(capebus_cfs_cape_, dtbo, NULL,
		  CAPEBUS_CFS_BUFFERED(CAPEBUS_CFS_DTBO_MAX));

static struct configfs_attribute *capebus_cfs_cape_attrs[] = {
	&capebus_cfs_cape_attr_board_name,
	&capebus_cfs_cape_attr_version,
	&capebus_cfs_cape_attr_manufacturer,
	&capebus_cfs_cape_attr_part_number,
	&capebus_cfs_cape_attr_serial,
	&capebus_cfs_cape_attr_slot,
	&capebus_cfs_cape_attr_pins,
	&capebus_cfs_cape_attr_currents,
	&capebus_cfs_cape_attr_enable,
	&capebus_cfs_cape_attr_status,
	&capebus_cfs_cape_attr_cape,
	NULL
};

static struct configfs_bin_attribute *capebus_cfs_cape_bin_attrs[] = {
	&capebus_cfs_cape_attr_eeprom,
	&capebus_cfs_cape_attr_dtbo,
	NULL
};

static void capebus_cfs_cape_release(struct config_item *item)
{
	struct capebus_cfs_cape *c = to_cfs_cape(item);
	struct capebus_cfs_ctrl *cc = c->cc;

	/* Dropped capes were unloaded already; this is for a failed mkdir. */
	scoped_guard(mutex, &c->op_lock)
		capebus_cfs_cape_unload(c);

	mutex_destroy(&c->lock);
	mutex_destroy(&c->op_lock);
	kvfree(c->eeprom);
	kvfree(c->dtbo);
	kfree(c->fields);
	kfree(c);

	guard(mutex)(&cc->lock);
	if (!--cc->num_capes && cc->dead)
		queue_work(capebus_cfs_wq, &cc->remove_work);
}

static struct configfs_item_operations capebus_cfs_cape_item_ops = {
	.release	= capebus_cfs_cape_release,
};

static const struct config_item_type capebus_cfs_cape_type = {
	.ct_item_ops	= &capebus_cfs_cape_item_ops,
	.ct_attrs	= capebus_cfs_cape_attrs,
	.ct_bin_attrs	= capebus_cfs_cape_bin_attrs,
	.ct_owner	= THIS_MODULE,
};

/* ---- capes/ ---------------------------------------------------------------- */

static struct config_item *capebus_cfs_capes_make_item(struct config_group *group,
						       const char *name)
{
	struct capebus_cfs_ctrl *cc = container_of(group, struct capebus_cfs_ctrl,
						   capes_group);
	struct capebus_cfs_cape *c;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return ERR_PTR(-ENOMEM);
	c->fields = kzalloc(sizeof(*c->fields), GFP_KERNEL);
	if (!c->fields) {
		kfree(c);
		return ERR_PTR(-ENOMEM);
	}

	scoped_guard(mutex, &cc->lock) {
		if (cc->dead) {
			kfree(c->fields);
			kfree(c);
			return ERR_PTR(-ENODEV);
		}
		cc->num_capes++;
	}

	mutex_init(&c->op_lock);
	mutex_init(&c->lock);
	c->cc = cc;
	c->slot = CAPEBUS_SLOT_ANY_VIRTUAL;
	config_item_init_type_name(&c->item, name, &capebus_cfs_cape_type);

	return &c->item;
}

/* rmdir: the cape goes now; its memory when configfs lets go of it. */
static void capebus_cfs_capes_drop_item(struct config_group *group,
					struct config_item *item)
{
	struct capebus_cfs_cape *c = to_cfs_cape(item);

	scoped_guard(mutex, &c->op_lock)
		capebus_cfs_cape_unload(c);

	config_item_put(item);
}

static void capebus_cfs_capes_release(struct config_item *item)
{
	struct capebus_cfs_ctrl *cc = container_of(to_config_group(item),
						   struct capebus_cfs_ctrl,
						   capes_group);

	config_group_put(&cc->group);
}

static struct configfs_item_operations capebus_cfs_capes_item_ops = {
	.release	= capebus_cfs_capes_release,
};

static struct configfs_group_operations capebus_cfs_capes_group_ops = {
	.make_item	= capebus_cfs_capes_make_item,
	.drop_item	= capebus_cfs_capes_drop_item,
};

static const struct config_item_type capebus_cfs_capes_type = {
	.ct_item_ops	= &capebus_cfs_capes_item_ops,
	.ct_group_ops	= &capebus_cfs_capes_group_ops,
	.ct_owner	= THIS_MODULE,
};

/* ---- controllers ------------------------------------------------------------ */

static void capebus_cfs_ctrl_release(struct config_item *item)
{
	struct capebus_cfs_ctrl *cc = to_cfs_ctrl(item);

	capebus_controller_put(cc->ctrl);
	mutex_destroy(&cc->lock);
	kfree(cc);
}

static struct configfs_item_operations capebus_cfs_ctrl_item_ops = {
	.release	= capebus_cfs_ctrl_release,
};

static const struct config_item_type capebus_cfs_ctrl_type = {
	.ct_item_ops	= &capebus_cfs_ctrl_item_ops,
	.ct_owner	= THIS_MODULE,
};

/* Drop the references of the groups' initialization: frees @cc eventually. */
static void capebus_cfs_ctrl_put(struct capebus_cfs_ctrl *cc)
{
	configfs_remove_default_groups(&cc->slots_group);
	configfs_remove_default_groups(&cc->group);
	config_group_put(&cc->group);
}

static void capebus_cfs_ctrl_unregister(struct capebus_cfs_ctrl *cc)
{
	configfs_unregister_group(&cc->group);
	capebus_cfs_ctrl_put(cc);
}

static void capebus_cfs_ctrl_remove_work(struct work_struct *work)
{
	capebus_cfs_ctrl_unregister(container_of(work, struct capebus_cfs_ctrl,
						 remove_work));
}

static const struct config_item_type capebus_cfs_subsys_type = {
	.ct_owner	= THIS_MODULE,
};

static struct configfs_subsystem capebus_cfs_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf	= "capebus",
			.ci_type	= &capebus_cfs_subsys_type,
		},
	},
};

/* Initialize a group embedded in @cc, as a default group of @parent. */
static void capebus_cfs_ctrl_add_group(struct capebus_cfs_ctrl *cc,
				       struct config_group *group,
				       const char *name,
				       const struct config_item_type *type,
				       struct config_group *parent)
{
	config_group_init_type_name(group, name, type);
	configfs_add_default_group(group, parent);
	config_group_get(&cc->group);
}

/**
 * capebus_configfs_add_controller() - make capebus/<ctrl>/ for a controller
 * @ctrl: the controller, being registered
 *
 * Context: process context; not under @ctrl->lock.
 * Return: 0 or a negative errno.
 */
int capebus_configfs_add_controller(struct capebus_controller *ctrl)
{
	struct capebus_cfs_ctrl *cc;
	char name[16];
	unsigned int i;
	int ret;

	cc = kzalloc(struct_size(cc, slots, ctrl->num_slots), GFP_KERNEL);
	if (!cc)
		return -ENOMEM;

	cc->num_slots = ctrl->num_slots;
	get_device(&ctrl->dev);
	cc->ctrl = ctrl;
	mutex_init(&cc->lock);
	INIT_WORK(&cc->remove_work, capebus_cfs_ctrl_remove_work);

	config_group_init_type_name(&cc->group, dev_name(&ctrl->dev),
				    &capebus_cfs_ctrl_type);
	capebus_cfs_ctrl_add_group(cc, &cc->slots_group, "slots",
				   &capebus_cfs_slots_type, &cc->group);
	capebus_cfs_ctrl_add_group(cc, &cc->capes_group, "capes",
				   &capebus_cfs_capes_type, &cc->group);
	for (i = 0; i < cc->num_slots; i++) {
		cc->slots[i].cc = cc;
		cc->slots[i].slot = capebus_slot(ctrl, i);
		mutex_init(&cc->slots[i].lock);
		snprintf(name, sizeof(name), "%u", i);
		capebus_cfs_ctrl_add_group(cc, &cc->slots[i].group, name,
					   &capebus_cfs_slot_type,
					   &cc->slots_group);
	}

	ret = configfs_register_group(&capebus_cfs_subsys.su_group, &cc->group);
	if (ret) {
		capebus_cfs_ctrl_put(cc);
		return ret;
	}

	guard(mutex)(&capebus_cfs_ctrls_lock);
	list_add_tail(&cc->node, &capebus_cfs_ctrls);

	return 0;
}

/**
 * capebus_configfs_remove_controller() - a controller is going away
 * @ctrl: the controller; the core has removed its capes
 *
 * capebus/<ctrl>/ goes now if no cape is declared in it, else when the last
 * one is removed; until then new declarations are refused with -ENODEV and
 * the declared capes' status says the controller was removed.
 *
 * Context: process context; not under @ctrl->lock.
 */
void capebus_configfs_remove_controller(struct capebus_controller *ctrl)
{
	struct capebus_cfs_ctrl *cc = NULL, *iter;
	bool busy;

	scoped_guard(mutex, &capebus_cfs_ctrls_lock) {
		list_for_each_entry(iter, &capebus_cfs_ctrls, node) {
			if (iter->ctrl == ctrl) {
				cc = iter;
				list_del(&cc->node);
				break;
			}
		}
	}
	if (!cc)
		return;

	scoped_guard(mutex, &cc->lock) {
		cc->dead = true;
		busy = cc->num_capes;
	}

	if (!busy)
		capebus_cfs_ctrl_unregister(cc);
}

/**
 * capebus_configfs_init() - register the capebus configfs subsystem
 *
 * Return: 0 or a negative errno.
 */
int capebus_configfs_init(void)
{
	int ret;

	capebus_cfs_wq = alloc_ordered_workqueue("capebus-configfs", 0);
	if (!capebus_cfs_wq)
		return -ENOMEM;

	config_group_init(&capebus_cfs_subsys.su_group);
	mutex_init(&capebus_cfs_subsys.su_mutex);
	ret = configfs_register_subsystem(&capebus_cfs_subsys);
	if (ret) {
		mutex_destroy(&capebus_cfs_subsys.su_mutex);
		destroy_workqueue(capebus_cfs_wq);
	}

	return ret;
}

/**
 * capebus_configfs_exit() - unregister the capebus configfs subsystem
 *
 * Every controller is unregistered by now, and no cape is declared (each
 * holds a reference on the module); groups still waiting to go are removed
 * first.
 */
void capebus_configfs_exit(void)
{
	destroy_workqueue(capebus_cfs_wq);
	WARN_ON(!list_empty(&capebus_cfs_ctrls));
	configfs_unregister_subsystem(&capebus_cfs_subsys);
	mutex_destroy(&capebus_cfs_subsys.su_mutex);
}
