/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capebus-rpi: the Raspberry Pi 40-pin header, shared by the controller and
 * its tests.
 */
#ifndef _CAPEBUS_RPI_H
#define _CAPEBUS_RPI_H

#include <linux/sizes.h>
#include <linux/types.h>
#include <uapi/linux/capebus-hat.h>

struct capebus_cape_info;
struct device;
struct rpi_eeprom;

/* The family name capes of this header match by. */
#define RPI_FAMILY		"rpi"

/* Slots: HAT (0x50), stackable HAT+ (0x51), Power HAT+ (0x52, 0x53). */
#define RPI_MAX_SLOTS		4

/* The header's GPIOs: GPIO0-27, header pins named "GPIO<n>". */
#define RPI_NUM_PINS		RPI_HAT_GPIO_BANK0_NUM

enum rpi_rail {
	RPI_RAIL_3V3,
	RPI_RAIL_5V,
	RPI_NUM_RAILS,
};

/* The largest image read from a slot: a 24C512. */
#define RPI_EEPROM_READ_MAX	SZ_64K

extern const struct capebus_header rpi_header;

int rpi_info_from_eeprom(struct capebus_cape_info *info,
			 const struct rpi_eeprom *ee, char *why,
			 size_t why_len);
int rpi_overlay_name(const struct capebus_cape_info *info, char *name,
		     size_t len);
bool rpi_firmware_hat_matches(const struct capebus_cape_info *info,
			      const char *uuid, const char *product,
			      const char *product_id, const char *product_ver);
bool rpi_applied_by_firmware(const struct capebus_cape_info *info,
			     unsigned int nr);
void rpi_board_pins(struct device *dev, unsigned long *pins);
int rpi_decode_image(const void *buf, size_t len,
		     struct capebus_cape_info *info,
		     const void **overlay, size_t *overlay_len,
		     char *why, size_t why_len);

#endif /* _CAPEBUS_RPI_H */
