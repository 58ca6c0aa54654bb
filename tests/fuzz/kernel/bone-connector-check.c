// SPDX-License-Identifier: GPL-2.0
/*
 * Not a fuzzer: capes against a real board's connector, in userspace, with
 * the kernel's own parsers built unmodified against the shim (as the
 * fuzzers are).
 *
 *   bone-connector-check BOARD.dtb CAPE.eeprom CAPE.dtbo [...]
 *
 * BOARD.dtb is a board with a beagle,bone-capebus connector (the series'
 * am335x-boneblack.dtb), or a raspberrypi,hat-capebus one (the series'
 * bcm2711-rpi-4-b.dtb): there CAPE.eeprom must be "-", and only the
 * overlay is checked (a HAT+ names its pins in its overlay; a v1 HAT's
 * GPIO map is not read here).  For each cape, one TAP line:
 *  - the EEPROM image through cape_eeprom_parse() (bone/bone-eeprom.c);
 *    no used pin word's header pin may be one of the board's (board-pins)
 *    unless shared (shared-pins): the rule the connector applies, written
 *    again here from the binding (the kernel's accounting lives in
 *    capebus-resources.c and needs a controller); pins with no pad in
 *    cape-pads (the ADC's inputs) are counted, never muxed;
 *  - for each pin with a pad, the mode the pin word asks for must be one
 *    cape-pads offers capes on the pad, and the pinctrl-single,pins entry
 *    the connector writes, by its own code (bone/bone-padconf.c: the pin
 *    word's setting to the pad value, the mode refused as the kernel
 *    refuses it, the value in cape-pinctrl's #pinctrl-cells layout), one
 *    TAP comment line each after the cape's result:
 *      # pad P9.24 0x184 0x30 0x2     (pin, then the entry's cells)
 *  - the overlay through capebus_fdt_resolve() (capebus-fdt.c), resolving
 *    its references through the connector's export-symbols, with the
 *    kernel's cape limits; then every fragment's target in the result must
 *    be one of cape-targets, and a node added to a simple-bus target (one
 *    the kernel populates) must have a compatible the connector's
 *    cape-platform-compatibles lists, every string of it, a fragment
 *    may set no property of its target, but #address-cells and
 *    #size-cells equal to the target's, and a property a fragment sets on
 *    the target it enables (the resolver's capebus,target-props) must be
 *    one the connector's target-properties lists for the target's export
 *    name (the rules capebus-overlay.c and capebus-enable.c apply on the
 *    live tree, written again here; not their others: bus addresses,
 *    references and the nodes a cape adds).
 * Exit status 1 if any cape is refused.
 */
#include <libfdt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/types.h>

#include "bone-eeprom.h"
#include "bone-padconf.h"
#include "capebus-fdt.h"
#include "kshim.h"

static const void *board;
static int conn;	/* the connector's node offset in board */

static void *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		perror(path);
		exit(2);
	}
	buf = malloc(n ? n : 1);
	if (!buf || fread(buf, 1, n, f) != (size_t)n) {
		perror(path);
		exit(2);
	}
	fclose(f);
	*len = n;
	return buf;
}

/* export-symbols: each property one phandle. */
static int lookup(void *ctx, const char *name, u32 *phandle)
{
	const fdt32_t *v;
	int exports, len;

	(void)ctx;
	exports = fdt_subnode_offset(board, conn, "export-symbols");
	if (exports < 0)
		return -ENOENT;
	v = fdt_getprop(board, exports, name, &len);
	if (!v || len != 4)
		return -ENOENT;
	*phandle = fdt32_to_cpu(*v);
	return 0;
}

static bool in_stringlist(const char *prop, const char *pin)
{
	return fdt_stringlist_search(board, conn, prop, pin) >= 0;
}

/*
 * The offset of the pad behind pin in cape-pads, or -1; *modes the mux
 * modes it offers capes (its third cell).
 */
static long pad_of(const char *pin, u32 *modes)
{
	const fdt32_t *v;
	unsigned int code;
	int len, i;

	if (sscanf(pin, "P%*1[89].%u", &code) != 1)
		return -1;
	code += (pin[1] - '0') * 100;
	v = fdt_getprop(board, conn, "cape-pads", &len);
	for (i = 0; v && i + 2 < len / 4; i += 3)
		if (fdt32_to_cpu(v[i]) == code) {
			*modes = fdt32_to_cpu(v[i + 2]);
			return fdt32_to_cpu(v[i + 1]);
		}
	return -1;
}

/* cape-pinctrl's #pinctrl-cells (pinctrl-single's legacy binding: 1). */
static u32 pin_cells(void)
{
	const fdt32_t *v = fdt_getprop(board, conn, "cape-pinctrl", NULL);
	int pctl;

	if (!v)
		return 0;
	pctl = fdt_node_offset_by_phandle(board, fdt32_to_cpu(*v));
	v = pctl < 0 ? NULL : fdt_getprop(board, pctl, "#pinctrl-cells", NULL);
	return v ? fdt32_to_cpu(*v) : 1;
}

static bool is_target(u32 phandle)
{
	const fdt32_t *v;
	int len, i;

	v = fdt_getprop(board, conn, "cape-targets", &len);
	for (i = 0; v && i < len / 4; i++)
		if (fdt32_to_cpu(v[i]) == phandle)
			return true;
	return false;
}

/*
 * 0, or why the cape's pins do not fit the board (in why); the entries the
 * connector writes for the pins with a pad go to pads, one line each.
 */
static int check_pins(const char *path, char *why, size_t why_len,
		      int *npins, int *muxed, char *pads, size_t pads_len)
{
	char setting[32];	/* CAPEBUS_SETTING_LEN, <linux/capebus.h> */
	u32 conf, modes, entry[3];
	struct cape_eeprom ee;
	size_t len, at = 0;
	void *buf = slurp(path, &len);
	unsigned int i;
	int ret, n, c;
	long pad;

	*npins = 0;
	*muxed = 0;
	ret = cape_eeprom_parse(&ee, buf, len, why, why_len);
	free(buf);
	if (ret)
		return ret;
	for (i = 0; i < CAPE_EEPROM_A1_NUM_PINS; i++) {
		const char *pin = cape_bone_pin_name(i);

		if (!(ee.pins[i] & CAPE_PIN_USED))
			continue;
		(*npins)++;
		if (in_stringlist("shared-pins", pin))
			continue;
		if (in_stringlist("board-pins", pin)) {
			snprintf(why, why_len, "pin %s is the board's", pin);
			return -EBUSY;
		}
		pad = pad_of(pin, &modes);
		if (pad < 0)
			continue;
		(*muxed)++;
		if (cape_pin_word_setting(setting, sizeof(setting), i,
					  ee.pins[i]) < 0 ||
		    bone_pin_setting_conf(setting, &conf)) {
			snprintf(why, why_len, "pin %s: no pad value", pin);
			return -EINVAL;
		}
		ret = bone_pad_check_mode(pin, modes, conf, why, why_len);
		if (ret)
			return ret;
		n = bone_pinmux_entry(pin_cells(), pad, conf, entry);
		if (n < 0) {
			snprintf(why, why_len, "cape-pinctrl: bad #pinctrl-cells");
			return n;
		}
		at += snprintf(pads + at, pads_len - at, "# pad %s", pin);
		for (c = 0; c < n; c++)
			at += snprintf(pads + at, pads_len - at, " 0x%x", entry[c]);
		at += snprintf(pads + at, pads_len - at, "\n");
	}
	return 0;
}

/*
 * 0, or why a node fragment frag of overlay adds to a simple-bus target
 * would be a platform device the connector does not let capes make.
 */
static int check_platform(const void *overlay, int frag, u32 target,
			  char *why, size_t why_len)
{
	int t = fdt_node_offset_by_phandle(board, target), body, child;
	const char *c;
	int len, at;

	if (t < 0 || (t && fdt_node_check_compatible(board, t, "simple-bus")))
		return 0;
	body = fdt_subnode_offset(overlay, frag, "__overlay__");
	fdt_for_each_subnode(child, overlay, body) {
		c = fdt_getprop(overlay, child, "compatible", &len);
		for (at = 0; c && at < len; at += strlen(c + at) + 1) {
			if (in_stringlist("cape-platform-compatibles", c + at))
				continue;
			snprintf(why, why_len,
				 "%s: a platform device of compatible %s, which the connector does not list",
				 fdt_get_name(overlay, child, NULL), c + at);
			return -EPERM;
		}
	}
	return 0;
}

/*
 * 0, or why fragment frag of overlay, targeting board node t, sets a
 * property of its target: it may only add nodes, but for #address-cells
 * and #size-cells equal to the target's (capebus_verify_fragment()).
 */
static int check_add_only(const void *overlay, int frag, u32 target,
			  char *why, size_t why_len)
{
	int t = fdt_node_offset_by_phandle(board, target), body, prop, len, blen;
	const char *name;
	const void *v, *bv;

	body = fdt_subnode_offset(overlay, frag, "__overlay__");
	fdt_for_each_property_offset(prop, overlay, body) {
		v = fdt_getprop_by_offset(overlay, prop, &name, &len);
		if (!strcmp(name, "#address-cells") || !strcmp(name, "#size-cells")) {
			bv = fdt_getprop(board, t, name, &blen);
			if (bv && blen == len && !memcmp(v, bv, len))
				continue;
		}
		snprintf(why, why_len, "add only: fragment %s sets property %s of %s",
			 fdt_get_name(overlay, frag, NULL), name,
			 fdt_get_name(board, t, NULL));
		return -EPERM;
	}
	return 0;
}

/*
 * 0, or why a property the resolved overlay sets on a target it enables is
 * not one the connector's target-properties lists for that target (by the
 * name export-symbols gives it).
 */
static int check_target_props(const void *out, char *why, size_t why_len)
{
	struct capebus_fdt_target_prop tp;
	int exports = fdt_subnode_offset(board, conn, "export-symbols");
	int tprops = fdt_subnode_offset(board, conn, "target-properties");
	unsigned int i;
	int prop;

	for (i = 0; !capebus_fdt_target_prop(out, i, &tp); i++) {
		const char *name = NULL;

		fdt_for_each_property_offset(prop, board, exports) {
			const char *n;
			int len;
			const fdt32_t *v = fdt_getprop_by_offset(board, prop, &n, &len);

			if (v && len == 4 && fdt32_to_cpu(*v) == tp.target) {
				name = n;
				break;
			}
		}
		if (!name || tprops < 0 ||
		    fdt_stringlist_search(board, tprops, name, tp.name) < 0) {
			snprintf(why, why_len,
				 "fragment %s sets property %s of %s, which the connector does not let capes set (target-properties)",
				 tp.fragment, tp.name, name ? name : "a node it does not export");
			return -EPERM;
		}
	}
	return 0;
}

/* 0, or why the overlay does not resolve against the connector. */
static int check_overlay(const char *path, char *why, size_t why_len,
			 struct capebus_fdt_info *info)
{
	size_t len, out_len;
	void *blob = slurp(path, &len), *out = NULL;
	int ret, frag;

	ret = capebus_fdt_resolve(blob, len, &capebus_fdt_cape_limits, lookup,
				  NULL, &out, &out_len, info, why, why_len);
	free(blob);
	if (ret)
		return ret;
	ret = check_target_props(out, why, why_len);
	if (ret) {
		free(out);
		return ret;
	}
	fdt_for_each_subnode(frag, out, 0) {
		const fdt32_t *t = fdt_getprop(out, frag, "target", NULL);

		if (fdt_subnode_offset(out, frag, "__overlay__") < 0)
			continue;
		if (!t || !is_target(fdt32_to_cpu(*t))) {
			snprintf(why, why_len, "%s targets no cape target",
				 fdt_get_name(out, frag, NULL));
			ret = -EPERM;
			break;
		}
		ret = check_add_only(out, frag, fdt32_to_cpu(*t), why, why_len);
		if (ret)
			break;
		ret = check_platform(out, frag, fdt32_to_cpu(*t), why, why_len);
		if (ret)
			break;
	}
	free(out);
	return ret;
}

int main(int argc, char **argv)
{
	size_t len;
	int i, n = 0, fail = 0;
	bool hat = false;

	if (argc < 4 || (argc - 2) % 2) {
		fprintf(stderr, "usage: %s BOARD.dtb CAPE.eeprom CAPE.dtbo [...]\n",
			argv[0]);
		return 2;
	}
	kshim_selftest();
	board = slurp(argv[1], &len);
	if (fdt_check_full(board, len)) {
		fprintf(stderr, "%s: not a valid DTB\n", argv[1]);
		return 2;
	}
	conn = fdt_node_offset_by_compatible(board, -1, "beagle,bone-capebus");
	if (conn < 0) {
		conn = fdt_node_offset_by_compatible(board, -1,
						     "raspberrypi,hat-capebus");
		hat = true;
	}
	if (conn < 0) {
		fprintf(stderr, "%s: no beagle,bone-capebus or raspberrypi,hat-capebus node\n",
			argv[1]);
		return 2;
	}
	printf("1..%d\n", (argc - 2) / 2);
	for (i = 2; i + 1 < argc; i += 2) {
		struct capebus_fdt_info info = { 0 };
		char why[256] = "", pads[CAPE_EEPROM_A1_NUM_PINS * 48] = "";
		int npins = 0, muxed = 0, ret = 0;

		if (hat != !strcmp(argv[i], "-")) {
			fprintf(stderr, "%s: a HAT's EEPROM is \"-\", a cape's is not\n",
				argv[i]);
			return 2;
		}
		if (!hat)
			ret = check_pins(argv[i], why, sizeof(why), &npins,
					 &muxed, pads, sizeof(pads));
		if (!ret)
			ret = check_overlay(argv[i + 1], why, sizeof(why), &info);
		n++;
		if (ret) {
			printf("not ok %d %s: %s (%d)\n", n, argv[i + 1], why, ret);
			fail = 1;
		} else {
			printf("ok %d %s: %d pins (%d with a pad), %u nodes, %u references\n",
			       n, argv[i + 1], npins, muxed, info.nodes, info.refs);
			fputs(pads, stdout);
		}
	}
	return fail;
}
