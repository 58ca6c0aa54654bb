/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capebus: add-on boards ("capes") on a board's expansion header, as devices
 * on the driver core.
 *
 * A controller module (one per board family, in a directory of its own
 * under drivers/capebus/) describes its header (its family, named pins,
 * named power rails) and registers a struct capebus_controller with a
 * number of hardware slots.
 * For every cape it finds (reading the slot's ID EEPROM in its own format)
 * and for every cape userspace declares (configfs), the core is handed a
 * struct capebus_cape_desc: identity strings, the header pins the cape uses,
 * its current per rail, and a device-tree overlay.  The core checks the
 * overlay against the connector's rules, claims the pins and currents and
 * registers a struct cape_device on the capebus bus, where a cape driver (or
 * the generic cape driver, which applies the overlay) binds to it.
 *
 * Nothing here knows an EEPROM format.  See Documentation/capebus/.
 */
#ifndef _LINUX_CAPEBUS_H
#define _LINUX_CAPEBUS_H

#include <linux/bitmap.h>
#include <linux/bits.h>
#include <linux/device.h>
#include <linux/limits.h>
#include <linux/mod_devicetable.h>
#include <linux/types.h>
#include <linux/uuid.h>

struct capebus_controller;
struct capebus_slot;
struct capebus_claim;
struct cape_device;
struct device_node;
struct module;

/* Most header pins and power rails a controller's header may have. */
#define CAPEBUS_MAX_PINS	96
#define CAPEBUS_MAX_RAILS	4

/*
 * Longest identity string, with its NUL; longest ID format name, with its
 * NUL; longest pin setting, with its NUL; longest overlay file name, with
 * its NUL.
 */
#define CAPEBUS_TEXT_LEN	256
#define CAPEBUS_FORMAT_LEN	16
#define CAPEBUS_SETTING_LEN	32
#define CAPEBUS_FILE_LEN	(2 * CAPEBUS_TEXT_LEN + 8)

/*
 * Longest family name, with its NUL (struct cape_device_id's, in
 * <linux/mod_devicetable.h>).
 */
#define CAPEBUS_FAMILY_LEN	CAPEBUS_FAMILY_SIZE

/* Longest reason a slot or a refused cape reports, with its NUL. */
#define CAPEBUS_REASON_LEN	256

/* A rail budget that is never exceeded. */
#define CAPEBUS_BUDGET_UNLIMITED	U32_MAX

/**
 * enum capebus_text - the identity strings of a cape
 * @CAPEBUS_BOARD_NAME: the board's name, e.g. "Weather Cape"
 * @CAPEBUS_VERSION: hardware version, e.g. "A2"; may be part of the
 *	firmware file name, so never contains '/'
 * @CAPEBUS_MANUFACTURER: who made it
 * @CAPEBUS_PART_NUMBER: the part number drivers match; never empty, never
 *	contains '/'
 * @CAPEBUS_SERIAL: serial number
 * @CAPEBUS_NUM_TEXTS: number of identity strings
 */
enum capebus_text {
	CAPEBUS_BOARD_NAME,
	CAPEBUS_VERSION,
	CAPEBUS_MANUFACTURER,
	CAPEBUS_PART_NUMBER,
	CAPEBUS_SERIAL,
	CAPEBUS_NUM_TEXTS,
};

/* A header pin with no GPIO code (struct capebus_header.gpio_codes). */
#define CAPEBUS_GPIO_NONE	U32_MAX

/**
 * struct capebus_header - what a controller's header offers capes
 * @name: the header's kind, e.g. "p1" (shown nowhere; for messages)
 * @family: the board family, a short lower-case word ([a-z0-9_-], at most
 *	%CAPEBUS_FAMILY_LEN - 1 bytes): the "f" field of a cape's MODALIAS
 *	and what a cape driver's id table names, so that a driver for one
 *	family never binds another family's cape with the same part number;
 *	required
 * @pin_names: the header pins a cape may use, by index, e.g. "P9.19"
 * @num_pins: entries in @pin_names, at most %CAPEBUS_MAX_PINS
 * @rail_names: the power rails capes draw from, e.g. "vdd-3v3b"
 * @num_rails: entries in @rail_names, at most %CAPEBUS_MAX_RAILS
 * @text_max: per identity string, the longest value the header's capes can
 *	state (its ID format's field size); 0 for CAPEBUS_TEXT_LEN - 1
 * @gpio_codes: if the connector is a GPIO nexus (gpio-map), per pin of
 *	@pin_names the code a GPIO specifier's first cell names it by, or
 *	%CAPEBUS_GPIO_NONE; NULL if the connector is no nexus.  A cape may
 *	use the GPIOs of the pins it declares only.
 * @default_version: the version a part named without one has (the
 *	enable_partno parameter), or NULL for none
 * @partno_params: the capebus.disable_partno and capebus.enable_partno
 *	parameters apply to this header's capes (a family whose users know
 *	them); the EEPROM slots helper loads enable_partno's parts after
 *	its first look at the slots
 *
 * Data only.  The core copies it, strings and tables, when a controller is
 * allocated, and never looks at the controller module's again: the copy
 * lives as long as the controller, which may outlive its module (configfs
 * keeps a controller whose capes are declared).
 */
struct capebus_header {
	const char *name;
	const char *const *pin_names;
	unsigned int num_pins;
	const char *const *rail_names;
	unsigned int num_rails;
	unsigned int text_max[CAPEBUS_NUM_TEXTS];
	const u32 *gpio_codes;
	const char *family;
	const char *default_version;
	bool partno_params;
};

/* Which numeric identity fields a cape's ID states (capebus_cape_info.ids). */
#define CAPEBUS_ID_UUID			BIT(0)
#define CAPEBUS_ID_VENDOR		BIT(1)
#define CAPEBUS_ID_PRODUCT		BIT(2)
#define CAPEBUS_ID_PRODUCT_VERSION	BIT(3)

/**
 * struct capebus_cape_info - a cape, as its controller describes it
 * @text: the identity strings (enum capebus_text), NUL-terminated
 * @format: the ID format the controller read, e.g. "V2"; "" for a cape
 *	declared field by field
 * @ids: which of @uuid, @vendor_id, @product_id and @product_version the
 *	ID states (CAPEBUS_ID_*); sysfs shows only those
 * @uuid: a unique id of the cape (of the product or of the unit, as the
 *	family's ID format has it)
 * @vendor_id: the vendor's number
 * @product_id: the product's number
 * @product_version: the product's version number
 * @overlay_name: an overlay the ID names (some formats name one rather
 *	than carry it), "" if none; the controller's @overlay_name op makes
 *	a firmware file name of it
 * @pins: the header pins the cape uses (indexes into the header's pins)
 * @pin_setting: per pin in @pins, how the cape uses it, in the controller's
 *	words (e.g. "mode3 bidir pull-up rx slow"); may be ""
 * @current_ma: current the cape draws per rail (indexes into the header's
 *	rails), mA
 * @supplied_ma: current the cape can feed the header, mA (0: none)
 *
 * About 5 KiB: allocate it, do not put it on the stack.
 */
struct capebus_cape_info {
	char text[CAPEBUS_NUM_TEXTS][CAPEBUS_TEXT_LEN];
	char format[CAPEBUS_FORMAT_LEN];
	unsigned int ids;
	uuid_t uuid;
	u32 vendor_id;
	u32 product_id;
	u32 product_version;
	char overlay_name[CAPEBUS_TEXT_LEN];
	DECLARE_BITMAP(pins, CAPEBUS_MAX_PINS);
	char pin_setting[CAPEBUS_MAX_PINS][CAPEBUS_SETTING_LEN];
	u32 current_ma[CAPEBUS_MAX_RAILS];
	u32 supplied_ma;
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

/**
 * struct capebus_cape_desc - a cape, as the core is asked to add it
 * @info: identity, pins and currents; copied by the core
 * @slot: slot number: below the controller's number of slots a hardware
 *	slot (which must hold no cape), above it a virtual slot (configfs,
 *	enable_partno=) which must be unused; %CAPEBUS_SLOT_ANY_VIRTUAL for
 *	the lowest unused virtual slot
 * @overlay: a flattened device-tree overlay, or NULL to look for the
 *	firmware file the controller names (its @overlay_name op); copied by
 *	the core
 * @overlay_len: bytes at @overlay
 * @overlay_source: where @overlay comes from, shown in sysfs ("eeprom",
 *	"configfs"); ignored when @overlay is NULL
 * @extra_pins: header pins the cape uses besides @info's and those its
 *	overlay's exclusive-use names (configfs "pins"), or NULL
 * @detected: the cape was read from a slot's ID EEPROM (set by
 *	capebus_slot_detected()); declared capes leave it false
 * @applied_by: the cape's overlay is in the live tree already, applied
 *	before Linux started; what says so (e.g. the bootloader's record of
 *	the overlays it applied), shown in the cape's state.  The cape then
 *	gets no overlay of capebus's (@overlay is ignored), holds its pins as
 *	any other and stays until reboot.  NULL for every other cape.
 */
struct capebus_cape_desc {
	const struct capebus_cape_info *info;
	unsigned int slot;
	const void *overlay;
	size_t overlay_len;
	const char *overlay_source;
	const unsigned long *extra_pins;
	bool detected;
	const char *applied_by;
};

/**
 * struct capebus_controller_ops - what the core may ask of a controller
 * @decode: turn an ID image of the header's format (a cape EEPROM written to
 *	configfs) into @info and, if the image embeds one, an overlay
 *	(pointing into @image); on failure say why in @why.  Optional: without
 *	it, images are refused.
 * @overlay_name: the firmware file to look for as the overlay of a cape
 *	that comes with none (from its identity, e.g. "<part>-<version>.dtbo",
 *	or from @info->overlay_name): write it to @name, "" for none.  The
 *	core refuses a name that starts with '/' or has a ".." in it.
 *	Optional: without it, such a cape has no overlay.
 * @attach: do what the connector does for a cape before its device is
 *	registered, once the cape's pins and currents are claimed: set the
 *	header pins up as the cape uses them (mux the pads behind them
 *	through the board's pin controller, from the pin settings of
 *	@cape->info, or for every pin capebus_cape_pins() gives), but for
 *	@cape->shared_pins: a bus another cape enabled has their pads muxed
 *	with the same settings already, and holds them.  The core
 *	knows no pin controller: pin setting is the controller's alone.  On
 *	failure say why in @why: the cape is refused and nothing else
 *	happens.  Optional.
 * @detach: undo @attach; called exactly once for every cape @attach
 *	succeeded for, after its device is deleted or when its registration
 *	is unwound.  Optional.
 * @settle: capebus's hold on the header changed without an @attach or a
 *	@detach: a stuck cape's overlay came off after all (its pins, and
 *	those of the buses it kept enabled, are let go), or the controller
 *	adopted the stuck capes of its connector's last controller, with the
 *	buses their overlays keep enabled.  Bring what the connector holds
 *	for capes in line (capebus_controller_pins_unheld(),
 *	capebus_enabled_bus_of()): pads nothing holds go back as the board
 *	had them.  Optional.
 *
 * The core calls them only while the controller is registered, with its
 * transition lock held (so one at a time per controller), never with its
 * lock held; capebus_controller_unregister() takes the transition lock,
 * detaches every cape and forgets @ops, so that nothing of the controller
 * module is called once it has returned.  They must not add or remove capes
 * or change slot states of their controller.
 */
struct capebus_controller_ops {
	int (*decode)(struct capebus_controller *ctrl, const void *image,
		      size_t len, struct capebus_cape_info *info,
		      const void **overlay, size_t *overlay_len,
		      char *why, size_t why_len);
	int (*overlay_name)(struct capebus_controller *ctrl,
			    const struct capebus_cape_info *info, char *name,
			    size_t len);
	int (*attach)(struct capebus_controller *ctrl, struct cape_device *cape,
		      char *why, size_t why_len);
	void (*detach)(struct capebus_controller *ctrl,
		       struct cape_device *cape);
	void (*settle)(struct capebus_controller *ctrl);
};

/**
 * struct cape_device - a cape on a controller
 * @dev: the device on the capebus bus, child of the controller
 * @ctrl: the controller (a reference is held)
 * @slot: the hardware slot, or NULL for a virtual slot
 * @slot_nr: the slot number (hardware or virtual)
 * @info: identity, pins and currents, fixed for the cape's life
 * @overlay: the cape's device-tree overlay, or NULL
 * @overlay_len: bytes at @overlay
 * @resolved: @overlay resolved through the connector's exports: the blob
 *	that is applied (capebus-fdt.c)
 * @resolved_len: bytes at @resolved
 * @overlay_source: "eeprom", "firmware", "configfs", "bootloader" (applied
 *	before Linux started: @applied_by) or "none"
 * @overlay_file: the firmware file name looked up, "" if none was
 * @overlay_err: why the firmware file gave no overlay (-ENOENT: not found),
 *	0 if it did or none was looked up; capebus_cape_retry_overlay()
 *	looks again
 * @holder: the name the pin table shows for this cape, "<part> (slot <N>)"
 * @claim: the pins and currents the cape holds (private to the core)
 * @ovcs_id: overlay changeset id while the overlay is applied, else 0
 * @overlay_stuck: the overlay could not be removed; the cape's pins stay
 *	held and its memory is kept
 * @stuck_node: on a controller's list of stuck capes while @overlay_stuck
 *	(whichever path failed to remove the overlay), until a retry
 *	removes it; after its controller went, on the list of those its
 *	connector's next controller adopts
 * @apply_err: error of the last overlay apply, 0 if it succeeded
 * @apply_refused: the last overlay apply broke the connector's rules
 *	(@apply_why names the rule); nothing was applied
 * @apply_why: what went wrong with the last overlay apply, "" if nothing
 * @apply_ns: how long the last overlay apply took
 * @resolve_ns: how long resolving the overlay took (capebus_overlay_check())
 * @verify_ns: how much of @apply_ns verifying the overlay took
 * @registered: from just before device_add() to just before device_del();
 *	set and cleared with both the controller's transition lock and its
 *	lock held, so either is enough to read it
 * @detected: read from a slot's ID EEPROM (not declared)
 * @bound: a driver's probe completed and its unbinding has not begun (the
 *	driver core's BUS_NOTIFY_BOUND_DRIVER and _UNBIND_DRIVER): what
 *	"loaded" means, where dev.driver is set for the whole of a probe
 * @enabled: the cape targets the board left disabled that capebus enabled
 *	for this cape's overlay (references held)
 * @num_enabled: entries in @enabled
 * @over_budget: granted although a rail is over its budget (the default:
 *	a plugged-in cape draws its current whether or not it is loaded)
 * @budget_why: which rails, when @over_budget
 * @attached: the controller's @attach succeeded and @detach is still due
 *	(controller's transition lock)
 * @ctrl_data: the controller module's, between @attach and @detach
 * @shared_pins: pins of @info whose pads a bus other capes enabled has muxed
 *	already with the cape's own pin words (set before @attach): the
 *	controller's @attach leaves them as they are
 * @applied_by: for a cape whose overlay was applied before Linux started,
 *	what says so (&capebus_cape_desc.applied_by); else NULL
 *
 * Cape drivers use @dev and the accessors below; the rest is the core's.
 */
struct cape_device {
	struct device dev;
	struct capebus_controller *ctrl;
	struct capebus_slot *slot;
	unsigned int slot_nr;
	struct capebus_cape_info *info;
	void *overlay;
	size_t overlay_len;
	void *resolved;
	size_t resolved_len;
	const char *overlay_source;
	char overlay_file[CAPEBUS_FILE_LEN];
	int overlay_err;
	char holder[CAPEBUS_TEXT_LEN + 24];
	struct capebus_claim *claim;
	int ovcs_id;
	bool overlay_stuck;
	struct list_head stuck_node;
	int apply_err;
	bool apply_refused;
	char apply_why[CAPEBUS_REASON_LEN];
	u64 apply_ns;
	u64 resolve_ns;
	u64 verify_ns;
	bool registered;
	bool detected;
	bool bound;
	struct device_node *enabled[8];
	unsigned int num_enabled;
	bool over_budget;
	char budget_why[CAPEBUS_REASON_LEN];
	bool attached;
	void *ctrl_data;
	DECLARE_BITMAP(shared_pins, CAPEBUS_MAX_PINS);
	const char *applied_by;
};

#define to_cape_device(d)	container_of_const(d, struct cape_device, dev)

/**
 * cape_text() - one of a cape's identity strings
 * @cape: the cape
 * @which: which string
 *
 * Return: the string, "" if the cape has none.
 */
static inline const char *cape_text(const struct cape_device *cape,
				    enum capebus_text which)
{
	return cape->info->text[which];
}

const char *cape_family(const struct cape_device *cape);
void capebus_cape_pins(const struct cape_device *cape, unsigned long *pins);
bool capebus_enabled_bus_of(struct capebus_controller *ctrl, unsigned int pin,
			    unsigned long *pins);
void capebus_controller_pins_unheld(struct capebus_controller *ctrl,
				    unsigned long *pins);

/**
 * struct capebus_board_pads - a connector's pads as the board had them
 * @known: the header pins whose pads the controller module changed for
 *	capes and has not put back, their values in @value
 * @value: per pin of @known, its pad's value before capes changed it, in
 *	the controller module's encoding
 *
 * Kept by the core per connector node (capebus_controller_board_pads()):
 * a stuck cape, and a bus its overlay keeps enabled, keep their pads as
 * they are past their controller, and the connector's next controller
 * puts them back.
 */
struct capebus_board_pads {
	DECLARE_BITMAP(known, CAPEBUS_MAX_PINS);
	u32 value[CAPEBUS_MAX_PINS];
};

struct capebus_board_pads *
capebus_controller_board_pads(struct capebus_controller *ctrl);

/**
 * CAPE_DEVICE() - an id table entry: a part of a family, any version
 * @fam: the family (struct capebus_header.family)
 * @part: the part number
 */
#define CAPE_DEVICE(fam, part) \
	.family = (fam), .part_number = (part)

/**
 * struct capebus_driver - a driver for capes
 * @probe: bind to a cape; @id is the matching entry of @id_table (NULL for
 *	the generic driver)
 * @remove: unbind
 * @id_table: capes this driver handles (each entry names the family),
 *	ended by an empty part number
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
__capebus_controller_alloc(struct device *parent,
			   const struct capebus_header *header,
			   const struct capebus_controller_ops *ops,
			   unsigned int num_slots, struct module *owner);
#define capebus_controller_alloc(parent, header, ops, num_slots) \
	__capebus_controller_alloc(parent, header, ops, num_slots, THIS_MODULE)
struct capebus_controller *
__devm_capebus_controller_alloc(struct device *parent,
				const struct capebus_header *header,
				const struct capebus_controller_ops *ops,
				unsigned int num_slots, struct module *owner);
#define devm_capebus_controller_alloc(parent, header, ops, num_slots) \
	__devm_capebus_controller_alloc(parent, header, ops, num_slots, \
					THIS_MODULE)
int capebus_controller_set_resources(struct capebus_controller *ctrl,
				     const u32 *budget_ma,
				     const unsigned long *board_pins,
				     const unsigned long *shared_pins);
int capebus_controller_hold_board_pins(struct capebus_controller *ctrl,
				       const unsigned long *pins);
int capebus_controller_add_target(struct capebus_controller *ctrl,
				  struct device_node *np);
int capebus_controller_add_platform_compatible(struct capebus_controller *ctrl,
					       const char *compatible);
int capebus_controller_add_export(struct capebus_controller *ctrl,
				  const char *name, struct device_node *np);
int capebus_controller_of_read(struct capebus_controller *ctrl,
			       struct device *dev);
int capebus_controller_register(struct capebus_controller *ctrl);
int devm_capebus_controller_register(struct device *dev,
				     struct capebus_controller *ctrl);
void capebus_controller_unregister(struct capebus_controller *ctrl);
void capebus_controller_put(struct capebus_controller *ctrl);
void capebus_controller_set_drvdata(struct capebus_controller *ctrl,
				    void *data);
void *capebus_controller_get_drvdata(const struct capebus_controller *ctrl);
const char *capebus_controller_name(const struct capebus_controller *ctrl);
int capebus_header_pin_index(const struct capebus_header *header,
			     const char *name);
int capebus_header_gpio_pin(const struct capebus_header *header, u32 code);

struct capebus_slot *capebus_slot(struct capebus_controller *ctrl,
				  unsigned int nr);
enum capebus_slot_state capebus_slot_state(struct capebus_slot *slot);
const char *capebus_slot_state_name(enum capebus_slot_state state);
void capebus_slot_set_empty(struct capebus_slot *slot);
__printf(2, 3)
void capebus_slot_set_failed(struct capebus_slot *slot, const char *fmt, ...);
int capebus_slot_detected(struct capebus_slot *slot,
			  const struct capebus_cape_info *info,
			  const void *overlay, size_t overlay_len);
int capebus_slot_set_applied_by(struct capebus_slot *slot, const char *by);

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
