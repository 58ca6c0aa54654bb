// SPDX-License-Identifier: GPL-2.0
/*
 * capetool: cape definition parsing.  libconfig reads the file, the
 * compiled-in schema checks keys and types (schema.c), then this file
 * checks what the schema cannot say (header pins, duplicates, references)
 * and fills struct cape_def.
 */
#include <ctype.h>
#include <libconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "capetool.h"

static const char *const dev_names[] = {
	[DEV_I2C] = "i2c", [DEV_SPI] = "spi", [DEV_LED] = "led",
	[DEV_KEY] = "key", [DEV_W1] = "w1", [DEV_UART] = "uart",
	[DEV_PWM] = "pwm", [DEV_ADC] = "adc", [DEV_CAN] = "can", [DEV_RS485] = "rs485",
	[DEV_LCD] = "lcd", [DEV_AUDIO] = "audio",
};

const char *dev_type_name(enum dev_type t)
{
	return dev_names[t];
}

struct dctx {
	const char *file;
	int errors;
	const struct board *t;		/* functions by mux mode (board_functions()) */
};

static void derr(struct dctx *c, const config_setting_t *at, const char *key, const char *msg)
{
	c->errors++;
	if (!err_quiet)
		fprintf(stderr, "%s:%d: %s: %s\n", c->file, config_setting_source_line(at), key,
			msg);
}

static const char *get_str(const config_setting_t *g, const char *key, const char *dflt)
{
	const char *v;

	return config_setting_lookup_string(g, key, &v) ? v : dflt;
}

static int get_int(const config_setting_t *g, const char *key, int dflt)
{
	int v;

	return config_setting_lookup_int(g, key, &v) ? v : dflt;
}

static int get_bool(const config_setting_t *g, const char *key, int dflt)
{
	int v;

	return config_setting_lookup_bool(g, key, &v) ? v : dflt;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static bool is_type(const config_setting_t *s, int type)
{
	return s && config_setting_type(s) == type;
}

/* The member @key of group @g when it is a string; NULL if absent or not (the schema said so). */
static config_setting_t *str_member(const config_setting_t *g, const char *key)
{
	config_setting_t *m = is_type(g, CONFIG_TYPE_GROUP) ? config_setting_get_member(g, key) : NULL;

	return is_type(m, CONFIG_TYPE_STRING) ? m : NULL;
}

/*
 * What a header pin name that is none says: a power or ground position
 * named from the board's table, a position past 46, or the pin it most
 * likely means: the board's name for it (GPIO1_12 is P8.12) or the name
 * nearest by edit distance ("P8-16", "P8.1 3").
 */
/*
 * A header position however it is spelled: P, the header (8 or 9), one or
 * more of . _ - and space, the position, leading zeros anywhere ("P08.07",
 * "P8__07", "p9_013", "P8-16"): *hdr 8 or 9, *pos the number; false if
 * the name is no such spelling.
 */
static bool pin_loose(const char *name, int *hdr, int *pos)
{
	const char *p = name;
	size_t digits;

	if (*p != 'P' && *p != 'p')
		return false;
	for (p++; *p == '0'; p++)
		;
	if (*p != '8' && *p != '9')
		return false;
	*hdr = *p++ - '0';
	if (!*p || !strchr("._- ", *p))
		return false;
	while (*p && strchr("._- ", *p))
		p++;
	digits = strspn(p, "0123456789");
	if (!digits || p[digits])
		return false;
	while (digits > 1 && *p == '0') {
		p++;
		digits--;
	}
	*pos = digits > 2 ? 1000 : atoi(p);
	return true;
}

static void pin_name_why(const struct board *t, const char *name, char *out, size_t n)
{
	const char *names[CAPE_NPINS];
	const char *near;
	char upper[32];
	size_t k;
	int hdr, pos;

	if (pin_loose(name, &hdr, &pos)) {
		const struct board_hdr *h = pos >= 1 && pos <= 2 * BOARD_HDR_ROWS && t ?
					    &t->hdr[hdr - 8][pos - 1] : NULL;
		char canon[16];

		snprintf(canon, sizeof(canon), "P%d.%d", hdr, pos);
		if (pos < 1 || pos > 2 * BOARD_HDR_ROWS)
			snprintf(out, n, " (P8 and P9 have pins 1 to %d)", 2 * BOARD_HDR_ROWS);
		else if (cape_pin_index(canon) >= 0)
			/* a signal pin spelled otherwise: "P08.07", "P8__07", "P9-13" */
			snprintf(out, n, "; did you mean %s?", canon);
		else if (h && h->fixed)
			snprintf(out, n, ": %s is %s (power, ground, reset and ADC-reference pins have no pin-usage word)",
				 canon, h->fixed);
		else
			snprintf(out, n, " (power, ground, reset and ADC-reference pins have no pin-usage word)");
		return;
	}
	for (int i = 0; i < CAPE_NPINS; i++) {
		const struct board_hdr *h = t ? board_hdr_of(t, i) : NULL;

		if ((h && h->name && !strcasecmp(h->name, name)) ||
		    !strcasecmp(cape_pin_signals[i], name)) {
			snprintf(out, n, "; did you mean %s (%s)?", cape_pin_names[i],
				 h && h->name ? h->name : cape_pin_signals[i]);
			return;
		}
		names[i] = cape_pin_names[i];
	}
	/* "P8-16", "p8 16": the separator people type, then the nearest name */
	for (k = 0; name[k] && k + 1 < sizeof(upper); k++)
		upper[k] = name[k] == '-' || name[k] == ' ' || name[k] == '_' ? '.' : name[k];
	upper[k] = 0;
	near = closest(upper, names, CAPE_NPINS);
	if (near)
		snprintf(out, n, "; did you mean %s?", near);
	else if (n)
		out[0] = 0;
}

/*
 * The mode BeagleBoard.org's config-pin names @name on the pin (the
 * profile's config-pin words: "pruout", "spi_cs", "gpio"...), or -1.
 * gpio_pu, gpio_pd and gpio_input are the "gpio" mode with a pull up, a
 * pull down, or as an input without pull (config-pin's pinmux states):
 * *@pull and *@dir say so (NULL where the word implies nothing).
 */
static int config_pin_mode(const struct board *t, int idx, const char *name, const char **pull,
			   const char **dir)
{
	static const struct { const char *word, *pull, *dir; } gpio[] = {
		{ "gpio_pu", "up", NULL }, { "gpio_pd", "down", NULL }, { "gpio_input", "none", "in" },
	};
	const char *word = name, *p = NULL, *d = NULL;

	for (size_t i = 0; i < sizeof(gpio) / sizeof(gpio[0]); i++)
		if (!strcasecmp(name, gpio[i].word)) {
			word = "gpio";
			p = gpio[i].pull;
			d = gpio[i].dir;
		}
	for (int m = 0; t && m < 8; m++) {
		const char *w = t->pins[idx].config_pin[m];

		if (w && !strcasecmp(w, word)) {
			if (pull)
				*pull = p;
			if (dir)
				*dir = d;
			return m;
		}
	}
	return -1;
}

/*
 * A mux mode by name: the function of that name in the pin's row of the
 * table (any case), or the one function the name is part of ("gpio" is
 * gpio0_23, "pwm" ehrpwm1a; the PRU's pr1_ functions count only when no
 * other does).  -1 with *why set if none or several.
 */
static int mode_by_name(const struct board *t, int idx, const char *name, char *why, size_t n)
{
	const char *f, *funcs[8];
	int cand[8], ncand = 0, other[8], nother = 0, m;
	size_t o;

	if (name[0] >= '0' && name[0] <= '7' && !name[1])
		return name[0] - '0';	/* "7": a number in quotes */
	for (int m = 0; m < 8; m++) {
		funcs[m] = f = board_function(t, idx, m);
		if (f && !strcasecmp(f, name))
			return m;
	}
	m = config_pin_mode(t, idx, name, NULL, NULL);
	if (m >= 0)
		return m;
	for (int m = 0; m < 8; m++) {
		f = funcs[m];
		if (!f)
			continue;
		if (strcasestr(f, name)) {
			cand[ncand++] = m;
			if (strncmp(f, "pr1_", 4))
				other[nother++] = m;
		}
	}
	if (ncand == 1)
		return cand[0];
	if (nother == 1)
		return other[0];
	if (ncand > 1) {
		o = (size_t)snprintf(why, n, "\"%s\" is part of several functions of %s:", name,
				     cape_pin_names[idx]);
		for (int i = 0; i < ncand && o < n; i++)
			o += (size_t)snprintf(why + o, n - o, "%s mode %d (%s)", i ? "," : "", cand[i],
					      funcs[cand[i]]);
		if (o < n)
			snprintf(why + o, n - o, "; name one");
		return -1;
	}
	o = (size_t)snprintf(why, n, "%s has no function \"%s\" (modes:", cape_pin_names[idx], name);
	for (int m = 0, first = 1; m < 8 && o < n; m++) {
		if (!funcs[m])
			continue;
		o += (size_t)snprintf(why + o, n - o, "%s %d %s", first ? "" : ",", m, funcs[m]);
		first = 0;
	}
	if (o < n) {
		f = closest(name, funcs, 8);
		if (f)
			snprintf(why + o, n - o, "); did you mean \"%s\"?", f);
		else
			snprintf(why + o, n - o, ")");
	}
	return -1;
}

/*
 * The kernel's connector refuses a pin whose mux mode its pad does not offer
 * capes (cape-pads' third cell): the profile's "offers" is the same table
 * (tests/bats/host/real-board.bats checks the two equal).  A pin with a pad
 * and no offers offers nothing.
 */
static void check_offered(struct dctx *c, const config_setting_t *at, const char *key, int idx,
			  int mode)
{
	const struct board_pin *bp = c->t ? &c->t->pins[idx] : NULL;
	const char *f = board_function(c->t, idx, mode);
	char msg[400];
	size_t o;

	if (!bp || bp->conf < 0 || bp->offers & 1u << mode)
		return;
	o = (size_t)snprintf(msg, sizeof(msg),
			     "%s: mode %d%s%s%s is not offered to capes by the board's connector (offered:",
			     cape_pin_names[idx], mode, f ? " (" : "", f ? f : "", f ? ")" : "");
	for (int m = 0, first = 1; m < 8 && o < sizeof(msg); m++) {
		if (!(bp->offers & 1u << m))
			continue;
		f = board_function(c->t, idx, m);
		o += (size_t)snprintf(msg + o, sizeof(msg) - o, "%s %d%s%s", first ? "" : ",", m,
				      f ? " " : "", f ? f : "");
		first = 0;
	}
	if (o < sizeof(msg))
		snprintf(msg + o, sizeof(msg) - o, "%s)", bp->offers ? "" : " none");
	derr(c, at, key, msg);
}

static void parse_eeprom(struct dctx *c, config_setting_t *e, struct cape_def *d)
{
	static const char *const file_keys[] = { "part-number", "version" };

	if (!is_type(e, CONFIG_TYPE_GROUP))
		return;		/* the schema said so */
	for (size_t i = 0; i < 2; i++) {
		config_setting_t *v = config_setting_get_member(e, file_keys[i]);
		const char *s = v ? config_setting_get_string(v) : NULL;
		char key[32];

		snprintf(key, sizeof(key), "eeprom.%s", file_keys[i]);
		if (s && (!*s || strchr(s, '/')))
			derr(c, v, key, "names the overlay file: must not be empty or contain '/'");
		else if (s && s[strlen(s) - 1] == '.')
			/* readers strip trailing '.': the kernel would look up another file */
			derr(c, v, key,
			     "names the overlay file: must not end in '.' (readers strip it, so the kernel would look for another file name)");
	}
	d->a0 = !strcmp(get_str(e, "format", "A1"), "A0");
	snprintf(d->board_name, sizeof(d->board_name), "%s", get_str(e, "board-name", ""));
	snprintf(d->version, sizeof(d->version), "%s", get_str(e, "version", ""));
	snprintf(d->manufacturer, sizeof(d->manufacturer), "%s", get_str(e, "manufacturer", ""));
	snprintf(d->part_number, sizeof(d->part_number), "%s", get_str(e, "part-number", ""));
	if (config_setting_get_member(e, "part-number"))
		d->part_line = config_setting_source_line(config_setting_get_member(e, "part-number"));
	snprintf(d->serial, sizeof(d->serial), "%s", get_str(e, "serial", ""));
}

/*
 * The pull and direction config-pin's word @mode implies (gpio_pu: up), in
 * *@pull and *@dir; a pin that says otherwise is refused at its line.
 */
static void implied_pins(struct dctx *c, const config_setting_t *p, int i, int idx,
			 const char *mode, const char **pull, const char **dir)
{
	const char *have;
	char key[32], msg[200];

	if (config_pin_mode(c->t, idx, mode, pull, dir) < 0)
		return;
	have = get_str(p, "pull", NULL);
	if (*pull && have && strcmp(have, *pull)) {
		snprintf(key, sizeof(key), "pins[%d].pull", i);
		snprintf(msg, sizeof(msg), "mode \"%s\" is the GPIO with pull \"%s\", not \"%s\"",
			 mode, *pull, have);
		derr(c, config_setting_get_member(p, "pull"), key, msg);
	}
	have = get_str(p, "direction", NULL);
	if (*dir && have && strcmp(have, *dir)) {
		snprintf(key, sizeof(key), "pins[%d].direction", i);
		snprintf(msg, sizeof(msg), "mode \"%s\" is the GPIO as an input, not \"%s\"",
			 mode, have);
		derr(c, config_setting_get_member(p, "direction"), key, msg);
	}
}

static void parse_pins(struct dctx *c, config_setting_t *list, struct cape_def *d)
{
	int n = is_type(list, CONFIG_TYPE_LIST) ? config_setting_length(list) : 0;
	int first_line[CAPE_NPINS] = { 0 };

	for (int i = 0; i < n; i++) {
		config_setting_t *p = config_setting_get_elem(list, i);
		config_setting_t *pn = str_member(p, "pin"), *ms;
		const char *name, *dir, *pull, *ipull = NULL, *idir = NULL;
		int idx, mode = -1;
		char key[32], msg[400];
		uint16_t w = CAPE_PIN_USED;

		if (!pn)
			continue;	/* not a group, or no pin string: the schema said so */
		name = config_setting_get_string(pn);
		snprintf(key, sizeof(key), "pins[%d].pin", i);
		idx = cape_pin_index(name);
		if (idx < 0) {
			char why[200];

			pin_name_why(c->t, name, why, sizeof(why));
			snprintf(msg, sizeof(msg), "\"%s\" is not a header signal pin%s", name, why);
			derr(c, p, key, msg);
			continue;
		}
		if (first_line[idx]) {
			snprintf(msg, sizeof(msg), "duplicate pin %s (first at line %d)",
				 cape_pin_names[idx], first_line[idx]);
			derr(c, p, key, msg);
			continue;
		}
		first_line[idx] = config_setting_source_line(p);
		if (d->a0 && idx >= CAPE_EEPROM_A0_NUM_PINS) {
			snprintf(msg, sizeof(msg), "%s has no pin-usage word in format A0",
				 cape_pin_names[idx]);
			derr(c, p, key, msg);
			continue;
		}
		if (cape_pin_is_ain(idx)) {
			static const char *const other[] = { "mode", "direction", "pull", "rx", "slew" };

			for (size_t k = 0; k < sizeof(other) / sizeof(other[0]); k++) {
				if (config_setting_get_member(p, other[k])) {
					snprintf(key, sizeof(key), "pins[%d].%s", i, other[k]);
					snprintf(msg, sizeof(msg),
						 "%s is an analog input: it takes no %s",
						 cape_pin_names[idx], other[k]);
					derr(c, p, key, msg);
				}
			}
		} else {
			ms = config_setting_get_member(p, "mode");
			snprintf(key, sizeof(key), "pins[%d].mode", i);
			if (!ms) {
				derr(c, p, key, "required key missing (only AIN pins go without)");
			} else if (is_type(ms, CONFIG_TYPE_STRING) && *config_setting_get_string(ms)) {
				mode = mode_by_name(c->t, idx, config_setting_get_string(ms), msg,
						    sizeof(msg));
				if (mode < 0)
					derr(c, ms, key, msg);
			} else if (is_type(ms, CONFIG_TYPE_INT) || is_type(ms, CONFIG_TYPE_INT64)) {
				long long m = config_setting_get_int64(ms);

				mode = m >= 0 && m <= 7 ? (int)m : -1;	/* else the schema said so */
			}
			if (mode >= 0)
				check_offered(c, ms, key, idx, mode);
			if (mode >= 0 && is_type(ms, CONFIG_TYPE_STRING))
				implied_pins(c, p, i, idx, config_setting_get_string(ms), &ipull, &idir);
			dir = get_str(p, "direction", idir);
			if (!dir) {
				snprintf(key, sizeof(key), "pins[%d].direction", i);
				derr(c, p, key, "required key missing (only AIN pins go without)");
				dir = "in";
			}
			pull = get_str(p, "pull", ipull ? ipull : "none");
			if (!strcmp(dir, "in"))
				w |= CAPE_PIN_DIR_IN;
			else if (!strcmp(dir, "out"))
				w |= CAPE_PIN_DIR_OUT;
			else
				w |= CAPE_PIN_DIR_BIDIR;
			if (!strcmp(pull, "none"))
				w |= CAPE_PIN_PULL_DISABLE;
			else if (!strcmp(pull, "up"))
				w |= CAPE_PIN_PULL_UP;
			if (get_bool(p, "rx", strcmp(dir, "out") != 0))
				w |= CAPE_PIN_RX_ENABLE;
			if (!strcmp(get_str(p, "slew", "fast"), "slow"))
				w |= CAPE_PIN_SLEW_SLOW;
			w |= (uint16_t)(mode < 0 ? 0 : mode);
		}
		d->pins[d->npins].idx = idx;
		d->pins[d->npins].word = w;
		d->pins[d->npins].line = config_setting_source_line(p);
		d->npins++;
	}
}

/*
 * Devicetree specification 2.2.1 and 2.2.4: a node name is 1 to 31
 * characters of [0-9a-zA-Z,._+-] starting with a letter (the unit address
 * after '@' is ours); a property name 1 to 31 of [0-9a-zA-Z,._+?#-].
 */
#define DT_NAME_MAX 31

static bool dt_node_name_ok(const char *s, const char **why)
{
	size_t n = strlen(s);

	if (!n || n > DT_NAME_MAX) {
		*why = "must be 1 to 31 characters";
		return false;
	}
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))) {
		*why = "must start with a letter";
		return false;
	}
	if (s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789,._+-")]) {
		*why = "may hold only letters, digits and , . _ + -";
		return false;
	}
	return true;
}

static bool dt_prop_name_ok(const char *s, const char **why)
{
	size_t n = strlen(s);

	if (!n || n > DT_NAME_MAX) {
		*why = "must be 1 to 31 characters";
		return false;
	}
	if (s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789,._+?#-")]) {
		*why = "may hold only letters, digits and , . _ + ? # -";
		return false;
	}
	return true;
}

/* An integer property cell: -2^31 .. 2^32-1 (two's complement below 0). */
static bool cell_ok(struct dctx *c, config_setting_t *v, const char *key, long long x)
{
	char msg[160];

	if (x >= -2147483648LL && x <= 4294967295LL)
		return true;
	snprintf(msg, sizeof(msg),
		 "%lld does not fit a 32-bit cell (-2147483648 to 4294967295); write a 64-bit value as two cells [high, low]",
		 x);
	derr(c, v, key, msg);
	return false;
}

static const struct cape_pin *def_pin(const struct cape_def *d, int idx)
{
	for (size_t i = 0; i < d->npins; i++)
		if (d->pins[i].idx == idx)
			return &d->pins[i];
	return NULL;
}

/*
 * A GPIO property, one that holds GPIO specifiers: gpiolib's names (gpios,
 * gpio, *-gpios, *-gpio) and the legacy ones of_find_gpio_rename() (6.12)
 * still reads as GPIOs, as the kernel's overlay verifier lists them
 * (capebus-overlay.c).  Not the provider's gpio-controller, #gpio-cells,
 * ngpios, gpio-line-names, gpio-reserved-ranges: a GPIO expander on a bus
 * is a device of the cape with those.
 */
static bool gpio_prop_name(const char *n)
{
	static const char *const legacy[] = {
		"gpio-sck", "gpio-miso", "gpio-mosi", "gpio-reset", "gpios-reset",
		"gpio-rtc-data", "gpio-rtc-sclk", "gpio-rtc-reset", "reset-n-io",
		"cirrus,gpio-nreset", "wlf,reset", "wlf,ldoena", "wlf,ldo1ena", "wlf,ldo2ena",
		"i2s1-in-sel-gpio1", "i2s1-in-sel-gpio2", "fcs,int_n",
	};
	size_t l = strlen(n);

	for (size_t k = 0; k < sizeof(legacy) / sizeof(legacy[0]); k++)
		if (!strcmp(n, legacy[k]))
			return true;
	return !strcmp(n, "gpios") || !strcmp(n, "gpio") ||
	       (l > 6 && !strcmp(n + l - 6, "-gpios")) || (l > 5 && !strcmp(n + l - 5, "-gpio"));
}

/*
 * The pin @name (at @at) that @what ("the interrupt", a GPIO property)
 * uses as a GPIO: a header GPIO pin the cape lists in pins (@why_listed
 * says why it must), muxed as the pin's GPIO.  NULL after saying why.
 */
static const struct cape_pin *gpio_pin_of(struct dctx *c, config_setting_t *at, const char *key,
					  const struct cape_def *d, const char *name,
					  const char *what, const char *why_listed)
{
	int idx = cape_pin_index(name), gm, mode;
	const struct cape_pin *p;
	char msg[400], why[200];

	if (idx < 0 || cape_pin_is_ain(idx)) {
		if (idx < 0)
			pin_name_why(c->t, name, why, sizeof(why));
		else
			snprintf(why, sizeof(why), " (an analog input)");
		snprintf(msg, sizeof(msg), "\"%s\" is not a header GPIO pin%s", name, why);
		derr(c, at, key, msg);
		return NULL;
	}
	p = def_pin(d, idx);
	if (!p) {
		snprintf(msg, sizeof(msg), "%s is not listed in pins (%s)", cape_pin_names[idx],
			 why_listed);
		derr(c, at, key, msg);
		return NULL;
	}
	gm = board_gpio_mode(c->t, idx);
	mode = p->word & CAPE_PIN_MODE_MASK;
	if (gm >= 0 && mode != gm) {
		const char *f = board_function(c->t, idx, mode);

		snprintf(msg, sizeof(msg),
			 "%s needs %s muxed as a GPIO, mode %d (%s); pins has it in mode %d%s%s%s (line %d)",
			 what, cape_pin_names[idx], gm, board_function(c->t, idx, gm), mode,
			 f ? " (" : "", f ? f : "", f ? ")" : "", p->line);
		derr(c, at, key, msg);
		return NULL;
	}
	return p;
}

/*
 * One header-pin GPIO reference { pin = "P9.15"; flags = 0; active-low = true; }
 * into @pr: the pin must be listed in pins and muxed as its GPIO, as for
 * an LED; <&bone_gpio CODE FLAGS> through the connector, as LEDs and keys.
 */
static bool prop_gpio(struct dctx *c, config_setting_t *g, const char *key, struct prop *pr,
		      const struct cape_def *d)
{
	config_setting_t *ps = config_setting_get_member(g, "pin");
	const char *name = is_type(ps, CONFIG_TYPE_STRING) ? config_setting_get_string(ps) : NULL;
	const struct cape_pin *p;
	long long flags = 0;
	char msg[400];
	bool ok = true;

	for (int i = 0; i < config_setting_length(g); i++) {
		config_setting_t *m = config_setting_get_elem(g, i);
		const char *k = config_setting_name(m);

		if (!strcmp(k, "pin") || !strcmp(k, "flags") || !strcmp(k, "active-low"))
			continue;
		snprintf(msg, sizeof(msg),
			 "unknown key \"%s\" in a GPIO reference (it has pin, flags, active-low)", k);
		derr(c, m, key, msg);
		ok = false;
	}
	if (!name) {
		derr(c, g, key, "a GPIO reference needs pin = \"P9.15\" (a header pin, as a string)");
		return false;
	}
	if (config_setting_get_member(g, "flags")) {
		config_setting_t *f = config_setting_get_member(g, "flags");

		if (!is_type(f, CONFIG_TYPE_INT) && !is_type(f, CONFIG_TYPE_INT64)) {
			derr(c, f, key, "flags must be an integer (the GPIO specifier's flags cell)");
			return false;
		}
		flags = config_setting_get_int64(f);
		if (flags < 0 || flags > 4294967295LL) {
			derr(c, f, key, "flags must fit a 32-bit cell (0 to 4294967295)");
			return false;
		}
	}
	if (config_setting_get_member(g, "active-low")) {
		config_setting_t *a = config_setting_get_member(g, "active-low");

		if (!is_type(a, CONFIG_TYPE_BOOL)) {
			derr(c, a, key, "active-low must be true or false");
			return false;
		}
		if (config_setting_get_bool(a))
			flags |= 1;	/* GPIO_ACTIVE_LOW */
	}
	p = gpio_pin_of(c, ps, key, d, name, pr->name, "a cape's GPIOs are its declared pins");
	if (!p)
		return false;
	if (!ok)
		return false;
	pr->gpio = xrealloc(pr->gpio, (pr->ngpio + 1) * sizeof(*pr->gpio));
	pr->gpio[pr->ngpio].idx = p->idx;
	pr->gpio[pr->ngpio++].flags = (uint32_t)flags;
	return true;
}

/*
 * A byte string, dtc's [02 00 5e 10 00 01]: { bytes = [0x02, 0x00, ...]; },
 * e.g. local-mac-address.  Each element 0 to 255; at least one.
 */
static bool prop_bytes(struct dctx *c, config_setting_t *g, const char *key, struct prop *pr)
{
	config_setting_t *b = config_setting_get_member(g, "bytes");
	int m;

	if (config_setting_length(g) != 1) {
		derr(c, g, key, "a byte string is { bytes = [0x02, 0x00, ...]; } and nothing else");
		return false;
	}
	if (!is_type(b, CONFIG_TYPE_ARRAY) || !(m = config_setting_length(b))) {
		derr(c, b, key, "bytes must be a non-empty array of integers 0 to 255: [0x02, 0x00, ...]");
		return false;
	}
	pr->val = xmalloc((size_t)m);
	pr->len = (size_t)m;
	for (int k = 0; k < m; k++) {
		config_setting_t *e = config_setting_get_elem(b, k);
		long long x = is_type(e, CONFIG_TYPE_INT) || is_type(e, CONFIG_TYPE_INT64) ?
			      config_setting_get_int64(e) : -1;
		char msg[160];

		if (x < 0 || x > 255) {
			snprintf(msg, sizeof(msg), "bytes[%d] is not a byte (an integer 0 to 255)", k);
			derr(c, b, key, msg);
			free(pr->val);
			pr->val = NULL;
			pr->len = 0;
			return false;
		}
		pr->val[k] = (uint8_t)x;
	}
	return true;
}

/* The value @v of property @pr; false after saying why. */
static bool prop_value(struct dctx *c, config_setting_t *v, const char *key, struct prop *pr,
		       const struct cape_def *d)
{
	int t = config_setting_type(v);
	bool gp = gpio_prop_name(pr->name);
	char msg[400];

	pr->val = NULL;
	pr->len = 0;
	if (t == CONFIG_TYPE_GROUP && config_setting_get_member(v, "bytes") && !gp)
		return prop_bytes(c, v, key, pr);
	if (t == CONFIG_TYPE_GROUP)
		return prop_gpio(c, v, key, pr, d);
	if (t == CONFIG_TYPE_LIST) {
		/* several GPIO references: cs-gpios = ( { pin = ...; }, { pin = ...; } ) */
		int m = config_setting_length(v);

		for (int k = 0; k < m; k++) {
			config_setting_t *e = config_setting_get_elem(v, k);

			if (!is_type(e, CONFIG_TYPE_GROUP)) {
				derr(c, e, key, "a list value holds GPIO references { pin = \"P9.15\"; flags = 0; }");
				return false;
			}
			if (!prop_gpio(c, e, key, pr, d))
				return false;
		}
		if (!m) {
			derr(c, v, key, "an empty list: write true for an empty property");
			return false;
		}
		return true;
	}
	if (gp) {
		/* a string "P9.15" would be emitted as text, silently no GPIO */
		snprintf(msg, sizeof(msg),
			 "is a GPIO property: write the header pin as a GPIO reference, e.g. %s = { pin = \"%s\"; flags = 0; }, not as a %s",
			 pr->name, t == CONFIG_TYPE_STRING ? config_setting_get_string(v) : "P9.15",
			 t == CONFIG_TYPE_STRING ? "string" : t == CONFIG_TYPE_BOOL ? "boolean" :
			 t == CONFIG_TYPE_ARRAY ? "raw cell array" : "number");
		derr(c, v, key, msg);
		return false;
	}
	if (t == CONFIG_TYPE_STRING) {
		const char *s = config_setting_get_string(v);
		size_t l = strlen(pr->name);

		if (cape_pin_index(s) >= 0 && strcmp(pr->name, "label") &&
		    !(l > 6 && !strcmp(pr->name + l - 6, "-names")) &&
		    !(l > 6 && !strcmp(pr->name + l - 6, "-label"))) {
			/* a header pin as text is a pin reference that never becomes one */
			snprintf(msg, sizeof(msg),
				 "\"%s\" names a header pin, but a string is only text to the driver; a GPIO is written { pin = \"%s\"; flags = 0; } (as a GPIO property: *-gpios)",
				 s, s);
			derr(c, v, key, msg);
			return false;
		}
		pr->len = strlen(s) + 1;
		pr->val = (uint8_t *)xstrdup(s);
	} else if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64) {
		uint32_t x;

		if (!cell_ok(c, v, key, config_setting_get_int64(v)))
			return false;
		x = (uint32_t)config_setting_get_int64(v);
		pr->len = 4;
		pr->val = xmalloc(4);
		pr->val[0] = x >> 24; pr->val[1] = x >> 16; pr->val[2] = x >> 8; pr->val[3] = x;
	} else if (t == CONFIG_TYPE_BOOL) {
		if (!config_setting_get_bool(v))
			return false;	/* false: no property */
	} else if (t == CONFIG_TYPE_ARRAY) {
		int m = config_setting_length(v);

		for (int k = 0; k < m; k++) {
			config_setting_t *e = config_setting_get_elem(v, k);

			if (config_setting_type(e) == CONFIG_TYPE_STRING) {
				const char *s = config_setting_get_string(e);
				size_t sl = strlen(s) + 1;

				pr->val = xrealloc(pr->val, pr->len + sl);
				memcpy(pr->val + pr->len, s, sl);
				pr->len += sl;
			} else {
				uint32_t x;

				if (!cell_ok(c, v, key, config_setting_get_int64(e)))
					continue;
				x = (uint32_t)config_setting_get_int64(e);
				pr->val = xrealloc(pr->val, pr->len + 4);
				pr->val[pr->len] = x >> 24; pr->val[pr->len + 1] = x >> 16;
				pr->val[pr->len + 2] = x >> 8; pr->val[pr->len + 3] = x;
				pr->len += 4;
			}
		}
	} else {
		derr(c, v, key, "must be a string, integer, array, true, bytes { bytes = [...]; } or a GPIO reference { pin = ...; }");
		return false;
	}
	return true;
}

/*
 * The device before @d's next one that has header pin @idx as its GPIO
 * (an LED's, key's, 1-Wire bus's or RS-485 DE pin, or a GPIO reference
 * in its properties), said in @who ("led \"a\" (line 3)"): gpiolib gives
 * a line to one user.  false if none.
 */
static bool gpio_taken(const struct cape_def *d, int idx, char *who, size_t n)
{
	for (size_t k = 0; k < d->ndevs; k++) {
		const struct cape_dev *o = &d->devs[k];

		if (o->pin && cape_pin_index(o->pin) == idx) {
			snprintf(who, n, "%s%s%s%s (line %d)", dev_type_name(o->type),
				 o->label ? " \"" : "", o->label ? o->label : "",
				 o->label ? "\"" : "", o->line);
			return true;
		}
		for (size_t p = 0; p < o->nprops; p++)
			for (size_t g = 0; g < o->props[p].ngpio; g++)
				if (o->props[p].gpio[g].idx == idx) {
					snprintf(who, n, "%s device %s, its %s (line %d)",
						 dev_type_name(o->type),
						 o->compatible ? o->compatible : "?",
						 o->props[p].name, o->line);
					return true;
				}
	}
	return false;
}

/*
 * properties = { name = value; ... } (names libconfig can spell) or
 * ( ("solomon,width", 128), ("#sound-dai-cells", 0), ... ) (any DT name).
 */
static void parse_props(struct dctx *c, config_setting_t *g, struct cape_dev *dv,
			const struct cape_def *d)
{
	/* what the generated node already holds, or no node may set */
	static const char *const reserved[] = { "compatible", "reg", "name", "phandle",
						"linux,phandle" };
	bool list = is_type(g, CONFIG_TYPE_LIST);
	int n = config_setting_length(g);

	dv->props = xcalloc((size_t)n, sizeof(*dv->props));
	for (int i = 0; i < n; i++) {
		config_setting_t *e = config_setting_get_elem(g, i), *v = e, *ns;
		struct prop *pr = &dv->props[dv->nprops];
		const char *pname, *why;
		char key[80];
		bool bad;

		if (list) {
			ns = is_type(e, CONFIG_TYPE_LIST) && config_setting_length(e) == 2 ?
			     config_setting_get_elem(e, 0) : NULL;
			snprintf(key, sizeof(key), "properties[%d]", i);
			if (!is_type(ns, CONFIG_TYPE_STRING)) {
				derr(c, e, key, "must be a pair (\"name\", value)");
				continue;
			}
			pname = config_setting_get_string(ns);
			v = config_setting_get_elem(e, 1);
		} else {
			pname = config_setting_name(e);
		}
		snprintf(key, sizeof(key), "properties.%s", pname);
		bad = !dt_prop_name_ok(pname, &why);
		for (size_t r = 0; !bad && r < sizeof(reserved) / sizeof(reserved[0]); r++)
			if (!strcmp(pname, reserved[r])) {
				why = r < 2 ? "is generated from the device's keys: set it there"
					    : "is reserved: the overlay's phandles are capetool's";
				bad = true;
			}
		if (!bad && !strcmp(pname, "status")) {
			why = "is capetool's: a device of the definition is enabled, a device left out is not written";
			bad = true;
		}
		if (!bad && !strncmp(pname, "pinctrl-", 8)) {
			why = "is capetool's: the device's pins are muxed from pins, by groups capetool writes";
			bad = true;
		}
		if (!bad && (!strcmp(pname, "pwms") || !strcmp(pname, "interrupt-parent") ||
			     !strcmp(pname, "interrupts-extended"))) {
			why = "holds phandles, which a definition cannot write (a raw integer is no phandle): a PWM is a pwm device or the LCD's backlight, a header pin's interrupt is the device's interrupt key (interrupt = { pin = \"P9.15\"; trigger = \"falling\"; })";
			bad = true;
		}
		if (!bad && !strcmp(pname, "gpio-ranges")) {
			why = "holds phandles, which a definition cannot write (a raw integer is no phandle): its pin controller is the board's, which the cape connector does not export";
			bad = true;
		}
		if (!bad && dv->type == DEV_SPI && !strcmp(pname, "spi-max-frequency")) {
			why = "is generated from max-frequency: set it there";
			bad = true;
		}
		for (size_t k = 0; !bad && k < dv->nprops; k++)
			if (!strcmp(dv->props[k].name, pname)) {
				why = "is set twice";
				bad = true;
			}
		if (bad) {
			derr(c, v, key, why);
			continue;
		}
		memset(pr, 0, sizeof(*pr));
		pr->name = xstrdup(pname);
		if (!prop_value(c, v, key, pr, d)) {
			free(pr->name);
			free(pr->val);
			free(pr->gpio);
			continue;
		}
		/* one GPIO, one device: gpiolib gives a line to one consumer */
		for (size_t g = 0; g < pr->ngpio; g++) {
			char who[160], msg[300];

			if (!gpio_taken(d, pr->gpio[g].idx, who, sizeof(who)))
				continue;
			snprintf(msg, sizeof(msg), "%s is already the GPIO of %s: a GPIO has one user",
				 cape_pin_names[pr->gpio[g].idx], who);
			derr(c, v, key, msg);
		}
		dv->nprops++;
	}
}


/*
 * A GPIO device's pin as its pin word sets it: muxed as the pin's GPIO,
 * and driven (LED), read (key) or both (1-Wire) in the direction the word
 * says, the receiver enabled where the device reads.
 */
static void check_gpio_use(struct dctx *c, config_setting_t *at, const char *key,
			   const struct cape_dev *dv, const struct cape_pin *p)
{
	int idx = p->idx, gm = board_gpio_mode(c->t, idx), mode = p->word & CAPE_PIN_MODE_MASK;
	uint16_t dir = p->word & CAPE_PIN_DIR_MASK;
	bool reads = dv->type != DEV_LED, drives = dv->type != DEV_KEY;
	const char *pin = cape_pin_names[idx];
	char who[96], msg[320];

	if (dv->type == DEV_W1)
		snprintf(who, sizeof(who), "1-Wire bus");
	else
		snprintf(who, sizeof(who), "%s \"%s\"", dv->type == DEV_LED ? "LED" : "key",
			 dv->label ? dv->label : "");
	if (gm >= 0 && mode != gm) {
		const char *f = board_function(c->t, idx, mode);

		if (f)
			snprintf(msg, sizeof(msg),
				 "%s needs %s muxed as a GPIO, mode %d (%s); pins has it in mode %d (%s, line %d)",
				 who, pin, gm, board_function(c->t, idx, gm), mode, f, p->line);
		else
			snprintf(msg, sizeof(msg),
				 "%s needs %s muxed as a GPIO, mode %d (%s); pins has it in mode %d (line %d)",
				 who, pin, gm, board_function(c->t, idx, gm), mode, p->line);
		derr(c, at, key, msg);
		return;
	}
	if (reads && dir == CAPE_PIN_DIR_OUT)
		snprintf(msg, sizeof(msg), "%s reads %s, but pins sets it as an output (line %d)",
			 who, pin, p->line);
	else if (drives && dir == CAPE_PIN_DIR_IN)
		snprintf(msg, sizeof(msg), "%s drives %s, but pins sets it as an input (line %d)",
			 who, pin, p->line);
	else if (reads && !(p->word & CAPE_PIN_RX_ENABLE))
		snprintf(msg, sizeof(msg), "%s reads %s, but its receiver is disabled (rx = false, line %d)",
			 who, pin, p->line);
	else if (dv->type == DEV_W1 && dir != CAPE_PIN_DIR_BIDIR)
		snprintf(msg, sizeof(msg), "%s drives and reads %s: its direction must be bidir (line %d)",
			 who, pin, p->line);
	else
		return;
	derr(c, at, key, msg);
}

/*
 * A device's interrupt from a header pin: interrupt = { pin = "P9.15";
 * trigger = "falling"; }.  The pin is the cape's (listed in pins), muxed
 * as its GPIO and read (an input with its receiver on): the connector's
 * interrupt nexus maps the pin to its GPIO bank's line, which sees the pad
 * only so.
 */
static void parse_interrupt(struct dctx *c, config_setting_t *g, int i, struct cape_dev *dv,
			    const struct cape_def *d)
{
	static const struct { const char *name; uint32_t type; } triggers[] = {
		{ "rising", 1 }, { "falling", 2 }, { "both", 3 }, { "high", 4 }, { "low", 8 },
	};
	config_setting_t *ps = str_member(g, "pin"), *ts = str_member(g, "trigger");
	const char *name = ps ? config_setting_get_string(ps) : NULL;
	const char *trig = ts ? config_setting_get_string(ts) : NULL;
	const struct cape_pin *p;
	char key[40], msg[320];
	int idx;

	snprintf(key, sizeof(key), "devices[%d].interrupt", i);
	if (!name || !trig)
		return;		/* the schema said so */
	for (size_t k = 0; k < sizeof(triggers) / sizeof(triggers[0]); k++)
		if (!strcmp(trig, triggers[k].name))
			dv->irq_type = triggers[k].type;
	if (!dv->irq_type)
		return;		/* the schema's enum said so */
	p = gpio_pin_of(c, ps, key, d, name, "the interrupt",
			"a cape's interrupt comes from a pin it declares, muxed as its GPIO, direction in");
	if (!p)
		return;
	idx = p->idx;
	if ((p->word & CAPE_PIN_DIR_MASK) == CAPE_PIN_DIR_OUT || !(p->word & CAPE_PIN_RX_ENABLE)) {
		snprintf(msg, sizeof(msg), "the interrupt reads %s, but pins sets it as %s (line %d): "
			 "direction = \"in\"", cape_pin_names[idx],
			 (p->word & CAPE_PIN_DIR_MASK) == CAPE_PIN_DIR_OUT ? "an output"
									    : "an input with its receiver disabled",
			 p->line);
		derr(c, ps, key, msg);
		return;
	}
	for (size_t k = 0; k < dv->nprops; k++)
		if (!strcmp(dv->props[k].name, "interrupts")) {
			derr(c, g, key, "properties sets interrupts too: a device's interrupt is this key's");
			return;
		}
	dv->irq_pin = idx;
	dv->has_irq = true;
}

/*
 * An SPI device's chip select: a pin of pins muxed as the bus's csN (the
 * board's function table says which pins can be), and a chip select the
 * controller has on the header at all (the AM335x McSPI has two).
 */
static void check_spi_cs(struct dctx *c, config_setting_t *g, int i, const struct cape_dev *dv,
			 const struct cape_def *d)
{
	char sig[40], where[200] = "", key[32], msg[400];
	size_t o = 0;
	int anywhere = 0;

	snprintf(sig, sizeof(sig), "%s_cs%d", dv->bus, dv->cs);
	for (int idx = 0; idx < CAPE_NPINS; idx++)
		for (int m = 0; m < 8; m++) {
			const char *f = board_function(c->t, idx, m);
			const struct cape_pin *p;

			if (!f || strcmp(f, sig))
				continue;
			p = def_pin(d, idx);
			if (p && (p->word & CAPE_PIN_MODE_MASK) == m)
				return;
			anywhere++;
			if (o < sizeof(where))
				o += (size_t)snprintf(where + o, sizeof(where) - o, "%s%s mode %d",
						      o ? ", " : "", cape_pin_names[idx], m);
		}
	snprintf(key, sizeof(key), "devices[%d].cs", i);
	if (!anywhere)
		snprintf(msg, sizeof(msg), "%s has no chip select %d on the header (no pin can be %s)",
			 dv->bus, dv->cs, sig);
	else
		snprintf(msg, sizeof(msg), "%s chip select %d needs a pin of pins muxed as %s (%s); there is none",
			 dv->bus, dv->cs, sig, where);
	derr(c, config_setting_get_member(g, "cs") ? config_setting_get_member(g, "cs") : g, key, msg);
}

/* The keys a device type must have (the schema reports them missing). */
static bool dev_complete(const struct cape_dev *dv)
{
	switch (dv->type) {
	case DEV_I2C:
	case DEV_SPI:
		return dv->bus && dv->compatible;
	case DEV_LED:
	case DEV_KEY:
		return dv->label && dv->pin;
	case DEV_W1:
		return dv->pin;
	case DEV_UART:
		return dv->bus;
	default:
		return devkind_complete(dv);
	}
}

/*
 * compatible: one string or an array of them, most specific first; the
 * kernel takes at most 8 strings and 256 bytes from a cape (uevent limits).
 */
/* A compatible is "vendor,device": printable ASCII, no space, not empty. */
static void compatible_text_ok(struct dctx *c, config_setting_t *v, const char *key, const char *s)
{
	char msg[160];

	for (const char *p = *s ? s : ""; ; p++) {
		if (!*s || (*p && ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f))) {
			snprintf(msg, sizeof(msg), "\"%.40s\" %s", s,
				 *s ? "must be printable ASCII without spaces or control characters (vendor,device)"
				    : "must not be empty");
			derr(c, v, key, msg);
			return;
		}
		if (!*p)
			return;
	}
}

static void parse_compatible(struct dctx *c, config_setting_t *v, int i, struct cape_dev *dv)
{
	int m;
	char key[40], msg[160];

	snprintf(key, sizeof(key), "devices[%d].compatible", i);
	if (is_type(v, CONFIG_TYPE_STRING)) {
		dv->compatible = xstrdup(config_setting_get_string(v));
		dv->compat_len = strlen(dv->compatible) + 1;
		dv->compat = (uint8_t *)xstrdup(dv->compatible);
		compatible_text_ok(c, v, key, dv->compatible);
		return;
	}
	if (!is_type(v, CONFIG_TYPE_ARRAY) || !(m = config_setting_length(v)) ||
	    !is_type(config_setting_get_elem(v, 0), CONFIG_TYPE_STRING))
		return;		/* absent, or the schema said so */
	for (int k = 0; k < m; k++) {
		const char *s = config_setting_get_string_elem(v, k);
		size_t l = strlen(s) + 1;

		dv->compat = xrealloc(dv->compat, dv->compat_len + l);
		memcpy(dv->compat + dv->compat_len, s, l);
		dv->compat_len += l;
		compatible_text_ok(c, v, key, s);
	}
	dv->compatible = xstrdup(config_setting_get_string_elem(v, 0));
	if (m > 8 || dv->compat_len > 256) {
		snprintf(msg, sizeof(msg),
			 "%d strings, %zu bytes: the kernel takes at most 8 strings and 256 bytes",
			 m, dv->compat_len);
		derr(c, v, key, msg);
	}
}

static void parse_devices(struct dctx *c, config_setting_t *list, struct cape_def *d)
{
	int n = is_type(list, CONFIG_TYPE_LIST) ? config_setting_length(list) : 0;

	d->devs = xcalloc((size_t)n, sizeof(*d->devs));
	for (int i = 0; i < n; i++) {
		config_setting_t *g = config_setting_get_elem(list, i), *ts = str_member(g, "type");
		struct cape_dev *dv = &d->devs[d->ndevs];
		const char *type = ts ? config_setting_get_string(ts) : "";
		config_setting_t *props;
		int t, errors = c->errors;

		for (t = 0; t < DEV_NTYPES; t++)
			if (!strcmp(type, dev_names[t]))
				break;
		if (t >= DEV_NTYPES)
			continue;	/* the schema already said so */
		dv->type = (enum dev_type)t;
		dv->line = config_setting_source_line(g);
		dv->bus = dup_or_null(get_str(g, "bus", NULL));
		dv->name = dup_or_null(get_str(g, "name", NULL));
		dv->label = dup_or_null(get_str(g, "label", NULL));
		dv->pin = dup_or_null(get_str(g, "pin", NULL));
		dv->default_state = xstrdup(get_str(g, "default-state", "off"));
		dv->trigger = dup_or_null(get_str(g, "trigger", NULL));
		dv->address = get_int(g, "address", 0);
		dv->cs = get_int(g, "cs", 0);
		dv->max_freq = get_int(g, "max-frequency", 1000000);
		dv->code = get_int(g, "code", 0);
		dv->debounce = get_int(g, "debounce-ms", -1);
		dv->autorepeat = get_bool(g, "autorepeat", false);
		dv->wakeup = get_bool(g, "wakeup", false);
		dv->active_low = get_bool(g, "active-low", dv->type == DEV_KEY);
		parse_compatible(c, config_setting_get_member(g, "compatible"), i, dv);
		props = config_setting_get_member(g, "properties");
		if (is_type(props, CONFIG_TYPE_GROUP) || is_type(props, CONFIG_TYPE_LIST))
			parse_props(c, props, dv, d);
		if ((dv->type == DEV_I2C || dv->type == DEV_SPI) &&
		    is_type(config_setting_get_member(g, "interrupt"), CONFIG_TYPE_GROUP))
			parse_interrupt(c, config_setting_get_member(g, "interrupt"), i, dv, d);
		if (config_setting_get_member(g, "bus-properties")) {
			char key[40];

			snprintf(key, sizeof(key), "devices[%d].bus-properties", i);
			derr(c, config_setting_get_member(g, "bus-properties"), key,
			     "a cape cannot set a property of the board's bus (its clock-frequency, ...): "
			     "the kernel's connector lets a cape overlay add nodes to a bus and enable "
			     "it, and set nothing of the board's node (threat-model.rst, rule \"add "
			     "only\"); the bus runs as the board's device tree sets it");
		}
		for (size_t k = 0; (dv->type == DEV_I2C || dv->type == DEV_SPI) && dv->bus &&
				   k < d->ndevs; k++) {
			const struct cape_dev *o = &d->devs[k];
			int a = dv->type == DEV_I2C ? dv->address : dv->cs;
			char key[32], msg[160];

			if (o->type != dv->type || !o->bus || strcmp(o->bus, dv->bus) ||
			    (dv->type == DEV_I2C ? o->address : o->cs) != a)
				continue;
			snprintf(key, sizeof(key), "devices[%d].%s", i,
				 dv->type == DEV_I2C ? "address" : "cs");
			if (dv->type == DEV_I2C)
				snprintf(msg, sizeof(msg), "%s address 0x%02x is taken by %s (line %d)",
					 dv->bus, a, o->compatible ? o->compatible : "?", o->line);
			else
				snprintf(msg, sizeof(msg), "%s chip select %d is taken by %s (line %d)",
					 dv->bus, a, o->compatible ? o->compatible : "?", o->line);
			derr(c, g, key, msg);
			break;
		}
		if (dv->type == DEV_I2C || dv->type == DEV_SPI) {
			/* the node name: name, or the compatible after its comma */
			const char *base = dv->name, *why;
			char key[32], msg[160];

			if (!base && dv->compatible) {
				base = strchr(dv->compatible, ',');
				base = base ? base + 1 : dv->compatible;
			}
			if (base && !dt_node_name_ok(base, &why)) {
				snprintf(key, sizeof(key), "devices[%d].%s", i, dv->name ? "name" : "compatible");
				snprintf(msg, sizeof(msg), "node name \"%s\" %s%s", base, why,
					 dv->name ? "" : " (set name)");
				derr(c, config_setting_get_member(g, dv->name ? "name" : "compatible"),
				     key, msg);
			}
		}
		if (dv->label && (dv->type == DEV_LED || dv->type == DEV_KEY)) {
			/* LED class and input device names: one per cape */
			for (size_t k = 0; k < d->ndevs; k++) {
				const struct cape_dev *o = &d->devs[k];
				char key[32], msg[200];

				if (o->type != dv->type || !o->label || strcmp(o->label, dv->label))
					continue;
				snprintf(key, sizeof(key), "devices[%d].label", i);
				snprintf(msg, sizeof(msg), "duplicate %s label \"%s\" (first at line %d)",
					 dv->type == DEV_LED ? "LED" : "key", dv->label, o->line);
				derr(c, config_setting_get_member(g, "label"), key, msg);
				break;
			}
		}
		if (dv->pin) {
			int idx = cape_pin_index(dv->pin);
			const struct cape_pin *p = idx >= 0 ? def_pin(d, idx) : NULL;
			config_setting_t *at = config_setting_get_member(g, "pin");
			char key[32], msg[320], why[200], who[160];

			snprintf(key, sizeof(key), "devices[%d].pin", i);
			if (idx < 0 || cape_pin_is_ain(idx)) {
				if (idx < 0)
					pin_name_why(c->t, dv->pin, why, sizeof(why));
				else
					snprintf(why, sizeof(why), " (an analog input)");
				snprintf(msg, sizeof(msg), "\"%s\" is not a header GPIO pin%s", dv->pin, why);
				derr(c, g, key, msg);
			} else if (!p) {
				snprintf(msg, sizeof(msg), "%s is not listed in pins", cape_pin_names[idx]);
				derr(c, g, key, msg);
			} else {
				/* the name as the kernel writes it, whatever the definition's spelling */
				free(dv->pin);
				dv->pin = xstrdup(cape_pin_names[idx]);
				check_gpio_use(c, at ? at : g, key, dv, p);
				/* one GPIO, one device: gpiolib gives a line to one consumer */
				if (gpio_taken(d, idx, who, sizeof(who))) {
					snprintf(msg, sizeof(msg), "%s is already the GPIO of %s: a GPIO has one user",
						 dv->pin, who);
					derr(c, at ? at : g, key, msg);
				}
			}
		}
		if (dev_is_kind(dv->type)) {
			struct kind_ctx kc = { c->file, &c->errors, c->t };

			devkind_parse(&kc, g, i, d, dv);
		}
		/* a device with an error is left out of the overlay, whose errors are reported too */
		dv->bad = c->errors != errors || !dev_complete(dv);
		/* after: the device is still built, so its bus's pins are checked too */
		if (dv->type == DEV_SPI && dv->bus && dv->cs >= 0)
			check_spi_cs(c, g, i, dv, d);
		d->ndevs++;
	}
}

/* "FILE:LINE: syntax error[: what]": libconfig's text is often just "syntax error". */
void def_syntax_error(const char *path, const struct config_t *cfg)
{
	const char *t = config_error_text(cfg);

	if (err_quiet)
		return;
	fprintf(stderr, "%s:%d: syntax error%s%s\n", path, config_error_line(cfg),
		!t || !strcmp(t, "syntax error") ? "" : ": ", !t || !strcmp(t, "syntax error") ? "" : t);
}

static bool ident_char(int ch)
{
	return isalnum(ch) || ch == '_' || ch == '*' || ch == '.';
}

/*
 * libconfig 1.5 reads an integer without the L suffix as 32 bits and
 * wraps what does not fit, silently (4294967356 is 60, -2147483649 is
 * 2147483647): the value is gone before any check could see it.  So the
 * text is scanned first: every integer literal without L must fit 32 bits
 * (-2147483648 to 4294967295, 0xffffffff at most); one that does not is
 * an error at its line.  The number of errors.
 */
static int int_literals_check(const char *path, const char *t)
{
	int line = 1, errors = 0;

	for (const char *p = t; *p; p++) {
		const char *start, *q;
		bool neg = false;
		unsigned long long x = 0;
		bool big = false;

		if (*p == '\n') {
			line++;
			continue;
		}
		if (*p == '"') {	/* a string, with its escapes */
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && p[1])
					p++;
				else if (*p == '\n')
					line++;
			}
			if (!*p)
				break;
			continue;
		}
		if (*p == '#' || (*p == '/' && p[1] == '/')) {
			while (p[1] && p[1] != '\n')
				p++;
			continue;
		}
		if (*p == '/' && p[1] == '*') {
			for (p += 2; *p && !(*p == '*' && p[1] == '/'); p++)
				line += *p == '\n';
			if (!*p)
				break;
			p++;
			continue;
		}
		if (!isdigit((unsigned char)*p) || (p > t && ident_char((unsigned char)p[-1])))
			continue;
		start = p;
		if (p > t && (p[-1] == '-' || p[-1] == '+') &&
		    !(p - 1 > t && (ident_char((unsigned char)p[-2]) || p[-2] == '-'))) {
			neg = p[-1] == '-';
			start = p - 1;
		}
		q = p;
		if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
			for (q += 2; isxdigit((unsigned char)*q); q++) {
				big |= x >> 60;
				x = x * 16 + (unsigned)(isdigit((unsigned char)*q) ? *q - '0' :
							 (tolower((unsigned char)*q) - 'a' + 10));
			}
		} else {
			for (; isdigit((unsigned char)*q); q++) {
				big |= x > 1000000000000000000ULL;
				x = x * 10 + (unsigned)(*q - '0');
			}
			if (*q == '.' || *q == 'e' || *q == 'E') {	/* a float */
				while (isalnum((unsigned char)q[1]) || q[1] == '.' ||
				       ((q[1] == '-' || q[1] == '+') && (*q == 'e' || *q == 'E')))
					q++;
				p = q;
				continue;
			}
		}
		if (*q == 'L') {	/* 64 bits, said so: the checks see its value */
			p = q;
			continue;
		}
		if (big || (neg ? x > 2147483648ULL : x > 4294967295ULL)) {
			errors++;
			if (!err_quiet)
				fprintf(stderr,
					"%s:%d: %.*s does not fit 32 bits (-2147483648 to 4294967295); a 64-bit property value is two cells [high, low]\n",
					path, line, (int)(q - start), start);
		}
		p = q - 1;
	}
	return errors;
}

int def_load(const char *path0, const struct board *b, struct cape_def *d)
{
	const char *path = in_name(path0);	/* in messages: "-" is <stdin> */
	config_t cfg;
	config_setting_t *root, *s;
	struct dctx c = { path, 0, board_functions(b) };
	const char *ov;
	uint8_t *buf;
	size_t len;
	int r;

	memset(d, 0, sizeof(*d));
	d->file = xstrdup(path);
	r = read_file(path0, &buf, &len);
	if (r) {
		err("%s: cannot read definition: %s", path, strerror(-r));
		return EXIT_IO;
	}
	/* the other kinds of file capetool reads, said as such */
	if (eeprom_has_magic(buf, len) || (len >= 4 && !memcmp(buf, "\xd0\x0d\xfe\xed", 4))) {
		if (eeprom_has_magic(buf, len))
			err("%s: this is a cape EEPROM image, not a definition; use capetool decode",
			    path);
		else
			err("%s: this is a device tree blob (an overlay?), not a definition", path);
		free(buf);
		return EXIT_DEF;
	}
	if (is_dt_source(buf, len)) {
		err("%s: a device tree source (an overlay?), not a cape definition or HAT settings: a HAT+'s settings name its overlay (dt_blob \"NAME\"), and create and check find NAME.dtbo, NAME.dtso or NAME.dts beside them (a source compiled with dtc) and check it as the kernel would; a v1 HAT embeds it (create SETTINGS --dt-blob NAME.dts, compiled, or NAME.dtbo); a Raspberry Pi overlay goes through capetool import-rpi first",
		    path);
		free(buf);
		return EXIT_DEF;
	}
	if (memchr(buf, 0, len)) {
		const uint8_t *nul = memchr(buf, 0, len);
		int line = 1;

		for (const uint8_t *p = buf; p < nul; p++)
			line += *p == '\n';
		if (!err_quiet)
			fprintf(stderr, "%s:%d: a NUL byte: a definition is text\n", path, line);
		free(buf);
		return EXIT_DEF;
	}
	/* a UTF-8 byte-order mark (some Windows editors write one): not text */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) {
		memmove(buf, buf + 3, len - 3);
		len -= 3;
	}
	buf = xrealloc(buf, len + 1);
	buf[len] = 0;
	config_init(&cfg);
	if (!config_read_string(&cfg, (const char *)buf)) {
		def_syntax_error(path, &cfg);
		config_destroy(&cfg);
		free(buf);
		return EXIT_DEF;
	}
	root = config_root_setting(&cfg);
	if (!config_setting_length(root)) {
		/* nothing (or only comments): no line to name */
		if (!err_quiet)
			fprintf(stderr, "%s: empty definition: it needs at least eeprom = { board-name, "
				"version, manufacturer, part-number; } (capetool schema)\n", path);
		config_destroy(&cfg);
		free(buf);
		return EXIT_DEF;
	}
	/*
	 * Every error in one run: what the schema finds, then what it cannot
	 * say (pins, modes, devices), which reads only values of the right type.
	 */
	c.errors = schema_validate(embedded_cape_schema, path, root);
	if (c.errors < 0) {
		free(buf);
		config_destroy(&cfg);
		return EXIT_FAIL;
	}
	c.errors += int_literals_check(path, (const char *)buf);
	free(buf);
	d->parsed = true;
	parse_eeprom(&c, config_setting_get_member(root, "eeprom"), d);
	s = config_setting_get_member(root, "power");
	if (is_type(s, CONFIG_TYPE_GROUP)) {
		d->power_line = config_setting_source_line(s);
		d->power[0] = (uint16_t)get_int(s, "vdd-3v3b", 0);
		d->power[1] = (uint16_t)get_int(s, "vdd-5v", 0);
		d->power[2] = (uint16_t)get_int(s, "sys-5v", 0);
		d->power[3] = (uint16_t)get_int(s, "dc-supplied", 0);
	}
	if ((s = config_setting_get_member(root, "aliases")))
		derr(&c, s, "aliases",
		     "a cape cannot add /aliases entries: /aliases is the board's, no cape target of "
		     "the kernel's connector (threat-model.rst, rule \"targets\"); name the device "
		     "by its path, or a udev rule");
	parse_pins(&c, config_setting_get_member(root, "pins"), d);
	parse_devices(&c, config_setting_get_member(root, "devices"), d);
	if (config_setting_lookup_string(root, "overlay", &ov)) {
		char *dir = path_dirname(path0);

		d->overlay = ov[0] == '/' ? xstrdup(ov) : xasprintf("%s/%s", dir, ov);
		d->overlay_line = config_setting_source_line(config_setting_get_member(root, "overlay"));
		free(dir);
	}
	config_destroy(&cfg);
	return c.errors ? EXIT_DEF : EXIT_OK;
}

void def_free(struct cape_def *d)
{
	for (size_t i = 0; i < d->ndevs; i++) {
		struct cape_dev *dv = &d->devs[i];

		free(dv->bus); free(dv->compatible); free(dv->compat); free(dv->name); free(dv->label);
		free(dv->pin); free(dv->default_state); free(dv->trigger);
		for (size_t k = 0; k < dv->nprops; k++) {
			free(dv->props[k].name);
			free(dv->props[k].val);
			free(dv->props[k].gpio);
		}
		free(dv->props);
		devkind_free(dv);
	}
	free(d->devs);
	free(d->overlay);
	free(d->file);
	memset(d, 0, sizeof(*d));
}
