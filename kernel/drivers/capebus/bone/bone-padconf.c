// SPDX-License-Identifier: GPL-2.0
/*
 * capebus-bone: a cape pin's setting to the AM335x pad value, whether the
 * connector offers capes that value's mux mode on the pad, the value to a
 * pinctrl-single,pins entry in the pin controller's cell layout, and the name
 * of the pin group that sets the pad to that value.
 *
 * Pure functions, apart from the pin controller (bone-pinmux.c), so that the
 * KUnit tests and the userspace connector check (tests/fuzz/kernel) run the
 * code that computes what the connector writes.
 */

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include "bone-padconf.h"

/* am335x conf_<pad> bits (AM335x TRM, "pad control registers"). */
#define BONE_CONF_MUXMODE	0x07
#define BONE_CONF_PULLUDDISABLE	0x08
#define BONE_CONF_PULLTYPESEL	0x10
#define BONE_CONF_RXACTIVE	0x20
#define BONE_CONF_SLEWCTRL	0x40

/**
 * bone_pin_setting_conf() - the pad control value for a pin's setting
 * @setting: a pin's setting as cape_pin_word_setting() writes it, e.g.
 *	"mode3 bidir pull-up rx slow"
 * @conf: set to the am335x conf_ register value: mux mode (bits 2-0), pull
 *	disabled (bit 3), pull-up (bit 4; 0 when the pull is disabled), receiver
 *	enabled (bit 5), slow slew (bit 6)
 *
 * The pin word's bits 6-0 are that value; the setting keeps all of them but
 * the pull type of a disabled pull, which means nothing to the pad.
 *
 * Return: 0, or -EINVAL if @setting is not such a setting (an analog input's
 * or a declared pin's empty one included).
 */
int bone_pin_setting_conf(const char *setting, u32 *conf)
{
	char dir[8], pull[12], rest[12], slew[8];
	unsigned int mode;
	int n;
	u32 v;

	n = sscanf(setting, "mode%u %7s %11s %11s %7s", &mode, dir, pull,
		   rest, slew);
	if (n == 4) {
		strscpy(slew, rest);
		strscpy(rest, "");
	} else if (n != 5 || strcmp(rest, "rx")) {
		return -EINVAL;
	}
	if (mode > BONE_CONF_MUXMODE)
		return -EINVAL;
	if (strcmp(dir, "in") && strcmp(dir, "out") && strcmp(dir, "bidir") &&
	    strcmp(dir, "none"))
		return -EINVAL;

	v = mode;
	if (!strcmp(pull, "no-pull"))
		v |= BONE_CONF_PULLUDDISABLE;
	else if (!strcmp(pull, "pull-up"))
		v |= BONE_CONF_PULLTYPESEL;
	else if (strcmp(pull, "pull-down"))
		return -EINVAL;
	if (rest[0])
		v |= BONE_CONF_RXACTIVE;
	if (!strcmp(slew, "slow"))
		v |= BONE_CONF_SLEWCTRL;
	else if (strcmp(slew, "fast"))
		return -EINVAL;

	*conf = v;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bone_pin_setting_conf);

/**
 * bone_pinmux_entry() - one pinctrl-single,pins entry for a pad
 * @pin_cells: the pin controller's #pinctrl-cells
 * @pad: the offset of the pad's register
 * @conf: the pad's value (bone_pin_setting_conf())
 * @entry: where the entry's 1 + @pin_cells cells go
 *
 * pinctrl-single reads an entry as the pad's offset and @pin_cells cells
 * that it ORs into the value it writes: <offset value> for 1 cell, <offset
 * conf mux> for 2 (AM33XX_PADCONF(pin, conf, mux): the pad bits and the mux
 * mode apart).
 *
 * Return: the cells written, or -EINVAL for any other @pin_cells.
 */
int bone_pinmux_entry(u32 pin_cells, u32 pad, u32 conf, u32 *entry)
{
	switch (pin_cells) {
	case 1:
		entry[0] = pad;
		entry[1] = conf;
		return 2;
	case 2:
		entry[0] = pad;
		entry[1] = conf & ~BONE_CONF_MUXMODE;
		entry[2] = conf & BONE_CONF_MUXMODE;
		return 3;
	default:
		return -EINVAL;
	}
}
EXPORT_SYMBOL_IF_KUNIT(bone_pinmux_entry);

/**
 * bone_pad_check_mode() - may a cape give a pad the mux mode it asks for?
 * @pin: the header pin's name, for @why ("P8.19")
 * @offered: the mux modes the connector offers capes on the pad, bit n for
 *	mode n (cape-pads' third cell)
 * @conf: the pad value the cape's pin asks for (bone_pin_setting_conf())
 * @why: where to say why not, naming the pin, the mode and what is offered
 * @why_len: bytes at @why
 *
 * Return: 0, or -EPERM with @why set.
 */
int bone_pad_check_mode(const char *pin, u32 offered, u32 conf, char *why,
			size_t why_len)
{
	unsigned int mode = conf & BONE_CONF_MUXMODE;
	char list[2 * (BONE_CONF_MUXMODE + 1) + 1];
	unsigned int m, n = 0;

	if (offered & BIT(mode))
		return 0;

	for (m = 0; m <= BONE_CONF_MUXMODE; m++) {
		if (!(offered & BIT(m)))
			continue;
		list[n++] = ' ';
		list[n++] = '0' + m;
	}
	list[n] = '\0';
	snprintf(why, why_len,
		 "%s: mode %u is not offered to capes by this connector (offered:%s)",
		 pin, mode, n ? list : " none");

	return -EPERM;
}
EXPORT_SYMBOL_IF_KUNIT(bone_pad_check_mode);

/**
 * bone_pad_group_name() - the name of the pin group that sets one pad to one
 *	value
 * @pad: the offset of the pad's register
 * @conf: the pad's value (bone_pin_setting_conf())
 * @name: where to write "capebus-pad-<pad>-<conf>", both in hex
 * @len: bytes at @name (BONE_PAD_GROUP_NAME_LEN is enough)
 *
 * pinctrl-single keeps every group it parses for as long as the pin
 * controller is bound, and takes a group by its name with the pads and
 * values it was first parsed with.  A name that is the pad and the value,
 * and nothing else, makes the groups capes can leave behind as many as the
 * pads and values the connector offers them, and the group of a name right
 * whoever made it first.
 *
 * Return: 0, or -ENAMETOOLONG.
 */
int bone_pad_group_name(u32 pad, u32 conf, char *name, size_t len)
{
	int n = snprintf(name, len, "capebus-pad-%03x-%02x", pad, conf);

	return n < len ? 0 : -ENAMETOOLONG;
}
EXPORT_SYMBOL_IF_KUNIT(bone_pad_group_name);
