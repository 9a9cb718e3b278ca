/* tests/headers/headers_cxx11.cpp: the public API as a C++11 user sees it.
 *
 * Built with -std=c++11 -pedantic -Wall -Wextra -Werror. The calls below
 * link only if every header declares its functions inside extern "C", and
 * the size checks catch a struct laid out differently in C++. */
#include <sensim/sensim.h>
#include <sensim_tools/sensim_tools.h>

#include <cstring>

static_assert(sizeof(sensim_vec3) == 3 * sizeof(double), "sensim_vec3 is three doubles");
static_assert(sizeof(sensim_quat) == 4 * sizeof(double), "sensim_quat is four doubles");

extern "C" int sensim_headers_cxx11_check(void);

extern "C" int sensim_headers_cxx11_check(void) {
  const char *text = sensim_status_str(SENSIM_ENOTFOUND);
  sensim_pose id = sensim_pose_identity();
  const char *payload = sensim_payload_name(SENSIM_PAYLOAD_POINTS);
  if (text == nullptr || std::strlen(text) == 0) return 1;
  if (payload == nullptr || std::strlen(payload) == 0) return 1;
  if (id.rot.w != 1.0) return 1;
  if (sensim_payload_elem_size(SENSIM_PAYLOAD_POINTS) != sizeof(sensim_point)) return 1;
  if (sensim_ablation_name(SENSIM_ABLATE_BASELINE) == nullptr) return 1;
  return 0;
}
