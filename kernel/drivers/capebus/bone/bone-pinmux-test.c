// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the connector's pad values: a pin's setting, as the
 * EEPROM parser writes it from a pin word, back to the am335x conf_ value.
 */

#include <kunit/test.h>
#include <linux/string.h>

#include "bone.h"

/*
 * The expected values are the pin words' bits 6-0 (the SRM: "bits 6-0 are
 * the pad control register value"), spelled out, with the pull type of a
 * disabled pull cleared.
 */
static const struct {
	u16 word;
	u32 conf;
} bone_pinmux_words[] = {
	{ 0xe073, 0x73 },	/* bidir slow rx pull-up mode3 */
	{ 0xc00a, 0x0a },	/* out fast no-pull mode2 */
	{ 0xc01f, 0x0f },	/* out fast no-pull (pull-up bit set) mode7 */
	{ 0xa027, 0x27 },	/* in fast rx pull-down mode7 */
	{ 0x8000, 0x00 },	/* no direction, pull-down, mode0 */
	{ 0xe07f, 0x6f },	/* everything set, no-pull */
	{ 0xc034, 0x34 },	/* out fast rx pull-up mode4 */
};

static void bone_pinmux_test_words(struct kunit *test)
{
	char setting[CAPEBUS_SETTING_LEN];
	unsigned int i;
	u32 conf;

	for (i = 0; i < ARRAY_SIZE(bone_pinmux_words); i++) {
		cape_pin_word_setting(setting, sizeof(setting), 0,
				      bone_pinmux_words[i].word);
		conf = 0xdead;
		KUNIT_EXPECT_EQ_MSG(test, bone_pin_setting_conf(setting, &conf),
				    0, "word %#06x: \"%s\"",
				    bone_pinmux_words[i].word, setting);
		KUNIT_EXPECT_EQ_MSG(test, conf, bone_pinmux_words[i].conf,
				    "word %#06x: \"%s\"",
				    bone_pinmux_words[i].word, setting);
	}
}

/* Every used word of every mode: the value is bits 6-0 but a dead pull. */
static void bone_pinmux_test_all_words(struct kunit *test)
{
	char setting[CAPEBUS_SETTING_LEN];
	u32 conf, want;
	u16 word;

	for (word = 0x8000; word < 0x8080; word++) {
		want = word & 0x7f;
		if (want & 0x08)
			want &= ~0x10;
		cape_pin_word_setting(setting, sizeof(setting), 0, word);
		KUNIT_ASSERT_EQ(test, bone_pin_setting_conf(setting, &conf), 0);
		KUNIT_EXPECT_EQ_MSG(test, conf, want, "word %#06x", word);
	}
}

static void bone_pinmux_test_refused(struct kunit *test)
{
	static const char *const bad[] = {
		"", "gpio", "mode8 out no-pull fast", "mode1 sideways no-pull fast",
		"mode1 out pull-sideways fast", "mode1 out no-pull rx",
		"mode1 out no-pull tx fast", "mode1 out no-pull medium",
		"mode1 out", "modex out no-pull fast",
	};
	unsigned int i;
	u32 conf = 0x1234;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, bone_pin_setting_conf(bad[i], &conf),
				    -EINVAL, "\"%s\"", bad[i]);
	KUNIT_EXPECT_EQ(test, conf, 0x1234);
}

/* An analog input's setting is empty: nothing to mux. */
static void bone_pinmux_test_analog(struct kunit *test)
{
	char setting[CAPEBUS_SETTING_LEN] = "x";
	u32 conf;

	cape_pin_word_setting(setting, sizeof(setting), CAPE_BONE_FIRST_AIN,
			      0x8000);
	KUNIT_EXPECT_EQ(test, bone_pin_setting_conf(setting, &conf), -EINVAL);
}

static struct kunit_case bone_pinmux_test_cases[] = {
	KUNIT_CASE(bone_pinmux_test_words),
	KUNIT_CASE(bone_pinmux_test_all_words),
	KUNIT_CASE(bone_pinmux_test_refused),
	KUNIT_CASE(bone_pinmux_test_analog),
	{ }
};

static struct kunit_suite bone_pinmux_test_suite = {
	.name = "capebus-bone-pinmux",
	.test_cases = bone_pinmux_test_cases,
};

kunit_test_suite(bone_pinmux_test_suite);
