// SPDX-License-Identifier: GPL-2.0
/*
 * capetool: Raspberry Pi HAT (v1) and HAT+ (v2) ID EEPROMs: eepmake's
 * settings text in, the image eepmake writes out (byte for byte), and the
 * image decoded with every atom's bounds and CRC checked.
 * Layout: <linux/capebus-hat.h>.
 *
 * The settings reader takes what eepmake takes without a warning and
 * writes the same bytes.  Where eepmake warns and goes on with a default,
 * reads past what it meant (a one-digit field "10" read as 1, hex "0x12"
 * read as 0 1 2) or misbehaves (an empty vendor string), this reader
 * refuses the file, naming the line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <libfdt.h>
#include "capetool.h"
#include "hat.h"
#include "kcheck.h"

_Static_assert(sizeof(struct rpi_hat_header) == 12, "HAT header");
_Static_assert(sizeof(struct rpi_hat_atom_header) == 8, "HAT atom header");
_Static_assert(sizeof(struct rpi_hat_vendor) == 22, "HAT vendor atom");
_Static_assert(sizeof(struct rpi_hat_gpio_map) == 30, "HAT GPIO map");
_Static_assert(sizeof(struct rpi_hat_gpio_map_bank1) == 20, "HAT GPIO map bank 1");
_Static_assert(sizeof(struct rpi_hat_power_supply) == 4, "HAT power supply atom");

/* The C locale's isprint and isspace, whatever the locale. */
static bool c_print(int c) { return c >= 0x20 && c <= 0x7e; }
static bool c_space(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static bool c_alnum(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

uint16_t crc16_arc(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint16_t crc = 0;

	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc & 1) ? (uint16_t)((crc >> 1) ^ 0xa001) : (uint16_t)(crc >> 1);
	}
	return crc;
}

static void put_le16(uint8_t *p, uint16_t v) { p[0] = v & 0xff; p[1] = v >> 8; }
static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v & 0xff; p[1] = (v >> 8) & 0xff; p[2] = (v >> 16) & 0xff; p[3] = v >> 24;
}
static uint16_t get_le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

bool hat_has_signature(const uint8_t *buf, size_t len)
{
	return len >= 4 && !memcmp(buf, RPI_HAT_SIGNATURE_STR, 4);
}

/* ---- the settings text ---- */

static const char *const func_names[8] = {
	[RPI_HAT_PIN_FUNC_INPUT] = "INPUT", [RPI_HAT_PIN_FUNC_OUTPUT] = "OUTPUT",
	[RPI_HAT_PIN_FUNC_ALT0] = "ALT0", [RPI_HAT_PIN_FUNC_ALT1] = "ALT1",
	[RPI_HAT_PIN_FUNC_ALT2] = "ALT2", [RPI_HAT_PIN_FUNC_ALT3] = "ALT3",
	[RPI_HAT_PIN_FUNC_ALT4] = "ALT4", [RPI_HAT_PIN_FUNC_ALT5] = "ALT5",
};
static const char *const pull_names[4] = { "DEFAULT", "UP", "DOWN", "NONE" };

enum key {
	K_UUID, K_ID, K_VER, K_VENDOR, K_PRODUCT, K_SUPPLY,
	K_DRIVE, K_SLEW, K_HYST, K_BACK_POWER, K_B1_DRIVE, K_B1_SLEW, K_B1_HYST,
	K_SETGPIO, K_DT, K_CUSTOM, K_END, K_NKEYS
};
static const char *const key_names[K_NKEYS] = {
	"product_uuid", "product_id", "product_ver", "vendor", "product", "current_supply",
	"gpio_drive", "gpio_slew", "gpio_hysteresis", "back_power", "bank1_gpio_drive",
	"bank1_gpio_slew", "bank1_gpio_hysteresis", "setgpio", "dt_blob", "custom_data", "end",
};

static bool is_gpio_key(int k) { return k >= K_DRIVE && k <= K_SETGPIO; }

const char *hat_func_name(uint8_t pin) { return func_names[pin & RPI_HAT_PIN_FUNC_MASK]; }
const char *hat_pull_name(uint8_t pin)
{
	return pull_names[(pin & RPI_HAT_PIN_PULL_MASK) >> RPI_HAT_PIN_PULL_SHIFT];
}

struct sctx {
	const char *file;
	int errors, line;
	struct hat_settings *s;
	int line_of[K_NKEYS];		/* first line of each key, 0: not set */
	int gpio_line[HAT_GPIO_TOTAL];
	int blob;			/* open data: -2 none, -1 the DT, else a custom index */
	size_t cap;
	bool in_string;
	int string_line, blob_line;
};

static void serr(struct sctx *c, int line, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void serr(struct sctx *c, int line, const char *key, const char *fmt, ...)
{
	va_list ap;
	char why[400];

	c->errors++;
	if (err_quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	/* one write a line: a line is never torn by standard output's */
	if (line)
		fprintf(stderr, "%s:%d: %s: %s\n", c->file, line, key, why);
	else
		fprintf(stderr, "%s: %s: %s\n", c->file, key, why);
}

static struct hat_blob *cur_blob(struct sctx *c)
{
	if (c->blob == -2)
		return NULL;
	return c->blob == -1 ? &c->s->dt : &c->s->custom[c->blob];
}

static void add_byte(struct sctx *c, uint8_t b)
{
	struct hat_blob *bl = cur_blob(c);

	if (bl->len >= c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		bl->data = xrealloc(bl->data, c->cap);
	}
	bl->data[bl->len++] = b;
}

static void finish_blob(struct sctx *c)
{
	c->blob = -2;
	c->cap = 0;
	c->in_string = false;
}

static void open_blob(struct sctx *c, int which)
{
	finish_blob(c);
	if (which == -1) {
		c->s->has_dt = true;
	} else {
		c->s->custom = xrealloc(c->s->custom, (c->s->ncustom + 1) * sizeof(*c->s->custom));
		c->s->custom[c->s->ncustom] = (struct hat_blob){ NULL, 0 };
		which = (int)c->s->ncustom++;
	}
	c->blob = which;
	c->blob_line = c->line;
}

/* A line of a multi-line string (eepmake's parse_string), raw. */
static void string_line(struct sctx *c, const char *p, const char *key)
{
	int ch;

	while ((ch = (unsigned char)*p++) != 0) {
		if (ch == '\\') {
			int c2 = (unsigned char)*p++;

			if (c2 == 'r') {
				ch = '\r';
			} else if (c2 == '\\') {
				ch = '\\';
			} else if (c2 == '0') {
				add_byte(c, 0);
				return;		/* the rest of the line goes */
			} else if (c2 == '"') {
				finish_blob(c);
				return;
			} else {
				serr(c, c->line, key, "bad escape '\\%s' in a string (known: \\r \\\\ \\0 \\\")",
				     c2 == '\n' ? "<newline>" : (char[2]){ (char)c2, 0 });
				if (!c2)
					return;
				continue;
			}
		} else if (ch == '\r') {
			continue;		/* real CRs are written \r: these are CRLF line ends */
		}
		add_byte(c, (uint8_t)ch);
	}
}

/* What follows dt_blob or custom_data, or a line of hex data (eepmake's parse_data). */
static void data_text(struct sctx *c, const char *p, const char *key)
{
	size_t digits = 0;
	int hi = 0;

	while (c_space((unsigned char)*p))
		p++;
	if (*p == '"') {
		if (p[1] == '\n' || p[1] == '\r') {
			c->in_string = true;
			c->string_line = c->line;
			return;
		}
		for (p++; *p != '"'; p++) {
			if (!c_print((unsigned char)*p)) {
				serr(c, c->line, key, *p && *p != '\n' && *p != '\r'
				     ? "byte 0x%02x in a one-line string (a multi-line string begins with \" at the line's end)"
				     : "no closing quote (a '#' starts a comment, even inside quotes)",
				     (unsigned char)*p);
				finish_blob(c);
				return;
			}
			add_byte(c, (uint8_t)*p);
		}
		finish_blob(c);
		for (p++; c_space((unsigned char)*p); p++)
			;
		if (*p)
			serr(c, c->line, key, "text after the closing quote");
		return;
	}
	for (; *p; p++) {
		int v = hexval((unsigned char)*p);

		if (c_space((unsigned char)*p))
			continue;
		if (v < 0) {
			serr(c, c->line, key, "'%c' is not a hex digit (hex data: pairs of hex digits, spaces between them allowed)",
			     c_print((unsigned char)*p) ? *p : '?');
			return;
		}
		if (digits++ & 1)
			add_byte(c, (uint8_t)(hi << 4 | v));
		else
			hi = v;
	}
	if (digits & 1)
		serr(c, c->line, key, "an odd number of hex digits on the line");
}

/* The next whitespace-separated word of *p into @w (at most n - 1 bytes). */
static bool word(const char **p, char *w, size_t n)
{
	const char *q = *p;
	size_t k = 0;

	while (c_space((unsigned char)*q))
		q++;
	if (!*q)
		return false;
	while (*q && !c_space((unsigned char)*q)) {
		if (k + 1 < n)
			w[k] = *q;
		k++;
		q++;
	}
	w[k + 1 < n ? k : n - 1] = 0;
	*p = q;
	return k + 1 < n;
}

static bool at_end(const char *p)
{
	while (c_space((unsigned char)*p))
		p++;
	return !*p;
}

static bool parse_hex(const char *w, unsigned long max, unsigned long *v)
{
	const char *q = w;

	if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
		q += 2;
	if (!*q || strlen(q) > 8)
		return false;
	*v = 0;
	for (; *q; q++) {
		int h = hexval((unsigned char)*q);

		if (h < 0)
			return false;
		*v = *v << 4 | (unsigned long)h;
	}
	return *v <= max;
}

static bool parse_dec(const char *w, unsigned long max, unsigned long *v)
{
	if (!*w || strlen(w) > 10)
		return false;
	*v = 0;
	for (; *w; w++) {
		if (*w < '0' || *w > '9')
			return false;
		*v = *v * 10 + (unsigned long)(*w - '0');
	}
	return *v <= max;
}

static void parse_uuid(struct sctx *c, const char *p, const char *key)
{
	static const int groups[5] = { 8, 4, 4, 4, 12 };
	char w[64];
	uint8_t nib[32];
	int n = 0;
	const char *q;
	uint32_t *u = c->s->uuid;

	if (!word(&p, w, sizeof(w)) || !at_end(p))
		goto bad;
	q = w;
	for (int g = 0; g < 5; g++) {
		for (int i = 0; i < groups[g]; i++, q++) {
			int h = hexval((unsigned char)*q);

			if (h < 0)
				goto bad;
			nib[n++] = (uint8_t)h;
		}
		if (g < 4 && *q++ != '-')
			goto bad;
	}
	if (*q)
		goto bad;
	memset(u, 0, 16);
	for (int i = 0; i < 32; i++)
		u[3 - i / 8] = u[3 - i / 8] << 4 | nib[i];
	return;
bad:
	serr(c, c->line, key, "a UUID xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (hex digits), not \"%s\"", w);
}

static void parse_string_value(struct sctx *c, const char *p, const char *key, char *dst)
{
	const char *q, *e;

	while (c_space((unsigned char)*p))
		p++;
	if (*p != '"') {
		serr(c, c->line, key, "a string in double quotes");
		return;
	}
	q = p + 1;
	e = strchr(q, '"');
	if (!e) {
		serr(c, c->line, key, "no closing quote (a '#' starts a comment, even inside quotes)");
		return;
	}
	if (e == q) {
		serr(c, c->line, key, "an empty string");
		return;
	}
	if (e - q > RPI_HAT_STRING_MAX) {
		serr(c, c->line, key, "%td bytes: at most %d", e - q, RPI_HAT_STRING_MAX);
		return;
	}
	for (const char *r = q; r < e; r++)
		if ((unsigned char)*r < 0x20 || *r == 0x7f) {
			serr(c, c->line, key, "control character 0x%02x in the string", (unsigned char)*r);
			return;
		}
	if (!at_end(e + 1)) {
		serr(c, c->line, key, "text after the closing quote");
		return;
	}
	memcpy(dst, q, (size_t)(e - q));
	dst[e - q] = 0;
}

/* gpio_drive and the like: one digit 0..max (eepmake reads one hex digit). */
static void parse_field(struct sctx *c, const char *p, const char *key, unsigned max,
			uint8_t *dst, unsigned shift)
{
	char w[16];

	if (!word(&p, w, sizeof(w)) || !at_end(p) || w[1] || w[0] < '0' || w[0] > (char)('0' + max)) {
		serr(c, c->line, key, "one digit, 0 to %u", max);
		return;
	}
	*dst |= (uint8_t)((unsigned)(w[0] - '0') << shift);
}

static void parse_setgpio(struct sctx *c, const char *p, const char *key)
{
	char w[3][16];
	unsigned long n;
	int f, pl;

	for (int i = 0; i < 3; i++)
		if (!word(&p, w[i], sizeof(w[i]))) {
			serr(c, c->line, key, "setgpio GPIO FUNCTION PULL: GPIO %d-%d, FUNCTION INPUT, OUTPUT or ALT0-ALT5, PULL DEFAULT, UP, DOWN or NONE",
			     RPI_HAT_GPIO_FIRST, HAT_GPIO_TOTAL - 1);
			return;
		}
	if (!at_end(p)) {
		serr(c, c->line, key, "text after GPIO FUNCTION PULL");
		return;
	}
	if (!parse_dec(w[0], HAT_GPIO_TOTAL - 1, &n) || n < RPI_HAT_GPIO_FIRST) {
		serr(c, c->line, key, "GPIO \"%s\": %d to %d (GPIO0 and GPIO1 are the ID EEPROM's bus)",
		     w[0], RPI_HAT_GPIO_FIRST, HAT_GPIO_TOTAL - 1);
		return;
	}
	for (f = 0; f < 8 && strcmp(w[1], func_names[f]); f++)
		;
	for (pl = 0; pl < 4 && strcmp(w[2], pull_names[pl]); pl++)
		;
	if (f == 8) {
		const char *near = closest(w[1], func_names, 8);

		serr(c, c->line, key, "function \"%s\": INPUT, OUTPUT or ALT0-ALT5%s%s%s", w[1],
		     near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
	}
	if (pl == 4) {
		const char *near = closest(w[2], pull_names, 4);

		serr(c, c->line, key, "pull \"%s\": DEFAULT, UP, DOWN or NONE%s%s%s", w[2],
		     near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
	}
	if (f == 8 || pl == 4)
		return;
	if (c->gpio_line[n]) {
		serr(c, c->line, key, "GPIO%lu set again (first at line %d)", n, c->gpio_line[n]);
		return;
	}
	c->gpio_line[n] = c->line;
	c->s->pins[n] = (uint8_t)(RPI_HAT_PIN_USED | pl << RPI_HAT_PIN_PULL_SHIFT | f);
	if (n >= RPI_HAT_GPIO_BANK0_NUM)
		c->s->has_gpio[1] = true;
}

static void parse_line(struct sctx *c, char *line)
{
	char w[32];
	const char *p;
	int k;

	if (c->in_string) {
		string_line(c, line, c->blob == -1 ? "dt_blob" : "custom_data");
		return;
	}
	if ((p = strchr(line, '#')))
		*(char *)p = 0;
	p = line;
	while (c_space((unsigned char)*p))
		p++;
	if (!*p)
		return;
	if (!c_alnum((unsigned char)*p)) {
		serr(c, c->line, "line", "does not begin with a key (or, in hex data, a hex digit)");
		return;
	}
	{
		const char *q = p;

		word(&q, w, sizeof(w));
		for (k = 0; k < K_NKEYS && strcmp(w, key_names[k]); k++)
			;
		if (k == K_NKEYS) {
			const char *near;

			if (c->blob != -2) {	/* hex data of the open dt_blob or custom_data */
				data_text(c, p, c->blob == -1 ? "dt_blob" : "custom_data");
				return;
			}
			near = closest(w, key_names, K_NKEYS);
			serr(c, c->line, w, "not a key of the settings format%s%s%s",
			     near ? "; did you mean " : "", near ? near : "", near ? "?" : "");
			return;
		}
		p = q;
	}
	if (k != K_SETGPIO && k != K_CUSTOM && k != K_END && c->line_of[k]) {
		serr(c, c->line, key_names[k], "set again (first at line %d)", c->line_of[k]);
		return;
	}
	if (!c->line_of[k])
		c->line_of[k] = c->line;
	switch (k) {
	case K_UUID:
		parse_uuid(c, p, w);
		break;
	case K_ID:
	case K_VER: {
		char v[16];
		unsigned long n;

		if (!word(&p, v, sizeof(v)) || !at_end(p) || !parse_hex(v, 0xffff, &n)) {
			serr(c, c->line, w, "a 16-bit number in hex, 0x0000 to 0xffff (eepmake reads it as hex, with or without 0x)");
			break;
		}
		*(k == K_ID ? &c->s->product_id : &c->s->product_ver) = (uint16_t)n;
		break;
	}
	case K_VENDOR:
		parse_string_value(c, p, w, c->s->vendor);
		break;
	case K_PRODUCT:
		parse_string_value(c, p, w, c->s->product);
		break;
	case K_SUPPLY: {
		char v[16];
		unsigned long n;

		if (!word(&p, v, sizeof(v)) || !at_end(p) || !parse_dec(v, 0xffffffffUL, &n))
			serr(c, c->line, w, "a current in mA, a decimal number");
		else
			c->s->current_supply = (uint32_t)n;
		break;
	}
	case K_DRIVE: case K_B1_DRIVE:
		parse_field(c, p, w, RPI_HAT_GPIO_DRIVE_MAX, &c->s->gpio_flags[k == K_B1_DRIVE], 0);
		c->s->has_gpio[k == K_B1_DRIVE] = true;
		break;
	case K_SLEW: case K_B1_SLEW:
		parse_field(c, p, w, 2, &c->s->gpio_flags[k == K_B1_SLEW], RPI_HAT_GPIO_SLEW_SHIFT);
		c->s->has_gpio[k == K_B1_SLEW] = true;
		break;
	case K_HYST: case K_B1_HYST:
		parse_field(c, p, w, 2, &c->s->gpio_flags[k == K_B1_HYST], RPI_HAT_GPIO_HYSTERESIS_SHIFT);
		c->s->has_gpio[k == K_B1_HYST] = true;
		break;
	case K_BACK_POWER:
		parse_field(c, p, w, RPI_HAT_BACK_POWER_2A, &c->s->back_power, 0);
		c->s->has_gpio[0] = true;
		break;
	case K_SETGPIO:
		parse_setgpio(c, p, w);
		break;
	case K_DT:
		open_blob(c, -1);
		data_text(c, p, w);
		break;
	case K_CUSTOM:
		open_blob(c, 0);
		data_text(c, p, w);
		break;
	case K_END:
		finish_blob(c);
		break;
	}
}

int hat_version_option(const char *arg)
{
	if (strcmp(arg, "1") && strcmp(arg, "2")) {
		err("--hat-version: 1 (HAT) or 2 (HAT+), not %s", arg);
		return -1;
	}
	return arg[0] - '0';
}

int hat_input_kind(const char *path)
{
	uint8_t *buf;
	size_t len, n = strlen(path);
	int kind;

	if (read_file(path, &buf, &len))
		return 0;	/* the reader of the other kind says why */
	kind = hat_has_signature(buf, len) ? 2
	       : hat_looks_like_settings(buf, len) ||
	         (!file_kind_not_image(buf, len) && (buf_is_text(buf, len) || !len) && n > 4 &&
		  !strcmp(path + n - 4, ".txt")) ? 1 : 0;
	free(buf);
	return kind;
}

bool hat_looks_like_settings(const uint8_t *buf, size_t len)
{
	size_t i = 0;

	if (!buf_is_text(buf, len))
		return false;
	while (i < len) {
		size_t e = i, k;

		while (e < len && buf[e] != '\n')
			e++;
		while (i < e && c_space(buf[i]))
			i++;
		if (i < e && buf[i] != '#') {
			/* the first line with something on it */
			for (k = 0; k < K_NKEYS; k++) {
				size_t n = strlen(key_names[k]), j = i + n;

				if (j > e || memcmp(buf + i, key_names[k], n) || (j < e && !c_space(buf[j])))
					continue;
				while (j < e && c_space(buf[j]))
					j++;
				return k != K_END && (j == e || (buf[j] != '=' && buf[j] != ':'));
			}
			return false;
		}
		i = e + 1;
	}
	return false;
}

/*
 * Why the capebus core refuses the firmware file a HAT+ overlay name makes
 * (NAME.dtbo with "..": not a file of the firmware directory), or NULL.
 */
static const char *dotdot_name(const uint8_t *name, size_t len)
{
	static char why[RPI_HAT_STRING_MAX + 120];

	for (size_t i = 0; i < len; i++)
		if (name[i] == '.' && (i + 1 == len || name[i + 1] == '.')) {
			snprintf(why, sizeof(why),
				 "overlay name \"%.*s\" makes the file %.*s.dtbo, which the capebus core refuses (\"..\" in a firmware file name)",
				 len > 64 ? 64 : (int)len, (const char *)name, len > 64 ? 64 : (int)len,
				 (const char *)name);
			return why;
		}
	return NULL;
}

static int read_blob(const char *path, const char *what, struct hat_blob *b)
{
	int r = read_file(path, &b->data, &b->len);

	if (r) {
		err("%s: cannot read %s: %s", in_name(path), what, strerror(-r));
		b->data = NULL;
		b->len = 0;
		return EXIT_IO;
	}
	return 0;
}

static void random_uuid(uint32_t u[4])
{
	int fd = open("/dev/urandom", O_RDONLY);
	ssize_t r = fd >= 0 ? read(fd, u, 16) : -1;

	if (fd >= 0)
		close(fd);
	if (r != 16) {
		/* no /dev/urandom: time and pid, still a v4 UUID's shape */
		u[0] = (uint32_t)getpid();
		u[1] = (uint32_t)time(NULL);
		u[2] = (uint32_t)clock();
		u[3] = 0x5eedc0deU;
	}
	u[2] = (u[2] & 0xffff0fffU) | 0x00004000U;	/* version 4 */
	u[1] = (u[1] & 0x3fffffffU) | 0x80000000U;	/* RFC 4122 variant */
}

int hat_settings_load(const char *path, int version, const char *dt_file,
		      char *const *custom_files, size_t ncustom_files, struct hat_settings *s)
{
	uint8_t *buf;
	size_t len;
	int r;

	memset(s, 0, sizeof(*s));
	r = read_file(path, &buf, &len);
	if (r) {
		err("%s: cannot read settings: %s", in_name(path), strerror(-r));
		return EXIT_IO;
	}
	r = hat_settings_parse(in_name(path), buf, len, version, dt_file, custom_files,
			       ncustom_files, s);
	free(buf);
	return r;
}

int hat_settings_parse(const char *name, const uint8_t *buf, size_t len, int version,
		       const char *dt_file, char *const *custom_files, size_t ncustom_files,
		       struct hat_settings *s)
{
	struct sctx c = { .file = name, .s = s, .blob = -2 };
	size_t total;
	int r, gpio_line = 0;
	const char *gpio_key = NULL;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < len;) {
		size_t e = i;
		char *line;

		while (e < len && buf[e] != '\n')
			e++;
		if (e < len)
			e++;		/* the line keeps its newline, as getline's */
		c.line++;
		if (memchr(buf + i, 0, e - i)) {
			serr(&c, c.line, "line", "a NUL byte: this is not a settings text");
			i = e;
			continue;
		}
		line = xmalloc(e - i + 1);
		memcpy(line, buf + i, e - i);
		line[e - i] = 0;
		parse_line(&c, line);
		free(line);
		i = e;
	}
	memcpy(s->gpio_line, c.gpio_line, sizeof(s->gpio_line));
	s->dt_line = c.line_of[K_DT];
	if (c.in_string)
		serr(&c, c.string_line, c.blob == -1 ? "dt_blob" : "custom_data",
		     "the multi-line string is not closed (\\\" closes it)");
	finish_blob(&c);

	for (int k = K_UUID; k <= K_PRODUCT; k++)
		if (!c.line_of[k])
			serr(&c, 0, key_names[k], "required key missing");
	for (int k = K_DRIVE; k <= K_SETGPIO; k++)
		if (c.line_of[k] && (!gpio_line || c.line_of[k] < gpio_line)) {
			gpio_line = c.line_of[k];
			gpio_key = key_names[k];
		}
	if (!version)
		version = gpio_line ? RPI_HAT_VERSION_1 : RPI_HAT_VERSION_2;
	s->version = version;
	if (version == RPI_HAT_VERSION_2) {
		for (int k = K_DRIVE; k <= K_SETGPIO; k++)
			if (c.line_of[k])
				serr(&c, c.line_of[k], key_names[k], "not supported on HAT+ (a v1 HAT's GPIO map)");
	} else {
		if (c.line_of[K_SUPPLY])
			serr(&c, c.line_of[K_SUPPLY], "current_supply",
			     gpio_line ? "not supported on a v1 HAT (%s at line %d makes this file one)"
				       : "not supported on a v1 HAT%s", gpio_line ? gpio_key : "", gpio_line);
		for (int k = K_DRIVE; k <= K_BACK_POWER; k++)
			if (!c.line_of[k])
				serr(&c, 0, key_names[k], "required key missing (a v1 HAT's GPIO map bank 0 has all four)");
		if (s->has_gpio[1])
			for (int k = K_B1_DRIVE; k <= K_B1_HYST; k++)
				if (!c.line_of[k])
					serr(&c, 0, key_names[k], "required key missing (GPIO map bank 1 is used%s)",
					     c.line_of[K_B1_DRIVE] || c.line_of[K_B1_SLEW] || c.line_of[K_B1_HYST]
						     ? "" : ": setgpio 28-45");
	}
	(void)is_gpio_key;
	if (s->has_dt && !s->dt.len)
		serr(&c, c.line_of[K_DT], "dt_blob", "empty");
	else if (s->has_dt && version == RPI_HAT_VERSION_2) {
		bool ok = c_alnum(s->dt.data[0]);

		for (size_t i = 0; i < s->dt.len; i++)
			ok = ok && c_print(s->dt.data[i]);
		if (!ok)
			serr(&c, c.line_of[K_DT], "dt_blob",
			     "a HAT+ names its overlay: printable, beginning with a letter or digit");
		else if (s->dt.len > kcheck_hat_overlay_max)
			serr(&c, c.line_of[K_DT], "dt_blob",
			     "an overlay name of %zu bytes: the kernel takes at most %zu (NAME.dtbo is a file name)",
			     s->dt.len, kcheck_hat_overlay_max);
		else if (memchr(s->dt.data, '/', s->dt.len))
			serr(&c, c.line_of[K_DT], "dt_blob",
			     "'/' in the overlay name: it names a file of the firmware directory, not a path (the kernel refuses it)");
		else if (dotdot_name(s->dt.data, s->dt.len))
			serr(&c, c.line_of[K_DT], "dt_blob", "%s", dotdot_name(s->dt.data, s->dt.len));
	}
	if (dt_file) {
		if (version == RPI_HAT_VERSION_2)
			serr(&c, 0, "--dt-blob", "a HAT+ names its overlay in the settings (dt_blob \"name\"), it embeds no .dtbo");
		else if (s->has_dt)
			serr(&c, c.line_of[K_DT], "dt_blob", "and --dt-blob: one device tree atom only");
	}
	if (c.errors) {
		hat_settings_free(s);
		return EXIT_DEF;
	}
	if (dt_file) {	/* a .dtbo, or a source compiled as import-rpi compiles one */
		if ((r = dt_source_read(dt_file, NULL, 0, false, &s->dt.data, &s->dt.len))) {
			hat_settings_free(s);
			return r;
		}
		s->has_dt = true;
	}
	for (size_t i = 0; i < ncustom_files; i++) {
		s->custom = xrealloc(s->custom, (s->ncustom + 1) * sizeof(*s->custom));
		if ((r = read_blob(custom_files[i], "custom data", &s->custom[s->ncustom]))) {
			hat_settings_free(s);
			return r;
		}
		s->ncustom++;
	}
	total = sizeof(struct rpi_hat_header) + RPI_HAT_ATOM_MIN_SIZE + sizeof(struct rpi_hat_vendor) +
		strlen(s->vendor) + strlen(s->product);
	if (s->has_gpio[0])
		total += RPI_HAT_ATOM_MIN_SIZE + sizeof(struct rpi_hat_gpio_map);
	if (s->has_gpio[1])
		total += RPI_HAT_ATOM_MIN_SIZE + sizeof(struct rpi_hat_gpio_map_bank1);
	if (s->current_supply)
		total += RPI_HAT_ATOM_MIN_SIZE + sizeof(struct rpi_hat_power_supply);
	if (s->has_dt)
		total += RPI_HAT_ATOM_MIN_SIZE + (s->dt.len < HAT_IMAGE_MAX ? s->dt.len : HAT_IMAGE_MAX);
	for (size_t i = 0; i < s->ncustom; i++)
		total += RPI_HAT_ATOM_MIN_SIZE + (s->custom[i].len < HAT_IMAGE_MAX ? s->custom[i].len : HAT_IMAGE_MAX);
	if (total > HAT_IMAGE_MAX) {
		err("%s: the image would be %s%zu bytes: more than a 24C512 (%d bytes) holds",
		    c.file, total >= HAT_IMAGE_MAX ? "at least " : "", total, HAT_IMAGE_MAX);
		hat_settings_free(s);
		return EXIT_DEF;
	}
	if (!s->uuid[0] && !s->uuid[1] && !s->uuid[2] && !s->uuid[3]) {
		random_uuid(s->uuid);
		s->uuid_generated = true;
	}
	return EXIT_OK;
}

void hat_settings_free(struct hat_settings *s)
{
	free(s->dt.data);
	for (size_t i = 0; i < s->ncustom; i++)
		free(s->custom[i].data);
	free(s->custom);
	s->dt.data = NULL;
	s->custom = NULL;
	s->ncustom = 0;
}

/* ---- the image ---- */

struct wbuf {
	uint8_t *b;
	size_t len, cap, start;
	unsigned n;
};

static void wb_add(struct wbuf *w, const void *p, size_t n)
{
	if (w->len + n > w->cap) {
		w->cap = (w->len + n) * 2;
		w->b = xrealloc(w->b, w->cap);
	}
	if (n)
		memcpy(w->b + w->len, p, n);
	w->len += n;
}

static void atom_begin(struct wbuf *w, uint16_t type)
{
	uint8_t h[8] = { 0 };

	w->start = w->len;
	put_le16(h, type);
	put_le16(h + 2, (uint16_t)w->n);
	wb_add(w, h, sizeof(h));
}

static void atom_end(struct wbuf *w)
{
	uint8_t crc[2];

	put_le32(w->b + w->start + 4, (uint32_t)(w->len - w->start - 8 + 2));
	put_le16(crc, crc16_arc(w->b + w->start, w->len - w->start));
	wb_add(w, crc, 2);
	w->n++;
}

static void atom_blob(struct wbuf *w, uint16_t type, const struct hat_blob *b)
{
	atom_begin(w, type);
	wb_add(w, b->data, b->len);
	atom_end(w);
}

static void atom_gpio(struct wbuf *w, const struct hat_settings *s, int bank)
{
	uint8_t m[2 + RPI_HAT_GPIO_BANK0_NUM];
	size_t npins = bank ? RPI_HAT_GPIO_BANK1_NUM : RPI_HAT_GPIO_BANK0_NUM;

	atom_begin(w, bank ? RPI_HAT_ATOM_GPIO_BANK1 : RPI_HAT_ATOM_GPIO);
	m[0] = s->gpio_flags[bank];
	m[1] = bank ? 0 : s->back_power;
	memcpy(m + 2, s->pins + (bank ? RPI_HAT_GPIO_BANK0_NUM : 0), npins);
	wb_add(w, m, 2 + npins);
	atom_end(w);
}

uint8_t *hat_encode(const struct hat_settings *s, size_t *len)
{
	struct wbuf w = { 0 };
	uint8_t h[sizeof(struct rpi_hat_header)] = { 0 }, v[sizeof(struct rpi_hat_vendor)];

	wb_add(&w, h, sizeof(h));
	atom_begin(&w, RPI_HAT_ATOM_VENDOR);
	for (int i = 0; i < 4; i++)
		put_le32(v + 4 * i, s->uuid[i]);
	put_le16(v + 16, s->product_id);
	put_le16(v + 18, s->product_ver);
	v[20] = (uint8_t)strlen(s->vendor);
	v[21] = (uint8_t)strlen(s->product);
	wb_add(&w, v, sizeof(v));
	wb_add(&w, s->vendor, v[20]);
	wb_add(&w, s->product, v[21]);
	atom_end(&w);
	if (s->has_gpio[0])
		atom_gpio(&w, s, 0);
	if (s->has_dt)
		atom_blob(&w, RPI_HAT_ATOM_DT, &s->dt);
	for (size_t i = 0; i < s->ncustom; i++)
		atom_blob(&w, RPI_HAT_ATOM_CUSTOM, &s->custom[i]);
	if (s->has_gpio[1])
		atom_gpio(&w, s, 1);
	if (s->current_supply) {
		uint8_t p[4];

		put_le32(p, s->current_supply);
		atom_begin(&w, RPI_HAT_ATOM_POWER_SUPPLY);
		wb_add(&w, p, sizeof(p));
		atom_end(&w);
	}
	memcpy(w.b, RPI_HAT_SIGNATURE_STR, 4);
	w.b[4] = (uint8_t)s->version;
	put_le16(w.b + 6, (uint16_t)w.n);
	put_le32(w.b + 8, (uint32_t)w.len);
	*len = w.len;
	return w.b;
}

static const char *atom_name(uint16_t type)
{
	static const char *const names[] = {
		[RPI_HAT_ATOM_VENDOR] = "vendor", [RPI_HAT_ATOM_GPIO] = "gpio-map",
		[RPI_HAT_ATOM_DT] = "device-tree", [RPI_HAT_ATOM_CUSTOM] = "custom",
		[RPI_HAT_ATOM_GPIO_BANK1] = "gpio-map-bank1", [RPI_HAT_ATOM_POWER_SUPPLY] = "power-supply",
	};

	return type && type < sizeof(names) / sizeof(names[0]) ? names[type] : "unknown";
}

void hat_image_free(struct hat_image *im)
{
	free(im->atoms);
	im->atoms = NULL;
}

static bool text_ok(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] < 0x20 || p[i] == 0x7f)
			return false;
	return true;
}

int hat_decode(const uint8_t *buf, size_t len, struct hat_image *im, char *why, size_t whylen)
{
	size_t off = sizeof(struct rpi_hat_header);

	memset(im, 0, sizeof(*im));
	im->vendor = im->gpio[0] = im->gpio[1] = im->dt = im->power = -1;
	if (len < sizeof(struct rpi_hat_header)) {
		snprintf(why, whylen, "truncated: %zu bytes, the HAT header alone is %zu", len,
			 sizeof(struct rpi_hat_header));
		return EXIT_TRUNCATED;
	}
	if (!hat_has_signature(buf, len)) {
		snprintf(why, whylen, "bad signature: %02x %02x %02x %02x, expected 52 2d 50 69 (\"R-Pi\")",
			 buf[0], buf[1], buf[2], buf[3]);
		return EXIT_MAGIC;
	}
	im->version = buf[4];
	im->reserved = buf[5];
	im->numatoms = get_le16(buf + 6);
	im->eeplen = get_le32(buf + 8);
	if (im->version != RPI_HAT_VERSION_1 && im->version != RPI_HAT_VERSION_2) {
		snprintf(why, whylen, "unknown HAT format version %u (known: 1 HAT, 2 HAT+)", im->version);
		return EXIT_REVISION;
	}
	if (im->eeplen < sizeof(struct rpi_hat_header)) {
		snprintf(why, whylen, "header: eeplen %u is less than the header's 12 bytes", im->eeplen);
		return EXIT_TRUNCATED;
	}
	if (im->eeplen > len) {
		snprintf(why, whylen, "truncated: the header says %u bytes (eeplen), only %zu are there",
			 im->eeplen, len);
		return EXIT_TRUNCATED;
	}
	im->trailing = len - im->eeplen;
	if (!im->numatoms) {
		snprintf(why, whylen, "header: numatoms 0: no vendor atom (every HAT has one)");
		return EXIT_TRUNCATED;
	}
	if (im->numatoms > (im->eeplen - off) / RPI_HAT_ATOM_MIN_SIZE) {
		snprintf(why, whylen, "header: %u atoms cannot fit in eeplen %u (each takes at least %zu bytes)",
			 im->numatoms, im->eeplen, RPI_HAT_ATOM_MIN_SIZE);
		return EXIT_TRUNCATED;
	}
	im->atoms = xcalloc(im->numatoms, sizeof(*im->atoms));
	for (unsigned i = 0; i < im->numatoms; i++) {
		struct hat_atom *a = &im->atoms[i];
		int *slot = NULL;
		uint16_t crc;

		if (im->eeplen - off < RPI_HAT_ATOM_MIN_SIZE) {
			snprintf(why, whylen, "atom %u: its header at offset %zu runs past eeplen %u", i, off,
				 im->eeplen);
			return EXIT_TRUNCATED;
		}
		a->offset = off;
		a->type = get_le16(buf + off);
		a->count = get_le16(buf + off + 2);
		a->dlen = get_le32(buf + off + 4);
		if (a->count != i) {
			snprintf(why, whylen, "atom %u (offset %zu): count %u, expected %u", i, off, a->count, i);
			return EXIT_TRUNCATED;
		}
		if (a->type == RPI_HAT_ATOM_INVALID || a->type == RPI_HAT_ATOM_INVALID_FFFF) {
			snprintf(why, whylen, "atom %u (offset %zu): invalid type 0x%04x", i, off, a->type);
			return EXIT_TRUNCATED;
		}
		if (a->dlen < RPI_HAT_CRC_SIZE || a->dlen > im->eeplen - off - sizeof(struct rpi_hat_atom_header)) {
			snprintf(why, whylen, "atom %u (offset %zu): length %u %s", i, off, a->dlen,
				 a->dlen < RPI_HAT_CRC_SIZE ? "leaves no room for its CRC"
							    : "runs past the end of the image (eeplen)");
			return EXIT_TRUNCATED;
		}
		a->data = buf + off + 8;
		a->len = a->dlen - RPI_HAT_CRC_SIZE;
		a->crc = get_le16(a->data + a->len);
		crc = crc16_arc(buf + off, 8 + a->len);
		if (crc != a->crc) {
			snprintf(why, whylen, "bad CRC: atom %u (%s, offset %zu) says 0x%04x, its bytes give 0x%04x",
				 i, atom_name(a->type), off, a->crc, crc);
			return EXIT_CRC;
		}
		off += 8 + a->dlen;
		switch (a->type) {
		case RPI_HAT_ATOM_VENDOR: slot = &im->vendor; break;
		case RPI_HAT_ATOM_GPIO: slot = &im->gpio[0]; break;
		case RPI_HAT_ATOM_GPIO_BANK1: slot = &im->gpio[1]; break;
		case RPI_HAT_ATOM_DT: slot = &im->dt; break;
		case RPI_HAT_ATOM_POWER_SUPPLY: slot = &im->power; break;
		case RPI_HAT_ATOM_CUSTOM: im->ncustom++; break;
		default: im->unknown++; break;
		}
		if (slot && *slot >= 0) {
			snprintf(why, whylen, "atom %u: a second %s atom (the first is atom %d)", i,
				 atom_name(a->type), *slot);
			return EXIT_TRUNCATED;
		}
		if (slot)
			*slot = (int)i;
	}
	if (off != im->eeplen) {
		snprintf(why, whylen, "%zu bytes of eeplen %u left after %u atoms (numatoms and eeplen disagree)",
			 (size_t)im->eeplen - off, im->eeplen, im->numatoms);
		return EXIT_TRUNCATED;
	}
	if (im->vendor < 0) {
		snprintf(why, whylen, "no vendor atom (every HAT has one)");
		return EXIT_TRUNCATED;
	}
	if (im->version == RPI_HAT_VERSION_1 && im->gpio[0] < 0) {
		snprintf(why, whylen, "a v1 HAT image without the GPIO map atom it requires");
		return EXIT_TRUNCATED;
	}
	{
		const struct hat_atom *a = &im->atoms[im->vendor];
		const uint8_t *d = a->data;

		if (a->len < sizeof(struct rpi_hat_vendor) ||
		    a->len != sizeof(struct rpi_hat_vendor) + d[20] + d[21]) {
			snprintf(why, whylen, "vendor atom: %zu bytes of data, %s", a->len,
				 a->len < sizeof(struct rpi_hat_vendor) ? "less than its 22-byte fields"
									: "its two string lengths say otherwise");
			return EXIT_TRUNCATED;
		}
		for (int i = 0; i < 4; i++)
			im->uuid[i] = get_le32(d + 4 * i);
		im->product_id = get_le16(d + 16);
		im->product_ver = get_le16(d + 18);
		if (!text_ok(d + 22, d[20]) || !text_ok(d + 22 + d[20], d[21])) {
			snprintf(why, whylen, "bad text: a control character in the %s string",
				 text_ok(d + 22, d[20]) ? "product" : "vendor");
			return EXIT_TEXT;
		}
		memcpy(im->vendor_str, d + 22, d[20]);
		im->vendor_str[d[20]] = 0;
		memcpy(im->product_str, d + 22 + d[20], d[21]);
		im->product_str[d[21]] = 0;
	}
	for (int b = 0; b < 2; b++) {
		size_t want = b ? sizeof(struct rpi_hat_gpio_map_bank1) : sizeof(struct rpi_hat_gpio_map);

		if (im->gpio[b] >= 0 && im->atoms[im->gpio[b]].len != want) {
			snprintf(why, whylen, "GPIO map%s atom: %zu bytes of data, not %zu", b ? " bank 1" : "",
				 im->atoms[im->gpio[b]].len, want);
			return EXIT_TRUNCATED;
		}
	}
	if (im->power >= 0) {
		if (im->atoms[im->power].len != sizeof(struct rpi_hat_power_supply)) {
			snprintf(why, whylen, "power supply atom: %zu bytes of data, not 4",
				 im->atoms[im->power].len);
			return EXIT_TRUNCATED;
		}
		im->current_supply = get_le32(im->atoms[im->power].data);
	}
	if (im->dt >= 0 && im->version == RPI_HAT_VERSION_2) {
		const struct hat_atom *a = &im->atoms[im->dt];

		if (!a->len || !text_ok(a->data, a->len)) {
			snprintf(why, whylen, "bad text: the HAT+ device tree atom names no overlay (%s)",
				 a->len ? "a control character" : "empty");
			return EXIT_TEXT;
		}
	}
	return 0;
}

int hat_kernel_refuses(const uint8_t *buf, size_t len, const struct hat_image *im, char *why,
		       size_t whylen)
{
	char kwhy[256];
	bool header;
	int r = kcheck_hat_image(buf, len, &header, kwhy, sizeof(kwhy));

	if (r) {
		snprintf(why, whylen, "the kernel refuses it: %s", kwhy);
		/* the 40-pin header's rule, as check's for a GPIO map (exit 3) */
		return header ? EXIT_DEF : r == -EBADMSG ? EXIT_CRC
		       : strstr(kwhy, "overlay name") ? EXIT_TEXT : EXIT_TRUNCATED;
	}
	if (im->dt >= 0 && im->version == RPI_HAT_VERSION_2 &&
	    dotdot_name(im->atoms[im->dt].data, im->atoms[im->dt].len)) {
		snprintf(why, whylen, "bad text: %s", dotdot_name(im->atoms[im->dt].data, im->atoms[im->dt].len));
		return EXIT_TEXT;
	}
	return 0;
}

/* ---- printing ---- */

/* The 40-pin header position of GPIO0-27. */
static const uint8_t header_pin[RPI_HAT_GPIO_BANK0_NUM] = {
	27, 28, 3, 5, 7, 29, 31, 26, 24, 21, 19, 23, 32, 33,
	8, 10, 36, 11, 12, 35, 38, 40, 15, 16, 18, 22, 37, 13,
};

/*
 * eepdump's dump_data: a one-line string, a multi-line one, or hex.
 * @readable: a one-line string with a '#' in it goes multi-line (eepmake
 * would read the '#' as a comment's start).
 */
static void eepdump_data(FILE *f, const uint8_t *d, size_t len, bool readable)
{
	bool is_string = true, simple = true;

	for (size_t j = 0; j < len; j++) {
		int c = d[j];

		if (!c || c == '"' || !c_print(c) || (readable && c == '#'))
			simple = false;
		if (c && !c_print(c) && !c_space(c)) {
			is_string = false;
			break;
		}
	}
	if (simple) {
		fputs(" \"", f);
		fwrite(d, 1, len, f);
		fputs("\"\n", f);
	} else if (is_string) {
		fputs(" \"\n", f);
		for (size_t j = 0; j < len; j++) {
			if (d[j] == '\\')
				fputs("\\\\", f);
			else if (d[j] == '\r')
				fputs("\\r", f);
			else if (!d[j])
				fputs("\\0\n", f);
			else
				fputc(d[j], f);
		}
		fputs("\\\"\n", f);
	} else {
		for (size_t j = 0; j < len; j++) {
			if (j % 16 == 0)
				fputc('\n', f);
			fprintf(f, "%02X ", d[j]);
		}
		fputc('\n', f);
	}
}

void hat_uuid_str(const uint32_t u[4], char out[37])
{
	snprintf(out, 37, "%08x-%04x-%04x-%04x-%04x%08x", u[3], u[2] >> 16, u[2] & 0xffff,
		 u[1] >> 16, u[1] & 0xffff, u[0]);
}

void hat_print_eepdump(FILE *f, const struct hat_image *im, bool readable)
{
	char u[37];

	fprintf(f, "# ---------- Dump generated by eepdump handling format version 0x%02x ----------\n#\n",
		RPI_HAT_VERSION_2);
	fprintf(f, "# --Header--\n# signature=0x%08x\n# version=0x%02x\n# reserved=%u\n# numatoms=%u\n# eeplen=%u\n# ----------\n\n\n",
		RPI_HAT_SIGNATURE, im->version, im->reserved, im->numatoms, im->eeplen);
	for (unsigned i = 0; i < im->numatoms; i++) {
		const struct hat_atom *a = &im->atoms[i];

		fprintf(f, "# Start of atom #%u of type 0x%04x and length %u\n", a->count, a->type, a->dlen);
		switch (a->type) {
		case RPI_HAT_ATOM_VENDOR:
			hat_uuid_str(im->uuid, u);
			fprintf(f, "# Vendor info\nproduct_uuid %s\nproduct_id 0x%04x\nproduct_ver 0x%04x\n",
				u, im->product_id, im->product_ver);
			fprintf(f, "vendor \"%s\"   # length=%zu\n", im->vendor_str, strlen(im->vendor_str));
			fprintf(f, "product \"%s\"   # length=%zu\n", im->product_str, strlen(im->product_str));
			break;
		case RPI_HAT_ATOM_POWER_SUPPLY:
			fprintf(f, "# power supply\ncurrent_supply %u\n", im->current_supply);
			break;
		case RPI_HAT_ATOM_GPIO:
		case RPI_HAT_ATOM_GPIO_BANK1: {
			bool b1 = a->type == RPI_HAT_ATOM_GPIO_BANK1;
			const char *pre = b1 ? "bank1_" : "";
			unsigned n = b1 ? RPI_HAT_GPIO_BANK1_NUM : RPI_HAT_GPIO_BANK0_NUM;

			fprintf(f, "# GPIO %smap info\n", b1 ? "bank 1 " : "");
			fprintf(f, "%sgpio_drive %d\n", pre, a->data[0] & RPI_HAT_GPIO_DRIVE_MASK);
			fprintf(f, "%sgpio_slew %d\n", pre, (a->data[0] & RPI_HAT_GPIO_SLEW_MASK) >> 4);
			fprintf(f, "%sgpio_hysteresis %d\n", pre, (a->data[0] & RPI_HAT_GPIO_HYSTERESIS_MASK) >> 6);
			if (!b1)
				fprintf(f, "back_power %d\n", a->data[1]);
			fprintf(f, "#        GPIO  FUNCTION  PULL\n#        ----  --------  ----\n");
			for (unsigned j = 0; j < n; j++) {
				uint8_t p = a->data[2 + j];

				if (p & RPI_HAT_PIN_USED)
					fprintf(f, "setgpio  %u      %s     %s\n", b1 ? j + RPI_HAT_GPIO_BANK0_NUM : j,
						func_names[p & RPI_HAT_PIN_FUNC_MASK],
						pull_names[(p & RPI_HAT_PIN_PULL_MASK) >> 5]);
			}
			break;
		}
		case RPI_HAT_ATOM_DT:
			fputs("dt_blob", f);
			eepdump_data(f, a->data, a->len, readable);
			break;
		case RPI_HAT_ATOM_CUSTOM:
			fputs("custom_data", f);
			eepdump_data(f, a->data, a->len, readable);
			break;
		default:
			fprintf(f, "# unknown atom type: %zu bytes of data not shown\n", a->len);
			break;
		}
		fprintf(f, "# End of atom. CRC16=0x%04x\n\n", a->crc);
	}
}

static const char *const drive_words[16] = {
	"default", "2 mA", "4 mA", "6 mA", "8 mA", "10 mA", "12 mA", "14 mA", "16 mA",
	"reserved (9)", "reserved (10)", "reserved (11)", "reserved (12)", "reserved (13)",
	"reserved (14)", "reserved (15)",
};
static const char *const slew_words[4] = { "default", "limited", "not limited", "reserved (3)" };
static const char *const hyst_words[4] = { "default", "disabled", "enabled", "reserved (3)" };

static const char *back_power_words(unsigned v)
{
	return v == 0 ? "none" : v == 1 ? "1.3 A" : v == 2 ? "2 A" : "reserved";
}

static void print_gpio_text(const struct hat_image *im, int b)
{
	const uint8_t *d = im->atoms[im->gpio[b]].data;
	unsigned n = b ? RPI_HAT_GPIO_BANK1_NUM : RPI_HAT_GPIO_BANK0_NUM, used = 0;

	for (unsigned j = 0; j < n; j++)
		used += !!(d[2 + j] & RPI_HAT_PIN_USED);
	printf("%s drive %s, slew %s, hysteresis %s", b ? "gpio bank 1:  " : "gpio map:     ",
	       drive_words[d[0] & RPI_HAT_GPIO_DRIVE_MASK], slew_words[(d[0] & RPI_HAT_GPIO_SLEW_MASK) >> 4],
	       hyst_words[(d[0] & RPI_HAT_GPIO_HYSTERESIS_MASK) >> 6]);
	if (!b)
		printf(", back-power %s (%u)", back_power_words(d[1]), d[1]);
	printf("; %u GPIOs used\n", used);
	for (unsigned j = 0; j < n; j++) {
		uint8_t p = d[2 + j];
		unsigned g = b ? j + RPI_HAT_GPIO_BANK0_NUM : j;
		char name[24];

		if (!(p & RPI_HAT_PIN_USED))
			continue;
		if (b)
			snprintf(name, sizeof(name), "GPIO%u", g);
		else
			snprintf(name, sizeof(name), "GPIO%u (pin %u)", g, header_pin[g]);
		printf("  %-16s %-6s pull %-7s (0x%02x)%s%s\n", name, func_names[p & RPI_HAT_PIN_FUNC_MASK],
		       pull_names[(p & RPI_HAT_PIN_PULL_MASK) >> 5], p,
		       (p & RPI_HAT_PIN_RESERVED_MASK) ? " reserved bits set" : "",
		       g < RPI_HAT_GPIO_FIRST ? " (the ID EEPROM's own bus)" : "");
	}
}

static void print_bytes_text(const uint8_t *d, size_t len)
{
	bool str = len && d[len - 1] != 0 ? text_ok(d, len) : false;

	if (str) {
		printf("\"%.*s\"\n", (int)len, (const char *)d);
		return;
	}
	for (size_t j = 0; j < len; j++)
		printf("%s%02x", j % 16 ? " " : (j ? "\n    " : ""), d[j]);
	putchar('\n');
}

static void print_text(const char *src, const struct hat_image *im)
{
	char u[37];
	unsigned nc = 0;

	hat_uuid_str(im->uuid, u);
	printf("source:        %s\n", src);
	printf("format:        %s (version %u), %u atoms, %u bytes%s\n",
	       im->version == RPI_HAT_VERSION_1 ? "HAT" : "HAT+", im->version, im->numatoms, im->eeplen,
	       im->reserved ? " (reserved header byte not 0)" : "");
	if (im->trailing)
		printf("               %zu bytes after the image (not part of it)\n", im->trailing);
	printf("uuid:          %s\n", u);
	printf("product id:    0x%04x\n", im->product_id);
	printf("product ver:   0x%04x\n", im->product_ver);
	printf("vendor:        %s\n", im->vendor_str);
	printf("product:       %s\n", im->product_str);
	if (im->dt < 0) {
		printf("overlay:       none\n");
	} else if (im->version == RPI_HAT_VERSION_2) {
		const struct hat_atom *a = &im->atoms[im->dt];

		printf("overlay name:  %.*s (overlays/%.*s.dtbo)\n", (int)a->len, (const char *)a->data,
		       (int)a->len, (const char *)a->data);
	} else {
		const struct hat_atom *a = &im->atoms[im->dt];
		void *copy = xmalloc(a->len ? a->len : 1);
		int r;

		memcpy(copy, a->data, a->len);
		r = fdt_check_untrusted(copy, a->len);
		free(copy);
		printf("overlay:       %zu-byte device tree blob, %s%s (decode -x FILE extracts it)\n", a->len,
		       r ? "not a valid one: " : "valid", r ? fdt_strerror(r) : "");
	}
	for (int b = 0; b < 2; b++)
		if (im->gpio[b] >= 0)
			print_gpio_text(im, b);
	if (im->power >= 0)
		printf("power supply:  %u mA\n", im->current_supply);
	for (unsigned i = 0; i < im->numatoms; i++) {
		const struct hat_atom *a = &im->atoms[i];

		if (a->type != RPI_HAT_ATOM_CUSTOM)
			continue;
		printf("custom %-7u%zu bytes: ", nc++, a->len);
		print_bytes_text(a->data, a->len);
	}
	printf("atoms:\n");
	for (unsigned i = 0; i < im->numatoms; i++) {
		const struct hat_atom *a = &im->atoms[i];

		printf("  %-3u %-15s type 0x%04x, offset %zu, %zu bytes of data, crc 0x%04x (ok)%s\n", i,
		       atom_name(a->type), a->type, a->offset, a->len, a->crc,
		       (a->type == RPI_HAT_ATOM_GPIO || a->type == RPI_HAT_ATOM_GPIO_BANK1) &&
				       im->version == RPI_HAT_VERSION_2 ? " (a v1 atom in a HAT+)"
		       : a->type == RPI_HAT_ATOM_POWER_SUPPLY && im->version == RPI_HAT_VERSION_1
				       ? " (a HAT+ atom in a v1 HAT)" : "");
	}
}

static void json_bytes(const uint8_t *d, size_t len)
{
	putchar('"');
	for (size_t j = 0; j < len; j++)
		printf("%02x", d[j]);
	putchar('"');
}

static void print_json(const char *src, const struct hat_image *im)
{
	char u[37];
	bool first = true;

	hat_uuid_str(im->uuid, u);
	printf("{\"source\": ");
	json_str(src);
	printf(", \"format\": \"%s\", \"version\": %u, \"numatoms\": %u, \"eeplen\": %u, \"uuid\": \"%s\"",
	       im->version == RPI_HAT_VERSION_1 ? "HAT" : "HAT+", im->version, im->numatoms, im->eeplen, u);
	printf(", \"product_id\": %u, \"product_ver\": %u, \"vendor\": ", im->product_id, im->product_ver);
	json_str(im->vendor_str);
	printf(", \"product\": ");
	json_str(im->product_str);
	printf(", \"overlay\": ");
	if (im->dt < 0) {
		printf("null");
	} else if (im->version == RPI_HAT_VERSION_2) {
		const struct hat_atom *a = &im->atoms[im->dt];
		char *name = xmalloc(a->len + 1);

		memcpy(name, a->data, a->len);
		name[a->len] = 0;
		printf("{\"name\": ");
		json_str(name);
		putchar('}');
		free(name);
	} else {
		printf("{\"blob_length\": %zu}", im->atoms[im->dt].len);
	}
	for (int b = 0; b < 2; b++) {
		const uint8_t *d;
		unsigned n = b ? RPI_HAT_GPIO_BANK1_NUM : RPI_HAT_GPIO_BANK0_NUM;
		bool f1 = true;

		printf(", \"%s\": ", b ? "gpio_bank1" : "gpio");
		if (im->gpio[b] < 0) {
			printf("null");
			continue;
		}
		d = im->atoms[im->gpio[b]].data;
		printf("{\"drive\": %u, \"slew\": %u, \"hysteresis\": %u, \"back_power\": %u, \"pins\": [",
		       d[0] & RPI_HAT_GPIO_DRIVE_MASK, (d[0] & RPI_HAT_GPIO_SLEW_MASK) >> 4,
		       (d[0] & RPI_HAT_GPIO_HYSTERESIS_MASK) >> 6, d[1]);
		for (unsigned j = 0; j < n; j++) {
			uint8_t p = d[2 + j];

			if (!(p & RPI_HAT_PIN_USED))
				continue;
			printf("%s{\"gpio\": %u, ", f1 ? "" : ", ", b ? j + RPI_HAT_GPIO_BANK0_NUM : j);
			if (!b)
				printf("\"header_pin\": %u, ", header_pin[j]);
			printf("\"function\": \"%s\", \"pull\": \"%s\", \"byte\": %u}",
			       func_names[p & RPI_HAT_PIN_FUNC_MASK], pull_names[(p & RPI_HAT_PIN_PULL_MASK) >> 5], p);
			f1 = false;
		}
		printf("]}");
	}
	printf(", \"current_supply\": ");
	if (im->power >= 0)
		printf("%u", im->current_supply);
	else
		printf("null");
	printf(", \"custom\": [");
	for (unsigned i = 0; i < im->numatoms; i++) {
		if (im->atoms[i].type != RPI_HAT_ATOM_CUSTOM)
			continue;
		printf("%s", first ? "" : ", ");
		json_bytes(im->atoms[i].data, im->atoms[i].len);
		first = false;
	}
	printf("], \"atoms\": [");
	for (unsigned i = 0; i < im->numatoms; i++) {
		const struct hat_atom *a = &im->atoms[i];

		printf("%s{\"type\": %u, \"name\": \"%s\", \"offset\": %zu, \"dlen\": %u, \"crc\": %u}",
		       i ? ", " : "", a->type, atom_name(a->type), a->offset, a->dlen, a->crc);
	}
	printf("]}\n");
}

int hat_decode_buffer(const char *src, const uint8_t *buf, size_t len, enum hat_fmt fmt,
		      const char *xfile)
{
	struct hat_image im;
	char why[200];
	int rc = hat_decode(buf, len, &im, why, sizeof(why));

	if (rc) {
		err("%s: %s", src, why);
		hat_image_free(&im);
		return rc;
	}
	if (xfile && is_stdio(xfile))
		;	/* standard output carries the overlay, not the decoding */
	else if (fmt == HAT_FMT_JSON)
		print_json(src, &im);
	else if (fmt == HAT_FMT_EEPDUMP || fmt == HAT_FMT_SETTINGS)
		hat_print_eepdump(stdout, &im, fmt == HAT_FMT_SETTINGS);
	else
		print_text(src, &im);
	if (xfile) {
		if (im.dt < 0 || im.version != RPI_HAT_VERSION_1) {
			if (im.dt < 0)
				err("%s: no device tree atom to extract", src);
			else
				err("%s: a HAT+ names its overlay (%.*s), it embeds none to extract", src,
				    (int)im.atoms[im.dt].len, (const char *)im.atoms[im.dt].data);
			hat_image_free(&im);
			return EXIT_FAIL;
		}
		rc = write_file(xfile, im.atoms[im.dt].data, im.atoms[im.dt].len);
		if (rc) {
			err("%s: cannot write: %s", out_name(xfile), strerror(-rc));
			hat_image_free(&im);
			return EXIT_IO;
		}
	}
	hat_image_free(&im);
	return EXIT_OK;
}
