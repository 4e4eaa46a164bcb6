/* lifeheap.h: client requests for programs profiled by lifeheap.

   Include this header in the program you profile (it is installed next to
   valgrind.h and dhat.h, so `#include <valgrind/lifeheap.h>` works once
   lifeheap is installed; from a build tree use -I<lifeheap>/tool):

      #include <valgrind/lifeheap.h>

      load_config();
      LIFEHEAP_MARK("config loaded");
      serve_requests();
      LIFEHEAP_MARK("shutdown");

   LIFEHEAP_MARK(label) records a phase marker at the current time on the
   profile's timeline (`timeline.markers` in the profile, see
   docs/format.md), so the viewer can show which phase of the program a rise
   or fall of the heap belongs to.
     - label: a NUL-terminated string.  The tool copies it when the request
       is made, so it may be a temporary buffer.  At most 255 bytes are
       kept; a longer label is cut there.  A label the tool cannot read
       (NULL or an invalid pointer) is recorded as "(unreadable label)".
       Any bytes are accepted; the profile escapes them (invalid UTF-8
       becomes U+FFFD).
     - At most 10,000 markers are kept per run; later ones are ignored
       (the tool says so once on stderr).

   Like every Valgrind client request, LIFEHEAP_MARK costs a handful of
   instructions and does nothing when the program does not run under
   Valgrind, or runs under another Valgrind tool: it is safe to leave in
   production code.  Compile with -DNVALGRIND to remove it entirely.

   License: this header alone is under the MIT license (SPDX-License-
   Identifier: MIT), unlike the rest of lifeheap (GPL-3.0-or-later), so that
   any program, whatever its license, can include it -- as Valgrind does for
   its own BSD-style client headers valgrind.h and dhat.h.

   Copyright (C) 2026 the lifeheap authors.
   Permission is hereby granted, free of charge, to any person obtaining a
   copy of this software and associated documentation files (the
   "Software"), to deal in the Software without restriction, including
   without limitation the rights to use, copy, modify, merge, publish,
   distribute, sublicense, and/or sell copies of the Software, and to permit
   persons to whom the Software is furnished to do so, subject to the
   following conditions: The above copyright notice and this permission
   notice shall be included in all copies or substantial portions of the
   Software.  THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY
   KIND, EXPRESS OR IMPLIED.
*/
#ifndef __LIFEHEAP_H
#define __LIFEHEAP_H

#include "valgrind.h"

/* Request codes.  Only append: the numbers are part of the binary interface
   between compiled client programs and the tool. */
typedef enum {
   VG_USERREQ__LIFEHEAP_MARK = VG_USERREQ_TOOL_BASE('L', 'H'),
} Vg_LifeheapClientRequest;

/* Records a phase marker with the given label at the current time. */
#define LIFEHEAP_MARK(_qzz_label)                                         \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__LIFEHEAP_MARK,             \
                                   (const char*)(_qzz_label), 0, 0, 0, 0)

#endif /* __LIFEHEAP_H */
