// LittleCMS (lcms2), opened on first use: its types from its own header, its functions through
// the wrappers below (scrollkit_ + the lcms2 name), which call into the library
// `scrollkit_lcms_open` loaded. lcms2 is not linked, so a direct call fails to link.
#ifndef SCROLLKIT_LCMS_H
#define SCROLLKIT_LCMS_H

#include <lcms2.h>

#include "CDynamicLibrary.h"

/// Every lcms2 function the viewer calls (see SCROLLKIT_DECLARE in CDynamicLibrary.h).
#define SCROLLKIT_LCMS_FUNCTIONS(X, V)                                                                     \
    X(cmsHPROFILE, cmsOpenProfileFromMem, (const void *memory, cmsUInt32Number size), (memory, size))     \
    X(cmsBool, cmsCloseProfile, (cmsHPROFILE profile), (profile))                                         \
    X(cmsProfileClassSignature, cmsGetDeviceClass, (cmsHPROFILE profile), (profile))                      \
    X(cmsColorSpaceSignature, cmsGetColorSpace, (cmsHPROFILE profile), (profile))                         \
    X(cmsUInt32Number, cmsGetProfileInfoASCII,                                                            \
      (cmsHPROFILE profile, cmsInfoType info, const char language[3], const char country[3], char *buffer, \
       cmsUInt32Number size),                                                                             \
      (profile, info, language, country, buffer, size))                                                   \
    X(cmsHPROFILE, cmsCreate_sRGBProfile, (void), ())                                                     \
    X(cmsHPROFILE, cmsCreateRGBProfile,                                                                   \
      (const cmsCIExyY *white, const cmsCIExyYTRIPLE *primaries, cmsToneCurve *const curves[3]),          \
      (white, primaries, curves))                                                                         \
    X(cmsToneCurve *, cmsBuildGamma, (cmsContext context, cmsFloat64Number gamma), (context, gamma))      \
    X(cmsToneCurve *, cmsBuildParametricToneCurve,                                                        \
      (cmsContext context, cmsInt32Number type, const cmsFloat64Number parameters[]), (context, type, parameters)) \
    V(cmsFreeToneCurve, (cmsToneCurve *curve), (curve))                                                   \
    X(cmsHTRANSFORM, cmsCreateTransform,                                                                  \
      (cmsHPROFILE input, cmsUInt32Number input_format, cmsHPROFILE output, cmsUInt32Number output_format, \
       cmsUInt32Number intent, cmsUInt32Number flags),                                                    \
      (input, input_format, output, output_format, intent, flags))                                        \
    V(cmsDoTransform, (cmsHTRANSFORM transform, const void *input, void *output, cmsUInt32Number count),  \
      (transform, input, output, count))                                                                  \
    V(cmsDeleteTransform, (cmsHTRANSFORM transform), (transform))

/// Loads lcms2 once (any thread): NULL when ready, else a message saying why it cannot be used.
const char *scrollkit_lcms_open(void);

SCROLLKIT_LCMS_FUNCTIONS(SCROLLKIT_DECLARE, SCROLLKIT_DECLARE_VOID)

#endif
