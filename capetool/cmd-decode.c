// SPDX-License-Identifier: GPL-2.0
/* capetool decode: every field of an EEPROM image, as text, JSON or a definition */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capetool.h"
#include "hat.h"

static const char usage_text[] =
	"usage: capetool decode (IMAGE | --slot N [--controller C]) [--json | --format=cape]\n"
	"                       [-x FILE]\n"
	"\n"
	"Print every field of a cape EEPROM image (A0 or A1), the used pins in the\n"
	"kernel's words, and the capebus extension records; or of a Raspberry Pi HAT\n"
	"or HAT+ image (\"R-Pi\" signature): every atom, its bounds and CRC checked.\n"
	"IMAGE - reads the image from standard input.\n"
	"  -s, --slot N              read slot N's EEPROM through its nvmem device\n"
	"      --controller C        the controller of that slot: a name (capebus1)\n"
	"                            or a family (bone, rpi); needed when two\n"
	"                            controllers have slot N\n"
	"  -j, --json                JSON output\n"
	"      --format=text|json|cape|eepdump  cape: a definition that create\n"
	"                            turns back into the same image; for a HAT\n"
	"                            image, the settings text eepdump prints\n"
	"                            (--format=eepdump, exactly), which create reads\n"
	"                            back\n"
	"  -x, --extract-overlay F   write an embedded overlay record (a v1 HAT: the\n"
	"                            device tree atom) to F (\"-\": standard output,\n"
	"                            instead of the decoding)\n"
	"  -h, --help                this text\n"
	"Exit codes 10-14 name what is wrong: bad magic (10), unknown revision (11),\n"
	"bad text (12), bad CRC (13), truncated image or extension area, or a HAT\n"
	"image's atoms malformed (14).\n";

enum fmt { FMT_TEXT, FMT_JSON, FMT_CAPE, FMT_EEPDUMP };

static const char *const rails[] = { "vdd-3v3b", "vdd-5v", "sys-5v", "dc-supplied" };

static void print_text(const char *src, const struct cape_image *im)
{
	char w[64];
	unsigned used = 0;

	printf("source:        %s\n", src);
	printf("format:        %s (%zu-byte standard area)\n", im->a0 ? "A0" : "A1",
	       eeprom_std_size(im->a0));
	printf("board name:    %s\n", im->board_name);
	printf("version:       %s\n", im->version);
	printf("manufacturer:  %s\n", im->manufacturer);
	printf("part number:   %s\n", im->part_number);
	printf("overlay name:  %s-%s.dtbo\n", im->part_number, im->version);
	if (strlen(im->serial) == 12)
		printf("serial:        %s (week %.2s, year 20%.2s, assembly %.4s, unit %.4s)\n",
		       im->serial, im->serial, im->serial + 2, im->serial + 4, im->serial + 8);
	else
		printf("serial:        %s\n", im->serial);
	for (unsigned i = 0; i < im->npinwords; i++)
		used += !!(im->pins[i] & CAPE_PIN_USED);
	printf("pins:          %u declared, %u used\n", im->num_pins, used);
	if (im->a0 && used)
		printf("  (A0 pin words decoded by index in the A1 order; no source maps them for certain)\n");
	for (unsigned i = 0; i < im->npinwords; i++) {
		if (!(im->pins[i] & CAPE_PIN_USED))
			continue;
		pin_words((int)i, im->pins[i], w, sizeof(w));
		printf("  %-36s %s (0x%04x)%s\n", w, cape_pin_signals[i], im->pins[i],
		       (im->pins[i] & CAPE_PIN_RESERVED_MASK) && !cape_pin_is_ain((int)i)
			       ? " reserved bits set" : "");
	}
	printf("power (mA):   ");
	for (int i = 0; i < 4; i++)
		printf(" %s %u", rails[i], im->power[i]);
	putchar('\n');
	if (!im->has_ext) {
		printf("extension:     none\n");
		return;
	}
	printf("extension:     version %u, %u records, %u bytes%s\n", im->ext_version,
	       im->ext_count, im->ext_length,
	       im->ext_version != CAPEBUS_EXT_VERSION ? " (newer version: ignored)" : "");
	if (im->has_id_crc)
		printf("  id-crc:      0x%08x (ok)\n", im->id_crc);
	if (im->overlay)
		printf("  overlay:     %zu bytes, crc 0x%08x (ok)\n", im->overlay_len, im->overlay_crc);
	if (im->unknown_records)
		printf("  unknown:     %u records skipped\n", im->unknown_records);
}

static void print_json(const char *src, const struct cape_image *im)
{
	char w[64];
	bool first = true;

	printf("{\"source\": ");
	json_str(src);
	printf(", \"format\": \"%s\", \"board_name\": ", im->a0 ? "A0" : "A1");
	json_str(im->board_name);
	printf(", \"version\": ");
	json_str(im->version);
	printf(", \"manufacturer\": ");
	json_str(im->manufacturer);
	printf(", \"part_number\": ");
	json_str(im->part_number);
	printf(", \"serial\": ");
	json_str(im->serial);
	printf(", \"num_pins\": %u, \"pins\": [", im->num_pins);
	for (unsigned i = 0; i < im->npinwords; i++) {
		if (!(im->pins[i] & CAPE_PIN_USED))
			continue;
		pin_words((int)i, im->pins[i], w, sizeof(w));
		printf("%s{\"pin\": \"%s\", \"index\": %u, \"word\": %u, \"signal\": \"%s\", \"words\": ",
		       first ? "" : ", ", cape_pin_names[i], i, im->pins[i], cape_pin_signals[i]);
		json_str(w);
		putchar('}');
		first = false;
	}
	printf("], \"power\": {");
	for (int i = 0; i < 4; i++)
		printf("%s\"%s\": %u", i ? ", " : "", rails[i], im->power[i]);
	printf("}, \"extension\": ");
	if (!im->has_ext) {
		printf("null}\n");
		return;
	}
	printf("{\"version\": %u, \"count\": %u, \"length\": %u", im->ext_version, im->ext_count,
	       im->ext_length);
	if (im->has_id_crc)
		printf(", \"id_crc\": %u", im->id_crc);
	if (im->overlay)
		printf(", \"overlay_length\": %zu, \"overlay_crc\": %u", im->overlay_len,
		       im->overlay_crc);
	printf(", \"unknown_records\": %u}}\n", im->unknown_records);
}

static void cape_str(const char *key, const char *v)
{
	printf("  %-13s= \"", key);
	for (; *v; v++) {
		if (*v == '"' || *v == '\\')
			putchar('\\');
		putchar(*v);
	}
	printf("\";\n");
}

static void print_cape(const char *src, const struct cape_image *im)
{
	static const char *const dir[] = { "in", "in", "out", "bidir" };
	bool any = false;

	/* a comment line: the file name's newlines and other controls escaped */
	fputs("# decoded from ", stdout);
	for (const unsigned char *p = (const unsigned char *)src; *p; p++) {
		if (*p < 0x20 || *p == 0x7f || *p == '\\')
			printf("\\x%02x", *p);
		else
			putchar(*p);
	}
	printf(" by capetool %s\n", CAPETOOL_VERSION);
	printf("eeprom = {\n");
	cape_str("format", im->a0 ? "A0" : "A1");
	cape_str("board-name", im->board_name);
	cape_str("version", im->version);
	cape_str("manufacturer", im->manufacturer);
	cape_str("part-number", im->part_number);
	if (*im->serial)
		cape_str("serial", im->serial);
	printf("};\n");
	printf("power = { vdd-3v3b = %u; vdd-5v = %u; sys-5v = %u; dc-supplied = %u; };\n",
	       im->power[0], im->power[1], im->power[2], im->power[3]);
	printf("pins = (\n");
	for (unsigned i = 0; i < im->npinwords; i++) {
		uint16_t w = im->pins[i];
		const char *d;
		bool rx_default;

		if (!(w & CAPE_PIN_USED))
			continue;
		printf("%s  { pin = \"%s\";", any ? ",\n" : "", cape_pin_names[i]);
		any = true;
		if (cape_pin_is_ain((int)i)) {
			printf(" }");
			continue;
		}
		d = dir[(w & CAPE_PIN_DIR_MASK) >> 13];
		rx_default = strcmp(d, "out") != 0;
		printf(" mode = %u; direction = \"%s\";", w & CAPE_PIN_MODE_MASK, d);
		if (!(w & CAPE_PIN_PULL_DISABLE))
			printf(" pull = \"%s\";", (w & CAPE_PIN_PULL_UP) ? "up" : "down");
		if (!!(w & CAPE_PIN_RX_ENABLE) != rx_default)
			printf(" rx = %s;", (w & CAPE_PIN_RX_ENABLE) ? "true" : "false");
		if (w & CAPE_PIN_SLEW_SLOW)
			printf(" slew = \"slow\";");
		printf(" }");
	}
	printf("%s);\n", any ? "\n" : "");
	if (im->overlay)
		printf("# the image embeds a %zu-byte overlay: extract it with decode -x FILE\n",
		       im->overlay_len);
}

int decode_buffer(const char *src, const uint8_t *buf, size_t len, int fmt, const char *xfile)
{
	struct cape_image im;
	char why[160];
	int rc;

	if (hat_has_signature(buf, len))
		return hat_decode_buffer(src, buf, len, fmt == FMT_JSON ? HAT_FMT_JSON
					 : fmt == FMT_TEXT ? HAT_FMT_TEXT
					 : fmt == FMT_CAPE ? HAT_FMT_SETTINGS : HAT_FMT_EEPDUMP, xfile);
	if (hat_looks_like_settings(buf, len)) {
		err("%s: this is a HAT settings file (eepmake's), not an EEPROM image; use capetool create",
		    src);
		return EXIT_MAGIC;
	}
	if (fmt == FMT_EEPDUMP) {
		err("%s: --format=eepdump decodes a HAT or HAT+ image; this has no \"R-Pi\" signature",
		    src);
		return EXIT_MAGIC;
	}
	rc = eeprom_decode(buf, len, &im, why, sizeof(why));
	if (rc) {
		err("%s: %s", src, why);
		return rc;
	}
	if (xfile && is_stdio(xfile))
		;	/* standard output carries the overlay, not the decoding */
	else if (fmt == FMT_JSON)
		print_json(src, &im);
	else if (fmt == FMT_CAPE)
		print_cape(src, &im);
	else
		print_text(src, &im);
	if (xfile) {
		if (!im.overlay) {
			err("%s: no overlay record to extract", src);
			return EXIT_FAIL;
		}
		if ((rc = write_file(xfile, im.overlay, im.overlay_len))) {
			err("%s: cannot write: %s", out_name(xfile), strerror(-rc));
			return EXIT_IO;
		}
	}
	return EXIT_OK;
}

int cmd_decode(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "slot", required_argument, NULL, 's' },
		{ "controller", required_argument, NULL, 'C' },
		{ "json", no_argument, NULL, 'j' },
		{ "format", required_argument, NULL, 'F' },
		{ "extract-overlay", required_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int fmt = FMT_TEXT, slot = -1, c, rc;
	const char *xfile = NULL, *ctrl = NULL;
	char *path;
	uint8_t *buf;
	size_t len;

	optind = 1;
	while ((c = getopt_long(argc, argv, "s:jx:h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			slot = parse_slot_option(optarg);
			if (slot < 0)
				return EXIT_USAGE;
			break;
		case 'C': ctrl = optarg; break;
		case 'j': fmt = FMT_JSON; break;
		case 'F':
			if (!strcmp(optarg, "cape"))
				fmt = FMT_CAPE;
			else if (!strcmp(optarg, "json"))
				fmt = FMT_JSON;
			else if (!strcmp(optarg, "text"))
				fmt = FMT_TEXT;
			else if (!strcmp(optarg, "eepdump"))
				fmt = FMT_EEPDUMP;
			else {
				err("--format: text, json or cape (or eepdump, for a HAT image), not %s", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'x': xfile = optarg; break;
		case 'h': fputs(usage_text, stdout); return EXIT_OK;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	if ((slot < 0) == (optind == argc) || optind < argc - 1 || (ctrl && slot < 0)) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (xfile && !*xfile) {
		err("-x: an empty file name");
		return EXIT_USAGE;
	}
	if (binary_to_tty(xfile))
		return EXIT_USAGE;
	if (slot >= 0) {
		path = slot_nvmem_path(slot, ctrl, NULL, &rc);
		if (!path)
			return rc;
	} else {
		path = xstrdup(argv[optind]);
	}
	rc = nvmem_read_image(path, &buf, &len);
	if (rc) {
		err("%s: %s", in_name(path), strerror(-rc));
		free(path);
		return EXIT_IO;
	}
	rc = decode_buffer(in_name(path), buf, len, fmt, xfile);
	/* a HAT printed as it is; then what the kernel refuses of it, as check says it */
	if (!rc && hat_has_signature(buf, len)) {
		fflush(stdout);
		rc = hat_verify_image(path, buf, len, 0);
	}
	free(buf);
	free(path);
	return rc;
}
