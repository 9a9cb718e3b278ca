#include "support/testutil.h"
#include <math.h>

sensim_world *test_world(int threads, uint64_t seed) {
  sensim_world_params p;
  sensim_world_params_init(&p);
  p.threads = threads;
  p.seed = seed;
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&p, &w));
  return w;
}

sensim_body_state test_state_xyzyaw(double x, double y, double z, double yaw) {
  sensim_body_state s = {0};
  s.pose.pos.x = x;
  s.pose.pos.y = y;
  s.pose.pos.z = z;
  s.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, yaw);
  s.flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
  return s;
}
