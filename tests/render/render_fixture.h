/* tests/render/render_fixture.h: scenes for the path integrator's tests:
 * a world lit only by what a test adds, spheres and planes, cameras that
 * see nothing but them, and the mean radiance of a frame. */
#ifndef SENSIM_TESTS_RENDER_FIXTURE_H
#define SENSIM_TESTS_RENDER_FIXTURE_H

#include "support/testutil.h"

/* A world with `threads` workers, black background, no ambient, no light. */
sensim_world *rf_world(int threads);
/* A uniform environment of radiance L. */
void rf_uniform_env(sensim_world *w, float r, float g, float b);
/* A static sphere of `radius` (`segments` around) centred at c. */
void rf_sphere(sensim_world *w, double radius, int segments, sensim_vec3 c, const sensim_material *m);
/* A static square plane of side `size`, normal +Z, centred at c. */
void rf_plane(sensim_world *w, double size, sensim_vec3 c, const sensim_material *m);
/* The same turned by q (its normal becomes q applied to +Z). */
void rf_plane_rot(sensim_world *w, double size, sensim_vec3 c, sensim_quat q, const sensim_material *m);
/* A path-tracing camera at pos looking along dir (unit), w x h pixels,
 * horizontal field of view hfov (rad), `spp` samples, `bounces`. */
sensim_sensor *rf_camera(sensim_world *w, sensim_vec3 pos, sensim_vec3 dir, uint32_t width, uint32_t height,
                         double hfov, int spp, int bounces);
/* Render at t = 0 and return the frame. */
const sensim_frame *rf_render(sensim_world *w, sensim_sensor *s);
/* Mean of channel c over the frame's pixels, and the standard error of the
 * mean from the pixels' spread (pixels are independent estimates). */
double rf_mean(const sensim_frame *f, int c, double *sem);

#endif
