// SPDX-License-Identifier: GPL-2.0
/*
 * capetool: the Raspberry Pi 40-pin header profile (a board profile of
 * family "rpi", schemas/boards/raspberry-pi.board): which GPIO, power or
 * ground pin each position is, and each GPIO's ALT functions.  check and
 * pinout of HATs read it; the header's facts are the profile's, not C's.
 */
#include <libconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capetool.h"
#include "hat.h"

int rpi_gpio_of_name(const char *name)
{
	char *end;
	long g;

	if (strncmp(name, "GPIO", 4) || name[4] < '0' || name[4] > '9' ||
	    (name[4] == '0' && name[5]))
		return -1;
	g = strtol(name + 4, &end, 10);
	return *end || g >= RPI_HAT_GPIO_BANK0_NUM ? -1 : (int)g;
}

/* A list of header pin names ("GPIO4") as bits; -1 after saying which is none. */
static int pin_bits(const char *src, const char *key, config_setting_t *list, uint64_t *bits)
{
	*bits = 0;
	for (int i = 0; list && i < config_setting_length(list); i++) {
		const char *p = config_setting_get_string_elem(list, i);
		int g = p ? rpi_gpio_of_name(p) : -1;

		if (g < 0) {
			err("%s: %s: \"%s\" is not a header pin (GPIO0-GPIO27)", src, key, p ? p : "");
			return -1;
		}
		*bits |= 1ULL << g;
	}
	return 0;
}

/* The connector: board-pins, console-pins, shared-pins, platform-compatibles, exports. */
static int rpi_parse_connector(const char *src, config_setting_t *root, struct rpi_board *b)
{
	config_setting_t *l;
	const char *v;

	if (pin_bits(src, "board-pins", config_setting_get_member(root, "board-pins"), &b->board_pins) ||
	    pin_bits(src, "shared-pins", config_setting_get_member(root, "shared-pins"), &b->shared_pins) ||
	    pin_bits(src, "console-pins", config_setting_get_member(root, "console-pins"), &b->console_pins))
		return EXIT_DEF;
	if (b->console_pins & (b->board_pins | b->shared_pins)) {
		err("%s: console-pins: none may be one of board-pins or shared-pins (the kernel's connector refuses it)",
		    src);
		return EXIT_DEF;
	}
	for (int g = 0; g < RPI_HAT_GPIO_BANK0_NUM; g++)
		if (((b->board_pins | b->console_pins) >> g & 1) &&
		    (!b->pin_of_gpio[g] || !b->pin[b->pin_of_gpio[g] - 1].use)) {
			err("%s: %s: GPIO%d: its gpio-header entry says what the board uses it for (use)",
			    src, b->board_pins >> g & 1 ? "board-pins" : "console-pins", g);
			return EXIT_DEF;
		}
	if ((l = config_setting_get_member(root, "platform-compatibles"))) {
		b->nplatform = config_setting_length(l);
		b->platform = xcalloc((size_t)b->nplatform + 1, sizeof(*b->platform));
		for (int i = 0; i < b->nplatform; i++)
			b->platform[i] = xstrdup(config_setting_get_string_elem(l, i));
	}
	if (!(l = config_setting_get_member(root, "exports")))
		return EXIT_OK;
	b->nexports = config_setting_length(l);
	b->exports = xcalloc((size_t)b->nexports + 1, sizeof(*b->exports));
	for (int i = 0; i < b->nexports; i++) {
		config_setting_t *e = config_setting_get_elem(l, (unsigned)i), *c;
		struct rpi_export *x = &b->exports[i];
		int gm = 0, im = 0, dv = 0;

		config_setting_lookup_string(e, "name", &v);
		x->name = xstrdup(v);
		if (config_setting_lookup_string(e, "target", &v))
			x->target = xstrdup(v);
		config_setting_lookup_bool(e, "gpio-map", &gm);
		config_setting_lookup_bool(e, "interrupt-map", &im);
		config_setting_lookup_bool(e, "devices", &dv);
		x->devices = dv;
		x->irq = im;
		if (!x->target == !(gm || im) || (gm && im)) {
			err("%s: exports: %s: a target, the GPIO nexus (gpio-map = true) or the interrupt nexus (interrupt-map = true)",
			    src, x->name);
			return EXIT_DEF;
		}
		x->cells[0] = x->cells[1] = -1;
		if ((c = config_setting_get_member(e, "cells"))) {
			if (config_setting_length(c) != 2 || config_setting_type(config_setting_get_elem(c, 0)) != CONFIG_TYPE_INT ||
			    config_setting_type(config_setting_get_elem(c, 1)) != CONFIG_TYPE_INT) {
				err("%s: exports: %s: cells = [#address-cells, #size-cells]", src, x->name);
				return EXIT_DEF;
			}
			x->cells[0] = config_setting_get_int_elem(c, 0);
			x->cells[1] = config_setting_get_int_elem(c, 1);
		}
		if (pin_bits(src, "exports: pins", config_setting_get_member(e, "pins"), &x->pins))
			return EXIT_DEF;
	}
	return EXIT_OK;
}

static int rpi_parse(const char *src, config_t *cfg, struct rpi_board *b)
{
	config_setting_t *root = config_root_setting(cfg), *list;
	const char *v;
	int n;

	if (schema_validate(embedded_board_schema, src, root))
		return EXIT_DEF;
	if (strcmp(board_family(cfg), "rpi")) {
		err("board %s is a BeagleBone cape header (family %s): HATs go on a Raspberry Pi's (--board rpi)",
		    src, board_family(cfg));
		return EXIT_USAGE;
	}
	config_setting_lookup_string(root, "name", &v);
	b->name = xstrdup(v);
	config_setting_lookup_string(root, "description", &v);
	b->description = xstrdup(v);
	for (int g = 0; g < HAT_GPIO_TOTAL; g++)
		b->pin_of_gpio[g] = 0;
	list = config_setting_get_member(root, "gpio-header");
	n = list ? config_setting_length(list) : 0;
	if (!list) {
		err("%s: gpio-header: required key missing (a family rpi profile)", src);
		return EXIT_DEF;
	}
	for (int i = 0; i < n; i++) {
		config_setting_t *e = config_setting_get_elem(list, (unsigned)i), *alt;
		struct rpi_pin *p;
		int pos = 0, gpio;
		bool has_gpio = config_setting_lookup_int(e, "gpio", &gpio);

		config_setting_lookup_int(e, "pin", &pos);
		p = &b->pin[pos - 1];
		if (p->fixed || p->gpio >= 0) {
			err("%s: gpio-header: pin %d listed twice", src, pos);
			return EXIT_DEF;
		}
		if (config_setting_lookup_string(e, "fixed", &v))
			p->fixed = xstrdup(v);
		if (has_gpio == !!p->fixed) {
			err("%s: gpio-header: pin %d: either a gpio or a fixed name", src, pos);
			return EXIT_DEF;
		}
		if (has_gpio) {
			if (b->pin_of_gpio[gpio]) {
				err("%s: gpio-header: GPIO%d on pins %d and %d", src, gpio,
				    b->pin_of_gpio[gpio], pos);
				return EXIT_DEF;
			}
			p->gpio = gpio;
			b->pin_of_gpio[gpio] = pos;
		}
		if (config_setting_lookup_string(e, "use", &v))
			p->use = xstrdup(v);
		if ((alt = config_setting_get_member(e, "alt"))) {
			if (!has_gpio || config_setting_length(alt) != 6) {
				err("%s: gpio-header: pin %d: alt lists the six functions ALT0-ALT5 of a GPIO",
				    src, pos);
				return EXIT_DEF;
			}
			for (int k = 0; k < 6; k++) {
				const char *f = config_setting_get_string_elem(alt, k);

				p->alt[k] = f && *f ? xstrdup(f) : NULL;
			}
		}
	}
	for (int pos = 1; pos <= RPI_HDR_PINS; pos++)
		if (!b->pin[pos - 1].fixed && b->pin[pos - 1].gpio < 0) {
			err("%s: gpio-header: pin %d is missing (every position 1 to 40 once)", src, pos);
			return EXIT_DEF;
		}
	return rpi_parse_connector(src, root, b);
}

int rpi_board_load(const char *name, struct rpi_board *b)
{
	config_t cfg;
	int rc;

	memset(b, 0, sizeof(*b));
	for (int i = 0; i < RPI_HDR_PINS; i++)
		b->pin[i].gpio = -1;
	if ((rc = board_read_config(name ? name : "rpi", &cfg)))
		return rc;
	rc = rpi_parse(name ? name : "rpi", &cfg, b);
	config_destroy(&cfg);
	if (rc)
		rpi_board_free(b);
	return rc;
}

void rpi_board_free(struct rpi_board *b)
{
	free(b->name);
	free(b->description);
	for (int i = 0; i < RPI_HDR_PINS; i++) {
		free(b->pin[i].fixed);
		free(b->pin[i].use);
		for (int k = 0; k < 6; k++)
			free(b->pin[i].alt[k]);
	}
	for (int i = 0; i < b->nexports; i++) {
		free(b->exports[i].name);
		free(b->exports[i].target);
	}
	free(b->exports);
	for (int i = 0; i < b->nplatform; i++)
		free(b->platform[i]);
	free(b->platform);
	memset(b, 0, sizeof(*b));
}

/* ALT0-ALT5 as RPI_HAT_PIN_FUNC_* codes select them (the BCM283x GPFSEL). */
int rpi_alt_of_func(int func)
{
	static const int alt[8] = {
		[RPI_HAT_PIN_FUNC_INPUT] = -1, [RPI_HAT_PIN_FUNC_OUTPUT] = -1,
		[RPI_HAT_PIN_FUNC_ALT0] = 0, [RPI_HAT_PIN_FUNC_ALT1] = 1, [RPI_HAT_PIN_FUNC_ALT2] = 2,
		[RPI_HAT_PIN_FUNC_ALT3] = 3, [RPI_HAT_PIN_FUNC_ALT4] = 4, [RPI_HAT_PIN_FUNC_ALT5] = 5,
	};

	return alt[func & RPI_HAT_PIN_FUNC_MASK];
}
