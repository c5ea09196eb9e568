// SPDX-License-Identifier: MIT
// The reference HUD frame (shared/bench/hud-scene.md) drawn with cairo, for splashhud-bench.
// Everything a real HUD keeps (cairo context, font face, scaled font, glyph array, bezel and ring
// paths) is made by ccs_scene_create; ccs_scene_draw rebuilds only the spinner arc.
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Scene geometry in pixels (the table in hud-scene.md).
typedef struct ccs_geometry {
    int32_t width, height;
    double bezel_x, bezel_y, bezel_size, corner_radius;
    double ring_cx, ring_cy, ring_radius, stroke_width;
    double text_size, baseline;
    /// The integer rect redrawn when ccs_scene_draw is called with damage != 0.
    int32_t damage_x, damage_y, damage_width, damage_height;
} ccs_geometry;

typedef struct ccs_scene ccs_scene;

/// Prepares the scene over `pixels` (premultiplied ARGB32, `stride` bytes a row, at least
/// geometry->height rows; the caller owns the memory and keeps it alive until destroy).
/// `codepoints` is the status line (UTF-32, `count` scalars). On failure returns NULL and writes a
/// message naming what went wrong into `error` (if not NULL).
ccs_scene *ccs_scene_create(unsigned char *pixels, int32_t stride, const ccs_geometry *geometry,
                            const char *font_path, const uint32_t *codepoints, int32_t count,
                            char *error, size_t error_size);

/// Draws frame `frame` (layers 1a..5); with `damage` != 0, clipped to the damage rect. Returns 0,
/// or -1 if cairo reported an error. The surface is flushed before returning.
int ccs_scene_draw(ccs_scene *scene, int32_t frame, int damage);

/// The status line's total advance in pixels (sum of unhinted advances × size / unitsPerEm).
double ccs_scene_text_advance(const ccs_scene *scene);

/// Pen position of glyph `index` (0-based) in pixels; returns -1 if out of range.
int ccs_scene_glyph_position(const ccs_scene *scene, int32_t index, double *x, double *y);

void ccs_scene_destroy(ccs_scene *scene);

/// cairo's version string at run time, e.g. "1.16.0".
const char *ccs_cairo_version(void);

#ifdef __cplusplus
}
#endif
