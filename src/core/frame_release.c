/* core/frame_release.c: the public release of a caller-owned frame
 * (frame.h). Frames the library delivers are released by the library
 * (core/frame.c); this is the same release for frames a host builds itself
 * to run a standalone filter chain on. */
#include "core/internal.h"

void sensim_frame_release(sensim_frame *frame) {
  if (frame) sensim__frame_release(frame);
}
