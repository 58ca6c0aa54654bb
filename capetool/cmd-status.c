// SPDX-License-Identifier: GPL-2.0
/*
 * capetool status: what is attached and what the kernel did with it, per
 * controller and slot, from what the kernel exposes only: sysfs
 * (/sys/class/capebus, /sys/bus/capebus), configfs
 * (/sys/kernel/config/capebus) and the live device tree
 * (/sys/firmware/devicetree/base).  Nothing is written.
 */
#include <getopt.h>
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "capetool.h"
#include "hat.h"

static const char usage_text[] =
	"usage: capetool status [--json] [--check] [--controller NAME|FAMILY] [--root DIR]\n"
	"\n"
	"One report of what is attached and what was done with it: per controller\n"
	"and slot (hardware and virtual), the ID read from the slot's EEPROM and\n"
	"decoded, the cape's identity as the kernel states it, where its overlay\n"
	"came from (eeprom, firmware file, configfs, bootloader, the firmware's\n"
	"/hat), the state and reason, the pins it holds, its driver and budget,\n"
	"and the last change the kernel records (an override's outcome, a\n"
	"declaration's status); then the capes declared through configfs.  Read\n"
	"from sysfs, configfs and the live device tree only.\n"
	"  -j, --json              JSON output (keys in capetool(1), STATUS JSON)\n"
	"      --check             exit 15 if a slot or declared cape failed, or a\n"
	"                          cape's overlay file was not found\n"
	"  -C, --controller NAME   only this controller (a name or a family)\n"
	"      --root DIR          read DIR/sys instead of /sys (a captured tree)\n"
	"  -h, --help              this text\n";

/* The cape device attributes status reports, as sysfs names them. */
static const char *const cape_attrs[] = {
	"board_name", "version", "manufacturer", "part_number", "serial", "family",
	"uuid", "vendor_id", "product_id", "product_version", "format",
	"overlay", "overlay_file", "budget", "slot",
};
enum { A_BOARD, A_VERSION, A_MANUF, A_PART, A_SERIAL, A_FAMILY, A_UUID, A_VENDOR, A_PRODUCT,
       A_PVER, A_FORMAT, A_OVERLAY, A_OVFILE, A_BUDGET, A_SLOT, A_N };
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The slot's ID EEPROM as capetool decodes the bytes the kernel read. */
struct id_read {
	char *from;		/* "configfs slots/0/eeprom", "nvmem 0-00540" */
	char *error;		/* why it does not decode, or NULL */
	char *format;		/* "A1", "A0", "HAT v1", "HAT+" */
	char *board_name, *version, *manufacturer, *part_number, *serial;
	char *vendor, *product, *uuid;
	int product_id, product_version;	/* -1: not a HAT */
	unsigned int npins;
	bool overlay;		/* it embeds an overlay */
	char **overlay_pins;	/* that overlay's exclusive-use */
};

struct cape_rec {
	char *name;
	char *a[A_N];
	char *driver, *of_node, *pins, *currents;
	char *applied_by;	/* "/chosen/overlays/NAME", "/hat" (from the reason) */
	int in_live_tree;	/* applied_by exists in the live tree: 1, 0, -1 unknown */
	char *declared;		/* configfs capes/<name> that declared it */
};

struct slot_rec {
	int nr;
	bool hw;
	char *state, *reason, *nvmem, *override;
	struct id_read *id;
	struct cape_rec *cape;
};

struct decl_rec {
	char *name, *status, *state, *reason, *slot, *cape, *pins;
	bool enabled;
	char **overlay_pins;	/* exclusive-use of its dtbo */
};

struct ctrl_rec {
	char *name, *family;
	struct slot_rec *slots;
	size_t nslots;
	struct decl_rec *decls;
	size_t ndecls;
	bool configfs;		/* its configfs group is there */
};

static char *rd(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	char *v = read_attr(p);

	free(p);
	return v;
}

static char *rd_link(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	char *v = read_link_name(p);

	free(p);
	if (v && !*v) {
		free(v);
		v = NULL;
	}
	return v;
}

static bool exists(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	bool e = !access(p, F_OK);

	free(p);
	return e;
}

/* The first word of "failed: why" ("failed") and what follows (NULL if none). */
static void split_status(const char *s, char **state, char **reason)
{
	const char *c = strpbrk(s, ": (");

	*state = c ? strndup(s, (size_t)(c - s)) : xstrdup(s);
	if (!*state)
		*state = xstrdup("");
	*reason = NULL;
	if (c && *c == ':')
		*reason = xstrdup(c[1] == ' ' ? c + 2 : c + 1);
	else if (c && c[0] == ' ' && c[1] == '(') {
		size_t l = strlen(c + 2);

		*reason = strndup(c + 2, l && c[l + 1] == ')' ? l - 1 : l);
	}
}

/* The strings of an overlay's exclusive-use (NULL-terminated), or NULL. */
static char **exclusive_use(const void *fdt, size_t len)
{
	const char *p;
	char **v = NULL;
	size_t n = 0;
	int plen;

	if (fdt_check_untrusted(fdt, len))
		return NULL;
	p = fdt_getprop(fdt, 0, "exclusive-use", &plen);
	if (!p || plen <= 0 || p[plen - 1])
		return NULL;
	for (const char *q = p; q < p + plen; q += strlen(q) + 1) {
		v = xrealloc(v, (n + 2) * sizeof(*v));
		v[n++] = xstrdup(q);
		v[n] = NULL;
	}
	return v;
}

static char *cstr(const char *s)
{
	return xstrdup(s);
}

/*
 * Decode the ID image the controller read: configfs slots/<N>/eeprom (the
 * bytes it kept), else the slot's nvmem device.  NULL if neither has bytes.
 */
static struct id_read *read_id(const char *cfs_slot, const char *nvmem)
{
	struct id_read *id;
	uint8_t *buf = NULL;
	size_t len = 0;
	char why[256] = "";
	char *from = NULL;

	if (cfs_slot) {
		char *p = xasprintf("%s/eeprom", cfs_slot);

		if (!read_file(p, &buf, &len) && len)
			from = xasprintf("configfs %s/eeprom", strstr(cfs_slot, "slots/"));
		free(p);
	}
	if (!from && nvmem) {
		char *p = xasprintf("%s/bus/nvmem/devices/%s/nvmem", sysfs_root(), nvmem);

		free(buf);
		buf = NULL;
		if (!nvmem_read_image(p, &buf, &len) && len)
			from = xasprintf("nvmem %s", nvmem);
		free(p);
	}
	if (!from) {
		free(buf);
		return NULL;
	}
	id = xcalloc(1, sizeof(*id));
	id->from = from;
	id->product_id = id->product_version = -1;
	if (hat_has_signature(buf, len)) {
		struct hat_image im;
		char u[37];

		if (hat_decode(buf, len, &im, why, sizeof(why))) {
			id->error = xstrdup(why);
		} else {
			id->format = xstrdup(im.version >= 2 ? "HAT+" : "HAT v1");
			id->vendor = cstr(im.vendor_str);
			id->product = cstr(im.product_str);
			hat_uuid_str(im.uuid, u);
			id->uuid = xstrdup(u);
			id->product_id = im.product_id;
			id->product_version = im.product_ver;
			if (im.dt >= 0) {
				id->overlay = true;
				id->overlay_pins = exclusive_use(im.atoms[im.dt].data,
								 im.atoms[im.dt].len);
			}
		}
		hat_image_free(&im);
	} else {
		struct cape_image im;

		memset(&im, 0, sizeof(im));
		if (eeprom_decode(buf, len, &im, why, sizeof(why))) {
			id->error = xstrdup(why);
		} else {
			id->format = xstrdup(im.a0 ? "A0" : "A1");
			id->board_name = cstr(im.board_name);
			id->version = cstr(im.version);
			id->manufacturer = cstr(im.manufacturer);
			id->part_number = cstr(im.part_number);
			id->serial = cstr(im.serial);
			id->npins = im.num_pins;
			if (im.overlay) {
				id->overlay = true;
				id->overlay_pins = exclusive_use(im.overlay, im.overlay_len);
			}
		}
	}
	free(buf);
	return id;
}

static void free_id(struct id_read *id)
{
	if (!id)
		return;
	free(id->from);
	free(id->error);
	free(id->format);
	free(id->board_name);
	free(id->version);
	free(id->manufacturer);
	free(id->part_number);
	free(id->serial);
	free(id->vendor);
	free(id->product);
	free(id->uuid);
	free_list(id->overlay_pins);
	free(id);
}

/*
 * Who applied a bootloader cape's overlay, from its slot's reason: "applied
 * before Linux started (/chosen/overlays/NAME); ..." or "(/hat)".
 */
static char *applied_by(const char *reason)
{
	static const char key[] = "applied before Linux started (";
	const char *s = reason ? strstr(reason, key) : NULL, *e;

	if (!s)
		return NULL;
	s += sizeof(key) - 1;
	e = strchr(s, ')');
	return e ? strndup(s, (size_t)(e - s)) : NULL;
}

static struct cape_rec *read_cape(const char *name, const char *reason)
{
	char *dir = xasprintf("%s/bus/capebus/devices/%s", sysfs_root(), name);
	struct cape_rec *c;

	if (access(dir, F_OK)) {
		free(dir);
		return NULL;
	}
	c = xcalloc(1, sizeof(*c));
	c->name = xstrdup(name);
	for (size_t i = 0; i < A_N; i++)
		c->a[i] = rd(dir, cape_attrs[i]);
	c->driver = rd_link(dir, "driver");
	c->pins = rd(dir, "pins");
	c->currents = rd(dir, "currents");
	c->in_live_tree = -1;
	if (exists(dir, "of_node")) {
		char *p = xasprintf("%s/of_node", dir), *r = realpath(p, NULL);
		char *base = xasprintf("%s/firmware/devicetree/base", sysfs_root());
		char *rb = realpath(base, NULL);
		size_t l = rb ? strlen(rb) : 0;

		/* the node's path in the live tree */
		if (r && rb && !strncmp(r, rb, l) && r[l] == '/')
			c->of_node = xstrdup(r + l);
		else
			c->of_node = read_link_name(p);
		free(rb);
		free(base);
		free(r);
		free(p);
	}
	c->applied_by = c->a[A_OVERLAY] && !strcmp(c->a[A_OVERLAY], "bootloader") ?
			applied_by(reason) : NULL;
	if (c->applied_by && c->applied_by[0] == '/') {
		char *p = xasprintf("%s/firmware/devicetree/base%s", sysfs_root(), c->applied_by);
		char *top = xasprintf("%s/firmware/devicetree/base", sysfs_root());

		if (!access(top, F_OK))
			c->in_live_tree = !access(p, F_OK);
		free(top);
		free(p);
	}
	free(dir);
	return c;
}

static void free_cape(struct cape_rec *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < A_N; i++)
		free(c->a[i]);
	free(c->name);
	free(c->driver);
	free(c->of_node);
	free(c->pins);
	free(c->currents);
	free(c->applied_by);
	free(c->declared);
	free(c);
}

static int slot_num(const char *ent)
{
	return atoi(ent + 4);
}

static int slot_rec_cmp(const void *a, const void *b)
{
	return ((const struct slot_rec *)a)->nr - ((const struct slot_rec *)b)->nr;
}

static void read_decls(struct ctrl_rec *cr, const char *cfs)
{
	char *capes = xasprintf("%s/capes", cfs);
	char **v = list_dir(capes);

	for (size_t i = 0; v && v[i]; i++) {
		char *d = xasprintf("%s/%s", capes, v[i]);
		struct decl_rec *r;
		char *en, *p;
		uint8_t *buf;
		size_t len;

		cr->decls = xrealloc(cr->decls, (cr->ndecls + 1) * sizeof(*cr->decls));
		r = &cr->decls[cr->ndecls++];
		memset(r, 0, sizeof(*r));
		r->name = xstrdup(v[i]);
		r->status = rd(d, "status");
		if (!r->status)
			r->status = xstrdup("");
		split_status(r->status, &r->state, &r->reason);
		r->slot = rd(d, "slot");
		r->cape = rd(d, "cape");
		if (r->cape && !*r->cape) {
			free(r->cape);
			r->cape = NULL;
		}
		r->pins = rd(d, "pins");
		en = rd(d, "enable");
		r->enabled = en && !strcmp(en, "1");
		free(en);
		p = xasprintf("%s/dtbo", d);
		if (!read_file(p, &buf, &len)) {
			r->overlay_pins = exclusive_use(buf, len);
			free(buf);
		}
		free(p);
		free(d);
	}
	free_list(v);
	free(capes);
}

/* Everything status says of controller @name. */
static void read_ctrl(struct ctrl_rec *cr, const char *name)
{
	char *cls = xasprintf("%s/class/capebus/%s", sysfs_root(), name);
	char *cfs = xasprintf("%s/kernel/config/capebus/%s", sysfs_root(), name);
	char *bus = xasprintf("%s/bus/capebus/devices", sysfs_root());
	char *prefix = xasprintf("%s-slot", name);
	char **ents = list_dir(cls), **capes = list_dir(bus);

	memset(cr, 0, sizeof(*cr));
	cr->name = xstrdup(name);
	cr->family = ctrl_family(name);
	cr->configfs = !access(cfs, F_OK);
	if (cr->configfs)
		read_decls(cr, cfs);
	for (size_t i = 0; ents && ents[i]; i++) {
		struct slot_rec *s;
		char *sd, *cs = NULL, *cape;

		if (strncmp(ents[i], "slot", 4) || !ents[i][4] ||
		    strspn(ents[i] + 4, "0123456789") != strlen(ents[i] + 4))
			continue;
		sd = xasprintf("%s/%s", cls, ents[i]);
		cr->slots = xrealloc(cr->slots, (cr->nslots + 1) * sizeof(*cr->slots));
		s = &cr->slots[cr->nslots++];
		memset(s, 0, sizeof(*s));
		s->nr = slot_num(ents[i]);
		s->hw = true;
		s->state = rd(sd, "state");
		s->reason = rd(sd, "reason");
		s->nvmem = rd_link(sd, "nvmem");
		if (cr->configfs) {
			cs = xasprintf("%s/slots/%d", cfs, s->nr);
			s->override = rd(cs, "override_status");
			if (access(cs, F_OK)) {
				free(cs);
				cs = NULL;
			}
		}
		/* an empty slot's EEPROM, if any, is blank or unread: nothing to decode */
		if (s->state && strcmp(s->state, "empty"))
			s->id = read_id(cs, s->nvmem);
		cape = rd_link(sd, "cape");
		if (cape)
			s->cape = read_cape(cape, s->reason);
		free(cape);
		free(cs);
		free(sd);
	}
	/* virtual slots: capes of this controller in no hardware slot */
	for (size_t i = 0; capes && capes[i]; i++) {
		struct slot_rec *s;
		bool seen = false;

		if (strncmp(capes[i], prefix, strlen(prefix)))
			continue;
		for (size_t k = 0; k < cr->nslots; k++)
			seen |= cr->slots[k].cape && !strcmp(cr->slots[k].cape->name, capes[i]);
		if (seen)
			continue;
		cr->slots = xrealloc(cr->slots, (cr->nslots + 1) * sizeof(*cr->slots));
		s = &cr->slots[cr->nslots++];
		memset(s, 0, sizeof(*s));
		s->nr = atoi(capes[i] + strlen(prefix));
		s->cape = read_cape(capes[i], NULL);
		/* the slot's words for a cape that is there: a driver bound or not */
		s->state = xstrdup(s->cape && s->cape->driver ? "loaded" : "detected");
	}
	/* a declared cape's state and reason are its declaration's */
	for (size_t k = 0; k < cr->nslots; k++) {
		struct slot_rec *s = &cr->slots[k];

		for (size_t d = 0; s->cape && d < cr->ndecls; d++) {
			if (!cr->decls[d].cape || strcmp(cr->decls[d].cape, s->cape->name))
				continue;
			s->cape->declared = xstrdup(cr->decls[d].name);
			if (!s->hw) {
				free(s->state);
				s->state = xstrdup(cr->decls[d].state);
				s->reason = cr->decls[d].reason ? xstrdup(cr->decls[d].reason) : NULL;
			}
		}
	}
	qsort(cr->slots, cr->nslots, sizeof(*cr->slots), slot_rec_cmp);
	free_list(ents);
	free_list(capes);
	free(prefix);
	free(bus);
	free(cfs);
	free(cls);
}

static void free_ctrl(struct ctrl_rec *cr)
{
	for (size_t k = 0; k < cr->nslots; k++) {
		free(cr->slots[k].state);
		free(cr->slots[k].reason);
		free(cr->slots[k].nvmem);
		free(cr->slots[k].override);
		free_id(cr->slots[k].id);
		free_cape(cr->slots[k].cape);
	}
	for (size_t d = 0; d < cr->ndecls; d++) {
		struct decl_rec *r = &cr->decls[d];

		free(r->name);
		free(r->status);
		free(r->state);
		free(r->reason);
		free(r->slot);
		free(r->cape);
		free(r->pins);
		free_list(r->overlay_pins);
	}
	free(cr->decls);
	free(cr->slots);
	free(cr->name);
	free(cr->family);
}

/* What --check counts: a failed slot or declaration, an overlay file not found. */
static unsigned int count_failed(const struct ctrl_rec *cr)
{
	unsigned int n = 0;

	for (size_t k = 0; k < cr->nslots; k++) {
		const struct slot_rec *s = &cr->slots[k];

		if ((s->state && !strcmp(s->state, "failed")) ||
		    (s->cape && s->cape->a[A_OVERLAY] && !strcmp(s->cape->a[A_OVERLAY], "none") &&
		     s->cape->a[A_OVFILE] && *s->cape->a[A_OVFILE]))
			n++;
	}
	for (size_t d = 0; d < cr->ndecls; d++)
		if (!strcmp(cr->decls[d].state, "failed"))
			n++;
	return n;
}

/* ---- JSON ---- */

static void json_list(const char *key, char *const *v)
{
	printf(", \"%s\": ", key);
	if (!v) {
		printf("null");
		return;
	}
	putchar('[');
	for (size_t i = 0; v[i]; i++) {
		printf("%s", i ? ", " : "");
		json_str(v[i]);
	}
	putchar(']');
}

/* One line per item of a sysfs attribute: a JSON array (null: no attribute). */
static void json_key_lines(const char *key, const char *s)
{
	printf(", \"%s\": ", key);
	if (s)
		json_lines(s);
	else
		printf("null");
}

/* An attribute that is absent or empty is null: the cape states none. */
static void json_attr(const char *key, const char *v)
{
	json_opt(key, v && *v ? v : NULL);
}

static void json_id(const struct id_read *id)
{
	printf(", \"id\": ");
	if (!id) {
		printf("null");
		return;
	}
	printf("{\"from\": ");
	json_str(id->from);
	json_opt("error", id->error);
	json_opt("format", id->format);
	if (!id->error && id->product_id < 0) {
		json_opt("board_name", id->board_name);
		json_opt("version", id->version);
		json_opt("manufacturer", id->manufacturer);
		json_opt("part_number", id->part_number);
		json_opt("serial", id->serial);
		printf(", \"pins\": %u", id->npins);
	} else if (!id->error) {
		json_opt("vendor", id->vendor);
		json_opt("product", id->product);
		json_opt("uuid", id->uuid);
		printf(", \"product_id\": \"0x%04x\", \"product_version\": \"0x%04x\"",
		       id->product_id, id->product_version);
	}
	if (!id->error) {
		printf(", \"overlay_embedded\": %s", id->overlay ? "true" : "false");
		json_list("overlay_exclusive_use", id->overlay_pins);
	}
	putchar('}');
}

static void json_cape(const struct cape_rec *c)
{
	printf(", \"cape\": ");
	if (!c) {
		printf("null");
		return;
	}
	printf("{\"name\": ");
	json_str(c->name);
	for (size_t i = 0; i < A_N; i++) {
		if (i == A_OVERLAY || i == A_OVFILE || i == A_SLOT)
			continue;
		json_attr(cape_attrs[i], c->a[i]);
	}
	printf(", \"overlay\": {\"source\": ");
	if (c->a[A_OVERLAY])
		json_str(c->a[A_OVERLAY]);
	else
		printf("null");
	json_attr("file", c->a[A_OVFILE]);
	json_opt("applied_by", c->applied_by);
	printf(", \"in_live_tree\": %s}", c->in_live_tree < 0 ? "null" :
	       c->in_live_tree ? "true" : "false");
	json_opt("driver", c->driver);
	json_opt("of_node", c->of_node);
	json_opt("declared_as", c->declared);
	json_key_lines("pins", c->pins);
	json_key_lines("currents", c->currents);
	putchar('}');
}

static void print_json(const struct ctrl_rec *crs, size_t n, unsigned int failed)
{
	printf("{\"status_version\": 1, \"failed\": %u, \"controllers\": [", failed);
	for (size_t i = 0; i < n; i++) {
		const struct ctrl_rec *cr = &crs[i];

		printf("%s{\"name\": ", i ? ", " : "");
		json_str(cr->name);
		json_attr("family", cr->family);
		printf(", \"configfs\": %s, \"slots\": [", cr->configfs ? "true" : "false");
		for (size_t k = 0; k < cr->nslots; k++) {
			const struct slot_rec *s = &cr->slots[k];

			printf("%s{\"slot\": %d, \"kind\": \"%s\"", k ? ", " : "", s->nr,
			       s->hw ? "hardware" : "virtual");
			json_opt("state", s->state);
			json_attr("reason", s->reason);
			json_opt("nvmem", s->nvmem);
			json_opt("override", s->override);
			json_id(s->id);
			json_cape(s->cape);
			putchar('}');
		}
		printf("], \"declared\": [");
		for (size_t d = 0; d < cr->ndecls; d++) {
			const struct decl_rec *r = &cr->decls[d];

			printf("%s{\"name\": ", d ? ", " : "");
			json_str(r->name);
			json_opt("status", r->status);
			json_opt("state", r->state);
			json_opt("reason", r->reason);
			printf(", \"enable\": %s", r->enabled ? "true" : "false");
			json_opt("slot", r->slot);
			json_opt("cape", r->cape);
			json_key_lines("pins", r->pins);
			json_list("overlay_exclusive_use", r->overlay_pins);
			putchar('}');
		}
		printf("]}");
	}
	printf("]}\n");
}

/* ---- text ---- */

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

static void text_lines(const char *label, const char *s)
{
	char *dup, *save, *tok;
	bool first = true;

	if (!s || !*s)
		return;
	dup = xstrdup(s);
	for (tok = strtok_r(dup, "\n", &save); tok; tok = strtok_r(NULL, "\n", &save)) {
		printf("    %-10s %s\n", first ? label : "", tok);
		first = false;
	}
	free(dup);
}

static void text_words(const char *label, char *const *v)
{
	char *s = NULL;

	for (size_t i = 0; v && v[i]; i++)
		str_append(&s, " ", v[i]);
	if (s)
		printf("    %-10s %s\n", label, s);
	free(s);
}

static void text_id(const struct id_read *id)
{
	if (!id)
		return;
	if (id->error)
		printf("    %-10s %s: does not decode: %s\n", "id:", id->from, id->error);
	else if (id->product_id < 0)
		printf("    %-10s %s: %s, part %s version %s, board \"%s\", manufacturer \"%s\", serial \"%s\", %u pins%s\n",
		       "id:", id->from, id->format, id->part_number, id->version, id->board_name,
		       id->manufacturer, id->serial, id->npins,
		       id->overlay ? ", overlay embedded" : "");
	else
		printf("    %-10s %s: %s, vendor \"%s\", product \"%s\" (0x%04x version 0x%04x), uuid %s%s\n",
		       "id:", id->from, id->format, id->vendor, id->product, id->product_id,
		       id->product_version, id->uuid, id->overlay ? ", overlay embedded" : "");
	if (id && !id->error)
		text_words("exclusive:", id->overlay_pins);
}

static void text_cape(const struct cape_rec *c)
{
	const char *src;

	if (!c)
		return;
	printf("    %-10s %s: %s %s, board \"%s\", manufacturer \"%s\", serial \"%s\"", "cape:",
	       c->name, or_dash(c->a[A_PART]), or_dash(c->a[A_VERSION]), c->a[A_BOARD] ? c->a[A_BOARD] : "",
	       c->a[A_MANUF] ? c->a[A_MANUF] : "", c->a[A_SERIAL] ? c->a[A_SERIAL] : "");
	if (c->a[A_VENDOR] && *c->a[A_VENDOR])
		printf(", vendor %s product %s version %s", c->a[A_VENDOR], or_dash(c->a[A_PRODUCT]),
		       or_dash(c->a[A_PVER]));
	if (c->a[A_UUID] && *c->a[A_UUID])
		printf(", uuid %s", c->a[A_UUID]);
	printf("\n");
	src = c->a[A_OVERLAY];
	if (src && !strcmp(src, "bootloader") && c->applied_by)
		printf("    %-10s bootloader (%s%s)\n", "overlay:", c->applied_by,
		       c->in_live_tree == 0 ? ", not in the live tree" :
		       c->in_live_tree > 0 ? ", in the live tree" : "");
	else if (src && !strcmp(src, "none"))
		printf("    %-10s none (%s not found)\n", "overlay:", or_dash(c->a[A_OVFILE]));
	else
		printf("    %-10s %s%s%s\n", "overlay:", or_dash(src),
		       c->a[A_OVFILE] && *c->a[A_OVFILE] ? " " : "",
		       c->a[A_OVFILE] ? c->a[A_OVFILE] : "");
	if (c->declared)
		printf("    %-10s configfs capes/%s\n", "declared:", c->declared);
	printf("    %-10s %s%s%s\n", "driver:", c->driver ? c->driver : "none",
	       c->of_node ? ", pins muxed by " : "", c->of_node ? c->of_node : "");
	if (c->a[A_BUDGET] && *c->a[A_BUDGET])
		printf("    %-10s %s\n", "budget:", c->a[A_BUDGET]);
	text_lines("pins:", c->pins);
}

static void print_text(const struct ctrl_rec *crs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct ctrl_rec *cr = &crs[i];

		printf("%s%s%s%s%s\n", i ? "\n" : "", cr->name, *cr->family ? " (" : "",
		       cr->family, *cr->family ? ")" : "");
		for (size_t k = 0; k < cr->nslots; k++) {
			const struct slot_rec *s = &cr->slots[k];

			printf("  slot %d%s: %s", s->nr, s->hw ? "" : " (virtual)", or_dash(s->state));
			if (s->cape)
				printf(", %s %s", or_dash(s->cape->a[A_PART]),
				       or_dash(s->cape->a[A_VERSION]));
			printf("\n");
			if (s->reason && *s->reason)
				printf("    %-10s %s\n", "reason:", s->reason);
			text_id(s->id);
			if (!s->id && s->nvmem)
				printf("    %-10s none (nvmem %s: %s)\n", "id:", s->nvmem,
				       s->state && !strcmp(s->state, "empty") ?
				       "blank, or not read yet" : "no bytes");
			text_cape(s->cape);
			if (s->override && strcmp(s->override, "none"))
				printf("    %-10s override %s\n", "last:", s->override);
		}
		if (cr->ndecls)
			printf("  declared (configfs capes/):\n");
		for (size_t d = 0; d < cr->ndecls; d++) {
			const struct decl_rec *r = &cr->decls[d];
			char *p = NULL;

			printf("    %s: %s%s%s%s\n", r->name, r->status, r->cape ? ", as " : "",
			       r->cape ? r->cape : "", r->slot && strcmp(r->slot, "virtual") ?
			       ", hardware slot" : "");
			if (r->pins && *r->pins) {
				p = xstrdup(r->pins);
				for (char *q = p; *q; q++)
					if (*q == '\n')
						*q = ' ';
				printf("      %-10s %s\n", "pins:", p);
			}
			free(p);
			if (r->overlay_pins) {
				char *s = NULL;

				for (size_t k = 0; r->overlay_pins[k]; k++)
					str_append(&s, " ", r->overlay_pins[k]);
				printf("      %-10s %s\n", "exclusive:", s);
				free(s);
			}
		}
	}
}

int cmd_status(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "check", no_argument, NULL, 'k' },
		{ "controller", required_argument, NULL, 'C' },
		{ "root", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *want = NULL, *root = NULL;
	bool json = false, check = false;
	struct ctrl_rec *crs = NULL;
	unsigned int failed = 0;
	size_t n = 0;
	char *cls, **ctrls;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "jC:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		case 'k': check = true; break;
		case 'C': want = optarg; break;
		case 'R': root = optarg; break;
		case 'h': fputs(usage_text, stdout); return EXIT_OK;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	if (optind != argc) {
		err("status takes no arguments ('%s'); see 'capetool status --help'", argv[optind]);
		return EXIT_USAGE;
	}
	if (root) {
		char *sys = xasprintf("%s/sys", root);

		if (access(sys, F_OK)) {
			err("--root %s: %s is missing", root, sys);
			free(sys);
			return EXIT_NODEV;
		}
		setenv("CAPETOOL_SYSFS", sys, 1);
		free(sys);
	}
	cls = xasprintf("%s/class/capebus", sysfs_root());
	ctrls = list_dir(cls);
	if (!ctrls) {
		err("%s: no capebus controllers (kernel without capebus?)", cls);
		free(cls);
		return EXIT_NODEV;
	}
	for (size_t i = 0; ctrls[i]; i++) {
		if (!ctrl_matches(ctrls[i], want))
			continue;
		crs = xrealloc(crs, (n + 1) * sizeof(*crs));
		read_ctrl(&crs[n], ctrls[i]);
		failed += count_failed(&crs[n]);
		n++;
	}
	if (want && !n) {
		err("--controller %s: no capebus controller of that name or family in %s", want, cls);
		free_list(ctrls);
		free(cls);
		return EXIT_USAGE;
	}
	if (json)
		print_json(crs, n, failed);
	else
		print_text(crs, n);
	for (size_t i = 0; i < n; i++)
		free_ctrl(&crs[i]);
	free(crs);
	free_list(ctrls);
	free(cls);
	if (fflush(stdout) || ferror(stdout)) {
		err("<stdout>: write failed");
		return EXIT_IO;
	}
	return check && failed ? EXIT_KERNEL : EXIT_OK;
}
