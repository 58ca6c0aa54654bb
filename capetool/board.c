// SPDX-License-Identifier: GPL-2.0
/*
 * capetool: board profiles.  The profiles in schemas/boards/ are compiled
 * in (the guest has only the binary); --board PATH loads one from a file.
 */
#include <libconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capetool.h"

static char **str_array(config_setting_t *a, size_t *n)
{
	int m = a ? config_setting_length(a) : 0;
	char **v = xcalloc((size_t)m + 1, sizeof(*v));

	for (int i = 0; i < m; i++) {
		const char *s = config_setting_get_string_elem(a, i);

		v[i] = xstrdup(s ? s : "");
	}
	*n = (size_t)m;
	return v;
}

static int mark_pins(const char *src, config_setting_t *a, bool *mark)
{
	int m = a ? config_setting_length(a) : 0;

	for (int i = 0; i < m; i++) {
		const char *s = config_setting_get_string_elem(a, i);
		int idx = s ? cape_pin_index(s) : -1;

		if (idx < 0) {
			err("%s: board pin \"%s\" is not a header signal", src, s ? s : "?");
			return -1;
		}
		mark[idx] = true;
	}
	return 0;
}

bool header_position(const char *name, int *hdr, int *pos)
{
	char canon[16];

	if (!pin_canonical(name, canon, sizeof(canon)))
		return false;
	*hdr = canon[1] - '8';
	*pos = atoi(canon + 3);
	return true;
}

const struct board_hdr *board_hdr_of(const struct board *b, int idx)
{
	int hdr, pos;

	if (idx < 0 || idx >= CAPE_NPINS || !header_position(cape_pin_names[idx], &hdr, &pos))
		return NULL;
	return &b->hdr[hdr][pos - 1];
}

/*
 * The table of functions by mux mode: @b's, or for a board without one
 * (qemu-vexpress has no pin multiplexer) the BeagleBone Black's.  A pin
 * word's mode is the AM335x pad's mux mode on every board with the header.
 */
const struct board *board_functions(const struct board *b)
{
	static struct board bone;
	static int loaded;	/* 0: not yet, 1: loaded, -1: failed */

	if (b && b->has_modes)
		return b;
	if (!loaded)
		loaded = board_load("beaglebone-black", &bone) ? -1 : 1;
	return loaded > 0 ? &bone : b;
}

const char *board_function(const struct board *t, int idx, int mode)
{
	const struct board_hdr *h = t ? board_hdr_of(t, idx) : NULL;

	if (!h || mode < 0 || mode > 7 || !h->modes[mode] || !*h->modes[mode])
		return NULL;
	return h->modes[mode];
}

int board_gpio_mode(const struct board *t, int idx)
{
	for (int m = 0; m < 8; m++) {
		const char *f = board_function(t, idx, m);

		if (f && !strncmp(f, "gpio", 4))
			return m;
	}
	return -1;
}

/*
 * A pin's "offers": the mux modes its pad offers capes, each 0-7 once, as a
 * mask (bit n for mode n).  None listed: none offered.
 */
static int parse_offers(const char *src, const char *pin, const config_setting_t *list,
			unsigned *offers)
{
	int n = list ? config_setting_length(list) : 0;

	*offers = 0;
	for (int i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(list, (unsigned)i);
		int m = e && config_setting_type(e) == CONFIG_TYPE_INT ? config_setting_get_int(e) : -1;

		if (m < 0 || m > 7 || *offers & 1u << m) {
			err("%s:%d: pins: %s: offers lists mux modes 0-7, each once",
			    src, config_setting_source_line(list), pin);
			return -1;
		}
		*offers |= 1u << m;
	}
	return 0;
}

/* "header": per position, fixed pins, functions by mode, the board's uses. */
static int parse_header(const char *src, config_setting_t *list, struct board *b)
{
	int n = list ? config_setting_length(list) : 0;

	b->has_hdr = list != NULL;
	for (int i = 0; i < n; i++) {
		config_setting_t *g = config_setting_get_elem(list, (unsigned)i);
		config_setting_t *m = config_setting_get_member(g, "modes");
		const char *name = NULL, *v;
		struct board_hdr *h;
		int hdr, pos;

		config_setting_lookup_string(g, "pin", &name);
		if (!header_position(name, &hdr, &pos)) {
			err("%s: header: \"%s\" is not a header position (P8.1 to P9.46)", src, name);
			return -1;
		}
		h = &b->hdr[hdr][pos - 1];
		if (h->name || h->fixed || h->use || h->modes[0]) {
			err("%s: header: %s listed twice", src, name);
			return -1;
		}
		if (config_setting_lookup_string(g, "fixed", &v)) {
			if (cape_pin_index(name) >= 0) {
				err("%s: header: %s is a signal pin, not a fixed one", src, name);
				return -1;
			}
			h->fixed = xstrdup(v);
		}
		if (config_setting_lookup_string(g, "name", &v)) {
			if (cape_pin_index(name) < 0 || h->fixed) {
				err("%s: header: %s: only a signal pin takes a name (a fixed one says \"fixed\")",
				    src, name);
				return -1;
			}
			h->name = xstrdup(v);
		}
		if (config_setting_lookup_string(g, "use", &v))
			h->use = xstrdup(v);
		if (m) {
			if (config_setting_length(m) != 8 || cape_pin_index(name) < 0) {
				err("%s: header: %s: modes must list 8 functions of a signal pin", src, name);
				return -1;
			}
			for (int k = 0; k < 8; k++) {
				const char *f = config_setting_get_string_elem(m, k);

				h->modes[k] = xstrdup(f ? f : "");
				b->has_modes |= f && *f;
			}
		}
	}
	/* a position with no pin-usage word must say what it is */
	for (int hdr = 0; n && hdr < 2; hdr++)
		for (int pos = 1; pos <= 2 * BOARD_HDR_ROWS; pos++) {
			char pname[32];

			snprintf(pname, sizeof(pname), "P%d.%d", 8 + hdr, pos);
			if (cape_pin_index(pname) < 0 && !b->hdr[hdr][pos - 1].fixed) {
				err("%s: header: %s is no signal pin and has no \"fixed\" name", src, pname);
				return -1;
			}
		}
	return 0;
}

/* "exports": unique names; each a target, the (one) GPIO nexus or the (one) interrupt nexus. */
static int parse_exports(const char *src, config_setting_t *list, struct board *b)
{
	int n = list ? config_setting_length(list) : 0;
	bool nexus = false, irq_nexus = false;

	b->exports = xcalloc((size_t)n + 1, sizeof(*b->exports));
	for (int i = 0; i < n; i++) {
		config_setting_t *g = config_setting_get_elem(list, (unsigned)i);
		struct board_export *e = &b->exports[b->nexports];
		const char *name = NULL, *target = NULL;
		config_setting_t *tp;
		int gm = 0, im = 0;

		config_setting_lookup_string(g, "name", &name);
		config_setting_lookup_string(g, "target", &target);
		config_setting_lookup_bool(g, "gpio-map", &gm);
		config_setting_lookup_bool(g, "interrupt-map", &im);
		if (!name[0] || strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
		    strlen(name) || (name[0] >= '0' && name[0] <= '9')) {
			err("%s: exports: \"%s\" is not a label (letters, digits and _, not starting with a digit)",
			    src, name);
			return -1;
		}
		if (board_find_export(b, name)) {
			err("%s: exports: %s listed twice", src, name);
			return -1;
		}
		if (!!target + !!gm + !!im != 1) {
			err("%s: exports: %s needs one of a target, gpio-map = true or interrupt-map = true",
			    src, name);
			return -1;
		}
		if (gm && nexus) {
			err("%s: exports: %s: only one export is the GPIO nexus", src, name);
			return -1;
		}
		if (target && !target[0]) {
			err("%s: exports: %s: an empty target", src, name);
			return -1;
		}
		if (im && irq_nexus) {
			err("%s: exports: %s: only one export is the interrupt nexus", src, name);
			return -1;
		}
		tp = config_setting_get_member(g, "target-properties");
		if (tp && !target) {
			err("%s: exports: %s: target-properties without a target", src, name);
			return -1;
		}
		for (int k = 0; tp && k < config_setting_length(tp); k++)
			if (!config_setting_get_string_elem(tp, k)) {
				err("%s: exports: %s: target-properties holds property names (strings)",
				    src, name);
				return -1;
			}
		for (int k = 0; tp && k < config_setting_length(tp); k++) {
			e->props = xrealloc(e->props, (e->nprops + 1) * sizeof(*e->props));
			e->props[e->nprops++] = xstrdup(config_setting_get_string_elem(tp, k));
		}
		nexus |= gm;
		irq_nexus |= im;
		e->irq = im;
		e->name = xstrdup(name);
		e->target = target ? xstrdup(target) : NULL;
		b->nexports++;
	}
	return 0;
}

static int board_parse_fields(const char *src, config_t *cfg, struct board *b, bool validate);

/*
 * On failure, nothing of the half-parsed profile is left allocated.
 * @validate: a profile read from a file is checked against the board
 * schema.  A compiled-in one is the text of schemas/boards/ the build
 * checked (the Makefile's board-schema check): checking it again at every
 * run was most of a create's time (a qemu-vexpress create reads two).
 */
static int board_parse(const char *src, config_t *cfg, struct board *b, bool validate)
{
	int rc = board_parse_fields(src, cfg, b, validate);

	if (rc)
		board_free(b);
	return rc;
}

static int board_parse_fields(const char *src, config_t *cfg, struct board *b, bool validate)
{
	config_setting_t *root = config_root_setting(cfg), *s;
	const char *v;
	size_t n;

	memset(b, 0, sizeof(*b));
	if (validate && schema_validate(embedded_board_schema, src, root))
		return EXIT_DEF;
	if (strcmp(board_family(cfg), "bone")) {
		config_setting_lookup_string(root, "name", &v);
		err("board %s is a Raspberry Pi 40-pin header (family %s): it takes HATs (check and pinout of HAT settings or images), not cape definitions",
		    v, board_family(cfg));
		return EXIT_USAGE;
	}
	{
		static const char *const need[] = { "compatible", "devices-target", "budget", "pins" };
		bool missing = false;

		for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
			if (!config_setting_get_member(root, need[i])) {
				err("%s: %s: required key missing (a bone profile)", src, need[i]);
				missing = true;
			}
		if (config_setting_get_member(root, "gpio-header")) {
			err("%s: gpio-header: a family rpi key (this profile is family bone)", src);
			missing = true;
		}
		if (missing)
			return EXIT_DEF;
	}
	config_setting_lookup_string(root, "name", &v);
	b->name = xstrdup(v);
	config_setting_lookup_string(root, "description", &v);
	b->description = xstrdup(v);
	b->pinmux = config_setting_lookup_string(root, "pinmux", &v) ? xstrdup(v) : NULL;
	config_setting_lookup_string(root, "devices-target", &v);
	b->devices_target = xstrdup(v);
	b->compatible = str_array(config_setting_get_member(root, "compatible"), &b->ncompatible);
	s = config_setting_get_member(root, "budget");
	config_setting_lookup_int(s, "vdd-3v3b", (int *)&b->budget[0]);
	config_setting_lookup_int(s, "vdd-5v", (int *)&b->budget[1]);
	config_setting_lookup_int(s, "sys-5v", (int *)&b->budget[2]);
	b->slots = 4;
	config_setting_lookup_int(root, "slots", &b->slots);
	if (mark_pins(src, config_setting_get_member(root, "board-pins"), b->board_pin) ||
	    mark_pins(src, config_setting_get_member(root, "shared-pins"), b->shared_pin))
		return EXIT_DEF;
	s = config_setting_get_member(root, "buses");
	b->nbuses = s ? (size_t)config_setting_length(s) : 0;
	b->buses = xcalloc(b->nbuses, sizeof(*b->buses));
	for (size_t i = 0; i < b->nbuses; i++) {
		config_setting_t *g = config_setting_get_elem(s, (unsigned)i), *m;
		struct board_bus *bus = &b->buses[i];
		int en = 0;

		config_setting_lookup_string(g, "name", &v);
		bus->name = xstrdup(v);
		config_setting_lookup_string(g, "label", &v);
		bus->label = xstrdup(v);
		config_setting_lookup_string(g, "type", &v);
		bus->type = xstrdup(v);
		bus->pins = str_array(config_setting_get_member(g, "pins"), &bus->npins);
		config_setting_lookup_bool(g, "board-enabled", &en);
		bus->board_enabled = en;
		if ((m = config_setting_get_member(g, "mux"))) {
			bus->nmux = (size_t)config_setting_length(m);
			bus->mux = xcalloc(bus->nmux, sizeof(*bus->mux));
			for (size_t k = 0; k < bus->nmux; k++) {
				config_setting_t *e = config_setting_get_elem(m, (unsigned)k);
				int req = 0;

				config_setting_lookup_string(e, "pin", &v);
				bus->mux[k].idx = cape_pin_index(v);
				if (bus->mux[k].idx < 0) {
					err("%s: %s mux: pin \"%s\" is not a header signal", src,
					    bus->name, v);
					return EXIT_DEF;
				}
				config_setting_lookup_int(e, "mode", &bus->mux[k].mode);
				config_setting_lookup_string(e, "signal", &v);
				bus->mux[k].signal = xstrdup(v);
				config_setting_lookup_bool(e, "required", &req);
				bus->mux[k].required = req;
				req = 0;
				config_setting_lookup_bool(e, "rx", &req);
				bus->mux[k].rx = req;
				req = 0;
				config_setting_lookup_bool(e, "clock", &req);
				bus->mux[k].clock = req;
				bus->mux[k].rx |= bus->mux[k].clock;	/* read back through the pad */
			}
		}
		bus->parents = str_array(config_setting_get_member(g, "parents"), &bus->nparents);
		if (config_setting_lookup_string(g, "adc-channels", &v))
			bus->adc_channels = xstrdup(v);
		if ((m = config_setting_get_member(g, "reserved"))) {
			bus->nreserved = (size_t)config_setting_length(m);
			bus->reserved = xcalloc(bus->nreserved, sizeof(*bus->reserved));
			for (size_t k = 0; k < bus->nreserved; k++) {
				config_setting_t *e = config_setting_get_elem(m, (unsigned)k);

				config_setting_lookup_int(e, "address", &bus->reserved[k].addr);
				config_setting_lookup_string(e, "holder", &v);
				bus->reserved[k].holder = xstrdup(v);
			}
		}
	}
	s = config_setting_get_member(root, "variants");
	b->nvariants = s ? (size_t)config_setting_length(s) : 0;
	b->variants = xcalloc(b->nvariants, sizeof(*b->variants));
	for (size_t i = 0; i < b->nvariants; i++) {
		config_setting_t *g = config_setting_get_elem(s, (unsigned)i);
		struct board_variant *bv = &b->variants[i];

		config_setting_lookup_string(g, "name", &v);
		bv->name = xstrdup(v);
		config_setting_lookup_string(g, "description", &v);
		bv->description = xstrdup(v);
		if (mark_pins(src, config_setting_get_member(g, "frees"), bv->frees))
			return EXIT_DEF;
		for (int k = 0; k < CAPE_NPINS; k++)
			if (bv->frees[k] && !b->board_pin[k]) {
				err("%s: variant %s frees %s, which is not a board pin", src, bv->name,
				    cape_pin_names[k]);
				return EXIT_DEF;
			}
	}
	if (parse_header(src, config_setting_get_member(root, "header"), b))
		return EXIT_FAIL;
	if (parse_exports(src, config_setting_get_member(root, "exports"), b))
		return EXIT_DEF;
	for (int i = 0; i < CAPE_NPINS; i++)
		b->pins[i].conf = -1;
	s = config_setting_get_member(root, "pins");
	n = (size_t)config_setting_length(s);
	for (size_t i = 0; i < n; i++) {
		config_setting_t *g = config_setting_get_elem(s, (unsigned)i), *cp;
		int idx, line = 0, conf;

		config_setting_lookup_string(g, "pin", &v);
		idx = cape_pin_index(v);
		if (idx < 0) {
			err("%s: pin \"%s\" is not a header signal", src, v);
			return EXIT_DEF;
		}
		config_setting_lookup_string(g, "gpio", &v);
		b->pins[idx].idx = idx;
		b->pins[idx].gpio = xstrdup(v);
		config_setting_lookup_int(g, "line", &line);
		b->pins[idx].line = line;
		if (config_setting_lookup_int(g, "conf", &conf))
			b->pins[idx].conf = conf;
		if (parse_offers(src, cape_pin_names[idx], config_setting_get_member(g, "offers"),
				 &b->pins[idx].offers))
			return EXIT_DEF;
		cp = config_setting_get_member(g, "config-pin");
		if (cp && config_setting_length(cp) != 8) {
			err("%s:%d: pins: %s: config-pin lists a word (or \"\") for each of the 8 modes",
			    src, config_setting_source_line(cp), cape_pin_names[idx]);
			return EXIT_DEF;
		}
		for (int k = 0; cp && k < 8; k++) {
			const char *w = config_setting_get_string_elem(cp, k);

			if (w && *w)
				b->pins[idx].config_pin[k] = xstrdup(w);
		}
	}
	return EXIT_OK;
}

const char *board_detect(void)
{
	char *path = xasprintf("%s/firmware/devicetree/base/compatible", sysfs_root());
	uint8_t *buf;
	size_t len;
	const char *found = NULL;

	if (!read_file(path, &buf, &len)) {
		for (const struct board_src *s = embedded_boards; s->name && !found; s++) {
			struct board b;
			config_t cfg;

			config_init(&cfg);
			if (config_read_string(&cfg, s->text) && !strcmp(board_family(&cfg), "bone") &&
			    board_parse(s->name, &cfg, &b, false) == 0) {
				for (size_t i = 0; i < b.ncompatible && !found; i++)
					for (size_t o = 0; o < len && !found;
					     o += strnlen((char *)buf + o, len - o) + 1)
						if (!strncmp((char *)buf + o, b.compatible[i], len - o))
							found = s->name;
				board_free(&b);
			}
			config_destroy(&cfg);
		}
		free(buf);
	}
	free(path);
	return found ? found : "beaglebone-black";
}

const char *board_family(const config_t *cfg)
{
	const char *f;

	return config_lookup_string(cfg, "family", &f) ? f : "bone";
}

/* The compiled-in profile of @name, or of family @name when one profile has it. */
static const struct board_src *board_src_of(const char *name)
{
	const struct board_src *s, *found = NULL;
	int n = 0;

	for (s = embedded_boards; s->name; s++)
		if (!strcmp(s->name, name))
			return s;
	for (s = embedded_boards; s->name; s++) {
		config_t cfg;

		config_init(&cfg);
		if (config_read_string(&cfg, s->text) && !strcmp(board_family(&cfg), name)) {
			found = s;
			n++;
		}
		config_destroy(&cfg);
	}
	return n == 1 ? found : NULL;
}

/*
 * --board NAME names a file when it has a '/' or ends in ".board" (no
 * profile name does: ./x.board and x.board are the same file), and a
 * compiled-in profile otherwise.
 */
static bool board_is_file(const char *name)
{
	size_t l = strlen(name);

	return strchr(name, '/') || (l > 6 && !strcmp(name + l - 6, ".board"));
}

int board_read_config(const char *name, config_t *cfg)
{
	const struct board_src *s;
	int rc;

	config_init(cfg);
	if (board_is_file(name)) {
		if (!config_read_file(cfg, name)) {
			/* unreadable: an I/O error; unparsable: an invalid input file */
			rc = config_error_type(cfg) == CONFIG_ERR_FILE_IO ? EXIT_IO : EXIT_DEF;
			if (rc == EXIT_IO)
				err("%s: cannot read board profile", name);
			else
				def_syntax_error(name, cfg);
			config_destroy(cfg);
			return rc;
		}
		return EXIT_OK;
	}
	if (!(s = board_src_of(name))) {
		const char *names[32], *near;
		size_t n = 0;

		for (s = embedded_boards; s->name && n < 32; s++)
			names[n++] = s->name;
		near = closest(name, names, n);
		err("unknown board \"%s\"%s%s%s; known boards:", name,
		    near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
		for (s = embedded_boards; s->name && !err_quiet; s++)
			fprintf(stderr, "  %s\n", s->name);
		config_destroy(cfg);
		return EXIT_USAGE;
	}
	if (!config_read_string(cfg, s->text)) {
		err("internal: board %s: line %d: %s", name, config_error_line(cfg),
		    config_error_text(cfg));
		config_destroy(cfg);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

bool board_is_rpi(const char *name)
{
	config_t cfg;
	bool rpi, quiet = err_quiet;

	err_quiet = true;	/* board_load says what is wrong with it */
	rpi = !board_read_config(name, &cfg);
	err_quiet = quiet;
	if (!rpi)
		return false;
	rpi = !strcmp(board_family(&cfg), "rpi");
	config_destroy(&cfg);
	return rpi;
}

int board_load(const char *name, struct board *b)
{
	config_t cfg;
	int rc;
	bool detected = !name;

	if (!name)
		name = board_detect();
	if ((rc = board_read_config(name, &cfg)))
		return rc;
	rc = board_parse(name, &cfg, b, board_is_file(name));
	config_destroy(&cfg);
	if (!rc)
		b->detected = detected;
	return rc;
}

/*
 * --variant LIST, once: the variants are one comma-separated list (a
 * second --variant would replace the first, silently); an empty one is
 * refused.  0, or EXIT_USAGE after saying why.
 */
int opt_variant(const char **variant, const char *arg)
{
	if (*variant) {
		err("--variant given twice (\"%s\", \"%s\"): name the variants once, comma-separated "
		    "(--variant %s,%s)", *variant, arg, *variant, arg);
		return EXIT_USAGE;
	}
	if (!*arg || !strcspn(arg, ",") || arg[strlen(arg) - 1] == ',' || strstr(arg, ",,")) {
		err("--variant \"%s\": an empty variant name", arg);
		return EXIT_USAGE;
	}
	*variant = arg;
	return 0;
}

int board_apply_variants(struct board *b, const char *list)
{
	char *dup, *save, *tok;
	int rc = EXIT_OK, hdr, pos;

	if (!list && b->detected && b->nvariants) {
		/* the running board's connector says which pins are still the board's */
		char *path = xasprintf("%s/firmware/devicetree/base/capebus/board-pins", sysfs_root());
		bool live[CAPE_NPINS] = { false };
		char *found = NULL;
		uint8_t *buf;
		size_t len;

		if (read_file(path, &buf, &len)) {
			free(path);
			return EXIT_OK;
		}
		free(path);
		for (size_t o = 0; o < len; o += strnlen((char *)buf + o, len - o) + 1) {
			char name[16];
			int idx;

			snprintf(name, sizeof(name), "%.*s", (int)strnlen((char *)buf + o, len - o),
				 (char *)buf + o);
			if ((idx = cape_pin_index(name)) >= 0)
				live[idx] = true;
		}
		free(buf);
		for (size_t i = 0; i < b->nvariants; i++) {
			bool gone = true;

			for (int k = 0; k < CAPE_NPINS; k++)
				gone &= !(b->variants[i].frees[k] && live[k]);
			if (gone) {
				char *j = found ? xasprintf("%s,%s", found, b->variants[i].name)
						: xstrdup(b->variants[i].name);

				free(found);
				found = j;
			}
		}
		if (!found)
			return EXIT_OK;
		rc = board_apply_variants(b, found);
		free(found);
		return rc;
	}
	if (!list)
		return EXIT_OK;
	dup = xstrdup(list);
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct board_variant *bv = NULL;

		for (size_t i = 0; i < b->nvariants; i++)
			if (!strcmp(b->variants[i].name, tok))
				bv = &b->variants[i];
		if (!bv) {
			const char *names[16];
			const char *near;
			size_t n = 0;

			for (size_t i = 0; i < b->nvariants && n < 16; i++)
				names[n++] = b->variants[i].name;
			near = closest(tok, names, n);
			if (!b->nvariants)
				err("board %s has no variant \"%s\" (it has none)", b->name, tok);
			else
				err("board %s has no variant \"%s\"%s%s%s; it has:", b->name, tok,
				    near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
			for (size_t i = 0; i < b->nvariants && !err_quiet; i++)
				fprintf(stderr, "  %s: %s\n", b->variants[i].name,
					b->variants[i].description);
			rc = EXIT_USAGE;
			break;
		}
		for (int k = 0; k < CAPE_NPINS; k++) {
			if (!bv->frees[k])
				continue;
			b->board_pin[k] = false;
			if (header_position(cape_pin_names[k], &hdr, &pos)) {
				free(b->hdr[hdr][pos - 1].use);
				b->hdr[hdr][pos - 1].use = NULL;	/* the capes' now */
			}
		}
		if (!b->variant) {
			b->variant = xstrdup(bv->name);
		} else {
			char *j = xasprintf("%s,%s", b->variant, bv->name);

			free(b->variant);
			b->variant = j;
		}
	}
	free(dup);
	return rc;
}

const struct board_variant *board_variant_freeing(const struct board *b, int idx)
{
	for (size_t i = 0; i < b->nvariants; i++)
		if (b->variants[i].frees[idx])
			return &b->variants[i];
	return NULL;
}

const struct board_bus *board_find_bus(const struct board *b, const char *name)
{
	for (size_t i = 0; i < b->nbuses; i++)
		if (!strcmp(b->buses[i].name, name))
			return &b->buses[i];
	return NULL;
}

const struct bus_mux *board_shared_mux(const struct board *b, int idx, const struct board_bus **bus)
{
	for (size_t i = 0; i < b->nbuses; i++) {
		if (!b->buses[i].board_enabled)
			continue;
		for (size_t k = 0; k < b->buses[i].nmux; k++) {
			if (b->buses[i].mux[k].idx == idx) {
				if (bus)
					*bus = &b->buses[i];
				return &b->buses[i].mux[k];
			}
		}
	}
	return NULL;
}

const struct board_export *board_find_export(const struct board *b, const char *name)
{
	for (size_t i = 0; i < b->nexports; i++)
		if (!strcmp(b->exports[i].name, name))
			return &b->exports[i];
	return NULL;
}

const struct board_export *board_export_of(const struct board *b, const char *target)
{
	for (size_t i = 0; i < b->nexports; i++)
		if (b->exports[i].target && !strcmp(b->exports[i].target, target))
			return &b->exports[i];
	return NULL;
}

const struct board_export *board_gpio_export(const struct board *b)
{
	for (size_t i = 0; i < b->nexports; i++)
		if (!b->exports[i].target && !b->exports[i].irq)
			return &b->exports[i];
	return NULL;
}

const struct board_export *board_irq_export(const struct board *b)
{
	for (size_t i = 0; i < b->nexports; i++)
		if (b->exports[i].irq)
			return &b->exports[i];
	return NULL;
}

char *board_export_list(const struct board *b)
{
	char *s = NULL;

	for (size_t i = 0; i < b->nexports; i++) {
		char *n = s ? xasprintf("%s, %s", s, b->exports[i].name) : xstrdup(b->exports[i].name);

		free(s);
		s = n;
	}
	return s ? s : xstrdup("none");
}

int pin_code(int idx)
{
	int hdr, pos;

	if (idx < 0 || idx >= CAPE_NPINS || !header_position(cape_pin_names[idx], &hdr, &pos))
		return -1;
	return (8 + hdr) * 100 + pos;
}

int pin_code_index(uint32_t code)
{
	char name[16];

	if (code < 801 || code > 946 || (code > 846 && code < 901))
		return -1;
	snprintf(name, sizeof(name), "P%u.%u", code / 100, code % 100);
	return cape_pin_index(name);
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void board_free(struct board *b)
{
	free(b->name);
	free(b->description);
	free(b->pinmux);
	free(b->devices_target);
	free_strv(b->compatible, b->ncompatible);
	for (size_t i = 0; i < b->nbuses; i++) {
		free(b->buses[i].name);
		free(b->buses[i].label);
		free(b->buses[i].type);
		free_strv(b->buses[i].pins, b->buses[i].npins);
		for (size_t k = 0; k < b->buses[i].nmux; k++)
			free(b->buses[i].mux[k].signal);
		free(b->buses[i].mux);
		for (size_t k = 0; k < b->buses[i].nreserved; k++)
			free(b->buses[i].reserved[k].holder);
		free(b->buses[i].reserved);
		for (size_t k = 0; k < b->buses[i].nparents; k++)
			free(b->buses[i].parents[k]);
		free(b->buses[i].parents);
		free(b->buses[i].adc_channels);
	}
	free(b->buses);
	for (size_t i = 0; i < b->nexports; i++) {
		free(b->exports[i].name);
		free(b->exports[i].target);
		for (size_t k = 0; k < b->exports[i].nprops; k++)
			free(b->exports[i].props[k]);
		free(b->exports[i].props);
	}
	free(b->exports);
	for (size_t i = 0; i < b->nvariants; i++) {
		free(b->variants[i].name);
		free(b->variants[i].description);
	}
	free(b->variants);
	free(b->variant);
	for (int i = 0; i < CAPE_NPINS; i++) {
		free(b->pins[i].gpio);
		for (int k = 0; k < 8; k++)
			free(b->pins[i].config_pin[k]);
	}
	for (int hdr = 0; hdr < 2; hdr++)
		for (int pos = 0; pos < 2 * BOARD_HDR_ROWS; pos++) {
			struct board_hdr *h = &b->hdr[hdr][pos];

			free(h->name);
			free(h->fixed);
			free(h->use);
			for (int k = 0; k < 8; k++)
				free(h->modes[k]);
		}
	memset(b, 0, sizeof(*b));
}
