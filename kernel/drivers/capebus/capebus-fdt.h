/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capebus: a cape overlay as a flattened tree, untrusted.  Pure logic (no
 * live tree, no locks), so that KUnit and a userspace fuzzer run the very
 * code the kernel runs.
 */
#ifndef _CAPEBUS_FDT_H
#define _CAPEBUS_FDT_H

#include <linux/types.h>

/*
 * The root property listing, as phandles, the cape targets the overlay
 * enables (status = "okay" in a fragment's __overlay__): capebus takes those
 * edits out of the overlay and makes them itself (capebus-enable.c).
 */
#define CAPEBUS_FDT_ENABLE_PROP	"capebus,enable-targets"

/*
 * The root property carrying the properties fragments set on the targets
 * they enable (beside status = "okay" in the same __overlay__: an RS-485
 * UART's rts-gpios), taken out of the overlay as status is: capebus sets
 * them itself, if the connector lets capes set them on that target
 * (target-properties), and reverts them with the status (capebus-enable.c).
 * Records, each 4-byte aligned: the target's phandle, the value's length
 * (both big-endian), the fragment's name and the property's name (each
 * NUL-terminated), padding, the value (capebus_fdt_target_prop()).
 */
#define CAPEBUS_FDT_PROPS_PROP	"capebus,target-props"

/* Most targets one overlay may enable. */
#define CAPEBUS_FDT_MAX_ENABLES	8

/*
 * Most bytes CAPEBUS_FDT_PROPS_PROP's records may take: an RS-485 UART's
 * five properties take about 200.
 */
#define CAPEBUS_FDT_MAX_TARGET_PROPS	4096

/*
 * Deepest node nesting a cape overlay may have (root = 0): an LCD cape's
 * display timings sit at 5 (fragment, __overlay__, panel, timings, mode).
 */
#define CAPEBUS_FDT_MAX_DEPTH	10

/*
 * What the driver core puts in a device's uevent (2 KiB, 32 keys; more
 * WARNs at every uevent): the node's path and name, one key per compatible
 * string and all of them again in MODALIAS.  Real capes: names of at most
 * 34 characters, 4 compatible strings of 60 bytes.
 */
#define CAPEBUS_FDT_MAX_NAME		64
#define CAPEBUS_FDT_MAX_LABEL		64	/* label, device_type, status */
#define CAPEBUS_FDT_MAX_COMPATIBLES	8
#define CAPEBUS_FDT_MAX_COMPATIBLE_LEN	256

/*
 * Largest value of a "#...-cells" property (#address-cells and #size-cells
 * have their own, the kernel's): what the OF code reads into fixed arrays
 * of MAX_PHANDLE_ARGS (16) cells, with room to spare.
 */
#define CAPEBUS_FDT_MAX_CELLS		8
#define CAPEBUS_FDT_MAX_ADDRESS_CELLS	3
#define CAPEBUS_FDT_MAX_SIZE_CELLS	2

/**
 * struct capebus_fdt_limits - what one overlay may hold
 * @max_size: bytes of the blob
 * @max_nodes: nodes, the metadata nodes (fragments, __fixups__,
 *	__local_fixups__ and theirs) included
 * @max_props: properties, in all
 * @max_node_props: properties of one node
 * @max_refs: references: __fixups__ entries and __local_fixups__ cells
 * @max_name_pairs: pairs of changeset entries (nodes, properties) on nodes
 *	of one name, which the kernel's overlay code compares with each other
 *	(cb_check_cost())
 *
 * The cost of checking, resolving and applying an overlay grows with these;
 * capes are far below capebus_fdt_cape_limits.
 */
struct capebus_fdt_limits {
	u32 max_size;
	u32 max_nodes;
	u32 max_props;
	u32 max_node_props;
	u32 max_refs;
	u32 max_name_pairs;
};

extern const struct capebus_fdt_limits capebus_fdt_cape_limits;

/**
 * typedef capebus_fdt_lookup_t - what an exported name stands for
 * @ctx: the caller's context
 * @name: the name an overlay refers to (a __fixups__ label)
 * @phandle: where to store the phandle of the node the name stands for
 *
 * Return: 0, or -ENOENT if @name is not exported.
 */
typedef int (*capebus_fdt_lookup_t)(void *ctx, const char *name, u32 *phandle);

/**
 * struct capebus_fdt_info - what capebus_fdt_resolve() learnt of an overlay
 * @nodes: nodes of the overlay's fragments (below __overlay__)
 * @props: properties of those nodes
 * @phandles: nodes with a phandle, renumbered 1..@phandles in the result
 * @refs: references resolved (__fixups__) and kept (__local_fixups__)
 */
struct capebus_fdt_info {
	u32 nodes;
	u32 props;
	u32 phandles;
	u32 refs;
};

int capebus_fdt_resolve(const void *blob, size_t len,
			const struct capebus_fdt_limits *limits,
			capebus_fdt_lookup_t lookup, void *ctx,
			void **out, size_t *out_len,
			struct capebus_fdt_info *info, char *why, size_t why_len);
const void *capebus_fdt_root_prop(const void *fdt, const char *name,
				  u32 *len);

/**
 * struct capebus_fdt_target_prop - a property a fragment sets on the target
 *	it enables (CAPEBUS_FDT_PROPS_PROP)
 * @target: the target's phandle
 * @fragment: the fragment's name
 * @name: the property's name
 * @value: its value, references resolved
 * @len: bytes at @value
 */
struct capebus_fdt_target_prop {
	u32 target;
	const char *fragment;
	const char *name;
	const void *value;
	u32 len;
};

int capebus_fdt_target_prop(const void *fdt, unsigned int i,
			    struct capebus_fdt_target_prop *tp);

#endif /* _CAPEBUS_FDT_H */
