// SPDX-License-Identifier: GPL-2.0
/*
 * capebus-bone: the BeagleBone cape header controller ("beagle,bone-capebus").
 *
 * Each slot names its ID EEPROM (an at24 on the header's I2C bus) through
 * nvmem; the slots follow their EEPROMs through capebus-eeprom-slots.c,
 * which asks this module to read one (bone_slot_read()): only the bytes
 * needed, the standard area plus an extension header, then the extension
 * records if the header says there are any.
 */

#include <linux/bitmap.h>
#include <linux/capebus.h>
#include <linux/capebus-eeprom-slots.h>
#include <linux/cleanup.h>
#include <linux/device.h>
#include <linux/mm.h>
#include <linux/mod_devicetable.h>
#include <linux/nvmem-consumer.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <linux/module.h>

#include "bone.h"

/**
 * struct bone_capebus - a "beagle,bone-capebus" controller
 * @dev: the platform device
 * @ctrl: the capebus controller
 * @slots: the slots and their ID EEPROMs (capebus-eeprom-slots.c)
 * @record: per slot, the /chosen/overlays record its cape was loaded by
 *	(applied before Linux), or NULL; the base tree's, so never freed.
 *	Used from the slots' load work alone.
 * @pinmux: the connector's pin controller and pads
 */
struct bone_capebus {
	struct device *dev;
	struct capebus_controller *ctrl;
	struct capebus_eeprom_slots *slots;
	const struct property *record[BONE_MAX_SLOTS];
	struct bone_pinmux pinmux;
};

/* Read the slot's EEPROM: standard area, extension header, records. */
static int bone_read_eeprom(struct nvmem_device *nvmem, void **bufp,
			    size_t *lenp, struct cape_eeprom *ee,
			    char *why, size_t why_len)
{
	size_t len = CAPE_EEPROM_READ_SIZE;
	ssize_t ext;
	void *buf;
	int ret;

	buf = kzalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	*bufp = buf;
	*lenp = 0;

	ret = nvmem_device_read(nvmem, 0, len, buf);
	if (ret < 0)
		return ret;
	if (ret != len)
		return -EIO;
	*lenp = len;

	ret = cape_eeprom_parse(ee, buf, len, why, why_len);
	if (ret)
		return ret;

	ext = cape_eeprom_ext_size(ee, buf, len, why, why_len);
	if (ext <= 0)
		return ext;

	/* Records follow the 8-byte header at ee->ext_offset. */
	len = ee->ext_offset + sizeof(struct capebus_ext_header) + ext;
	if (len > CAPE_EEPROM_READ_SIZE) {
		void *bigger = krealloc(buf, len, GFP_KERNEL);

		if (!bigger)
			return -ENOMEM;
		*bufp = buf = bigger;
		ret = nvmem_device_read(nvmem, CAPE_EEPROM_READ_SIZE,
					len - CAPE_EEPROM_READ_SIZE,
					buf + CAPE_EEPROM_READ_SIZE);
		if (ret < 0)
			return ret;
		if (ret != len - CAPE_EEPROM_READ_SIZE) {
			snprintf(why, why_len,
				 "extension records: read %d of %zu bytes",
				 ret, len - CAPE_EEPROM_READ_SIZE);
			return -EINVAL;
		}
	}
	*lenp = len;

	return 0;
}

/* capebus_eeprom_ops.read: the cape in slot @nr, with its overlay record. */
static int bone_slot_read(struct capebus_eeprom_slots *es, unsigned int nr,
			  struct nvmem_device *nvmem, void **buf, size_t *len,
			  struct capebus_cape_info *info, void **overlay,
			  size_t *overlay_len, char *why, size_t why_len)
{
	struct cape_eeprom_ext ext = { };
	int ret;

	struct cape_eeprom *ee __free(kfree) = kzalloc(sizeof(*ee), GFP_KERNEL);
	if (!ee)
		return -ENOMEM;

	ret = bone_read_eeprom(nvmem, buf, len, ee, why, why_len);
	if (ret)
		return ret;
	ret = cape_eeprom_parse_ext(ee, *buf, *len, &ext, why, why_len);
	if (ret)
		return ret;

	if (ext.overlay) {
		*overlay = kvmemdup(ext.overlay, ext.overlay_len, GFP_KERNEL);
		if (!*overlay)
			return -ENOMEM;
		*overlay_len = ext.overlay_len;
	}
	bone_info_from_eeprom(info, ee);

	return 0;
}

/*
 * capebus_eeprom_ops.loading: tell the core whether the bootloader applied
 * the cape's overlay.  A record stands for one apply, so for one slot: the
 * first slot whose cape it names keeps it (until reboot, as the cape);
 * another slot naming the same part is a cape like any other, whose overlay
 * meets the nodes already there.
 */
static void bone_slot_loading(struct capebus_eeprom_slots *es, unsigned int nr,
			      const struct capebus_cape_info *info)
{
	struct bone_capebus *bc = capebus_eeprom_slots_get_data(es);
	char by[CAPEBUS_TEXT_LEN * 2 + 32];
	const struct property *record;
	unsigned int i;

	record = bone_applied_by_bootloader(info, bc->record, nr, by, sizeof(by));
	if (record) {
		bc->record[nr] = record;
		dev_info(bc->dev, "slot %u: %s %s: overlay applied by the bootloader (%s)\n",
			 nr, info->text[CAPEBUS_PART_NUMBER],
			 info->text[CAPEBUS_VERSION], by);
	} else {
		for (i = 0; i < BONE_MAX_SLOTS; i++)
			if (i != nr && bc->record[i] &&
			    bone_overlay_record_matches(bc->record[i]->name,
							info->text[CAPEBUS_PART_NUMBER],
							info->text[CAPEBUS_VERSION]))
				dev_warn(bc->dev, "slot %u: %s: the bootloader's record of it is slot %u's\n",
					 nr, info->text[CAPEBUS_PART_NUMBER], i);
	}
	if (capebus_slot_set_applied_by(capebus_slot(bc->ctrl, nr),
					record ? by : NULL))
		dev_warn(bc->dev, "out of memory: %s may be applied twice\n",
			 info->text[CAPEBUS_PART_NUMBER]);
}

static const struct capebus_eeprom_ops bone_eeprom_ops = {
	.read		= bone_slot_read,
	.loading	= bone_slot_loading,
};

static int bone_capebus_decode(struct capebus_controller *ctrl,
			       const void *image, size_t len,
			       struct capebus_cape_info *info,
			       const void **overlay, size_t *overlay_len,
			       char *why, size_t why_len)
{
	return bone_decode_image(image, len, info, overlay, overlay_len, why,
				 why_len);
}

static int bone_capebus_overlay_name(struct capebus_controller *ctrl,
				     const struct capebus_cape_info *info,
				     char *name, size_t len)
{
	return bone_overlay_name(info, name, len);
}

static int bone_capebus_attach(struct capebus_controller *ctrl,
			       struct cape_device *cape, char *why,
			       size_t why_len)
{
	struct bone_capebus *bc = capebus_controller_get_drvdata(ctrl);

	/*
	 * The bootloader's overlay muxed its pads: a second group would fight.
	 * Its pin words are written nowhere, so the modes they ask for are
	 * not checked either: the pads are as that overlay, a file of the
	 * board's, set them.
	 */
	if (cape->applied_by)
		return 0;

	return bone_pinmux_attach(&bc->pinmux, bc->dev->of_node, cape, why,
				  why_len);
}

static void bone_capebus_detach(struct capebus_controller *ctrl,
				struct cape_device *cape)
{
	struct bone_capebus *bc = capebus_controller_get_drvdata(ctrl);

	bone_pinmux_detach(&bc->pinmux, bc->dev->of_node, cape);
}

static void bone_capebus_settle(struct capebus_controller *ctrl)
{
	struct bone_capebus *bc = capebus_controller_get_drvdata(ctrl);

	bone_pinmux_sync(&bc->pinmux, bc->dev->of_node, ctrl);
}

static const struct capebus_controller_ops bone_capebus_ops = {
	.decode		= bone_capebus_decode,
	.overlay_name	= bone_capebus_overlay_name,
	.attach		= bone_capebus_attach,
	.detach		= bone_capebus_detach,
	.settle		= bone_capebus_settle,
};

static void bone_pinmux_exit_action(void *pm)
{
	bone_pinmux_exit(pm);
}

static int bone_capebus_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct bone_capebus *bc;
	unsigned int num_slots;
	int ret;

	bc = devm_kzalloc(dev, sizeof(*bc), GFP_KERNEL);
	if (!bc)
		return -ENOMEM;
	bc->dev = dev;

	bc->slots = devm_capebus_eeprom_slots_alloc(dev, BONE_MAX_SLOTS,
						    &bone_eeprom_ops, bc,
						    &num_slots);
	if (IS_ERR(bc->slots))
		return PTR_ERR(bc->slots);

	bc->ctrl = devm_capebus_controller_alloc(dev, &bone_header,
						 &bone_capebus_ops, num_slots);
	if (IS_ERR(bc->ctrl))
		return PTR_ERR(bc->ctrl);

	ret = capebus_controller_of_read(bc->ctrl, dev);
	if (ret)
		return ret;

	ret = bone_pinmux_init(dev, bc->ctrl, &bc->pinmux);
	if (ret)
		return ret;
	ret = devm_add_action_or_reset(dev, bone_pinmux_exit_action,
				       &bc->pinmux);
	if (ret)
		return ret;

	capebus_controller_set_drvdata(bc->ctrl, bc);
	ret = devm_capebus_controller_register(dev, bc->ctrl);
	if (ret)
		return ret;

	/* Stopped by devres before the controller is unregistered. */
	return devm_capebus_eeprom_slots_start(bc->slots, bc->ctrl);
}

static const struct of_device_id bone_capebus_of_match[] = {
	{ .compatible = "beagle,bone-capebus" },
	{ }
};
MODULE_DEVICE_TABLE(of, bone_capebus_of_match);

static struct platform_driver bone_capebus_driver = {
	.probe	= bone_capebus_probe,
	.driver	= {
		.name		= "bone-capebus",
		.of_match_table	= bone_capebus_of_match,
	},
};
module_platform_driver(bone_capebus_driver);

MODULE_DESCRIPTION("capebus: the BeagleBone cape header controller");
MODULE_AUTHOR("capebus developers <capebus@lists.example.org>");
MODULE_LICENSE("GPL");
