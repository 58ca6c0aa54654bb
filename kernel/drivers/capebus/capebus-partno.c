// SPDX-License-Identifier: GPL-2.0
/*
 * capebus: the disable_partno= and enable_partno= parameters, kept for the
 * habits of the users of an older cape manager.  Both are comma lists of
 * PART[:VERSION].  They apply to the capes of the controllers whose header
 * says so (capebus_header.partno_params): part numbers are a family's own.
 */

#include <linux/capebus.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include "capebus-internal.h"

static char *disable_partno;
module_param(disable_partno, charp, 0444);
MODULE_PARM_DESC(disable_partno,
		 "Comma list of PART[:VERSION] that are detected but not loaded");

static char *enable_partno;
module_param(enable_partno, charp, 0444);
MODULE_PARM_DESC(enable_partno,
		 "Comma list of PART[:VERSION] loaded in virtual slots at boot, with their firmware overlay");

/* Is @info's PART[:VERSION] in @list? */
static bool capebus_partno_listed(const char *list,
				  const struct capebus_cape_info *info)
{
	const char *part = info->text[CAPEBUS_PART_NUMBER];
	const char *version = info->text[CAPEBUS_VERSION];
	size_t plen = strlen(part);
	const char *p = list;

	while (p && *p) {
		const char *end = strchrnul(p, ',');
		const char *colon = strnchr(p, end - p, ':');
		const char *pend = colon ?: end;

		if (pend - p == plen && !strncmp(p, part, plen) &&
		    (!colon || (end - colon - 1 == strlen(version) &&
				!strncmp(colon + 1, version, end - colon - 1))))
			return true;
		p = *end ? end + 1 : end;
	}

	return false;
}

/* Does disable_partno name @info's part? */
bool capebus_partno_disabled(const struct capebus_cape_info *info)
{
	return capebus_partno_listed(disable_partno, info);
}

/* The enable_partno list, or NULL. */
const char *capebus_partno_enabled(void)
{
	return enable_partno;
}
