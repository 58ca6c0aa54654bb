/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capebus: header pin and power accounting.  Pure logic: the caller holds
 * the lock that protects a struct capebus_resources.
 */
#ifndef _CAPEBUS_RESOURCES_H
#define _CAPEBUS_RESOURCES_H

#include <linux/bitmap.h>
#include <linux/limits.h>
#include <linux/types.h>

#include "capebus-eeprom.h"

#define CAPEBUS_NUM_PINS	CAPE_EEPROM_A1_NUM_PINS

/* A rail budget that is never exceeded (the board declared no budget). */
#define CAPEBUS_BUDGET_UNLIMITED	U32_MAX

/* The holder named for pins capebus_resources_reserve_board() reserved. */
#define CAPEBUS_HOLDER_BOARD	"the board"

/**
 * struct capebus_claim - what one cape asks for
 * @pins: header pins, by pin-usage index (cape_bone_pin_name())
 * @current_ma: current per rail, mA
 * @holder: who holds the pins, as messages name it, e.g.
 *	"BB-WTHR-01 (slot 0)"; must outlive the claim while it is held
 */
struct capebus_claim {
	DECLARE_BITMAP(pins, CAPEBUS_NUM_PINS);
	u32 current_ma[CAPEBUS_NUM_RAILS];
	const char *holder;
};

/**
 * struct capebus_resources - the header's pins and rails, one per controller
 * @holder: per pin, the holder string of the claim that holds it, or NULL
 * @shared: pins every cape may use at once (the board's shared-pins);
 *	they are never held and never conflict
 * @budget_ma: per rail, what all capes together may draw, mA;
 *	CAPEBUS_BUDGET_UNLIMITED if the board declared no budget.  A budget
 *	of 0 means the rail gives capes nothing.
 * @used_ma: per rail, what the claims held now draw, mA
 */
struct capebus_resources {
	const char *holder[CAPEBUS_NUM_PINS];
	DECLARE_BITMAP(shared, CAPEBUS_NUM_PINS);
	u32 budget_ma[CAPEBUS_NUM_RAILS];
	u32 used_ma[CAPEBUS_NUM_RAILS];
};

void capebus_resources_init(struct capebus_resources *res,
			    const u32 budget_ma[CAPEBUS_NUM_RAILS]);
int capebus_resources_reserve_board(struct capebus_resources *res,
				    const unsigned long *pins);
void capebus_resources_set_shared(struct capebus_resources *res,
				  const unsigned long *pins);
int capebus_resources_claim(struct capebus_resources *res,
			    const struct capebus_claim *claim,
			    char *why, size_t why_len);
void capebus_resources_release(struct capebus_resources *res,
			       const struct capebus_claim *claim);
void capebus_claim_from_eeprom(struct capebus_claim *claim,
			       const struct cape_eeprom *ee);
int capebus_claim_add_pin_names(struct capebus_claim *claim,
				const char *const *names, int n,
				char *why, size_t why_len);
int capebus_pins_format_diff(char *buf, size_t len,
			     const unsigned long *eeprom,
			     const unsigned long *overlay);

#endif /* _CAPEBUS_RESOURCES_H */
