/* sensors/lidar_beam.c: the beam's footprint (where its sub-rays go and
 * what share of the pulse energy each carries) and the grouping of one
 * beam's sub-ray hits into the returns a multi-return receiver reports.
 *
 * Footprint (docs/lidar.md, "Beam model"). The divergence angles are full
 * angles; for circular and elliptical beams they are taken as the 1/e^2
 * diameter of a Gaussian beam, whose far-field irradiance is
 * I(r) ~ exp(-2 r^2 / w^2) with w the 1/e^2 half angle (Siegman, "Lasers",
 * 1986, ch. 17). Sub-rays cover the normalised disc u = (x/a_h)^2 + (y/a_v)^2
 * <= 1 (a = half angle) with Vogel's sunflower spiral (Vogel, Math. Biosci.
 * 44, 1979): sub-ray k of n sits at u_k = (k + 1/2) / n, polar angle
 * k * golden angle, except sub-ray 0 which is on the axis (the centroid of
 * its cell, the disc u < 1/n). The spiral cuts the disc into n cells of
 * equal area, cell k being the ring k/n <= u < (k+1)/n, so its exact share
 * of the Gaussian's energy is exp(-2k/n) - exp(-2(k+1)/n); the weights are
 * these shares normalised to 1 (the 13.5 % of a Gaussian beam's energy
 * outside its 1/e^2 diameter is not traced). Rectangular beams are uniform:
 * a stratified grid of rows, each row's height proportional to its number
 * of sub-rays so every cell has the same area and every weight is 1/n.
 *
 * Returns. Hits are sorted by range and chained into groups (single
 * linkage: a hit within range_resolution of the previous one joins its
 * group), as a receiver that cannot separate echoes closer than its pulse
 * resolution merges them. Each group's range and intensity are its hits'
 * power-weighted means and its power their sum; groups below the detection
 * threshold are dropped before the mode picks what is reported.
 *
 * Semantic ids. A return carries the class and instance ids of the body
 * its strongest sub-ray hit lies on (for one sub-ray, the body hit): an
 * echo mixed from two surfaces within the range resolution is labelled by
 * the surface that returned the most power, as a per-point label must name
 * one body. */
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "sensors/lidar_internal.h"

/* Sub-rays per beam: bounds the stack scratch of sensim__lidar_returns. */
#define MAX_SUBRAYS 1024
_Static_assert(MAX_SUBRAYS == SENSIM_LIDAR_WX_MAX_SUBRAYS, "lidar_internal.h mirrors MAX_SUBRAYS");
/* Divergence accepted, rad (full angle): [0, MAX_DIVERGENCE), as
 * sensim_lidar_create checks. The footprint offsets are small angles about
 * the beam axis; real time-of-flight beams diverge by a few mrad (Ouster
 * OS1: 0.13 deg FWHM; Velodyne VLS-128 manual, table F-1: 3.0 x 1.5 mrad). */
#define MAX_DIVERGENCE 0.2

static sensim_status check_divergence(double d, const char *name) {
  if (!isfinite(d) || d < 0.0 || d >= MAX_DIVERGENCE)
    return sensim__fail(SENSIM_EINVAL, "lidar %s %g rad must be finite and in [0, %g)", name, d, MAX_DIVERGENCE);
  return SENSIM_OK;
}

/* Gaussian (circular or elliptical) footprint on the Vogel spiral. */
static void fill_gaussian(double ah, double av, int n, float *dh, float *dv, float *w) {
  const double golden = M_PI * (3.0 - sqrt(5.0)); /* rad, 137.508 deg */
  double sum = 0.0;
  for (int k = 0; k < n; k++) {
    double u = k == 0 ? 0.0 : (k + 0.5) / n;
    double r = sqrt(u), phi = golden * k;
    dh[k] = (float)(ah * r * cos(phi));
    dv[k] = (float)(av * r * sin(phi));
    /* Energy of the ring k/n <= u < (k+1)/n under exp(-2u), up to a
     * constant factor: exp(-2k/n) (1 - exp(-2/n)). */
    double e = exp(-2.0 * k / n);
    w[k] = (float)e;
    sum += e;
  }
  for (int k = 0; k < n; k++) w[k] = (float)(w[k] / sum);
}

/* Uniform rectangle: `rows` rows chosen so cells are near square, row i
 * holding n_i sub-rays (n_i differ by at most one) at its cell centres. */
static void fill_rect(double wh, double wv, int n, float *dh, float *dv, float *w) {
  int rows = (int)lround(sqrt(n * wv / wh));
  if (rows < 1) rows = 1;
  if (rows > n) rows = n;
  int k = 0;
  double y0 = -0.5 * wv; /* bottom of the current row, rad */
  for (int i = 0; i < rows; i++) {
    int ni = n / rows + (i < n % rows);
    double hi = wv * ni / n; /* row height: ni of n equal-area cells */
    for (int j = 0; j < ni; j++, k++) {
      dh[k] = (float)(-0.5 * wh + wh * (j + 0.5) / ni);
      dv[k] = (float)(y0 + 0.5 * hi);
      w[k] = (float)(1.0 / n);
    }
    y0 += hi;
  }
}

sensim_status sensim__lidar_footprint_init(const sensim_lidar_params *p, sensim_lidar_footprint *fp) {
  if (!p || !fp) return sensim__fail(SENSIM_EINVAL, "lidar footprint: NULL argument");
  const int n = p->subrays;
  if (n < 1 || n > MAX_SUBRAYS)
    return sensim__fail(SENSIM_EINVAL, "lidar subrays %d must be in [1, %d]", n, MAX_SUBRAYS);
  if (p->shape != SENSIM_BEAM_CIRCULAR && p->shape != SENSIM_BEAM_ELLIPTICAL && p->shape != SENSIM_BEAM_RECTANGULAR)
    return sensim__fail(SENSIM_EINVAL, "lidar beam shape %d is not circular, elliptical or rectangular", (int)p->shape);
  sensim_status rc = check_divergence(p->div_h, "div_h");
  if (!rc) rc = check_divergence(p->div_v, "div_v");
  if (rc) return rc;
  const int two_axes = p->shape != SENSIM_BEAM_CIRCULAR;
  if (n > 1 && (p->div_h == 0.0 || (two_axes && p->div_v == 0.0)))
    return sensim__fail(SENSIM_EINVAL, "lidar with %d sub-rays needs a divergence to spread them over: %s > 0 "
                        "(div_h %g, div_v %g rad)", n, two_axes ? "div_h and div_v" : "div_h", p->div_h, p->div_v);
  float *buf = malloc((size_t)3 * n * sizeof *buf);
  if (!buf) return sensim__fail(SENSIM_ENOMEM, "out of memory for %d lidar sub-rays", n);
  float *dh = buf, *dv = buf + n, *w = buf + 2 * n;
  if (n == 1) {
    dh[0] = dv[0] = 0.0f;
    w[0] = 1.0f;
  } else if (p->shape == SENSIM_BEAM_RECTANGULAR) {
    fill_rect(p->div_h, p->div_v, n, dh, dv, w);
  } else {
    double ah = 0.5 * p->div_h, av = two_axes ? 0.5 * p->div_v : ah;
    fill_gaussian(ah, av, n, dh, dv, w);
  }
  fp->n = n;
  fp->dh = dh;
  fp->dv = dv;
  fp->w = w;
  return SENSIM_OK;
}

void sensim__lidar_footprint_free(sensim_lidar_footprint *fp) {
  if (!fp) return;
  free(fp->dh); /* the one allocation holding dh, dv and w */
  memset(fp, 0, sizeof *fp);
}

typedef struct hit_rec {
  float range, power, intensity;
  unsigned body; /* snapshot body index */
  unsigned elem; /* its placement */
  int idx; /* position in the input: breaks range ties, so the order is total */
} hit_rec;

static int hit_before(const hit_rec *a, const hit_rec *b) {
  return a->range < b->range || (a->range == b->range && a->idx < b->idx);
}

static int hit_cmp(const void *pa, const void *pb) {
  const hit_rec *a = pa, *b = pb;
  return hit_before(a, b) ? -1 : hit_before(b, a) ? 1 : 0;
}

/* A detected group: sums over its hits, and its strongest hit. */
typedef struct group {
  double p, pr, pi; /* sum of power, power x range, power x intensity */
  double pmax;      /* power of the strongest hit */
  unsigned body;    /* its body: the semantic ids the return carries */
  unsigned elem;    /* and placement */
} group;

static void emit(sensim_lidar_return *o, const group *g) {
  o->range = (float)(g->pr / g->p);
  o->intensity = (float)(g->pi / g->p);
  o->power = (float)g->p;
  o->body = g->body;
  o->elem = g->elem;
}

int sensim__lidar_returns(const sensim_lidar *L, const sensim_lidar_hit *h, int n, sensim_lidar_return out[2]) {
  hit_rec s[MAX_SUBRAYS + SENSIM_LIDAR_WX_MAX]; /* sub-rays and drawn particles (lidar_weather.c) */
  if (n > MAX_SUBRAYS + SENSIM_LIDAR_WX_MAX) n = MAX_SUBRAYS + SENSIM_LIDAR_WX_MAX; /* never more are made */
  int m = 0;
  for (int k = 0; k < n; k++) {
    /* A hit that carries no finite positive power cannot be received. */
    if (!(h[k].range > 0.0f) || !isfinite(h[k].range) || !(h[k].power > 0.0f) || !isfinite(h[k].power)) continue;
    s[m].range = h[k].range;
    s[m].power = h[k].power;
    s[m].intensity = h[k].intensity;
    s[m].body = h[k].body;
    s[m].elem = h[k].elem;
    s[m].idx = k;
    m++;
  }
  if (m == 0) return 0;
  if (m <= 32) { /* insertion sort: the common few sub-rays */
    for (int i = 1; i < m; i++) {
      hit_rec x = s[i];
      int j = i;
      for (; j > 0 && hit_before(&x, &s[j - 1]); j--) s[j] = s[j - 1];
      s[j] = x;
    }
  } else {
    qsort(s, (size_t)m, sizeof *s, hit_cmp);
  }
  const double res = L->p.range_resolution, pmin = L->p_min;
  group cur = {0, 0, 0, 0, ~0u, 0}, first = cur, last = cur, strong = cur, all = cur;
  int ndet = 0, strong_is_last = 0;
  for (int i = 0; i <= m; i++) {
    /* The group ends at the end of the list or at a gap wider than the
     * range resolution. */
    if (i > 0 && (i == m || !((double)s[i].range - s[i - 1].range <= res))) {
      if (cur.p >= pmin) {
        if (ndet == 0) first = cur;
        last = cur;
        /* Ties go to the nearer group. */
        strong_is_last = ndet == 0 || cur.p > strong.p;
        if (strong_is_last) strong = cur;
        all.p += cur.p;
        all.pr += cur.pr;
        all.pi += cur.pi;
        if (cur.pmax > all.pmax) { /* the earlier (nearer) group keeps a tie */
          all.pmax = cur.pmax;
          all.body = cur.body;
          all.elem = cur.elem;
        }
        ndet++;
      }
      cur.p = cur.pr = cur.pi = cur.pmax = 0.0;
      cur.body = ~0u;
    }
    if (i == m) break;
    double p = s[i].power;
    /* Strictly greater: of equal hits the nearer (sorted first) names the
     * return's body. */
    if (p > cur.pmax) {
      cur.pmax = p;
      cur.body = s[i].body;
      cur.elem = s[i].elem;
    }
    cur.p += p;
    cur.pr += p * s[i].range;
    cur.pi += p * s[i].intensity;
  }
  if (ndet == 0) return 0;
  switch (L->p.returns) {
  case SENSIM_RETURN_FIRST:
    emit(&out[0], &first);
    return 1;
  case SENSIM_RETURN_LAST:
    emit(&out[0], &last);
    return 1;
  case SENSIM_RETURN_MEAN:
    emit(&out[0], &all);
    return 1;
  case SENSIM_RETURN_DUAL:
    emit(&out[0], &strong);
    if (strong_is_last || L->nret < 2) return 1;
    emit(&out[1], &last);
    return 2;
  case SENSIM_RETURN_STRONGEST:
  default:
    emit(&out[0], &strong);
    return 1;
  }
}
