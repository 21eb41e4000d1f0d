// The functions are `static inline` in the header, so that Swift inlines them
// into its loops; this file only gives the target something to compile.
#include "CInboxBytes.h"
