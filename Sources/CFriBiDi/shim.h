// Umbrella header for the CFriBiDi system library (flags from pkg-config), with the
// paragraph-direction constants, which FriBiDi defines as macros Swift cannot import.
#include <fribidi.h>

static inline FriBidiParType scrollkit_fribidi_par_ltr(void) { return FRIBIDI_PAR_LTR; }
static inline FriBidiParType scrollkit_fribidi_par_rtl(void) { return FRIBIDI_PAR_RTL; }
static inline FriBidiParType scrollkit_fribidi_par_on(void) { return FRIBIDI_PAR_ON; }
