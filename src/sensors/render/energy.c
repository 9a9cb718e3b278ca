/* sensors/render/energy.c: the GGX albedo tables of energy.h, integrated
 * by stratified visible-normal sampling: with h drawn from D_o and
 * i = reflect(o, h), the estimator of the albedo at F = 1 is
 * G2(o, i) / G1(o) (Heitz 2018, sec. 4). */
#include <pthread.h>
#include "sensors/render/energy.h"
#include "sensors/render/microfacet.h"

#define NMU 32   /* nodes in cos theta_o, [0, 1] */
#define NR 32    /* nodes in roughness, [0, 1] */
#define NS 32    /* samples per node: NS x NS strata */
#define NAVG 512 /* midpoints of the averages' quadrature */

static float e1_tab[NR][NMU], em5_tab[NR][NMU];
static float e1_avg[NR], em5_avg[NR];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The node's cosine: mu = 0 has no albedo (grazing view); its node sits
 * just above. */
static float node_mu(int i) { return i == 0 ? 1e-3f : (float)i / (NMU - 1); }

static void integrate(float mu, float alpha, float *e1, float *em5) {
  const float o[3] = {sqrtf(fmaxf(0.0f, 1.0f - mu * mu)), 0.0f, mu};
  const float g1o = sensim__ggx_g1(o, alpha);
  double s1 = 0.0, s5 = 0.0;
  for (int a = 0; a < NS; a++)
    for (int b = 0; b < NS; b++) {
      float h[3];
      sensim__ggx_sample_vn(o, alpha, (a + 0.5f) / NS, (b + 0.5f) / NS, h);
      const float oh = o[0] * h[0] + o[1] * h[1] + o[2] * h[2];
      const float i[3] = {2.0f * oh * h[0] - o[0], 2.0f * oh * h[1] - o[1], 2.0f * oh * h[2] - o[2]};
      if (i[2] <= 0.0f) continue;
      const double w = sensim__ggx_g2(o, i, alpha) / g1o;
      s1 += w;
      s5 += w * sensim__schlick5(oh);
    }
  *e1 = (float)(s1 / (NS * NS));
  *em5 = (float)(s5 / (NS * NS));
}

/* Linear interpolation along mu in row `row`. */
static float along_mu(const float *row, float mu) {
  float x = mu * (NMU - 1);
  if (x <= 0.0f) return row[0];
  if (x >= NMU - 1) return row[NMU - 1];
  const int i = (int)x;
  const float f = x - (float)i;
  return row[i] * (1.0f - f) + row[i + 1] * f;
}

static void build(void) {
  for (int j = 0; j < NR; j++) {
    const float r = (float)j / (NR - 1);
    for (int i = 0; i < NMU; i++) integrate(node_mu(i), sensim__ggx_alpha(r), &e1_tab[j][i], &em5_tab[j][i]);
    double a1 = 0.0, a5 = 0.0;
    for (int k = 0; k < NAVG; k++) {
      const float mu = (k + 0.5f) / NAVG;
      a1 += along_mu(e1_tab[j], mu) * mu;
      a5 += along_mu(em5_tab[j], mu) * mu;
    }
    e1_avg[j] = (float)(2.0 * a1 / NAVG);
    em5_avg[j] = (float)(2.0 * a5 / NAVG);
  }
}

void sensim__energy_init(void) { pthread_once(&once, build); }

/* Roughness node and weight. */
static int r_node(float r, float *f) {
  float x = r * (NR - 1);
  if (!(x > 0.0f)) x = 0.0f;
  if (x >= NR - 1) x = NR - 1 - 1e-6f;
  const int j = (int)x;
  *f = x - (float)j;
  return j;
}

void sensim__energy_at(float mu, float r, float *e1, float *em5) {
  float f;
  const int j = r_node(r, &f);
  *e1 = along_mu(e1_tab[j], mu) * (1.0f - f) + along_mu(e1_tab[j + 1], mu) * f;
  *em5 = along_mu(em5_tab[j], mu) * (1.0f - f) + along_mu(em5_tab[j + 1], mu) * f;
}

void sensim__energy_avg(float r, float *e1, float *em5) {
  float f;
  const int j = r_node(r, &f);
  *e1 = e1_avg[j] * (1.0f - f) + e1_avg[j + 1] * f;
  *em5 = em5_avg[j] * (1.0f - f) + em5_avg[j + 1] * f;
}
