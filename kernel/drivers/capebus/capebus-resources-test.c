// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for capebus header pin and power accounting, on a header
 * with the BeagleBone's pin and rail names.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>

#include "capebus-resources.h"

#define TEST_WHY_LEN	256

/* Holders are compared by address: one copy of each. */
static const char *const wthr = "BB-WTHR-01 (slot 0)";
static const char *const rtc = "BB-RTC-01 (slot 1)";

enum { TEST_RAIL_VDD_3V3B, TEST_RAIL_VDD_5V, TEST_RAIL_SYS_5V, TEST_NUM_RAILS };

/*
 * A header with the BeagleBone's 74 signal pins in their pin-usage order
 * (the order refusals list pins in); the core takes any names.
 */
static const char *const test_pins[] = {
	"P9.22", "P9.21", "P9.18", "P9.17", "P9.42", "P8.35", "P8.33", "P8.31",
	"P8.32", "P9.19", "P9.20", "P9.26", "P9.24", "P9.41", "P8.19", "P8.13",
	"P8.14", "P8.17", "P9.11", "P9.13", "P8.25", "P8.24", "P8.5", "P8.6",
	"P8.23", "P8.22", "P8.3", "P8.4", "P8.12", "P8.11", "P8.16", "P8.15",
	"P9.15", "P9.23", "P9.14", "P9.16", "P9.12", "P8.26", "P8.21", "P8.20",
	"P8.18", "P8.7", "P8.9", "P8.10", "P8.8", "P8.45", "P8.46", "P8.43",
	"P8.44", "P8.41", "P8.42", "P8.39", "P8.40", "P8.37", "P8.38", "P8.36",
	"P8.34", "P8.27", "P8.29", "P8.28", "P8.30", "P9.29", "P9.30", "P9.28",
	"P9.27", "P9.31", "P9.25", "P9.39", "P9.40", "P9.37", "P9.38", "P9.33",
	"P9.36", "P9.35",
};

static const char *const test_rails[TEST_NUM_RAILS] = {
	"vdd-3v3b", "vdd-5v", "sys-5v",
};

static const struct capebus_header test_header = {
	.name		= "test",
	.pin_names	= test_pins,
	.num_pins	= ARRAY_SIZE(test_pins),
	.rail_names	= test_rails,
	.num_rails	= ARRAY_SIZE(test_rails),
};

/* The test board's budgets, mA. */
static const u32 test_budget[TEST_NUM_RAILS] = {
	[TEST_RAIL_VDD_3V3B] = 250,
	[TEST_RAIL_VDD_5V] = 1000,
	[TEST_RAIL_SYS_5V] = 250,
};

static struct capebus_resources *test_resources(struct kunit *test)
{
	struct capebus_resources *res = kunit_kzalloc(test, sizeof(*res), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, res);
	capebus_resources_init(res, &test_header, test_budget);
	return res;
}

/* A claim of @holder on the named pins, drawing @ma from VDD_3V3B. */
static void test_claim(struct kunit *test, struct capebus_claim *claim,
		       const char *holder, u32 ma, const char *const *pins,
		       int n)
{
	memset(claim, 0, sizeof(*claim));
	claim->holder = holder;
	claim->current_ma[TEST_RAIL_VDD_3V3B] = ma;
	KUNIT_ASSERT_EQ(test, capebus_claim_add_pin_names(&test_header, claim, pins, n,
							  NULL, 0), 0);
}

static int pin(const char *name)
{
	return capebus_header_pin_index(&test_header, name);
}

static void capebus_resources_test_claim_release(struct kunit *test)
{
	static const char *const pins[] = { "P9.19", "P9.20" };
	struct capebus_resources *res = test_resources(test);
	struct capebus_claim a;
	char why[TEST_WHY_LEN];

	test_claim(test, &a, wthr, 150, pins, ARRAY_SIZE(pins));
	KUNIT_ASSERT_EQ(test, capebus_resources_claim(res, &a, why, sizeof(why)), 0);
	KUNIT_EXPECT_STREQ(test, why, "");
	KUNIT_EXPECT_PTR_EQ(test, res->holder[pin("P9.19")], wthr);
	KUNIT_EXPECT_PTR_EQ(test, res->holder[pin("P9.20")], wthr);
	KUNIT_EXPECT_NULL(test, res->holder[pin("P8.13")]);
	KUNIT_EXPECT_EQ(test, res->used_ma[TEST_RAIL_VDD_3V3B], 150);

	capebus_resources_release(res, &a);
	KUNIT_EXPECT_NULL(test, res->holder[pin("P9.19")]);
	KUNIT_EXPECT_NULL(test, res->holder[pin("P9.20")]);
	KUNIT_EXPECT_EQ(test, res->used_ma[TEST_RAIL_VDD_3V3B], 0);
}

static void capebus_resources_test_conflict(struct kunit *test)
{
	static const char *const a_pins[] = { "P9.19", "P9.20", "P8.7" };
	static const char *const b_pins[] = { "P8.13", "P9.20", "P9.19" };
	struct capebus_resources *res = test_resources(test);
	struct capebus_claim a, b;
	char why[TEST_WHY_LEN];

	test_claim(test, &a, wthr, 100, a_pins, ARRAY_SIZE(a_pins));
	test_claim(test, &b, rtc, 20, b_pins, ARRAY_SIZE(b_pins));
	KUNIT_ASSERT_EQ(test, capebus_resources_claim(res, &a, why, sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, capebus_resources_claim(res, &b, why, sizeof(why)), -EBUSY);
	/* Every conflicting pin, in pin-usage order, with its holder. */
	KUNIT_EXPECT_STREQ(test, why,
			   "pin P9.19 is held by BB-WTHR-01 (slot 0); pin P9.20 is held by BB-WTHR-01 (slot 0)");
	/* Nothing changed: the free pin was not taken, no current added. */
	KUNIT_EXPECT_NULL(test, res->holder[pin("P8.13")]);
	KUNIT_EXPECT_PTR_EQ(test, res->holder[pin("P9.19")], wthr);
	KUNIT_EXPECT_EQ(test, res->used_ma[TEST_RAIL_VDD_3V3B], 100);

	/* Once the first cape goes, the second fits. */
	capebus_resources_release(res, &a);
	KUNIT_EXPECT_EQ(test, capebus_resources_claim(res, &b, why, sizeof(why)), 0);
	KUNIT_EXPECT_PTR_EQ(test, res->holder[pin("P9.19")], rtc);
	KUNIT_EXPECT_NULL(test, res->holder[pin("P8.7")]);
}

static void capebus_resources_test_board_pins(struct kunit *test)
{
	static const char *const a_pins[] = { "P9.19" };
	static const char *const b_pins[] = { "P8.3", "P9.19", "P8.4", "P8.13" };
	struct capebus_resources *res = test_resources(test);
	struct capebus_claim board = { }, a, b;
	char why[TEST_WHY_LEN];

	__set_bit(pin("P8.3"), board.pins);
	__set_bit(pin("P8.4"), board.pins);
	KUNIT_ASSERT_EQ(test, capebus_resources_reserve(res, board.pins,
							CAPEBUS_HOLDER_BOARD), 0);
	KUNIT_EXPECT_STREQ(test, res->holder[pin("P8.3")], "the board");

	test_claim(test, &a, wthr, 0, a_pins, ARRAY_SIZE(a_pins));
	test_claim(test, &b, rtc, 0, b_pins, ARRAY_SIZE(b_pins));
	KUNIT_ASSERT_EQ(test, capebus_resources_claim(res, &a, why, sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, capebus_resources_claim(res, &b, why, sizeof(why)), -EBUSY);
	KUNIT_EXPECT_STREQ(test, why,
			   "pin P9.19 is held by BB-WTHR-01 (slot 0); pin P8.3 is held by the board; pin P8.4 is held by the board");
	KUNIT_EXPECT_NULL(test, res->holder[pin("P8.13")]);
}

static void capebus_resources_test_reserve_board_busy(struct kunit *test)
{
	static const char *const a_pins[] = { "P8.3" };
	struct capebus_resources *res = test_resources(test);
	struct capebus_claim board = { }, a;
	char why[TEST_WHY_LEN];

	test_claim(test, &a, wthr, 0, a_pins, ARRAY_SIZE(a_pins));
	KUNIT_ASSERT_EQ(test, capebus_resources_claim(res, &a, why, sizeof(why)), 0);
	__set_bit(pin("P8.3"), board.pins);
	__set_bit(pin("P8.4"), board.pins);
	KUNIT_EXPECT_EQ(test, capebus_resources_reserve(res, board.pins,
							CAPEBUS_HOLDER_BOARD), -EBUSY);
	KUNIT_EXPECT_NULL(test, res->holder[pin("P8.4")]);
}

/*
 * The board's serial console holds its pins as the board does, and a cape
 * asking for one is refused naming the console; a pin the board holds is
 * not the console's too.
 */
static void capebus_resources_test_console_pins(struct kunit *test)
{
	static const char *const a_pins[] = { "P8.13", "P9.24" };
	struct capebus_resources *res = test_resources(test);
	struct capebus_claim board = { }, console = { }, a;
	char why[TEST_WHY_LEN];

	__set_bit(pin("P8.3"), board.pins);
	KUNIT_ASSERT_EQ(test, capebus_resources_reserve(res, board.pins,
							CAPEBUS_HOLDER_BOARD), 0);
	__set_bit(pin("P9.24"), console.pins);
	__set_bit(pin("P9.26"), console.pins);
	KUNIT_ASSERT_EQ(test, capebus_resources_reserve(res, console.pins,
							CAPEBUS_HOLDER_CONSOLE), 0);

	test_claim(test, &a, wthr, 0, a_pins, ARRAY_SIZE(a_pins));
	KUNIT_EXPECT_EQ(test, capebus_resources_claim(res, &a, why, sizeof(why)), -EBUSY);
	KUNIT_EXPECT_STREQ(test, why, "pin P9.24 is held by the board's serial console");
	KUNIT_EXPECT_NULL(test, res->holder[pin("P8.13")]);

	__set_bit(pin("P8.3"), console.pins);
	KUNIT_EXPECT_EQ(test, capebus_resources_reserve(res, console.pins,
							CAPEBUS_HOLDER_CONSOLE), -EBUSY);
	KUNIT_EXPECT_STREQ(test, res->holder[pin("P8.3")], "the board");
}

static void capebus_resources_test_shared_pins(struct kunit *test)
{
	static const char *const pins[] = { "P9.19", "P9.20", "P8.13" };
	static const char *const b_pins[] = { "P9.19", "P9.20" };
	struct capebus_resources *res = test_resources(test);
	struct capebus_claim shared = { }, a, b;
	char why[TEST_WHY_LEN];

	__set_bit(pin("P9.19"), shared.pins);
	__set_bit(pin("P9.20"), shared.pins);
	capebus_resources_set_shared(res, shared.pins);

	test_claim(test, &a, wthr, 0, pins, ARRAY_SIZE(pins));
	test_claim(test, &b, rtc, 0, b_pins, ARRAY_SIZE(b_pins));
	KUNIT_ASSERT_EQ(test, capebus_resources_claim(res, &a, why, sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, capebus_resources_claim(res, &b, why, sizeof(why)), 0);
	KUNIT_EXPECT_NULL(test, res->holder[pin("P9.19")]);
	KUNIT_EXPECT_PTR_EQ(test, res->holder[pin("P8.13")], wthr);

	capebus_resources_release(res, &a);
	KUNIT_EXPECT_NULL(test, res->holder[pin("P8.13")]);
}

/* By default a rail over budget is reported, and the claim granted. */
static void capebus_resources_test_over_budget_granted(struct kunit *test)
{
	static const char *const a_pins[] = { "P9.19" };
	static const char *const b_pins[] = { "P8.13" };
	struct capebus_resources *res = test_resources(test);
	struct capebus_claim a, b;
	char why[TEST_WHY_LEN];

	test_claim(test, &a, wthr, 200, a_pins, ARRAY_SIZE(a_pins));
	test_claim(test, &b, rtc, 150, b_pins, ARRAY_SIZE(b_pins));
	KUNIT_ASSERT_EQ(test, capebus_resources_claim(res, &a, why, sizeof(why)), 0);
	KUNIT_EXPECT_STREQ(test, why, "");
	KUNIT_EXPECT_EQ(test, capebus_resources_claim(res, &b, why, sizeof(why)),
			CAPEBUS_CLAIM_OVER_BUDGET);
	KUNIT_EXPECT_STREQ(test, why, "vdd-3v3b over budget: needs 150 mA, 200 of 250 mA in use");
	KUNIT_EXPECT_EQ(test, res->used_ma[TEST_RAIL_VDD_3V3B], 350);
	KUNIT_EXPECT_PTR_EQ(test, res->holder[pin("P8.13")], rtc);

	/* Released, the rail is back to what the first claim draws. */
	capebus_resources_release(res, &b);
	KUNIT_EXPECT_EQ(test, res->used_ma[TEST_RAIL_VDD_3V3B], 200);
	KUNIT_EXPECT_NULL(test, res->holder[pin("P8.13")]);
}

/* A pin conflict still refuses, over budget or not. */
static void capebus_resources_test_over_budget_pins_refuse(struct kunit *test)
{
	static const char *const pins[] = { "P9.19" };
	struct capebus_resources *res = test_resources(test);
	struct capebus_claim a, b;
	char why[TEST_WHY_LEN];

	test_claim(test, &a, wthr, 300, pins, ARRAY_SIZE(pins));
	test_claim(test, &b, rtc, 300, pins, ARRAY_SIZE(pins));
	KUNIT_ASSERT_EQ(test, capebus_resources_claim(res, &a, why, sizeof(why)),
			CAPEBUS_CLAIM_OVER_BUDGET);
	KUNIT_EXPECT_EQ(test, capebus_resources_claim(res, &b, why, sizeof(why)), -EBUSY);
	KUNIT_EXPECT_STREQ(test, why, "pin P9.19 is held by BB-WTHR-01 (slot 0)");
	KUNIT_EXPECT_EQ(test, res->used_ma[TEST_RAIL_VDD_3V3B], 300);
}

/* With strict_budget, a rail over budget refuses the claim whole. */
static void capebus_resources_test_over_budget(struct kunit *test)
{
	static const char *const a_pins[] = { "P9.19" };
	static const char *const b_pins[] = { "P8.13" };
	struct capebus_resources *res = test_resources(test);
	struct capebus_claim a, b;
	char why[TEST_WHY_LEN];

	res->strict_budget = true;
	test_claim(test, &a, wthr, 200, a_pins, ARRAY_SIZE(a_pins));
	test_claim(test, &b, rtc, 150, b_pins, ARRAY_SIZE(b_pins));
	KUNIT_ASSERT_EQ(test, capebus_resources_claim(res, &a, why, sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, capebus_resources_claim(res, &b, why, sizeof(why)), -ENOSPC);
	KUNIT_EXPECT_STREQ(test, why, "vdd-3v3b over budget: needs 150 mA, 200 of 250 mA in use");
	KUNIT_EXPECT_EQ(test, res->used_ma[TEST_RAIL_VDD_3V3B], 200);
	KUNIT_EXPECT_NULL(test, res->holder[pin("P8.13")]);
}

static void capebus_resources_test_at_limit(struct kunit *test)
{
	static const char *const a_pins[] = { "P9.19" };
	static const char *const b_pins[] = { "P8.13" };
	struct capebus_resources *res = test_resources(test);
	struct capebus_claim a, b;
	char why[TEST_WHY_LEN];

	test_claim(test, &a, wthr, 200, a_pins, ARRAY_SIZE(a_pins));
	test_claim(test, &b, rtc, 50, b_pins, ARRAY_SIZE(b_pins));
	KUNIT_ASSERT_EQ(test, capebus_resources_claim(res, &a, why, sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, capebus_resources_claim(res, &b, why, sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, res->used_ma[TEST_RAIL_VDD_3V3B], 250);
}

static void capebus_resources_test_release_restores_budget(struct kunit *test)
{
	static const char *const a_pins[] = { "P9.19" };
	static const char *const b_pins[] = { "P8.13" };
	struct capebus_resources *res = test_resources(test);
	struct capebus_claim a, b;
	char why[TEST_WHY_LEN];

	test_claim(test, &a, wthr, 200, a_pins, ARRAY_SIZE(a_pins));
	test_claim(test, &b, rtc, 150, b_pins, ARRAY_SIZE(b_pins));
	KUNIT_ASSERT_EQ(test, capebus_resources_claim(res, &a, why, sizeof(why)), 0);
	capebus_resources_release(res, &a);
	KUNIT_EXPECT_EQ(test, res->used_ma[TEST_RAIL_VDD_3V3B], 0);
	KUNIT_EXPECT_EQ(test, capebus_resources_claim(res, &b, why, sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, res->used_ma[TEST_RAIL_VDD_3V3B], 150);
}

static void capebus_resources_test_several_rails(struct kunit *test)
{
	struct capebus_resources *res = test_resources(test);
	struct capebus_claim a = { .holder = wthr };
	char why[TEST_WHY_LEN];

	res->strict_budget = true;
	a.current_ma[TEST_RAIL_VDD_3V3B] = 300;
	a.current_ma[TEST_RAIL_VDD_5V] = 1000;
	a.current_ma[TEST_RAIL_SYS_5V] = 251;
	KUNIT_EXPECT_EQ(test, capebus_resources_claim(res, &a, why, sizeof(why)), -ENOSPC);
	KUNIT_EXPECT_STREQ(test, why,
			   "vdd-3v3b over budget: needs 300 mA, 0 of 250 mA in use; sys-5v over budget: needs 251 mA, 0 of 250 mA in use");
	KUNIT_EXPECT_EQ(test, res->used_ma[TEST_RAIL_VDD_5V], 0);
}

/* A pin conflict is reported before (and instead of) the power check. */
static void capebus_resources_test_pins_before_power(struct kunit *test)
{
	static const char *const pins[] = { "P9.19" };
	struct capebus_resources *res = test_resources(test);
	struct capebus_claim a, b;
	char why[TEST_WHY_LEN];

	test_claim(test, &a, wthr, 200, pins, ARRAY_SIZE(pins));
	test_claim(test, &b, rtc, 200, pins, ARRAY_SIZE(pins));
	KUNIT_ASSERT_EQ(test, capebus_resources_claim(res, &a, why, sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, capebus_resources_claim(res, &b, why, sizeof(why)), -EBUSY);
	KUNIT_EXPECT_STREQ(test, why, "pin P9.19 is held by BB-WTHR-01 (slot 0)");
}

static void capebus_resources_test_zero_budget(struct kunit *test)
{
	static const u32 budget[TEST_NUM_RAILS] = {
		[TEST_RAIL_VDD_3V3B] = 0,
		[TEST_RAIL_VDD_5V] = CAPEBUS_BUDGET_UNLIMITED,
		[TEST_RAIL_SYS_5V] = CAPEBUS_BUDGET_UNLIMITED,
	};
	struct capebus_resources *res = test_resources(test);
	struct capebus_claim a = { .holder = wthr }, b = { .holder = rtc };
	char why[TEST_WHY_LEN];

	capebus_resources_init(res, &test_header, budget);
	res->strict_budget = true;
	a.current_ma[TEST_RAIL_VDD_5V] = 65535;
	a.current_ma[TEST_RAIL_SYS_5V] = 65535;
	b.current_ma[TEST_RAIL_VDD_3V3B] = 1;
	/* Drawing nothing from a rail with no budget is fine. */
	KUNIT_EXPECT_EQ(test, capebus_resources_claim(res, &a, why, sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, capebus_resources_claim(res, &b, why, sizeof(why)), -ENOSPC);
	KUNIT_EXPECT_STREQ(test, why, "vdd-3v3b over budget: needs 1 mA, 0 of 0 mA in use");
}

static void capebus_resources_test_small_why(struct kunit *test)
{
	static const char *const pins[] = { "P9.19", "P9.20" };
	struct capebus_resources *res = test_resources(test);
	struct capebus_claim a, b;
	char why[12];

	test_claim(test, &a, wthr, 0, pins, ARRAY_SIZE(pins));
	test_claim(test, &b, rtc, 0, pins, ARRAY_SIZE(pins));
	KUNIT_ASSERT_EQ(test, capebus_resources_claim(res, &a, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, capebus_resources_claim(res, &b, why, sizeof(why)), -EBUSY);
	KUNIT_EXPECT_STREQ(test, why, "pin P9.19 i");
	KUNIT_EXPECT_EQ(test, capebus_resources_claim(res, &b, NULL, 0), -EBUSY);
	KUNIT_EXPECT_PTR_EQ(test, res->holder[pin("P9.20")], wthr);
}

static void capebus_resources_test_claim_from_info(struct kunit *test)
{
	struct capebus_claim claim = { .holder = wthr };
	struct capebus_cape_info *info;

	info = kunit_kzalloc(test, sizeof(*info), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, info);
	__set_bit(9, info->pins);
	__set_bit(73, info->pins);
	info->current_ma[TEST_RAIL_VDD_3V3B] = 150;
	info->current_ma[TEST_RAIL_SYS_5V] = 1500;
	__set_bit(20, claim.pins);	/* stale: cleared */
	capebus_claim_from_info(&claim, info);
	KUNIT_EXPECT_TRUE(test, test_bit(9, claim.pins));
	KUNIT_EXPECT_TRUE(test, test_bit(73, claim.pins));
	KUNIT_EXPECT_EQ(test, bitmap_weight(claim.pins, CAPEBUS_MAX_PINS), 2);
	KUNIT_EXPECT_EQ(test, claim.current_ma[TEST_RAIL_VDD_3V3B], 150);
	KUNIT_EXPECT_EQ(test, claim.current_ma[TEST_RAIL_VDD_5V], 0);
	KUNIT_EXPECT_EQ(test, claim.current_ma[TEST_RAIL_SYS_5V], 1500);
	KUNIT_EXPECT_STREQ(test, claim.holder, wthr);
}

static void capebus_resources_test_pin_names(struct kunit *test)
{
	static const char *const good[] = { "P9.19", "P8.13" };
	static const char *const bad[] = { "P8.7", "P9.1", "uart1" };
	struct capebus_claim claim = { };
	char why[TEST_WHY_LEN];

	KUNIT_EXPECT_EQ(test, capebus_claim_add_pin_names(&test_header, &claim, good, 2,
							  why, sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, bitmap_weight(claim.pins, CAPEBUS_MAX_PINS), 2);
	KUNIT_EXPECT_TRUE(test, test_bit(pin("P8.13"), claim.pins));
	KUNIT_EXPECT_EQ(test, capebus_claim_add_pin_names(&test_header, &claim, bad, 3,
							  why, sizeof(why)),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "exclusive-use: \"P9.1\" (entry 1) is not a header pin");
	/* All or nothing: P8.7 was not added. */
	KUNIT_EXPECT_FALSE(test, test_bit(pin("P8.7"), claim.pins));
}

static void capebus_resources_test_diff(struct kunit *test)
{
	struct capebus_claim ee = { }, ov = { };
	char buf[TEST_WHY_LEN];

	__set_bit(pin("P9.19"), ee.pins);
	__set_bit(pin("P9.20"), ee.pins);
	__set_bit(pin("P9.20"), ov.pins);
	KUNIT_EXPECT_EQ(test, capebus_pins_format_diff(&test_header, buf, sizeof(buf),
						       ee.pins, ov.pins),
			(int)strlen("P9.19 used in the EEPROM but not in exclusive-use"));
	KUNIT_EXPECT_STREQ(test, buf, "P9.19 used in the EEPROM but not in exclusive-use");
	__set_bit(pin("P8.13"), ov.pins);
	capebus_pins_format_diff(&test_header, buf, sizeof(buf), ee.pins,
				 ov.pins);
	KUNIT_EXPECT_STREQ(test, buf,
			   "P9.19 used in the EEPROM but not in exclusive-use; P8.13 in exclusive-use but not used in the EEPROM");
	KUNIT_EXPECT_EQ(test, capebus_pins_format_diff(&test_header, buf, sizeof(buf),
						       ov.pins, ov.pins), 0);
	KUNIT_EXPECT_STREQ(test, buf, "");
}

/*
 * A bus's pad may be shared by a cape whose pin word is the one the pad was
 * muxed with, to the letter: not another mode, pull or receiver setting,
 * not a pad the bus left as it was, not an empty word.
 */
static void capebus_resources_test_bus_pin_shareable(struct kunit *test)
{
	struct capebus_pin_words *bus;
	const char *i2c = "mode2 bidir pull-up rx slow";

	bus = kunit_kzalloc(test, sizeof(*bus), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bus);
	set_bit(2, bus->muxed);	/* P9.18 */
	strscpy(bus->word[2], i2c, CAPEBUS_SETTING_LEN);
	strscpy(bus->word[3], i2c, CAPEBUS_SETTING_LEN);	/* P9.17: not muxed */

	KUNIT_EXPECT_TRUE(test, capebus_bus_pin_shareable(bus, 2, i2c));
	KUNIT_EXPECT_FALSE(test, capebus_bus_pin_shareable(bus, 2,
							   "mode7 bidir pull-up rx slow"));
	KUNIT_EXPECT_FALSE(test, capebus_bus_pin_shareable(bus, 2,
							   "mode2 bidir pull-down rx slow"));
	KUNIT_EXPECT_FALSE(test, capebus_bus_pin_shareable(bus, 2,
							   "mode2 bidir pull-up slow"));
	KUNIT_EXPECT_FALSE(test, capebus_bus_pin_shareable(bus, 2,
							   "mode2 bidir pull-up rx slow "));
	KUNIT_EXPECT_FALSE(test, capebus_bus_pin_shareable(bus, 3, i2c));
	KUNIT_EXPECT_FALSE(test, capebus_bus_pin_shareable(bus, 2, ""));

	/* An empty word recorded for a muxed pad matches nothing either. */
	set_bit(4, bus->muxed);
	KUNIT_EXPECT_FALSE(test, capebus_bus_pin_shareable(bus, 4, ""));
	KUNIT_EXPECT_FALSE(test, capebus_bus_pin_shareable(bus, CAPEBUS_MAX_PINS,
							   i2c));
}

static struct kunit_case capebus_resources_test_cases[] = {
	KUNIT_CASE(capebus_resources_test_claim_release),
	KUNIT_CASE(capebus_resources_test_conflict),
	KUNIT_CASE(capebus_resources_test_board_pins),
	KUNIT_CASE(capebus_resources_test_reserve_board_busy),
	KUNIT_CASE(capebus_resources_test_console_pins),
	KUNIT_CASE(capebus_resources_test_shared_pins),
	KUNIT_CASE(capebus_resources_test_over_budget_granted),
	KUNIT_CASE(capebus_resources_test_over_budget_pins_refuse),
	KUNIT_CASE(capebus_resources_test_over_budget),
	KUNIT_CASE(capebus_resources_test_at_limit),
	KUNIT_CASE(capebus_resources_test_release_restores_budget),
	KUNIT_CASE(capebus_resources_test_several_rails),
	KUNIT_CASE(capebus_resources_test_pins_before_power),
	KUNIT_CASE(capebus_resources_test_zero_budget),
	KUNIT_CASE(capebus_resources_test_small_why),
	KUNIT_CASE(capebus_resources_test_claim_from_info),
	KUNIT_CASE(capebus_resources_test_pin_names),
	KUNIT_CASE(capebus_resources_test_diff),
	KUNIT_CASE(capebus_resources_test_bus_pin_shareable),
	{}
};

static struct kunit_suite capebus_resources_test_suite = {
	.name = "capebus-resources",
	.test_cases = capebus_resources_test_cases,
};

kunit_test_suite(capebus_resources_test_suite);

MODULE_DESCRIPTION("KUnit tests for the capebus core");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
