/* io/camera_info_yaml.c: a camera's calibration as the YAML file of ROS's
 * camera_calibration_parsers (what camera_info_manager loads and the
 * calibrator saves), in a form OpenCV's cv::FileStorage reads as well.
 *
 * The form, and why each part of it:
 *
 *   %YAML 1.0
 *   ---
 *   image_width: 640
 *   image_height: 480
 *   camera_name: "front"
 *   camera_matrix:
 *     rows: 3
 *     cols: 3
 *     data: [320.0, 0.0, 319.5, 0.0, 320.0, 239.5, 0.0, 0.0, 1.0]
 *   distortion_model: plumb_bob
 *   distortion_coefficients: (rows: 1, cols: 5 or 4, data as above)
 *   rectification_matrix: (3 x 3, the identity)
 *   projection_matrix: (3 x 4, [K | 0])
 *
 * - The directive line. cv::FileStorage picks its parser from the first
 *   bytes of the file (after a byte-order mark): "%YAML" selects YAML,
 *   "{" JSON, "<?xml" XML, and anything else is "Unsupported file storage
 *   format" (modules/core/src/persistence.cpp, FileStorage::Impl::open).
 *   ROS's own writer (yaml-cpp's emitter) starts with "image_width:", which
 *   OpenCV therefore refuses. OpenCV's own writer puts "%YAML:1.0", which
 *   is not YAML: PyYAML stops at the ':' (ROS 2's Python calibration tools
 *   read these files with yaml.safe_load). OpenCV's YAML parser also takes
 *   the standard "%YAML 1.x" (it checks for "%YAML:1." or "%YAML 1.",
 *   persistence_yml.cpp, YAMLParser::parse), yaml-cpp
 *   accepts any 1.x version (Parser::HandleYamlDirective) and PyYAML any
 *   1.x, so "%YAML 1.0" is the line all three read. A directive must be
 *   followed by the document marker "---" (the YAML specification's
 *   "Directives"), which OpenCV also expects.
 * - No "!!opencv-matrix" tags on the matrices: yaml.safe_load refuses
 *   unknown tags. OpenCV users read the matrices' "data" node as a
 *   sequence of reals instead of `>> cv::Mat`.
 * - Every real is written with a '.' ("0.0", "1.0e-05"): PyYAML's YAML 1.1
 *   resolver reads "0" as an int and "1e-05" as a string, and the
 *   generated ROS 2 Python message classes refuse ints in float64 arrays.
 *   The digits are the shortest that read back to the same double.
 * - camera_name is double-quoted with \" and \\ escaped, the one string
 *   syntax all three share for names holding ':', '#', '[' or spaces;
 *   control characters (which OpenCV's reader refuses) are refused. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "core/internal.h"
#include "core/payload.h"
#include "io/camera_info.h"
#include "sensim/io.h"
#include "sensim/record.h"

sensim_status sensim__camera_info_from_params(const sensim_camera_params *cp, sensim__camera_info *ci) {
  if (!cp || !ci) return sensim__fail(SENSIM_EINVAL, "camera info: NULL argument");
  memset(ci, 0, sizeof *ci);
  if (cp->width < 1 || cp->height < 1)
    return sensim__fail(SENSIM_EINVAL, "camera info: camera size %ux%u must be at least 1x1", cp->width,
                        cp->height);
  switch (cp->lens) {
  case SENSIM_LENS_PINHOLE:
  case SENSIM_LENS_BROWN_CONRADY:
    ci->model = "plumb_bob";
    ci->nd = 5;
    break;
  case SENSIM_LENS_RATIONAL:
    ci->model = "rational_polynomial";
    ci->nd = 8;
    break;
  case SENSIM_LENS_DIVISION:
    return sensim__fail(SENSIM_EINVAL, "camera info: the division lens model has no ROS distortion model "
                                       "(no polynomial model in sensor_msgs expresses Fitzgibbon's division)");
  case SENSIM_LENS_KANNALA_BRANDT:
    ci->model = "equidistant";
    ci->nd = 4;
    break;
  case SENSIM_LENS_FOV:
    return sensim__fail(SENSIM_EINVAL, "camera info: the FOV lens model has no ROS distortion model "
                                       "(plumb_bob and equidistant cannot express its arctangent law)");
  default:
    return sensim__fail(SENSIM_EINVAL, "camera info: unknown lens model %d", (int)cp->lens);
  }
  double fx, fy, cx, cy;
  if (cp->fx == 0) {
    if (!(cp->hfov > 0 && cp->hfov < M_PI))
      return sensim__fail(SENSIM_EINVAL, "camera info: hfov %g rad must be in (0, pi) when fx is 0", cp->hfov);
    fx = fy = 0.5 * cp->width / tan(0.5 * cp->hfov);
    cx = 0.5 * (cp->width - 1.0);
    cy = 0.5 * (cp->height - 1.0);
  } else {
    fx = cp->fx, fy = cp->fy, cx = cp->cx, cy = cp->cy;
    if (!(fx > 0) || !(fy > 0))
      return sensim__fail(SENSIM_EINVAL, "camera info: focal lengths fx %g, fy %g px must be > 0", fx, fy);
  }
  if (!isfinite(fx) || !isfinite(fy) || !isfinite(cx) || !isfinite(cy))
    return sensim__fail(SENSIM_EINVAL, "camera info: intrinsics fx %g, fy %g, cx %g, cy %g must be finite", fx,
                        fy, cx, cy);
  if (cp->lens != SENSIM_LENS_PINHOLE)
    for (int i = 0; i < ci->nd; i++) {
      if (!isfinite(cp->dist[i]))
        return sensim__fail(SENSIM_EINVAL, "camera info: dist[%d] = %g is not finite", i, cp->dist[i]);
      ci->D[i] = cp->dist[i];
    }
  ci->width = cp->width;
  ci->height = cp->height;
  double K[9] = {fx, 0, cx, 0, fy, cy, 0, 0, 1};
  double R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  /* A monocular camera's P is [K' | 0] with K' the rectified image's
   * matrix (REP 104 and sensor_msgs/CameraInfo). The recording carries the
   * images as the lens made them, so K' = K: image_proc then undistorts
   * onto the same intrinsics. */
  double P[12] = {fx, 0, cx, 0, 0, fy, cy, 0, 0, 0, 1, 0};
  memcpy(ci->K, K, sizeof K);
  memcpy(ci->R, R, sizeof R);
  memcpy(ci->P, P, sizeof P);
  return SENSIM_OK;
}

sensim_status sensim__camera_params_for_image(const sensim_camera_params *cp, uint32_t w, uint32_t h,
                                              uint32_t binning, sensim_camera_params *out) {
  sensim__camera_info ci;
  sensim_status st = sensim__camera_info_from_params(cp, &ci);
  if (st != SENSIM_OK) return st;
  if (w < 1 || h < 1) return sensim__fail(SENSIM_EINVAL, "camera info: image size %ux%u", w, h);
  *out = *cp;
  const double b = binning > 1 ? binning : 1;
  if (binning > 1 && ((double)w * b > cp->width || (double)h * b > cp->height))
    return sensim__fail(SENSIM_EINVAL, "camera info: %ux%u images of %u x %u blocks do not fit the %ux%u camera",
                        w, h, binning, binning, cp->width, cp->height);
  if (binning <= 1 && w == cp->width && h == cp->height) return SENSIM_OK;
  out->width = w;
  out->height = h;
  if (binning > 1) {
    out->fx = ci.K[0] / b;
    out->fy = ci.K[4] / b;
    out->cx = (ci.K[2] - 0.5 * (b - 1)) / b;
    out->cy = (ci.K[5] - 0.5 * (b - 1)) / b;
  } else {
    const double sx = (double)w / cp->width, sy = (double)h / cp->height;
    out->fx = ci.K[0] * sx;
    out->fy = ci.K[4] * sy;
    out->cx = (ci.K[2] + 0.5) * sx - 0.5;
    out->cy = (ci.K[5] + 0.5) * sy - 0.5;
  }
  return SENSIM_OK;
}

/* v as a YAML real every reader above takes as a float: the shortest
 * round-trip digits, with ".0" added where printf gives none ("1" ->
 * "1.0", "1e-05" -> "1.0e-05"). v is finite. */
static const char *yaml_real(char buf[48], double v) {
  char t[40];
  sensim_shortest_double(t, sizeof t, v);
  if (strchr(t, '.')) {
    snprintf(buf, 48, "%s", t);
    return buf;
  }
  char *e = strchr(t, 'e');
  if (e)
    snprintf(buf, 48, "%.*s.0%s", (int)(e - t), t, e);
  else
    snprintf(buf, 48, "%s.0", t);
  return buf;
}

static void put_matrix(FILE *fp, const char *key, int rows, int cols, const double *m) {
  char buf[48];
  fprintf(fp, "%s:\n  rows: %d\n  cols: %d\n  data: [", key, rows, cols);
  for (int i = 0; i < rows * cols; i++) fprintf(fp, "%s%s", i ? ", " : "", yaml_real(buf, m[i]));
  fputs("]\n", fp);
}

/* The longest name written: OpenCV's reader holds a string in a buffer of
 * CV_FS_MAX_LEN = 4096 bytes; sensor names have at most 200. */
#define NAME_MAX_BYTES 1024

sensim_status sensim_write_camera_info_yaml(const char *path, const char *camera_name,
                                            const sensim_camera_params *cp) {
  if (!path || !*path || !camera_name || !cp)
    return sensim__fail(SENSIM_EINVAL, "sensim_write_camera_info_yaml: NULL or empty argument");
  size_t n = strlen(camera_name);
  if (n == 0 || n > NAME_MAX_BYTES)
    return sensim__fail(SENSIM_EINVAL, "camera info '%s': camera name must have 1 to %d bytes (has %zu)", path,
                        NAME_MAX_BYTES, n);
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)camera_name[i] < 0x20 || camera_name[i] == 0x7f)
      return sensim__fail(SENSIM_EINVAL,
                          "camera info '%s': camera name has a control character (byte %zu, 0x%02x), which "
                          "OpenCV's YAML reader refuses",
                          path, i, (unsigned)(unsigned char)camera_name[i]);
  sensim__camera_info ci;
  sensim_status st = sensim__camera_info_from_params(cp, &ci);
  if (st != SENSIM_OK) return sensim__fail(st, "'%s': %s", path, sensim_last_error());
  sensim_atomic_file *af = NULL;
  if ((st = sensim_atomic_file_open(path, &af)) != SENSIM_OK) return st;
  FILE *fp = sensim_atomic_file_stream(af);
  fprintf(fp, "%%YAML 1.0\n---\nimage_width: %u\nimage_height: %u\ncamera_name: \"", ci.width, ci.height);
  for (size_t i = 0; i < n; i++) {
    if (camera_name[i] == '"' || camera_name[i] == '\\') fputc('\\', fp);
    fputc(camera_name[i], fp);
  }
  fputs("\"\n", fp);
  put_matrix(fp, "camera_matrix", 3, 3, ci.K);
  fprintf(fp, "distortion_model: %s\n", ci.model);
  put_matrix(fp, "distortion_coefficients", 1, ci.nd, ci.D);
  put_matrix(fp, "rectification_matrix", 3, 3, ci.R);
  put_matrix(fp, "projection_matrix", 3, 4, ci.P);
  return sensim_atomic_file_commit(af);
}
