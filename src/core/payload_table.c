/* core/payload_table.c: the one list of payload types, in enum order.
 *
 * Each row names an enum value and the descriptor that its file
 * (core/payload_<name>.c, or core/payload_images.c for plain images)
 * defines as sensim__payload_<name>. The array is indexed by the enum, so a
 * row out of order still lands in its place, and a value without a row is
 * a NULL slot that the table's test reports. */
#include "core/payload.h"

#define SENSIM__PAYLOAD_ROWS(ROW) \
  ROW(NONE, none)                 \
  ROW(RGB_F32, rgb_f32)           \
  ROW(RGBA8, rgba8)               \
  ROW(GRAY8, gray8)               \
  ROW(GRAY16, gray16)             \
  ROW(DEPTH_F32, depth_f32)       \
  ROW(LABELS, labels)             \
  ROW(BEAMS, beams)               \
  ROW(POINTS, points)             \
  ROW(GNSS, gnss)                 \
  ROW(IMU, imu)                   \
  ROW(RAW_F32, raw_f32)           \
  ROW(RAW16, raw16)               \
  ROW(RGB16, rgb16)               \
  ROW(GRAY_F32, gray_f32)         \
  ROW(MAG, mag)                   \
  ROW(DETECTION, detection)       \
  ROW(RADAR, radar)               \
  ROW(RADAR_CUBE, radar_cube)     \
  ROW(RADAR_RD, radar_rd)         \
  ROW(ANY, any)

#define DECLARE(value, name) extern const sensim__payload_desc sensim__payload_##name;
SENSIM__PAYLOAD_ROWS(DECLARE)
#undef DECLARE

/* No data: the start of a chain that has not produced anything, and the
 * filters' wildcard. */
const sensim__payload_desc sensim__payload_none = {.type = SENSIM_PAYLOAD_NONE, .name = "none"};
const sensim__payload_desc sensim__payload_any = {.type = SENSIM_PAYLOAD_ANY, .name = "any"};

#define SLOT(value, name) [SENSIM_PAYLOAD_##value] = &sensim__payload_##name,
static const sensim__payload_desc *const table[SENSIM_PAYLOAD_ANY + 1] = {
    SENSIM__PAYLOAD_ROWS(SLOT)};
#undef SLOT

const sensim__payload_desc *sensim__payload_desc_of(sensim_payload type) {
  /* The unsigned comparison also refuses negative values forced into the
   * enum by a cast. */
  return (unsigned)type <= (unsigned)SENSIM_PAYLOAD_ANY ? table[type] : NULL;
}
