// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the capebus Raspberry Pi HAT / HAT+ EEPROM parser.
 *
 * Two images are the bytes Raspberry Pi's own eepmake wrote (the fixtures
 * under tests/bats/host/fixtures/hat/ in the capebus repository, whose
 * README names the eepmake commit); the others are built here byte by
 * byte, with the CRC-16 computed by the kernel's crc16().
 */

#include <kunit/test.h>
#include <linux/crc16.h>
#include <linux/limits.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <linux/vmalloc.h>

#include "rpi-eeprom.h"

#define TEST_IMAGE_SIZE		2048
#define TEST_WHY_LEN		160

/* tests/bats/host/fixtures/hat/v1-minimal.eep: 107 bytes */
static const u8 fixture_v1_minimal[] = {
	0x52, 0x2d, 0x50, 0x69, 0x01, 0x00, 0x02, 0x00,
	0x6b, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x2f, 0x00, 0x00, 0x00, 0xf8, 0xe7, 0xd6, 0xc5,
	0xb4, 0xa3, 0x92, 0x81, 0x70, 0x4f, 0x6e, 0x5d,
	0x4c, 0x2b, 0x1a, 0x3f, 0x01, 0x00, 0x02, 0x00,
	0x0c, 0x0b, 0x45, 0x78, 0x61, 0x6d, 0x70, 0x6c,
	0x65, 0x20, 0x4c, 0x61, 0x62, 0x73, 0x4d, 0x69,
	0x6e, 0x69, 0x6d, 0x61, 0x6c, 0x20, 0x48, 0x41,
	0x54, 0xb0, 0xa1, 0x02, 0x00, 0x01, 0x00, 0x20,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0xed, 0x6e,
};

/* tests/bats/host/fixtures/hat/v2-power.eep: 111 bytes */
static const u8 fixture_v2_power[] = {
	0x52, 0x2d, 0x50, 0x69, 0x02, 0x00, 0x03, 0x00,
	0x6f, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x36, 0x00, 0x00, 0x00, 0x24, 0xb9, 0x6f, 0x99,
	0xc8, 0xf4, 0xfb, 0x9a, 0x14, 0x4c, 0xfc, 0x98,
	0x42, 0xc4, 0xb0, 0xe3, 0x02, 0x0b, 0x01, 0x00,
	0x11, 0x0d, 0x45, 0x78, 0x61, 0x6d, 0x70, 0x6c,
	0x65, 0x20, 0x50, 0x6f, 0x77, 0x65, 0x72, 0x20,
	0x43, 0x6f, 0x2e, 0x35, 0x41, 0x20, 0x50, 0x6f,
	0x77, 0x65, 0x72, 0x20, 0x48, 0x41, 0x54, 0x2b,
	0x1c, 0xd6, 0x03, 0x00, 0x01, 0x00, 0x0f, 0x00,
	0x00, 0x00, 0x65, 0x78, 0x61, 0x6d, 0x70, 0x6c,
	0x65, 0x2d, 0x70, 0x6f, 0x77, 0x65, 0x72, 0x69,
	0xf4, 0x06, 0x00, 0x02, 0x00, 0x06, 0x00, 0x00,
	0x00, 0x88, 0x13, 0x00, 0x00, 0xf3, 0x8d,
};

/* An image under construction: the header, then atoms appended. */
struct test_img {
	u8 *b;
	size_t len;
	u16 atoms;
};

static struct test_img *img_new(struct kunit *test, u8 version)
{
	struct test_img *img = kunit_kzalloc(test, sizeof(*img), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, img);
	img->b = kunit_kzalloc(test, TEST_IMAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, img->b);
	memcpy(img->b, "R-Pi", 4);
	img->b[4] = version;
	img->len = 12;
	return img;
}

/* Write numatoms and eeplen as the atoms say. */
static void img_seal(struct test_img *img)
{
	put_unaligned_le16(img->atoms, img->b + 6);
	put_unaligned_le32(img->len, img->b + 8);
}

/* Recompute the CRC of the atom at @off (its dlen as it stands). */
static void img_fix_crc(u8 *b, size_t off)
{
	u32 dlen = get_unaligned_le32(b + off + 4);

	put_unaligned_le16(crc16(0, b + off, 8 + dlen - 2), b + off + 8 + dlen - 2);
}

/* Append an atom of @type with @n bytes of @data; return its offset. */
static size_t img_atom(struct kunit *test, struct test_img *img, u16 type,
		       const void *data, size_t n)
{
	size_t off = img->len;

	KUNIT_ASSERT_LE(test, off + 8 + n + 2, (size_t)TEST_IMAGE_SIZE);
	put_unaligned_le16(type, img->b + off);
	put_unaligned_le16(img->atoms, img->b + off + 2);
	put_unaligned_le32(n + 2, img->b + off + 4);
	if (n)
		memcpy(img->b + off + 8, data, n);
	img_fix_crc(img->b, off);
	img->len += 8 + n + 2;
	img->atoms++;
	img_seal(img);
	return off;
}

static size_t img_vendor(struct kunit *test, struct test_img *img,
			 const char *vendor, const char *product)
{
	u8 d[22 + 2 * 255];
	size_t vl = strlen(vendor), pl = strlen(product);

	KUNIT_ASSERT_LE(test, vl, (size_t)255);
	KUNIT_ASSERT_LE(test, pl, (size_t)255);
	/* UUID 12345678-9abc-def0-1122-334455667788 */
	put_unaligned_le32(0x55667788, d);
	put_unaligned_le32(0x11223344, d + 4);
	put_unaligned_le32(0x9abcdef0, d + 8);
	put_unaligned_le32(0x12345678, d + 12);
	put_unaligned_le16(0xbeef, d + 16);
	put_unaligned_le16(0x0102, d + 18);
	d[20] = vl;
	d[21] = pl;
	memcpy(d + 22, vendor, vl);
	memcpy(d + 22 + vl, product, pl);
	return img_atom(test, img, RPI_HAT_ATOM_VENDOR, d, 22 + vl + pl);
}

/* GPIO4 output pull-up, GPIO18 ALT5 no pull; drive 8 mA, slew limited. */
static size_t img_gpio(struct kunit *test, struct test_img *img)
{
	u8 d[30] = { 0x14, RPI_HAT_BACK_POWER_1A3 };

	d[2 + 4] = 0x80 | (1 << 5) | RPI_HAT_PIN_FUNC_OUTPUT;
	d[2 + 18] = 0x80 | (3 << 5) | RPI_HAT_PIN_FUNC_ALT5;
	return img_atom(test, img, RPI_HAT_ATOM_GPIO, d, sizeof(d));
}

/* GPIO40 ALT0 pull-down. */
static size_t img_gpio_bank1(struct kunit *test, struct test_img *img)
{
	u8 d[20] = { 0x02, 0 };

	d[2 + 40 - 28] = 0x80 | (2 << 5) | RPI_HAT_PIN_FUNC_ALT0;
	return img_atom(test, img, RPI_HAT_ATOM_GPIO_BANK1, d, sizeof(d));
}

static const u8 test_dtbo[] = { 0xd0, 0x0d, 0xfe, 0xed, 0x00, 0x00, 0x00, 0x28 };

/* HAT v1: vendor, GPIO map, a DT blob, two custom atoms, bank 1. */
static struct test_img *test_v1(struct kunit *test)
{
	struct test_img *img = img_new(test, 1);

	img_vendor(test, img, "Example Labs", "Test HAT");
	img_gpio(test, img);
	img_atom(test, img, RPI_HAT_ATOM_DT, test_dtbo, sizeof(test_dtbo));
	img_atom(test, img, RPI_HAT_ATOM_CUSTOM, "abc", 3);
	img_atom(test, img, RPI_HAT_ATOM_CUSTOM, NULL, 0);
	img_gpio_bank1(test, img);
	return img;
}

/* HAT+: vendor, an overlay name, a custom atom, power supply. */
static struct test_img *test_v2(struct kunit *test)
{
	struct test_img *img = img_new(test, 2);
	u8 power[4];

	img_vendor(test, img, "Example Labs", "Test HAT+");
	img_atom(test, img, RPI_HAT_ATOM_DT, "test-hat-plus", 13);
	img_atom(test, img, RPI_HAT_ATOM_CUSTOM, "\x00\x01\xff", 3);
	put_unaligned_le32(3000, power);
	img_atom(test, img, RPI_HAT_ATOM_POWER_SUPPLY, power, 4);
	return img;
}

static struct rpi_eeprom *new_ee(struct kunit *test)
{
	struct rpi_eeprom *ee = kunit_kzalloc(test, sizeof(*ee), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ee);
	return ee;
}

static int parse(struct rpi_eeprom *ee, const void *b, size_t len, char *why)
{
	return rpi_eeprom_parse(ee, b, len, why, TEST_WHY_LEN);
}

/* Parse @img, expect @err and a reason containing @needle. */
static void expect_refused(struct kunit *test, const struct test_img *img,
			   int err, const char *needle)
{
	struct rpi_eeprom *ee = new_ee(test);
	char why[TEST_WHY_LEN];

	KUNIT_EXPECT_EQ(test, parse(ee, img->b, img->len, why), err);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, needle),
				  "reason \"%s\" lacks \"%s\"", why, needle);
	KUNIT_EXPECT_NULL(test, ee->dt);
	KUNIT_EXPECT_EQ(test, ee->version, 0);
}

static void rpi_eeprom_test_crc16(struct kunit *test)
{
	/* CRC-16/ARC's check value, as capebus-hat.h documents it. */
	KUNIT_EXPECT_EQ(test, crc16(0, (const u8 *)"123456789", 9), 0xbb3d);
}

static void rpi_eeprom_test_eepmake_v1(struct kunit *test)
{
	struct rpi_eeprom *ee = new_ee(test);
	char why[TEST_WHY_LEN];
	unsigned int i;

	KUNIT_ASSERT_EQ(test, parse(ee, fixture_v1_minimal,
				    sizeof(fixture_v1_minimal), why), 0);
	KUNIT_EXPECT_STREQ(test, why, "");
	KUNIT_EXPECT_EQ(test, ee->version, 1);
	KUNIT_EXPECT_EQ(test, ee->numatoms, 2);
	KUNIT_EXPECT_EQ(test, ee->eeplen, 107);
	/* 3f1a2b4c-5d6e-4f70-8192-a3b4c5d6e7f8 */
	KUNIT_EXPECT_EQ(test, ee->uuid[3], 0x3f1a2b4c);
	KUNIT_EXPECT_EQ(test, ee->uuid[2], 0x5d6e4f70);
	KUNIT_EXPECT_EQ(test, ee->uuid[1], 0x8192a3b4);
	KUNIT_EXPECT_EQ(test, ee->uuid[0], 0xc5d6e7f8);
	KUNIT_EXPECT_EQ(test, ee->product_id, 0x0001);
	KUNIT_EXPECT_EQ(test, ee->product_ver, 0x0002);
	KUNIT_EXPECT_STREQ(test, ee->vendor, "Example Labs");
	KUNIT_EXPECT_STREQ(test, ee->product, "Minimal HAT");
	KUNIT_EXPECT_TRUE(test, ee->has_gpio_bank0);
	KUNIT_EXPECT_FALSE(test, ee->has_gpio_bank1);
	KUNIT_EXPECT_EQ(test, ee->used_pins, 0);
	for (i = 0; i < RPI_EEPROM_NUM_GPIOS; i++)
		KUNIT_EXPECT_EQ(test, ee->gpio[i], 0);
	KUNIT_EXPECT_NULL(test, ee->dt);
	KUNIT_EXPECT_STREQ(test, ee->overlay, "");
	KUNIT_EXPECT_FALSE(test, ee->has_power);
}

static void rpi_eeprom_test_eepmake_v2(struct kunit *test)
{
	struct rpi_eeprom *ee = new_ee(test);
	char why[TEST_WHY_LEN];

	KUNIT_ASSERT_EQ(test, parse(ee, fixture_v2_power,
				    sizeof(fixture_v2_power), why), 0);
	KUNIT_EXPECT_STREQ(test, why, "");
	KUNIT_EXPECT_EQ(test, ee->version, 2);
	KUNIT_EXPECT_EQ(test, ee->numatoms, 3);
	/* e3b0c442-98fc-4c14-9afb-f4c8996fb924 */
	KUNIT_EXPECT_EQ(test, ee->uuid[3], 0xe3b0c442);
	KUNIT_EXPECT_EQ(test, ee->uuid[0], 0x996fb924);
	KUNIT_EXPECT_EQ(test, ee->product_id, 0x0b02);
	KUNIT_EXPECT_EQ(test, ee->product_ver, 0x0001);
	KUNIT_EXPECT_STREQ(test, ee->vendor, "Example Power Co.");
	KUNIT_EXPECT_STREQ(test, ee->product, "5A Power HAT+");
	KUNIT_EXPECT_STREQ(test, ee->overlay, "example-power");
	KUNIT_EXPECT_NULL(test, ee->dt);
	KUNIT_EXPECT_FALSE(test, ee->has_gpio_bank0);
	KUNIT_EXPECT_TRUE(test, ee->has_power);
	KUNIT_EXPECT_EQ(test, ee->current_supply_ma, 5000);
}

static void rpi_eeprom_test_v1_fields(struct kunit *test)
{
	struct test_img *img = test_v1(test);
	struct rpi_eeprom *ee = new_ee(test);
	char why[TEST_WHY_LEN];
	const u8 *dt;

	KUNIT_ASSERT_EQ(test, parse(ee, img->b, img->len, why), 0);
	KUNIT_EXPECT_STREQ(test, why, "");
	KUNIT_EXPECT_EQ(test, ee->numatoms, 6);
	KUNIT_EXPECT_EQ(test, ee->eeplen, img->len);
	KUNIT_EXPECT_EQ(test, ee->uuid[3], 0x12345678);
	KUNIT_EXPECT_EQ(test, ee->uuid[0], 0x55667788);
	KUNIT_EXPECT_EQ(test, ee->product_id, 0xbeef);
	KUNIT_EXPECT_STREQ(test, ee->product, "Test HAT");
	KUNIT_EXPECT_TRUE(test, ee->has_gpio_bank0);
	KUNIT_EXPECT_TRUE(test, ee->has_gpio_bank1);
	KUNIT_EXPECT_EQ(test, ee->gpio_flags[0], 0x14);
	KUNIT_EXPECT_EQ(test, ee->gpio_flags[1], 0x02);
	KUNIT_EXPECT_EQ(test, ee->back_power, RPI_HAT_BACK_POWER_1A3);
	KUNIT_EXPECT_EQ(test, ee->gpio[4], 0xa1);
	KUNIT_EXPECT_EQ(test, ee->gpio[18], 0xe2);
	KUNIT_EXPECT_EQ(test, ee->gpio[40], 0xc4);
	KUNIT_EXPECT_EQ(test, ee->used_pins, 3);
	/* The DT atom's data, where it lies in the caller's buffer. */
	dt = ee->dt;
	KUNIT_EXPECT_EQ(test, ee->dt_len, sizeof(test_dtbo));
	KUNIT_EXPECT_TRUE(test, dt > img->b && dt + ee->dt_len <= img->b + img->len);
	KUNIT_EXPECT_MEMEQ(test, dt, test_dtbo, sizeof(test_dtbo));
	KUNIT_EXPECT_STREQ(test, ee->overlay, "");
	KUNIT_EXPECT_EQ(test, ee->num_custom, 2);
	KUNIT_EXPECT_EQ(test, ee->num_unknown, 0);
	KUNIT_EXPECT_FALSE(test, ee->has_power);
}

static void rpi_eeprom_test_v2_fields(struct kunit *test)
{
	struct test_img *img = test_v2(test);
	struct rpi_eeprom *ee = new_ee(test);
	char why[TEST_WHY_LEN];

	KUNIT_ASSERT_EQ(test, parse(ee, img->b, img->len, why), 0);
	KUNIT_EXPECT_EQ(test, ee->version, 2);
	KUNIT_EXPECT_STREQ(test, ee->vendor, "Example Labs");
	KUNIT_EXPECT_STREQ(test, ee->product, "Test HAT+");
	KUNIT_EXPECT_STREQ(test, ee->overlay, "test-hat-plus");
	KUNIT_EXPECT_NULL(test, ee->dt);
	KUNIT_EXPECT_EQ(test, ee->dt_len, 0);
	KUNIT_EXPECT_EQ(test, ee->num_custom, 1);
	KUNIT_EXPECT_TRUE(test, ee->has_power);
	KUNIT_EXPECT_EQ(test, ee->current_supply_ma, 3000);
	KUNIT_EXPECT_EQ(test, ee->used_pins, 0);
}

/* Bytes past eeplen (the rest of the part) are not looked at. */
static void rpi_eeprom_test_trailing_bytes(struct kunit *test)
{
	struct test_img *img = test_v2(test);
	struct rpi_eeprom *ee = new_ee(test);
	char why[TEST_WHY_LEN];

	memset(img->b + img->len, 0xff, 64);
	KUNIT_EXPECT_EQ(test, parse(ee, img->b, img->len + 64, why), 0);
	KUNIT_EXPECT_EQ(test, ee->eeplen, img->len);
}

/* Without a reason buffer: the same verdicts. */
static void rpi_eeprom_test_no_why(struct kunit *test)
{
	struct test_img *img = test_v1(test);
	struct rpi_eeprom *ee = new_ee(test);

	KUNIT_EXPECT_EQ(test, rpi_eeprom_parse(ee, img->b, img->len, NULL, 0), 0);
	img->b[0] = 'X';
	KUNIT_EXPECT_EQ(test, rpi_eeprom_parse(ee, img->b, img->len, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, rpi_eeprom_parse(ee, img->b, 3, NULL, 0), -EMSGSIZE);
}

static void rpi_eeprom_test_blank(struct kunit *test)
{
	struct rpi_eeprom *ee = new_ee(test);
	u8 *b = kunit_kzalloc(test, 256, GFP_KERNEL);
	char why[TEST_WHY_LEN];

	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_EQ(test, parse(ee, b, 256, why), -ENODATA);
	KUNIT_EXPECT_STREQ(test, why, "blank EEPROM (all 0x00)");
	memset(b, 0xff, 256);
	KUNIT_EXPECT_EQ(test, parse(ee, b, 256, why), -ENODATA);
	KUNIT_EXPECT_STREQ(test, why, "blank EEPROM (all 0xff)");
	b[200] = 0;
	KUNIT_EXPECT_EQ(test, parse(ee, b, 256, why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "bad signature ff ff ff ff at offset 0 (want \"R-Pi\")");
}

static void rpi_eeprom_test_truncated(struct kunit *test)
{
	struct test_img *img = test_v2(test);
	struct rpi_eeprom *ee = new_ee(test);
	char why[TEST_WHY_LEN];

	KUNIT_EXPECT_EQ(test, parse(ee, img->b, 11, why), -EMSGSIZE);
	KUNIT_EXPECT_STREQ(test, why, "short read: 11 bytes, need 12 for the header");
	KUNIT_EXPECT_EQ(test, parse(ee, img->b, img->len - 1, why), -EMSGSIZE);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "eeplen at offset 8 says"));
}

static void rpi_eeprom_test_bad_signature(struct kunit *test)
{
	struct test_img *img = test_v1(test);

	memcpy(img->b, "R-PI", 4);
	expect_refused(test, img, -EINVAL, "bad signature 52 2d 50 49 at offset 0");
}

static void rpi_eeprom_test_bad_version(struct kunit *test)
{
	static const u8 versions[] = { 0, 3, 0xff };
	struct test_img *img = test_v2(test);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(versions); i++) {
		img->b[4] = versions[i];
		expect_refused(test, img, -EINVAL, "unknown version");
	}
}

/* The reserved byte is not looked at. */
static void rpi_eeprom_test_reserved_byte(struct kunit *test)
{
	struct test_img *img = test_v2(test);
	struct rpi_eeprom *ee = new_ee(test);
	char why[TEST_WHY_LEN];

	img->b[5] = 0x5a;
	KUNIT_EXPECT_EQ(test, parse(ee, img->b, img->len, why), 0);
}

static void rpi_eeprom_test_numatoms_lies(struct kunit *test)
{
	struct test_img *img = test_v2(test);

	put_unaligned_le16(0, img->b + 6);
	expect_refused(test, img, -EINVAL, "numatoms 0 at offset 6");
	/* More than eeplen could ever hold. */
	put_unaligned_le16(0xffff, img->b + 6);
	expect_refused(test, img, -EINVAL, "more than eeplen");
	/* One more than there are: the walk runs out of bytes. */
	put_unaligned_le16(img->atoms + 1, img->b + 6);
	expect_refused(test, img, -EINVAL, "atom 4 at offset");
	/* One fewer: bytes left over. */
	put_unaligned_le16(img->atoms - 1, img->b + 6);
	expect_refused(test, img, -EINVAL, "numatoms and eeplen disagree");
}

static void rpi_eeprom_test_eeplen_lies(struct kunit *test)
{
	struct test_img *img = test_v2(test);
	struct rpi_eeprom *ee = new_ee(test);
	char why[TEST_WHY_LEN];
	size_t len = img->len;

	put_unaligned_le32(0, img->b + 8);
	expect_refused(test, img, -EINVAL, "eeplen 0 at offset 8");
	put_unaligned_le32(21, img->b + 8);
	expect_refused(test, img, -EINVAL, "eeplen 21 at offset 8");
	/* Longer than the buffer: a short read, whatever the buffer holds. */
	put_unaligned_le32(U32_MAX, img->b + 8);
	expect_refused(test, img, -EMSGSIZE, "says 4294967295");
	/* Shorter than the atoms: the last one runs past it. */
	put_unaligned_le32(len - 1, img->b + 8);
	expect_refused(test, img, -EINVAL, "runs past eeplen");
	/* Longer than the atoms, within the buffer: bytes left over. */
	put_unaligned_le32(len + 10, img->b + 8);
	img->len = len + 10;
	expect_refused(test, img, -EINVAL, "10 bytes of eeplen");
	KUNIT_EXPECT_EQ(test, parse(ee, img->b, len, why), -EMSGSIZE);
}

static void rpi_eeprom_test_dlen_past_end(struct kunit *test)
{
	struct test_img *img = test_v2(test);
	size_t last = img->len - 14;	/* the power atom: 4 bytes + CRC */

	put_unaligned_le32(7, img->b + last + 4);
	expect_refused(test, img, -EINVAL, "dlen 7 runs past eeplen (6 bytes left");
	put_unaligned_le32(1, img->b + last + 4);
	expect_refused(test, img, -EINVAL, "dlen 1 leaves no room for the CRC");
	put_unaligned_le32(0, img->b + last + 4);
	expect_refused(test, img, -EINVAL, "dlen 0 leaves no room");
}

/* dlen near U32_MAX: no wrap-around lets the walk go anywhere. */
static void rpi_eeprom_test_dlen_overflow(struct kunit *test)
{
	static const u32 dlens[] = {
		U32_MAX, U32_MAX - 1, U32_MAX - 7, U32_MAX - 8, U32_MAX - 11,
		U32_MAX - 12, 0x80000000, 0x7fffffff,
	};
	struct test_img *img = test_v1(test);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dlens); i++) {
		put_unaligned_le32(dlens[i], img->b + 12 + 4);
		expect_refused(test, img, -EINVAL, "atom 0 (vendor) at offset 12: dlen");
	}
	/* The last atom (bank 1), alone with a huge dlen. */
	img = test_v1(test);
	for (i = 0; i < ARRAY_SIZE(dlens); i++) {
		put_unaligned_le32(dlens[i], img->b + img->len - 30 + 4);
		expect_refused(test, img, -EINVAL, "atom 5 (GPIO map bank 1)");
	}
}

static void rpi_eeprom_test_bad_crc(struct kunit *test)
{
	struct test_img *img = test_v1(test);

	img->b[img->len - 1] ^= 0x01;	/* bank 1's CRC */
	expect_refused(test, img, -EBADMSG, "atom 5 (GPIO map bank 1) at offset");
	img->b[img->len - 1] ^= 0x01;
	img->b[12 + 8 + 22] ^= 0x20;	/* "example Labs" */
	expect_refused(test, img, -EBADMSG, "atom 0 (vendor) at offset 12: CRC mismatch");
	img->b[12 + 8 + 22] ^= 0x20;
	/* The CRC covers the atom header: change the type's high byte. */
	img->b[12 + 1] = 0x01;
	expect_refused(test, img, -EBADMSG, "CRC mismatch");
}

static void rpi_eeprom_test_count_mismatch(struct kunit *test)
{
	struct test_img *img = test_v1(test);
	size_t gpio = 12 + 8 + 22 + 12 + 8 + 2;

	put_unaligned_le16(2, img->b + gpio + 2);
	img_fix_crc(img->b, gpio);
	expect_refused(test, img, -EINVAL, "atom 1 at offset 64: count 2, expected 1");
}

/* Two atoms swapped, counts and CRCs kept right: vendor not first. */
static void rpi_eeprom_test_vendor_not_first(struct kunit *test)
{
	struct test_img *img = img_new(test, 2);

	img_atom(test, img, RPI_HAT_ATOM_DT, "x", 1);
	img_vendor(test, img, "V", "P");
	expect_refused(test, img, -EINVAL,
		       "atom 0 (device tree, type 0x0003) is not the vendor atom");

	img = img_new(test, 2);
	img_atom(test, img, RPI_HAT_ATOM_CUSTOM, "x", 1);
	img_vendor(test, img, "V", "P");
	expect_refused(test, img, -EINVAL, "atom 0 (custom, type 0x0004)");
}

static void rpi_eeprom_test_duplicates(struct kunit *test)
{
	struct test_img *img;
	u8 power[4] = { };

	img = test_v1(test);
	img_vendor(test, img, "V", "P");
	expect_refused(test, img, -EINVAL,
		       "atom 6 at offset 175: a second vendor atom (the first is atom 0)");

	img = test_v1(test);
	img_gpio(test, img);
	expect_refused(test, img, -EINVAL, "a second GPIO map atom (the first is atom 1)");

	img = test_v1(test);
	img_gpio_bank1(test, img);
	expect_refused(test, img, -EINVAL, "a second GPIO map bank 1 atom");

	img = test_v1(test);
	img_atom(test, img, RPI_HAT_ATOM_DT, test_dtbo, sizeof(test_dtbo));
	expect_refused(test, img, -EINVAL, "a second device tree atom (the first is atom 2)");

	img = test_v2(test);
	img_atom(test, img, RPI_HAT_ATOM_DT, "other", 5);
	expect_refused(test, img, -EINVAL, "a second device tree atom");

	img = test_v2(test);
	img_atom(test, img, RPI_HAT_ATOM_POWER_SUPPLY, power, 4);
	expect_refused(test, img, -EINVAL, "a second power supply atom");
}

static void rpi_eeprom_test_atoms_per_version(struct kunit *test)
{
	struct test_img *img;
	u8 power[4] = { };

	img = test_v1(test);
	img_atom(test, img, RPI_HAT_ATOM_POWER_SUPPLY, power, 4);
	expect_refused(test, img, -EINVAL, "a power supply atom in a HAT (version 1) image");

	img = test_v2(test);
	img_gpio(test, img);
	expect_refused(test, img, -EINVAL, "a GPIO map atom in a HAT+ (version 2) image");

	img = test_v2(test);
	img_gpio_bank1(test, img);
	expect_refused(test, img, -EINVAL, "a GPIO map bank 1 atom in a HAT+");

	img = img_new(test, 1);
	img_vendor(test, img, "V", "P");
	expect_refused(test, img, -EINVAL, "no GPIO map atom");
}

static void rpi_eeprom_test_atom_types(struct kunit *test)
{
	struct rpi_eeprom *ee = new_ee(test);
	char why[TEST_WHY_LEN];
	struct test_img *img;

	img = test_v2(test);
	img_atom(test, img, RPI_HAT_ATOM_INVALID, NULL, 0);
	expect_refused(test, img, -EINVAL, "atom 4 at offset 115: invalid type 0x0000");
	img = test_v2(test);
	img_atom(test, img, RPI_HAT_ATOM_INVALID_FFFF, NULL, 0);
	expect_refused(test, img, -EINVAL, "invalid type 0xffff");
	/* A later format's atom is skipped, counted. */
	img = test_v2(test);
	img_atom(test, img, 0x0007, "new", 3);
	img_atom(test, img, 0x8000, NULL, 0);
	KUNIT_EXPECT_EQ(test, parse(ee, img->b, img->len, why), 0);
	KUNIT_EXPECT_EQ(test, ee->num_unknown, 2);
	KUNIT_EXPECT_STREQ(test, rpi_eeprom_atom_name(0x0007), "unknown");
	KUNIT_EXPECT_STREQ(test, rpi_eeprom_atom_name(RPI_HAT_ATOM_GPIO_BANK1),
			   "GPIO map bank 1");
}

/* A vendor atom with raw @d of @n bytes (22 and more). */
static struct test_img *img_raw_vendor(struct kunit *test, const u8 *d,
				       size_t n)
{
	struct test_img *img = img_new(test, 2);

	img_atom(test, img, RPI_HAT_ATOM_VENDOR, d, n);
	return img;
}

static void rpi_eeprom_test_vendor_lengths(struct kunit *test)
{
	char why[TEST_WHY_LEN];
	struct test_img *img;
	u8 d[22 + 4] = { };

	expect_refused(test, img_raw_vendor(test, d, 21), -EINVAL,
		       "21 bytes of data, its fields need 22");
	d[20] = 2;
	d[21] = 2;
	memcpy(d + 22, "VVPP", 4);
	img = img_raw_vendor(test, d, 26);
	KUNIT_EXPECT_EQ(test, parse(new_ee(test), img->b, img->len, why), 0);
	/* A string length that runs past the atom: the string unterminated. */
	d[21] = 3;
	expect_refused(test, img_raw_vendor(test, d, 26), -EINVAL,
		       "26 bytes of data, but 22 + vendor_len 2 + product_len 3");
	d[20] = 255;
	d[21] = 255;
	expect_refused(test, img_raw_vendor(test, d, 26), -EINVAL,
		       "vendor_len 255 + product_len 255");
	/* Lengths shorter than the atom: bytes unaccounted for. */
	d[20] = 1;
	d[21] = 1;
	expect_refused(test, img_raw_vendor(test, d, 26), -EINVAL,
		       "vendor_len 1 + product_len 1");
}

static void rpi_eeprom_test_vendor_strings(struct kunit *test)
{
	struct rpi_eeprom *ee = new_ee(test);
	char why[TEST_WHY_LEN];
	char *longest;
	struct test_img *img;

	img = img_new(test, 2);
	img_vendor(test, img, "Ex\tample", "P");
	expect_refused(test, img, -EINVAL, "vendor string: control byte 0x09 at offset 44");
	img = img_new(test, 2);
	img_vendor(test, img, "V", "Pr\x7f");
	expect_refused(test, img, -EINVAL, "product string: control byte 0x7f at offset 45");
	img = img_new(test, 2);
	img_vendor(test, img, "V", "Caf\xc3\xa9");
	expect_refused(test, img, -EINVAL, "product string: non-ASCII byte 0xc3 at offset 46");
	/* A NUL inside the stated length, text after it. */
	img = img_new(test, 2);
	img_vendor(test, img, "VVV", "P");
	img->b[12 + 8 + 22 + 1] = 0;
	img_fix_crc(img->b, 12);
	expect_refused(test, img, -EINVAL, "vendor string: control byte 0x00 at offset 43");
	/* NULs and line ends at the end are dropped, as eepmake's writers add them. */
	img = img_new(test, 2);
	img_vendor(test, img, "Example Labs\r\n", "Sense HAT\0\0");
	KUNIT_EXPECT_EQ(test, parse(ee, img->b, img->len, why), 0);
	KUNIT_EXPECT_STREQ(test, ee->vendor, "Example Labs");
	KUNIT_EXPECT_STREQ(test, ee->product, "Sense HAT");
	img = img_new(test, 2);
	img_vendor(test, img, "V\nV", "P");
	expect_refused(test, img, -EINVAL, "vendor string: control byte 0x0a at offset 43");

	/* Empty strings, and the longest: 255 bytes, terminated. */
	img = img_new(test, 2);
	img_vendor(test, img, "", "");
	KUNIT_EXPECT_EQ(test, parse(ee, img->b, img->len, why), 0);
	KUNIT_EXPECT_STREQ(test, ee->vendor, "");
	longest = kunit_kzalloc(test, 256, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, longest);
	memset(longest, 'v', 255);
	img = img_new(test, 2);
	img_vendor(test, img, longest, longest);
	KUNIT_EXPECT_EQ(test, parse(ee, img->b, img->len, why), 0);
	KUNIT_EXPECT_EQ(test, strlen(ee->vendor), 255);
	KUNIT_EXPECT_STREQ(test, ee->product, longest);
}

static void rpi_eeprom_test_overlay_name(struct kunit *test)
{
	static const struct {
		const char *name;
		const char *why;
	} bad[] = {
		{ "", "empty overlay name" },
		{ "-hat", "begins with 0x2d at offset 52" },
		{ "h\nat", "overlay name: control byte 0x0a at offset 53" },
		{ "\n", "empty overlay name" },
		{ "\0", "empty overlay name" },
		{ "hat\xff", "non-ASCII byte 0xff" },
		{ "../../x", "begins with 0x2e" },
		{ "a/b", "'/' at offset 53" },
	};
	struct rpi_eeprom *ee = new_ee(test);
	char why[TEST_WHY_LEN];
	struct test_img *img;
	char *name;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		img = img_new(test, 2);
		img_vendor(test, img, "", "");
		img_atom(test, img, RPI_HAT_ATOM_DT, bad[i].name, strlen(bad[i].name));
		expect_refused(test, img, -EINVAL, bad[i].why);
	}
	/* A NUL in the name. */
	img = img_new(test, 2);
	img_vendor(test, img, "", "");
	img_atom(test, img, RPI_HAT_ATOM_DT, "h\0at", 4);
	expect_refused(test, img, -EINVAL, "control byte 0x00");
	/*
	 * eepmake's multi-line dt_blob keeps the line end; a NUL ends a C
	 * string: the name is the same.
	 */
	img = img_new(test, 2);
	img_vendor(test, img, "", "");
	img_atom(test, img, RPI_HAT_ATOM_DT, "hat\n", 4);
	KUNIT_EXPECT_EQ(test, parse(ee, img->b, img->len, why), 0);
	KUNIT_EXPECT_STREQ(test, ee->overlay, "hat");
	img = img_new(test, 2);
	img_vendor(test, img, "", "");
	img_atom(test, img, RPI_HAT_ATOM_DT, "hat\0", 4);
	KUNIT_EXPECT_EQ(test, parse(ee, img->b, img->len, why), 0);
	KUNIT_EXPECT_STREQ(test, ee->overlay, "hat");

	name = kunit_kzalloc(test, RPI_EEPROM_OVERLAY_MAX + 2, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, name);
	memset(name, 'o', RPI_EEPROM_OVERLAY_MAX + 1);
	img = img_new(test, 2);
	img_vendor(test, img, "", "");
	img_atom(test, img, RPI_HAT_ATOM_DT, name, RPI_EEPROM_OVERLAY_MAX + 1);
	expect_refused(test, img, -EINVAL, "overlay name of 251 bytes, longer than 250");
	name[RPI_EEPROM_OVERLAY_MAX] = '\0';
	img = img_new(test, 2);
	img_vendor(test, img, "", "");
	img_atom(test, img, RPI_HAT_ATOM_DT, name, RPI_EEPROM_OVERLAY_MAX);
	KUNIT_EXPECT_EQ(test, parse(ee, img->b, img->len, why), 0);
	KUNIT_EXPECT_STREQ(test, ee->overlay, name);
}

static void rpi_eeprom_test_v1_dt_empty(struct kunit *test)
{
	struct test_img *img = img_new(test, 1);

	img_vendor(test, img, "", "");
	img_gpio(test, img);
	img_atom(test, img, RPI_HAT_ATOM_DT, NULL, 0);
	expect_refused(test, img, -EINVAL, "device tree atom at offset 84: empty");
}

static void rpi_eeprom_test_gpio_map(struct kunit *test)
{
	static const struct {
		unsigned int at;	/* byte of the map's data */
		u8 value;
		const char *why;
	} bad[] = {
		{ 0, 0x09, "reserved drive, slew or hysteresis in flags 0x09" },
		{ 0, 0x30, "flags 0x30" },
		{ 0, 0xc0, "flags 0xc0" },
		{ 1, 3, "back power 3 at offset 53" },
		{ 2 + 0, 0x80, "GPIO0 is the ID EEPROM's bus" },
		{ 2 + 1, 0x84, "GPIO1 is the ID EEPROM's bus" },
		{ 2 + 27, 0x88, "GPIO27: reserved bits set in 0x88 at offset 81" },
		{ 2 + 5, 0x90, "GPIO5: reserved bits set in 0x90" },
	};
	struct rpi_eeprom *ee = new_ee(test);
	char why[TEST_WHY_LEN];
	struct test_img *img;
	size_t gpio;
	u8 d[30] = { };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		img = img_new(test, 1);
		img_vendor(test, img, "", "");
		gpio = img_gpio(test, img);
		img->b[gpio + 8 + bad[i].at] = bad[i].value;
		img_fix_crc(img->b, gpio);
		expect_refused(test, img, -EINVAL, bad[i].why);
	}
	/* Reserved bits of an unused pin, GPIO0/1 unused: not looked at. */
	img = img_new(test, 1);
	img_vendor(test, img, "", "");
	d[0] = 0xa8;	/* drive 8, slew 2, hysteresis 2 */
	d[1] = RPI_HAT_BACK_POWER_2A;
	d[2] = 0x7f;
	d[2 + 26] = 0x18;
	img_atom(test, img, RPI_HAT_ATOM_GPIO, d, sizeof(d));
	KUNIT_EXPECT_EQ(test, parse(ee, img->b, img->len, why), 0);
	KUNIT_EXPECT_EQ(test, ee->used_pins, 0);
	KUNIT_EXPECT_EQ(test, ee->back_power, RPI_HAT_BACK_POWER_2A);

	/* Wrong sizes. */
	img = img_new(test, 1);
	img_vendor(test, img, "", "");
	img_atom(test, img, RPI_HAT_ATOM_GPIO, d, 29);
	expect_refused(test, img, -EINVAL, "GPIO map atom at offset 44: 29 bytes of data, not 30");
	img = img_new(test, 1);
	img_vendor(test, img, "", "");
	img_gpio(test, img);
	img_atom(test, img, RPI_HAT_ATOM_GPIO_BANK1, d, 30);
	expect_refused(test, img, -EINVAL,
		       "GPIO map bank 1 atom at offset 84: 30 bytes of data, not 20");
	/* Bank 1 has no ID-bus pins, and its power byte is not looked at. */
	img = img_new(test, 1);
	img_vendor(test, img, "", "");
	img_gpio(test, img);
	memset(d, 0, sizeof(d));
	d[1] = 0xff;
	d[2] = 0x80;
	img_atom(test, img, RPI_HAT_ATOM_GPIO_BANK1, d, 20);
	KUNIT_EXPECT_EQ(test, parse(ee, img->b, img->len, why), 0);
	KUNIT_EXPECT_EQ(test, ee->gpio[28], 0x80);
	KUNIT_EXPECT_EQ(test, ee->back_power, RPI_HAT_BACK_POWER_1A3);
}

static void rpi_eeprom_test_power_size(struct kunit *test)
{
	struct test_img *img = img_new(test, 2);

	img_vendor(test, img, "", "");
	img_atom(test, img, RPI_HAT_ATOM_POWER_SUPPLY, "\x88\x13\x00", 3);
	expect_refused(test, img, -EINVAL,
		       "power supply atom at offset 44: 3 bytes of data, not 4");
}

/*
 * Every prefix of a valid image, each placed at the very end of a vmalloc
 * page so that reading one byte past it faults on the guard page: shorter
 * than eeplen is a short read, whatever the bytes.  Then the whole image
 * with its eeplen cut to each length (numatoms kept): refused, no fault.
 */
static void prefixes(struct kunit *test, const u8 *img, size_t size)
{
	struct rpi_eeprom *ee = new_ee(test);
	u8 *page = vmalloc(PAGE_SIZE);
	char why[TEST_WHY_LEN];
	unsigned int fails = 0;
	size_t len;

	KUNIT_ASSERT_NOT_NULL(test, page);
	for (len = 0; len < size; len++) {
		u8 *p = page + PAGE_SIZE - len;

		memcpy(p, img, len);
		if (parse(ee, p, len, why) != -EMSGSIZE)
			fails++;
	}
	KUNIT_EXPECT_EQ(test, fails, 0);
	for (len = 12; len < size; len++) {
		u8 *p = page + PAGE_SIZE - len;

		memcpy(p, img, len);
		put_unaligned_le32(len, p + 8);
		if (!parse(ee, p, len, why) || ee->dt)
			fails++;
	}
	KUNIT_EXPECT_EQ(test, fails, 0);
	memcpy(page + PAGE_SIZE - size, img, size);
	KUNIT_EXPECT_EQ(test, parse(ee, page + PAGE_SIZE - size, size, why), 0);
	vfree(page);
}

static void rpi_eeprom_test_prefixes_v1(struct kunit *test)
{
	struct test_img *img = test_v1(test);

	prefixes(test, img->b, img->len);
	prefixes(test, fixture_v1_minimal, sizeof(fixture_v1_minimal));
}

static void rpi_eeprom_test_prefixes_v2(struct kunit *test)
{
	struct test_img *img = test_v2(test);

	prefixes(test, img->b, img->len);
	prefixes(test, fixture_v2_power, sizeof(fixture_v2_power));
}

static struct kunit_case rpi_eeprom_test_cases[] = {
	KUNIT_CASE(rpi_eeprom_test_crc16),
	KUNIT_CASE(rpi_eeprom_test_eepmake_v1),
	KUNIT_CASE(rpi_eeprom_test_eepmake_v2),
	KUNIT_CASE(rpi_eeprom_test_v1_fields),
	KUNIT_CASE(rpi_eeprom_test_v2_fields),
	KUNIT_CASE(rpi_eeprom_test_trailing_bytes),
	KUNIT_CASE(rpi_eeprom_test_no_why),
	KUNIT_CASE(rpi_eeprom_test_blank),
	KUNIT_CASE(rpi_eeprom_test_truncated),
	KUNIT_CASE(rpi_eeprom_test_bad_signature),
	KUNIT_CASE(rpi_eeprom_test_bad_version),
	KUNIT_CASE(rpi_eeprom_test_reserved_byte),
	KUNIT_CASE(rpi_eeprom_test_numatoms_lies),
	KUNIT_CASE(rpi_eeprom_test_eeplen_lies),
	KUNIT_CASE(rpi_eeprom_test_dlen_past_end),
	KUNIT_CASE(rpi_eeprom_test_dlen_overflow),
	KUNIT_CASE(rpi_eeprom_test_bad_crc),
	KUNIT_CASE(rpi_eeprom_test_count_mismatch),
	KUNIT_CASE(rpi_eeprom_test_vendor_not_first),
	KUNIT_CASE(rpi_eeprom_test_duplicates),
	KUNIT_CASE(rpi_eeprom_test_atoms_per_version),
	KUNIT_CASE(rpi_eeprom_test_atom_types),
	KUNIT_CASE(rpi_eeprom_test_vendor_lengths),
	KUNIT_CASE(rpi_eeprom_test_vendor_strings),
	KUNIT_CASE(rpi_eeprom_test_overlay_name),
	KUNIT_CASE(rpi_eeprom_test_v1_dt_empty),
	KUNIT_CASE(rpi_eeprom_test_gpio_map),
	KUNIT_CASE(rpi_eeprom_test_power_size),
	KUNIT_CASE(rpi_eeprom_test_prefixes_v1),
	KUNIT_CASE(rpi_eeprom_test_prefixes_v2),
	{}
};

static struct kunit_suite rpi_eeprom_test_suite = {
	.name = "capebus-rpi-eeprom",
	.test_cases = rpi_eeprom_test_cases,
};

kunit_test_suite(rpi_eeprom_test_suite);

MODULE_DESCRIPTION("KUnit tests for the capebus Raspberry Pi HAT EEPROM parser");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
