/* sensors/gnss_sky.c: which satellites the antenna sees, ray-traced
 * against the capture's view of the world.
 *
 * A GPS satellite is 20 000 km away, so its signal reaches the scene as a
 * plane wave along -d, d the unit direction to the satellite. Line of
 * sight: a ray from the antenna along d hits nothing. Otherwise the signal
 * may still arrive after one specular reflection: off a plane with unit
 * normal n (facing the antenna, d . n > 0) the reflected wave travels
 * along the mirror image of -d, so seen from the antenna the reflection
 * point lies along m = d - 2 (d . n) n. The path exists when the ray along
 * m meets a surface of that same orientation at P and the ray from P along
 * d meets nothing. Its extra length over the direct path is, for a plane
 * wave, |AP| (1 - m . d) = 2 h (d . n), h the antenna's distance from the
 * plane (the image method: e.g. Kaplan & Hegarty, "Understanding GPS/GNSS",
 * 3rd ed., 2017, sec. 10.2.3, whose ground-reflection delay 2 h sin(el) is
 * the case n = up), and its rate from the antenna's motion is 2 (n . v)(d . n)
 * (the satellite's own angular motion, about 1.5e-4 rad/s, adds at most
 * 3e-4 h m/s more and is left out).
 *
 * Candidate orientations n come from probe rays cast around the antenna
 * once per epoch, when a satellite is first found blocked (24 azimuths at
 * -30, 0 and +30 deg elevation, straight up and straight down): every
 * distinct normal they hit. So reflections are
 * found off the surfaces those rays see, facades across a street and the
 * ground among them; a surface they miss reflects nothing. Of several
 * reflected paths the shortest is the one tracked. The carrier's own mesh
 * is looked through (an antenna on a car roof). */
#include <math.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "sensors/gnss_sat.h"

/* A ray leaving a surface starts this far off it (m): above the float
 * spacing of coordinates up to ~8 km from the origin. */
#define LEAVE_EPS 1e-3
/* Two unit normals are one orientation when they differ by less than this
 * (rad, about 0.006 deg): a planar facade's triangles agree to ~1e-7. */
#define SAME_NORMAL 1e-4
#define PROBE_AZ 24

static sensim_rt_ray make_ray(sensim_vec3 o, sensim_vec3 d, double tnear, double t) {
  sensim_rt_ray r;
  r.org[0] = (float)o.x, r.org[1] = (float)o.y, r.org[2] = (float)o.z;
  r.dir[0] = (float)d.x, r.dir[1] = (float)d.y, r.dir[2] = (float)d.z;
  r.tnear = (float)tnear;
  r.tfar = INFINITY;
  r.time = t;
  return r;
}

/* Closest hits, looking through the carrier's own mesh: a ray that hits it
 * goes on from there (at most 8 times). */
static void intersect(const sensim__gnss_sky *sky, sensim_rt_ray *rays, sensim_rt_hit *hits, size_t n) {
  sensim__rt_intersect(sky->view, rays, hits, n, 0);
  if (sky->skip < 0) return;
  for (size_t i = 0; i < n; i++)
    for (int round = 0; round < 8 && hits[i].body == sky->skip; round++) {
      sensim_rt_ray r = rays[i];
      r.tnear = hits[i].t + (float)LEAVE_EPS;
      sensim__rt_intersect(sky->view, &r, &hits[i], 1, 0);
      if (round == 7 && hits[i].body == sky->skip) hits[i].body = -1, hits[i].t = INFINITY;
    }
}

static int hit(const sensim_rt_hit *h) { return h->body >= 0 && isfinite(h->t); }

/* The hit's normal turned to face the ray's origin. */
static sensim_vec3 facing(const sensim_rt_hit *h, sensim_vec3 dir) {
  sensim_vec3 n = v3_normalize(v3(h->n[0], h->n[1], h->n[2]));
  return v3_dot(n, dir) > 0 ? v3_scale(n, -1.0) : n;
}

void sensim__gnss_sky_init(sensim__gnss_sky *sky, const sensim_rt_view *view, sensim_vec3 antenna,
                           sensim_vec3 velocity, double t, int skip, int multipath) {
  sky->view = view;
  sky->antenna = antenna;
  sky->velocity = velocity;
  sky->t = t;
  sky->skip = skip;
  sky->multipath = multipath;
  sky->nnormals = -1; /* probed when a satellite is first found blocked */
}

/* The orientations around the antenna: every distinct normal the probe
 * rays hit, in probe order (so the result does not depend on threads). */
static void probe(sensim__gnss_sky *sky) {
  enum { N = 3 * PROBE_AZ + 2 };
  sensim_rt_ray rays[N];
  sensim_rt_hit hits[N];
  sensim_vec3 dirs[N];
  int k = 0;
  for (int j = -1; j <= 1; j++)
    for (int i = 0; i < PROBE_AZ; i++) {
      const double el = j * M_PI / 6.0, az = 2.0 * M_PI * i / PROBE_AZ;
      dirs[k++] = v3(cos(el) * cos(az), cos(el) * sin(az), sin(el));
    }
  dirs[k++] = v3(0, 0, 1);
  dirs[k++] = v3(0, 0, -1);
  for (int i = 0; i < N; i++) rays[i] = make_ray(sky->antenna, dirs[i], 0.0, sky->t);
  intersect(sky, rays, hits, N);
  sky->nnormals = 0;
  for (int i = 0; i < N && sky->nnormals < SENSIM__GNSS_MAX_NORMALS; i++) {
    if (!hit(&hits[i])) continue;
    const sensim_vec3 nf = facing(&hits[i], dirs[i]);
    int dup = 0;
    for (int q = 0; q < sky->nnormals && !dup; q++) dup = v3_norm(v3_sub(nf, sky->normals[q])) < SAME_NORMAL;
    if (!dup) sky->normals[sky->nnormals++] = nf;
  }
}

/* A candidate reflection: satellite i off orientation q. */
typedef struct cand {
  int i, q;
  double dn;       /* d . n */
  sensim_vec3 m;   /* mirror direction */
  double t;        /* distance to the reflection point */
} cand;

enum { CHUNK = 128 }; /* candidates traced per batch (stack: ~13 kB) */

/* Trace a batch of candidates: the ray along m must meet a surface of the
 * candidate's orientation, and the wave's way in from the satellite to
 * that point must be free; keep the shortest path per satellite. */
static void reflect_batch(const sensim__gnss_sky *sky, const sensim_vec3 *dir, cand *c, int nc,
                          sensim__gnss_path *out) {
  sensim_rt_ray rays[CHUNK];
  sensim_rt_hit hits[CHUNK];
  for (int k = 0; k < nc; k++) rays[k] = make_ray(sky->antenna, c[k].m, 0.0, sky->t);
  intersect(sky, rays, hits, (size_t)nc);
  int nm = 0;
  for (int k = 0; k < nc; k++) {
    const sensim_vec3 n = sky->normals[c[k].q];
    if (!hit(&hits[k]) || v3_norm(v3_sub(facing(&hits[k], c[k].m), n)) >= SAME_NORMAL) continue;
    c[k].t = hits[k].t;
    const sensim_vec3 p = v3_add(sky->antenna, v3_scale(c[k].m, c[k].t));
    rays[nm] = make_ray(v3_add(p, v3_scale(n, LEAVE_EPS)), dir[c[k].i], 0.0, sky->t);
    c[nm++] = c[k];
  }
  intersect(sky, rays, hits, (size_t)nm);
  for (int k = 0; k < nm; k++) {
    if (hit(&hits[k])) continue; /* the incoming wave is blocked before it reaches P */
    const sensim_vec3 d = dir[c[k].i], n = sky->normals[c[k].q];
    sensim__gnss_path *o = &out[c[k].i];
    const double extra = c[k].t * (1.0 - v3_dot(c[k].m, d));
    if (o->state == SENSIM__GNSS_REFLECTED && extra >= o->extra) continue;
    o->state = SENSIM__GNSS_REFLECTED;
    o->extra = extra;
    o->extra_rate = 2.0 * v3_dot(n, sky->velocity) * c[k].dn;
    o->normal = n;
    o->point = v3_add(sky->antenna, v3_scale(c[k].m, c[k].t));
  }
}

void sensim__gnss_sky_trace(sensim__gnss_sky *sky, const sensim_vec3 *dir, sensim__gnss_path *out, int n) {
  enum { MAXN = SENSIM__GPS_PRN_MAX + 1 };
  sensim_rt_ray rays[MAXN];
  sensim_rt_hit hits[MAXN];
  for (int i = 0; i < n; i++) {
    out[i].state = SENSIM__GNSS_LOS;
    out[i].extra = out[i].extra_rate = 0.0;
    out[i].normal = out[i].point = v3(0, 0, 0);
  }
  if (!sky->view || n <= 0) return;
  if (n > MAXN) n = MAXN;
  for (int i = 0; i < n; i++) rays[i] = make_ray(sky->antenna, dir[i], 0.0, sky->t);
  intersect(sky, rays, hits, (size_t)n);
  cand c[CHUNK];
  int nc = 0;
  for (int i = 0; i < n; i++) {
    if (!hit(&hits[i])) continue;
    out[i].state = SENSIM__GNSS_LOST;
    if (sky->multipath && sky->nnormals < 0) probe(sky);
    for (int q = 0; q < sky->nnormals && sky->multipath; q++) {
      const sensim_vec3 nq = sky->normals[q];
      const double dn = v3_dot(dir[i], nq);
      if (dn <= 1e-9) continue; /* the satellite is behind this orientation */
      c[nc].i = i, c[nc].q = q, c[nc].dn = dn, c[nc].m = v3_sub(dir[i], v3_scale(nq, 2.0 * dn));
      if (++nc == CHUNK) reflect_batch(sky, dir, c, nc, out), nc = 0;
    }
  }
  if (nc) reflect_batch(sky, dir, c, nc, out);
}
