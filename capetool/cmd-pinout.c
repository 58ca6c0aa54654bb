// SPDX-License-Identifier: GPL-2.0
/*
 * capetool pinout: the two headers, P8 and P9, as the capes use them.
 * Inputs are definitions and EEPROM images (told apart by the EEPROM
 * magic), and with --live the capes the running kernel reports.  Each pin
 * is a fixed pin (power, ground, reset, ADC reference), the board's own,
 * the shared cape bus, free, or claimed by a cape; a pin claimed twice
 * (or a board pin claimed at all) is a conflict, as `capetool check` and
 * the kernel see it.  Output: text that fits 80 columns, JSON, or SVG.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "capetool.h"
#include "hat.h"

static const char usage_text[] =
	"usage: capetool pinout [--board B [--variant V]] [--json] [--svg FILE] [--color[=WHEN]]\n"
	"                       [--live] [DEF|IMAGE]...\n"
	"       capetool pinout [--board rpi] [--json] [--svg FILE] [--color[=WHEN]]\n"
	"                       [HAT[@ADDR]]...\n"
	"\n"
	"Draw the headers P8 and P9 as the capes use them: each pin is power or\n"
	"ground, the board's own (eMMC, HDMI...), the shared cape bus, free, or the\n"
	"cape and function using it (mux mode, direction, pull).  A pin claimed by\n"
	"two capes (but a pin of a bus both have devices on, muxed alike), or a\n"
	"board pin claimed by a cape, is a conflict: both claimants\n"
	"are named.  Inputs are definitions and EEPROM images, in any mix (\"-\":\n"
	"standard input); with none, the board's blank header map.\n"
	"A Raspberry Pi's 40-pin header (--board rpi, or HAT settings or images\n"
	"given without --board) is drawn as pinout.xyz does: pin 1 (3V3) top left,\n"
	"odd pins left, GPIOs by BCM number, power, ground and ID_SD/ID_SC marked;\n"
	"each GPIO a v1 HAT's map claims with the HAT and its function (in, out,\n"
	"ALTn and the signal, from the profile), pull.  A GPIO two HATs claim, or\n"
	"GPIO0/GPIO1, is a conflict.  HAT@ADDR: as check.\n"
	"  -b, --board B     board profile (pin names, functions by mode, board pins)\n"
	"      --variant V   the board's variants in use (no-hdmi...): their pins free\n"
	"  -l, --live        add the capes the running kernel reports\n"
	"                    (/sys/bus/capebus/devices/*/pins)\n"
	"  -j, --json        JSON instead of the drawing\n"
	"      --svg FILE    also draw both headers to scale into FILE (SVG, for A4 or\n"
	"                    Letter landscape, the devices of each cape named on its\n"
	"                    pins; \"-\": standard output, instead of the text drawing)\n"
	"      --color[=WHEN]  colour: auto (default: a terminal, TERM not dumb,\n"
	"                    NO_COLOR unset), always or never\n"
	"  -h, --help        this text\n"
	"Exit: 0 no conflict, 5 a pin conflict (the drawing shows it), 3 invalid\n"
	"definition, 4 unreadable file, 9 no capebus in sysfs (--live).\n";

#define MAX_CAPES 26		/* named A to Z */
#define CELL 33			/* text columns either side of the pins */

enum kind { K_FIXED, K_BOARD, K_SHARED, K_FREE, K_CAPE, K_CONFLICT };
static const char *const kind_names[] = { "fixed", "board", "shared", "free", "cape", "conflict" };
static const char kind_marks[] = { '=', '#', '~', '.', 0, '!' };

struct pcape {
	char letter;
	char *part, *version, *name, *source;
	int slot;				/* -1: not from the kernel */
	uint16_t word[CAPE_NPINS];		/* 0: pin not used */
	char *pindevs[CAPE_NPINS];		/* the devices on each pin ("LED x", "tmp105@48") */
	char *devices;				/* each device and its pins, for the legend */
	const char *share[CAPE_NPINS];		/* a pin of this shared bus (check's share_bus()) */
};

struct ppin {
	char name[32];
	int idx;				/* pin-usage index; -1: fixed pin */
	const struct board_hdr *h;
	enum kind kind;
	int claim[MAX_CAPES], nclaims;		/* capes using it, in input order */
};

struct view {
	struct board b;
	struct pcape capes[MAX_CAPES];
	int ncapes;
	struct ppin pin[2][2 * BOARD_HDR_ROWS];
	int nconflicts;
	bool color;
};

/* ---- gathering ---- */

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static struct pcape *new_cape(struct view *v, const char *what)
{
	struct pcape *c;

	if (v->ncapes == MAX_CAPES) {
		err("%s: more than %d capes", what, MAX_CAPES);
		return NULL;
	}
	c = &v->capes[v->ncapes];
	memset(c, 0, sizeof(*c));
	c->letter = (char)('A' + v->ncapes);
	c->slot = -1;
	return c;
}

/* A device as the drawing names it: "LED weather:status", "tmp105@48". */
static char *dev_short_name(const struct cape_dev *dv)
{
	const char *base;

	switch (dv->type) {
	case DEV_LED:
		return xasprintf("LED %s", dv->label);
	case DEV_KEY:
		return xasprintf("key %s", dv->label);
	case DEV_W1:
		return xstrdup("w1-gpio");
	case DEV_UART:
		return xstrdup(dv->bus);
	case DEV_I2C:
	case DEV_SPI:
		break;
	default:
		return devkind_short_name(dv);
	}
	base = dv->name;
	if (!base) {
		base = strchr(dv->compatible, ',');
		base = base ? base + 1 : dv->compatible;
	}
	return xasprintf("%s@%x", base, dv->type == DEV_I2C ? dv->address : dv->cs);
}

/*
 * Which pins each device of a definition uses: a GPIO device its pin, a bus
 * device (or an enabled UART) the bus's pins the cape lists.  Devices of
 * the escape-hatch overlay, and of an image, are not known.
 */
static void note_devices(struct view *v, struct pcape *c, const struct cape_def *d)
{
	for (size_t i = 0; i < d->ndevs; i++) {
		const struct cape_dev *dv = &d->devs[i];
		char *name = dev_short_name(dv), *pins = NULL, *entry;
		int idx[CAPE_NPINS];
		size_t n = 0;

		if (dv->type == DEV_LED || dv->type == DEV_KEY || dv->type == DEV_W1) {
			idx[n++] = cape_pin_index(dv->pin);
		} else {
			const struct board_bus *bus = dv->bus ? board_find_bus(&v->b, dv->bus) : NULL;

			for (size_t k = 0; bus && k < bus->npins; k++) {
				int x = cape_pin_index(bus->pins[k]);

				if (x >= 0 && c->word[x])
					idx[n++] = x;
			}
		}
		for (size_t k = 0; k < n; k++) {
			if (idx[k] < 0)
				continue;
			str_append(&c->pindevs[idx[k]], ", ", name);
			str_append(&pins, ", ", cape_pin_names[idx[k]]);
		}
		if (dv->type == DEV_I2C || dv->type == DEV_SPI)
			entry = xasprintf("%s on %s%s%s%s", name, dv->bus, pins ? " (" : "",
					  pins ? pins : "", pins ? ")" : "");
		else
			entry = xasprintf("%s%s%s%s", name, pins ? " (" : "", pins ? pins : "",
					  pins ? ")" : "");
		str_append(&c->devices, "; ", entry);
		free(entry);
		free(pins);
		free(name);
	}
}

static int load_file(struct view *v, const char *path)
{
	struct pcape *c;
	uint8_t *buf;
	size_t len;
	int r = read_file(path, &buf, &len);

	if (r) {
		err("%s: %s", in_name(path), strerror(-r));
		return EXIT_IO;
	}
	if (!(c = new_cape(v, in_name(path)))) {
		free(buf);
		return EXIT_USAGE;
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
		for (unsigned i = 0; i < im.npinwords; i++)
			if (im.pins[i] & CAPE_PIN_USED)
				c->word[i] = im.pins[i];
		c->part = xstrdup(im.part_number);
		c->version = xstrdup(im.version);
		c->name = xstrdup(im.board_name);
	} else {
		struct cape_def d;

		r = def_load(path, &v->b, &d);
		if (r) {
			def_free(&d);
			free(buf);
			return r;
		}
		for (size_t i = 0; i < d.npins; i++) {
			c->word[d.pins[i].idx] = d.pins[i].word;
			c->share[d.pins[i].idx] = share_bus(&v->b, &d, d.pins[i].idx);
		}
		note_devices(v, c, &d);
		c->part = xstrdup(d.part_number);
		c->version = xstrdup(d.version);
		c->name = xstrdup(d.board_name);
		def_free(&d);
	}
	free(buf);
	c->source = xstrdup(base_name(in_name(path)));
	v->ncapes++;
	return EXIT_OK;
}

static char *dev_attr(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	char *s = read_attr(p);

	free(p);
	return s ? s : xstrdup("");
}

/* Is the cape at @dir another header family's (a HAT on a Pi header)? */
static bool live_other_family(const char *dir)
{
	char *f = dev_attr(dir, "family");
	bool other = *f && strcmp(f, "bone");

	free(f);
	return other;
}

/* Every bone cape on the capebus bus: its "pins" in the kernel's words. */
static int load_live(struct view *v)
{
	char *bus = xasprintf("%s/bus/capebus/devices", sysfs_root());
	char **devs = list_dir(bus);
	int rc = EXIT_OK;

	if (!devs) {
		err("%s: %s (kernel without capebus?)", bus, strerror(errno));
		free(bus);
		return EXIT_NODEV;
	}
	for (size_t i = 0; devs[i] && !rc; i++) {
		char *dir = xasprintf("%s/%s", bus, devs[i]);
		char *pins, *slot, *save = NULL, *line;
		struct pcape *c;

		if (live_other_family(dir)) {
			free(dir);
			continue;
		}
		pins = dev_attr(dir, "pins");
		slot = dev_attr(dir, "slot");
		c = new_cape(v, devs[i]);

		if (!c) {
			rc = EXIT_USAGE;
		} else {
			for (line = strtok_r(pins, "\n", &save); line && !rc;
			     line = strtok_r(NULL, "\n", &save)) {
				int idx;
				uint16_t w;

				if (pin_words_parse(line, &idx, &w)) {
					err("%s/pins: cannot read \"%s\"", dir, line);
					rc = EXIT_FAIL;
				} else {
					c->word[idx] = w;
				}
			}
			c->part = dev_attr(dir, "part_number");
			c->version = dev_attr(dir, "version");
			c->name = dev_attr(dir, "board_name");
			c->source = xstrdup(devs[i]);
			c->slot = *slot ? atoi(slot) : -1;
			v->ncapes++;
		}
		free(pins);
		free(slot);
		free(dir);
	}
	free_list(devs);
	free(bus);
	return rc;
}

static bool on_board_bus(const struct board *b, const char *pin)
{
	for (size_t i = 0; i < b->nbuses; i++)
		for (size_t k = 0; b->buses[i].board_enabled && k < b->buses[i].npins; k++)
			if (!strcmp(b->buses[i].pins[k], pin))
				return true;
	return false;
}

/* Every cape claiming @p holds it as a pin of one shared bus, muxed alike (as check). */
static bool shared_alike(const struct view *v, const struct ppin *p)
{
	const struct pcape *first = &v->capes[p->claim[0]];

	for (int c = 1; c < p->nclaims; c++) {
		const struct pcape *o = &v->capes[p->claim[c]];

		if (!first->share[p->idx] || !o->share[p->idx] ||
		    strcmp(first->share[p->idx], o->share[p->idx]) ||
		    first->word[p->idx] != o->word[p->idx])
			return false;
	}
	return true;
}

/* Classify every header position, as check and the kernel would. */
static void classify(struct view *v)
{
	for (int hdr = 0; hdr < 2; hdr++) {
		for (int pos = 1; pos <= 2 * BOARD_HDR_ROWS; pos++) {
			struct ppin *p = &v->pin[hdr][pos - 1];
			int idx;

			snprintf(p->name, sizeof(p->name), "P%d.%d", 8 + hdr, pos);
			p->idx = idx = cape_pin_index(p->name);
			p->h = &v->b.hdr[hdr][pos - 1];
			p->nclaims = 0;
			if (idx < 0) {
				p->kind = K_FIXED;
				continue;
			}
			for (int c = 0; c < v->ncapes; c++)
				if (v->capes[c].word[idx])
					p->claim[p->nclaims++] = c;
			if (v->b.shared_pin[idx])
				p->kind = p->nclaims ? K_CAPE : K_SHARED;
			else if (v->b.board_pin[idx])
				p->kind = p->nclaims ? K_CONFLICT : K_BOARD;
			else if (p->nclaims > 1 && !shared_alike(v, p))
				p->kind = K_CONFLICT;
			else if (p->nclaims)
				p->kind = K_CAPE;
			else
				p->kind = on_board_bus(&v->b, p->name) ? K_SHARED : K_FREE;
			if (p->kind == K_CONFLICT)
				v->nconflicts++;
		}
	}
}

/* ---- words ---- */

static const char *const dir_short[] = { "--", "in", "out", "io" };
static const char *const dir_long[] = { "none", "in", "out", "bidir" };

static const char *function(const struct ppin *p, uint16_t w)
{
	const char *f = p->h->modes[w & CAPE_PIN_MODE_MASK];

	return f && *f ? f : NULL;
}

/* The signal pin's name: the profile's, else the UAPI's mode-0 signal. */
static const char *pin_name(const struct ppin *p)
{
	return p->h->name ? p->h->name : cape_pin_signals[p->idx];
}

static const char *pull_name(uint16_t w)
{
	if (w & CAPE_PIN_PULL_DISABLE)
		return "none";
	return (w & CAPE_PIN_PULL_UP) ? "up" : "down";
}

static void letters(const struct view *v, const struct ppin *p, char *out, size_t n)
{
	size_t o = 0;

	out[0] = 0;
	if (p->kind == K_CONFLICT && v->b.board_pin[p->idx])
		o += (size_t)snprintf(out, n, "board+");
	for (int i = 0; i < p->nclaims && o + 2 < n; i++) {
		out[o++] = v->capes[p->claim[i]].letter;
		if (i + 1 < p->nclaims)
			out[o++] = '+';
		out[o] = 0;
	}
}

/* What the pin is, without the marks: "DGND", "eMMC DAT6", "gpio0_23 m7 out". */
static void describe(const struct view *v, const struct ppin *p, char *out, size_t n)
{
	uint16_t w;
	const char *f;

	switch (p->kind) {
	case K_FIXED:
		snprintf(out, n, "%s", p->h->fixed ? p->h->fixed : "power/ground");
		return;
	case K_BOARD:
	case K_SHARED:
		snprintf(out, n, "%s", p->h->use ? p->h->use : pin_name(p));
		return;
	case K_FREE:
		snprintf(out, n, "%s", pin_name(p));
		return;
	case K_CONFLICT:
		snprintf(out, n, "CONFLICT %s", pin_name(p));
		return;
	case K_CAPE:
		break;
	}
	w = v->capes[p->claim[0]].word[p->idx];
	if (cape_pin_is_ain(p->idx)) {
		snprintf(out, n, "%s analog in", pin_name(p));
		return;
	}
	f = function(p, w);
	snprintf(out, n, "%s%sm%u %s%s%s", f ? f : "", f ? " " : "", w & CAPE_PIN_MODE_MASK,
		 dir_short[(w & CAPE_PIN_DIR_MASK) >> 13],
		 (w & CAPE_PIN_PULL_DISABLE) ? "" : " ", (w & CAPE_PIN_PULL_DISABLE) ? "" : pull_name(w));
}

/* The drawing's cell: a mark or the cape letters, then the description. */
static void cell(const struct view *v, const struct ppin *p, char *out, size_t n)
{
	char who[80], what[120], all[220];

	describe(v, p, what, sizeof(what));
	if (p->kind == K_CAPE || p->kind == K_CONFLICT) {
		letters(v, p, who, sizeof(who));
		if (p->kind == K_CONFLICT)
			snprintf(all, sizeof(all), "! %s %s", who, what);
		else
			snprintf(all, sizeof(all), "%s %s", who, what);
	} else {
		snprintf(all, sizeof(all), "%c %s", kind_marks[p->kind], what);
	}
	snprintf(out, n, "%.*s", CELL, all);
}

/* ---- text ---- */

static const char *const cape_sgr[] = { "32", "34", "35", "36", "92", "94", "95", "96" };
#define NSGR (sizeof(cape_sgr) / sizeof(cape_sgr[0]))

static const char *sgr(const struct ppin *p)
{
	switch (p->kind) {
	case K_FIXED: return "1";
	case K_BOARD: return "2";
	case K_SHARED: return "33";
	case K_FREE: return NULL;
	case K_CONFLICT: return "1;97;41";
	case K_CAPE: return cape_sgr[p->claim[0] % NSGR];
	}
	return NULL;
}

static void put_cell(const struct view *v, const struct ppin *p, bool right)
{
	char t[CELL + 8];
	const char *c = v->color ? sgr(p) : NULL;
	int pad;

	cell(v, p, t, sizeof(t));
	pad = CELL - (int)strlen(t);
	if (!right)
		printf("%*s", pad, "");
	if (c)
		printf("\033[%sm%s\033[0m", c, t);
	else
		fputs(t, stdout);
}

static void claimant(const struct view *v, const struct ppin *p, int i, char *out, size_t n)
{
	const struct pcape *c = &v->capes[p->claim[i]];
	char words[64];

	pin_words(p->idx, c->word[p->idx], words, sizeof(words));
	/* "P8.13 mode7 out no-pull fast" -> "mode7 out no-pull fast" */
	snprintf(out, n, "%c %s (%s)", c->letter, c->part,
		 cape_pin_is_ain(p->idx) ? "analog in" : words + strlen(p->name) + 1);
}

/* "A BB-WTHR-01 00A2 "Weather Cape" (weather.cape), 3 pins" */
static char *cape_line(const struct pcape *c, const char *gap)
{
	int n = 0;
	char *slot = c->slot >= 0 ? xasprintf(", slot %d", c->slot) : xstrdup(""), *s;

	for (int i = 0; i < CAPE_NPINS; i++)
		n += !!c->word[i];
	s = xasprintf("%c %s%s %s \"%s\" (%s%s), %d pin%s", c->letter, gap, c->part, c->version,
		      c->name, c->source, slot, n, n == 1 ? "" : "s");
	free(slot);
	return s;
}

static void print_text(const struct view *v)
{
	for (int hdr = 0; hdr < 2; hdr++) {
		printf("%*s%sP%d%s\n", CELL + 3, "", v->color ? "\033[1m" : "", 8 + hdr,
		       v->color ? "\033[0m" : "");
		for (int row = 0; row < BOARD_HDR_ROWS; row++) {
			const struct ppin *odd = &v->pin[hdr][2 * row], *even = &v->pin[hdr][2 * row + 1];

			put_cell(v, odd, false);
			printf(" %2d %s () %-2d ", 2 * row + 1, row ? "()" : "[]", 2 * row + 2);
			put_cell(v, even, true);
			putchar('\n');
		}
		putchar('\n');
	}
}

static void print_legend(const struct view *v)
{
	struct wrap w = { 0, true };

	printf("Board %s.  Legend:\n", v->b.name);
	printf("  [] pin 1, () the others; odd pins left, even right, as on the board\n");
	printf("  = power, ground, reset   # the board's own   ~ shared cape bus   . free\n");
	printf("  A-Z a cape (below): function, mux mode mN, direction in/out/io, pull up/down\n");
	printf("  ! conflict: claimed by two capes, or by a cape and the board\n");
	if (!v->ncapes)
		printf("Capes: none\n");
	else
		printf("Capes:\n");
	for (int i = 0; i < v->ncapes; i++) {
		const struct pcape *c = &v->capes[i];
		char *s = cape_line(c, "");
		char *save = NULL, *tok;

		wrap_start(&w, "  ");
		for (tok = strtok_r(s, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
			wrap_word(&w, tok);
		wrap_end(&w);
		free(s);
	}
	if (v->nconflicts)
		printf("Conflicts:\n");
	for (int hdr = 0; hdr < 2; hdr++) {
		for (int pos = 0; pos < 2 * BOARD_HDR_ROWS; pos++) {
			const struct ppin *p = &v->pin[hdr][pos];
			char buf[160];

			if (p->kind != K_CONFLICT)
				continue;
			wrap_start(&w, "  ");
			wrap_word(&w, p->name);
			wrap_word(&w, "is claimed by");
			if (v->b.board_pin[p->idx]) {
				snprintf(buf, sizeof(buf), "the board (%s)",
					 p->h->use ? p->h->use : "board pin");
				wrap_word(&w, buf);
			}
			for (int i = 0; i < p->nclaims; i++) {
				if (i || v->b.board_pin[p->idx])
					wrap_word(&w, "and");
				claimant(v, p, i, buf, sizeof(buf));
				wrap_word(&w, buf);
			}
			wrap_end(&w);
		}
	}
}

/* ---- JSON ---- */

static void json_claim(const struct view *v, const struct ppin *p, int i)
{
	const struct pcape *c = &v->capes[p->claim[i]];
	uint16_t w = c->word[p->idx];
	char words[64];
	const char *f;

	pin_words(p->idx, w, words, sizeof(words));
	printf("{\"cape\": \"%c\", \"part_number\": ", c->letter);
	json_str(c->part);
	if (cape_pin_is_ain(p->idx)) {
		printf(", \"analog\": true");
	} else {
		f = function(p, w);
		printf(", \"mode\": %u, \"function\": ", w & CAPE_PIN_MODE_MASK);
		if (f)
			json_str(f);
		else
			printf("null");
		printf(", \"direction\": \"%s\", \"pull\": \"%s\", \"rx\": %s, \"slew\": \"%s\"",
		       dir_long[(w & CAPE_PIN_DIR_MASK) >> 13], pull_name(w),
		       (w & CAPE_PIN_RX_ENABLE) ? "true" : "false",
		       (w & CAPE_PIN_SLEW_SLOW) ? "slow" : "fast");
	}
	printf(", \"pins\": ");
	json_str(words);
	putchar('}');
}

static void print_json(const struct view *v)
{
	bool first = true;

	printf("{\"board\": ");
	json_str(v->b.name);
	printf(", \"capes\": [");
	for (int i = 0; i < v->ncapes; i++) {
		const struct pcape *c = &v->capes[i];

		printf("%s{\"cape\": \"%c\", \"part_number\": ", i ? ", " : "", c->letter);
		json_str(c->part);
		json_opt("version", c->version);
		json_opt("board_name", c->name);
		json_opt("source", c->source);
		if (c->slot >= 0)
			printf(", \"slot\": %d", c->slot);
		else
			printf(", \"slot\": null");
		putchar('}');
	}
	printf("], \"headers\": [");
	for (int hdr = 0; hdr < 2; hdr++) {
		printf("%s{\"header\": \"P%d\", \"pins\": [", hdr ? ", " : "", 8 + hdr);
		for (int pos = 0; pos < 2 * BOARD_HDR_ROWS; pos++) {
			const struct ppin *p = &v->pin[hdr][pos];
			char what[120];

			describe(v, p, what, sizeof(what));
			printf("%s\n  {\"pin\": \"%s\", \"row\": %d, \"column\": \"%s\", \"kind\": \"%s\"",
			       pos ? "," : "", p->name, pos / 2 + 1, pos % 2 ? "even" : "odd",
			       kind_names[p->kind]);
			json_opt("signal", p->idx >= 0 ? pin_name(p) : NULL);
			json_opt("fixed", p->h->fixed);
			json_opt("use", p->h->use);
			json_opt("text", what);
			printf(", \"claims\": [");
			for (int i = 0; i < p->nclaims; i++) {
				printf("%s", i ? ", " : "");
				json_claim(v, p, i);
			}
			printf("]}");
		}
		printf("]}");
	}
	printf("],\n \"conflicts\": [");
	for (int hdr = 0; hdr < 2; hdr++) {
		for (int pos = 0; pos < 2 * BOARD_HDR_ROWS; pos++) {
			const struct ppin *p = &v->pin[hdr][pos];

			if (p->kind != K_CONFLICT)
				continue;
			printf("%s{\"pin\": \"%s\", \"claimants\": [", first ? "" : ", ", p->name);
			if (v->b.board_pin[p->idx])
				printf("\"board\"%s", p->nclaims ? ", " : "");
			for (int i = 0; i < p->nclaims; i++) {
				printf("%s", i ? ", " : "");
				json_str(v->capes[p->claim[i]].part);
			}
			printf("]}");
			first = false;
		}
	}
	printf("]}\n");
}

/* ---- SVG ---- */

/*
 * Units are mils (0.001"): the pins sit on the headers' 0.1" grid.  The
 * page is drawn 3:2 (0.15" pitch) and fits A4 and Letter in landscape
 * with 0.5" margins (10 x 7.27 in); a legend too long for that at 3:2
 * makes the scale smaller, and the drawing says which.
 */
#define MIL_LABEL 1400		/* text column either side of a header */
#define MIL_PADS 200		/* the header's two columns */
#define MIL_BLOCK (MIL_LABEL + MIL_PADS + MIL_LABEL)
#define MIL_MARGIN 100
#define MIL_TOP 560		/* the first row of pins */
#define MIL_LINE 100		/* a legend line */
#define PAGE_W 10.0		/* inches: A4 and Letter landscape, 0.5" margins */
#define PAGE_H 7.27
#define SCALE 1.5
#define DEV_CHARS 50		/* a pin's device line, at most */
#define LEGEND_CHARS 140	/* a legend line, at most */

static const char *const cape_rgb[] = {
	"#2e7d32", "#1565c0", "#8e24aa", "#00838f", "#ef6c00", "#6d4c41", "#c2185b", "#558b2f",
};
#define NRGB (sizeof(cape_rgb) / sizeof(cape_rgb[0]))

/* @s, cut to @max characters (UTF-8 aware) with "..." if longer. */
static void xml_text_max(FILE *f, const char *s, size_t max)
{
	size_t chars = 0, i = 0;

	while (s[i] && chars < max) {
		i++;
		while ((s[i] & 0xc0) == 0x80)
			i++;
		chars++;
	}
	if (!s[i]) {
		xml_text(f, s);
		return;
	}
	{
		char *cut = xasprintf("%.*s...", (int)i, s);

		xml_text(f, cut);
		free(cut);
	}
}

static void pad_style(const struct ppin *p, const char **fill, const char **stroke)
{
	*stroke = "#333";
	*fill = "#fff";
	switch (p->kind) {
	case K_FIXED: *fill = "#222"; break;
	case K_BOARD: *fill = "#9e9e9e"; break;
	case K_SHARED: *fill = "#fdd835"; break;
	case K_FREE: *fill = "#fff"; break;
	case K_CAPE: *fill = cape_rgb[p->claim[0] % NRGB]; break;
	case K_CONFLICT: *fill = "#d50000"; *stroke = "#d50000"; break;
	}
}

/* The devices the capes put on a pin: "tmp105@48", or "A: x; B: y" for several capes. */
static char *pin_devices(const struct view *v, const struct ppin *p)
{
	char *s = NULL;

	for (int i = 0; p->idx >= 0 && i < p->nclaims; i++) {
		const struct pcape *c = &v->capes[p->claim[i]];
		char *e;

		if (!c->pindevs[p->idx])
			continue;
		e = p->nclaims > 1 ? xasprintf("%c: %s", c->letter, c->pindevs[p->idx])
				   : xstrdup(c->pindevs[p->idx]);
		str_append(&s, "; ", e);
		free(e);
	}
	return s;
}

static void svg_pin(FILE *f, const struct view *v, const struct ppin *p, int x0, int y0, int pos)
{
	int row = pos / 2, odd = !(pos % 2);
	int cx = x0 + MIL_LABEL + (odd ? 50 : 150), cy = y0 + row * 100 + 50;
	int tx = odd ? x0 + MIL_LABEL - 30 : x0 + MIL_LABEL + MIL_PADS + 30;
	const char *fill, *stroke, *klass = kind_names[p->kind];
	char t[CELL + 8], who[80], *devs = pin_devices(v, p);

	pad_style(p, &fill, &stroke);
	cell(v, p, t, sizeof(t));
	letters(v, p, who, sizeof(who));
	/* the pad's colour says what the terminal's mark says */
	if (p->kind != K_CAPE)
		memmove(t, t + 2, strlen(t + 2) + 1);
	fprintf(f, "<g id=\"%s\" class=\"pin %s\" data-capes=\"%s\">\n<title>", p->name, klass, who);
	xml_text(f, p->name);
	fputc(' ', f);
	xml_text(f, t);
	if (devs) {
		fputs(": ", f);
		xml_text(f, devs);
	}
	fprintf(f, "</title>\n");
	if (p->kind == K_CAPE || p->kind == K_CONFLICT) {
		/* the label's background: the cape's colour, or red */
		int bx = odd ? x0 + 40 : x0 + MIL_LABEL + MIL_PADS + 20;

		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"88\" rx=\"12\" fill=\"%s\" "
			"fill-opacity=\"%s\"/>\n", bx, cy - 44, MIL_LABEL - 60, fill,
			p->kind == K_CONFLICT ? "0.85" : "0.18");
	}
	if (pos == 0)
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"64\" height=\"64\" fill=\"%s\" "
			"stroke=\"%s\" stroke-width=\"8\"/>\n", cx - 32, cy - 32, fill, stroke);
	else
		fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"32\" fill=\"%s\" stroke=\"%s\" "
			"stroke-width=\"8\"/>\n", cx, cy, fill, stroke);
	if (p->kind == K_CONFLICT)
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"60\" font-weight=\"bold\" fill=\"#fff\" "
			"text-anchor=\"middle\">!</text>\n", cx, cy + 21);
	/* the pin's use; below it, smaller, the devices on it */
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"54\" text-anchor=\"%s\"%s fill=\"%s\">",
		tx, devs ? cy - 4 : cy + 18, odd ? "end" : "start",
		p->kind == K_CONFLICT ? " font-weight=\"bold\"" : "",
		p->kind == K_CONFLICT ? "#fff" : p->kind == K_BOARD ? "#757575" : "#111");
	xml_text(f, t);
	fprintf(f, " <tspan font-size=\"40\" fill=\"%s\">%d</tspan></text>\n",
		p->kind == K_CONFLICT ? "#fff" : "#757575", pos + 1);
	if (devs) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"38\" font-style=\"italic\" "
			"text-anchor=\"%s\" fill=\"%s\">", tx, cy + 36, odd ? "end" : "start",
			p->kind == K_CONFLICT ? "#fff" : "#333");
		xml_text_max(f, devs, DEV_CHARS);
		fprintf(f, "</text>\n");
	}
	fprintf(f, "</g>\n");
	free(devs);
}

static void svg_swatch(FILE *f, int x, int y, const char *fill, const char *text)
{
	fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"30\" fill=\"%s\" stroke=\"#333\" "
		"stroke-width=\"8\"/>\n<text x=\"%d\" y=\"%d\" font-size=\"54\">", x + 32, y - 18,
		fill, x + 90, y);
	xml_text(f, text);
	fprintf(f, "</text>\n");
}

/* A legend entry: @text on as many lines as it needs, words kept whole. */
struct legend_line { char *text; const char *fill; bool red, bold, indent; };

static void legend_add(struct legend_line **l, size_t *n, const char *text, const char *fill,
		       bool red, bool bold)
{
	const char *s = text;
	bool first = true;

	while (*s) {
		size_t len = strlen(s), cut = len;

		if (len > LEGEND_CHARS) {
			cut = LEGEND_CHARS;
			while (cut > 20 && s[cut] != ' ')
				cut--;
		}
		*l = xrealloc(*l, (*n + 1) * sizeof(**l));
		(*l)[*n].text = xasprintf("%.*s", (int)cut, s);
		(*l)[*n].indent = !first || (!fill && red && !bold);
		(*l)[*n].fill = first ? fill : NULL;
		(*l)[*n].red = red;
		(*l)[*n].bold = bold;
		(*n)++;
		s += cut;
		while (*s == ' ')
			s++;
		first = false;
	}
}

static int write_svg(const struct view *v, const char *path)
{
	int width = 2 * MIL_BLOCK + 3 * MIL_MARGIN, bottom = MIL_TOP + BOARD_HDR_ROWS * 100;
	int legend_y = bottom + 330, height, y;
	double scale, w_in, h_in;
	/*
	 * Drawn in memory, then written as every other output is (write_file):
	 * a device, FIFO or symlink is written through, not replaced, and a
	 * failed write is exit 4.
	 */
	char *mem = NULL;
	size_t memlen = 0;
	FILE *f = open_memstream(&mem, &memlen);
	static const int order[2] = { 1, 0 };	/* P9 left, P8 right, as on the board */
	struct legend_line *lines = NULL;
	size_t nlines = 0;

	if (!f) {
		err("out of memory");
		return EXIT_FAIL;
	}
	/* the legend's lines: capes, their devices, conflicts */
	legend_add(&lines, &nlines, "A-Z: a cape, then the pin's function, mux mode mN, direction "
		   "in/out/io, pull up/down; below it, the devices the cape puts on the pin",
		   NULL, false, false);
	for (int i = 0; i < v->ncapes; i++) {
		const struct pcape *c = &v->capes[i];
		char *s = cape_line(c, " "), *all;

		all = c->devices ? xasprintf("%s: %s", s, c->devices) : xstrdup(s);
		legend_add(&lines, &nlines, all, cape_rgb[i % NRGB], false, false);
		free(all);
		free(s);
	}
	if (v->nconflicts)
		legend_add(&lines, &nlines, "Conflicts:", NULL, true, true);
	for (int hdr = 0; hdr < 2; hdr++) {
		for (int pos = 0; pos < 2 * BOARD_HDR_ROWS; pos++) {
			const struct ppin *p = &v->pin[hdr][pos];
			char buf[160], *s;

			if (p->kind != K_CONFLICT)
				continue;
			s = xasprintf("%s is claimed by", p->name);
			if (v->b.board_pin[p->idx]) {
				char *n = xasprintf("%s the board (%s)", s,
						    p->h->use ? p->h->use : "board pin");

				free(s);
				s = n;
			}
			for (int i = 0; i < p->nclaims; i++) {
				char *n;

				claimant(v, p, i, buf, sizeof(buf));
				n = xasprintf("%s%s%s", s, i || v->b.board_pin[p->idx] ? " and " : " ", buf);
				free(s);
				s = n;
			}
			legend_add(&lines, &nlines, s, NULL, true, false);
			free(s);
		}
	}
	height = legend_y + (int)(nlines + 1) * MIL_LINE + MIL_MARGIN;
	/* 3:2, or smaller if the page would not hold it */
	scale = SCALE;
	if (scale * width / 1000.0 > PAGE_W)
		scale = PAGE_W * 1000.0 / width;
	if (scale * height / 1000.0 > PAGE_H)
		scale = PAGE_H * 1000.0 / height;
	w_in = scale * width / 1000.0;
	h_in = scale * height / 1000.0;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.3fin\" height=\"%.3fin\" "
		"viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans Mono, monospace\">\n"
		"<title>capetool pinout: board ", w_in, h_in, width, height);
	xml_text(f, v->b.name);
	fprintf(f, "</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", width, height);
	fprintf(f, "<text x=\"%d\" y=\"130\" font-size=\"76\" font-weight=\"bold\">Board ",
		MIL_MARGIN);
	xml_text(f, v->b.name);
	fprintf(f, ": headers P9 and P8 seen from above</text>\n"
		"<text x=\"%d\" y=\"225\" font-size=\"48\" fill=\"#555\">Print landscape on A4 or "
		"Letter at 100%% (%.2f x %.2f in): the 0.1\" pitch drawn %g:1.  Odd pins in the "
		"left column, even in the right; pin 1 square.</text>\n",
		MIL_MARGIN, w_in, h_in, scale);
	/* which end is which, as the board's silkscreen numbers the pins */
	fprintf(f, "<g id=\"orientation\" font-size=\"50\" fill=\"#333\" text-anchor=\"middle\">\n"
		"<text x=\"%d\" y=\"%d\">&#9650; pins 1 and 2: the end with the Ethernet and 5 V "
		"jacks, where a cape has its notch &#9650;</text>\n"
		"<text x=\"%d\" y=\"%d\">&#9660; pins 45 and 46: the other end, the USB host "
		"end &#9660;</text>\n",
		width / 2, MIL_TOP - 150, width / 2, bottom + 110);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"40\" fill=\"none\" "
		"stroke=\"#bbb\" stroke-width=\"6\" stroke-dasharray=\"30 20\"/>\n</g>\n",
		MIL_MARGIN / 2, MIL_TOP - 110, width - MIL_MARGIN, bottom - MIL_TOP + 160);
	for (int k = 0; k < 2; k++) {
		int hdr = order[k], x0 = MIL_MARGIN + k * (MIL_BLOCK + MIL_MARGIN);

		fprintf(f, "<g id=\"P%d\">\n<text x=\"%d\" y=\"%d\" font-size=\"72\" "
			"font-weight=\"bold\" text-anchor=\"middle\">P%d</text>\n", 8 + hdr,
			x0 + MIL_LABEL + MIL_PADS / 2, MIL_TOP - 30, 8 + hdr);
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#424242\" "
			"rx=\"10\"/>\n", x0 + MIL_LABEL, MIL_TOP, MIL_PADS, BOARD_HDR_ROWS * 100);
		for (int pos = 0; pos < 2 * BOARD_HDR_ROWS; pos++)
			svg_pin(f, v, &v->pin[hdr][pos], x0, MIL_TOP, pos);
		fprintf(f, "</g>\n");
	}
	y = legend_y;
	fprintf(f, "<g id=\"legend\">\n");
	svg_swatch(f, MIL_MARGIN, y, "#222", "power, ground, reset");
	svg_swatch(f, MIL_MARGIN + 1500, y, "#9e9e9e", "the board's own");
	svg_swatch(f, MIL_MARGIN + 3000, y, "#fdd835", "shared cape bus");
	svg_swatch(f, MIL_MARGIN + 4500, y, "#fff", "free");
	svg_swatch(f, MIL_MARGIN + 5200, y, "#d50000", "conflict");
	for (size_t i = 0; i < nlines; i++) {
		y += MIL_LINE;
		if (lines[i].fill) {
			svg_swatch(f, MIL_MARGIN, y, lines[i].fill, lines[i].text);
		} else {
			fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"54\"%s%s>",
				MIL_MARGIN + (lines[i].indent ? 180 : 90), y,
				lines[i].red ? " fill=\"#d50000\"" : "",
				lines[i].bold ? " font-weight=\"bold\"" : "");
			xml_text(f, lines[i].text);
			fprintf(f, "</text>\n");
		}
		free(lines[i].text);
	}
	free(lines);
	fprintf(f, "</g>\n</svg>\n");
	return memstream_write(f, &mem, &memlen, path);
}

/* ---- the command ---- */

/*
 * auto: a terminal that can show colour (TERM set, and not "dumb"), and
 * NO_COLOR unset or empty (no-color.org).
 */
bool pinout_want_color(const char *when)
{
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

	if (when && !strcmp(when, "always"))
		return true;
	if (when && !strcmp(when, "never"))
		return false;
	return isatty(STDOUT_FILENO) && !(nc && *nc) && term && *term && strcmp(term, "dumb");
}

int cmd_pinout(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "board", required_argument, NULL, 'b' },
		{ "variant", required_argument, NULL, OPT_VARIANT },
		{ "live", no_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'j' },
		{ "svg", required_argument, NULL, 'S' },
		{ "color", optional_argument, NULL, 'c' },
		{ "colour", optional_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *boardname = NULL, *variant = NULL, *svg = NULL, *when = "auto";
	bool live = false, json = false;
	struct view *v;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "b:ljh", opts, NULL)) != -1) {
		switch (c) {
		case 'b': boardname = optarg; break;
		case OPT_VARIANT:
			if (opt_variant(&variant, optarg))
				return EXIT_USAGE;
			break;
		case 'l': live = true; break;
		case 'j': json = true; break;
		case 'S': svg = optarg; break;
		case 'c':
			when = optarg ? optarg : "always";
			if (strcmp(when, "auto") && strcmp(when, "always") && strcmp(when, "never")) {
				err("--color: auto, always or never, not \"%s\"", when);
				return EXIT_USAGE;
			}
			break;
		case 'h': fputs(usage_text, stdout); return EXIT_OK;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	/* no capes at all: the board's blank header map */
	for (int i = optind, n = 0; i < argc; i++)
		if (is_stdio(argv[i]) && ++n == 2) {
			err("- (standard input) given twice: it holds one definition or image");
			return EXIT_USAGE;
		}
	if (svg && !*svg) {
		err("--svg: an empty file name");
		return EXIT_USAGE;
	}
	if (svg && is_stdio(svg) && json) {
		err("--svg - and --json: only one of them can go to standard output");
		return EXIT_USAGE;
	}
	/* HATs: --board rpi, or (no board named) HAT settings or images given */
	{
		int nhat = 0, first = -1;
		bool rpi = boardname && board_is_rpi(boardname);

		for (int i = optind; i < argc; i++) {
			char *p;
			int a;

			if (hat_arg(argv[i], &p, &a))
				return EXIT_USAGE;
			if (a >= 0 || hat_input_kind(p)) {
				nhat++;
				first = first < 0 ? i : first;
			}
			free(p);
		}
		if (nhat && !rpi && (boardname || nhat != argc - optind)) {
			err("%s is a Raspberry Pi HAT (settings or image): HATs are drawn on a Raspberry Pi's header (--board rpi), apart from capes",
			    in_name(argv[first]));
			return EXIT_USAGE;
		}
		if (rpi || (nhat && nhat == argc - optind)) {
			if (live || variant) {
				err("%s: a Raspberry Pi header's pinout draws HAT files (no --live, no variants)",
				    live ? "--live" : "--variant");
				return EXIT_USAGE;
			}
			return pinout_rpi(boardname, argv + optind, argc - optind, json, svg,
					  pinout_want_color(when));
		}
	}
	v = xcalloc(1, sizeof(*v));
	rc = board_load(boardname, &v->b);
	if (!rc && (rc = board_apply_variants(&v->b, variant)))
		board_free(&v->b);
	if (rc) {
		free(v);
		return rc;
	}
	if (live)
		rc = load_live(v);
	for (int i = optind; i < argc && !rc; i++)
		rc = load_file(v, argv[i]);
	if (!rc) {
		v->color = !json && pinout_want_color(when);
		classify(v);
		if (svg)
			rc = write_svg(v, svg);
	}
	if (!rc) {
		if (svg && is_stdio(svg)) {
			;	/* standard output carries the SVG */
		} else if (json) {
			print_json(v);
		} else {
			print_text(v);
			print_legend(v);
		}
		rc = v->nconflicts ? EXIT_CONFLICT : EXIT_OK;
	}
	for (int i = 0; i < v->ncapes; i++) {
		free(v->capes[i].part);
		free(v->capes[i].version);
		free(v->capes[i].name);
		free(v->capes[i].source);
		free(v->capes[i].devices);
		for (int k = 0; k < CAPE_NPINS; k++)
			free(v->capes[i].pindevs[k]);
	}
	board_free(&v->b);
	free(v);
	return rc;
}
