// SPDX-License-Identifier: GPL-2.0
/*
 * capebus-rpi: a HAT whose overlay the Raspberry Pi firmware applied.
 *
 * Unless config.txt says force_eeprom_read=0, the firmware reads the
 * EEPROM at 0x50 on the ID bus before Linux starts, applies the overlay the
 * HAT carries or names, and describes the HAT in a /hat node: its vendor,
 * product, product_id, product_ver and uuid, as strings.  That HAT's nodes
 * are in the tree when the connector probes: capebus must not apply its
 * overlay a second time, but it still holds the HAT's pins, so that no HAT
 * declared later takes them (the bone's bootloader case, bone-bootloader.c).
 *
 * Only slot 0, the firmware's one address, can be the HAT it read.
 */

#include <linux/capebus.h>
#include <linux/of.h>
#include <linux/string.h>
#include <linux/uuid.h>

#include <kunit/visibility.h>

#include "rpi.h"

/* A /hat property's string, or NULL when it is missing or no string. */
static const char *rpi_hat_string(const struct device_node *hat,
				  const char *name)
{
	const char *s;

	return of_property_read_string(hat, name, &s) ? NULL : s;
}

/**
 * rpi_firmware_hat_matches() - does the firmware's /hat describe a cape?
 * @info: the cape, as its EEPROM describes it
 * @uuid: /hat's uuid ("3f1a2b4c-5d6e-..."), or NULL
 * @product: /hat's product, or NULL
 * @product_id: /hat's product_id ("0x0104"), or NULL
 * @product_ver: /hat's product_ver, or NULL
 *
 * The firmware writes the UUID in lower case, the id and version as
 * "0x%04x"; a UUID is compared without regard to case.  Every field /hat
 * has must be the cape's, and it must have the UUID or the product.
 *
 * Return: true if they describe the same HAT.
 */
bool rpi_firmware_hat_matches(const struct capebus_cape_info *info,
			      const char *uuid, const char *product,
			      const char *product_id, const char *product_ver)
{
	char want[UUID_STRING_LEN + 1];

	if (!uuid && !product)
		return false;
	if (uuid) {
		snprintf(want, sizeof(want), "%pUb", &info->uuid);
		if (strcasecmp(uuid, want))
			return false;
	}
	if (product && strcmp(product, info->text[CAPEBUS_BOARD_NAME]))
		return false;
	if (product_id) {
		snprintf(want, sizeof(want), "0x%04x", info->product_id);
		if (strcasecmp(product_id, want))
			return false;
	}
	if (product_ver) {
		snprintf(want, sizeof(want), "0x%04x", info->product_version);
		if (strcasecmp(product_ver, want))
			return false;
	}

	return true;
}
EXPORT_SYMBOL_IF_KUNIT(rpi_firmware_hat_matches);

/**
 * rpi_applied_by_firmware() - did the firmware apply a HAT's overlay?
 * @info: the cape, as its EEPROM describes it
 * @nr: its slot
 *
 * Return: true if @nr is slot 0 and the firmware's /hat node describes the
 * cape.
 */
bool rpi_applied_by_firmware(const struct capebus_cape_info *info,
			     unsigned int nr)
{
	struct device_node *hat __free(device_node) = NULL;

	if (nr)
		return false;
	hat = of_find_node_by_path("/hat");
	if (!hat)
		return false;

	return rpi_firmware_hat_matches(info, rpi_hat_string(hat, "uuid"),
					rpi_hat_string(hat, "product"),
					rpi_hat_string(hat, "product_id"),
					rpi_hat_string(hat, "product_ver"));
}
