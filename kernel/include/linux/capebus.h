/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capebus: expansion boards ("capes") on a board's expansion header, as
 * devices on the driver core.
 *
 * A board controller (for example the BeagleBone one, drivers/capebus/bone.c)
 * registers a struct capebus_controller with a number of hardware slots.  For
 * every cape it finds (from the slot's ID EEPROM) or that userspace declares
 * (configfs), it hands the core a struct capebus_cape_desc; the core checks
 * the cape's overlay against the board's rules, claims its header pins and
 * rail currents and registers a struct cape_device on the capebus bus, where
 * a cape driver (or the generic cape driver, which applies the cape's
 * device-tree overlay) binds to it.
 *
 * See Documentation/capebus/overview.rst.
 */
#ifndef _LINUX_CAPEBUS_H
#define _LINUX_CAPEBUS_H

#include <linux/bitmap.h>
#include <linux/device.h>
#include <linux/mod_devicetable.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <uapi/linux/capebus.h>

struct cape_eeprom;
struct capebus_claim;
struct capebus_resources;
struct device_node;

/* Header signals a cape can claim: the words of an A1 EEPROM. */
#define CAPEBUS_HEADER_PINS	CAPE_EEPROM_A1_NUM_PINS

/**
 * struct cape_device_id - what a cape driver binds to
 * @part_number: the EEPROM part number, matched exactly; required
 * @version: the hardware version ("00A0"); empty matches any version
 * @board_name: the EEPROM board name; empty matches any board name
 * @driver_data: for the driver
 *
 * A table of these ends with an entry whose @part_number is empty.
 */
struct cape_device_id {
	char part_number[CAPE_EEPROM_PART_NUMBER_LEN + 1];
	char version[CAPE_EEPROM_VERSION_LEN + 1];
	char board_name[CAPE_EEPROM_BOARD_NAME_LEN + 1];
	kernel_ulong_t driver_data;
};

/**
 * enum capebus_slot_state - what a slot holds, as sysfs shows it
 * @CAPEBUS_SLOT_EMPTY: no cape (no EEPROM, a blank one, or not read yet)
 * @CAPEBUS_SLOT_DETECTED: a cape device exists, no driver bound to it
 * @CAPEBUS_SLOT_LOADED: a cape device exists and a driver is bound
 * @CAPEBUS_SLOT_FAILED: the cape was refused; the slot's reason says why
 * @CAPEBUS_SLOT_DISABLED: a cape was found but is not loaded (disable_partno
 *	or configfs); its description is kept so it can be enabled again
 */
enum capebus_slot_state {
	CAPEBUS_SLOT_EMPTY,
	CAPEBUS_SLOT_DETECTED,
	CAPEBUS_SLOT_LOADED,
	CAPEBUS_SLOT_FAILED,
	CAPEBUS_SLOT_DISABLED,
};

/*
 * capebus_cape_desc.slot for "the lowest virtual slot no cape is in", chosen
 * by capebus_cape_add() under the controller's lock.
 */
#define CAPEBUS_SLOT_ANY_VIRTUAL	UINT_MAX

/* Longest reason a slot or a refused cape reports, with its NUL. */
#define CAPEBUS_REASON_LEN	256

/**
 * struct capebus_cape_desc - a cape, as the core is asked to add it
 * @ee: the decoded identity, pin words and currents (see capebus-eeprom.h);
 *	copied by the core
 * @slot: slot number: below the controller's number of slots a hardware
 *	slot (which must hold no cape), above it a virtual slot (configfs,
 *	enable_partno=) which must be unused; %CAPEBUS_SLOT_ANY_VIRTUAL for
 *	the lowest unused virtual slot
 * @overlay: a flattened device-tree overlay, or NULL to look for the
 *	firmware file "<part_number>-<version>.dtbo"; copied by the core
 * @overlay_len: bytes at @overlay
 * @overlay_source: where @overlay comes from, shown in sysfs ("eeprom",
 *	"configfs"); ignored when @overlay is NULL
 * @extra_pins: header pins the cape uses besides those its EEPROM words and
 *	its overlay's exclusive-use name (configfs "pins"); may be all clear
 * @detected: set by capebus_slot_detected() for a cape read from a slot's
 *	EEPROM; declared capes leave it false
 */
struct capebus_cape_desc {
	const struct cape_eeprom *ee;
	unsigned int slot;
	const void *overlay;
	size_t overlay_len;
	const char *overlay_source;
	DECLARE_BITMAP(extra_pins, CAPEBUS_HEADER_PINS);
	bool detected;
};

/**
 * struct capebus_slot - a hardware slot of a controller
 * @dev: the slot's device, child of the controller (sysfs "slot<N>")
 * @ctrl: the controller
 * @nr: slot number
 * @state: what the slot holds, when it holds no cape device (protected by
 *	the controller's @lock; capebus_slot_state() gives the full answer)
 * @reason: last failure reason, "" if none (protected by @lock)
 * @nvmem_name: name of the slot's EEPROM nvmem device, "" if none
 * @cape: the cape device in the slot, or NULL (protected by @lock)
 * @desc_ee: the decoded EEPROM of the cape last detected in the slot, kept
 *	while the slot is disabled so that it can be enabled again
 * @eeprom: the raw bytes read from the slot's EEPROM, or NULL
 * @eeprom_len: bytes at @eeprom
 * @overlay: the overlay from the EEPROM's extension record, or NULL
 * @overlay_len: bytes at @overlay
 */
struct capebus_slot {
	struct device dev;
	struct capebus_controller *ctrl;
	unsigned int nr;
	enum capebus_slot_state state;
	char reason[CAPEBUS_REASON_LEN];
	char nvmem_name[32];
	struct cape_device *cape;
	struct cape_eeprom *desc_ee;
	void *eeprom;
	size_t eeprom_len;
	void *overlay;
	size_t overlay_len;
};

/**
 * struct capebus_controller - a board's cape header
 * @dev: the controller's device, class "capebus", named capebus<N>
 * @nr: the N of capebus<N>
 * @lock: protects the slots, the resource table and the set of capes;
 *	see "Lock order" in drivers/capebus/capebus-core.c
 * @res: the header's pin holders and rail budgets
 * @targets: the only nodes a cape overlay may target (references held)
 * @num_targets: entries in @targets
 * @refs: nodes a cape overlay may refer to besides @targets (references
 *	held), e.g. the header's GPIO controller
 * @num_refs: entries in @refs
 * @num_slots: hardware slots
 * @slots: the hardware slots
 * @stuck_capes: capes removed whose overlay could not be (@lock), newest
 *	first; their removal is tried again after each overlay removal
 * @registered: between capebus_controller_register() and
 *	capebus_controller_unregister()
 */
struct capebus_controller {
	struct device dev;
	int nr;
	struct mutex lock;	/* slots, resources, capes */
	struct capebus_resources *res;
	struct device_node **targets;
	unsigned int num_targets;
	struct device_node **refs;
	unsigned int num_refs;
	unsigned int num_slots;
	struct capebus_slot **slots;
	struct list_head stuck_capes;
	bool registered;
};

/**
 * struct cape_device - a cape on a controller
 * @dev: the device on the capebus bus, child of the controller
 * @ctrl: the controller (a reference is held)
 * @slot: the hardware slot, or NULL for a virtual slot
 * @slot_nr: the slot number (hardware or virtual)
 * @ee: the decoded EEPROM (identity, pin words, currents)
 * @overlay: the cape's device-tree overlay, or NULL
 * @overlay_len: bytes at @overlay
 * @overlay_source: "eeprom", "firmware <name>", "configfs" or "none"
 * @holder: the name the pin table shows for this cape, "<part> (slot <N>)"
 * @claim: the pins and currents the cape holds (private to the core)
 * @ovcs_id: overlay changeset id while the overlay is applied, else 0
 * @overlay_stuck: the overlay could not be removed; the cape's pins stay
 *	held and its memory is kept
 * @stuck_node: on the controller's @stuck_capes once unregistered while
 *	@overlay_stuck
 * @apply_err: error of the last overlay apply, 0 if it succeeded
 * @apply_why: what went wrong with the last overlay apply, "" if nothing
 * @apply_ns: how long the last overlay apply took
 * @registered: between device_add() and device_del() (controller's @lock)
 * @detected: read from a slot's EEPROM (not declared)
 */
struct cape_device {
	struct device dev;
	struct capebus_controller *ctrl;
	struct capebus_slot *slot;
	unsigned int slot_nr;
	struct cape_eeprom *ee;
	void *overlay;
	size_t overlay_len;
	char *overlay_source;
	char holder[CAPE_EEPROM_PART_NUMBER_LEN + 24];
	struct capebus_claim *claim;
	int ovcs_id;
	bool overlay_stuck;
	struct list_head stuck_node;
	int apply_err;
	char apply_why[CAPEBUS_REASON_LEN];
	u64 apply_ns;
	bool registered;
	bool detected;
};

#define to_cape_device(d)	container_of_const(d, struct cape_device, dev)
#define to_capebus_controller(d) \
	container_of_const(d, struct capebus_controller, dev)

/**
 * struct capebus_driver - a driver for capes
 * @probe: bind to a cape; @id is the matching entry of @id_table (NULL for
 *	the generic driver)
 * @remove: unbind
 * @id_table: capes this driver handles, ended by an empty part number
 * @driver: the driver core's driver
 */
struct capebus_driver {
	int (*probe)(struct cape_device *cape, const struct cape_device_id *id);
	void (*remove)(struct cape_device *cape);
	const struct cape_device_id *id_table;
	struct device_driver driver;
};

#define to_capebus_driver(d)	container_of_const(d, struct capebus_driver, driver)

extern const struct bus_type capebus_bus_type;
extern const struct class capebus_class;

int __capebus_driver_register(struct capebus_driver *drv, struct module *owner);
#define capebus_driver_register(drv) __capebus_driver_register(drv, THIS_MODULE)
void capebus_driver_unregister(struct capebus_driver *drv);

/**
 * module_capebus_driver() - register a cape driver from module init/exit
 * @__capebus_driver: the struct capebus_driver
 */
#define module_capebus_driver(__capebus_driver) \
	module_driver(__capebus_driver, capebus_driver_register, \
		      capebus_driver_unregister)

/* Overlay helpers for cape drivers (the generic driver uses these). */
int capebus_cape_apply_overlay(struct cape_device *cape);
void capebus_cape_revert_overlay(struct cape_device *cape);

/* Controller side. */
struct capebus_controller *
capebus_controller_alloc(struct device *parent, unsigned int num_slots);
int capebus_controller_set_resources(struct capebus_controller *ctrl,
				     const u32 *budget_ma,
				     const unsigned long *board_pins,
				     const unsigned long *shared_pins);
int capebus_controller_register(struct capebus_controller *ctrl);
void capebus_controller_unregister(struct capebus_controller *ctrl);
void capebus_controller_put(struct capebus_controller *ctrl);
void capebus_controller_enable_parts(struct capebus_controller *ctrl);

struct capebus_slot *capebus_slot(struct capebus_controller *ctrl,
				  unsigned int nr);
enum capebus_slot_state capebus_slot_state(struct capebus_slot *slot);
const char *capebus_slot_state_name(enum capebus_slot_state state);
void capebus_slot_reason(struct capebus_slot *slot, char *buf, size_t len);
void capebus_slot_set_nvmem(struct capebus_slot *slot, const char *name);
void capebus_slot_set_empty(struct capebus_slot *slot);
__printf(2, 3)
void capebus_slot_set_failed(struct capebus_slot *slot, const char *fmt, ...);
int capebus_slot_set_eeprom(struct capebus_slot *slot, const void *raw,
			    size_t len);
int capebus_slot_detected(struct capebus_slot *slot,
			  const struct cape_eeprom *ee,
			  const void *overlay, size_t overlay_len);
int capebus_slot_disable(struct capebus_slot *slot, bool disable);
ssize_t capebus_slot_read_eeprom(struct capebus_slot *slot, char *buf,
				 loff_t off, size_t count);

struct cape_device *capebus_cape_add(struct capebus_controller *ctrl,
				     const struct capebus_cape_desc *desc,
				     char *why, size_t why_len);
void capebus_cape_remove(struct cape_device *cape);

/**
 * capebus_cape_get() - take a reference on a cape device
 * @cape: the cape
 *
 * Return: @cape.
 */
static inline struct cape_device *capebus_cape_get(struct cape_device *cape)
{
	get_device(&cape->dev);
	return cape;
}

/**
 * capebus_cape_put() - drop a reference taken by capebus_cape_get() or
 *	returned by capebus_cape_add()
 * @cape: the cape, or NULL
 */
static inline void capebus_cape_put(struct cape_device *cape)
{
	if (cape)
		put_device(&cape->dev);
}

#endif /* _LINUX_CAPEBUS_H */
