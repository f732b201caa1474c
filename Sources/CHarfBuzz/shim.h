// Umbrella header for the CHarfBuzz system library (flags from pkg-config). Only HarfBuzz's
// own OpenType functions are used (no hb-ft.h), so this module does not pull in FreeType's.
#include <hb.h>
#include <hb-ot.h>

// hb_glyph_info_get_glyph_flags is a macro in HarfBuzz 6.
static inline unsigned int scrollkit_hb_glyph_flags(const hb_glyph_info_t *info) {
    return (unsigned int)hb_glyph_info_get_glyph_flags(info);
}
