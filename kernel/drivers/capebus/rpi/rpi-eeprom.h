/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capebus: parser for the Raspberry Pi HAT (version 1) and HAT+ (version 2)
 * ID EEPROM.  The EEPROM is untrusted input: nothing here does I/O or
 * allocates, and nothing reads past the buffer it is given.
 *
 * Layout: include/uapi/linux/capebus-hat.h.
 */
#ifndef _RPI_EEPROM_H
#define _RPI_EEPROM_H

#include <linux/types.h>
#include <uapi/linux/capebus-hat.h>

/* GPIO0-45: bank 0 (GPIO0-27), then bank 1 (GPIO28-45). */
#define RPI_EEPROM_NUM_GPIOS \
	(RPI_HAT_GPIO_BANK0_NUM + RPI_HAT_GPIO_BANK1_NUM)

/*
 * The longest HAT+ overlay name: with ".dtbo" appended it still fits in
 * NAME_MAX (255) bytes.
 */
#define RPI_EEPROM_OVERLAY_MAX	250

/**
 * struct rpi_eeprom - a decoded HAT or HAT+ EEPROM image
 * @version: RPI_HAT_VERSION_1 (HAT) or RPI_HAT_VERSION_2 (HAT+)
 * @numatoms: atoms in the image
 * @eeplen: bytes of the image, header included; the caller's buffer may
 *	hold more (what follows is not looked at)
 * @uuid: the product UUID as the image stores it, @uuid[0] least
 *	significant (see struct rpi_hat_vendor)
 * @product_id: product id
 * @product_ver: product version
 * @vendor: the vendor string, NUL-terminated, printable ASCII, maybe empty
 * @product: the product string, likewise
 * @has_gpio_bank0: a GPIO map bank 0 atom was present (always, version 1)
 * @has_gpio_bank1: a GPIO map bank 1 atom was present (version 1 only)
 * @gpio_flags: per bank, the map's drive/slew/hysteresis byte (0 if the
 *	bank has no map)
 * @back_power: RPI_HAT_BACK_POWER_*, from bank 0's map
 * @gpio: per GPIO 0-45, its RPI_HAT_PIN_* byte (0 if its bank has no map)
 * @used_pins: GPIOs with RPI_HAT_PIN_USED set, as counted
 * @dt: version 1: the device tree atom's data, a .dtbo not looked at here
 *	(points into the caller's buffer; never empty); NULL if none, and
 *	always NULL for version 2
 * @dt_len: bytes of @dt, 0 if none
 * @overlay: version 2: the overlay the device tree atom names,
 *	NUL-terminated, printable ASCII beginning with a letter or digit,
 *	without '/'; empty if there is no device tree atom, always empty for
 *	version 1
 * @num_custom: custom atoms
 * @num_unknown: atoms of types this parser does not know (skipped)
 * @has_power: a power supply atom was present (version 2 only)
 * @current_supply_ma: what the HAT+ supplies, mA; 0 without a power atom
 */
struct rpi_eeprom {
	u8 version;
	u16 numatoms;
	u32 eeplen;
	u32 uuid[4];
	u16 product_id;
	u16 product_ver;
	char vendor[RPI_HAT_STRING_MAX + 1];
	char product[RPI_HAT_STRING_MAX + 1];
	bool has_gpio_bank0;
	bool has_gpio_bank1;
	u8 gpio_flags[2];
	u8 back_power;
	u8 gpio[RPI_EEPROM_NUM_GPIOS];
	unsigned int used_pins;
	const void *dt;
	size_t dt_len;
	char overlay[RPI_EEPROM_OVERLAY_MAX + 1];
	unsigned int num_custom;
	unsigned int num_unknown;
	bool has_power;
	u32 current_supply_ma;
};

int rpi_eeprom_parse(struct rpi_eeprom *ee, const void *buf, size_t len,
		     char *why, size_t why_len);
const char *rpi_eeprom_atom_name(u16 type);

#endif /* _RPI_EEPROM_H */
