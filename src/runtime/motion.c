/* runtime/motion.c: the sensor's motion over one capture, from the
 * capture's snapshot alone. */
#include <string.h>
#include "runtime/kind.h"

void sensim__ctx_carrier_state(const sensim_capture_ctx *ctx, double t, sensim_body_state *out) {
  if (ctx->carrier < 0) {
    memset(out, 0, sizeof *out);
    out->pose = sensim_pose_identity();
    out->flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
    return;
  }
  sensim__snap_state_at(ctx->snap, (size_t)ctx->carrier, t, out);
}

sensim_pose sensim__ctx_pose_at(const sensim_capture_ctx *ctx, double t) {
  sensim_body_state st;
  sensim__ctx_carrier_state(ctx, t, &st);
  return sensim_pose_compose(st.pose, ctx->mount);
}

int sensim__ctx_fixed(const sensim_capture_ctx *ctx) {
  return ctx->carrier < 0 || ctx->snap->bodies[ctx->carrier].is_static;
}
