// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for cape overlays: capebus-fdt.c on hostile blobs, built
 * token by token (dtc refuses to write most of them), and a mutation run
 * over a good one; then the rules capebus's overlay notifier checks on the
 * live tree, through a test controller.  Each refusal must name the rule.
 */

#include <kunit/device.h>
#include <kunit/test.h>
#include <linux/capebus.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "capebus-fdt.h"

#define TB_STRUCT	8192
#define TB_STRINGS	512
#define TEST_WHY_LEN	256

/* Phandles the test connector exports. */
#define PH_I2C		0x11
#define PH_GPIO		0x12

/* A flattened tree under construction. */
struct tb {
	u8 s[TB_STRUCT];
	u32 slen;
	char str[TB_STRINGS];
	u32 strlen;
};

static void tb_u32(struct tb *b, u32 v)
{
	__be32 be = cpu_to_be32(v);

	memcpy(b->s + b->slen, &be, 4);
	b->slen += 4;
}

static void tb_bytes(struct tb *b, const void *p, u32 len)
{
	memcpy(b->s + b->slen, p, len);
	memset(b->s + b->slen + len, 0, ALIGN(len, 4) - len);
	b->slen += ALIGN(len, 4);
}

static void tb_begin(struct tb *b, const char *name)
{
	tb_u32(b, 1);
	tb_bytes(b, name, strlen(name) + 1);
}

static void tb_end(struct tb *b)
{
	tb_u32(b, 2);
}

static u32 tb_string(struct tb *b, const char *name)
{
	u32 off = b->strlen;

	strscpy(b->str + off, name, TB_STRINGS - off);
	b->strlen += strlen(name) + 1;

	return off;
}

static void tb_prop(struct tb *b, const char *name, const void *val, u32 len)
{
	tb_u32(b, 3);
	tb_u32(b, len);
	tb_u32(b, tb_string(b, name));
	tb_bytes(b, val, len);
}

static void tb_prop_str(struct tb *b, const char *name, const char *val)
{
	tb_prop(b, name, val, strlen(val) + 1);
}

static void tb_prop_cells(struct tb *b, const char *name, const u32 *cells,
			  unsigned int n)
{
	__be32 be[8];
	unsigned int i;

	for (i = 0; i < n; i++)
		be[i] = cpu_to_be32(cells[i]);
	tb_prop(b, name, be, n * 4);
}

/* Strings for a fixup property: "a\0b\0". */
static void tb_prop_strs(struct tb *b, const char *name, const char *a,
			 const char *c)
{
	char v[160];
	size_t la = strlen(a) + 1, lc = c ? strlen(c) + 1 : 0;

	memcpy(v, a, la);
	if (c)
		memcpy(v + la, c, lc);
	tb_prop(b, name, v, la + lc);
}

static void *tb_finish(struct kunit *test, struct tb *b, size_t *len)
{
	u32 off_struct = 40 + 16, size_struct = b->slen + 4;
	u32 off_strings = off_struct + size_struct;
	u32 total = off_strings + b->strlen;
	__be32 *h;
	u8 *blob;

	blob = kunit_kzalloc(test, total, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, blob);
	h = (__be32 *)blob;
	h[0] = cpu_to_be32(0xd00dfeed);
	h[1] = cpu_to_be32(total);
	h[2] = cpu_to_be32(off_struct);
	h[3] = cpu_to_be32(off_strings);
	h[4] = cpu_to_be32(40);
	h[5] = cpu_to_be32(17);
	h[6] = cpu_to_be32(16);
	h[8] = cpu_to_be32(b->strlen);
	h[9] = cpu_to_be32(size_struct);
	memcpy(blob + off_struct, b->s, b->slen);
	*(__be32 *)(blob + off_struct + b->slen) = cpu_to_be32(9);
	memcpy(blob + off_strings, b->str, b->strlen);
	*len = total;

	return blob;
}

static int test_lookup(void *ctx, const char *name, u32 *phandle)
{
	if (!strcmp(name, "bone_i2c_2"))
		*phandle = PH_I2C;
	else if (!strcmp(name, "bone_gpio"))
		*phandle = PH_GPIO;
	else
		return -ENOENT;

	return 0;
}

/* The start of a good overlay: root, fragment@0 targeting &bone_i2c_2. */
static void tb_good_fragment(struct tb *b)
{
	static const u32 unresolved = 0xffffffff;
	const u32 gpios[] = { 0xffffffff, 813, 0 };

	tb_begin(b, "");
	tb_prop_str(b, "exclusive-use", "P8.13");
	tb_begin(b, "fragment@0");
	tb_prop_cells(b, "target", &unresolved, 1);
	tb_begin(b, "__overlay__");
	tb_begin(b, "sensor@48");
	tb_prop_str(b, "compatible", "ti,tmp105");
	tb_prop_cells(b, "gpios", gpios, 3);
	tb_end(b);
	tb_end(b);
	tb_end(b);
}

static void tb_good_fixups(struct tb *b)
{
	tb_begin(b, "__fixups__");
	tb_prop_strs(b, "bone_i2c_2", "/fragment@0:target:0", NULL);
	tb_prop_strs(b, "bone_gpio", "/fragment@0/__overlay__/sensor@48:gpios:0",
		     NULL);
	tb_end(b);
}

static void *tb_good(struct kunit *test, size_t *len)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	tb_good_fragment(b);
	tb_good_fixups(b);
	tb_end(b);

	return tb_finish(test, b, len);
}

/* capebus_fdt_resolve() with the test's exports and the cape limits. */
static int tb_resolve(const void *blob, size_t len, void **out,
		      size_t *out_len, char *why)
{
	return capebus_fdt_resolve(blob, len, NULL, test_lookup, NULL, out,
				   out_len, NULL, why, TEST_WHY_LEN);
}

static int resolve(struct kunit *test, const void *blob, size_t len,
		   char *why)
{
	void *out = NULL;
	size_t out_len;
	int ret;

	ret = tb_resolve(blob, len, &out, &out_len, why);
	if (ret)
		KUNIT_EXPECT_NULL(test, out);
	kvfree(out);

	return ret;
}

/* The resolver refuses @blob with a reason containing @rule. */
static void expect_refused(struct kunit *test, const void *blob, size_t len,
			   const char *rule)
{
	char why[TEST_WHY_LEN];

	KUNIT_EXPECT_EQ(test, resolve(test, blob, len, why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, rule),
				  "reason \"%s\" lacks \"%s\"", why, rule);
}

static bool mem_has(const void *hay, size_t n, const void *needle, size_t m)
{
	size_t i;

	for (i = 0; i + m <= n; i++)
		if (!memcmp((const u8 *)hay + i, needle, m))
			return true;

	return false;
}

static void fdt_test_good(struct kunit *test)
{
	const __be32 gpios[] = { cpu_to_be32(PH_GPIO), cpu_to_be32(813), 0 };
	const __be32 target = cpu_to_be32(PH_I2C);
	char why[TEST_WHY_LEN];
	const void *val;
	size_t len, out_len;
	void *blob, *out;
	u32 plen;

	blob = tb_good(test, &len);
	KUNIT_ASSERT_EQ(test, tb_resolve(blob, len, &out, &out_len, why), 0);
	KUNIT_EXPECT_STREQ(test, why, "");

	/* References resolved in place, __fixups__ gone. */
	KUNIT_EXPECT_TRUE(test, mem_has(out, out_len, gpios, sizeof(gpios)));
	KUNIT_EXPECT_TRUE(test, mem_has(out, out_len, &target, 4));
	KUNIT_EXPECT_FALSE(test, mem_has(out, out_len, "__fixups__", 10));
	val = capebus_fdt_root_prop(out, "exclusive-use", &plen);
	KUNIT_ASSERT_NOT_NULL(test, val);
	KUNIT_EXPECT_STREQ(test, (const char *)val, "P8.13");

	kvfree(out);
}

/* An overlay whose fragment@0 sets status = @status on &bone_i2c_2. */
static void *tb_enabling(struct kunit *test, const char *status, bool path,
			 size_t *len)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	static const u32 unresolved = 0xffffffff;

	KUNIT_ASSERT_NOT_NULL(test, b);
	tb_begin(b, "");
	tb_prop_str(b, "exclusive-use", "P9.19");
	tb_begin(b, "fragment@0");
	if (path)
		tb_prop_str(b, "target-path", "/i2c");
	else
		tb_prop_cells(b, "target", &unresolved, 1);
	tb_begin(b, "__overlay__");
	tb_prop_str(b, "status", status);
	tb_begin(b, "sensor@48");
	tb_prop_str(b, "compatible", "ti,tmp105");
	tb_prop_str(b, "status", status);
	tb_end(b);
	tb_end(b);
	tb_end(b);
	if (!path) {
		tb_begin(b, "__fixups__");
		tb_prop_strs(b, "bone_i2c_2", "/fragment@0:target:0", NULL);
		tb_end(b);
	}
	tb_end(b);

	return tb_finish(test, b, len);
}

/* Count properties named @name in a resolved blob's structure. */
static unsigned int named_props(const void *fdt, const char *name)
{
	const u8 *b = fdt;
	const u8 *s = b + be32_to_cpup((const __be32 *)(b + 8));
	const char *strings = (const char *)b + be32_to_cpup((const __be32 *)(b + 12));
	u32 size = be32_to_cpup((const __be32 *)(b + 36)), off = 0, tag, plen;
	unsigned int n = 0;

	while (off < size) {
		tag = be32_to_cpup((const __be32 *)(s + off));
		off += 4;
		if (tag == 1) {
			off += ALIGN(strlen((const char *)s + off) + 1, 4);
		} else if (tag == 3) {
			plen = be32_to_cpup((const __be32 *)(s + off));
			if (!strcmp(strings + be32_to_cpup((const __be32 *)(s + off + 4)),
				    name))
				n++;
			off += 8 + ALIGN(plen, 4);
		} else if (tag == 9) {
			break;
		}
	}

	return n;
}

/* Count "status" properties in a resolved blob's structure. */
static unsigned int status_props(const void *fdt)
{
	return named_props(fdt, "status");
}

/*
 * status = "okay" on a fragment's target is taken out of the overlay and
 * listed at the root; the same property on a new node stays.
 */
static void fdt_test_enable_taken_out(struct kunit *test)
{
	char why[TEST_WHY_LEN];
	size_t len, out_len;
	const __be32 *val;
	void *blob, *out;
	u32 plen;

	blob = tb_enabling(test, "okay", false, &len);
	KUNIT_ASSERT_EQ(test, tb_resolve(blob, len, &out, &out_len, why), 0);
	val = capebus_fdt_root_prop(out, CAPEBUS_FDT_ENABLE_PROP, &plen);
	KUNIT_ASSERT_NOT_NULL(test, val);
	KUNIT_EXPECT_EQ(test, plen, 4);
	KUNIT_EXPECT_EQ(test, be32_to_cpup(val), PH_I2C);
	KUNIT_EXPECT_EQ(test, status_props(out), 1);
	/* The root's own properties are still found past the new one. */
	KUNIT_EXPECT_NOT_NULL(test, capebus_fdt_root_prop(out, "exclusive-use",
							  &plen));
	kvfree(out);
}

/* Any other status, or a target-path fragment's, stays for the notifier. */
static void fdt_test_enable_only_okay(struct kunit *test)
{
	static const struct { const char *status; bool path; } cases[] = {
		{ "disabled", false }, { "okay", true }, { "okayish", false },
	};
	char why[TEST_WHY_LEN];
	size_t len, out_len;
	unsigned int i;
	void *blob, *out;
	u32 plen;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		blob = tb_enabling(test, cases[i].status, cases[i].path, &len);
		KUNIT_ASSERT_EQ(test, tb_resolve(blob, len, &out, &out_len, why), 0);
		KUNIT_EXPECT_NULL(test, capebus_fdt_root_prop(out,
							      CAPEBUS_FDT_ENABLE_PROP,
							      &plen));
		KUNIT_EXPECT_EQ(test, status_props(out), 2);
		kvfree(out);
	}
}

/* An overlay may not write capebus's lists (targets, their properties). */
static void fdt_test_reserved_enable(struct kunit *test)
{
	static const char * const reserved[] = {
		CAPEBUS_FDT_ENABLE_PROP, CAPEBUS_FDT_PROPS_PROP, "capebus,apply-id",
	};
	const u32 ph = PH_GPIO;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(reserved); i++) {
		struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
		size_t len;
		void *blob;

		KUNIT_ASSERT_NOT_NULL(test, b);
		tb_begin(b, "");
		tb_prop_cells(b, reserved[i], &ph, 1);
		tb_end(b);
		blob = tb_finish(test, b, &len);
		expect_refused(test, blob, len, "which capebus reserves");
	}
}

/*
 * fragment@0 on &bone_i2c_2 sets, beside status = @status (none if NULL),
 * rts-gpios through &bone_gpio (a fixup), rs485-rts-delay and the target's
 * #address-cells; fragment@1 adds a node to it.
 */
static void *tb_target_props(struct kunit *test, const char *status,
			     size_t *len)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	static const u32 unresolved = 0xffffffff;

	KUNIT_ASSERT_NOT_NULL(test, b);
	tb_begin(b, "");
	tb_begin(b, "fragment@0");
	tb_prop_cells(b, "target", &unresolved, 1);
	tb_begin(b, "__overlay__");
	if (status)
		tb_prop_str(b, "status", status);
	tb_prop_cells(b, "#address-cells", (const u32 []){ 1 }, 1);
	tb_prop_cells(b, "rts-gpios", (const u32 []){ unresolved, 927, 0 }, 3);
	tb_prop_cells(b, "rs485-rts-delay", (const u32 []){ 5, 6 }, 2);
	tb_prop(b, "linux,rs485-enabled-at-boot-time", "", 0);
	tb_end(b);
	tb_end(b);
	tb_begin(b, "__fixups__");
	tb_prop_strs(b, "bone_i2c_2", "/fragment@0:target:0", NULL);
	tb_prop_strs(b, "bone_gpio", "/fragment@0/__overlay__:rts-gpios:0", NULL);
	tb_end(b);
	tb_end(b);

	return tb_finish(test, b, len);
}

/*
 * The other properties of a fragment that enables its target are taken out
 * with the status, references resolved, and recorded at the root for
 * capebus to check and set; its cell sizes stay for the notifier.
 */
static void fdt_test_target_props_taken_out(struct kunit *test)
{
	const __be32 gpios[] = { cpu_to_be32(PH_GPIO), cpu_to_be32(927), 0 };
	const __be32 delay[] = { cpu_to_be32(5), cpu_to_be32(6) };
	struct capebus_fdt_target_prop tp;
	char why[TEST_WHY_LEN];
	size_t len, out_len;
	void *blob, *out;

	blob = tb_target_props(test, "okay", &len);
	KUNIT_ASSERT_EQ(test, tb_resolve(blob, len, &out, &out_len, why), 0);
	KUNIT_EXPECT_STREQ(test, why, "");

	KUNIT_ASSERT_EQ(test, capebus_fdt_target_prop(out, 0, &tp), 0);
	KUNIT_EXPECT_EQ(test, tp.target, PH_I2C);
	KUNIT_EXPECT_STREQ(test, tp.fragment, "fragment@0");
	KUNIT_EXPECT_STREQ(test, tp.name, "rts-gpios");
	KUNIT_ASSERT_EQ(test, tp.len, sizeof(gpios));
	KUNIT_EXPECT_EQ(test, memcmp(tp.value, gpios, sizeof(gpios)), 0);

	KUNIT_ASSERT_EQ(test, capebus_fdt_target_prop(out, 1, &tp), 0);
	KUNIT_EXPECT_STREQ(test, tp.name, "rs485-rts-delay");
	KUNIT_ASSERT_EQ(test, tp.len, sizeof(delay));
	KUNIT_EXPECT_EQ(test, memcmp(tp.value, delay, sizeof(delay)), 0);

	KUNIT_ASSERT_EQ(test, capebus_fdt_target_prop(out, 2, &tp), 0);
	KUNIT_EXPECT_STREQ(test, tp.name, "linux,rs485-enabled-at-boot-time");
	KUNIT_EXPECT_EQ(test, tp.len, 0);
	KUNIT_EXPECT_EQ(test, capebus_fdt_target_prop(out, 3, &tp), -ENOENT);

	/* Out of the fragment, all but the cell sizes. */
	KUNIT_EXPECT_EQ(test, named_props(out, "rts-gpios"), 0);
	KUNIT_EXPECT_EQ(test, named_props(out, "rs485-rts-delay"), 0);
	KUNIT_EXPECT_EQ(test, named_props(out, "status"), 0);
	KUNIT_EXPECT_EQ(test, named_props(out, "#address-cells"), 1);
	kvfree(out);

	/* An overlay that sets none has no record. */
	blob = tb_good(test, &len);
	KUNIT_ASSERT_EQ(test, tb_resolve(blob, len, &out, &out_len, why), 0);
	KUNIT_EXPECT_EQ(test, capebus_fdt_target_prop(out, 0, &tp), -ENOENT);
	kvfree(out);
}

/*
 * A fragment that does not enable its target: its properties, resolved,
 * stay in it for the notifier to refuse (rules_test_sets_target_property:
 * targets, add only); nothing is recorded for capebus to set.
 */
static void fdt_test_target_props_need_enable(struct kunit *test)
{
	static const char * const status[] = { NULL, "disabled" };
	struct capebus_fdt_target_prop tp;
	char why[TEST_WHY_LEN];
	size_t len, out_len;
	unsigned int i;
	void *blob, *out;

	for (i = 0; i < ARRAY_SIZE(status); i++) {
		blob = tb_target_props(test, status[i], &len);
		KUNIT_ASSERT_EQ(test, tb_resolve(blob, len, &out, &out_len, why), 0);
		KUNIT_EXPECT_EQ(test, capebus_fdt_target_prop(out, 0, &tp), -ENOENT);
		KUNIT_EXPECT_EQ(test, named_props(out, "rts-gpios"), 1);
		KUNIT_EXPECT_EQ(test, named_props(out, "rs485-rts-delay"), 1);
		kvfree(out);
	}
}

/* The record of target properties is bounded (red team round 12: x41). */
static void fdt_test_target_props_bounded(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	static const u32 unresolved = 0xffffffff;
	size_t len;
	void *big;

	KUNIT_ASSERT_NOT_NULL(test, b);
	big = kunit_kzalloc(test, CAPEBUS_FDT_MAX_TARGET_PROPS, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, big);
	tb_begin(b, "");
	tb_begin(b, "fragment@0");
	tb_prop_cells(b, "target", &unresolved, 1);
	tb_begin(b, "__overlay__");
	tb_prop_str(b, "status", "okay");
	tb_prop(b, "rs485-rts-delay", big, CAPEBUS_FDT_MAX_TARGET_PROPS);
	tb_end(b);
	tb_end(b);
	tb_begin(b, "__fixups__");
	tb_prop_strs(b, "bone_i2c_2", "/fragment@0:target:0", NULL);
	tb_end(b);
	tb_end(b);
	expect_refused(test, tb_finish(test, b, &len), len,
		       "target properties: their record takes 4132 bytes, more than 4096");
}

static void fdt_test_unexported(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	size_t len;
	void *blob;

	tb_good_fragment(b);
	tb_begin(b, "__fixups__");
	tb_prop_strs(b, "am33xx_pinmux", "/fragment@0:target:0", NULL);
	tb_end(b);
	tb_end(b);
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len,
		       "refers to &am33xx_pinmux, which the connector does not export");
}

/* Nodes the kernel matches up to the unit address must be exact. */
static void fdt_test_lookalike_fixups(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	size_t len;
	void *blob;

	tb_good_fragment(b);
	tb_good_fixups(b);
	tb_begin(b, "__fixups__@1");
	tb_prop_strs(b, "gpio0", "/fragment@0:target:0", NULL);
	tb_end(b);
	tb_end(b);
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len, "the kernel would take it for it");
}

static void fdt_test_lookalike_overlay(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	size_t len;
	void *blob;

	tb_good_fragment(b);
	tb_begin(b, "fragment@1");
	tb_prop_str(b, "target-path", "/");
	tb_begin(b, "__overlay__@0");
	tb_end(b);
	tb_end(b);
	tb_end(b);
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len, "which the overlay format does not define");
}

static void fdt_test_duplicate_fragment(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	static const u32 one = 1;
	size_t len;
	void *blob;

	tb_good_fragment(b);
	tb_begin(b, "fragment@0");
	tb_prop_cells(b, "target", &one, 1);
	tb_begin(b, "__overlay__");
	tb_end(b);
	tb_end(b);
	tb_good_fixups(b);
	tb_end(b);
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len, "has two children named fragment@0");
}

static void fdt_test_duplicate_property(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	static const u32 target = 0xffffffff;
	size_t len;
	void *blob;

	tb_begin(b, "");
	tb_begin(b, "fragment@0");
	tb_prop_cells(b, "target", &target, 1);
	tb_begin(b, "__overlay__");
	tb_begin(b, "rtc@68");
	tb_prop_str(b, "compatible", "dallas,ds1338");
	tb_prop_str(b, "compatible", "evil,other");
	tb_end(b);
	tb_end(b);
	tb_end(b);
	tb_end(b);
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len, "has two properties named compatible");
}

static void fdt_test_two_labels_one_cell(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	size_t len;
	void *blob;

	tb_good_fragment(b);
	tb_begin(b, "__fixups__");
	tb_prop_strs(b, "bone_i2c_2", "/fragment@0:target:0", NULL);
	tb_prop_strs(b, "bone_gpio", "/fragment@0:target:0", NULL);
	tb_end(b);
	tb_end(b);
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len, "two references patch cell 0 of property target");
}

/*
 * root { fragment@0 { target; __overlay__ { clk { phandle = <@ph>; };
 *	  sensor@48 { gpios = <@ref 813 0>; }; }; }; }, and __fixups__ for
 * the target: the caller adds what else it tests, and closes the root.
 */
static void tb_local(struct tb *b, u32 ph, u32 ref)
{
	static const u32 unresolved = 0xffffffff;
	const u32 gpios[] = { ref, 813, 0 };

	tb_begin(b, "");
	tb_begin(b, "fragment@0");
	tb_prop_cells(b, "target", &unresolved, 1);
	tb_begin(b, "__overlay__");
	tb_begin(b, "clk");
	tb_prop_cells(b, "#clock-cells", (const u32 []){ 0 }, 1);
	tb_prop_cells(b, "phandle", &ph, 1);
	tb_end(b);
	tb_begin(b, "sensor@48");
	tb_prop_cells(b, "gpios", gpios, 3);
	tb_end(b);
	tb_end(b);
	tb_end(b);
	tb_begin(b, "__fixups__");
	tb_prop_strs(b, "bone_i2c_2", "/fragment@0:target:0", NULL);
	tb_end(b);
}

/* __local_fixups__ { fragment@0 { __overlay__ { @node { @prop = <0>; }; }; }; } */
static void tb_local_fixup(struct tb *b, const char *node, const char *prop)
{
	static const u32 zero;

	tb_begin(b, "__local_fixups__");
	tb_begin(b, "fragment@0");
	tb_begin(b, "__overlay__");
	tb_begin(b, node);
	tb_prop_cells(b, prop, &zero, 1);
	tb_end(b);
	tb_end(b);
	tb_end(b);
	tb_end(b);
}

/* A cell both __fixups__ and __local_fixups__ patch. */
static void fdt_test_fixup_meets_local_fixup(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	size_t len;
	void *blob;

	tb_begin(b, "");
	tb_begin(b, "fragment@0");
	tb_prop_cells(b, "target", (const u32 []){ 0xffffffff }, 1);
	tb_begin(b, "__overlay__");
	tb_begin(b, "clk");
	tb_prop_cells(b, "phandle", (const u32 []){ 1 }, 1);
	tb_end(b);
	tb_begin(b, "sensor@48");
	tb_prop_cells(b, "gpios", (const u32 []){ 1, 813, 0 }, 3);
	tb_end(b);
	tb_end(b);
	tb_end(b);
	tb_begin(b, "__fixups__");
	tb_prop_strs(b, "bone_i2c_2", "/fragment@0:target:0", NULL);
	tb_prop_strs(b, "bone_gpio", "/fragment@0/__overlay__/sensor@48:gpios:0",
		     NULL);
	tb_end(b);
	tb_local_fixup(b, "sensor@48", "gpios");
	tb_end(b);
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len, "two references patch cell 0 of property gpios");
}

/* The overlay's phandles are renumbered 1..n, its references with them. */
static void fdt_test_local_renumbered(struct kunit *test)
{
	const __be32 ref[] = { cpu_to_be32(1), cpu_to_be32(813), 0 };
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	char why[TEST_WHY_LEN];
	size_t len, out_len;
	void *blob, *out;

	/* Near the top of the phandle space: the kernel's delta would wrap. */
	tb_local(b, 0xfffffffe, 0xfffffffe);
	tb_local_fixup(b, "sensor@48", "gpios");
	tb_end(b);
	blob = tb_finish(test, b, &len);
	KUNIT_ASSERT_EQ(test, tb_resolve(blob, len, &out, &out_len, why), 0);
	KUNIT_EXPECT_TRUE(test, mem_has(out, out_len, ref, sizeof(ref)));
	KUNIT_EXPECT_FALSE(test, mem_has(out, out_len,
					 (const __be32 []){ cpu_to_be32(0xfffffffe) }, 4));
	kvfree(out);
}

/* A local reference must name a node of the overlay. */
static void fdt_test_local_outside(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	size_t len;
	void *blob;

	tb_local(b, 1, 2);	/* 2: a board node's, say */
	tb_local_fixup(b, "sensor@48", "gpios");
	tb_end(b);
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len,
		       "refers to phandle 0x2, which no node of the overlay has");
}

/*
 * A local fixup at the root: the kernel would shift a root property (once
 * capebus's own apply marker), so it is refused as patching no added node.
 */
static void fdt_test_local_root(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	static const u32 zero;
	size_t len;
	void *blob;

	tb_begin(b, "");
	tb_prop_cells(b, "marker", (const u32 []){ 1 }, 1);
	tb_begin(b, "fragment@0");
	tb_prop_cells(b, "target", (const u32 []){ 0xffffffff }, 1);
	tb_begin(b, "__overlay__");
	tb_begin(b, "clk");
	tb_prop_cells(b, "phandle", (const u32 []){ 1 }, 1);
	tb_end(b);
	tb_end(b);
	tb_end(b);
	tb_begin(b, "__fixups__");
	tb_prop_strs(b, "bone_i2c_2", "/fragment@0:target:0", NULL);
	tb_end(b);
	tb_begin(b, "__local_fixups__");
	tb_prop_cells(b, "marker", &zero, 1);
	tb_end(b);
	tb_end(b);
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len, "which is not a node the overlay adds");
}

/*
 * __local_fixups__ describes fragments only: an entry for __fixups__ (which
 * the blob written drops) or for itself is refused.  libFuzzer found the
 * first: accepted, its output then refused by the resolver itself.
 */
static void fdt_test_local_special(struct kunit *test)
{
	static const char * const name[] = { "__fixups__", "__local_fixups__" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(name); i++) {
		struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
		size_t len;
		void *blob;

		KUNIT_ASSERT_NOT_NULL(test, b);
		tb_begin(b, "");
		tb_begin(b, "a");
		tb_prop_cells(b, "target", (const u32 []){ 0xffffffff }, 1);
		tb_begin(b, "__overlay__");
		tb_end(b);
		tb_end(b);
		tb_begin(b, "__fixups__");
		tb_prop_strs(b, "bone_i2c_2", "/a:target:0", NULL);
		tb_end(b);
		tb_begin(b, "__local_fixups__");
		tb_begin(b, name[i]);
		tb_end(b);
		tb_end(b);
		tb_end(b);
		blob = tb_finish(test, b, &len);
		expect_refused(test, blob, len, "which is no fragment");
	}
}

/* Phandles: unique, never linux,phandle, never a cell count's value. */
static void fdt_test_phandle_rules(struct kunit *test)
{
	static const char * const rule[] = {
		"have one phandle", "linux,phandle, which cape overlays may not have",
		"holds no reference", "ibm,phandle, which cape overlays may not have",
	};
	static const char * const prop[] = {
		"phandle", "linux,phandle", "phandle", "ibm,phandle",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rule); i++) {
		struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
		size_t len;
		void *blob;

		tb_begin(b, "");
		tb_begin(b, "fragment@0");
		tb_prop_cells(b, "target", (const u32 []){ 0xffffffff }, 1);
		tb_begin(b, "__overlay__");
		tb_begin(b, "a");
		tb_prop_cells(b, prop[i], (const u32 []){ 1 }, 1);
		tb_prop_cells(b, "#gpio-cells", (const u32 []){ 1 }, 1);
		tb_end(b);
		tb_begin(b, "b");
		tb_prop_cells(b, "phandle", (const u32 []){ i ? 2 : 1 }, 1);
		tb_end(b);
		tb_end(b);
		tb_end(b);
		tb_begin(b, "__fixups__");
		tb_prop_strs(b, "bone_i2c_2", "/fragment@0:target:0", NULL);
		tb_end(b);
		if (i == 2)
			tb_local_fixup(b, "a", "#gpio-cells");
		tb_end(b);
		blob = tb_finish(test, b, &len);
		expect_refused(test, blob, len, rule[i]);
	}
}

/* Cell counts the kernel reads into fixed arrays are bounded. */
static void fdt_test_cells_bounded(struct kunit *test)
{
	static const char * const name[] = {
		"#interrupt-cells", "#gpio-cells", "#address-cells", "#size-cells",
	};
	static const u32 value[] = { 100, 20, 4, 3 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(name); i++) {
		struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
		size_t len;
		void *blob;

		tb_begin(b, "");
		tb_begin(b, "fragment@0");
		tb_prop_cells(b, "target", (const u32 []){ 0xffffffff }, 1);
		tb_begin(b, "__overlay__");
		tb_begin(b, "ctl");
		tb_prop_cells(b, name[i], &value[i], 1);
		tb_end(b);
		tb_end(b);
		tb_end(b);
		tb_end(b);
		blob = tb_finish(test, b, &len);
		expect_refused(test, blob, len, "is not one cell of at most");
	}
}

/* The kernel tells node names apart ignoring case: so must overlays. */
static void fdt_test_siblings_case(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	size_t len;
	void *blob;

	tb_begin(b, "");
	tb_begin(b, "fragment@0");
	tb_prop_cells(b, "target", (const u32 []){ 0xffffffff }, 1);
	tb_begin(b, "__overlay__");
	tb_begin(b, "led");
	tb_end(b);
	tb_begin(b, "LED");
	tb_end(b);
	tb_end(b);
	tb_end(b);
	tb_end(b);
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len, "has two children named");
}

/*
 * Limits: nodes, and 17 nodes opened and never closed (136 bytes, a heap
 * overflow of the node array in an earlier walker, found by ASan).
 */
static void fdt_test_limits(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	const struct capebus_fdt_limits few = {
		.max_size = 4096, .max_nodes = 4, .max_props = 64,
		.max_node_props = 8, .max_refs = 8, .max_name_pairs = 8,
	};
	struct capebus_fdt_limits pairs = capebus_fdt_cape_limits;
	const char *want =
		"would compare 531 pairs of their entries, more than the 530";
	char why[TEST_WHY_LEN];
	size_t len, out_len;
	unsigned int i;
	void *blob, *out;

	blob = tb_good(test, &len);
	KUNIT_EXPECT_EQ(test, capebus_fdt_resolve(blob, len, &few, test_lookup,
						  NULL, &out, &out_len, NULL,
						  why, sizeof(why)), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "more than 4 nodes"));

	/* Nodes opened and never closed: within the depth, then past it. */
	tb_begin(b, "");
	for (i = 0; i < CAPEBUS_FDT_MAX_DEPTH - 2; i++)
		tb_begin(b, "a");
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len, "ends inside a node");

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	tb_begin(b, "");
	for (i = 0; i < 16; i++)
		tb_begin(b, "a");
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len, "nests nodes deeper than");

	/* 3 nodes named alike, 33 properties: 3 + 528 pairs to compare. */
	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	tb_begin(b, "");
	tb_begin(b, "fragment@0");
	tb_prop_cells(b, "target", (const u32 []){ 0xffffffff }, 1);
	tb_begin(b, "__overlay__");
	for (i = 0; i < 3; i++) {
		char name[8];
		u32 j;

		snprintf(name, sizeof(name), "b%u", i);
		tb_begin(b, name);
		tb_begin(b, i == 1 ? "A" : "a");
		for (j = 0; j < 11; j++) {
			snprintf(name, sizeof(name), "p%u", j);
			tb_prop_cells(b, name, &j, 1);
		}
		tb_end(b);
		tb_end(b);
	}
	tb_end(b);	/* __overlay__ */
	tb_end(b);	/* fragment@0 */
	tb_begin(b, "__fixups__");
	tb_prop_strs(b, "bone_i2c_2", "/fragment@0:target:0", NULL);
	tb_end(b);
	tb_end(b);
	blob = tb_finish(test, b, &len);
	pairs.max_name_pairs = 530;
	KUNIT_EXPECT_EQ(test, capebus_fdt_resolve(blob, len, &pairs, test_lookup,
						  NULL, &out, &out_len, NULL,
						  why, sizeof(why)), -EINVAL);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, want), "%s", why);
	pairs.max_name_pairs = 531;
	KUNIT_EXPECT_EQ(test, capebus_fdt_resolve(blob, len, &pairs, test_lookup,
						  NULL, &out, &out_len, NULL,
						  why, sizeof(why)), 0);
	kvfree(out);
}

/* fragment@1 targets a node fragment@0 adds. */
static void fdt_test_self_target(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	static const u32 one = 1, zero;
	size_t len;
	void *blob;

	tb_good_fragment(b);
	tb_begin(b, "fragment@1");
	tb_prop_cells(b, "target", &one, 1);
	tb_begin(b, "__overlay__");
	tb_end(b);
	tb_end(b);
	tb_good_fixups(b);
	tb_begin(b, "__local_fixups__");
	tb_begin(b, "fragment@1");
	tb_prop_cells(b, "target", &zero, 1);
	tb_end(b);
	tb_end(b);
	tb_end(b);
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len,
		       "patches property target of fragment@1, which is not a node the overlay adds");
}

static void fdt_test_symbols(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	size_t len;
	void *blob;

	tb_good_fragment(b);
	tb_good_fixups(b);
	tb_begin(b, "__symbols__");
	tb_prop_str(b, "mine", "/fragment@0/__overlay__/sensor@48");
	tb_end(b);
	tb_end(b);
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len, "__symbols__");
}

/* libfdt, and so the kernel, does not see such a property. */
static void fdt_test_property_after_subnode(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	size_t len;
	void *blob;

	tb_good_fragment(b);
	tb_good_fixups(b);
	tb_prop_str(b, "hidden", "from the kernel");
	tb_end(b);
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len, "follows a subnode");
}

static void fdt_test_not_a_fragment(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	size_t len;
	void *blob;

	tb_good_fragment(b);
	tb_good_fixups(b);
	tb_begin(b, "stray");
	tb_prop_str(b, "compatible", "evil");
	tb_end(b);
	tb_end(b);
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len, "node stray at the root is not a fragment");
}

static void fdt_test_two_targets(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	static const u32 target = 0xffffffff;
	size_t len;
	void *blob;

	tb_begin(b, "");
	tb_begin(b, "fragment@0");
	tb_prop_cells(b, "target", &target, 1);
	tb_prop_str(b, "target-path", "/");
	tb_begin(b, "__overlay__");
	tb_end(b);
	tb_end(b);
	tb_end(b);
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len, "needs one target or target-path");
}

static void fdt_test_fixup_bounds(struct kunit *test)
{
	static const char * const bad[] = {
		"/fragment@0:target:4",		/* past the end */
		"/fragment@0:target:2",		/* not a cell */
		"/fragment@0:target:-4",
		"/fragment@0:target:",
		"/fragment@0:target",
		"/fragment@0/nothere:target:0",
		"/fragment@0:nothere:0",
		"/fragment@0/__overlay__/sensor:gpios:0",	/* no unit address */
		"fragment@0:target:0",		/* relative */
		"/__fixups__:bone_gpio:0",	/* the fixup tables */
		"/:exclusive-use:0",		/* the root */
	};
	static const char * const rule[] = {
		"is outside property", "is outside property",
		"has a bad offset", "is not path:property:offset",
		"is not path:property:offset", "which the overlay does not have",
		"which it does not have", "which the overlay does not have",
		"which the overlay does not have", "which is not a node the overlay adds",
		"which the overlay does not have",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
		size_t len;
		void *blob;

		tb_good_fragment(b);
		tb_begin(b, "__fixups__");
		tb_prop_strs(b, "bone_i2c_2", "/fragment@0:target:0", NULL);
		tb_prop_strs(b, "bone_gpio", bad[i], NULL);
		tb_end(b);
		tb_end(b);
		blob = tb_finish(test, b, &len);
		kunit_info(test, "fixup %s", bad[i]);
		expect_refused(test, blob, len, rule[i]);
	}
}

static void fdt_test_bad_names(struct kunit *test)
{
	static const char * const names[] = { "a/b", "@1", "a@1@2", "sp ace" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
		size_t len;
		void *blob;

		tb_good_fragment(b);
		tb_begin(b, names[i]);
		tb_end(b);
		tb_end(b);
		blob = tb_finish(test, b, &len);
		expect_refused(test, blob, len, "is not allowed by the DT spec");
	}
}

static void fdt_test_too_deep(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	static const u32 target = 0xffffffff;
	unsigned int i;
	size_t len;
	void *blob;

	tb_begin(b, "");
	tb_begin(b, "fragment@0");
	tb_prop_cells(b, "target", &target, 1);
	tb_begin(b, "__overlay__");
	for (i = 0; i < CAPEBUS_FDT_MAX_DEPTH; i++)
		tb_begin(b, "n");
	for (i = 0; i < CAPEBUS_FDT_MAX_DEPTH + 3; i++)
		tb_end(b);
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len, "deeper than");
}

/* Header and token damage: every offset is checked. */
static void fdt_test_damaged(struct kunit *test)
{
	size_t len, i;
	u8 *good, *blob;
	__be32 *h;

	good = tb_good(test, &len);
	blob = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, blob);
	h = (__be32 *)blob;

	memcpy(blob, good, len);
	expect_refused(test, blob, len - 1, "overlay truncated");
	expect_refused(test, blob, 8, "not a flattened device tree");

	memcpy(blob, good, len);
	h[2] = cpu_to_be32(len);		/* struct at the very end */
	expect_refused(test, blob, len, "points outside it");

	memcpy(blob, good, len);
	h[8] = cpu_to_be32(0xfffffff0);		/* strings size overflows */
	expect_refused(test, blob, len, "points outside it");

	memcpy(blob, good, len);
	h[5] = cpu_to_be32(16);
	expect_refused(test, blob, len, "version 16");

	memcpy(blob, good, len);
	*(__be32 *)(blob + 40) = cpu_to_be32(0x80000000);
	expect_refused(test, blob, len, "reserves memory");

	memcpy(blob, good, len);
	*(__be32 *)(blob + be32_to_cpu(h[2]) + 8) = cpu_to_be32(0x77);
	expect_refused(test, blob, len, "unknown token");

	/* The strings block loses its final NUL. */
	memcpy(blob, good, len);
	blob[len - 1] = 'x';
	expect_refused(test, blob, len, "unterminated property name");

	/* No end token: the last one becomes a NOP (after the root). */
	memcpy(blob, good, len);
	i = be32_to_cpu(h[2]) + be32_to_cpu(h[9]) - 4;
	*(__be32 *)(blob + i) = cpu_to_be32(4);
	expect_refused(test, blob, len, "data after its root");
	/* Or the structure block ends one token early. */
	memcpy(blob, good, len);
	h[9] = cpu_to_be32(be32_to_cpu(h[9]) - 4);
	expect_refused(test, blob, len, "no end token");
}

/*
 * Mutation: the good overlay with random bytes changed.  Whatever comes
 * out, the resolver must not crash, and what it accepts must be a blob it
 * wrote (no __fixups__ left).
 */
static void fdt_test_mutations(struct kunit *test)
{
	struct rnd_state rnd;
	size_t len, out_len;
	unsigned int i, k, accepted = 0;
	u8 *good, *blob;
	char why[TEST_WHY_LEN];
	void *out;

	prandom_seed_state(&rnd, 0xcafe);
	good = tb_good(test, &len);
	blob = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, blob);

	for (i = 0; i < 5000; i++) {
		memcpy(blob, good, len);
		for (k = 0; k <= prandom_u32_state(&rnd) % 4; k++)
			blob[prandom_u32_state(&rnd) % len] =
				prandom_u32_state(&rnd);
		if (tb_resolve(blob, len, &out, &out_len, why))
			continue;
		accepted++;
		KUNIT_EXPECT_FALSE(test, mem_has(out, out_len, "__fixups__", 10));
		kvfree(out);
	}
	kunit_info(test, "%u of %u mutants accepted", accepted, i);
}

/*
 * The rules the PRE_APPLY notifier checks on the live tree, through the
 * public API: a controller whose only cape target is a bus node created
 * here (with the board's own eeprom@54), exporting that bus and a GPIO
 * provider; a third provider it does not export.
 */
#define PH_T_BUS	0x7fff0001
#define PH_T_GPIO	0x7fff0002
#define PH_T_SECRET	0x7fff0003

static const char *const rules_pins[] = { "J1.1" };

static const struct capebus_header rules_header = {
	.name		= "rules",
	.family		= "rules",
	.pin_names	= rules_pins,
	.num_pins	= ARRAY_SIZE(rules_pins),
	.text_max	= { [CAPEBUS_PART_NUMBER] = 16 },
};

struct rules_test {
	struct of_changeset cs;
	bool applied, registered;
	struct device_node *top, *bus, *gpio, *secret;
	struct capebus_controller *ctrl;
	struct capebus_cape_info *info;
};

static struct device_node *rules_node(struct kunit *test, struct of_changeset *cs,
				      struct device_node *parent,
				      const char *name, u32 ph)
{
	struct device_node *np = of_changeset_create_node(cs, parent, name);

	KUNIT_ASSERT_NOT_NULL(test, np);
	KUNIT_ASSERT_EQ(test, of_changeset_add_prop_u32(cs, np, "phandle", ph), 0);

	return np;
}

static int rules_init(struct kunit *test)
{
	struct rules_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct device_node *ee;
	struct device *dev;

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->info = kunit_kzalloc(test, sizeof(*t->info), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->info);
	strscpy(t->info->text[CAPEBUS_PART_NUMBER], "RULES-01");
	strscpy(t->info->text[CAPEBUS_VERSION], "00A0");
	strscpy(t->info->text[CAPEBUS_BOARD_NAME], "Rules");

	/*
	 * Under a disabled node of their own, so that no platform device is
	 * made for them (nor for what overlays add below them).
	 */
	of_changeset_init(&t->cs);
	test->priv = t;
	t->top = of_changeset_create_node(&t->cs, of_root, "capebus-kunit");
	KUNIT_ASSERT_NOT_NULL(test, t->top);
	KUNIT_ASSERT_EQ(test, of_changeset_add_prop_string(&t->cs, t->top, "status",
							   "disabled"), 0);
	t->bus = rules_node(test, &t->cs, t->top, "bus", PH_T_BUS);
	KUNIT_ASSERT_EQ(test, of_changeset_add_prop_u32(&t->cs, t->bus, "#address-cells", 1), 0);
	KUNIT_ASSERT_EQ(test, of_changeset_add_prop_u32(&t->cs, t->bus, "#size-cells", 0), 0);
	ee = of_changeset_create_node(&t->cs, t->bus, "eeprom@54");
	KUNIT_ASSERT_NOT_NULL(test, ee);
	KUNIT_ASSERT_EQ(test, of_changeset_add_prop_u32(&t->cs, ee, "reg", 0x54), 0);
	of_node_put(ee);
	t->gpio = rules_node(test, &t->cs, t->top, "gpio", PH_T_GPIO);
	KUNIT_ASSERT_EQ(test, of_changeset_add_prop_u32(&t->cs, t->gpio, "#gpio-cells", 2), 0);
	t->secret = rules_node(test, &t->cs, t->top, "secret", PH_T_SECRET);
	KUNIT_ASSERT_EQ(test, of_changeset_add_prop_u32(&t->cs, t->secret, "#gpio-cells", 2), 0);
	KUNIT_ASSERT_EQ(test, of_changeset_add_prop_u32(&t->cs, t->secret, "#clock-cells", 0), 0);
	KUNIT_ASSERT_EQ(test, of_changeset_apply(&t->cs), 0);
	t->applied = true;
	/* A phandle property added after its node is attached is not read. */
	t->bus->phandle = PH_T_BUS;
	t->gpio->phandle = PH_T_GPIO;
	t->secret->phandle = PH_T_SECRET;

	dev = kunit_device_register(test, "capebus-rules");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	t->ctrl = capebus_controller_alloc(dev, &rules_header, NULL, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->ctrl);
	KUNIT_ASSERT_EQ(test, capebus_controller_add_target(t->ctrl, t->bus), 0);
	KUNIT_ASSERT_EQ(test, capebus_controller_add_export(t->ctrl, "t_bus", t->bus), 0);
	KUNIT_ASSERT_EQ(test, capebus_controller_add_export(t->ctrl, "t_gpio", t->gpio), 0);
	KUNIT_ASSERT_EQ(test, capebus_controller_register(t->ctrl), 0);
	t->registered = true;

	return 0;
}

static void rules_exit(struct kunit *test)
{
	struct rules_test *t = test->priv;

	if (!t)
		return;
	if (t->registered)
		capebus_controller_unregister(t->ctrl);
	if (!IS_ERR_OR_NULL(t->ctrl))
		capebus_controller_put(t->ctrl);
	of_node_put(t->top);
	of_node_put(t->bus);
	of_node_put(t->gpio);
	of_node_put(t->secret);
	if (t->applied)
		KUNIT_EXPECT_EQ(test, of_changeset_revert(&t->cs), 0);
	of_changeset_destroy(&t->cs);
}

/* root { fragment@0 { target = <&t_bus>; __overlay__ { ... } } } */
static void tb_rules_begin(struct tb *b)
{
	static const u32 unresolved = 0xffffffff;

	tb_begin(b, "");
	tb_begin(b, "fragment@0");
	tb_prop_cells(b, "target", &unresolved, 1);
	tb_begin(b, "__overlay__");
}

static void *tb_rules_end(struct kunit *test, struct tb *b, const char *extra,
			  size_t *len)
{
	tb_end(b);	/* __overlay__ */
	tb_end(b);	/* fragment@0 */
	tb_begin(b, "__fixups__");
	tb_prop_strs(b, "t_bus", "/fragment@0:target:0", NULL);
	if (extra)
		tb_prop_strs(b, "t_gpio", extra, NULL);
	tb_end(b);
	tb_end(b);

	return tb_finish(test, b, len);
}

/* Add a declared cape with @blob; returns the error, @why the reason. */
static int rules_add(struct kunit *test, const void *blob, size_t len,
		     char *why, struct cape_device **capep)
{
	struct rules_test *t = test->priv;
	struct capebus_cape_desc desc = {
		.info = t->info,
		.slot = CAPEBUS_SLOT_ANY_VIRTUAL,
		.overlay = blob,
		.overlay_len = len,
		.overlay_source = "configfs",
	};
	struct cape_device *cape;

	cape = capebus_cape_add(t->ctrl, &desc, why, CAPEBUS_REASON_LEN);
	if (IS_ERR(cape))
		return PTR_ERR(cape);
	*capep = cape;

	return 0;
}

static void expect_rule(struct kunit *test, const void *blob, size_t len,
			const char *rule)
{
	struct rules_test *t = test->priv;
	struct cape_device *cape = NULL;
	char why[CAPEBUS_REASON_LEN];
	struct device_node *ee;
	int children = 0;

	KUNIT_EXPECT_EQ(test, rules_add(test, blob, len, why, &cape), -EINVAL);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, rule),
				  "reason \"%s\" lacks \"%s\"", why, rule);
	/* The bus is as the test made it: one child, no new property. */
	for_each_child_of_node_scoped(t->bus, child)
		children++;
	KUNIT_EXPECT_EQ(test, children, 1);
	KUNIT_EXPECT_FALSE(test, of_property_present(t->bus, "clock-frequency"));
	ee = of_get_child_by_name(t->bus, "eeprom");
	KUNIT_EXPECT_FALSE(test, of_property_present(ee, "compatible"));
	of_node_put(ee);
}

static void rules_test_good(struct kunit *test)
{
	struct rules_test *t = test->priv;
	const u32 gpios[] = { 0xffffffff, 3, 0 };
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	struct cape_device *cape = NULL;
	char why[CAPEBUS_REASON_LEN];
	struct device_node *np;
	u32 ph;
	size_t len;
	void *blob;

	tb_rules_begin(b);
	tb_begin(b, "dev@48");
	tb_prop_cells(b, "reg", (const u32 []){ 0x48 }, 1);
	tb_prop_cells(b, "gpios", gpios, 3);
	tb_end(b);
	blob = tb_rules_end(test, b, "/fragment@0/__overlay__/dev@48:gpios:0", &len);

	KUNIT_ASSERT_EQ(test, rules_add(test, blob, len, why, &cape), 0);
	KUNIT_EXPECT_STREQ(test, why, "");
	np = of_get_child_by_name(t->bus, "dev");
	KUNIT_ASSERT_NOT_NULL(test, np);
	KUNIT_EXPECT_EQ(test, of_property_read_u32(np, "gpios", &ph), 0);
	KUNIT_EXPECT_EQ(test, ph, PH_T_GPIO);
	of_node_put(np);

	capebus_cape_remove(cape);
	capebus_cape_put(cape);
	np = of_get_child_by_name(t->bus, "dev");
	KUNIT_EXPECT_NULL(test, np);
	of_node_put(np);
}

static void rules_test_sets_target_property(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	size_t len;
	void *blob;

	tb_rules_begin(b);
	tb_prop_cells(b, "clock-frequency", (const u32 []){ 400000 }, 1);
	blob = tb_rules_end(test, b, NULL, &len);
	expect_rule(test, blob, len,
		    "add only: fragment fragment@0 sets property clock-frequency of /capebus-kunit/bus");

	/* Its references resolved through an export, the same. */
	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	tb_rules_begin(b);
	tb_prop_cells(b, "rts-gpios", (const u32 []){ 0xffffffff, 3, 0 }, 3);
	blob = tb_rules_end(test, b, "/fragment@0/__overlay__:rts-gpios:0", &len);
	expect_rule(test, blob, len,
		    "add only: fragment fragment@0 sets property rts-gpios of /capebus-kunit/bus");
}

static void rules_test_rewrites_board_node(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	size_t len;
	void *blob;

	tb_rules_begin(b);
	tb_begin(b, "eeprom@54");
	tb_prop_str(b, "compatible", "evil");
	tb_end(b);
	blob = tb_rules_end(test, b, NULL, &len);
	expect_rule(test, blob, len, "changes /capebus-kunit/bus/eeprom@54, which the board has");
}

static void rules_test_address_taken(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	size_t len;
	void *blob;

	tb_rules_begin(b);
	tb_begin(b, "thief@54");
	tb_prop_cells(b, "reg", (const u32 []){ 0x54 }, 1);
	tb_end(b);
	blob = tb_rules_end(test, b, NULL, &len);
	expect_rule(test, blob, len,
		    "address 0x54 on /capebus-kunit/bus is held by the board (eeprom@54)");
}

/* A phandle written as a raw number: no fixup, no resolver sees it. */
static void rules_test_raw_phandle(struct kunit *test)
{
	const u32 gpios[] = { PH_T_SECRET, 3, 0 };
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	size_t len;
	void *blob;

	tb_rules_begin(b);
	tb_begin(b, "dev@48");
	tb_prop_cells(b, "reg", (const u32 []){ 0x48 }, 1);
	tb_prop_cells(b, "reset-gpios", gpios, 3);
	tb_end(b);
	blob = tb_rules_end(test, b, NULL, &len);
	expect_rule(test, blob, len,
		    "references: property reset-gpios of node dev names /capebus-kunit/secret, which the connector does not export");
}

/* A fragment target written as a raw phandle of a node not allowed. */
static void rules_test_raw_target(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	size_t len;
	void *blob;

	tb_begin(b, "");
	tb_begin(b, "fragment@0");
	tb_prop_cells(b, "target", (const u32 []){ PH_T_SECRET }, 1);
	tb_begin(b, "__overlay__");
	tb_begin(b, "x");
	tb_end(b);
	tb_end(b);
	tb_end(b);
	tb_end(b);
	blob = tb_finish(test, b, &len);
	expect_rule(test, blob, len,
		    "fragment fragment@0 targets /capebus-kunit/secret, which is not a cape target");
}

/* dev@48 { reg = <0x48>; @prop = <@cells>; } on the test bus. */
static void *tb_rules_dev(struct kunit *test, const char *prop,
			  const u32 *cells, unsigned int n, size_t *len)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);

	tb_rules_begin(b);
	tb_begin(b, "dev@48");
	tb_prop_cells(b, "reg", (const u32 []){ 0x48 }, 1);
	tb_prop_cells(b, prop, cells, n);
	tb_end(b);
	return tb_rules_end(test, b, NULL, len);
}

/*
 * Raw references, whatever the property's name: where the named node
 * provides what the property is named for (its #clock-cells here), or where
 * the kernel's bindings read phandles.
 */
static void rules_test_raw_named(struct kunit *test)
{
	static const char * const props[] = {
		"assigned-clocks", "assigned-clock-parents", "clocks",
		"i2c-parent", "vcc-supply", "regmap", "pinctrl-3",
		"interrupt-parent", "gpio-sck", "cirrus,gpio-nreset",
	};
	unsigned int i;
	size_t len;
	void *blob;

	for (i = 0; i < ARRAY_SIZE(props); i++) {
		blob = tb_rules_dev(test, props[i], (const u32 []){ PH_T_SECRET },
				    1, &len);
		kunit_info(test, "%s", props[i]);
		expect_rule(test, blob, len,
			    "names /capebus-kunit/secret, which the connector does not export");
	}
}

/*
 * Where the kernel reads a reference: properties whose phandle is not an
 * entry's first cell, and a property whose length is not whole cells (the
 * OF core reads its whole cells; an earlier check skipped it).
 */
static void rules_test_raw_placed(struct kunit *test)
{
	static const struct {
		const char *prop;
		u32 cells[4];
		unsigned int n;
	} cases[] = {
		{ "iommu-map", { 0x1000, PH_T_SECRET, 0, 0x10 }, 4 },
		{ "msi-map", { 0x1000, PH_T_SECRET, 0, 0x10 }, 4 },
		{ "msi-parent", { 0, PH_T_SECRET }, 2 },
		{ "gpio-ranges", { PH_T_SECRET, 0, 0, 4 }, 4 },
	};
	struct tb *b;
	__be32 odd[2];
	unsigned int i;
	size_t len;
	void *blob;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		blob = tb_rules_dev(test, cases[i].prop, cases[i].cells,
				    cases[i].n, &len);
		kunit_info(test, "%s", cases[i].prop);
		expect_rule(test, blob, len,
			    "names /capebus-kunit/secret, which the connector does not export");
	}

	odd[0] = cpu_to_be32(PH_T_SECRET);
	odd[1] = 0;
	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	tb_rules_begin(b);
	tb_begin(b, "dev@48");
	tb_prop_cells(b, "reg", (const u32 []){ 0x48 }, 1);
	tb_prop(b, "clocks", odd, 5);
	tb_end(b);
	blob = tb_rules_end(test, b, NULL, &len);
	expect_rule(test, blob, len,
		    "names /capebus-kunit/secret, which the connector does not export");
}

/* Two fragments adding one node to one target (the overlay code refuses it late). */
static void rules_test_added_twice(struct kunit *test)
{
	static const u32 unresolved = 0xffffffff;
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	size_t len;
	void *blob;

	tb_rules_begin(b);
	tb_begin(b, "dup");
	tb_end(b);
	tb_end(b);	/* __overlay__ */
	tb_end(b);	/* fragment@0 */
	tb_begin(b, "fragment@1");
	tb_prop_cells(b, "target", &unresolved, 1);
	tb_begin(b, "__overlay__");
	tb_begin(b, "dup");
	tb_end(b);
	tb_end(b);
	tb_end(b);
	tb_begin(b, "__fixups__");
	tb_prop_strs(b, "t_bus", "/fragment@0:target:0", "/fragment@1:target:0");
	tb_end(b);
	tb_end(b);
	blob = tb_finish(test, b, &len);
	expect_rule(test, blob, len, "which another fragment adds too");
}

/* The same numbers as data are no reference: no false refusal. */
static void rules_test_raw_data(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	struct cape_device *cape = NULL;
	char why[CAPEBUS_REASON_LEN];
	size_t len;
	void *blob;

	tb_rules_begin(b);
	tb_begin(b, "dev@48");
	tb_prop_cells(b, "reg", (const u32 []){ 0x48 }, 1);
	tb_prop_cells(b, "linux,code", (const u32 []){ PH_T_SECRET }, 1);
	tb_prop_cells(b, "pagesize", (const u32 []){ PH_T_BUS }, 1);
	tb_prop_cells(b, "ngpios", (const u32 []){ PH_T_SECRET }, 1);
	tb_end(b);
	blob = tb_rules_end(test, b, NULL, &len);
	KUNIT_ASSERT_EQ(test, rules_add(test, blob, len, why, &cape), 0);
	capebus_cape_remove(cape);
	capebus_cape_put(cape);
}

/* interrupts with no interrupt-parent in the overlay take the board's. */
static void rules_test_irq_inherited(struct kunit *test)
{
	size_t len;
	void *blob;

	blob = tb_rules_dev(test, "interrupts", (const u32 []){ 5, 8 }, 2, &len);
	expect_rule(test, blob, len,
		    "interrupts: node dev has interrupts but no interrupt-parent in the overlay");
}

/*
 * Interrupt parents of the overlay: an interrupt controller (accepted), a
 * node with only #interrupt-cells (refused), parents in a circle (refused).
 */
static void rules_test_irq_own(struct kunit *test)
{
	static const char * const rule[] = {
		NULL, "which is neither an interrupt controller", "go round in a circle",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rule); i++) {
		struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
		struct cape_device *cape = NULL;
		char why[CAPEBUS_REASON_LEN];
		size_t len;
		void *blob;

		tb_rules_begin(b);
		tb_begin(b, "intc");
		if (i != 2)
			tb_prop_cells(b, "#interrupt-cells", (const u32 []){ 1 }, 1);
		if (i == 0)
			tb_prop(b, "interrupt-controller", NULL, 0);
		if (i == 2)
			tb_prop_cells(b, "interrupt-parent", (const u32 []){ 2 }, 1);
		tb_prop_cells(b, "phandle", (const u32 []){ 1 }, 1);
		tb_end(b);
		tb_begin(b, "dev@48");
		tb_prop_cells(b, "reg", (const u32 []){ 0x48 }, 1);
		tb_prop_cells(b, "interrupt-parent", (const u32 []){ 1 }, 1);
		tb_prop_cells(b, "interrupts", (const u32 []){ 3 }, 1);
		tb_prop_cells(b, "phandle", (const u32 []){ 2 }, 1);
		tb_end(b);
		tb_end(b);	/* __overlay__ */
		tb_end(b);	/* fragment@0 */
		tb_begin(b, "__fixups__");
		tb_prop_strs(b, "t_bus", "/fragment@0:target:0", NULL);
		tb_end(b);
		tb_begin(b, "__local_fixups__");
		tb_begin(b, "fragment@0");
		tb_begin(b, "__overlay__");
		if (i == 2) {
			tb_begin(b, "intc");
			tb_prop_cells(b, "interrupt-parent", (const u32 []){ 0 }, 1);
			tb_end(b);
		}
		tb_begin(b, "dev@48");
		tb_prop_cells(b, "interrupt-parent", (const u32 []){ 0 }, 1);
		tb_end(b);
		tb_end(b);
		tb_end(b);
		tb_end(b);
		tb_end(b);
		blob = tb_finish(test, b, &len);
		kunit_info(test, "case %u", i);
		if (!rule[i]) {
			KUNIT_EXPECT_EQ(test, rules_add(test, blob, len, why, &cape), 0);
			KUNIT_EXPECT_STREQ(test, why, "");
			if (cape) {
				capebus_cape_remove(cape);
				capebus_cape_put(cape);
			}
			continue;
		}
		expect_rule(test, blob, len, rule[i]);
	}
}

/* interrupts-extended to a board node that is no export. */
static void rules_test_irq_extended(struct kunit *test)
{
	size_t len;
	void *blob;

	blob = tb_rules_dev(test, "interrupts-extended",
			    (const u32 []){ PH_T_SECRET, 1, 2 }, 3, &len);
	expect_rule(test, blob, len,
		    "names /capebus-kunit/secret, which the connector does not export");
}

/*
 * I2C's flag bits: 0x40000054 would be eeprom@54's address to the I2C
 * core.  The test bus is no adapter: its core is not known, and the
 * address must read alike to every core (capebus-busaddr.c).
 */
static void rules_test_address_flags(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	size_t len;
	void *blob;

	tb_rules_begin(b);
	tb_begin(b, "thief@40000054");
	tb_prop_cells(b, "reg", (const u32 []){ 0x40000054 }, 1);
	tb_end(b);
	blob = tb_rules_end(test, b, NULL, &len);
	expect_rule(test, blob, len,
		    "reg 0x40000054 may read otherwise to its bus's core; allowed: one cell of 0x00-0x7f");
}

/*
 * A reg below a cape node that states #address-cells but no #size-cells:
 * its bus has no cells, and capebus_bus_addrs() refuses the reg.
 */
static void rules_test_address_no_cells(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	size_t len;
	void *blob;

	tb_rules_begin(b);
	tb_begin(b, "mux@70");
	tb_prop_cells(b, "reg", (const u32 []){ 0x70 }, 1);
	tb_prop_cells(b, "#address-cells", (const u32 []){ 1 }, 1);
	tb_begin(b, "a@1");
	tb_prop_cells(b, "reg", (const u32 []){ 1 }, 1);
	tb_end(b);
	tb_end(b);
	blob = tb_rules_end(test, b, NULL, &len);
	expect_rule(test, blob, len,
		    "bus addresses: node a on mux@70: reg of 4 bytes does not match the bus's 0 address and 0 size cells");
}

/* The address rule holds at every depth: two children of one cape node. */
static void rules_test_address_deep(struct kunit *test)
{
	struct tb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	size_t len;
	void *blob;

	tb_rules_begin(b);
	tb_begin(b, "mux@70");
	tb_prop_cells(b, "reg", (const u32 []){ 0x70 }, 1);
	tb_prop_cells(b, "#address-cells", (const u32 []){ 1 }, 1);
	tb_prop_cells(b, "#size-cells", (const u32 []){ 0 }, 1);
	tb_begin(b, "a@1");
	tb_prop_cells(b, "reg", (const u32 []){ 1 }, 1);
	tb_end(b);
	tb_begin(b, "b@1");
	tb_prop_cells(b, "reg", (const u32 []){ 1 }, 1);
	tb_end(b);
	tb_end(b);
	blob = tb_rules_end(test, b, NULL, &len);
	expect_rule(test, blob, len, "two nodes of the overlay use address 0x1 on");
}

static struct kunit_case capebus_overlay_rules_cases[] = {
	KUNIT_CASE(rules_test_good),
	KUNIT_CASE(rules_test_sets_target_property),
	KUNIT_CASE(rules_test_rewrites_board_node),
	KUNIT_CASE(rules_test_address_taken),
	KUNIT_CASE(rules_test_raw_phandle),
	KUNIT_CASE(rules_test_raw_target),
	KUNIT_CASE(rules_test_raw_named),
	KUNIT_CASE(rules_test_raw_data),
	KUNIT_CASE(rules_test_raw_placed),
	KUNIT_CASE(rules_test_added_twice),
	KUNIT_CASE(rules_test_irq_inherited),
	KUNIT_CASE(rules_test_irq_own),
	KUNIT_CASE(rules_test_irq_extended),
	KUNIT_CASE(rules_test_address_flags),
	KUNIT_CASE(rules_test_address_deep),
	KUNIT_CASE(rules_test_address_no_cells),
	{}
};

static struct kunit_suite capebus_overlay_rules_suite = {
	.name = "capebus-overlay-rules",
	.init = rules_init,
	.exit = rules_exit,
	.test_cases = capebus_overlay_rules_cases,
};

/*
 * What the fuzzer (tests/fuzz/kernel, regress/fdt-fuzz/) found, each in the
 * shape of its regression input: 4 nodes opened and never closed (an
 * earlier walker's node array held 3), ISO 8859-1 letters in names (the
 * kernel's isalnum() takes them, the DT spec does not), NOPs between the
 * root's end and FDT_END (libfdt calls that a bad structure).
 */
static void fdt_test_fuzz_findings(struct kunit *test)
{
	struct tb *b;
	size_t len;
	void *blob;

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	tb_begin(b, "");
	tb_begin(b, "a");
	tb_begin(b, "a");
	tb_begin(b, "a");
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len, "ends inside a node");

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	tb_begin(b, "");
	tb_begin(b, "fr\xe1gment@0");
	tb_end(b);
	tb_end(b);
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len, "is not allowed by the DT spec");

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	tb_good_fragment(b);
	tb_prop_str(b, "\xd2gpios", "x");
	tb_end(b);
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len, "which the DT spec does not allow");

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	tb_good_fragment(b);
	tb_good_fixups(b);
	tb_end(b);
	tb_u32(b, 4);		/* FDT_NOP, after the root */
	blob = tb_finish(test, b, &len);
	expect_refused(test, blob, len, "data after its root");
}

/*
 * Blocks that overlap: a name checked in the strings block would change when
 * a cell of the structure is patched (an outside review renamed a property
 * "name" that way), and the reserve map must not be the structure either.
 */
static void fdt_test_blocks_overlap(struct kunit *test)
{
	size_t len;
	u8 *blob;
	__be32 *h;

	blob = tb_good(test, &len);
	h = (__be32 *)blob;
	h[3] = h[2];		/* off_dt_strings = off_dt_struct */
	expect_refused(test, blob, len, "overlay's blocks overlap");

	blob = tb_good(test, &len);
	h = (__be32 *)blob;
	h[4] = h[2];		/* off_mem_rsvmap = off_dt_struct */
	expect_refused(test, blob, len, "overlay's blocks overlap");
}

static struct kunit_case capebus_fdt_test_cases[] = {
	KUNIT_CASE(fdt_test_good),
	KUNIT_CASE(fdt_test_unexported),
	KUNIT_CASE(fdt_test_lookalike_fixups),
	KUNIT_CASE(fdt_test_lookalike_overlay),
	KUNIT_CASE(fdt_test_duplicate_fragment),
	KUNIT_CASE(fdt_test_duplicate_property),
	KUNIT_CASE(fdt_test_two_labels_one_cell),
	KUNIT_CASE(fdt_test_fixup_meets_local_fixup),
	KUNIT_CASE(fdt_test_local_renumbered),
	KUNIT_CASE(fdt_test_local_outside),
	KUNIT_CASE(fdt_test_local_root),
	KUNIT_CASE(fdt_test_local_special),
	KUNIT_CASE(fdt_test_phandle_rules),
	KUNIT_CASE(fdt_test_cells_bounded),
	KUNIT_CASE(fdt_test_siblings_case),
	KUNIT_CASE(fdt_test_limits),
	KUNIT_CASE(fdt_test_fuzz_findings),
	KUNIT_CASE(fdt_test_blocks_overlap),
	KUNIT_CASE(fdt_test_self_target),
	KUNIT_CASE(fdt_test_symbols),
	KUNIT_CASE(fdt_test_property_after_subnode),
	KUNIT_CASE(fdt_test_not_a_fragment),
	KUNIT_CASE(fdt_test_two_targets),
	KUNIT_CASE(fdt_test_fixup_bounds),
	KUNIT_CASE(fdt_test_bad_names),
	KUNIT_CASE(fdt_test_too_deep),
	KUNIT_CASE(fdt_test_enable_taken_out),
	KUNIT_CASE(fdt_test_enable_only_okay),
	KUNIT_CASE(fdt_test_reserved_enable),
	KUNIT_CASE(fdt_test_target_props_taken_out),
	KUNIT_CASE(fdt_test_target_props_need_enable),
	KUNIT_CASE(fdt_test_target_props_bounded),
	KUNIT_CASE(fdt_test_damaged),
	KUNIT_CASE_SLOW(fdt_test_mutations),
	{}
};

static struct kunit_suite capebus_fdt_test_suite = {
	.name = "capebus-fdt",
	.test_cases = capebus_fdt_test_cases,
};

kunit_test_suites(&capebus_fdt_test_suite, &capebus_overlay_rules_suite);
