/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capebus-bone: AM335x pad values and pinctrl-single,pins entries
 * (bone-padconf.c).
 */
#ifndef _BONE_PADCONF_H
#define _BONE_PADCONF_H

#include <linux/types.h>

/* cape-pads' third cell: the mux modes a pad offers capes, bit n for mode n. */
#define BONE_PAD_MODES_ALL	0xff

/* The longest name bone_pad_group_name() writes, with its NUL. */
#define BONE_PAD_GROUP_NAME_LEN	32

int bone_pin_setting_conf(const char *setting, u32 *conf);
int bone_pinmux_entry(u32 pin_cells, u32 pad, u32 conf, u32 *entry);
int bone_pad_check_mode(const char *pin, u32 offered, u32 conf, char *why,
			size_t why_len);
int bone_pad_group_name(u32 pad, u32 conf, char *name, size_t len);

#endif /* _BONE_PADCONF_H */
