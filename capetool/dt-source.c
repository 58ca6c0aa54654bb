// SPDX-License-Identifier: GPL-2.0
/*
 * capetool: a device tree source into a blob, as the kernel's build makes
 * one: through cpp when the source uses the preprocessor (#include of
 * dt-bindings/, #define), then dtc.  One copy for every command that takes
 * a source where a blob goes: a HAT+'s overlay beside its settings, a v1
 * HAT's --dt-blob (no -@: the kernel refuses an overlay's __symbols__),
 * import-rpi's input (-@: its __overrides__ name labels) and output.
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "capetool.h"

extern char **environ;

/* Run @argv; NULL, or why not: strerror, "not found", "it failed". */
static const char *run(char *const argv[])
{
	pid_t pid;
	int st = 0, r = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);

	if (!r && waitpid(pid, &st, 0) < 0)
		r = errno;
	if (r)
		return strerror(r);
	if (!WIFEXITED(st) || WEXITSTATUS(st) == 127)
		return "not found";
	return WEXITSTATUS(st) ? "it failed" : NULL;
}

bool dt_source_path(const char *path)
{
	size_t n = strlen(path);

	return (n > 4 && !strcmp(path + n - 4, ".dts")) || (n > 5 && !strcmp(path + n - 5, ".dtso"));
}

bool dt_source_wants_cpp(const uint8_t *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t j = i;

		while (j < n && (t[j] == ' ' || t[j] == '\t'))
			j++;
		if (j < n && t[j] == '#' && (n - j > 8 && (!memcmp(t + j, "#include", 8) ||
							   !memcmp(t + j, "#define", 7) ||
							   !memcmp(t + j, "#if", 3))))
			return true;
		while (i < n && t[i] != '\n')
			i++;
	}
	return false;
}

int dt_source_preprocess(const char *src, char *const *incs, int nincs, char **out)
{
	const char *cpp = getenv("CAPETOOL_CPP"), *why;
	char *dir = path_dirname(src), **argv = xcalloc((size_t)(2 * nincs + 14), sizeof(char *));
	int a = 0, fd;

	*out = tmp_template("capetool-cpp-XXXXXX.dts");
	fd = mkstemps(*out, 4);
	if (fd >= 0)
		close(fd);
	argv[a++] = (char *)(cpp && *cpp ? cpp : "cpp");
	argv[a++] = "-nostdinc";
	argv[a++] = "-undef";
	argv[a++] = "-D__DTS__";
	argv[a++] = "-x";
	argv[a++] = "assembler-with-cpp";
	argv[a++] = "-I";
	argv[a++] = dir;
	for (int i = 0; i < nincs; i++) {
		argv[a++] = "-I";
		argv[a++] = incs[i];
	}
	argv[a++] = "-o";
	argv[a++] = *out;
	argv[a++] = (char *)src;
	why = fd < 0 ? strerror(errno) : run(argv);
	free(argv);
	free(dir);
	if (why) {
		err("%s: it uses the C preprocessor (#include), and %s -x assembler-with-cpp on it: %s%s",
		    in_name(src), cpp && *cpp ? cpp : "cpp", why,
		    !strcmp(why, "it failed") ? " (its includes: -I DIR, the kernel's include/ for dt-bindings/)" : "");
		unlink(*out);
		free(*out);
		*out = NULL;
		return strcmp(why, "it failed") ? EXIT_FAIL : EXIT_DEF;
	}
	return EXIT_OK;
}

const char *dtc_compile(const char *src, bool symbols, uint8_t **blob, size_t *len)
{
	const char *dtc = getenv("CAPETOOL_DTC"), *why;
	char *out = tmp_template("capetool-dtc-XXXXXX");
	int fd = mkstemp(out), r;

	*blob = NULL;
	if (!dtc || !*dtc)
		dtc = "dtc";
	if (fd < 0) {
		why = strerror(errno);
		free(out);
		return why;
	}
	close(fd);
	{
		char *argv[11];
		int a = 0;

		argv[a++] = (char *)dtc;
		argv[a++] = "-q";
		if (symbols)
			argv[a++] = "-@";
		argv[a++] = "-I";
		argv[a++] = "dts";
		argv[a++] = "-O";
		argv[a++] = "dtb";
		argv[a++] = "-o";
		argv[a++] = out;
		argv[a++] = (char *)src;
		argv[a] = NULL;
		why = run(argv);
	}
	if (!why && (r = read_file(out, blob, len)))
		why = strerror(-r);
	unlink(out);
	free(out);
	return why;
}

int dt_source_read(const char *path, char *const *incs, int nincs, bool symbols, uint8_t **blob,
		   size_t *len)
{
	const char *dtc = getenv("CAPETOOL_DTC"), *why;
	char *pp = NULL;
	int r = read_file(path, blob, len);

	if (r) {
		err("%s: cannot read it: %s", in_name(path), strerror(-r));
		return EXIT_IO;
	}
	if (!dt_source_path(path) && !is_dt_source(*blob, *len))
		return EXIT_OK;
	if (nincs || dt_source_wants_cpp(*blob, *len)) {
		free(*blob);
		*blob = NULL;
		if ((r = dt_source_preprocess(path, incs, nincs, &pp)))
			return r;
	}
	free(*blob);
	why = dtc_compile(pp ? pp : path, symbols, blob, len);
	if (pp) {
		unlink(pp);
		free(pp);
	}
	if (!why)
		return EXIT_OK;
	if (!strcmp(why, "it failed")) {
		err("%s: dtc refuses it (its messages above)", in_name(path));
		return EXIT_DEF;
	}
	err("%s: a device tree source: compiling it needs dtc, and %s cannot be run (%s): install it (Debian: apt-get install device-tree-compiler) or give the compiled overlay (dtc%s -I dts -O dtb -o NAME.dtbo %s)",
	    in_name(path), dtc && *dtc ? dtc : "dtc", why, symbols ? " -@" : "", in_name(path));
	return EXIT_FAIL;
}
