/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capetool: the kernel's own parsers, linked in.  kcheck.c calls
 * kernel/drivers/capebus/rpi/rpi-eeprom.c and rpi-header.c (HAT ID EEPROM
 * images, and what the 40-pin header takes of them) and
 * capebus-fdt.c (the overlay resolver every cape's overlay goes through),
 * both built unmodified against the userspace shim the kernel fuzzers use
 * (tests/fuzz/kernel/shim): what they refuse, capetool refuses, in their
 * words.  Plain C types here: the rest of capetool never sees the shim.
 */
#ifndef CAPETOOL_KCHECK_H
#define CAPETOOL_KCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The longest HAT+ overlay name the kernel takes (RPI_EEPROM_OVERLAY_MAX). */
extern const size_t kcheck_hat_overlay_max;

/*
 * rpi_eeprom_parse() of @len bytes at @buf, then rpi_info_from_eeprom()
 * (rpi-header.c: the HAT on the 40-pin header, as rpi_decode_image()
 * takes it): 0, or a negative errno (-EBADMSG: an atom's CRC), the
 * kernel's reason in @why, and *@header: the header refuses it (a GPIO of
 * bank 1), not the parser.
 */
int kcheck_hat_image(const void *buf, size_t len, bool *header, char *why, size_t why_len);

/* What an exported name stands for: 0 and *phandle, or -ENOENT. */
typedef int (*kcheck_lookup_t)(void *ctx, const char *name, uint32_t *phandle);

/*
 * capebus_fdt_resolve() with the kernel's cape limits: 0 and the resolved
 * overlay at *out (malloc'ed), or a negative errno and the kernel's reason.
 */
int kcheck_resolve(const void *blob, size_t len, kcheck_lookup_t lookup, void *ctx,
		   void **out, size_t *out_len, char *why, size_t why_len);
/* A property of the resolved overlay's root, or NULL (capebus_fdt_root_prop()). */
const void *kcheck_root_prop(const void *fdt, const char *name, uint32_t *len);
/*
 * The @i-th property a fragment sets on a target it enables
 * (capebus_fdt_target_prop()): 0, or -ENOENT past the last.
 */
int kcheck_target_prop(const void *fdt, unsigned int i, uint32_t *target,
		       const char **fragment, const char **name);

#endif
