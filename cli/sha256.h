/* SHA-256 (FIPS 180-4), for the Content-Security-Policy hashes of the
 * scripts and styles `lifeheap view` inlines.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_SHA256_H
#define LIFEHEAP_SHA256_H

#include <stddef.h>
#include <stdint.h>

void sha256(const void *data, size_t size, uint8_t digest[32]);

/* The CSP source for `data`: "'sha256-<base64 digest>'" (buffer >= 64). */
void csp_hash_source(const void *data, size_t size, char *buffer);

#endif
