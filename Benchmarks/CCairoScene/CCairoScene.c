// SPDX-License-Identifier: MIT
// cairo side of splashhud-bench: the reference HUD frame drawn exactly as hud-scene.md specifies.
#include "CCairoScene.h"

#include <cairo.h>
#include <cairo-ft.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_ADVANCES_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

struct ccs_scene {
    ccs_geometry g;
    cairo_surface_t *surface;
    cairo_t *cr;
    cairo_font_face_t *font_face;
    cairo_scaled_font_t *scaled_font;
    cairo_path_t *bezel;
    cairo_path_t *ring;
    cairo_glyph_t *glyphs;
    int32_t glyph_count;
    double text_advance;
};

static const cairo_user_data_key_t ft_face_key;
static FT_Library ft_library; // one per process, never freed (cairo may cache faces past destroy)

static void fail(char *error, size_t size, const char *what) {
    if (error && size > 0) snprintf(error, size, "%s", what);
}

static void done_ft_face(void *face) { FT_Done_Face((FT_Face)face); }

// Rounded square with circular corners, clockwise on screen starting after the top-left corner.
static void rounded_rect(cairo_t *cr, double x, double y, double s, double r) {
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + s - r, y + r, r, -M_PI / 2, 0);
    cairo_arc(cr, x + s - r, y + s - r, r, 0, M_PI / 2);
    cairo_arc(cr, x + r, y + s - r, r, M_PI / 2, M_PI);
    cairo_arc(cr, x + r, y + r, r, M_PI, 3 * M_PI / 2);
    cairo_close_path(cr);
}

ccs_scene *ccs_scene_create(unsigned char *pixels, int32_t stride, const ccs_geometry *geometry,
                            const char *font_path, const uint32_t *codepoints, int32_t count,
                            char *error, size_t error_size) {
    const ccs_geometry *g = geometry;
    if (stride != cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, g->width)) {
        fail(error, error_size, "row stride is not cairo's ARGB32 stride for this width");
        return NULL;
    }
    if (!ft_library && FT_Init_FreeType(&ft_library) != 0) {
        fail(error, error_size, "FT_Init_FreeType failed");
        return NULL;
    }
    FT_Face face;
    if (FT_New_Face(ft_library, font_path, 0, &face) != 0) {
        char msg[512];
        snprintf(msg, sizeof msg, "FreeType cannot open the font %s", font_path);
        fail(error, error_size, msg);
        return NULL;
    }
    ccs_scene *s = calloc(1, sizeof *s);
    s->g = *g;

    // Glyph positions like SplashHUD's: cmap lookup, unhinted advance x size / unitsPerEm, no
    // kerning; pen origin x0 = cx - A/2 on the baseline.
    s->glyphs = calloc((size_t)(count > 0 ? count : 1), sizeof *s->glyphs);
    s->glyph_count = count;
    double pen = 0;
    for (int32_t i = 0; i < count; i++) {
        FT_UInt gid = FT_Get_Char_Index(face, codepoints[i]);
        FT_Fixed units = 0;
        if (FT_Get_Advance(face, gid, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING, &units) != 0) {
            fail(error, error_size, "FT_Get_Advance failed for a status-line glyph");
            FT_Done_Face(face);
            free(s->glyphs); free(s);
            return NULL;
        }
        s->glyphs[i].index = gid;
        s->glyphs[i].x = pen;
        s->glyphs[i].y = g->baseline;
        pen += (double)units * g->text_size / (double)face->units_per_EM;
    }
    s->text_advance = pen;
    double x0 = g->width / 2.0 - pen / 2.0;
    for (int32_t i = 0; i < count; i++) s->glyphs[i].x += x0;

    s->font_face = cairo_ft_font_face_create_for_ft_face(face, FT_LOAD_NO_HINTING);
    // The FT_Face must live as long as cairo's font face, which cairo may cache.
    if (cairo_font_face_set_user_data(s->font_face, &ft_face_key, face, done_ft_face) != CAIRO_STATUS_SUCCESS) {
        FT_Done_Face(face);
        fail(error, error_size, "cairo_font_face_set_user_data failed");
        cairo_font_face_destroy(s->font_face);
        free(s->glyphs); free(s);
        return NULL;
    }
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    cairo_matrix_t font_matrix, ctm;
    cairo_matrix_init_scale(&font_matrix, g->text_size, g->text_size);
    cairo_matrix_init_identity(&ctm);
    s->scaled_font = cairo_scaled_font_create(s->font_face, &font_matrix, &ctm, options);
    cairo_font_options_destroy(options);

    s->surface = cairo_image_surface_create_for_data(pixels, CAIRO_FORMAT_ARGB32, g->width, g->height, stride);
    s->cr = cairo_create(s->surface);
    cairo_set_scaled_font(s->cr, s->scaled_font);

    // Kept paths: the bezel and the closed track ring.
    rounded_rect(s->cr, g->bezel_x, g->bezel_y, g->bezel_size, g->corner_radius);
    s->bezel = cairo_copy_path(s->cr);
    cairo_new_path(s->cr);
    cairo_new_sub_path(s->cr);
    cairo_arc(s->cr, g->ring_cx, g->ring_cy, g->ring_radius, 0, 2 * M_PI);
    cairo_close_path(s->cr);
    s->ring = cairo_copy_path(s->cr);
    cairo_new_path(s->cr);

    if (cairo_status(s->cr) != CAIRO_STATUS_SUCCESS || cairo_scaled_font_status(s->scaled_font) != CAIRO_STATUS_SUCCESS
        || s->bezel->status != CAIRO_STATUS_SUCCESS || s->ring->status != CAIRO_STATUS_SUCCESS) {
        char msg[256];
        cairo_status_t st = cairo_status(s->cr);
        if (st == CAIRO_STATUS_SUCCESS) st = cairo_scaled_font_status(s->scaled_font);
        snprintf(msg, sizeof msg, "cairo setup failed: %s", cairo_status_to_string(st));
        fail(error, error_size, msg);
        ccs_scene_destroy(s);
        return NULL;
    }
    // Warm cairo's glyph cache, as a running HUD would have.
    ccs_scene_draw(s, 0, 0);
    return s;
}

int ccs_scene_draw(ccs_scene *s, int32_t frame, int damage) {
    cairo_t *cr = s->cr;
    const ccs_geometry *g = &s->g;
    cairo_save(cr);
    if (damage) {
        cairo_rectangle(cr, g->damage_x, g->damage_y, g->damage_width, g->damage_height);
        cairo_clip(cr);
    }
    // 1a background (SOURCE), 1b dim; everything after is OVER.
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_set_source_rgb(cr, 0x20 / 255.0, 0x40 / 255.0, 0x60 / 255.0);
    cairo_paint(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
    cairo_set_source_rgba(cr, 0, 0, 0, 102 / 255.0);
    cairo_paint(cr);
    // 2 bezel
    cairo_new_path(cr);
    cairo_append_path(cr, s->bezel);
    cairo_set_source_rgba(cr, 1, 1, 1, 242 / 255.0);
    cairo_fill(cr);
    // 3 track ring (closed, no caps)
    cairo_append_path(cr, s->ring);
    cairo_set_line_width(cr, g->stroke_width);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_source_rgba(cr, 0, 0, 0, 26 / 255.0);
    cairo_stroke(cr);
    // 4 spinner arc, rebuilt every frame; increasing angle turns clockwise on screen
    double a0 = (double)(frame % 60) * 2 * M_PI / 60;
    cairo_new_sub_path(cr);
    cairo_arc(cr, g->ring_cx, g->ring_cy, g->ring_radius, a0, a0 + 0.47 * 2 * M_PI);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_stroke(cr);
    // 5 status text
    cairo_show_glyphs(cr, s->glyphs, s->glyph_count);
    cairo_restore(cr);
    cairo_surface_flush(s->surface);
    return cairo_status(cr) == CAIRO_STATUS_SUCCESS ? 0 : -1;
}

double ccs_scene_text_advance(const ccs_scene *s) { return s->text_advance; }

int ccs_scene_glyph_position(const ccs_scene *s, int32_t index, double *x, double *y) {
    if (index < 0 || index >= s->glyph_count) return -1;
    *x = s->glyphs[index].x;
    *y = s->glyphs[index].y;
    return 0;
}

void ccs_scene_destroy(ccs_scene *s) {
    if (!s) return;
    if (s->cr) cairo_destroy(s->cr);
    if (s->surface) cairo_surface_destroy(s->surface);
    if (s->bezel) cairo_path_destroy(s->bezel);
    if (s->ring) cairo_path_destroy(s->ring);
    if (s->scaled_font) cairo_scaled_font_destroy(s->scaled_font);
    if (s->font_face) cairo_font_face_destroy(s->font_face); // FT_Done_Face via user data
    free(s->glyphs);
    free(s);
}

const char *ccs_cairo_version(void) { return cairo_version_string(); }
