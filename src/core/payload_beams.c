/* core/payload_beams.c: lidar returns before conversion to points
 * (sensim_beam: range, angles, firing time). They exist inside a lidar's
 * chain; the "points" filter turns them into the cloud that files hold,
 * so beams have no file layout of their own. */
#include "core/payload.h"

const sensim__payload_desc sensim__payload_beams = {
    .type = SENSIM_PAYLOAD_BEAMS,
    .name = "beams",
    .elem_size = sizeof(sensim_beam),
    .shape = SENSIM__SHAPE_RECORDS,
    .channels = 1,
    .sample = SENSIM_SAMPLE_STRUCT,
};
