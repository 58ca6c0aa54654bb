/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capebus: a cape overlay as a flattened tree, untrusted.  Pure logic (no
 * live tree, no locks), so that KUnit and a userspace fuzzer run the very
 * code the kernel runs.
 */
#ifndef _CAPEBUS_FDT_H
#define _CAPEBUS_FDT_H

#include <linux/types.h>

/* The root property that tells capebus's overlay notifier "this is mine". */
#define CAPEBUS_FDT_COOKIE_PROP	"capebus,apply-id"

/*
 * The root property listing, as phandles, the cape targets the overlay
 * enables (status = "okay" in a fragment's __overlay__): capebus takes those
 * edits out of the overlay and makes them itself (capebus-enable.c).
 */
#define CAPEBUS_FDT_ENABLE_PROP	"capebus,enable-targets"

/* Most targets one overlay may enable. */
#define CAPEBUS_FDT_MAX_ENABLES	8

/* Deepest node nesting a cape overlay may have (root = 0). */
#define CAPEBUS_FDT_MAX_DEPTH	16

/**
 * typedef capebus_fdt_lookup_t - what an exported name stands for
 * @ctx: the caller's context
 * @name: the name an overlay refers to (a __fixups__ label)
 * @phandle: where to store the phandle of the node the name stands for
 *
 * Return: 0, or -ENOENT if @name is not exported.
 */
typedef int (*capebus_fdt_lookup_t)(void *ctx, const char *name, u32 *phandle);

int capebus_fdt_resolve(const void *blob, size_t len,
			capebus_fdt_lookup_t lookup, void *ctx, u32 cookie,
			void **out, size_t *out_len, char *why, size_t why_len);
const void *capebus_fdt_root_prop(const void *fdt, const char *name,
				  u32 *len);

#endif /* _CAPEBUS_FDT_H */
