/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capetool: shared declarations.  The EEPROM layout itself comes from the
 * kernel's UAPI header <linux/capebus-bone.h>; nothing here restates it.
 */
#ifndef CAPETOOL_H
#define CAPETOOL_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>
#include <linux/capebus-bone.h>

#define CAPETOOL_VERSION "0.1.0"

/* Exit codes (documented in capetool(1) and `capetool --help`). */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,		/* any other failure */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_DEF = 3,		/* invalid input file: definition, board, escape hatch */
	EXIT_IO = 4,		/* cannot read or write a file (any file) */
	EXIT_CONFLICT = 5,	/* check: pin, bus address or slot conflict */
	EXIT_POWER = 6,		/* check: power over budget */
	EXIT_REFUSED = 7,	/* flash: EEPROM holds another part (--force) */
	EXIT_VERIFY = 8,	/* flash: read-back differs */
	EXIT_NODEV = 9,		/* EEPROM/configfs/sysfs missing or write-protected */
	EXIT_MAGIC = 10,	/* decode: bad magic */
	EXIT_REVISION = 11,	/* decode: unknown format revision */
	EXIT_TEXT = 12,		/* decode: bad text field */
	EXIT_CRC = 13,		/* decode: CRC mismatch */
	EXIT_TRUNCATED = 14,	/* decode: image too short / bad extension area */
	EXIT_KERNEL = 15,	/* override: the kernel refused the cape */
	EXIT_TREE = 16,		/* resolve, check --dtb: the target tree lacks what it needs */
};

/* ---- util.c ---- */
extern const char *progname;
extern bool err_quiet;		/* err() prints nothing (fuzzing) */
void err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void str_append(char **s, const char *sep, const char *add);
/*
 * "-" is standard input where a command reads one file and standard output
 * where it writes one; in messages "<stdin>" and "<stdout>".
 */
bool is_stdio(const char *path);
bool binary_to_tty(const char *path);	/* "-" to a terminal: said, true */
/*
 * stage_file() fsyncs what it writes: set by flash and read, whose files
 * (an EEPROM's old content, its dump) may be all that is left of it after
 * a power cut.  Other outputs are regenerated at will: written to a
 * temporary file and renamed into place, no partial file is ever seen,
 * and the page cache takes them at dtc's speed.
 */
extern bool sync_outputs;
const char *in_name(const char *path);
const char *out_name(const char *path);
/* Whole file into a malloc'ed buffer (8-byte aligned); 0 or -errno.  "-":
 * standard input (read once; every read of "-" gets the same bytes). */
/* The most read_file reads: 1 MiB (a cape EEPROM is at most 32 KiB). */
#define CAPETOOL_READ_MAX (1024 * 1024)
int read_file(const char *path, uint8_t **buf, size_t *len);
/* Atomic: a temporary file in @path's directory, renamed over @path.
 * "-": standard output. */
int write_file(const char *path, const void *buf, size_t len);
int stage_file(const char *path, const void *buf, size_t len, char **tmp);
int commit_file(char *tmp, const char *path);	/* path NULL: discard */
int make_dirs(const char *dir);			/* mkdir -p; 0 or -errno */
/* Read a small sysfs/configfs text attribute, trailing newline stripped. */
char *read_attr(const char *path);
char *read_link_name(const char *path);
int write_attr(const char *path, const char *val);
int write_attr_bin(const char *path, const void *buf, size_t len);
char *path_dirname(const char *path);
void json_str(const char *s);
void json_lines(const char *s);
char *tmp_template(const char *name);
/*
 * libfdt's whole-structure check on untrusted bytes: 0 or -FDT_ERR_*.  Only
 * version 17 blobs (what dtc writes, what overlays are): the host's libfdt
 * 1.6.1 fdt_check_full() reads NULL on older ones (red team 14 F5).
 */
int fdt_check_untrusted(const void *fdt, size_t len);
void xml_text(FILE *f, const char *s);
/* ", \"KEY\": " and @val as a JSON string, or null */
void json_opt(const char *key, const char *val);
/*
 * Close the open_memstream @f and write what it holds to @path as every
 * output is written (write_file; "-": standard output).  EXIT_*, said.
 */
int memstream_write(FILE *f, char **mem, size_t *len, const char *path);
/* Words on standard output wrapped at 79 columns, continuation lines indented. */
struct wrap { int col; bool fresh; };
void wrap_start(struct wrap *w, const char *indent);
void wrap_word(struct wrap *w, const char *s);
void wrap_end(struct wrap *w);
bool utf8_valid(const char *s);
/*
 * The candidate nearest @word (edit distance, case ignored, a start of the
 * other counting as near), for "did you mean": NULL if none is near.
 */
const char *closest(const char *word, const char *const *cands, size_t n);
bool wants_help(int argc, char **argv);
/* --slot N for decode and flash: N, or -1 after saying why. */
int parse_slot_option(const char *arg);

/* ---- crc32.c ---- */
uint32_t crc32_iso_hdlc(const void *buf, size_t len);

/* ---- pins (eeprom.c) ---- */
#define CAPE_NPINS CAPE_EEPROM_A1_NUM_PINS
/* The parts cape EEPROMs are: 24C256, 32 KiB. */
#define CAPE_EEPROM_SIZE_MAX 32768
extern const char *const cape_pin_names[CAPE_NPINS];
extern const char *const cape_pin_signals[CAPE_NPINS];
/* "P8.13", also "P8_13", "p8.13", "P8_07": "P8.13" in @out; false if no header position. */
bool pin_canonical(const char *name, char *out, size_t n);
int cape_pin_index(const char *name);		/* -1 if not a header signal; as pin_canonical */
static inline bool cape_pin_is_ain(int idx) { return idx >= CAPE_BONE_FIRST_AIN; }

/* ---- schema.c: compiled-in schema and validator ---- */
struct config_t;
struct config_setting_t;
extern const char embedded_cape_schema[];
extern const char embedded_board_schema[];
/* Validate @root against the schema text; messages "FILE:LINE: KEY: why". */
int schema_validate(const char *schema_text, const char *file, struct config_setting_t *root);
/* Print the definition-format section as roff (man page) or plain text. */
int schema_print_doc(const char *schema_text, bool roff);

/* ---- def.c: definition parsing ---- */
struct board;
/* DEV_PWM and after: the device kinds of devkinds.c. */
enum dev_type { DEV_I2C, DEV_SPI, DEV_LED, DEV_KEY, DEV_W1, DEV_UART,
		DEV_PWM, DEV_ADC, DEV_CAN, DEV_RS485, DEV_LCD, DEV_AUDIO, DEV_NTYPES };

struct prop_gpio {		/* a header-pin GPIO reference: <&bone_gpio CODE FLAGS> */
	int idx;		/* pin index */
	uint32_t flags;
};

struct prop {			/* an extra property from `properties` */
	char *name;
	uint8_t *val;
	size_t len;
	struct prop_gpio *gpio;	/* ngpio > 0: the value is these references, not val */
	size_t ngpio;
};

struct cape_dev {
	enum dev_type type;
	int line;
	char *bus, *compatible, *name, *label, *pin, *default_state, *trigger;
	uint8_t *compat;	/* compatible's strings, NUL-separated; compatible is the first */
	size_t compat_len;
	int address, cs, max_freq, code;
	int debounce;		/* key: debounce-interval, ms; -1: the kernel's default */
	bool active_low;
	bool autorepeat;	/* key: in the cape's gpio-keys device with autorepeat */
	bool wakeup;		/* key: wakeup-source, the key may wake the system */
	bool has_irq;		/* i2c, spi: an interrupt from header pin irq_pin */
	int irq_pin;
	uint32_t irq_type;	/* its IRQ_TYPE_* trigger */
	struct prop *props;
	size_t nprops;
	bool bad;		/* an error was reported: left out of the overlay */
	struct kind_data *kind;	/* DEV_PWM and after: devkinds.c's (bus: the unit) */
	bool hatch;		/* a node of the escape-hatch overlay at a bus address
				 * (overlay_build adds these, for the address checks) */
};

struct cape_pin {
	int idx;		/* index in CAPE_BONE_PIN_NAMES */
	uint16_t word;		/* pin-usage word */
	int line;
};

struct cape_def {
	char *file;
	bool a0;
	char board_name[CAPE_EEPROM_BOARD_NAME_LEN + 1];
	char version[CAPE_EEPROM_VERSION_LEN + 1];
	char manufacturer[CAPE_EEPROM_MANUFACTURER_LEN + 1];
	char part_number[CAPE_EEPROM_PART_NUMBER_LEN + 1];
	char serial[CAPE_EEPROM_SERIAL_LEN + 1];
	int part_line;		/* of eeprom.part-number, 0 if none */
	uint16_t power[4];	/* vdd-3v3b vdd-5v sys-5v dc-supplied */
	int power_line;		/* of the power group, 0 if none */
	struct cape_pin pins[CAPE_NPINS];
	size_t npins;
	struct cape_dev *devs;
	size_t ndevs;
	char *overlay;		/* escape hatch path, resolved */
	int overlay_line;	/* of the overlay key */
	bool parsed;		/* read and parsed: what it holds can be checked further */
};

/*
 * Read and validate a definition ("-": standard input) for board @b (mode
 * names, GPIO modes; NULL: the BeagleBone Black's table).  Every error is
 * reported, FILE:LINE; EXIT_*.  On EXIT_DEF with def->parsed, what is valid
 * is filled in (devices with an error marked bad) for further checks.
 */
int def_load(const char *path, const struct board *b, struct cape_def *def);
void def_syntax_error(const char *path, const struct config_t *cfg);
void def_free(struct cape_def *def);
const char *dev_type_name(enum dev_type t);

/* ---- devkinds.c: the device kinds pwm, adc, can, rs485, lcd, audio ---- */
struct kind_ctx {		/* def.c's, for the kinds' own checks */
	const char *file;
	int *errors;
	const struct board *t;	/* functions by mux mode (board_functions()) */
};
static inline bool dev_is_kind(enum dev_type t) { return t >= DEV_PWM && t < DEV_NTYPES; }
/*
 * The keys of device @i of @d (group @g; the schema has checked them) into
 * @dv: every error said "FILE:LINE: KEY: why" and counted.
 */
void devkind_parse(const struct kind_ctx *c, struct config_setting_t *g, int i,
		   const struct cape_def *d, struct cape_dev *dv);
bool devkind_complete(const struct cape_dev *dv);
void devkind_free(struct cape_dev *dv);
/* "PWM ehrpwm1", "LCD panel": a device as pinout names it. */
char *devkind_short_name(const struct cape_dev *dv);
/* The PWM unit a device drives (a pwm device, an LCD's backlight), or NULL. */
const char *devkind_pwm_unit(const struct cape_dev *dv);
struct board_bus;
/* Whether a pin of @d is muxed as an output of PWM unit @bus, of @channel (any: < 0). */
bool pwm_out_muxed(const struct board_bus *bus, const struct cape_def *d, int channel,
		   char *outs, size_t outsz);

/* ---- board.c: board profiles ---- */
struct bus_mux {		/* a pin of the bus's function */
	int idx, mode;
	char *signal;
	bool required;
	bool rx;		/* the function reads the pad: its receiver must be on */
	bool clock;		/* a clock it drives or takes, read back through the pad
				 * either way (rx too) */
};

struct bus_reserved {		/* an address the board holds on the bus */
	int addr;
	char *holder;
};

struct board_bus {
	char *name, *label, *type;
	char **pins;
	size_t npins;
	bool board_enabled;
	struct bus_mux *mux;
	size_t nmux;
	struct bus_reserved *reserved;
	size_t nreserved;
	char **parents;		/* labels above it the stock tree leaves disabled */
	size_t nparents;
	char *adc_channels;	/* label of the node listing its inputs, none in the stock tree */
};

struct board_pin {
	int idx;
	char *gpio;
	int line;
	int conf;		/* -1: no pad conf register */
	unsigned offers;	/* mux modes the pad offers capes, bit n for mode n */
	char *config_pin[8];	/* config-pin's word by mux mode; NULL where none */
};

/* One header position as the profile's "header" describes it (pinout). */
#define BOARD_HDR_ROWS 23		/* each header is 2 x 23 */
struct board_hdr {
	char *name;		/* a signal pin's name; NULL: the UAPI's mode-0 signal */
	char *fixed;		/* power, ground, reset or ADC-reference name; NULL: signal */
	char *use;		/* what the board uses it for; NULL: nothing said */
	char *modes[8];		/* function by mux mode; NULL where unknown */
};

/* A name the board's cape connector exports (its export-symbols node). */
struct board_export {
	char *name;
	char *target;		/* a label, or a path starting with /; NULL: a nexus */
	bool irq;		/* the interrupt nexus (<&NAME PIN TYPE>), else the GPIO one */
	char **props;		/* target-properties: what a cape enabling it may set */
	size_t nprops;
};

/* A way to set the board up that gives board-pins to capes (--variant). */
struct board_variant {
	char *name, *description;
	bool frees[CAPE_NPINS];
};

struct board {
	char *name, *description, *pinmux, *devices_target;
	struct board_variant *variants;
	size_t nvariants;
	char *variant;		/* the variants applied ("no-hdmi,no-emmc"), or NULL */
	bool detected;		/* the profile was picked from the running device tree */
	char **compatible;
	size_t ncompatible;
	unsigned budget[3];
	int slots;
	bool board_pin[CAPE_NPINS], shared_pin[CAPE_NPINS];
	struct board_bus *buses;
	size_t nbuses;
	struct board_pin pins[CAPE_NPINS];	/* by index; gpio NULL if absent */
	struct board_hdr hdr[2][BOARD_HDR_ROWS * 2];	/* "header": [P8, P9][pin - 1] */
	bool has_hdr;
	bool has_modes;		/* the header lists functions by mux mode */
	struct board_export *exports;	/* none: create emits board-specific overlays */
	size_t nexports;
};

struct board_src { const char *name; const char *text; };
extern const struct board_src embedded_boards[];
/* NAME of a compiled-in profile, a path to a .board file, or NULL: detect. */
int board_load(const char *name, struct board *b);	/* EXIT_* */
/*
 * The profile text of @name (a compiled-in profile, a family one profile
 * has, "rpi", or a path) into @cfg, config_init'ed; EXIT_*, said.  The
 * caller config_destroys it on EXIT_OK.
 */
int board_read_config(const char *name, struct config_t *cfg);
/* The profile's family: "bone" (the default) or "rpi". */
const char *board_family(const struct config_t *cfg);
/* @name is a family rpi profile (a Raspberry Pi 40-pin header). */
bool board_is_rpi(const char *name);
const char *board_detect(void);
/*
 * --variant LIST: the board's variants named (comma-separated) give their
 * pins to capes.  EXIT_OK, or EXIT_USAGE after naming the variants there are.
 * Without a list, on a board detected from the running device tree, the
 * variants whose pins the connector's board-pins (the live tree's
 * /capebus/board-pins) leaves out are applied.
 */
int opt_variant(const char **variant, const char *arg);
int board_apply_variants(struct board *b, const char *list);
#define OPT_VARIANT 0x100	/* getopt value of --variant (no short option) */
/* The variant that would give board pin @idx to capes, or NULL. */
const struct board_variant *board_variant_freeing(const struct board *b, int idx);
void board_free(struct board *b);
const struct board_bus *board_find_bus(const struct board *b, const char *name);
/* "P8.13" -> header 0 (P8) or 1 (P9) and position 1-46; false if not one. */
bool header_position(const char *name, int *hdr, int *pos);
/* The profile's "header" entry of signal pin @idx, or NULL. */
const struct board_hdr *board_hdr_of(const struct board *b, int idx);
/*
 * The functions by mux mode that pin words name: @b's, else (a board with
 * no pin multiplexer, @b NULL) the BeagleBone Black profile's, which is
 * the AM335x's for every board with the header.
 */
const struct board *board_functions(const struct board *b);
/* Function of @mode on pin @idx in table @t ("gpio0_23"), NULL if none. */
const char *board_function(const struct board *t, int idx, int mode);
/* The mode whose function is the pin's GPIO, -1 if the table has none. */
int board_gpio_mode(const struct board *t, int idx);
/* The mux entry of the board-enabled bus a shared pin belongs to, or NULL. */
const struct bus_mux *board_shared_mux(const struct board *b, int idx, const struct board_bus **bus);
/*
 * The export of that name; the export whose target is @target; the GPIO
 * nexus; the interrupt nexus.
 */
const struct board_export *board_find_export(const struct board *b, const char *name);
const struct board_export *board_export_of(const struct board *b, const char *target);
const struct board_export *board_gpio_export(const struct board *b);
const struct board_export *board_irq_export(const struct board *b);
/* "NAME, NAME, ..." of the exports (malloc'ed; "none" if there are none). */
char *board_export_list(const struct board *b);
/* bone_gpio pin codes: 800+n for P8.n, 900+n for P9.n; -1 if not a header signal. */
int pin_code(int idx);
int pin_code_index(uint32_t code);

/* ---- eeprom.c: encode/decode ---- */
struct cape_image {
	bool a0;
	char board_name[CAPE_EEPROM_BOARD_NAME_LEN + 1];
	char version[CAPE_EEPROM_VERSION_LEN + 1];
	char manufacturer[CAPE_EEPROM_MANUFACTURER_LEN + 1];
	char part_number[CAPE_EEPROM_PART_NUMBER_LEN + 1];
	char serial[CAPE_EEPROM_SERIAL_LEN + 1];
	unsigned num_pins;
	uint16_t pins[CAPE_NPINS];
	unsigned npinwords;
	uint16_t power[4];
	/* extension area */
	bool has_ext;
	unsigned ext_version, ext_count, ext_length;
	bool has_id_crc, id_crc_ok;
	uint32_t id_crc, id_crc_calc;
	const uint8_t *overlay;		/* points into the decoded buffer */
	size_t overlay_len;
	bool overlay_crc_ok;
	uint32_t overlay_crc;
	unsigned unknown_records;
	size_t total_len;		/* standard area + extension area */
};

/* Encode; if @dtbo, add ID_CRC + OVERLAY records.  Returns malloc'ed image. */
uint8_t *eeprom_encode(const struct cape_def *def, const void *dtbo, size_t dtbo_len,
		       size_t *len);
/* Decode; on error returns EXIT_* and sets *why (static or malloc'ed text). */
int eeprom_decode(const uint8_t *buf, size_t len, struct cape_image *img, char *why, size_t whylen);
/* One pin word in the kernel's words: "P9.19 mode3 bidir pull-up rx slow". */
void pin_words(int idx, uint16_t word, char *out, size_t outlen);
size_t eeprom_std_size(bool a0);
/* The inverse of pin_words: one line of a cape's "pins" attribute; 0 or -1. */
int pin_words_parse(const char *line, int *idx, uint16_t *word);
/* The buffer starts with the cape EEPROM magic AA 55 33 EE. */
bool eeprom_has_magic(const uint8_t *buf, size_t len);
/* A buffer without that magic: what it is instead (a definition, a device
 * tree), as a sentence for the user, or NULL. */
const char *file_kind_not_image(const uint8_t *buf, size_t len);
/* Text that begins "/dts-v1/" (after comments): a device tree source (util.c). */
bool is_dt_source(const uint8_t *buf, size_t len);

/* ---- dt-source.c: device tree sources, compiled as the kernel's build does ---- */
/* A name a source goes by: .dts, .dtso. */
bool dt_source_path(const char *path);
/* Does the source text use the C preprocessor (#include, #define, #if)? */
bool dt_source_wants_cpp(const uint8_t *text, size_t len);
/*
 * The kernel's dtc flow: cpp -nostdinc -undef -D__DTS__ -x
 * assembler-with-cpp, the source's directory and each -I DIR on the include
 * path (dt-bindings/: the kernel's include/ or scripts/dtc/include-prefixes).
 * *out: the preprocessed source's temporary file (unlink and free it).  EXIT_*, said.
 */
int dt_source_preprocess(const char *src, char *const *incs, int nincs, char **out);
/* dtc (-@ with @symbols) on @src into *blob (malloc'ed): NULL, or why not ("it failed"). */
const char *dtc_compile(const char *src, bool symbols, uint8_t **blob, size_t *len);
/*
 * The blob at @path, or the one dtc (-@ with @symbols) makes of it when it
 * is a source (named .dts/.dtso, or "/dts-v1/"), through cpp first when it
 * uses the preprocessor or @nincs include directories are given.  EXIT_*,
 * said (no dtc: EXIT_FAIL, saying what to install).
 */
int dt_source_read(const char *path, char *const *incs, int nincs, bool symbols, uint8_t **blob,
		   size_t *len);
bool buf_is_text(const uint8_t *buf, size_t len);

/* ---- overlay.c: overlay building ---- */
/*
 * Build the overlay blob for @def on @b; returns EXIT_*; *blob malloc'ed.
 * A board with exports gets the portable overlay (exported names only, no
 * pinmux); one without, the board-specific overlay (its labels, pinmux).
 */
int overlay_build(struct cape_def *def, const struct board *b, void **blob, size_t *len);
/*
 * resolve: a portable overlay into one for @b: exported names to the
 * board's labels or paths, <&gpio-nexus PIN FLAGS> to the SoC's GPIO
 * controller and line, and a pinmux fragment for @pins (pin words by pin
 * index, 0: unused) referenced by the nodes that use the pins.  @part (the
 * cape's part number) names the pinmux groups.  EXIT_*; @src names the
 * input in messages.  @unmuxed (CAPE_NPINS, may be NULL): the pins put in
 * the group no device references, which a bootloader applying the
 * overlay leaves unmuxed.
 */
/*
 * The part number as the overlay's node names begin with it (lower case,
 * '-' for anything not a letter or digit): "bb-led-x" for BB_LED_X.
 * malloc'ed.
 */
char *part_slug(const char *part);
int overlay_resolve(const char *src, const void *dtbo, size_t len, const struct board *b,
		    const uint16_t *pins, const char *part, void **blob, size_t *outlen,
		    bool *unmuxed);

/* ---- target-tree.c: the tree a resolved overlay is applied to ---- */
struct target_tree {
	const struct board *b;
	const char *name;	/* the DTB's, for messages; NULL: the board's stock tree */
	void *dtb;		/* the user's DTB (--dtb), or NULL: the profile says */
	size_t len;
};
/*
 * The tree resolve targets: @path's DTB (it must have __symbols__), or
 * with @path NULL board @b's stock tree as its profile describes it.  EXIT_*.
 */
int target_tree_open(struct target_tree *t, const struct board *b, const char *path);
void target_tree_close(struct target_tree *t);
/* "FILE", or "board B's stock tree". */
const char *target_tree_name(const struct target_tree *t);
/* The node at @off is enabled (no status, or "okay"). */
bool target_tree_node_enabled(const void *fdt, int off);
/* The ADC inputs the node at @off lists (ti,adc-channels), bit n for AIN n. */
unsigned target_tree_adc_channels(const void *fdt, int off);
/*
 * Resolved overlay *@blob completed for tree @t: a fragment enabling each
 * disabled parent of a unit it enables, the ADC's channels (the AIN pins
 * of @pins) where the tree lists fewer; each said on @say (may be NULL).
 * EXIT_OK and *@blob replaced, or EXIT_TREE after naming what the tree lacks
 * (a label the overlay references, the ADC's inputs).
 */
int target_tree_complete(const char *src, const struct target_tree *t, const uint16_t *pins,
			 void **blob, size_t *len, FILE *say);

/* ---- check-dtb.c: capes applied together to the board's DTB ---- */
struct check_dtb {
	struct target_tree t;
	void *fdt;		/* the tree with the capes so far applied */
	size_t len;
	struct { char *path, *part; } *added;	/* nodes the capes added, and whose */
	size_t nadded;
	struct { const char *part; unsigned mask; } *ain;	/* the capes' ADC inputs */
	size_t nain;
	char *taken[CAPE_NPINS];	/* the tree's device muxing the pin, or NULL */
};
int check_dtb_open(struct check_dtb *c, const struct board *b, const char *path);	/* EXIT_* */
void check_dtb_close(struct check_dtb *c);
/*
 * Cape @d (its portable overlay @portable) resolved for the tree and
 * applied to it after the capes before, what resolve adds for the tree said
 * on @say (may be NULL): EXIT_OK; EXIT_TREE or EXIT_CONFLICT (a pin an
 * enabled device of the tree muxes, an address the tree or an earlier cape
 * holds, an ADC input dropped) after saying why on stdout; resolve's codes.
 */
int check_dtb_cape(struct check_dtb *c, const char *file, const struct cape_def *d,
		   const void *portable, size_t plen, FILE *say);

/* ---- kernel-rules.c: a portable overlay under the kernel's rules ---- */
/*
 * @dtbo through the kernel's capebus_fdt_resolve() against @b's exports,
 * then the connector's rules on targets and their properties, and on the
 * GPIOs and interrupts it takes through the connector's nexus: pins the
 * cape declares (@words, its pin words by pin index, and the overlay's
 * exclusive-use), not shared ones; EXIT_OK, or EXIT_DEF after saying why
 * (as "@src: ...").
 */
int kernel_rules_check(const char *src, const void *dtbo, size_t len, const struct board *b,
		       const uint16_t words[CAPE_NPINS]);

/* ---- nexus.c: specifiers through the connector's GPIO and interrupt nexus ---- */
/*
 * What the nexus exports stand for in a resolved overlay: phandles (0:
 * none), their cells, and the phandles every export stands for
 * (@export_first up to @export_end).
 */
struct nexus_ids {
	uint32_t gpio, irq;
	uint32_t gpio_cells, irq_cells;
	uint32_t export_first, export_end;
};
/* One specifier through a nexus: its node's name, property, and first cell (the header pin). */
struct nexus_spec {
	const char *node, *prop;
	bool irq;
	uint32_t code;
};
/* NULL: the pin is the cape's to use; else why not (malloc'ed). */
typedef char *(*nexus_fn)(void *ctx, const struct nexus_spec *s);
/*
 * @fn on every specifier through the nexus in the nodes @fdt's fragments
 * add, found as the kernel finds them (capebus-overlay.c): NULL, or the
 * first refusal (malloc'ed), @fn's or the kernel's interrupt rules'.
 */
char *nexus_walk(const void *fdt, const struct nexus_ids *ids, nexus_fn fn, void *ctx);

/* ---- sysfs.c: sysfs, configfs and nvmem access ---- */
const char *sysfs_root(void);			/* $CAPETOOL_SYSFS or /sys */
/*
 * The nvmem device of slot @slot of the controller @ctrl names (a name,
 * capebus1, or a family, "bone" or "rpi"; NULL: any), or NULL after saying
 * why; two controllers with that slot are refused (*code EXIT_USAGE), not
 * guessed between.  *family (may be NULL): the controller's, malloc'ed.
 */
char *slot_nvmem_path(int slot, const char *ctrl, char **family, int *code);
/*
 * The same, but with @ctrl NULL and @prefer a family, the one controller of
 * that family with slot @slot if there is exactly one (the family an image
 * is for): a cape image picks the bone's slot 1, a HAT image the Pi's.
 */
char *slot_nvmem_path_for(int slot, const char *ctrl, const char *prefer, char **family,
			  int *code);
/* A controller's "family" attribute ("bone", "rpi"), "" if none; malloc'ed. */
char *ctrl_family(const char *ctrl);
/* Controller @ctrl is @want by name or family (@want NULL: any). */
bool ctrl_matches(const char *ctrl, const char *want);
char *configfs_ctrl_dir(const char *ctrl, int *code);
/*
 * The same, but with @ctrl NULL: the one controller that has @cape
 * declared (if @cape), else the one of family @prefer (if @prefer).
 */
char *configfs_ctrl_dir_for(const char *ctrl, const char *prefer, const char *cape, int *code);
char **list_dir(const char *path);		/* sorted, NULL-terminated */
void free_list(char **v);
int nvmem_read_image(const char *path, uint8_t **buf, size_t *len);	/* 0 or -errno */

/* ---- commands ---- */
int cmd_create(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_flash(int argc, char **argv);
int cmd_read(int argc, char **argv);
int cmd_override(int argc, char **argv);
int cmd_remove(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_schema(int argc, char **argv);
int cmd_pinout(int argc, char **argv);
int cmd_resolve(int argc, char **argv);
int cmd_import_rpi(int argc, char **argv);
/* pinout --color=WHEN: auto (a terminal, NO_COLOR unset), always, never */
bool pinout_want_color(const char *when);
/* pinout of HATs on a Raspberry Pi's 40-pin header (pinout-rpi.c); EXIT_* */
int pinout_rpi(const char *board, char *const *files, int n, bool json, const char *svg,
	       bool color);
/* decode one buffer: fmt 0 text, 1 JSON, 2 definition; EXIT_* */
int decode_buffer(const char *src, const uint8_t *buf, size_t len, int fmt, const char *xfile);

/* ---- cmd-check.c: what check says of a cape; create and resolve say the same ---- */
/* def_load, then overlay_build for @b: every error of the definition.  EXIT_*. */
int def_build(const char *path, const struct board *b, struct cape_def *d, void **blob,
	      size_t *len);

struct fit_addr {		/* an address (I2C) or chip select (SPI) held on a bus */
	const char *bus;
	enum dev_type type;
	int addr;
	const char *holder;	/* a part number, or the board's words */
	int slot;		/* -1: the board */
};

struct fit {			/* what the capes so far hold, in slot order */
	const struct board *b;
	struct { const char *part; int slot; } *capes;	/* the capes added */
	size_t ncapes;
	struct {
		const char *part;	/* NULL: free */
		int slot;
		uint16_t word;		/* shared pins: the mux the first cape set */
		const char *bus;	/* held as a pin of this shared bus (i2c, spi), or NULL */
	} held[CAPE_NPINS];
	struct fit_addr *ah;
	size_t nah;
	unsigned used[3];
	int nslots;
};
/*
 * The shareable bus (I2C or SPI the board leaves disabled) cape @d holds
 * pin @idx for: it has a device there and muxes the pin as the bus's
 * function.  Capes on one such bus share its pins, muxed alike.  NULL if none.
 */
const char *share_bus(const struct board *b, const struct cape_def *d, int idx);
void fit_init(struct fit *f, const struct board *b);
void fit_free(struct fit *f);
/*
 * EXIT_OK, or EXIT_CONFLICT / EXIT_POWER and *msg (malloc'ed), in the
 * kernel's words; *addr_only (may be NULL): the conflicts are all bus
 * addresses held.
 */
int fit_cape(const struct fit *f, const struct cape_def *d, int slot, char **msg,
	     bool *addr_only);
void fit_add(struct fit *f, const struct cape_def *d, int slot);
/*
 * The cape alone on @b, as check judges it; a misfit is said in check's
 * words on stderr, "FILE: words", and:
 *   FIT_REFUSE  (resolve) gives check's exit status;
 *   FIT_CREATE  (create) too, but a bus address the board holds is only a
 *               warning (EXIT_OK): create's portable files are the same
 *               for every board, what sits on the board's side of a bus is
 *               the board's (the QEMU board's DVI transmitter at 0x39);
 *   FIT_FORCE   (create --force) only warns.
 */
enum fit_mode { FIT_REFUSE, FIT_CREATE, FIT_FORCE };
int fit_alone(const char *file, const struct board *b, const struct cape_def *d,
	      enum fit_mode mode);
/*
 * The pins of cape @part in no device's pinctrl group of the overlay
 * resolved for @b (@unmuxed, from overlay_resolve): a warning on stderr,
 * "warning: FILE: ...", that a bootloader applying it leaves them as they
 * are.  unmuxed_check: the same for definition @d and its portable
 * overlay @blob, resolved here for @b (boards whose connector exports
 * names; nothing for others).
 */
void unmuxed_warn(const char *file, const struct board *b, const char *part,
		  const bool *unmuxed);
void unmuxed_check(const char *file, const struct board *b, const struct cape_def *d,
		   const void *blob, size_t len);

/* ---- build helper shared by create and override ---- */
int build_cape(const char *defpath, const struct board *b, const char *serial,
	       bool embed, uint8_t **img, size_t *imglen, void **dtbo, size_t *dtbolen,
	       struct cape_def *def);

#endif
