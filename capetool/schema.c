// SPDX-License-Identifier: GPL-2.0
/*
 * capetool: the compiled-in schema (schemas/cape.schema, board.schema) and
 * a generic validator driven by it.  def.c and board.c read values only
 * after the validator has checked keys, types, lengths and ranges, so they
 * can trust the types they find.
 */
#include <limits.h>
#include <libconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capetool.h"

struct schema {
	config_t cfg;
	config_setting_t *groups;
};

static int schema_open(struct schema *s, const char *text)
{
	config_init(&s->cfg);
	if (!config_read_string(&s->cfg, text)) {
		err("internal: schema: line %d: %s", config_error_line(&s->cfg),
		    config_error_text(&s->cfg));
		config_destroy(&s->cfg);
		return -1;
	}
	s->groups = config_lookup(&s->cfg, "groups");
	return 0;
}

static const char *fstr(const config_setting_t *f, const char *key)
{
	const char *v = NULL;

	config_setting_lookup_string(f, key, &v);
	return v;
}

static bool fint(const config_setting_t *f, const char *key, int *v)
{
	return config_setting_lookup_int(f, key, v) == CONFIG_TRUE;
}

static bool fbool(const config_setting_t *f, const char *key)
{
	int v = 0;

	config_setting_lookup_bool(f, key, &v);
	return v;
}

static config_setting_t *group_fields(struct schema *s, const char *name)
{
	return s->groups ? config_setting_get_member(s->groups, name) : NULL;
}

static config_setting_t *find_field(config_setting_t *list, const char *key)
{
	int n = list ? config_setting_length(list) : 0;

	for (int i = 0; i < n; i++) {
		config_setting_t *f = config_setting_get_elem(list, i);
		const char *k = fstr(f, "key");

		if (k && !strcmp(k, key))
			return f;
	}
	return NULL;
}

struct vctx {
	struct schema *s;
	const char *file;
	int errors;
};

static void verr(struct vctx *c, const config_setting_t *at, const char *path,
		 const char *fmt, const char *a)
{
	int line = config_setting_source_line(at);

	c->errors++;
	if (err_quiet)
		return;
	/* the root (a top-level key missing) has no line */
	if (line > 0)
		fprintf(stderr, "%s:%d: %s: ", c->file, line, path);
	else
		fprintf(stderr, "%s: %s: ", c->file, path);
	fprintf(stderr, fmt, a);
	fputc('\n', stderr);
}

static bool is_int(const config_setting_t *v)
{
	int t = config_setting_type(v);

	return t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64;
}

static void validate_group(struct vctx *c, config_setting_t *set, const char *path,
			   config_setting_t *fields, config_setting_t *fields2);

/* "; did you mean "KEY"?" for the nearest of @n words, or "". */
static void suggest(char *out, size_t n, const char *word, const char *const *cands, size_t ncands)
{
	const char *near = closest(word, cands, ncands);

	if (near)
		snprintf(out, n, "; did you mean \"%s\"?", near);
	else if (n)
		out[0] = 0;
}

static void validate_value(struct vctx *c, config_setting_t *v, const char *path,
			   config_setting_t *f)
{
	const char *type = fstr(f, "type");
	char buf[320];
	int n;

	if (!strcmp(type, "int-or-string") && config_setting_type(v) == CONFIG_TYPE_STRING) {
		/* a name, resolved by what reads it (a mux mode: the board's table) */
		if (!*config_setting_get_string(v))
			verr(c, v, path, "%s", "must not be empty");
		return;
	}
	if (!strcmp(type, "int-or-string") && !is_int(v)) {
		verr(c, v, path, "%s", "must be an integer or a name");
		return;
	}
	if (!strcmp(type, "string")) {
		const char *s, *cs;
		config_setting_t *en;
		int len, maxlen;

		if (config_setting_type(v) != CONFIG_TYPE_STRING) {
			verr(c, v, path, "%s", "must be a string");
			return;
		}
		s = config_setting_get_string(v);
		len = (int)strlen(s);
		if (fint(f, "length", &n) && len != n) {
			snprintf(buf, sizeof(buf), "must be exactly %d characters (has %d)", n, len);
			verr(c, v, path, "%s", buf);
		}
		if (fint(f, "max-length", &maxlen) && len > maxlen) {
			snprintf(buf, sizeof(buf), "at most %d characters (has %d)", maxlen, len);
			verr(c, v, path, "%s", buf);
		}
		if (fint(f, "min-length", &n) && len < n) {
			if (n == 1)
				snprintf(buf, sizeof(buf), "must not be empty");
			else
				snprintf(buf, sizeof(buf), "at least %d characters (has %d)", n, len);
			verr(c, v, path, "%s", buf);
		}
		cs = fstr(f, "charset");
		if (cs && !strcmp(cs, "utf8")) {
			bool ctl = false;

			for (const char *p = s; *p; p++)
				ctl |= (unsigned char)*p < 0x20 || *p == 0x7f;
			if (!utf8_valid(s))
				verr(c, v, path, "%s", "must be valid UTF-8");
			else if (ctl)
				verr(c, v, path, "%s", "must hold no control characters");
		} else if (cs) {
			for (const char *p = s; *p; p++) {
				if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e) {
					verr(c, v, path, "%s", "must be printable ASCII");
					break;
				}
			}
		}
		en = config_setting_get_member(f, "enum");
		if (en) {
			bool ok = false;

			for (int i = 0; i < config_setting_length(en); i++)
				if (!strcmp(config_setting_get_string_elem(en, i), s))
					ok = true;
			if (!ok) {
				size_t o = (size_t)snprintf(buf, sizeof(buf), "bad value \"%.40s\" (allowed:", s);
				const char *vals[16];
				size_t nv = 0;
				char dym[96];

				for (int i = 0; i < config_setting_length(en) && o < sizeof(buf); i++) {
					o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s %s",
							      i ? "," : "",
							      config_setting_get_string_elem(en, i));
					if (nv < 16)
						vals[nv++] = config_setting_get_string_elem(en, i);
				}
				suggest(dym, sizeof(dym), s, vals, nv);
				if (o < sizeof(buf))
					snprintf(buf + o, sizeof(buf) - o, ")%s", dym);
				verr(c, v, path, "%s", buf);
			}
		}
	} else if (!strcmp(type, "int") || !strcmp(type, "int-or-string")) {
		long long x;
		int lim;

		if (!is_int(v)) {
			verr(c, v, path, "%s", "must be an integer");
			return;
		}
		x = config_setting_get_int64(v);
		if (fint(f, "min", &lim) && x < lim) {
			snprintf(buf, sizeof(buf), "%lld is below the minimum %d", x, lim);
			verr(c, v, path, "%s", buf);
		} else if (fint(f, "max", &lim) && x > lim) {
			snprintf(buf, sizeof(buf), "%lld is above the maximum %d", x, lim);
			verr(c, v, path, "%s", buf);
		} else if (x < INT_MIN || x > INT_MAX) {
			/* an int field is read as an int: 64 bits (L) would read as 0 */
			snprintf(buf, sizeof(buf), "%lld does not fit 32 bits", x);
			verr(c, v, path, "%s", buf);
		}
	} else if (!strcmp(type, "bool")) {
		if (config_setting_type(v) != CONFIG_TYPE_BOOL)
			verr(c, v, path, "%s", "must be true or false");
	} else if (!strcmp(type, "array")) {
		if (config_setting_type(v) != CONFIG_TYPE_ARRAY)
			verr(c, v, path, "%s", "must be an array [ ... ]");
	} else if (!strcmp(type, "any-group")) {
		if (config_setting_type(v) != CONFIG_TYPE_GROUP)
			verr(c, v, path, "%s", "must be a group { ... }");
	} else if (!strcmp(type, "properties")) {
		/* { name = value; ... } or ( ("any,name", value), ... ): def.c reads them */
		if (config_setting_type(v) != CONFIG_TYPE_GROUP &&
		    config_setting_type(v) != CONFIG_TYPE_LIST)
			verr(c, v, path, "%s",
			     "must be a group { name = value; ... } or a list ( (\"name\", value), ... )");
	} else if (!strcmp(type, "strings")) {
		/* a string, or an array of them: none empty */
		int t = config_setting_type(v), m = t == CONFIG_TYPE_ARRAY ? config_setting_length(v) : 0;

		if (t == CONFIG_TYPE_STRING) {
			if (!*config_setting_get_string(v))
				verr(c, v, path, "%s", "must not be empty");
		} else if (t != CONFIG_TYPE_ARRAY || !m ||
			   config_setting_type(config_setting_get_elem(v, 0)) != CONFIG_TYPE_STRING) {
			verr(c, v, path, "%s", "must be a string or an array of strings [\"a\", \"b\"]");
		} else {
			for (int i = 0; i < m; i++)
				if (!*config_setting_get_string_elem(v, i)) {
					verr(c, v, path, "%s", "must hold no empty string");
					break;
				}
		}
	} else if (!strcmp(type, "group")) {
		if (config_setting_type(v) != CONFIG_TYPE_GROUP) {
			verr(c, v, path, "%s", "must be a group { ... }");
			return;
		}
		validate_group(c, v, path, group_fields(c->s, fstr(f, "fields")), NULL);
	} else if (!strcmp(type, "list")) {
		const char *of = fstr(f, "of"), *sel = fstr(f, "select");

		if (config_setting_type(v) != CONFIG_TYPE_LIST) {
			verr(c, v, path, "%s", "must be a list ( ... )");
			return;
		}
		for (int i = 0; i < config_setting_length(v); i++) {
			config_setting_t *e = config_setting_get_elem(v, i);
			config_setting_t *extra = NULL;
			char *ep = xasprintf("%s[%d]", path, i);

			if (config_setting_type(e) != CONFIG_TYPE_GROUP) {
				verr(c, e, ep, "%s", "must be a group { ... }");
				free(ep);
				continue;
			}
			if (sel) {
				const char *sv = NULL;

				if (config_setting_lookup_string(e, sel, &sv))
					extra = group_fields(c->s, sv);
			}
			validate_group(c, e, ep, group_fields(c->s, of), extra);
			free(ep);
		}
	}
}

static void validate_group(struct vctx *c, config_setting_t *set, const char *path,
			   config_setting_t *fields, config_setting_t *fields2)
{
	int n = config_setting_length(set);
	config_setting_t *lists[2] = { fields, fields2 };

	for (int i = 0; i < n; i++) {
		config_setting_t *v = config_setting_get_elem(set, i);
		const char *name = config_setting_name(v);
		config_setting_t *f = find_field(fields, name);
		char *p = *path ? xasprintf("%s.%s", path, name) : xstrdup(name);

		if (!f)
			f = find_field(fields2, name);
		if (!f) {
			const char *keys[64];
			size_t nk = 0;
			char dym[96];

			for (int l = 0; l < 2; l++)
				for (int k = 0; lists[l] && k < config_setting_length(lists[l]) && nk < 64; k++)
					keys[nk++] = fstr(config_setting_get_elem(lists[l], k), "key");
			suggest(dym, sizeof(dym), name, keys, nk);
			verr(c, v, p, "unknown key%s", dym);
		} else {
			validate_value(c, v, p, f);
		}
		free(p);
	}
	for (int l = 0; l < 2; l++) {
		int m = lists[l] ? config_setting_length(lists[l]) : 0;

		for (int i = 0; i < m; i++) {
			config_setting_t *f = config_setting_get_elem(lists[l], i);
			const char *k = fstr(f, "key");

			if (fbool(f, "required") && !config_setting_get_member(set, k)) {
				char *p = *path ? xasprintf("%s.%s", path, k) : xstrdup(k);

				verr(c, set, p, "%s", "required key missing");
				free(p);
			}
		}
	}
}

/*
 * The compiled-in schemas, each parsed once per run (a create reads two
 * profiles and a definition: parsing the schema text every time was a
 * third of its time), kept until exit.
 */
static struct schema *schema_cached(const char *schema_text)
{
	static struct { const char *text; struct schema s; } cache[2];

	for (size_t i = 0; i < sizeof(cache) / sizeof(cache[0]); i++) {
		if (cache[i].text == schema_text)
			return &cache[i].s;
		if (!cache[i].text) {
			if (schema_open(&cache[i].s, schema_text))
				return NULL;
			cache[i].text = schema_text;
			return &cache[i].s;
		}
	}
	return NULL;	/* a third schema: internal error, said by the caller */
}

int schema_validate(const char *schema_text, const char *file, config_setting_t *root)
{
	struct schema *s = schema_cached(schema_text);
	struct vctx c = { s, file, 0 };

	if (!s) {
		err("internal: schema: no room for another schema");
		return -1;
	}
	validate_group(&c, root, "", config_lookup(&s->cfg, "fields"), NULL);
	return c.errors;
}

/* ---- documentation ---- */

static void roff_text(const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", stdout);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", stdout);
		else if (*s == '-')
			fputs("\\-", stdout);
		else
			putchar(*s);
	}
}

static void doc_field(config_setting_t *f, bool roff, const char *indent)
{
	const char *key = fstr(f, "key"), *type = fstr(f, "type"), *doc = fstr(f, "doc");
	config_setting_t *en = config_setting_get_member(f, "enum");
	config_setting_t *def = config_setting_get_member(f, "default");
	char extra[256] = "";
	size_t o = 0;
	int n;

	o += (size_t)snprintf(extra + o, sizeof(extra) - o, "%s", type);
	if (fbool(f, "required"))
		o += (size_t)snprintf(extra + o, sizeof(extra) - o, ", required");
	if (fint(f, "length", &n))
		o += (size_t)snprintf(extra + o, sizeof(extra) - o, ", exactly %d chars", n);
	if (fint(f, "max-length", &n))
		o += (size_t)snprintf(extra + o, sizeof(extra) - o, ", at most %d chars", n);
	if (fint(f, "min-length", &n))
		o += (size_t)snprintf(extra + o, sizeof(extra) - o, ", at least %d char%s", n,
				      n == 1 ? " (not empty)" : "s");
	if (fstr(f, "charset"))
		o += (size_t)snprintf(extra + o, sizeof(extra) - o, ", %s",
				      !strcmp(fstr(f, "charset"), "utf8") ? "UTF-8" : "printable ASCII");
	if (fint(f, "min", &n))
		o += (size_t)snprintf(extra + o, sizeof(extra) - o, ", min %d", n);
	if (fint(f, "max", &n))
		o += (size_t)snprintf(extra + o, sizeof(extra) - o, ", max %d", n);
	if (en) {
		o += (size_t)snprintf(extra + o, sizeof(extra) - o, ", one of");
		for (int i = 0; i < config_setting_length(en); i++)
			o += (size_t)snprintf(extra + o, sizeof(extra) - o, " %s",
					      config_setting_get_string_elem(en, i));
	}
	if (def) {
		if (config_setting_type(def) == CONFIG_TYPE_STRING)
			snprintf(extra + o, sizeof(extra) - o, ", default \"%s\"",
				 config_setting_get_string(def));
		else if (config_setting_type(def) == CONFIG_TYPE_BOOL)
			snprintf(extra + o, sizeof(extra) - o, ", default %s",
				 config_setting_get_bool(def) ? "true" : "false");
		else
			snprintf(extra + o, sizeof(extra) - o, ", default %lld",
				 (long long)config_setting_get_int64(def));
	}
	if (roff) {
		printf(".TP\n.B %s\n(", key);
		roff_text(extra);
		printf(") ");
		roff_text(doc ? doc : "");
		putchar('\n');
	} else {
		printf("%s%s (%s)\n%s    %s\n", indent, key, extra, indent, doc ? doc : "");
	}
}

static void doc_group(struct schema *s, const char *title, const char *gname, bool roff)
{
	config_setting_t *g = group_fields(s, gname);

	if (!g)
		return;
	if (roff) {
		printf(".SS ");
		roff_text(title);
		putchar('\n');
	} else {
		printf("\n%s\n", title);
	}
	for (int i = 0; i < config_setting_length(g); i++)
		doc_field(config_setting_get_elem(g, i), roff, "  ");
}

int schema_print_doc(const char *schema_text, bool roff)
{
	struct schema s;
	config_setting_t *top;
	/* the groups inside a device type's: title, group */
	static const char *const sub[][2] = {
		{ "lcd: timings = { ... }", "lcd-timings" },
		{ "lcd: panel = { ... }", "lcd-panel" },
		{ "lcd: backlight = { ... }", "lcd-backlight" },
		{ "audio: mclk = { ... }", "audio-mclk" },
	};

	if (schema_open(&s, schema_text))
		return EXIT_FAIL;
	top = config_lookup(&s.cfg, "fields");
	if (roff)
		printf(".SS Top-level keys\n");
	else
		printf("Top-level keys\n");
	for (int i = 0; i < config_setting_length(top); i++)
		doc_field(config_setting_get_elem(top, i), roff, "  ");
	doc_group(&s, "eeprom = { ... }", "eeprom", roff);
	doc_group(&s, "power = { ... }", "power", roff);
	doc_group(&s, "pins = ( { ... }, ... )", "pin", roff);
	doc_group(&s, "devices = ( { type = ...; ... }, ... )", "device", roff);
	for (int i = 0; i < DEV_NTYPES; i++) {
		char *t = xasprintf("device type \"%s\"", dev_type_name((enum dev_type)i));

		doc_group(&s, t, dev_type_name((enum dev_type)i), roff);
		free(t);
	}
	for (size_t i = 0; i < sizeof(sub) / sizeof(sub[0]); i++)
		doc_group(&s, sub[i][0], sub[i][1], roff);
	config_destroy(&s.cfg);
	return EXIT_OK;
}
