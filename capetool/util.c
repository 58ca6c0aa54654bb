// SPDX-License-Identifier: GPL-2.0
/* capetool: small helpers (allocation, files, attributes, JSON strings). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libfdt.h>
#include "capetool.h"

const char *progname = "capetool";
bool err_quiet;

/*
 * One message, one write: stderr is unbuffered, and a line written in
 * pieces can be split by anything else writing to the same pipe (stdout
 * flushed at exit, say), leaving half a message on each side.
 */
void err(const char *fmt, ...)
{
	char line[4096];
	va_list ap;
	int n, m;

	if (err_quiet)
		return;
	n = snprintf(line, sizeof(line), "%s: ", progname);
	va_start(ap, fmt);
	m = vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if (m < 0 || (size_t)m >= sizeof(line) - (size_t)n - 1) {
		/* Too long for one line's buffer: in pieces after all. */
		fprintf(stderr, "%s: ", progname);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
		return;
	}
	line[n + m] = '\n';
	fwrite(line, 1, (size_t)(n + m + 1), stderr);
}

static void *oom(void *p)
{
	if (!p) {
		err("out of memory");
		exit(EXIT_FAIL);
	}
	return p;
}

void *xmalloc(size_t n) { return oom(malloc(n ? n : 1)); }
void *xcalloc(size_t n, size_t m) { return oom(calloc(n ? n : 1, m ? m : 1)); }
void *xrealloc(void *p, size_t n) { return oom(realloc(p, n ? n : 1)); }
char *xstrdup(const char *s) { return oom(strdup(s)); }

/* *@s = *@s @sep @add, or a copy of @add when *@s is NULL */
void str_append(char **s, const char *sep, const char *add)
{
	char *n = *s ? xasprintf("%s%s%s", *s, sep, add) : xstrdup(add);

	free(*s);
	*s = n;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return oom(NULL);
	return s;
}

bool is_stdio(const char *path)
{
	return !strcmp(path, "-");
}

/*
 * "-" for an output of bytes (an image, an overlay) while standard output is
 * a terminal: refused, saying so (clig.dev: binary is no terminal's).
 */
bool binary_to_tty(const char *path)
{
	if (!path || !is_stdio(path) || !isatty(STDOUT_FILENO))
		return false;
	err("refusing to write binary data to a terminal: give a file (-o FILE) or redirect standard output");
	return true;
}

const char *in_name(const char *path)
{
	return is_stdio(path) ? "<stdin>" : path;
}

const char *out_name(const char *path)
{
	return is_stdio(path) ? "<stdout>" : path;
}

static int read_fd(int fd, uint8_t **buf, size_t *len, const char *name);

/*
 * The whole file; "-" is standard input, read once and kept: every later
 * read of "-" (a definition read again to parse it) gets the same bytes.
 */
int read_file(const char *path, uint8_t **buf, size_t *len)
{
	static uint8_t *in;
	static size_t inlen;
	static int inerr = 1;
	int fd, r;

	if (is_stdio(path)) {
		if (inerr == 1)
			inerr = read_fd(STDIN_FILENO, &in, &inlen, "<stdin>");
		if (inerr)
			return inerr;
		*buf = xmalloc(inlen);
		memcpy(*buf, in, inlen);
		*len = inlen;
		return 0;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	r = read_fd(fd, buf, len, path);
	close(fd);
	return r;
}

/*
 * At most CAPETOOL_READ_MAX bytes (a definition, overlay or image is far
 * smaller; /dev/zero is not): a longer file is said so, and -EFBIG.
 */
static int read_fd(int fd, uint8_t **buf, size_t *len, const char *name)
{
	size_t cap = 4096, n = 0;
	uint8_t *b;

	/* aligned_alloc-free 8-byte alignment: malloc gives >= 8 on our targets */
	b = xmalloc(cap);
	for (;;) {
		ssize_t r;

		if (n > CAPETOOL_READ_MAX) {
			free(b);
			err("%s: longer than %d MiB, the most capetool reads of a file",
			    name, CAPETOOL_READ_MAX / (1024 * 1024));
			return -EFBIG;
		}
		if (n == cap) {
			cap *= 2;
			b = xrealloc(b, cap);
		}
		r = read(fd, b + n, cap - n);
		if (r < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			free(b);
			return -e;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*buf = b;
	*len = n;
	return 0;
}

/* Where a write to @path lands: a symlink's target (malloc'ed). */
static char *target_of(const char *path)
{
	struct stat st;
	char *r;

	if (!lstat(path, &st) && S_ISLNK(st.st_mode) && (r = realpath(path, NULL)))
		return r;
	return xstrdup(path);
}

static int write_fd(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w ? -errno : -ENOSPC;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

bool sync_outputs;

/*
 * Write @buf to a new temporary file next to @path (same directory, so the
 * rename cannot cross file systems), flushed to disk if sync_outputs is
 * set; *tmp is its name.
 * Nobody ever sees a partial @path: commit_file() renames it into place.
 * A symlink's target is replaced, not the link; a device, FIFO or other
 * non-regular file (/dev/stdout) is written in place (*tmp stays NULL),
 * and "-" is standard output.
 */
int stage_file(const char *path0, const void *buf, size_t len, char **tmp)
{
	char *path, *t;
	const char *slash;
	const uint8_t *p = buf;
	struct stat st;
	mode_t um;
	int fd, e;

	*tmp = NULL;
	if (is_stdio(path0)) {
		fflush(stdout);
		return write_fd(STDOUT_FILENO, buf, len);
	}
	path = target_of(path0);
	slash = strrchr(path, '/');
	if (!*path || (slash && !slash[1])) {
		free(path);
		return -EISDIR;
	}
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		e = S_ISDIR(st.st_mode) ? -EISDIR : write_attr_bin(path, buf, len);
		free(path);
		return e;
	}
	t = slash ? xasprintf("%.*s.%s.XXXXXX", (int)(slash - path + 1), path, slash + 1)
		  : xasprintf(".%s.XXXXXX", path);
	free(path);
	fd = mkstemp(t);
	if (fd < 0) {
		e = errno;
		free(t);
		return -e;
	}
	um = umask(0);
	umask(um);
	if (fchmod(fd, 0666 & ~um))
		goto fail;
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!w)
				errno = ENOSPC;
			goto fail;
		}
		p += w;
		len -= (size_t)w;
	}
	if (sync_outputs && fsync(fd))
		goto fail;
	if (close(fd)) {
		fd = -1;
		goto fail;
	}
	*tmp = t;
	return 0;
fail:
	e = errno ? errno : EIO;
	if (fd >= 0)
		close(fd);
	unlink(t);
	free(t);
	return -e;
}

/* Rename a staged file into place (or, with @path NULL, drop it); frees @tmp. */
int commit_file(char *tmp, const char *path0)
{
	char *path = path0 ? target_of(path0) : NULL;
	int e = 0;

	if (!tmp) {
		free(path);
		return 0;
	}
	if (path && rename(tmp, path))
		e = -errno;
	free(path);
	if (!path || e)
		unlink(tmp);
	free(tmp);
	return e;
}

int write_file(const char *path, const void *buf, size_t len)
{
	char *tmp;
	int r = stage_file(path, buf, len, &tmp);

	return r ? r : commit_file(tmp, path);
}

/* mkdir -p: 0 or -errno. */
int make_dirs(const char *dir)
{
	char *d = xstrdup(dir);
	int r = 0;

	for (char *p = d + 1; ; p++) {
		if (*p == '/' || !*p) {
			char c = *p;

			*p = 0;
			if (mkdir(d, 0777) && errno != EEXIST) {
				r = -errno;
				break;
			}
			*p = c;
			if (!c)
				break;
		}
	}
	free(d);
	if (!r) {
		struct stat st;

		if (stat(dir, &st))
			r = -errno;
		else if (!S_ISDIR(st.st_mode))
			r = -ENOTDIR;
	}
	return r;
}

/*
 * The name of the device a sysfs link points to (its last component), or
 * NULL if there is no link: the kernel links a slot to its cape and to its
 * EEPROM's nvmem device.
 */
char *read_link_name(const char *path)
{
	char buf[PATH_MAX];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);
	char *slash;

	if (n < 0)
		return NULL;
	buf[n] = 0;
	slash = strrchr(buf, '/');
	return xstrdup(slash ? slash + 1 : buf);
}

char *read_attr(const char *path)
{
	uint8_t *b;
	size_t n;
	char *s;

	if (read_file(path, &b, &n))
		return NULL;
	s = xmalloc(n + 1);
	memcpy(s, b, n);
	s[n] = 0;
	free(b);
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = 0;
	return s;
}

int write_attr_bin(const char *path, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return -errno;
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			close(fd);
			return -e;
		}
		p += w;
		len -= (size_t)w;
	}
	if (close(fd))
		return -errno;
	return 0;
}

int write_attr(const char *path, const char *val)
{
	return write_attr_bin(path, val, strlen(val));
}

char *path_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xasprintf("%.*s", (int)(slash - path), path);
}

/* Length of the valid UTF-8 sequence at @s (RFC 3629), 0 if none. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

bool utf8_valid(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	while (*s) {
		size_t n = utf8_len(s);

		if (!n)
			return false;
		s += n;
	}
	return true;
}

/* Levenshtein distance, ASCII case ignored. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), *row = xcalloc(lb + 1, sizeof(*row)), d;

	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (tolower((unsigned char)a[i - 1]) !=
							   tolower((unsigned char)b[j - 1]));

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

const char *closest(const char *word, const char *const *cands, size_t n)
{
	size_t lw = strlen(word), best = (size_t)-1, limit = lw <= 3 ? 1 : 2;
	const char *pick = NULL;

	for (size_t i = 0; i < n; i++) {
		size_t lc, d;

		if (!cands[i] || !*cands[i])
			continue;
		lc = strlen(cands[i]);
		d = edit_distance(word, cands[i]);
		/* "input" for "in", "output" for "out": one is the other's start */
		if (d > 1 && lw >= 2 && lc >= 2 &&
		    !strncasecmp(word, cands[i], lw < lc ? lw : lc))
			d = 1;
		/* "pullup" for "up", "pulldown" for "down": one is the other's end */
		if (d > 1 && lw >= 2 && lc >= 2 &&
		    !strcasecmp(lw < lc ? cands[i] + lc - lw : word + lw - lc,
				lw < lc ? word : cands[i]))
			d = 1;
		if (d < best) {
			best = d;
			pick = cands[i];
		}
	}
	return best <= limit ? pick : NULL;
}

/*
 * A JSON string: valid UTF-8 passes through, control characters are
 * escaped, and a byte that is not UTF-8 (a file name in another encoding)
 * becomes U+FFFD, so the output is always valid UTF-8 JSON.
 */
void json_str(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	putchar('"');
	while (*s) {
		size_t n = utf8_len(s);

		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", stdout);
		else if (*s == '\t')
			fputs("\\t", stdout);
		else if (*s < 0x20 || *s == 0x7f)
			printf("\\u%04x", *s);
		else if (n)
			fwrite(s, 1, n, stdout);
		else
			fputs("\\ufffd", stdout);
		s += n ? n : 1;
	}
	putchar('"');
}

/* @s's lines as a JSON array of strings. */
void json_lines(const char *s)
{
	bool first = true;
	char *dup = xstrdup(s), *save, *tok;

	putchar('[');
	for (tok = strtok_r(dup, "\n", &save); tok; tok = strtok_r(NULL, "\n", &save)) {
		printf("%s", first ? "" : ", ");
		json_str(tok);
		first = false;
	}
	putchar(']');
	free(dup);
}

bool wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	}
	return false;
}

int parse_slot_option(const char *arg)
{
	char *end;
	long slot = strtol(arg, &end, 10);

	if (!*arg || strspn(arg, "0123456789") != strlen(arg) || *end || slot < 0 ||
	    slot > INT_MAX) {
		err("--slot: not a slot number: %s (a number, 0 or above)", arg);
		return -1;
	}
	return (int)slot;
}

/* @s as XML text (SVG): & < > " escaped. */
void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

void json_opt(const char *key, const char *val)
{
	printf(", \"%s\": ", key);
	if (val)
		json_str(val);
	else
		printf("null");
}

int memstream_write(FILE *f, char **mem, size_t *len, const char *path)
{
	int r;

	if (ferror(f) | fclose(f)) {
		free(*mem);
		err("out of memory");
		return EXIT_FAIL;
	}
	r = write_file(path, *mem, *len);
	free(*mem);
	*mem = NULL;
	if (r) {
		err("%s: cannot write: %s", out_name(path), strerror(-r));
		return EXIT_IO;
	}
	return EXIT_OK;
}

/* A line of words wrapped at 79 columns, continuation lines indented. */
void wrap_start(struct wrap *w, const char *indent)
{
	fputs(indent, stdout);
	w->col = (int)strlen(indent);
	w->fresh = true;
}

void wrap_word(struct wrap *w, const char *s)
{
	int n = (int)strlen(s);

	if (!w->fresh && w->col + 1 + n > 79) {
		printf("\n      ");
		w->col = 6;
	} else if (!w->fresh) {
		putchar(' ');
		w->col++;
	}
	fputs(s, stdout);
	w->col += n;
	w->fresh = false;
}

void wrap_end(struct wrap *w)
{
	putchar('\n');
	w->col = 0;
}

bool is_dt_source(const uint8_t *buf, size_t len)
{
	size_t i = 0;

	/* "/dts-v1/;" first, after blank lines and comments */
	while (i < len) {
		if (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r') {
			i++;
		} else if (i + 1 < len && buf[i] == '/' && buf[i + 1] == '/') {
			while (i < len && buf[i] != '\n')
				i++;
		} else if (i + 1 < len && buf[i] == '/' && buf[i + 1] == '*') {
			for (i += 2; i + 1 < len && !(buf[i] == '*' && buf[i + 1] == '/'); i++)
				;
			i += 2;
		} else {
			return len - i >= 8 && !memcmp(buf + i, "/dts-v1/", 8);
		}
	}
	return false;
}

/*
 * A mkstemp()/mkstemps() template for a temporary file named @name
 * (ending in XXXXXX, then any suffix) in $TMPDIR, or /tmp.
 */
char *tmp_template(const char *name)
{
	const char *tmpdir = getenv("TMPDIR");

	return xasprintf("%s/%s", tmpdir && *tmpdir ? tmpdir : "/tmp", name);
}

int fdt_check_untrusted(const void *fdt, size_t len)
{
	int r;

	if (len < sizeof(struct fdt_header))
		return -FDT_ERR_TRUNCATED;
	r = fdt_check_header(fdt);
	if (r)
		return r;
	if (fdt_version(fdt) != 17 || fdt_last_comp_version(fdt) > 17)
		return -FDT_ERR_BADVERSION;
	if (fdt_totalsize(fdt) > len)
		return -FDT_ERR_TRUNCATED;
	return fdt_check_full(fdt, len);
}
