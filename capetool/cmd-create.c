// SPDX-License-Identifier: GPL-2.0
/* capetool create: definition -> <part>-<version>.eeprom and .dtbo */
#include <getopt.h>
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capetool.h"

static const char usage_text[] =
	"usage: capetool create DEF [--board B] [-o DIR | [--eeprom-out F] [--dtbo-out F]]\n"
	"                       [--serial S] [--embed-overlay] [--force]\n"
	"\n"
	"Write <part-number>-<version>.eeprom and <part-number>-<version>.dtbo.\n"
	"DEF - reads the definition from standard input.\n"
	"For a board whose cape connector exports names (beaglebone-black) the\n"
	"overlay is portable: it names only exported things (bone_i2c_2,\n"
	"bone_devices, <&bone_gpio PIN FLAGS>) and holds no pinmux; 'capetool\n"
	"resolve' makes one for the board's own tree.  Otherwise it names the\n"
	"board's labels.  The definition is checked as check does with it alone in\n"
	"slot 0: what check refuses, create refuses, with the same words and exit\n"
	"status; only a bus address the board holds is a warning (the files are\n"
	"the same for every board with the header).\n"
	"  -b, --board B        board profile (qemu-vexpress, beaglebone-black) or a\n"
	"                       .board file; default: detected from the running device\n"
	"                       tree, else beaglebone-black\n"
	"  -o, --output DIR     directory to write both to, created if missing\n"
	"                       (default: .)\n"
	"      --eeprom-out F   write the image to file F (\"-\": standard output)\n"
	"      --dtbo-out F     write the overlay to file F (\"-\": standard output);\n"
	"                       with either, only the files named are written\n"
	"      --serial S       serial number (12 chars), overrides the definition\n"
	"  -e, --embed-overlay  also store the overlay and a CRC record in the image's\n"
	"                       free area (capebus extension records)\n"
	"  -f, --force          write a cape that does not fit the board alone, as check\n"
	"                       judges it (a pin the board holds, power over budget:\n"
	"                       exit 5 or 6 without it), saying why\n"
	"  -h, --help           this text\n";

int build_cape(const char *defpath, const struct board *b, const char *serial, bool embed,
	       uint8_t **img, size_t *imglen, void **dtbo, size_t *dtbolen, struct cape_def *def)
{
	int rc;

	if (serial) {
		size_t n = strlen(serial);

		for (size_t i = 0; i < n; i++)
			if (serial[i] < 0x20 || serial[i] > 0x7e)
				n = 0;
		if (n != CAPE_EEPROM_SERIAL_LEN) {
			err("--serial: must be %d printable ASCII characters (WWYY&&&&nnnn)",
			    CAPE_EEPROM_SERIAL_LEN);
			memset(def, 0, sizeof(*def));
			return EXIT_USAGE;
		}
	}
	/* as check takes it: every error of the definition, in one run */
	rc = def_build(defpath, b, def, dtbo, dtbolen);
	if (rc)
		return rc;
	if (serial)
		snprintf(def->serial, sizeof(def->serial), "%s", serial);
	if (fdt_subnode_offset(*dtbo, 0, "fragment@0") < 0)
		fprintf(stderr, "%s: warning: %s declares no devices: its overlay has no fragments\n",
			progname, in_name(defpath));
	if (embed && *dtbolen > CAPE_EEPROM_SIZE_MAX - CAPE_EEPROM_A1_SIZE - 32) {
		err("%s: the %zu-byte overlay does not fit a 24C256 (32 KiB) with the image",
		    in_name(defpath), *dtbolen);
		free(*dtbo);
		*dtbo = NULL;
		return EXIT_DEF;
	}
	*img = eeprom_encode(def, embed ? *dtbo : NULL, *dtbolen, imglen);
	return EXIT_OK;
}

int cmd_create(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "board", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "serial", required_argument, NULL, 'S' },
		{ "embed-overlay", no_argument, NULL, 'e' },
		{ "eeprom-out", required_argument, NULL, 'E' },
		{ "dtbo-out", required_argument, NULL, 'D' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *board = NULL, *dir = NULL, *serial = NULL, *eout = NULL, *dout = NULL;
	bool embed = false, force = false;
	struct board b;
	struct cape_def def;
	uint8_t *img = NULL;
	void *dtbo = NULL;
	size_t imglen, dtbolen;
	char *p = NULL, *q = NULL, *tp = NULL, *tq = NULL;
	FILE *info = stdout;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "b:o:efh", opts, NULL)) != -1) {
		switch (c) {
		case 'b': board = optarg; break;
		case 'o': dir = optarg; break;
		case 'S': serial = optarg; break;
		case 'e': embed = true; break;
		case 'E': eout = optarg; break;
		case 'D': dout = optarg; break;
		case 'f': force = true; break;
		case 'h': fputs(usage_text, stdout); return EXIT_OK;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (dir && is_stdio(dir)) {
		err("-o names the directory of the two files create writes; to write one of them to standard output, use --eeprom-out - or --dtbo-out -");
		return EXIT_USAGE;
	}
	if (dir && (eout || dout)) {
		err("-o DIR, or --eeprom-out/--dtbo-out FILE: not both");
		return EXIT_USAGE;
	}
	if ((eout && !*eout) || (dout && !*dout)) {
		err("--%s: an empty file name", eout && !*eout ? "eeprom-out" : "dtbo-out");
		return EXIT_USAGE;
	}
	if (eout && dout && is_stdio(eout) && is_stdio(dout)) {
		err("--eeprom-out - and --dtbo-out -: only one file can go to standard output");
		return EXIT_USAGE;
	}
	if (!dir && !eout && !dout)
		dir = ".";
	if (dir && !*dir) {
		err("-o: an empty directory name (use -o . for the current directory)");
		return EXIT_USAGE;
	}
	rc = board_load(board, &b);
	if (rc)
		return rc;
	rc = build_cape(argv[optind], &b, serial, embed, &img, &imglen, &dtbo, &dtbolen, &def);
	/* and refused where check refuses it, unless forced */
	if (!rc)
		rc = fit_alone(in_name(argv[optind]), &b, &def, force ? FIT_FORCE : FIT_CREATE);
	board_free(&b);
	if (rc) {
		free(img);
		free(dtbo);
		def_free(&def);
		return rc;
	}
	if (dir) {
		char *stem;

		if ((rc = make_dirs(dir))) {
			err("%s: cannot create the output directory: %s", dir, strerror(-rc));
			rc = EXIT_IO;
			goto out;
		}
		stem = xasprintf("%s%s%s-%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/",
				 def.part_number, def.version);
		p = xasprintf("%s.eeprom", stem);
		q = xasprintf("%s.dtbo", stem);
		free(stem);
	} else {
		/* only the files named */
		p = eout ? xstrdup(eout) : NULL;
		q = dout ? xstrdup(dout) : NULL;
		if ((p && is_stdio(p)) || (q && is_stdio(q)))
			info = stderr;	/* standard output carries the file */
	}
	/* both files staged first: never one new file beside an old one */
	rc = p ? stage_file(p, img, imglen, &tp) : 0;
	if (rc)
		err("%s: cannot write: %s", out_name(p), strerror(-rc));
	else if (q && (rc = stage_file(q, dtbo, dtbolen, &tq)))
		err("%s: cannot write: %s", out_name(q), strerror(-rc));
	if (rc) {
		commit_file(tp, NULL);
		commit_file(tq, NULL);
		rc = EXIT_IO;
	} else if (p && (rc = commit_file(tp, p))) {
		err("%s: cannot write: %s", p, strerror(-rc));
		commit_file(tq, NULL);
		rc = EXIT_IO;
	} else if (q && (rc = commit_file(tq, q))) {
		err("%s: cannot write: %s", q, strerror(-rc));
		rc = EXIT_IO;
	} else {
		if (p)
			fprintf(info, "%s (%zu bytes)\n", out_name(p), imglen);
		if (q)
			fprintf(info, "%s (%zu bytes)\n", out_name(q), dtbolen);
	}
out:
	free(p);
	free(q);
	free(img);
	free(dtbo);
	def_free(&def);
	return rc;
}
