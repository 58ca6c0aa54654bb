/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capetool: what overlay.c lends the device kinds (devkinds.c) to build
 * their nodes with, the tree and the build context staying overlay.c's.
 */
#ifndef CAPETOOL_OVERLAY_API_H
#define CAPETOOL_OVERLAY_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "capetool.h"

struct bctx;
struct onode;

const struct cape_def *ov_def(const struct bctx *c);
const struct board *ov_board(const struct bctx *c);
const char *ov_slug(const struct bctx *c);
void ov_err(struct bctx *c, const struct cape_dev *dv, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The key the build's errors name until set back (NULL: "devices"). */
void ov_err_key(struct bctx *c, const char *key);

/*
 * The __overlay__ of the unit or bus @dv->bus names (of board bus type
 * @want), enabled with status "okay" (and its pins, on a board-specific
 * overlay), after checking the cape muxes what the unit requires; NULL
 * after saying why.
 */
struct onode *ov_bus(struct bctx *c, const struct cape_dev *dv, const char *want);
/* Where platform devices go (bone_devices); NULL after saying why. */
struct onode *ov_devices(struct bctx *c, const struct cape_dev *dv);
/* The node the overlay built for the i2c/spi device @dv, or NULL. */
struct onode *ov_dev_node(struct bctx *c, const struct cape_dev *dv);

struct onode *ov_node(struct onode *parent, const char *name);
struct onode *ov_child(struct onode *parent, const char *name);
bool ov_has(struct onode *n, const char *prop);
void ov_str(struct onode *n, const char *prop, const char *s);
void ov_str_append(struct onode *n, const char *prop, const char *s);	/* a string list */
void ov_u32(struct onode *n, const char *prop, uint32_t v);
void ov_u32_append(struct onode *n, const char *prop, uint32_t v);
void ov_flag(struct onode *n, const char *prop);			/* empty property */
void ov_raw(struct onode *n, const char *prop, const void *val, size_t len);
/* <&NAME> of a unit/bus by board label: its exported name on a portable overlay. */
bool ov_unit_ref(struct bctx *c, const struct cape_dev *dv, struct onode *n, const char *prop,
		 const char *label);
/* A phandle of a node of the overlay. */
void ov_local_ref(struct bctx *c, struct onode *n, const char *prop, struct onode *to);
/* <&gpio LINE FLAGS> (or the connector's nexus) for header pin dv->pin, flags by dv->active_low. */
bool ov_gpio(struct bctx *c, const struct cape_dev *dv, struct onode *n, const char *prop);

/* devkinds.c: every device of a kind, after the other devices are built. */
void devkinds_build(struct bctx *c);

#endif
