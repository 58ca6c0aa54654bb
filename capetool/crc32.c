// SPDX-License-Identifier: GPL-2.0
/* CRC-32/ISO-HDLC (zlib's crc32), table-driven; no zlib needed. */
#include "capetool.h"

uint32_t crc32_iso_hdlc(const void *buf, size_t len)
{
	static uint32_t table[256];
	static bool ready;
	const uint8_t *p = buf;
	uint32_t crc = 0xffffffffU;

	if (!ready) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;

			for (int k = 0; k < 8; k++)
				c = (c & 1) ? 0xedb88320U ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
		ready = true;
	}
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc ^ 0xffffffffU;
}
