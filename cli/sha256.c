/* SHA-256 as specified in FIPS 180-4, section 6.2: the message is padded
 * with 0x80, zeros and its bit length to a multiple of 64 bytes, and each
 * 64-byte block is mixed into eight 32-bit words over 64 rounds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "sha256.h"

#include <stdio.h>
#include <string.h>

static const uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t rotate_right(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

static void compress(uint32_t state[8], const uint8_t block[64])
{
    uint32_t w[64];
    for (int t = 0; t < 16; t++)
        w[t] = (uint32_t)block[4 * t] << 24 | (uint32_t)block[4 * t + 1] << 16 |
               (uint32_t)block[4 * t + 2] << 8 | block[4 * t + 3];
    for (int t = 16; t < 64; t++) {
        uint32_t s0 = rotate_right(w[t - 15], 7) ^
                      rotate_right(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = rotate_right(w[t - 2], 17) ^
                      rotate_right(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int t = 0; t < 64; t++) {
        uint32_t sum1 = rotate_right(e, 6) ^ rotate_right(e, 11) ^
                        rotate_right(e, 25);
        uint32_t choose = (e & f) ^ (~e & g);
        uint32_t temp1 = h + sum1 + choose + round_constants[t] + w[t];
        uint32_t sum0 = rotate_right(a, 2) ^ rotate_right(a, 13) ^
                        rotate_right(a, 22);
        uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
        uint32_t temp2 = sum0 + majority;
        h = g, g = f, f = e, e = d + temp1;
        d = c, c = b, b = a, a = temp1 + temp2;
    }
    state[0] += a, state[1] += b, state[2] += c, state[3] += d;
    state[4] += e, state[5] += f, state[6] += g, state[7] += h;
}

void sha256(const void *data, size_t size, uint8_t digest[32])
{
    uint32_t state[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                         0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    const uint8_t *bytes = data;
    size_t offset = 0;
    for (; size - offset >= 64; offset += 64)
        compress(state, bytes + offset);
    uint8_t tail[128] = {0};
    size_t rest = size - offset;
    memcpy(tail, bytes + offset, rest);
    tail[rest] = 0x80;
    size_t tail_size = rest + 1 + 8 <= 64 ? 64 : 128;
    uint64_t bits = (uint64_t)size * 8;
    for (int i = 0; i < 8; i++)
        tail[tail_size - 1 - i] = (uint8_t)(bits >> (8 * i));
    for (size_t i = 0; i < tail_size; i += 64)
        compress(state, tail + i);
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (uint8_t)(state[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(state[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(state[i] >> 8);
        digest[4 * i + 3] = (uint8_t)state[i];
    }
}

void csp_hash_source(const void *data, size_t size, char *buffer)
{
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    uint8_t digest[33] = {0};
    sha256(data, size, digest);
    char *out = buffer + sprintf(buffer, "'sha256-");
    for (int i = 0; i < 32; i += 3) {
        uint32_t group = (uint32_t)digest[i] << 16 |
                         (uint32_t)digest[i + 1] << 8 |
                         (i + 2 < 32 ? digest[i + 2] : 0);
        *out++ = alphabet[group >> 18 & 63];
        *out++ = alphabet[group >> 12 & 63];
        *out++ = alphabet[group >> 6 & 63];
        *out++ = i + 2 < 32 ? alphabet[group & 63] : '=';
    }
    sprintf(out, "'");
}
