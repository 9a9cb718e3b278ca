/* tools/vepd_internal.h: what the VEPD files share: the run checks and the
 * manoeuvres' ground truth. Not installed. */
#ifndef SENSIM_TOOLS_VEPD_INTERNAL_H
#define SENSIM_TOOLS_VEPD_INTERNAL_H

#include <sensim/world.h>
#include <sensim_tools/vepd.h>

/* SENSIM_EINVAL naming `what` unless the run is well formed (vepd.h). */
sensim_status sensim_tools__vepd_run_check(const sensim_vepd_run *r, const char *what);

/* The body state of manoeuvre m at time t (s) into *s; returns the true
 * speed, m/s (tools/vepd_trajectory.c). */
double sensim_tools__vepd_state(sensim_vepd_manoeuvre m, double t, sensim_body_state *s);

#endif
