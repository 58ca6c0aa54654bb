#include "capetool.h"
int cmd_list(int argc, char **argv) { (void)argc; (void)argv; return 1; }
