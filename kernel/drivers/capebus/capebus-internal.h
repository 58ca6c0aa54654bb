/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capebus: what the files of the capebus module share and nothing else
 * needs.
 */
#ifndef _CAPEBUS_INTERNAL_H
#define _CAPEBUS_INTERNAL_H

#include <linux/capebus.h>

#include "capebus-resources.h"

/*
 * capebus-core.c: the "power" attribute's format; an index is a rail, or
 * CAPEBUS_NUM_RAILS for what the cape can supply.
 */
ssize_t capebus_power_emit(const struct cape_eeprom *ee, char *buf);
int capebus_power_index(const char *name);

/* capebus-overlay.c */
int capebus_overlay_check(struct cape_device *cape, unsigned long *pins,
			  bool *declared, char *why, size_t why_len);
int capebus_overlay_apply(struct cape_device *cape);
int capebus_overlay_revert(struct cape_device *cape, bool quiet);

/* capebus-configfs.c */
#if IS_ENABLED(CONFIG_CAPEBUS_CONFIGFS)
int capebus_configfs_init(void);
void capebus_configfs_exit(void);
int capebus_configfs_add_controller(struct capebus_controller *ctrl);
void capebus_configfs_remove_controller(struct capebus_controller *ctrl);
#else
static inline int capebus_configfs_init(void) { return 0; }
static inline void capebus_configfs_exit(void) { }
static inline int
capebus_configfs_add_controller(struct capebus_controller *ctrl) { return 0; }
static inline void
capebus_configfs_remove_controller(struct capebus_controller *ctrl) { }
#endif

/* bone.c */
int capebus_bone_init(void);
void capebus_bone_exit(void);

#endif /* _CAPEBUS_INTERNAL_H */
