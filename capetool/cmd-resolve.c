// SPDX-License-Identifier: GPL-2.0
/*
 * capetool resolve: a portable cape overlay (one that names only what the
 * cape connector exports) into one for a given board, for bootloaders that
 * apply overlays themselves (U-Boot `fdt apply`, fdtoverlay).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capetool.h"

static const char usage_text[] =
	"usage: capetool resolve --board B --cape CAPE DTBO -o OUT [--variant V] [--dtb FILE]\n"
	"\n"
	"Turn a portable overlay (as create writes it for a board whose cape\n"
	"connector exports names) into an overlay for board B's own device tree,\n"
	"as U-Boot's `fdt apply` or fdtoverlay need it (the base DTB built with\n"
	"dtc -@):\n"
	"  - a reference to an exported name becomes one to the board's label\n"
	"    (bone_i2c_2 -> i2c2), or a fragment target-path when the board\n"
	"    exports a path (bone_devices -> /);\n"
	"  - <&bone_gpio PIN FLAGS> (PIN 800+n for P8.n, 900+n for P9.n) becomes\n"
	"    <&CONTROLLER LINE FLAGS>, the pin's SoC GPIO;\n"
	"  - the cape's pins get pinctrl-single groups in a fragment on the board's\n"
	"    pin controller, from the cape's pin words (the connector muxes them\n"
	"    itself at runtime): a bus the overlay enables and a GPIO's user name\n"
	"    theirs in pinctrl-0; pins no device of the overlay uses get a group\n"
	"    nothing names, which a bootloader leaves unmuxed (a warning names\n"
	"    them).  The shared cape bus (I2C2) keeps the board's pinmux.\n"	"  - for the tree the user boots (B's stock tree, e.g. the 6.12\n"
	"    am335x-boneblack.dtb, or --dtb FILE): a unit the overlay enables gets\n"
	"    its disabled parents enabled (an ehrpwm's or eCAP's epwmss), the ADC\n"
	"    the cape's AIN pins as its channels where the tree lists fewer; each\n"
	"    is said.  A label the overlay needs that FILE lacks is named, exit 16.\n"
	"The overlay is refused where the kernel's connector would refuse it (its\n"
	"own checker, capebus-fdt.c, then its rules: fragments target exported\n"
	"names only, never a path or a raw phandle, and set nothing of a target but\n"
	"status and what the export's target-properties allow); exit status 3.\n"
	"The cape is refused where check refuses it alone on B, with check's words\n"
	"and exit status (a definition's errors 3; a pin or address the board\n"
	"holds 5; power over budget 6), and a pin the overlay uses as a GPIO must\n"
	"be muxed as that GPIO by the cape's pin word.\n"
	"  -b, --board B   board profile (beaglebone-black...) or a .board file;\n"
	"                  it must list the names its connector exports\n"
	"      --variant V the board's variants in use, comma-separated (no-hdmi...)\n"
	"  -c, --cape F    the cape's pin words: its EEPROM image (.eeprom) or its\n"
	"                  definition (.cape); required\n"
	"  -o, --output F  the board-specific overlay to write (atomically)\n"	"      --dtb FILE  resolve for this DTB (the board's own, built with dtc -@):\n"
	"                  its nodes' state, not the profile's stock tree's\n"
	"  -h, --help      this text\n"
	"\"-\" is standard input for --cape, --dtb or DTBO (one of them), standard output\n"
	"for -o.\n"
	"Exit status: 2 bad command line or board name; 3 the overlay is not a\n"
	"portable one for B (a name B does not export, a pin code with no GPIO on\n"
	"B, a GPIO pin not muxed as one, a malformed tree), or CAPE is invalid or is\n"
	"another cape's; 4 a file cannot be read or written; 5, 6 CAPE does not fit\n"
	"B (as check); image errors 10-14 as decode; 16 the tree (FILE, or B's\n"
	"stock tree) lacks what the cape needs: a label, the ADC's inputs, or\n"
	"FILE has no __symbols__.\n";

/*
 * The cape's pin words by pin index and its part number, from an image or
 * a definition.  A definition is taken as check takes it, and either is
 * refused where check would refuse the cape alone on @b (same words, same
 * exit status): a pin or address the board holds, power over budget.
 */
static int load_pins(const char *path, const struct board *b, uint16_t *words, char **part)
{
	struct cape_def d;
	uint8_t *buf;
	size_t len;
	int r = read_file(path, &buf, &len);

	if (r) {
		err("%s: %s", in_name(path), strerror(-r));
		return EXIT_IO;
	}
	if (eeprom_has_magic(buf, len)) {
		struct cape_image im;
		char why[200];

		r = eeprom_decode(buf, len, &im, why, sizeof(why));
		if (r) {
			err("%s: %s", in_name(path), why);
			free(buf);
			return r;
		}
		/* A0 words are taken by index, as decode and the kernel do */
		memset(&d, 0, sizeof(d));
		for (unsigned i = 0; i < im.npinwords && i < CAPE_NPINS; i++) {
			if (!(im.pins[i] & CAPE_PIN_USED))
				continue;
			words[i] = im.pins[i];
			d.pins[d.npins].idx = (int)i;
			d.pins[d.npins++].word = im.pins[i];
		}
		memcpy(d.power, im.power, sizeof(d.power));
		snprintf(d.part_number, sizeof(d.part_number), "%s", im.part_number);
		r = fit_alone(in_name(path), b, &d, FIT_REFUSE);
		*part = xstrdup(im.part_number);
	} else {
		r = def_build(path, b, &d, NULL, NULL);
		if (!r)
			r = fit_alone(in_name(path), b, &d, FIT_REFUSE);
		if (!r) {
			for (size_t i = 0; i < d.npins; i++)
				words[d.pins[i].idx] = d.pins[i].word;
			*part = xstrdup(d.part_number);
		}
		def_free(&d);
	}
	free(buf);
	return r;
}

int cmd_resolve(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "board", required_argument, NULL, 'b' },
		{ "variant", required_argument, NULL, OPT_VARIANT },
		{ "cape", required_argument, NULL, 'c' },
		{ "output", required_argument, NULL, 'o' },
		{ "dtb", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *board = NULL, *variant = NULL, *cape = NULL, *out = NULL, *dtb = NULL, *in;
	struct target_tree tt = { 0 };
	uint16_t words[CAPE_NPINS] = { 0 };
	bool unmuxed[CAPE_NPINS] = { false };
	struct board b;
	uint8_t *dtbo = NULL;
	void *blob = NULL;
	size_t len, blen;
	char *part = NULL, *names;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "b:c:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'b': board = optarg; break;
		case OPT_VARIANT:
			if (opt_variant(&variant, optarg))
				return EXIT_USAGE;
			break;
		case 'c': cape = optarg; break;
		case 'o': out = optarg; break;
		case 'D': dtb = optarg; break;
		case 'h': fputs(usage_text, stdout); return EXIT_OK;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	if (optind != argc - 1 || !board || !cape || !out) {
		if (optind == argc - 1)
			err("resolve needs %s", !board ? "--board B (the board to resolve for)" :
			    !cape ? "--cape FILE (the cape's .eeprom or definition: its pin words)" :
			    "-o OUT (the overlay to write)");
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (!*out) {
		err("-o: an empty file name");
		return EXIT_USAGE;
	}
	if (binary_to_tty(out))
		return EXIT_USAGE;
	if (is_stdio(cape) + is_stdio(argv[optind]) + (dtb && is_stdio(dtb)) > 1) {
		err("--cape -, --dtb - and DTBO -: only one of them can be standard input");
		return EXIT_USAGE;
	}
	in = argv[optind];
	rc = board_load(board, &b);
	if (rc)
		return rc;
	rc = board_apply_variants(&b, variant);
	if (rc) {
		board_free(&b);
		return rc;
	}
	if (!b.nexports || !board_gpio_export(&b)) {
		names = board_export_list(&b);
		err("board %s lists no names its cape connector exports%s (exports: %s): "
		    "there is nothing to resolve", b.name,
		    b.nexports ? " as a GPIO nexus" : "", names);
		free(names);
		board_free(&b);
		return EXIT_DEF;
	}
	rc = target_tree_open(&tt, &b, dtb);
	if (rc)
		goto out;
	rc = load_pins(cape, &b, words, &part);
	if (rc)
		goto out;
	if ((rc = read_file(in, &dtbo, &len))) {
		err("%s: %s", in_name(in), strerror(-rc));
		rc = EXIT_IO;
		goto out;
	}
	rc = overlay_resolve(in_name(in), dtbo, len, &b, words, part, &blob, &blen, unmuxed);
	if (rc)
		goto out;
	/* what the kernel would refuse, a bootloader would apply unchecked */
	rc = kernel_rules_check(in_name(in), dtbo, len, &b, words);
	if (rc)
		goto out;
	/* what the tree the user boots lacks for the cape's units */
	rc = target_tree_complete(in_name(in), &tt, words, &blob, &blen,
				  is_stdio(out) ? stderr : stdout);
	if (rc)
		goto out;
	unmuxed_warn(in_name(cape), &b, part, unmuxed);
	if ((rc = write_file(out, blob, blen))) {
		err("%s: cannot write: %s", out_name(out), strerror(-rc));
		rc = EXIT_IO;
		goto out;
	}
	/* standard output carries the overlay: the words go to stderr */
	fprintf(is_stdio(out) ? stderr : stdout, "%s (%zu bytes)\n", out_name(out), blen);
out:
	free(blob);
	free(dtbo);
	free(part);
	target_tree_close(&tt);
	board_free(&b);
	return rc;
}
