/* sensim_tools/ablate.h: camera-stage ablation of a scenario: the scenario
 * rendered once per camera stage removed, so that the effect of each stage
 * on a perception algorithm can be measured. docs/ablation.md lists what
 * each variant changes. */
#ifndef SENSIM_TOOLS_ABLATE_H
#define SENSIM_TOOLS_ABLATE_H

#include "sensim_tools/export.h"

#include <stddef.h>
#include <stdio.h>
#include <sensim/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- camera-stage ablation (tools/ablate_scenario.c) -----------------------
 * Each variant is the scenario with one stage of every camera removed (or,
 * for the lighting variants, the scene's lights made flat), made by
 * editing the scenario's JSON before it is loaded; only camera
 * sensors are kept (the others are dropped from every variant, baseline
 * included). docs/ablation.md lists what each variant changes. */
typedef enum sensim_ablation {
  SENSIM_ABLATE_BASELINE = 0,  /* "baseline": the cameras as given */
  SENSIM_ABLATE_LENS,          /* "lens_pinhole": lens -> pinhole, same fx fy cx cy / hfov */
  SENSIM_ABLATE_NOISE,         /* "noise_off": noise filters removed */
  SENSIM_ABLATE_DEMOSAIC,      /* "demosaic_off": cfa and demosaic removed */
  SENSIM_ABLATE_WHITE_BALANCE, /* "wb_ideal": white_balance -> fixed gains undoing the qe cast */
  SENSIM_ABLATE_EXPOSURE,      /* "exposure_fixed": auto_exposure removed */
  SENSIM_ABLATE_SUPERSAMPLING, /* "supersampling_1": samples -> 1 */
  SENSIM_ABLATE_LENS_FOV,      /* "lens_pinhole_fov": lens -> pinhole with the lens's horizontal
                                  and vertical fields of view, same principal point */
  SENSIM_ABLATE_LIGHTING,      /* "lighting_flat": lights removed, their irradiance on level
                                  ground added to the ambient sky (no shading, no shadows) */
  SENSIM_ABLATE_COMBINED,      /* "fov_lighting": lens_pinhole_fov and lighting_flat together */
  SENSIM_ABLATE_REFLECTIONS,   /* "reflections_off": max_bounces -> 0, no mirror reflections
                                  (the study's reflective floor) */
  SENSIM_ABLATE_SINGLE_LIGHT,  /* "light_single": one light kept (the directional one giving level
                                  ground the most), the others removed, ambient unchanged */
  SENSIM_ABLATE_FOV_LENS,      /* "lens_fov": lens -> the FOV lens model of the same horizontal
                                  field of view (the study's alternative to the pinhole) */
  SENSIM_ABLATE_COUNT
} sensim_ablation;

/* Folder name of a variant ("noise_off"); NULL for an invalid value. */
SENSIM_TOOLS_API const char *sensim_ablation_name(sensim_ablation a);
/* The variant named `name`; SENSIM_ENOTFOUND for an unknown one. */
SENSIM_TOOLS_API sensim_status sensim_ablation_from_name(const char *name, sensim_ablation *a);

/* The scenario text `json` (comments allowed) edited for variant `a`,
 * with "duration" set so that every camera delivers at least `frames`
 * frames when frames > 0, as a malloc'd JSON text in *out. `notes`
 * (may be NULL) receives a line per camera saying what changed ("" when
 * nothing did), truncated to notes_size. SENSIM_EPARSE for bad JSON,
 * SENSIM_EINVAL for a scenario without a camera. */
SENSIM_TOOLS_API sensim_status sensim_ablation_edit(const char *json, sensim_ablation a, size_t frames, char **out,
                                   char *notes, size_t notes_size);

typedef struct sensim_ablate_options {
  int threads;      /* worker threads; < 0: as the file says */
  size_t frames;    /* frames per camera; 0: the file's duration */
  const sensim_ablation *variants; /* which to render; NULL: all, in enum order */
  size_t nvariants;
  FILE *log;        /* what each variant changed, one line per camera; may be NULL */
} sensim_ablate_options;

/* Sets the defaults: threads -1, frames 0, every variant, no log. */
SENSIM_TOOLS_API void sensim_ablate_options_init(sensim_ablate_options *o);

/* Render the scenario file once per variant into out_dir/<variant>/ (each
 * camera's frames in out_dir/<variant>/<camera>/, named as
 * sensim_scenario_run names them). Stops at the first failing variant,
 * whose error it returns (its message names the variant). */
SENSIM_TOOLS_API sensim_status sensim_ablate_run(const char *scenario_path, const char *out_dir,
                                const sensim_ablate_options *opt);

/* ---- the summary (tools/ablate_summary.c) ---------------------------------
 * What sensim can say of each variant without a detector, beside the
 * camera component study (sensim_tools/published.h). */

/* The image-statistics distance of variant `a`'s frames under out_dir (as
 * sensim_ablate_run writes them) to the baseline's: for every camera folder
 * of out_dir/baseline, the first Wasserstein distance between the pixel
 * values of all its PNG frames and those of the same camera of
 * out_dir/<a> (sensim_image_set_w1, 64 bins), averaged over channels, then
 * over cameras. SENSIM_ENOTFOUND when a folder is missing, SENSIM_EINVAL
 * when one holds no PNG file or `a` is not a variant. */
SENSIM_TOOLS_API sensim_status sensim_ablate_distance(const char *out_dir, sensim_ablation a, double *w1);

/* The table `sensim ablate` prints after rendering: per variant (`variants`,
 * n; NULL: all), its sensim_ablate_distance beside the study's component
 * and what the study says of it (or that its result could not be read),
 * then the study's block (sensim_published_print). Without the baseline
 * among the variants the distances are "-". Errors as
 * sensim_ablate_distance's; nothing is printed after the first. */
SENSIM_TOOLS_API sensim_status sensim_ablate_summary(FILE *out, const char *out_dir, const sensim_ablation *variants,
                                                    size_t n);

#ifdef __cplusplus
}
#endif
#endif
