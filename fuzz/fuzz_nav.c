/* fuzz/fuzz_nav.c: a GNSS receiver in the satellites mode over arbitrary
 * bytes as its navigation file (fuzz/fuzz.h): the RINEX 3 and YUMA readers
 * (sensors/gnss_rinex.c, gnss_yuma.c), then, if the file was accepted, one
 * capture, so whatever orbit elements a file can carry also go through
 * the orbit, the visibility and the least squares. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fuzz/fuzz.h"
#include "sensim/sensim.h"
#include "sensors/gnss_sat.h"

static char scratch[256];

static void remove_scratch(void) {
  if (scratch[0]) rmdir(scratch);
}

static const char *scratch_dir(void) {
  if (scratch[0]) return scratch;
  const char *tmp = getenv("TMPDIR");
  snprintf(scratch, sizeof scratch, "%s/sensim_fuzz_nav_XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(scratch)) {
    perror("sensim_fuzz_nav: mkdtemp");
    abort(); /* the harness cannot run at all; not a finding */
  }
  atexit(remove_scratch);
  return scratch;
}

/* What an accepted file must hold: records with a PRN in range and finite
 * elements, sorted and indexed by PRN. */
static int nav_sound(const sensim__gnss_nav *nav) {
  if (nav->n == 0) return 0;
  for (size_t i = 0; i < nav->n; i++) {
    const sensim__gps_eph *e = &nav->eph[i];
    const double v[] = {e->toe, e->toc, e->fit, e->af0, e->af1, e->af2, e->tgd, e->sqrt_a, e->e, e->i0,
                        e->idot, e->omega0, e->omega_dot, e->omega, e->m0, e->dn, e->cuc, e->cus,
                        e->crc, e->crs, e->cic, e->cis};
    if (e->prn < 1 || e->prn > SENSIM__GPS_PRN_MAX) return 0;
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
      if (!isfinite(v[k])) return 0;
    if (i && (e->prn < nav->eph[i - 1].prn || (e->prn == nav->eph[i - 1].prn && e->toe < nav->eph[i - 1].toe)))
      return 0;
  }
  size_t total = 0;
  for (int p = 1; p <= SENSIM__GPS_PRN_MAX; p++) total += nav->count[p];
  return total == nav->n;
}

sensim_status sensim_fuzz_nav(const uint8_t *data, size_t size) {
  char path[512];
  snprintf(path, sizeof path, "%s/input.nav", scratch_dir());
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
    perror("sensim_fuzz_nav: writing the input");
    abort();
  }
  sensim_world_params p;
  sensim_world_params_init(&p);
  p.threads = 0;
  p.origin_lat = 47.3769;
  p.origin_lon = 8.5417;
  sensim_world *w = NULL;
  if (sensim_world_create(&p, &w) != SENSIM_OK) abort();
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = "fuzzed";
  sensim_gnss_params gp;
  sensim_gnss_params_init(&gp);
  gp.mode = SENSIM_GNSS_SATELLITES;
  gp.ephemeris = path;
  gp.ionosphere = 0; /* an almanac or a file without GPSA / GPSB is fine */
  sensim_sensor *s = NULL;
  (void)sensim_error_set(SENSIM_OK, NULL);
  sensim_status st = sensim_gnss_create(w, &sp, &gp, &s);
  if (st == SENSIM_OK) {
    if (!nav_sound(&((const sensim__gnss_cfg *)sensim__sensor_impl(s))->nav))
      sensim_fuzz_violation("an accepted file gave unsound records", data, size);
    if (sensim_world_advance(w, 0.0) != SENSIM_OK) sensim_fuzz_violation("the capture failed", data, size);
    const sensim_frame *fr = NULL;
    if (sensim_sensor_poll(s, &fr) != SENSIM_OK || !fr) sensim_fuzz_violation("no fix was delivered", data, size);
    const sensim_gnss_fix *fix = fr->data;
    if (fix->fix_type != 0 && fix->fix_type != 1) sensim_fuzz_violation("a fix of an unknown type", data, size);
  } else {
    /* Malformed (EPARSE), too large or no memory (EINVAL, ENOMEM), or
     * sound with no record valid at the start (EINVAL). */
    if (st != SENSIM_EPARSE && st != SENSIM_EINVAL && st != SENSIM_ENOMEM)
      sensim_fuzz_violation("a bad file gave neither SENSIM_EPARSE, SENSIM_EINVAL nor SENSIM_ENOMEM", data, size);
    if (s || sensim_world_sensor_by_name(w, "fuzzed")) sensim_fuzz_violation("a failed create made a sensor", data, size);
    if (!strstr(sensim_last_error(), path))
      sensim_fuzz_violation("the error message does not name the file", data, size);
  }
  sensim_world_destroy(w);
  remove(path);
  return st;
}

#ifdef SENSIM_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  (void)sensim_fuzz_nav(data, size);
  return 0;
}
#endif
