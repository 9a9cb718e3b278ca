/* io/ros_msgs.c: schemas and CDR encoders of the recorded ROS 2 messages
 * (io/ros_msgs.h).
 *
 * A ros2msg schema is the message's .msg text followed, for each message
 * type it uses (directly or through another), by a line of 80 '=', a line
 * "MSG: package/Type" and that type's text: the form rosbag2 writes and
 * Foxglove's and the mcap tools' parsers read. Type references are fully
 * qualified so no reader has to guess a package. Comments are left out;
 * field names, types and order are those of the ROS 2 .msg files. */
#include <string.h>
#include "io/ros_msgs.h"

#define SEP "================================================================================\n"
#define MSG(name, text) SEP "MSG: " name "\n" text

#define TIME "int32 sec\nuint32 nanosec\n"
#define HEADER "builtin_interfaces/Time stamp\nstring frame_id\n"
#define HEADER_DEPS MSG("std_msgs/Header", HEADER) MSG("builtin_interfaces/Time", TIME)
#define VECTOR3 "float64 x\nfloat64 y\nfloat64 z\n"
#define QUATERNION "float64 x\nfloat64 y\nfloat64 z\nfloat64 w\n"
#define POINT "float64 x\nfloat64 y\nfloat64 z\n"

static const char image[] =
    "std_msgs/Header header\n"
    "uint32 height\n"
    "uint32 width\n"
    "string encoding\n"
    "uint8 is_bigendian\n"
    "uint32 step\n"
    "uint8[] data\n" HEADER_DEPS;

static const char camera_info[] =
    "std_msgs/Header header\n"
    "uint32 height\n"
    "uint32 width\n"
    "string distortion_model\n"
    "float64[] d\n"
    "float64[9] k\n"
    "float64[9] r\n"
    "float64[12] p\n"
    "uint32 binning_x\n"
    "uint32 binning_y\n"
    "sensor_msgs/RegionOfInterest roi\n" HEADER_DEPS
    MSG("sensor_msgs/RegionOfInterest",
        "uint32 x_offset\nuint32 y_offset\nuint32 height\nuint32 width\nbool do_rectify\n");

static const char point_cloud2[] =
    "std_msgs/Header header\n"
    "uint32 height\n"
    "uint32 width\n"
    "sensor_msgs/PointField[] fields\n"
    "bool is_bigendian\n"
    "uint32 point_step\n"
    "uint32 row_step\n"
    "uint8[] data\n"
    "bool is_dense\n" HEADER_DEPS
    MSG("sensor_msgs/PointField",
        "uint8 INT8=1\nuint8 UINT8=2\nuint8 INT16=3\nuint8 UINT16=4\nuint8 INT32=5\n"
        "uint8 UINT32=6\nuint8 FLOAT32=7\nuint8 FLOAT64=8\n"
        "string name\nuint32 offset\nuint8 datatype\nuint32 count\n");

static const char nav_sat_fix[] =
    "uint8 COVARIANCE_TYPE_UNKNOWN=0\n"
    "uint8 COVARIANCE_TYPE_APPROXIMATED=1\n"
    "uint8 COVARIANCE_TYPE_DIAGONAL_KNOWN=2\n"
    "uint8 COVARIANCE_TYPE_KNOWN=3\n"
    "std_msgs/Header header\n"
    "sensor_msgs/NavSatStatus status\n"
    "float64 latitude\n"
    "float64 longitude\n"
    "float64 altitude\n"
    "float64[9] position_covariance\n"
    "uint8 position_covariance_type\n" HEADER_DEPS
    MSG("sensor_msgs/NavSatStatus",
        "int8 STATUS_NO_FIX=-1\nint8 STATUS_FIX=0\nint8 STATUS_SBAS_FIX=1\nint8 STATUS_GBAS_FIX=2\n"
        "int8 status\n"
        "uint16 SERVICE_GPS=1\nuint16 SERVICE_GLONASS=2\nuint16 SERVICE_COMPASS=4\n"
        "uint16 SERVICE_GALILEO=8\n"
        "uint16 service\n");

static const char imu[] =
    "std_msgs/Header header\n"
    "geometry_msgs/Quaternion orientation\n"
    "float64[9] orientation_covariance\n"
    "geometry_msgs/Vector3 angular_velocity\n"
    "float64[9] angular_velocity_covariance\n"
    "geometry_msgs/Vector3 linear_acceleration\n"
    "float64[9] linear_acceleration_covariance\n" HEADER_DEPS
    MSG("geometry_msgs/Quaternion", QUATERNION) MSG("geometry_msgs/Vector3", VECTOR3);

static const char magnetic_field[] =
    "std_msgs/Header header\n"
    "geometry_msgs/Vector3 magnetic_field\n"
    "float64[9] magnetic_field_covariance\n" HEADER_DEPS
    MSG("geometry_msgs/Vector3", VECTOR3);

static const char odometry[] =
    "std_msgs/Header header\n"
    "string child_frame_id\n"
    "geometry_msgs/PoseWithCovariance pose\n"
    "geometry_msgs/TwistWithCovariance twist\n" HEADER_DEPS
    MSG("geometry_msgs/PoseWithCovariance", "geometry_msgs/Pose pose\nfloat64[36] covariance\n")
    MSG("geometry_msgs/Pose", "geometry_msgs/Point position\ngeometry_msgs/Quaternion orientation\n")
    MSG("geometry_msgs/Point", POINT) MSG("geometry_msgs/Quaternion", QUATERNION)
    MSG("geometry_msgs/TwistWithCovariance", "geometry_msgs/Twist twist\nfloat64[36] covariance\n")
    MSG("geometry_msgs/Twist", "geometry_msgs/Vector3 linear\ngeometry_msgs/Vector3 angular\n")
    MSG("geometry_msgs/Vector3", VECTOR3);

static const char tf_message[] =
    "geometry_msgs/TransformStamped[] transforms\n"
    MSG("geometry_msgs/TransformStamped",
        "std_msgs/Header header\nstring child_frame_id\ngeometry_msgs/Transform transform\n")
    HEADER_DEPS
    MSG("geometry_msgs/Transform",
        "geometry_msgs/Vector3 translation\ngeometry_msgs/Quaternion rotation\n")
    MSG("geometry_msgs/Vector3", VECTOR3) MSG("geometry_msgs/Quaternion", QUATERNION);

/* sensim's own messages for the radar's raw FMCW frames (no ROS 2
 * package has one): the header fields of frame.h's sensim_fmcw_info, then
 * the complex samples as interleaved float32 (real, imaginary). */
#define FMCW_FIELDS                                                                                          \
  "uint32 tx\nuint32 rx\nstring window\nfloat64 carrier_frequency\nfloat64 sample_rate\n"                 \
  "float64 chirp_slope\nfloat64 chirp_interval\nfloat64 range_bin\nfloat64 velocity_bin\n"                 \
  "float64 noise_power\nfloat64 gain\nfloat64 radar_constant\nfloat32[] data\n"

static const char radar_cube[] =
    "std_msgs/Header header\n"
    "uint32 chirps\n"
    "uint32 channels\n"
    "uint32 samples\n" FMCW_FIELDS HEADER_DEPS;

static const char radar_range_doppler[] =
    "std_msgs/Header header\n"
    "uint32 channels\n"
    "uint32 doppler_bins\n"
    "uint32 range_bins\n" FMCW_FIELDS HEADER_DEPS;

static const struct {
  const char *name, *schema;
} types[SENSIM__ROS_TYPES] = {
    [SENSIM__ROS_IMAGE] = {"sensor_msgs/msg/Image", image},
    [SENSIM__ROS_CAMERA_INFO] = {"sensor_msgs/msg/CameraInfo", camera_info},
    [SENSIM__ROS_POINT_CLOUD2] = {"sensor_msgs/msg/PointCloud2", point_cloud2},
    [SENSIM__ROS_NAV_SAT_FIX] = {"sensor_msgs/msg/NavSatFix", nav_sat_fix},
    [SENSIM__ROS_IMU] = {"sensor_msgs/msg/Imu", imu},
    [SENSIM__ROS_MAGNETIC_FIELD] = {"sensor_msgs/msg/MagneticField", magnetic_field},
    [SENSIM__ROS_ODOMETRY] = {"nav_msgs/msg/Odometry", odometry},
    [SENSIM__ROS_TF_MESSAGE] = {"tf2_msgs/msg/TFMessage", tf_message},
    [SENSIM__ROS_RADAR_CUBE] = {"sensim_msgs/msg/RadarCube", radar_cube},
    [SENSIM__ROS_RADAR_RANGE_DOPPLER] = {"sensim_msgs/msg/RadarRangeDoppler", radar_range_doppler},
};

const char *sensim__ros_type_name(sensim__ros_type t) { return types[t].name; }
const char *sensim__ros_schema(sensim__ros_type t) { return types[t].schema; }

/* ---- encoders ------------------------------------------------------------ */

/* builtin_interfaces/Time from ns: sec is int32, so stamps past 2^31 s
 * (year 2038 in Unix time) wrap as they do in ROS 2 itself. */
static void header(sensim__cdr *c, uint64_t stamp, const char *frame_id) {
  sensim__cdr_i32(c, (int32_t)(uint32_t)(stamp / 1000000000u));
  sensim__cdr_u32(c, (uint32_t)(stamp % 1000000000u));
  sensim__cdr_string(c, frame_id);
}

static void vec3(sensim__cdr *c, double x, double y, double z) {
  sensim__cdr_f64(c, x);
  sensim__cdr_f64(c, y);
  sensim__cdr_f64(c, z);
}

/* geometry_msgs/Quaternion is x y z w; sensim's quaternions are w x y z. */
static void quat(sensim__cdr *c, sensim_quat q) {
  vec3(c, q.x, q.y, q.z);
  sensim__cdr_f64(c, q.w);
}

unsigned char *sensim__ros_image(sensim__cdr *c, uint64_t stamp, const char *frame_id,
                                 uint32_t height, uint32_t width, const char *encoding,
                                 uint32_t step) {
  sensim__cdr_begin(c);
  header(c, stamp, frame_id);
  sensim__cdr_u32(c, height);
  sensim__cdr_u32(c, width);
  sensim__cdr_string(c, encoding);
  sensim__cdr_u8(c, 0); /* is_bigendian: little-endian samples */
  sensim__cdr_u32(c, step);
  return sensim__cdr_bytes(c, (size_t)height * step);
}

void sensim__ros_camera_info(sensim__cdr *c, uint64_t stamp, const char *frame_id,
                             uint32_t height, uint32_t width, const char *distortion_model,
                             const double *d, size_t nd, const double k[9], const double r[9],
                             const double p[12]) {
  sensim__cdr_begin(c);
  header(c, stamp, frame_id);
  sensim__cdr_u32(c, height);
  sensim__cdr_u32(c, width);
  sensim__cdr_string(c, distortion_model);
  sensim__cdr_u32(c, (uint32_t)nd);
  sensim__cdr_f64s(c, d, nd);
  sensim__cdr_f64s(c, k, 9);
  sensim__cdr_f64s(c, r, 9);
  sensim__cdr_f64s(c, p, 12);
  sensim__cdr_u32(c, 0); /* binning_x */
  sensim__cdr_u32(c, 0); /* binning_y */
  for (int i = 0; i < 4; i++) sensim__cdr_u32(c, 0); /* roi: the full image */
  sensim__cdr_u8(c, 0);                              /* roi.do_rectify */
}

unsigned char *sensim__ros_cloud_begin(sensim__cdr *c, uint64_t stamp, const char *frame_id,
                                       uint32_t height, uint32_t width) {
  /* sensor_msgs/PointField datatypes: 2 UINT8, 4 UINT16, 6 UINT32, 7 FLOAT32. */
  static const struct {
    const char *name;
    uint32_t offset;
    uint8_t type;
  } fields[] = {{"x", SENSIM__CLOUD_X, 7},           {"y", SENSIM__CLOUD_Y, 7},
                {"z", SENSIM__CLOUD_Z, 7},           {"intensity", SENSIM__CLOUD_INTENSITY, 7},
                {"ring", SENSIM__CLOUD_RING, 4},     {"time", SENSIM__CLOUD_TIME, 7},
                {"return", SENSIM__CLOUD_RETURN, 2},  {"label", SENSIM__CLOUD_LABEL, 6},
                {"instance", SENSIM__CLOUD_INSTANCE, 6}};
  sensim__cdr_begin(c);
  header(c, stamp, frame_id);
  sensim__cdr_u32(c, height);
  sensim__cdr_u32(c, width);
  sensim__cdr_u32(c, (uint32_t)(sizeof fields / sizeof fields[0]));
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    sensim__cdr_string(c, fields[i].name);
    sensim__cdr_u32(c, fields[i].offset);
    sensim__cdr_u8(c, fields[i].type);
    sensim__cdr_u32(c, 1);
  }
  sensim__cdr_u8(c, 0); /* is_bigendian */
  sensim__cdr_u32(c, SENSIM__CLOUD_POINT_STEP);
  sensim__cdr_u32(c, (uint32_t)((uint64_t)width * SENSIM__CLOUD_POINT_STEP));
  return sensim__cdr_bytes(c, (size_t)height * width * SENSIM__CLOUD_POINT_STEP);
}

void sensim__ros_cloud_end(sensim__cdr *c, int is_dense) { sensim__cdr_u8(c, is_dense ? 1 : 0); }

void sensim__ros_nav_sat_fix(sensim__cdr *c, uint64_t stamp, const char *frame_id, int8_t status,
                             double lat, double lon, double alt, const double cov[9],
                             uint8_t cov_type) {
  sensim__cdr_begin(c);
  header(c, stamp, frame_id);
  sensim__cdr_i8(c, status);
  sensim__cdr_u16(c, 1); /* SERVICE_GPS */
  sensim__cdr_f64(c, lat);
  sensim__cdr_f64(c, lon);
  sensim__cdr_f64(c, alt);
  sensim__cdr_f64s(c, cov, 9);
  sensim__cdr_u8(c, cov_type);
}

void sensim__ros_imu(sensim__cdr *c, uint64_t stamp, const char *frame_id, const double gyro[3],
                     const double gyro_cov[9], const double accel[3], const double accel_cov[9]) {
  static const double unknown[9] = {-1, 0, 0, 0, 0, 0, 0, 0, 0};
  sensim__cdr_begin(c);
  header(c, stamp, frame_id);
  quat(c, (sensim_quat){1, 0, 0, 0});
  sensim__cdr_f64s(c, unknown, 9);
  vec3(c, gyro[0], gyro[1], gyro[2]);
  sensim__cdr_f64s(c, gyro_cov, 9);
  vec3(c, accel[0], accel[1], accel[2]);
  sensim__cdr_f64s(c, accel_cov, 9);
}

void sensim__ros_magnetic_field(sensim__cdr *c, uint64_t stamp, const char *frame_id,
                                const double field[3], const double cov[9]) {
  sensim__cdr_begin(c);
  header(c, stamp, frame_id);
  vec3(c, field[0], field[1], field[2]);
  sensim__cdr_f64s(c, cov, 9);
}

void sensim__ros_odometry(sensim__cdr *c, uint64_t stamp, const char *frame_id,
                          const char *child_frame_id, sensim_pose pose, const double pose_cov[36],
                          sensim_vec3 lin, sensim_vec3 ang, const double twist_cov[36]) {
  sensim__cdr_begin(c);
  header(c, stamp, frame_id);
  sensim__cdr_string(c, child_frame_id);
  vec3(c, pose.pos.x, pose.pos.y, pose.pos.z);
  quat(c, pose.rot);
  sensim__cdr_f64s(c, pose_cov, 36);
  vec3(c, lin.x, lin.y, lin.z);
  vec3(c, ang.x, ang.y, ang.z);
  sensim__cdr_f64s(c, twist_cov, 36);
}

void sensim__ros_tf_message(sensim__cdr *c, const sensim__ros_transform *t, size_t n) {
  sensim__cdr_begin(c);
  sensim__cdr_u32(c, (uint32_t)n);
  for (size_t i = 0; i < n; i++) {
    header(c, t[i].stamp, t[i].parent);
    sensim__cdr_string(c, t[i].child);
    vec3(c, t[i].pose.pos.x, t[i].pose.pos.y, t[i].pose.pos.z);
    quat(c, t[i].pose.rot);
  }
}

void sensim__ros_radar_fmcw(sensim__cdr *c, sensim__ros_type type, uint64_t stamp, const char *frame_id,
                            const sensim_fmcw_info *h, const void *data, size_t count) {
  static const char *const windows[] = {"rect", "hann", "hamming", "blackman"};
  const uint32_t ch = h->tx * h->rx;
  sensim__cdr_begin(c);
  header(c, stamp, frame_id);
  /* Dimensions in the payload's order: cube [chirp][channel][sample], map
   * [channel][doppler][range]. */
  sensim__cdr_u32(c, type == SENSIM__ROS_RADAR_CUBE ? h->chirps : ch);
  sensim__cdr_u32(c, type == SENSIM__ROS_RADAR_CUBE ? ch : h->chirps);
  sensim__cdr_u32(c, h->samples);
  sensim__cdr_u32(c, h->tx);
  sensim__cdr_u32(c, h->rx);
  sensim__cdr_string(c, windows[h->window & 3]);
  const double v[9] = {h->frequency,    h->sample_rate, h->chirp_slope, h->chirp_interval, h->range_bin,
                       h->velocity_bin, h->noise_power, h->gain,        h->radar_constant};
  for (int i = 0; i < 9; i++) sensim__cdr_f64(c, v[i]);
  unsigned char *at = sensim__cdr_array(c, (uint32_t)(2 * count), 2 * count * sizeof(float));
  if (at && count) memcpy(at, data, 2 * count * sizeof(float));
}
