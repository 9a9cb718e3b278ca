/* tools/augment_distort.c: lens distortion applied to an existing image by
 * remapping (augment.h).
 *
 * The input is taken as the image of an ideal pinhole camera with the
 * lens's own intrinsics and size. For output pixel (u, v) and channel c the
 * lens's ray comes from the camera's own per-pixel inverse
 * (sensim_lens_table, sensim/camera.h: the table the renderer traces with,
 * lateral chromatic aberration per channel) and is projected into the pinhole
 * image with sensim_camera_project; the input is read there by bilinear
 * interpolation. So a point that sensim_camera_project images at pinhole
 * pixel q and at lens pixel p moves from q in the input to p in the
 * output, exactly as a rendered frame would show it, up to the inverse's
 * accuracy (below 1e-4 px, docs/camera_pipeline.md) and the interpolation
 * error: for input content f, bilinear interpolation on a 1 px grid errs
 * by at most (|f_uu| + |f_vv|) / 8 (the tensor-product linear
 * interpolation bound, e.g. de Boor, A Practical Guide to Splines, ch. 2,
 * per axis h^2/8 max|f''|), and is exact for content affine in (u, v).
 *
 * Sampling: the input covers [-0.5, W - 0.5] x [-0.5, H - 0.5] (pixel
 * centres at integers); a source position inside it reads its four
 * neighbours with indices clamped to the image (the edge half-pixel
 * repeats the edge value); outside it the output is `fill`. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/tools_internal.h"

struct sensim_distort_map {
  uint32_t width, height;
  int nmaps;      /* 1, or 3 with lateral chromatic aberration */
  double *uv;     /* nmaps x height x width x 2 source positions; NaN: fill */
};

void sensim_distort_map_destroy(sensim_distort_map *map) {
  if (!map) return;
  free(map->uv);
  free(map);
}

sensim_status sensim_distort_map_create(const sensim_camera_params *lens, sensim_distort_map **out) {
  if (!out) return sensim_error_set(SENSIM_EINVAL, "sensim_distort_map_create: NULL out");
  *out = NULL;
  if (!lens) return sensim_error_set(SENSIM_EINVAL, "sensim_distort_map_create: NULL lens");
  /* Vignetting is illumination, not geometry: left out of both models. */
  sensim_camera_params lp = *lens;
  lp.vignetting = 0;
  lp.vignetting_poly[0] = lp.vignetting_poly[1] = lp.vignetting_poly[2] = 0;
  sensim_camera_params pin = lp;
  pin.lens = SENSIM_LENS_PINHOLE;
  memset(pin.dist, 0, sizeof pin.dist);
  pin.lateral_ca[0] = pin.lateral_ca[1] = pin.lateral_ca[2] = 0;
  sensim_lens_table *o = NULL;
  sensim_status st = sensim_lens_table_create(&lp, &o);
  if (st) {
    sensim_error_prefix("distortion lens");
    return st;
  }
  size_t n = (size_t)lp.width * lp.height;
  sensim_distort_map *m = calloc(1, sizeof *m);
  int nmaps = sensim_lens_table_channels(o);
  double *uv = m ? malloc((size_t)nmaps * n * 2 * sizeof *uv) : NULL;
  if (!uv) {
    free(m);
    sensim_lens_table_destroy(o);
    return sensim_error_set(SENSIM_ENOMEM, "distortion map: out of memory for %u x %u", lp.width, lp.height);
  }
  m->width = lp.width;
  m->height = lp.height;
  m->nmaps = nmaps;
  m->uv = uv;
  for (int k = 0; k < nmaps; k++) {
    /* Without aberration every channel has the green channel's rays. */
    int c = nmaps == 3 ? k : 1;
    for (uint32_t y = 0; y < lp.height; y++)
      for (uint32_t x = 0; x < lp.width; x++) {
        double *q = uv + 2 * ((size_t)k * n + (size_t)y * lp.width + x);
        q[0] = q[1] = NAN;
        sensim_vec3 dir;
        double su, sv;
        if (!sensim_lens_table_ray(o, x, y, c, &dir)) continue;
        /* Rays at or behind the pinhole's image plane have no pinhole pixel. */
        if (!(dir.x > 0) || sensim_camera_project(&pin, dir, &su, &sv) != SENSIM_OK) continue;
        if (!(su >= -0.5 && su <= lp.width - 0.5 && sv >= -0.5 && sv <= lp.height - 0.5)) continue;
        q[0] = su;
        q[1] = sv;
      }
  }
  sensim_lens_table_destroy(o);
  *out = m;
  return SENSIM_OK;
}

int sensim_distort_map_source(const sensim_distort_map *map, uint32_t x, uint32_t y, int c, double *u,
                              double *v) {
  if (!map || !u || !v || x >= map->width || y >= map->height || c < 0 || c > 2) return 0;
  int k = map->nmaps == 3 ? c : 0;
  const double *q = map->uv + 2 * ((size_t)k * map->width * map->height + (size_t)y * map->width + x);
  if (isnan(q[0])) return 0;
  *u = q[0];
  *v = q[1];
  return 1;
}

static long clampl(long i, long n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

/* Bilinear read of channel c at (u, v), inside [-0.5, W - 0.5] x [-0.5, H - 0.5]. */
static float bilinear(const sensim_image *in, double u, double v, int c) {
  long W = in->width, H = in->height, nc = in->channels;
  double fu = floor(u), fv = floor(v);
  double a = u - fu, b = v - fv;
  long x0 = clampl((long)fu, W), x1 = clampl((long)fu + 1, W);
  long y0 = clampl((long)fv, H), y1 = clampl((long)fv + 1, H);
  const float *d = in->data;
  double p00 = d[(y0 * W + x0) * nc + c], p10 = d[(y0 * W + x1) * nc + c];
  double p01 = d[(y1 * W + x0) * nc + c], p11 = d[(y1 * W + x1) * nc + c];
  return (float)((1 - b) * ((1 - a) * p00 + a * p10) + b * ((1 - a) * p01 + a * p11));
}

sensim_status sensim_distort_apply(const sensim_distort_map *map, const sensim_image *in, float fill,
                                   sensim_image *out) {
  if (!map || !in || !out || !in->data) return sensim_error_set(SENSIM_EINVAL, "sensim_distort_apply: NULL argument");
  if (in->channels != 1 && in->channels != 3)
    return sensim_error_set(SENSIM_EINVAL, "distortion: image has %d channels (1 or 3)", in->channels);
  if (in->width != map->width || in->height != map->height)
    return sensim_error_set(SENSIM_EINVAL, "distortion: image is %u x %u but the lens is %u x %u", in->width, in->height,
                        map->width, map->height);
  if (!isfinite(fill)) return sensim_error_set(SENSIM_EINVAL, "distortion: fill value %g is not finite", (double)fill);
  size_t n = (size_t)in->width * in->height, nv = n * (size_t)in->channels;
  for (size_t i = 0; i < nv; i++)
    if (!isfinite(in->data[i]))
      return sensim_error_set(SENSIM_EINVAL, "distortion: input value %zu (pixel %zu) is %g", i, i / (size_t)in->channels,
                          (double)in->data[i]);
  float *o = malloc(nv * sizeof *o);
  if (!o) return sensim_error_set(SENSIM_ENOMEM, "distortion: out of memory");
  for (uint32_t y = 0; y < in->height; y++)
    for (uint32_t x = 0; x < in->width; x++) {
      size_t p = (size_t)y * in->width + x;
      for (int c = 0; c < in->channels; c++) {
        double u, v;
        int mc = in->channels == 3 ? c : 1;
        o[p * (size_t)in->channels + (size_t)c] =
            sensim_distort_map_source(map, x, y, mc, &u, &v) ? bilinear(in, u, v, c) : fill;
      }
    }
  /* out may be in itself: its old buffer is freed once replaced. */
  float *old = out == in ? in->data : NULL;
  uint32_t w = in->width, h = in->height;
  int ch = in->channels;
  out->width = w;
  out->height = h;
  out->channels = ch;
  out->data = o;
  free(old);
  return SENSIM_OK;
}
