// SPDX-License-Identifier: GPL-2.0
/*
 * capetool override / remove: declare a cape to the running kernel through
 * /sys/kernel/config/capebus/<ctrl>/capes/<name>/ (fields, eeprom, dtbo,
 * slot, enable), print the kernel's status, undo everything on refusal.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "capetool.h"

static const char usage_text[] =
	"usage: capetool override (DEF | IMAGE) [--slot N] [--name NAME] [--board B]\n"
	"                         [--overlay DTBO] [--controller CTRL]\n"
	"\n"
	"Declare a cape to the kernel through configfs: create capes/NAME, write its\n"
	"fields, EEPROM image, overlay and slot, enable it and print the kernel's\n"
	"status.  If the kernel refuses, print its reason and remove what was\n"
	"created.  A definition is compiled as by create; an image's overlay is its\n"
	"embedded overlay record, or --overlay.  \"-\" (for the cape or --overlay)\n"
	"is standard input.\n"
	"  -s, --slot N          the slot the cape stands for\n"
	"  -N, --name NAME       configfs name (default: the part number)\n"
	"  -b, --board B         board profile for a definition (default: detected)\n"
	"      --variant V       the board's variants in use (no-hdmi, no-emmc)\n"
	"      --overlay DTBO    overlay for an image without an overlay record\n"
	"      --controller C    capebus controller: a name (capebus1) or a family\n"
	"                        (bone, rpi); default: the only one (with two,\n"
	"                        refused: say which)\n"
	"  -h, --help            this text\n"
	"Exit: 9 no capebus configfs, 15 the kernel refused the cape.\n";

static const char remove_usage[] =
	"usage: capetool remove NAME [--controller CTRL]\n"
	"\n"
	"Disable and remove a cape declared with override.\n"
	"      --controller C    capebus controller: a name (capebus1) or a family\n"
	"                        (bone, rpi); default: the only one (with two,\n"
	"                        refused: say which)\n"
	"  -h, --help            this text\n";

static int put(const char *dir, const char *attr, const void *val, size_t len, bool text)
{
	char *p = xasprintf("%s/%s", dir, attr);
	int r = 0;

	if (text) {
		char *cur = read_attr(p);

		if (cur && strlen(cur) == len && !memcmp(cur, val, len)) {
			free(cur);
			free(p);
			return 0;	/* the kernel already has it (from the image) */
		}
		free(cur);
	}
	r = write_attr_bin(p, val, len);
	if (r)
		err("%s: %s", p, strerror(-r));
	free(p);
	return r;
}

static void undo(const char *dir)
{
	char *p = xasprintf("%s/enable", dir);

	write_attr(p, "0");
	free(p);
	if (rmdir(dir))
		err("%s: cannot remove: %m", dir);
}

int cmd_override(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "slot", required_argument, NULL, 's' },
		{ "name", required_argument, NULL, 'N' },
		{ "board", required_argument, NULL, 'b' },
		{ "variant", required_argument, NULL, OPT_VARIANT },
		{ "overlay", required_argument, NULL, 'O' },
		{ "controller", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *name = NULL, *board = NULL, *variant = NULL, *ovpath = NULL, *ctrl = NULL, *slot = NULL;
	uint8_t *file = NULL, *img = NULL, *dtbo = NULL;
	size_t flen, imglen = 0, dtbolen = 0;
	struct cape_def def = { 0 };
	struct cape_image im;
	char *cdir = NULL, *dir = NULL, *status = NULL, *p, why[160];
	int c, rc, r;
	bool have_def = false;

	optind = 1;
	while ((c = getopt_long(argc, argv, "s:N:b:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': slot = optarg; break;
		case 'N': name = optarg; break;
		case 'b': board = optarg; break;
		case OPT_VARIANT:
			if (opt_variant(&variant, optarg))
				return EXIT_USAGE;
			break;
		case 'O': ovpath = optarg; break;
		case 'C': ctrl = optarg; break;
		case 'h': fputs(usage_text, stdout); return EXIT_OK;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (slot && parse_slot_option(slot) < 0)
		return EXIT_USAGE;
	r = read_file(argv[optind], &file, &flen);
	if (r) {
		err("%s: %s", in_name(argv[optind]), strerror(-r));
		return EXIT_IO;
	}
	if (eeprom_has_magic(file, flen)) {
		rc = eeprom_decode(file, flen, &im, why, sizeof(why));
		if (rc) {
			err("%s: %s", in_name(argv[optind]), why);
			goto out;
		}
		img = file;
		imglen = im.total_len;
		file = NULL;
		if (ovpath) {
			r = read_file(ovpath, &dtbo, &dtbolen);
			if (r) {
				err("%s: %s", in_name(ovpath), strerror(-r));
				rc = EXIT_IO;
				goto out;
			}
		} else if (im.overlay) {
			dtbo = xmalloc(im.overlay_len);
			memcpy(dtbo, im.overlay, im.overlay_len);
			dtbolen = im.overlay_len;
		}
	} else {
		void *blob = NULL;
		struct board b;

		have_def = true;
		rc = board_load(board, &b);
		if (!rc && (rc = board_apply_variants(&b, variant)))
			board_free(&b);
		if (rc) {
			have_def = false;
			goto out;
		}
		rc = build_cape(argv[optind], &b, NULL, false, &img, &imglen, &blob, &dtbolen, &def);
		board_free(&b);
		dtbo = blob;
		if (rc)
			goto out;
		eeprom_decode(img, imglen, &im, why, sizeof(why));
	}
	cdir = configfs_ctrl_dir_for(ctrl, "bone", NULL, &rc);
	if (!cdir)
		goto out;
	if (!name)
		name = im.part_number;
	if (!*name || strchr(name, '/')) {
		err("bad cape name \"%s\": a cape name is not empty and has no '/' (use --name)",
		    name);
		rc = EXIT_USAGE;
		goto out;
	}
	dir = xasprintf("%s/capes/%s", cdir, name);
	if (mkdir(dir, 0755)) {
		err("%s: %m%s", dir, errno == EEXIST ? " (already declared: capetool remove it first)" : "");
		rc = errno == ENOENT ? EXIT_NODEV : EXIT_FAIL;
		goto out;
	}
	rc = EXIT_FAIL;
	if (put(dir, "eeprom", img, imglen, false) ||
	    put(dir, "board_name", im.board_name, strlen(im.board_name), true) ||
	    put(dir, "version", im.version, strlen(im.version), true) ||
	    put(dir, "manufacturer", im.manufacturer, strlen(im.manufacturer), true) ||
	    put(dir, "part_number", im.part_number, strlen(im.part_number), true) ||
	    (*im.serial && put(dir, "serial", im.serial, strlen(im.serial), true)) ||
	    (slot && put(dir, "slot", slot, strlen(slot), true)) ||
	    (dtbo && put(dir, "dtbo", dtbo, dtbolen, false))) {
		undo(dir);
		goto out;
	}
	p = xasprintf("%s/enable", dir);
	r = write_attr(p, "1");
	free(p);
	p = xasprintf("%s/status", dir);
	status = read_attr(p);
	/* give an asynchronous apply a moment to settle (at most 5 s) */
	for (int i = 0; !r && status && !strncmp(status, "detected", 8) && i < 50; i++) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };

		nanosleep(&ts, NULL);
		free(status);
		status = read_attr(p);
	}
	free(p);
	if (r || !status || !strncmp(status, "failed", 6)) {
		err("the kernel refused %s: %s", name,
		    status && *status ? status : r ? strerror(-r) : "no status");
		undo(dir);
		rc = EXIT_KERNEL;
		goto out;
	}
	printf("%s: %s\n", name, status);
	rc = EXIT_OK;
out:
	free(status);
	free(dir);
	free(cdir);
	free(file);
	free(img);
	free(dtbo);
	if (have_def)
		def_free(&def);
	return rc;
}

int cmd_remove(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "controller", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *ctrl = NULL;
	char *cdir, *dir, *p;
	int c, rc;
	struct stat st;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'C': ctrl = optarg; break;
		case 'h': fputs(remove_usage, stdout); return EXIT_OK;
		default: fputs(remove_usage, stderr); return EXIT_USAGE;
		}
	}
	if (optind != argc - 1 || strchr(argv[optind], '/')) {
		fputs(remove_usage, stderr);
		return EXIT_USAGE;
	}
	cdir = configfs_ctrl_dir_for(ctrl, NULL, argv[optind], &rc);
	if (!cdir)
		return rc;
	dir = xasprintf("%s/capes/%s", cdir, argv[optind]);
	free(cdir);
	if (stat(dir, &st)) {
		err("no cape \"%s\" declared (%s: %m)", argv[optind], dir);
		free(dir);
		return EXIT_FAIL;
	}
	p = xasprintf("%s/enable", dir);
	if (!access(p, F_OK))
		write_attr(p, "0");
	free(p);
	if (rmdir(dir)) {
		err("%s: cannot remove: %m", dir);
		free(dir);
		return EXIT_FAIL;
	}
	printf("removed %s\n", argv[optind]);
	free(dir);
	return EXIT_OK;
}
