/* tools/colormap.c: viridis from its definition in CAM02-UCS, and the
 * distinct colours of label ids (sensim_tools/colormap.h).
 *
 * viridis is defined (van der Walt and Smith 2015, option "D" of
 * github.com/BIDS/colormap, made with the viscm tool) as a path through
 * CAM02-UCS, the uniform colour space on CIECAM02 of Luo, Cui and Li,
 * "Uniform colour spaces based on CIECAM02 colour appearance model", Color
 * Res. Appl. 31(4), 2006: J' linear in t, (a', b') on a degree-5 Bezier
 * curve through six control points, reparametrised so that equal steps of
 * t are equal steps of arc length in (a', b') (the arc length tabulated at
 * 256 even steps of the curve parameter and inverted piecewise linearly,
 * as viscm does). The colours are CAM02-UCS -> CIECAM02 (J, M, h) -> XYZ
 * by the inverse model of CIE 159:2004 (the steps as in Fairchild, "Color
 * Appearance Models", 3rd ed., 2013, ch. 16) -> sRGB (IEC 61966-2-1).
 * Viewing conditions are those the map was designed under: D65 white,
 * Y_b = 20, average surround, and L_A = 5 * 64 / pi cd/m^2 (viscm's
 * "buggy" sRGB conditions: 25 times the intended 64 / pi / 5; the map is
 * defined with them, and the control points only reproduce it so). */
#include <pthread.h>
#include <string.h>
#include "tools/tools_internal.h"

/* ---- CIECAM02 and CAM02-UCS ------------------------------------------- */

typedef double mat3[3][3];

static const mat3 M_CAT02 = {{0.7328, 0.4296, -0.1624}, {-0.7036, 1.6975, 0.0061},
                             {0.0030, 0.0136, 0.9834}};
static const mat3 M_HPE = {{0.38971, 0.68898, -0.07868}, {-0.22981, 1.18340, 0.04641},
                           {0.0, 0.0, 1.0}};
static const double WHITE_D65[3] = {95.047, 100.0, 108.883}; /* XYZ, Y = 100 */

static void mul(const mat3 m, const double v[3], double o[3]) {
  for (int i = 0; i < 3; i++) o[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
}

static void inverse(const mat3 m, mat3 o) {
  double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
               m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
               m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      /* Cofactor of (j, i) over the determinant. */
      int r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3, c1 = (i + 2) % 3;
      o[i][j] = (m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]) / det;
    }
}

typedef struct viewing {
  double F_L, n, z, N_bb, c, N_c, A_w;
  double D_rgb[3];               /* degree-of-adaptation factors per CAT02 channel */
  mat3 cat_inv, hpe_inv;
} viewing;

/* Post-adaptation non-linearity (CIE 159:2004 eq. 7.9) and its inverse. */
static double adapt(double F_L, double x) {
  double p = pow(F_L * fabs(x) / 100.0, 0.42);
  return copysign(400.0 * p / (p + 27.13), x) + 0.1;
}

static double unadapt(double F_L, double a) {
  double d = a - 0.1;
  return copysign(100.0 / F_L * pow(27.13 * fabs(d) / (400.0 - fabs(d)), 1.0 / 0.42), d);
}

static void viewing_init(viewing *v, double L_A, double Y_b) {
  const double F = 1.0; /* average surround: F = 1.0, c = 0.69, N_c = 1.0 */
  v->c = 0.69;
  v->N_c = 1.0;
  double k = 1.0 / (5.0 * L_A + 1.0), k4 = k * k * k * k;
  v->F_L = 0.2 * k4 * (5.0 * L_A) + 0.1 * (1.0 - k4) * (1.0 - k4) * cbrt(5.0 * L_A);
  v->n = Y_b / WHITE_D65[1];
  v->z = 1.48 + sqrt(v->n);
  v->N_bb = 0.725 * pow(1.0 / v->n, 0.2);
  double D = F * (1.0 - (1.0 / 3.6) * exp((-L_A - 42.0) / 92.0));
  D = D > 1.0 ? 1.0 : D < 0.0 ? 0.0 : D;
  inverse(M_CAT02, v->cat_inv);
  inverse(M_HPE, v->hpe_inv);
  double rgb_w[3], rgb_c[3], xyz[3], hpe[3];
  mul(M_CAT02, WHITE_D65, rgb_w);
  for (int i = 0; i < 3; i++) {
    v->D_rgb[i] = D * WHITE_D65[1] / rgb_w[i] + 1.0 - D;
    rgb_c[i] = v->D_rgb[i] * rgb_w[i];
  }
  mul(v->cat_inv, rgb_c, xyz);
  mul(M_HPE, xyz, hpe);
  double a[3];
  for (int i = 0; i < 3; i++) a[i] = adapt(v->F_L, hpe[i]);
  v->A_w = (2.0 * a[0] + a[1] + a[2] / 20.0 - 0.305) * v->N_bb;
}

/* CAM02-UCS (J', a', b') to XYZ (Y = 100 for the white). */
static void ucs_to_xyz(const viewing *v, double Jp, double ap, double bp, double xyz[3]) {
  const double c1 = 0.007, c2 = 0.0228; /* Luo et al. 2006, table 2: UCS */
  double J = Jp / (1.0 + 100.0 * c1 - c1 * Jp);
  double Mp = hypot(ap, bp), M = (exp(c2 * Mp) - 1.0) / c2, h = atan2(bp, ap);
  /* CIE 159:2004 inverse model, from J, M (so C) and h. */
  double C = M / pow(v->F_L, 0.25);
  double t = pow(C / (sqrt(J / 100.0) * pow(1.64 - pow(0.29, v->n), 0.73)), 1.0 / 0.9);
  double e_t = 0.25 * (cos(h + 2.0) + 3.8);
  double A = v->A_w * pow(J / 100.0, 1.0 / (v->c * v->z));
  double p2 = A / v->N_bb + 0.305, p3 = 21.0 / 20.0, a = 0.0, b = 0.0;
  if (t > 0.0) {
    double p1 = (50000.0 / 13.0) * v->N_c * v->N_bb * e_t / t, sh = sin(h), ch = cos(h);
    if (fabs(sh) >= fabs(ch)) {
      double p4 = p1 / sh;
      b = p2 * (2.0 + p3) * (460.0 / 1403.0) /
          (p4 + (2.0 + p3) * (220.0 / 1403.0) * (ch / sh) - 27.0 / 1403.0 +
           p3 * (6300.0 / 1403.0));
      a = b * ch / sh;
    } else {
      double p5 = p1 / ch;
      a = p2 * (2.0 + p3) * (460.0 / 1403.0) /
          (p5 + (2.0 + p3) * (220.0 / 1403.0) -
           (27.0 / 1403.0 - p3 * (6300.0 / 1403.0)) * (sh / ch));
      b = a * sh / ch;
    }
  }
  double ra[3] = {(460.0 * p2 + 451.0 * a + 288.0 * b) / 1403.0,
                  (460.0 * p2 - 891.0 * a - 261.0 * b) / 1403.0,
                  (460.0 * p2 - 220.0 * a - 6300.0 * b) / 1403.0};
  double hpe[3], x[3], rgb_c[3], rgb[3];
  for (int i = 0; i < 3; i++) hpe[i] = unadapt(v->F_L, ra[i]);
  mul(v->hpe_inv, hpe, x);
  mul(M_CAT02, x, rgb_c);
  for (int i = 0; i < 3; i++) rgb[i] = rgb_c[i] / v->D_rgb[i];
  mul(v->cat_inv, rgb, xyz);
}

/* XYZ (white Y = 100) to 8-bit sRGB: IEC 61966-2-1 matrix and transfer
 * curve, clipped to the gamut. */
static void xyz_to_srgb8(const double xyz[3], uint8_t rgb[3]) {
  static const mat3 M = {{3.2406, -1.5372, -0.4986}, {-0.9689, 1.8758, 0.0415},
                         {0.0557, -0.2040, 1.0570}};
  double v[3] = {xyz[0] / 100.0, xyz[1] / 100.0, xyz[2] / 100.0}, lin[3];
  mul(M, v, lin);
  for (int i = 0; i < 3; i++) {
    double l = lin[i] > 1.0 ? 1.0 : lin[i] > 0.0 ? lin[i] : 0.0;
    double e = l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1.0 / 2.4) - 0.055;
    rgb[i] = (uint8_t)lround(255.0 * e);
  }
}

/* ---- viridis ------------------------------------------------------------ */

/* option_d.py's "parameters": control points in (a', b') and J' range. */
static const double VIR_AP[6] = {22.674387857633945, 11.221508276482126, -14.356589454756971,
                                 -47.18817758739222, -34.59001004812521, -6.0516291196352654};
static const double VIR_BP[6] = {-20.102530541012214, -33.08246073298429, -42.24476439790574,
                                 -5.595549738219887, 42.5065445026178, 40.13395157135497};
static const double VIR_JP_MIN = 18.8671875, VIR_JP_MAX = 92.5;
enum { ARC_GRID = 256 };

static struct {
  double arc[ARC_GRID]; /* arc length from the start to parameter i / 255, normalised to 1 */
  viewing v;
} vir;
static pthread_once_t vir_once = PTHREAD_ONCE_INIT;

static void bezier5(double u, double *ap, double *bp) {
  static const double binom[6] = {1, 5, 10, 10, 5, 1};
  *ap = *bp = 0.0;
  for (int i = 0; i < 6; i++) {
    double w = binom[i] * pow(u, i) * pow(1.0 - u, 5 - i);
    *ap += w * VIR_AP[i];
    *bp += w * VIR_BP[i];
  }
}

static void vir_init(void) {
  double pa, pb;
  bezier5(0.0, &pa, &pb);
  vir.arc[0] = 0.0;
  for (int i = 1; i < ARC_GRID; i++) {
    double a, b;
    bezier5(i / (double)(ARC_GRID - 1), &a, &b);
    vir.arc[i] = vir.arc[i - 1] + hypot(a - pa, b - pb);
    pa = a, pb = b;
  }
  for (int i = 1; i < ARC_GRID; i++) vir.arc[i] /= vir.arc[ARC_GRID - 1];
  viewing_init(&vir.v, 5.0 * 64.0 / M_PI, 20.0);
}

void sensim_colormap_viridis(double t, uint8_t rgb[3]) {
  pthread_once(&vir_once, vir_init);
  t = t > 1.0 ? 1.0 : t >= 0.0 ? t : 0.0; /* NaN -> 0 */
  /* Curve parameter u whose arc length is the fraction t. */
  int i = 1;
  while (i < ARC_GRID - 1 && vir.arc[i] < t) i++;
  double f = (t - vir.arc[i - 1]) / (vir.arc[i] - vir.arc[i - 1]);
  double u = (i - 1 + f) / (double)(ARC_GRID - 1), ap, bp, xyz[3];
  bezier5(u, &ap, &bp);
  ucs_to_xyz(&vir.v, VIR_JP_MIN + (VIR_JP_MAX - VIR_JP_MIN) * t, ap, bp, xyz);
  xyz_to_srgb8(xyz, rgb);
}

/* ---- label colours --------------------------------------------------- */

enum { LEVELS = 16, CANDIDATES = LEVELS * LEVELS * LEVELS, PALETTE = 256 };

static uint8_t palette[PALETTE][3];
static pthread_once_t palette_once = PTHREAD_ONCE_INIT;

/* CIE 1976 L*a*b* of 8-bit sRGB (IEC 61966-2-1 decoding and matrix, D65;
 * CIE 15:2004 eq. 8.1-8.3). */
static void srgb8_to_lab(const int c[3], double lab[3]) {
  double lin[3];
  for (int i = 0; i < 3; i++) {
    double e = c[i] / 255.0;
    lin[i] = e <= 0.04045 ? e / 12.92 : pow((e + 0.055) / 1.055, 2.4);
  }
  static const mat3 M = {{0.4124, 0.3576, 0.1805}, {0.2126, 0.7152, 0.0722},
                         {0.0193, 0.1192, 0.9505}};
  double xyz[3], f[3];
  mul(M, lin, xyz);
  const double white[3] = {0.9505, 1.0, 1.0890}; /* the matrix's rows summed */
  for (int i = 0; i < 3; i++) {
    double r = xyz[i] / white[i];
    f[i] = r > 216.0 / 24389.0 ? cbrt(r) : (24389.0 / 27.0 * r + 16.0) / 116.0;
  }
  lab[0] = 116.0 * f[1] - 16.0;
  lab[1] = 500.0 * (f[0] - f[1]);
  lab[2] = 200.0 * (f[1] - f[2]);
}

/* Candidates: the sRGB cube at 16 levels a channel (0, 17, ..., 255).
 * Entry 0 is black (id 0); entry k is the candidate farthest from entries
 * 0..k-1 (the lowest candidate index on a tie), so every prefix of the
 * table is as spread out as this greedy choice can make it. */
static void palette_init(void) {
  static double lab[CANDIDATES][3], dmin[CANDIDATES];
  for (int i = 0; i < CANDIDATES; i++) {
    int c[3] = {(i / (LEVELS * LEVELS)) * 17, ((i / LEVELS) % LEVELS) * 17, (i % LEVELS) * 17};
    srgb8_to_lab(c, lab[i]);
    dmin[i] = INFINITY;
  }
  int pick = 0;
  for (int k = 0; k < PALETTE; k++) {
    for (int j = 0; j < 3; j++) palette[k][j] = (uint8_t)(j == 0 ? (pick / (LEVELS * LEVELS)) * 17
                                                          : j == 1 ? ((pick / LEVELS) % LEVELS) * 17
                                                                   : (pick % LEVELS) * 17);
    int best = 0;
    for (int i = 0; i < CANDIDATES; i++) {
      double d0 = lab[i][0] - lab[pick][0], d1 = lab[i][1] - lab[pick][1],
             d2 = lab[i][2] - lab[pick][2], d = d0 * d0 + d1 * d1 + d2 * d2;
      if (d < dmin[i]) dmin[i] = d;
      if (dmin[i] > dmin[best]) best = i;
    }
    pick = best;
  }
}

void sensim_label_color(uint32_t id, uint8_t rgb[3]) {
  pthread_once(&palette_once, palette_init);
  const uint8_t *c = palette[id == 0 ? 0 : 1 + (id - 1) % (PALETTE - 1)];
  memcpy(rgb, c, 3);
}
