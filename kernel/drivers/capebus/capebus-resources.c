// SPDX-License-Identifier: GPL-2.0
/*
 * capebus: header pin and power accounting.
 *
 * Each controller keeps one struct capebus_resources: who holds each
 * header pin and how much current capes draw from each rail.  A cape's
 * struct capebus_claim is granted whole or not at all, and a refusal names
 * every pin in conflict and its holder, or every rail over budget, in the
 * words userspace tools reproduce (Documentation/capebus/eeprom-format.rst).
 * Pure logic: no locking (the caller serializes), no allocation, no I/O.
 */

#include <linux/bitmap.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include "capebus-resources.h"

/* Append to @why at *@pos; once it is full, only *@pos grows. */
static __printf(4, 5) void capebus_why_append(char *why, size_t why_len,
					      size_t *pos,
					      const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	if (why && *pos < why_len)
		*pos += vsnprintf(why + *pos, why_len - *pos, fmt, args);
	else
		*pos += vsnprintf(NULL, 0, fmt, args);
	va_end(args);
}

/**
 * capebus_resources_init() - start with every pin free and no current drawn
 * @res: the resources
 * @header: the header (pin and rail names); it outlives @res
 * @budget_ma: per rail of @header, what all capes may draw together, mA;
 *	CAPEBUS_BUDGET_UNLIMITED for a rail without a budget, 0 for a rail
 *	that gives capes nothing; NULL for no budgets
 */
void capebus_resources_init(struct capebus_resources *res,
			    const struct capebus_header *header,
			    const u32 *budget_ma)
{
	unsigned int rail;

	memset(res, 0, sizeof(*res));
	res->header = header;
	for (rail = 0; rail < CAPEBUS_MAX_RAILS; rail++)
		res->budget_ma[rail] = budget_ma && rail < header->num_rails ?
				       budget_ma[rail] : CAPEBUS_BUDGET_UNLIMITED;
}
EXPORT_SYMBOL_IF_KUNIT(capebus_resources_init);

/**
 * capebus_resources_reserve() - hold pins for the board itself
 * @res: the resources
 * @pins: bitmap of the header's pins the board uses
 * @holder: what uses them, as refusals name it: CAPEBUS_HOLDER_BOARD
 *	("the board", its board-pins) or CAPEBUS_HOLDER_CONSOLE ("the
 *	board's serial console", its console-pins)
 *
 * The pins are held by @holder for good.  Call it before any cape claims
 * pins.
 *
 * Return: 0, or -EBUSY (and nothing changes) if a cape or another of the
 * board's holders holds one of them.
 */
int capebus_resources_reserve(struct capebus_resources *res,
			      const unsigned long *pins, const char *holder)
{
	unsigned int pin;

	for_each_set_bit(pin, pins, res->header->num_pins)
		if (res->holder[pin] && strcmp(res->holder[pin], holder))
			return -EBUSY;
	for_each_set_bit(pin, pins, res->header->num_pins)
		res->holder[pin] = holder;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(capebus_resources_reserve);

/**
 * capebus_resources_set_shared() - declare the pins every cape may share
 * @res: the resources
 * @pins: bitmap of the header's pins (the board's shared-pins)
 *
 * Claims never conflict on a shared pin and never hold one; a board pin
 * that is also shared is open to capes.  Call it before any cape claims
 * pins: a claim is released against the shared set it was granted with.
 */
void capebus_resources_set_shared(struct capebus_resources *res,
				  const unsigned long *pins)
{
	bitmap_copy(res->shared, pins, res->header->num_pins);
}
EXPORT_SYMBOL_IF_KUNIT(capebus_resources_set_shared);

/**
 * capebus_resources_check() - are pins free?
 * @res: the resources
 * @pins: bitmap (CAPEBUS_MAX_PINS) of header pins
 * @why: on refusal, the reason (every pin held, as capebus_resources_claim()
 *	says it); otherwise an empty string.  May be NULL.
 * @why_len: size of @why
 *
 * Return: 0 if no pin of @pins is held (shared pins never are), -EBUSY.
 */
int capebus_resources_check(const struct capebus_resources *res,
			    const unsigned long *pins, char *why, size_t why_len)
{
	unsigned int pin;
	size_t pos = 0;

	if (why && why_len)
		*why = '\0';
	for_each_set_bit(pin, pins, res->header->num_pins) {
		if (test_bit(pin, res->shared) || !res->holder[pin])
			continue;
		capebus_why_append(why, why_len, &pos, "%spin %s is held by %s",
				   pos ? "; " : "", res->header->pin_names[pin],
				   res->holder[pin]);
	}

	return pos ? -EBUSY : 0;
}

/**
 * capebus_resources_claim() - grant a cape its pins and current, or refuse
 * @res: the resources
 * @claim: what the cape asks for; @claim->holder must be set
 * @why: on refusal, the reason; otherwise an empty string.  May be NULL.
 * @why_len: size of @why
 *
 * All or nothing: on failure @res is unchanged.  Pins are checked first;
 * the reason names every pin already held, e.g.
 * "pin J1.19 is held by WX-01 (slot 0); pin J1.3 is held by the board".
 * Only if every pin is free are the rails checked: a rail is over budget
 * when what is in use plus what the claim needs exceeds the budget (using
 * it exactly is allowed); @why names every such rail, e.g.
 * "vdd-3v3b over budget: needs 150 mA, 200 of 250 mA in use".  A rail the
 * claim draws nothing from is never over budget.  Over budget is
 * information, not a refusal, unless @res->strict_budget is set.
 *
 * Return: 0; %CAPEBUS_CLAIM_OVER_BUDGET if granted with a rail over budget
 * (@why says which); -EBUSY for a pin conflict; -ENOSPC for a rail over
 * budget with @res->strict_budget set; -EINVAL if @claim has no holder.
 */
int capebus_resources_claim(struct capebus_resources *res,
			    const struct capebus_claim *claim,
			    char *why, size_t why_len)
{
	unsigned int pin, rail;
	size_t pos = 0;

	if (why && why_len)
		*why = '\0';
	if (WARN_ON(!claim->holder))
		return -EINVAL;

	if (capebus_resources_check(res, claim->pins, why, why_len))
		return -EBUSY;

	for (rail = 0; rail < res->header->num_rails; rail++) {
		u64 need = claim->current_ma[rail];

		if (need && res->used_ma[rail] + need > res->budget_ma[rail])
			capebus_why_append(why, why_len, &pos,
					   "%s%s over budget: needs %llu mA, %u of %u mA in use",
					   pos ? "; " : "", res->header->rail_names[rail],
					   need, res->used_ma[rail],
					   res->budget_ma[rail]);
	}
	if (pos && res->strict_budget)
		return -ENOSPC;

	for_each_set_bit(pin, claim->pins, res->header->num_pins)
		if (!test_bit(pin, res->shared))
			res->holder[pin] = claim->holder;
	for (rail = 0; rail < res->header->num_rails; rail++)
		res->used_ma[rail] += claim->current_ma[rail];
	return pos ? CAPEBUS_CLAIM_OVER_BUDGET : 0;
}
EXPORT_SYMBOL_IF_KUNIT(capebus_resources_claim);

/**
 * capebus_resources_release() - give back what capebus_resources_claim()
 *	granted
 * @res: the resources
 * @claim: the claim that was granted, unchanged since
 *
 * Pins held by another holder are left alone (with a warning): releasing
 * a claim that was never granted frees nothing of anybody else's.
 */
void capebus_resources_release(struct capebus_resources *res,
			       const struct capebus_claim *claim)
{
	unsigned int pin, rail;

	for_each_set_bit(pin, claim->pins, res->header->num_pins) {
		if (test_bit(pin, res->shared))
			continue;
		if (WARN_ON_ONCE(res->holder[pin] != claim->holder))
			continue;
		res->holder[pin] = NULL;
	}
	for (rail = 0; rail < res->header->num_rails; rail++) {
		u32 drawn = claim->current_ma[rail];

		WARN_ON_ONCE(drawn > res->used_ma[rail]);
		res->used_ma[rail] -= min(drawn, res->used_ma[rail]);
	}
}
EXPORT_SYMBOL_IF_KUNIT(capebus_resources_release);

/**
 * capebus_claim_from_info() - the pins and currents a cape states
 * @claim: its pins and currents are set; @claim->holder is left alone
 * @info: the cape, as its controller describes it
 */
void capebus_claim_from_info(struct capebus_claim *claim,
			     const struct capebus_cape_info *info)
{
	bitmap_copy(claim->pins, info->pins, CAPEBUS_MAX_PINS);
	memcpy(claim->current_ma, info->current_ma, sizeof(claim->current_ma));
}
EXPORT_SYMBOL_IF_KUNIT(capebus_claim_from_info);

/**
 * capebus_claim_add_pin_names() - add pins named by an overlay
 * @header: the header whose pin names count
 * @claim: the claim to add to
 * @names: header pin names, e.g. from an overlay's exclusive-use property
 * @n: number of @names
 * @why: on failure, the reason; otherwise an empty string.  May be NULL.
 * @why_len: size of @why
 *
 * All or nothing: if a name is not one of the header's pins (exact
 * match), nothing is added.
 *
 * Return: 0, or -EINVAL naming the first unknown pin.
 */
int capebus_claim_add_pin_names(const struct capebus_header *header,
				struct capebus_claim *claim,
				const char *const *names, int n,
				char *why, size_t why_len)
{
	int i;

	if (why && why_len)
		*why = '\0';
	if (n < 0)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!names[i] || capebus_header_pin_index(header, names[i]) < 0) {
			if (why && why_len)
				snprintf(why, why_len,
					 "exclusive-use: \"%s\" (entry %d) is not a header pin",
					 names[i] ?: "(null)", i);
			return -EINVAL;
		}
	}
	for (i = 0; i < n; i++)
		__set_bit(capebus_header_pin_index(header, names[i]), claim->pins);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(capebus_claim_add_pin_names);

/**
 * capebus_pins_format_diff() - describe where two pin sets disagree
 * @header: the header whose pin names to use
 * @buf: where to write; may be NULL if @len is 0
 * @len: size of @buf
 * @eeprom: pins the EEPROM marks used
 * @overlay: pins the overlay declares in exclusive-use
 *
 * For the report (not a refusal) the contract asks for when a cape's
 * EEPROM and overlay disagree, e.g. "P9.19 used in the EEPROM but not in
 * exclusive-use; P8.13 in exclusive-use but not used in the EEPROM".
 * Writes an empty string when they agree.
 *
 * Return: the length of the full description as snprintf() counts it.
 */
int capebus_pins_format_diff(const struct capebus_header *header,
			     char *buf, size_t len,
			     const unsigned long *eeprom,
			     const unsigned long *overlay)
{
	unsigned int pin;
	size_t pos = 0;

	if (buf && len)
		*buf = '\0';
	for (pin = 0; pin < header->num_pins; pin++) {
		bool in_ee = test_bit(pin, eeprom);
		bool in_ov = test_bit(pin, overlay);

		if (in_ee == in_ov)
			continue;
		capebus_why_append(buf, len, &pos, "%s%s %s", pos ? "; " : "",
				   header->pin_names[pin],
				   in_ee ? "used in the EEPROM but not in exclusive-use" :
					   "in exclusive-use but not used in the EEPROM");
	}
	return pos;
}
EXPORT_SYMBOL_IF_KUNIT(capebus_pins_format_diff);

/**
 * capebus_bus_pin_shareable() - whether a cape may share a bus's pad
 * @bus: the pin words the bus's pads were muxed with
 * @pin: the pin
 * @setting: the cape's pin word for @pin
 *
 * Return: true if the bus's pad behind @pin was muxed with @setting exactly
 * (and @setting is a word at all): the cape needs it muxed as it is.
 */
bool capebus_bus_pin_shareable(const struct capebus_pin_words *bus,
			       unsigned int pin, const char *setting)
{
	return pin < CAPEBUS_MAX_PINS && test_bit(pin, bus->muxed) &&
	       setting[0] && !strncmp(bus->word[pin], setting,
				      CAPEBUS_SETTING_LEN);
}
EXPORT_SYMBOL_IF_KUNIT(capebus_bus_pin_shareable);
