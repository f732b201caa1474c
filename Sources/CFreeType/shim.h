// Umbrella header for the CFreeType system library (flags from pkg-config), with the
// function-like macros Swift cannot import as inline functions.
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H

// FT_LOAD_TARGET_LIGHT: vertical-only hinting, so advances stay those HarfBuzz computes.
static inline FT_Int32 scrollkit_ft_load_target_light(void) { return FT_LOAD_TARGET_LIGHT; }
static inline int scrollkit_ft_has_color(FT_Face face) { return FT_HAS_COLOR(face) ? 1 : 0; }
static inline int scrollkit_ft_is_scalable(FT_Face face) { return FT_IS_SCALABLE(face) ? 1 : 0; }
