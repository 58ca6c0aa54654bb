// SPDX-License-Identifier: GPL-2.0
/*
 * capebus-bone: capes whose overlays the bootloader applied.
 *
 * On BeagleBoard.org's images U-Boot reads the cape EEPROMs and applies
 * each cape's overlay before Linux starts.  The overlays of
 * beagleboard/bb.org-overlays record themselves as they are applied: a
 * fragment on "/" adds a property to /chosen/overlays named after the
 * overlay file, "<part>-<version>" (most with ".bb.org-overlays" after
 * it) or, for a few, the bare part number.  A cape listed there has its
 * nodes in the tree and its pads muxed when the connector probes: capebus
 * must neither apply its overlay again nor mux its pads (a second pin
 * group on the same pads would fight the bootloader's), but it still
 * holds the cape's pins, so that no cape declared later takes them.
 */

#include <linux/of.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include "bone.h"

/**
 * bone_overlay_record_matches() - does a /chosen/overlays entry name a cape?
 * @record: the property's name
 * @part: the cape's part number (from its EEPROM)
 * @version: the cape's version, "" if it has none
 *
 * Return: true for "<part>-<version>", "<part>-<version>.<anything>" and
 * "<part>" (bb.org-overlays writes all three).
 */
bool bone_overlay_record_matches(const char *record, const char *part,
				 const char *version)
{
	size_t n = strlen(part);

	if (!n || strncmp(record, part, n))
		return false;
	record += n;
	if (!*record)
		return true;
	if (*record++ != '-')
		return false;
	if (!*version)
		version = BONE_DEFAULT_VERSION;
	n = strlen(version);
	if (strncmp(record, version, n))
		return false;
	record += n;

	return !*record || *record == '.';
}
EXPORT_SYMBOL_IF_KUNIT(bone_overlay_record_matches);

/**
 * bone_applied_by_bootloader() - was a cape's overlay applied before Linux?
 * @info: the cape, as its EEPROM describes it
 * @taken: per slot (BONE_MAX_SLOTS), the record a slot's cape holds already
 * @nr: the cape's slot: its own entry of @taken counts as free
 * @by: where to write what says so ("/chosen/overlays/<record>")
 * @len: bytes at @by
 *
 * Return: the /chosen/overlays record of the cape's overlay that no other
 * slot holds (a property of the base tree: it is never freed), or NULL.
 */
const struct property *
bone_applied_by_bootloader(const struct capebus_cape_info *info,
			   const struct property *const *taken, unsigned int nr,
			   char *by, size_t len)
{
	struct device_node *np __free(device_node) =
		of_find_node_by_path("/chosen/overlays");
	const char *part = info->text[CAPEBUS_PART_NUMBER];
	const char *version = info->text[CAPEBUS_VERSION];
	struct property *prop;
	unsigned int i;

	if (!np)
		return NULL;

	for_each_property_of_node(np, prop) {
		/* The OF core's own "name" (and "phandle") are no records. */
		if (!strcmp(prop->name, "name") || !strcmp(prop->name, "phandle"))
			continue;
		if (!bone_overlay_record_matches(prop->name, part, version))
			continue;
		for (i = 0; i < BONE_MAX_SLOTS; i++)
			if (i != nr && taken[i] == prop)
				break;
		if (i < BONE_MAX_SLOTS)
			continue;
		snprintf(by, len, "/chosen/overlays/%s", prop->name);
		return prop;
	}

	return NULL;
}
