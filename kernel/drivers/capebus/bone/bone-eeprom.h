/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capebus: parser for the BeagleBone cape ID EEPROM and the capebus
 * extension records.  The EEPROM is untrusted input: nothing here does I/O
 * or allocates, and nothing reads past the buffer it is given.
 *
 * Layout: include/uapi/linux/capebus-bone.h.
 * Rules: Documentation/capebus/eeprom-format.rst.
 */
#ifndef _BONE_EEPROM_H
#define _BONE_EEPROM_H

#include <linux/types.h>
#include <uapi/linux/capebus-bone.h>

/**
 * enum cape_eeprom_format - layout revision, from bytes 4-5
 * @CAPE_EEPROM_FORMAT_A0: "A0", the original BeagleBone SRM (70 pin words)
 * @CAPE_EEPROM_FORMAT_A1: "A1", the BeagleBone Black SRM (74 pin words)
 */
enum cape_eeprom_format {
	CAPE_EEPROM_FORMAT_A0,
	CAPE_EEPROM_FORMAT_A1,
};

/**
 * enum bone_rail - the header's power rails a cape may draw from
 * @BONE_RAIL_VDD_3V3B: VDD_3V3B (A0: VDD_3V3EXP), "vdd-3v3b"
 * @BONE_RAIL_VDD_5V: VDD_5V, "vdd-5v"
 * @BONE_RAIL_SYS_5V: SYS_5V, "sys-5v"
 * @BONE_NUM_RAILS: number of rails
 */
enum bone_rail {
	BONE_RAIL_VDD_3V3B,
	BONE_RAIL_VDD_5V,
	BONE_RAIL_SYS_5V,
	BONE_NUM_RAILS,
};

/*
 * What to read first: the larger (A1) standard area plus an extension
 * header, 252 bytes.  An A0 EEPROM's extension header is inside it too.
 */
#define CAPE_EEPROM_READ_SIZE \
	(CAPE_EEPROM_A1_SIZE + sizeof(struct capebus_ext_header))

/**
 * struct cape_eeprom - the decoded standard area
 * @format: A0 or A1, from the revision bytes
 * @board_name: board name, NUL-terminated, trailing padding stripped
 * @version: hardware version, e.g. "00A0"; never empty, never contains '/'
 * @manufacturer: manufacturer
 * @part_number: part number; never empty, never contains '/'
 * @serial: serial number
 * @num_pins: the number of pins field, as stated (not checked, see
 *	@used_pins)
 * @used_pins: pin words with %CAPE_PIN_USED set, as counted
 * @num_pin_words: pin words in this layout: 74 (A1) or 70 (A0)
 * @pins: pin words in host byte order; words past @num_pin_words are 0
 * @current_ma: current drawn per rail, mA
 * @dc_supplied_ma: current the cape can supply, mA (0: none)
 * @ext_offset: where the free area (and any extension header) starts:
 *	244 (A1) or 236 (A0)
 */
struct cape_eeprom {
	enum cape_eeprom_format format;
	char board_name[CAPE_EEPROM_BOARD_NAME_LEN + 1];
	char version[CAPE_EEPROM_VERSION_LEN + 1];
	char manufacturer[CAPE_EEPROM_MANUFACTURER_LEN + 1];
	char part_number[CAPE_EEPROM_PART_NUMBER_LEN + 1];
	char serial[CAPE_EEPROM_SERIAL_LEN + 1];
	u16 num_pins;
	unsigned int used_pins;
	unsigned int num_pin_words;
	u16 pins[CAPE_EEPROM_A1_NUM_PINS];
	u16 current_ma[BONE_NUM_RAILS];
	u16 dc_supplied_ma;
	size_t ext_offset;
};

/**
 * struct cape_eeprom_ext - what the extension records said
 * @has_id_crc: an id CRC record was present and matched the standard area
 * @overlay: the overlay blob (points into the caller's buffer), or NULL
 * @overlay_len: bytes of @overlay, 0 if none
 */
struct cape_eeprom_ext {
	bool has_id_crc;
	const void *overlay;
	size_t overlay_len;
};

int cape_eeprom_parse(struct cape_eeprom *ee, const void *buf, size_t len,
		      char *why, size_t why_len);
ssize_t cape_eeprom_ext_size(const struct cape_eeprom *ee, const void *buf,
			     size_t len, char *why, size_t why_len);
int cape_eeprom_parse_ext(const struct cape_eeprom *ee, const void *buf,
			  size_t len, struct cape_eeprom_ext *ext,
			  char *why, size_t why_len);
u32 cape_eeprom_crc32(const void *buf, size_t len);

/* The header's signal pins in pin-usage order, and the rails' names. */
extern const char *const cape_bone_pin_names[CAPE_EEPROM_A1_NUM_PINS];
extern const char *const bone_rail_names[BONE_NUM_RAILS];

const char *cape_bone_pin_name(unsigned int index);
const char *cape_bone_pin_signal(unsigned int index);
/* Longest pin setting, with its NUL: "mode7 bidir pull-down rx fast". */
#define CAPE_PIN_SETTING_LEN	32

int cape_pin_word_setting(char *buf, size_t len, unsigned int index, u16 word);
int cape_pin_word_format(char *buf, size_t len, unsigned int index, u16 word);
const char *bone_rail_name(enum bone_rail rail);

#endif /* _BONE_EEPROM_H */
