// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for how the connector recognises a cape whose overlay the
 * bootloader applied: the /chosen/overlays records beagleboard/
 * bb.org-overlays writes, against the part and version a cape's EEPROM
 * gives.
 */

#include <kunit/test.h>

#include "bone.h"

static const struct {
	const char *record, *part, *version;
	bool match;
} bone_records[] = {
	/* As bb.org-overlays (2992ff2) names them. */
	{ "BB-BONE-LCD4-01-00A1.bb.org-overlays", "BB-BONE-LCD4-01", "00A1", true },
	{ "BB-PWM1-00A0", "BB-PWM1", "00A0", true },
	{ "BB-I2C2-RTC-DS3231", "BB-I2C2-RTC-DS3231", "00A0", true },
	{ "BBORG_RELAY-00A2.bb.org-overlays", "BBORG_RELAY", "00A2", true },
	/* No version in the EEPROM: bone_capemgr's 00A0. */
	{ "BB-ADC-00A0.bb.org-overlays", "BB-ADC", "", true },
	{ "BB-ADC-00A1.bb.org-overlays", "BB-ADC", "", false },
	/* Another version, part or spelling is another cape. */
	{ "BB-BONE-LCD4-01-00A0.bb.org-overlays", "BB-BONE-LCD4-01", "00A1", false },
	{ "BB-PWM10-00A0", "BB-PWM1", "00A0", false },
	{ "BB-PWM1-00A0x", "BB-PWM1", "00A0", false },
	{ "BB-PWM1-00A", "BB-PWM1", "00A0", false },
	{ "BB-PWM1_00A0", "BB-PWM1", "00A0", false },
	{ "bb-pwm1-00a0", "BB-PWM1", "00A0", false },
	{ "BB-PWM", "BB-PWM1", "00A0", false },
	/* A prefix of another cape's record is no record of this one. */
	{ "BB-BONE-LCD4-01-00A1.bb.org-overlays", "BB-BONE", "00A1", false },
	{ "BB-BONE-LCD4-01-00A1.bb.org-overlays", "BB-BONE-LCD4", "01", false },
	/* An empty part number names nothing. */
	{ "", "", "", false },
	{ "-00A0", "", "00A0", false },
};

static void bone_bootloader_test_records(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bone_records); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    bone_overlay_record_matches(bone_records[i].record,
								bone_records[i].part,
								bone_records[i].version),
				    bone_records[i].match,
				    "record \"%s\", part \"%s\", version \"%s\"",
				    bone_records[i].record, bone_records[i].part,
				    bone_records[i].version);
}

static struct kunit_case bone_bootloader_test_cases[] = {
	KUNIT_CASE(bone_bootloader_test_records),
	{ }
};

static struct kunit_suite bone_bootloader_test_suite = {
	.name = "capebus-bone-bootloader",
	.test_cases = bone_bootloader_test_cases,
};

kunit_test_suite(bone_bootloader_test_suite);
