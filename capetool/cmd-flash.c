// SPDX-License-Identifier: GPL-2.0
/*
 * capetool flash: write an image to a slot's EEPROM (through its nvmem
 * device) or to any file or device: back up first, refuse to replace
 * another part unless forced, write only the image's bytes, read back and
 * compare.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "capetool.h"
#include "hat.h"

static const char usage_text[] =
	"usage: capetool flash IMAGE (--slot N [--controller C] | --device PATH) [--force]\n"
	"                      [--no-backup | --backup FILE]\n"
	"\n"
	"Write a cape EEPROM image (IMAGE \"-\": from standard input).  The old content (as many bytes as the image or\n"
	"the old image, whichever is longer) is saved first, a valid image of\n"
	"another part number is only replaced with --force, only the image's\n"
	"bytes are written (and, for an image without an extension area, the old\n"
	"extension area is blanked), then read back as a reader does, compared\n"
	"byte for byte and decoded: identity, pin words, power, extension records\n"
	"and the embedded overlay (or its absence) must be the image's.  If a write\n"
	"or the verify fails, the backup and the command restoring it are printed.\n"
	"An image larger than a slot's nvmem device (or any sized device) is refused.\n"
	"A Raspberry Pi HAT or HAT+ image (\"R-Pi\") is written as far as its eeplen,\n"
	"read back and decoded the same way; a HAT of another product UUID, or a\n"
	"cape where a HAT is written (and the other way round), is only replaced\n"
	"with --force, and so is an image for another header family than the\n"
	"slot's controller (a HAT in a bone slot).  A HAT the kernel refuses, as\n"
	"check of it alone says, is not written (exit 3, or decode's 12-14); one\n"
	"whose GPIO map only the connector refuses (bank 1, the serial console's\n"
	"GPIO14/15) is written with --force, saying why.\n"
	"  -s, --slot N       the EEPROM of slot N (its nvmem device, from sysfs)\n"
	"      --controller C the controller of that slot: a name (capebus1) or a\n"
	"                     family (bone, rpi); without it, the one controller\n"
	"                     of the image's family (a HAT's: rpi; a cape's:\n"
	"                     bone) with slot N, else the only one with slot N\n"
	"  -d, --device PATH  a file or device (e.g. /sys/bus/nvmem/devices/0-00540/nvmem)\n"
	"  -f, --force        replace an image with a different part number (HAT:\n"
	"                     product UUID); write a HAT map the connector refuses\n"
	"  -n, --no-backup    do not save the old content\n"
	"      --backup FILE  where to save it (\"-\": standard output; default:\n"
	"                     ./capetool-backup-<slotN|device>-<YYYYmmddHHMMSS>.eeprom)\n"
	"  -h, --help         this text\n"
	"Exit: 4 write failed (the EEPROM may be partial: see the restore command),\n"
	"7 different part (use --force), 8 read-back differs (the first bad offset\n"
	"or field is printed), 9 EEPROM missing or write-protected.\n";

static int read_at(int fd, uint8_t *buf, size_t len, off_t off, size_t *got)
{
	size_t n = 0;

	while (n < len) {
		ssize_t r = pread(fd, buf + n, len - n, off + (off_t)n);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*got = n;
	return 0;
}

/*
 * Test hooks, compiled into the test (ASan) build only, never into the
 * release binary (make -C capetool asan defines CAPETOOL_TEST_HOOKS):
 * CAPETOOL_FAULT_WRITE_AFTER=N makes the device fail (EIO) after N bytes,
 * as an EEPROM that stops acknowledging does; CAPETOOL_FAULT_VERIFY_OFFSET
 * flips a byte of the read-back data.
 */
#ifdef CAPETOOL_TEST_HOOKS
static size_t fault_write_limit(void)
{
	const char *fault = getenv("CAPETOOL_FAULT_WRITE_AFTER");

	return fault ? strtoul(fault, NULL, 0) : (size_t)-1;
}

static void fault_verify(uint8_t *rb, size_t got)
{
	const char *fault = getenv("CAPETOOL_FAULT_VERIFY_OFFSET");

	if (fault && strtoul(fault, NULL, 0) < got)
		rb[strtoul(fault, NULL, 0)] ^= 0xff;
}
#else
static size_t fault_write_limit(void) { return (size_t)-1; }
static void fault_verify(uint8_t *rb, size_t got) { (void)rb; (void)got; }
#endif

/* Write @len bytes at @off; *done says how many reached the device. */
static int write_at(int fd, const uint8_t *buf, size_t len, off_t off, size_t *done)
{
	size_t n = 0, limit = fault_write_limit();

	*done = 0;
	while (n < len) {
		size_t chunk = len - n;
		ssize_t w;

		if ((size_t)off + n >= limit)
			return -EIO;
		if ((size_t)off + n + chunk > limit)
			chunk = limit - (size_t)off - n;
		w = pwrite(fd, buf + n, chunk, off + (off_t)n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (w == 0)
			return -ENOSPC;
		n += (size_t)w;
		*done = n;
	}
	return 0;
}

static bool wp_errno(int e)
{
	return e == EROFS || e == EACCES || e == EPERM;
}

/* Length of the valid image at the start of the device, 0 if none. */
static size_t old_image(int fd, struct cape_image *im, uint8_t **bufp)
{
	size_t cap = CAPE_EEPROM_A1_SIZE + sizeof(struct capebus_ext_header), got = 0;
	uint8_t *buf = xcalloc(1, cap);
	char why[160];
	int r;

	*bufp = NULL;
	if (read_at(fd, buf, cap, 0, &got)) {
		free(buf);
		return 0;
	}
	r = eeprom_decode(buf, got, im, why, sizeof(why));
	if (r == EXIT_TRUNCATED && im->has_ext) {
		/* records beyond what we read: fetch exactly the area */
		size_t need = eeprom_std_size(im->a0) + sizeof(struct capebus_ext_header) +
			      im->ext_length;

		buf = xrealloc(buf, need);
		if (read_at(fd, buf, need, 0, &got)) {
			free(buf);
			return 0;
		}
		r = eeprom_decode(buf, got, im, why, sizeof(why));
	}
	if (r) {
		free(buf);
		return 0;
	}
	*bufp = buf;
	return im->total_len;
}

/* The valid HAT image at the start of the device: its eeplen, 0 if none. */
static size_t old_hat(int fd, struct hat_image *him)
{
	uint8_t h[sizeof(struct rpi_hat_header)], *buf;
	size_t got = 0, len;
	char why[160];
	int r;

	memset(him, 0, sizeof(*him));
	if (read_at(fd, h, sizeof(h), 0, &got) || got < sizeof(h) || !hat_has_signature(h, got))
		return 0;
	len = (size_t)h[8] | (size_t)h[9] << 8 | (size_t)h[10] << 16 | (size_t)h[11] << 24;
	if (len > HAT_IMAGE_MAX || len < sizeof(h))
		return 0;
	buf = xmalloc(len);
	r = read_at(fd, buf, len, 0, &got) ? -1 : hat_decode(buf, got, him, why, sizeof(why));
	hat_image_free(him);	/* the fields kept are copies */
	free(buf);
	return r ? 0 : len;
}

/* "HAT+ \"Product\" by Vendor (uuid ...)", for messages. */
static char *hat_words(const struct hat_image *him)
{
	char u[37];

	hat_uuid_str(him->uuid, u);
	return xasprintf("%s \"%s\" by %s (uuid %s)",
			 him->version == RPI_HAT_VERSION_1 ? "HAT" : "HAT+", him->product_str,
			 him->vendor_str, u);
}

/*
 * Whether writing over what the device holds needs --force: another part
 * (a cape's part number, a HAT's product UUID), or a cape where a HAT is
 * written or the other way round.  The message says what is there.
 */
static bool other_part(const char *path, bool hat, const struct cape_image *im,
		       const struct hat_image *him, size_t oldlen, const struct cape_image *oldim,
		       size_t oldhat, const struct hat_image *oldhim)
{
	bool other = (oldlen && (hat || strcmp(oldim->part_number, im->part_number))) ||
		     (oldhat && (!hat || memcmp(oldhim->uuid, him->uuid, sizeof(him->uuid))));
	char *mine, *theirs;

	if (!other)
		return false;
	mine = hat ? hat_words(him) : xasprintf("part %s", im->part_number);
	theirs = oldhat ? hat_words(oldhim)
			: xasprintf("%s %s (part %s)", oldim->board_name, oldim->version,
				    oldim->part_number);
	err("%s holds %s, the image is %s: use --force to replace it", path, theirs, mine);
	free(mine);
	free(theirs);
	return other;
}

/*
 * End of an extension area a reader would find after the standard area of
 * the image being written (@std bytes): the device's bytes there are read
 * raw, so even an area whose records do not decode is found.  0: none.
 */
static size_t stale_ext_end(int fd, size_t std)
{
	uint8_t h[sizeof(struct capebus_ext_header)];
	size_t got = 0;

	if (read_at(fd, h, sizeof(h), (off_t)std, &got) || got < sizeof(h))
		return 0;
	if (((uint32_t)h[0] << 24 | (uint32_t)h[1] << 16 | (uint32_t)h[2] << 8 | h[3]) !=
	    CAPEBUS_EXT_MAGIC)
		return 0;
	return std + sizeof(h) + ((size_t)h[6] << 8 | h[7]);
}

/* The first difference a reader would see between @want and @got, or NULL. */
static const char *image_diff(const struct cape_image *want, const struct cape_image *got,
			      char *buf, size_t len)
{
	static const char *const rails[] = { "vdd-3v3b", "vdd-5v", "sys-5v", "dc-supplied" };
	const struct { const char *what, *w, *g; } text[] = {
		{ "board name", want->board_name, got->board_name },
		{ "version", want->version, got->version },
		{ "manufacturer", want->manufacturer, got->manufacturer },
		{ "part number", want->part_number, got->part_number },
		{ "serial", want->serial, got->serial },
	};

	if (want->a0 != got->a0) {
		snprintf(buf, len, "format %s, meant %s", got->a0 ? "A0" : "A1", want->a0 ? "A0" : "A1");
		return buf;
	}
	for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
		if (strcmp(text[i].w, text[i].g)) {
			snprintf(buf, len, "%s \"%s\", meant \"%s\"", text[i].what, text[i].g, text[i].w);
			return buf;
		}
	}
	if (want->num_pins != got->num_pins) {
		snprintf(buf, len, "%u pins declared, meant %u", got->num_pins, want->num_pins);
		return buf;
	}
	for (unsigned i = 0; i < want->npinwords; i++) {
		if (want->pins[i] != got->pins[i]) {
			snprintf(buf, len, "pin word of %s 0x%04x, meant 0x%04x", cape_pin_names[i],
				 got->pins[i], want->pins[i]);
			return buf;
		}
	}
	for (int i = 0; i < 4; i++) {
		if (want->power[i] != got->power[i]) {
			snprintf(buf, len, "%s %u mA, meant %u mA", rails[i], got->power[i],
				 want->power[i]);
			return buf;
		}
	}
	if (want->has_ext != got->has_ext) {
		snprintf(buf, len, got->has_ext ? "an extension area (%u records) the image does not have"
						: "no extension area, meant %u records",
			 got->has_ext ? got->ext_count : want->ext_count);
		return buf;
	}
	if (!want->has_ext)
		return NULL;
	if (want->ext_version != got->ext_version || want->ext_count != got->ext_count ||
	    want->ext_length != got->ext_length || want->unknown_records != got->unknown_records) {
		snprintf(buf, len, "extension version %u, %u records, %u bytes; meant version %u, %u records, %u bytes",
			 got->ext_version, got->ext_count, got->ext_length, want->ext_version,
			 want->ext_count, want->ext_length);
		return buf;
	}
	if (want->has_id_crc != got->has_id_crc || want->id_crc != got->id_crc) {
		snprintf(buf, len, "id-crc record %s, meant %s", got->has_id_crc ? "present" : "absent",
			 want->has_id_crc ? "present" : "absent");
		return buf;
	}
	if (!want->overlay != !got->overlay || want->overlay_len != got->overlay_len ||
	    want->overlay_crc != got->overlay_crc ||
	    (want->overlay && memcmp(want->overlay, got->overlay, want->overlay_len))) {
		snprintf(buf, len, "overlay record %s (%zu bytes), meant %s (%zu bytes)",
			 got->overlay ? "present" : "absent", got->overlay_len,
			 want->overlay ? "present" : "absent", want->overlay_len);
		return buf;
	}
	return NULL;
}

/* @s quoted for a POSIX shell. */
static char *sh_quote(const char *s)
{
	size_t n = 3;
	char *q, *o;

	for (const char *p = s; *p; p++)
		n += *p == '\'' ? 4 : 1;
	q = o = xmalloc(n);
	*o++ = '\'';
	for (const char *p = s; *p; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *p;
		}
	}
	*o++ = '\'';
	*o = 0;
	return q;
}

/* After a failed write or verify: what the device holds now, how to undo it. */
static void say_partial(const char *path, const char *backup, bool backup_valid)
{
	char *qb, *qp;

	err("%s: the EEPROM now holds a partial or wrong image (a reader may refuse the cape or see the wrong one)",
	    path);
	if (!backup) {
		err("%s: no backup was taken (--no-backup); flash a known-good image to repair it",
		    path);
		return;
	}
	if (is_stdio(backup)) {
		err("%s: its old content went to standard output; write it back to restore it", path);
		return;
	}
	err("%s: its old content is in %s; restore it with:", path, backup);
	qb = sh_quote(backup);
	qp = sh_quote(path);
	if (backup_valid)
		fprintf(stderr, "  capetool flash %s --device %s --force --no-backup\n", qb, qp);
	else
		fprintf(stderr, "  dd if=%s of=%s conv=notrunc\n", qb, qp);
	free(qb);
	free(qp);
}

/* The nvmem attribute of a slot or a path below sysfs: its size is the EEPROM's. */
static bool sized_device(const char *path, const struct stat *st, bool slot)
{
	size_t n = strlen(sysfs_root());

	if (st->st_size <= 0)
		return false;
	return slot || !S_ISREG(st->st_mode) || !strncmp(path, "/sys/", 5) ||
	       (!strncmp(path, sysfs_root(), n) && path[n] == '/');
}

int cmd_flash(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "slot", required_argument, NULL, 's' },
		{ "device", required_argument, NULL, 'd' },
		{ "controller", required_argument, NULL, 'C' },
		{ "force", no_argument, NULL, 'f' },
		{ "no-backup", no_argument, NULL, 'n' },
		{ "backup", required_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int slot = -1, c, rc, fd = -1;
	bool force = false, nobackup = false, hat;
	const char *device = NULL, *backup = NULL, *diff, *ctrl = NULL;
	char *path = NULL, *bpath = NULL, *family = NULL, why[240];
	uint8_t *img = NULL, *old = NULL, *oldbuf = NULL, *rb = NULL;
	size_t imglen, wlen, oldlen, oldhat = 0, blen, got, done, std = 0, ext_end, total;
	struct cape_image im, oldim, rbim;
	struct hat_image him = { 0 }, oldhim, rbhim = { 0 };
	struct stat st;
	FILE *info = stdout;

	sync_outputs = true;	/* the backup: maybe all that is left of the old content */
	optind = 1;
	while ((c = getopt_long(argc, argv, "s:d:fnh", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			slot = parse_slot_option(optarg);
			if (slot < 0)
				return EXIT_USAGE;
			break;
		case 'd': device = optarg; break;
		case 'C': ctrl = optarg; break;
		case 'f': force = true; break;
		case 'n': nobackup = true; break;
		case 'B': backup = optarg; break;
		case 'h': fputs(usage_text, stdout); return EXIT_OK;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	if (optind != argc - 1 || (slot >= 0) == !!device || (nobackup && backup) ||
	    (ctrl && slot < 0)) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (backup && !*backup) {
		err("--backup: an empty file name (use --no-backup to skip the backup)");
		return EXIT_USAGE;
	}
	if (binary_to_tty(backup))
		return EXIT_USAGE;
	if (backup && is_stdio(backup))
		info = stderr;	/* standard output carries the backup */
	rc = read_file(argv[optind], &img, &imglen);
	if (rc) {
		err("%s: %s", in_name(argv[optind]), strerror(-rc));
		return EXIT_IO;
	}
	hat = hat_has_signature(img, imglen);
	rc = hat ? hat_decode(img, imglen, &him, why, sizeof(why))
		 : eeprom_decode(img, imglen, &im, why, sizeof(why));
	if (rc) {
		err("%s: not a valid %s image, refusing to flash it: %s", in_name(argv[optind]),
		    hat ? "HAT" : "cape", why);
		goto out;
	}
	/* a HAT as check takes it alone, the kernel's parser too: refused before a byte is written */
	if (hat && (rc = hat_verify_image(argv[optind], img, imglen,
					  HAT_VERIFY_MISSING | (force ? HAT_VERIFY_FORCE : 0)))) {
		err("%s: refusing to flash it", in_name(argv[optind]));
		goto out;
	}
	total = hat ? him.eeplen : im.total_len;
	if (imglen > total) {
		fprintf(info, "%s: writing the %zu bytes the image defines (%zu trailing bytes ignored)\n",
			in_name(argv[optind]), total, imglen - total);
		imglen = total;
	}
	if (!hat)
		std = eeprom_std_size(im.a0);
	if (slot >= 0) {
		path = slot_nvmem_path_for(slot, ctrl, hat ? "rpi" : "bone", &family, &rc);
		if (!path)
			goto out;
		/* a HAT in a bone slot, a cape in a Pi's: no reader there takes it */
		if (*family && hat != !strcmp(family, "rpi") && !force) {
			err("slot %d is on a header of family %s: %s image does not go there (use --force to write it anyway)",
			    slot, family, hat ? "a Raspberry Pi HAT" : "a cape");
			rc = EXIT_REFUSED;
			goto out;
		}
	} else {
		path = xstrdup(device);
	}
	rc = EXIT_NODEV;
	if (stat(path, &st)) {
		err("%s: no EEPROM there: %s", path, strerror(errno));
		goto out;
	}
	if (!(st.st_mode & 0222)) {
		err("%s: EEPROM is write-protected (read-only device)", path);
		goto out;
	}
	fd = open(path, O_RDWR);
	if (fd < 0) {
		int e = errno;

		err("%s: %s%s", path, wp_errno(e) ? "EEPROM is write-protected: " : "",
		    strerror(e));
		rc = wp_errno(e) ? EXIT_NODEV : EXIT_IO;
		goto out;
	}
	if (sized_device(path, &st, slot >= 0) && (off_t)imglen > st.st_size) {
		err("%s: the %zu-byte image does not fit the %lld-byte EEPROM", path, imglen,
		    (long long)st.st_size);
		rc = EXIT_FAIL;
		goto out;
	}
	oldlen = old_image(fd, &oldim, &oldbuf);
	if (!oldlen)
		oldhat = old_hat(fd, &oldhim);
	if (!force && other_part(path, hat, &im, &him, oldlen, &oldim, oldhat, &oldhim)) {
		rc = EXIT_REFUSED;
		goto out;
	}
	if (oldhat)
		oldlen = oldhat;
	/*
	 * An image without an extension area written over one with an area
	 * would leave the old area behind it: a reader would still find the old
	 * records (the old overlay in force, or an id CRC that no longer
	 * matches).  Blank (0xff) that area along with the image.
	 */
	wlen = imglen;
	ext_end = hat || im.has_ext ? 0 : stale_ext_end(fd, std);
	if (ext_end) {
		if (ext_end > CAPE_EEPROM_SIZE_MAX)
			ext_end = CAPE_EEPROM_SIZE_MAX;
		if (sized_device(path, &st, slot >= 0) && (off_t)ext_end > st.st_size)
			ext_end = (size_t)st.st_size;
		if (ext_end > wlen) {
			img = xrealloc(img, ext_end);
			memset(img + imglen, 0xff, ext_end - imglen);
			wlen = ext_end;
			fprintf(info, "%s: the image has no extension area: blanking the old one (bytes %zu-%zu)\n",
				path, std, ext_end - 1);
		}
	}
	blen = oldlen > wlen ? oldlen : wlen;
	old = xcalloc(1, blen);
	if ((rc = read_at(fd, old, blen, 0, &got))) {
		err("%s: cannot read: %s", path, strerror(-rc));
		rc = EXIT_IO;
		goto out;
	}
	if (!nobackup) {
		if (!backup) {
			char stamp[32];
			time_t now = time(NULL);
			const char *base = strrchr(path, '/');

			strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", gmtime(&now));
			bpath = slot >= 0 ? xasprintf("capetool-backup-slot%d-%s.eeprom", slot, stamp)
					  : xasprintf("capetool-backup-%s-%s.eeprom",
						      base ? base + 1 : path, stamp);
			backup = bpath;
		}
		if ((rc = write_file(backup, old, got))) {
			err("%s: cannot write the backup: %s (use --no-backup to skip it)",
			    out_name(backup), strerror(-rc));
			rc = EXIT_IO;
			goto out;
		}
		fprintf(info, "backed up %zu bytes of %s to %s\n", got, path, out_name(backup));
	}
	if ((rc = write_at(fd, img, wlen, 0, &done))) {
		err("%s: write failed after %zu of %zu bytes: %s%s", path, done, wlen,
		    wp_errno(-rc) ? "EEPROM is write-protected: " : "", strerror(-rc));
		if (done)
			say_partial(path, backup, oldlen > 0);
		else
			err("%s: nothing was written: the EEPROM is unchanged", path);
		rc = wp_errno(-rc) && !done ? EXIT_NODEV : EXIT_IO;
		goto out;
	}
	if (fsync(fd) && errno != EINVAL && errno != EROFS) {
		err("%s: %m", path);
		say_partial(path, backup, oldlen > 0);
		rc = EXIT_IO;
		goto out;
	}
	/* read back as a reader does: the standard area, then the extension area */
	close(fd);
	fd = -1;
	if ((rc = nvmem_read_image(path, &rb, &got))) {
		err("%s: read-back failed: %s", path, strerror(-rc));
		say_partial(path, backup, oldlen > 0);
		rc = EXIT_IO;
		goto out;
	}
	/* test hook: pretend the EEPROM dropped a byte */
	fault_verify(rb, got);
	rc = EXIT_VERIFY;
	for (size_t i = 0; i < imglen; i++) {
		if (i >= got || rb[i] != img[i]) {
			if (i >= got)
				err("%s: verify failed at offset %zu (0x%zx): read back only %zu bytes",
				    path, i, i, got);
			else
				err("%s: verify failed at offset %zu (0x%zx): wrote 0x%02x, read 0x%02x",
				    path, i, i, img[i], rb[i]);
			say_partial(path, backup, oldlen > 0);
			goto out;
		}
	}
	if (hat) {
		/* the bytes match: does a reader see the HAT the image is? */
		if (hat_decode(rb, got, &rbhim, why, sizeof(why))) {
			err("%s: verify failed: what was read back does not decode: %s", path, why);
			say_partial(path, backup, oldlen > 0);
			goto out;
		}
		if (rbhim.eeplen != him.eeplen || rbhim.numatoms != him.numatoms ||
		    memcmp(rbhim.uuid, him.uuid, sizeof(him.uuid))) {
			err("%s: verify failed: a reader sees %u atoms in %u bytes, meant %u in %u",
			    path, rbhim.numatoms, rbhim.eeplen, him.numatoms, him.eeplen);
			say_partial(path, backup, oldlen > 0);
			goto out;
		}
		diff = hat_words(&him);
		fprintf(info, "wrote %zu bytes (%s) to %s, verified: it decodes as the image\n",
			imglen, diff, path);
		free((char *)diff);
		rc = EXIT_OK;
		goto out;
	}
	/* the bytes match: does a reader see the cape the image describes? */
	if (eeprom_decode(rb, got, &rbim, why, sizeof(why))) {
		err("%s: verify failed: what was read back does not decode: %s", path, why);
		say_partial(path, backup, oldlen > 0);
		goto out;
	}
	if ((diff = image_diff(&im, &rbim, why, sizeof(why)))) {
		err("%s: verify failed: a reader sees %s", path, diff);
		say_partial(path, backup, oldlen > 0);
		goto out;
	}
	fprintf(info, "wrote %zu bytes (%s %s, part %s) to %s, verified: it decodes as the image\n",
		imglen, im.board_name, im.version, im.part_number, path);
	rc = EXIT_OK;
out:
	if (fd >= 0)
		close(fd);
	free(img);
	free(old);
	free(oldbuf);
	free(rb);
	free(path);
	free(bpath);
	free(family);
	hat_image_free(&him);
	hat_image_free(&rbhim);
	return rc;
}

static const char read_usage_text[] =
	"usage: capetool read (--slot N [--controller C] | --device PATH) -o FILE\n"
	"\n"
	"Save the whole content of a cape EEPROM to FILE, byte for byte (as\n"
	"eepflash.sh -r does): a backup that 'capetool flash' or dd writes back.\n"
	"  -s, --slot N       the EEPROM of slot N (its nvmem device, from sysfs)\n"
	"      --controller C the controller of that slot (a name or a family)\n"
	"  -d, --device PATH  a file or device (e.g. /sys/bus/nvmem/devices/0-00540/nvmem)\n"
	"  -o, --output FILE  where to write it (\"-\": standard output)\n"
	"  -h, --help         this text\n"
	"Exit: 4 cannot read the EEPROM or write FILE, 9 EEPROM or slot missing.\n";

int cmd_read(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "slot", required_argument, NULL, 's' },
		{ "device", required_argument, NULL, 'd' },
		{ "controller", required_argument, NULL, 'C' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int slot = -1, c, rc, fd;
	const char *device = NULL, *out = NULL, *ctrl = NULL;
	char *path, why[160];
	uint8_t *buf;
	size_t cap, got;
	struct cape_image im;
	struct stat st;

	sync_outputs = true;	/* a dump of the EEPROM, kept as its backup */
	optind = 1;
	while ((c = getopt_long(argc, argv, "s:d:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			slot = parse_slot_option(optarg);
			if (slot < 0)
				return EXIT_USAGE;
			break;
		case 'd': device = optarg; break;
		case 'C': ctrl = optarg; break;
		case 'o': out = optarg; break;
		case 'h': fputs(read_usage_text, stdout); return EXIT_OK;
		default: fputs(read_usage_text, stderr); return EXIT_USAGE;
		}
	}
	if (optind != argc || (slot >= 0) == !!device || !out || (ctrl && slot < 0)) {
		fputs(read_usage_text, stderr);
		return EXIT_USAGE;
	}
	if (!*out) {
		err("-o: an empty file name");
		return EXIT_USAGE;
	}
	if (binary_to_tty(out))
		return EXIT_USAGE;
	if (slot >= 0) {
		path = slot_nvmem_path(slot, ctrl, NULL, &rc);
		if (!path)
			return rc;
	} else {
		path = xstrdup(device);
	}
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		int e = errno;

		err("%s: no EEPROM there: %s", path, strerror(e));
		if (fd >= 0)
			close(fd);
		free(path);
		return e == ENOENT ? EXIT_NODEV : EXIT_IO;
	}
	/* an nvmem attribute's size is the EEPROM's; else at most a 24C256 */
	cap = st.st_size > 0 ? (size_t)st.st_size : CAPE_EEPROM_SIZE_MAX;
	buf = xcalloc(1, cap);
	rc = read_at(fd, buf, cap, 0, &got);
	close(fd);
	if (rc) {
		err("%s: cannot read: %s", path, strerror(-rc));
		rc = EXIT_IO;
	} else if ((rc = write_file(out, buf, got))) {
		err("%s: cannot write: %s", out_name(out), strerror(-rc));
		rc = EXIT_IO;
	} else {
		/* standard output carries the dump: the words go to stderr */
		FILE *info = is_stdio(out) ? stderr : stdout;

		struct hat_image him;

		if (hat_has_signature(buf, got)) {	/* a Raspberry Pi HAT's */
			if (hat_decode(buf, got, &him, why, sizeof(why)))
				fprintf(info, "read %zu bytes of %s to %s (no valid HAT image: %s)\n", got,
					path, out_name(out), why);
			else
				fprintf(info, "read %zu bytes of %s to %s (%s \"%s\" by %s, %u bytes)\n", got,
					path, out_name(out),
					him.version == RPI_HAT_VERSION_1 ? "HAT" : "HAT+", him.product_str,
					him.vendor_str, him.eeplen);
			hat_image_free(&him);
		} else if (eeprom_decode(buf, got, &im, why, sizeof(why))) {
			fprintf(info, "read %zu bytes of %s to %s (no valid cape image: %s)\n", got,
				path, out_name(out), why);
		} else {
			fprintf(info, "read %zu bytes of %s to %s (%s %s, part %s)\n", got, path,
				out_name(out), im.board_name, im.version, im.part_number);
		}
		rc = EXIT_OK;
	}
	free(buf);
	free(path);
	return rc;
}
