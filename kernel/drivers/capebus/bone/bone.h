/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capebus-bone: what the files of the BeagleBone controller module share.
 */
#ifndef _CAPEBUS_BONE_H
#define _CAPEBUS_BONE_H

#include <linux/capebus.h>
#include <linux/list.h>

#include "bone-eeprom.h"
#include "bone-padconf.h"

extern const struct capebus_header bone_header;

/* Slots of a connector: the four ID EEPROM addresses, 0x54-0x57. */
#define BONE_MAX_SLOTS		4

struct property;

/* The family capes of this header are matched in (cape drivers' id tables). */
#define BONE_FAMILY		"bone"

/* The version bone_capemgr assumed for a part named without one. */
#define BONE_DEFAULT_VERSION	"00A0"

/* No pad behind a header pin (cape-pads does not name it). */
#define BONE_PAD_NONE	U32_MAX

/* Cells of one pinctrl-single,pins entry, at most: <offset conf mux>. */
#define BONE_PINMUX_MAX_CELLS	3

/**
 * struct bone_pinmux - the connector's pin controller and pad table
 * @pctl_np: the pin controller (cape-pinctrl), or NULL: nothing is muxed
 * @cells: its #pinctrl-cells, the layout of a pinctrl-single,pins entry
 * @pad: per header pin, the offset of its pad's register, or BONE_PAD_NONE
 * @modes: per header pin, the mux modes its pad offers capes, bit n for
 *	mode n (none for a pin without a pad)
 * @keepers: the pads of enabled buses whose capes that muxed them are gone,
 *	held for the bus until capebus disables it
 * @next_keeper: the number the next keeper is named with
 * @regs: the pin controller's pad registers, read only (NULL: pads are not
 *	put back)
 * @width: their width in bits (pinctrl-single,register-width)
 * @board: the pads capebus muxed and their values before, put back when
 *	capebus lets go of them: the core's, for the connector node, so that
 *	they outlive the controller (NULL: pads are not put back)
 * @capes: the pins whose pads attached capes hold
 */
struct bone_pinmux {
	struct device_node *pctl_np;
	u32 cells;
	u32 pad[CAPEBUS_MAX_PINS];
	u8 modes[CAPEBUS_MAX_PINS];
	struct list_head keepers;
	unsigned int next_keeper;
	void __iomem *regs;
	u32 width;
	struct capebus_board_pads *board;
	DECLARE_BITMAP(capes, CAPEBUS_MAX_PINS);
};

int bone_pinmux_init(struct device *dev, struct capebus_controller *ctrl,
		     struct bone_pinmux *pm);
void bone_pinmux_exit(struct bone_pinmux *pm);
int bone_pinmux_attach(struct bone_pinmux *pm, struct device_node *conn,
		       struct cape_device *cape, char *why, size_t why_len);
void bone_pinmux_detach(struct bone_pinmux *pm, struct device_node *conn,
			struct cape_device *cape);
void bone_pinmux_sync(struct bone_pinmux *pm, struct device_node *conn,
		      struct capebus_controller *ctrl);

bool bone_overlay_record_matches(const char *record, const char *part,
				 const char *version);
const struct property *
bone_applied_by_bootloader(const struct capebus_cape_info *info,
			   const struct property *const *taken, unsigned int nr,
			   char *by, size_t len);

void bone_info_from_eeprom(struct capebus_cape_info *info,
			   const struct cape_eeprom *ee);
int bone_overlay_name(const struct capebus_cape_info *info, char *name,
		      size_t len);
int bone_decode_image(const void *buf, size_t len,
		      struct capebus_cape_info *info,
		      const void **overlay, size_t *overlay_len,
		      char *why, size_t why_len);

#endif /* _CAPEBUS_BONE_H */
