/* io/crc32.c: CRC-32 as the MCAP spec checks chunks, the data section and
 * the summary with it: the reflected polynomial 0xEDB88320 of ISO 3309 /
 * ITU-T V.42 (zlib's crc32), initial value and final xor 0xFFFFFFFF.
 *
 * Slicing by 8 (Kounavis and Berry, "A Systematic Approach to Building
 * High Performance Software-based CRC Generators", ISCC 2005): eight
 * tables let one step consume eight bytes, several times the speed of the
 * byte-wise table, which matters because every recorded byte is summed
 * twice (uncompressed chunk, data section). */
#include <pthread.h>
#include <string.h>
#include "io/mcap_writer.h"

static uint32_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void build_tables(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[0][i] = c;
  }
  for (uint32_t i = 0; i < 256; i++)
    for (int s = 1; s < 8; s++) table[s][i] = (table[s - 1][i] >> 8) ^ table[0][table[s - 1][i] & 0xFFu];
}

uint32_t sensim__crc32(uint32_t crc, const void *data, size_t n) {
  pthread_once(&table_once, build_tables);
  const unsigned char *p = data;
  uint32_t c = ~crc;
  while (n >= 8) {
    uint32_t lo, hi;
    memcpy(&lo, p, 4);
    memcpy(&hi, p + 4, 4);
    lo ^= c; /* little-endian hosts only (io/cdr.h checks) */
    c = table[7][lo & 0xFFu] ^ table[6][(lo >> 8) & 0xFFu] ^ table[5][(lo >> 16) & 0xFFu] ^
        table[4][lo >> 24] ^ table[3][hi & 0xFFu] ^ table[2][(hi >> 8) & 0xFFu] ^
        table[1][(hi >> 16) & 0xFFu] ^ table[0][hi >> 24];
    p += 8;
    n -= 8;
  }
  while (n--) c = table[0][(c ^ *p++) & 0xFFu] ^ (c >> 8);
  return ~c;
}
