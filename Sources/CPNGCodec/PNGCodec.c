// SPDX-License-Identifier: MIT
// libpng behind setjmp: each function that calls libpng sets its own jump buffer first, and the
// error handler copies libpng's message and jumps back to it. State that must survive a jump
// lives on the heap (the reader, the output buffer), never in a local changed after setjmp.

#include "PNGCodec.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

enum { MESSAGE_SIZE = 160 };

/// What the error handler fills in; first in both the reader and the writer's sink.
struct failure {
    char message[MESSAGE_SIZE];
    int no_memory;
};

struct png_codec_reader {
    struct failure failure;
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size, offset;
    int hit_end;  // the data ran out: truncated rather than corrupt
    uint32_t width, height;
};

static void on_error(png_structp png, png_const_charp message) {
    struct failure *failure = png_get_error_ptr(png);
    strncpy(failure->message, message ? message : "libpng error", MESSAGE_SIZE - 1);
    failure->message[MESSAGE_SIZE - 1] = 0;
    png_longjmp(png, 1);
}

// Warnings are for things libpng repaired or skipped; the image is still what the file says.
static void on_warning(png_structp png, png_const_charp message) {
    (void)png; (void)message;
}

static void read_memory(png_structp png, png_bytep out, size_t count) {
    png_codec_reader *reader = png_get_io_ptr(png);
    if (count > reader->size - reader->offset) {
        reader->hit_end = 1;
        png_error(png, "the data ends before the image is complete");
    }
    memcpy(out, reader->data + reader->offset, count);
    reader->offset += count;
}

static png_codec_status failed(const png_codec_reader *reader) {
    if (reader->failure.no_memory) return PNG_CODEC_NO_MEMORY;
    return reader->hit_end ? PNG_CODEC_TRUNCATED : PNG_CODEC_CORRUPT;
}

// Chunks this decoder has no use for, skipped unread (their CRCs still checked): colour
// management is deliberately not applied, and the rest describe, not change, the pixels.
static const png_byte ignored_chunks[] =
    "bKGD\0cHRM\0eXIf\0gAMA\0hIST\0iCCP\0oFFs\0pCAL\0pHYs\0sBIT\0sCAL\0sPLT\0sRGB\0tIME";

png_codec_reader *png_codec_reader_new(const uint8_t *data, size_t size) {
    png_codec_reader *reader = calloc(1, sizeof *reader);
    if (!reader) return NULL;
    reader->data = data;
    reader->size = size;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader->failure, on_error, on_warning);
    if (reader->png) reader->info = png_create_info_struct(reader->png);
    if (!reader->info) {
        png_codec_reader_free(reader);
        return NULL;
    }
    png_set_read_fn(reader->png, reader, read_memory);
    // The caller checks the size against its own limits; libpng's default would cap it at 10^6.
    png_set_user_limits(reader->png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    // Text chunks are measured against the caller's limits before decoding starts; libpng's own
    // per-chunk limit would also refuse large image data in APNG frames (fdAT).
    png_set_chunk_malloc_max(reader->png, 0);
    png_set_chunk_cache_max(reader->png, 0);
    // A bad CRC is an error in every chunk: silently dropping a damaged tRNS would turn
    // transparent pixels opaque (libpng's default discards damaged ancillary chunks).
    png_set_crc_action(reader->png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
    png_set_benign_errors(reader->png, 0);
    png_set_keep_unknown_chunks(reader->png, PNG_HANDLE_CHUNK_NEVER, ignored_chunks,
                                (int)(sizeof ignored_chunks / 5));
    return reader;
}

void png_codec_reader_free(png_codec_reader *reader) {
    if (!reader) return;
    if (reader->png) png_destroy_read_struct(&reader->png, reader->info ? &reader->info : NULL, NULL);
    free(reader);
}

const char *png_codec_reader_message(const png_codec_reader *reader) {
    return reader->failure.message;
}

png_codec_status png_codec_read_header(png_codec_reader *reader, uint32_t *width, uint32_t *height) {
    png_structp png = reader->png;
    png_infop info = reader->info;
    if (setjmp(png_jmpbuf(png))) return failed(reader);
    png_read_info(png, info);
    int color = png_get_color_type(png, info);
    int depth = png_get_bit_depth(png, info);
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (depth == 16) png_set_strip_16(png);
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    // Applies only where no alpha channel results (tRNS above gives one).
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    reader->width = png_get_image_width(png, info);
    reader->height = png_get_image_height(png, info);
    *width = reader->width;
    *height = reader->height;
    return PNG_CODEC_OK;
}

png_codec_status png_codec_read_rgba8(png_codec_reader *reader, uint8_t *pixels, size_t row_bytes) {
    png_structp png = reader->png;
    png_infop info = reader->info;
    if (setjmp(png_jmpbuf(png))) return failed(reader);
    // Row buffers are allocated here, after the caller has checked the size.
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)reader->width * 4 || row_bytes < (size_t)reader->width * 4)
        png_error(png, "unexpected row size after conversion to RGBA8");
    // Each pass fills in its pixels of every row (Adam7); a plain image has one pass.
    for (int pass = 0; pass < passes; pass++) {
        for (uint32_t y = 0; y < reader->height; y++) png_read_row(png, pixels + (size_t)y * row_bytes, NULL);
    }
    png_read_end(png, info);
    return PNG_CODEC_OK;
}

size_t png_codec_text_count(const png_codec_reader *reader) {
    png_textp text = NULL;
    return (size_t)png_get_text(reader->png, reader->info, &text, NULL);
}

void png_codec_text_at(const png_codec_reader *reader, size_t index,
                       const char **keyword, const char **text, size_t *length) {
    png_textp chunks = NULL;
    int count = png_get_text(reader->png, reader->info, &chunks, NULL);
    *keyword = "";
    *text = "";
    *length = 0;
    if (index >= (size_t)count) return;
    png_textp chunk = &chunks[index];
    *keyword = chunk->key;
    *text = chunk->text ? chunk->text : "";
    // iTXt keeps its length apart from tEXt's and zTXt's.
    *length = chunk->compression >= PNG_ITXT_COMPRESSION_NONE ? chunk->itxt_length : chunk->text_length;
}

/// The encoder's output, grown as libpng writes.
struct sink {
    struct failure failure;
    uint8_t *data;
    size_t size, capacity;
};

static void write_memory(png_structp png, png_bytep bytes, size_t count) {
    struct sink *sink = png_get_io_ptr(png);
    if (count > sink->capacity - sink->size) {
        size_t capacity = sink->capacity ? sink->capacity : 4096;
        while (capacity - sink->size < count) {
            if (capacity > SIZE_MAX / 2) png_error(png, "output too large");
            capacity *= 2;
        }
        uint8_t *data = realloc(sink->data, capacity);
        if (!data) {
            sink->failure.no_memory = 1;
            png_error(png, "out of memory");
        }
        sink->data = data;
        sink->capacity = capacity;
    }
    memcpy(sink->data + sink->size, bytes, count);
    sink->size += count;
}

static void flush_memory(png_structp png) { (void)png; }

png_codec_status png_codec_write(const uint8_t *samples, uint32_t width, uint32_t height, int has_alpha,
                                 const png_codec_text_entry *text, size_t text_count,
                                 uint8_t **png_out, size_t *size, char *message, size_t message_size) {
    *png_out = NULL;
    *size = 0;
    struct sink *sink = calloc(1, sizeof *sink);
    png_textp chunks = calloc(text_count ? text_count : 1, sizeof *chunks);
    png_structp png = NULL;
    png_infop info = NULL;
    if (sink && chunks) png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink->failure, on_error, on_warning);
    if (png) info = png_create_info_struct(png);
    if (!info) {
        if (png) png_destroy_write_struct(&png, NULL);
        free(chunks);
        free(sink);
        if (message_size) strncpy(message, "out of memory", message_size - 1), message[message_size - 1] = 0;
        return PNG_CODEC_NO_MEMORY;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_codec_status status = sink->failure.no_memory ? PNG_CODEC_NO_MEMORY : PNG_CODEC_CORRUPT;
        if (message_size) strncpy(message, sink->failure.message, message_size - 1), message[message_size - 1] = 0;
        png_destroy_write_struct(&png, &info);
        free(sink->data);
        free(sink);
        free(chunks);
        return status;
    }
    png_set_write_fn(png, sink, write_memory, flush_memory);
    png_set_IHDR(png, info, width, height, 8, has_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    for (size_t i = 0; i < text_count; i++) {
        chunks[i].compression = PNG_TEXT_COMPRESSION_NONE;
        chunks[i].key = (png_charp)text[i].keyword;
        chunks[i].text = (png_charp)text[i].text;
        chunks[i].text_length = strlen(text[i].text);
    }
    if (text_count) png_set_text(png, info, chunks, (int)text_count);
    png_write_info(png, info);
    size_t row_bytes = (size_t)width * (has_alpha ? 4 : 3);
    for (uint32_t y = 0; y < height; y++) png_write_row(png, samples + (size_t)y * row_bytes);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *png_out = sink->data;
    *size = sink->size;
    free(sink);
    free(chunks);
    return PNG_CODEC_OK;
}

void png_codec_free(void *buffer) { free(buffer); }

int64_t png_codec_inflated_size(const uint8_t *data, size_t size, uint64_t cap) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit(&stream) != Z_OK) return -1;
    uint8_t scratch[16384];
    uint64_t total = 0;
    int status = Z_OK;
    stream.next_in = (Bytef *)data;
    while (status == Z_OK && total <= cap) {
        // zlib counts its input in uInt: hand it over in slices.
        if (stream.avail_in == 0) {
            size_t left = size - (size_t)((const uint8_t *)stream.next_in - data);
            if (left == 0) break;
            stream.avail_in = left > 1u << 30 ? 1u << 30 : (uInt)left;
        }
        stream.next_out = scratch;
        stream.avail_out = sizeof scratch;
        status = inflate(&stream, Z_NO_FLUSH);
        total += sizeof scratch - stream.avail_out;
    }
    inflateEnd(&stream);
    if (total > cap) return (int64_t)(cap + 1);
    return status == Z_STREAM_END ? (int64_t)total : -1;
}
