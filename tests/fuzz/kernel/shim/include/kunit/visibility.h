/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <kunit/visibility.h>, as with CONFIG_KUNIT=y (the
 * exported-for-KUnit functions are what the fuzzers call).  The export
 * becomes a redeclaration: it still fails to compile if the symbol does
 * not exist, and it takes the ';' that follows it.
 */
#ifndef KSHIM_KUNIT_VISIBILITY_H
#define KSHIM_KUNIT_VISIBILITY_H

#define VISIBLE_IF_KUNIT
#define EXPORT_SYMBOL_IF_KUNIT(symbol) extern __typeof__(symbol) symbol

#endif
