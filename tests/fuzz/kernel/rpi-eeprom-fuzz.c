// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: kernel/drivers/capebus/rpi/rpi-eeprom.c, the kernel's
 * parser of Raspberry Pi HAT (version 1) and HAT+ (version 2) ID EEPROMs,
 * built unmodified against the userspace shim (shim/include).
 *
 * Each input is an EEPROM image, handed to rpi_eeprom_parse() from a heap
 * block of exactly its bytes (so ASan sees a read one byte past them),
 * then again cut to the eeplen its header states, when that is shorter.
 *
 * The atoms carry CRC-16s the fuzzer cannot guess, so each input runs a
 * second time with every atom's CRC rewritten to the right value (by this
 * file's own CRC and its own walk of the atoms), when that changes
 * anything.  A corpus file therefore needs no valid CRCs.
 *
 * Beyond memory safety, abort() when a documented promise breaks: the
 * reason NUL-terminated inside its buffer always, empty on success and
 * not on failure, and the same results with no reason buffer (NULL, 0);
 * only the documented error codes, and @ee zeroed on failure; on success,
 * the header fields as the bytes say, eeplen within the buffer, the vendor
 * and product strings and the overlay name terminated within their arrays
 * and printable ASCII, the overlay name the DT atom's bytes but for NULs,
 * CRs and LFs at their end, non-empty only for a HAT+, starting
 * with a letter or digit, without '/'; the device tree blob (HAT only)
 * non-empty and inside the buffer, at the data of a type-3 atom; a GPIO
 * map for every HAT and none for a HAT+; GPIO0/1 unused and used_pins the
 * count of used GPIO bytes; the power atom only for a HAT+.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/types.h>

#include "rpi-eeprom.h"
#include "kshim.h"

#define HARNESS_NAME "rpi-eeprom-fuzz"
#include "harness.h"

/* The harness's own CRC-16/ARC, bitwise (the shim's is table-driven). */
static uint16_t crc16_arc(const uint8_t *p, size_t n)
{
	uint16_t c = 0;
	int k;

	while (n--) {
		c ^= *p++;
		for (k = 0; k < 8; k++)
			c = c & 1 ? (uint16_t)((c >> 1) ^ 0xa001) : (uint16_t)(c >> 1);
	}
	return c;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint8_t *dup_exact(const uint8_t *data, size_t size)
{
	uint8_t *b = malloc(size ? size : 1);

	if (!b)
		abort();
	memcpy(b, data, size);
	return b;
}

/* @n bytes at @p are NULs, CRs and LFs only (what the parser drops). */
static int line_ends(const unsigned char *p, size_t n)
{
	while (n--)
		if (p[n] && p[n] != '\n' && p[n] != '\r')
			return 0;
	return 1;
}

static void check_text(const char *field, const char *s, size_t size)
{
	if (!memchr(s, '\0', size))
		fail("%s not terminated within its %zu bytes", field, size);
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			fail("%s has byte 0x%02x", field, (unsigned char)*s);
}

static bool is_zero(const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		if (*b++)
			return false;
	return true;
}

/* A parsed @ee is what the @len bytes at @b say. */
static void check_parsed(const struct rpi_eeprom *ee, const uint8_t *b, size_t len)
{
	const uint8_t *dt = ee->dt;
	unsigned int i, used = 0;
	size_t off, found_dt = 0;

	if (memcmp(b, "R-Pi", 4) || ee->version != b[4] ||
	    (ee->version != 1 && ee->version != 2))
		fail("accepted signature %02x%02x%02x%02x version %u (ee: %u)",
		     b[0], b[1], b[2], b[3], b[4], ee->version);
	if (ee->numatoms != le16(b + 6) || !ee->numatoms || ee->eeplen != le32(b + 8) ||
	    ee->eeplen > len)
		fail("numatoms %u, eeplen %u in a %zu-byte buffer; the bytes say %u, %u",
		     ee->numatoms, ee->eeplen, len, le16(b + 6), le32(b + 8));
	check_text("vendor", ee->vendor, sizeof(ee->vendor));
	check_text("product", ee->product, sizeof(ee->product));
	check_text("overlay", ee->overlay, sizeof(ee->overlay));

	/* The format's own walk: where is the DT atom's data? */
	off = 12;
	for (i = 0; i < ee->numatoms; i++) {
		uint32_t dlen;

		if (ee->eeplen - off < 10)
			fail("accepted: atom %u's header runs past eeplen", i);
		dlen = le32(b + off + 4);
		if (le16(b + off + 2) != i || dlen < 2 || dlen > ee->eeplen - off - 8)
			fail("accepted: atom %u at %zu: count %u, dlen %u", i, off,
			     le16(b + off + 2), dlen);
		if (crc16_arc(b + off, 8 + dlen - 2) != le16(b + off + 8 + dlen - 2))
			fail("accepted: atom %u at %zu with a wrong CRC", i, off);
		if (!i && le16(b + off) != RPI_HAT_ATOM_VENDOR)
			fail("accepted: atom 0 of type 0x%04x", le16(b + off));
		if (le16(b + off) == RPI_HAT_ATOM_DT)
			found_dt = off + 8;
		off += 8 + (size_t)dlen;
	}
	if (off != ee->eeplen)
		fail("accepted: %zu bytes left in eeplen", ee->eeplen - off);

	if (ee->version == 1) {
		if (ee->overlay[0] || ee->has_power || ee->current_supply_ma ||
		    !ee->has_gpio_bank0)
			fail("HAT: overlay \"%s\", power %d, GPIO map %d", ee->overlay,
			     ee->has_power, ee->has_gpio_bank0);
		if (found_dt) {
			if (dt != b + found_dt || !ee->dt_len ||
			    ee->dt_len > (size_t)(b + ee->eeplen - dt) ||
			    ee->dt_len != le32(b + found_dt - 4) - 2u)
				fail("HAT: DT blob at %td, %zu bytes; the atom's data at %zu",
				     dt ? dt - b : -1, ee->dt_len, found_dt);
		} else if (dt || ee->dt_len) {
			fail("HAT: a DT blob without a DT atom");
		}
	} else {
		if (dt || ee->dt_len || ee->has_gpio_bank0 || ee->has_gpio_bank1 ||
		    !is_zero(ee->gpio, sizeof(ee->gpio)) || ee->back_power ||
		    ee->gpio_flags[0] || ee->gpio_flags[1])
			fail("HAT+: a DT blob or a GPIO map");
		if (!found_dt != !ee->overlay[0])
			fail("HAT+: overlay \"%s\" with%s a DT atom", ee->overlay,
			     found_dt ? "" : "out");
		if (ee->overlay[0]) {
			if (!((ee->overlay[0] >= '0' && ee->overlay[0] <= '9') ||
			      (ee->overlay[0] >= 'a' && ee->overlay[0] <= 'z') ||
			      (ee->overlay[0] >= 'A' && ee->overlay[0] <= 'Z')) ||
			    strchr(ee->overlay, '/') ||
			    strlen(ee->overlay) > le32(b + found_dt - 4) - 2u ||
			    memcmp(ee->overlay, b + found_dt, strlen(ee->overlay)) ||
			    !line_ends(b + found_dt + strlen(ee->overlay),
				       le32(b + found_dt - 4) - 2u - strlen(ee->overlay)))
				fail("HAT+: overlay name \"%s\"", ee->overlay);
		}
		if (!ee->has_power && ee->current_supply_ma)
			fail("HAT+: current_supply %u without a power atom",
			     ee->current_supply_ma);
	}
	if (!ee->has_gpio_bank1 && !is_zero(ee->gpio + 28, 18))
		fail("GPIO28-45 set without a bank 1 map");
	for (i = 0; i < RPI_EEPROM_NUM_GPIOS; i++) {
		if (!(ee->gpio[i] & RPI_HAT_PIN_USED))
			continue;
		used++;
		if (i < 2 || (ee->gpio[i] & RPI_HAT_PIN_RESERVED_MASK))
			fail("GPIO%u: 0x%02x accepted", i, ee->gpio[i]);
	}
	if (used != ee->used_pins)
		fail("used_pins %u, counted %u", ee->used_pins, used);
	if (ee->num_custom + ee->num_unknown > ee->numatoms)
		fail("%u custom and %u unknown atoms of %u", ee->num_custom,
		     ee->num_unknown, ee->numatoms);
}

/* rpi_eeprom_parse() on exactly @len bytes; return whether it accepted. */
static bool run(const uint8_t *data, size_t len)
{
	struct rpi_eeprom *ee = malloc(sizeof(*ee)), *ee2 = malloc(sizeof(*ee2));
	uint8_t *b = dup_exact(data, len);
	char *why = malloc(WHY_LEN);
	int ret;

	if (!ee || !ee2 || !why)
		abort();
	memset(why, 0xa5, WHY_LEN);
	memset(ee, 0x5a, sizeof(*ee));
	ret = rpi_eeprom_parse(ee, b, len, why, WHY_LEN);
	if (!memchr(why, '\0', WHY_LEN))
		fail("reason not NUL-terminated within its %d bytes", WHY_LEN);
	if (verbose)
		fprintf(stderr, "rpi_eeprom_parse(%zu bytes) = %d%s%s\n", len, ret,
			why[0] ? ": " : "", why);
	memset(ee2, 0xa5, sizeof(*ee2));
	if (rpi_eeprom_parse(ee2, b, len, NULL, 0) != ret || memcmp(ee, ee2, sizeof(*ee)))
		fail("rpi_eeprom_parse() says otherwise without a reason buffer");
	if (ret) {
		if (ret != -ENODATA && ret != -EMSGSIZE && ret != -EBADMSG && ret != -EINVAL)
			fail("rpi_eeprom_parse() = %d", ret);
		if (!why[0])
			fail("failed (%d) with an empty reason", ret);
		if (!is_zero(ee, sizeof(*ee)))
			fail("failed (%d), ee not zeroed", ret);
	} else {
		if (why[0])
			fail("succeeded with a reason: %s", why);
		check_parsed(ee, b, len);
	}
	free(why);
	free(ee2);
	free(ee);
	free(b);
	return !ret;
}

/*
 * Rewrite every atom's CRC to the right value, walking the atoms as the
 * format says (not as the kernel does), as far as the bytes allow.
 */
static bool fix_crcs(uint8_t *b, size_t size)
{
	size_t off = 12, end;
	bool changed = false;
	unsigned int i, n;
	uint32_t dlen;
	uint16_t crc;

	if (size < 12 || memcmp(b, "R-Pi", 4))
		return false;
	n = le16(b + 6);
	end = le32(b + 8) < size ? le32(b + 8) : size;
	for (i = 0; i < n && end >= off && end - off >= 10; i++) {
		dlen = le32(b + off + 4);
		if (dlen < 2 || dlen > end - off - 8)
			break;
		crc = crc16_arc(b + off, 8 + dlen - 2);
		if (le16(b + off + 8 + dlen - 2) != crc) {
			b[off + 8 + dlen - 2] = (uint8_t)crc;
			b[off + 8 + dlen - 1] = (uint8_t)(crc >> 8);
			changed = true;
		}
		off += 8 + (size_t)dlen;
	}
	return changed;
}

static void run_all(const uint8_t *data, size_t size)
{
	bool ok = run(data, size);

	/* The connector's reads: the header, then exactly eeplen bytes. */
	if (size >= 12 && le32(data + 8) < size)
		if (run(data, le32(data + 8)) != ok)
			fail("accepted %s its bytes past eeplen", ok ? "only with" : "only without");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	kshim_selftest();
	verbose = getenv("FUZZ_VERBOSE");
	if (crc16_arc((const uint8_t *)"123456789", 9) != 0xbb3d)
		fail("CRC-16/ARC check value");
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
