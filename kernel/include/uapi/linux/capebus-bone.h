/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * capebus: the BeagleBone cape ID EEPROM layout and the capebus extension
 * records stored in its free area (the capebus-bone connector's ID format;
 * <linux/capebus-hat.h> is the Raspberry Pi HAT's).
 *
 * This header is the single definition of the format shared by the kernel
 * (drivers/capebus) and by userspace tools that write or decode cape EEPROMs.
 * See Documentation/capebus/eeprom-format.rst.
 *
 * All multi-byte integers are big-endian.  Text fields are ASCII, padded
 * with NUL, '.' or 0xff; they are not NUL-terminated when full.
 */
#ifndef _UAPI_LINUX_CAPEBUS_BONE_H
#define _UAPI_LINUX_CAPEBUS_BONE_H

#include <linux/types.h>

/* Bytes 0-3 of every cape EEPROM. */
#define CAPE_EEPROM_MAGIC		0xaa5533eeU

/* Bytes 4-5: the format revision, two ASCII characters. */
#define CAPE_EEPROM_REV_A0		"A0"	/* original BeagleBone SRM */
#define CAPE_EEPROM_REV_A1		"A1"	/* BeagleBone Black SRM */

#define CAPE_EEPROM_BOARD_NAME_LEN	32
#define CAPE_EEPROM_VERSION_LEN		4
#define CAPE_EEPROM_MANUFACTURER_LEN	16
#define CAPE_EEPROM_PART_NUMBER_LEN	16
#define CAPE_EEPROM_SERIAL_LEN		12

/* Pin-usage words: A1 lists the 74 header signals of CAPE_BONE_PIN_NAMES, A0 70. */
#define CAPE_EEPROM_A1_NUM_PINS		74
#define CAPE_EEPROM_A0_NUM_PINS		70
/* Most pins a cape can claim (the SRM's "max 92" counts power pins too). */
#define CAPE_EEPROM_MAX_USED_PINS	92

/**
 * struct cape_eeprom_id - fields common to the A0 and A1 layouts (bytes 0-87)
 * @magic: CAPE_EEPROM_MAGIC
 * @revision: "A0" or "A1"
 * @board_name: ASCII board name
 * @version: ASCII hardware version, e.g. "00A0"
 * @manufacturer: ASCII manufacturer
 * @part_number: ASCII part number; the overlay is <part_number>-<version>.dtbo
 * @num_pins: number of header pins the cape uses
 * @serial: ASCII serial number, WWYY&&&&nnnn (week, year, assembly, unit)
 */
struct cape_eeprom_id {
	__be32	magic;
	char	revision[2];
	char	board_name[CAPE_EEPROM_BOARD_NAME_LEN];
	char	version[CAPE_EEPROM_VERSION_LEN];
	char	manufacturer[CAPE_EEPROM_MANUFACTURER_LEN];
	char	part_number[CAPE_EEPROM_PART_NUMBER_LEN];
	__be16	num_pins;
	char	serial[CAPE_EEPROM_SERIAL_LEN];
} __attribute__((packed));

/**
 * struct cape_eeprom_power - currents in mA (all __be16)
 * @vdd_3v3b: drawn from VDD_3V3B (A0 calls it VDD_3V3EXP)
 * @vdd_5v: drawn from VDD_5V
 * @sys_5v: drawn from SYS_5V
 * @dc_supplied: 0 if the cape supplies no power, else what it can supply
 */
struct cape_eeprom_power {
	__be16	vdd_3v3b;
	__be16	vdd_5v;
	__be16	sys_5v;
	__be16	dc_supplied;
} __attribute__((packed));

/**
 * struct cape_eeprom_a1 - revision A1 (BeagleBone Black SRM), 244 bytes
 * @id: identification fields, bytes 0-87
 * @pins: one pin-usage word per pin of CAPE_BONE_PIN_NAMES, bytes 88-235
 * @power: currents, bytes 236-243
 *
 * Bytes 244 to the end of the part are free for the cape maker; capebus
 * keeps its extension records there (struct capebus_ext_header).
 */
struct cape_eeprom_a1 {
	struct cape_eeprom_id		id;
	__be16				pins[CAPE_EEPROM_A1_NUM_PINS];
	struct cape_eeprom_power	power;
} __attribute__((packed));

/**
 * struct cape_eeprom_a0 - revision A0 (original BeagleBone SRM), 236 bytes
 * @id: identification fields, bytes 0-87
 * @pins: 70 pin-usage words, bytes 88-227, in CAPE_BONE_PIN_NAMES order as far
 *	as the A0 documents go (no source maps them for certain)
 * @power: currents, bytes 228-235
 */
struct cape_eeprom_a0 {
	struct cape_eeprom_id		id;
	__be16				pins[CAPE_EEPROM_A0_NUM_PINS];
	struct cape_eeprom_power	power;
} __attribute__((packed));

#define CAPE_EEPROM_A1_SIZE		244	/* sizeof(struct cape_eeprom_a1) */
#define CAPE_EEPROM_A0_SIZE		236	/* sizeof(struct cape_eeprom_a0) */
#define CAPE_EEPROM_PINS_OFFSET		88

/*
 * The largest part the SRM names (24C256, 32 KiB): nothing capebus reads or
 * writes, extension records included, lies beyond it.
 */
#define CAPE_EEPROM_MAX_SIZE		32768

/* Pin-usage word bits. */
#define CAPE_PIN_USED			0x8000	/* the cape uses this pin */
#define CAPE_PIN_DIR_MASK		0x6000
#define CAPE_PIN_DIR_IN			0x2000
#define CAPE_PIN_DIR_OUT		0x4000
#define CAPE_PIN_DIR_BIDIR		0x6000
#define CAPE_PIN_RESERVED_MASK		0x1f80	/* must be 0 */
#define CAPE_PIN_SLEW_SLOW		0x0040	/* clear: fast */
#define CAPE_PIN_RX_ENABLE		0x0020
#define CAPE_PIN_PULL_UP		0x0010	/* clear: pull-down */
#define CAPE_PIN_PULL_DISABLE		0x0008	/* clear: pull enabled */
#define CAPE_PIN_MODE_MASK		0x0007
/* Bits 6-0 are the AM335x pad control register value for the pin. */
#define CAPE_PIN_PADCONF_MASK		0x007f

/*
 * The 74 header signals in pin-usage order: entry i names the pin whose word
 * is at byte 88 + 2 * i, and the pin's mode-0 signal.  Initializers for
 * arrays of CAPE_EEPROM_A1_NUM_PINS strings.  The last seven are the analog
 * inputs AIN0-AIN6, for which only CAPE_PIN_USED applies.
 */
#define CAPE_BONE_FIRST_AIN		67
#define CAPE_BONE_PIN_NAMES {						\
	"P9.22", "P9.21", "P9.18", "P9.17", "P9.42", "P8.35", "P8.33", "P8.31",	\
	"P8.32", "P9.19", "P9.20", "P9.26", "P9.24", "P9.41", "P8.19", "P8.13",	\
	"P8.14", "P8.17", "P9.11", "P9.13", "P8.25", "P8.24", "P8.5", "P8.6",	\
	"P8.23", "P8.22", "P8.3", "P8.4", "P8.12", "P8.11", "P8.16", "P8.15",	\
	"P9.15", "P9.23", "P9.14", "P9.16", "P9.12", "P8.26", "P8.21", "P8.20",	\
	"P8.18", "P8.7", "P8.9", "P8.10", "P8.8", "P8.45", "P8.46", "P8.43",	\
	"P8.44", "P8.41", "P8.42", "P8.39", "P8.40", "P8.37", "P8.38", "P8.36",	\
	"P8.34", "P8.27", "P8.29", "P8.28", "P8.30", "P9.29", "P9.30", "P9.28",	\
	"P9.27", "P9.31", "P9.25", "P9.39", "P9.40", "P9.37", "P9.38", "P9.33",	\
	"P9.36", "P9.35",						\
}

#define CAPE_BONE_PIN_SIGNALS {						\
	"UART2_RXD", "UART2_TXD", "I2C1_SDA", "I2C1_SCL", "GPIO0_7",	\
	"UART4_CTSN", "UART4_RTSN", "UART5_CTSN", "UART5_RTSN", "I2C2_SCL",	\
	"I2C2_SDA", "UART1_RXD", "UART1_TXD", "CLKOUT2", "EHRPWM2A",	\
	"EHRPWM2B", "GPIO0_26", "GPIO0_27", "UART4_RXD", "UART4_TXD",	\
	"GPIO1_0", "GPIO1_1", "GPIO1_2", "GPIO1_3", "GPIO1_4",		\
	"GPIO1_5", "GPIO1_6", "GPIO1_7", "GPIO1_12", "GPIO1_13",	\
	"GPIO1_14", "GPIO1_15", "GPIO1_16", "GPIO1_17", "EHRPWM1A",	\
	"EHRPWM1B", "GPIO1_28", "GPIO1_29", "GPIO1_30", "GPIO1_31",	\
	"GPIO2_1", "TIMER4", "TIMER5", "TIMER6", "TIMER7",		\
	"GPIO2_6", "GPIO2_7", "GPIO2_8", "GPIO2_9", "GPIO2_10",		\
	"GPIO2_11", "GPIO2_12", "GPIO2_13", "UART5_TXD", "UART5_RXD",	\
	"UART3_CTSN", "UART3_RTSN", "GPIO2_22", "GPIO2_23", "GPIO2_24",	\
	"GPIO2_25", "SPI1_D0", "SPI1_D1", "SPI1_CS0", "GPIO3_19",	\
	"SPI1_SCLK", "GPIO3_21", "AIN0", "AIN1", "AIN2",		\
	"AIN3", "AIN4", "AIN5", "AIN6",					\
}

/*
 * capebus extension records, in the free area (byte 244 of an A1 EEPROM,
 * 236 of an A0 one).  An EEPROM without CAPEBUS_EXT_MAGIC there has no
 * records and is fully valid.  Layout:
 *
 *	struct capebus_ext_header			8 bytes
 *	struct capebus_ext_record + payload		repeated @count times
 *
 * Records follow each other with no padding.  @length in the header is the
 * number of bytes of records after the header, so a reader fetches the
 * standard area plus 8 bytes, then exactly @length more.
 *
 * CRCs are CRC-32/ISO-HDLC (the CRC of zlib, Ethernet and PNG: reflected
 * polynomial 0xedb88320, initial value and final xor 0xffffffff; the CRC of
 * the ASCII string "123456789" is 0xcbf43926).  In the kernel that is
 * ~crc32_le(~0, buf, len); in userspace zlib's crc32(0, buf, len).
 */
#define CAPEBUS_EXT_MAGIC		0x43425553U	/* "CBUS" */
#define CAPEBUS_EXT_VERSION		1
#define CAPEBUS_EXT_A1_OFFSET		CAPE_EEPROM_A1_SIZE
#define CAPEBUS_EXT_A0_OFFSET		CAPE_EEPROM_A0_SIZE

/**
 * struct capebus_ext_header - start of the extension area
 * @magic: CAPEBUS_EXT_MAGIC
 * @version: CAPEBUS_EXT_VERSION; a reader ignores an area of a newer
 *	version (the standard fields stay valid)
 * @count: number of records that follow
 * @length: bytes of records that follow this header
 */
struct capebus_ext_header {
	__be32	magic;
	__u8	version;
	__u8	count;
	__be16	length;
} __attribute__((packed));

/* Record types.  Readers skip types they do not know. */
#define CAPEBUS_EXT_ID_CRC		1	/* payload: struct capebus_ext_id_crc */
#define CAPEBUS_EXT_OVERLAY		2	/* payload: struct capebus_ext_overlay + blob */

/**
 * struct capebus_ext_record - header of one record
 * @type: CAPEBUS_EXT_*
 * @flags: 0; reserved
 * @length: bytes of payload after this header
 */
struct capebus_ext_record {
	__be16	type;
	__be16	flags;
	__be32	length;
} __attribute__((packed));

/**
 * struct capebus_ext_id_crc - CAPEBUS_EXT_ID_CRC payload
 * @crc32: CRC-32 of the standard area: bytes 0 to 243 (A1) or 235 (A0)
 */
struct capebus_ext_id_crc {
	__be32	crc32;
} __attribute__((packed));

/**
 * struct capebus_ext_overlay - CAPEBUS_EXT_OVERLAY payload header
 * @crc32: CRC-32 of the overlay blob
 * @data: a flattened device tree overlay (.dtbo), record length - 4 bytes
 */
struct capebus_ext_overlay {
	__be32	crc32;
	__u8	data[];
} __attribute__((packed));

#endif /* _UAPI_LINUX_CAPEBUS_BONE_H */
