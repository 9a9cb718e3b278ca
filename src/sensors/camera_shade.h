/* sensors/camera_shade.h: the camera's arithmetic on packets of 16 rays
 * (sensors/camera_shade.c), vectorised. Not installed. */
#ifndef SENSIM_SENSORS_CAMERA_SHADE_H
#define SENSIM_SENSORS_CAMERA_SHADE_H

#include "rt/rt.h"

/* A plain pinhole fixed over the frame: what its rays need. */
typedef struct sensim_camera_pinhole {
  double cx, cy, isx, isy; /* principal point, px; 1 / fx, 1 / fy */
  double rot[9];           /* sensor-to-world rotation, row-major */
  float org[3];            /* sensor origin, world */
} sensim_camera_pinhole;

/* Per-lane state of a packet's shading, structure of arrays. */
typedef struct sensim_camera_shade16 {
  _Alignas(64) float nx[16]; /* in: unit normal, world; out: turned towards the
                                viewer */
  float ny[16], nz[16];
  float vx[16], vy[16], vz[16];    /* out: unit direction to the viewer */
  float pox[16], poy[16], poz[16]; /* out: origin of secondary rays, just off the surface */
  float T[16];                     /* in: fog transmittance to the hit */
  float w[3][16];                  /* in: path throughput */
  float base[3][16];               /* in: base colour, texture applied */
  float rough[16], metal[16];      /* in: material */
  float wt[3][16];                 /* out: throughput at the surface, w T */
  float amb[3][16];                /* out: ambient radiance it adds */
  float tox[16], toy[16], toz[16]; /* in (lights): unit direction to the light */
  float irr[16];                   /* in (lights): irradiance; 0 where the light sends nothing */
  float contrib[3][16];            /* out (lights): radiance added if the light is not
                                      occluded */
  float lit[16];                   /* out (lights): 1 where contrib counts, else 0 */
} sensim_camera_shade16;

/* The 16 primary rays of a 4 x 4 tile whose top-left pixel is (x0, y0),
 * lane l at pixel (x0 + l % 4, y0 + l / 4) offset by (uoff[l], voff[l]) in
 * it (OpenCV convention: pixel x spans [x - 0.5, x + 0.5]); axial[l] gets
 * the ray's X component in the sensor frame (unit ray). */
void sensim__camera_pinhole_rays16(const sensim_camera_pinhole *p, const float uoff[16], const float voff[16],
                                   double x0, double y0, sensim_rt_packet16 *pk, float axial[16]);
/* Surface frame of every lane's hit: normals turned towards the viewer,
 * view directions, secondary-ray origins, throughput and ambient term
 * (ambient = ambient irradiance / pi). Lanes without a hit get values that
 * mean nothing. */
void sensim__camera_surfaces16(const sensim_rt_packet16 *pk, sensim_camera_shade16 *s, float ambient);
/* BRDF x cos towards each lane's light direction (shading.h's model), times
 * the light's colour, irradiance and the throughput. */
void sensim__camera_lights16(sensim_camera_shade16 *s, const float color[3]);

#endif
