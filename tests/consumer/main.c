/* tests/consumer/main.c: the smallest complete use of an installed sensim.
 *
 * A 2 m box 5 m ahead of a 16-channel lidar on a body; one frame is polled
 * and its point count printed. Exits 0 only if every call succeeded and the
 * box was seen, so a broken install, link line or library fails loudly. */
#include <sensim/sensim.h>

#include <stdio.h>

#define CHECK(call)                                                                \
  do {                                                                             \
    sensim_status st_ = (call);                                                    \
    if (st_ != SENSIM_OK) {                                                        \
      fprintf(stderr, "%s failed: %s: %s\n", #call, sensim_status_str(st_),        \
              sensim_last_error());                                                \
      goto done;                                                                   \
    }                                                                              \
  } while (0)

int main(void) {
  int ok = 0;
  sensim_world *world = NULL;
  sensim_world_params wp;
  sensim_material mat;
  sensim_shape box;
  sensim_mesh *mesh = NULL;
  sensim_body_params bp;
  sensim_body *target = NULL;
  sensim_body *carrier = NULL;
  sensim_sensor_params sp;
  sensim_lidar_params lp;
  sensim_sensor *lidar = NULL;
  sensim_body_state state;
  const sensim_frame *frame = NULL;
  int step;

  sensim_world_params_init(&wp);
  CHECK(sensim_world_create(&wp, &world));

  sensim_material_init(&mat);
  box.kind = SENSIM_SHAPE_BOX;
  box.size.x = box.size.y = box.size.z = 2.0;
  box.segments = 0;
  CHECK(sensim_mesh_create_shape(world, &box, &mat, &mesh));

  sensim_body_params_init(&bp);
  bp.mesh = mesh;
  bp.is_static = 1;
  bp.pose.pos.x = 5.0;
  CHECK(sensim_body_create(world, &bp, &target));

  sensim_body_params_init(&bp);
  CHECK(sensim_body_create(world, &bp, &carrier));

  sensim_sensor_params_init(&sp);
  sp.name = "lidar";
  sp.body = carrier;
  sensim_lidar_params_init(&lp);
  lp.columns = 360;
  CHECK(sensim_lidar_create(world, &sp, &lp, &lidar));
  CHECK(sensim_sensor_add_filter(lidar, "points", NULL));

  state.pose = sensim_pose_identity();
  state.flags = 0;
  for (step = 0; step <= 20 && frame == NULL; step++) {
    double t = 0.01 * step;
    CHECK(sensim_body_push_state(carrier, t, &state));
    CHECK(sensim_world_advance(world, t));
    CHECK(sensim_sensor_poll(lidar, &frame));
  }
  if (frame == NULL) {
    fprintf(stderr, "no lidar frame delivered by t = 0.2 s\n");
    goto done;
  }
  if (frame->type != SENSIM_PAYLOAD_POINTS) {
    fprintf(stderr, "frame payload is %s, not points\n", sensim_payload_name(frame->type));
    goto done;
  }
  printf("points: %zu\n", frame->count);
  ok = frame->count > 0;
  if (!ok) fprintf(stderr, "the lidar saw nothing of the box 5 m ahead\n");

done:
  sensim_world_destroy(world);
  return ok ? 0 : 1;
}
