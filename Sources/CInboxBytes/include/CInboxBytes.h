// Sixteen bytes at a time, for the two loops every payload byte goes through:
// finding where a JSON string stops being plain, and checking that a text is
// already one clean line. Each function answers for the 16 bytes at `bytes`
// with a mask, bit i for byte i; the Swift callers decide what a flagged byte
// means. With SSE2 (every x86-64) a mask takes a few instructions; elsewhere
// the portable loop gives the same masks.
#ifndef C_INBOX_BYTES_H
#define C_INBOX_BYTES_H

#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// Bytes a JSON string scanner must stop at: `"`, `\`, a control (below
/// 0x20) or a non-ASCII byte (0x80 and above).
static inline uint32_t inbox_string_stops16(const uint8_t *bytes) {
#if defined(__SSE2__)
  __m128i chunk = _mm_loadu_si128((const __m128i *)bytes);
  // Signed, bytes from 0x80 are negative: one comparison catches them and
  // the controls.
  __m128i stops = _mm_or_si128(
      _mm_cmplt_epi8(chunk, _mm_set1_epi8(0x20)),
      _mm_or_si128(_mm_cmpeq_epi8(chunk, _mm_set1_epi8('"')), _mm_cmpeq_epi8(chunk, _mm_set1_epi8('\\'))));
  return (uint32_t)_mm_movemask_epi8(stops);
#else
  uint32_t mask = 0;
  for (int i = 0; i < 16; i++) {
    uint8_t byte = bytes[i];
    if (byte < 0x20 || byte >= 0x80 || byte == '"' || byte == '\\') mask |= 1u << i;
  }
  return mask;
#endif
}

/// For a one-line check: bytes that may start something other than a plain
/// kept character — a control (below 0x20, or 0x7F) or the lead byte of a
/// two- or three-byte scalar that may be a control, a space or a bidi
/// control (0xC2, and 0xE0 to 0xE3, a superset of the leads that matter) —
/// and, in `*spaces`, the ASCII spaces.
static inline uint32_t inbox_line_stops16(const uint8_t *bytes, uint32_t *spaces) {
#if defined(__SSE2__)
  __m128i chunk = _mm_loadu_si128((const __m128i *)bytes);
  __m128i controls = _mm_cmpeq_epi8(_mm_min_epu8(chunk, _mm_set1_epi8(0x1F)), chunk);
  __m128i leads = _mm_or_si128(
      _mm_cmpeq_epi8(chunk, _mm_set1_epi8(0x7F)),
      _mm_or_si128(_mm_cmpeq_epi8(chunk, _mm_set1_epi8((char)0xC2)),
                   _mm_cmpeq_epi8(_mm_and_si128(chunk, _mm_set1_epi8((char)0xFC)), _mm_set1_epi8((char)0xE0))));
  *spaces = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, _mm_set1_epi8(' ')));
  return (uint32_t)_mm_movemask_epi8(_mm_or_si128(controls, leads));
#else
  uint32_t mask = 0, found = 0;
  for (int i = 0; i < 16; i++) {
    uint8_t byte = bytes[i];
    if (byte < 0x20 || byte == 0x7F || byte == 0xC2 || (byte & 0xFC) == 0xE0) mask |= 1u << i;
    if (byte == ' ') found |= 1u << i;
  }
  *spaces = found;
  return mask;
#endif
}

#endif
