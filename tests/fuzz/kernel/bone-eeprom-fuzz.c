// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: kernel/drivers/capebus/bone/bone-eeprom.c, the
 * kernel's parser of BeagleBone cape ID EEPROMs and of capebus's extension
 * records, built unmodified against the userspace shim (shim/include).
 *
 * Each input is an EEPROM image, run through the two ways the kernel reads
 * one, each time from a heap block of exactly the bytes the kernel would
 * have (so ASan sees a read one byte past them):
 *  - an image handed over whole (bone_decode_image(), configfs):
 *    cape_eeprom_parse(), cape_eeprom_ext_size() and
 *    cape_eeprom_parse_ext() on all the input;
 *  - the driver's reads (bone_read_eeprom()): the first
 *    CAPE_EEPROM_READ_SIZE bytes to cape_eeprom_parse() and
 *    cape_eeprom_ext_size(), then exactly the standard area, the header
 *    and the records it announced to cape_eeprom_parse_ext();
 * and every pin word through cape_pin_word_setting() and
 * cape_pin_word_format(), into buffers of exactly the size asked for and
 * into shorter ones.
 *
 * The records carry CRCs the fuzzer cannot guess, so each input runs a
 * second time with every id CRC and overlay CRC rewritten to the right
 * value (by this file's own CRC and its own walk of the records), when
 * that changes anything.  A corpus file therefore needs no valid CRCs.
 *
 * Beyond memory safety, abort() when a documented promise breaks: the
 * reason NUL-terminated inside its buffer always, empty on success and
 * not on failure, and the same results with no reason buffer (NULL, 0); only the documented error codes; a parsed EEPROM's
 * fields as documented (text printable ASCII and terminated, part number
 * and version non-empty without '/', the pin words and counts as the
 * bytes say); cape_eeprom_ext_size() within the largest part; an overlay
 * found lying inside the caller's buffer, non-empty, with the CRC its
 * record stores; the extension zeroed on failure; a pin setting shorter
 * than CAPE_PIN_SETTING_LEN; the snprintf() contract of the formatters.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/types.h>

#include "bone-eeprom.h"
#include "kshim.h"

#define HARNESS_NAME "bone-eeprom-fuzz"
#include "harness.h"

/* The harness's own CRC-32/ISO-HDLC (table-driven; the shim's is bitwise). */
static uint32_t crc_table[256];

static void crc_init(void)
{
	uint32_t c;
	int i, k;

	for (i = 0; i < 256; i++) {
		for (c = i, k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

static uint32_t crc32_iso(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	while (n--)
		c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static uint8_t *dup_exact(const uint8_t *data, size_t size)
{
	uint8_t *b = malloc(size ? size : 1);

	if (!b)
		abort();
	memcpy(b, data, size);
	return b;
}

static char *new_why(void)
{
	char *why = malloc(WHY_LEN);

	if (!why)
		abort();
	memset(why, 0xa5, WHY_LEN);
	return why;
}

static void check_why(const char *why, const char *fn, long ret)
{
	if (!memchr(why, '\0', WHY_LEN))
		fail("%s: reason not NUL-terminated within its %d bytes", fn, WHY_LEN);
	if (verbose)
		fprintf(stderr, "%s() = %ld%s%s\n", fn, ret, why[0] ? ": " : "", why);
	if (ret < 0 && !why[0])
		fail("%s: failed (%ld) with an empty reason", fn, ret);
}

static void check_text(const char *field, const char *s, size_t max)
{
	size_t n = strnlen(s, max + 1);

	if (n > max)
		fail("%s not terminated within %zu bytes", field, max + 1);
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			fail("%s has byte 0x%02x", field, (unsigned char)*s);
}

/* The fields of a parsed @ee are what the @len bytes at @b say. */
static void check_parsed(const struct cape_eeprom *ee, const uint8_t *b, size_t len)
{
	size_t size, pins_at = CAPE_EEPROM_PINS_OFFSET;
	unsigned int i, n, used = 0;

	if (ee->format == CAPE_EEPROM_FORMAT_A1 && !memcmp(b + 4, "A1", 2)) {
		n = CAPE_EEPROM_A1_NUM_PINS;
		size = CAPE_EEPROM_A1_SIZE;
	} else if (ee->format == CAPE_EEPROM_FORMAT_A0 && !memcmp(b + 4, "A0", 2)) {
		n = CAPE_EEPROM_A0_NUM_PINS;
		size = CAPE_EEPROM_A0_SIZE;
	} else {
		fail("format %d for revision bytes %02x %02x", ee->format, b[4], b[5]);
	}
	if (be32(b) != CAPE_EEPROM_MAGIC)
		fail("accepted a bad magic");
	if (len < size || ee->ext_offset != size || ee->num_pin_words != n)
		fail("len %zu, ext_offset %zu, num_pin_words %u", len, ee->ext_offset,
		     ee->num_pin_words);
	check_text("board name", ee->board_name, CAPE_EEPROM_BOARD_NAME_LEN);
	check_text("version", ee->version, CAPE_EEPROM_VERSION_LEN);
	check_text("manufacturer", ee->manufacturer, CAPE_EEPROM_MANUFACTURER_LEN);
	check_text("part number", ee->part_number, CAPE_EEPROM_PART_NUMBER_LEN);
	check_text("serial", ee->serial, CAPE_EEPROM_SERIAL_LEN);
	if (!ee->version[0] || strchr(ee->version, '/') ||
	    !ee->part_number[0] || strchr(ee->part_number, '/'))
		fail("part number \"%s\", version \"%s\": empty or with '/'",
		     ee->part_number, ee->version);
	for (i = 0; i < CAPE_EEPROM_A1_NUM_PINS; i++) {
		uint16_t w = i < n ? be16(b + pins_at + 2 * i) : 0;

		if (ee->pins[i] != w)
			fail("pin word %u is 0x%04x, the bytes say 0x%04x", i, ee->pins[i], w);
		if (w & CAPE_PIN_USED) {
			used++;
			if (i < CAPE_BONE_FIRST_AIN && (w & CAPE_PIN_RESERVED_MASK))
				fail("accepted reserved bits in pin word %u (0x%04x)", i, w);
		}
	}
	if (ee->used_pins != used || ee->num_pins != be16(b + 74))
		fail("used_pins %u (counted %u), num_pins %u (bytes %u)", ee->used_pins,
		     used, ee->num_pins, be16(b + 74));
}

/* One formatter, @fn, on (index, word): sizes asked, exact and short buffers. */
static int check_formatter(int (*fn)(char *, size_t, unsigned int, u16),
			   const char *name, unsigned int index, u16 word, char *full)
{
	int n, m;
	char *buf;

	n = fn(NULL, 0, index, word);
	if (index >= CAPE_EEPROM_A1_NUM_PINS) {
		if (n != -EINVAL)
			fail("%s(index %u) = %d, want -EINVAL", name, index, n);
		return n;
	}
	if (n < 0 || n >= 64)
		fail("%s(index %u, 0x%04x) = %d", name, index, word, n);
	buf = malloc((size_t)n + 1);
	if (!buf)
		abort();
	m = fn(buf, (size_t)n + 1, index, word);
	if (m != n || strlen(buf) != (size_t)n)
		fail("%s(index %u, 0x%04x): %d then %d, \"%s\"", name, index, word, n, m, buf);
	memcpy(full, buf, (size_t)n + 1);
	free(buf);
	/* Short buffers: truncated, terminated, the same count. */
	buf = malloc((size_t)n / 2 + 1);
	if (!buf)
		abort();
	m = fn(buf, (size_t)n / 2 + 1, index, word);
	if (m != n || strlen(buf) != (size_t)n / 2 || memcmp(buf, full, (size_t)n / 2))
		fail("%s(index %u, 0x%04x) into %d bytes: %d, \"%s\"", name, index, word,
		     n / 2 + 1, m, buf);
	free(buf);
	return n;
}

static void check_pin(unsigned int index, u16 word)
{
	char setting[64], format[64], want[160];
	const char *pin = cape_bone_pin_name(index);
	int n;

	n = check_formatter(cape_pin_word_setting, "cape_pin_word_setting", index,
			    word, setting);
	check_formatter(cape_pin_word_format, "cape_pin_word_format", index, word,
			format);
	if (index >= CAPE_EEPROM_A1_NUM_PINS) {
		if (pin || cape_bone_pin_signal(index))
			fail("a pin name for index %u", index);
		return;
	}
	if (n >= CAPE_PIN_SETTING_LEN)
		fail("setting \"%s\" (index %u, 0x%04x) is %d bytes, CAPE_PIN_SETTING_LEN %d",
		     setting, index, word, n, CAPE_PIN_SETTING_LEN);
	if (!pin || !cape_bone_pin_signal(index))
		fail("no pin name or signal for index %u", index);
	if (index >= CAPE_BONE_FIRST_AIN) {
		if (n)
			fail("a setting \"%s\" for analog index %u", setting, index);
		snprintf(want, sizeof(want), "%s", pin);
	} else {
		snprintf(want, sizeof(want), "%s %s", pin, setting);
	}
	if (strcmp(format, want))
		fail("format \"%s\", want \"%s\"", format, want);
}

/* cape_eeprom_parse_ext() on exactly @len bytes; @ee as parsed from them or a prefix. */
static void run_ext(const struct cape_eeprom *ee, const uint8_t *data, size_t len)
{
	struct cape_eeprom_ext ext, ext2;
	uint8_t *b = dup_exact(data, len);
	char *why = new_why();
	const uint8_t *ov;
	int ret;

	memset(&ext, 0x5a, sizeof(ext));
	ret = cape_eeprom_parse_ext(ee, b, len, &ext, why, WHY_LEN);
	check_why(why, "cape_eeprom_parse_ext", ret);
	/* @why may be NULL: the same result without it. */
	memset(&ext2, 0x5a, sizeof(ext2));
	if (cape_eeprom_parse_ext(ee, b, len, &ext2, NULL, 0) != ret ||
	    memcmp(&ext, &ext2, sizeof(ext)))
		fail("cape_eeprom_parse_ext() says otherwise without a reason buffer");
	if (ret) {
		if (ret != -EMSGSIZE && ret != -EINVAL && ret != -EBADMSG)
			fail("cape_eeprom_parse_ext() = %d", ret);
		if (ext.has_id_crc || ext.overlay || ext.overlay_len)
			fail("cape_eeprom_parse_ext() failed (%d), ext not zeroed", ret);
	} else if (ext.overlay) {
		ov = ext.overlay;
		if (ov < b + ee->ext_offset + 8 + 12 || ov > b + len ||
		    !ext.overlay_len || ext.overlay_len > (size_t)(b + len - ov))
			fail("overlay at %td, %zu bytes, outside the %zu-byte buffer",
			     ov - b, ext.overlay_len, len);
		if (crc32_iso(ov, ext.overlay_len) != be32(ov - 4))
			fail("overlay accepted with a wrong CRC");
	} else if (ext.overlay_len) {
		fail("overlay_len %zu without an overlay", ext.overlay_len);
	}
	free(why);
	free(b);
}

/*
 * An image handed over whole, as bone_decode_image() and configfs have it.
 * Return: whether cape_eeprom_parse() accepted it.
 */
static bool run_whole(const uint8_t *data, size_t size)
{
	struct cape_eeprom ee, ee2;
	uint8_t *b = dup_exact(data, size);
	char *why = new_why();
	unsigned int i;
	ssize_t n;
	int ret;

	ret = cape_eeprom_parse(&ee, b, size, why, WHY_LEN);
	check_why(why, "cape_eeprom_parse", ret);
	/* @why may be NULL: the same result without it. */
	if (cape_eeprom_parse(&ee2, b, size, NULL, 0) != ret ||
	    (!ret && memcmp(&ee, &ee2, sizeof(ee))))
		fail("cape_eeprom_parse() says otherwise without a reason buffer");
	if (ret) {
		if (ret != -ENODATA && ret != -EINVAL && ret != -EMSGSIZE)
			fail("cape_eeprom_parse() = %d", ret);
		goto out;
	}
	if (why[0])
		fail("cape_eeprom_parse() succeeded with a reason: %s", why);
	check_parsed(&ee, b, size);
	for (i = 0; i <= CAPE_EEPROM_A1_NUM_PINS; i++)
		check_pin(i, i < CAPE_EEPROM_A1_NUM_PINS ? ee.pins[i] : 0);
	for (i = 0; i <= BONE_NUM_RAILS; i++)
		if (!bone_rail_name((enum bone_rail)i))
			fail("bone_rail_name(%u) = NULL", i);

	memset(why, 0xa5, WHY_LEN);
	n = cape_eeprom_ext_size(&ee, b, size, why, WHY_LEN);
	check_why(why, "cape_eeprom_ext_size", n);
	if (cape_eeprom_ext_size(&ee, b, size, NULL, 0) != n)
		fail("cape_eeprom_ext_size() says otherwise without a reason buffer");
	if (n < 0 && n != -EMSGSIZE && n != -EINVAL)
		fail("cape_eeprom_ext_size() = %zd", n);
	if (n > (ssize_t)(CAPE_EEPROM_MAX_SIZE - ee.ext_offset - 8))
		fail("cape_eeprom_ext_size() = %zd, past a %d-byte part", n,
		     CAPE_EEPROM_MAX_SIZE);
	run_ext(&ee, b, size);
out:
	free(why);
	free(b);
	return !ret;
}

/* The driver's reads, as bone_read_eeprom() makes them. */
static void run_driver(const uint8_t *data, size_t size)
{
	size_t len = CAPE_EEPROM_READ_SIZE;
	struct cape_eeprom ee;
	uint8_t *b;
	char *why;
	ssize_t ext;
	int ret;

	if (size < len)
		return;		/* a short nvmem read: -EIO, nothing parsed */
	b = dup_exact(data, len);
	why = new_why();
	ret = cape_eeprom_parse(&ee, b, len, why, WHY_LEN);
	check_why(why, "cape_eeprom_parse", ret);
	if (ret)
		goto out;
	check_parsed(&ee, b, len);
	memset(why, 0xa5, WHY_LEN);
	ext = cape_eeprom_ext_size(&ee, b, len, why, WHY_LEN);
	check_why(why, "cape_eeprom_ext_size", ext);
	if (ext < 0)
		goto out;
	if (ext > 0)
		len = ee.ext_offset + sizeof(struct capebus_ext_header) + ext;
	if (len <= size)
		run_ext(&ee, data, len);
out:
	free(why);
	free(b);
}

/*
 * Rewrite the id and overlay CRCs of @b's records to the right values,
 * walking them as the format says (not as the kernel does).
 */
static bool fix_crcs(uint8_t *b, size_t size)
{
	size_t off, pos, end, rlen;
	unsigned int i, count;
	bool changed = false;
	uint32_t crc;
	uint16_t type;

	if (size < CAPE_EEPROM_A1_SIZE || be32(b) != CAPE_EEPROM_MAGIC)
		return false;
	if (!memcmp(b + 4, "A1", 2))
		off = CAPE_EEPROM_A1_SIZE;
	else if (!memcmp(b + 4, "A0", 2))
		off = CAPE_EEPROM_A0_SIZE;
	else
		return false;
	if (size < off + 8 || be32(b + off) != CAPEBUS_EXT_MAGIC)
		return false;
	count = b[off + 5];
	pos = off + 8;
	end = pos + be16(b + off + 6);
	if (end > size)
		end = size;
	for (i = 0; i < count && end - pos >= 8; i++) {
		type = be16(b + pos);
		rlen = be32(b + pos + 4);
		pos += 8;
		if (rlen > end - pos)
			break;
		if (type == CAPEBUS_EXT_ID_CRC && rlen == 4)
			crc = crc32_iso(b, off);
		else if (type == CAPEBUS_EXT_OVERLAY && rlen > 4)
			crc = crc32_iso(b + pos + 4, rlen - 4);
		else
			goto next;
		if (be32(b + pos) != crc) {
			put_be32(b + pos, crc);
			changed = true;
		}
next:
		pos += rlen;
	}
	return changed;
}

static void run_all(const uint8_t *data, size_t size)
{
	unsigned int i;

	/*
	 * The formatters on the raw words, when the parser refused them (it
	 * checks those it accepts itself).
	 */
	if (!run_whole(data, size))
		for (i = 0; i < CAPE_EEPROM_A1_NUM_PINS &&
		     CAPE_EEPROM_PINS_OFFSET + 2 * i + 2 <= size; i++)
			check_pin(i, be16(data + CAPE_EEPROM_PINS_OFFSET + 2 * i));
	run_driver(data, size);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	kshim_selftest();
	verbose = getenv("FUZZ_VERBOSE");
	crc_init();
	if (crc32_iso((const uint8_t *)"123456789", 9) != 0xcbf43926u ||
	    cape_eeprom_crc32("123456789", 9) != 0xcbf43926u)
		fail("CRC-32 check value");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *fixed;

	run_all(data, size);
	fixed = dup_exact(data, size);
	if (fix_crcs(fixed, size))
		run_all(fixed, size);
	free(fixed);
	return 0;
}
