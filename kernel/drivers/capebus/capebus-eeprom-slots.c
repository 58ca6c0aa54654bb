// SPDX-License-Identifier: GPL-2.0
/*
 * capebus: slots that follow their ID EEPROM.
 *
 * A connector node has a "slot" child per ID EEPROM, whose "nvmem" names
 * the EEPROM (an at24 on the header's ID bus).  The slots are read from a
 * work item, so boot does not wait on the I2C bus, one after the other
 * (they share the bus anyway); what to read and how to decode it is the
 * controller's (capebus_eeprom_ops.read).
 *
 * Reading and loading are a pipeline: the scan work only reads, and hands
 * each cape it found to the load work (device, pin setting, overlay), so
 * the next slot's EEPROM is read while the previous cape loads.
 *
 * A slot follows its EEPROM's driver: the slot is read when the driver
 * binds to the EEPROM's I2C client (at start if it is bound already; later
 * when at24 is a module loaded after the controller), and is empty, its
 * detected cape removed, while no driver is bound (the chip does not
 * answer, so at24's probe failed; at24 is not loaded; it was unbound or
 * unloaded).  See capebus_eeprom_i2c_notify() for why a bus notifier and
 * not nvmem's.
 */

#include <linux/bitops.h>
#include <linux/capebus.h>
#include <linux/capebus-eeprom-slots.h>
#include <linux/device.h>
#include <linux/i2c.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/nvmem-consumer.h>
#include <linux/of.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include <linux/module.h>

#include "capebus-internal.h"

/* What a slot last made of its EEPROM (capebus_eeprom_slots.seen). */
enum capebus_eeprom_seen {
	CAPEBUS_EEPROM_SEEN_NOTHING,	/* not looked at yet */
	CAPEBUS_EEPROM_SEEN_READ,	/* read while its driver was bound */
	CAPEBUS_EEPROM_SEEN_ABSENT,	/* no driver bound: empty */
};

/**
 * struct capebus_eeprom_found - a cape read from a slot, not loaded yet
 * @info: the cape, as its EEPROM describes it
 * @overlay: the overlay its EEPROM carries, or NULL
 * @overlay_len: bytes at @overlay
 */
struct capebus_eeprom_found {
	struct capebus_cape_info *info;
	void *overlay;
	size_t overlay_len;
};

/**
 * struct capebus_eeprom_slots - a controller's slots and their EEPROMs
 * @dev: the controller's device
 * @ctrl: the capebus controller, once started
 * @ops: the controller's read and loading ops
 * @data: the controller's, for @ops (capebus_eeprom_slots_get_data())
 * @slot_np: each slot's node, or NULL
 * @ee_np: each slot's EEPROM node (its "nvmem" phandle), or NULL
 * @scan_work: reads the slots whose bit is set in @pending
 * @load_work: loads the capes in @found
 * @pending: slots to look at again (their EEPROM's driver came or went)
 * @i2c_nb: the I2C bus notifier (capebus_eeprom_i2c_notify())
 * @lock: @seen, @unbinding and @stopping, and held across every use of an
 *	EEPROM's nvmem device, so that unbinding its driver waits for the read
 * @seen: what the work made of each slot's EEPROM last
 * @unbinding: each slot's EEPROM driver is being unbound: do not read it
 * @stopping: the slots are being stopped (capebus_eeprom_slots_stop()):
 *	read no more EEPROMs
 * @found_lock: @found
 * @found: each slot's cape, read and handed to @load_work, or NULL
 * @start_time: when the controller probed (for the detection log lines)
 */
struct capebus_eeprom_slots {
	struct device *dev;
	struct capebus_controller *ctrl;
	const struct capebus_eeprom_ops *ops;
	void *data;
	struct device_node *slot_np[CAPEBUS_EEPROM_MAX_SLOTS];
	struct device_node *ee_np[CAPEBUS_EEPROM_MAX_SLOTS];
	struct work_struct scan_work;
	struct work_struct load_work;
	unsigned long pending;
	struct notifier_block i2c_nb;
	struct mutex lock;	/* see above */
	enum capebus_eeprom_seen seen[CAPEBUS_EEPROM_MAX_SLOTS];
	bool unbinding[CAPEBUS_EEPROM_MAX_SLOTS];
	bool stopping;
	spinlock_t found_lock;	/* see above */
	struct capebus_eeprom_found *found[CAPEBUS_EEPROM_MAX_SLOTS];
	ktime_t start_time;
};

/* Is a driver bound to the EEPROM's device (at24 probed, the chip answered)? */
static bool capebus_eeprom_bound(struct device_node *ee_np)
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
static struct device *capebus_eeprom_nvmem_device(struct device_node *ee_np,
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

static void capebus_eeprom_found_free(struct capebus_eeprom_found *found)
{
	if (!found)
		return;
	kvfree(found->overlay);
	kfree(found->info);
	kfree(found);
}

/* Take slot @nr's cape off the load work's list, if it is still there. */
static struct capebus_eeprom_found *
capebus_eeprom_found_take(struct capebus_eeprom_slots *es, unsigned int nr)
{
	struct capebus_eeprom_found *found;

	spin_lock(&es->found_lock);
	found = es->found[nr];
	es->found[nr] = NULL;
	spin_unlock(&es->found_lock);

	return found;
}

/* Hand slot @nr's cape to the load work; a cape it had not loaded yet goes. */
static void capebus_eeprom_found_give(struct capebus_eeprom_slots *es,
				      unsigned int nr,
				      struct capebus_eeprom_found *found)
{
	spin_lock(&es->found_lock);
	swap(es->found[nr], found);
	spin_unlock(&es->found_lock);
	capebus_eeprom_found_free(found);
	/*
	 * Not system_unbound_wq: measured with bench/cape-probe.sh in QEMU,
	 * capes loaded from there took three times as long to apply their
	 * overlays (cause not found).  From this pool the loads still
	 * overlap the reads (same bench).
	 */
	queue_work(system_long_wq, &es->load_work);
}

/*
 * Load the capes the scan work found, each as it comes: the scan reads the
 * next slot meanwhile.
 */
static void capebus_eeprom_load_work(struct work_struct *work)
{
	struct capebus_eeprom_slots *es =
		container_of(work, struct capebus_eeprom_slots, load_work);
	struct capebus_eeprom_found *found;
	struct capebus_slot *slot;
	unsigned int nr;

	for (nr = 0; nr < CAPEBUS_EEPROM_MAX_SLOTS; nr++) {
		found = capebus_eeprom_found_take(es, nr);
		if (!found)
			continue;
		slot = capebus_slot(es->ctrl, nr);
		if (es->ops->loading)
			es->ops->loading(es, nr, found->info);
		if (capebus_slot_detected(slot, found->info, found->overlay,
					  found->overlay_len) == -EEXIST)
			dev_info(es->dev, "slot %u: %s not loaded: the slot holds another cape\n",
				 nr, found->info->text[CAPEBUS_PART_NUMBER]);
		else
			dev_info(es->dev, "slot %u: %s %s, done %lld us after probe\n",
				 nr, found->info->text[CAPEBUS_PART_NUMBER],
				 capebus_slot_state_name(capebus_slot_state(slot)),
				 ktime_us_delta(ktime_get(), es->start_time));
		capebus_eeprom_found_free(found);
	}
}

/* The EEPROM of slot @nr is gone, or was never there: the slot is empty. */
static void capebus_eeprom_slot_absent(struct capebus_eeprom_slots *es,
				       unsigned int nr)
{
	struct capebus_slot *slot = capebus_slot(es->ctrl, nr);

	/* A cape read before is not loaded now, nor being loaded. */
	capebus_eeprom_found_free(capebus_eeprom_found_take(es, nr));
	flush_work(&es->load_work);

	dev_dbg(es->dev, "slot %u: no EEPROM\n", nr);
	capebus_slot_set_empty(slot);
	capebus_slot_set_nvmem(slot, NULL);
	capebus_slot_set_eeprom(slot, NULL, 0);
}

/*
 * Read slot @nr's EEPROM (its driver is bound) and report the cape.  The
 * nvmem device is used only under es->lock, and not if the EEPROM's driver
 * is being unbound meanwhile: at24 frees what nvmem reads through as it
 * unbinds, whatever references nvmem consumers hold.
 */
static void capebus_eeprom_slot_read(struct capebus_eeprom_slots *es,
				     unsigned int nr)
{
	struct capebus_slot *slot = capebus_slot(es->ctrl, nr);
	char why[CAPEBUS_REASON_LEN] = "";
	struct capebus_eeprom_found *found;
	struct device *nvmem_dev = NULL;
	struct nvmem_device *nvmem;
	ktime_t t0, t_read;
	void *buf = NULL;
	size_t len = 0;
	int ret;

	found = kzalloc(sizeof(*found), GFP_KERNEL);
	if (found)
		found->info = kzalloc(sizeof(*found->info), GFP_KERNEL);
	if (!found || !found->info)
		goto out;

	mutex_lock(&es->lock);
	if (es->stopping) {
		mutex_unlock(&es->lock);
		goto out;
	}
	if (es->unbinding[nr]) {
		/*
		 * Not read, and the slot is still empty: its unbound event
		 * queues the work again, its next bound one reads it.
		 */
		es->seen[nr] = CAPEBUS_EEPROM_SEEN_ABSENT;
		mutex_unlock(&es->lock);
		goto out;
	}
	nvmem = of_nvmem_device_get(es->slot_np[nr], NULL);
	if (IS_ERR(nvmem)) {
		mutex_unlock(&es->lock);
		dev_dbg(es->dev, "slot %u: no nvmem device (%ld)\n", nr,
			PTR_ERR(nvmem));
		capebus_eeprom_slot_absent(es, nr);
		goto out;
	}
	nvmem_dev = capebus_eeprom_nvmem_device(es->ee_np[nr], nvmem);
	t0 = ktime_get();
	ret = es->ops->read(es, nr, nvmem, &buf, &len, found->info,
			    &found->overlay, &found->overlay_len, why,
			    sizeof(why));
	t_read = ktime_get();
	nvmem_device_put(nvmem);
	mutex_unlock(&es->lock);

	capebus_slot_set_nvmem(slot, nvmem_dev);
	put_device(nvmem_dev);
	capebus_slot_set_eeprom(slot, buf, len);

	if (ret == -ENODATA) {
		dev_dbg(es->dev, "slot %u: blank EEPROM\n", nr);
		capebus_slot_set_empty(slot);
		goto out;
	}
	if (ret == -EINVAL || ret == -EMSGSIZE) {
		capebus_slot_set_failed(slot, "%s", why);
		goto out;
	}
	if (ret == -ENOMEM) {
		capebus_slot_set_failed(slot, "out of memory");
		goto out;
	}
	if (ret < 0) {
		/* The chip stopped answering: as good as no EEPROM. */
		dev_dbg(es->dev, "slot %u: EEPROM read failed (%d)\n", nr, ret);
		capebus_slot_set_empty(slot);
		goto out;
	}

	dev_info(es->dev,
		 "slot %u: %s, %zu EEPROM bytes read in %lld us, %lld us after probe\n",
		 nr, found->info->text[CAPEBUS_PART_NUMBER], len,
		 ktime_us_delta(t_read, t0),
		 ktime_us_delta(t_read, es->start_time));
	capebus_eeprom_found_give(es, nr, found);
	found = NULL;
out:
	capebus_eeprom_found_free(found);
	kfree(buf);
}

/* Bring slot @nr in line with its EEPROM's driver, if it is not yet. */
static void capebus_eeprom_scan_slot(struct capebus_eeprom_slots *es,
				     unsigned int nr)
{
	enum capebus_eeprom_seen want;

	scoped_guard(mutex, &es->lock) {
		if (es->stopping)
			return;
		want = capebus_eeprom_bound(es->ee_np[nr]) && !es->unbinding[nr] ?
		       CAPEBUS_EEPROM_SEEN_READ : CAPEBUS_EEPROM_SEEN_ABSENT;
		if (es->seen[nr] == want)
			return;
		es->seen[nr] = want;
	}

	if (want == CAPEBUS_EEPROM_SEEN_READ)
		capebus_eeprom_slot_read(es, nr);
	else
		capebus_eeprom_slot_absent(es, nr);
}

static void capebus_eeprom_scan_work(struct work_struct *work)
{
	struct capebus_eeprom_slots *es =
		container_of(work, struct capebus_eeprom_slots, scan_work);
	bool first = false;
	unsigned int i;

	for (i = 0; i < CAPEBUS_EEPROM_MAX_SLOTS; i++) {
		if (!test_and_clear_bit(i, &es->pending))
			continue;
		if (es->seen[i] == CAPEBUS_EEPROM_SEEN_NOTHING)
			first = true;
		capebus_eeprom_scan_slot(es, i);
	}

	/*
	 * enable_partno= names parts not found in any slot: after the first
	 * look, and after the capes it found are loaded.
	 */
	if (first) {
		flush_work(&es->load_work);
		capebus_controller_enable_parts(es->ctrl);
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
 * read in progress (es->lock) keeps the EEPROM from vanishing under it.
 * The rest happens in the work item: removing a cape takes the
 * controller's locks and reverts an overlay, which removes I2C devices and
 * so calls this notifier chain again.
 */
static int capebus_eeprom_i2c_notify(struct notifier_block *nb,
				     unsigned long action, void *data)
{
	struct capebus_eeprom_slots *es =
		container_of(nb, struct capebus_eeprom_slots, i2c_nb);
	struct device *dev = data;
	unsigned int nr;

	if (action != BUS_NOTIFY_BOUND_DRIVER &&
	    action != BUS_NOTIFY_UNBIND_DRIVER &&
	    action != BUS_NOTIFY_UNBOUND_DRIVER)
		return NOTIFY_DONE;

	for (nr = 0; nr < CAPEBUS_EEPROM_MAX_SLOTS; nr++)
		if (es->ee_np[nr] && dev->of_node == es->ee_np[nr])
			break;
	if (nr == CAPEBUS_EEPROM_MAX_SLOTS)
		return NOTIFY_DONE;

	scoped_guard(mutex, &es->lock)
		es->unbinding[nr] = action == BUS_NOTIFY_UNBIND_DRIVER;
	if (action != BUS_NOTIFY_UNBIND_DRIVER) {
		set_bit(nr, &es->pending);
		queue_work(system_long_wq, &es->scan_work);
	}

	return NOTIFY_OK;
}

static int capebus_eeprom_register_notifier(struct capebus_eeprom_slots *es)
{
	es->i2c_nb.notifier_call = capebus_eeprom_i2c_notify;
	return bus_register_notifier(&i2c_bus_type, &es->i2c_nb);
}

static void capebus_eeprom_unregister_notifier(struct capebus_eeprom_slots *es)
{
	bus_unregister_notifier(&i2c_bus_type, &es->i2c_nb);
}
#else
static int capebus_eeprom_register_notifier(struct capebus_eeprom_slots *es)
{
	return 0;
}

static void capebus_eeprom_unregister_notifier(struct capebus_eeprom_slots *es)
{
}
#endif

static void capebus_eeprom_put_slots(void *data)
{
	struct capebus_eeprom_slots *es = data;
	unsigned int i;

	for (i = 0; i < CAPEBUS_EEPROM_MAX_SLOTS; i++) {
		of_node_put(es->ee_np[i]);
		of_node_put(es->slot_np[i]);
	}
}

/**
 * devm_capebus_eeprom_slots_alloc() - find a connector's EEPROM slots
 * @dev: the controller's device; its node's "slot" children (reg: the slot
 *	number, nvmem: the slot's ID EEPROM) are the slots
 * @max_slots: the most slots the header has, at most
 *	%CAPEBUS_EEPROM_MAX_SLOTS; a slot numbered beyond is an error
 * @ops: how to read a slot's EEPROM (kept: must outlive @dev's binding)
 * @data: the controller's, for @ops
 * @num_slots: set to the highest slot number plus one (0: no slots), the
 *	number of slots to allocate the capebus controller with
 *
 * Nothing is read until devm_capebus_eeprom_slots_start().
 *
 * Return: the slots, or an ERR_PTR(); all freed when @dev is unbound.
 */
struct capebus_eeprom_slots *
devm_capebus_eeprom_slots_alloc(struct device *dev, unsigned int max_slots,
				const struct capebus_eeprom_ops *ops,
				void *data, unsigned int *num_slots)
{
	struct capebus_eeprom_slots *es;
	int ret;
	u32 reg;

	if (!ops || !ops->read || max_slots > CAPEBUS_EEPROM_MAX_SLOTS)
		return ERR_PTR(-EINVAL);

	es = devm_kzalloc(dev, sizeof(*es), GFP_KERNEL);
	if (!es)
		return ERR_PTR(-ENOMEM);
	es->dev = dev;
	es->ops = ops;
	es->data = data;
	es->start_time = ktime_get();
	INIT_WORK(&es->scan_work, capebus_eeprom_scan_work);
	INIT_WORK(&es->load_work, capebus_eeprom_load_work);
	spin_lock_init(&es->found_lock);
	ret = devm_mutex_init(dev, &es->lock);
	if (ret)
		return ERR_PTR(ret);
	ret = devm_add_action(dev, capebus_eeprom_put_slots, es);
	if (ret)
		return ERR_PTR(ret);

	*num_slots = 0;
	for_each_available_child_of_node_scoped(dev->of_node, child) {
		if (!of_node_name_eq(child, "slot"))
			continue;
		if (of_property_read_u32(child, "reg", &reg) || reg >= max_slots)
			return ERR_PTR(dev_err_probe(dev, -EINVAL,
						     "%pOF: bad reg\n", child));
		if (es->slot_np[reg])
			return ERR_PTR(dev_err_probe(dev, -EINVAL,
						     "slot %u twice\n", reg));
		es->slot_np[reg] = of_node_get(child);
		es->ee_np[reg] = of_parse_phandle(child, "nvmem", 0);
		*num_slots = max(*num_slots, reg + 1);
	}

	return es;
}
EXPORT_SYMBOL_GPL(devm_capebus_eeprom_slots_alloc);

/*
 * The scan stops first (no slot is read once @stopping is set, and the
 * read in progress, if any, is waited for), then the load work (capes found
 * but not loaded are dropped), and only then the notifier goes: while a
 * read may run, an EEPROM driver's unbind must still wait for it (es->lock),
 * or at24 frees what the read goes through (red team round 9: an Oops in
 * at24_read() as a controller module was unloaded and at24 unbound).  All
 * before devres unregisters the controller.
 */
static void capebus_eeprom_slots_stop(void *data)
{
	struct capebus_eeprom_slots *es = data;
	unsigned int nr;

	scoped_guard(mutex, &es->lock)
		es->stopping = true;
	disable_work_sync(&es->scan_work);
	disable_work_sync(&es->load_work);
	capebus_eeprom_unregister_notifier(es);
	for (nr = 0; nr < CAPEBUS_EEPROM_MAX_SLOTS; nr++)
		capebus_eeprom_found_free(capebus_eeprom_found_take(es, nr));
}

/**
 * devm_capebus_eeprom_slots_start() - read the slots, and follow them
 * @es: the slots (devm_capebus_eeprom_slots_alloc())
 * @ctrl: the controller, registered with devm_capebus_controller_register()
 *	on the same device, so that the slots stop (on unbind) before the
 *	controller is unregistered
 *
 * Queues the first look at every slot and follows each slot's EEPROM
 * driver from then on.
 *
 * Return: 0 or an error.
 */
int devm_capebus_eeprom_slots_start(struct capebus_eeprom_slots *es,
				    struct capebus_controller *ctrl)
{
	unsigned int i;
	int ret;

	es->ctrl = ctrl;
	/*
	 * Notifier first, then the first look at every slot: an EEPROM
	 * bound in between is looked at twice, which changes nothing.
	 */
	ret = capebus_eeprom_register_notifier(es);
	if (ret)
		return ret;
	ret = devm_add_action_or_reset(es->dev, capebus_eeprom_slots_stop, es);
	if (ret)
		return ret;

	for (i = 0; i < CAPEBUS_EEPROM_MAX_SLOTS; i++)
		if (es->slot_np[i])
			set_bit(i, &es->pending);
	queue_work(system_long_wq, &es->scan_work);

	return 0;
}
EXPORT_SYMBOL_GPL(devm_capebus_eeprom_slots_start);

/**
 * capebus_eeprom_slots_get_data() - the controller's data, for its ops
 * @es: the slots
 *
 * Return: the @data given to devm_capebus_eeprom_slots_alloc().
 */
void *capebus_eeprom_slots_get_data(const struct capebus_eeprom_slots *es)
{
	return es->data;
}
EXPORT_SYMBOL_GPL(capebus_eeprom_slots_get_data);
