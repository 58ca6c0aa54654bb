// SPDX-License-Identifier: GPL-2.0
/*
 * capebus: parser for the Raspberry Pi HAT (version 1) and HAT+ (version 2)
 * ID EEPROM: a header and a run of atoms, each with a CRC-16.
 *
 * The EEPROM is untrusted input.  Every length is checked against what the
 * caller's buffer holds before anything is read, nothing does I/O and
 * nothing allocates; a refusal says which atom, field and byte offset were
 * wrong.  Layout: include/uapi/linux/capebus-hat.h.
 */

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/crc16.h>
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include <kunit/visibility.h>

#include "rpi-eeprom.h"

#define HDR_SIZE	sizeof(struct rpi_hat_header)
#define ATOM_HDR_SIZE	sizeof(struct rpi_hat_atom_header)
#define VENDOR_SIZE	sizeof(struct rpi_hat_vendor)

static __printf(3, 4) void rpi_why(char *why, size_t why_len,
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
 * rpi_eeprom_atom_name() - name of an atom type, for messages
 * @type: RPI_HAT_ATOM_*
 *
 * Return: e.g. "vendor" or "GPIO map bank 1"; "unknown" for a type this
 * parser does not know.
 */
const char *rpi_eeprom_atom_name(u16 type)
{
	switch (type) {
	case RPI_HAT_ATOM_VENDOR:
		return "vendor";
	case RPI_HAT_ATOM_GPIO:
		return "GPIO map";
	case RPI_HAT_ATOM_DT:
		return "device tree";
	case RPI_HAT_ATOM_CUSTOM:
		return "custom";
	case RPI_HAT_ATOM_GPIO_BANK1:
		return "GPIO map bank 1";
	case RPI_HAT_ATOM_POWER_SUPPLY:
		return "power supply";
	case RPI_HAT_ATOM_INVALID:
	case RPI_HAT_ATOM_INVALID_FFFF:
		return "invalid";
	default:
		return "unknown";
	}
}
EXPORT_SYMBOL_IF_KUNIT(rpi_eeprom_atom_name);

static bool rpi_is_blank(const u8 *b, size_t len)
{
	size_t i;

	if (b[0] != 0x00 && b[0] != 0xff)
		return false;
	for (i = 1; i < len; i++)
		if (b[i] != b[0])
			return false;
	return true;
}

/*
 * Check @n bytes of text at @offset in the image: printable ASCII, then
 * maybe NULs, CRs and LFs, which are dropped.  eepmake copies a string
 * given on lines of its own ("dt_blob" alone on a line, the text below it)
 * with its line ends, and other writers end a string with a NUL: the text
 * is the same.  Copy it to @out, which has room for @n + 1 bytes, and
 * terminate it.
 */
static int rpi_text(char *out, const u8 *b, size_t offset, size_t n,
		    const char *field, char *why, size_t why_len)
{
	const u8 *in = b + offset;
	size_t i;

	while (n && (!in[n - 1] || in[n - 1] == '\n' || in[n - 1] == '\r'))
		n--;
	for (i = 0; i < n; i++) {
		if (in[i] < 0x20 || in[i] == 0x7f) {
			rpi_why(why, why_len,
				"%s: control byte 0x%02x at offset %zu",
				field, in[i], offset + i);
			return -EINVAL;
		}
		if (in[i] > 0x7f) {
			rpi_why(why, why_len,
				"%s: non-ASCII byte 0x%02x at offset %zu",
				field, in[i], offset + i);
			return -EINVAL;
		}
	}
	memcpy(out, in, n);
	out[n] = '\0';
	return 0;
}

/* The vendor atom: fixed fields, then two strings that fill it exactly. */
static int rpi_parse_vendor(struct rpi_eeprom *ee, const u8 *b, size_t data,
			    size_t n, char *why, size_t why_len)
{
	const u8 *d = b + data;
	size_t vlen, plen;
	unsigned int i;
	int ret;

	if (n < VENDOR_SIZE) {
		rpi_why(why, why_len,
			"vendor atom at offset %zu: %zu bytes of data, its fields need %zu",
			data - ATOM_HDR_SIZE, n, VENDOR_SIZE);
		return -EINVAL;
	}
	vlen = d[offsetof(struct rpi_hat_vendor, vendor_len)];
	plen = d[offsetof(struct rpi_hat_vendor, product_len)];
	if (n != VENDOR_SIZE + vlen + plen) {
		rpi_why(why, why_len,
			"vendor atom at offset %zu: %zu bytes of data, but %zu + vendor_len %zu + product_len %zu",
			data - ATOM_HDR_SIZE, n, VENDOR_SIZE, vlen, plen);
		return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(ee->uuid); i++)
		ee->uuid[i] = get_unaligned_le32(d + 4 * i);
	ee->product_id = get_unaligned_le16(d + offsetof(struct rpi_hat_vendor, product_id));
	ee->product_ver = get_unaligned_le16(d + offsetof(struct rpi_hat_vendor, product_ver));

	ret = rpi_text(ee->vendor, b, data + VENDOR_SIZE, vlen,
		       "vendor string", why, why_len);
	if (ret)
		return ret;
	return rpi_text(ee->product, b, data + VENDOR_SIZE + vlen, plen,
			"product string", why, why_len);
}

/*
 * A GPIO map, bank 0 or 1: @first is the bank's first GPIO, @num its
 * number of pin bytes, which follow the flags and power bytes.
 */
static int rpi_parse_gpio(struct rpi_eeprom *ee, const u8 *b, size_t data,
			  size_t n, unsigned int bank, char *why, size_t why_len)
{
	const unsigned int first = bank ? RPI_HAT_GPIO_BANK0_NUM : 0;
	const size_t num = bank ? RPI_HAT_GPIO_BANK1_NUM : RPI_HAT_GPIO_BANK0_NUM;
	const char *what = bank ? "GPIO map bank 1" : "GPIO map";
	const u8 *d = b + data;
	unsigned int i, slew, hyst;
	u8 flags, power;

	if (n != 2 + num) {
		rpi_why(why, why_len,
			"%s atom at offset %zu: %zu bytes of data, not %zu",
			what, data - ATOM_HDR_SIZE, n, 2 + num);
		return -EINVAL;
	}
	flags = d[0];
	power = d[1];
	slew = (flags & RPI_HAT_GPIO_SLEW_MASK) >> RPI_HAT_GPIO_SLEW_SHIFT;
	hyst = (flags & RPI_HAT_GPIO_HYSTERESIS_MASK) >>
	       RPI_HAT_GPIO_HYSTERESIS_SHIFT;
	if ((flags & RPI_HAT_GPIO_DRIVE_MASK) > RPI_HAT_GPIO_DRIVE_MAX ||
	    slew == 3 || hyst == 3) {
		rpi_why(why, why_len,
			"%s: reserved drive, slew or hysteresis in flags 0x%02x at offset %zu",
			what, flags, data);
		return -EINVAL;
	}
	if (!bank && power > RPI_HAT_BACK_POWER_2A) {
		rpi_why(why, why_len,
			"GPIO map: back power %u at offset %zu (known: 0-2)",
			power, data + 1);
		return -EINVAL;
	}

	for (i = 0; i < num; i++) {
		u8 pin = d[2 + i];
		unsigned int gpio = first + i;

		if (!(pin & RPI_HAT_PIN_USED))
			continue;
		if (gpio < RPI_HAT_GPIO_FIRST) {
			rpi_why(why, why_len,
				"%s: GPIO%u is the ID EEPROM's bus, marked used (0x%02x at offset %zu)",
				what, gpio, pin, data + 2 + i);
			return -EINVAL;
		}
		if (pin & RPI_HAT_PIN_RESERVED_MASK) {
			rpi_why(why, why_len,
				"%s: GPIO%u: reserved bits set in 0x%02x at offset %zu",
				what, gpio, pin, data + 2 + i);
			return -EINVAL;
		}
	}

	ee->gpio_flags[bank] = flags;
	if (!bank)
		ee->back_power = power;
	for (i = 0; i < num; i++) {
		ee->gpio[first + i] = d[2 + i];
		if (d[2 + i] & RPI_HAT_PIN_USED)
			ee->used_pins++;
	}
	return 0;
}

/* A HAT+ names its overlay: <name>.dtbo is the file the connector loads. */
static int rpi_parse_overlay(struct rpi_eeprom *ee, const u8 *b, size_t data,
			     size_t n, char *why, size_t why_len)
{
	const char *slash;
	int ret;

	if (!n) {
		rpi_why(why, why_len,
			"device tree atom at offset %zu: empty overlay name",
			data - ATOM_HDR_SIZE);
		return -EINVAL;
	}
	if (n > RPI_EEPROM_OVERLAY_MAX) {
		rpi_why(why, why_len,
			"device tree atom at offset %zu: overlay name of %zu bytes, longer than %u",
			data - ATOM_HDR_SIZE, n, RPI_EEPROM_OVERLAY_MAX);
		return -EINVAL;
	}
	ret = rpi_text(ee->overlay, b, data, n, "overlay name", why, why_len);
	if (ret)
		goto bad;
	if (!ee->overlay[0]) {
		rpi_why(why, why_len,
			"device tree atom at offset %zu: empty overlay name",
			data - ATOM_HDR_SIZE);
		ret = -EINVAL;
		goto bad;
	}
	if (!isalnum(ee->overlay[0])) {
		rpi_why(why, why_len,
			"overlay name: begins with 0x%02x at offset %zu, not a letter or digit",
			b[data], data);
		ret = -EINVAL;
		goto bad;
	}
	slash = strchr(ee->overlay, '/');
	if (slash) {
		rpi_why(why, why_len,
			"overlay name: '/' at offset %zu (it names a firmware file)",
			data + (slash - ee->overlay));
		ret = -EINVAL;
		goto bad;
	}
	return 0;
bad:
	ee->overlay[0] = '\0';
	return ret;
}

/*
 * The atom types of which an image holds at most one, as a bit each; and
 * those a version does not allow.
 */
#define RPI_FIXED_ATOMS	(BIT(RPI_HAT_ATOM_VENDOR) | BIT(RPI_HAT_ATOM_GPIO) | \
			 BIT(RPI_HAT_ATOM_DT) | BIT(RPI_HAT_ATOM_GPIO_BANK1) | \
			 BIT(RPI_HAT_ATOM_POWER_SUPPLY))
#define RPI_V1_REFUSED	BIT(RPI_HAT_ATOM_POWER_SUPPLY)
#define RPI_V2_REFUSED	(BIT(RPI_HAT_ATOM_GPIO) | BIT(RPI_HAT_ATOM_GPIO_BANK1))

/* One atom's data, @n bytes at @data, its CRC already checked. */
static int rpi_parse_atom(struct rpi_eeprom *ee, const u8 *b, u16 type,
			  size_t data, size_t n, char *why, size_t why_len)
{
	switch (type) {
	case RPI_HAT_ATOM_VENDOR:
		return rpi_parse_vendor(ee, b, data, n, why, why_len);
	case RPI_HAT_ATOM_GPIO:
		ee->has_gpio_bank0 = true;
		return rpi_parse_gpio(ee, b, data, n, 0, why, why_len);
	case RPI_HAT_ATOM_GPIO_BANK1:
		ee->has_gpio_bank1 = true;
		return rpi_parse_gpio(ee, b, data, n, 1, why, why_len);
	case RPI_HAT_ATOM_DT:
		if (ee->version == RPI_HAT_VERSION_2)
			return rpi_parse_overlay(ee, b, data, n, why, why_len);
		if (!n) {
			rpi_why(why, why_len,
				"device tree atom at offset %zu: empty",
				data - ATOM_HDR_SIZE);
			return -EINVAL;
		}
		ee->dt = b + data;
		ee->dt_len = n;
		return 0;
	case RPI_HAT_ATOM_CUSTOM:
		ee->num_custom++;
		return 0;
	case RPI_HAT_ATOM_POWER_SUPPLY:
		if (n != sizeof(struct rpi_hat_power_supply)) {
			rpi_why(why, why_len,
				"power supply atom at offset %zu: %zu bytes of data, not %zu",
				data - ATOM_HDR_SIZE, n,
				sizeof(struct rpi_hat_power_supply));
			return -EINVAL;
		}
		ee->has_power = true;
		ee->current_supply_ma = get_unaligned_le32(b + data);
		return 0;
	default:
		ee->num_unknown++;	/* a later format's atom: skip it */
		return 0;
	}
}

static int rpi_parse_header(struct rpi_eeprom *ee, const u8 *b, size_t len,
			    char *why, size_t why_len)
{
	u32 signature;

	if (len < HDR_SIZE) {
		rpi_why(why, why_len,
			"short read: %zu bytes, need %zu for the header",
			len, HDR_SIZE);
		return -EMSGSIZE;
	}
	if (rpi_is_blank(b, len)) {
		rpi_why(why, why_len, "blank EEPROM (all 0x%02x)", b[0]);
		return -ENODATA;
	}
	signature = get_unaligned_le32(b + offsetof(struct rpi_hat_header, signature));
	if (signature != RPI_HAT_SIGNATURE) {
		rpi_why(why, why_len,
			"bad signature %*ph at offset 0 (want \"R-Pi\")", 4, b);
		return -EINVAL;
	}
	ee->version = b[offsetof(struct rpi_hat_header, version)];
	if (ee->version != RPI_HAT_VERSION_1 &&
	    ee->version != RPI_HAT_VERSION_2) {
		rpi_why(why, why_len,
			"unknown version %u at offset %zu (known: 1 HAT, 2 HAT+)",
			ee->version, offsetof(struct rpi_hat_header, version));
		return -EINVAL;
	}
	ee->numatoms = get_unaligned_le16(b + offsetof(struct rpi_hat_header, numatoms));
	ee->eeplen = get_unaligned_le32(b + offsetof(struct rpi_hat_header, eeplen));
	if (ee->eeplen < HDR_SIZE + RPI_HAT_ATOM_MIN_SIZE) {
		rpi_why(why, why_len,
			"eeplen %u at offset %zu: less than a header and one atom (%zu)",
			ee->eeplen, offsetof(struct rpi_hat_header, eeplen),
			HDR_SIZE + RPI_HAT_ATOM_MIN_SIZE);
		return -EINVAL;
	}
	if (ee->eeplen > len) {
		rpi_why(why, why_len,
			"short read: %zu bytes, eeplen at offset %zu says %u",
			len, offsetof(struct rpi_hat_header, eeplen), ee->eeplen);
		return -EMSGSIZE;
	}
	if (!ee->numatoms) {
		rpi_why(why, why_len,
			"numatoms 0 at offset %zu: no vendor atom",
			offsetof(struct rpi_hat_header, numatoms));
		return -EINVAL;
	}
	if (ee->numatoms > (ee->eeplen - HDR_SIZE) / RPI_HAT_ATOM_MIN_SIZE) {
		rpi_why(why, why_len,
			"numatoms %u at offset %zu: more than eeplen %u holds",
			ee->numatoms, offsetof(struct rpi_hat_header, numatoms),
			ee->eeplen);
		return -EINVAL;
	}
	return 0;
}

/**
 * rpi_eeprom_parse() - decode and check a HAT or HAT+ EEPROM image
 * @ee: zeroed, then filled in; meaningful only on success
 * @buf: the EEPROM's first bytes
 * @len: bytes in @buf; at least the image's eeplen (bytes past it are not
 *	looked at)
 * @why: on failure, a reason naming the atom or field and the byte offset;
 *	on success, an empty string.  May be NULL.
 * @why_len: size of @why
 *
 * The header: signature "R-Pi", version 1 (HAT) or 2 (HAT+), the reserved
 * byte ignored, eeplen within @len, numatoms from 1 to as many as eeplen
 * could hold.  Then numatoms atoms, which must fill eeplen exactly: each
 * one's count its index, its type neither 0x0000 nor 0xffff, its dlen room
 * for the CRC and within eeplen, its CRC-16 right.  Atom 0 is the vendor
 * atom; there is at most one atom of each type but custom (any number,
 * counted) and unknown types (skipped, counted).  A version 1 image must
 * have a GPIO map (bank 0) and may have a bank 1 map, not a power supply
 * atom; a version 2 image has no GPIO map of either bank.  The order of
 * the other atoms is not checked.
 *
 * Within the atoms: the vendor atom's two strings fill it exactly and are
 * printable ASCII, but for NULs and line ends at the end, which are dropped
 * (as from an overlay name); a GPIO map has no reserved flags or
 * back-power values, no reserved bits in a used pin, and GPIO0/1 (the ID
 * bus) unused; a version 1 device tree atom is a .dtbo returned as is
 * (@ee->dt points into @buf), not empty; a version 2 one names an overlay
 * (see @ee->overlay); a power supply atom holds 4 bytes.
 *
 * Return: 0 on success; -ENODATA for a blank part (all @len bytes 0xff or
 * all 0x00); -EMSGSIZE if @len does not hold the header or eeplen bytes;
 * -EBADMSG for an atom whose CRC does not match; -EINVAL for anything else
 * wrong.
 */
int rpi_eeprom_parse(struct rpi_eeprom *ee, const void *buf, size_t len,
		     char *why, size_t why_len)
{
	const u8 *b = buf;
	unsigned int first[RPI_HAT_ATOM_POWER_SUPPLY + 1] = { };
	unsigned long seen = 0;
	unsigned int i;
	size_t off;
	int ret;

	BUILD_BUG_ON(HDR_SIZE != 12);
	BUILD_BUG_ON(ATOM_HDR_SIZE != 8);
	BUILD_BUG_ON(VENDOR_SIZE != 22);
	BUILD_BUG_ON(sizeof(struct rpi_hat_gpio_map) != 30);
	BUILD_BUG_ON(sizeof(struct rpi_hat_gpio_map_bank1) != 20);
	BUILD_BUG_ON(sizeof(struct rpi_hat_power_supply) != 4);

	memset(ee, 0, sizeof(*ee));
	rpi_why(why, why_len, "%s", "");

	ret = rpi_parse_header(ee, b, len, why, why_len);
	if (ret)
		goto fail;

	off = HDR_SIZE;
	for (i = 0; i < ee->numatoms; i++) {
		size_t atom = off, rest = ee->eeplen - off, n;
		u16 type, count, stored, crc;
		u32 dlen;

		if (rest < RPI_HAT_ATOM_MIN_SIZE) {
			rpi_why(why, why_len,
				"atom %u at offset %zu: runs past eeplen %u (numatoms %u too many)",
				i, atom, ee->eeplen, ee->numatoms);
			ret = -EINVAL;
			goto fail;
		}
		type = get_unaligned_le16(b + atom + offsetof(struct rpi_hat_atom_header, type));
		count = get_unaligned_le16(b + atom + offsetof(struct rpi_hat_atom_header, count));
		dlen = get_unaligned_le32(b + atom + offsetof(struct rpi_hat_atom_header, dlen));
		if (count != i) {
			rpi_why(why, why_len,
				"atom %u at offset %zu: count %u, expected %u",
				i, atom, count, i);
			ret = -EINVAL;
			goto fail;
		}
		if (type == RPI_HAT_ATOM_INVALID ||
		    type == RPI_HAT_ATOM_INVALID_FFFF) {
			rpi_why(why, why_len,
				"atom %u at offset %zu: invalid type 0x%04x",
				i, atom, type);
			ret = -EINVAL;
			goto fail;
		}
		if (dlen < RPI_HAT_CRC_SIZE || dlen > rest - ATOM_HDR_SIZE) {
			rpi_why(why, why_len,
				"atom %u (%s) at offset %zu: dlen %u %s (%zu bytes left in eeplen)",
				i, rpi_eeprom_atom_name(type), atom, dlen,
				dlen < RPI_HAT_CRC_SIZE ?
				"leaves no room for the CRC" : "runs past eeplen",
				rest - ATOM_HDR_SIZE);
			ret = -EINVAL;
			goto fail;
		}
		n = dlen - RPI_HAT_CRC_SIZE;
		stored = get_unaligned_le16(b + atom + ATOM_HDR_SIZE + n);
		crc = crc16(0, b + atom, ATOM_HDR_SIZE + n);
		if (crc != stored) {
			rpi_why(why, why_len,
				"atom %u (%s) at offset %zu: CRC mismatch: stored 0x%04x, computed 0x%04x",
				i, rpi_eeprom_atom_name(type), atom, stored, crc);
			ret = -EBADMSG;
			goto fail;
		}

		if (!i && type != RPI_HAT_ATOM_VENDOR) {
			rpi_why(why, why_len,
				"atom 0 (%s, type 0x%04x) is not the vendor atom",
				rpi_eeprom_atom_name(type), type);
			ret = -EINVAL;
			goto fail;
		}
		if (type <= RPI_HAT_ATOM_POWER_SUPPLY &&
		    (BIT(type) & RPI_FIXED_ATOMS)) {
			if (seen & BIT(type)) {
				rpi_why(why, why_len,
					"atom %u at offset %zu: a second %s atom (the first is atom %u)",
					i, atom, rpi_eeprom_atom_name(type),
					first[type]);
				ret = -EINVAL;
				goto fail;
			}
			if (BIT(type) & (ee->version == RPI_HAT_VERSION_1 ?
					 RPI_V1_REFUSED : RPI_V2_REFUSED)) {
				rpi_why(why, why_len,
					"atom %u at offset %zu: a %s atom in a %s (version %u) image",
					i, atom, rpi_eeprom_atom_name(type),
					ee->version == RPI_HAT_VERSION_1 ?
					"HAT" : "HAT+", ee->version);
				ret = -EINVAL;
				goto fail;
			}
			seen |= BIT(type);
			first[type] = i;
		}

		ret = rpi_parse_atom(ee, b, type, atom + ATOM_HDR_SIZE, n,
				     why, why_len);
		if (ret)
			goto fail;
		off = atom + ATOM_HDR_SIZE + dlen;
	}

	if (off != ee->eeplen) {
		rpi_why(why, why_len,
			"%zu bytes of eeplen %u left at offset %zu after %u atoms (numatoms and eeplen disagree)",
			ee->eeplen - off, ee->eeplen, off, ee->numatoms);
		ret = -EINVAL;
		goto fail;
	}
	if (ee->version == RPI_HAT_VERSION_1 && !ee->has_gpio_bank0) {
		rpi_why(why, why_len,
			"no GPIO map atom: a HAT (version 1) image requires one");
		ret = -EINVAL;
		goto fail;
	}
	return 0;

fail:
	/* Nothing half-parsed, in particular no pointer into @buf. */
	memset(ee, 0, sizeof(*ee));
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(rpi_eeprom_parse);
