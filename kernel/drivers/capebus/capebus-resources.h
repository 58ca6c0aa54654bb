/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capebus: header pin and power accounting.  Pure logic: the caller holds
 * the lock that protects a struct capebus_resources.
 */
#ifndef _CAPEBUS_RESOURCES_H
#define _CAPEBUS_RESOURCES_H

#include <linux/bitmap.h>
#include <linux/capebus.h>
#include <linux/types.h>

/* The holders named for pins capebus_resources_reserve() reserved. */
#define CAPEBUS_HOLDER_BOARD	"the board"
#define CAPEBUS_HOLDER_CONSOLE	"the board's serial console"

/**
 * struct capebus_claim - what one cape asks for
 * @pins: header pins, by index into the header's pin names
 * @current_ma: current per rail (index into the header's rail names), mA
 * @holder: who holds the pins, as messages name it, e.g.
 *	"WX-01 (slot 0)"; must outlive the claim while it is held
 */
struct capebus_claim {
	DECLARE_BITMAP(pins, CAPEBUS_MAX_PINS);
	u32 current_ma[CAPEBUS_MAX_RAILS];
	const char *holder;
};

/**
 * struct capebus_resources - the header's pins and rails, one per controller
 * @header: the header: how many pins and rails, and their names
 * @holder: per pin, the holder string of the claim that holds it, or NULL
 * @shared: pins every cape may use at once (the board's shared-pins);
 *	they are never held and never conflict
 * @budget_ma: per rail, what all capes together may draw, mA;
 *	CAPEBUS_BUDGET_UNLIMITED if the board declared no budget.  A budget
 *	of 0 means the rail gives capes nothing.
 * @used_ma: per rail, what the claims held now draw, mA
 * @strict_budget: refuse a claim that takes a rail over its budget; by
 *	default such a claim is granted and reported (a cape that is plugged
 *	in draws its current whether or not capebus lets its drivers load)
 */
struct capebus_resources {
	const struct capebus_header *header;
	const char *holder[CAPEBUS_MAX_PINS];
	DECLARE_BITMAP(shared, CAPEBUS_MAX_PINS);
	u32 budget_ma[CAPEBUS_MAX_RAILS];
	u32 used_ma[CAPEBUS_MAX_RAILS];
	bool strict_budget;
};

/**
 * struct capebus_pin_words - the pin words a bus's pads were muxed with
 * @muxed: the pins whose pads were muxed
 * @word: per pin of @muxed, its word (setting), as struct
 *	capebus_cape_info.pin_setting has it
 */
struct capebus_pin_words {
	DECLARE_BITMAP(muxed, CAPEBUS_MAX_PINS);
	char word[CAPEBUS_MAX_PINS][CAPEBUS_SETTING_LEN];
};

/* capebus_resources_claim(): granted, with a rail over its budget. */
#define CAPEBUS_CLAIM_OVER_BUDGET	1

void capebus_resources_init(struct capebus_resources *res,
			    const struct capebus_header *header,
			    const u32 *budget_ma);
int capebus_resources_reserve(struct capebus_resources *res,
			      const unsigned long *pins, const char *holder);
void capebus_resources_set_shared(struct capebus_resources *res,
				  const unsigned long *pins);
int capebus_resources_check(const struct capebus_resources *res,
			    const unsigned long *pins, char *why, size_t why_len);
int capebus_resources_claim(struct capebus_resources *res,
			    const struct capebus_claim *claim,
			    char *why, size_t why_len);
void capebus_resources_release(struct capebus_resources *res,
			       const struct capebus_claim *claim);
void capebus_claim_from_info(struct capebus_claim *claim,
			     const struct capebus_cape_info *info);
int capebus_claim_add_pin_names(const struct capebus_header *header,
				struct capebus_claim *claim,
				const char *const *names, int n,
				char *why, size_t why_len);
int capebus_pins_format_diff(const struct capebus_header *header,
			     char *buf, size_t len,
			     const unsigned long *eeprom,
			     const unsigned long *overlay);
bool capebus_bus_pin_shareable(const struct capebus_pin_words *bus,
			       unsigned int pin, const char *setting);

#endif /* _CAPEBUS_RESOURCES_H */
