// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for a HAT as the capebus core sees it: identity, the GPIO
 * map's pins and settings, the overlay a HAT+ names.
 */

#include <kunit/test.h>
#include <linux/capebus.h>
#include <linux/mod_devicetable.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "rpi-eeprom.h"
#include "rpi.h"

static struct capebus_cape_info *rpi_test_info(struct kunit *test)
{
	struct capebus_cape_info *info;

	info = kunit_kzalloc(test, sizeof(*info), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, info);
	return info;
}

static struct rpi_eeprom *rpi_test_hat(struct kunit *test, u8 version)
{
	struct rpi_eeprom *ee;

	ee = kunit_kzalloc(test, sizeof(*ee), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ee);
	ee->version = version;
	ee->uuid[3] = 0x3f1a2b4c;
	ee->uuid[2] = 0x5d6e4f70;
	ee->uuid[1] = 0x8192a3b4;
	ee->uuid[0] = 0xc5d6e7f8;
	ee->product_id = 0x0104;
	ee->product_ver = 0x0002;
	strscpy(ee->vendor, "Pimoroni Ltd.");
	strscpy(ee->product, "Enviro pHAT");
	return ee;
}

static void rpi_test_identity(struct kunit *test)
{
	struct capebus_cape_info *info = rpi_test_info(test);
	struct rpi_eeprom *ee = rpi_test_hat(test, RPI_HAT_VERSION_2);
	char why[64] = "";
	char uuid[40];

	strscpy(ee->overlay, "enviro-phat");
	ee->current_supply_ma = 1500;
	KUNIT_ASSERT_EQ(test, rpi_info_from_eeprom(info, ee, why, sizeof(why)), 0);
	KUNIT_EXPECT_STREQ(test, info->text[CAPEBUS_BOARD_NAME], "Enviro pHAT");
	KUNIT_EXPECT_STREQ(test, info->text[CAPEBUS_PART_NUMBER], "Enviro pHAT");
	KUNIT_EXPECT_STREQ(test, info->text[CAPEBUS_VERSION], "0x0002");
	KUNIT_EXPECT_STREQ(test, info->text[CAPEBUS_MANUFACTURER], "Pimoroni Ltd.");
	KUNIT_EXPECT_STREQ(test, info->text[CAPEBUS_SERIAL], "");
	KUNIT_EXPECT_STREQ(test, info->format, "HAT+");
	KUNIT_EXPECT_STREQ(test, info->overlay_name, "enviro-phat");
	KUNIT_EXPECT_EQ(test, info->product_id, 0x0104);
	KUNIT_EXPECT_EQ(test, info->product_version, 0x0002);
	KUNIT_EXPECT_EQ(test, info->ids, CAPEBUS_ID_UUID | CAPEBUS_ID_PRODUCT |
					 CAPEBUS_ID_PRODUCT_VERSION);
	KUNIT_EXPECT_EQ(test, info->supplied_ma, 1500);
	/* eepdump's order: word 3 first. */
	snprintf(uuid, sizeof(uuid), "%pUb", &info->uuid);
	KUNIT_EXPECT_STREQ(test, uuid, "3f1a2b4c-5d6e-4f70-8192-a3b4c5d6e7f8");
	KUNIT_EXPECT_TRUE(test, bitmap_empty(info->pins, CAPEBUS_MAX_PINS));
}

static void rpi_test_part_number(struct kunit *test)
{
	struct capebus_cape_info *info = rpi_test_info(test);
	struct rpi_eeprom *ee = rpi_test_hat(test, RPI_HAT_VERSION_2);
	char why[64] = "";

	/* A product with '/' would make a path of a firmware name. */
	strscpy(ee->product, "AI HAT+ 26/13");
	KUNIT_ASSERT_EQ(test, rpi_info_from_eeprom(info, ee, why, sizeof(why)), 0);
	KUNIT_EXPECT_STREQ(test, info->text[CAPEBUS_PART_NUMBER], "AI HAT+ 26_13");
	KUNIT_EXPECT_STREQ(test, info->text[CAPEBUS_BOARD_NAME], "AI HAT+ 26/13");

	/* A driver's id table holds 63 bytes: every HAT can be matched. */
	memset(ee->product, 'p', RPI_HAT_STRING_MAX);
	ee->product[RPI_HAT_STRING_MAX] = '\0';
	KUNIT_ASSERT_EQ(test, rpi_info_from_eeprom(info, ee, why, sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, strlen(info->text[CAPEBUS_PART_NUMBER]),
			(size_t)CAPEBUS_ID_SIZE - 1);
	KUNIT_EXPECT_STREQ(test, info->text[CAPEBUS_BOARD_NAME], ee->product);

	/* No product string: the product id, never an empty part. */
	ee->product[0] = '\0';
	KUNIT_ASSERT_EQ(test, rpi_info_from_eeprom(info, ee, why, sizeof(why)), 0);
	KUNIT_EXPECT_STREQ(test, info->text[CAPEBUS_PART_NUMBER], "0x0104");
}

static void rpi_test_gpio_map(struct kunit *test)
{
	struct capebus_cape_info *info = rpi_test_info(test);
	struct rpi_eeprom *ee = rpi_test_hat(test, RPI_HAT_VERSION_1);
	char why[64] = "";

	ee->has_gpio_bank0 = true;
	ee->gpio[2] = RPI_HAT_PIN_USED | RPI_HAT_PIN_FUNC_ALT0 |
		      (RPI_HAT_PIN_PULL_UP << RPI_HAT_PIN_PULL_SHIFT);
	ee->gpio[17] = RPI_HAT_PIN_USED | RPI_HAT_PIN_FUNC_OUTPUT;
	ee->gpio[18] = RPI_HAT_PIN_USED | RPI_HAT_PIN_FUNC_ALT5 |
		       (RPI_HAT_PIN_PULL_NONE << RPI_HAT_PIN_PULL_SHIFT);
	ee->gpio[27] = RPI_HAT_PIN_USED | RPI_HAT_PIN_FUNC_ALT4 |
		       (RPI_HAT_PIN_PULL_DOWN << RPI_HAT_PIN_PULL_SHIFT);
	/* Not used: its function is not the cape's. */
	ee->gpio[4] = RPI_HAT_PIN_FUNC_OUTPUT;

	KUNIT_ASSERT_EQ(test, rpi_info_from_eeprom(info, ee, why, sizeof(why)), 0);
	KUNIT_EXPECT_STREQ(test, info->format, "HAT");
	KUNIT_EXPECT_EQ(test, bitmap_weight(info->pins, CAPEBUS_MAX_PINS), 4);
	KUNIT_EXPECT_STREQ(test, info->pin_setting[2], "alt0 pull-up");
	KUNIT_EXPECT_STREQ(test, info->pin_setting[17], "output");
	KUNIT_EXPECT_STREQ(test, info->pin_setting[18], "alt5 pull-none");
	KUNIT_EXPECT_STREQ(test, info->pin_setting[27], "alt4 pull-down");
	KUNIT_EXPECT_FALSE(test, test_bit(4, info->pins));
	KUNIT_EXPECT_STREQ(test, rpi_header.pin_names[17], "GPIO17");
	KUNIT_EXPECT_EQ(test, capebus_header_gpio_pin(&rpi_header, 17), 17);
}

static void rpi_test_back_power(struct kunit *test)
{
	struct capebus_cape_info *info = rpi_test_info(test);
	struct rpi_eeprom *ee = rpi_test_hat(test, RPI_HAT_VERSION_1);
	char why[64] = "";

	ee->has_gpio_bank0 = true;
	KUNIT_ASSERT_EQ(test, rpi_info_from_eeprom(info, ee, why, sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, info->supplied_ma, 0);
	ee->back_power = RPI_HAT_BACK_POWER_1A3;
	KUNIT_ASSERT_EQ(test, rpi_info_from_eeprom(info, ee, why, sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, info->supplied_ma, 1300);
	ee->back_power = RPI_HAT_BACK_POWER_2A;
	KUNIT_ASSERT_EQ(test, rpi_info_from_eeprom(info, ee, why, sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, info->supplied_ma, 2000);
}

static void rpi_test_bank1_refused(struct kunit *test)
{
	struct capebus_cape_info *info = rpi_test_info(test);
	struct rpi_eeprom *ee = rpi_test_hat(test, RPI_HAT_VERSION_1);
	char why[96] = "";

	ee->has_gpio_bank1 = true;
	ee->gpio[30] = RPI_HAT_PIN_USED | RPI_HAT_PIN_FUNC_INPUT;
	KUNIT_EXPECT_EQ(test, rpi_info_from_eeprom(info, ee, why, sizeof(why)),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "GPIO map bank 1 uses GPIO30, which the 40-pin header does not have");
}

static void rpi_test_overlay_name(struct kunit *test)
{
	struct capebus_cape_info *info = rpi_test_info(test);
	char name[CAPEBUS_TEXT_LEN + 8];

	strscpy(info->overlay_name, "rpi-sense");
	KUNIT_EXPECT_EQ(test, rpi_overlay_name(info, name, sizeof(name)), 0);
	KUNIT_EXPECT_STREQ(test, name, "rpi-sense.dtbo");
	KUNIT_EXPECT_EQ(test, rpi_overlay_name(info, name, 10), -ENAMETOOLONG);

	/* A v1 HAT names none: it carries its overlay or has none. */
	info->overlay_name[0] = '\0';
	strscpy(name, "stale");
	KUNIT_EXPECT_EQ(test, rpi_overlay_name(info, name, sizeof(name)), 0);
	KUNIT_EXPECT_STREQ(test, name, "");
}

/* The firmware's /hat strings against the HAT a slot read. */
static void rpi_test_firmware_hat(struct kunit *test)
{
	struct capebus_cape_info *info = rpi_test_info(test);
	struct rpi_eeprom *ee = rpi_test_hat(test, RPI_HAT_VERSION_2);
	const char *uuid = "3f1a2b4c-5d6e-4f70-8192-a3b4c5d6e7f8";
	char why[64] = "";

	KUNIT_ASSERT_EQ(test, rpi_info_from_eeprom(info, ee, why, sizeof(why)), 0);
	KUNIT_EXPECT_TRUE(test, rpi_firmware_hat_matches(info, uuid, "Enviro pHAT",
							 "0x0104", "0x0002"));
	KUNIT_EXPECT_TRUE(test, rpi_firmware_hat_matches(info,
							 "3F1A2B4C-5D6E-4F70-8192-A3B4C5D6E7F8",
							 NULL, NULL, NULL));
	KUNIT_EXPECT_TRUE(test, rpi_firmware_hat_matches(info, NULL, "Enviro pHAT",
							 NULL, NULL));
	/* Another HAT of the same product, another version, or nothing said. */
	KUNIT_EXPECT_FALSE(test, rpi_firmware_hat_matches(info,
							  "3f1a2b4c-5d6e-4f70-8192-a3b4c5d6e7f9",
							  "Enviro pHAT", NULL, NULL));
	KUNIT_EXPECT_FALSE(test, rpi_firmware_hat_matches(info, uuid, "Enviro pHAT",
							  "0x0104", "0x0003"));
	KUNIT_EXPECT_FALSE(test, rpi_firmware_hat_matches(info, uuid, "Enviro", NULL,
							  NULL));
	KUNIT_EXPECT_FALSE(test, rpi_firmware_hat_matches(info, NULL, NULL, "0x0104",
							  "0x0002"));
}

static struct kunit_case rpi_header_test_cases[] = {
	KUNIT_CASE(rpi_test_identity),
	KUNIT_CASE(rpi_test_part_number),
	KUNIT_CASE(rpi_test_gpio_map),
	KUNIT_CASE(rpi_test_back_power),
	KUNIT_CASE(rpi_test_firmware_hat),
	KUNIT_CASE(rpi_test_bank1_refused),
	KUNIT_CASE(rpi_test_overlay_name),
	{}
};

static struct kunit_suite rpi_header_test_suite = {
	.name = "capebus-rpi-header",
	.test_cases = rpi_header_test_cases,
};

kunit_test_suite(rpi_header_test_suite);
