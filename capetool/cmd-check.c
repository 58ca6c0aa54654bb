// SPDX-License-Identifier: GPL-2.0
/*
 * capetool check: validate definitions without writing anything and, as
 * the kernel would with the capes in slots 0, 1, ... in the order given,
 * report pin conflicts and power over budget in the kernel's own words.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capetool.h"

static const char usage_text[] =
	"usage: capetool check DEF... [--board B] [--quiet]\n"
	"\n"
	"Validate cape definitions (schema, header pins, devices against the board\n"
	"profile) without writing anything.  The definitions are then taken as the\n"
	"capes of slots 0, 1, ... in the order given, and pin conflicts and power\n"
	"over budget are reported in the words the kernel uses, e.g.\n"
	"  pin P9.19 is held by BB-WTHR-01 (slot 0)\n"
	"  vdd-3v3b over budget: needs 150 mA, 200 of 250 mA in use\n"
	"  -b, --board B   board profile (board pins, shared pins, rail budgets)\n"
	"  -q, --quiet     print only problems\n"
	"  -h, --help      this text\n"
	"Exit: 0 all fit, 3 invalid definition, 5 pin conflict, 6 over budget.\n";

static const char *const rails[] = { "vdd-3v3b", "vdd-5v", "sys-5v" };

struct held {
	const char *part;	/* NULL: free */
	int slot;
};

static void append(char **msg, const char *s)
{
	char *n = *msg ? xasprintf("%s; %s", *msg, s) : xstrdup(s);

	free(*msg);
	*msg = n;
}

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "board", required_argument, NULL, 'b' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *boardname = NULL;
	bool quiet = false;
	struct board b;
	struct held held[CAPE_NPINS] = { { 0 } };
	unsigned used[3] = { 0 };
	int c, rc = EXIT_OK, ndefs;
	struct cape_def *defs;

	optind = 1;
	while ((c = getopt_long(argc, argv, "b:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'b': boardname = optarg; break;
		case 'q': quiet = true; break;
		case 'h': fputs(usage_text, stdout); return EXIT_OK;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	if (optind == argc) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	c = board_load(boardname, &b);
	if (c)
		return c;
	ndefs = argc - optind;
	defs = xcalloc((size_t)ndefs, sizeof(*defs));
	for (int i = 0; i < ndefs; i++) {
		const char *file = argv[optind + i];
		struct cape_def *d = &defs[i];
		char *msg = NULL, buf[128];
		bool uses[CAPE_NPINS];
		void *blob = NULL;
		size_t len;
		int r = def_load(file, d);

		if (!r)
			r = overlay_build(d, &b, &blob, &len);
		free(blob);
		memset(uses, 0, sizeof(uses));
		for (size_t k = 0; !r && k < d->npins; k++)
			uses[d->pins[k].idx] = true;
		if (r) {
			if (r == EXIT_DEF || r == EXIT_IO)
				printf("%s: invalid\n", file);
			rc = rc ? rc : r;
			continue;
		}
		/* in pin-usage order, as the kernel walks its pin bitmap */
		for (int idx = 0; idx < CAPE_NPINS; idx++) {
			if (!uses[idx] || b.shared_pin[idx])
				continue;
			if (b.board_pin[idx]) {
				snprintf(buf, sizeof(buf), "pin %s is held by the board",
					 cape_pin_names[idx]);
				append(&msg, buf);
			} else if (held[idx].part) {
				snprintf(buf, sizeof(buf), "pin %s is held by %s (slot %d)",
					 cape_pin_names[idx], held[idx].part, held[idx].slot);
				append(&msg, buf);
			}
		}
		if (msg) {
			printf("%s: %s\n", file, msg);
			free(msg);
			if (!rc || rc == EXIT_POWER)
				rc = EXIT_CONFLICT;
			continue;
		}
		for (int r2 = 0; r2 < 3; r2++) {
			/* a rail the cape draws nothing from is never over budget */
			if (d->power[r2] && used[r2] + d->power[r2] > b.budget[r2]) {
				snprintf(buf, sizeof(buf),
					 "%s over budget: needs %u mA, %u of %u mA in use",
					 rails[r2], d->power[r2], used[r2], b.budget[r2]);
				append(&msg, buf);
			}
		}
		if (msg) {
			printf("%s: %s\n", file, msg);
			free(msg);
			if (!rc)
				rc = EXIT_POWER;
			continue;
		}
		for (size_t k = 0; k < d->npins; k++) {
			held[d->pins[k].idx].part = d->part_number;
			held[d->pins[k].idx].slot = i;
		}
		for (int r2 = 0; r2 < 3; r2++)
			used[r2] += d->power[r2];
		if (!quiet)
			printf("%s: ok: %s-%s in slot %d, %zu pins, vdd-3v3b %u mA, vdd-5v %u mA, sys-5v %u mA (board %s)\n",
			       file, d->part_number, d->version, i, d->npins, d->power[0],
			       d->power[1], d->power[2], b.name);
	}
	for (int i = 0; i < ndefs; i++)
		def_free(&defs[i]);
	free(defs);
	board_free(&b);
	return rc;
}
