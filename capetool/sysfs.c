// SPDX-License-Identifier: GPL-2.0
/*
 * capetool: where the kernel's capebus objects live (CONTRACT section 4-5):
 * /sys/class/capebus/<ctrl>/slot<N>/{state,reason,nvmem,cape},
 * /sys/bus/capebus/devices/<cape>/..., /sys/bus/nvmem/devices/<nvmem>/nvmem
 * and /sys/kernel/config/capebus/<ctrl>/.  $CAPETOOL_SYSFS replaces /sys
 * (tests use a fake tree).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "capetool.h"

const char *sysfs_root(void)
{
	const char *r = getenv("CAPETOOL_SYSFS");

	return r && *r ? r : "/sys";
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted entries of a directory (no dot files); NULL-terminated. */
char **list_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char **v = NULL;
	size_t n = 0;

	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		v = xrealloc(v, (n + 2) * sizeof(*v));
		v[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (!v)
		v = xcalloc(1, sizeof(*v));
	v[n] = NULL;
	qsort(v, n, sizeof(*v), name_cmp);
	return v;
}

void free_list(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* A controller's family ("bone", "rpi"), or "" if it does not say. */
char *ctrl_family(const char *ctrl)
{
	char *p = xasprintf("%s/class/capebus/%s/family", sysfs_root(), ctrl);
	char *f = read_attr(p);

	free(p);
	return f ? f : xstrdup("");
}

/* "capebus0 (bone), capebus1 (rpi)": @names with their families. */
static char *ctrl_list(char *const *names, size_t n)
{
	char *s = xstrdup("");

	for (size_t i = 0; i < n; i++) {
		char *f = ctrl_family(names[i]);
		char *j = xasprintf("%s%s%s%s%s%s", s, i ? ", " : "", names[i], *f ? " (" : "",
				    f, *f ? ")" : "");

		free(f);
		free(s);
		s = j;
	}
	return s;
}

bool ctrl_matches(const char *ctrl, const char *want)
{
	char *f;
	bool m;

	if (!want || !strcmp(ctrl, want))
		return true;
	f = ctrl_family(ctrl);
	m = !strcmp(f, want);
	free(f);
	return m;
}

char *slot_nvmem_path(int slot, const char *want, char **family, int *code)
{
	char *cls = xasprintf("%s/class/capebus", sysfs_root());
	char **ctrls = list_dir(cls), **with = NULL;
	char *res = NULL;
	size_t nwith = 0, nmatch = 0;

	*code = EXIT_NODEV;
	if (family)
		*family = NULL;
	for (size_t i = 0; ctrls && ctrls[i]; i++) {
		char *p = xasprintf("%s/%s/slot%d", cls, ctrls[i], slot);

		if (ctrl_matches(ctrls[i], want)) {
			nmatch++;
			if (access(p, F_OK) == 0) {
				with = xrealloc(with, (nwith + 1) * sizeof(*with));
				with[nwith++] = ctrls[i];
			}
		}
		free(p);
	}
	if (!ctrls) {
		err("no capebus controller: %s is missing (kernel without capebus?)", cls);
	} else if (want && !nmatch) {
		size_t n = 0;
		char *l;

		while (ctrls[n])
			n++;
		l = ctrl_list(ctrls, n);
		err("--controller %s: no capebus controller of that name or family in %s (there: %s)",
		    want, cls, n ? l : "none");
		free(l);
	} else if (!nwith) {
		err("no slot %d on %s capebus controller in %s", slot, want ? want : "any", cls);
	} else if (nwith > 1) {
		char *l = ctrl_list(with, nwith);

		err("slot %d is on %zu capebus controllers: %s; say which with --controller NAME or FAMILY",
		    slot, nwith, l);
		free(l);
		*code = EXIT_USAGE;
	} else {
		char *link = xasprintf("%s/%s/slot%d/nvmem", cls, with[0], slot);
		char *name = read_link_name(link);

		if (name && *name)
			res = xasprintf("%s/bus/nvmem/devices/%s/nvmem", sysfs_root(), name);
		else
			err("slot %d%s%s has no EEPROM device (no nvmem: unpopulated or failed to probe)",
			    slot, want ? " of " : "", want ? with[0] : "");
		if (family)
			*family = ctrl_family(with[0]);
		free(name);
		free(link);
	}
	free(with);
	free_list(ctrls);
	free(cls);
	return res;
}

/*
 * The one entry of @base (a controller's directory) matching @want (a name
 * or family; NULL: any) that has @sub, malloc'ed; NULL if none or several.
 */
static char *only_ctrl_with(const char *base, const char *sub, const char *want, size_t *count)
{
	char **v = list_dir(base);
	char *res = NULL;
	size_t n = 0;

	for (size_t i = 0; v && v[i]; i++) {
		char *p = xasprintf("%s/%s/%s", base, v[i], sub);

		if (ctrl_matches(v[i], want) && !access(p, F_OK) && !n++)
			res = xstrdup(v[i]);
		free(p);
	}
	free_list(v);
	if (count)
		*count = n;
	if (n != 1) {
		free(res);
		res = NULL;
	}
	return res;
}

char *slot_nvmem_path_for(int slot, const char *ctrl, const char *prefer, char **family,
			  int *code)
{
	char *cls = xasprintf("%s/class/capebus", sysfs_root());
	char *sub = xasprintf("slot%d", slot);
	char *only = !ctrl && prefer ? only_ctrl_with(cls, sub, prefer, NULL) : NULL;
	char *res = slot_nvmem_path(slot, only ? only : ctrl, family, code);

	free(only);
	free(sub);
	free(cls);
	return res;
}

char *configfs_ctrl_dir_for(const char *ctrl, const char *prefer, const char *cape, int *code)
{
	char *base = xasprintf("%s/kernel/config/capebus", sysfs_root());
	char *only = NULL, *res;
	size_t n = 0;

	if (!ctrl && cape) {
		char *sub = xasprintf("capes/%s", cape);

		only = only_ctrl_with(base, sub, NULL, NULL);
		free(sub);
	}
	if (!ctrl && !only && prefer)
		only = only_ctrl_with(base, "capes", prefer, &n);
	/* several of the family: say which; none (no family attribute): any */
	res = configfs_ctrl_dir(only ? only : ctrl ? ctrl : n > 1 ? prefer : NULL, code);
	free(only);
	free(base);
	return res;
}

/*
 * The configfs directory of controller @ctrl: a name, or a family that one
 * controller has; NULL: the only one (with two, say which instead of
 * taking the first: the slot numbers of a bone and a Pi header repeat).
 */
char *configfs_ctrl_dir(const char *ctrl, int *code)
{
	char *base = xasprintf("%s/kernel/config/capebus", sysfs_root());
	char **v = list_dir(base), **m = NULL;
	char *res = NULL;
	size_t n = 0;

	*code = EXIT_NODEV;
	for (size_t i = 0; v && v[i]; i++)
		if (ctrl_matches(v[i], ctrl)) {
			m = xrealloc(m, (n + 1) * sizeof(*m));
			m[n++] = v[i];
		}
	if (n == 1) {
		res = xasprintf("%s/%s", base, m[0]);
	} else if (!v || !v[0]) {
		err("%s: no capebus controller in configfs (configfs not mounted, or kernel without capebus configfs?)",
		    base);
	} else if (!n) {
		err("%s/%s: no capebus controller of that name or family in configfs", base, ctrl);
	} else {
		char *l = ctrl_list(m, n);

		err("%zu capebus controllers%s%s in %s: %s; say which with --controller NAME or FAMILY",
		    n, ctrl ? " of family " : "", ctrl ? ctrl : "", base, l);
		free(l);
		*code = EXIT_USAGE;
	}
	free(m);
	free_list(v);
	free(base);
	return res;
}

/*
 * Read just the image at the start of an nvmem device (a 24C256 is 32 KiB
 * and slow): the standard area and extension header, then the records.
 */
int nvmem_read_image(const char *path, uint8_t **bufp, size_t *lenp)
{
	size_t head = CAPE_EEPROM_A1_SIZE + sizeof(struct capebus_ext_header), len = head, got = 0;
	uint8_t *buf;
	FILE *f;

	if (is_stdio(path))
		return read_file(path, bufp, lenp);
	buf = xcalloc(1, head);
	f = fopen(path, "rb");
	if (!f) {
		free(buf);
		return -errno;
	}
	got = fread(buf, 1, head, f);
	if (got >= 12 && !memcmp(buf, "R-Pi", 4)) {
		/* a Raspberry Pi HAT image: its header's eeplen, as far as the file goes */
		size_t eeplen = (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 |
				(size_t)buf[11] << 24;

		while (got < eeplen && !ferror(f) && !feof(f) && got < 1024 * 1024) {
			size_t n = eeplen - got < 4096 ? eeplen - got : 4096;

			buf = xrealloc(buf, got + n);
			got += fread(buf + got, 1, n, f);
		}
	} else if (got == head && !eeprom_has_magic(buf, got) && buf_is_text(buf, got)) {
		/* no image: a text file (a definition?) is read whole to say what it is */
		while (!ferror(f) && !feof(f) && got < 1024 * 1024) {
			buf = xrealloc(buf, got + 4096);
			got += fread(buf + got, 1, 4096, f);
		}
	} else if (got >= CAPE_EEPROM_A0_SIZE + sizeof(struct capebus_ext_header)) {
		size_t std = !memcmp(buf + 4, CAPE_EEPROM_REV_A0, 2) ? CAPE_EEPROM_A0_SIZE
								     : CAPE_EEPROM_A1_SIZE;
		const uint8_t *h = buf + std;

		if (got >= std + 8 && h[0] == 0x43 && h[1] == 0x42 && h[2] == 0x55 && h[3] == 0x53) {
			len = std + 8 + ((size_t)h[6] << 8 | h[7]);
			if (len > head) {
				buf = xrealloc(buf, len);
				got += fread(buf + got, 1, len - got, f);
			}
		}
	}
	if (ferror(f)) {
		int e = errno;

		fclose(f);
		free(buf);
		return -e;
	}
	fclose(f);
	*bufp = buf;
	*lenp = got;
	return 0;
}
