// SPDX-License-Identifier: GPL-2.0
/*
 * capetool check: validate definitions without writing anything and, as
 * the kernel would with the capes in slots 0, 1, ... in the order given,
 * report pin conflicts and power over budget in the kernel's own words.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capetool.h"
#include "hat.h"

static const char usage_text[] =
	"usage: capetool check DEF... [--board B [--variant V]] [--dtb BOARD.dtb] [--quiet]\n"
	"       capetool check HAT[@ADDR]... [--board rpi] [--hat-version N] [--quiet]\n"
	"\n"
	"Validate cape definitions (schema, header pins, devices against the board\n"
	"profile) without writing anything (DEF \"-\" is standard input).  The\n"
	"definitions are then taken as the capes of slots 0, 1, ... in the order\n"
	"given, and pin conflicts and power over budget are reported in the words\n"
	"the kernel uses, e.g.\n"
	"  pin P8.13 is held by BB-WTHR-01 (slot 0)\n"
	"  i2c2 address 0x68 is held by EXL-RTC-01 (slot 1)\n"
	"  vdd-3v3b over budget: needs 150 mA, 200 of 250 mA in use\n"
	"Capes with devices on one I2C or SPI bus share its pins, muxed alike, each\n"
	"at its own address or chip select.  An escape-hatch overlay is checked as\n"
	"the devices are: its GPIOs declared pins, the buses it enables their pins.\n"
	"A bus a cape enables needs its pins muxed for it, the receiver on where the\n"
	"bus reads (I2C SCL/SDA, SPI SCLK/D0, UART and CAN receive, McASP clocks).\n"
	"The board's shared cape bus pins (I2C2, P9.19/P9.20 on the bone) may be\n"
	"named by every cape, muxed alike; the board's own devices (the cape\n"
	"EEPROMs at 0x54-0x57) hold their addresses; capes beyond the board's\n"
	"slots are refused.  Over budget is exit 6 here, a warning to act on; the\n"
	"kernel loads such a cape and reports it, unless capebus.strict_budget=1.\n"
	"A GPIO device's pin must be muxed as the pin's GPIO, in the direction the\n"
	"device uses it (an LED out, a key in with its receiver enabled).\n"
	"Every problem of a definition is said in one run, each as FILE:LINE on\n"
	"stderr too; the exit status is the first class's (3, then 5, then 6).  create\n"
	"and resolve refuse what check refuses of a cape alone, in the same words.\n"
	"The overlay of each definition goes through the kernel's rules, as resolve\n"
	"takes it (capebus-fdt.c and the connector's rules: invalid, 3).\n"
	"--dtb BOARD.dtb: then, the safety net before a reboot, each cape that fits\n"
	"is resolved for that exact tree (as resolve --dtb) and the capes applied to\n"
	"it together, in the order given, as a bootloader applies them (libfdt's\n"
	"fdt_overlay_apply): a label the tree lacks, a failed apply (16); a pin an\n"
	"enabled device of the tree muxes (its pinctrl groups: the tree decides,\n"
	"whatever --variant says), a node at an address the tree or an earlier\n"
	"cape holds, an ADC input a later cape's overlay drops (5).  What resolve\n"
	"adds for the tree (a disabled parent on, the ADC's inputs) is said.\n"
	"Raspberry Pi HATs (eepmake settings files or HAT images, told by content):\n"
	"every problem of each in one run (settings: FILE:LINE), then the HATs\n"
	"stacked in the order given: a GPIO map claiming GPIO0/GPIO1 (ID_SD/ID_SC,\n"
	"the ID EEPROM's bus) or a GPIO map in a HAT+ is invalid (3); two HATs\n"
	"claiming one GPIO (\"GPIO4 (pin 7) is held by HAT \"X\" (x.txt)\"), two ID\n"
	"EEPROMs at one address, or a v1 HAT anywhere but 0x50 is a conflict (5).\n"
	"HAT@ADDR: its ID EEPROM's address, 0x50 (the default: a HAT or a standard\n"
	"HAT+), 0x51 (a stackable HAT+), 0x52/0x53 (a stackable power HAT+, MODE0,\n"
	"MODE1); settings at 0x51-0x53 are read as a HAT+.  An invalid image exits\n"
	"with decode's status (10-14).\n"
	"  -b, --board B   board profile (board pins, shared pins, rail budgets; for\n"
	"                  HATs a family rpi profile: rpi, the default for them)\n"
	"      --variant V the board set up to give pins to capes: V is one of its\n"
	"                  variants or several, comma-separated (beaglebone-black:\n"
	"                  no-hdmi, no-emmc; see capetool(1), BOARD PROFILES)\n"
	"      --dtb F     the board's DTB (built with dtc -@): resolve and apply the\n"
	"                  capes to it together\n"
	"      --hat-version N  HAT settings read as 1: a v1 HAT (eepmake -v1), 2: a\n"
	"                  HAT+ (eepmake's default: GPIO keywords refused); default:\n"
	"                  as create, 1 if the settings have a GPIO map\n"
	"  -q, --quiet     print only problems\n"
	"  -h, --help      this text\n"
	"Exit: 0 all fit, 3 invalid definition, 5 pin, address or slot conflict,\n"
	"6 over budget; 16 the DTB lacks what a cape needs or its apply fails (the\n"
	"first class's: 3, 5, 16, 6); 2 HATs and capes given together, or --dtb\n"
	"with HATs; 4 a file cannot be read.\n";

static const char *const rails[] = { "vdd-3v3b", "vdd-5v", "sys-5v" };

/*
 * The definition at @path on board @b, as check takes it: read and
 * validated, and its overlay for @b built, so that every error of the
 * definition (schema, pins, modes, devices, the board's buses and GPIOs)
 * is reported in one run; a portable overlay (@b's connector exports
 * names) then goes through the kernel's rules, as resolve takes it
 * (kernel-rules.c).  create and resolve take a definition the same way.
 * EXIT_*; *blob (may be NULL) the overlay.
 */
int def_build(const char *path, const struct board *b, struct cape_def *d, void **blob,
	      size_t *len)
{
	void *o = NULL;
	size_t l = 0;
	int rc = def_load(path, b, d), r;

	if (!d->parsed)
		return rc;
	r = overlay_build(d, b, &o, &l);
	if (!rc)
		rc = r;
	if (!rc && o && b->nexports && board_gpio_export(b)) {
		/* what the kernel refuses is, but for a bug of capetool's, the hatch's */
		char *src = !d->overlay ? xstrdup(in_name(path))
			    : d->overlay_line > 0 ? xasprintf("%s:%d: overlay %s", in_name(path),
							      d->overlay_line, d->overlay)
			    : xasprintf("%s: overlay %s", in_name(path), d->overlay);
		uint16_t words[CAPE_NPINS] = { 0 };

		for (size_t i = 0; i < d->npins; i++)
			words[d->pins[i].idx] = d->pins[i].word;
		rc = kernel_rules_check(src, o, l, b, words);
		free(src);
	}
	if (blob && !rc) {
		*blob = o;
		*len = l;
	} else {
		free(o);
	}
	return rc;
}

void fit_init(struct fit *f, const struct board *b)
{
	memset(f, 0, sizeof(*f));
	f->b = b;
	/* the board's own devices hold their addresses */
	for (size_t i = 0; i < b->nbuses; i++) {
		for (size_t k = 0; k < b->buses[i].nreserved; k++) {
			f->ah = xrealloc(f->ah, (f->nah + 1) * sizeof(*f->ah));
			f->ah[f->nah++] = (struct fit_addr){
				b->buses[i].name, !strcmp(b->buses[i].type, "spi") ? DEV_SPI : DEV_I2C,
				b->buses[i].reserved[k].addr, b->buses[i].reserved[k].holder, -1 };
		}
	}
}

void fit_free(struct fit *f)
{
	free(f->ah);
	free(f->capes);
	memset(f, 0, sizeof(*f));
}

static const struct fit_addr *addr_holder(const struct fit *f, const struct cape_dev *dv)
{
	int a = dv->type == DEV_I2C ? dv->address : dv->cs;

	for (size_t i = 0; i < f->nah; i++)
		if (f->ah[i].type == dv->type && f->ah[i].addr == a && !strcmp(f->ah[i].bus, dv->bus))
			return &f->ah[i];
	return NULL;
}

/*
 * The bus cape @d holds pin @idx for, when that bus can be shared: an I2C
 * or SPI bus the board leaves disabled, behind that pin, on which @d has a
 * device, the pin muxed as the bus's function there.  Capes with devices
 * on one such bus share its pins (each at its own address or chip select),
 * muxed once and alike.  NULL if none.
 */
const char *share_bus(const struct board *b, const struct cape_def *d, int idx)
{
	uint16_t w = 0;

	for (size_t k = 0; k < d->npins; k++)
		if (d->pins[k].idx == idx)
			w = d->pins[k].word;
	for (size_t i = 0; i < b->nbuses; i++) {
		const struct board_bus *bus = &b->buses[i];
		bool behind = false, dev = false, mux_ok = true;

		if (bus->board_enabled || (strcmp(bus->type, "i2c") && strcmp(bus->type, "spi")))
			continue;
		for (size_t k = 0; k < bus->npins; k++)
			behind |= cape_pin_index(bus->pins[k]) == idx;
		for (size_t k = 0; k < d->ndevs; k++)
			dev |= !d->devs[k].bad && d->devs[k].bus && !strcmp(d->devs[k].bus, bus->name) &&
			       (d->devs[k].type == DEV_I2C || d->devs[k].type == DEV_SPI);
		for (size_t k = 0; k < bus->nmux; k++)
			if (bus->mux[k].idx == idx)
				mux_ok = (w & CAPE_PIN_MODE_MASK) == bus->mux[k].mode;
		if (behind && dev && mux_ok)
			return bus->name;
	}
	return NULL;
}

/*
 * fit_cape's problems, each with the definition line it is about (a pin's
 * entry, a device, the power group): "LINE\tPROBLEM\n" lines, printed as
 * FILE:LINE: PROBLEM by fit_print_where.
 */
static char *fit_where;

static void note(char **msg, const char *s, int line)
{
	char *n = xasprintf("%s%d\t%s\n", fit_where ? fit_where : "", line, s);

	free(fit_where);
	fit_where = n;
	str_append(msg, "; ", s);
}

static int pin_line(const struct cape_def *d, int idx)
{
	for (size_t k = 0; k < d->npins; k++)
		if (d->pins[k].idx == idx)
			return d->pins[k].line;
	return 0;
}

/* A node the overlay of @d names after its part number (@s, its slug). */
static char *slug_node(const struct cape_def *d, const char *s)
{
	static const struct { enum dev_type type; const char *what; } nodes[] = {
		{ DEV_LED, "leds" }, { DEV_KEY, "keys" }, { DEV_W1, "w1-0" },
		{ DEV_LCD, "panel" }, { DEV_AUDIO, "sound" },
	};

	for (size_t n = 0; n < sizeof(nodes) / sizeof(nodes[0]); n++)
		for (size_t k = 0; k < d->ndevs; k++)
			if (d->devs[k].type == nodes[n].type)
				return xasprintf("%s-%s", s, nodes[n].what);
	/* resolve's pin groups */
	return xasprintf("%s-*-pins", s);
}

/* Each of the last fit_cape's problems as FILE:LINE: PROBLEM, on stderr. */
static void fit_print_where(const char *file, bool warn)
{
	for (char *l = fit_where, *nl; l && *l; l = nl + 1) {
		char *tab = strchr(l, '\t');

		nl = strchr(l, '\n');
		if (!tab || !nl)
			break;
		/* line 0: an image's, which has no lines */
		if (!err_quiet && strncmp(l, "0\t", 2))
			fprintf(stderr, "%s%s:%.*s: %.*s\n", warn ? "warning: " : "", file,
				(int)(tab - l), l, (int)(nl - tab - 1), tab + 1);
	}
	free(fit_where);
	fit_where = NULL;
}

/*
 * Does cape @d fit in slot @slot beside what @f holds, as the kernel would
 * judge it: pins held by the board or an earlier cape, the shared cape
 * bus muxed otherwise, bus addresses held, rails over budget.  EXIT_OK, or
 * EXIT_CONFLICT or EXIT_POWER with *msg (malloc'ed) in the kernel's words.
 */
int fit_cape(const struct fit *f, const struct cape_def *d, int slot, char **msg,
	     bool *addr_only)
{
	const struct board *b = f->b;
	bool uses[CAPE_NPINS] = { false };
	const char *sb;
	char buf[400];
	bool conflict;

	(void)slot;
	*msg = NULL;
	free(fit_where);
	fit_where = NULL;
	for (size_t k = 0; k < d->npins; k++)
		uses[d->pins[k].idx] = true;
	/* in pin-usage order, as the kernel walks its pin bitmap */
	for (int idx = 0; idx < CAPE_NPINS; idx++) {
		if (uses[idx] && b->shared_pin[idx]) {
			/* the shared cape bus: named by any cape, muxed alike */
			const struct board_bus *bus = NULL;
			const struct bus_mux *m = board_shared_mux(b, idx, &bus);
			uint16_t w = 0;
			char mine[64], theirs[64];

			for (size_t k = 0; k < d->npins; k++)
				if (d->pins[k].idx == idx)
					w = d->pins[k].word;
			if (m && (w & CAPE_PIN_MODE_MASK) != m->mode) {
				snprintf(buf, sizeof(buf),
					 "pin %s is the shared cape bus %s (%s, mode %d), muxed here mode %d",
					 cape_pin_names[idx], bus->name, m->signal, m->mode,
					 w & CAPE_PIN_MODE_MASK);
				note(msg, buf, pin_line(d, idx));
			} else if (f->held[idx].part && f->held[idx].word != w) {
				pin_words(idx, f->held[idx].word, theirs, sizeof(theirs));
				pin_words(idx, w, mine, sizeof(mine));
				snprintf(buf, sizeof(buf),
					 "shared pin %s is muxed \"%s\" by %s (slot %d), \"%s\" here",
					 cape_pin_names[idx], theirs, f->held[idx].part,
					 f->held[idx].slot, mine);
				note(msg, buf, pin_line(d, idx));
			}
			continue;
		}
		if (!uses[idx])
			continue;
		if (b->board_pin[idx]) {
			/* the kernel's words, then what the board uses it for and who frees it */
			const struct board_hdr *h = board_hdr_of(b, idx);
			const struct board_variant *bv = board_variant_freeing(b, idx);
			const char *use = h && h->use ? h->use : NULL;

			snprintf(buf, sizeof(buf), "pin %s is held by the board%s%s%s%s%s%s",
				 cape_pin_names[idx], use || bv ? " (" : "", use ? use : "",
				 use && bv ? "; " : "", bv ? "--variant " : "", bv ? bv->name : "",
				 use || bv ? (bv ? " gives it to capes)" : ")") : "");
			note(msg, buf, pin_line(d, idx));
		} else if (f->held[idx].part && f->held[idx].bus &&
			   (sb = share_bus(b, d, idx)) && !strcmp(sb, f->held[idx].bus)) {
			/* a shared bus's pin: muxed once, so alike by every cape on the bus */
			uint16_t w = 0;
			char mine[64], theirs[64];

			for (size_t k = 0; k < d->npins; k++)
				if (d->pins[k].idx == idx)
					w = d->pins[k].word;
			if (w == f->held[idx].word)
				continue;
			pin_words(idx, f->held[idx].word, theirs, sizeof(theirs));
			pin_words(idx, w, mine, sizeof(mine));
			snprintf(buf, sizeof(buf),
				 "pin %s of bus %s is muxed \"%s\" by %s (slot %d), \"%s\" here: capes sharing a bus mux its pins alike",
				 cape_pin_names[idx], sb, theirs, f->held[idx].part, f->held[idx].slot,
				 mine);
			note(msg, buf, pin_line(d, idx));
		} else if (f->held[idx].part) {
			snprintf(buf, sizeof(buf), "pin %s is held by %s (slot %d)", cape_pin_names[idx],
				 f->held[idx].part, f->held[idx].slot);
			note(msg, buf, pin_line(d, idx));
		}
	}
	/*
	 * The overlay's node names begin with the part number in lower case,
	 * '-' for '_': BB-LED-X and BB_LED_X would name the same nodes, and
	 * one cape's would replace the other's (the kernel's overlays, and a
	 * bootloader's resolved ones alike).
	 */
	for (size_t k = 0; k < f->ncapes; k++) {
		char *mine = part_slug(d->part_number), *theirs = part_slug(f->capes[k].part);

		if (!strcmp(mine, theirs)) {
			char *node = slug_node(d, mine);

			snprintf(buf, sizeof(buf),
				 "overlay node %s of %s is also %s's (slot %d): part numbers that "
				 "differ only in case or in '_' and '-' name the same nodes, and one "
				 "cape's would replace the other's", node, d->part_number,
				 f->capes[k].part, f->capes[k].slot);
			note(msg, buf, d->part_line);
			free(node);
		}
		free(mine);
		free(theirs);
	}
	if (addr_only)
		*addr_only = !*msg;
	/* bus addresses: the board's devices and earlier capes hold theirs */
	for (size_t k = 0; k < d->ndevs; k++) {
		const struct cape_dev *dv = &d->devs[k];
		const struct fit_addr *h;
		char at[32];

		if ((dv->type != DEV_I2C && dv->type != DEV_SPI) || !dv->bus ||
		    !(h = addr_holder(f, dv)))
			continue;
		/* an I2C address in hex, a chip select as the number it is */
		if (dv->type == DEV_I2C)
			snprintf(at, sizeof(at), "address 0x%02x", h->addr);
		else
			snprintf(at, sizeof(at), "chip select %d", h->addr);
		if (h->slot < 0)
			snprintf(buf, sizeof(buf), "%s %s is held by %s", dv->bus, at, h->holder);
		else
			snprintf(buf, sizeof(buf), "%s %s is held by %s (slot %d)", dv->bus, at,
				 h->holder, h->slot);
		note(msg, buf, dv->line);
	}
	/* every problem in one run: the budget too, though a conflict is the status */
	conflict = *msg != NULL;
	for (int r = 0; r < 3; r++) {
		/* a rail the cape draws nothing from is never over budget */
		if (d->power[r] && f->used[r] + d->power[r] > b->budget[r]) {
			snprintf(buf, sizeof(buf), "%s over budget: needs %u mA, %u of %u mA in use",
				 rails[r], d->power[r], f->used[r], b->budget[r]);
			note(msg, buf, d->power_line);
			if (addr_only)
				*addr_only = false;	/* never only warned */
		}
	}
	if (conflict)
		return EXIT_CONFLICT;
	if (addr_only)
		*addr_only = false;
	return *msg ? EXIT_POWER : EXIT_OK;
}

/* Cape @d takes slot @slot: its pins, addresses and currents are held. */
void fit_add(struct fit *f, const struct cape_def *d, int slot)
{
	for (size_t k = 0; k < d->npins; k++) {
		if (f->held[d->pins[k].idx].part)
			continue;	/* a shared pin keeps its first holder's mux */
		f->held[d->pins[k].idx].part = d->part_number;
		f->held[d->pins[k].idx].slot = slot;
		f->held[d->pins[k].idx].word = d->pins[k].word;
		f->held[d->pins[k].idx].bus = share_bus(f->b, d, d->pins[k].idx);
	}
	for (size_t k = 0; k < d->ndevs; k++) {
		const struct cape_dev *dv = &d->devs[k];

		if ((dv->type != DEV_I2C && dv->type != DEV_SPI) || !dv->bus)
			continue;
		f->ah = xrealloc(f->ah, (f->nah + 1) * sizeof(*f->ah));
		f->ah[f->nah++] = (struct fit_addr){ dv->bus, dv->type,
			dv->type == DEV_I2C ? dv->address : dv->cs, d->part_number, slot };
	}
	f->capes = xrealloc(f->capes, (f->ncapes + 1) * sizeof(*f->capes));
	f->capes[f->ncapes].part = d->part_number;
	f->capes[f->ncapes++].slot = slot;
	f->nslots++;
	for (int r = 0; r < 3; r++)
		f->used[r] += d->power[r];
}


int fit_alone(const char *file, const struct board *b, const struct cape_def *d,
	      enum fit_mode mode)
{
	struct fit f;
	char *msg;
	bool addr_only;
	int rc;

	fit_init(&f, b);
	rc = fit_cape(&f, d, 0, &msg, &addr_only);
	fit_free(&f);
	if (!rc)
		return EXIT_OK;
	/* the words check prints; the exit status it gives, unless only warned */
	if (mode == FIT_FORCE || (mode == FIT_CREATE && addr_only)) {
		fit_print_where(file, true);
		err("warning: %s: %s", file, msg);
		rc = EXIT_OK;
	} else {
		fit_print_where(file, false);
		err("%s: %s", file, msg);
	}
	free(msg);
	return rc;
}

void unmuxed_warn(const char *file, const struct board *b, const char *part,
		  const bool *unmuxed)
{
	char *list = NULL, *slug;
	int n = 0;

	for (int i = 0; i < CAPE_NPINS; i++) {
		char *l;

		if (!unmuxed[i])
			continue;
		l = xasprintf("%s%s%s", list ? list : "", list ? ", " : "", cape_pin_names[i]);
		free(list);
		list = l;
		n++;
	}
	if (!n)
		return;
	slug = part_slug(part);
	err("warning: %s: %s %s %s used by no device: the kernel's cape connector muxes %s from "
	    "the EEPROM's pin words, but an overlay resolved for %s puts %s in a pinctrl group "
	    "no device references (%s-other-pins), so a bootloader applying it leaves %s unmuxed",
	    file, n > 1 ? "pins" : "pin", list, n > 1 ? "are" : "is", n > 1 ? "them" : "it",
	    b->name, n > 1 ? "them" : "it", slug, n > 1 ? "them" : "it");
	free(slug);
	free(list);
}

void unmuxed_check(const char *file, const struct board *b, const struct cape_def *d,
		   const void *blob, size_t len)
{
	uint16_t words[CAPE_NPINS] = { 0 };
	bool unmuxed[CAPE_NPINS] = { false }, quiet = err_quiet;
	void *r = NULL;
	size_t rlen;
	int rc;

	if (!blob || !b->pinmux || !b->nexports || !board_gpio_export(b))
		return;
	for (size_t i = 0; i < d->npins; i++)
		words[d->pins[i].idx] = d->pins[i].word;
	err_quiet = true;	/* resolve's errors are its own to say */
	rc = overlay_resolve(file, blob, len, b, words, d->part_number, &r, &rlen, unmuxed);
	err_quiet = quiet;
	free(r);
	if (!rc)
		unmuxed_warn(file, b, d->part_number, unmuxed);
}

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "board", required_argument, NULL, 'b' },
		{ "variant", required_argument, NULL, OPT_VARIANT },
		{ "quiet", no_argument, NULL, 'q' },
		{ "hat-version", required_argument, NULL, 'V' },
		{ "dtb", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *boardname = NULL, *variant = NULL, *dtb = NULL;
	struct check_dtb cd = { 0 };
	bool quiet = false;
	int hat_version = 0;
	struct board b;
	struct fit f;
	int c, rc = EXIT_OK, ndefs;
	struct cape_def *defs;

	optind = 1;
	while ((c = getopt_long(argc, argv, "b:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'b': boardname = optarg; break;
		case OPT_VARIANT:
			if (opt_variant(&variant, optarg))
				return EXIT_USAGE;
			break;
		case 'q': quiet = true; break;
		case 'D': dtb = optarg; break;
		case 'V':
			if ((hat_version = hat_version_option(optarg)) < 0)
				return EXIT_USAGE;
			break;
		case 'h': fputs(usage_text, stdout); return EXIT_OK;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	if (optind == argc) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	for (int i = optind, n = 0; i < argc; i++)
		if (is_stdio(argv[i]) && ++n == 2) {
			err("- (standard input) given twice: it holds one definition");
			return EXIT_USAGE;
		}
	/* HATs, told by content (or an @ADDR): a Raspberry Pi header's */
	for (int i = optind, n = 0; i < argc; i++) {
		char *p;
		int a;

		if (hat_arg(argv[i], &p, &a))
			return EXIT_USAGE;
		n += a >= 0 || hat_input_kind(p);
		free(p);
		if (i < argc - 1)
			continue;
		if (!n && boardname && board_is_rpi(boardname)) {
			err("board %s is a Raspberry Pi header: it takes HAT settings or images, and %s is neither (a cape definition goes on a bone header)",
			    boardname, in_name(argv[optind]));
			return EXIT_USAGE;
		}
		if (n && n != argc - optind) {
			err("HAT settings or images and cape definitions in one check: a HAT goes on a Raspberry Pi's 40-pin header, a cape on a BeagleBone's");
			return EXIT_USAGE;
		}
		if (n) {
			if (variant || dtb) {
				err("%s: a Raspberry Pi header has %s", variant ? "--variant" : "--dtb",
				    variant ? "no variants" : "no resolve (its firmware applies HAT overlays)");
				return EXIT_USAGE;
			}
			return hat_check(boardname, argv + optind, argc - optind, hat_version,
					 quiet);
		}
	}
	if (hat_version) {
		err("--hat-version is for HAT settings files, and %s is none", in_name(argv[optind]));
		return EXIT_USAGE;
	}
	c = board_load(boardname, &b);
	if (c)
		return c;
	c = board_apply_variants(&b, variant);
	if (c) {
		board_free(&b);
		return c;
	}
	if (dtb && (!b.nexports || !board_gpio_export(&b))) {
		err("--dtb: board %s's cape connector exports no names: there is nothing to resolve",
		    b.name);
		board_free(&b);
		return EXIT_USAGE;
	}
	if (dtb && (c = check_dtb_open(&cd, &b, dtb))) {
		board_free(&b);
		return c;
	}
	fit_init(&f, &b);
	ndefs = argc - optind;
	defs = xcalloc((size_t)ndefs, sizeof(*defs));
	for (int i = 0; i < ndefs; i++) {
		const char *file = in_name(argv[optind + i]);
		struct cape_def *d = &defs[i];
		char *msg = NULL;
		void *blob = NULL;
		size_t blen = 0;
		int r = def_build(argv[optind + i], &b, d, &blob, &blen);

		if (r) {
			if (r == EXIT_DEF || r == EXIT_IO)
				printf("%s: invalid\n", file);
			rc = rc ? rc : r;
			/*
			 * and what the board says of it, in the same run (the
			 * exit status stays the definition's, 3): its pins the
			 * board or an earlier cape holds, power over budget
			 */
			if (d->parsed && !fit_cape(&f, d, i, &msg, NULL)) {
				fit_print_where(file, false);
			} else if (d->parsed) {
				fflush(stdout);
				fit_print_where(file, false);
				printf("%s: %s\n", file, msg);
				free(msg);
			}
			continue;
		}
		if (f.nslots == b.slots) {
			printf("%s: no free slot: board %s has %d\n", file, b.name, b.slots);
			free(blob);
			if (!rc || rc == EXIT_POWER)
				rc = EXIT_CONFLICT;
			continue;
		}
		r = fit_cape(&f, d, i, &msg, NULL);
		if (r) {
			free(blob);
			fflush(stdout);
			fit_print_where(file, false);
			printf("%s: %s\n", file, msg);
			free(msg);
			if (r == EXIT_CONFLICT && (!rc || rc == EXIT_POWER || rc == EXIT_TREE))
				rc = EXIT_CONFLICT;
			else if (!rc)
				rc = r;
			continue;
		}
		fit_add(&f, d, i);
		unmuxed_check(file, &b, d, blob, blen);
		if (dtb && (r = check_dtb_cape(&cd, file, d, blob, blen, quiet ? NULL : stdout))) {
			free(blob);
			/* the first class's: 3, then 5, then 16, then 6 */
			if (!rc || rc == EXIT_POWER || (rc == EXIT_TREE && r != EXIT_TREE))
				rc = r;
			continue;
		}
		free(blob);
		if (!quiet)
			printf("%s: ok: %s-%s in slot %d, %zu pins, vdd-3v3b %u mA, vdd-5v %u mA, sys-5v %u mA (board %s%s%s%s%s)\n",
			       file, d->part_number, d->version, i, d->npins, d->power[0],
			       d->power[1], d->power[2], b.name, b.variant ? ", variant " : "",
			       b.variant ? b.variant : "", dtb ? "; applied to " : "",
			       dtb ? cd.t.name : "");
	}
	for (int i = 0; i < ndefs; i++)
		def_free(&defs[i]);
	free(defs);
	fit_free(&f);
	if (dtb)
		check_dtb_close(&cd);
	board_free(&b);
	return rc;
}
