/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capebus: slots that follow their ID EEPROM.  A helper for controllers
 * whose header identifies its add-ons by an I2C EEPROM per slot (at24,
 * read through nvmem), whatever the EEPROM's format.
 */
#ifndef _LINUX_CAPEBUS_EEPROM_SLOTS_H
#define _LINUX_CAPEBUS_EEPROM_SLOTS_H

#include <linux/types.h>

struct capebus_cape_info;
struct capebus_controller;
struct capebus_eeprom_slots;
struct device;
struct nvmem_device;

/* Most slots one controller's EEPROM slots may have. */
#define CAPEBUS_EEPROM_MAX_SLOTS	8

/**
 * struct capebus_eeprom_ops - what the helper asks of the controller
 * @read: read slot @nr's EEPROM through @nvmem and decode it.  Set *@buf
 *	(kmalloc'ed; the helper frees it) and *@len to the bytes read, even
 *	on failure, for the slot's raw EEPROM attribute; on success fill
 *	@info and, if the EEPROM carries an overlay, set *@overlay
 *	(kvmalloc'ed; the helper owns it then) and *@overlay_len.  Return 0;
 *	-ENODATA for a blank EEPROM (the slot is empty); -EINVAL or -EMSGSIZE
 *	for an image that does not decode, saying why in @why (the slot
 *	fails with it); another error for a chip that stopped answering
 *	(the slot is empty).  Required.
 * @loading: called from the load work just before slot @nr's cape is
 *	handed to the core (capebus_slot_detected()), e.g. to tell it the
 *	bootloader applied the cape's overlay.  Optional.
 *
 * Both are called from the helper's work items, one at a time.
 */
struct capebus_eeprom_ops {
	int (*read)(struct capebus_eeprom_slots *es, unsigned int nr,
		    struct nvmem_device *nvmem, void **buf, size_t *len,
		    struct capebus_cape_info *info, void **overlay,
		    size_t *overlay_len, char *why, size_t why_len);
	void (*loading)(struct capebus_eeprom_slots *es, unsigned int nr,
			const struct capebus_cape_info *info);
};

struct capebus_eeprom_slots *
devm_capebus_eeprom_slots_alloc(struct device *dev, unsigned int max_slots,
				const struct capebus_eeprom_ops *ops,
				void *data, unsigned int *num_slots);
int devm_capebus_eeprom_slots_start(struct capebus_eeprom_slots *es,
				    struct capebus_controller *ctrl);
void *capebus_eeprom_slots_get_data(const struct capebus_eeprom_slots *es);

#endif /* _LINUX_CAPEBUS_EEPROM_SLOTS_H */
