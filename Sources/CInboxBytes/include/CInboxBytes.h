// Sixteen bytes at a time, for the loops every payload byte goes through:
// finding where a JSON string stops being plain, checking that a text is
// already one clean line, and counting the lines and columns up to an
// offset. The mask functions answer for the 16 bytes at `bytes` with a mask,
// bit i for byte i; the Swift callers decide what a flagged byte means.
//
// Every kernel comes twice: `_portable`, a plain loop any C compiler builds,
// and `_sse2`, a few SSE2 instructions (every x86-64 has them). The names
// without a suffix are the engine's: SSE2 where the target has it, unless
// INBOX_BYTES_PORTABLE is defined, which forces the portable kernels on (the
// fuzzing script does so to run the whole engine on them). Tests call both
// kernels by name and compare them with the rules, on every machine.
#ifndef C_INBOX_BYTES_H
#define C_INBOX_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#define INBOX_BYTES_HAS_SSE2 1
#endif

// MARK: Where a JSON string stops being plain

/// Bytes a JSON string scanner must stop at: `"`, `\`, a control (below
/// 0x20) or a non-ASCII byte (0x80 and above).
static inline uint32_t inbox_string_stops16_portable(const uint8_t *bytes) {
  uint32_t mask = 0;
  for (int i = 0; i < 16; i++) {
    uint8_t byte = bytes[i];
    if (byte < 0x20 || byte >= 0x80 || byte == '"' || byte == '\\') mask |= 1u << i;
  }
  return mask;
}

#if defined(INBOX_BYTES_HAS_SSE2)
static inline uint32_t inbox_string_stops16_sse2(const uint8_t *bytes) {
  __m128i chunk = _mm_loadu_si128((const __m128i *)bytes);
  // Signed, bytes from 0x80 are negative: one comparison catches them and
  // the controls.
  __m128i stops = _mm_or_si128(
      _mm_cmplt_epi8(chunk, _mm_set1_epi8(0x20)),
      _mm_or_si128(_mm_cmpeq_epi8(chunk, _mm_set1_epi8('"')), _mm_cmpeq_epi8(chunk, _mm_set1_epi8('\\'))));
  return (uint32_t)_mm_movemask_epi8(stops);
}
#endif

// MARK: One clean line

/// For a one-line check: bytes that may start something other than a plain
/// kept character — a control (below 0x20, or 0x7F) or the lead byte of a
/// two- or three-byte scalar that may be a control, a space or a bidi
/// control (0xC2, and 0xE1 to 0xE3: a superset of the leads that matter,
/// which leaves out the Indic scripts' 0xE0) — and, in `*spaces`, the ASCII
/// spaces.
static inline bool inbox_line_stops_at(uint8_t byte) {
  return byte < 0x20 || byte == 0x7F || byte == 0xC2 || (uint8_t)(byte - 0xE1) <= 2;
}

static inline uint32_t inbox_line_stops16_portable(const uint8_t *bytes, uint32_t *spaces) {
  uint32_t mask = 0, found = 0;
  for (int i = 0; i < 16; i++) {
    if (inbox_line_stops_at(bytes[i])) mask |= 1u << i;
    if (bytes[i] == ' ') found |= 1u << i;
  }
  *spaces = found;
  return mask;
}

#if defined(INBOX_BYTES_HAS_SSE2)
static inline uint32_t inbox_line_stops_of(__m128i chunk, uint32_t *spaces) {
  __m128i controls = _mm_cmpeq_epi8(_mm_min_epu8(chunk, _mm_set1_epi8(0x1F)), chunk);
  // 0xE1 to 0xE3: the byte less 0xE1 is at most 2, unsigned.
  __m128i fromE1 = _mm_sub_epi8(chunk, _mm_set1_epi8((char)0xE1));
  __m128i leads = _mm_or_si128(
      _mm_or_si128(_mm_cmpeq_epi8(chunk, _mm_set1_epi8(0x7F)), _mm_cmpeq_epi8(chunk, _mm_set1_epi8((char)0xC2))),
      _mm_cmpeq_epi8(_mm_min_epu8(fromE1, _mm_set1_epi8(2)), fromE1));
  *spaces = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, _mm_set1_epi8(' ')));
  return (uint32_t)_mm_movemask_epi8(_mm_or_si128(controls, leads));
}

static inline uint32_t inbox_line_stops16_sse2(const uint8_t *bytes, uint32_t *spaces) {
  return inbox_line_stops_of(_mm_loadu_si128((const __m128i *)bytes), spaces);
}
#endif

/// How much of the `count` bytes at `bytes` is plainly part of one clean
/// line, for the one-line check to go on from:
/// - `count` when all of it is: no byte `inbox_line_stops_at` flags, no
///   space at either end and no two spaces in a row;
/// - `SIZE_MAX` when the text certainly is not one clean line: a space at
///   either end, or two spaces in a row;
/// - otherwise the index of the first flagged byte, with everything before
///   it plain and no two spaces in a row up to it. (The SSE2 kernel may
///   answer `SIZE_MAX` where two spaces follow that byte in its block; the
///   caller treats both answers the same.)
///
/// Never reads outside the bytes.
static inline size_t inbox_plain_line_length_portable(const uint8_t *bytes, size_t count) {
  if (count == 0) return 0;
  if (bytes[0] == ' ' || bytes[count - 1] == ' ') return SIZE_MAX;
  for (size_t index = 0; index < count; index++) {
    if (bytes[index] == ' ' && bytes[index - 1] == ' ') return SIZE_MAX;  // index > 0: bytes[0] is no space
    if (inbox_line_stops_at(bytes[index])) {
      // Two spaces in a row after it are the caller's to find.
      return index;
    }
  }
  return count;
}

#if defined(INBOX_BYTES_HAS_SSE2)
/// A tail shorter than 16 is read as an overlapping last block, and a text
/// shorter than 16 as two overlapping halves, whose seam (not a real pair
/// of neighbours) is left out of the two-spaces check.
static inline size_t inbox_plain_line_length_sse2(const uint8_t *bytes, size_t count) {
  if (count == 0) return 0;
  if (bytes[0] == ' ' || bytes[count - 1] == ' ') return SIZE_MAX;
  uint32_t spaces, stops;
  if (count >= 16) {
    uint32_t spaceBefore = 0;  // whether the block before ended with a space
    size_t index = 0;
    for (; index + 16 <= count; index += 16) {
      stops = inbox_line_stops16_sse2(bytes + index, &spaces);
      if (spaces & ((spaces << 1) | spaceBefore)) return SIZE_MAX;
      if (stops) return index + (size_t)__builtin_ctz(stops);
      spaceBefore = spaces >> 15;
    }
    if (index == count) return count;
    // Every pair of neighbours not yet checked lies inside the last 16
    // bytes; the bytes before `index` in it flag nothing.
    stops = inbox_line_stops16_sse2(bytes + count - 16, &spaces);
    if (spaces & (spaces << 1)) return SIZE_MAX;
    return stops ? count - 16 + (size_t)__builtin_ctz(stops) : count;
  }
  // The first bytes in the low lanes, the last ones in the high lanes.
  __m128i chunk;
  uint32_t seam;
  if (count >= 8) {
    uint64_t low, high;
    __builtin_memcpy(&low, bytes, 8);
    __builtin_memcpy(&high, bytes + count - 8, 8);
    chunk = _mm_set_epi64x((long long)high, (long long)low);
    seam = 1u << 8;
  } else if (count >= 4) {
    uint32_t low, high;
    __builtin_memcpy(&low, bytes, 4);
    __builtin_memcpy(&high, bytes + count - 4, 4);
    chunk = _mm_set_epi32(0x41414141, 0x41414141, (int)high, (int)low);  // padded with 'A', flagging nothing
    seam = 1u << 4;
  } else {
    // One to three bytes in lanes 0 to 2: the first, the middle and the
    // last (the same byte twice when there are fewer; the last is no space).
    uint32_t word = bytes[0] | (uint32_t)bytes[count / 2] << 8 | (uint32_t)bytes[count - 1] << 16 | 0x41000000u;
    chunk = _mm_set_epi32(0x41414141, 0x41414141, 0x41414141, (int)word);
    seam = 0;
  }
  stops = inbox_line_stops_of(chunk, &spaces);
  if (spaces & (spaces << 1) & ~seam) return SIZE_MAX;
  if (stops == 0) return count;
  size_t lane = (size_t)__builtin_ctz(stops);
  if (count >= 8) return lane < 8 ? lane : count - 16 + lane;
  if (count >= 4) return lane < 4 ? lane : count - 8 + lane;
  return lane == 0 ? 0 : lane == 1 ? count / 2 : count - 1;
}
#endif

// MARK: Lines and columns

/// For locating an offset (line and column): how many of the `count` bytes
/// at `bytes` come before the first line feed (`count` when there is none),
/// and, in `*columns`, how many of those start a scalar: every byte but the
/// UTF-8 continuation bytes (10xxxxxx), which belong to the scalar their
/// lead byte counted. Never reads outside the bytes.
static inline size_t inbox_columns_portable(const uint8_t *bytes, size_t count, size_t *columns) {
  size_t index = 0, starts = 0;
  for (; index < count && bytes[index] != '\n'; index++) starts += (bytes[index] & 0xC0) != 0x80;
  *columns = starts;
  return index;
}

#if defined(INBOX_BYTES_HAS_SSE2)
/// Continuation bytes are counted per lane, sixteen bytes at a time: a lane
/// holds at most 255 before the lanes are summed.
static inline size_t inbox_columns_sse2(const uint8_t *bytes, size_t count, size_t *columns) {
  const __m128i feed = _mm_set1_epi8('\n'), belowLead = _mm_set1_epi8((char)0xC0), zero = _mm_setzero_si128();
  size_t index = 0, continuations = 0;
  while (index + 16 <= count) {
    __m128i lanes = zero;
    for (int blocks = 0; blocks < 255 && index + 16 <= count; blocks++, index += 16) {
      __m128i chunk = _mm_loadu_si128((const __m128i *)(bytes + index));
      // Signed, 0x80 to 0xBF are the bytes below 0xC0 that are negative.
      __m128i continuation = _mm_cmplt_epi8(chunk, belowLead);
      uint32_t feeds = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, feed));
      if (feeds) {
        size_t before = (size_t)__builtin_ctz(feeds);
        uint32_t inPrefix = (uint32_t)_mm_movemask_epi8(continuation) & ((1u << before) - 1);
        __m128i sums = _mm_sad_epu8(lanes, zero);
        continuations += (size_t)_mm_cvtsi128_si32(sums) + (size_t)_mm_extract_epi16(sums, 4);
        continuations += (size_t)__builtin_popcount(inPrefix);
        index += before;
        *columns = index - continuations;
        return index;
      }
      lanes = _mm_sub_epi8(lanes, continuation);
    }
    __m128i sums = _mm_sad_epu8(lanes, zero);
    continuations += (size_t)_mm_cvtsi128_si32(sums) + (size_t)_mm_extract_epi16(sums, 4);
  }
  size_t tailColumns;
  size_t tail = inbox_columns_portable(bytes + index, count - index, &tailColumns);
  *columns = index - continuations + tailColumns;
  return index + tail;
}
#endif

// MARK: The engine's kernels

#if defined(INBOX_BYTES_HAS_SSE2) && !defined(INBOX_BYTES_PORTABLE)
static inline uint32_t inbox_string_stops16(const uint8_t *bytes) { return inbox_string_stops16_sse2(bytes); }
static inline uint32_t inbox_line_stops16(const uint8_t *bytes, uint32_t *spaces) {
  return inbox_line_stops16_sse2(bytes, spaces);
}
static inline size_t inbox_plain_line_length(const uint8_t *bytes, size_t count) {
  return inbox_plain_line_length_sse2(bytes, count);
}
static inline size_t inbox_columns(const uint8_t *bytes, size_t count, size_t *columns) {
  return inbox_columns_sse2(bytes, count, columns);
}
#else
static inline uint32_t inbox_string_stops16(const uint8_t *bytes) { return inbox_string_stops16_portable(bytes); }
static inline uint32_t inbox_line_stops16(const uint8_t *bytes, uint32_t *spaces) {
  return inbox_line_stops16_portable(bytes, spaces);
}
static inline size_t inbox_plain_line_length(const uint8_t *bytes, size_t count) {
  return inbox_plain_line_length_portable(bytes, count);
}
static inline size_t inbox_columns(const uint8_t *bytes, size_t count, size_t *columns) {
  return inbox_columns_portable(bytes, count, columns);
}
#endif

#endif
