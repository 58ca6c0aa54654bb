// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: kernel/drivers/capebus/capebus-fdt.c, the kernel's
 * checker and resolver of untrusted cape overlays, built unmodified
 * against the userspace shim (shim/include).
 *
 * An input is one of:
 *  - a flattened tree (it starts with the FDT magic): given to
 *    capebus_fdt_resolve() as it is;
 *  - "wrapped" (first byte below 0x80), so that mutations reach the
 *    structure walk instead of dying on the header checks: bytes 0-1 are
 *    the length S (big-endian) of a strings block, the next S bytes (fewer
 *    if the input is shorter) are the strings block, the rest is the
 *    structure block (zero-padded to a multiple of 4);
 *  - a token program (first byte 0x80 or above, not the magic), so that
 *    one mutation adds, drops or renames a whole node or property and the
 *    structure stays aligned: see prog_blob() for the opcodes.
 * For the last two the harness writes a valid version-17 header and an
 * empty reservation map in front.
 * Either way the resolver gets a heap block of exactly the blob's size,
 * so ASan sees a read one byte past it.  FDT_FUZZ_DUMP=FILE writes that
 * blob (the last one, when several inputs run) to FILE: a KUnit case
 * takes it as it is.  FUZZ_VERBOSE=1 prints what the resolver said.
 *
 * Beyond memory safety, abort() when a promise of capebus-fdt.h breaks:
 *  - on success: *out is a blob that host libfdt's fdt_check_full()
 *    accepts, whose header size is *out_len, no larger than the input plus
 *    a constant (header, at most CAPEBUS_FDT_MAX_ENABLES targets, a name);
 *    without /__fixups__ or /__symbols__; "capebus,enable-targets", when
 *    there, 1-8 cells that capebus_fdt_root_prop() finds at the very
 *    address libfdt does; every node and property name is of the DT spec's
 *    characters (the resolver's own rule); the overlay's phandles are
 *    1..n, unique, n as *info says; and fed back to capebus_fdt_resolve()
 *    it is refused for the reserved enable list if it has one, else
 *    accepted and written again byte for byte (resolving is idempotent);
 *  - on failure: -EINVAL with a non-empty reason, or -ENOMEM; *out NULL,
 *    *out_len 0;
 *  - always: the reason is NUL-terminated inside the caller's buffer, and
 *    the input blob is as it was.
 */
#include <libfdt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/types.h>

#include "capebus-fdt.h"
#include "kshim.h"

#define HARNESS_NAME "fdt-fuzz"
#include "harness.h"

#define WRAP_HDR	(40 + 16)
/* Most an output may exceed its input by; see cb_emit(). */
#define OUT_SLACK	(WRAP_HDR + 12 + 4 * CAPEBUS_FDT_MAX_ENABLES + \
			 sizeof(CAPEBUS_FDT_ENABLE_PROP) + \
			 12 + CAPEBUS_FDT_MAX_TARGET_PROPS + \
			 sizeof(CAPEBUS_FDT_PROPS_PROP))

static const char *dump_path;

/*
 * What the test connector exports: some of the names of the BeagleBone
 * convention (schemas/boards/beaglebone-black.board), each standing for a
 * fixed phandle; any other name is refused.
 */
static const struct {
	const char *name;
	u32 phandle;
} exports[] = {
	{ "bone_i2c_2", 0x11 },
	{ "bone_gpio", 0x12 },
	{ "bone_devices", 0x13 },
	{ "bone_i2c_1", 0x14 },
	{ "bone_spi_1", 0x15 },
	{ "bone_can_1", 0x16 },
};

static int lookup(void *ctx, const char *name, u32 *phandle)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < sizeof(exports) / sizeof(exports[0]); i++) {
		if (!strcmp(name, exports[i].name)) {
			*phandle = exports[i].phandle;
			return 0;
		}
	}
	return -ENOENT;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static uint32_t get_be32(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/* A version-17 header and an empty reservation map before @st4 + @s bytes. */
static uint8_t *new_blob(size_t st4, size_t s, size_t *len)
{
	uint8_t *b;

	*len = WRAP_HDR + st4 + s;
	b = calloc(1, *len);
	if (!b)
		abort();
	put_be32(b, FDT_MAGIC);
	put_be32(b + 4, *len);
	put_be32(b + 8, WRAP_HDR);		/* off_dt_struct */
	put_be32(b + 12, WRAP_HDR + st4);	/* off_dt_strings */
	put_be32(b + 16, 40);			/* off_mem_rsvmap */
	put_be32(b + 20, 17);			/* version */
	put_be32(b + 24, 16);			/* last_comp_version */
	put_be32(b + 32, s);			/* size_dt_strings */
	put_be32(b + 36, st4);			/* size_dt_struct */
	return b;
}

/* Wrapped: [be16 S][S bytes of strings][structure]. */
static uint8_t *wrap_blob(const uint8_t *data, size_t size, size_t *len)
{
	size_t s, st, st4;
	uint8_t *b;

	s = size >= 2 ? (size_t)data[0] << 8 | data[1] : 0;
	data += size >= 2 ? 2 : size;
	size -= size >= 2 ? 2 : size;
	if (s > size)
		s = size;
	st = size - s;
	st4 = (st + 3) & ~(size_t)3;
	b = new_blob(st4, s, len);
	memcpy(b + WRAP_HDR, data + s, st);
	memcpy(b + WRAP_HDR + st4, data, s);
	return b;
}

/*
 * Token programs: one byte (or a few) per structure token, so that a
 * mutation adds, drops or renames a whole node or property and the
 * structure stays aligned.  The program is not completed: it ends where
 * the input ends, open nodes and all.
 */
static const char *const node_names[] = {
	"", "a", "b", "c", "@", "a@1", "a@1@2", "fragment@0", "fragment@1",
	"__overlay__", "__fixups__", "__local_fixups__", "__symbols__",
	"__fixups__@1", "i2c@0", "led-0", "temp@48", "gpio@20", "cape-leds",
	"A,b.c_d+e-f", "x y", "\xe9", "__overlay__@0", "fragment",
};
static const char *const prop_names[] = {
	"target", "target-path", "status", "compatible", "reg", "phandle",
	"bone_i2c_2", "bone_gpio", "bone_devices", "bone_i2c_1", "board_uart4",
	"gpios", "interrupt-parent", "#address-cells", "capebus,apply-id",
	"capebus,enable-targets", "label", "a", "b", "?#,", "x y",
};
static const struct {
	const char *v;
	size_t len;
} values[] = {
#define V(s) { s, sizeof(s) }
	V("okay"), V("ok"), V("disabled"), V("/fragment@0:target:0"),
	V("/fragment@1:target:0"), V("/fragment@0/__overlay__/a:gpios:0"),
	V("/fragment@0/__overlay__:reg:4"), V("/fragment@0:target:0\0/fragment@1:target:0"),
	V("/a:b:0"), V("/:target:0"), V("/fragment@0:target:"), V("/cape-devices"),
	V("\xff\xff\xff\xff"), V("\0\0\0\x01"), V(""), V("/fragment@0/__overlay__/a/b:reg:0"),
#undef V
};
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

struct prog {
	const uint8_t *p, *end;
	uint8_t st[65536], str[8192];
	size_t stlen, strlen;
};

static int prog_byte(struct prog *g)
{
	return g->p < g->end ? *g->p++ : -1;
}

static void prog_emit(struct prog *g, const void *v, size_t n)
{
	size_t n4 = (n + 3) & ~(size_t)3;

	if (g->stlen + n4 > sizeof(g->st))
		return;
	memcpy(g->st + g->stlen, v, n);
	memset(g->st + g->stlen + n, 0, n4 - n);
	g->stlen += n4;
}

static void prog_word(struct prog *g, uint32_t w)
{
	uint8_t b[4];

	put_be32(b, w);
	prog_emit(g, b, 4);
}

/* @n bytes of the program itself (fewer if it ends), as a name or value. */
static size_t prog_take(struct prog *g, size_t n, const uint8_t **at)
{
	*at = g->p;
	if (n > (size_t)(g->end - g->p))
		n = g->end - g->p;
	g->p += n;
	return n;
}

/* The strings-block offset of @name (@n bytes, then a NUL), added if new. */
static uint32_t prog_string(struct prog *g, const void *name, size_t n)
{
	size_t i;

	for (i = 0; i + n < g->strlen; i += strlen((char *)g->str + i) + 1)
		if (!memcmp(g->str + i, name, n) && !g->str[i + n])
			return i;
	if (g->strlen + n + 1 > sizeof(g->str))
		return 0;
	memcpy(g->str + g->strlen, name, n);
	g->str[g->strlen + n] = '\0';
	g->strlen += n + 1;
	return g->strlen - n - 1;
}

static void prog_prop(struct prog *g, const void *name, size_t n)
{
	const uint8_t *v;
	size_t vlen;
	int l;

	l = prog_byte(g);
	if (l < 0)
		l = 0;
	if (l >= 0xf0) {	/* a value from the table */
		l -= 0xf0;
		v = (const uint8_t *)values[l % ARRAY_LEN(values)].v;
		vlen = values[l % ARRAY_LEN(values)].len;
	} else {
		vlen = prog_take(g, l, &v);
	}
	prog_word(g, 3);
	prog_word(g, vlen);
	prog_word(g, prog_string(g, name, n));
	prog_emit(g, v, vlen);
}

/*
 * Opcodes:
 *   00-3f  FDT_BEGIN_NODE, name node_names[op % N]
 *   40-4f  FDT_END_NODE      50-5f  FDT_NOP      60-6f  FDT_END
 *   70-7f  FDT_BEGIN_NODE, name: a length byte, then that many bytes
 *   80-bf  FDT_PROP, name prop_names[op % N]; value: a length byte L,
 *          then L bytes, or values[L - 0xf0] if L >= 0xf0
 *   c0-df  FDT_PROP, name: a length byte, then that many bytes; value
 *          as above
 *   e0-ff  the next 4 bytes, as they are
 */
static uint8_t *prog_blob(const uint8_t *data, size_t size, size_t *len)
{
	struct prog *g = malloc(sizeof(*g));
	const uint8_t *name;
	size_t n, st4;
	uint8_t *b;
	int op;

	if (!g)
		abort();
	g->p = data;
	g->end = data + size;
	g->stlen = g->strlen = 0;
	while ((op = prog_byte(g)) >= 0) {
		if (op < 0x40) {
			const char *nm = node_names[op % ARRAY_LEN(node_names)];

			prog_word(g, 1);
			prog_emit(g, nm, strlen(nm) + 1);
		} else if (op < 0x50) {
			prog_word(g, 2);
		} else if (op < 0x60) {
			prog_word(g, 4);
		} else if (op < 0x70) {
			prog_word(g, 9);
		} else if (op < 0x80) {
			n = prog_take(g, prog_byte(g) & 0x3f, &name);
			prog_word(g, 1);
			if (g->stlen + ((n + 4) & ~(size_t)3) <= sizeof(g->st)) {
				memcpy(g->st + g->stlen, name, n);
				memset(g->st + g->stlen + n, 0, ((n + 4) & ~(size_t)3) - n);
				g->stlen += (n + 4) & ~(size_t)3;
			}
		} else if (op < 0xc0) {
			const char *nm = prop_names[op % ARRAY_LEN(prop_names)];

			prog_prop(g, nm, strlen(nm));
		} else if (op < 0xe0) {
			n = prog_take(g, prog_byte(g) & 0x3f, &name);
			prog_prop(g, name, n);
		} else {
			n = prog_take(g, 4, &name);
			prog_emit(g, name, n);
		}
	}
	st4 = g->stlen;
	b = new_blob(st4, g->strlen, len);
	memcpy(b + WRAP_HDR, g->st, st4);
	memcpy(b + WRAP_HDR + st4, g->str, g->strlen);
	free(g);
	return b;
}

/*
 * The blob an input stands for, in a heap block of exactly its size: the
 * input itself if it starts with the FDT magic, else a wrapped one (first
 * byte below 0x80) or a token program (the rest, after that first byte).
 */
static uint8_t *make_blob(const uint8_t *data, size_t size, size_t *len)
{
	uint8_t *b;

	if (size >= 4 && get_be32(data) == FDT_MAGIC) {
		b = malloc(size);
		if (!b)
			abort();
		memcpy(b, data, size);
		*len = size;
		return b;
	}
	if (!size || data[0] < 0x80)
		return wrap_blob(data, size, len);
	return prog_blob(data + 1, size - 1, len);
}

static void check_why(const char *why)
{
	if (!memchr(why, '\0', WHY_LEN))
		fail("reason not NUL-terminated within its %d bytes", WHY_LEN);
}

static int node_char_ok(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr(",._+-", c));
}

static int prop_char_ok(unsigned char c)
{
	return node_char_ok(c) || c == '?' || c == '#';
}

/* Every name in @fdt (which fdt_check_full() accepted) is of the DT spec's characters. */
static void check_names(const void *fdt)
{
	int node, prop, depth = 0, len, at;
	const char *name, *p;

	for (node = 0; node >= 0 && depth >= 0;
	     node = fdt_next_node(fdt, node, &depth)) {
		name = fdt_get_name(fdt, node, &len);
		if (!name)
			fail("fdt_get_name() of node at %d: %d", node, len);
		if (node) {
			if (!len || name[0] == '@')
				fail("node name \"%s\" empty or unit address only", name);
			for (p = name, at = 0; *p; p++) {
				if (*p == '@')
					at++;
				else if (!node_char_ok((unsigned char)*p))
					fail("node name \"%s\" has byte 0x%02x, not a DT spec character",
					     name, (unsigned char)*p);
			}
			if (at > 1)
				fail("node name \"%s\" has %d '@'", name, at);
		}
		fdt_for_each_property_offset(prop, fdt, node) {
			if (!fdt_getprop_by_offset(fdt, prop, &name, &len))
				fail("property at %d unreadable: %d", prop, len);
			if (!*name)
				fail("empty property name");
			for (p = name; *p; p++)
				if (!prop_char_ok((unsigned char)*p))
					fail("property name \"%s\" has byte 0x%02x, not a DT spec character",
					     name, (unsigned char)*p);
		}
	}
}

/* The output's phandles: 1..n, each once, n what the resolver counted. */
static void check_phandles(const void *fdt, u32 n)
{
	unsigned char *seen = calloc(n + 1, 1);
	const void *p;
	int node, len;
	u32 ph;

	if (!seen)
		abort();
	for (node = fdt_next_node(fdt, -1, NULL); node >= 0;
	     node = fdt_next_node(fdt, node, NULL)) {
		p = fdt_getprop(fdt, node, "phandle", &len);
		if (!p)
			continue;
		ph = len == 4 ? get_be32(p) : 0;
		if (!ph || ph > n || seen[ph]++)
			fail("output phandle %#x (%d bytes) is not one of 1..%u, once", ph, len, n);
	}
	free(seen);
}

/*
 * The target-properties records, read back by the kernel's own reader: every
 * record whole, inside the bound, none for status, each for a target the
 * overlay enables, and the reader stops exactly at the last.
 */
static void check_target_props(const void *out)
{
	struct capebus_fdt_target_prop tp;
	const fdt32_t *en;
	int plen, elen, j;
	unsigned int i;
	size_t sum = 0;

	if (!fdt_getprop(out, 0, CAPEBUS_FDT_PROPS_PROP, &plen))
		plen = 0;
	if (plen > CAPEBUS_FDT_MAX_TARGET_PROPS)
		fail("target-props record of %d bytes (bound %d)", plen,
		     CAPEBUS_FDT_MAX_TARGET_PROPS);
	en = fdt_getprop(out, 0, CAPEBUS_FDT_ENABLE_PROP, &elen);
	for (i = 0; !capebus_fdt_target_prop(out, i, &tp); i++) {
		size_t flen = strlen(tp.fragment), nlen = strlen(tp.name);

		if (!nlen || !strcmp(tp.name, "status"))
			fail("target prop %u named \"%s\"", i, tp.name);
		for (j = 0; en && j < elen / 4; j++)
			if (fdt32_to_cpu(en[j]) == tp.target)
				break;
		if (!en || j == elen / 4)
			fail("target prop %s for target 0x%x, which the overlay does not enable",
			     tp.name, tp.target);
		sum += 8 + ((flen + 1 + nlen + 1 + 3) & ~3UL) + ((tp.len + 3) & ~3UL);
	}
	if (sum != (size_t)plen)
		fail("target-props records take %zu bytes of %d", sum, plen);
}

static void check_output(const uint8_t *blob, size_t len,
			 const struct capebus_fdt_info *info,
			 const void *out, size_t out_len)
{
	const void *p, *q;
	int plen, err;
	u32 qlen;
	void *out2;
	size_t out2_len;
	char *why;
	int ret;

	if (!out)
		fail("returned 0 with *out NULL");
	if (out_len > len + OUT_SLACK)
		fail("output of %zu bytes for an input of %zu (bound %zu)",
		     out_len, len, len + OUT_SLACK);
	check_target_props(out);
	if (out_len < 40 || fdt_totalsize(out) != out_len)
		fail("output header says %u bytes, *out_len %zu",
		     out_len >= 40 ? fdt_totalsize(out) : 0, out_len);
	err = fdt_check_full(out, out_len);
	if (err)
		fail("fdt_check_full() of the output: %s", fdt_strerror(err));
	if (fdt_subnode_offset(out, 0, "__fixups__") != -FDT_ERR_NOTFOUND)
		fail("output has /__fixups__");
	if (fdt_subnode_offset(out, 0, "__symbols__") != -FDT_ERR_NOTFOUND)
		fail("output has /__symbols__");

	p = fdt_getprop(out, 0, CAPEBUS_FDT_ENABLE_PROP, &plen);
	q = capebus_fdt_root_prop(out, CAPEBUS_FDT_ENABLE_PROP, &qlen);
	if (q != p || (p && (int)qlen != plen))
		fail("capebus_fdt_root_prop(%s) = %p, libfdt %p",
		     CAPEBUS_FDT_ENABLE_PROP, q, p);
	if (p && (plen <= 0 || plen % 4 || plen > 4 * CAPEBUS_FDT_MAX_ENABLES))
		fail("%s of %d bytes", CAPEBUS_FDT_ENABLE_PROP, plen);
	if (capebus_fdt_root_prop(out, "capebus,no-such-property", &qlen))
		fail("capebus_fdt_root_prop() found a property the root does not have");

	check_names(out);
	check_phandles(out, info->phandles);

	/*
	 * Again: refused for the reserved enable list it carries, or else the
	 * same blob (resolved once, there is nothing left to resolve).
	 */
	why = malloc(WHY_LEN);
	if (!why)
		abort();
	memset(why, 0xa5, WHY_LEN);
	ret = capebus_fdt_resolve(out, out_len, NULL, lookup, NULL, &out2,
				  &out2_len, NULL, why, WHY_LEN);
	check_why(why);
	if (p) {
		if (!ret)
			fail("the resolver accepts its own output, enable list and all");
		if (!strstr(why, "capebus reserves"))
			fail("the resolver refuses its own output for another reason: %s", why);
		if (out2 || out2_len)
			fail("refused, yet *out is set");
	} else {
		if (ret)
			fail("the resolver refuses its own output: %s", why);
		if (out2_len != out_len || memcmp(out2, out, out_len))
			fail("resolving the output again changes it (%zu -> %zu bytes)",
			     out_len, out2_len);
		free(out2);
	}
	free(why);
	(void)blob;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	kshim_selftest();
	dump_path = getenv("FDT_FUZZ_DUMP");
	verbose = getenv("FUZZ_VERBOSE");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len, out_len = 12345;
	void *out = (void *)1;
	uint8_t *blob, *orig;
	struct capebus_fdt_info info;
	char *why;
	int ret;

	blob = make_blob(data, size, &len);
	if (dump_path) {
		FILE *f = fopen(dump_path, "wb");

		if (!f || fwrite(blob, 1, len, f) != len || fclose(f))
			perror(dump_path);
	}
	why = malloc(WHY_LEN);
	if (!why)
		abort();
	memset(why, 0xa5, WHY_LEN);

	orig = malloc(len ? len : 1);
	if (!orig)
		abort();
	memcpy(orig, blob, len);
	ret = capebus_fdt_resolve(blob, len, NULL, lookup, NULL, &out, &out_len,
				  &info, why, WHY_LEN);
	if (memcmp(orig, blob, len))
		fail("the resolver wrote to its (const) input");
	free(orig);
	check_why(why);
	if (verbose)
		fprintf(stderr, "capebus_fdt_resolve(%zu bytes%s) = %d%s%s\n", len,
			size >= 4 && get_be32(data) == FDT_MAGIC ? "" :
			!size || data[0] < 0x80 ? ", wrapped" : ", from a token program",
			ret, ret ? ": " : "", why);
	if (!ret) {
		check_output(blob, len, &info, out, out_len);
	} else {
		if (ret != -EINVAL && ret != -ENOMEM)
			fail("returned %d, neither -EINVAL nor -ENOMEM", ret);
		/* -ENOMEM (an allocation failed) names no rule. */
		if (ret == -EINVAL && !why[0])
			fail("refused (%d) with an empty reason", ret);
		if (out || out_len)
			fail("refused (%d), yet *out = %p, *out_len = %zu", ret, out, out_len);
	}

	free(out);	/* kvfree() is free() in the shim */
	free(why);
	free(blob);
	return 0;
}
