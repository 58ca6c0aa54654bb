/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capebus-bone: AM335x pad values and pinctrl-single,pins entries
 * (bone-padconf.c).
 */
#ifndef _BONE_PADCONF_H
#define _BONE_PADCONF_H

#include <linux/types.h>

int bone_pin_setting_conf(const char *setting, u32 *conf);
int bone_pinmux_entry(u32 pin_cells, u32 pad, u32 conf, u32 *entry);

#endif /* _BONE_PADCONF_H */
