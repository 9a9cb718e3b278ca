/* core/payload_beams.c: lidar returns before conversion to points
 * (sensim_beam: range, angles, firing time). They exist inside a lidar's
 * chain; the "points" filter turns them into the cloud that files hold,
 * so beams have no file layout of their own. */
#include <stddef.h>
#include "core/payload.h"

/* The layout frame.h documents, with no padding the compiler adds. */
_Static_assert(sizeof(sensim_beam) == 32 && offsetof(sensim_beam, ring) == 20 &&
                   offsetof(sensim_beam, class_id) == 24 && offsetof(sensim_beam, instance_id) == 28,
               "sensim_beam: 5 floats, ring, return_index, pad, class_id, pad2, instance_id");

const sensim__payload_desc sensim__payload_beams = {
    .type = SENSIM_PAYLOAD_BEAMS,
    .name = "beams",
    .elem_size = sizeof(sensim_beam),
    .shape = SENSIM__SHAPE_RECORDS,
    .channels = 1,
    .sample = SENSIM_SAMPLE_STRUCT,
};
