/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capetool: Raspberry Pi HAT (v1) and HAT+ (v2) ID EEPROMs.  The layout
 * comes from the kernel's UAPI header <linux/capebus-hat.h>; the settings
 * text is the one Raspberry Pi's eepmake reads (eeprom_settings.txt).
 */
#ifndef CAPETOOL_HAT_H
#define CAPETOOL_HAT_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>
#include <linux/capebus-hat.h>

/* The largest image create writes: a 24C512 (64 KiB). */
#define HAT_IMAGE_MAX 65536
#define HAT_GPIO_TOTAL (RPI_HAT_GPIO_BANK0_NUM + RPI_HAT_GPIO_BANK1_NUM)

struct hat_blob {
	uint8_t *data;
	size_t len;
};

/* An eepmake settings file, parsed. */
struct hat_settings {
	int version;			/* RPI_HAT_VERSION_1 or _2 */
	uint32_t uuid[4];		/* as in struct rpi_hat_vendor */
	bool uuid_generated;		/* all zero in the file: a random v4 UUID */
	uint16_t product_id, product_ver;
	char vendor[RPI_HAT_STRING_MAX + 1], product[RPI_HAT_STRING_MAX + 1];
	bool has_gpio[2];		/* banks 0 and 1 */
	uint8_t gpio_flags[2], back_power;
	uint8_t pins[HAT_GPIO_TOTAL];
	int gpio_line[HAT_GPIO_TOTAL];	/* the setgpio line of each, 0: none */
	uint32_t current_supply;	/* 0: no power supply atom */
	bool has_dt;
	struct hat_blob dt;
	struct hat_blob *custom;
	size_t ncustom;
	int dt_line;			/* dt_blob's line, 0: none */
};

/*
 * Read an eepmake settings file ("-": standard input).  @version 0: the
 * file says (a GPIO map is a v1 HAT, else HAT+).  @dt_file (v1 only) and
 * @custom_files (appended as custom atoms) are eepmake's other arguments.
 * Every error is reported, FILE:LINE: KEY: why; EXIT_*.
 */
int hat_settings_load(const char *path, int version, const char *dt_file,
		      char *const *custom_files, size_t ncustom_files, struct hat_settings *s);
/* The same, from @len bytes at @buf, @name in messages. */
int hat_settings_parse(const char *name, const uint8_t *buf, size_t len, int version,
		       const char *dt_file, char *const *custom_files, size_t ncustom_files,
		       struct hat_settings *s);
void hat_settings_free(struct hat_settings *s);
/* The image eepmake writes for @s (malloc'ed). */
uint8_t *hat_encode(const struct hat_settings *s, size_t *len);
/*
 * What the file at @path is, by content: 2 a HAT image ("R-Pi"), 1 eepmake
 * settings (or a text named .txt that is nothing else), 0 neither.
 */
int hat_input_kind(const char *path);
/* --hat-version N: 1 or 2, or -1 after saying why. */
int hat_version_option(const char *arg);
/* A GPIO map pin byte's function ("ALT0") and pull ("UP"), as eepmake writes them. */
const char *hat_func_name(uint8_t pin);
const char *hat_pull_name(uint8_t pin);
/* Text whose lines are eepmake settings (a key it knows, not "key ="). */
bool hat_looks_like_settings(const uint8_t *buf, size_t len);
bool hat_has_signature(const uint8_t *buf, size_t len);
/* CRC-16/ARC: poly 0x8005 reflected, init 0, no final xor. */
uint16_t crc16_arc(const void *buf, size_t len);

struct hat_atom {
	uint16_t type, count;
	uint32_t dlen;
	size_t offset;			/* of the atom header in the image */
	const uint8_t *data;		/* points into the decoded buffer */
	size_t len;			/* dlen - 2 */
	uint16_t crc;
};

struct hat_image {
	unsigned version, reserved, numatoms;
	uint32_t eeplen;
	size_t trailing;		/* bytes after eeplen in the buffer */
	struct hat_atom *atoms;		/* numatoms of them, malloc'ed */
	int vendor, gpio[2], dt, power;	/* atom index, -1: none */
	unsigned ncustom, unknown;
	uint32_t uuid[4];
	uint16_t product_id, product_ver;
	char vendor_str[RPI_HAT_STRING_MAX + 1], product_str[RPI_HAT_STRING_MAX + 1];
	uint32_t current_supply;
};

/* Decode; on error EXIT_* and *why.  hat_image_free() in every case. */
int hat_decode(const uint8_t *buf, size_t len, struct hat_image *im, char *why, size_t whylen);
void hat_image_free(struct hat_image *im);
/*
 * What the kernel refuses of an image hat_decode() took: its parser
 * (rpi-eeprom.c, linked in), the 40-pin header (rpi-header.c: a GPIO of
 * bank 1, EXIT_DEF), and a HAT+ overlay file name the capebus core
 * refuses.  0, or decode's EXIT_* for it and *why.
 */
int hat_kernel_refuses(const uint8_t *buf, size_t len, const struct hat_image *im, char *why,
		       size_t whylen);
/* "aaaaaaaa-bbbb-cccc-dddd-eeeeffffffff", as eepmake reads it */
void hat_uuid_str(const uint32_t u[4], char out[37]);

/*
 * decode's formats for a HAT image: text, JSON, eepdump's text, and the
 * settings create reads back (eepdump's text but for a one-line string
 * holding '#', which goes multi-line).
 */
enum hat_fmt { HAT_FMT_TEXT, HAT_FMT_JSON, HAT_FMT_EEPDUMP, HAT_FMT_SETTINGS };
int hat_decode_buffer(const char *src, const uint8_t *buf, size_t len, enum hat_fmt fmt,
		      const char *xfile);
/* the settings eepdump writes for @im, to @f; @readable: HAT_FMT_SETTINGS */
void hat_print_eepdump(FILE *f, const struct hat_image *im, bool readable);

/* ---- board-rpi.c: the Raspberry Pi 40-pin header profile (family rpi) ---- */
#define RPI_HDR_PINS 40
struct rpi_pin {
	int gpio;			/* BCM number; -1: a power or ground pin */
	char *fixed;			/* "3V3", "5V", "GND"; NULL: a GPIO */
	char *use;			/* what the Pi keeps it for (ID_SD...), or NULL */
	char *alt[6];			/* ALT0-ALT5; NULL: none listed */
};
/* A name the connector exports (export-symbols), as the profile states it. */
struct rpi_export {
	char *name, *target;		/* target NULL: a nexus (gpio-map, interrupt-map) */
	bool irq;			/* the interrupt nexus (interrupt-map), else the GPIO one */
	uint64_t pins;			/* its target-pins, bit n GPIOn */
	int cells[2];			/* #address-cells, #size-cells; -1: none */
	bool devices;			/* platform devices go there */
};
struct rpi_board {
	char *name, *description;
	struct rpi_pin pin[RPI_HDR_PINS];	/* by position - 1 */
	int pin_of_gpio[HAT_GPIO_TOTAL];	/* header position, 0: not on the header */
	/* the connector: bit n GPIOn */
	uint64_t board_pins, shared_pins, console_pins;
	struct rpi_export *exports;
	int nexports;
	char **platform;		/* platform-compatibles */
	int nplatform;
};
/* @name: a profile of family rpi (a name, "rpi", a path); NULL: "rpi". */
int rpi_board_load(const char *name, struct rpi_board *b);
void rpi_board_free(struct rpi_board *b);
/* The GPIO a connector pin name ("GPIO4") stands for, -1 if none of the header's. */
int rpi_gpio_of_name(const char *name);
/* The ALT number (0-5) a pin byte's function selects, -1: input or output. */
int rpi_alt_of_func(int func);

/* ---- hat-overlay.c: a HAT's overlay against the connector, as the kernel takes it ---- */
struct hat_overlay {
	char *file;			/* the overlay checked, as messages name it; NULL: none */
	char *missing;			/* a HAT+'s NAME.dtbo found nowhere beside it */
	uint64_t pins;			/* its exclusive-use, bit n GPIOn */
	uint64_t units;			/* bit i: it enables the target of exports[i] */
};
/* NAME.dtbo, NAME.dtso or NAME.dts in @file's directory (malloc'ed), or NULL. */
char *hat_overlay_find(const char *file, const char *name);
/*
 * The kernel's resolver on the overlay, through @b's exports, then the
 * connector's rules: EXIT_OK and what it holds in @ov, or EXIT_DEF and *why
 * (malloc'ed).  @map_pins: the GPIOs the HAT's GPIO map declares (a v1
 * HAT's; bit n GPIOn), which its GPIOs and interrupts through the
 * connector's nexus may use, as those its exclusive-use names.
 */
int hat_overlay_check(const struct rpi_board *b, const void *blob, size_t len, uint64_t map_pins,
		      struct hat_overlay *ov, char **why);
/*
 * The overlay of the HAT read from @file: @dt/@dtlen its device tree atom
 * (NULL: none), a v1 HAT's overlay or a HAT+'s overlay name, found beside
 * @file (not found: ov->missing).  EXIT_* (*why for EXIT_DEF).
 */
int hat_overlay_of(const struct rpi_board *b, const char *file, int version, const uint8_t *dt,
		   size_t dtlen, uint64_t map_pins, struct hat_overlay *ov, char **why);
/* The GPIOs its overlay holds: exclusive-use and its units' pins, not the shared ones. */
uint64_t hat_overlay_held(const struct rpi_board *b, const struct hat_overlay *ov);
void hat_overlay_free(struct hat_overlay *ov);
/* Why GPIO @g, one of @b's board-pins or console-pins, is no HAT's (static). */
const char *hat_board_pin_why(const struct rpi_board *b, int g);
/* Who holds GPIO @g of @b for good: "the board", "the board's serial console", or NULL. */
const char *hat_board_pin_holder(const struct rpi_board *b, int g);
/* ---- hat-stack.c: HATs on the header, as check and pinout take them ---- */
struct hat_use {
	char *file;			/* as messages name it */
	int version;			/* 0: not read */
	int addr;			/* its ID EEPROM's address, 0x50-0x53 */
	bool addr_given, image;
	char vendor[RPI_HAT_STRING_MAX + 1], product[RPI_HAT_STRING_MAX + 1];
	uint8_t pins[HAT_GPIO_TOTAL];	/* GPIO map bytes (RPI_HAT_PIN_*), 0: unused */
	int line[HAT_GPIO_TOTAL];	/* settings: each GPIO's setgpio line; 0: none */
	bool gpio_map_v2, power_v1;	/* an image's atoms its version has not */
	uint32_t current_supply;
	char *path;			/* the file, where its HAT+ overlay is looked for */
	uint8_t *dt;			/* its device tree atom (NULL: none) */
	size_t dtlen;
	int dt_line;			/* settings: dt_blob's line */
	struct hat_overlay ov;		/* after hat_use_overlay() */
	char *ov_why;			/* why its overlay is refused, or NULL */
	char *kernel_why;		/* an image: why the kernel's parser refuses it */
	int kernel_rc;			/* and decode's EXIT_* for that */
};
/*
 * FILE[@ADDR]: the file (when no file has the whole name) and the address
 * (-1: none given).  EXIT_USAGE after saying why for an address no HAT
 * answers at.  *path malloc'ed.
 */
int hat_arg(const char *arg, char **path, int *addr);
/*
 * A HAT settings file or image at FILE[@ADDR]; EXIT_*, every error said.
 * Settings are read as @version (0: a GPIO map makes a v1 HAT, else a
 * HAT+; at 0x51-0x53, a HAT+).
 */
int hat_use_load(const char *arg, int version, struct hat_use *u);
void hat_use_free(struct hat_use *u);
/* @u (zeroed, its file and path set) from settings read. */
void hat_use_settings(struct hat_use *u, const struct hat_settings *s);
#define HAT_VERIFY_FORCE	1u	/* the connector's GPIO map rules: warnings */
#define HAT_VERIFY_MISSING	2u	/* a warning for a HAT+ overlay not beside it */
/*
 * create's, flash's and decode's check of HAT @u, as check takes it alone
 * on @board's connector (NULL: rpi): what the kernel's parser refuses of
 * an image, its GPIO map against the connector (board and console pins,
 * bank 1), its overlay through the kernel's resolver.  EXIT_*, every
 * problem said (FILE:LINE: KEY: for settings).
 */
int hat_verify(struct hat_use *u, const char *board, unsigned int flags);
/* hat_verify() of the image of @len bytes at @buf, read from @path (rpi). */
int hat_verify_image(const char *path, const uint8_t *buf, size_t len, unsigned int flags);
/* Its overlay against @b's connector (u->ov, u->ov_why); EXIT_* but EXIT_DEF, said. */
int hat_use_overlay(const struct rpi_board *b, struct hat_use *u);
/* The GPIOs it holds: its map's and its overlay's, not the shared ones. */
uint64_t hat_use_held(const struct rpi_board *b, const struct hat_use *u);
/* How @u's overlay holds GPIO @g: "exclusive-use", a unit's name; NULL: by its map, or not. */
const char *hat_use_holder(const struct rpi_board *b, const struct hat_use *u, int g);
/* Do @u and @v both hold GPIO @g, not only through a unit both enable? */
bool hat_uses_clash(const struct rpi_board *b, const struct hat_use *u, const struct hat_use *v, int g);
/* "GPIO4 (pin 7)" (the profile's pin), "GPIO30" off the header. */
void hat_gpio_name(const struct rpi_board *b, int g, char *out, size_t n);
/* check of HATs: each alone, then stacked in the order given.  EXIT_*. */
int hat_check(const char *board, char *const *args, int n, int version, bool quiet);

#endif
