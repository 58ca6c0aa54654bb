// SPDX-License-Identifier: GPL-2.0
/*
 * capebus-bone: the BeagleBone expansion header as the capebus core sees it
 * (74 signal pins in the SRM's pin-usage order, three power rails, the
 * EEPROM's field sizes: a full field has no NUL), and the translation of a decoded cape EEPROM into
 * the core's description of a cape.
 */

#include <linux/bitmap.h>
#include <linux/capebus.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include "bone.h"

/*
 * The connector's GPIO nexus names header pins as 800 + n for P8.n and
 * 900 + n for P9.n (the binding's gpio-map): per pin of cape_bone_pin_names,
 * in its order (bone-eeprom-test.c checks that the two agree).
 */
static const u32 bone_gpio_codes[CAPE_EEPROM_A1_NUM_PINS] = {
	922, 921, 918, 917, 942, 835, 833, 831,
	832, 919, 920, 926, 924, 941, 819, 813,
	814, 817, 911, 913, 825, 824, 805, 806,
	823, 822, 803, 804, 812, 811, 816, 815,
	915, 923, 914, 916, 912, 826, 821, 820,
	818, 807, 809, 810, 808, 845, 846, 843,
	844, 841, 842, 839, 840, 837, 838, 836,
	834, 827, 829, 828, 830, 929, 930, 928,
	927, 931, 925, 939, 940, 937, 938, 933,
	936, 935,
};

/* Data only: the core keeps a copy of it for each controller. */
const struct capebus_header bone_header = {
	.name		= "beaglebone",
	.pin_names	= cape_bone_pin_names,
	.num_pins	= ARRAY_SIZE(cape_bone_pin_names),
	.rail_names	= bone_rail_names,
	.num_rails	= ARRAY_SIZE(bone_rail_names),
	.text_max	= {
		[CAPEBUS_BOARD_NAME]	= CAPE_EEPROM_BOARD_NAME_LEN,
		[CAPEBUS_VERSION]	= CAPE_EEPROM_VERSION_LEN,
		[CAPEBUS_MANUFACTURER]	= CAPE_EEPROM_MANUFACTURER_LEN,
		[CAPEBUS_PART_NUMBER]	= CAPE_EEPROM_PART_NUMBER_LEN,
		[CAPEBUS_SERIAL]	= CAPE_EEPROM_SERIAL_LEN,
	},
	.gpio_codes	= bone_gpio_codes,
	.family		= BONE_FAMILY,
	.default_version = BONE_DEFAULT_VERSION,
	.partno_params	= true,
};
EXPORT_SYMBOL_IF_KUNIT(bone_header);

/**
 * bone_info_from_eeprom() - describe a cape from its decoded EEPROM
 * @info: filled in: identity, "A0"/"A1", the pins whose word says used with
 *	their settings, the rail currents
 * @ee: the decoded EEPROM
 */
void bone_info_from_eeprom(struct capebus_cape_info *info,
			   const struct cape_eeprom *ee)
{
	unsigned int i;

	memset(info, 0, sizeof(*info));
	strscpy(info->text[CAPEBUS_BOARD_NAME], ee->board_name);
	strscpy(info->text[CAPEBUS_VERSION], ee->version);
	strscpy(info->text[CAPEBUS_MANUFACTURER], ee->manufacturer);
	strscpy(info->text[CAPEBUS_PART_NUMBER], ee->part_number);
	strscpy(info->text[CAPEBUS_SERIAL], ee->serial);
	strscpy(info->format,
		ee->format == CAPE_EEPROM_FORMAT_A0 ? "A0" : "A1");

	for (i = 0; i < ee->num_pin_words && i < CAPE_EEPROM_A1_NUM_PINS; i++) {
		if (!(ee->pins[i] & CAPE_PIN_USED))
			continue;
		__set_bit(i, info->pins);
		cape_pin_word_setting(info->pin_setting[i],
				      sizeof(info->pin_setting[i]), i,
				      ee->pins[i]);
	}

	for (i = 0; i < BONE_NUM_RAILS; i++)
		info->current_ma[i] = ee->current_ma[i];
	info->supplied_ma = ee->dc_supplied_ma;
}
EXPORT_SYMBOL_IF_KUNIT(bone_info_from_eeprom);

/**
 * bone_overlay_name() - the firmware overlay of a cape, as bone_capemgr
 *	named it
 * @info: the cape
 * @name: where to write "<PART>-<VERSION>.dtbo" (version "00A0" if the
 *	cape states none)
 * @len: bytes at @name
 *
 * Return: 0, or -ENAMETOOLONG.
 */
int bone_overlay_name(const struct capebus_cape_info *info, char *name,
		      size_t len)
{
	const char *version = info->text[CAPEBUS_VERSION];
	int n;

	n = snprintf(name, len, "%s-%s.dtbo", info->text[CAPEBUS_PART_NUMBER],
		     version[0] ? version : BONE_DEFAULT_VERSION);

	return n < len ? 0 : -ENAMETOOLONG;
}
EXPORT_SYMBOL_IF_KUNIT(bone_overlay_name);

/**
 * bone_decode_image() - decode a whole cape EEPROM image
 * @buf: the image
 * @len: bytes at @buf
 * @info: what it says
 * @overlay: set to the overlay of its extension record (in @buf), or NULL
 * @overlay_len: bytes at *@overlay
 * @why: where to say what is wrong
 * @why_len: bytes at @why
 *
 * Return: 0, -ENODATA for a blank image, -EINVAL (@why says why) or
 * -ENOMEM.
 */
int bone_decode_image(const void *buf, size_t len,
		      struct capebus_cape_info *info,
		      const void **overlay, size_t *overlay_len,
		      char *why, size_t why_len)
{
	struct cape_eeprom_ext ext = { };
	struct cape_eeprom *ee;
	int ret;

	ee = kzalloc(sizeof(*ee), GFP_KERNEL);
	if (!ee)
		return -ENOMEM;

	ret = cape_eeprom_parse(ee, buf, len, why, why_len);
	if (!ret)
		ret = cape_eeprom_parse_ext(ee, buf, len, &ext, why, why_len);
	if (!ret) {
		bone_info_from_eeprom(info, ee);
		*overlay = ext.overlay;
		*overlay_len = ext.overlay_len;
	}
	kfree(ee);

	return ret;
}
