// SPDX-License-Identifier: GPL-2.0
/*
 * capetool: HATs on a Raspberry Pi's 40-pin header, as check and pinout
 * take them: a settings file or an image, at an ID EEPROM address
 * (FILE@0x51), with the GPIOs its map claims and its overlay holds
 * (hat-overlay.c); and check's rules for them alone and stacked
 * (rpi-hat.md, eepflash.sh, and the series' connector as the rpi profile
 * states it): a HAT's map leaves GPIO0/GPIO1 (ID_SD/ID_SC, the ID EEPROM's
 * bus) and the board's other pins alone, and bank 1 (not on the header:
 * the kernel's rpi-header.c says so, linked in through kcheck.h), a
 * HAT+ has no map, one ID EEPROM per address (0x50 a HAT or a standard
 * HAT+, 0x51 a stackable HAT+, 0x52/0x53 a stackable power HAT+), one HAT
 * per GPIO but the shared ones, and a unit's pins shared by the HATs that
 * enable it (as the kernel's connector holds them).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "capetool.h"
#include "hat.h"

int hat_arg(const char *arg, char **path, int *addr)
{
	const char *at = strrchr(arg, '@');
	char *end;
	long a;

	*addr = -1;
	*path = xstrdup(arg);
	if (!at || is_stdio(arg) || !access(arg, F_OK) || at == arg || !at[1])
		return EXIT_OK;
	errno = 0;
	a = strtol(at + 1, &end, 0);
	if (*end || errno)
		return EXIT_OK;		/* a name with '@' in it: its reader says */
	if (a < RPI_HAT_I2C_ADDR || a > RPI_HAT_I2C_ADDR_POWER_MODE1) {
		err("%s: a HAT's ID EEPROM answers at 0x50 (a HAT, a standard HAT+), 0x51 (a stackable HAT+), 0x52 or 0x53 (a stackable power HAT+, MODE0 or MODE1), not %s",
		    arg, at + 1);
		free(*path);
		*path = NULL;
		return EXIT_USAGE;
	}
	(*path)[at - arg] = 0;
	*addr = (int)a;
	return EXIT_OK;
}

static void use_image(struct hat_use *u, const struct hat_image *im)
{
	u->version = (int)im->version;
	memcpy(u->vendor, im->vendor_str, sizeof(u->vendor));
	memcpy(u->product, im->product_str, sizeof(u->product));
	for (int b = 0; b < 2; b++)
		if (im->gpio[b] >= 0)
			memcpy(u->pins + (b ? RPI_HAT_GPIO_BANK0_NUM : 0), im->atoms[im->gpio[b]].data + 2,
			       b ? RPI_HAT_GPIO_BANK1_NUM : RPI_HAT_GPIO_BANK0_NUM);
	u->gpio_map_v2 = im->version == RPI_HAT_VERSION_2 && (im->gpio[0] >= 0 || im->gpio[1] >= 0);
	u->power_v1 = im->version == RPI_HAT_VERSION_1 && im->power >= 0;
	u->current_supply = im->current_supply;
	u->image = true;
	if (im->dt >= 0) {
		u->dtlen = im->atoms[im->dt].len;
		u->dt = xmalloc(u->dtlen ? u->dtlen : 1);
		memcpy(u->dt, im->atoms[im->dt].data, u->dtlen);
	}
}

/* @u (zeroed, its file and path set) from an image, and what the kernel's parser says of it. */
static void hat_use_image(struct hat_use *u, const uint8_t *buf, size_t len, const struct hat_image *im)
{
	char why[200];

	use_image(u, im);
	if ((u->kernel_rc = hat_kernel_refuses(buf, len, im, why, sizeof(why))))
		u->kernel_why = xstrdup(why);
}

void hat_use_settings(struct hat_use *u, const struct hat_settings *s)
{
	size_t len;
	uint8_t *img = hat_encode(s, &len);
	struct hat_image im;
	char why[200];

	/* the image they make, through the kernel's code: what check's rules miss, it says */
	if (!hat_decode(img, len, &im, why, sizeof(why)) &&
	    (u->kernel_rc = hat_kernel_refuses(img, len, &im, why, sizeof(why))))
		u->kernel_why = xstrdup(why);
	hat_image_free(&im);
	free(img);
	u->version = s->version;
	memcpy(u->vendor, s->vendor, sizeof(u->vendor));
	memcpy(u->product, s->product, sizeof(u->product));
	memcpy(u->pins, s->pins, sizeof(u->pins));
	memcpy(u->line, s->gpio_line, sizeof(u->line));
	u->current_supply = s->current_supply;
	if (s->has_dt) {
		u->dtlen = s->dt.len;
		u->dt = xmalloc(u->dtlen ? u->dtlen : 1);
		memcpy(u->dt, s->dt.data, u->dtlen);
		u->dt_line = s->dt_line;
	}
}

int hat_use_load(const char *arg, int version, struct hat_use *u)
{
	char *path, why[200];
	int rc, addr;

	memset(u, 0, sizeof(*u));
	if ((rc = hat_arg(arg, &path, &addr)))
		return rc;
	u->file = xstrdup(in_name(path));
	u->path = xstrdup(path);
	u->addr = addr < 0 ? RPI_HAT_I2C_ADDR : addr;
	u->addr_given = addr >= 0;
	if (hat_input_kind(path) == 2) {
		struct hat_image im;
		uint8_t *buf;
		size_t len;

		if ((rc = read_file(path, &buf, &len))) {
			err("%s: %s", u->file, strerror(-rc));
			free(path);
			return EXIT_IO;
		}
		if ((rc = hat_decode(buf, len, &im, why, sizeof(why))))
			err("%s: %s", u->file, why);
		else
			hat_use_image(u, buf, len, &im);
		hat_image_free(&im);
		free(buf);
	} else {
		struct hat_settings s;

		/* at a stackable address, a HAT+: its reader refuses a GPIO map */
		if (!version && addr > RPI_HAT_I2C_ADDR)
			version = RPI_HAT_VERSION_2;
		rc = hat_settings_load(path, version, NULL, NULL, 0, &s);
		if (!rc) {
			hat_use_settings(u, &s);
			hat_settings_free(&s);
		}
	}
	free(path);
	return rc;
}

void hat_use_free(struct hat_use *u)
{
	free(u->file);
	free(u->path);
	free(u->dt);
	free(u->ov_why);
	free(u->kernel_why);
	hat_overlay_free(&u->ov);
	u->file = u->path = u->ov_why = u->kernel_why = NULL;
	u->dt = NULL;
}

int hat_use_overlay(const struct rpi_board *b, struct hat_use *u)
{
	uint64_t map = 0;
	int rc;

	for (int g = 0; g < HAT_GPIO_TOTAL; g++)
		if (u->pins[g] & RPI_HAT_PIN_USED)
			map |= 1ULL << g;
	rc = hat_overlay_of(b, u->path, u->version, u->dt, u->dtlen, map, &u->ov, &u->ov_why);

	return rc == EXIT_DEF ? EXIT_OK : rc;
}

uint64_t hat_use_held(const struct rpi_board *b, const struct hat_use *u)
{
	uint64_t held = hat_overlay_held(b, &u->ov);

	for (int g = 0; g < HAT_GPIO_TOTAL; g++)
		if (u->pins[g] & RPI_HAT_PIN_USED)
			held |= 1ULL << g;
	return held & ~b->shared_pins;
}

/* The GPIOs @u holds itself (its map, exclusive-use), not through a unit. */
static uint64_t own_held(const struct rpi_board *b, const struct hat_use *u)
{
	uint64_t held = u->ov.pins;

	for (int g = 0; g < HAT_GPIO_TOTAL; g++)
		if (u->pins[g] & RPI_HAT_PIN_USED)
			held |= 1ULL << g;
	return held & ~b->shared_pins;
}

/* The units @u's overlay enables behind GPIO @g (bit per export). */
static uint64_t units_at(const struct rpi_board *b, const struct hat_use *u, int g)
{
	uint64_t units = 0;

	for (int e = 0; e < b->nexports; e++)
		if ((u->ov.units >> e & 1) && (b->exports[e].pins >> g & 1))
			units |= 1ULL << e;
	return units;
}

const char *hat_use_holder(const struct rpi_board *b, const struct hat_use *u, int g)
{
	uint64_t units = units_at(b, u, g);

	if ((u->pins[g] & RPI_HAT_PIN_USED) || !(hat_overlay_held(b, &u->ov) >> g & 1))
		return NULL;
	if (u->ov.pins >> g & 1)
		return "exclusive-use";
	for (int e = 0; e < b->nexports; e++)
		if (units >> e & 1)
			return b->exports[e].name;
	return NULL;
}

bool hat_uses_clash(const struct rpi_board *b, const struct hat_use *u, const struct hat_use *v, int g)
{
	if (!(hat_use_held(b, u) >> g & 1) || !(hat_use_held(b, v) >> g & 1))
		return false;
	/* a unit both enable: its pins are shared by them */
	return ((own_held(b, u) | own_held(b, v)) >> g & 1) || !(units_at(b, u, g) & units_at(b, v, g));
}

/* "GPIO4 (pin 7)", or "GPIO30" for a GPIO not on the header. */
void hat_gpio_name(const struct rpi_board *b, int g, char *out, size_t n)
{
	if (b->pin_of_gpio[g])
		snprintf(out, n, "GPIO%d (pin %d)", g, b->pin_of_gpio[g]);
	else
		snprintf(out, n, "GPIO%d", g);
}

/* ---- check ---- */

struct problems {
	char *all;		/* "a; b": for the FILE: line */
	char *unlined;		/* those of them no line of the file says */
	bool warn;		/* said as warnings (create --force) */
};

static void problem(struct problems *p, const char *file, int line, const char *key,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void problem(struct problems *p, const char *file, int line, const char *key,
		    const char *fmt, ...)
{
	va_list ap;
	char *m, *j;

	va_start(ap, fmt);
	if (vasprintf(&m, fmt, ap) < 0)
		m = NULL;
	va_end(ap);
	if (!m)
		return;
	/* where the settings say it, as check says a definition's problems */
	if (line && !err_quiet)
		fprintf(stderr, "%s%s:%d: %s: %s\n", p->warn ? "warning: " : "", file, line, key, m);
	if (!line) {
		j = p->unlined ? xasprintf("%s; %s", p->unlined, m) : xstrdup(m);
		free(p->unlined);
		p->unlined = j;
	}
	j = p->all ? xasprintf("%s; %s", p->all, m) : xstrdup(m);
	free(p->all);
	free(m);
	p->all = j;
}

static void problems_free(struct problems *p)
{
	free(p->all);
	free(p->unlined);
}

static const char *hat_kind(const struct hat_use *u)
{
	return u->version == RPI_HAT_VERSION_1 ? "HAT" : "HAT+";
}

/* What the connector refuses of HAT @u's GPIO map (an image's or its settings'). */
static void map_problems(const struct rpi_board *b, const struct hat_use *u, struct problems *p)
{
	char g[32];

	for (int i = 0; i < RPI_HAT_GPIO_FIRST; i++) {
		if (!(u->pins[i] & RPI_HAT_PIN_USED))
			continue;
		hat_gpio_name(b, i, g, sizeof(g));
		problem(p, u->file, u->line[i], "setgpio",
			"%s is %s, the ID EEPROM's own bus: a GPIO map leaves GPIO0 and GPIO1 alone",
			g, i ? "ID_SC" : "ID_SD");
	}
	/*
	 * The 40-pin header's own rule, the kernel's code (rpi-header.c) on
	 * the image: at the line of the first GPIO of bank 1, which it names.
	 */
	if (u->kernel_why && u->kernel_rc == EXIT_DEF) {
		int line = 0;

		for (int i = HAT_GPIO_TOTAL - 1; i >= RPI_HAT_GPIO_BANK0_NUM; i--)
			if (u->pins[i] & RPI_HAT_PIN_USED)
				line = u->line[i];
		problem(p, u->file, line, "setgpio", "%s", u->kernel_why);
	}
	for (int i = RPI_HAT_GPIO_FIRST; i < RPI_HAT_GPIO_BANK0_NUM; i++) {
		if (!hat_board_pin_holder(b, i) || !(u->pins[i] & RPI_HAT_PIN_USED))
			continue;
		hat_gpio_name(b, i, g, sizeof(g));
		problem(p, u->file, u->line[i], "setgpio", "%s is held by %s: %s",
			g, hat_board_pin_holder(b, i), hat_board_pin_why(b, i));
	}
}

/* What else is wrong with HAT @u itself that its reader let through (an image's). */
static void own_problems(const struct hat_use *u, struct problems *p)
{
	if (u->ov_why)
		problem(p, u->file, u->dt_line, "dt_blob", "its overlay (%s): %s", u->ov.file, u->ov_why);
	if (u->gpio_map_v2)
		problem(p, u->file, 0, "", "a GPIO map in a HAT+ (eepmake refuses every GPIO keyword on HAT+: a v1 HAT's atom)");
	if (u->power_v1)
		problem(p, u->file, 0, "", "a power supply atom in a v1 HAT (HAT+ only)");
}

int hat_verify(struct hat_use *u, const char *board, unsigned int flags)
{
	struct rpi_board b;
	struct problems map = { .warn = !!(flags & HAT_VERIFY_FORCE) }, own = { 0 };
	int rc = rpi_board_load(board, &b);

	if (rc)
		return rc;
	if ((rc = hat_use_overlay(&b, u))) {
		rpi_board_free(&b);
		return rc;
	}
	map_problems(&b, u, &map);
	own_problems(u, &own);
	if (map.unlined)
		err("%s%s: %s", map.warn ? "warning: " : "", u->file, map.unlined);
	if (own.unlined)
		err("%s: %s", u->file, own.unlined);
	rc = own.all || (map.all && !map.warn) ? EXIT_DEF : EXIT_OK;
	/* what the kernel's parser refuses besides, in its words, as check says it */
	if (!rc && u->kernel_why && u->kernel_rc != EXIT_DEF) {
		err("%s: %s", u->file, u->kernel_why);
		rc = u->kernel_rc;
	}
	if (!rc && map.all)
		err("warning: %s: --force: the kernel's connector on board %s refuses it, going on",
		    u->file, b.name);
	if (!rc && u->ov.missing && (flags & HAT_VERIFY_MISSING))
		err("warning: %s: its overlay %s is not beside it (nor a .dtso or .dts source): not checked",
		    u->file, u->ov.missing);
	problems_free(&map);
	problems_free(&own);
	rpi_board_free(&b);
	return rc;
}

int hat_verify_image(const char *path, const uint8_t *buf, size_t len, unsigned int flags)
{
	struct hat_use u = { .file = xstrdup(in_name(path)), .path = xstrdup(path),
			     .addr = RPI_HAT_I2C_ADDR };
	struct hat_image im;
	char why[200];
	int rc = hat_decode(buf, len, &im, why, sizeof(why));

	if (rc)
		err("%s: %s", u.file, why);
	else
		hat_use_image(&u, buf, len, &im);
	hat_image_free(&im);
	if (!rc)
		rc = hat_verify(&u, NULL, flags);
	hat_use_free(&u);
	return rc;
}

/* Where HAT @u sits, beside the HATs before it: address and GPIOs held. */
static void stack_problems(const struct rpi_board *b, const struct hat_use *u,
			   const struct hat_use *before, int n, struct problems *p)
{
	char g[32];

	if (u->version == RPI_HAT_VERSION_1 && u->addr != RPI_HAT_I2C_ADDR)
		problem(p, u->file, 0, "", "a v1 HAT's ID EEPROM answers at 0x50 only, not 0x%02x (0x51-0x53 are stackable HAT+s')",
			u->addr);
	for (int j = 0; j < n; j++)
		if (before[j].file && before[j].version && before[j].addr == u->addr)
			problem(p, u->file, 0, "",
				"ID EEPROM address 0x%02x is held by %s \"%s\" (%s): one HAT%s per address",
				u->addr, hat_kind(&before[j]), before[j].product, before[j].file,
				u->version == RPI_HAT_VERSION_1 ? "" : "+");
	for (int i = RPI_HAT_GPIO_FIRST; i < HAT_GPIO_TOTAL; i++) {
		if (!(hat_use_held(b, u) >> i & 1))
			continue;
		for (int j = 0; j < n; j++) {
			const char *how = hat_use_holder(b, &before[j], i);

			if (!before[j].version || !hat_uses_clash(b, u, &before[j], i))
				continue;
			hat_gpio_name(b, i, g, sizeof(g));
			problem(p, u->file, u->line[i], "setgpio", "%s is held by %s \"%s\" (%s)%s%s", g,
				hat_kind(&before[j]), before[j].product, before[j].file,
				how ? ", its overlay's " : "", how ? how : "");
		}
	}
}

int hat_check(const char *board, char *const *args, int n, int version, bool quiet)
{
	struct rpi_board b;
	struct hat_use *u;
	int rc = rpi_board_load(board, &b), conflict = 0;

	if (rc)
		return rc;
	u = xcalloc((size_t)n, sizeof(*u));
	for (int i = 0; i < n; i++) {
		struct problems own = { 0 }, stack = { 0 };
		int r, ngpio = 0;

		fflush(stdout);		/* what was said of the HATs before, first */
		r = hat_use_load(args[i], version, &u[i]);

		if (r == EXIT_USAGE) {
			rc = rc ? rc : r;
			break;
		}
		if (r) {
			printf("%s: invalid\n", u[i].file);
			rc = rc ? rc : r;
			u[i].version = 0;	/* nothing of it holds anything */
			continue;
		}
		if ((r = hat_use_overlay(&b, &u[i]))) {
			printf("%s: invalid\n", u[i].file);
			rc = rc ? rc : r;
			u[i].version = 0;
			continue;
		}
		map_problems(&b, &u[i], &own);
		own_problems(&u[i], &own);
		/* what the kernel's parser refuses besides, in its words */
		if (!own.all && u[i].kernel_why && u[i].kernel_rc != EXIT_DEF) {
			err("%s: %s", u[i].file, u[i].kernel_why);
			printf("%s: invalid\n", u[i].file);
			rc = rc ? rc : u[i].kernel_rc;
			u[i].version = 0;
			continue;
		}
		stack_problems(&b, &u[i], u, i, &stack);
		if (own.all || stack.all) {
			printf("%s: %s%s%s%s\n", u[i].file, own.all ? "invalid: " : "",
			       own.all ? own.all : "", own.all && stack.all ? "; " : "",
			       stack.all ? stack.all : "");
			if (own.all)
				rc = rc ? rc : EXIT_DEF;
			conflict |= !!stack.all;
		}
		/* current_supply: the firmware takes it from a normal HAT+ alone only */
		if (u[i].current_supply && (u[i].addr != RPI_HAT_I2C_ADDR || n > 1))
			err("warning: %s: current_supply %u mA counts only for a standard HAT+ (0x50) alone on the Pi; %s",
			    u[i].file, u[i].current_supply,
			    u[i].addr != RPI_HAT_I2C_ADDR ? "this one is stackable"
							  : "with HATs stacked the firmware ignores it");
		if (!own.all && !stack.all && !quiet) {
			for (int g = 0; g < HAT_GPIO_TOTAL; g++)
				ngpio += !!(u[i].pins[g] & RPI_HAT_PIN_USED);
			printf("%s: ok: %s \"%s\" by %s at 0x%02x", u[i].file, hat_kind(&u[i]),
			       u[i].product, u[i].vendor, u[i].addr);
			if (u[i].version == RPI_HAT_VERSION_1)
				printf(", %d GPIO%s", ngpio, ngpio == 1 ? "" : "s");
			if (u[i].current_supply)
				printf(", current_supply %u mA", u[i].current_supply);
			if (u[i].ov.file) {
				int ov_gpio = __builtin_popcountll(hat_overlay_held(&b, &u[i].ov));

				printf(", overlay %s: %d GPIO%s", u[i].ov.file, ov_gpio, ov_gpio == 1 ? "" : "s");
			} else if (u[i].ov.missing) {
				printf(", overlay %s not beside it: not checked", u[i].ov.missing);
			}
			printf(" (board %s)\n", b.name);
		}
		problems_free(&own);
		problems_free(&stack);
	}
	if (!rc && conflict)
		rc = EXIT_CONFLICT;
	for (int i = 0; i < n; i++)
		hat_use_free(&u[i]);
	free(u);
	rpi_board_free(&b);
	return rc;
}
