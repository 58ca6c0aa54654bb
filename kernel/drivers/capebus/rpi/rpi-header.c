// SPDX-License-Identifier: GPL-2.0
/*
 * capebus-rpi: the 40-pin header's pins and rails, and a HAT or HAT+ as the
 * capebus core sees it.
 *
 * Identity: a HAT states a product UUID, a product id and version, a vendor
 * and a product string; no serial number.  The product string is the part
 * number cape drivers match (the firmware's hat_map matches it too), the
 * product version in hex ("0x0001") the version.
 */

#include <linux/capebus.h>
#include <linux/minmax.h>
#include <linux/mod_devicetable.h>
#include <linux/slab.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <linux/uuid.h>

#include <kunit/visibility.h>

#include "rpi-eeprom.h"
#include "rpi.h"

#define RPI_GPIO(n)	"GPIO" #n

static const char *const rpi_pin_names[RPI_NUM_PINS] = {
	RPI_GPIO(0), RPI_GPIO(1), RPI_GPIO(2), RPI_GPIO(3), RPI_GPIO(4),
	RPI_GPIO(5), RPI_GPIO(6), RPI_GPIO(7), RPI_GPIO(8), RPI_GPIO(9),
	RPI_GPIO(10), RPI_GPIO(11), RPI_GPIO(12), RPI_GPIO(13), RPI_GPIO(14),
	RPI_GPIO(15), RPI_GPIO(16), RPI_GPIO(17), RPI_GPIO(18), RPI_GPIO(19),
	RPI_GPIO(20), RPI_GPIO(21), RPI_GPIO(22), RPI_GPIO(23), RPI_GPIO(24),
	RPI_GPIO(25), RPI_GPIO(26), RPI_GPIO(27),
};

/* A GPIO specifier through the connector's gpio-map names the GPIO number. */
static const u32 rpi_gpio_codes[RPI_NUM_PINS] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
	14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
};

static const char *const rpi_rail_names[RPI_NUM_RAILS] = {
	[RPI_RAIL_3V3]	= "vdd-3v3",
	[RPI_RAIL_5V]	= "vdd-5v",
};

const struct capebus_header rpi_header = {
	.name		= "rpi-40pin",
	.pin_names	= rpi_pin_names,
	.num_pins	= ARRAY_SIZE(rpi_pin_names),
	.rail_names	= rpi_rail_names,
	.num_rails	= ARRAY_SIZE(rpi_rail_names),
	.text_max	= {
		[CAPEBUS_BOARD_NAME]	= RPI_HAT_STRING_MAX,
		[CAPEBUS_VERSION]	= sizeof("0xffff") - 1,
		[CAPEBUS_MANUFACTURER]	= RPI_HAT_STRING_MAX,
		[CAPEBUS_PART_NUMBER]	= RPI_HAT_STRING_MAX,
		[CAPEBUS_SERIAL]	= 0,
	},
	.gpio_codes	= rpi_gpio_codes,
	.family		= RPI_FAMILY,
};
EXPORT_SYMBOL_IF_KUNIT(rpi_header);

static const char *const rpi_pin_funcs[8] = {
	[RPI_HAT_PIN_FUNC_INPUT]	= "input",
	[RPI_HAT_PIN_FUNC_OUTPUT]	= "output",
	[RPI_HAT_PIN_FUNC_ALT0]		= "alt0",
	[RPI_HAT_PIN_FUNC_ALT1]		= "alt1",
	[RPI_HAT_PIN_FUNC_ALT2]		= "alt2",
	[RPI_HAT_PIN_FUNC_ALT3]		= "alt3",
	[RPI_HAT_PIN_FUNC_ALT4]		= "alt4",
	[RPI_HAT_PIN_FUNC_ALT5]		= "alt5",
};

static const char *const rpi_pin_pulls[4] = {
	[RPI_HAT_PIN_PULL_DEFAULT]	= "",
	[RPI_HAT_PIN_PULL_UP]		= " pull-up",
	[RPI_HAT_PIN_PULL_DOWN]		= " pull-down",
	[RPI_HAT_PIN_PULL_NONE]		= " pull-none",
};

/*
 * The part number: the product string, else the product id.  A product may
 * be 255 bytes, a cape driver's id table entry holds CAPEBUS_ID_SIZE - 1:
 * the part number is the product's first CAPEBUS_ID_SIZE - 1 bytes, so
 * that a driver can match every HAT (the board name keeps the whole).
 */
static void rpi_part_number(char *part, size_t len, const struct rpi_eeprom *ee)
{
	if (!ee->product[0]) {
		snprintf(part, len, "0x%04x", ee->product_id);
		return;
	}
	/* '/' would name a directory in a firmware path: never in a part. */
	strscpy(part, ee->product, min_t(size_t, len, CAPEBUS_ID_SIZE));
	strreplace(part, '/', '_');
}

/* What a HAT supplies the board: a HAT+'s power atom, a v1 HAT's map. */
static u32 rpi_supplied_ma(const struct rpi_eeprom *ee)
{
	switch (ee->back_power) {
	case RPI_HAT_BACK_POWER_1A3:
		return 1300;
	case RPI_HAT_BACK_POWER_2A:
		return 2000;
	default:
		return ee->current_supply_ma;
	}
}

/**
 * rpi_info_from_eeprom() - describe a HAT from its decoded EEPROM
 * @info: filled in: identity, "HAT"/"HAT+", a v1 HAT's GPIO map as pins
 *	with their settings ("alt0 pull-up"), what the HAT supplies (a HAT+'s
 *	power atom; a v1 HAT's back-power, at least 1300 or 2000 mA)
 * @ee: the decoded EEPROM
 * @why: where to say why the HAT cannot be a cape here
 * @why_len: bytes at @why
 *
 * Return: 0, or -EINVAL if the GPIO map names a GPIO the 40-pin header does
 * not have (bank 1 is a compute module's).
 */
int rpi_info_from_eeprom(struct capebus_cape_info *info,
			 const struct rpi_eeprom *ee, char *why,
			 size_t why_len)
{
	unsigned int i;
	u8 g;

	memset(info, 0, sizeof(*info));
	strscpy(info->text[CAPEBUS_BOARD_NAME], ee->product);
	snprintf(info->text[CAPEBUS_VERSION], CAPEBUS_TEXT_LEN, "0x%04x",
		 ee->product_ver);
	strscpy(info->text[CAPEBUS_MANUFACTURER], ee->vendor);
	rpi_part_number(info->text[CAPEBUS_PART_NUMBER], CAPEBUS_TEXT_LEN, ee);
	strscpy(info->format,
		ee->version == RPI_HAT_VERSION_1 ? "HAT" : "HAT+");

	/* uuid[0] is the least significant word: the UUID's last 4 bytes. */
	for (i = 0; i < 4; i++)
		put_unaligned_be32(ee->uuid[3 - i], &info->uuid.b[4 * i]);
	info->product_id = ee->product_id;
	info->product_version = ee->product_ver;
	info->ids = CAPEBUS_ID_UUID | CAPEBUS_ID_PRODUCT |
		    CAPEBUS_ID_PRODUCT_VERSION;
	strscpy(info->overlay_name, ee->overlay);

	for (i = 0; i < RPI_EEPROM_NUM_GPIOS; i++) {
		g = ee->gpio[i];
		if (!(g & RPI_HAT_PIN_USED))
			continue;
		if (i >= RPI_NUM_PINS) {
			snprintf(why, why_len,
				 "GPIO map bank 1 uses GPIO%u, which the 40-pin header does not have",
				 i);
			return -EINVAL;
		}
		__set_bit(i, info->pins);
		snprintf(info->pin_setting[i], CAPEBUS_SETTING_LEN, "%s%s",
			 rpi_pin_funcs[g & RPI_HAT_PIN_FUNC_MASK],
			 rpi_pin_pulls[(g & RPI_HAT_PIN_PULL_MASK) >>
				       RPI_HAT_PIN_PULL_SHIFT]);
	}
	info->supplied_ma = rpi_supplied_ma(ee);

	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rpi_info_from_eeprom);

/**
 * rpi_overlay_name() - the firmware overlay a HAT+ names
 * @info: the cape
 * @name: where to write "<overlay>.dtbo", or "" if the HAT names none
 * @len: bytes at @name
 *
 * A v1 HAT carries its overlay, or has none: it names no file.
 *
 * Return: 0, or -ENAMETOOLONG.
 */
int rpi_overlay_name(const struct capebus_cape_info *info, char *name,
		     size_t len)
{
	int n;

	if (!info->overlay_name[0]) {
		if (len)
			name[0] = '\0';
		return 0;
	}
	n = snprintf(name, len, "%s.dtbo", info->overlay_name);

	return n < len ? 0 : -ENAMETOOLONG;
}
EXPORT_SYMBOL_IF_KUNIT(rpi_overlay_name);

/**
 * rpi_decode_image() - decode a whole HAT or HAT+ EEPROM image
 * @buf: the image
 * @len: bytes at @buf
 * @info: what it says
 * @overlay: set to a v1 HAT's device tree atom (in @buf), or NULL
 * @overlay_len: bytes at *@overlay
 * @why: where to say what is wrong
 * @why_len: bytes at @why
 *
 * Return: 0, -ENODATA for a blank image, -EMSGSIZE for a short one,
 * -EINVAL (@why says why) or -ENOMEM.
 */
int rpi_decode_image(const void *buf, size_t len,
		     struct capebus_cape_info *info,
		     const void **overlay, size_t *overlay_len,
		     char *why, size_t why_len)
{
	int ret;

	struct rpi_eeprom *ee __free(kfree) = kzalloc(sizeof(*ee), GFP_KERNEL);
	if (!ee)
		return -ENOMEM;

	ret = rpi_eeprom_parse(ee, buf, len, why, why_len);
	if (ret)
		return ret;
	ret = rpi_info_from_eeprom(info, ee, why, why_len);
	if (ret)
		return ret;
	*overlay = ee->dt;
	*overlay_len = ee->dt_len;

	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rpi_decode_image);
