// SPDX-License-Identifier: GPL-2.0
/*
 * capetool: cape EEPROM encode/decode, A0 and A1, with the capebus
 * extension records.  Layout and constants: <linux/capebus-bone.h>.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capetool.h"

const char *const cape_pin_names[CAPE_NPINS] = CAPE_BONE_PIN_NAMES;
const char *const cape_pin_signals[CAPE_NPINS] = CAPE_BONE_PIN_SIGNALS;

/*
 * A header position as the kernel writes it: "P8.13".  Taken as people
 * write it too: config-pin's "P8_13", any case, a leading zero ("P8_07").
 */
bool pin_canonical(const char *name, char *out, size_t n)
{
	size_t digits;
	int v;

	if ((name[0] != 'P' && name[0] != 'p') || (name[1] != '8' && name[1] != '9') ||
	    (name[2] != '.' && name[2] != '_'))
		return false;
	digits = strspn(name + 3, "0123456789");
	if (!digits || digits > 2 || name[3 + digits])
		return false;
	v = atoi(name + 3);
	if (v < 1 || v > 46)
		return false;
	snprintf(out, n, "P%c.%d", name[1], v);
	return true;
}

int cape_pin_index(const char *name)
{
	char canon[16];

	if (!pin_canonical(name, canon, sizeof(canon)))
		return -1;
	for (int i = 0; i < CAPE_NPINS; i++)
		if (!strcmp(cape_pin_names[i], canon))
			return i;
	return -1;
}

size_t eeprom_std_size(bool a0)
{
	return a0 ? sizeof(struct cape_eeprom_a0) : sizeof(struct cape_eeprom_a1);
}

_Static_assert(sizeof(struct cape_eeprom_a1) == CAPE_EEPROM_A1_SIZE, "A1 size");
_Static_assert(sizeof(struct cape_eeprom_a0) == CAPE_EEPROM_A0_SIZE, "A0 size");

static void put_be16(uint8_t *p, uint16_t v) { p[0] = v >> 8; p[1] = v & 0xff; }
static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24; p[1] = (v >> 16) & 0xff; p[2] = (v >> 8) & 0xff; p[3] = v & 0xff;
}
static uint16_t get_be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Text fields: padded with NUL (the contract's writer rule). */
static void put_text(char *dst, size_t n, const char *s)
{
	memset(dst, 0, n);
	memcpy(dst, s, strnlen(s, n));
}

uint8_t *eeprom_encode(const struct cape_def *def, const void *dtbo, size_t dtbo_len,
		       size_t *len)
{
	size_t std = eeprom_std_size(def->a0), total = std;
	struct cape_eeprom_id *id;
	struct cape_eeprom_power *pw;
	uint8_t *buf, *pins;
	unsigned npw = def->a0 ? CAPE_EEPROM_A0_NUM_PINS : CAPE_EEPROM_A1_NUM_PINS;

	if (dtbo)
		total += sizeof(struct capebus_ext_header) +
			 sizeof(struct capebus_ext_record) + sizeof(struct capebus_ext_id_crc) +
			 sizeof(struct capebus_ext_record) + sizeof(struct capebus_ext_overlay) +
			 dtbo_len;
	buf = xcalloc(1, total);
	id = (struct cape_eeprom_id *)buf;
	put_be32((uint8_t *)&id->magic, CAPE_EEPROM_MAGIC);
	memcpy(id->revision, def->a0 ? CAPE_EEPROM_REV_A0 : CAPE_EEPROM_REV_A1, 2);
	put_text(id->board_name, sizeof(id->board_name), def->board_name);
	put_text(id->version, sizeof(id->version), def->version);
	put_text(id->manufacturer, sizeof(id->manufacturer), def->manufacturer);
	put_text(id->part_number, sizeof(id->part_number), def->part_number);
	put_be16((uint8_t *)&id->num_pins, (uint16_t)def->npins);
	put_text(id->serial, sizeof(id->serial), def->serial);
	pins = buf + CAPE_EEPROM_PINS_OFFSET;
	for (size_t i = 0; i < def->npins; i++)
		if ((unsigned)def->pins[i].idx < npw)
			put_be16(pins + 2 * def->pins[i].idx, def->pins[i].word);
	pw = (struct cape_eeprom_power *)(pins + 2 * npw);
	put_be16((uint8_t *)&pw->vdd_3v3b, def->power[0]);
	put_be16((uint8_t *)&pw->vdd_5v, def->power[1]);
	put_be16((uint8_t *)&pw->sys_5v, def->power[2]);
	put_be16((uint8_t *)&pw->dc_supplied, def->power[3]);

	if (dtbo) {
		uint8_t *p = buf + std;
		struct capebus_ext_header *h = (void *)p;
		struct capebus_ext_record *r;

		put_be32((uint8_t *)&h->magic, CAPEBUS_EXT_MAGIC);
		h->version = CAPEBUS_EXT_VERSION;
		h->count = 2;
		put_be16((uint8_t *)&h->length, (uint16_t)(total - std - sizeof(*h)));
		p += sizeof(*h);
		r = (void *)p;
		put_be16((uint8_t *)&r->type, CAPEBUS_EXT_ID_CRC);
		put_be32((uint8_t *)&r->length, sizeof(struct capebus_ext_id_crc));
		p += sizeof(*r);
		put_be32(p, crc32_iso_hdlc(buf, std));
		p += sizeof(struct capebus_ext_id_crc);
		r = (void *)p;
		put_be16((uint8_t *)&r->type, CAPEBUS_EXT_OVERLAY);
		put_be32((uint8_t *)&r->length, (uint32_t)(4 + dtbo_len));
		p += sizeof(*r);
		put_be32(p, crc32_iso_hdlc(dtbo, dtbo_len));
		memcpy(p + 4, dtbo, dtbo_len);
	}
	*len = total;
	return buf;
}

/*
 * Readers strip trailing NUL, '.' and 0xff (not spaces) and reject other
 * control or non-ASCII bytes.
 */
static int get_text(const char *src, size_t n, char *dst, const char *field, char *why,
		    size_t whylen)
{
	size_t len = n;

	while (len && (src[len - 1] == 0 || src[len - 1] == '.' || (uint8_t)src[len - 1] == 0xff))
		len--;
	for (size_t i = 0; i < len; i++) {
		uint8_t c = (uint8_t)src[i];

		if (c < 0x20 || c > 0x7e) {
			snprintf(why, whylen, "bad text in %s: byte 0x%02x at offset %zu of the field",
				 field, c, i);
			return EXIT_TEXT;
		}
	}
	memcpy(dst, src, len);
	dst[len] = 0;
	return 0;
}

static int decode_ext(const uint8_t *buf, size_t len, size_t std, struct cape_image *img,
		      char *why, size_t whylen)
{
	const uint8_t *p = buf + std, *end;
	unsigned count;

	img->total_len = std;
	if (len > std && len < std + sizeof(struct capebus_ext_header)) {
		/* a cut image whose bytes after the standard area begin the magic */
		static const uint8_t magic[4] = { CAPEBUS_EXT_MAGIC >> 24, (CAPEBUS_EXT_MAGIC >> 16) & 0xff,
						  (CAPEBUS_EXT_MAGIC >> 8) & 0xff, CAPEBUS_EXT_MAGIC & 0xff };
		size_t n = len - std;

		if (!memcmp(p, magic, n < 4 ? n : 4)) {
			snprintf(why, whylen, "truncated: the extension header cut short: %zu of its %zu bytes",
				 n, sizeof(struct capebus_ext_header));
			return EXIT_TRUNCATED;
		}
	}
	if (len < std + sizeof(struct capebus_ext_header) || get_be32(p) != CAPEBUS_EXT_MAGIC)
		return 0;
	img->has_ext = true;
	img->ext_version = p[4];
	img->ext_count = count = p[5];
	img->ext_length = get_be16(p + 6);
	if (!img->ext_version) {
		snprintf(why, whylen, "extension: version 0 at offset %zu", std + 4);
		return EXIT_TRUNCATED;
	}
	if (img->ext_version > CAPEBUS_EXT_VERSION)
		return 0;	/* newer area: ignored, the standard fields stay valid */
	if (img->ext_length > CAPE_EEPROM_SIZE_MAX - std - sizeof(struct capebus_ext_header)) {
		snprintf(why, whylen, "extension: length %u runs past a %d-byte EEPROM",
			 img->ext_length, CAPE_EEPROM_SIZE_MAX);
		return EXIT_TRUNCATED;
	}
	if (img->ext_length < count * sizeof(struct capebus_ext_record)) {
		snprintf(why, whylen, "extension: length %u cannot hold %u records",
			 img->ext_length, count);
		return EXIT_TRUNCATED;
	}
	p += sizeof(struct capebus_ext_header);
	if (img->ext_length > len - (size_t)(p - buf)) {
		snprintf(why, whylen, "extension area claims %u bytes, only %zu follow",
			 img->ext_length, len - (size_t)(p - buf));
		return EXIT_TRUNCATED;
	}
	end = p + img->ext_length;
	img->total_len = (size_t)(end - buf);
	for (unsigned i = 0; i < count; i++) {
		uint16_t type;
		uint32_t rlen;

		if ((size_t)(end - p) < sizeof(struct capebus_ext_record)) {
			snprintf(why, whylen, "extension record %u: header past the area end", i);
			return EXIT_TRUNCATED;
		}
		type = get_be16(p);
		rlen = get_be32(p + 4);
		p += sizeof(struct capebus_ext_record);
		if (rlen > (size_t)(end - p)) {
			snprintf(why, whylen, "extension record %u: length %u, only %zu bytes left",
				 i, rlen, (size_t)(end - p));
			return EXIT_TRUNCATED;
		}
		if (type == CAPEBUS_EXT_ID_CRC) {
			if (rlen != sizeof(struct capebus_ext_id_crc) || img->has_id_crc) {
				snprintf(why, whylen, "extension record %u: %s id CRC record", i,
					 img->has_id_crc ? "second" : "bad length of the");
				return EXIT_TRUNCATED;
			}
			img->has_id_crc = true;
			img->id_crc = get_be32(p);
			img->id_crc_calc = crc32_iso_hdlc(buf, std);
			img->id_crc_ok = img->id_crc == img->id_crc_calc;
		} else if (type == CAPEBUS_EXT_OVERLAY) {
			if (rlen <= sizeof(struct capebus_ext_overlay) || img->overlay) {
				snprintf(why, whylen, "extension record %u: %s", i,
					 img->overlay ? "second overlay record"
						      : "overlay record leaves no overlay");
				return EXIT_TRUNCATED;
			}
			img->overlay_crc = get_be32(p);
			img->overlay = p + 4;
			img->overlay_len = rlen - 4;
			img->overlay_crc_ok =
				crc32_iso_hdlc(img->overlay, img->overlay_len) == img->overlay_crc;
		} else {
			img->unknown_records++;
		}
		p += rlen;
	}
	if (p != end) {
		snprintf(why, whylen,
			 "extension: %zu bytes left after %u records (count and length disagree)",
			 (size_t)(end - p), count);
		return EXIT_TRUNCATED;
	}
	if (img->has_id_crc && !img->id_crc_ok) {
		snprintf(why, whylen, "bad CRC: standard area CRC is 0x%08x, record says 0x%08x",
			 img->id_crc_calc, img->id_crc);
		return EXIT_CRC;
	}
	if (img->overlay && !img->overlay_crc_ok) {
		snprintf(why, whylen, "bad CRC: overlay record CRC mismatch (record says 0x%08x)",
			 img->overlay_crc);
		return EXIT_CRC;
	}
	if (img->overlay) {
		/*
		 * A matching CRC says the bytes arrived, not that they are a
		 * tree.  libfdt wants the tree 8-byte aligned; the record is not.
		 */
		void *copy = xmalloc(img->overlay_len);
		int r;

		memcpy(copy, img->overlay, img->overlay_len);
		r = fdt_check_untrusted(copy, img->overlay_len);
		free(copy);

		if (r) {
			snprintf(why, whylen, "extension: the overlay record is not a valid device tree: %s",
				 fdt_strerror(r));
			return EXIT_TRUNCATED;
		}
	}
	return 0;
}

/* Printable text (with tabs and line ends; bytes >= 0x80 taken as UTF-8). */
bool buf_is_text(const uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((buf[i] < 0x20 && buf[i] != '\t' && buf[i] != '\n' && buf[i] != '\r') ||
		    buf[i] == 0x7f)
			return false;
	return len > 0;
}

/* Text holding a setting "eeprom =" (or ":"), as every definition does. */
static bool looks_like_definition(const uint8_t *buf, size_t len)
{
	static const char key[] = "eeprom";

	if (!buf_is_text(buf, len))
		return false;
	for (size_t i = 0; i + sizeof(key) - 1 <= len; i++) {
		size_t k = i + sizeof(key) - 1;

		if (memcmp(buf + i, key, sizeof(key) - 1) ||
		    (i && (isalnum(buf[i - 1]) || buf[i - 1] == '_' || buf[i - 1] == '-')))
			continue;
		while (k < len && (buf[k] == ' ' || buf[k] == '\t' || buf[k] == '\n' || buf[k] == '\r'))
			k++;
		if (k < len && (buf[k] == '=' || buf[k] == ':'))
			return true;
	}
	return false;
}

const char *file_kind_not_image(const uint8_t *buf, size_t len)
{
	if (len >= 4 && get_be32(buf) == FDT_MAGIC)
		return "this is a device tree blob (an overlay?), not an EEPROM image";
	if (looks_like_definition(buf, len))
		return "this is a cape definition, not an EEPROM image; use capetool check or create";
	return NULL;
}

int eeprom_decode(const uint8_t *buf, size_t len, struct cape_image *img, char *why,
		  size_t whylen)
{
	const struct cape_eeprom_id *id = (const void *)buf;
	const uint8_t *pw;
	size_t std;
	int rc;

	memset(img, 0, sizeof(*img));
	if (len < 6) {
		snprintf(why, whylen, "image too short: %zu bytes", len);
		return EXIT_TRUNCATED;
	}
	if (get_be32(buf) != CAPE_EEPROM_MAGIC) {
		const char *kind = file_kind_not_image(buf, len);

		if (kind) {
			snprintf(why, whylen, "%s", kind);
			return EXIT_MAGIC;
		}
		snprintf(why, whylen, "bad magic: %02x %02x %02x %02x, expected aa 55 33 ee%s",
			 buf[0], buf[1], buf[2], buf[3],
			 get_be32(buf) == 0xffffffffU ? " (blank EEPROM?)" : "");
		return EXIT_MAGIC;
	}
	if (!memcmp(id->revision, CAPE_EEPROM_REV_A1, 2)) {
		img->a0 = false;
	} else if (!memcmp(id->revision, CAPE_EEPROM_REV_A0, 2)) {
		img->a0 = true;
	} else {
		snprintf(why, whylen, "unknown format revision 0x%02x 0x%02x (known: A0, A1)",
			 buf[4], buf[5]);
		return EXIT_REVISION;
	}
	std = eeprom_std_size(img->a0);
	if (len < std) {
		snprintf(why, whylen, "image too short: %zu bytes, format %s needs %zu", len,
			 img->a0 ? "A0" : "A1", std);
		return EXIT_TRUNCATED;
	}
	if ((rc = get_text(id->board_name, sizeof(id->board_name), img->board_name, "board name", why, whylen)) ||
	    (rc = get_text(id->version, sizeof(id->version), img->version, "version", why, whylen)) ||
	    (rc = get_text(id->manufacturer, sizeof(id->manufacturer), img->manufacturer, "manufacturer", why, whylen)) ||
	    (rc = get_text(id->part_number, sizeof(id->part_number), img->part_number, "part number", why, whylen)) ||
	    (rc = get_text(id->serial, sizeof(id->serial), img->serial, "serial", why, whylen)))
		return rc;
	if (!*img->part_number || strchr(img->part_number, '/') || !*img->version ||
	    strchr(img->version, '/')) {
		snprintf(why, whylen, "bad text: part number \"%s\" and version \"%s\" name a firmware file: not empty, no '/'",
			 img->part_number, img->version);
		return EXIT_TEXT;
	}
	img->num_pins = get_be16(buf + 74);
	img->npinwords = img->a0 ? CAPE_EEPROM_A0_NUM_PINS : CAPE_EEPROM_A1_NUM_PINS;
	for (unsigned i = 0; i < img->npinwords; i++)
		img->pins[i] = get_be16(buf + CAPE_EEPROM_PINS_OFFSET + 2 * i);
	pw = buf + CAPE_EEPROM_PINS_OFFSET + 2 * img->npinwords;
	for (int i = 0; i < 4; i++)
		img->power[i] = get_be16(pw + 2 * i);
	return decode_ext(buf, len, std, img, why, whylen);
}

void pin_words(int idx, uint16_t w, char *out, size_t outlen)
{
	static const char *const dir[] = { "none", "in", "out", "bidir" };
	const char *pull;

	if (cape_pin_is_ain(idx)) {
		snprintf(out, outlen, "%s", cape_pin_names[idx]);
		return;
	}
	if (w & CAPE_PIN_PULL_DISABLE)
		pull = "no-pull";
	else if (w & CAPE_PIN_PULL_UP)
		pull = "pull-up";
	else
		pull = "pull-down";
	snprintf(out, outlen, "%s mode%u %s %s%s %s", cape_pin_names[idx],
		 w & CAPE_PIN_MODE_MASK, dir[(w & CAPE_PIN_DIR_MASK) >> 13], pull,
		 (w & CAPE_PIN_RX_ENABLE) ? " rx" : "",
		 (w & CAPE_PIN_SLEW_SLOW) ? "slow" : "fast");
}

int pin_words_parse(const char *line, int *idx, uint16_t *word)
{
	static const char *const dirs[] = { "none", "in", "out", "bidir" };
	char name[16], dir[8], pull[12], rest[2][8];
	unsigned mode;
	int n, i, d;
	uint16_t w = CAPE_PIN_USED;

	n = sscanf(line, "%15s mode%u %7s %11s %7s %7s", name, &mode, dir, pull, rest[0], rest[1]);
	i = n >= 1 ? cape_pin_index(name) : -1;
	if (i < 0)
		return -1;
	if (cape_pin_is_ain(i)) {
		if (n != 1)
			return -1;
		*idx = i;
		*word = w;
		return 0;
	}
	if (n < 5 || mode > 7)
		return -1;
	for (d = 0; d < 4 && strcmp(dir, dirs[d]); d++)
		;
	if (d == 4)
		return -1;
	w |= (uint16_t)(d << 13) | (uint16_t)mode;
	if (!strcmp(pull, "no-pull"))
		w |= CAPE_PIN_PULL_DISABLE;
	else if (!strcmp(pull, "pull-up"))
		w |= CAPE_PIN_PULL_UP;
	else if (strcmp(pull, "pull-down"))
		return -1;
	if (n == 6) {			/* "rx" then the slew */
		if (strcmp(rest[0], "rx"))
			return -1;
		w |= CAPE_PIN_RX_ENABLE;
		memcpy(rest[0], rest[1], sizeof(rest[0]));
	}
	if (!strcmp(rest[0], "slow"))
		w |= CAPE_PIN_SLEW_SLOW;
	else if (strcmp(rest[0], "fast"))
		return -1;
	*idx = i;
	*word = w;
	return 0;
}

bool eeprom_has_magic(const uint8_t *buf, size_t len)
{
	return len >= 4 && get_be32(buf) == CAPE_EEPROM_MAGIC;
}
