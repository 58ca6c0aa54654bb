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

static const char usage_text[] =
	"usage: capetool flash IMAGE (--slot N | --device PATH) [--force]\n"
	"                      [--no-backup | --backup FILE]\n"
	"\n"
	"Write a cape EEPROM image.  The old content (as many bytes as the image or\n"
	"the old image, whichever is longer) is saved first, a valid image of\n"
	"another part number is only replaced with --force, only the image's\n"
	"bytes are written, then read back and compared.\n"
	"  -s, --slot N       the EEPROM of slot N (its nvmem device, from sysfs)\n"
	"  -d, --device PATH  a file or device (e.g. /sys/bus/nvmem/devices/0-00540/nvmem)\n"
	"  -f, --force        replace an image with a different part number\n"
	"  -n, --no-backup    do not save the old content\n"
	"  -b, --backup FILE  where to save it (default:\n"
	"                     ./capetool-backup-<slotN|device>-<YYYYmmddHHMMSS>.eeprom)\n"
	"  -h, --help         this text\n"
	"Exit: 7 different part (use --force), 8 read-back differs (the first bad\n"
	"offset is printed), 9 EEPROM missing or write-protected.\n";

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

static int write_at(int fd, const uint8_t *buf, size_t len, off_t off)
{
	size_t n = 0;

	while (n < len) {
		ssize_t w = pwrite(fd, buf + n, len - n, off + (off_t)n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (w == 0)
			return -ENOSPC;
		n += (size_t)w;
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

int cmd_flash(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "slot", required_argument, NULL, 's' },
		{ "device", required_argument, NULL, 'd' },
		{ "force", no_argument, NULL, 'f' },
		{ "no-backup", no_argument, NULL, 'n' },
		{ "backup", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int slot = -1, c, rc, fd = -1;
	bool force = false, nobackup = false;
	const char *device = NULL, *backup = NULL, *fault;
	char *path = NULL, *bpath = NULL, why[160];
	uint8_t *img = NULL, *old = NULL, *oldbuf = NULL, *rb = NULL;
	size_t imglen, oldlen, blen, got;
	struct cape_image im, oldim;
	struct stat st;

	optind = 1;
	while ((c = getopt_long(argc, argv, "s:d:fnb:h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			slot = parse_slot_option(optarg);
			if (slot < 0)
				return EXIT_USAGE;
			break;
		case 'd': device = optarg; break;
		case 'f': force = true; break;
		case 'n': nobackup = true; break;
		case 'b': backup = optarg; break;
		case 'h': fputs(usage_text, stdout); return EXIT_OK;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	if (optind != argc - 1 || (slot >= 0) == !!device || (nobackup && backup)) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	rc = read_file(argv[optind], &img, &imglen);
	if (rc) {
		err("%s: %s", argv[optind], strerror(-rc));
		return EXIT_IO;
	}
	rc = eeprom_decode(img, imglen, &im, why, sizeof(why));
	if (rc) {
		err("%s: not a valid cape image, refusing to flash it: %s", argv[optind], why);
		goto out;
	}
	if (imglen > im.total_len) {
		printf("%s: writing the %zu bytes the image defines (%zu trailing bytes ignored)\n",
		       argv[optind], im.total_len, imglen - im.total_len);
		imglen = im.total_len;
	}
	if (slot >= 0) {
		path = slot_nvmem_path(slot, &rc);
		if (!path)
			goto out;
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
	if (!S_ISREG(st.st_mode) && st.st_size > 0 && (off_t)imglen > st.st_size) {
		err("%s: the %zu-byte image does not fit the %lld-byte EEPROM", path, imglen,
		    (long long)st.st_size);
		rc = EXIT_FAIL;
		goto out;
	}
	oldlen = old_image(fd, &oldim, &oldbuf);
	if (oldlen && strcmp(oldim.part_number, im.part_number) && !force) {
		err("%s holds %s %s (part %s), the image is part %s: use --force to replace it",
		    path, oldim.board_name, oldim.version, oldim.part_number, im.part_number);
		rc = EXIT_REFUSED;
		goto out;
	}
	blen = oldlen > imglen ? oldlen : imglen;
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
		if (write_file(backup, old, got)) {
			err("%s: cannot write the backup: %m (use --no-backup to skip it)", backup);
			rc = EXIT_IO;
			goto out;
		}
		printf("backed up %zu bytes of %s to %s\n", got, path, backup);
	}
	if ((rc = write_at(fd, img, imglen, 0))) {
		err("%s: write failed: %s%s", path, wp_errno(-rc) ? "EEPROM is write-protected: " : "",
		    strerror(-rc));
		rc = wp_errno(-rc) ? EXIT_NODEV : EXIT_IO;
		goto out;
	}
	if (fsync(fd) && errno != EINVAL && errno != EROFS) {
		err("%s: %m", path);
		rc = EXIT_IO;
		goto out;
	}
	rb = xcalloc(1, imglen);
	if ((rc = read_at(fd, rb, imglen, 0, &got))) {
		err("%s: read-back failed: %s", path, strerror(-rc));
		rc = EXIT_IO;
		goto out;
	}
	/* test hook: pretend the EEPROM dropped a byte */
	fault = getenv("CAPETOOL_FAULT_VERIFY_OFFSET");
	if (fault && strtoul(fault, NULL, 0) < got)
		rb[strtoul(fault, NULL, 0)] ^= 0xff;
	for (size_t i = 0; i < imglen; i++) {
		if (i >= got || rb[i] != img[i]) {
			if (i >= got)
				err("%s: verify failed at offset %zu (0x%zx): read back only %zu bytes",
				    path, i, i, got);
			else
				err("%s: verify failed at offset %zu (0x%zx): wrote 0x%02x, read 0x%02x",
				    path, i, i, img[i], rb[i]);
			rc = EXIT_VERIFY;
			goto out;
		}
	}
	printf("wrote %zu bytes (%s %s, part %s) to %s, verified\n", imglen, im.board_name,
	       im.version, im.part_number, path);
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
	return rc;
}
