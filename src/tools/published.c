/* tools/published.c: what the papers behind sensim's studies report, in one
 * place (sensim_tools/published.h). Every line here was read from the
 * stored copy named in `read_from` and is cited to where it stands in the
 * paper; nothing is filled in that was not read.
 *
 * What could be read (issue 28, searched 2026-11-29): for both papers the
 * stored copies hold the title, the abstract and the start of Section I
 * (Introduction) only, so neither paper's result tables could be read and
 * no published number is printed. The findings below are the abstracts'. */
#include <string.h>
#include "tools/tools_internal.h"

/* ---- Mahajan et al. 2024: the VEPD study --------------------------------- */

static const char *const kVepdClaims[] = {
    "a scaled autonomous vehicle drove 40 real-world experiments across diverse environments, "
    "replicated in simulation with five distinct sensor noise models (abstract)",
    "comparing raw simulated and real sensor data directly fails to quantify the sim2real gap "
    "for robotics applications (abstract)",
    "running one state-estimation package, the judge, on real and on simulated drives isolates "
    "the sim2real discrepancies that stem from the sensor simulation alone (abstract)",
    "its dataset is open-source and publicly available (abstract)",
};

static const sensim_published kVepd = {
    .cite = "I. Mahajan et al., \"Quantifying the Sim2real Gap for GPS and IMU Sensors\", "
            "arXiv:2403.11000, 2024",
    .read_from = "arxiv.org/html/2403.11000v1, stored copy: title, abstract and the start of "
                 "Section I only",
    .unread = "its VEPD, W1 and W2 per noise model and trajectory (the results after Section I): "
              "the stored copy ends in Section I, so none of its numbers is printed",
    .differs = "there 40 real drives judged by a state-of-the-art estimation package; here a "
               "simulated reference (or --real DIR) judged by sensim's own EKF",
    .claims = kVepdClaims,
    .nclaims = sizeof kVepdClaims / sizeof kVepdClaims[0],
    .variants = NULL,
    .nvariants = 0,
};

const sensim_published *sensim_published_vepd(void) { return &kVepd; }

/* ---- the camera component study (arXiv:2211.08599) ----------------------- */

static const char *const kCameraClaims[] = {
    "it leaves out of the camera model processes within the physical camera (lens distortion, "
    "noise, signal processing), scene effects (lighting, reflection) and rendering quality, and "
    "measures how each omission changes the sim-to-real gap (abstract)",
    "large-scale changes to colour, scene and location have far greater impact than model "
    "aspects concerned with local, feature-level artifacts (abstract)",
    "these scene-level changes can stem from lens distortion and signal processing, "
    "particularly white-balance and auto-exposure modelling (abstract)",
};

/* The abstract's last sentence names these as sources of the large,
 * scene-level changes. */
#define SCENE_LEVEL "named a source of scene-level change, the large-impact kind (abstract)"

static const sensim_published_variant kCameraVariants[] = {
    {"baseline", "the full camera model", "the reference of every comparison"},
    {"lens_pinhole", "lens distortion (a pinhole instead)", SCENE_LEVEL},
    {"noise_off", "noise", NULL},
    {"demosaic_off", "signal processing (demosaicing)",
     "signal processing is named a possible source of scene-level change, white balance and "
     "auto exposure above all (abstract)"},
    {"wb_ideal", "white-balance modelling", SCENE_LEVEL},
    {"exposure_fixed", "auto-exposure modelling", SCENE_LEVEL},
    {"supersampling_1", "rendering quality", NULL},
    {"lens_pinhole_fov", "lens distortion (a pinhole of the same field of view)", SCENE_LEVEL},
    {"lighting_flat", "lighting", NULL},
    {"fov_lighting", "lens distortion and lighting together", NULL},
    {"reflections_off", "reflection", NULL},
    {"light_single", "lighting (a single light)", NULL},
    {"lens_fov", "lens distortion (the FOV lens model)", SCENE_LEVEL},
};

static const sensim_published kCamera = {
    .cite = "\"Camera simulation for robot simulation: how important are various camera model "
            "components?\", arXiv:2211.08599, 2022 (with the contextualized performance "
            "difference of A. Elmquist, R. Serban, D. Negrut, arXiv:2208.01022, 2022)",
    .read_from = "ar5iv.labs.arxiv.org/html/2211.08599, stored copy: title, abstract and the "
                 "start of Section I only; arXiv:2208.01022 is not stored",
    .unread = "its performance difference per omitted component (the results after Section I): "
              "the stored copy ends in Section I, so none of its numbers is printed",
    .differs = "there its own scenes, real images and trained detectors; here sensim's scenario "
               "and no detector (sensim dataset + sensim judge give a detector's numbers)",
    .claims = kCameraClaims,
    .nclaims = sizeof kCameraClaims / sizeof kCameraClaims[0],
    .variants = kCameraVariants,
    .nvariants = sizeof kCameraVariants / sizeof kCameraVariants[0],
};

const sensim_published *sensim_published_camera_components(void) { return &kCamera; }

/* ---- lookup and printing ------------------------------------------------- */

const sensim_published_variant *sensim_published_variant_of(const sensim_published *p, const char *name) {
  for (size_t i = 0; p && name && i < p->nvariants; i++)
    if (strcmp(p->variants[i].variant, name) == 0) return &p->variants[i];
  return NULL;
}

sensim_status sensim_published_print(FILE *out, const sensim_published *p, const char *indent) {
  if (!out || !p) return sensim_error_set(SENSIM_EINVAL, "sensim_published_print: NULL argument");
  const char *in = indent ? indent : "";
  fprintf(out, "%sbeside the paper: %s\n", in, p->cite);
  fprintf(out, "%s  read from: %s\n", in, p->read_from);
  if (p->unread) fprintf(out, "%s  not printed: %s\n", in, p->unread);
  if (p->nclaims) fprintf(out, "%s  what it states instead:\n", in);
  for (size_t i = 0; i < p->nclaims; i++) fprintf(out, "%s  - %s\n", in, p->claims[i]);
  fprintf(out, "%s  what differs: %s\n", in, p->differs);
  if (ferror(out)) return sensim_error_set(SENSIM_EIO, "published results: writing failed");
  return SENSIM_OK;
}
