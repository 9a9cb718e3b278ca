/* sensim_tools/published.h: what the papers sensim's studies follow
 * report, kept in one place (tools/published.c) so that the commands print
 * it beside their own numbers: `sensim vepd-experiment` beside the GNSS/IMU
 * study, `sensim ablate` (and the judge's report) beside the camera
 * component study.
 *
 * A record holds only what could be read from a stored copy of the paper
 * and cited. Where the paper's result tables could not be read, the record
 * says which ones and why (`unread`) and carries the findings its readable
 * text states instead; it never holds a number that was not read. */
#ifndef SENSIM_TOOLS_PUBLISHED_H
#define SENSIM_TOOLS_PUBLISHED_H

#include "sensim_tools/export.h"

#include <stddef.h>
#include <stdio.h>
#include <sensim/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One of sensim's variants and the paper's counterpart. */
typedef struct sensim_published_variant {
  const char *variant; /* sensim's name: an ablation variant ("noise_off") or a VEPD model */
  const char *paper;   /* the component or model as the paper names it */
  const char *finding; /* what the paper's readable text says of it; NULL: nothing */
} sensim_published_variant;

/* One paper. */
typedef struct sensim_published {
  const char *cite;      /* authors, title, arXiv id, year */
  const char *read_from; /* the copy that was read (its address) and how much of it */
  const char *unread;    /* which results could not be read, and why; NULL: none missing */
  const char *differs;   /* one line: how the paper's set-up differs from sensim's */
  const char *const *claims; /* its findings as its readable text states them, with where */
  size_t nclaims;
  const sensim_published_variant *variants; /* sensim's variants beside the paper's */
  size_t nvariants;
} sensim_published;

/* I. Mahajan et al., "Quantifying the Sim2real Gap for GPS and IMU
 * Sensors" (arXiv:2403.11000, 2024): the VEPD study (docs/vepd.md). */
SENSIM_TOOLS_API const sensim_published *sensim_published_vepd(void);

/* "Camera simulation for robot simulation: how important are various
 * camera model components?" (arXiv:2211.08599, 2022): the camera component
 * study that `sensim ablate`'s variants follow (docs/ablation.md). */
SENSIM_TOOLS_API const sensim_published *sensim_published_camera_components(void);

/* The entry of `p` for sensim's variant `name`; NULL when there is none. */
SENSIM_TOOLS_API const sensim_published_variant *sensim_published_variant_of(const sensim_published *p,
                                                                           const char *name);

/* The block a command prints under its own table: the citation, what was
 * read, the missing results, the findings and what differs, each line
 * starting with `indent` (NULL: none). SENSIM_EINVAL for a NULL argument,
 * SENSIM_EIO when writing fails. */
SENSIM_TOOLS_API sensim_status sensim_published_print(FILE *out, const sensim_published *p, const char *indent);

#ifdef __cplusplus
}
#endif
#endif
