/* sensors/gnss.c: the ideal GNSS receiver.
 *
 * Reports the true position of the antenna (the sensor origin) at the
 * capture time: its ENU position (world X east, Y north, Z up at the world's
 * origin), WGS84 latitude/longitude/height through core/geodesy.c and its
 * ENU velocity. Receiver errors are the "gnss_noise" filter's job, so the
 * reported covariance is zero here. */
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "sensim/gnss.h"
#include "sensors/sensor_internal.h"

static double gnss_default_window(const void *impl, double rate) {
  (void)impl;
  (void)rate;
  return 0.0; /* a fix is instantaneous */
}

static sensim_status gnss_generate(const sensim_sensor *s, const sensim_capture *cap,
                                   sensim_frame *frame) {
  const sensim_snapshot *snap = cap->snap;
  sensim_pose pose = sensim__sensor_pose_at(s, snap, cap->t_capture);
  sensim_body_state carrier;
  sensim__sensor_carrier_state(s, snap, cap->t_capture, &carrier);

  /* Rigid-body velocity of the antenna point: v_p = v + omega x (R r_mount),
   * all in the world frame (e.g. Craig, "Introduction to Robotics", 3rd ed.,
   * ch. 5). A world-fixed sensor's carrier state is zero. */
  sensim_vec3 lever = q_rotate(carrier.pose.rot, s->params.mount.pos);
  sensim_vec3 vel = v3_add(carrier.lin_vel, v3_cross(carrier.ang_vel, lever));

  sensim_status st = sensim_frame_alloc(frame, SENSIM_PAYLOAD_GNSS, 1, 1);
  if (st != SENSIM_OK) return st;
  sensim_gnss_fix *fix = (sensim_gnss_fix *)frame->data;
  memset(fix, 0, sizeof *fix);
  fix->origin[0] = snap->params.origin_lat;
  fix->origin[1] = snap->params.origin_lon;
  fix->origin[2] = snap->params.origin_height;
  fix->enu[0] = pose.pos.x;
  fix->enu[1] = pose.pos.y;
  fix->enu[2] = pose.pos.z;
  fix->vel_enu[0] = vel.x;
  fix->vel_enu[1] = vel.y;
  fix->vel_enu[2] = vel.z;
  sensim_enu_to_geodetic(fix->origin, fix->enu, &fix->lat, &fix->lon, &fix->height);
  fix->fix_type = 1;
  return SENSIM_OK;
}

static const sensim_sensor_kind gnss_kind = {
    .name = "gnss",
    .raw_type = SENSIM_PAYLOAD_GNSS,
    .needs_geometry = 0,
    .default_window = gnss_default_window,
    .generate = gnss_generate,
    .destroy = NULL, /* no configuration beyond the schedule */
};

sensim_status sensim_gnss_create(sensim_world *world, const sensim_sensor_params *sp,
                                 sensim_sensor **out) {
  if (!world) return sensim__fail(SENSIM_EINVAL, "gnss: world is NULL");
  if (!sp) return sensim__fail(SENSIM_EINVAL, "gnss: sensor params are NULL");
  if (!out) return sensim__fail(SENSIM_EINVAL, "gnss: out is NULL");
  return sensim__sensor_create(world, sp, &gnss_kind, NULL, out);
}
