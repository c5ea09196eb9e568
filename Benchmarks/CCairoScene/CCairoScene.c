#include "CCairoScene.h"
#include <cairo.h>
int ccairo_scene_version(void) { return cairo_version(); }
