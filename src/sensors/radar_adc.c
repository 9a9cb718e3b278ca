/* sensors/radar_adc.c: the raw FMCW output, from echoes to the ADC cube.
 *
 * Signal (TI, "Introduction to mmWave sensing: FMCW radars", SWRA553,
 * 2017, sec. 2-4; Richards, "Fundamentals of Radar Signal Processing",
 * 2nd ed., 2014, sec. 4.6 and 8.4). After the mixer, an echo of delay
 * tau = 2R / c gives the complex (IQ) beat tone
 *   s(t) = A exp(j 2 pi (f_c tau + S tau t))
 * over the ramp (t from the ramp's start, S the chirp slope), so its beat
 * frequency is f_b = 2 S R / c. The radial velocity v moves tau by 2 v / c
 * per second: within a chirp this adds the Doppler frequency f_D = 2 v / lambda
 * to f_b (range-Doppler coupling, included); from chirp to chirp the phase
 * advances by 2 pi f_D T_c (the slow-time tone the Doppler FFT finds).
 * Range migration over the frame (R changing f_b from chirp to chirp) is
 * ignored: each echo keeps the range it had at the CPI's centre, where the
 * rays were traced (radar.h), and slow time counts from that centre.
 *
 * Channels. Virtual channel m = t rx + r sits at y_m = m lambda / 2 on the
 * sensor's +Y (receivers lambda / 2 apart, transmitters rx lambda / 2
 * apart): the path is shorter by y_m sin(az) cos(el), a phase
 * -pi m sin(az) cos(el). Transmitters take turns (TDM-MIMO): loop c of
 * transmitter t starts at (c tx + t) T_c, so channels of different
 * transmitters also differ by the Doppler phase of t T_c (what a
 * processing chain compensates before its angle FFT, "radar_cfar").
 *
 * Amplitude. A = sqrt(P) exp(j phase), P the echo's received power (W) at
 * the receiver's input, so |s|^2 is P in the units of the noise power: a
 * power, with the impedance left out. The coherent part is the echo's
 * complex amplitude (radar_internal.h) times sqrt(K 4 pi / lambda^2), its
 * carrier phase conjugated to the exp(+j 2 pi f_c tau) above; the
 * incoherent (diffuse) part has power p_inc and a uniform random phase.
 *
 * Noise. Complex white Gaussian, k T0 F f_s per sample (the thermal noise
 * in the IF bandwidth f_s of complex sampling; Richards eq. 2.18), half in
 * each of I and Q.
 *
 * Streams. Noise row (c, m) from (seed, sensor, frame, 0x46000000 + row);
 * the diffuse phases from (seed, sensor, frame, 0x45000000), one uniform
 * per echo in the tracer's order.
 *
 * Speed. The cube is a sum of rank-one terms, one per echo: slow time and
 * channel (a row vector) times fast time (a column). Blocks of echoes are
 * one complex matrix product each (cblas_cgemm), rows x samples x echoes
 * multiply-adds. Before that, echoes closer than a sixteenth of a range
 * bin, of a Doppler bin and of the array's sin(az) resolution 2 / M (as
 * cells of those sizes) become one tone: their complex amplitudes add, at
 * their power-weighted mean range, velocity and sin(az). The phase this
 * moves an echo by is at most pi/16 at the end of a chirp, of the frame
 * and of the array (a 2 % amplitude loss at worst, none at the centre);
 * the many facets of one surface collapse into a few tones. Then tones
 * whose fast-time frequency f_b + f_D lies in the same 1/16 of a range
 * bin share one fast-time column (at their power-weighted mean
 * frequency, the same pi/16 bound): their slow-time and channel vectors
 * add into one row vector, exactly, so the products cost rows x samples
 * x such groups (bench: docs/performance.md).
 *
 * Bands. The rows are cut into fixed chunks of CHUNK chirp loops (all
 * channels); the capture's fork runs bands of chunks on the world's
 * workers, each chunk its own noise and its own matrix products, one per
 * block of tones in the same order: the same bits for any number of
 * bands, as no chunk's arithmetic depends on who runs it. */
#include <gsl/gsl_cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "sensim/rng.h"
#include "sensors/radar_internal.h"

/* Echoes per matrix product. */
#define BLOCK 128
/* Chirp loops per chunk of rows (see Bands). */
#define CHUNK 16
/* Tones per resolution cell and axis (see Speed). */
#define MERGE 16.0

/* One beat tone: an echo or several merged. */
typedef struct tone {
  long long key[3];    /* cell of (range, velocity, sin az) at 1/MERGE of a bin; then
                          key[0] the cell of the fast-time frequency */
  double re, im;       /* complex amplitude, sqrt(W) */
  double r, v, u, w;   /* m, m/s, sin(az) cos(el); w = |amplitude|^2 weight of the means */
  size_t order;        /* echo index: ties keep the tracer's order */
} tone;

static int tone_cmp(const void *pa, const void *pb) {
  const tone *a = pa, *b = pb;
  for (int i = 0; i < 3; i++)
    if (a->key[i] != b->key[i]) return a->key[i] < b->key[i] ? -1 : 1;
  return (a->order > b->order) - (a->order < b->order);
}

/* The echoes as tones (amplitudes with the diffuse parts' random phases,
 * drawn in echo order), merged per cell; returns how many remain. */
static size_t make_tones(const sensim_capture_ctx *ctx, const sensim__radar *R, const sensim_fmcw_info *f,
                         const sensim__radar_echo *e, size_t n, tone *t) {
  const double coh = sqrt(R->K * 4.0 * M_PI / (R->lambda * R->lambda));
  const double qr = MERGE / f->range_bin, qv = MERGE / f->velocity_bin, qu = MERGE * (f->tx * f->rx) / 2.0;
  sensim_rng rng;
  sensim_rng_init(&rng, ctx->key.seed, ctx->key.sensor, ctx->key.frame, 0x45000000u);
  for (size_t k = 0; k < n; k++) {
    const sensim__radar_echo *x = &e[k];
    tone *o = &t[k];
    o->re = coh * x->re;
    o->im = -coh * x->im;
    if (x->p_inc > 0) {
      const double ph = 2.0 * M_PI * sensim_rng_uniform(&rng), a = sqrt(x->p_inc);
      o->re += a * cos(ph);
      o->im += a * sin(ph);
    }
    o->r = x->range;
    o->v = x->vel;
    o->u = sin(x->az) * cos(x->el);
    o->w = o->re * o->re + o->im * o->im + 1e-300;
    o->key[0] = (long long)floor(o->r * qr);
    o->key[1] = (long long)floor(o->v * qv);
    o->key[2] = (long long)floor(o->u * qu);
    o->order = k;
  }
  qsort(t, n, sizeof *t, tone_cmp);
  size_t m = 0;
  for (size_t k = 0; k < n; k++) {
    if (m && !memcmp(t[m - 1].key, t[k].key, sizeof t[k].key)) {
      tone *a = &t[m - 1];
      const double w = a->w + t[k].w;
      a->r = (a->r * a->w + t[k].r * t[k].w) / w;
      a->v = (a->v * a->w + t[k].v * t[k].w) / w;
      a->u = (a->u * a->w + t[k].u * t[k].w) / w;
      a->w = w;
      a->re += t[k].re;
      a->im += t[k].im;
    } else {
      t[m++] = t[k];
    }
  }
  return m;
}

void sensim__radar_fmcw_info(const sensim_radar_params *p, sensim_fmcw_info *f) {
  memset(f, 0, sizeof *f);
  f->samples = (uint32_t)p->samples;
  f->chirps = (uint32_t)p->chirps;
  f->tx = (uint32_t)p->tx;
  f->rx = (uint32_t)p->rx;
  f->window = (uint32_t)p->window;
  f->frequency = p->frequency;
  f->sample_rate = p->sample_rate;
  f->chirp_slope = p->chirp_slope > 0 ? p->chirp_slope : p->bandwidth * p->sample_rate / p->samples;
  f->chirp_interval = p->chirp_interval > 0 ? p->chirp_interval : p->cpi / ((double)p->chirps * p->tx);
  /* One range bin is f_s / N of beat frequency; one Doppler bin is
   * 1 / (C tx T_c) of slow-time frequency (SWRA553 eqs. 11 and 19). */
  f->range_bin = SENSIM__C0 * p->sample_rate / (2.0 * f->chirp_slope * p->samples);
  f->velocity_bin = SENSIM__C0 / p->frequency / (2.0 * p->chirps * p->tx * f->chirp_interval);
  f->noise_power = SENSIM__BOLTZMANN * SENSIM__T0 * pow(10.0, p->noise_figure / 10.0) * p->sample_rate;
  f->gain = 1.0;
}

/* Noise into rows [r0, r1) of the cube. */
static void add_noise(const sensim_capture_ctx *ctx, const sensim_fmcw_info *f, float *out, size_t r0, size_t r1) {
  const size_t n = f->samples;
  const float sigma = (float)sqrt(0.5 * f->noise_power);
  for (size_t r = r0; r < r1; r++) {
    sensim_rng rng;
    sensim_rng_init(&rng, ctx->key.seed, ctx->key.sensor, ctx->key.frame, 0x46000000u + (uint32_t)r);
    float *row = out + 2 * n * r;
    sensim_rng_normal2f_n(&rng, row, n);
    for (size_t i = 0; i < 2 * n; i++) row[i] *= sigma;
  }
}

/* What every band shares, and one band's chunks and scratch. */
typedef struct adc_job {
  const sensim_capture_ctx *ctx;
  const sensim_fmcw_info *f;
  double lambda;
  const tone *t;      /* the tones, grouped by fast-time frequency */
  const size_t *g;    /* this block's groups: tones g[j] .. g[j + 1] - 1 */
  size_t kb;          /* how many groups */
  const float *U;     /* their fast-time rows, kb x samples complex */
  float *out;
  int noise;          /* 1: the noise pass, 0: a block of tones */
} adc_job;

typedef struct adc_band {
  sensim_band b;      /* items: chunks */
  const adc_job *job;
  float *W;           /* CHUNK M x BLOCK complex */
  double *acc;        /* CHUNK M complex: one column of W */
  double *dop, *ang;  /* CHUNK tx and M complex */
} adc_band;

/* out[2 i], out[2 i + 1] = (re + j im) exp(j i step), i < n. */
static void rotate(double re, double im, double step, size_t n, double *out) {
  const double cs = cos(step), sn = sin(step);
  for (size_t i = 0; i < n; i++) {
    out[2 * i] = re;
    out[2 * i + 1] = im;
    const double t = re * cs - im * sn;
    im = re * sn + im * cs;
    re = t;
  }
}

/* One chunk's rows times this block's tones. */
static void chunk_block(adc_band *B, size_t chunk) {
  const adc_job *J = B->job;
  const sensim_fmcw_info *f = J->f;
  const size_t N = f->samples, M = (size_t)f->tx * f->rx, C = f->chirps;
  const size_t c0 = chunk * CHUNK, nc = C - c0 < CHUNK ? C - c0 : CHUNK, rows = nc * M, kb = J->kb;
  if (J->noise) {
    add_noise(J->ctx, f, J->out, c0 * M, c0 * M + rows);
    return;
  }
  const double Tc = f->chirp_interval, centre = 0.5 * (double)C * f->tx;
  for (size_t j = 0; j < kb; j++) {
    /* W[row][j], row = c M + m, m = t rx + r: slot c tx + t; the sum over
     * the group's tones, in double, rounded once. */
    double *acc = B->acc;
    for (size_t i = 0; i < 2 * rows; i++) acc[i] = 0.0;
    for (size_t q = J->g[j]; q < J->g[j + 1]; q++) {
      const tone *x = &J->t[q];
      /* Slow-time and channel phases by rotating phasors in double (at
       * most CHUNK tx and M steps: rounding stays near 1e-13). */
      const double fd = 2.0 * x->v / J->lambda, d0 = 2.0 * M_PI * fd * ((double)(c0 * f->tx) - centre) * Tc;
      rotate(cos(d0), sin(d0), 2.0 * M_PI * fd * Tc, nc * f->tx, B->dop);
      rotate(x->re, x->im, -M_PI * x->u, M, B->ang);
      for (size_t c = 0; c < nc; c++)
        for (size_t m = 0; m < M; m++) {
          const double *d = &B->dop[2 * (c * f->tx + m / f->rx)], *a = &B->ang[2 * m];
          double *w = &acc[2 * (c * M + m)];
          w[0] += a[0] * d[0] - a[1] * d[1];
          w[1] += a[0] * d[1] + a[1] * d[0];
        }
    }
    for (size_t r = 0; r < rows; r++) {
      B->W[2 * (r * kb + j)] = (float)acc[2 * r];
      B->W[2 * (r * kb + j) + 1] = (float)acc[2 * r + 1];
    }
  }
  const float one[2] = {1.0f, 0.0f};
  cblas_cgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)rows, (int)N, (int)kb, one, B->W, (int)kb, J->U,
              (int)N, one, J->out + 2 * N * c0 * M, (int)N);
}

static void adc_band_run(void *arg) {
  adc_band *B = arg;
  for (size_t k = B->b.lo; k < B->b.hi; k++) chunk_block(B, k);
}

/* The fast-time frequency f_b + f_D of tone x, Hz. */
static double beat(const tone *x, const sensim_fmcw_info *f, double lambda) {
  return 2.0 * f->chirp_slope * x->r / SENSIM__C0 + 2.0 * x->v / lambda;
}

/* Group the tones by the cell of their fast-time frequency (1/MERGE of a
 * range bin): sorted by it, g[k] the first tone of group k, g[ng] = nt;
 * fb[k] the group's power-weighted mean frequency. Returns ng. */
static size_t group_tones(tone *t, size_t nt, const sensim_fmcw_info *f, double lambda, size_t *g, double *fb) {
  const double q = MERGE * f->samples / f->sample_rate;
  for (size_t k = 0; k < nt; k++) {
    t[k].key[0] = (long long)floor(beat(&t[k], f, lambda) * q);
    t[k].key[1] = t[k].key[2] = 0;
  }
  qsort(t, nt, sizeof *t, tone_cmp);
  size_t ng = 0;
  double sw = 0.0, sf = 0.0;
  for (size_t k = 0; k < nt; k++) {
    if (k == 0 || t[k].key[0] != t[k - 1].key[0]) {
      if (ng) fb[ng - 1] = sf / sw;
      g[ng++] = k;
      sw = sf = 0.0;
    }
    sw += t[k].w;
    sf += t[k].w * beat(&t[k], f, lambda);
  }
  if (ng) fb[ng - 1] = sf / sw;
  g[ng] = nt;
  return ng;
}

/* Fast time at frequency fb: exp(j 2 pi fb n / f_s) by a rotating phasor,
 * renewed every 64 samples so rounding cannot build up. */
static void fast_time(double fb, const sensim_fmcw_info *f, float *u_row) {
  const double w0 = 2.0 * M_PI * fb / f->sample_rate, cs = cos(w0), sn = sin(w0);
  double zr = 1.0, zi = 0.0;
  for (size_t i = 0; i < f->samples; i++) {
    if ((i & 63) == 0) {
      zr = cos(w0 * (double)i);
      zi = sin(w0 * (double)i);
    }
    u_row[2 * i] = (float)zr;
    u_row[2 * i + 1] = (float)zi;
    const double tmp = zr * cs - zi * sn;
    zi = zr * sn + zi * cs;
    zr = tmp;
  }
}

sensim_status sensim__radar_adc(const sensim_capture_ctx *ctx, const sensim__radar_echo *e, size_t n,
                                sensim_frame *frame) {
  const sensim__radar *R = ctx->impl;
  const sensim_radar_params *p = &R->p;
  sensim_fmcw_info f;
  sensim__radar_fmcw_info(p, &f);
  f.radar_constant = R->K;
  const size_t N = f.samples, M = (size_t)f.tx * f.rx, C = f.chirps, rows = C * M;
  sensim_status rc = sensim__frame_alloc_unset(frame, SENSIM_PAYLOAD_RADAR_CUBE, (uint32_t)N, (uint32_t)rows);
  if (rc) return rc;
  frame->fmcw = f;
  const size_t chunks = (C + CHUNK - 1) / CHUNK, nb = sensim__fork_band_count(ctx->fork, chunks, 1);
  tone *t = malloc((n ? n : 1) * sizeof *t);
  size_t *g = malloc((n + 1) * sizeof *g);
  double *fb = malloc((n ? n : 1) * sizeof *fb);
  float *U = malloc(BLOCK * N * 2 * sizeof *U);
  adc_band *bands = calloc(nb, sizeof *bands);
  int ok = t && g && fb && U && bands;
  for (size_t i = 0; ok && i < nb; i++) {
    bands[i].W = malloc((size_t)CHUNK * M * BLOCK * 2 * sizeof(float));
    bands[i].acc = malloc((size_t)CHUNK * M * 2 * sizeof(double));
    bands[i].dop = malloc((size_t)CHUNK * f.tx * 2 * sizeof(double));
    bands[i].ang = malloc(M * 2 * sizeof(double));
    ok = bands[i].W && bands[i].acc && bands[i].dop && bands[i].ang;
  }
  if (!ok) {
    rc = sensim__fail(SENSIM_ENOMEM, "radar: out of memory for the ADC cube's %zu echoes", n);
    goto done;
  }
  adc_job job = {ctx, &f, R->lambda, t, g, 0, U, frame->data, 1};
  for (size_t i = 0; i < nb; i++) bands[i].job = &job;
  rc = sensim__fork_run_bands(ctx->fork, chunks, bands, nb, sizeof *bands, adc_band_run);
  const size_t nt = n ? make_tones(ctx, R, &f, e, n, t) : 0;
  const size_t ng = group_tones(t, nt, &f, R->lambda, g, fb);
  job.noise = 0;
  for (size_t k0 = 0; k0 < ng && rc == SENSIM_OK; k0 += BLOCK) {
    job.g = &g[k0];
    job.kb = ng - k0 < BLOCK ? ng - k0 : BLOCK;
    for (size_t j = 0; j < job.kb; j++) fast_time(fb[k0 + j], &f, &U[2 * j * N]);
    rc = sensim__fork_run_bands(ctx->fork, chunks, bands, nb, sizeof *bands, adc_band_run);
  }
done:
  for (size_t i = 0; bands && i < nb; i++) {
    free(bands[i].W);
    free(bands[i].acc);
    free(bands[i].dop);
    free(bands[i].ang);
  }
  free(bands);
  free(t);
  free(g);
  free(fb);
  free(U);
  return rc;
}
