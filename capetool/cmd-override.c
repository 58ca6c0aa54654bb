#include "capetool.h"
int cmd_override(int argc, char **argv) { (void)argc; (void)argv; return 1; }
int cmd_remove(int argc, char **argv) { (void)argc; (void)argv; return 1; }
