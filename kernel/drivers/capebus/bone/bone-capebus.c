// SPDX-License-Identifier: GPL-2.0
/*
 * capebus-bone: the BeagleBone cape header controller ("beagle,bone-capebus").
 *
 * Each slot names its ID EEPROM (an at24 on the header's I2C bus) through
 * nvmem.  The slots are read from a work item, so boot does not wait on the
 * I2C bus, one after the other (they share the bus anyway), and only the
 * bytes needed: the standard area plus an extension header, then the
 * extension records if the header says there are any.
 *
 * Reading and loading are a pipeline: the scan work only reads, and hands
 * each cape it found to the load work (device, pin muxing, overlay), so the
 * next slot's EEPROM is read while the previous cape loads.  The reads stay
 * one after the other: they share the bus.
 *
 * A slot follows its EEPROM's driver: the slot is read when the driver binds
 * to the EEPROM's I2C client (at probe if it is bound already; later when
 * at24 is a module loaded after this one), and is empty, its detected cape
 * removed, while no driver is bound (the chip does not answer, so at24's
 * probe failed; at24 is not loaded; it was unbound or unloaded).  See
 * bone_i2c_notify() for why a bus notifier and not nvmem's.
 */

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/capebus.h>
#include <linux/device.h>
#include <linux/i2c.h>
#include <linux/ktime.h>
#include <linux/mod_devicetable.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/nvmem-consumer.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include <linux/module.h>

#include "bone.h"

/* What a slot last made of its EEPROM (bone_capebus.seen). */
enum bone_seen {
	BONE_SEEN_NOTHING,	/* not looked at yet */
	BONE_SEEN_READ,		/* read while its driver was bound */
	BONE_SEEN_ABSENT,	/* no driver bound: empty */
};

/**
 * struct bone_found - a cape read from a slot's EEPROM, not loaded yet
 * @info: the cape, as its EEPROM describes it
 * @overlay: the overlay of its extension record, or NULL
 * @overlay_len: bytes at @overlay
 */
struct bone_found {
	struct capebus_cape_info *info;
	void *overlay;
	size_t overlay_len;
};

/**
 * struct bone_capebus - a "beagle,bone-capebus" controller
 * @dev: the platform device
 * @ctrl: the capebus controller
 * @slot_np: each slot's node, or NULL
 * @ee_np: each slot's EEPROM node (its "nvmem" phandle), or NULL
 * @scan_work: reads the slots whose bit is set in @pending
 * @load_work: loads the capes in @found
 * @pending: slots to look at again (their EEPROM's driver came or went)
 * @i2c_nb: the I2C bus notifier (bone_i2c_notify())
 * @lock: @seen and @unbinding, and held across every use of an EEPROM's
 *	nvmem device, so that unbinding its driver waits for the read
 * @seen: what the work made of each slot's EEPROM last
 * @unbinding: each slot's EEPROM driver is being unbound: do not read it
 * @found_lock: @found
 * @found: each slot's cape, read and handed to @load_work, or NULL
 * @record: per slot, the /chosen/overlays record its cape was loaded by
 *	(applied before Linux), or NULL; the base tree's, so never freed.
 *	@load_work's alone.
 * @probe_time: when the controller probed (for the detection log lines)
 */
struct bone_capebus {
	struct device *dev;
	struct capebus_controller *ctrl;
	struct device_node *slot_np[BONE_MAX_SLOTS];
	struct device_node *ee_np[BONE_MAX_SLOTS];
	struct work_struct scan_work;
	struct work_struct load_work;
	unsigned long pending;
	struct notifier_block i2c_nb;
	struct mutex lock;	/* see above */
	enum bone_seen seen[BONE_MAX_SLOTS];
	bool unbinding[BONE_MAX_SLOTS];
	spinlock_t found_lock;	/* see above */
	struct bone_found *found[BONE_MAX_SLOTS];
	const struct property *record[BONE_MAX_SLOTS];
	ktime_t probe_time;
	struct bone_pinmux pinmux;
};

static const char *const bone_budget_props[BONE_NUM_RAILS] = {
	[BONE_RAIL_VDD_3V3B]	= "vdd-3v3b-budget-microamp",
	[BONE_RAIL_VDD_5V]	= "vdd-5v-budget-microamp",
	[BONE_RAIL_SYS_5V]	= "sys-5v-budget-microamp",
};

/* Is a driver bound to the EEPROM's device (at24 probed, the chip answered)? */
static bool bone_eeprom_bound(struct device_node *ee_np)
{
#if IS_REACHABLE(CONFIG_I2C)
	struct i2c_client *client;
	bool bound;

	if (!ee_np)
		return false;
	client = of_find_i2c_device_by_node(ee_np);
	if (!client)
		return false;
	bound = device_is_bound(&client->dev);
	put_device(&client->dev);
	return bound;
#else
	return ee_np;	/* no notifier: try nvmem once */
#endif
}

/*
 * The struct device of @nvmem (for the slot's "nvmem" link), with a
 * reference: nvmem keeps it private, but registers it as a child of the
 * EEPROM's device, named nvmem_dev_name().
 */
static struct device *bone_nvmem_device(struct device_node *ee_np,
					struct nvmem_device *nvmem)
{
#if IS_REACHABLE(CONFIG_I2C)
	struct i2c_client *client = of_find_i2c_device_by_node(ee_np);
	struct device *dev;

	if (!client)
		return NULL;
	dev = device_find_child_by_name(&client->dev, nvmem_dev_name(nvmem));
	put_device(&client->dev);
	return dev;
#else
	return NULL;
#endif
}

/* Read the slot's EEPROM: standard area, extension header, records. */
static int bone_read_eeprom(struct nvmem_device *nvmem, void **bufp,
			    size_t *lenp, struct cape_eeprom *ee,
			    char *why, size_t why_len)
{
	size_t len = CAPE_EEPROM_READ_SIZE;
	ssize_t ext;
	void *buf;
	int ret;

	buf = kzalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	*bufp = buf;
	*lenp = 0;

	ret = nvmem_device_read(nvmem, 0, len, buf);
	if (ret < 0)
		return ret;
	if (ret != len)
		return -EIO;
	*lenp = len;

	ret = cape_eeprom_parse(ee, buf, len, why, why_len);
	if (ret)
		return ret;

	ext = cape_eeprom_ext_size(ee, buf, len, why, why_len);
	if (ext <= 0)
		return ext;

	/* Records follow the 8-byte header at ee->ext_offset. */
	len = ee->ext_offset + sizeof(struct capebus_ext_header) + ext;
	if (len > CAPE_EEPROM_READ_SIZE) {
		void *bigger = krealloc(buf, len, GFP_KERNEL);

		if (!bigger)
			return -ENOMEM;
		*bufp = buf = bigger;
		ret = nvmem_device_read(nvmem, CAPE_EEPROM_READ_SIZE,
					len - CAPE_EEPROM_READ_SIZE,
					buf + CAPE_EEPROM_READ_SIZE);
		if (ret < 0)
			return ret;
		if (ret != len - CAPE_EEPROM_READ_SIZE) {
			snprintf(why, why_len,
				 "extension records: read %d of %zu bytes",
				 ret, len - CAPE_EEPROM_READ_SIZE);
			return -EINVAL;
		}
	}
	*lenp = len;

	return 0;
}

static void bone_found_free(struct bone_found *found)
{
	if (!found)
		return;
	kvfree(found->overlay);
	kfree(found->info);
	kfree(found);
}

/* Take slot @nr's cape off the load work's list, if it is still there. */
static struct bone_found *bone_found_take(struct bone_capebus *bc,
					  unsigned int nr)
{
	struct bone_found *found;

	spin_lock(&bc->found_lock);
	found = bc->found[nr];
	bc->found[nr] = NULL;
	spin_unlock(&bc->found_lock);

	return found;
}

/* Hand slot @nr's cape to the load work; a cape it had not loaded yet goes. */
static void bone_found_give(struct bone_capebus *bc, unsigned int nr,
			    struct bone_found *found)
{
	spin_lock(&bc->found_lock);
	swap(bc->found[nr], found);
	spin_unlock(&bc->found_lock);
	bone_found_free(found);
	/*
	 * Not system_unbound_wq: measured with bench/cape-probe.sh in QEMU,
	 * capes loaded from there took three times as long to apply their
	 * overlays (cause not found).  From this pool the loads still
	 * overlap the reads (same bench).
	 */
	queue_work(system_long_wq, &bc->load_work);
}

/*
 * Tell the core whether the bootloader applied the cape's overlay.  A record
 * stands for one apply, so for one slot: the first slot whose cape it names
 * keeps it (until reboot, as the cape); another slot naming the same part
 * is a cape like any other, whose overlay meets the nodes already there.
 */
static void bone_slot_applied_by(struct bone_capebus *bc, unsigned int nr,
				 const struct capebus_cape_info *info)
{
	char by[CAPEBUS_TEXT_LEN * 2 + 32];
	const struct property *record;
	unsigned int i;

	record = bone_applied_by_bootloader(info, bc->record, nr, by, sizeof(by));
	if (record) {
		bc->record[nr] = record;
		dev_info(bc->dev, "slot %u: %s %s: overlay applied by the bootloader (%s)\n",
			 nr, info->text[CAPEBUS_PART_NUMBER],
			 info->text[CAPEBUS_VERSION], by);
	} else {
		for (i = 0; i < BONE_MAX_SLOTS; i++)
			if (i != nr && bc->record[i] &&
			    bone_overlay_record_matches(bc->record[i]->name,
							info->text[CAPEBUS_PART_NUMBER],
							info->text[CAPEBUS_VERSION]))
				dev_warn(bc->dev, "slot %u: %s: the bootloader's record of it is slot %u's\n",
					 nr, info->text[CAPEBUS_PART_NUMBER], i);
	}
	if (capebus_slot_set_applied_by(capebus_slot(bc->ctrl, nr),
					record ? by : NULL))
		dev_warn(bc->dev, "out of memory: %s may be applied twice\n",
			 info->text[CAPEBUS_PART_NUMBER]);
}

/*
 * Load the capes the scan work found, each as it comes: the scan reads the
 * next slot meanwhile.
 */
static void bone_load_work(struct work_struct *work)
{
	struct bone_capebus *bc = container_of(work, struct bone_capebus,
					       load_work);
	struct bone_found *found;
	struct capebus_slot *slot;
	unsigned int nr;

	for (nr = 0; nr < BONE_MAX_SLOTS; nr++) {
		found = bone_found_take(bc, nr);
		if (!found)
			continue;
		slot = capebus_slot(bc->ctrl, nr);
		bone_slot_applied_by(bc, nr, found->info);
		capebus_slot_detected(slot, found->info, found->overlay,
				      found->overlay_len);
		dev_info(bc->dev, "slot %u: %s %s, done %lld us after probe\n",
			 nr, found->info->text[CAPEBUS_PART_NUMBER],
			 capebus_slot_state_name(capebus_slot_state(slot)),
			 ktime_us_delta(ktime_get(), bc->probe_time));
		bone_found_free(found);
	}
}

/* The EEPROM of slot @nr is gone, or was never there: the slot is empty. */
static void bone_slot_absent(struct bone_capebus *bc, unsigned int nr)
{
	struct capebus_slot *slot = capebus_slot(bc->ctrl, nr);

	/* A cape read before is not loaded now, nor being loaded. */
	bone_found_free(bone_found_take(bc, nr));
	flush_work(&bc->load_work);

	dev_dbg(bc->dev, "slot %u: no EEPROM\n", nr);
	capebus_slot_set_empty(slot);
	capebus_slot_set_nvmem(slot, NULL);
	capebus_slot_set_eeprom(slot, NULL, 0);
}

/*
 * Read slot @nr's EEPROM (its driver is bound) and report the cape.  The
 * nvmem device is used only under bc->lock, and not if the EEPROM's driver
 * is being unbound meanwhile: at24 frees what nvmem reads through as it
 * unbinds, whatever references nvmem consumers hold.
 */
static void bone_slot_read(struct bone_capebus *bc, unsigned int nr)
{
	struct capebus_slot *slot = capebus_slot(bc->ctrl, nr);
	struct cape_eeprom_ext ext = { };
	char why[CAPEBUS_REASON_LEN] = "";
	struct device *nvmem_dev = NULL;
	struct bone_found *found;
	struct nvmem_device *nvmem;
	struct cape_eeprom *ee;
	ktime_t t0, t_read;
	void *buf = NULL;
	size_t len = 0;
	int ret;

	ee = kzalloc(sizeof(*ee), GFP_KERNEL);
	found = kzalloc(sizeof(*found), GFP_KERNEL);
	if (found)
		found->info = kzalloc(sizeof(*found->info), GFP_KERNEL);
	if (!ee || !found || !found->info)
		goto out;

	mutex_lock(&bc->lock);
	if (bc->unbinding[nr]) {
		/*
		 * Not read, and the slot is still empty: its unbound event
		 * queues the work again, its next bound one reads it.
		 */
		bc->seen[nr] = BONE_SEEN_ABSENT;
		mutex_unlock(&bc->lock);
		goto out;
	}
	nvmem = of_nvmem_device_get(bc->slot_np[nr], NULL);
	if (IS_ERR(nvmem)) {
		mutex_unlock(&bc->lock);
		dev_dbg(bc->dev, "slot %u: no nvmem device (%ld)\n", nr,
			PTR_ERR(nvmem));
		bone_slot_absent(bc, nr);
		goto out;
	}
	nvmem_dev = bone_nvmem_device(bc->ee_np[nr], nvmem);
	t0 = ktime_get();
	ret = bone_read_eeprom(nvmem, &buf, &len, ee, why, sizeof(why));
	t_read = ktime_get();
	nvmem_device_put(nvmem);
	mutex_unlock(&bc->lock);

	capebus_slot_set_nvmem(slot, nvmem_dev);
	put_device(nvmem_dev);
	capebus_slot_set_eeprom(slot, buf, len);

	if (ret == -ENODATA) {
		dev_dbg(bc->dev, "slot %u: blank EEPROM\n", nr);
		capebus_slot_set_empty(slot);
		goto out;
	}
	if (ret == -EINVAL || ret == -EMSGSIZE) {
		capebus_slot_set_failed(slot, "%s", why);
		goto out;
	}
	if (ret < 0) {
		/* The chip stopped answering: as good as no EEPROM. */
		dev_dbg(bc->dev, "slot %u: EEPROM read failed (%d)\n", nr, ret);
		capebus_slot_set_empty(slot);
		goto out;
	}

	ret = cape_eeprom_parse_ext(ee, buf, len, &ext, why, sizeof(why));
	if (ret) {
		capebus_slot_set_failed(slot, "%s", why);
		goto out;
	}

	if (ext.overlay) {
		found->overlay = kvmemdup(ext.overlay, ext.overlay_len,
					  GFP_KERNEL);
		if (!found->overlay) {
			capebus_slot_set_failed(slot, "out of memory");
			goto out;
		}
		found->overlay_len = ext.overlay_len;
	}
	bone_info_from_eeprom(found->info, ee);
	dev_info(bc->dev,
		 "slot %u: %s, %zu EEPROM bytes read in %lld us, %lld us after probe\n",
		 nr, ee->part_number, len, ktime_us_delta(t_read, t0),
		 ktime_us_delta(t_read, bc->probe_time));
	bone_found_give(bc, nr, found);
	found = NULL;
out:
	bone_found_free(found);
	kfree(buf);
	kfree(ee);
}

/* Bring slot @nr in line with its EEPROM's driver, if it is not yet. */
static void bone_scan_slot(struct bone_capebus *bc, unsigned int nr)
{
	enum bone_seen want;

	scoped_guard(mutex, &bc->lock) {
		want = bone_eeprom_bound(bc->ee_np[nr]) && !bc->unbinding[nr] ?
		       BONE_SEEN_READ : BONE_SEEN_ABSENT;
		if (bc->seen[nr] == want)
			return;
		bc->seen[nr] = want;
	}

	if (want == BONE_SEEN_READ)
		bone_slot_read(bc, nr);
	else
		bone_slot_absent(bc, nr);
}

static void bone_scan_work(struct work_struct *work)
{
	struct bone_capebus *bc = container_of(work, struct bone_capebus,
					       scan_work);
	bool first = false;
	unsigned int i;

	for (i = 0; i < BONE_MAX_SLOTS; i++) {
		if (!test_and_clear_bit(i, &bc->pending))
			continue;
		if (bc->seen[i] == BONE_SEEN_NOTHING)
			first = true;
		bone_scan_slot(bc, i);
	}

	/*
	 * enable_partno= names parts not found in any slot: after the first
	 * look, and after the capes it found are loaded.
	 */
	if (first) {
		flush_work(&bc->load_work);
		capebus_controller_enable_parts(bc->ctrl);
	}
}

#if IS_REACHABLE(CONFIG_I2C)
/*
 * Slots follow their EEPROM's driver through a notifier on the I2C bus, not
 * nvmem's (nvmem_register_notifier()): nvmem's NVMEM_ADD comes when at24
 * registers its nvmem device, before its probe's test read, so a slot with
 * no chip would see a device come and go, and reading it then races at24's
 * failed probe freeing what nvmem reads through; NVMEM_REMOVE comes only
 * when the last nvmem reference goes, after at24 has unbound.  The bus
 * notifier says when the probe succeeded (BUS_NOTIFY_BOUND_DRIVER), and
 * BUS_NOTIFY_UNBIND_DRIVER comes before at24's remove: waiting here for a
 * read in progress (bc->lock) keeps the EEPROM from vanishing under it.
 * The rest happens in the work item: removing a cape takes the
 * controller's locks and reverts an overlay, which removes I2C devices and
 * so calls this notifier chain again.
 */
static int bone_i2c_notify(struct notifier_block *nb, unsigned long action,
			   void *data)
{
	struct bone_capebus *bc = container_of(nb, struct bone_capebus, i2c_nb);
	struct device *dev = data;
	unsigned int nr;

	if (action != BUS_NOTIFY_BOUND_DRIVER &&
	    action != BUS_NOTIFY_UNBIND_DRIVER &&
	    action != BUS_NOTIFY_UNBOUND_DRIVER)
		return NOTIFY_DONE;

	for (nr = 0; nr < BONE_MAX_SLOTS; nr++)
		if (bc->ee_np[nr] && dev->of_node == bc->ee_np[nr])
			break;
	if (nr == BONE_MAX_SLOTS)
		return NOTIFY_DONE;

	scoped_guard(mutex, &bc->lock)
		bc->unbinding[nr] = action == BUS_NOTIFY_UNBIND_DRIVER;
	if (action != BUS_NOTIFY_UNBIND_DRIVER) {
		set_bit(nr, &bc->pending);
		queue_work(system_long_wq, &bc->scan_work);
	}

	return NOTIFY_OK;
}

static int bone_register_notifier(struct bone_capebus *bc)
{
	bc->i2c_nb.notifier_call = bone_i2c_notify;
	return bus_register_notifier(&i2c_bus_type, &bc->i2c_nb);
}

static void bone_unregister_notifier(struct bone_capebus *bc)
{
	bus_unregister_notifier(&i2c_bus_type, &bc->i2c_nb);
}
#else
static int bone_register_notifier(struct bone_capebus *bc)
{
	return 0;
}

static void bone_unregister_notifier(struct bone_capebus *bc)
{
}
#endif

/* A string list of header pin names, as a bitmap. */
static int bone_read_pins(struct device *dev, struct device_node *np,
			  const char *prop_name, unsigned long *pins)
{
	struct property *prop;
	const char *s;
	int pin;

	of_property_for_each_string(np, prop_name, prop, s) {
		pin = capebus_header_pin_index(&bone_header, s);
		if (pin < 0)
			return dev_err_probe(dev, -EINVAL,
					     "%s: \"%s\" is not a header pin\n",
					     prop_name, s);
		__set_bit(pin, pins);
	}

	return 0;
}

/* Hand every node of a phandle list property to @add. */
static int bone_read_nodes(struct bone_capebus *bc, const char *prop_name,
			   int (*add)(struct capebus_controller *ctrl,
				      struct device_node *np))
{
	struct device *dev = bc->dev;
	struct device_node *np;
	int i, n, ret;

	n = of_count_phandle_with_args(dev->of_node, prop_name, NULL);
	if (n == -ENOENT)
		return 0;
	if (n < 0)
		return dev_err_probe(dev, n, "bad %s\n", prop_name);

	for (i = 0; i < n; i++) {
		np = of_parse_phandle(dev->of_node, prop_name, i);
		if (!np)
			return dev_err_probe(dev, -EINVAL, "bad %s entry %d\n",
					     prop_name, i);
		ret = add(bc->ctrl, np);
		of_node_put(np);
		if (ret)
			return ret;
	}

	return n;
}

/*
 * The connector's export-symbols node: each property a name cape overlays
 * may use, its value the node the name stands for.
 */
static int bone_read_exports(struct bone_capebus *bc)
{
	struct device *dev = bc->dev;
	struct property *prop;
	struct device_node *np;
	int ret;

	struct device_node *exports __free(device_node) =
		of_get_child_by_name(dev->of_node, "export-symbols");
	if (!exports)
		return 0;

	for_each_property_of_node(exports, prop) {
		if (!strcmp(prop->name, "name") || !strcmp(prop->name, "phandle"))
			continue;
		np = of_parse_phandle(exports, prop->name, 0);
		if (!np || prop->length != sizeof(__be32)) {
			of_node_put(np);
			return dev_err_probe(dev, -EINVAL,
					     "export-symbols: %s is not one phandle\n",
					     prop->name);
		}
		ret = capebus_controller_add_export(bc->ctrl, prop->name, np);
		of_node_put(np);
		if (ret)
			return dev_err_probe(dev, ret, "cannot export %s\n",
					     prop->name);
	}

	return 0;
}

/*
 * The connector's target-pins node: each property names an exported cape
 * target, its value the header pins behind it.  While a cape enables the
 * target, they are the bus's.
 */
static int bone_read_target_pins(struct bone_capebus *bc)
{
	struct device *dev = bc->dev;
	struct property *prop;
	struct device_node *np;
	int ret;

	struct device_node *tp __free(device_node) =
		of_get_child_by_name(dev->of_node, "target-pins");
	struct device_node *exports __free(device_node) =
		of_get_child_by_name(dev->of_node, "export-symbols");
	if (!tp)
		return 0;

	for_each_property_of_node(tp, prop) {
		DECLARE_BITMAP(pins, CAPEBUS_MAX_PINS) = { 0 };

		if (!strcmp(prop->name, "name") || !strcmp(prop->name, "phandle"))
			continue;
		ret = bone_read_pins(dev, tp, prop->name, pins);
		if (ret)
			return ret;
		np = exports ? of_parse_phandle(exports, prop->name, 0) : NULL;
		ret = np ? capebus_controller_set_target_pins(bc->ctrl, np,
							      prop->name, pins) :
			   -ENOENT;
		of_node_put(np);
		if (ret)
			return dev_err_probe(dev, ret,
					     "target-pins: %s is not an exported cape target\n",
					     prop->name);
	}

	return 0;
}

/* cape-platform-compatibles: the platform devices capes may make. */
static int bone_read_platform_compatibles(struct bone_capebus *bc)
{
	struct property *prop;
	const char *compat;
	int ret;

	of_property_for_each_string(bc->dev->of_node, "cape-platform-compatibles",
				    prop, compat) {
		ret = capebus_controller_add_platform_compatible(bc->ctrl, compat);
		if (ret)
			return dev_err_probe(bc->dev, ret,
					     "cape-platform-compatibles: %s\n",
					     compat);
	}

	return 0;
}

static int bone_read_resources(struct bone_capebus *bc)
{
	struct device *dev = bc->dev;
	DECLARE_BITMAP(board, CAPEBUS_MAX_PINS) = { 0 };
	DECLARE_BITMAP(shared, CAPEBUS_MAX_PINS) = { 0 };
	u32 budget[BONE_NUM_RAILS];
	int rail, ret;
	u32 ua;

	for (rail = 0; rail < BONE_NUM_RAILS; rail++) {
		budget[rail] = CAPEBUS_BUDGET_UNLIMITED;
		if (!of_property_read_u32(dev->of_node, bone_budget_props[rail], &ua))
			budget[rail] = ua / 1000;
	}

	ret = bone_read_pins(dev, dev->of_node, "board-pins", board);
	if (ret)
		return ret;
	ret = bone_read_pins(dev, dev->of_node, "shared-pins", shared);
	if (ret)
		return ret;

	ret = capebus_controller_set_resources(bc->ctrl, budget, board, shared);
	if (ret)
		return dev_err_probe(dev, ret, "board-pins overlap shared-pins\n");

	ret = bone_read_nodes(bc, "cape-targets", capebus_controller_add_target);
	if (ret < 0)
		return ret;
	if (!ret)
		return dev_err_probe(dev, -EINVAL, "no cape-targets\n");

	ret = bone_read_platform_compatibles(bc);
	if (ret)
		return ret;

	ret = bone_read_exports(bc);
	if (ret)
		return ret;

	return bone_read_target_pins(bc);
}

static int bone_read_slots(struct bone_capebus *bc, unsigned int *num_slots)
{
	struct device *dev = bc->dev;
	u32 reg;

	*num_slots = 0;
	for_each_available_child_of_node_scoped(dev->of_node, child) {
		if (!of_node_name_eq(child, "slot"))
			continue;
		if (of_property_read_u32(child, "reg", &reg) ||
		    reg >= BONE_MAX_SLOTS)
			return dev_err_probe(dev, -EINVAL, "%pOF: bad reg\n", child);
		if (bc->slot_np[reg])
			return dev_err_probe(dev, -EINVAL, "slot %u twice\n", reg);
		bc->slot_np[reg] = of_node_get(child);
		bc->ee_np[reg] = of_parse_phandle(child, "nvmem", 0);
		*num_slots = max(*num_slots, reg + 1);
	}

	return 0;
}

static void bone_put_slots(struct bone_capebus *bc)
{
	unsigned int i;

	for (i = 0; i < BONE_MAX_SLOTS; i++) {
		of_node_put(bc->ee_np[i]);
		of_node_put(bc->slot_np[i]);
	}
}

static int bone_capebus_decode(struct capebus_controller *ctrl,
			       const void *image, size_t len,
			       struct capebus_cape_info *info,
			       const void **overlay, size_t *overlay_len,
			       char *why, size_t why_len)
{
	return bone_decode_image(image, len, info, overlay, overlay_len, why,
				 why_len);
}

static int bone_capebus_overlay_name(struct capebus_controller *ctrl,
				     const struct capebus_cape_info *info,
				     char *name, size_t len)
{
	return bone_overlay_name(info, name, len);
}

static int bone_capebus_attach(struct capebus_controller *ctrl,
			       struct cape_device *cape, char *why,
			       size_t why_len)
{
	struct bone_capebus *bc = capebus_controller_get_drvdata(ctrl);

	/* The bootloader's overlay muxed its pads: a second group would fight. */
	if (cape->applied_by)
		return 0;

	return bone_pinmux_attach(&bc->pinmux, bc->dev->of_node, cape, why,
				  why_len);
}

static void bone_capebus_detach(struct capebus_controller *ctrl,
				struct cape_device *cape)
{
	bone_pinmux_detach(cape);
}

static const struct capebus_controller_ops bone_capebus_ops = {
	.decode		= bone_capebus_decode,
	.overlay_name	= bone_capebus_overlay_name,
	.attach		= bone_capebus_attach,
	.detach		= bone_capebus_detach,
};

static void bone_pinmux_exit_action(void *pm)
{
	bone_pinmux_exit(pm);
}

static void bone_put_slots_action(void *bc)
{
	bone_put_slots(bc);
}

static int bone_capebus_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct bone_capebus *bc;
	unsigned int num_slots, i;
	int ret;

	bc = devm_kzalloc(dev, sizeof(*bc), GFP_KERNEL);
	if (!bc)
		return -ENOMEM;
	bc->dev = dev;
	bc->probe_time = ktime_get();
	INIT_WORK(&bc->scan_work, bone_scan_work);
	INIT_WORK(&bc->load_work, bone_load_work);
	spin_lock_init(&bc->found_lock);
	ret = devm_mutex_init(dev, &bc->lock);
	if (ret)
		return ret;

	ret = devm_add_action(dev, bone_put_slots_action, bc);
	if (ret)
		return ret;
	ret = bone_read_slots(bc, &num_slots);
	if (ret)
		return ret;

	bc->ctrl = devm_capebus_controller_alloc(dev, &bone_header,
						 &bone_capebus_ops, num_slots);
	if (IS_ERR(bc->ctrl))
		return PTR_ERR(bc->ctrl);

	ret = bone_read_resources(bc);
	if (ret)
		return ret;

	ret = bone_pinmux_init(dev, &bc->pinmux);
	if (ret)
		return ret;
	ret = devm_add_action_or_reset(dev, bone_pinmux_exit_action,
				       &bc->pinmux);
	if (ret)
		return ret;

	capebus_controller_set_drvdata(bc->ctrl, bc);
	ret = devm_capebus_controller_register(dev, bc->ctrl);
	if (ret)
		return ret;

	/*
	 * Notifier first, then the first look at every slot: an EEPROM
	 * bound in between is looked at twice, which changes nothing.
	 */
	ret = bone_register_notifier(bc);
	if (ret)
		return ret;
	platform_set_drvdata(pdev, bc);
	for (i = 0; i < BONE_MAX_SLOTS; i++)
		if (bc->slot_np[i])
			set_bit(i, &bc->pending);
	queue_work(system_long_wq, &bc->scan_work);

	return 0;
}

/*
 * No notifier can queue the scan once it is unregistered; the scan then
 * stops, and the load work with it (capes found but not loaded are
 * dropped), all before devres unregisters the controller.
 */
static void bone_capebus_remove(struct platform_device *pdev)
{
	struct bone_capebus *bc = platform_get_drvdata(pdev);
	unsigned int nr;

	bone_unregister_notifier(bc);
	cancel_work_sync(&bc->scan_work);
	cancel_work_sync(&bc->load_work);
	for (nr = 0; nr < BONE_MAX_SLOTS; nr++)
		bone_found_free(bone_found_take(bc, nr));
}

static const struct of_device_id bone_capebus_of_match[] = {
	{ .compatible = "beagle,bone-capebus" },
	{ }
};
MODULE_DEVICE_TABLE(of, bone_capebus_of_match);

static struct platform_driver bone_capebus_driver = {
	.probe	= bone_capebus_probe,
	.remove	= bone_capebus_remove,
	.driver	= {
		.name		= "bone-capebus",
		.of_match_table	= bone_capebus_of_match,
	},
};
module_platform_driver(bone_capebus_driver);

MODULE_DESCRIPTION("capebus: the BeagleBone cape header controller");
MODULE_AUTHOR("capebus developers <capebus@lists.example.org>");
MODULE_LICENSE("GPL");
