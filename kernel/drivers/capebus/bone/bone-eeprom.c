// SPDX-License-Identifier: GPL-2.0
/*
 * capebus: parser for the BeagleBone cape ID EEPROM (layouts A0 and A1)
 * and for the capebus extension records kept in its free area.
 *
 * The EEPROM is untrusted input.  Every function here checks each length
 * against what the caller's buffer holds before it reads, does no I/O and
 * allocates nothing; on failure it says which field and which byte offset
 * in the EEPROM were wrong.  Layout: include/uapi/linux/capebus-bone.h; rules:
 * Documentation/capebus/eeprom-format.rst.
 */

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/crc32.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include <kunit/visibility.h>

#include "bone-eeprom.h"

#define CAPE_ID_OFFSET(field)	offsetof(struct cape_eeprom_id, field)
#define CAPE_POWER_OFFSET(field) offsetof(struct cape_eeprom_power, field)

const char *const cape_bone_pin_names[CAPE_EEPROM_A1_NUM_PINS] =
	CAPE_BONE_PIN_NAMES;
static const char *const cape_bone_pin_signals[CAPE_EEPROM_A1_NUM_PINS] =
	CAPE_BONE_PIN_SIGNALS;

const char *const bone_rail_names[BONE_NUM_RAILS] = {
	[BONE_RAIL_VDD_3V3B] = "vdd-3v3b",
	[BONE_RAIL_VDD_5V] = "vdd-5v",
	[BONE_RAIL_SYS_5V] = "sys-5v",
};

static __printf(3, 4) void cape_why(char *why, size_t why_len,
				    const char *fmt, ...)
{
	va_list args;

	if (!why || !why_len)
		return;
	va_start(args, fmt);
	vsnprintf(why, why_len, fmt, args);
	va_end(args);
}

/**
 * cape_bone_pin_name() - header pin name of a pin-usage word
 * @index: index of the word in the pin-usage array, 0-73
 *
 * Return: the header pin, e.g. "P9.19" for index 9, or NULL if @index is
 * out of range.
 */
const char *cape_bone_pin_name(unsigned int index)
{
	if (index >= ARRAY_SIZE(cape_bone_pin_names))
		return NULL;
	return cape_bone_pin_names[index];
}
EXPORT_SYMBOL_IF_KUNIT(cape_bone_pin_name);

/**
 * cape_bone_pin_signal() - the AM335x signal of a header pin in mux mode 0
 * @index: index of the word in the pin-usage array, 0-73
 *
 * Return: the signal, e.g. "I2C2_SCL" for index 9, or NULL if @index is out
 * of range.
 */
const char *cape_bone_pin_signal(unsigned int index)
{
	if (index >= ARRAY_SIZE(cape_bone_pin_names))
		return NULL;
	return cape_bone_pin_signals[index];
}
EXPORT_SYMBOL_IF_KUNIT(cape_bone_pin_signal);

/**
 * bone_rail_name() - name of a power rail
 * @rail: the rail
 *
 * Return: "vdd-3v3b", "vdd-5v" or "sys-5v"; "unknown" for anything else.
 */
const char *bone_rail_name(enum bone_rail rail)
{
	if ((unsigned int)rail >= BONE_NUM_RAILS)
		return "unknown";
	return bone_rail_names[rail];
}
EXPORT_SYMBOL_IF_KUNIT(bone_rail_name);

/**
 * cape_pin_word_setting() - how a pin-usage word sets its pin
 * @buf: where to write; may be NULL if @len is 0
 * @len: size of @buf
 * @index: index of the word
 * @word: the word, host byte order
 *
 * Writes e.g. "mode3 bidir pull-up rx slow": mux mode, direction (in, out,
 * bidir; "none" if bits 14-13 are clear), pull (pull-up, pull-down,
 * no-pull), "rx" if the receiver is enabled, slew (fast, slow).  For the
 * analog inputs (index 67-73) nothing is written.  No newline.
 *
 * Return: the length of the full setting as snprintf() counts it, or
 * -EINVAL if @index is out of range.
 */
int cape_pin_word_setting(char *buf, size_t len, unsigned int index, u16 word)
{
	const char *dir, *pull;

	if (index >= CAPE_EEPROM_A1_NUM_PINS)
		return -EINVAL;
	if (index >= CAPE_BONE_FIRST_AIN)
		return snprintf(buf, len, "%s", "");

	switch (word & CAPE_PIN_DIR_MASK) {
	case CAPE_PIN_DIR_IN:
		dir = "in";
		break;
	case CAPE_PIN_DIR_OUT:
		dir = "out";
		break;
	case CAPE_PIN_DIR_BIDIR:
		dir = "bidir";
		break;
	default:
		dir = "none";
		break;
	}
	if (word & CAPE_PIN_PULL_DISABLE)
		pull = "no-pull";
	else if (word & CAPE_PIN_PULL_UP)
		pull = "pull-up";
	else
		pull = "pull-down";

	return snprintf(buf, len, "mode%u %s %s%s %s",
			word & CAPE_PIN_MODE_MASK, dir, pull,
			word & CAPE_PIN_RX_ENABLE ? " rx" : "",
			word & CAPE_PIN_SLEW_SLOW ? "slow" : "fast");
}
EXPORT_SYMBOL_IF_KUNIT(cape_pin_word_setting);

/**
 * cape_pin_word_format() - describe one pin-usage word
 * @buf: where to write; may be NULL if @len is 0
 * @len: size of @buf
 * @index: index of the word (selects the pin name)
 * @word: the word, host byte order
 *
 * Writes the pin name and, but for the analog inputs, a space and its
 * setting (cape_pin_word_setting()), e.g. "P9.19 mode3 bidir pull-up rx
 * slow".  No newline.
 *
 * Return: the length of the full description as snprintf() counts it, or
 * -EINVAL if @index is out of range.
 */
int cape_pin_word_format(char *buf, size_t len, unsigned int index, u16 word)
{
	const char *name = cape_bone_pin_name(index);
	char setting[CAPE_PIN_SETTING_LEN];

	if (!name)
		return -EINVAL;
	if (index >= CAPE_BONE_FIRST_AIN)
		return snprintf(buf, len, "%s", name);

	cape_pin_word_setting(setting, sizeof(setting), index, word);

	return snprintf(buf, len, "%s %s", name, setting);
}
EXPORT_SYMBOL_IF_KUNIT(cape_pin_word_format);

/**
 * cape_eeprom_crc32() - the CRC-32 capebus extension records use
 * @buf: data
 * @len: bytes of @buf
 *
 * CRC-32/ISO-HDLC, zlib's crc32(0, buf, len): check value 0xcbf43926 for
 * the ASCII string "123456789".
 *
 * Return: the CRC.
 */
u32 cape_eeprom_crc32(const void *buf, size_t len)
{
	return ~crc32_le(~0U, buf, len);
}
EXPORT_SYMBOL_IF_KUNIT(cape_eeprom_crc32);

static bool cape_is_padding(u8 c)
{
	return c == '\0' || c == '.' || c == 0xff;
}

/*
 * Copy one text field: strip trailing padding, refuse control and
 * non-ASCII bytes in what is left.  @out has room for @size + 1 bytes.
 */
static int cape_eeprom_text(char *out, const u8 *eeprom, size_t offset,
			    size_t size, const char *field,
			    char *why, size_t why_len)
{
	const u8 *in = eeprom + offset;
	size_t n = size, i;

	while (n && cape_is_padding(in[n - 1]))
		n--;
	for (i = 0; i < n; i++) {
		if (in[i] < 0x20 || in[i] == 0x7f) {
			cape_why(why, why_len,
				 "%s: control byte 0x%02x at offset %zu",
				 field, in[i], offset + i);
			return -EINVAL;
		}
		if (in[i] > 0x7f) {
			cape_why(why, why_len,
				 "%s: non-ASCII byte 0x%02x at offset %zu",
				 field, in[i], offset + i);
			return -EINVAL;
		}
	}
	memcpy(out, in, n);
	out[n] = '\0';
	return 0;
}

/* The part number and version name a firmware file: no empty, no '/'. */
static int cape_eeprom_file_name_part(const char *text, size_t offset,
				      const char *field,
				      char *why, size_t why_len)
{
	const char *slash = strchr(text, '/');

	if (!*text) {
		cape_why(why, why_len, "%s: empty at offset %zu",
			 field, offset);
		return -EINVAL;
	}
	if (slash) {
		cape_why(why, why_len,
			 "%s: '/' at offset %zu (it names a firmware file)",
			 field, offset + (slash - text));
		return -EINVAL;
	}
	return 0;
}

static bool cape_eeprom_is_blank(const u8 *b, size_t len)
{
	size_t i;

	if (b[0] != 0x00 && b[0] != 0xff)
		return false;
	for (i = 1; i < len; i++)
		if (b[i] != b[0])
			return false;
	return true;
}

static int cape_eeprom_parse_texts(struct cape_eeprom *ee, const u8 *b,
				   char *why, size_t why_len)
{
	int ret;

	ret = cape_eeprom_text(ee->board_name, b, CAPE_ID_OFFSET(board_name),
			       CAPE_EEPROM_BOARD_NAME_LEN, "board name",
			       why, why_len);
	if (ret)
		return ret;
	ret = cape_eeprom_text(ee->version, b, CAPE_ID_OFFSET(version),
			       CAPE_EEPROM_VERSION_LEN, "version",
			       why, why_len);
	if (ret)
		return ret;
	ret = cape_eeprom_text(ee->manufacturer, b,
			       CAPE_ID_OFFSET(manufacturer),
			       CAPE_EEPROM_MANUFACTURER_LEN, "manufacturer",
			       why, why_len);
	if (ret)
		return ret;
	ret = cape_eeprom_text(ee->part_number, b, CAPE_ID_OFFSET(part_number),
			       CAPE_EEPROM_PART_NUMBER_LEN, "part number",
			       why, why_len);
	if (ret)
		return ret;
	ret = cape_eeprom_text(ee->serial, b, CAPE_ID_OFFSET(serial),
			       CAPE_EEPROM_SERIAL_LEN, "serial",
			       why, why_len);
	if (ret)
		return ret;

	ret = cape_eeprom_file_name_part(ee->part_number,
					 CAPE_ID_OFFSET(part_number),
					 "part number", why, why_len);
	if (ret)
		return ret;
	return cape_eeprom_file_name_part(ee->version,
					  CAPE_ID_OFFSET(version), "version",
					  why, why_len);
}

static int cape_eeprom_parse_pins(struct cape_eeprom *ee, const u8 *b,
				  size_t pins_offset, char *why, size_t why_len)
{
	unsigned int i;

	for (i = 0; i < ee->num_pin_words; i++) {
		size_t offset = pins_offset + 2 * i;
		u16 word = get_unaligned_be16(b + offset);

		ee->pins[i] = word;
		if (!(word & CAPE_PIN_USED))
			continue;
		ee->used_pins++;
		if (i >= CAPE_BONE_FIRST_AIN)
			continue;	/* only bit 15 means anything */
		if (word & CAPE_PIN_RESERVED_MASK) {
			cape_why(why, why_len,
				 "pin %s: reserved bits 0x%04x set in word 0x%04x at offset %zu",
				 cape_bone_pin_name(i),
				 word & CAPE_PIN_RESERVED_MASK, word, offset);
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * cape_eeprom_parse() - decode and check the standard area of a cape EEPROM
 * @ee: zeroed, then filled in; meaningful only on success
 * @buf: the first bytes of the EEPROM
 * @len: bytes in @buf; CAPE_EEPROM_READ_SIZE covers every layout
 * @why: on failure, a reason naming the field and the byte offset;
 *	on success, an empty string.  May be NULL.
 * @why_len: size of @why
 *
 * Dispatches on the revision bytes: "A1" uses the A1 offsets, "A0" the A0
 * offsets.  Text fields lose trailing NUL, '.' and 0xff padding; any other
 * control or non-ASCII byte is refused, as is an empty part number or
 * version, or a '/' in either (they name the overlay file).  A used pin
 * word must have its reserved bits clear (analog inputs excepted: only
 * bit 15 applies to them); a used pin with no direction is accepted.  The
 * number-of-pins field is informational: it is returned in @ee->num_pins
 * and the caller may report a disagreement with @ee->used_pins, but it is
 * not a reason to refuse a cape (the pin words are what is claimed).
 *
 * Return: 0 on success; -ENODATA for a blank part (the bytes read are all
 * 0xff or all 0x00); -EINVAL for a bad magic, an unknown revision, or a
 * bad field; -EMSGSIZE if @len is too short for the layout.
 */
int cape_eeprom_parse(struct cape_eeprom *ee, const void *buf, size_t len,
		      char *why, size_t why_len)
{
	const u8 *b = buf;
	size_t pins_offset, power_offset, size;
	u32 magic;
	int ret;

	BUILD_BUG_ON(sizeof(struct cape_eeprom_id) != CAPE_EEPROM_PINS_OFFSET);
	BUILD_BUG_ON(sizeof(struct cape_eeprom_a1) != CAPE_EEPROM_A1_SIZE);
	BUILD_BUG_ON(sizeof(struct cape_eeprom_a0) != CAPE_EEPROM_A0_SIZE);
	BUILD_BUG_ON(sizeof(struct capebus_ext_header) != 8);
	BUILD_BUG_ON(sizeof(struct capebus_ext_record) != 8);

	memset(ee, 0, sizeof(*ee));
	cape_why(why, why_len, "%s", "");

	if (len < CAPE_ID_OFFSET(board_name)) {
		cape_why(why, why_len,
			 "short read: %zu bytes, need %zu for magic and revision",
			 len, CAPE_ID_OFFSET(board_name));
		return -EMSGSIZE;
	}
	if (cape_eeprom_is_blank(b, min_t(size_t, len, CAPE_EEPROM_A1_SIZE))) {
		cape_why(why, why_len, "blank EEPROM (all 0x%02x)", b[0]);
		return -ENODATA;
	}

	magic = get_unaligned_be32(b);
	if (magic != CAPE_EEPROM_MAGIC) {
		cape_why(why, why_len, "bad magic %*ph at offset 0", 4, b);
		return -EINVAL;
	}

	if (!memcmp(b + CAPE_ID_OFFSET(revision), CAPE_EEPROM_REV_A1, 2)) {
		ee->format = CAPE_EEPROM_FORMAT_A1;
		ee->num_pin_words = CAPE_EEPROM_A1_NUM_PINS;
		pins_offset = offsetof(struct cape_eeprom_a1, pins);
		power_offset = offsetof(struct cape_eeprom_a1, power);
		size = CAPE_EEPROM_A1_SIZE;
	} else if (!memcmp(b + CAPE_ID_OFFSET(revision), CAPE_EEPROM_REV_A0, 2)) {
		ee->format = CAPE_EEPROM_FORMAT_A0;
		ee->num_pin_words = CAPE_EEPROM_A0_NUM_PINS;
		pins_offset = offsetof(struct cape_eeprom_a0, pins);
		power_offset = offsetof(struct cape_eeprom_a0, power);
		size = CAPE_EEPROM_A0_SIZE;
	} else {
		cape_why(why, why_len, "unknown revision %*ph at offset %zu",
			 2, b + CAPE_ID_OFFSET(revision),
			 CAPE_ID_OFFSET(revision));
		return -EINVAL;
	}

	if (len < size) {
		cape_why(why, why_len,
			 "short read: %zu bytes, an %s EEPROM needs %zu",
			 len, ee->format == CAPE_EEPROM_FORMAT_A1 ? "A1" : "A0",
			 size);
		return -EMSGSIZE;
	}
	ee->ext_offset = size;

	ret = cape_eeprom_parse_texts(ee, b, why, why_len);
	if (ret)
		return ret;

	ee->num_pins = get_unaligned_be16(b + CAPE_ID_OFFSET(num_pins));
	ret = cape_eeprom_parse_pins(ee, b, pins_offset, why, why_len);
	if (ret)
		return ret;

	ee->current_ma[BONE_RAIL_VDD_3V3B] =
		get_unaligned_be16(b + power_offset + CAPE_POWER_OFFSET(vdd_3v3b));
	ee->current_ma[BONE_RAIL_VDD_5V] =
		get_unaligned_be16(b + power_offset + CAPE_POWER_OFFSET(vdd_5v));
	ee->current_ma[BONE_RAIL_SYS_5V] =
		get_unaligned_be16(b + power_offset + CAPE_POWER_OFFSET(sys_5v));
	ee->dc_supplied_ma =
		get_unaligned_be16(b + power_offset + CAPE_POWER_OFFSET(dc_supplied));
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(cape_eeprom_parse);

/**
 * cape_eeprom_ext_size() - how many extension bytes follow the header
 * @ee: the EEPROM, as cape_eeprom_parse() decoded it
 * @buf: the first bytes of the EEPROM
 * @len: bytes in @buf; at least @ee->ext_offset + 8
 * @why: on error, or when an area is ignored, the reason; otherwise an
 *	empty string.  May be NULL.
 * @why_len: size of @why
 *
 * Reads the extension header after the standard area.  The caller then
 * reads exactly the returned number of bytes more and passes the whole
 * prefix to cape_eeprom_parse_ext().
 *
 * Return: the number of record bytes after the header; 0 if there is no
 * extension area (@why empty) or it has a newer version than this kernel
 * knows (@why says so; the standard fields stay valid); -EMSGSIZE if @len
 * does not hold the header; -EINVAL for a version of 0, a length that runs
 * past the largest part (CAPE_EEPROM_MAX_SIZE) or one too short for the
 * stated number of record headers.
 */
ssize_t cape_eeprom_ext_size(const struct cape_eeprom *ee, const void *buf,
			     size_t len, char *why, size_t why_len)
{
	const size_t hdr_size = sizeof(struct capebus_ext_header);
	const size_t off = ee->ext_offset;
	const u8 *hdr = (const u8 *)buf + off;
	u8 version, count;
	size_t length;

	cape_why(why, why_len, "%s", "");
	if (!off || len < off + hdr_size) {
		cape_why(why, why_len,
			 "extension header: short read: %zu bytes, need %zu",
			 len, off + hdr_size);
		return -EMSGSIZE;
	}
	if (get_unaligned_be32(hdr + offsetof(struct capebus_ext_header, magic)) !=
	    CAPEBUS_EXT_MAGIC)
		return 0;

	version = hdr[offsetof(struct capebus_ext_header, version)];
	count = hdr[offsetof(struct capebus_ext_header, count)];
	length = get_unaligned_be16(hdr + offsetof(struct capebus_ext_header, length));

	if (!version) {
		cape_why(why, why_len, "extension: version 0 at offset %zu",
			 off + offsetof(struct capebus_ext_header, version));
		return -EINVAL;
	}
	if (version > CAPEBUS_EXT_VERSION) {
		cape_why(why, why_len,
			 "extension: version %u at offset %zu is newer than %u; ignored",
			 version,
			 off + offsetof(struct capebus_ext_header, version),
			 CAPEBUS_EXT_VERSION);
		return 0;
	}
	if (length > CAPE_EEPROM_MAX_SIZE - off - hdr_size) {
		cape_why(why, why_len,
			 "extension: length %zu at offset %zu runs past a %u-byte EEPROM",
			 length, off + offsetof(struct capebus_ext_header, length),
			 CAPE_EEPROM_MAX_SIZE);
		return -EINVAL;
	}
	if (length < count * sizeof(struct capebus_ext_record)) {
		cape_why(why, why_len,
			 "extension: length %zu at offset %zu cannot hold %u records",
			 length, off + offsetof(struct capebus_ext_header, length),
			 count);
		return -EINVAL;
	}
	return length;
}
EXPORT_SYMBOL_IF_KUNIT(cape_eeprom_ext_size);

static int cape_eeprom_check_crc(const u8 *data, size_t data_len, u32 stored,
				 const char *what, size_t record_offset,
				 char *why, size_t why_len)
{
	u32 crc = cape_eeprom_crc32(data, data_len);

	if (crc == stored)
		return 0;
	cape_why(why, why_len,
		 "%s CRC mismatch: stored 0x%08x, computed 0x%08x over %zu bytes (record at offset %zu)",
		 what, stored, crc, data_len, record_offset);
	return -EBADMSG;
}

/**
 * cape_eeprom_parse_ext() - check the extension records and find the overlay
 * @ee: the EEPROM, as cape_eeprom_parse() decoded it
 * @buf: the EEPROM's first bytes: the standard area, the extension header
 *	and the number of bytes cape_eeprom_ext_size() returned
 * @len: bytes in @buf
 * @ext: filled in on success, zeroed on failure
 * @why: on failure, a reason naming the record and its byte offset;
 *	otherwise as cape_eeprom_ext_size() leaves it.  May be NULL.
 * @why_len: size of @why
 *
 * Walks the @count records of the area, which must fill its @length
 * exactly.  An id CRC record is checked against bytes 0 to
 * @ee->ext_offset - 1; an overlay record's CRC against its blob.  Unknown
 * record types are skipped; a record's flags are ignored.  At most one
 * record of each known type is allowed.
 *
 * An image that ends exactly where the free area begins (a bare 244-byte
 * A1 or 236-byte A0 image, as userspace may hand over) has no extension
 * area.
 *
 * Return: 0 on success (also when there is no extension area or it is of a
 * newer version); -EMSGSIZE if @len does not hold the area; -EINVAL for
 * a record that runs past the area, a count that disagrees with the
 * length, a wrong record length or a repeated record; -EBADMSG for a CRC
 * mismatch.
 */
int cape_eeprom_parse_ext(const struct cape_eeprom *ee, const void *buf,
			  size_t len, struct cape_eeprom_ext *ext,
			  char *why, size_t why_len)
{
	const size_t rec_size = sizeof(struct capebus_ext_record);
	struct cape_eeprom_ext found = { };
	const u8 *b = buf;
	size_t pos, end;
	ssize_t length;
	unsigned int i, count;
	int ret;

	memset(ext, 0, sizeof(*ext));
	if (ee->ext_offset && len == ee->ext_offset) {
		cape_why(why, why_len, "%s", "");
		return 0;
	}
	length = cape_eeprom_ext_size(ee, buf, len, why, why_len);
	if (length <= 0)
		return length;

	pos = ee->ext_offset + sizeof(struct capebus_ext_header);
	end = pos + length;
	if (len < end) {
		cape_why(why, why_len,
			 "extension: short read: %zu bytes, need %zu",
			 len, end);
		return -EMSGSIZE;
	}
	count = b[ee->ext_offset + offsetof(struct capebus_ext_header, count)];

	for (i = 0; i < count; i++) {
		size_t rec = pos;
		u16 type;
		u32 rlen;

		if (end - pos < rec_size) {
			cape_why(why, why_len,
				 "extension: record %u header at offset %zu runs past the end of the area at %zu",
				 i, rec, end);
			return -EINVAL;
		}
		type = get_unaligned_be16(b + pos + offsetof(struct capebus_ext_record, type));
		rlen = get_unaligned_be32(b + pos + offsetof(struct capebus_ext_record, length));
		pos += rec_size;
		if (rlen > end - pos) {
			cape_why(why, why_len,
				 "extension: record %u (type %u) at offset %zu: length %u runs past the end of the area at %zu",
				 i, type, rec, rlen, end);
			return -EINVAL;
		}

		switch (type) {
		case CAPEBUS_EXT_ID_CRC:
			if (rlen != sizeof(struct capebus_ext_id_crc)) {
				cape_why(why, why_len,
					 "extension: id CRC record at offset %zu: length %u, expected %zu",
					 rec, rlen,
					 sizeof(struct capebus_ext_id_crc));
				return -EINVAL;
			}
			if (found.has_id_crc) {
				cape_why(why, why_len,
					 "extension: second id CRC record at offset %zu",
					 rec);
				return -EINVAL;
			}
			ret = cape_eeprom_check_crc(b, ee->ext_offset,
						    get_unaligned_be32(b + pos),
						    "id", rec, why, why_len);
			if (ret)
				return ret;
			found.has_id_crc = true;
			break;
		case CAPEBUS_EXT_OVERLAY:
			if (rlen <= sizeof(struct capebus_ext_overlay)) {
				cape_why(why, why_len,
					 "extension: overlay record at offset %zu: length %u leaves no overlay",
					 rec, rlen);
				return -EINVAL;
			}
			if (found.overlay) {
				cape_why(why, why_len,
					 "extension: second overlay record at offset %zu",
					 rec);
				return -EINVAL;
			}
			ret = cape_eeprom_check_crc(b + pos + sizeof(struct capebus_ext_overlay),
						    rlen - sizeof(struct capebus_ext_overlay),
						    get_unaligned_be32(b + pos),
						    "overlay", rec, why, why_len);
			if (ret)
				return ret;
			found.overlay = b + pos + sizeof(struct capebus_ext_overlay);
			found.overlay_len = rlen - sizeof(struct capebus_ext_overlay);
			break;
		default:
			break;	/* a later version's record: skip it */
		}
		pos += rlen;
	}

	if (pos != end) {
		cape_why(why, why_len,
			 "extension: %zu bytes left at offset %zu after %u records (count and length disagree)",
			 end - pos, pos, count);
		return -EINVAL;
	}
	*ext = found;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(cape_eeprom_parse_ext);
