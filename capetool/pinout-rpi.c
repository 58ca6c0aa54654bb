// SPDX-License-Identifier: GPL-2.0
/*
 * capetool pinout --board rpi: the Raspberry Pi 40-pin header as Pi users
 * know it (pinout.xyz, the `pinout` command): two columns, pin 1 (3V3) top
 * left, odd pins left and even right, GPIOs by BCM number; power, ground
 * and the ID EEPROM's bus (ID_SD/ID_SC) marked; each GPIO a HAT's map
 * claims with the HAT and its function (input, output, ALTn and the
 * signal it selects, pull), and each its overlay holds with the unit (or
 * exclusive-use), as check stacks them (hat-stack.c).  The header's facts
 * come from the board profile (board-rpi.c).  Output: text in 80 columns,
 * JSON, or SVG.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capetool.h"
#include "hat.h"

#define MAX_HATS 8		/* four ID EEPROM addresses; more drawn all the same */
#define RCELL 33		/* text columns either side of the pins */

enum rkind { R_FIXED, R_PI, R_FREE, R_HAT, R_CONFLICT };
static const char *const rkind_names[] = { "fixed", "board", "free", "hat", "conflict" };
static const char rkind_marks[] = { '=', '#', '.', 0, '!' };

struct rpos {
	const struct rpi_pin *p;
	enum rkind kind;
	int claim[MAX_HATS], nclaims;
};

struct rview {
	struct rpi_board b;
	struct hat_use hat[MAX_HATS];
	int nhats, nconflicts;
	struct rpos pos[RPI_HDR_PINS];
	bool color;
};

static void classify(struct rview *v)
{
	for (int i = 0; i < RPI_HDR_PINS; i++) {
		struct rpos *r = &v->pos[i];
		int g = v->b.pin[i].gpio;

		r->p = &v->b.pin[i];
		r->nclaims = 0;
		if (g < 0) {
			r->kind = R_FIXED;
			continue;
		}
		bool clash = false;

		/* a GPIO its map claims, or its overlay holds */
		for (int h = 0; h < v->nhats; h++) {
			if (!(v->hat[h].pins[g] & RPI_HAT_PIN_USED) &&
			    !(hat_overlay_held(&v->b, &v->hat[h].ov) >> g & 1))
				continue;
			for (int k = 0; k < r->nclaims; k++)
				clash |= hat_uses_clash(&v->b, &v->hat[h], &v->hat[r->claim[k]], g);
			r->claim[r->nclaims++] = h;
		}
		if (r->p->use)
			r->kind = r->nclaims ? R_CONFLICT : R_PI;
		else
			r->kind = clash ? R_CONFLICT : r->nclaims ? R_HAT : R_FREE;
		v->nconflicts += r->kind == R_CONFLICT;
	}
}

/* The signal a pin byte's function selects on the pin ("PWM0"), or NULL. */
static const char *signal_of(const struct rpi_pin *p, uint8_t pin)
{
	int alt = rpi_alt_of_func(pin);

	return alt < 0 ? NULL : p->alt[alt];
}

static const char *pull_words(uint8_t pin)
{
	static const char *const w[4] = { "", "pull-up", "pull-down", "no-pull" };

	return w[(pin & RPI_HAT_PIN_PULL_MASK) >> RPI_HAT_PIN_PULL_SHIFT];
}

/* "in", "out" or "ALT5 PWM0", then the pull: what a HAT sets a GPIO to. */
static void function_words(const struct rpi_pin *p, uint8_t pin, char *out, size_t n)
{
	int f = pin & RPI_HAT_PIN_FUNC_MASK;
	const char *sig = signal_of(p, pin), *pull = pull_words(pin);

	snprintf(out, n, "%s%s%s%s%s",
		 f == RPI_HAT_PIN_FUNC_INPUT ? "in" : f == RPI_HAT_PIN_FUNC_OUTPUT ? "out"
										: hat_func_name(pin),
		 sig ? " " : "", sig ? sig : "", *pull ? " " : "", pull);
}

/* What the position is, without the marks. */
static void describe(const struct rview *v, const struct rpos *r, char *out, size_t n)
{
	char fw[64];

	switch (r->kind) {
	case R_FIXED:
		snprintf(out, n, "%s", r->p->fixed);
		return;
	case R_PI:
		snprintf(out, n, "GPIO%d %s", r->p->gpio, r->p->use);
		return;
	case R_FREE:
		snprintf(out, n, "GPIO%d%s%s", r->p->gpio, r->p->alt[0] ? " " : "",
			 r->p->alt[0] ? r->p->alt[0] : "");
		return;
	case R_CONFLICT:
		snprintf(out, n, "CONFLICT GPIO%d%s%s", r->p->gpio, r->p->use ? " " : "",
			 r->p->use ? r->p->use : "");
		return;
	case R_HAT:
		if (v->hat[r->claim[0]].pins[r->p->gpio] & RPI_HAT_PIN_USED)
			function_words(r->p, v->hat[r->claim[0]].pins[r->p->gpio], fw, sizeof(fw));
		else		/* its overlay's: the unit, or exclusive-use */
			snprintf(fw, sizeof(fw), "%s",
				 hat_use_holder(&v->b, &v->hat[r->claim[0]], r->p->gpio));
		snprintf(out, n, "GPIO%d %s", r->p->gpio, fw);
		return;
	}
}

static void letters(const struct rpos *r, char *out, size_t n)
{
	size_t o = (size_t)snprintf(out, n, "%s", r->kind == R_CONFLICT && r->p->use ? "Pi+" : "");

	for (int i = 0; i < r->nclaims && o + 3 < n; i++) {
		out[o++] = (char)('A' + r->claim[i]);
		if (i + 1 < r->nclaims)
			out[o++] = '+';
		out[o] = 0;
	}
}

static void cell(const struct rview *v, const struct rpos *r, char *out, size_t n)
{
	char who[24], what[96], all[160];

	describe(v, r, what, sizeof(what));
	letters(r, who, sizeof(who));
	if (r->kind == R_HAT || r->kind == R_CONFLICT)
		snprintf(all, sizeof(all), "%s%s %s", r->kind == R_CONFLICT ? "! " : "", who, what);
	else
		snprintf(all, sizeof(all), "%c %s", rkind_marks[r->kind], what);
	snprintf(out, n, "%.*s", RCELL, all);
}

/* ---- text ---- */

static const char *sgr_of(const struct rpos *r)
{
	static const char *const hat_sgr[] = { "32", "34", "35", "36" };

	switch (r->kind) {
	case R_FIXED: return "1";
	case R_PI: return "33";
	case R_FREE: return NULL;
	case R_CONFLICT: return "1;97;41";
	case R_HAT: return hat_sgr[r->claim[0] % 4];
	}
	return NULL;
}

static void put_cell(const struct rview *v, const struct rpos *r, bool left)
{
	char t[RCELL + 8];
	const char *c = v->color ? sgr_of(r) : NULL;

	cell(v, r, t, sizeof(t));
	if (left)
		printf("%*s", RCELL - (int)strlen(t), "");
	printf("%s%s%s%s", c ? "\033[" : "", c ? c : "", c ? "m" : "", t);
	if (c)
		printf("\033[0m");
}

static char *hat_line(const struct rview *v, int h)
{
	const struct hat_use *u = &v->hat[h];
	int on = 0, off = 0;
	char offs[48] = "";
	const char *base;

	for (int g = 0; g < HAT_GPIO_TOTAL; g++) {
		if (!(u->pins[g] & RPI_HAT_PIN_USED) && !(hat_overlay_held(&v->b, &u->ov) >> g & 1))
			continue;
		if (v->b.pin_of_gpio[g])
			on++;
		else
			off++;
	}
	if (off)
		snprintf(offs, sizeof(offs), ", %d off the header (bank 1)", off);
	base = strrchr(u->file, '/');
	return xasprintf("%c %s \"%s\" by %s (%s) at 0x%02x, %d GPIO%s%s", 'A' + h,
			 u->version == RPI_HAT_VERSION_1 ? "HAT" : "HAT+", u->product, u->vendor,
			 base ? base + 1 : u->file, u->addr, on, on == 1 ? "" : "s", offs);
}

static char *conflict_line(const struct rview *v, const struct rpos *r)
{
	char *s = xasprintf("pin %d GPIO%d is claimed by%s%s%s", (int)(r->p - v->b.pin) + 1,
			    r->p->gpio, r->p->use ? " the Pi (" : "", r->p->use ? r->p->use : "",
			    r->p->use ? ")" : "");

	for (int i = 0; i < r->nclaims; i++) {
		const struct hat_use *u = &v->hat[r->claim[i]];
		uint8_t pin = u->pins[r->p->gpio];
		const char *how = hat_use_holder(&v->b, u, r->p->gpio);
		char *n = how ? xasprintf("%s%s %c \"%s\" (its overlay's %s)", s, i || r->p->use ? " and" : "",
					  'A' + r->claim[i], u->product, how)
			      : xasprintf("%s%s %c \"%s\" (%s %s)", s, i || r->p->use ? " and" : "",
					  'A' + r->claim[i], u->product, hat_func_name(pin), hat_pull_name(pin));

		free(s);
		s = n;
	}
	return s;
}

/* A legend line (malloc'ed, freed here) in 80 columns. */
static void print_wrapped(char *s)
{
	struct wrap w = { 0, true };
	char *save = NULL;

	wrap_start(&w, "  ");
	for (char *t = strtok_r(s, " ", &save); t; t = strtok_r(NULL, " ", &save))
		wrap_word(&w, t);
	wrap_end(&w);
	free(s);
}

static void print_text(const struct rview *v)
{
	printf("%*s%s%s%s\n", RCELL - 6, "", v->color ? "\033[1m" : "",
	       "Raspberry Pi 40-pin header", v->color ? "\033[0m" : "");
	for (int row = 0; row < RPI_HDR_PINS / 2; row++) {
		put_cell(v, &v->pos[2 * row], true);
		printf(" %2d %s () %-2d ", 2 * row + 1, row ? "()" : "[]", 2 * row + 2);
		put_cell(v, &v->pos[2 * row + 1], false);
		putchar('\n');
	}
	printf("\nBoard %s.  Legend:\n", v->b.name);
	printf("  [] pin 1 (3V3), () the others; odd pins left, even right, as pinout.xyz\n");
	printf("  = power, ground   # the Pi's own (ID EEPROM bus, console)   . free (ALT0)\n");
	printf("  A-Z a HAT (below): GPIO (BCM), in/out/ALTn and the signal, pull\n");
	printf("  ! conflict: claimed by two HATs, or by a HAT and the Pi\n");
	printf("HATs:%s\n", v->nhats ? "" : " none");
	for (int h = 0; h < v->nhats; h++)
		print_wrapped(hat_line(v, h));
	if (v->nconflicts)
		printf("Conflicts:\n");
	for (int i = 0; i < RPI_HDR_PINS; i++)
		if (v->pos[i].kind == R_CONFLICT)
			print_wrapped(conflict_line(v, &v->pos[i]));
}

/* ---- JSON ---- */

static void print_json(const struct rview *v)
{
	bool first = true;

	printf("{\"board\": ");
	json_str(v->b.name);
	printf(", \"hats\": [");
	for (int h = 0; h < v->nhats; h++) {
		const struct hat_use *u = &v->hat[h];

		printf("%s{\"hat\": \"%c\", \"format\": \"%s\", \"version\": %d, \"product\": ",
		       h ? ", " : "", 'A' + h, u->version == RPI_HAT_VERSION_1 ? "HAT" : "HAT+",
		       u->version);
		json_str(u->product);
		json_opt("vendor", u->vendor);
		json_opt("source", u->file);
		printf(", \"address\": %d}", u->addr);
	}
	printf("], \"header\": [");
	for (int i = 0; i < RPI_HDR_PINS; i++) {
		const struct rpos *r = &v->pos[i];
		char what[96];

		describe(v, r, what, sizeof(what));
		printf("%s\n  {\"pin\": %d, \"row\": %d, \"column\": \"%s\", \"kind\": \"%s\", \"gpio\": ",
		       i ? "," : "", i + 1, i / 2 + 1, i % 2 ? "even" : "odd", rkind_names[r->kind]);
		if (r->p->gpio >= 0)
			printf("%d", r->p->gpio);
		else
			printf("null");
		json_opt("fixed", r->p->fixed);
		json_opt("use", r->p->use);
		printf(", \"alt\": ");
		if (r->p->gpio < 0) {
			printf("null");
		} else {
			for (int k = 0; k < 6; k++) {
				printf("%s", k ? ", " : "[");
				if (r->p->alt[k])
					json_str(r->p->alt[k]);
				else
					printf("null");
			}
			putchar(']');
		}
		printf(", \"text\": ");
		json_str(what);
		printf(", \"claims\": [");
		for (int c = 0; c < r->nclaims; c++) {
			uint8_t pin = v->hat[r->claim[c]].pins[r->p->gpio];
			const char *how = hat_use_holder(&v->b, &v->hat[r->claim[c]], r->p->gpio);

			if (how) {	/* its overlay's */
				printf("%s{\"hat\": \"%c\", \"overlay\": ", c ? ", " : "", 'A' + r->claim[c]);
				json_str(how);
				putchar('}');
				continue;
			}
			printf("%s{\"hat\": \"%c\", \"function\": \"%s\"", c ? ", " : "",
			       'A' + r->claim[c], hat_func_name(pin));
			json_opt("signal", signal_of(r->p, pin));
			printf(", \"pull\": \"%s\", \"byte\": %u}", hat_pull_name(pin), pin);
		}
		printf("]}");
	}
	printf("],\n \"conflicts\": [");
	for (int i = 0; i < RPI_HDR_PINS; i++) {
		const struct rpos *r = &v->pos[i];

		if (r->kind != R_CONFLICT)
			continue;
		printf("%s{\"pin\": %d, \"gpio\": %d, \"claimants\": [%s", first ? "" : ", ", i + 1,
		       r->p->gpio, r->p->use ? "\"board\"" : "");
		for (int c = 0; c < r->nclaims; c++) {
			printf("%s", c || r->p->use ? ", " : "");
			json_str(v->hat[r->claim[c]].product);
		}
		printf("]}");
		first = false;
	}
	printf("]}\n");
}

/* ---- SVG: mils, the 0.1" pitch drawn 1.5:1 ---- */

static const char *fill_of(const struct rpos *r)
{
	static const char *const hat_rgb[] = { "#2e7d32", "#1565c0", "#8e24aa", "#00838f" };

	switch (r->kind) {
	case R_FIXED: return r->p->fixed && strstr(r->p->fixed, "Ground") ? "#222" : "#c62828";
	case R_PI: return "#fdd835";
	case R_FREE: return "#fff";
	case R_CONFLICT: return "#d50000";
	case R_HAT: return hat_rgb[r->claim[0] % 4];
	}
	return "#fff";
}

static void svg_text(FILE *f, int x, int y, int size, const char *anchor, const char *s)
{
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"%s\">", x, y, size, anchor);
	xml_text(f, s);
	fprintf(f, "</text>\n");
}

static int write_svg(const struct rview *v, const char *path)
{
	const int label = 1500, pads = 200, top = 400, w = 2 * label + pads + 200;
	int lines = 5 + v->nhats + (v->nconflicts ? 1 + v->nconflicts : 0);
	int h = top + RPI_HDR_PINS / 2 * 100 + 150 + lines * 90, x0 = 100 + label;
	char *mem = NULL;
	size_t memlen = 0;
	FILE *f = open_memstream(&mem, &memlen);

	if (!f) {
		err("out of memory");
		return EXIT_FAIL;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.3fin\" height=\"%.3fin\" "
		"viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans Mono, monospace\">\n<title>capetool pinout: board ",
		1.5 * w / 1000.0, 1.5 * h / 1000.0, w, h);
	xml_text(f, v->b.name);
	fprintf(f, "</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", w, h);
	svg_text(f, w / 2, 130, 72, "middle", "Raspberry Pi 40-pin header, seen from above");
	svg_text(f, w / 2, 250, 44, "middle", "pin 1 (3V3, square) top left: odd pins left, even right, GPIOs by BCM number");
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#424242\" rx=\"10\"/>\n",
		x0, top, pads, RPI_HDR_PINS / 2 * 100);
	for (int i = 0; i < RPI_HDR_PINS; i++) {
		const struct rpos *p = &v->pos[i];
		bool odd = !(i % 2);
		int cx = x0 + (odd ? 50 : 150), cy = top + i / 2 * 100 + 50;
		char t[RCELL + 8], who[24];

		cell(v, p, t, sizeof(t));
		letters(p, who, sizeof(who));
		fprintf(f, "<g id=\"pin%d\" class=\"pin %s\" data-hats=\"%s\">\n", i + 1,
			rkind_names[p->kind], who);
		if (i == 0)
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"64\" height=\"64\" fill=\"%s\" stroke=\"#333\" stroke-width=\"8\"/>\n",
				cx - 32, cy - 32, fill_of(p));
		else
			fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"32\" fill=\"%s\" stroke=\"#333\" stroke-width=\"8\"/>\n",
				cx, cy, fill_of(p));
		{
			char *s = xasprintf(odd ? "%s  %d" : "%2$d  %1$s", t, i + 1);

			svg_text(f, odd ? x0 - 30 : x0 + pads + 30, cy + 18, 54, odd ? "end" : "start", s);
			free(s);
		}
		fprintf(f, "</g>\n");
	}
	{
		int y = top + RPI_HDR_PINS / 2 * 100 + 150;

		fprintf(f, "<g id=\"legend\">\n");
		svg_text(f, 100, y, 50, "start", "= power (red), ground (black)   # the Pi's own: ID EEPROM bus, console (yellow)   . free");
		svg_text(f, 100, y += 90, 50, "start", "A-Z: a HAT, the GPIO's function (in, out, ALTn and its signal), pull");
		svg_text(f, 100, y += 90, 50, "start", "! conflict (red): claimed by two HATs, or by a HAT and the Pi");
		svg_text(f, 100, y += 90, 50, "start", v->nhats ? "HATs:" : "HATs: none");
		for (int k = 0; k < v->nhats; k++) {
			char *s = hat_line(v, k);

			svg_text(f, 160, y += 90, 50, "start", s);
			free(s);
		}
		if (v->nconflicts)
			svg_text(f, 100, y += 90, 50, "start", "Conflicts:");
		for (int i = 0; i < RPI_HDR_PINS; i++) {
			char *s;

			if (v->pos[i].kind != R_CONFLICT)
				continue;
			s = conflict_line(v, &v->pos[i]);
			svg_text(f, 160, y += 90, 50, "start", s);
			free(s);
		}
		fprintf(f, "</g>\n</svg>\n");
	}
	return memstream_write(f, &mem, &memlen, path);
}

int pinout_rpi(const char *board, char *const *files, int n, bool json, const char *svg,
	       bool color)
{
	struct rview *v = xcalloc(1, sizeof(*v));
	int rc = rpi_board_load(board, &v->b);

	if (!rc && n > MAX_HATS) {
		err("%d HATs: pinout draws at most %d", n, MAX_HATS);
		rc = EXIT_USAGE;
	}
	for (int i = 0; !rc && i < n; i++) {
		rc = hat_use_load(files[i], 0, &v->hat[i]);
		v->nhats++;
		/* its overlay's pins too; one the kernel refuses, refused here */
		if (!rc && !(rc = hat_use_overlay(&v->b, &v->hat[i])) && v->hat[i].ov_why) {
			err("%s: its overlay (%s): %s", v->hat[i].file, v->hat[i].ov.file, v->hat[i].ov_why);
			rc = EXIT_DEF;
		}
	}
	if (!rc) {
		v->color = !json && color;
		classify(v);
		if (svg)
			rc = write_svg(v, svg);
	}
	if (!rc) {
		if (svg && is_stdio(svg))
			;	/* standard output carries the SVG */
		else if (json)
			print_json(v);
		else
			print_text(v);
		rc = v->nconflicts ? EXIT_CONFLICT : EXIT_OK;
	}
	for (int i = 0; i < v->nhats; i++)
		hat_use_free(&v->hat[i]);
	if (v->b.name)
		rpi_board_free(&v->b);
	free(v);
	return rc;
}
