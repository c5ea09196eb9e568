// SPDX-License-Identifier: MIT
/* pango-layout: Pango's side of scripts/bench/text-layout.sh. Lays out one paragraph again and
   again as a label would: a new PangoLayout each time (itemize: bidi, script, font per
   character; shape with HarfBuzz; break; fill lines; reorder runs), its size asked for, which
   is what makes Pango do the work, then the layout freed. The PangoContext and its font map stay,
   so fonts stay open, as SplashHUD's FontFace does. pangoft2: no renderer is involved in layout.

   Fontconfig must see only the face (FONTCONFIG_FILE, which the script writes): there is no
   font-file option in Pango. The face Pango used is checked against --font.

     pango-layout --font FILE --text-file FILE [--size PX] [--width PX] [--layouts N] [--warmup N]
                  [--reuse]

   --reuse keeps one PangoLayout and sets its text again each time (Pango then redoes the same
   work; the figure is for comparison). Prints the line splashhud-bench text-layout prints:
   layout_ns median=… p10=… p90=… n=… lines=… starts=… chars=… */
#include <fontconfig/fontconfig.h>
#include <limits.h>
#include <pango/pangofc-font.h>
#include <pango/pangoft2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int compare(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* Linear interpolation between closest ranks, as splashhud-bench's Summary. */
static long long percentile(const long long *sorted, int n, double q) {
    double pos = q * (n - 1);
    int lo = (int)pos, hi = lo + 1 < n ? lo + 1 : n - 1;
    return (long long)(sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo) + 0.5);
}

static PangoLayout *new_layout(PangoContext *context, const PangoFontDescription *desc, int width) {
    PangoLayout *layout = pango_layout_new(context);
    pango_layout_set_font_description(layout, desc);
    pango_layout_set_width(layout, width * PANGO_SCALE);
    /* SV's label: words wrap, a word longer than the line breaks inside (as ours). */
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER);
    return layout;
}

/* The file of the font Pango chose for the first run, or NULL. */
static char *font_file(PangoLayout *layout) {
    PangoLayoutLine *line = pango_layout_get_line_readonly(layout, 0);
    if (!line || !line->runs) return NULL;
    PangoGlyphItem *run = line->runs->data;
    FcChar8 *file = NULL;
    if (!PANGO_IS_FC_FONT(run->item->analysis.font)) return NULL;
    FcPattern *pattern = pango_fc_font_get_pattern(PANGO_FC_FONT(run->item->analysis.font));
    if (FcPatternGetString(pattern, FC_FILE, 0, &file) != FcResultMatch) return NULL;
    return realpath((const char *)file, NULL);
}

int main(int argc, char **argv) {
    const char *font = NULL, *text_file = NULL;
    int size = 15, width = 200, layouts = 400, warmup = 50, reuse = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--reuse")) { reuse = 1; continue; }
        if (!v) { fprintf(stderr, "pango-layout: %s needs a value\n", a); return 64; }
        if (!strcmp(a, "--font")) font = v;
        else if (!strcmp(a, "--text-file")) text_file = v;
        else if (!strcmp(a, "--size")) size = atoi(v);
        else if (!strcmp(a, "--width")) width = atoi(v);
        else if (!strcmp(a, "--layouts")) layouts = atoi(v);
        else if (!strcmp(a, "--warmup")) warmup = atoi(v);
        else { fprintf(stderr, "pango-layout: unknown option %s\n", a); return 64; }
        i++;
    }
    if (!font || !text_file || size <= 0 || width <= 0 || layouts <= 0 || warmup < 0) {
        fprintf(stderr, "usage: pango-layout --font FILE --text-file FILE [--size PX] [--width PX] "
                        "[--layouts N] [--warmup N] [--reuse]\n");
        return 64;
    }
    gchar *text = NULL;
    gsize length = 0;
    if (!g_file_get_contents(text_file, &text, &length, NULL)) { fprintf(stderr, "pango-layout: cannot read %s\n", text_file); return 66; }
    while (length > 0 && text[length - 1] == '\n') text[--length] = 0;

    PangoFontMap *map = pango_ft2_font_map_new();
    PangoContext *context = pango_font_map_create_context(map);
    /* Unhinted, unrounded positions: SplashHUD's are exact font units scaled to 16.16. */
    pango_context_set_round_glyph_positions(context, FALSE);
    /* The family is the face's own; fontconfig sees nothing else anyway. */
    PangoFontDescription *desc = pango_font_description_new();
    FcPattern *query = FcFreeTypeQuery((const FcChar8 *)font, 0, NULL, NULL);
    FcChar8 *family = NULL;
    if (!query || FcPatternGetString(query, FC_FAMILY, 0, &family) != FcResultMatch) {
        fprintf(stderr, "pango-layout: fontconfig cannot read %s\n", font);
        return 66;
    }
    pango_font_description_set_family(desc, (const char *)family);
    pango_font_description_set_absolute_size(desc, size * PANGO_SCALE);

    long long *times = malloc(sizeof *times * layouts);
    PangoLayout *kept = reuse ? new_layout(context, desc, width) : NULL, *layout = NULL;
    for (int i = 0; i < warmup + layouts; i++) {
        long long t0 = now_ns();
        layout = kept ? kept : new_layout(context, desc, width);
        pango_layout_set_text(layout, text, (int)length);
        int w, h;
        pango_layout_get_size(layout, &w, &h);
        if (!kept && i + 1 < warmup + layouts) g_object_unref(layout);
        long long t1 = now_ns();
        if (i >= warmup) times[i - warmup] = t1 - t0;
    }

    char *used = font_file(layout), *wanted = realpath(font, NULL);
    if (!used || !wanted || strcmp(used, wanted) != 0) {
        fprintf(stderr, "pango-layout: Pango used %s, not %s (is FONTCONFIG_FILE pinned to that face alone?)\n",
                used ? used : "no font file", font);
        return 1;
    }
    qsort(times, layouts, sizeof *times, compare);
    printf("layout_ns median=%lld p10=%lld p90=%lld n=%d lines=%d starts=", percentile(times, layouts, 0.5),
           percentile(times, layouts, 0.1), percentile(times, layouts, 0.9), layouts, pango_layout_get_line_count(layout));
    /* Each line's first character, counted in characters as splashhud-bench counts them. */
    for (GSList *l = pango_layout_get_lines_readonly(layout); l; l = l->next) {
        PangoLayoutLine *line = l->data;
        printf("%s%ld", l == pango_layout_get_lines_readonly(layout) ? "" : ",", g_utf8_pointer_to_offset(text, text + line->start_index));
    }
    printf(" chars=%ld\n", g_utf8_strlen(text, (gssize)length));
    g_object_unref(layout);
    return 0;
}
