// SPDX-License-Identifier: GPL-2.0
/*
 * capetool import-rpi: a Raspberry Pi overlay source (raspberrypi/linux
 * arch/arm/boot/dts/overlays/NAME-overlay.dts) into a HAT+ overlay for the
 * capebus Pi connector.  The source is compiled with dtc -@ (the labels its
 * __overrides__ name need __symbols__), its parameters applied as the Pi's
 * dtoverlay applies them, then written back as source the connector takes:
 * board labels to the names it exports, <&gpio N F> to <&hat_gpio N F>,
 * interrupts on &gpio to hat_irq, target-path "/" to hat_devices, &gpio pin
 * groups to exclusive-use, and compiled with dtc (no -@: a HAT adds no
 * labels to the board).  The result goes through the connector's checker
 * (hat_overlay_check()) before it is written.
 */
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libfdt.h>
#include "capetool.h"
#include "hat.h"

/* Source indentation: a tab a level, as the kernel's .dts. */
static const char TABS[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";

static const char usage_text[] =
	"usage: capetool import-rpi [--board B] [--drop F]... [-I DIR]... -o OUT\n"
	"                           FILE.dts [PARAM[=VALUE]]...\n"
	"\n"
	"Turn a Raspberry Pi overlay source (raspberrypi/linux\n"
	"arch/arm/boot/dts/overlays/NAME-overlay.dts) into a HAT+ overlay for the\n"
	"capebus Pi connector, with its __overrides__ parameters set as the Pi's\n"
	"dtoverlay sets them (dtoverlay NAME interrupt=25 oscillator=16000000):\n"
	"  - integer cells (\"prop:N\", \".N\", \";N\"), strings (\"prop\"),\n"
	"    booleans (\"prop?\"), status, a node's unit address (\"reg\"), and\n"
	"    fragments switched on and off (<0>,\"+N-N=N!N\"); other forms are\n"
	"    refused, naming the parameter;\n"
	"  - a board label the connector exports keeps its name (i2c_arm, i2c1,\n"
	"    spi0, spi1, i2s, pwm, uart3-5); target-path \"/\" (and \"/clocks\")\n"
	"    becomes hat_devices; <&gpio N FLAGS> becomes <&hat_gpio N FLAGS>, and\n"
	"    interrupt-parent = <&gpio> becomes <&hat_irq>;\n"
	"  - a pin group on &gpio (brcm,pins) becomes exclusive-use, the pins the\n"
	"    HAT+ holds: input or output is set by the pin's driver; a pull is\n"
	"    reported (the connector sets no HAT pin's pull: fit a resistor); an\n"
	"    ALT function is refused unless it is a unit's own (a group on the\n"
	"    unit's pins, named by pinctrl-N of a unit the HAT enables), which the\n"
	"    board sets when the unit is enabled; pinctrl-N naming those groups,\n"
	"    or the board's own group of the unit, is dropped.\n"
	"Refused, saying why (exit status 3): a target or reference the connector\n"
	"does not export (cpu_thermal, uart0, &gpio in any other place), a pin the\n"
	"board holds (GPIO0/1, the console's GPIO14/15), or anything the kernel's\n"
	"connector refuses of the result (as create and check would).\n"
	"  -b, --board B      the rpi-family board profile (default raspberry-pi)\n"
	"      --drop F       leave fragment F out (fragment@1, or 1), as a\n"
	"                     parameter's \"-N\" does: for a fragment on a board\n"
	"                     node (gpio-fan's cpu_thermal trip), which no HAT\n"
	"                     may change\n"
	"  -I, --include DIR  where #include looks (as the kernel's dtc flow: the\n"
	"                     source goes through cpp -x assembler-with-cpp when\n"
	"                     it uses #include or #define); e.g. the kernel's\n"
	"                     include/ for <dt-bindings/gpio/gpio.h>\n"
	"  -o, --output OUT   the overlay to write (.dtbo; .dts or .dtso: its\n"
	"                     source); \"-\": standard output (the .dtbo)\n"
	"  -h, --help         this text\n"
	"PARAM without =VALUE is true (as dtoverlay: i2c-rtc's ds3231).\n"
	"Exit status: 2 bad command line (an unknown parameter); 3 the overlay is\n"
	"refused; 4 a file cannot be read or written; 1 dtc missing.\n";

#define MAX_FRAGMENTS 256
enum { FRAG_AS_BUILT, FRAG_ON, FRAG_OFF };

/* A phandle cell of the input: where, and what it names. */
struct ref {
	char *path, *prop;
	int offset;
	char *label;		/* external: the board label */
	uint32_t phandle;	/* local: the node's phandle; 0 external */
};

struct imp {
	const char *src;
	void *fdt;
	const struct rpi_board *b;
	struct ref *refs;
	int nrefs;
	uint64_t pins;
	char *why;		/* the first refusal */
	char *groups;		/* paths of the pin-group nodes, "\n"-separated */
	FILE *out;
	/*
	 * What the parameters switch and rename, kept apart from the tree:
	 * __fixups__, __local_fixups__ and __symbols__ name nodes by their
	 * paths as compiled.
	 */
	unsigned char frag[MAX_FRAGMENTS];	/* FRAG_* */
	char **ren_path, **ren_name;
	int nren;
	bool quiet_spidev;	/* the first pass over the fragments says nothing */
};

static void refuse(struct imp *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void refuse(struct imp *m, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (m->why)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	m->why = s ? s : xstrdup("out of memory");
}

static void note(const struct imp *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(const struct imp *m, const char *fmt, ...)
{
	va_list ap;

	if (err_quiet)
		return;
	fprintf(stderr, "%s: note: ", in_name(m->src));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ---- __overrides__, as dtoverlay applies them ---- */

static bool truth(const char *v, bool *t)
{
	static const char *const yes[] = { "", "y", "yes", "on", "true", "okay", "1" };
	static const char *const no[] = { "n", "no", "off", "false", "disabled", "0" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!strcasecmp(v, yes[i]))
			return *t = true;
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (!strcasecmp(v, no[i]))
			return !(*t = false);
	return false;
}

static int fragment_node(void *fdt, unsigned long n)
{
	char name[32];

	snprintf(name, sizeof(name), "fragment@%lu", n);
	return fdt_subnode_offset(fdt, 0, name);
}

/* Switch a fragment on (its __dormant__ or __overlay__ applied) or off. */
static int fragment_switch(struct imp *m, unsigned long n, bool on)
{
	if (n >= MAX_FRAGMENTS || fragment_node(m->fdt, n) < 0)
		return -1;
	m->frag[n] = on ? FRAG_ON : FRAG_OFF;
	return 0;
}

/* The body fragment node @f applies (__overlay__, or a switched-on __dormant__), or -1. */
static int fragment_body(const struct imp *m, int f)
{
	const char *name = fdt_get_name(m->fdt, f, NULL);
	unsigned long n;
	int st = FRAG_AS_BUILT, o;

	if (sscanf(name, "fragment@%lu", &n) == 1 && n < MAX_FRAGMENTS)
		st = m->frag[n];
	if (st == FRAG_OFF)
		return -1;
	o = fdt_subnode_offset(m->fdt, f, "__overlay__");
	if (o < 0 && st == FRAG_ON)
		o = fdt_subnode_offset(m->fdt, f, "__dormant__");
	return o < 0 ? -1 : o;
}

/* "+N-N=N!N" for parameter @p set to @t. */
static int fragment_ops(struct imp *m, const char *p, const char *ops, bool t)
{
	for (const char *s = ops; *s;) {
		char op = *s++, *end;
		unsigned long n = strtoul(s, &end, 10);

		if (!strchr("+-=!", op) || end == s) {
			err("%s: parameter %s: fragment operations \"%s\": not +N, -N, =N or !N",
			    in_name(m->src), p, ops);
			return EXIT_DEF;
		}
		s = end;
		if ((op == '+' || op == '-') && !t)
			continue;
		if (fragment_switch(m, n, op == '+' || (op == '=' && t) || (op == '!' && !t))) {
			err("%s: parameter %s: it switches fragment@%lu, which the overlay does not have",
			    in_name(m->src), p, n);
			return EXIT_DEF;
		}
	}
	return EXIT_OK;
}

/* The name node @node is written with (a "reg" parameter renames it). */
static const char *node_name(const struct imp *m, int node)
{
	char path[512];

	if (!fdt_get_path(m->fdt, node, path, sizeof(path)))
		for (int i = m->nren - 1; i >= 0; i--)
			if (!strcmp(m->ren_path[i], path))
				return m->ren_name[i];
	return fdt_get_name(m->fdt, node, NULL);
}

/* Set a node's unit address, as dtoverlay does for a "reg" target. */
static int set_unit_address(struct imp *m, int node, unsigned long v)
{
	const char *name = node_name(m, node);
	char path[512];

	if (fdt_get_path(m->fdt, node, path, sizeof(path)))
		return -FDT_ERR_BADPATH;
	m->ren_path = xrealloc(m->ren_path, sizeof(char *) * (size_t)(m->nren + 1));
	m->ren_name = xrealloc(m->ren_name, sizeof(char *) * (size_t)(m->nren + 1));
	m->ren_name[m->nren] = xasprintf("%.*s@%lx", (int)strcspn(name, "@"), name, v);
	m->ren_path[m->nren++] = xstrdup(path);
	return 0;
}

/* One <&node>,"target" of parameter @p: @value into the node @node. */
static int override_one(struct imp *m, const char *p, int node, const char *tgt, const char *value)
{
	size_t tl = strcspn(tgt, ":.;?");
	char *prop = xasprintf("%.*s", (int)tl, tgt), kind = tgt[tl];
	int r = 0, len;
	bool t;

	if (kind == '?') {
		if (!truth(value, &t)) {
			err("%s: parameter %s: \"%s\" is not a boolean (y/n, on/off, true/false, 1/0)",
			    in_name(m->src), p, value);
			free(prop);
			return EXIT_USAGE;
		}
		r = t ? fdt_setprop(m->fdt, node, prop, NULL, 0) : fdt_delprop(m->fdt, node, prop);
		if (r == -FDT_ERR_NOTFOUND)
			r = 0;
	} else if (!kind && !strcmp(prop, "status")) {
		if (!truth(value, &t)) {
			err("%s: parameter %s: \"%s\" is not a status (okay/disabled, on/off)",
			    in_name(m->src), p, value);
			free(prop);
			return EXIT_USAGE;
		}
		r = fdt_setprop_string(m->fdt, node, prop, t ? "okay" : "disabled");
	} else if (!kind) {
		r = fdt_setprop_string(m->fdt, node, prop, value);
	} else {
		char *end;
		unsigned long long v = strtoull(value, &end, 0);
		unsigned long off = strtoul(tgt + tl + 1, NULL, 10);
		int size = kind == '.' ? 1 : kind == ':' ? 4 : 8;
		uint8_t cell[8];
		const void *old = fdt_getprop(m->fdt, node, prop, &len);

		if (!*value || *end) {
			err("%s: parameter %s: \"%s\" is not a number", in_name(m->src), p, value);
			free(prop);
			return EXIT_USAGE;
		}
		for (int i = 0; i < size; i++)
			cell[i] = (uint8_t)(v >> (8 * (size - 1 - i)));
		if (!strcmp(prop, "reg") && !old) {
			r = set_unit_address(m, node, (unsigned long)v);
		} else {
			if (!strcmp(prop, "reg"))
				r = set_unit_address(m, node, (unsigned long)v);
			if (!r && old && off + (unsigned long)size <= (unsigned long)len) {
				r = fdt_setprop_inplace_namelen_partial(m->fdt, node, prop, (int)strlen(prop),
									 (unsigned)off, cell, size);
			} else if (!r) {
				/* dtoverlay grows the property to hold the cell */
				uint8_t *nv = xcalloc(1, off + (size_t)size);

				if (old)
					memcpy(nv, old, (size_t)len);
				memcpy(nv + off, cell, (size_t)size);
				r = fdt_setprop(m->fdt, node, prop, nv, (int)(off + (size_t)size));
				free(nv);
			}
		}
	}
	free(prop);
	if (r) {
		err("%s: parameter %s: cannot set %s: %s", in_name(m->src), p, tgt, fdt_strerror(r));
		return EXIT_DEF;
	}
	return EXIT_OK;
}

/* Its parameters, ", "-separated (malloc'ed), or NULL. */
static char *param_names(const struct imp *m)
{
	int ov = fdt_subnode_offset(m->fdt, 0, "__overrides__"), prop;
	const char *name;
	char *known = NULL;

	if (ov >= 0)
		fdt_for_each_property_offset(prop, m->fdt, ov) {
			fdt_getprop_by_offset(m->fdt, prop, &name, NULL);
			str_append(&known, ", ", name);
		}
	return known;
}

static int apply_param(struct imp *m, const char *arg)
{
	size_t nl = strcspn(arg, "=");
	char *p = xasprintf("%.*s", (int)nl, arg);
	const char *value = arg[nl] ? arg + nl + 1 : "";
	int ov = fdt_subnode_offset(m->fdt, 0, "__overrides__"), len, rc = EXIT_OK;
	const uint8_t *v = ov >= 0 ? fdt_getprop(m->fdt, ov, p, &len) : NULL;
	bool t;

	if (!v) {
		char *known = param_names(m);

		err("%s: no parameter %s (its parameters: %s)", in_name(m->src), p,
		    known ? known : "none");
		free(known);
		free(p);
		return EXIT_USAGE;
	}
	/*
	 * The value is <phandle> "string" pairs; the blob moves under
	 * fdt_setprop(), so each pair is copied out first.
	 */
	uint8_t *copy = xmalloc((size_t)len);

	memcpy(copy, v, (size_t)len);
	for (int at = 0; !rc && at < len;) {
		uint32_t ph;
		const char *s;
		size_t sl;

		if (at + 5 > len || !memchr(copy + at + 4, 0, (size_t)(len - at - 4))) {
			err("%s: parameter %s: its __overrides__ entry is not <&node>,\"target\" pairs (a form capetool does not take)",
			    in_name(m->src), p);
			rc = EXIT_DEF;
			break;
		}
		memcpy(&ph, copy + at, 4);
		ph = fdt32_to_cpu(ph);
		s = (const char *)copy + at + 4;
		sl = strlen(s);
		at += 4 + (int)sl + 1;
		if (!ph) {
			if (!truth(value, &t)) {
				err("%s: parameter %s: \"%s\" is not a boolean", in_name(m->src), p, value);
				rc = EXIT_USAGE;
			} else {
				rc = fragment_ops(m, p, s, t);
			}
			continue;
		}
		int node = fdt_node_offset_by_phandle(m->fdt, ph);

		if (node < 0) {
			err("%s: parameter %s: names phandle %u, no node of the overlay", in_name(m->src), p, ph);
			rc = EXIT_DEF;
		} else if (strchr(s, '=') || strchr(s, '<') || strchr(s, '[') || strchr(s, '{') ||
			   strchr(s, '!')) {
			err("%s: parameter %s: target \"%s\": a literal assignment, which capetool does not apply; edit the source instead",
			    in_name(m->src), p, s);
			rc = EXIT_DEF;
		} else {
			rc = override_one(m, p, node, s, value);
		}
	}
	free(copy);
	free(p);
	return rc;
}

/* ---- what the input's phandle cells name ---- */

static void add_ref(struct imp *m, const char *path, const char *prop, int off, const char *label,
		    uint32_t ph)
{
	m->refs = xrealloc(m->refs, sizeof(*m->refs) * (size_t)(m->nrefs + 1));
	m->refs[m->nrefs++] = (struct ref){ xstrdup(path), xstrdup(prop), off,
					    label ? xstrdup(label) : NULL, ph };
}

static int collect_fixups(struct imp *m)
{
	int fx = fdt_subnode_offset(m->fdt, 0, "__fixups__"), prop, len;
	const char *label;

	if (fx < 0)
		return 0;
	fdt_for_each_property_offset(prop, m->fdt, fx) {
		const char *v = fdt_getprop_by_offset(m->fdt, prop, &label, &len);

		for (int at = 0; v && at < len; at += (int)strlen(v + at) + 1) {
			char *e = xstrdup(v + at), *c1 = strchr(e, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

			if (!c2) {
				free(e);
				return -1;
			}
			*c1 = *c2 = 0;
			add_ref(m, e, c1 + 1, atoi(c2 + 1), label, 0);
			free(e);
		}
	}
	return 0;
}

/* __local_fixups__ mirrors the tree: at @lf, for the node at @path. */
static void collect_local(struct imp *m, int lf, const char *path)
{
	int prop, child, len, node = fdt_path_offset(m->fdt, *path ? path : "/");
	const char *name;

	fdt_for_each_property_offset(prop, m->fdt, lf) {
		const fdt32_t *v = fdt_getprop_by_offset(m->fdt, prop, &name, &len);
		int plen;
		const uint8_t *pv = node >= 0 ? fdt_getprop(m->fdt, node, name, &plen) : NULL;

		for (int i = 0; pv && i + 4 <= len; i += 4) {
			uint32_t off = fdt32_to_cpu(v[i / 4]), ph;

			if (off + 4 > (uint32_t)plen)
				continue;
			memcpy(&ph, pv + off, 4);
			add_ref(m, *path ? path : "/", name, (int)off, NULL, fdt32_to_cpu(ph));
		}
	}
	fdt_for_each_subnode(child, m->fdt, lf) {
		char *p = xasprintf("%s/%s", path, fdt_get_name(m->fdt, child, NULL));

		collect_local(m, child, p);
		free(p);
	}
}

static const struct ref *ref_at(const struct imp *m, const char *path, const char *prop, int off)
{
	for (int i = 0; i < m->nrefs; i++)
		if (m->refs[i].offset == off && !strcmp(m->refs[i].prop, prop) &&
		    !strcmp(m->refs[i].path, path))
			return &m->refs[i];
	return NULL;
}

static bool has_refs(const struct imp *m, const char *path, const char *prop)
{
	for (int i = 0; i < m->nrefs; i++)
		if (!strcmp(m->refs[i].prop, prop) && !strcmp(m->refs[i].path, path))
			return true;
	return false;
}

static bool exported(const struct imp *m, const char *label, bool target)
{
	for (int i = 0; i < m->b->nexports; i++)
		if (!strcmp(m->b->exports[i].name, label))
			return !target || m->b->exports[i].target;
	return false;
}

static char *export_names(const struct imp *m)
{
	char *l = NULL;

	for (int i = 0; i < m->b->nexports; i++)
		if (m->b->exports[i].target)
			str_append(&l, ", ", m->b->exports[i].name);
	return l ? l : xstrdup("none");
}

static void claim(struct imp *m, const char *where, uint32_t g)
{
	if (g >= RPI_HAT_GPIO_BANK0_NUM) {
		refuse(m, "%s: GPIO%u is not on the 40-pin header (GPIO0-27)", where, g);
		return;
	}
	if (hat_board_pin_holder(m->b, (int)g))
		refuse(m, "%s: pin GPIO%u is held by %s: %s", where, g, hat_board_pin_holder(m->b, (int)g),
		       hat_board_pin_why(m->b, (int)g));
	else if (m->b->shared_pins >> g & 1 && !(m->pins >> g & 1))
		note(m, "%s: GPIO%u is one of the connector's shared-pins (I2C1, which the board keeps enabled): every HAT may use it, and I2C1 does",
		     where, g);
	m->pins |= 1ULL << g;
}

/* ---- the output's source ---- */

/* A label for the node of local phandle @ph (its own, from __symbols__). */
static char *label_of(const struct imp *m, uint32_t ph)
{
	int node = fdt_node_offset_by_phandle(m->fdt, ph), sym = fdt_subnode_offset(m->fdt, 0, "__symbols__");
	char path[512];
	int prop;
	const char *name;

	if (node >= 0 && sym >= 0 && !fdt_get_path(m->fdt, node, path, sizeof(path)))
		fdt_for_each_property_offset(prop, m->fdt, sym) {
			const char *v = fdt_getprop_by_offset(m->fdt, prop, &name, NULL);

			if (v && !strcmp(v, path))
				return xstrdup(name);
		}
	return xasprintf("node_%u", ph);
}

static bool in_group(const struct imp *m, uint32_t ph)
{
	int node = fdt_node_offset_by_phandle(m->fdt, ph);
	char path[512];

	if (node < 0 || fdt_get_path(m->fdt, node, path, sizeof(path)))
		return false;
	for (const char *g = m->groups; g && *g; g += strcspn(g, "\n") + (g[strcspn(g, "\n")] ? 1 : 0))
		if (strlen(path) == strcspn(g, "\n") && !strncmp(g, path, strlen(path)))
			return true;
	return false;
}

/* Is @node written out: in a fragment's applied body, not a pin group? */
static bool node_live(const struct imp *m, int node)
{
	int d = fdt_node_depth(m->fdt, node), f, body;

	if (d < 2 || in_group(m, fdt_get_phandle(m->fdt, node)))
		return false;
	f = fdt_supernode_atdepth_offset(m->fdt, node, 1, NULL);
	body = f >= 0 ? fragment_body(m, f) : -1;
	return body >= 0 && fdt_supernode_atdepth_offset(m->fdt, node, 2, NULL) == body;
}

static bool printable_strings(const char *v, int len)
{
	if (len <= 0 || v[len - 1])
		return false;
	for (int i = 0; i < len; i++) {
		if (!v[i] && (i == 0 || !v[i - 1]))
			return false;
		if (v[i] && !isprint((unsigned char)v[i]))
			return false;
	}
	return true;
}

static bool is_gpio_prop(const char *p)
{
	size_t n = strlen(p);

	return !strcmp(p, "gpios") || !strcmp(p, "gpio") || (n > 6 && !strcmp(p + n - 6, "-gpios")) ||
	       (n > 5 && !strcmp(p + n - 5, "-gpio"));
}

/* The trigger types hat_irq maps (IRQ_TYPE_EDGE_* and _LEVEL_*). */
static bool irq_type_mapped(uint32_t t)
{
	return t == 1 || t == 2 || t == 3 || t == 4 || t == 8;
}

/* The export fragment body @path (/fragment@N/__overlay__) targets, or NULL. */
static const char *body_unit(const struct imp *m, const char *path)
{
	char *fpath;
	const struct ref *r;
	int f;

	if (strncmp(path, "/fragment@", 10) || strchr(path + 1, '/') == NULL ||
	    strcmp(strchr(path + 1, '/'), "/__overlay__"))
		return NULL;
	fpath = xasprintf("%.*s", (int)(strchr(path + 1, '/') - path), path);
	r = ref_at(m, fpath, "target", 0);
	f = fdt_path_offset(m->fdt, fpath);
	free(fpath);
	if (!r || !r->label || f < 0 || fragment_body(m, f) < 0)
		return NULL;
	for (int e = 0; e < m->b->nexports; e++)
		if (!strcmp(m->b->exports[e].name, r->label) && m->b->exports[e].target &&
		    !m->b->exports[e].devices)
			return m->b->exports[e].name;
	return NULL;
}

static void emit_prop(struct imp *m, const char *path, int node, const char *name, const uint8_t *v,
		      int len, int depth)
{
	bool irq_gpio = false;
	int pl;

	fprintf(m->out, "%.*s%s", depth, TABS, name);
	if (!len) {
		fputs(";\n", m->out);
		return;
	}
	if (!strcmp(name, "interrupts")) {
		const struct ref *r = ref_at(m, path, "interrupt-parent", 0);

		irq_gpio = r && r->label && !strcmp(r->label, "gpio");
		if (!r && fdt_getprop(m->fdt, node, "interrupt-parent", &pl))
			irq_gpio = false;
	}
	if (!has_refs(m, path, name) && !irq_gpio && printable_strings((const char *)v, len)) {
		fputs(" = ", m->out);
		for (int at = 0; at < len; at++) {
			fputs(at ? ", \"" : "\"", m->out);
			for (; v[at]; at++)	/* dtc's escapes: \" and \\ */
				fprintf(m->out, "%s%c", v[at] == '"' || v[at] == '\\' ? "\\" : "", v[at]);
			fputc('"', m->out);
		}
		fputs(";\n", m->out);
		return;
	}
	if (len % 4) {
		fputs(" = [", m->out);
		for (int i = 0; i < len; i++)
			fprintf(m->out, "%s%02x", i ? " " : "", v[i]);
		fputs("];\n", m->out);
		return;
	}
	fputs(" = <", m->out);
	for (int off = 0; off < len; off += 4) {
		const struct ref *r = ref_at(m, path, name, off);
		uint32_t c;
		char *where = xasprintf("%s %s", path + 1, name);

		memcpy(&c, v + off, 4);
		c = fdt32_to_cpu(c);
		if (off)
			fputc(' ', m->out);
		if (irq_gpio && off % 8 == 0) {
			claim(m, where, c);
			if (off + 8 <= len) {
				uint32_t t;

				memcpy(&t, v + off + 4, 4);
				if (!irq_type_mapped(fdt32_to_cpu(t)))
					refuse(m, "%s: trigger type %u on GPIO%u: hat_irq maps edge rising (1), falling (2), both (3), level high (4) and low (8) only",
					       where, fdt32_to_cpu(t), c);
			}
		}
		if (!r) {
			fprintf(m->out, c >= 0x80000000u ? "0x%x" : "%u", c);
		} else if (!r->label) {
			int tn = fdt_node_offset_by_phandle(m->fdt, r->phandle);
			char *l = label_of(m, r->phandle);

			if (tn < 0 || !node_live(m, tn))
				refuse(m, "%s refers to &%s, which is not in the overlay it writes (a dropped or dormant fragment, or a pin group)",
				       where, l);
			fprintf(m->out, "&%s", l);
			free(l);
		} else if (!strcmp(r->label, "gpio")) {
			if (!strcmp(name, "interrupt-parent")) {
				fputs("&hat_irq", m->out);
			} else if (is_gpio_prop(name) || !strcmp(name, "interrupts-extended")) {
				bool irq = !strcmp(name, "interrupts-extended");

				fprintf(m->out, "&%s", irq ? "hat_irq" : "hat_gpio");
				if (off + 4 < len) {
					memcpy(&c, v + off + 4, 4);
					claim(m, where, fdt32_to_cpu(c));
				}
			} else {
				refuse(m, "%s refers to &gpio, which the connector exports as hat_gpio (GPIOs: gpios, *-gpios) and hat_irq (interrupts) only",
				       where);
			}
		} else if (exported(m, r->label, false)) {
			fprintf(m->out, "&%s", r->label);
		} else {
			char *l = export_names(m);

			refuse(m, "%s refers to &%s, a board node the connector does not export (it exports %s)",
			       where, r->label, l);
			free(l);
		}
		free(where);
	}
	fputs(">;\n", m->out);
}

static void emit_node(struct imp *m, int node, int depth)
{
	char path[512];
	int prop, child, len;
	const char *name;

	if (fdt_get_path(m->fdt, node, path, sizeof(path)))
		return;
	fdt_for_each_property_offset(prop, m->fdt, node) {
		const uint8_t *v = fdt_getprop_by_offset(m->fdt, prop, &name, &len);

		if (!strcmp(name, "phandle") || !strcmp(name, "linux,phandle"))
			continue;
		if (!strncmp(name, "brcm,", 5)) {
			note(m, "%s: %s dropped: a pin group's property outside a pin group",
			     fdt_get_name(m->fdt, node, NULL), name);
			continue;
		}
		if (!strncmp(name, "pinctrl-", 8)) {
			bool groups = true;

			for (int off = 0; !strcmp(name, "pinctrl-names") ? false : off < len; off += 4) {
				const struct ref *r = ref_at(m, path, name, off);

				groups = groups && r && !r->label && in_group(m, r->phandle);
			}
			if (!strcmp(name, "pinctrl-names") || groups)
				continue;
			/* the unit's own (board) pin group: the board sets it */
			bool board = body_unit(m, path) != NULL;

			for (int off = 0; board && off < len; off += 4) {
				const struct ref *r = ref_at(m, path, name, off);

				board = r && r->label && !exported(m, r->label, false);
			}
			if (board) {
				note(m, "%s: %s dropped: the board sets %s's pins itself when a HAT enables it",
				     body_unit(m, path), name, body_unit(m, path));
				continue;
			}
		}
		emit_prop(m, path, node, name, v, len, depth + 1);
	}
	fdt_for_each_subnode(child, m->fdt, node) {
		char *l = NULL;
		uint32_t cph = fdt_get_phandle(m->fdt, child);

		if (cph)
			l = label_of(m, cph);
		fprintf(m->out, "\n%.*s%s%s%s {\n", depth + 1, TABS, l ? l : "", l ? ": " : "",
			node_name(m, child));
		free(l);
		emit_node(m, child, depth + 1);
		fprintf(m->out, "%.*s};\n", depth + 1, TABS);
	}
}

/*
 * The unit that names pin group @ph in its pinctrl-N (a fragment enabling
 * it) and holds GPIO @g (target-pins): the board sets the pin for it.
 */
static const char *unit_setting(const struct imp *m, uint32_t ph, uint32_t g)
{
	for (int i = 0; ph && i < m->nrefs; i++) {
		const char *u;

		if (m->refs[i].label || m->refs[i].phandle != ph || strncmp(m->refs[i].prop, "pinctrl-", 8))
			continue;
		u = body_unit(m, m->refs[i].path);
		for (int e = 0; u && e < m->b->nexports; e++)
			if (!strcmp(m->b->exports[e].name, u) && m->b->exports[e].pins >> g & 1)
				return u;
	}
	return NULL;
}

/* A brcm,pins group on &gpio: its pins claimed, what it cannot set refused or said. */
static void pin_group(struct imp *m, int node)
{
	int np, nf, nu;
	const fdt32_t *pins = fdt_getprop(m->fdt, node, "brcm,pins", &np);
	const fdt32_t *fn = fdt_getprop(m->fdt, node, "brcm,function", &nf);
	const fdt32_t *pull = fdt_getprop(m->fdt, node, "brcm,pull", &nu);
	const char *gname = fdt_get_name(m->fdt, node, NULL);
	static const char *const alt[8] = { "input", "output", "ALT5", "ALT4", "ALT0", "ALT1", "ALT2", "ALT3" };
	static const char *const pulls[3] = { "none", "down", "up" };
	char path[512];

	if (!pins) {
		refuse(m, "&gpio node %s: not a brcm,pins pin group, and the connector exports no &gpio", gname);
		return;
	}
	if (!fdt_get_path(m->fdt, node, path, sizeof(path)))
		str_append(&m->groups, "\n", path);
	for (int i = 0; i < np / 4; i++) {
		uint32_t g = fdt32_to_cpu(pins[i]);
		uint32_t f = fn && nf >= 4 ? fdt32_to_cpu(fn[nf / 4 > i ? i : nf / 4 - 1]) : 0;
		uint32_t u = pull && nu >= 4 ? fdt32_to_cpu(pull[nu / 4 > i ? i : nu / 4 - 1]) : 0;
		char *where = xasprintf("&gpio pin group %s", gname);

		claim(m, where, g);
		if (f > 1 && f <= 7 && unit_setting(m, fdt_get_phandle(m->fdt, node), g))
			note(m, "%s: GPIO%u as %s: set by the board for %s, which the HAT enables (the unit's own pin group)",
			     where, g, alt[f], unit_setting(m, fdt_get_phandle(m->fdt, node), g));
		else if (f > 1)
			refuse(m, "%s: GPIO%u as %s (brcm,function %u): the connector sets no HAT pin's function; a unit's pins are set by the board when the HAT enables the unit (status = \"okay\" on spi0, pwm, uart3...)",
			       where, g, f > 7 ? "?" : alt[f], f);
		if (u > 2)
			refuse(m, "%s: GPIO%u brcm,pull %u: not 0 (none), 1 (down) or 2 (up)", where, g, u);
		else if (u)
			note(m, "%s: GPIO%u pull-%s is not set: the connector sets no HAT pin's pull (fit a pull-%s resistor on the HAT)",
			     where, g, pulls[u], pulls[u]);
		free(where);
	}
}

/* Does @node hold only status = "disabled" (no other property, no child)? */
static bool only_disables(const void *fdt, int node)
{
	const char *st = fdt_getprop(fdt, node, "status", NULL);
	int first = fdt_first_property_offset(fdt, node);

	return st && !strcmp(st, "disabled") && fdt_next_property_offset(fdt, first) < 0 &&
	       fdt_first_subnode(fdt, node) < 0;
}

/*
 * The connector's name for fragment @f's target, or NULL: refused, or (a
 * fragment disabling the Pi's spidev, which the connector's SPI units do
 * not have) left out.
 */
static char *fragment_target(struct imp *m, int f, bool *gpio)
{
	const char *fname = fdt_get_name(m->fdt, f, NULL);
	const char *tp = fdt_getprop(m->fdt, f, "target-path", NULL);
	char *fpath = xasprintf("/%s", fname);
	const struct ref *r = ref_at(m, fpath, "target", 0);
	char *l;

	free(fpath);
	*gpio = false;
	if (tp) {
		if (!strcmp(tp, "/") || !strcmp(tp, "/clocks"))
			return xstrdup("hat_devices");
		refuse(m, "%s: target-path \"%s\": the connector takes platform devices at hat_devices (target-path \"/\") only",
		       fname, tp);
		return NULL;
	}
	if (!r || !r->label) {
		refuse(m, "%s: its target is not a board label (a node of the overlay itself)", fname);
		return NULL;
	}
	if (!strcmp(r->label, "gpio")) {
		*gpio = true;
		return NULL;
	}
	if (exported(m, r->label, true))
		return xstrdup(r->label);
	if (!strncmp(r->label, "spidev", 6) && fragment_body(m, f) >= 0 &&
	    only_disables(m->fdt, fragment_body(m, f))) {
		if (!m->quiet_spidev)
			note(m, "%s left out: it disables the Pi's &%s, which the connector's SPI units do not have",
			     fname, r->label);
		return NULL;
	}
	l = export_names(m);
	refuse(m, "%s targets &%s, a board node the connector does not export (it exports %s); leave the fragment out with --drop %s if the HAT works without it",
	       fname, r->label, l, fname);
	free(l);
	return NULL;
}

static int convert(struct imp *m)
{
	int f, body, child, applied = 0;

	fputs("/dts-v1/;\n/plugin/;\n\n/ {\n", m->out);
	/* pin groups first: the devices' pinctrl-N naming them are dropped */
	fdt_for_each_subnode(f, m->fdt, 0) {
		bool gpio;
		char *t;

		if ((body = fragment_body(m, f)) < 0)
			continue;
		m->quiet_spidev = true;
		t = fragment_target(m, f, &gpio);
		m->quiet_spidev = false;
		free(t);
		if (gpio)
			fdt_for_each_subnode(child, m->fdt, body)
				pin_group(m, child);
	}
	fdt_for_each_subnode(f, m->fdt, 0) {
		bool gpio;
		char *t;

		if ((body = fragment_body(m, f)) < 0)
			continue;
		t = fragment_target(m, f, &gpio);
		applied++;
		if (!t)
			continue;
		fprintf(m->out, "\n\t%s {\n\t\ttarget = <&%s>;\n\n\t\t__overlay__ {\n",
			fdt_get_name(m->fdt, f, NULL), t);
		/* a node that only disables a board node the connector has not (spidev) */
		fdt_for_each_subnode(child, m->fdt, body) {
			if (only_disables(m->fdt, child)) {
				note(m, "%s: %s dropped: it disables the Pi's own %s node, which %s on the connector does not have",
				     fdt_get_name(m->fdt, f, NULL), fdt_get_name(m->fdt, child, NULL),
				     fdt_get_name(m->fdt, child, NULL), t);
				fdt_nop_node(m->fdt, child);
				break;
			}
		}
		emit_node(m, body, 2);
		fputs("\t\t};\n\t};\n", m->out);
		free(t);
	}
	fputs("};\n", m->out);
	if (!applied) {
		char *l = param_names(m);

		refuse(m, "no fragment applies: its fragments are __dormant__ until a parameter switches one on (its parameters: %s)",
		       l ? l : "none");
		free(l);
	}
	return m->why ? EXIT_DEF : EXIT_OK;
}

/* dtc (no -@: a HAT adds no symbols) on the source capetool wrote at @src. */
static int compile_plain(const char *src, uint8_t **blob, size_t *len)
{
	const char *dtc = getenv("CAPETOOL_DTC"), *why = dtc_compile(src, false, blob, len);

	if (why) {
		err("%s on the HAT+ overlay capetool wrote: %s (a capetool bug if dtc runs; see its source with -o NAME.dts)",
		    dtc && *dtc ? dtc : "dtc", why);
		return strcmp(why, "it failed") ? EXIT_FAIL : EXIT_DEF;
	}
	return EXIT_OK;
}

/* Is @path (a file cpp read) the source or under its directory or an -I DIR? */
static bool include_allowed(const char *path, const char *src, const char *dir, char **incs, int nincs)
{
	char *real = realpath(path, NULL), *d;
	bool ok = false;

	if (!real)
		return false;
	for (int i = -1; i < nincs && !ok; i++) {
		d = realpath(i < 0 ? dir : incs[i], NULL);
		if (d) {
			size_t n = strlen(d);

			ok = !strncmp(real, d, n) && (real[n] == '/' || !d[1]);
			free(d);
		}
	}
	d = realpath(src, NULL);
	ok = ok || (d && !strcmp(d, real));
	free(d);
	free(real);
	return ok;
}

/*
 * An overlay source comes from anywhere: what dtc would compile from it may
 * read no file of this machine but the includes it is given.  dtc's own
 * /incbin/ and /include/ are refused; the files cpp read (its line markers)
 * must be the source, or under its directory or an -I DIR (red team 14 F3:
 * /incbin/("/etc/hostname") went into the HAT+ overlay, exit 0).
 */
static int confined_source(const char *src, const char *text_path, const char *dir, char **incs, int nincs)
{
	static const char *const directive[] = { "/incbin/", "/include/" };
	uint8_t *t;
	size_t n, line = 1;
	int r = read_file(text_path, &t, &n);

	if (r) {
		err("%s: cannot read it: %s", in_name(src), strerror(-r));
		return EXIT_IO;
	}
	if (n >= 4 && fdt_magic(t) == FDT_MAGIC) {	/* a compiled overlay */
		free(t);
		return EXIT_OK;
	}
	for (size_t i = 0; i < n; i++) {
		if (t[i] == '\n') {
			line++;
			continue;
		}
		for (size_t k = 0; k < 2; k++) {
			size_t l = strlen(directive[k]);

			if (n - i >= l && !memcmp(t + i, directive[k], l)) {
				err("%s%s%zu: %s reads a file of this machine into the overlay: refused in an overlay from elsewhere (give its bytes as a property value)",
				    in_name(src), text_path == src ? ":" : ": at line ", line, directive[k]);
				free(t);
				return EXIT_DEF;
			}
		}
		/* cpp's line markers: # LINE "FILE" FLAGS, at a line's start */
		if ((i == 0 || t[i - 1] == '\n') && text_path != src && n - i > 3 && t[i] == '#' &&
		    t[i + 1] == ' ' && isdigit(t[i + 2])) {
			const uint8_t *q = memchr(t + i, '"', n - i), *e;

			e = q ? memchr(q + 1, '"', n - (size_t)(q + 1 - t)) : NULL;
			if (q && e && q[1] != '<') {
				char *f = xasprintf("%.*s", (int)(e - q - 1), (const char *)q + 1);
				bool ok = include_allowed(f, src, dir, incs, nincs);

				if (!ok)
					err("%s: it includes %s, outside its directory and the -I DIRs: refused", in_name(src), f);
				free(f);
				if (!ok) {
					free(t);
					return EXIT_DEF;
				}
			}
		}
	}
	free(t);
	return EXIT_OK;
}

static bool ends_with(const char *s, const char *e)
{
	size_t n = strlen(s), k = strlen(e);

	return n >= k && !strcmp(s + n - k, e);
}

int cmd_import_rpi(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "board", required_argument, NULL, 'b' },
		{ "drop", required_argument, NULL, 'D' },
		{ "include", required_argument, NULL, 'I' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *board = NULL, *outp = NULL;
	char **drops = NULL, **incs = NULL, *src_text = NULL, *tmpsrc = NULL, *ppsrc = NULL;
	int ndrops = 0, nincs = 0, c, rc;
	struct rpi_board b;
	struct imp m = { 0 };
	uint8_t *in = NULL, *res = NULL;
	size_t inlen, reslen, srclen = 0;

	if (wants_help(argc, argv)) {
		fputs(usage_text, stdout);
		return EXIT_OK;
	}
	optind = 1;
	while ((c = getopt_long(argc, argv, "b:I:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			board = optarg;
			break;
		case 'D':
			drops = xrealloc(drops, sizeof(*drops) * (size_t)(ndrops + 1));
			drops[ndrops++] = optarg;
			break;
		case 'I':
			incs = xrealloc(incs, sizeof(*incs) * (size_t)(nincs + 1));
			incs[nincs++] = optarg;
			break;
		case 'o':
			outp = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			free(drops);
			free(incs);
			return EXIT_OK;
		default:
			fputs(usage_text, stderr);
			free(drops);
			free(incs);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc || !outp || !*outp) {
		err(optind >= argc ? "import-rpi: an overlay source is required (see 'capetool import-rpi --help')"
				   : "import-rpi: -o OUT is required");
		free(drops);
		free(incs);
		return EXIT_USAGE;
	}
	m.src = argv[optind];
	if ((rc = rpi_board_load(board, &b))) {
		free(drops);
		free(incs);
		return rc;
	}
	m.b = &b;
	if ((rc = read_file(m.src, &in, &inlen))) {
		err("%s: cannot read it: %s", in_name(m.src), strerror(-rc));
		rc = EXIT_IO;
		goto out;
	}
	if (nincs || dt_source_wants_cpp(in, inlen)) {
		if ((rc = dt_source_preprocess(m.src, incs, nincs, &ppsrc)))
			goto out;
	}
	free(in);
	in = NULL;
	{
		char *dir = path_dirname(m.src);

		rc = confined_source(m.src, ppsrc ? ppsrc : m.src, dir, incs, nincs);
		free(dir);
		if (rc)
			goto out;
	}
	/* -@: its __overrides__ name labels */
	if ((rc = dt_source_read(ppsrc ? ppsrc : m.src, NULL, 0, true, &in, &inlen)))
		goto out;
	if (fdt_check_untrusted(in, inlen) ||
	    fdt_subnode_offset(in, 0, "fragment@0") < 0) {
		err("%s: not a Raspberry Pi overlay: no fragment@0", in_name(m.src));
		rc = EXIT_DEF;
		goto out;
	}
	m.fdt = xmalloc(inlen + 65536);
	if (fdt_open_into(in, m.fdt, (int)inlen + 65536)) {
		err("%s: not a device tree", in_name(m.src));
		rc = EXIT_DEF;
		goto out;
	}
	for (int i = optind + 1; i < argc; i++)
		if ((rc = apply_param(&m, argv[i])))
			goto out;
	for (int i = 0; i < ndrops; i++) {
		char *end;
		unsigned long n = strtoul(drops[i] + (strncmp(drops[i], "fragment@", 9) ? 0 : 9), &end, 10);

		if (*end || fragment_node(m.fdt, n) < 0) {
			err("--drop %s: %s has no such fragment", drops[i], in_name(m.src));
			rc = EXIT_USAGE;
			goto out;
		}
		fragment_switch(&m, n, false);
		note(&m, "fragment@%lu left out (--drop)", n);
	}
	if (collect_fixups(&m)) {
		err("%s: its __fixups__ are malformed", in_name(m.src));
		rc = EXIT_DEF;
		goto out;
	}
	{
		int lf = fdt_subnode_offset(m.fdt, 0, "__local_fixups__");

		if (lf >= 0)
			collect_local(&m, lf, "");
	}
	m.out = open_memstream(&src_text, &srclen);
	if (!m.out) {
		rc = EXIT_FAIL;
		goto out;
	}
	fprintf(m.out, "// SPDX-License-Identifier: GPL-2.0\n/* HAT+ overlay by capetool import-rpi from %s", in_name(m.src));
	for (int i = optind + 1; i < argc; i++)
		fprintf(m.out, " %s", argv[i]);
	fputs(" */\n", m.out);
	rc = convert(&m);
	if (!rc && m.pins) {
		/* exclusive-use goes at the root: after /plugin/'s "/ {" line */
		char *ex = NULL;

		for (int g = 0; g < RPI_HAT_GPIO_BANK0_NUM; g++)
			if (m.pins >> g & 1) {
				char *q = xasprintf("\"GPIO%d\"", g);

				str_append(&ex, ", ", q);
				free(q);
			}
		fprintf(m.out, "/ {\n\texclusive-use = %s;\n};\n", ex);
		free(ex);
	}
	fclose(m.out);
	if (rc) {
		err("%s: refused: %s", in_name(m.src), m.why);
		goto out;
	}
	if (ends_with(outp, ".dts") || ends_with(outp, ".dtso")) {
		rc = write_file(outp, src_text, srclen) ? EXIT_IO : EXIT_OK;
		if (rc)
			err("%s: cannot write it", out_name(outp));
		goto out;
	}
	{
		int fd;

		tmpsrc = tmp_template("capetool-rpi-XXXXXX.dts");
		fd = mkstemps(tmpsrc, 4);
		if (fd < 0 || write(fd, src_text, srclen) != (ssize_t)srclen) {
			if (fd >= 0)
				close(fd);
			err("a temporary file: %s", strerror(errno));
			rc = EXIT_IO;
			goto out;
		}
		close(fd);
	}
	if ((rc = compile_plain(tmpsrc, &res, &reslen)))
		goto out;
	{
		struct hat_overlay ov = { 0 };
		char *why = NULL;

		rc = hat_overlay_check(&b, res, reslen, 0, &ov, &why);
		if (rc) {
			err("%s: refused: the connector refuses the HAT+ overlay: %s", in_name(m.src), why);
			free(why);
			goto out;
		}
		free(why);
	}
	if (binary_to_tty(outp)) {
		rc = EXIT_USAGE;
		goto out;
	}
	if ((rc = write_file(outp, res, reslen))) {
		err("%s: cannot write it: %s", out_name(outp), strerror(-rc));
		rc = EXIT_IO;
		goto out;
	}
	if (!rc && !is_stdio(outp)) {
		printf("%s (%zu bytes): pins", out_name(outp), reslen);
		for (int g = 0; g < RPI_HAT_GPIO_BANK0_NUM; g++)
			if (m.pins >> g & 1)
				printf(" GPIO%d", g);
		printf("%s\n", m.pins ? "" : " none of its own");
	}
out:
	if (ppsrc) {
		unlink(ppsrc);
		free(ppsrc);
	}
	if (tmpsrc) {
		unlink(tmpsrc);
		free(tmpsrc);
	}
	for (int i = 0; i < m.nrefs; i++) {
		free(m.refs[i].path);
		free(m.refs[i].prop);
		free(m.refs[i].label);
	}
	free(m.refs);
	free(m.why);
	free(m.groups);
	for (int i = 0; i < m.nren; i++) {
		free(m.ren_path[i]);
		free(m.ren_name[i]);
	}
	free(m.ren_path);
	free(m.ren_name);
	free(m.fdt);
	free(in);
	free(res);
	free(src_text);
	free(drops);
	free(incs);
	rpi_board_free(&b);
	return rc;
}
