/* sensim_tools/sensim_tools.h: the whole public API of the tools library.
 *
 * libsensim_tools holds the evaluation tools built on sensim's public API
 * (sensim/sensim.h) and nothing else: sim-to-real metrics (VEPD and its EKF
 * judge), Allan deviation, camera noise calibration, image augmentation,
 * image statistics, camera-stage ablation, sweeps of many runs with
 * their manifests and summary tables, and the CSV tables and PNG
 * plots they report with. A program links it next to libsensim:
 *
 *   #include <sensim/sensim.h>
 *   #include <sensim_tools/sensim_tools.h>
 *   cc app.c $(pkg-config --cflags --libs sensim_tools)
 *
 * Errors are reported as sensim's are: a negative sensim_status and
 * sensim_last_error(). */
#ifndef SENSIM_TOOLS_SENSIM_TOOLS_H
#define SENSIM_TOOLS_SENSIM_TOOLS_H

#include "sensim_tools/export.h"
#include "sensim_tools/allan.h"
#include "sensim_tools/noise_calib.h"
#include "sensim_tools/vepd.h"
#include "sensim_tools/published.h"
#include "sensim_tools/table.h"
#include "sensim_tools/plot.h"
#include "sensim_tools/colormap.h"
#include "sensim_tools/preview.h"
#include "sensim_tools/contact_sheet.h"
#include "sensim_tools/birdseye.h"
#include "sensim_tools/image_files.h"
#include "sensim_tools/image_stats.h"
#include "sensim_tools/augment.h"
#include "sensim_tools/ablate.h"
#include "sensim_tools/dataset.h"
#include "sensim_tools/sweep.h"

#endif
