// SPDX-License-Identifier: GPL-2.0
/* capetool list: slots and capes as the kernel reports them (sysfs) */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capetool.h"

static const char usage_text[] =
	"usage: capetool list [--json]\n"
	"\n"
	"Show every capebus controller's slots (state, reason, EEPROM nvmem device,\n"
	"cape) and every cape on the capebus bus (identity, slot, overlay source,\n"
	"pins, currents), from /sys/class/capebus and /sys/bus/capebus.  Each\n"
	"controller is named with its family (bone, rpi) when it has one: slot\n"
	"numbers repeat across controllers, and flash, read and decode of a slot\n"
	"then take the controller's name or family too.\n"
	"  -j, --json   JSON output\n"
	"  -h, --help   this text\n";

/* A slot's "nvmem" and "cape" are links to devices: their names. */
static char *attr(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	char *v = !strcmp(name, "nvmem") || !strcmp(name, "cape") ?
		  read_link_name(p) : read_attr(p);

	free(p);
	return v ? v : xstrdup("");
}

static int slot_cmp(const void *a, const void *b)
{
	return atoi(*(char *const *)a + 4) - atoi(*(char *const *)b + 4);
}

static const char *const slot_attrs[] = { "state", "reason", "nvmem", "cape" };
static const char *const cape_attrs[] = {
	"board_name", "version", "manufacturer", "part_number", "serial", "format",
	"slot", "overlay", "overlay_file", "pins", "currents",
};
#define N(a) (sizeof(a) / sizeof((a)[0]))

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	bool json = false;
	char *cls, *bus, **ctrls, **capes;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		case 'h': fputs(usage_text, stdout); return EXIT_OK;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	cls = xasprintf("%s/class/capebus", sysfs_root());
	bus = xasprintf("%s/bus/capebus/devices", sysfs_root());
	ctrls = list_dir(cls);
	if (!ctrls) {
		err("%s: no capebus controllers (kernel without capebus?)", cls);
		free(cls);
		free(bus);
		return EXIT_NODEV;
	}
	capes = list_dir(bus);
	if (json)
		printf("{\"controllers\": [");
	for (size_t i = 0; ctrls[i]; i++) {
		char *cdir = xasprintf("%s/%s", cls, ctrls[i]);
		char **ents = list_dir(cdir), **slots, *family;
		size_t ns = 0;

		slots = xcalloc(1, sizeof(*slots));
		for (size_t k = 0; ents && ents[k]; k++) {
			if (strncmp(ents[k], "slot", 4) || !strchr("0123456789", ents[k][4]) ||
			    !ents[k][4])
				continue;
			slots = xrealloc(slots, (ns + 2) * sizeof(*slots));
			slots[ns++] = ents[k];
			slots[ns] = NULL;
		}
		qsort(slots, ns, sizeof(*slots), slot_cmp);
		family = ctrl_family(ctrls[i]);
		if (json) {
			printf("%s{\"name\": ", i ? ", " : "");
			json_str(ctrls[i]);
			printf(", \"family\": ");
			if (*family)
				json_str(family);
			else
				printf("null");
			printf(", \"slots\": [");
		} else {
			printf("%s%s%s%s:\n", ctrls[i], *family ? " (family " : "", family,
			       *family ? ")" : "");
		}
		free(family);
		for (size_t k = 0; k < ns; k++) {
			char *sdir = xasprintf("%s/%s", cdir, slots[k]);
			char *v[N(slot_attrs)];

			for (size_t a = 0; a < N(slot_attrs); a++)
				v[a] = attr(sdir, slot_attrs[a]);
			if (json) {
				printf("%s{\"slot\": %d", k ? ", " : "", atoi(slots[k] + 4));
				for (size_t a = 0; a < N(slot_attrs); a++) {
					printf(", \"%s\": ", slot_attrs[a]);
					json_str(v[a]);
				}
				putchar('}');
			} else {
				char *cdev = xasprintf("%s/%s", bus, v[3]);
				char *part = *v[3] ? attr(cdev, "part_number") : xstrdup("");
				char *ver = *v[3] ? attr(cdev, "version") : xstrdup("");
				/* The part says what is plugged in; the device name where to look. */
				char *what = *v[3] ? xasprintf(" %s %s (%s%s%s)", part, ver, v[3],
							       *v[2] ? ", nvmem " : "", v[2])
						   : *v[2] ? xasprintf(" (nvmem %s)", v[2]) : xstrdup("");
				char *line = xasprintf("  slot %-2d %-9s%s", atoi(slots[k] + 4),
						       *v[0] ? v[0] : "?", what);

				free(cdev);
				free(part);
				free(ver);
				free(what);
				size_t n = strlen(line);

				while (n && line[n - 1] == ' ')
					line[--n] = 0;
				printf("%s%s%s\n", line, *v[1] ? " reason: " : "", v[1]);
				free(line);
			}
			for (size_t a = 0; a < N(slot_attrs); a++)
				free(v[a]);
			free(sdir);
		}
		if (json)
			printf("]}");
		free(slots);
		free_list(ents);
		free(cdir);
	}
	if (json)
		printf("], \"capes\": [");
	else
		printf("capes:%s\n", capes && capes[0] ? "" : " none");
	for (size_t i = 0; capes && capes[i]; i++) {
		char *dir = xasprintf("%s/%s", bus, capes[i]);
		char *v[N(cape_attrs)];

		for (size_t a = 0; a < N(cape_attrs); a++)
			v[a] = attr(dir, cape_attrs[a]);
		if (json) {
			printf("%s{\"name\": ", i ? ", " : "");
			json_str(capes[i]);
			for (size_t a = 0; a < N(cape_attrs); a++) {
				printf(", \"%s\": ", cape_attrs[a]);
				if (!strcmp(cape_attrs[a], "pins") || !strcmp(cape_attrs[a], "currents"))
					json_lines(v[a]);
				else
					json_str(v[a]);
			}
			putchar('}');
		} else {
			char *pw = xstrdup(v[10]);

			for (char *q = pw; *q; q++)
				if (*q == '\n')
					*q = ',';
			printf("  %s: %s %s by %s, part %s, serial %s, format %s, slot %s, overlay %s%s%s\n",
			       capes[i], v[0], v[1], v[2], v[3], *v[4] ? v[4] : "-",
			       *v[5] ? v[5] : "?", *v[6] ? v[6] : "-", *v[7] ? v[7] : "?",
			       *v[8] ? " " : "", v[8]);
			printf("    currents: %s\n", *pw ? pw : "-");
			if (*v[9]) {
				char *dup = xstrdup(v[9]), *save, *tok;

				for (tok = strtok_r(dup, "\n", &save); tok;
				     tok = strtok_r(NULL, "\n", &save))
					printf("    %s\n", tok);
				free(dup);
			}
			free(pw);
		}
		for (size_t a = 0; a < N(cape_attrs); a++)
			free(v[a]);
		free(dir);
	}
	if (json)
		printf("]}\n");
	free_list(capes);
	free_list(ctrls);
	free(cls);
	free(bus);
	return EXIT_OK;
}
