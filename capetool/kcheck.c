// SPDX-License-Identifier: GPL-2.0
/*
 * capetool: the kernel's own parsers (kcheck.h), compiled with the kernel
 * files against the userspace shim, not with capetool's headers.
 */
#include <linux/errno.h>
#include <linux/types.h>

#include <linux/capebus.h>

#include "capebus-fdt.h"
#include "rpi-eeprom.h"
#include "rpi.h"
#include "kcheck.h"

const size_t kcheck_hat_overlay_max = RPI_EEPROM_OVERLAY_MAX;

int kcheck_hat_image(const void *buf, size_t len, bool *header, char *why, size_t why_len)
{
	struct rpi_eeprom ee;
	struct capebus_cape_info info;
	int ret = rpi_eeprom_parse(&ee, buf, len, why, why_len);

	*header = false;
	if (ret)
		return ret;
	/* as rpi_decode_image(): the HAT on the 40-pin header */
	ret = rpi_info_from_eeprom(&info, &ee, why, why_len);
	*header = ret != 0;
	return ret;
}

int kcheck_resolve(const void *blob, size_t len, kcheck_lookup_t lookup, void *ctx,
		   void **out, size_t *out_len, char *why, size_t why_len)
{
	return capebus_fdt_resolve(blob, len, &capebus_fdt_cape_limits, lookup, ctx,
				   out, out_len, NULL, why, why_len);
}

const void *kcheck_root_prop(const void *fdt, const char *name, uint32_t *len)
{
	return capebus_fdt_root_prop(fdt, name, len);
}

int kcheck_target_prop(const void *fdt, unsigned int i, uint32_t *target,
		       const char **fragment, const char **name)
{
	struct capebus_fdt_target_prop tp;
	int ret = capebus_fdt_target_prop(fdt, i, &tp);

	if (ret)
		return ret;
	*target = tp.target;
	*fragment = tp.fragment;
	*name = tp.name;
	return 0;
}
