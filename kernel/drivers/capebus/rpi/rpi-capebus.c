// SPDX-License-Identifier: GPL-2.0
/*
 * capebus-rpi: the Raspberry Pi 40-pin header controller
 * ("raspberrypi,hat-capebus").
 *
 * Each slot names its ID EEPROM on the header's ID bus (ID_SD/ID_SC) through
 * nvmem: 0x50 a HAT or a HAT+, 0x51 a stackable HAT+, 0x52 and 0x53 a
 * stackable Power HAT+.  The slots follow their EEPROMs through
 * capebus-eeprom-slots.c, which asks this module to read one
 * (rpi_slot_read()): the header, then the image its length states.
 *
 * Where the firmware probes one HAT at boot and applies its overlay for
 * good (that HAT is recognised by the firmware's /hat node, rpi-firmware.c,
 * and its overlay not applied again), every slot here is read, each HAT's pins (a HAT's GPIO map, a
 * HAT+'s overlay's exclusive-use) and power are accounted for, and each
 * overlay is applied while its HAT is there, and removed with it.
 *
 * The GPIO map's functions and pulls are claimed and shown, not set: the
 * firmware sets them from the same EEPROM at boot, and a HAT+ has none (its
 * overlay's pin nodes set its pins).
 *
 * The GPIOs the board's own tree muxes are the board's from probe
 * (rpi_board_pins()), as board-pins are.
 */

#include <linux/capebus.h>
#include <linux/capebus-eeprom-slots.h>
#include <linux/cleanup.h>
#include <linux/device.h>
#include <linux/mm.h>
#include <linux/mod_devicetable.h>
#include <linux/nvmem-consumer.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/unaligned.h>

#include <linux/module.h>

#include "rpi-eeprom.h"
#include "rpi.h"

/**
 * struct rpi_capebus - a "raspberrypi,hat-capebus" controller
 * @dev: the platform device
 * @ctrl: the capebus controller
 */
struct rpi_capebus {
	struct device *dev;
	struct capebus_controller *ctrl;
};

/* Offset of the image length in the 12-byte header. */
#define RPI_EEPLEN_OFFSET	offsetof(struct rpi_hat_header, eeplen)

/*
 * capebus_eeprom_ops.read: the header, then the image its length states;
 * a v1 HAT's device tree atom is its overlay.
 */
static int rpi_slot_read(struct capebus_eeprom_slots *es, unsigned int nr,
			 struct nvmem_device *nvmem, void **bufp, size_t *lenp,
			 struct capebus_cape_info *info, void **overlay,
			 size_t *overlay_len, char *why, size_t why_len)
{
	size_t len = sizeof(struct rpi_hat_header);
	u32 eeplen;
	void *buf;
	int ret;

	struct rpi_eeprom *ee __free(kfree) = kzalloc(sizeof(*ee), GFP_KERNEL);
	if (!ee)
		return -ENOMEM;
	buf = kzalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	*bufp = buf;

	ret = nvmem_device_read(nvmem, 0, len, buf);
	if (ret < 0)
		return ret;
	if (ret != len)
		return -EIO;
	*lenp = len;

	/* A blank part, or a header that does not hold: the parser says. */
	eeplen = get_unaligned_le32(buf + RPI_EEPLEN_OFFSET);
	if (get_unaligned_le32(buf) == RPI_HAT_SIGNATURE && eeplen > len) {
		void *bigger;

		if (eeplen > RPI_EEPROM_READ_MAX) {
			snprintf(why, why_len,
				 "eeplen %u: larger than the largest HAT EEPROM (%u bytes)",
				 eeplen, RPI_EEPROM_READ_MAX);
			return -EINVAL;
		}
		if (eeplen > nvmem_dev_size(nvmem)) {
			snprintf(why, why_len,
				 "eeplen %u: larger than the slot's EEPROM (%zu bytes)",
				 eeplen, nvmem_dev_size(nvmem));
			return -EINVAL;
		}
		bigger = krealloc(buf, eeplen, GFP_KERNEL);
		if (!bigger)
			return -ENOMEM;
		*bufp = buf = bigger;
		ret = nvmem_device_read(nvmem, len, eeplen - len, buf + len);
		if (ret < 0)
			return ret;
		if (ret != eeplen - len)
			return -EIO;
		len = eeplen;
		*lenp = len;
	}

	/* A bad CRC (-EBADMSG) fails the slot too, with the parser's reason. */
	ret = rpi_eeprom_parse(ee, buf, len, why, why_len);
	if (ret == -ENODATA || ret == -EMSGSIZE)
		return ret;
	if (ret)
		return -EINVAL;
	ret = rpi_info_from_eeprom(info, ee, why, why_len);
	if (ret)
		return ret;
	if (ee->dt) {
		*overlay = kvmemdup(ee->dt, ee->dt_len, GFP_KERNEL);
		if (!*overlay)
			return -ENOMEM;
		*overlay_len = ee->dt_len;
	}

	return 0;
}

/*
 * capebus_eeprom_ops.loading: tell the core whether the firmware applied
 * the HAT's overlay before Linux (its /hat node describes the HAT).
 */
static void rpi_slot_loading(struct capebus_eeprom_slots *es, unsigned int nr,
			     const struct capebus_cape_info *info)
{
	struct rpi_capebus *rc = capebus_eeprom_slots_get_data(es);
	bool firmware = rpi_applied_by_firmware(info, nr);

	if (firmware)
		dev_info(rc->dev, "slot %u: %s: overlay applied by the firmware (/hat)\n",
			 nr, info->text[CAPEBUS_PART_NUMBER]);
	if (capebus_slot_set_applied_by(capebus_slot(rc->ctrl, nr),
					firmware ? "/hat" : NULL))
		dev_warn(rc->dev, "out of memory: %s may be applied twice\n",
			 info->text[CAPEBUS_PART_NUMBER]);
}

static const struct capebus_eeprom_ops rpi_eeprom_ops = {
	.read		= rpi_slot_read,
	.loading	= rpi_slot_loading,
};

static int rpi_capebus_decode(struct capebus_controller *ctrl,
			      const void *image, size_t len,
			      struct capebus_cape_info *info,
			      const void **overlay, size_t *overlay_len,
			      char *why, size_t why_len)
{
	return rpi_decode_image(image, len, info, overlay, overlay_len, why,
				why_len);
}

static int rpi_capebus_overlay_name(struct capebus_controller *ctrl,
				    const struct capebus_cape_info *info,
				    char *name, size_t len)
{
	return rpi_overlay_name(info, name, len);
}

static const struct capebus_controller_ops rpi_capebus_ops = {
	.decode		= rpi_capebus_decode,
	.overlay_name	= rpi_capebus_overlay_name,
};

static int rpi_capebus_probe(struct platform_device *pdev)
{
	DECLARE_BITMAP(board, CAPEBUS_MAX_PINS) = { };
	struct device *dev = &pdev->dev;
	struct capebus_eeprom_slots *slots;
	struct rpi_capebus *rc;
	unsigned int num_slots;
	int ret;

	rc = devm_kzalloc(dev, sizeof(*rc), GFP_KERNEL);
	if (!rc)
		return -ENOMEM;
	rc->dev = dev;

	slots = devm_capebus_eeprom_slots_alloc(dev, RPI_MAX_SLOTS,
						&rpi_eeprom_ops, rc,
						&num_slots);
	if (IS_ERR(slots))
		return PTR_ERR(slots);

	rc->ctrl = devm_capebus_controller_alloc(dev, &rpi_header,
						 &rpi_capebus_ops, num_slots);
	if (IS_ERR(rc->ctrl))
		return PTR_ERR(rc->ctrl);

	ret = capebus_controller_of_read(rc->ctrl, dev);
	if (ret)
		return ret;

	rpi_board_pins(dev, board);
	ret = capebus_controller_hold_board_pins(rc->ctrl, board);
	if (ret)
		return ret;

	ret = devm_capebus_controller_register(dev, rc->ctrl);
	if (ret)
		return ret;

	/* Stopped by devres before the controller is unregistered. */
	return devm_capebus_eeprom_slots_start(slots, rc->ctrl);
}

static const struct of_device_id rpi_capebus_of_match[] = {
	{ .compatible = "raspberrypi,hat-capebus" },
	{ }
};
MODULE_DEVICE_TABLE(of, rpi_capebus_of_match);

static struct platform_driver rpi_capebus_driver = {
	.probe	= rpi_capebus_probe,
	.driver	= {
		.name		= "rpi-capebus",
		.of_match_table	= rpi_capebus_of_match,
	},
};
module_platform_driver(rpi_capebus_driver);

MODULE_DESCRIPTION("capebus: the Raspberry Pi 40-pin header (HAT, HAT+) controller");
MODULE_AUTHOR("capebus developers <capebus@lists.example.org>");
MODULE_LICENSE("GPL");
