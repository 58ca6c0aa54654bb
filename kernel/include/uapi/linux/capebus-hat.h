/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * capebus: the Raspberry Pi HAT (version 1) and HAT+ (version 2) ID EEPROM
 * layout.
 *
 * This header is the single definition of the format shared by the kernel
 * (the capebus-rpi connector) and by userspace tools that write or decode
 * HAT EEPROMs.  It restates the layout Raspberry Pi's own tools write
 * (eepmake, eeptools/ in the raspberrypi/utils repository).
 *
 * All multi-byte integers are little-endian.  An image is a header followed
 * by @numatoms atoms, back to back, with no padding:
 *
 *	struct rpi_hat_header				12 bytes
 *	struct rpi_hat_atom_header + data + CRC-16	repeated @numatoms times
 *
 * Each atom's @dlen counts its data and the two CRC bytes that follow the
 * data.  The CRC covers the atom header and the data (not the CRC itself);
 * it is CRC-16/ARC: polynomial 0x8005 reflected (0xa001), initial value 0,
 * no final xor (the CRC of the ASCII string "123456789" is 0xbb3d).  In the
 * kernel that is crc16(0, buf, len) of <linux/crc16.h>.
 *
 * The writer's atom order: vendor, [GPIO map bank 0], [device tree],
 * custom..., [GPIO map bank 1], [power supply].  Atom @count is the atom's
 * index, 0 to @numatoms - 1; readers refuse a mismatch.
 */
#ifndef _UAPI_LINUX_CAPEBUS_HAT_H
#define _UAPI_LINUX_CAPEBUS_HAT_H

#include <linux/types.h>

/* Bytes 0-3 of every image: "R-Pi"; as a __le32, 0x69502d52. */
#define RPI_HAT_SIGNATURE		0x69502d52U
#define RPI_HAT_SIGNATURE_STR		"R-Pi"

#define RPI_HAT_VERSION_1		1	/* HAT: GPIO map, DT atom holds a .dtbo */
#define RPI_HAT_VERSION_2		2	/* HAT+: DT atom holds an overlay name */

/*
 * Where the ID EEPROM answers on the ID bus (ID_SD/ID_SC, GPIO0/GPIO1).  A
 * legacy HAT and a standard HAT+ use 0x50; stackable HAT+s the others.
 */
#define RPI_HAT_I2C_ADDR		0x50	/* HAT, or a standard HAT+ */
#define RPI_HAT_I2C_ADDR_STACKABLE	0x51	/* a stackable HAT+ */
#define RPI_HAT_I2C_ADDR_POWER_MODE0	0x52	/* a stackable Power HAT+, MODE0 */
#define RPI_HAT_I2C_ADDR_POWER_MODE1	0x53	/* a stackable Power HAT+, MODE1 */

/**
 * struct rpi_hat_header - the image header, 12 bytes
 * @signature: RPI_HAT_SIGNATURE
 * @version: RPI_HAT_VERSION_1 or RPI_HAT_VERSION_2
 * @reserved: 0
 * @numatoms: number of atoms that follow
 * @eeplen: bytes of the whole image, this header included
 */
struct rpi_hat_header {
	__le32	signature;
	__u8	version;
	__u8	reserved;
	__le16	numatoms;
	__le32	eeplen;
} __attribute__((packed));

/* Atom types. */
#define RPI_HAT_ATOM_INVALID		0x0000
#define RPI_HAT_ATOM_VENDOR		0x0001	/* struct rpi_hat_vendor + strings; required */
#define RPI_HAT_ATOM_GPIO		0x0002	/* struct rpi_hat_gpio_map; HAT only, required */
#define RPI_HAT_ATOM_DT			0x0003	/* version 1: a .dtbo; version 2: an overlay name */
#define RPI_HAT_ATOM_CUSTOM		0x0004	/* any bytes; any number of them, order kept */
#define RPI_HAT_ATOM_GPIO_BANK1		0x0005	/* struct rpi_hat_gpio_map_bank1, GPIO28-45 */
#define RPI_HAT_ATOM_POWER_SUPPLY	0x0006	/* struct rpi_hat_power_supply; version 2 only */
#define RPI_HAT_ATOM_INVALID_FFFF	0xffff

/**
 * struct rpi_hat_atom_header - header of one atom, 8 bytes
 * @type: RPI_HAT_ATOM_*
 * @count: the atom's index in the image, from 0
 * @dlen: bytes of data plus the 2-byte CRC that follows the data
 */
struct rpi_hat_atom_header {
	__le16	type;
	__le16	count;
	__le32	dlen;
} __attribute__((packed));

#define RPI_HAT_CRC_SIZE		2
/* The smallest atom: a header and a CRC. */
#define RPI_HAT_ATOM_MIN_SIZE		(sizeof(struct rpi_hat_atom_header) + RPI_HAT_CRC_SIZE)

/* The longest vendor or product string (a __u8 length; no NUL stored). */
#define RPI_HAT_STRING_MAX		255

/**
 * struct rpi_hat_vendor - RPI_HAT_ATOM_VENDOR data, 22 bytes + the strings
 * @uuid: the product UUID as four words, @uuid[0] least significant: UUID
 *	aaaaaaaa-bbbb-cccc-dddd-eeeeffffffff is @uuid[3] = 0xaaaaaaaa,
 *	@uuid[2] = 0xbbbbcccc, @uuid[1] = 0xddddeeee, @uuid[0] = 0xffffffff
 * @product_id: product id
 * @product_ver: product version
 * @vendor_len: bytes of the vendor string
 * @product_len: bytes of the product string
 * @strings: the vendor string then the product string, not NUL-terminated
 */
struct rpi_hat_vendor {
	__le32	uuid[4];
	__le16	product_id;
	__le16	product_ver;
	__u8	vendor_len;
	__u8	product_len;
	__u8	strings[];
} __attribute__((packed));

/* GPIO map: GPIO0 and GPIO1 are the ID EEPROM's own bus, never set. */
#define RPI_HAT_GPIO_BANK0_NUM		28	/* GPIO0-27 */
#define RPI_HAT_GPIO_BANK1_NUM		18	/* GPIO28-45 */
#define RPI_HAT_GPIO_FIRST		2

/**
 * struct rpi_hat_gpio_map - RPI_HAT_ATOM_GPIO data, 30 bytes
 * @flags: RPI_HAT_GPIO_DRIVE/SLEW/HYSTERESIS fields
 * @power: RPI_HAT_BACK_POWER_*
 * @pins: one RPI_HAT_PIN_* byte per GPIO 0-27
 */
struct rpi_hat_gpio_map {
	__u8	flags;
	__u8	power;
	__u8	pins[RPI_HAT_GPIO_BANK0_NUM];
} __attribute__((packed));

/**
 * struct rpi_hat_gpio_map_bank1 - RPI_HAT_ATOM_GPIO_BANK1 data, 20 bytes
 * @flags: as in struct rpi_hat_gpio_map
 * @power: unused, 0
 * @pins: one RPI_HAT_PIN_* byte per GPIO 28-45
 */
struct rpi_hat_gpio_map_bank1 {
	__u8	flags;
	__u8	power;
	__u8	pins[RPI_HAT_GPIO_BANK1_NUM];
} __attribute__((packed));

/* @flags: drive 0 = default, 1-8 = 2-16 mA in 2 mA steps, 9-15 reserved */
#define RPI_HAT_GPIO_DRIVE_MASK		0x0f
#define RPI_HAT_GPIO_DRIVE_MAX		8
/* @flags: slew 0 = default, 1 = rate limited, 2 = not limited, 3 reserved */
#define RPI_HAT_GPIO_SLEW_MASK		0x30
#define RPI_HAT_GPIO_SLEW_SHIFT		4
/* @flags: hysteresis 0 = default, 1 = disabled, 2 = enabled, 3 reserved */
#define RPI_HAT_GPIO_HYSTERESIS_MASK	0xc0
#define RPI_HAT_GPIO_HYSTERESIS_SHIFT	6

/* @power: whether the board back-powers the Pi through the 5V pins */
#define RPI_HAT_BACK_POWER_NONE		0
#define RPI_HAT_BACK_POWER_1A3		1	/* at least 1.3 A */
#define RPI_HAT_BACK_POWER_2A		2	/* at least 2 A; USB high current on */

/* @pins bytes */
#define RPI_HAT_PIN_USED		0x80	/* the board uses this GPIO */
#define RPI_HAT_PIN_PULL_MASK		0x60
#define RPI_HAT_PIN_PULL_SHIFT		5
#define RPI_HAT_PIN_PULL_DEFAULT	0
#define RPI_HAT_PIN_PULL_UP		1
#define RPI_HAT_PIN_PULL_DOWN		2
#define RPI_HAT_PIN_PULL_NONE		3
#define RPI_HAT_PIN_RESERVED_MASK	0x18	/* 0 */
#define RPI_HAT_PIN_FUNC_MASK		0x07	/* the BCM283x GPFSEL code */
#define RPI_HAT_PIN_FUNC_INPUT		0
#define RPI_HAT_PIN_FUNC_OUTPUT		1
#define RPI_HAT_PIN_FUNC_ALT5		2
#define RPI_HAT_PIN_FUNC_ALT4		3
#define RPI_HAT_PIN_FUNC_ALT0		4
#define RPI_HAT_PIN_FUNC_ALT1		5
#define RPI_HAT_PIN_FUNC_ALT2		6
#define RPI_HAT_PIN_FUNC_ALT3		7

/**
 * struct rpi_hat_power_supply - RPI_HAT_ATOM_POWER_SUPPLY data, 4 bytes
 * @current_supply: what the HAT+ supplies the Pi, in mA (written only when
 *	not 0; it counts for a normal, non-stacked HAT+)
 */
struct rpi_hat_power_supply {
	__le32	current_supply;
} __attribute__((packed));

#endif /* _UAPI_LINUX_CAPEBUS_HAT_H */
