// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the definition parser, the overlay builder and the
 * escape-hatch merge.  Input that starts with the FDT magic is a
 * hand-written overlay merged into the weather example's; anything else is
 * a definition (its own escape hatch ignored: that would run dtc on
 * arbitrary files).  Whatever builds must be a valid tree, and its EEPROM
 * image must decode to the part number, version, pin words and power the
 * definition says: anything else aborts.
 */
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "capetool.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char defpath[64], dtbopath[64], hatchdef[64];
static struct board boards[2];	/* loaded once: parsing them is not the target */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char hatch[] =
		"eeprom = { board-name = \"Hatch\"; version = \"00A0\"; manufacturer = \"M\";\n"
		"  part-number = \"BB-HATCH\"; };\n"
		"pins = ( { pin = \"P8.13\"; mode = 7; direction = \"out\"; } );\n"
		"devices = ( { type = \"i2c\"; bus = \"i2c2\"; address = 0x48; compatible = \"ti,tmp105\"; },\n"
		"  { type = \"led\"; label = \"x\"; pin = \"P8.13\"; } );\n";
	const char *tmp = getenv("TMPDIR");

	(void)argc;
	(void)argv;
	if (!freopen("/dev/null", "w", stdout))
		abort();
	err_quiet = true;
	tmp = tmp && *tmp ? tmp : "/tmp";
	if (board_load("qemu-vexpress", &boards[0]) || board_load("beaglebone-black", &boards[1]))
		abort();
	snprintf(defpath, sizeof(defpath), "%s/def-fuzz-%d.cape", tmp, (int)getpid());
	snprintf(dtbopath, sizeof(dtbopath), "%s/def-fuzz-%d.dtbo", tmp, (int)getpid());
	snprintf(hatchdef, sizeof(hatchdef), "%s/def-fuzz-%d-hatch.cape", tmp, (int)getpid());
	{
		FILE *f = fopen(hatchdef, "w");
		char *line = xasprintf("%soverlay = \"%s\";\n", hatch, dtbopath);

		if (!f || fputs(line, f) < 0 || fclose(f))
			abort();
		free(line);
	}
	return 0;
}

static void check_def(const char *path, bool drop_hatch)
{
	struct cape_def def;

	if (def_load(path, &boards[1], &def)) {
		def_free(&def);
		return;
	}
	if (drop_hatch) {
		free(def.overlay);
		def.overlay = NULL;
	}
	for (size_t i = 0; i < 2; i++) {
		void *dtbo = NULL;
		size_t len, imglen;
		uint8_t *img;
		struct cape_image im;
		char why[240];

		if (overlay_build(&def, &boards[i], &dtbo, &len)) {
			free(dtbo);
			continue;
		}
		if (fdt_check_full(dtbo, len))
			abort();	/* we built something that is not a tree */
		img = eeprom_encode(&def, len < 30000 ? dtbo : NULL, len, &imglen);
		if (eeprom_decode(img, imglen, &im, why, sizeof(why)))
			abort();	/* we wrote an image no reader takes */
		if (strcmp(im.part_number, def.part_number) || strcmp(im.version, def.version) ||
		    im.num_pins != def.npins)
			abort();	/* the overlay file name or pin count would differ */
		for (size_t k = 0; k < def.npins; k++)
			if (im.pins[def.pins[k].idx] != def.pins[k].word)
				abort();
		for (int k = 0; k < 4; k++)
			if (im.power[k] != def.power[k])
				abort();
		if (boards[i].nexports) {
			/*
			 * A portable overlay resolves for the board it was built
			 * for, into a tree; without an escape hatch, always.
			 */
			uint16_t words[CAPE_NPINS] = { 0 };
			void *r = NULL;
			size_t rlen;
			int rc;

			for (size_t k = 0; k < def.npins; k++)
				words[def.pins[k].idx] = def.pins[k].word;
			rc = overlay_resolve("fuzz", dtbo, len, &boards[i], words, def.part_number,
					     &r, &rlen, NULL);
			if ((!rc && fdt_check_full(r, rlen)) || (rc && !def.overlay))
				abort();
			free(r);
		}
		free(img);
		free(dtbo);
	}
	def_free(&def);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bool fdt = size >= 4 && !memcmp(data, "\xd0\x0d\xfe\xed", 4);
	FILE *f = fopen(fdt ? dtbopath : defpath, "wb");

	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	check_def(fdt ? hatchdef : defpath, !fdt);
	if (fdt) {
		/* resolve takes any tree: a refusal, or a valid tree */
		static const uint16_t words[CAPE_NPINS] = { [15] = CAPE_PIN_USED | 7 };
		void *r = NULL;
		size_t rlen;

		if (!overlay_resolve("fuzz", data, size, &boards[1], words, "BB-HATCH", &r, &rlen, NULL) &&
		    fdt_check_full(r, rlen))
			abort();
		free(r);
	}
	return 0;
}
