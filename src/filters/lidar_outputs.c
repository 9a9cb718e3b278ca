/* filters/lidar_outputs.c: what a lidar driver delivers besides the plain
 * point list: the organised cloud, the range image and a bird's-eye view.
 *
 * All three read the raw beams' organised layout (sensim/lidar.h): column j,
 * channel slot c, return r at ((j * channels + c) * returns + r). The frame
 * does not carry the channel count, so it is taken as the largest ring + 1
 * (ring is the rank of a channel's elevation, 0 = lowest, so the rings of
 * one column are a permutation of 0 .. channels - 1), and the layout is
 * checked before anything is written.
 *
 * Image orientation, shared by "organized" and "range_image": row 0 holds
 * the highest ring, so the grid reads like a picture of the scene; column j
 * is the j-th column fired (for a counter-clockwise scan, azimuth grows
 * with j). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "filters/chain.h"

typedef struct beam_layout {
  uint32_t columns, channels, returns;
  uint16_t *ring;   /* ring of each channel slot (channels values), owned */
} beam_layout;

/* Check that f's beams are the organised layout and measure it. */
static sensim_status layout_of(const sensim_frame *f, const char *filter, beam_layout *L) {
  memset(L, 0, sizeof *L);
  if (f->type != SENSIM_PAYLOAD_BEAMS)
    return sensim__fail(SENSIM_ETYPE, "%s: takes beams, not %s", filter, sensim_payload_name(f->type));
  if (f->count == 0 || !f->data) return sensim__fail(SENSIM_EINVAL, "%s: the frame holds no beams", filter);
  uint32_t R = f->returns ? f->returns : 1;
  const sensim_beam *b = f->data;
  uint32_t maxring = 0;
  for (size_t i = 0; i < f->count; i++)
    if (b[i].ring > maxring) maxring = b[i].ring;
  uint32_t C = maxring + 1;
  size_t per_col = (size_t)C * R;
  if (f->count % per_col != 0)
    return sensim__fail(SENSIM_EINVAL,
                        "%s: %zu beams are not whole columns of %u channels x %u returns", filter,
                        f->count, C, R);
  uint16_t *ring = malloc(C * sizeof *ring);
  unsigned char *seen = calloc(C, 1);
  if (!ring || !seen) {
    free(ring);
    free(seen);
    return sensim__fail(SENSIM_ENOMEM, "%s: out of memory", filter);
  }
  sensim_status st = SENSIM_OK;
  for (uint32_t c = 0; c < C && st == SENSIM_OK; c++) {
    ring[c] = b[(size_t)c * R].ring;
    if (seen[ring[c]]++)
      st = sensim__fail(SENSIM_EINVAL, "%s: ring %u appears twice in a column of %u channels",
                        filter, ring[c], C);
  }
  /* Every beam of slot c, in every column and return, has ring[c]. */
  for (size_t i = 0; i < f->count && st == SENSIM_OK; i++) {
    uint32_t c = (uint32_t)((i / R) % C);
    if (b[i].ring != ring[c])
      st = sensim__fail(SENSIM_EINVAL,
                        "%s: beam %zu has ring %u where the column layout puts ring %u: not an "
                        "organised beams frame", filter, i, b[i].ring, ring[c]);
  }
  free(seen);
  if (st != SENSIM_OK) {
    free(ring);
    return st;
  }
  L->columns = (uint32_t)(f->count / per_col);
  L->channels = C;
  L->returns = R;
  L->ring = ring;
  return SENSIM_OK;
}

/* Row of ring k, return r: the highest ring on top, its returns in order. */
static size_t row_of(const beam_layout *L, uint32_t k, uint32_t r) {
  return (size_t)(L->channels - 1 - k) * L->returns + r;
}

static sensim_status no_params(const cJSON *params, void **user, const char *name) {
  static const char *const none[] = {NULL};
  *user = NULL;
  return sensim__param_only(params, name, none);
}

/* ---- organized ---------------------------------------------------------- */

static sensim_status organized_create(const cJSON *params, void **user) {
  return no_params(params, user, "organized");
}

/* Missing returns are x = y = z = NaN with intensity 0 and class and
 * instance 0, the convention of PCL's organised clouds (is_dense = false);
 * ring, time and return index stay set so the grid position of every
 * point can be read back. */
static sensim_status organized_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)user;
  (void)ctx;
  beam_layout L;
  sensim_status st = layout_of(f, "organized", &L);
  if (st != SENSIM_OK) return st;
  sensim_point *p = sensim__frame_buffer(f->count * sizeof *p, 0);
  if (!p) {
    free(L.ring);
    return sensim__fail(SENSIM_ENOMEM, "organized: out of memory for %zu points", f->count);
  }
  const sensim_beam *b = f->data;
  for (size_t i = 0; i < f->count; i++) {
    uint32_t r = (uint32_t)(i % L.returns);
    uint32_t c = (uint32_t)((i / L.returns) % L.channels);
    size_t j = i / ((size_t)L.returns * L.channels);
    sensim_point *q = &p[row_of(&L, L.ring[c], r) * L.columns + j];
    memset(q, 0, sizeof *q);
    if (b[i].range > 0) {
      float xyz[3];
      sensim__beam_xyz(&b[i], xyz);
      q->x = xyz[0];
      q->y = xyz[1];
      q->z = xyz[2];
      q->intensity = b[i].intensity;
      q->class_id = b[i].class_id;
      q->instance_id = b[i].instance_id;
    } else {
      q->x = q->y = q->z = NAN;
    }
    q->time_offset = b[i].time_offset;
    q->ring = L.ring[c];
    q->return_index = (uint8_t)r;
  }
  free(L.ring);
  sensim__frame_buffer_free(f->data);
  f->data = p;
  f->type = SENSIM_PAYLOAD_POINTS;
  f->width = L.columns;
  f->height = L.channels * L.returns;
  /* count unchanged: one point per beam */
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_organized = {
    .def = {.name = "organized",
            .in = SENSIM_PAYLOAD_BEAMS,
            .out = SENSIM_PAYLOAD_POINTS,
            .init = NULL,
            .apply = organized_apply,
            .destroy = NULL},
    .create = organized_create,
    .accepts = NULL};

/* ---- range_image -------------------------------------------------------- */

static sensim_status range_image_create(const cJSON *params, void **user) {
  static const char *const known[] = {"return", NULL};
  double ret = 0;
  sensim_status st = sensim__param_only(params, "range_image", known);
  if (st == SENSIM_OK) st = sensim__param_number(params, "return", &ret);
  if (st != SENSIM_OK) return st;
  if (!(ret == 0 || ret == 1))
    return sensim__fail(SENSIM_EINVAL, "range_image: return %g must be 0 or 1", ret);
  int *u = malloc(sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  *u = (int)ret;
  *user = u;
  return SENSIM_OK;
}

/* Range along the beam, m, of one return per beam: rings x columns, 0
 * where there is none (so the PNG writer's millimetre encoding stores 0);
 * with the frame's label plane (frame.labels, as a camera's) holding each
 * pixel's class and instance ids, 0 where there is no return. */
static sensim_status range_image_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)ctx;
  uint32_t ret = (uint32_t)*(const int *)user;
  beam_layout L;
  sensim_status st = layout_of(f, "range_image", &L);
  if (st != SENSIM_OK) return st;
  if (ret >= L.returns) {
    free(L.ring);
    return sensim__fail(SENSIM_EINVAL, "range_image: return %u asked of beams with %u return%s",
                        ret, L.returns, L.returns == 1 ? "" : "s");
  }
  size_t n = (size_t)L.columns * L.channels;
  float *img = sensim__frame_buffer(n * sizeof *img, 1);
  /* zeroed, so each label's padding is 0 like the camera's */
  sensim_label *lab = sensim__frame_buffer(n * sizeof *lab, 1);
  if (!img || !lab) {
    free(L.ring);
    sensim__frame_buffer_free(img);
    sensim__frame_buffer_free(lab);
    return sensim__fail(SENSIM_ENOMEM, "range_image: out of memory for %zu pixels", n);
  }
  const sensim_beam *b = f->data;
  for (size_t j = 0; j < L.columns; j++)
    for (uint32_t c = 0; c < L.channels; c++) {
      const sensim_beam *e = &b[(j * L.channels + c) * L.returns + ret];
      size_t row = L.channels - 1 - (size_t)L.ring[c];
      img[row * L.columns + j] = e->range > 0 ? e->range : 0.0f;
      if (e->range > 0) {
        lab[row * L.columns + j].class_id = e->class_id;
        lab[row * L.columns + j].instance_id = e->instance_id;
      }
    }
  free(L.ring);
  sensim__frame_buffer_free(f->data);
  /* A beams frame has no planes; any one a user filter set is replaced. */
  sensim__frame_drop_planes(f);
  f->data = img;
  f->labels = lab;
  f->type = SENSIM_PAYLOAD_DEPTH_F32;
  f->width = L.columns;
  f->height = L.channels;
  f->count = n;
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_range_image = {
    .def = {.name = "range_image",
            .in = SENSIM_PAYLOAD_BEAMS,
            .out = SENSIM_PAYLOAD_DEPTH_F32,
            .init = NULL,
            .apply = range_image_apply,
            .destroy = free},
    .create = range_image_create,
    .accepts = NULL};

/* ---- birdseye ----------------------------------------------------------- */

typedef enum bev_color { BEV_INTENSITY, BEV_HEIGHT, BEV_RING } bev_color;

typedef struct bev {
  uint32_t size;      /* image side, px */
  double range;       /* m from the sensor to the image's edge */
  bev_color color;
  double z_min, z_max; /* m: the height colour ramp's ends */
} bev;

static sensim_status birdseye_create(const cJSON *params, void **user) {
  static const char *const known[] = {"size_px", "range", "color", "z_min", "z_max", NULL};
  static const char *const colors[] = {"intensity", "height", "ring", NULL};
  bev b = {800, 50.0, BEV_INTENSITY, -2.0, 2.0};
  double size = b.size;
  sensim_status st = sensim__param_only(params, "birdseye", known);
  if (st == SENSIM_OK) st = sensim__param_number(params, "size_px", &size);
  if (st == SENSIM_OK) st = sensim__param_number(params, "range", &b.range);
  if (st == SENSIM_OK) st = sensim__param_number(params, "z_min", &b.z_min);
  if (st == SENSIM_OK) st = sensim__param_number(params, "z_max", &b.z_max);
  if (st != SENSIM_OK) return st;
  if (!(size >= 8 && size <= 8192 && size == floor(size)))
    return sensim__fail(SENSIM_EINVAL, "birdseye: size_px %g must be an integer in [8, 8192]", size);
  if (!(b.range > 0)) return sensim__fail(SENSIM_EINVAL, "birdseye: range %g m must be > 0", b.range);
  if (!(b.z_max > b.z_min))
    return sensim__fail(SENSIM_EINVAL, "birdseye: z_max %g m must be above z_min %g m", b.z_max,
                        b.z_min);
  const cJSON *c = params ? cJSON_GetObjectItemCaseSensitive(params, "color") : NULL;
  if (c) {
    int k = -1;
    for (int i = 0; i < 3 && cJSON_IsString(c); i++)
      if (strcmp(c->valuestring, colors[i]) == 0) k = i;
    char hint[96];
    if (k < 0)
      return sensim__fail(SENSIM_EINVAL, "birdseye: color must be \"intensity\", \"height\" or "
                                         "\"ring\"%s",
                          cJSON_IsString(c) ? sensim__did_you_mean(hint, sizeof hint, c->valuestring, colors) : "");
    b.color = (bev_color)k;
  }
  b.size = (uint32_t)size;
  bev *u = malloc(sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  *u = b;
  *user = u;
  return SENSIM_OK;
}

/* Colour ramp over t in [0, 1]: HSV hue from 240 deg (blue, low) down to
 * 0 deg (red, high) at full saturation and value (Smith, "Color gamut
 * transform pairs", SIGGRAPH 1978, for the HSV -> RGB map). */
static void ramp(double t, uint8_t rgb[3]) {
  t = t > 1 ? 1 : t >= 0 ? t : 0; /* NaN -> 0 */
  double h = 4.0 * (1.0 - t); /* sextant units, 0 = red .. 4 = blue */
  int i = (int)floor(h);
  if (i > 3) i = 3;
  double fr = h - i;
  double up = fr, down = 1.0 - fr;
  double r, g, b;
  switch (i) {
  case 0: r = 1, g = up, b = 0; break;     /* red -> yellow */
  case 1: r = down, g = 1, b = 0; break;   /* yellow -> green */
  case 2: r = 0, g = 1, b = up; break;     /* green -> cyan */
  default: r = 0, g = down, b = 1; break;  /* cyan -> blue */
  }
  rgb[0] = (uint8_t)lround(255 * r);
  rgb[1] = (uint8_t)lround(255 * g);
  rgb[2] = (uint8_t)lround(255 * b);
}

/* One point to draw, whichever payload it came from. */
typedef struct bev_pt {
  float x, y, z, intensity;
  uint16_t ring;
} bev_pt;

static int bev_get(const sensim_frame *f, size_t i, bev_pt *p) {
  if (f->type == SENSIM_PAYLOAD_BEAMS) {
    const sensim_beam *b = &((const sensim_beam *)f->data)[i];
    if (!(b->range > 0)) return 0;
    float xyz[3];
    sensim__beam_xyz(b, xyz);
    p->x = xyz[0], p->y = xyz[1], p->z = xyz[2];
    p->intensity = b->intensity;
    p->ring = b->ring;
  } else {
    const sensim_point *q = &((const sensim_point *)f->data)[i];
    p->x = q->x, p->y = q->y, p->z = q->z;
    p->intensity = q->intensity;
    p->ring = q->ring;
  }
  return isfinite(p->x) && isfinite(p->y) && isfinite(p->z);
}

/* Top-down view in the sensor frame: the sensor at the image centre, +X
 * (forward) up, +Y (left) to the left, as seen from above; pixel (u, v),
 * v = row from the top, covers x in [R - (v+1) s, R - v s), y in
 * [R - (u+1) s, R - u s) with s = 2 R / size. Each pixel shows the highest
 * point falling in it (the one seen from above; the first in frame order
 * on a tie), coloured by the ramp of its intensity, its height between
 * z_min and z_max, or its ring over the frame's rings; black elsewhere. */
static sensim_status birdseye_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)ctx;
  const bev *B = user;
  if (f->type != SENSIM_PAYLOAD_BEAMS && f->type != SENSIM_PAYLOAD_POINTS)
    return sensim__fail(SENSIM_ETYPE, "birdseye: takes beams or points, not %s",
                        sensim_payload_name(f->type));
  if (f->count > 0 && !f->data)
    return sensim__fail(SENSIM_EINVAL, "birdseye: frame has %zu elements and no data", f->count);
  const size_t N = B->size, npx = N * N;
  const double s = 2.0 * B->range / (double)N;
  float *top = malloc(npx * sizeof *top);
  uint8_t *img = sensim__frame_buffer(npx * 4, 0);
  if (!top || !img) {
    free(top);
    sensim__frame_buffer_free(img);
    return sensim__fail(SENSIM_ENOMEM, "birdseye: out of memory for %zu pixels", npx);
  }
  uint16_t maxring = 0;
  bev_pt p;
  for (size_t i = 0; i < f->count; i++)
    if (bev_get(f, i, &p) && p.ring > maxring) maxring = p.ring;
  for (size_t i = 0; i < npx; i++) {
    top[i] = -INFINITY;
    img[4 * i] = img[4 * i + 1] = img[4 * i + 2] = 0;
    img[4 * i + 3] = 255;
  }
  for (size_t i = 0; i < f->count; i++) {
    if (!bev_get(f, i, &p)) continue;
    double fu = floor((B->range - p.y) / s), fv = floor((B->range - p.x) / s);
    if (!(fu >= 0 && fu < (double)N && fv >= 0 && fv < (double)N)) continue;
    size_t k = (size_t)fv * N + (size_t)fu;
    if (!(p.z > top[k])) continue;
    top[k] = p.z;
    double t = B->color == BEV_INTENSITY ? p.intensity
               : B->color == BEV_HEIGHT  ? (p.z - B->z_min) / (B->z_max - B->z_min)
               : maxring > 0             ? (double)p.ring / maxring
                                         : 0.0;
    ramp(t, img + 4 * k);
  }
  free(top);
  sensim__frame_buffer_free(f->data);
  f->data = img;
  f->type = SENSIM_PAYLOAD_RGBA8;
  f->width = (uint32_t)N;
  f->height = (uint32_t)N;
  f->count = npx;
  return SENSIM_OK;
}

static const sensim_payload bev_accepts[] = {SENSIM_PAYLOAD_BEAMS, SENSIM_PAYLOAD_POINTS,
                                             SENSIM_PAYLOAD_NONE};

const sensim_builtin_filter sensim__filter_birdseye = {
    .def = {.name = "birdseye",
            .in = SENSIM_PAYLOAD_ANY,
            .out = SENSIM_PAYLOAD_RGBA8,
            .init = NULL,
            .apply = birdseye_apply,
            .destroy = free},
    .create = birdseye_create,
    .accepts = bev_accepts};
