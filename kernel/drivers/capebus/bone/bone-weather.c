// SPDX-License-Identifier: GPL-2.0
/*
 * capebus-bone-weather: a cape driver of its own for the sample weather cape
 * (part BB-WTHR-01), to show what a specific cape driver adds over the
 * generic one.  It binds by part number (its module is loaded by the
 * MODALIAS udev sees, or takes over from the generic driver when it loads
 * later), applies the cape's overlay through the core, and checks the
 * hardware revision against the ones it knows: an unknown revision still
 * loads, but says so, in the log and in its "revision_known" attribute.
 */

#include <linux/capebus.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/sysfs.h>

/* Hardware revisions this driver was written against. */
static const char *const weather_revisions[] = { "00A0", "00A1", "00A2" };

static bool weather_revision_known(const struct cape_device *cape)
{
	const char *version = cape_text(cape, CAPEBUS_VERSION);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(weather_revisions); i++)
		if (!strcmp(version, weather_revisions[i]))
			return true;

	return false;
}

static ssize_t revision_known_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  weather_revision_known(to_cape_device(dev)));
}
static DEVICE_ATTR_RO(revision_known);

static struct attribute *weather_attrs[] = {
	&dev_attr_revision_known.attr,
	NULL
};
ATTRIBUTE_GROUPS(weather);

static int weather_probe(struct cape_device *cape,
			 const struct cape_device_id *id)
{
	if (!weather_revision_known(cape))
		dev_warn(&cape->dev, "revision %s is newer than this driver knows (%s to %s)\n",
			 cape_text(cape, CAPEBUS_VERSION), weather_revisions[0],
			 weather_revisions[ARRAY_SIZE(weather_revisions) - 1]);

	return capebus_cape_apply_overlay(cape);
}

static void weather_remove(struct cape_device *cape)
{
	capebus_cape_revert_overlay(cape);
}

static const struct cape_device_id weather_ids[] = {
	{ CAPE_DEVICE("bone", "BB-WTHR-01") },
	{ }
};
MODULE_DEVICE_TABLE(capebus, weather_ids);

static struct capebus_driver weather_driver = {
	.probe		= weather_probe,
	.remove		= weather_remove,
	.id_table	= weather_ids,
	.driver		= {
		.name		= "capebus-bone-weather",
		.dev_groups	= weather_groups,
	},
};
module_capebus_driver(weather_driver);

MODULE_DESCRIPTION("capebus: the sample BeagleBone weather cape");
MODULE_AUTHOR("capebus developers <capebus@lists.example.org>");
MODULE_LICENSE("GPL");
