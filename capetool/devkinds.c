// SPDX-License-Identifier: GPL-2.0
/*
 * capetool: the device kinds that enable a unit of the SoC behind the
 * header rather than add a chip to a bus, as BeagleBoard.org's own overlays
 * for such capes do (bb.org-overlays src/arm/):
 *   pwm    an ehrpwm or the ecap (BB-PWM0/1/2): the unit on;
 *   adc    the touchscreen/ADC unit (BB-ADC): on, its inputs declared;
 *   can    a DCAN unit (BB-CAN1): on, with its pins;
 *   rs485  a UART driving an RS-485 transceiver (BB-UART4-RS485): the UART
 *          on with the serial core's rs485 properties and the DE/RE GPIO;
 *   lcd    the LCD controller and a tilcdc panel (BB-BONE-LCD4-01 ...):
 *          panel-info, display timings, an optional PWM backlight;
 *   audio  McASP with a codec of the cape's and a simple-audio-card
 *          (BB-BONE-AUDI-02), an optional fixed (or GPIO-gated) MCLK.
 * def.c parses the common keys and hands a kind's own here; overlay.c
 * builds the other devices, then calls devkinds_build() (overlay-api.h).
 * A unit is a board "bus" of the kind's type (schemas/boards/, a .board file):
 * the board says where its pins can be and what the cape must mux.
 */
#include <libconfig.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capetool.h"
#include "overlay-api.h"

/* The keys of the lcd kind's panel-info and display timing, in bb.org's order. */
static const char *const panel_keys[] = {
	"ac-bias", "ac-bias-intrpt", "dma-burst-sz", "bpp", "fdd", "sync-edge", "sync-ctrl",
	"raster-order", "fifo-th",
};
/* bb.org's LCD capes' panel-info, the defaults. */
static const int panel_dflt[] = { 255, 0, 16, 16, 0x80, 0, 1, 0, 0 };
#define NPANEL (sizeof(panel_keys) / sizeof(panel_keys[0]))

static const char *const timing_keys[] = {
	"clock-frequency", "hactive", "vactive", "hfront-porch", "hback-porch", "hsync-len",
	"vback-porch", "vfront-porch", "vsync-len", "hsync-active", "vsync-active", "de-active",
	"pixelclk-active",
};
#define NTIMING (sizeof(timing_keys) / sizeof(timing_keys[0]))
/*
 * The signal polarities from here on are optional (display-timing.yaml):
 * real panels omit de-active and pixelclk-active, and the driver's default
 * is then the panel's.  Written only when the definition states them.
 */
#define TIMING_FIRST_FLAG 9

struct kind_data {
	/* adc */
	int nch, ch[8];
	/* rs485 */
	bool at_boot, rx_during_tx;
	int delay[2];
	/* lcd */
	int panel[NPANEL];
	int timing[NTIMING];
	bool timing_set[NTIMING];
	char *bl_pwm;			/* NULL: no backlight */
	int bl_channel, bl_period, bl_default, nlevels;
	int bl_line;			/* of backlight.pwm */
	uint32_t *levels;
	bool bl_inverted;
	/* audio */
	char *codec, *card_name, *format, *bclk_master, *frame_master, *mclk_pin;
	bool bclk_inv, frame_inv;
	char **widgets, **routing;
	int nwidgets, nrouting, mclk_freq;
	int mclk_line;
};

static void kerr(const struct kind_ctx *c, const config_setting_t *at, int i, const char *key,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void kerr(const struct kind_ctx *c, const config_setting_t *at, int i, const char *key,
		 const char *fmt, ...)
{
	va_list ap;

	(*c->errors)++;
	if (err_quiet)
		return;
	fprintf(stderr, "%s:%d: devices[%d].%s: ", c->file, at ? config_setting_source_line(at) : 0,
		i, key);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static const char *kstr(const config_setting_t *g, const char *key, const char *dflt)
{
	const char *v;

	return g && config_setting_lookup_string(g, key, &v) ? v : dflt;
}

static int kint(const config_setting_t *g, const char *key, int dflt)
{
	int v;

	return g && config_setting_lookup_int(g, key, &v) ? v : dflt;
}

static bool kbool(const config_setting_t *g, const char *key, bool dflt)
{
	int v;

	return g && config_setting_lookup_bool(g, key, &v) ? v : dflt;
}

static char *kdup(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static const struct cape_pin *find_pin(const struct cape_def *d, int idx)
{
	for (size_t i = 0; i < d->npins; i++)
		if (d->pins[i].idx == idx)
			return &d->pins[i];
	return NULL;
}

/* An array of strings; NULL (said) if an element is not one. */
static char **str_list(const struct kind_ctx *c, const config_setting_t *g, int i,
		       const char *key, int *n)
{
	config_setting_t *a = g ? config_setting_get_member(g, key) : NULL;
	char **v;

	*n = 0;
	if (!a || config_setting_type(a) != CONFIG_TYPE_ARRAY)
		return NULL;
	v = xcalloc((size_t)config_setting_length(a) + 1, sizeof(*v));
	for (int k = 0; k < config_setting_length(a); k++) {
		const char *s = config_setting_get_string_elem(a, k);

		if (!s) {
			kerr(c, a, i, key, "must be an array of strings");
			break;
		}
		v[(*n)++] = xstrdup(s);
	}
	return v;
}

/* An array of integers in [lo, hi] into @out (at most @max); -1 after saying why. */
/* As int_list, the member @key of @g named @name in messages ("backlight.levels"). */
static int int_list_named(const struct kind_ctx *c, const config_setting_t *g, int i,
			  const char *key, const char *name, long long lo, long long hi,
			  uint32_t *out, int max)
{
	config_setting_t *a = g ? config_setting_get_member(g, key) : NULL;
	int n = 0;

	key = name;

	if (!a)
		return 0;
	if (config_setting_type(a) != CONFIG_TYPE_ARRAY) {
		kerr(c, a, i, key, "must be an array [ ... ] of integers");
		return -1;
	}
	for (int k = 0; k < config_setting_length(a); k++) {
		config_setting_t *e = config_setting_get_elem(a, (unsigned)k);
		long long x;

		if (config_setting_type(e) != CONFIG_TYPE_INT &&
		    config_setting_type(e) != CONFIG_TYPE_INT64) {
			kerr(c, a, i, key, "must be an array [ ... ] of integers");
			return -1;
		}
		x = config_setting_get_int64(e);
		if (x < lo || x > hi) {
			kerr(c, a, i, key, "%lld is out of range (%lld to %lld)", x, lo, hi);
			return -1;
		}
		if (n >= max) {
			kerr(c, a, i, key, "at most %d values", max);
			return -1;
		}
		out[n++] = (uint32_t)x;
	}
	return n;
}

static int int_list(const struct kind_ctx *c, const config_setting_t *g, int i, const char *key,
		    long long lo, long long hi, uint32_t *out, int max)
{
	return int_list_named(c, g, i, key, key, lo, hi, out, max);
}

/*
 * A GPIO the kind drives (the RS-485 DE/RE line, the MCLK gate): a header
 * pin listed in pins, muxed as its GPIO, an output.  Its canonical name,
 * or NULL after saying why.
 */
static char *driven_gpio(const struct kind_ctx *c, const config_setting_t *g, int i,
			 const char *key, const struct cape_def *d, const char *what)
{
	const char *name = kstr(g, key, NULL);
	config_setting_t *at = config_setting_get_member(g, key);
	int idx, gm, mode;
	const struct cape_pin *p;

	if (!name)
		return NULL;
	idx = cape_pin_index(name);
	if (idx < 0 || cape_pin_is_ain(idx)) {
		kerr(c, at, i, key, "\"%s\" is not a header GPIO pin", name);
		return NULL;
	}
	p = find_pin(d, idx);
	if (!p) {
		kerr(c, at, i, key, "%s is not listed in pins", cape_pin_names[idx]);
		return NULL;
	}
	gm = board_gpio_mode(c->t, idx);
	mode = p->word & CAPE_PIN_MODE_MASK;
	if (gm >= 0 && mode != gm) {
		const char *f = board_function(c->t, idx, mode);

		kerr(c, at, i, key, "%s needs %s muxed as a GPIO, mode %d (%s); pins has it in mode %d%s%s%s (line %d)",
		     what, cape_pin_names[idx], gm, board_function(c->t, idx, gm), mode,
		     f ? " (" : "", f ? f : "", f ? ")" : "", p->line);
		return NULL;
	}
	if ((p->word & CAPE_PIN_DIR_MASK) == CAPE_PIN_DIR_IN) {
		kerr(c, at, i, key, "%s drives %s, but pins sets it as an input (line %d)", what,
		     cape_pin_names[idx], p->line);
		return NULL;
	}
	return xstrdup(cape_pin_names[idx]);
}

static void parse_adc(const struct kind_ctx *c, config_setting_t *g, int i,
		      const struct cape_def *d, struct kind_data *k)
{
	uint32_t ch[8];
	int n = int_list(c, g, i, "channels", 0, 6, ch, 8);

	if (n < 0)
		return;
	if (!config_setting_get_member(g, "channels")) {
		/* the analog inputs the cape lists */
		for (size_t p = 0; p < d->npins; p++)
			if (cape_pin_is_ain(d->pins[p].idx) && n < 8)
				ch[n++] = (uint32_t)(d->pins[p].idx - CAPE_BONE_FIRST_AIN);
		if (!n) {
			kerr(c, g, i, "channels", "an ADC needs its analog inputs (AIN0-AIN6, P9.33-P9.40) in pins");
			return;
		}
	}
	for (int a = 0; a < n; a++) {
		int idx = CAPE_BONE_FIRST_AIN + (int)ch[a];

		for (int b = 0; b < a; b++)
			if (ch[b] == ch[a]) {
				kerr(c, g, i, "channels", "AIN%u twice", ch[a]);
				return;
			}
		if (!find_pin(d, idx)) {
			kerr(c, config_setting_get_member(g, "channels"), i, "channels",
			     "AIN%u (%s) is not listed in pins", ch[a], cape_pin_names[idx]);
			return;
		}
		k->ch[k->nch++] = (int)ch[a];
	}
}

static void parse_lcd(const struct kind_ctx *c, config_setting_t *g, int i,
		      struct kind_data *k)
{
	config_setting_t *p = config_setting_get_member(g, "panel"),
			 *t = config_setting_get_member(g, "timings"),
			 *bl = config_setting_get_member(g, "backlight");

	for (size_t n = 0; n < NPANEL; n++)
		k->panel[n] = kint(p, panel_keys[n], panel_dflt[n]);
	for (size_t n = 0; n < NTIMING; n++) {
		int v;

		k->timing_set[n] = t && config_setting_lookup_int(t, timing_keys[n], &v);
		k->timing[n] = k->timing_set[n] ? v : 0;
	}
	if (bl) {
		uint32_t lv[256];
		int n;

		k->bl_pwm = kdup(kstr(bl, "pwm", NULL));
		if (config_setting_get_member(bl, "pwm"))
			k->bl_line = config_setting_source_line(config_setting_get_member(bl, "pwm"));
		k->bl_channel = kint(bl, "channel", 0);
		k->bl_period = kint(bl, "period", 500000);
		k->bl_inverted = kbool(bl, "inverted", false);
		n = int_list_named(c, bl, i, "levels", "backlight.levels", 0, 0xffffffffLL, lv, 256);
		if (!n && config_setting_get_member(bl, "levels"))
			kerr(c, config_setting_get_member(bl, "levels"), i, "backlight.levels",
			     "an empty list: at least one brightness level");
		if (!config_setting_get_member(bl, "levels")) {
			/* bb.org's: 0 to 100 in steps of 1 */
			for (n = 0; n <= 100; n++)
				lv[n] = (uint32_t)n;
		}
		if (n > 0) {
			k->levels = xmalloc((size_t)n * sizeof(*k->levels));
			memcpy(k->levels, lv, (size_t)n * sizeof(*lv));
			k->nlevels = n;
		}
		k->bl_default = kint(bl, "default-level", k->nlevels ? k->nlevels - 1 : 0);
		if (k->nlevels && k->bl_default >= k->nlevels)
			kerr(c, bl, i, "backlight.default-level",
			     "%d is past the last of %d levels (an index, from 0)", k->bl_default,
			     k->nlevels);
	}
}

static void parse_audio(const struct kind_ctx *c, config_setting_t *g, int i,
			const struct cape_def *d, struct cape_dev *dv, struct kind_data *k)
{
	config_setting_t *m = config_setting_get_member(g, "mclk");
	const char *names[64];
	size_t nn = 0;
	bool found = false;

	k->codec = kdup(kstr(g, "codec", NULL));
	k->card_name = kdup(kstr(g, "card-name", d->board_name));
	k->format = kdup(kstr(g, "format", "i2s"));
	k->bclk_master = kdup(kstr(g, "bitclock-master", "codec"));
	k->frame_master = kdup(kstr(g, "frame-master", "codec"));
	k->bclk_inv = kbool(g, "bitclock-inversion", false);
	k->frame_inv = kbool(g, "frame-inversion", false);
	k->widgets = str_list(c, g, i, "widgets", &k->nwidgets);
	k->routing = str_list(c, g, i, "routing", &k->nrouting);
	if (k->nwidgets % 2)
		kerr(c, g, i, "widgets", "pairs: \"TYPE\", \"NAME\" (an odd count, %d)", k->nwidgets);
	if (k->nrouting % 2)
		kerr(c, g, i, "routing", "pairs: \"SINK\", \"SOURCE\" (an odd count, %d)", k->nrouting);
	if (m) {
		k->mclk_freq = kint(m, "frequency", 0);
		k->mclk_pin = driven_gpio(c, m, i, "enable-pin", d, "the MCLK gate");
		if (kstr(m, "enable-pin", NULL) && !k->mclk_pin)
			return;
	}
	/* the codec: an i2c or spi device of this cape, by its node name */
	for (size_t n = 0; k->codec && n < d->ndevs; n++) {
		const struct cape_dev *o = &d->devs[n];
		const char *base = o->name;

		if (o == dv || (o->type != DEV_I2C && o->type != DEV_SPI) || !o->compatible)
			continue;
		if (!base) {
			base = strchr(o->compatible, ',');
			base = base ? base + 1 : o->compatible;
		}
		if (!strcmp(base, k->codec))
			found = true;
		else if (nn < 64)
			names[nn++] = base;
	}
	if (k->codec && !found) {
		const char *near = closest(k->codec, names, nn);

		kerr(c, config_setting_get_member(g, "codec"), i, "codec",
		     "no i2c or spi device of this cape is named \"%s\" (its name, or its compatible after the comma)%s%s%s",
		     k->codec, near ? "; did you mean " : "", near ? near : "", near ? "?" : "");
	}
}

void devkind_parse(const struct kind_ctx *c, config_setting_t *g, int i, const struct cape_def *d,
		   struct cape_dev *dv)
{
	struct kind_data *k = xcalloc(1, sizeof(*k));

	dv->kind = k;
	/* one panel and one sound card a cape: their nodes are the cape's by name */
	for (size_t n = 0; (dv->type == DEV_LCD || dv->type == DEV_AUDIO) && n < d->ndevs; n++)
		if (d->devs[n].type == dv->type) {
			kerr(c, config_setting_get_member(g, "type"), i, "type",
			     "a second %s device (the first at line %d): one a cape",
			     dev_type_name(dv->type), d->devs[n].line);
			break;
		}
	switch (dv->type) {
	case DEV_PWM:
		free(dv->bus);
		dv->bus = kdup(kstr(g, "unit", NULL));
		break;
	case DEV_ADC:
		free(dv->bus);
		dv->bus = xstrdup("adc");
		parse_adc(c, g, i, d, k);
		break;
	case DEV_CAN:
		break;
	case DEV_RS485: {
		uint32_t delay[2] = { 0, 0 };
		int n = int_list(c, g, i, "delay", 0, 0xffffffffLL, delay, 2);

		if (n == 1)
			kerr(c, config_setting_get_member(g, "delay"), i, "delay",
			     "two values: [before-send, after-send] in ms");
		k->delay[0] = (int)delay[0];
		k->delay[1] = (int)delay[1];
		k->at_boot = kbool(g, "enabled-at-boot", true);
		k->rx_during_tx = kbool(g, "rx-during-tx", false);
		dv->active_low = kbool(g, "de-active-low", false);
		free(dv->pin);
		dv->pin = driven_gpio(c, g, i, "de-pin", d, "the RS-485 driver enable");
		break;
	}
	case DEV_LCD:
		free(dv->bus);
		dv->bus = xstrdup("lcdc");
		parse_lcd(c, g, i, k);
		break;
	case DEV_AUDIO:
		free(dv->bus);
		dv->bus = xstrdup(kstr(g, "mcasp", "mcasp0"));
		parse_audio(c, g, i, d, dv, k);
		break;
	default:
		break;
	}
	/* one device a unit: two would set its node twice, the second silently winning */
	for (size_t n = 0; dv->type != DEV_LCD && dv->type != DEV_AUDIO && dv->bus && n < d->ndevs; n++)
		if (d->devs[n].type == dv->type && d->devs[n].bus && !strcmp(d->devs[n].bus, dv->bus)) {
			kerr(c, config_setting_get_member(g, "type"), i, "type",
			     "a second %s device on %s (the first at line %d): one a unit",
			     dev_type_name(dv->type), dv->bus, d->devs[n].line);
			break;
		}
}

bool devkind_complete(const struct cape_dev *dv)
{
	const struct kind_data *k = dv->kind;

	if (!k || !dv->bus)
		return false;
	if (dv->type == DEV_AUDIO)
		return k->codec != NULL;
	if (dv->type == DEV_LCD) {
		for (size_t n = 0; n < TIMING_FIRST_FLAG; n++)
			if (!k->timing_set[n])
				return false;
	}
	return true;
}

void devkind_free(struct cape_dev *dv)
{
	struct kind_data *k = dv->kind;

	if (!k)
		return;
	free(k->bl_pwm);
	free(k->levels);
	free(k->codec); free(k->card_name); free(k->format);
	free(k->bclk_master); free(k->frame_master); free(k->mclk_pin);
	for (int n = 0; n < k->nwidgets; n++)
		free(k->widgets[n]);
	for (int n = 0; n < k->nrouting; n++)
		free(k->routing[n]);
	free(k->widgets);
	free(k->routing);
	free(k);
	dv->kind = NULL;
}

char *devkind_short_name(const struct cape_dev *dv)
{
	switch (dv->type) {
	case DEV_PWM:
		return xasprintf("PWM %s", dv->bus);
	case DEV_ADC:
		return xstrdup("ADC");
	case DEV_CAN:
		return xasprintf("CAN %s", dv->bus);
	case DEV_RS485:
		return xasprintf("RS-485 %s", dv->bus);
	case DEV_LCD:
		return xstrdup("LCD panel");
	case DEV_AUDIO:
		return xasprintf("audio %s", dv->bus);
	default:
		return xstrdup(dev_type_name(dv->type));
	}
}

/* ---- building ---- */

/* The channel a PWM output signal is: ehrpwm1a 0, ehrpwm1b 1, an eCAP's 0. */
static int pwm_signal_channel(const char *signal)
{
	size_t l = signal ? strlen(signal) : 0;

	return l && !strncmp(signal, "ehrpwm", 6) && signal[l - 1] == 'b' ? 1 : 0;
}

/*
 * Whether a pin of @d is muxed as an output of the PWM unit @bus, of
 * @channel (any, if negative); if not, @outs lists where it could be.
 */
bool pwm_out_muxed(const struct board_bus *bus, const struct cape_def *d, int channel,
		   char *outs, size_t outsz)
{
	size_t o = 0;

	if (outsz)
		outs[0] = 0;
	for (size_t i = 0; i < bus->nmux; i++) {
		const struct cape_pin *p = find_pin(d, bus->mux[i].idx);

		if (channel >= 0 && pwm_signal_channel(bus->mux[i].signal) != channel)
			continue;
		if (p && (p->word & CAPE_PIN_MODE_MASK) == bus->mux[i].mode)
			return true;
		if (o < outsz)
			o += (size_t)snprintf(outs + o, outsz - o, "%s%s mode %d (%s)",
					      o ? ", " : "", cape_pin_names[bus->mux[i].idx],
					      bus->mux[i].mode, bus->mux[i].signal);
	}
	return false;
}

/*
 * A PWM unit on: the unit, and one of its outputs muxed (the board's mux
 * entries of the unit say where they can be); with @channel >= 0, that
 * channel's output.
 */
static bool pwm_unit(struct bctx *c, const struct cape_dev *dv, const char *unit, int channel)
{
	const struct board *b = ov_board(c);
	const struct cape_def *d = ov_def(c);
	const struct board_bus *bus = board_find_bus(b, unit);
	struct cape_dev u = *dv;
	char outs[256];

	if (bus && !strcmp(bus->type, "pwm") && !pwm_out_muxed(bus, d, channel, outs, sizeof(outs))) {
		if (channel >= 0)
			ov_err(c, dv, "PWM unit %s channel %d: no pin of pins is muxed as its output (%s)",
			       unit, channel, outs);
		else
			ov_err(c, dv, "PWM unit %s: no pin of pins is muxed as one of its outputs (%s)",
			       unit, outs);
		return false;
	}
	u.bus = (char *)unit;
	return ov_bus(c, &u, "pwm") != NULL;
}

const char *devkind_pwm_unit(const struct cape_dev *dv)
{
	if (dv->type == DEV_PWM)
		return dv->bus;
	if (dv->type == DEV_LCD && dv->kind)
		return dv->kind->bl_pwm;
	return NULL;
}

static void build_rs485(struct bctx *c, const struct cape_dev *dv)
{
	const struct kind_data *k = dv->kind;
	struct onode *ov = ov_bus(c, dv, "uart");

	if (!ov)
		return;
	ov_u32(ov, "rs485-rts-delay", (uint32_t)k->delay[0]);
	ov_u32_append(ov, "rs485-rts-delay", (uint32_t)k->delay[1]);
	if (k->at_boot)
		ov_flag(ov, "linux,rs485-enabled-at-boot-time");
	if (k->rx_during_tx)
		ov_flag(ov, "rs485-rx-during-tx");
	if (dv->pin)
		ov_gpio(c, dv, ov, "rts-gpios");
}

static void build_lcd(struct bctx *c, const struct cape_dev *dv)
{
	const struct kind_data *k = dv->kind;
	struct onode *dev, *panel, *info, *dt, *t, *bl = NULL;
	char *name;

	if (!ov_bus(c, dv, "lcd"))
		return;
	if (k->bl_pwm) {
		/* what is wrong with the unit is said at backlight.pwm */
		struct cape_dev u = *dv;
		char key[48];
		bool ok;

		snprintf(key, sizeof(key), "devices[%d].backlight.pwm", (int)(dv - ov_def(c)->devs));
		if (k->bl_line)
			u.line = k->bl_line;
		ov_err_key(c, key);
		ok = pwm_unit(c, &u, k->bl_pwm, k->bl_channel);
		ov_err_key(c, NULL);
		if (!ok)
			return;
	}
	dev = ov_devices(c, dv);
	if (!dev)
		return;
	if (k->bl_pwm) {
		name = xasprintf("%s-backlight", ov_slug(c));
		bl = ov_node(dev, name);
		free(name);
		ov_str(bl, "compatible", "pwm-backlight");
		if (!ov_unit_ref(c, dv, bl, "pwms", k->bl_pwm))
			return;
		ov_u32_append(bl, "pwms", (uint32_t)k->bl_channel);
		ov_u32_append(bl, "pwms", (uint32_t)k->bl_period);
		ov_u32_append(bl, "pwms", k->bl_inverted ? 1 : 0);	/* PWM_POLARITY_INVERTED */
		for (int n = 0; n < k->nlevels; n++)
			ov_u32_append(bl, "brightness-levels", k->levels[n]);
		ov_u32(bl, "default-brightness-level", (uint32_t)k->bl_default);
	}
	name = xasprintf("%s-panel", ov_slug(c));
	panel = ov_node(dev, name);
	free(name);
	ov_str(panel, "compatible", "ti,tilcdc,panel");
	if (bl)
		ov_local_ref(c, panel, "backlight", bl);
	info = ov_node(panel, "panel-info");
	for (size_t n = 0; n < NPANEL; n++)
		ov_u32(info, panel_keys[n], (uint32_t)k->panel[n]);
	dt = ov_node(panel, "display-timings");
	name = xasprintf("timing-%dx%d", k->timing[1], k->timing[2]);
	t = ov_node(dt, name);
	free(name);
	for (size_t n = 0; n < NTIMING; n++)
		if (n < TIMING_FIRST_FLAG || k->timing_set[n])
			ov_u32(t, timing_keys[n], (uint32_t)k->timing[n]);
	ov_local_ref(c, dt, "native-mode", t);
}

static void build_audio(struct bctx *c, const struct cape_dev *dv)
{
	const struct kind_data *k = dv->kind;
	const struct cape_def *d = ov_def(c);
	const struct cape_dev *codec = NULL;
	struct onode *cn, *dev, *mclk = NULL, *snd, *cpu, *cod;
	char *name;

	for (size_t n = 0; n < d->ndevs && !codec; n++) {
		const struct cape_dev *o = &d->devs[n];
		const char *base = o->name;

		if ((o->type != DEV_I2C && o->type != DEV_SPI) || !o->compatible || o->bad)
			continue;
		if (!base) {
			base = strchr(o->compatible, ',');
			base = base ? base + 1 : o->compatible;
		}
		if (!strcmp(base, k->codec))
			codec = o;
	}
	cn = codec ? ov_dev_node(c, codec) : NULL;
	if (!cn)
		return;		/* the codec's own error is said */
	if (!ov_has(cn, "#sound-dai-cells"))
		ov_u32(cn, "#sound-dai-cells", 0);
	if (!ov_bus(c, dv, "mcasp"))
		return;
	dev = ov_devices(c, dv);
	if (!dev)
		return;
	if (k->mclk_freq) {
		name = xasprintf("%s-mclk", ov_slug(c));
		mclk = ov_node(dev, name);
		free(name);
		ov_str(mclk, "compatible", "fixed-clock");
		ov_u32(mclk, "#clock-cells", 0);
		ov_u32(mclk, "clock-frequency", (uint32_t)k->mclk_freq);
		if (k->mclk_pin) {
			struct cape_dev g = *dv;
			struct onode *gate;

			name = xasprintf("%s-mclk-gate", ov_slug(c));
			gate = ov_node(dev, name);
			free(name);
			ov_str(gate, "compatible", "gpio-gate-clock");
			ov_u32(gate, "#clock-cells", 0);
			ov_local_ref(c, gate, "clocks", mclk);
			g.pin = k->mclk_pin;
			g.active_low = false;
			if (!ov_gpio(c, &g, gate, "enable-gpios"))
				return;
			mclk = gate;
		}
	}
	name = xasprintf("%s-sound", ov_slug(c));
	snd = ov_node(dev, name);
	free(name);
	ov_str(snd, "compatible", "simple-audio-card");
	ov_str(snd, "simple-audio-card,name", k->card_name);
	for (int n = 0; n < k->nwidgets; n++)
		ov_str_append(snd, "simple-audio-card,widgets", k->widgets[n]);
	for (int n = 0; n < k->nrouting; n++)
		ov_str_append(snd, "simple-audio-card,routing", k->routing[n]);
	ov_str(snd, "simple-audio-card,format", k->format);
	if (k->bclk_inv)
		ov_flag(snd, "simple-audio-card,bitclock-inversion");
	if (k->frame_inv)
		ov_flag(snd, "simple-audio-card,frame-inversion");
	cpu = ov_node(snd, "simple-audio-card,cpu");
	if (!ov_unit_ref(c, dv, cpu, "sound-dai", board_find_bus(ov_board(c), dv->bus)->label))
		return;
	cod = ov_node(snd, "simple-audio-card,codec");
	ov_local_ref(c, cod, "sound-dai", cn);
	if (mclk) {
		ov_local_ref(c, cod, "clocks", mclk);
		ov_str(cod, "clock-names", "mclk");
	}
	ov_local_ref(c, snd, "simple-audio-card,bitclock-master",
		     !strcmp(k->bclk_master, "cpu") ? cpu : cod);
	ov_local_ref(c, snd, "simple-audio-card,frame-master",
		     !strcmp(k->frame_master, "cpu") ? cpu : cod);
}

void devkinds_build(struct bctx *c)
{
	const struct cape_def *d = ov_def(c);

	for (size_t i = 0; i < d->ndevs; i++) {
		const struct cape_dev *dv = &d->devs[i];

		if (dv->bad || !dev_is_kind(dv->type))
			continue;
		switch (dv->type) {
		case DEV_PWM:
			pwm_unit(c, dv, dv->bus, -1);
			break;
		case DEV_ADC:
			ov_bus(c, dv, "adc");
			break;
		case DEV_CAN:
			ov_bus(c, dv, "can");
			break;
		case DEV_RS485:
			build_rs485(c, dv);
			break;
		case DEV_LCD:
			build_lcd(c, dv);
			break;
		case DEV_AUDIO:
			build_audio(c, dv);
			break;
		default:
			break;
		}
	}
}
