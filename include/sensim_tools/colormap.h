/* sensim_tools/colormap.h: colours for pictures of data: a perceptually
 * uniform colour map for continuous quantities (depth, range, height) and
 * distinct colours for categorical ones (class and instance ids). */
#ifndef SENSIM_TOOLS_COLORMAP_H
#define SENSIM_TOOLS_COLORMAP_H

#include "sensim_tools/export.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* viridis at t in [0, 1] (clamped; NaN gives t = 0) as 8-bit sRGB: dark
 * blue-violet (68, 1, 84) at 0 through teal to yellow (253, 231, 37) at 1,
 * its lightness rising monotonically. Computed from the map's published
 * definition (van der Walt and Smith, "A better default colormap for
 * Matplotlib", SciPy 2015; parameters of github.com/BIDS/colormap
 * option_d.py, CC0): J' rises linearly from 18.87 to 92.5 along a Bezier
 * curve in (a', b') of CAM02-UCS (Luo, Cui and Li 2006), reparametrised by
 * arc length, under the viewing conditions the map was designed with. It
 * agrees with the published 256-colour table to within one 8-bit code (the
 * tests check its ends and middle). About a microsecond a call: tabulate
 * it for images. Thread-safe. */
SENSIM_TOOLS_API void sensim_colormap_viridis(double t, uint8_t rgb[3]);

/* A colour for a class or instance id, the same in every run (a fixed
 * table, not a random draw): black for 0 (nothing hit, unlabelled); for 1..255 the colours
 * of a sequential max-min design in CIE 1976 L*a*b* (Glasbey et al.,
 * "Colour displays for categorical images", Color Res. Appl. 32(4), 2007):
 * each is as far as possible from black and from all the ids before it,
 * so the first 100 ids are at least 20 Delta E*ab apart. Larger ids repeat
 * the cycle: id and id + 255 share a colour. Thread-safe; the first call
 * builds the table (a few ms). */
SENSIM_TOOLS_API void sensim_label_color(uint32_t id, uint8_t rgb[3]);

#ifdef __cplusplus
}
#endif
#endif
