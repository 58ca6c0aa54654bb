// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the connector's pad values: a pin's setting, as the
 * EEPROM parser writes it from a pin word, back to the am335x conf_ value,
 * and the pinctrl-single,pins entry it becomes in the pin controller's cell
 * layout, checked against what the board's own device tree writes with the
 * dt-bindings macros; the refusal of a mode the pad does not offer; and the
 * names of the pin groups, which bound what capes leave in the pin
 * controller.
 */

#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/bits.h>
#include <linux/string.h>

#include <dt-bindings/pinctrl/am33xx.h>

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

/*
 * Each layout, for every pad value: pinctrl-single writes the entry's
 * cells after the offset ORed together (pcs_parse_one_pinctrl_entry()).
 */
static void bone_pinmux_test_entry_layouts(struct kunit *test)
{
	u32 e[BONE_PINMUX_MAX_CELLS], conf;

	for (conf = 0; conf < 0x80; conf++) {
		memset(e, 0xff, sizeof(e));
		KUNIT_ASSERT_EQ(test, bone_pinmux_entry(1, 0x17c, conf, e), 2);
		KUNIT_EXPECT_EQ(test, e[0], 0x17c);
		KUNIT_EXPECT_EQ(test, e[1], conf);
		KUNIT_EXPECT_EQ(test, e[2], U32_MAX);	/* untouched */

		KUNIT_ASSERT_EQ(test, bone_pinmux_entry(2, 0x17c, conf, e), 3);
		KUNIT_EXPECT_EQ(test, e[0], 0x17c);
		KUNIT_EXPECT_EQ(test, e[1] | e[2], conf);
		KUNIT_EXPECT_EQ(test, e[2], conf & 0x07);	/* the mux mode */
		KUNIT_EXPECT_EQ(test, e[1] & 0x07, 0);
	}
}

static void bone_pinmux_test_entry_refused(struct kunit *test)
{
	static const u32 bad[] = { 0, 3, 4, U32_MAX };
	u32 e[BONE_PINMUX_MAX_CELLS] = { 1, 2, 3 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, bone_pinmux_entry(bad[i], 0x17c, 0x33, e),
				    -EINVAL, "#pinctrl-cells = <%u>", bad[i]);
	KUNIT_EXPECT_EQ(test, e[0], 1);
	KUNIT_EXPECT_EQ(test, e[1], 2);
	KUNIT_EXPECT_EQ(test, e[2], 3);
}

/*
 * Pin words for the pads as Linux 6.12's am335x-bone-common.dtsi and
 * am335x-bonegreen-common.dtsi mux them, and the entry the connector makes
 * of each for the AM335x pin controller (#pinctrl-cells = <2>): the same
 * cells AM33XX_PADCONF(pin, conf, mux) writes there.
 */
static const struct {
	const char *what;
	u16 word;
	u32 pad, conf, mux;
} bone_pinmux_padconf[] = {
	/* i2c2_pins: uart1_rtsn.i2c2_scl (P9.19), uart1_ctsn.i2c2_sda (P9.20) */
	{ "P9.19 i2c2_scl", 0xe033, AM335X_PIN_UART1_RTSN - 0x800,
	  PIN_INPUT_PULLUP, MUX_MODE3 },
	{ "P9.20 i2c2_sda", 0xe033, AM335X_PIN_UART1_CTSN - 0x800,
	  PIN_INPUT_PULLUP, MUX_MODE3 },
	/* clkout2_pin: xdma_event_intr1.clkout2 (P9.41) */
	{ "P9.41 clkout2", 0xc003, AM335X_PIN_XDMA_EVENT_INTR1 - 0x800,
	  PIN_OUTPUT_PULLDOWN, MUX_MODE3 },
	/* uart2_pins (Green): spi0_sclk.uart2_rxd (P9.22), spi0_d0.uart2_txd */
	{ "P9.22 uart2_rxd", 0xa029, AM335X_PIN_SPI0_SCLK - 0x800,
	  PIN_INPUT, MUX_MODE1 },
	{ "P9.21 uart2_txd", 0xc009, AM335X_PIN_SPI0_D0 - 0x800,
	  PIN_OUTPUT, MUX_MODE1 },
	/* a slow input with its pull-up: P9.17 i2c1_scl, as BB-RTC-01 */
	{ "P9.17 i2c1_scl", 0xe072, AM335X_PIN_SPI0_CS0 - 0x800,
	  PIN_INPUT_PULLUP | SLEWCTRL_SLOW, MUX_MODE2 },
};

static void bone_pinmux_test_padconf(struct kunit *test)
{
	char setting[CAPEBUS_SETTING_LEN];
	u32 e[BONE_PINMUX_MAX_CELLS], conf;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bone_pinmux_padconf); i++) {
		cape_pin_word_setting(setting, sizeof(setting), 0,
				      bone_pinmux_padconf[i].word);
		KUNIT_ASSERT_EQ(test, bone_pin_setting_conf(setting, &conf), 0);
		KUNIT_ASSERT_EQ(test,
				bone_pinmux_entry(2, bone_pinmux_padconf[i].pad,
						  conf, e), 3);
		KUNIT_EXPECT_EQ_MSG(test, e[0], bone_pinmux_padconf[i].pad,
				    "%s", bone_pinmux_padconf[i].what);
		KUNIT_EXPECT_EQ_MSG(test, e[1], bone_pinmux_padconf[i].conf,
				    "%s", bone_pinmux_padconf[i].what);
		KUNIT_EXPECT_EQ_MSG(test, e[2], bone_pinmux_padconf[i].mux,
				    "%s", bone_pinmux_padconf[i].what);
	}
}

/*
 * The Black's P8.19 (gpmc_ad8): cape-pads offers ehrpwm2a (mode 4) and
 * gpio0_22 (mode 7); mode 2 is mmc1_dat0, the eMMC controller's.
 */
#define BONE_TEST_P8_19_MODES	(BIT(4) | BIT(7))

static void bone_pinmux_test_mode_refused(struct kunit *test)
{
	char setting[CAPEBUS_SETTING_LEN], why[CAPEBUS_REASON_LEN];
	u32 conf;

	/* A pin word asking for mmc1_dat0: used, bidir, pull-up, rx, slow. */
	cape_pin_word_setting(setting, sizeof(setting), 0, 0xe072);
	KUNIT_ASSERT_STREQ(test, setting, "mode2 bidir pull-up rx slow");
	KUNIT_ASSERT_EQ(test, bone_pin_setting_conf(setting, &conf), 0);
	KUNIT_EXPECT_EQ(test, bone_pad_check_mode("P8.19", BONE_TEST_P8_19_MODES,
						  conf, why, sizeof(why)),
			-EPERM);
	KUNIT_EXPECT_STREQ(test, why,
			   "P8.19: mode 2 is not offered to capes by this connector (offered: 4 7)");

	/* The same pad settings in a mode the pad offers. */
	strscpy(why, "untouched");
	KUNIT_EXPECT_EQ(test, bone_pad_check_mode("P8.19", BONE_TEST_P8_19_MODES,
						  (conf & ~0x7) | 4, why,
						  sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, bone_pad_check_mode("P8.19", BONE_TEST_P8_19_MODES,
						  conf | 7, why, sizeof(why)), 0);
	KUNIT_EXPECT_STREQ(test, why, "untouched");
}

/* Fail closed: a pad offering nothing refuses every mode, and says so. */
static void bone_pinmux_test_mode_none(struct kunit *test)
{
	char why[CAPEBUS_REASON_LEN];
	u32 mode;

	for (mode = 0; mode < 8; mode++) {
		KUNIT_EXPECT_EQ(test, bone_pad_check_mode("P9.12", 0, 0x20 | mode,
							  why, sizeof(why)),
				-EPERM);
		KUNIT_EXPECT_NOT_NULL(test, strstr(why, "(offered: none)"));
	}
}

/* Every mode against every mask: only the mode bits count, not the pad's. */
static void bone_pinmux_test_mode_every_mask(struct kunit *test)
{
	char why[CAPEBUS_REASON_LEN];
	u32 mask, mode, pad;
	int want;

	for (mask = 0; mask <= BONE_PAD_MODES_ALL; mask++)
		for (mode = 0; mode < 8; mode++)
			for (pad = 0; pad < 0x80; pad += 0x08) {
				want = mask & BIT(mode) ? 0 : -EPERM;
				KUNIT_ASSERT_EQ_MSG(test,
						    bone_pad_check_mode("P9.42", mask, pad | mode,
									why, sizeof(why)),
						    want, "mask %#x conf %#x", mask,
						    pad | mode);
			}

	/* All eight listed, in order. */
	KUNIT_EXPECT_EQ(test, bone_pad_check_mode("P9.42", 0x7f, 7, why,
						  sizeof(why)), -EPERM);
	KUNIT_EXPECT_STREQ(test, why,
			   "P9.42: mode 7 is not offered to capes by this connector (offered: 0 1 2 3 4 5 6)");
}

/* A short buffer gets a truncated, terminated reason. */
static void bone_pinmux_test_mode_short_why(struct kunit *test)
{
	char why[12];

	memset(why, 'x', sizeof(why));
	KUNIT_EXPECT_EQ(test, bone_pad_check_mode("P8.19", BONE_TEST_P8_19_MODES,
						  2, why, sizeof(why)), -EPERM);
	KUNIT_EXPECT_STREQ(test, why, "P8.19: mode");
}

/* Of the characters a device tree node name may have, those a group's uses. */
#define BONE_TEST_NODE_CHARS	"abcdefghijklmnopqrstuvwxyz0123456789-"

/*
 * A group's name is its pad and value and nothing else: it reads back as
 * both (so no two pads and values share a name, and no cape can choose its
 * cells to make another's), and is a node name the device tree allows.
 */
static void bone_pinmux_test_group_names(struct kunit *test)
{
	char name[BONE_PAD_GROUP_NAME_LEN];
	u32 pad, conf, p, c;
	int n, end;

	for (pad = 0; pad < 0x400; pad += 4) {
		for (conf = 0; conf < 0x80; conf++) {
			KUNIT_ASSERT_EQ(test, bone_pad_group_name(pad, conf, name,
								  sizeof(name)), 0);
			end = 0;
			n = sscanf(name, "capebus-pad-%x-%x%n", &p, &c, &end);
			KUNIT_ASSERT_EQ_MSG(test, n, 2, "%s", name);
			KUNIT_ASSERT_EQ_MSG(test, end, strlen(name), "%s", name);
			KUNIT_ASSERT_EQ_MSG(test, p, pad, "%s", name);
			KUNIT_ASSERT_EQ_MSG(test, c, conf, "%s", name);
			KUNIT_ASSERT_EQ_MSG(test, strspn(name, BONE_TEST_NODE_CHARS),
					    strlen(name), "%s", name);
		}
	}

	KUNIT_EXPECT_EQ(test, bone_pad_group_name(0x17c, 0x73, name,
						  sizeof(name)), 0);
	KUNIT_EXPECT_STREQ(test, name, "capebus-pad-17c-73");
	KUNIT_EXPECT_EQ(test, bone_pad_group_name(U32_MAX, U32_MAX, name,
						  sizeof(name)), 0);
	KUNIT_EXPECT_STREQ(test, name, "capebus-pad-ffffffff-ffffffff");
	KUNIT_EXPECT_EQ(test, bone_pad_group_name(0x17c, 0x73, name, 18),
			-ENAMETOOLONG);
}

/*
 * The bound Documentation/capebus/overlays-and-pins.rst states: of all the
 * pin words an EEPROM can hold, those the connector accepts for a pad give
 * it 12 values per mode the pad offers (pull off, down or up; receiver on or
 * off; slew fast or slow), so as many groups at most.
 */
static void bone_pinmux_test_group_bound(struct kunit *test)
{
	static const u32 masks[] = { 0, 0x80, 0x84, 0x90, 0xe9, 0xff };
	char setting[CAPEBUS_SETTING_LEN], why[CAPEBUS_REASON_LEN];
	DECLARE_BITMAP(seen, 0x80);
	unsigned int i, dir, low;
	u32 conf;

	for (i = 0; i < ARRAY_SIZE(masks); i++) {
		bitmap_zero(seen, 0x80);
		for (dir = 0; dir < 4; dir++) {
			for (low = 0; low < 0x80; low++) {
				cape_pin_word_setting(setting, sizeof(setting), 0,
						      0x8000 | dir << 13 | low);
				if (bone_pin_setting_conf(setting, &conf) ||
				    bone_pad_check_mode("P8.7", masks[i], conf,
							why, sizeof(why)))
					continue;
				KUNIT_ASSERT_LT(test, conf, 0x80);
				__set_bit(conf, seen);
			}
		}
		KUNIT_EXPECT_EQ_MSG(test, bitmap_weight(seen, 0x80),
				    hweight8(masks[i]) * 12, "modes %#x",
				    masks[i]);
	}
}

static struct kunit_case bone_pinmux_test_cases[] = {
	KUNIT_CASE(bone_pinmux_test_words),
	KUNIT_CASE(bone_pinmux_test_all_words),
	KUNIT_CASE(bone_pinmux_test_refused),
	KUNIT_CASE(bone_pinmux_test_analog),
	KUNIT_CASE(bone_pinmux_test_entry_layouts),
	KUNIT_CASE(bone_pinmux_test_entry_refused),
	KUNIT_CASE(bone_pinmux_test_padconf),
	KUNIT_CASE(bone_pinmux_test_mode_refused),
	KUNIT_CASE(bone_pinmux_test_mode_none),
	KUNIT_CASE(bone_pinmux_test_mode_every_mask),
	KUNIT_CASE(bone_pinmux_test_mode_short_why),
	KUNIT_CASE(bone_pinmux_test_group_names),
	KUNIT_CASE(bone_pinmux_test_group_bound),
	{ }
};

static struct kunit_suite bone_pinmux_test_suite = {
	.name = "capebus-bone-pinmux",
	.test_cases = bone_pinmux_test_cases,
};

kunit_test_suite(bone_pinmux_test_suite);
