/* tools/ablate_internal.h: what the ablation's edits share
 * (ablate_scenario.c, ablate_fov.c, ablate_fov_lens.c, ablate_lighting.c,
 * ablate_scene.c). */
#ifndef SENSIM_TOOLS_ABLATE_INTERNAL_H
#define SENSIM_TOOLS_ABLATE_INTERNAL_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include <sensim/camera.h>
#include <sensim/status.h>

/* What a variant changed, a line per camera or scene part, into a
 * caller's buffer (may be NULL). */
typedef struct sensim_tools__ablate_notes {
  char *buf;
  size_t size, len;
} sensim_tools__ablate_notes;

void sensim_tools__ablate_note(sensim_tools__ablate_notes *n, const char *who, const char *what);

/* Replace or add obj[key] = v. */
sensim_status sensim_tools__ablate_set_number(cJSON *obj, const char *key, double v);

/* Camera `cam` (a scenario's sensor object named `name`) turned into a
 * pinhole with the horizontal and vertical fields of view its lens has,
 * through its principal point (ablate_fov.c). SENSIM_EINVAL when no
 * pinhole has them (a field of 180 deg or more). */
sensim_status sensim_tools__ablate_pinhole_fov(cJSON *cam, const char *name, sensim_tools__ablate_notes *n);

/* The camera `cam`'s parameters as the loader makes them from its keys
 * (sensim_camera_params_from_json on the camera keys alone; ablate_fov.c). */
sensim_status sensim_tools__ablate_camera_params(const cJSON *cam, const char *name, sensim_camera_params *cp);

/* Camera `cam` given the FOV lens of the horizontal field of view it has
 * (ablate_fov_lens.c). SENSIM_EINVAL when no FOV lens has it. */
sensim_status sensim_tools__ablate_fov_lens(cJSON *cam, const char *name, sensim_tools__ablate_notes *n);

/* Camera `cam` without mirror reflections (max_bounces 0), the note
 * naming the scenario `root`'s mirroring meshes (ablate_scene.c). */
sensim_status sensim_tools__ablate_no_reflections(const cJSON *root, cJSON *cam, const char *name,
                                                  sensim_tools__ablate_notes *n);

/* The scenario `root` lit by one of its lights (ablate_scene.c). */
sensim_status sensim_tools__ablate_single_light(cJSON *root, sensim_tools__ablate_notes *n);

/* The scenario `root`'s lights removed and what they gave level ground
 * added to the world's ambient irradiance (ablate_lighting.c). */
sensim_status sensim_tools__ablate_flat_lighting(cJSON *root, sensim_tools__ablate_notes *n);

/* The focal length f (px) of a pinhole whose principal point sits `a` px
 * from one edge of the image and `b` px from the other (a + b: the
 * image's extent) and whose field of view across it is `fov` rad, in
 * (0, pi): atan(a / f) + atan(b / f) = fov. */
double sensim_tools__pinhole_focal_for_fov(double a, double b, double fov);

#endif
