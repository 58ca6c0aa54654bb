// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for capetool decode: the EEPROM decoder and all three
 * printers (text, JSON, definition) on arbitrary bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include "capetool.h"


int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!freopen("/dev/null", "w", stdout))
		abort();
	err_quiet = true;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a private copy so ASan sees reads past the end */
	uint8_t *buf = malloc(size ? size : 1);

	for (size_t i = 0; i < size; i++)
		buf[i] = data[i];
	for (int fmt = 0; fmt < 3; fmt++)
		decode_buffer("fuzz", buf, size, fmt, NULL);
	free(buf);
	return 0;
}
