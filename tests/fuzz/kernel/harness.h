/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every libFuzzer harness here shares: the entry points' prototypes,
 * the reason buffer's size and the one way a broken promise ends a run.
 * Define HARNESS_NAME (the target's name, for the message) before
 * including this.
 */
#ifndef CAPEBUS_FUZZ_HARNESS_H
#define CAPEBUS_FUZZ_HARNESS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef HARNESS_NAME
#error "define HARNESS_NAME before including harness.h"
#endif

#define WHY_LEN		256	/* CAPEBUS_REASON_LEN, as the kernel's callers */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool verbose;	/* FUZZ_VERBOSE=1: print what each call said */

/* A documented promise broke: say which, and abort() for libFuzzer. */
__attribute__((noreturn, format(printf, 1, 2)))
static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, HARNESS_NAME ": property violated: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

#endif /* CAPEBUS_FUZZ_HARNESS_H */
