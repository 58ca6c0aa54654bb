// SPDX-License-Identifier: GPL-2.0
/* capetool schema: the definition format, from the compiled-in schema */
#include <stdio.h>
#include <string.h>
#include "capetool.h"

static const char usage_text[] =
	"usage: capetool schema [--roff | --raw | --board-schema | --boards]\n"
	"\n"
	"Describe the cape definition format.\n"
	"      --roff          as a man page section (used to build capetool.1)\n"
	"      --raw           the schema itself (libconfig)\n"
	"      --board-schema  the board profile schema (libconfig)\n"
	"      --boards        names of the compiled-in board profiles\n"
	"  -h, --help          this text\n";

int cmd_schema(int argc, char **argv)
{
	if (argc == 1)
		return schema_print_doc(embedded_cape_schema, false);
	if (argc != 2) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--roff"))
		return schema_print_doc(embedded_cape_schema, true);
	if (!strcmp(argv[1], "--raw")) {
		fputs(embedded_cape_schema, stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--board-schema")) {
		fputs(embedded_board_schema, stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--boards")) {
		for (const struct board_src *s = embedded_boards; s->name; s++)
			printf("%s\n", s->name);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage_text, stdout);
		return EXIT_OK;
	}
	fputs(usage_text, stderr);
	return EXIT_USAGE;
}
