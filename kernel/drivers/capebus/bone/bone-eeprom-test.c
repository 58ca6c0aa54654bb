// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the capebus cape EEPROM parser and extension records.
 */

#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <linux/vmalloc.h>

#include "bone.h"

/* Room for the standard area, an extension header and some records. */
#define TEST_IMAGE_SIZE		512
#define TEST_WHY_LEN		160

/* Offsets from the SRM tables, spelled out (not taken from the header). */
#define OFF_REVISION		4
#define OFF_BOARD_NAME		6
#define OFF_VERSION		38
#define OFF_MANUFACTURER	42
#define OFF_PART_NUMBER		58
#define OFF_NUM_PINS		74
#define OFF_SERIAL		76
#define OFF_PINS		88
#define OFF_A1_POWER		236
#define OFF_A0_POWER		228

/* P9.19 (index 9): used, bidir, slow, rx, pull-up, pull enabled, mode 3. */
#define WORD_P9_19		0xe073
/* P9.20 (index 10): used, output, fast, pull disabled, mode 2. */
#define WORD_P9_20		0xc00a

static void put_text(u8 *b, size_t offset, size_t size, const char *s)
{
	memset(b + offset, 0, size);
	memcpy(b + offset, s, min(strlen(s), size));
}

/* A valid cape EEPROM image of @rev, with distinct values in each field. */
static u8 *test_image(struct kunit *test, const char *rev)
{
	u8 *b = kunit_kzalloc(test, TEST_IMAGE_SIZE, GFP_KERNEL);
	size_t power = strcmp(rev, "A0") ? OFF_A1_POWER : OFF_A0_POWER;

	KUNIT_ASSERT_NOT_NULL(test, b);
	put_unaligned_be32(0xaa5533ee, b);
	memcpy(b + OFF_REVISION, rev, 2);
	put_text(b, OFF_BOARD_NAME, 32, "BB-WTHR-01 Weather Cape");
	put_text(b, OFF_VERSION, 4, "00A0");
	put_text(b, OFF_MANUFACTURER, 16, "Example Corp");
	put_text(b, OFF_PART_NUMBER, 16, "BB-WTHR-01");
	put_unaligned_be16(2, b + OFF_NUM_PINS);
	put_text(b, OFF_SERIAL, 12, "4925EXMP0001");
	put_unaligned_be16(WORD_P9_19, b + OFF_PINS + 2 * 9);
	put_unaligned_be16(WORD_P9_20, b + OFF_PINS + 2 * 10);
	put_unaligned_be16(150, b + power);
	put_unaligned_be16(1500, b + power + 2);
	put_unaligned_be16(40, b + power + 4);
	put_unaligned_be16(7, b + power + 6);
	return b;
}

static int parse(struct kunit *test, struct cape_eeprom *ee, const u8 *b,
		 size_t len, char *why)
{
	return cape_eeprom_parse(ee, b, len, why, TEST_WHY_LEN);
}

static void cape_eeprom_test_a1_fields(struct kunit *test)
{
	u8 *b = test_image(test, "A1");
	struct cape_eeprom ee;
	char why[TEST_WHY_LEN];

	KUNIT_ASSERT_EQ(test, parse(test, &ee, b, CAPE_EEPROM_READ_SIZE, why), 0);
	KUNIT_EXPECT_STREQ(test, why, "");
	KUNIT_EXPECT_EQ(test, ee.format, CAPE_EEPROM_FORMAT_A1);
	KUNIT_EXPECT_STREQ(test, ee.board_name, "BB-WTHR-01 Weather Cape");
	KUNIT_EXPECT_STREQ(test, ee.version, "00A0");
	KUNIT_EXPECT_STREQ(test, ee.manufacturer, "Example Corp");
	KUNIT_EXPECT_STREQ(test, ee.part_number, "BB-WTHR-01");
	KUNIT_EXPECT_STREQ(test, ee.serial, "4925EXMP0001");
	KUNIT_EXPECT_EQ(test, ee.num_pins, 2);
	KUNIT_EXPECT_EQ(test, ee.used_pins, 2);
	KUNIT_EXPECT_EQ(test, ee.num_pin_words, 74);
	KUNIT_EXPECT_EQ(test, ee.pins[9], WORD_P9_19);
	KUNIT_EXPECT_EQ(test, ee.pins[10], WORD_P9_20);
	KUNIT_EXPECT_EQ(test, ee.pins[0], 0);
	KUNIT_EXPECT_EQ(test, ee.current_ma[BONE_RAIL_VDD_3V3B], 150);
	KUNIT_EXPECT_EQ(test, ee.current_ma[BONE_RAIL_VDD_5V], 1500);
	KUNIT_EXPECT_EQ(test, ee.current_ma[BONE_RAIL_SYS_5V], 40);
	KUNIT_EXPECT_EQ(test, ee.dc_supplied_ma, 7);
	KUNIT_EXPECT_EQ(test, ee.ext_offset, 244);
}

static void cape_eeprom_test_a0_fields(struct kunit *test)
{
	u8 *b = test_image(test, "A0");
	struct cape_eeprom ee;
	char why[TEST_WHY_LEN];

	KUNIT_ASSERT_EQ(test, parse(test, &ee, b, CAPE_EEPROM_READ_SIZE, why), 0);
	KUNIT_EXPECT_EQ(test, ee.format, CAPE_EEPROM_FORMAT_A0);
	KUNIT_EXPECT_STREQ(test, ee.part_number, "BB-WTHR-01");
	KUNIT_EXPECT_EQ(test, ee.num_pin_words, 70);
	KUNIT_EXPECT_EQ(test, ee.pins[9], WORD_P9_19);
	KUNIT_EXPECT_EQ(test, ee.current_ma[BONE_RAIL_VDD_3V3B], 150);
	KUNIT_EXPECT_EQ(test, ee.current_ma[BONE_RAIL_VDD_5V], 1500);
	KUNIT_EXPECT_EQ(test, ee.current_ma[BONE_RAIL_SYS_5V], 40);
	KUNIT_EXPECT_EQ(test, ee.dc_supplied_ma, 7);
	KUNIT_EXPECT_EQ(test, ee.ext_offset, 236);
}

/* The RFC's bug: A0 offsets for an A1 EEPROM.  Bytes 228-235 are pins. */
static void cape_eeprom_test_a1_power_not_at_a0_offsets(struct kunit *test)
{
	u8 *b = test_image(test, "A1");
	struct cape_eeprom ee;
	char why[TEST_WHY_LEN];

	/* AIN3 (index 70, bytes 228-229) used: only bit 15 matters. */
	put_unaligned_be16(0x8000, b + OFF_A0_POWER);
	KUNIT_ASSERT_EQ(test, parse(test, &ee, b, CAPE_EEPROM_READ_SIZE, why), 0);
	KUNIT_EXPECT_EQ(test, ee.pins[70], 0x8000);
	KUNIT_EXPECT_EQ(test, ee.current_ma[BONE_RAIL_VDD_3V3B], 150);
}

/* ... and the A0 layout's power words are not read as A1 pin words. */
static void cape_eeprom_test_a0_power_not_pins(struct kunit *test)
{
	u8 *b = test_image(test, "A0");
	struct cape_eeprom ee;
	char why[TEST_WHY_LEN];

	KUNIT_ASSERT_EQ(test, parse(test, &ee, b, CAPE_EEPROM_READ_SIZE, why), 0);
	KUNIT_EXPECT_EQ(test, ee.pins[70], 0);
	KUNIT_EXPECT_EQ(test, ee.pins[73], 0);
}

/* The SRM's own example, and the RFC's AND-for-OR little-endian bug. */
static void cape_eeprom_test_big_endian(struct kunit *test)
{
	u8 *b = test_image(test, "A1");
	struct cape_eeprom ee;
	char why[TEST_WHY_LEN];

	b[OFF_A1_POWER] = 0x05;
	b[OFF_A1_POWER + 1] = 0xdc;
	b[OFF_NUM_PINS] = 0x01;
	b[OFF_NUM_PINS + 1] = 0x02;
	KUNIT_ASSERT_EQ(test, parse(test, &ee, b, CAPE_EEPROM_READ_SIZE, why), 0);
	KUNIT_EXPECT_EQ(test, ee.current_ma[BONE_RAIL_VDD_3V3B], 1500);
	KUNIT_EXPECT_EQ(test, ee.num_pins, 0x0102);
}

static void cape_eeprom_test_blank(struct kunit *test)
{
	u8 *b = kunit_kzalloc(test, CAPE_EEPROM_READ_SIZE, GFP_KERNEL);
	const u8 fills[] = { 0xff, 0x00 };
	struct cape_eeprom ee;
	char why[TEST_WHY_LEN];
	int i;

	KUNIT_ASSERT_NOT_NULL(test, b);
	for (i = 0; i < ARRAY_SIZE(fills); i++) {
		memset(b, fills[i], CAPE_EEPROM_READ_SIZE);
		KUNIT_EXPECT_EQ(test, parse(test, &ee, b, CAPE_EEPROM_READ_SIZE, why),
				-ENODATA);
		KUNIT_EXPECT_STRNEQ(test, why, "");
		KUNIT_EXPECT_NOT_NULL(test, strstr(why, "blank EEPROM"));
	}
}

/* Blank only in the free area or in the magic is not a blank part. */
static void cape_eeprom_test_mostly_blank(struct kunit *test)
{
	u8 *b = kunit_kzalloc(test, CAPE_EEPROM_READ_SIZE, GFP_KERNEL);
	struct cape_eeprom ee;
	char why[TEST_WHY_LEN];

	KUNIT_ASSERT_NOT_NULL(test, b);
	memset(b, 0xff, CAPE_EEPROM_READ_SIZE);
	b[100] = 0;
	KUNIT_EXPECT_EQ(test, parse(test, &ee, b, CAPE_EEPROM_READ_SIZE, why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "bad magic ff ff ff ff at offset 0");
}

static void cape_eeprom_test_bad_magic(struct kunit *test)
{
	u8 *b = test_image(test, "A1");
	struct cape_eeprom ee;
	char why[TEST_WHY_LEN];

	put_unaligned_be32(0x12345678, b);
	KUNIT_EXPECT_EQ(test, parse(test, &ee, b, CAPE_EEPROM_READ_SIZE, why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "bad magic 12 34 56 78 at offset 0");
}

/* The magic is big-endian: the little-endian spelling is wrong. */
static void cape_eeprom_test_magic_byte_order(struct kunit *test)
{
	u8 *b = test_image(test, "A1");
	struct cape_eeprom ee;
	char why[TEST_WHY_LEN];

	put_unaligned_le32(0xaa5533ee, b);
	KUNIT_EXPECT_EQ(test, parse(test, &ee, b, CAPE_EEPROM_READ_SIZE, why), -EINVAL);
}

static const char *const bad_revisions[] = { "A2", "a1", "B1", "1A" };

static void revision_desc(const char *const *rev, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "revision %s", *rev);
}

KUNIT_ARRAY_PARAM(bad_revision, bad_revisions, revision_desc);

static void cape_eeprom_test_bad_revision(struct kunit *test)
{
	const char *const *rev = test->param_value;
	u8 *b = test_image(test, *rev);
	struct cape_eeprom ee;
	char why[TEST_WHY_LEN], want[TEST_WHY_LEN];

	snprintf(want, sizeof(want), "unknown revision %02x %02x at offset 4",
		 (*rev)[0], (*rev)[1]);
	KUNIT_EXPECT_EQ(test, parse(test, &ee, b, CAPE_EEPROM_READ_SIZE, why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, want);
}

struct text_case {
	const char *name;
	size_t offset;			/* field offset */
	size_t size;			/* field size */
	const char *bytes;		/* field content, @len bytes */
	size_t len;
	int ret;
	const char *want;		/* decoded field, or the reason */
};

#define TEXT_CASE(_name, _off, _size, _bytes, _ret, _want) {		\
	.name = _name, .offset = _off, .size = _size, .bytes = _bytes,	\
	.len = sizeof(_bytes) - 1, .ret = _ret, .want = _want }

static const struct text_case text_cases[] = {
	TEXT_CASE("board name full length, unterminated", OFF_BOARD_NAME, 32,
		  "0123456789abcdef0123456789ABCDEF", 0,
		  "0123456789abcdef0123456789ABCDEF"),
	TEXT_CASE("serial full length, unterminated", OFF_SERIAL, 12,
		  "4925EXMP0001", 0, "4925EXMP0001"),
	TEXT_CASE("'.' padding stripped", OFF_BOARD_NAME, 32,
		  "BB-X....", 0, "BB-X"),
	TEXT_CASE("0xff padding stripped", OFF_MANUFACTURER, 16,
		  "Acme\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 0,
		  "Acme"),
	TEXT_CASE("NUL padding stripped", OFF_PART_NUMBER, 16,
		  "BB-X\0\0\0", 0, "BB-X"),
	TEXT_CASE("mixed padding stripped", OFF_BOARD_NAME, 32,
		  "BB-X.\0\xff.\0", 0, "BB-X"),
	TEXT_CASE("spaces kept", OFF_BOARD_NAME, 32,
		  " A  B  ", 0, " A  B  "),
	TEXT_CASE("non-ASCII byte", OFF_BOARD_NAME, 32,
		  "Caf\xc3\xa9", -EINVAL,
		  "board name: non-ASCII byte 0xc3 at offset 9"),
	TEXT_CASE("control byte", OFF_MANUFACTURER, 16,
		  "Ac\x07me", -EINVAL,
		  "manufacturer: control byte 0x07 at offset 44"),
	TEXT_CASE("DEL byte", OFF_SERIAL, 12,
		  "49\x7f", -EINVAL, "serial: control byte 0x7f at offset 78"),
	TEXT_CASE("NUL before text", OFF_BOARD_NAME, 32,
		  "AB\0CD", -EINVAL,
		  "board name: control byte 0x00 at offset 8"),
	TEXT_CASE("newline", OFF_VERSION, 4,
		  "00A\n", -EINVAL, "version: control byte 0x0a at offset 41"),
	TEXT_CASE("empty board name allowed", OFF_BOARD_NAME, 32,
		  "...", 0, ""),
	TEXT_CASE("empty version", OFF_VERSION, 4,
		  "\0\0\0\0", -EINVAL, "version: empty at offset 38"),
	TEXT_CASE("empty part number", OFF_PART_NUMBER, 16,
		  "\xff\xff", -EINVAL, "part number: empty at offset 58"),
	TEXT_CASE("'/' in part number", OFF_PART_NUMBER, 16,
		  "../../x", -EINVAL,
		  "part number: '/' at offset 60 (it names a firmware file)"),
	TEXT_CASE("'/' in version", OFF_VERSION, 4,
		  "0/A0", -EINVAL,
		  "version: '/' at offset 39 (it names a firmware file)"),
	TEXT_CASE("empty manufacturer allowed", OFF_MANUFACTURER, 16,
		  "", 0, ""),
};

static void text_case_desc(const struct text_case *t, char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(text, text_cases, text_case_desc);

static const char *text_field(struct cape_eeprom *ee, size_t offset)
{
	switch (offset) {
	case OFF_BOARD_NAME:
		return ee->board_name;
	case OFF_VERSION:
		return ee->version;
	case OFF_MANUFACTURER:
		return ee->manufacturer;
	case OFF_PART_NUMBER:
		return ee->part_number;
	default:
		return ee->serial;
	}
}

static void cape_eeprom_test_text(struct kunit *test)
{
	const struct text_case *t = test->param_value;
	u8 *b = test_image(test, "A1");
	struct cape_eeprom ee;
	char why[TEST_WHY_LEN];
	int ret;

	memset(b + t->offset, 0, t->size);
	memcpy(b + t->offset, t->bytes, t->len);
	ret = parse(test, &ee, b, CAPE_EEPROM_READ_SIZE, why);
	KUNIT_ASSERT_EQ(test, ret, t->ret);
	if (ret)
		KUNIT_EXPECT_STREQ(test, why, t->want);
	else
		KUNIT_EXPECT_STREQ(test, text_field(&ee, t->offset), t->want);
}

struct pin_case {
	const char *name;
	unsigned int index;
	u16 word;
	int ret;
	const char *why;
};

static const struct pin_case pin_cases[] = {
	{ "reserved bit 7", 9, 0xe0f3, -EINVAL,
	  "pin P9.19: reserved bits 0x0080 set in word 0xe0f3 at offset 106" },
	{ "reserved bit 12", 0, 0xb000, -EINVAL,
	  "pin P9.22: reserved bits 0x1000 set in word 0xb000 at offset 88" },
	{ "used without direction", 1, 0x8007, 0, "" },
	{ "unused word with stray bits", 2, 0x7fff, 0, "" },
	{ "analog input: only bit 15 counts", 67, 0x9fff, 0, "" },
	{ "last analog input used", 73, 0x8000, 0, "" },
};

static void pin_case_desc(const struct pin_case *t, char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pin, pin_cases, pin_case_desc);

static void cape_eeprom_test_pin_word(struct kunit *test)
{
	const struct pin_case *t = test->param_value;
	u8 *b = test_image(test, "A1");
	struct cape_eeprom ee;
	char why[TEST_WHY_LEN];
	int ret;

	put_unaligned_be16(t->word, b + OFF_PINS + 2 * t->index);
	ret = parse(test, &ee, b, CAPE_EEPROM_READ_SIZE, why);
	KUNIT_EXPECT_EQ(test, ret, t->ret);
	KUNIT_EXPECT_STREQ(test, why, t->why);
	if (!ret)
		KUNIT_EXPECT_EQ(test, ee.pins[t->index], t->word);
}

/* The stated number of pins is reported, not enforced. */
static void cape_eeprom_test_num_pins_disagrees(struct kunit *test)
{
	u8 *b = test_image(test, "A1");
	struct cape_eeprom ee;
	char why[TEST_WHY_LEN];

	put_unaligned_be16(5, b + OFF_NUM_PINS);
	KUNIT_ASSERT_EQ(test, parse(test, &ee, b, CAPE_EEPROM_READ_SIZE, why), 0);
	KUNIT_EXPECT_EQ(test, ee.num_pins, 5);
	KUNIT_EXPECT_EQ(test, ee.used_pins, 2);
}

/*
 * Every length short of the layout fails with -EMSGSIZE, and the data sits
 * at the very end of a vmalloc page so that reading one byte past @len
 * faults on the guard page.
 */
static void short_reads(struct kunit *test, const char *rev, size_t size)
{
	u8 *img = test_image(test, rev);
	u8 *page = vmalloc(PAGE_SIZE);
	struct cape_eeprom ee;
	char why[TEST_WHY_LEN];
	size_t len;
	int fails = 0;

	KUNIT_ASSERT_NOT_NULL(test, page);
	for (len = 0; len < size; len++) {
		u8 *p = page + PAGE_SIZE - len;

		memcpy(p, img, len);
		if (parse(test, &ee, p, len, why) != -EMSGSIZE)
			fails++;
	}
	KUNIT_EXPECT_EQ(test, fails, 0);
	memcpy(page + PAGE_SIZE - size, img, size);
	KUNIT_EXPECT_EQ(test, parse(test, &ee, page + PAGE_SIZE - size, size, why), 0);
	vfree(page);
}

static void cape_eeprom_test_short_a1(struct kunit *test)
{
	short_reads(test, "A1", 244);
}

static void cape_eeprom_test_short_a0(struct kunit *test)
{
	short_reads(test, "A0", 236);
}

static void cape_eeprom_test_short_reason(struct kunit *test)
{
	u8 *b = test_image(test, "A1");
	struct cape_eeprom ee;
	char why[TEST_WHY_LEN];

	KUNIT_EXPECT_EQ(test, parse(test, &ee, b, 240, why), -EMSGSIZE);
	KUNIT_EXPECT_STREQ(test, why, "short read: 240 bytes, an A1 EEPROM needs 244");
}

/* A @why too small for the reason is truncated, still terminated. */
static void cape_eeprom_test_small_why(struct kunit *test)
{
	u8 *b = test_image(test, "A1");
	struct cape_eeprom ee;
	char why[8];

	put_unaligned_be32(0x12345678, b);
	KUNIT_EXPECT_EQ(test, cape_eeprom_parse(&ee, b, CAPE_EEPROM_READ_SIZE,
						why, sizeof(why)), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "bad mag");
	KUNIT_EXPECT_EQ(test, cape_eeprom_parse(&ee, b, CAPE_EEPROM_READ_SIZE,
						NULL, 0), -EINVAL);
}

struct format_case {
	unsigned int index;
	u16 word;
	const char *want;
};

static const struct format_case format_cases[] = {
	{ 9, 0xe073, "P9.19 mode3 bidir pull-up rx slow" },
	{ 10, 0xc00a, "P9.20 mode2 out no-pull fast" },
	{ 0, 0xa027, "P9.22 mode7 in pull-down rx fast" },
	{ 41, 0xc047, "P8.7 mode7 out pull-down slow" },
	{ 26, 0xe018, "P8.3 mode0 bidir no-pull fast" },
	{ 3, 0x8000, "P9.17 mode0 none pull-down fast" },
	{ 67, 0x8000, "P9.39" },
	{ 73, 0xffff, "P9.35" },
};

static void format_case_desc(const struct format_case *t, char *desc)
{
	strscpy(desc, t->want, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(format, format_cases, format_case_desc);

static void cape_eeprom_test_pin_format(struct kunit *test)
{
	const struct format_case *t = test->param_value;
	char buf[64];

	KUNIT_EXPECT_EQ(test, cape_pin_word_format(buf, sizeof(buf), t->index,
						   t->word),
			(int)strlen(t->want));
	KUNIT_EXPECT_STREQ(test, buf, t->want);
}

static void cape_eeprom_test_pin_format_limits(struct kunit *test)
{
	char buf[6];

	KUNIT_EXPECT_EQ(test, cape_pin_word_format(buf, sizeof(buf), 74, 0x8000),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, cape_pin_word_format(buf, sizeof(buf), 9, 0xe073),
			33);
	KUNIT_EXPECT_STREQ(test, buf, "P9.19");
	KUNIT_EXPECT_EQ(test, cape_pin_word_format(NULL, 0, 9, 0xe073), 33);
}

static int bone_pin_index(const char *name)
{
	return capebus_header_pin_index(&bone_header, name);
}

static void cape_eeprom_test_pin_names(struct kunit *test)
{
	unsigned int i;
	int mismatches = 0;

	KUNIT_EXPECT_STREQ(test, cape_bone_pin_name(0), "P9.22");
	KUNIT_EXPECT_STREQ(test, cape_bone_pin_name(9), "P9.19");
	KUNIT_EXPECT_STREQ(test, cape_bone_pin_name(65), "P9.31");
	KUNIT_EXPECT_STREQ(test, cape_bone_pin_name(67), "P9.39");
	KUNIT_EXPECT_STREQ(test, cape_bone_pin_name(73), "P9.35");
	KUNIT_EXPECT_NULL(test, cape_bone_pin_name(74));
	KUNIT_EXPECT_STREQ(test, cape_bone_pin_signal(9), "I2C2_SCL");
	KUNIT_EXPECT_STREQ(test, cape_bone_pin_signal(67), "AIN0");
	KUNIT_EXPECT_NULL(test, cape_bone_pin_signal(74));
	/* Names to indexes: the core's lookup on the bone's header table. */
	KUNIT_EXPECT_EQ(test, bone_pin_index("P9.19"), 9);
	KUNIT_EXPECT_EQ(test, bone_pin_index("P8.3"), 26);
	KUNIT_EXPECT_EQ(test, bone_pin_index("P9.1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, bone_pin_index("p9.19"), -EINVAL);
	KUNIT_EXPECT_EQ(test, bone_pin_index(""), -EINVAL);
	for (i = 0; i < CAPE_EEPROM_A1_NUM_PINS; i++)
		if (bone_pin_index(cape_bone_pin_name(i)) != i)
			mismatches++;
	KUNIT_EXPECT_EQ(test, mismatches, 0);
}

static void cape_eeprom_test_rail_names(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, bone_rail_name(BONE_RAIL_VDD_3V3B), "vdd-3v3b");
	KUNIT_EXPECT_STREQ(test, bone_rail_name(BONE_RAIL_VDD_5V), "vdd-5v");
	KUNIT_EXPECT_STREQ(test, bone_rail_name(BONE_RAIL_SYS_5V), "sys-5v");
}

static void cape_eeprom_test_crc32_check_value(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, cape_eeprom_crc32("123456789", 9), 0xcbf43926);
}

/* Extension records. */

static const u8 test_overlay[] = {
	0xd0, 0x0d, 0xfe, 0xed, 0x00, 0x00, 0x00, 0x10,
	'n', 'o', 't', ' ', 'a', ' ', 'd', 't',
};

struct ext_image {
	u8 *b;
	size_t ext;		/* offset of the extension header */
	size_t pos;		/* end of the records written so far */
	unsigned int count;
};

static void ext_start(struct kunit *test, struct ext_image *x, const char *rev)
{
	x->b = test_image(test, rev);
	x->ext = strcmp(rev, "A0") ? 244 : 236;
	x->pos = x->ext + 8;
	x->count = 0;
}

/* Record header + payload; returns the offset of the payload. */
static size_t ext_record(struct ext_image *x, u16 type, const void *payload,
			 u32 len)
{
	size_t at = x->pos;

	put_unaligned_be16(type, x->b + at);
	put_unaligned_be16(0, x->b + at + 2);
	put_unaligned_be32(len, x->b + at + 4);
	memcpy(x->b + at + 8, payload, len);
	x->pos += 8 + len;
	x->count++;
	return at + 8;
}

static void ext_id_crc(struct ext_image *x)
{
	u8 crc[4];

	put_unaligned_be32(cape_eeprom_crc32(x->b, x->ext), crc);
	ext_record(x, CAPEBUS_EXT_ID_CRC, crc, sizeof(crc));
}

static size_t ext_overlay(struct ext_image *x)
{
	u8 payload[4 + sizeof(test_overlay)];

	put_unaligned_be32(cape_eeprom_crc32(test_overlay, sizeof(test_overlay)),
			   payload);
	memcpy(payload + 4, test_overlay, sizeof(test_overlay));
	return ext_record(x, CAPEBUS_EXT_OVERLAY, payload, sizeof(payload)) + 4;
}

/* Write the header for the records so far; returns the area's size. */
static size_t ext_finish(struct ext_image *x)
{
	put_unaligned_be32(0x43425553, x->b + x->ext);
	x->b[x->ext + 4] = 1;
	x->b[x->ext + 5] = x->count;
	put_unaligned_be16(x->pos - x->ext - 8, x->b + x->ext + 6);
	return x->pos;
}

static int ext_parse(struct kunit *test, struct ext_image *x, size_t len,
		     struct cape_eeprom_ext *ext, char *why)
{
	struct cape_eeprom ee;

	KUNIT_ASSERT_EQ(test, parse(test, &ee, x->b, len, why), 0);
	return cape_eeprom_parse_ext(&ee, x->b, len, ext, why, TEST_WHY_LEN);
}

static ssize_t ext_size(struct kunit *test, struct ext_image *x, char *why)
{
	struct cape_eeprom ee;

	KUNIT_ASSERT_EQ(test, parse(test, &ee, x->b, CAPE_EEPROM_READ_SIZE, why), 0);
	return cape_eeprom_ext_size(&ee, x->b, CAPE_EEPROM_READ_SIZE, why,
				    TEST_WHY_LEN);
}

static void cape_eeprom_test_ext_none(struct kunit *test)
{
	struct cape_eeprom_ext ext;
	struct ext_image x;
	char why[TEST_WHY_LEN];

	ext_start(test, &x, "A1");
	KUNIT_EXPECT_EQ(test, ext_size(test, &x, why), 0);
	KUNIT_EXPECT_STREQ(test, why, "");
	KUNIT_EXPECT_EQ(test, ext_parse(test, &x, CAPE_EEPROM_READ_SIZE, &ext, why), 0);
	KUNIT_EXPECT_FALSE(test, ext.has_id_crc);
	KUNIT_EXPECT_NULL(test, ext.overlay);
	KUNIT_EXPECT_EQ(test, ext.overlay_len, 0);
}

/* A bare standard area, as configfs may be given: no extension area. */
static void cape_eeprom_test_ext_bare_image(struct kunit *test)
{
	struct cape_eeprom_ext ext;
	struct ext_image x;
	char why[TEST_WHY_LEN];

	ext_start(test, &x, "A1");
	KUNIT_EXPECT_EQ(test, ext_parse(test, &x, CAPE_EEPROM_A1_SIZE, &ext, why), 0);
	KUNIT_EXPECT_NULL(test, ext.overlay);
	KUNIT_EXPECT_EQ(test, ext_parse(test, &x, CAPE_EEPROM_A1_SIZE + 1, &ext, why),
			-EMSGSIZE);
}

static void cape_eeprom_test_ext_size(struct kunit *test)
{
	struct ext_image x;
	char why[TEST_WHY_LEN];

	ext_start(test, &x, "A1");
	ext_id_crc(&x);
	ext_overlay(&x);
	ext_finish(&x);
	KUNIT_EXPECT_EQ(test, ext_size(test, &x, why), 12 + 8 + 4 + sizeof(test_overlay));
	KUNIT_EXPECT_STREQ(test, why, "");
}

static void cape_eeprom_test_ext_id_crc_good(struct kunit *test)
{
	struct cape_eeprom_ext ext;
	struct ext_image x;
	char why[TEST_WHY_LEN];

	ext_start(test, &x, "A1");
	ext_id_crc(&x);
	KUNIT_EXPECT_EQ(test, ext_parse(test, &x, ext_finish(&x), &ext, why), 0);
	KUNIT_EXPECT_TRUE(test, ext.has_id_crc);
	KUNIT_EXPECT_NULL(test, ext.overlay);
}

static void cape_eeprom_test_ext_id_crc_bad(struct kunit *test)
{
	struct cape_eeprom_ext ext;
	struct ext_image x;
	char why[TEST_WHY_LEN];
	size_t len;

	ext_start(test, &x, "A1");
	ext_id_crc(&x);
	len = ext_finish(&x);
	x.b[OFF_SERIAL] ^= 0x01;	/* '4' -> '5': still valid text */
	KUNIT_EXPECT_EQ(test, ext_parse(test, &x, len, &ext, why), -EBADMSG);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "id CRC mismatch"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "record at offset 252"));
	KUNIT_EXPECT_FALSE(test, ext.has_id_crc);
}

static void cape_eeprom_test_ext_a0_id_crc(struct kunit *test)
{
	struct cape_eeprom_ext ext;
	struct ext_image x;
	char why[TEST_WHY_LEN];

	ext_start(test, &x, "A0");
	ext_id_crc(&x);
	KUNIT_EXPECT_EQ(test, ext_parse(test, &x, ext_finish(&x), &ext, why), 0);
	KUNIT_EXPECT_TRUE(test, ext.has_id_crc);
}

static void cape_eeprom_test_ext_overlay_good(struct kunit *test)
{
	struct cape_eeprom_ext ext;
	struct ext_image x;
	char why[TEST_WHY_LEN];
	size_t blob;

	ext_start(test, &x, "A1");
	ext_id_crc(&x);
	blob = ext_overlay(&x);
	KUNIT_EXPECT_EQ(test, ext_parse(test, &x, ext_finish(&x), &ext, why), 0);
	KUNIT_EXPECT_TRUE(test, ext.has_id_crc);
	KUNIT_EXPECT_PTR_EQ(test, ext.overlay, (const void *)(x.b + blob));
	KUNIT_EXPECT_EQ(test, ext.overlay_len, sizeof(test_overlay));
	KUNIT_EXPECT_MEMEQ(test, ext.overlay, test_overlay, sizeof(test_overlay));
}

static void cape_eeprom_test_ext_overlay_bad_crc(struct kunit *test)
{
	struct cape_eeprom_ext ext;
	struct ext_image x;
	char why[TEST_WHY_LEN];
	size_t blob, len;

	ext_start(test, &x, "A1");
	blob = ext_overlay(&x);
	len = ext_finish(&x);
	x.b[blob + 3] ^= 0x80;
	KUNIT_EXPECT_EQ(test, ext_parse(test, &x, len, &ext, why), -EBADMSG);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "overlay CRC mismatch"));
	KUNIT_EXPECT_NULL(test, ext.overlay);
}

static void cape_eeprom_test_ext_overlay_too_short(struct kunit *test)
{
	struct cape_eeprom_ext ext;
	struct ext_image x;
	char why[TEST_WHY_LEN];
	u8 crc_only[4] = { };

	ext_start(test, &x, "A1");
	ext_record(&x, CAPEBUS_EXT_OVERLAY, crc_only, sizeof(crc_only));
	KUNIT_EXPECT_EQ(test, ext_parse(test, &x, ext_finish(&x), &ext, why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "extension: overlay record at offset 252: length 4 leaves no overlay");
}

static void cape_eeprom_test_ext_length_past_end(struct kunit *test)
{
	struct cape_eeprom_ext ext;
	struct ext_image x;
	char why[TEST_WHY_LEN];
	size_t len;

	ext_start(test, &x, "A1");
	ext_id_crc(&x);
	len = ext_finish(&x);
	put_unaligned_be32(5, x.b + 252 + 4);	/* record says 5, area holds 4 */
	KUNIT_EXPECT_EQ(test, ext_parse(test, &x, len, &ext, why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "extension: record 0 (type 1) at offset 252: length 5 runs past the end of the area at 264");
}

static void cape_eeprom_test_ext_huge_record(struct kunit *test)
{
	struct cape_eeprom_ext ext;
	struct ext_image x;
	char why[TEST_WHY_LEN];
	size_t len;

	ext_start(test, &x, "A1");
	ext_overlay(&x);
	len = ext_finish(&x);
	put_unaligned_be32(0xfffffffc, x.b + 252 + 4);
	KUNIT_EXPECT_EQ(test, ext_parse(test, &x, len, &ext, why), -EINVAL);
}

/* The header says more bytes than the records use. */
static void cape_eeprom_test_ext_count_too_small(struct kunit *test)
{
	struct cape_eeprom_ext ext;
	struct ext_image x;
	char why[TEST_WHY_LEN];
	size_t len;

	ext_start(test, &x, "A1");
	ext_id_crc(&x);
	ext_overlay(&x);
	len = ext_finish(&x);
	x.b[244 + 5] = 1;
	KUNIT_EXPECT_EQ(test, ext_parse(test, &x, len, &ext, why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "extension: 28 bytes left at offset 264 after 1 records (count and length disagree)");
}

/* The header counts more records than its length holds. */
static void cape_eeprom_test_ext_count_too_big(struct kunit *test)
{
	struct cape_eeprom_ext ext;
	struct ext_image x;
	char why[TEST_WHY_LEN];
	size_t len;

	ext_start(test, &x, "A1");
	ext_overlay(&x);
	ext_overlay(&x);
	len = ext_finish(&x);
	x.b[244 + 5] = 3;
	KUNIT_EXPECT_EQ(test, ext_parse(test, &x, len, &ext, why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "extension: second overlay record at offset 280");
	x.b[244 + 5] = 9;
	KUNIT_EXPECT_EQ(test, ext_parse(test, &x, len, &ext, why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "extension: length 56 at offset 250 cannot hold 9 records");
}

static void cape_eeprom_test_ext_count_past_end(struct kunit *test)
{
	struct cape_eeprom_ext ext;
	struct ext_image x;
	char why[TEST_WHY_LEN];
	size_t len;
	u8 four[4] = { };

	ext_start(test, &x, "A1");
	ext_id_crc(&x);
	ext_record(&x, 0x7777, four, sizeof(four));
	len = ext_finish(&x);
	x.b[244 + 5] = 3;	/* 24 bytes hold 3 headers, not 3 records */
	KUNIT_EXPECT_EQ(test, ext_parse(test, &x, len, &ext, why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "extension: record 2 header at offset 276 runs past the end of the area at 276");
}

static void cape_eeprom_test_ext_unknown_type(struct kunit *test)
{
	struct cape_eeprom_ext ext;
	struct ext_image x;
	char why[TEST_WHY_LEN];
	u8 junk[7] = { 1, 2, 3, 4, 5, 6, 7 };
	size_t blob;

	ext_start(test, &x, "A1");
	ext_record(&x, 0x1234, junk, sizeof(junk));
	blob = ext_overlay(&x);
	ext_record(&x, 0xffff, junk, 0);
	KUNIT_EXPECT_EQ(test, ext_parse(test, &x, ext_finish(&x), &ext, why), 0);
	KUNIT_EXPECT_PTR_EQ(test, ext.overlay, (const void *)(x.b + blob));
}

static void cape_eeprom_test_ext_newer_version(struct kunit *test)
{
	struct cape_eeprom_ext ext;
	struct ext_image x;
	char why[TEST_WHY_LEN];
	size_t len;

	ext_start(test, &x, "A1");
	ext_overlay(&x);
	len = ext_finish(&x);
	x.b[244 + 4] = 2;
	KUNIT_EXPECT_EQ(test, ext_size(test, &x, why), 0);
	KUNIT_EXPECT_STREQ(test, why,
			   "extension: version 2 at offset 248 is newer than 1; ignored");
	KUNIT_EXPECT_EQ(test, ext_parse(test, &x, len, &ext, why), 0);
	KUNIT_EXPECT_NULL(test, ext.overlay);
}

static void cape_eeprom_test_ext_version_zero(struct kunit *test)
{
	struct ext_image x;
	char why[TEST_WHY_LEN];

	ext_start(test, &x, "A1");
	ext_finish(&x);
	x.b[244 + 4] = 0;
	KUNIT_EXPECT_EQ(test, ext_size(test, &x, why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "extension: version 0 at offset 248");
}

static void cape_eeprom_test_ext_past_part(struct kunit *test)
{
	struct ext_image x;
	char why[TEST_WHY_LEN];

	ext_start(test, &x, "A1");
	ext_finish(&x);
	put_unaligned_be16(32768 - 252 + 1, x.b + 244 + 6);
	KUNIT_EXPECT_EQ(test, ext_size(test, &x, why), -EINVAL);
	put_unaligned_be16(32768 - 252, x.b + 244 + 6);
	KUNIT_EXPECT_EQ(test, ext_size(test, &x, why), 32768 - 252);
}

/* Every prefix short of the area fails; none is read past its end. */
static void cape_eeprom_test_ext_short(struct kunit *test)
{
	struct cape_eeprom_ext ext;
	struct cape_eeprom ee;
	struct ext_image x;
	char why[TEST_WHY_LEN];
	u8 *page = vmalloc(PAGE_SIZE);
	size_t full, len;
	int fails = 0;

	KUNIT_ASSERT_NOT_NULL(test, page);
	ext_start(test, &x, "A1");
	ext_id_crc(&x);
	ext_overlay(&x);
	full = ext_finish(&x);
	KUNIT_ASSERT_EQ(test, parse(test, &ee, x.b, full, why), 0);
	/* A bare standard area has no extension area: from one byte more. */
	for (len = CAPE_EEPROM_A1_SIZE + 1; len < full; len++) {
		u8 *p = page + PAGE_SIZE - len;

		memcpy(p, x.b, len);
		if (cape_eeprom_parse_ext(&ee, p, len, &ext, why,
					  sizeof(why)) != -EMSGSIZE)
			fails++;
	}
	KUNIT_EXPECT_EQ(test, fails, 0);
	memcpy(page + PAGE_SIZE - full, x.b, full);
	KUNIT_EXPECT_EQ(test, cape_eeprom_parse_ext(&ee, page + PAGE_SIZE - full,
						    full, &ext, why, sizeof(why)),
			0);
	vfree(page);
}

static void bone_info_test_from_eeprom(struct kunit *test)
{
	struct capebus_cape_info *info;
	struct cape_eeprom *ee;

	ee = kunit_kzalloc(test, sizeof(*ee), GFP_KERNEL);
	info = kunit_kzalloc(test, sizeof(*info), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ee);
	KUNIT_ASSERT_NOT_NULL(test, info);
	ee->format = CAPE_EEPROM_FORMAT_A1;
	ee->num_pin_words = CAPE_EEPROM_A1_NUM_PINS;
	strscpy(ee->board_name, "Weather Cape");
	strscpy(ee->version, "00A2");
	strscpy(ee->part_number, "BB-WTHR-01");
	ee->pins[9] = 0xe073;		/* P9.19 */
	ee->pins[10] = 0x7fff;		/* not used */
	ee->pins[73] = 0x8000;		/* AIN6 */
	ee->current_ma[BONE_RAIL_VDD_3V3B] = 150;
	ee->current_ma[BONE_RAIL_SYS_5V] = 1500;
	ee->dc_supplied_ma = 7;
	__set_bit(20, info->pins);	/* stale: cleared */

	bone_info_from_eeprom(info, ee);
	KUNIT_EXPECT_STREQ(test, info->text[CAPEBUS_PART_NUMBER], "BB-WTHR-01");
	KUNIT_EXPECT_STREQ(test, info->text[CAPEBUS_VERSION], "00A2");
	KUNIT_EXPECT_STREQ(test, info->text[CAPEBUS_BOARD_NAME], "Weather Cape");
	KUNIT_EXPECT_STREQ(test, info->format, "A1");
	KUNIT_EXPECT_EQ(test, bitmap_weight(info->pins, CAPEBUS_MAX_PINS), 2);
	KUNIT_EXPECT_STREQ(test, bone_header.pin_names[9], "P9.19");
	KUNIT_EXPECT_STREQ(test, info->pin_setting[9], "mode3 bidir pull-up rx slow");
	KUNIT_EXPECT_STREQ(test, info->pin_setting[73], "");
	KUNIT_EXPECT_EQ(test, info->current_ma[BONE_RAIL_VDD_3V3B], 150);
	KUNIT_EXPECT_EQ(test, info->current_ma[BONE_RAIL_VDD_5V], 0);
	KUNIT_EXPECT_EQ(test, info->current_ma[BONE_RAIL_SYS_5V], 1500);
	KUNIT_EXPECT_EQ(test, info->supplied_ma, 7);
	KUNIT_EXPECT_STREQ(test, bone_header.rail_names[BONE_RAIL_SYS_5V], "sys-5v");
}

/* The nexus's GPIO code of each header pin: 800 + n for P8.n, 900 + n for P9.n. */
static void bone_header_test_gpio_codes(struct kunit *test)
{
	unsigned int i, h, n;
	char name[8];
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, bone_header.gpio_codes);
	for (i = 0; i < bone_header.num_pins; i++) {
		ret = sscanf(bone_header.pin_names[i], "P%u.%u", &h, &n);
		KUNIT_ASSERT_EQ(test, ret, 2);
		KUNIT_EXPECT_EQ_MSG(test, bone_header.gpio_codes[i], h * 100 + n,
				    "pin %s", bone_header.pin_names[i]);
		snprintf(name, sizeof(name), "P%u.%u",
			 bone_header.gpio_codes[i] / 100,
			 bone_header.gpio_codes[i] % 100);
		KUNIT_EXPECT_EQ(test, capebus_header_gpio_pin(&bone_header,
							      bone_header.gpio_codes[i]),
				capebus_header_pin_index(&bone_header, name));
	}
	KUNIT_EXPECT_EQ(test, capebus_header_gpio_pin(&bone_header, 801), -ENOENT);
	KUNIT_EXPECT_EQ(test, capebus_header_gpio_pin(&bone_header, 8013), -ENOENT);
}

static struct kunit_case cape_eeprom_test_cases[] = {
	KUNIT_CASE(bone_info_test_from_eeprom),
	KUNIT_CASE(bone_header_test_gpio_codes),
	KUNIT_CASE(cape_eeprom_test_a1_fields),
	KUNIT_CASE(cape_eeprom_test_a0_fields),
	KUNIT_CASE(cape_eeprom_test_a1_power_not_at_a0_offsets),
	KUNIT_CASE(cape_eeprom_test_a0_power_not_pins),
	KUNIT_CASE(cape_eeprom_test_big_endian),
	KUNIT_CASE(cape_eeprom_test_blank),
	KUNIT_CASE(cape_eeprom_test_mostly_blank),
	KUNIT_CASE(cape_eeprom_test_bad_magic),
	KUNIT_CASE(cape_eeprom_test_magic_byte_order),
	KUNIT_CASE_PARAM(cape_eeprom_test_bad_revision, bad_revision_gen_params),
	KUNIT_CASE_PARAM(cape_eeprom_test_text, text_gen_params),
	KUNIT_CASE_PARAM(cape_eeprom_test_pin_word, pin_gen_params),
	KUNIT_CASE(cape_eeprom_test_num_pins_disagrees),
	KUNIT_CASE(cape_eeprom_test_short_a1),
	KUNIT_CASE(cape_eeprom_test_short_a0),
	KUNIT_CASE(cape_eeprom_test_short_reason),
	KUNIT_CASE(cape_eeprom_test_small_why),
	KUNIT_CASE_PARAM(cape_eeprom_test_pin_format, format_gen_params),
	KUNIT_CASE(cape_eeprom_test_pin_format_limits),
	KUNIT_CASE(cape_eeprom_test_pin_names),
	KUNIT_CASE(cape_eeprom_test_rail_names),
	KUNIT_CASE(cape_eeprom_test_crc32_check_value),
	KUNIT_CASE(cape_eeprom_test_ext_none),
	KUNIT_CASE(cape_eeprom_test_ext_bare_image),
	KUNIT_CASE(cape_eeprom_test_ext_size),
	KUNIT_CASE(cape_eeprom_test_ext_id_crc_good),
	KUNIT_CASE(cape_eeprom_test_ext_id_crc_bad),
	KUNIT_CASE(cape_eeprom_test_ext_a0_id_crc),
	KUNIT_CASE(cape_eeprom_test_ext_overlay_good),
	KUNIT_CASE(cape_eeprom_test_ext_overlay_bad_crc),
	KUNIT_CASE(cape_eeprom_test_ext_overlay_too_short),
	KUNIT_CASE(cape_eeprom_test_ext_length_past_end),
	KUNIT_CASE(cape_eeprom_test_ext_huge_record),
	KUNIT_CASE(cape_eeprom_test_ext_count_too_small),
	KUNIT_CASE(cape_eeprom_test_ext_count_too_big),
	KUNIT_CASE(cape_eeprom_test_ext_count_past_end),
	KUNIT_CASE(cape_eeprom_test_ext_unknown_type),
	KUNIT_CASE(cape_eeprom_test_ext_newer_version),
	KUNIT_CASE(cape_eeprom_test_ext_version_zero),
	KUNIT_CASE(cape_eeprom_test_ext_past_part),
	KUNIT_CASE(cape_eeprom_test_ext_short),
	{}
};

static struct kunit_suite cape_eeprom_test_suite = {
	.name = "capebus-eeprom",
	.test_cases = cape_eeprom_test_cases,
};

kunit_test_suite(cape_eeprom_test_suite);

MODULE_DESCRIPTION("KUnit tests for the capebus cape EEPROM parser");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
