// SPDX-License-Identifier: GPL-2.0
/* capetool: small helpers (allocation, files, attributes, JSON strings). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "capetool.h"

const char *progname = "capetool";
bool err_quiet;

void err(const char *fmt, ...)
{
	va_list ap;

	if (err_quiet)
		return;
	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
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

int read_file(const char *path, uint8_t **buf, size_t *len)
{
	size_t cap = 4096, n = 0;
	uint8_t *b;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	/* aligned_alloc-free 8-byte alignment: malloc gives >= 8 on our targets */
	b = xmalloc(cap);
	for (;;) {
		ssize_t r;

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
			close(fd);
			return -e;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*buf = b;
	*len = n;
	return 0;
}

int write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return -errno;
	if (fwrite(buf, 1, len, f) != len) {
		int e = errno ? errno : EIO;

		fclose(f);
		return -e;
	}
	if (fclose(f))
		return -errno;
	return 0;
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

void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
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

	if (*end || slot < 0 || slot > INT_MAX) {
		err("--slot: not a slot number: %s", arg);
		return -1;
	}
	return (int)slot;
}
