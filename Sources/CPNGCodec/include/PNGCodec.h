// SPDX-License-Identifier: MIT
// PNG through libpng, for Swift. libpng reports errors by longjmp, which must never cross a Swift
// frame: every libpng call is made in PNGCodec.c, inside a setjmp of its own, and a failure comes
// back as a status with libpng's message.

#ifndef SPLASHHUD_PNG_CODEC_H
#define SPLASHHUD_PNG_CODEC_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    PNG_CODEC_OK = 0,
    /// The data ends before the image does.
    PNG_CODEC_TRUNCATED = 1,
    /// libpng refused the data (CRC, zlib stream, chunk contents); the message says why.
    PNG_CODEC_CORRUPT = 2,
    /// An allocation failed.
    PNG_CODEC_NO_MEMORY = 3,
} png_codec_status;

/// A decoder over a PNG held in memory (not copied: it must outlive the reader).
typedef struct png_codec_reader png_codec_reader;

/// NULL only when out of memory.
png_codec_reader *png_codec_reader_new(const uint8_t *data, size_t size);
void png_codec_reader_free(png_codec_reader *reader);
/// libpng's message for the last failure.
const char *png_codec_reader_message(const png_codec_reader *reader);

/// Reads the chunks up to the image data and sets up conversion to straight-alpha RGBA8: palette
/// and low bit depths expanded to full range, tRNS turned into alpha, 16-bit samples cut to their
/// high byte, gray copied to R, G and B, opaque alpha added; no gamma or colour conversion.
png_codec_status png_codec_read_header(png_codec_reader *reader, uint32_t *width, uint32_t *height);
/// Decodes the image into `pixels` (`height` rows of `row_bytes`, each at least `width * 4`) and
/// reads on to IEND, so that every CRC and any text after the image are read too.
png_codec_status png_codec_read_rgba8(png_codec_reader *reader, uint8_t *pixels, size_t row_bytes);

/// The text chunks read so far, in file order; pointers valid until the reader is freed.
size_t png_codec_text_count(const png_codec_reader *reader);
void png_codec_text_at(const png_codec_reader *reader, size_t index,
                       const char **keyword, const char **text, size_t *length);

typedef struct {
    const char *keyword;
    const char *text;
} png_codec_text_entry;

/// Encodes 8-bit RGB (`has_alpha` 0) or straight RGBA samples, rows packed, with tEXt chunks,
/// into a buffer the caller frees with png_codec_free. On failure `message` gets libpng's text.
png_codec_status png_codec_write(const uint8_t *samples, uint32_t width, uint32_t height, int has_alpha,
                                 const png_codec_text_entry *text, size_t text_count,
                                 uint8_t **png, size_t *size, char *message, size_t message_size);
void png_codec_free(void *buffer);

/// How many bytes a zlib stream inflates to, counted without keeping them and stopping at
/// `cap + 1`; -1 when the stream is damaged or ends early. For limits checked before libpng runs.
int64_t png_codec_inflated_size(const uint8_t *data, size_t size, uint64_t cap);

#endif
