/* lifeheap.h: client requests for programs profiled by lifeheap.
   Placeholder: the client-request macros are defined by the tool work. */
#ifndef __LIFEHEAP_H
#define __LIFEHEAP_H
#include "valgrind.h"
#endif
