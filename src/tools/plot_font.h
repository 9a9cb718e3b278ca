/* tools/plot_font.h: the plot writer's built-in bitmap font (tools/plot_font.c).
 * Not installed. */
#ifndef SENSIM_TOOLS_PLOT_FONT_H
#define SENSIM_TOOLS_PLOT_FONT_H

#include <stdint.h>

#define SENSIM_TOOLS__FONT_W 5 /* glyph columns, px */
#define SENSIM_TOOLS__FONT_H 7 /* glyph rows, px */

/* The 7 rows of character c (bit 4 = leftmost column), or NULL when the
 * font has no glyph for it (the plot draws '?' then). */
const uint8_t *sensim_tools__font_glyph(char c);

#endif
