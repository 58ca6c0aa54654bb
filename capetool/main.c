// SPDX-License-Identifier: GPL-2.0
/*
 * capetool: compile, inspect, flash and declare BeagleBone-style capes.
 * Dispatch table in the manner of git's builtin/: one file per command.
 */
#include <stdio.h>
#include <string.h>
#include "capetool.h"

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct cmd cmds[] = {
	{ "create", cmd_create, "write <part>-<version>.eeprom and .dtbo from a definition, or a HAT image" },
	{ "decode", cmd_decode, "print every field of an EEPROM image or a slot's EEPROM" },
	{ "check", cmd_check, "validate definitions or HATs; report pin conflicts and power budget" },
	{ "flash", cmd_flash, "write an image to a slot's EEPROM or a file/device, verified" },
	{ "read", cmd_read, "save a slot's whole EEPROM to a file (raw dump)" },
	{ "override", cmd_override, "declare a cape to the kernel through configfs" },
	{ "remove", cmd_remove, "remove a cape declared with override" },
	{ "list", cmd_list, "slots and capes the kernel reports" },
	{ "status", cmd_status, "what is attached and what was done with it, per slot" },
	{ "schema", cmd_schema, "print the definition format (from the compiled-in schema)" },
	{ "pinout", cmd_pinout, "draw P8 and P9 as capes use them, or a Pi's 40 pins as HATs do" },
	{ "resolve", cmd_resolve, "a portable overlay into one for a board's tree (U-Boot)" },
	{ "import-rpi", cmd_import_rpi, "a Raspberry Pi overlay source into a HAT+ overlay" },
};

static const char exit_codes[] =
	"Exit codes:\n"
	"   0  success\n"
	"   1  other failure\n"
	"   2  bad command line (option, argument, board or command name; a slot\n"
	"      two controllers have, without --controller)\n"
	"   3  invalid input file: definition, board profile or escape-hatch\n"
	"      overlay (FILE:LINE: KEY: reason); resolve: not a portable overlay\n"
	"      for the board\n"
	"   4  cannot read or write a file (missing, unreadable, a write failed,\n"
	"      longer than 1 MiB: the most capetool reads of any file)\n"
	"   5  check: pin, bus address or slot conflict; pinout: pin conflict\n"
	"      create, resolve: the cape alone does not fit the board (as check)\n"
	"   6  check: power over budget; create, resolve: the cape alone is over\n"
	"      the board's budget\n"
	"   7  flash: the EEPROM holds a different part, or the image is for\n"
	"      another header family than the slot's (use --force)\n"
	"   8  flash: read-back differs from the image\n"
	"   9  EEPROM, slot, sysfs or configfs missing, or EEPROM write-protected\n"
	"  10  image (decode, flash, override): bad magic\n"
	"  11  image: unknown format revision\n"
	"  12  image: bad text field\n"
	"  13  image: bad CRC\n"
	"  14  image: truncated, or extension area malformed (embedded overlay\n"
	"      not a device tree); a HAT image's atoms malformed\n"
	"  15  override: the kernel refused the cape; status --check: a slot or\n"
	"      declared cape failed, or a cape's overlay file was not found\n"
	"  16  resolve, check --dtb: the tree lacks what the cape needs (a label, the\n"
	"      ADC's inputs), has no __symbols__, or applying the capes to it fails\n";

static void usage(FILE *f)
{
	fprintf(f, "usage: capetool [-V|--version] [-h|--help] <command> [<args>]\n\nCommands:\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-9s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(f, "\n'capetool <command> --help' describes a command.\n\n%s", exit_codes);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		if (argc > 2 && strcmp(argv[1], "help") == 0) {
			char *hargv[] = { argv[2], "--help", NULL };

			for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
				if (!strcmp(cmds[i].name, argv[2]))
					return cmds[i].fn(2, hargv);
		}
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V") || !strcmp(argv[1], "version")) {
		printf("capetool %s\n", CAPETOOL_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(cmds[i].name, argv[1]))
			return cmds[i].fn(argc - 1, argv + 1);
	{
		const char *names[sizeof(cmds) / sizeof(cmds[0])], *near;

		for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
			names[i] = cmds[i].name;
		near = closest(argv[1], names, sizeof(cmds) / sizeof(cmds[0]));
		if (near)
			err("'%s' is not a command; did you mean '%s'? (see 'capetool --help')",
			    argv[1], near);
		else
			err("'%s' is not a command; see 'capetool --help'", argv[1]);
	}
	return EXIT_USAGE;
}
