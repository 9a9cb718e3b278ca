/* sensors/camera_shade.c: the camera's per-packet arithmetic on 16 lanes at
 * once: the pinhole's primary rays, the surface frame of each hit, and the
 * BRDF towards a light (the model of sensors/shading.h, restated lane-wise
 * so that the compiler vectorises it). Each kernel is written once as a
 * branch-free loop over the lanes and compiled twice, plain and for AVX2
 * (chosen at run time, core/cpu.h): the same IEEE operations in the same
 * order (no fused multiply-add), so both give the same bits. CMakeLists.txt
 * builds this file with -O3 -fno-math-errno -fno-trapping-math in every
 * configuration: the vectoriser needs all three (sqrt's errno is control
 * flow; a select is made branch-free only where no trap is assumed). */
#include <math.h>
#include "core/cpu.h"
#include "core/vecmath.h"
#include "sensors/camera_shade.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

ALWAYS_INLINE void pinhole_rays(const sensim_camera_pinhole *restrict p, const float *restrict uoff,
                                const float *restrict voff, double x0, double y0, sensim_rt_packet16 *restrict pk,
                                float *restrict axial) {
  for (int l = 0; l < 16; l++) {
    const double u = x0 + (l & 3) - 0.5 + uoff[l], v = y0 + (l >> 2) - 0.5 + voff[l];
    double d0 = 1.0, d1 = -(u - p->cx) * p->isx, d2 = -(v - p->cy) * p->isy;
    const double inv = 1.0 / sqrt(d0 * d0 + d1 * d1 + d2 * d2);
    d0 *= inv, d1 *= inv, d2 *= inv;
    axial[l] = (float)d0;
    pk->org_x[l] = p->org[0], pk->org_y[l] = p->org[1], pk->org_z[l] = p->org[2];
    pk->dir_x[l] = (float)(p->rot[0] * d0 + p->rot[1] * d1 + p->rot[2] * d2);
    pk->dir_y[l] = (float)(p->rot[3] * d0 + p->rot[4] * d1 + p->rot[5] * d2);
    pk->dir_z[l] = (float)(p->rot[6] * d0 + p->rot[7] * d1 + p->rot[8] * d2);
    pk->tnear[l] = 0.0f;
    pk->tfar[l] = INFINITY;
    pk->time[l] = 0.0f;
  }
}

ALWAYS_INLINE void surfaces(const sensim_rt_packet16 *restrict pk, sensim_camera_shade16 *restrict s, float ambient) {
  for (int l = 0; l < 16; l++) {
    const float dx = pk->dir_x[l], dy = pk->dir_y[l], dz = pk->dir_z[l], t = pk->tfar[l];
    const float id = 1.0f / sqrtf(dx * dx + dy * dy + dz * dz);
    const float px = pk->org_x[l] + dx * t, py = pk->org_y[l] + dy * t, pz = pk->org_z[l] + dz * t;
    /* Two-sided surfaces: the normal turned towards the viewer. */
    const float flip = s->nx[l] * dx + s->ny[l] * dy + s->nz[l] * dz > 0 ? -1.0f : 1.0f;
    const float nx = s->nx[l] * flip, ny = s->ny[l] * flip, nz = s->nz[l] * flip;
    s->nx[l] = nx, s->ny[l] = ny, s->nz[l] = nz;
    s->vx[l] = -dx * id, s->vy[l] = -dy * id, s->vz[l] = -dz * id;
    /* Secondary rays start off the surface along the normal, by an amount
     * that grows with distance from the origin to stay above float
     * rounding of the hit point. */
    const float off = 1e-4f * (1.0f + sqrtf(px * px + py * py + pz * pz));
    s->pox[l] = px + nx * off, s->poy[l] = py + ny * off, s->poz[l] = pz + nz * off;
    const float T = s->T[l], km = 1.0f - s->metal[l];
    for (int c = 0; c < 3; c++) {
      s->wt[c][l] = s->w[c][l] * T;
      s->amb[c][l] = s->wt[c][l] * (km * s->base[c][l]) * ambient;
    }
  }
}

/* sensim__brdf_cos (shading.h) lane by lane, times the light's colour and
 * irradiance and the path throughput. */
ALWAYS_INLINE void lights(sensim_camera_shade16 *restrict s, const float *restrict color) {
  for (int l = 0; l < 16; l++) {
    const float nx = s->nx[l], ny = s->ny[l], nz = s->nz[l];
    const float vx = s->vx[l], vy = s->vy[l], vz = s->vz[l];
    const float lx = s->tox[l], ly = s->toy[l], lz = s->toz[l];
    const float nl = nx * lx + ny * ly + nz * lz, nv = nx * vx + ny * vy + nz * vz;
    const float hx = lx + vx, hy = ly + vy, hz = lz + vz;
    const float ih = 1.0f / sqrtf(hx * hx + hy * hy + hz * hz);
    const float nh = (nx * hx + ny * hy + nz * hz) * ih, vh = (vx * hx + vy * hy + vz * hz) * ih;
    float a = s->rough[l] * s->rough[l];
    a = a < 1e-3f ? 1e-3f : a;
    const float a2 = a * a;
    const float q = nh * nh * (a2 - 1.0f) + 1.0f;
    const float D = a2 / ((float)M_PI * q * q);
    const float g1l = 2.0f * nl / (nl + sqrtf(a2 + (1.0f - a2) * nl * nl));
    const float g1v = 2.0f * nv / (nv + sqrtf(a2 + (1.0f - a2) * nv * nv));
    const float spec_common = D * (g1l * g1v) / (4.0f * nl * nv);
    const float m = 1.0f - vh, m2 = m * m, m5 = m2 * m2 * m;
    const float metal = s->metal[l], irr = s->irr[l];
    /* Zero where the light or the viewer is below the surface. */
    const float on = nl > 0 && nv > 0 ? 1.0f : 0.0f;
    float fsum = 0.0f;
    for (int c = 0; c < 3; c++) {
      const float f0 = 0.04f * (1.0f - metal) + s->base[c][l] * metal;
      const float F = f0 + (1.0f - f0) * m5;
      const float diffuse = (1.0f - F) * (1.0f - metal) * s->base[c][l] * (float)(1.0 / M_PI);
      const float f = on > 0 ? (diffuse + F * spec_common) * nl : 0.0f;
      fsum += f; /* every term is >= 0: the sum is > 0 where any is */
      s->contrib[c][l] = s->wt[c][l] * f * color[c] * irr;
    }
    s->lit[l] = fsum > 0 && irr > 0 ? 1.0f : 0.0f;
  }
}

static void pinhole_rays_plain(const sensim_camera_pinhole *p, const float *u, const float *v, double x0, double y0,
                               sensim_rt_packet16 *pk, float *axial) {
  pinhole_rays(p, u, v, x0, y0, pk, axial);
}
static void surfaces_plain(const sensim_rt_packet16 *pk, sensim_camera_shade16 *s, float ambient) {
  surfaces(pk, s, ambient);
}
static void lights_plain(sensim_camera_shade16 *s, const float color[3]) { lights(s, color); }

#if defined(SENSIM_HAVE_AVX2_PATHS)
__attribute__((target("avx2"))) static void pinhole_rays_avx2(const sensim_camera_pinhole *p, const float *u,
                                                              const float *v, double x0, double y0,
                                                              sensim_rt_packet16 *pk, float *axial) {
  pinhole_rays(p, u, v, x0, y0, pk, axial);
}
__attribute__((target("avx2"))) static void surfaces_avx2(const sensim_rt_packet16 *pk, sensim_camera_shade16 *s,
                                                          float ambient) {
  surfaces(pk, s, ambient);
}
__attribute__((target("avx2"))) static void lights_avx2(sensim_camera_shade16 *s, const float color[3]) {
  lights(s, color);
}
#define PICK(name) (sensim__cpu_has_avx2() ? name##_avx2 : name##_plain)
#else
#define PICK(name) name##_plain
#endif

void sensim__camera_pinhole_rays16(const sensim_camera_pinhole *p, const float uoff[16], const float voff[16],
                                   double x0, double y0, sensim_rt_packet16 *pk, float axial[16]) {
  PICK(pinhole_rays)(p, uoff, voff, x0, y0, pk, axial);
}

void sensim__camera_surfaces16(const sensim_rt_packet16 *pk, sensim_camera_shade16 *s, float ambient) {
  PICK(surfaces)(pk, s, ambient);
}

void sensim__camera_lights16(sensim_camera_shade16 *s, const float color[3]) { PICK(lights)(s, color); }
