/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * capebus: the BeagleBone cape ID EEPROM layout and the capebus extension
 * records stored in its free area.
 *
 * This header is the single definition of the format shared by the kernel
 * (drivers/capebus) and by userspace tools that write or decode cape EEPROMs.
 * See Documentation/capebus/eeprom-format.rst.
 *
 * All multi-byte integers are big-endian.  Text fields are ASCII, padded
 * with NUL, '.' or 0xff; they are not NUL-terminated when full.
 */
#ifndef _UAPI_LINUX_CAPEBUS_H
#define _UAPI_LINUX_CAPEBUS_H

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

/* Pin-usage words: A1 lists the 74 header signals of CAPE_BONE_PINS, A0 70. */
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
 * @pins: one pin-usage word per signal of CAPE_BONE_PINS, bytes 88-235
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
 * @pins: 70 pin-usage words, bytes 88-227, in CAPE_BONE_PINS order as far
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
 * The 74 header signals in pin-usage order: X(index, "header pin",
 * "mode-0 signal").  Index i is the word at byte 88 + 2 * i.  The last
 * seven are the analog inputs AIN0-AIN6: only CAPE_PIN_USED applies.
 */
#define CAPE_BONE_FIRST_AIN		67
#define CAPE_BONE_PINS(X) \
	X(0, "P9.22", "UART2_RXD")	X(1, "P9.21", "UART2_TXD")	\
	X(2, "P9.18", "I2C1_SDA")	X(3, "P9.17", "I2C1_SCL")	\
	X(4, "P9.42", "GPIO0_7")	X(5, "P8.35", "UART4_CTSN")	\
	X(6, "P8.33", "UART4_RTSN")	X(7, "P8.31", "UART5_CTSN")	\
	X(8, "P8.32", "UART5_RTSN")	X(9, "P9.19", "I2C2_SCL")	\
	X(10, "P9.20", "I2C2_SDA")	X(11, "P9.26", "UART1_RXD")	\
	X(12, "P9.24", "UART1_TXD")	X(13, "P9.41", "CLKOUT2")	\
	X(14, "P8.19", "EHRPWM2A")	X(15, "P8.13", "EHRPWM2B")	\
	X(16, "P8.14", "GPIO0_26")	X(17, "P8.17", "GPIO0_27")	\
	X(18, "P9.11", "UART4_RXD")	X(19, "P9.13", "UART4_TXD")	\
	X(20, "P8.25", "GPIO1_0")	X(21, "P8.24", "GPIO1_1")	\
	X(22, "P8.5", "GPIO1_2")	X(23, "P8.6", "GPIO1_3")	\
	X(24, "P8.23", "GPIO1_4")	X(25, "P8.22", "GPIO1_5")	\
	X(26, "P8.3", "GPIO1_6")	X(27, "P8.4", "GPIO1_7")	\
	X(28, "P8.12", "GPIO1_12")	X(29, "P8.11", "GPIO1_13")	\
	X(30, "P8.16", "GPIO1_14")	X(31, "P8.15", "GPIO1_15")	\
	X(32, "P9.15", "GPIO1_16")	X(33, "P9.23", "GPIO1_17")	\
	X(34, "P9.14", "EHRPWM1A")	X(35, "P9.16", "EHRPWM1B")	\
	X(36, "P9.12", "GPIO1_28")	X(37, "P8.26", "GPIO1_29")	\
	X(38, "P8.21", "GPIO1_30")	X(39, "P8.20", "GPIO1_31")	\
	X(40, "P8.18", "GPIO2_1")	X(41, "P8.7", "TIMER4")		\
	X(42, "P8.9", "TIMER5")		X(43, "P8.10", "TIMER6")	\
	X(44, "P8.8", "TIMER7")		X(45, "P8.45", "GPIO2_6")	\
	X(46, "P8.46", "GPIO2_7")	X(47, "P8.43", "GPIO2_8")	\
	X(48, "P8.44", "GPIO2_9")	X(49, "P8.41", "GPIO2_10")	\
	X(50, "P8.42", "GPIO2_11")	X(51, "P8.39", "GPIO2_12")	\
	X(52, "P8.40", "GPIO2_13")	X(53, "P8.37", "UART5_TXD")	\
	X(54, "P8.38", "UART5_RXD")	X(55, "P8.36", "UART3_CTSN")	\
	X(56, "P8.34", "UART3_RTSN")	X(57, "P8.27", "GPIO2_22")	\
	X(58, "P8.29", "GPIO2_23")	X(59, "P8.28", "GPIO2_24")	\
	X(60, "P8.30", "GPIO2_25")	X(61, "P9.29", "SPI1_D0")	\
	X(62, "P9.30", "SPI1_D1")	X(63, "P9.28", "SPI1_CS0")	\
	X(64, "P9.27", "GPIO3_19")	X(65, "P9.31", "SPI1_SCLK")	\
	X(66, "P9.25", "GPIO3_21")	X(67, "P9.39", "AIN0")		\
	X(68, "P9.40", "AIN1")		X(69, "P9.37", "AIN2")		\
	X(70, "P9.38", "AIN3")		X(71, "P9.33", "AIN4")		\
	X(72, "P9.36", "AIN5")		X(73, "P9.35", "AIN6")

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

#endif /* _UAPI_LINUX_CAPEBUS_H */
