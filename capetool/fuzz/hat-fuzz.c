// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the Raspberry Pi HAT/HAT+ image parser: hat_decode
 * and the three printers (text, JSON, eepdump) on arbitrary bytes; then,
 * for an image that decodes and is the one its own fields encode to
 * (writer order, nothing create cannot write), the settings text decode
 * prints must read back (when it reads) into the same bytes.  An input
 * without the "R-Pi" signature goes to the settings reader instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capetool.h"
#include "hat.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!freopen("/dev/null", "w", stdout))
		abort();
	err_quiet = true;
	return 0;
}

/* @im's fields as settings; false if create could not say them. */
static bool settings_of(const struct hat_image *im, struct hat_settings *s)
{
	memset(s, 0, sizeof(*s));
	s->version = (int)im->version;
	memcpy(s->uuid, im->uuid, sizeof(s->uuid));
	s->product_id = im->product_id;
	s->product_ver = im->product_ver;
	memcpy(s->vendor, im->vendor_str, sizeof(s->vendor));
	memcpy(s->product, im->product_str, sizeof(s->product));
	for (int b = 0; b < 2; b++) {
		const uint8_t *d;
		unsigned n = b ? RPI_HAT_GPIO_BANK1_NUM : RPI_HAT_GPIO_BANK0_NUM;

		if (im->gpio[b] < 0)
			continue;
		d = im->atoms[im->gpio[b]].data;
		s->has_gpio[b] = true;
		s->gpio_flags[b] = d[0];
		if (!b)
			s->back_power = d[1];
		memcpy(s->pins + (b ? RPI_HAT_GPIO_BANK0_NUM : 0), d + 2, n);
	}
	s->current_supply = im->current_supply;
	if (im->dt >= 0) {
		s->has_dt = true;
		s->dt.data = (uint8_t *)im->atoms[im->dt].data;
		s->dt.len = im->atoms[im->dt].len;
	}
	s->custom = calloc(im->ncustom + 1, sizeof(*s->custom));
	for (unsigned i = 0; i < im->numatoms; i++)
		if (im->atoms[i].type == RPI_HAT_ATOM_CUSTOM) {
			s->custom[s->ncustom].data = (uint8_t *)im->atoms[i].data;
			s->custom[s->ncustom++].len = im->atoms[i].len;
		}
	return !im->unknown && (s->uuid[0] | s->uuid[1] | s->uuid[2] | s->uuid[3]);
}

static void roundtrip(const uint8_t *buf, const struct hat_image *im)
{
	struct hat_settings s, t;
	uint8_t *img, *img2;
	size_t len, len2;
	char *text = NULL;
	size_t tlen = 0;
	FILE *f;
	bool same;

	if (!settings_of(im, &s)) {
		free(s.custom);
		return;
	}
	img = hat_encode(&s, &len);
	same = len == im->eeplen && !memcmp(img, buf, len);
	free(img);
	free(s.custom);
	if (!same)
		return;		/* not the bytes create writes for these fields */
	f = open_memstream(&text, &tlen);
	if (!f)
		abort();
	hat_print_eepdump(f, im, true);
	fclose(f);
	if (!hat_settings_parse("fuzz", (const uint8_t *)text, tlen, (int)im->version, NULL, NULL, 0, &t)) {
		img2 = hat_encode(&t, &len2);
		if (len2 != len || memcmp(img2, buf, len)) {
			fprintf(stderr, "settings round trip changed the image:\n%s", text);
			abort();
		}
		free(img2);
		hat_settings_free(&t);
	}
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a private copy so ASan sees reads past the end */
	uint8_t *buf = malloc(size ? size : 1);
	struct hat_image im;
	char why[200];

	memcpy(buf, data, size);
	if (!hat_has_signature(buf, size)) {
		struct hat_settings s;

		if (!hat_settings_parse("fuzz", buf, size, 0, NULL, NULL, 0, &s)) {
			size_t len;
			uint8_t *img = hat_encode(&s, &len);

			/* what create writes, decode reads */
			if (hat_decode(img, len, &im, why, sizeof(why))) {
				fprintf(stderr, "create wrote an image decode refuses: %s\n", why);
				abort();
			}
			hat_image_free(&im);
			free(img);
			hat_settings_free(&s);
		}
		free(buf);
		return 0;
	}
	for (int fmt = HAT_FMT_TEXT; fmt <= HAT_FMT_SETTINGS; fmt++)
		hat_decode_buffer("fuzz", buf, size, (enum hat_fmt)fmt, NULL);
	if (!hat_decode(buf, size, &im, why, sizeof(why)))
		roundtrip(buf, &im);
	hat_image_free(&im);
	free(buf);
	return 0;
}
