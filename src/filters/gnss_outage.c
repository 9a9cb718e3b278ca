/* filters/gnss_outage.c: "gnss_outage", gnss -> gnss.
 *
 * Time windows without a fix (tunnels, underpasses, urban canyons): a fix
 * whose capture time lies in a closed window [t_start, t_end] is still
 * delivered, at its usual time, as a receiver keeps sending sentences
 * without a solution, but it is marked invalid:
 *   fix_type = 0, satellites = 0, hdop = vdop = pdop = 0 (not reported),
 *   lat, lon, height, enu, vel_enu, speed, course and cov_enu = NaN,
 * origin is kept. NaN rather than stale numbers, so a consumer that ignores
 * fix_type cannot mistake an outage for a position. The NMEA writer gives
 * the "no fix" sentences for it (docs/gnss.md). Place it last in a chain
 * (error filters after it pass such fixes on unchanged) or before
 * "gnss_hdop" to make the reported DOP restart after the outage. */
#include <stdlib.h>
#include "filters/gnss_common.h"

#define OUTAGE_MAX 4096

typedef struct gnss_outage {
  size_t n;
  double (*w)[2]; /* [t_start, t_end] in s, as given */
} gnss_outage;

static void outage_free(void *user) {
  gnss_outage *g = user;
  if (!g) return;
  free(g->w);
  free(g);
}

static sensim_status outage_create(const cJSON *params, void **user) {
  static const char *const known[] = {"windows", NULL};
  sensim_status st = sensim__param_only(params, "gnss_outage", known);
  if (st != SENSIM_OK) return st;
  const cJSON *arr = params ? cJSON_GetObjectItemCaseSensitive(params, "windows") : NULL;
  if (arr && !cJSON_IsArray(arr))
    return sensim__fail(SENSIM_EINVAL,
                        "gnss_outage: windows must be an array of [t_start, t_end] pairs, s");
  int n = arr ? cJSON_GetArraySize(arr) : 0;
  if (n > OUTAGE_MAX)
    return sensim__fail(SENSIM_EINVAL, "gnss_outage: %d windows, at most %d", n, OUTAGE_MAX);
  gnss_outage *g = calloc(1, sizeof *g);
  if (!g) return sensim__fail(SENSIM_ENOMEM, "gnss_outage: out of memory");
  if (n > 0 && !(g->w = malloc((size_t)n * sizeof *g->w))) {
    free(g);
    return sensim__fail(SENSIM_ENOMEM, "gnss_outage: out of memory");
  }
  int i = 0;
  for (const cJSON *e = arr ? arr->child : NULL; e; e = e->next, i++) {
    const cJSON *a = cJSON_GetArrayItem(e, 0), *b = cJSON_GetArrayItem(e, 1);
    if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 2 || !cJSON_IsNumber(a) ||
        !cJSON_IsNumber(b) || !isfinite(a->valuedouble) || !isfinite(b->valuedouble)) {
      outage_free(g);
      return sensim__fail(SENSIM_EINVAL,
                          "gnss_outage: windows[%d] must be [t_start, t_end], two finite numbers",
                          i);
    }
    if (!(a->valuedouble <= b->valuedouble)) {
      outage_free(g);
      return sensim__fail(SENSIM_EINVAL, "gnss_outage: windows[%d] = [%g, %g] ends before it starts",
                          i, a->valuedouble, b->valuedouble);
    }
    g->w[i][0] = a->valuedouble;
    g->w[i][1] = b->valuedouble;
  }
  g->n = (size_t)n;
  *user = g;
  return SENSIM_OK;
}

static sensim_status outage_apply(void *user, sensim_frame *frame, sensim_filter_ctx *ctx) {
  (void)ctx;
  const gnss_outage *g = user;
  sensim_gnss_fix *fix = sensim__gnss_fix_of(frame, "gnss_outage");
  if (!fix) return SENSIM_ETYPE;
  double t = frame->t_capture;
  int out = 0;
  for (size_t i = 0; i < g->n && !out; i++) out = t >= g->w[i][0] && t <= g->w[i][1];
  if (!out) return SENSIM_OK;
  fix->lat = fix->lon = fix->height = NAN;
  for (int i = 0; i < 3; i++) fix->enu[i] = fix->vel_enu[i] = NAN;
  for (int i = 0; i < 9; i++) fix->cov_enu[i] = NAN;
  fix->speed = fix->course = NAN;
  fix->hdop = fix->vdop = fix->pdop = 0.0;
  fix->satellites = 0;
  fix->fix_type = 0;
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_gnss_outage = {
    .def = {.name = "gnss_outage",
            .in = SENSIM_PAYLOAD_GNSS,
            .out = SENSIM_PAYLOAD_GNSS,
            .init = NULL,
            .apply = outage_apply,
            .destroy = outage_free},
    .create = outage_create,
};
