/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capebus-bone: what the files of the BeagleBone controller module share.
 */
#ifndef _CAPEBUS_BONE_H
#define _CAPEBUS_BONE_H

#include <linux/capebus.h>

#include "bone-eeprom.h"

extern const struct capebus_header bone_header;

void bone_info_from_eeprom(struct capebus_cape_info *info,
			   const struct cape_eeprom *ee);
int bone_decode_image(const void *buf, size_t len,
		      struct capebus_cape_info *info,
		      const void **overlay, size_t *overlay_len,
		      char *why, size_t why_len);

#endif /* _CAPEBUS_BONE_H */
