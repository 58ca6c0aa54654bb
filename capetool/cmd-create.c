// SPDX-License-Identifier: GPL-2.0
/* capetool create: definition -> <part>-<version>.eeprom and .dtbo */
#include <getopt.h>
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capetool.h"
#include "hat.h"

static const char usage_text[] =
	"usage: capetool create DEF [--board B [--variant V]] [-o DIR | [--eeprom-out F] [--dtbo-out F]]\n"
	"                       [--serial S] [--embed-overlay] [--force]\n"
	"       capetool create SETTINGS [-o DIR | --eeprom-out F] [--hat-version N]\n"
	"                       [--dt-blob F] [--custom F]... [--board B] [--force]\n"
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
	"      --variant V      the board's variants in use, comma-separated\n"
	"                       (beaglebone-black: no-hdmi, no-emmc)\n"
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
	"  -h, --help           this text\n"
	"Raspberry Pi HAT and HAT+: SETTINGS is the text Raspberry Pi's eepmake reads\n"
	"(eeprom_settings.txt: product_uuid, vendor, ..., dt_blob, custom_data),\n"
	"told from a definition by what it holds.  create writes <stem>.eep (the\n"
	"settings file's name without its extension), byte for byte what eepmake\n"
	"writes; an all-zero product_uuid gets a random one, as with eepmake.\n"
	"      --hat-version N  1: a HAT (eepmake -v1), 2: a HAT+ (eepmake's default);\n"
	"                       default: 1 if the settings have a GPIO map, else 2\n"
	"      --dt-blob F      a v1 HAT's device tree atom from file F (eepmake's\n"
	"                       dt_file argument): a .dtbo, or a source (.dts, .dtso)\n"
	"                       compiled with dtc, through cpp if it #includes\n"
	"      --custom F       a custom atom from file F, after the settings' own; may\n"
	"                       be repeated (eepmake -c F...)\n"
	"      --board B        the Pi's profile (family rpi; default: raspberry-pi)\n"
	"  -f, --force          write a HAT whose GPIO map the board's connector\n"
	"                       refuses (bank 1, GPIO14/15 of the serial console), saying\n"
	"                       why; its overlay is checked as check does, with no --force\n";

/* The stem of the settings file's name: "dir/myhat.txt" -> "myhat". */
static char *settings_stem(const char *path)
{
	const char *b = strrchr(path, '/'), *dot;

	b = b ? b + 1 : path;
	if (is_stdio(path) || !*b)
		return xstrdup("hat");
	dot = strrchr(b, '.');
	return dot && dot != b ? xasprintf("%.*s", (int)(dot - b), b) : xstrdup(b);
}

static int create_hat(const char *in, const char *board, bool force, int version,
		      const char *dt_file, char **custom, size_t ncustom, const char *dir,
		      const char *eout)
{
	struct hat_settings s;
	uint8_t *img;
	size_t len;
	char *p, *tp = NULL;
	int rc = hat_settings_load(in, version, dt_file, custom, ncustom, &s);

	if (!rc) {	/* as check takes it alone: the connector's rules, its overlay */
		struct hat_use u = { .file = xstrdup(in_name(in)), .path = xstrdup(in),
				     .addr = RPI_HAT_I2C_ADDR };

		hat_use_settings(&u, &s);
		rc = hat_verify(&u, board, HAT_VERIFY_MISSING | (force ? HAT_VERIFY_FORCE : 0));
		hat_use_free(&u);
	}
	if (rc) {
		hat_settings_free(&s);
		return rc;
	}
	img = hat_encode(&s, &len);
	if (dir) {
		char *stem = settings_stem(in);

		if ((rc = make_dirs(dir))) {
			err("%s: cannot create the output directory: %s", dir, strerror(-rc));
			free(stem);
			free(img);
			hat_settings_free(&s);
			return EXIT_IO;
		}
		p = xasprintf("%s%s%s.eep", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", stem);
		free(stem);
	} else {
		p = xstrdup(eout);
	}
	rc = stage_file(p, img, len, &tp);
	if (!rc)
		rc = commit_file(tp, p);
	else
		commit_file(tp, NULL);
	if (rc) {
		err("%s: cannot write: %s", out_name(p), strerror(-rc));
		rc = EXIT_IO;
	} else {
		FILE *info = is_stdio(p) ? stderr : stdout;

		if (s.uuid_generated)
			fprintf(info, "UUID=%08x-%04x-%04x-%04x-%04x%08x (generated: product_uuid is all zero; write it into %s to keep it)\n",
				s.uuid[3], s.uuid[2] >> 16, s.uuid[2] & 0xffff, s.uuid[1] >> 16,
				s.uuid[1] & 0xffff, s.uuid[0], in_name(in));
		fprintf(info, "%s (%zu bytes, %s, %u atoms)\n", out_name(p), len,
			s.version == RPI_HAT_VERSION_1 ? "HAT v1" : "HAT+ v2", img[6] | img[7] << 8);
	}
	free(p);
	free(img);
	hat_settings_free(&s);
	return rc;
}

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
		{ "variant", required_argument, NULL, OPT_VARIANT },
		{ "output", required_argument, NULL, 'o' },
		{ "serial", required_argument, NULL, 'S' },
		{ "embed-overlay", no_argument, NULL, 'e' },
		{ "eeprom-out", required_argument, NULL, 'E' },
		{ "dtbo-out", required_argument, NULL, 'D' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "hat-version", required_argument, NULL, 'V' },
		{ "dt-blob", required_argument, NULL, 'T' },
		{ "custom", required_argument, NULL, 'C' },
		{ 0 }
	};
	const char *board = NULL, *variant = NULL, *dir = NULL, *serial = NULL, *eout = NULL, *dout = NULL;
	const char *dt_file = NULL;
	char **custom = NULL;
	size_t ncustom = 0;
	int hat_version = 0;
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
		case OPT_VARIANT:
			if (opt_variant(&variant, optarg))
				return EXIT_USAGE;
			break;
		case 'o': dir = optarg; break;
		case 'S': serial = optarg; break;
		case 'e': embed = true; break;
		case 'E': eout = optarg; break;
		case 'D': dout = optarg; break;
		case 'f': force = true; break;
		case 'V':
			if ((hat_version = hat_version_option(optarg)) < 0) {
				free(custom);
				return EXIT_USAGE;
			}
			break;
		case 'T': dt_file = optarg; break;
		case 'C':
			custom = xrealloc(custom, (ncustom + 1) * sizeof(*custom));
			custom[ncustom++] = optarg;
			break;
		case 'h': free(custom); fputs(usage_text, stdout); return EXIT_OK;
		default: free(custom); fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		free(custom);
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (hat_input_kind(argv[optind]) == 1) {
		const char *bad = variant ? "--variant" : serial ? "--serial" : embed ? "--embed-overlay"
				  : dout ? "--dtbo-out" : NULL;

		if (bad) {
			err("%s: a HAT settings file makes an image only; %s is for cape definitions",
			    in_name(argv[optind]), bad);
			rc = EXIT_USAGE;
		} else if (dir && eout) {
			err("-o DIR, or --eeprom-out FILE: not both");
			rc = EXIT_USAGE;
		} else if ((dir && (!*dir || is_stdio(dir))) || (eout && !*eout)) {
			err("%s", dir ? "-o: a directory name, not empty or \"-\" (--eeprom-out - writes to standard output)"
				      : "--eeprom-out: an empty file name");
			rc = EXIT_USAGE;
		} else if (binary_to_tty(eout)) {
			rc = EXIT_USAGE;
		} else {
			rc = create_hat(argv[optind], board, force, hat_version, dt_file, custom,
					ncustom, !dir && !eout ? "." : dir, eout);
		}
		free(custom);
		return rc;
	}
	free(custom);
	if (hat_version || dt_file || ncustom) {
		err("%s: --hat-version, --dt-blob and --custom are for HAT settings files, and this is none",
		    in_name(argv[optind]));
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
	if (binary_to_tty(eout) || binary_to_tty(dout))
		return EXIT_USAGE;
	if (!dir && !eout && !dout)
		dir = ".";
	if (dir && !*dir) {
		err("-o: an empty directory name (use -o . for the current directory)");
		return EXIT_USAGE;
	}
	rc = board_load(board, &b);
	if (rc)
		return rc;
	rc = board_apply_variants(&b, variant);
	if (rc) {
		board_free(&b);
		return rc;
	}
	rc = build_cape(argv[optind], &b, serial, embed, &img, &imglen, &dtbo, &dtbolen, &def);
	/* and refused where check refuses it, unless forced */
	if (!rc)
		rc = fit_alone(in_name(argv[optind]), &b, &def, force ? FIT_FORCE : FIT_CREATE);
	if (!rc)
		unmuxed_check(in_name(argv[optind]), &b, &def, dtbo, dtbolen);
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
