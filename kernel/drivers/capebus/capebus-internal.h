/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capebus: what the files of the capebus module share and nothing else
 * needs.  Controller modules see only include/linux/capebus.h.
 */
#ifndef _CAPEBUS_INTERNAL_H
#define _CAPEBUS_INTERNAL_H

#include <linux/capebus.h>
#include <linux/cleanup.h>
#include <linux/list.h>
#include <linux/mutex.h>

#include "capebus-fdt.h"
#include "capebus-resources.h"

struct module;

/**
 * struct capebus_slot - a hardware slot of a controller
 * @dev: the slot's device, child of the controller (sysfs "slot<N>")
 * @ctrl: the controller
 * @nr: slot number
 * @state: what the slot holds, when it holds no cape device (protected by
 *	the controller's @lock; capebus_slot_state() gives the full answer)
 * @reason: last failure reason, "" if none (protected by @lock)
 * @nvmem: the slot's EEPROM nvmem device (linked as "nvmem"), or NULL;
 *	a reference is held
 * @cape: the cape device in the slot, or NULL (protected by @lock)
 * @desc_info: the cape last detected in the slot, kept while the slot is
 *	disabled so that it can be enabled again
 * @eeprom: the raw bytes read from the slot's EEPROM, or NULL
 * @eeprom_len: bytes at @eeprom
 * @overlay: the overlay from the slot's EEPROM, or NULL
 * @overlay_len: bytes at @overlay
 * @override_image: an ID image userspace stands in for the EEPROM, or NULL
 * @override_len: bytes at @override_image
 * @override_info: the cape @override_image describes, or NULL
 * @override_overlay: the overlay embedded in @override_image, or NULL
 * @override_overlay_len: bytes at @override_overlay
 * @applied_by: what applied the cape's overlay before Linux started, or NULL
 * @told_lock: serializes the slot's uevents, so that they go out in the
 *	order of the states they tell (capebus_slot_announce())
 * @told_state: the state the last uevent told (@told_lock)
 * @told_reason: the reason the last uevent told (@told_lock)
 */
struct capebus_slot {
	struct device dev;
	struct capebus_controller *ctrl;
	unsigned int nr;
	enum capebus_slot_state state;
	char reason[CAPEBUS_REASON_LEN];
	struct device *nvmem;
	struct cape_device *cape;
	struct capebus_cape_info *desc_info;
	void *eeprom;
	size_t eeprom_len;
	void *overlay;
	size_t overlay_len;
	void *override_image;
	size_t override_len;
	struct capebus_cape_info *override_info;
	void *override_overlay;
	size_t override_overlay_len;
	char *applied_by;
	struct mutex told_lock;	/* see above */
	enum capebus_slot_state told_state;
	char told_reason[CAPEBUS_REASON_LEN];
};

/**
 * struct capebus_target - a node cape overlays may add nodes to
 * @np: the node (a reference is held)
 * @pins: the header pins behind it (a bus's lines), empty if none: while a
 *	cape's overlay has it enabled, they are held for the bus
 * @name: what messages call it (its export name, if it has one)
 * @props: the properties cape overlays that enable it may set on it (a
 *	string list, the connector's target-properties), or NULL
 * @props_len: bytes at @props
 * @shared: the board enables it and offers it to every cape (the cape I2C
 *	bus, the bus capes add platform devices to); a target the board leaves
 *	disabled is the capes' that enable it, and only theirs; one the board
 *	enables for itself is no cape's
 * @holder: "the board's <name>", holding @pins of a target the board enables
 *	for itself
 */
struct capebus_target {
	struct device_node *np;
	DECLARE_BITMAP(pins, CAPEBUS_MAX_PINS);
	char name[32];
	char *props;
	size_t props_len;
	bool shared;
	char holder[48];
};

/**
 * struct capebus_export - a node a connector exports to cape overlays
 * @name: the name overlays refer to it by
 * @np: the node
 */
struct capebus_export {
	char *name;
	struct device_node *np;
};

/**
 * struct capebus_controller - a board's cape header
 * @dev: the controller's device, class "capebus", named capebus<N>
 * @nr: the N of capebus<N>
 * @header: the header's pins and rails: the core's copy of what the
 *	controller module described, freed with the controller
 * @ops: what the core may ask of the controller module; NULL once the
 *	controller is unregistered (@transition)
 * @owner: the controller module, while the controller is registered
 *	(@transition): a reference is taken around a call into @ops that
 *	userspace asks for (@decode); never looked at once unregistered
 * @transition: serializes what may wait for drivers and the device tree:
 *	the slots' state transitions, each from its check to its commit, a
 *	cape's addition and removal (its driver's probe and remove, its
 *	overlay applied and removed, @ops->attach and @ops->detach), its
 *	overlay retries, the stuck overlays, and the controller's
 *	unregistration.  No reader takes it: see "Lock order" in
 *	capebus-controller.c
 * @lock: protects the slots' state, reason and cape, the resource table
 *	and which capes are registered; held only for short sections with
 *	nothing under it that waits for a driver, and taken by every reader
 *	of a slot's state
 * @res: the header's pin holders and rail budgets
 * @targets: the only nodes a cape overlay may target, and their pins
 * @num_targets: entries in @targets
 * @platform_compats: the compatibles a cape may give a node the kernel
 *	will make a platform device of
 * @num_platform_compats: entries in @platform_compats
 * @exports: the names cape overlays resolve references through, and the
 *	nodes they stand for (references held)
 * @num_exports: entries in @exports
 * @num_slots: hardware slots
 * @slots: the hardware slots
 * @stuck_capes: capes whose overlay could not be removed, newest first,
 *	each with a reference: added under @lock by whichever path failed
 *	(capebus_cape_mark_stuck()), taken off under @transition and @lock
 *	by capebus_retry_stuck_overlays() after each cape removal and at a
 *	"rescan"; those of a controller that goes wait for the next one of
 *	its connector node, which adopts them
 * @connector: the connector node (the parent's), a reference held, or NULL
 * @limits: what one cape overlay may hold (capebus_fdt_cape_limits unless
 *	a test or bench sets others before registering)
 * @registered: between capebus_controller_register() and
 *	capebus_controller_unregister() (set and cleared under @transition
 *	and @lock)
 */
struct capebus_controller {
	struct device dev;
	int nr;
	const struct capebus_header *header;
	const struct capebus_controller_ops *ops;
	struct module *owner;
	struct mutex transition;	/* what waits for drivers: see above */
	struct mutex lock;	/* slot state, resources, capes; short */
	struct capebus_resources *res;
	struct capebus_target *targets;
	unsigned int num_targets;
	char **platform_compats;
	unsigned int num_platform_compats;
	struct capebus_export *exports;
	unsigned int num_exports;
	unsigned int num_slots;
	struct capebus_slot **slots;
	struct list_head stuck_capes;
	struct device_node *connector;
	struct capebus_fdt_limits limits;
	bool registered;
};

#define to_capebus_controller(d) \
	container_of_const(d, struct capebus_controller, dev)

extern const struct class capebus_class;
extern const struct device_type capebus_cape_type;

/*
 * For the core's EEPROM slots helper and connector-node reader
 * (capebus-eeprom-slots.c, capebus-of.c): documented where defined.
 */
void capebus_controller_enable_parts(struct capebus_controller *ctrl);
int capebus_controller_set_target_props(struct capebus_controller *ctrl,
					struct device_node *np,
					const char *props, size_t len);
bool capebus_target_settable(const struct capebus_target *t,
			     const char *name);
int capebus_controller_set_console_pins(struct capebus_controller *ctrl,
					const unsigned long *pins);
int capebus_controller_set_target_pins(struct capebus_controller *ctrl,
				       struct device_node *np, const char *name,
				       const unsigned long *pins);
void capebus_slot_set_nvmem(struct capebus_slot *slot, struct device *nvmem);
int capebus_slot_set_eeprom(struct capebus_slot *slot, const void *raw,
			    size_t len);

/*
 * capebus-busaddr.c: a bus address as the bus's core will use it.
 * @address_cells and @size_cells are the bus node's; the rest
 * capebus_bus_describe() fills in.
 */
enum capebus_bus_kind {
	CAPEBUS_BUS_MAPPED,	/* sizes, two cells, or platform devices */
	CAPEBUS_BUS_UNNAMED,	/* one cell, no size, its core not known */
	CAPEBUS_BUS_I2C,	/* an I2C adapter's */
	CAPEBUS_BUS_SPI,	/* a node stating its chip selects */
};

/*
 * A 10-bit I2C address is another address than the 7-bit one of its
 * value: kept with this added, as the I2C core compares them
 * (i2c_encode_flags_to_addr()).
 */
#define CAPEBUS_I2C_TEN_BIT_KEY	0xa000

/* The most addresses one node takes (an I2C device's ancillary ones). */
#define CAPEBUS_BUS_MAX_ADDRS	16

struct capebus_bus {
	enum capebus_bus_kind kind;
	u32 address_cells;
	u32 size_cells;
	bool ten_bit;		/* I2C: the adapter does 10-bit addresses */
	u32 num_cs;		/* SPI: its chip selects */
};

void capebus_bus_describe(struct device_node *np, bool live,
			  struct capebus_bus *bus);
int capebus_bus_addrs(const struct capebus_bus *bus, const __be32 *reg,
		      int len, u64 *addrs, char *why, size_t why_len);
bool capebus_bus_holds(const struct capebus_bus *bus, const __be32 *reg,
		       int len, u64 addr);

/* capebus-bus.c: a cape's "currents" format, shared with configfs. */
ssize_t capebus_currents_emit(const struct capebus_header *header,
			      const struct capebus_cape_info *info, char *buf);
int capebus_currents_index(const struct capebus_header *header,
			   const char *name);
int capebus_modalias(const struct cape_device *cape, char *buf, size_t len);

/* capebus-slot.c */
extern const struct device_type capebus_slot_type;
void capebus_slot_announce(struct capebus_slot *slot);
/*
 * Announce @slot's state at the end of the scope: declared after the
 * transition lock's guard and before any of @lock's, it runs once the
 * scope's @lock sections are over and the transition is still held.
 */
DEFINE_CLASS(capebus_slot_told, struct capebus_slot *,
	     capebus_slot_announce(_T), slot, struct capebus_slot *slot);
void capebus_slot_fail_locked(struct capebus_slot *slot, const char *why);
void capebus_slot_reason(struct capebus_slot *slot, char *buf, size_t len);
int capebus_slot_disable(struct capebus_slot *slot, bool disable);
ssize_t capebus_slot_read_eeprom(struct capebus_slot *slot, char *buf,
				 loff_t off, size_t count);
int capebus_slot_override(struct capebus_slot *slot, const void *image,
			  size_t len, char *why, size_t why_len);
ssize_t capebus_slot_read_override(struct capebus_slot *slot, void *buf,
				   size_t count);

/* capebus-controller.c */
int capebus_controller_set_fdt_limits(struct capebus_controller *ctrl,
				      const struct capebus_fdt_limits *limits);
struct cape_device *__capebus_cape_add(struct capebus_controller *ctrl,
				       const struct capebus_cape_desc *desc,
				       char *why, size_t why_len);
void __capebus_cape_remove(struct cape_device *cape);
int __capebus_cape_retry_overlay(struct cape_device *cape, char *why,
				 size_t why_len);
int capebus_cape_retry_overlay(struct cape_device *cape, char *why,
			       size_t why_len);
unsigned int capebus_controller_retry_overlays(struct capebus_controller *ctrl);
void capebus_cape_mark_stuck(struct cape_device *cape);
bool capebus_controller_platform_compatible(struct capebus_controller *ctrl,
					    const char *compatible);
bool capebus_controller_has_target(struct capebus_controller *ctrl,
				   struct device_node *np);
const struct capebus_target *
capebus_controller_target(struct capebus_controller *ctrl,
			  struct device_node *np);
size_t capebus_cape_note(const struct cape_device *cape, char *buf, size_t len);
int capebus_controller_decode(struct capebus_controller *ctrl,
			      const void *image, size_t len,
			      struct capebus_cape_info *info,
			      const void **overlay, size_t *overlay_len,
			      char *why, size_t why_len);

/* capebus-partno.c: the disable_partno and enable_partno parameters. */
bool capebus_partno_disabled(const struct capebus_cape_info *info);
const char *capebus_partno_enabled(void);

/* capebus-parents.c: no driver below a cape's own devices. */
int capebus_parents_init(void);
void capebus_parents_exit(void);

/* capebus-enable.c: cape targets enabled for the capes that ask. */
int capebus_overlay_bus_pins(struct cape_device *cape,
			     const unsigned long *muxed, unsigned long *pins,
			     unsigned long *shared, char *why, size_t why_len);
int capebus_overlay_enable(struct cape_device *cape, char *why, size_t why_len);
int capebus_overlay_verify_target_prop(struct cape_device *cape,
				       struct device_node *target,
				       const char *name, const void *value,
				       u32 len, char *why, size_t why_len);
int capebus_overlay_enable_commit(struct cape_device *cape, char *why,
				  size_t why_len);
bool capebus_overlay_enables(const struct cape_device *cape,
			     const struct device_node *np);
bool capebus_enable_owner(struct device_node *np, char *buf, size_t len);
void capebus_overlay_disable(struct cape_device *cape);
int capebus_enable_adopt(struct cape_device *cape,
			 struct capebus_controller *ctrl, char *why,
			 size_t why_len);
void capebus_enable_exit(void);
void capebus_controller_exit(void);

/* capebus-target.c: the device of a target capebus enables. */
struct of_changeset;
int capebus_target_enable(struct device_node *np, struct of_changeset *cs,
			  bool *applied);
int capebus_target_disable(struct device_node *np, struct of_changeset *cs);

/*
 * A registered cape's state word: loaded once a driver's probe returned
 * (capebus-bus.c keeps @bound), detected before and while it runs.
 */
static inline enum capebus_slot_state
capebus_cape_state(const struct cape_device *cape)
{
	return READ_ONCE(cape->bound) ? CAPEBUS_SLOT_LOADED :
					CAPEBUS_SLOT_DETECTED;
}

/* capebus-overlay.c */
int capebus_overlay_check(struct cape_device *cape, unsigned long *pins,
			  bool *declared, char *why, size_t why_len);
int capebus_overlay_apply(struct cape_device *cape);
int capebus_overlay_revert(struct cape_device *cape, bool quiet);
void capebus_overlay_forget(struct cape_device *cape);
int capebus_overlay_init(void);
void capebus_overlay_exit(void);

/* capebus-configfs.c */
#if IS_ENABLED(CONFIG_CAPEBUS_CONFIGFS)
int capebus_configfs_init(void);
void capebus_configfs_exit(void);
int capebus_configfs_add_controller(struct capebus_controller *ctrl);
void capebus_configfs_remove_controller(struct capebus_controller *ctrl);
#else
static inline int capebus_configfs_init(void) { return 0; }
static inline void capebus_configfs_exit(void) { }
static inline int
capebus_configfs_add_controller(struct capebus_controller *ctrl) { return 0; }
static inline void
capebus_configfs_remove_controller(struct capebus_controller *ctrl) { }
#endif

#endif /* _CAPEBUS_INTERNAL_H */
