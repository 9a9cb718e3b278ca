/* io/ros_msgs.h: the ROS 2 messages a recording holds, each as its
 * ros2msg schema (the .msg text with the definitions it depends on
 * appended the way rosbag2 stores them) and a CDR encoder writing its
 * fields in the order the .msg files of ROS 2 Humble declare them
 * (common_interfaces: sensor_msgs, geometry_msgs, nav_msgs, std_msgs;
 * geometry2: tf2_msgs; rcl_interfaces: builtin_interfaces). */
#ifndef SENSIM_IO_ROS_MSGS_H
#define SENSIM_IO_ROS_MSGS_H

#include <stddef.h>
#include <stdint.h>
#include "io/cdr.h"
#include "sensim/frame.h"
#include "sensim/types.h"

typedef enum sensim__ros_type {
  SENSIM__ROS_IMAGE = 0,
  SENSIM__ROS_CAMERA_INFO,
  SENSIM__ROS_POINT_CLOUD2,
  SENSIM__ROS_NAV_SAT_FIX,
  SENSIM__ROS_IMU,
  SENSIM__ROS_MAGNETIC_FIELD,
  SENSIM__ROS_ODOMETRY,
  SENSIM__ROS_TF_MESSAGE,
  SENSIM__ROS_RADAR_CUBE,
  SENSIM__ROS_RADAR_RANGE_DOPPLER,
  SENSIM__ROS_TYPES
} sensim__ros_type;

/* "sensor_msgs/msg/Image", ... */
const char *sensim__ros_type_name(sensim__ros_type t);
/* The ros2msg schema text. */
const char *sensim__ros_schema(sensim__ros_type t);

/* Every encoder starts a message at the end of c's buffer (encapsulation
 * header included). Stamps are ns since the simulation's epoch. */

/* sensor_msgs/msg/Image: returns where height * step bytes of pixels go
 * (NULL when out of memory). */
unsigned char *sensim__ros_image(sensim__cdr *c, uint64_t stamp, const char *frame_id,
                                 uint32_t height, uint32_t width, const char *encoding,
                                 uint32_t step);

/* sensor_msgs/msg/CameraInfo, binning 0 and an empty region of interest. */
void sensim__ros_camera_info(sensim__cdr *c, uint64_t stamp, const char *frame_id,
                             uint32_t height, uint32_t width, const char *distortion_model,
                             const double *d, size_t nd, const double k[9], const double r[9],
                             const double p[12]);

/* sensor_msgs/msg/PointCloud2 in the point layout below: returns where
 * height * width * SENSIM__CLOUD_POINT_STEP bytes of points go; finish with
 * sensim__ros_cloud_end. */
#define SENSIM__CLOUD_POINT_STEP 32
enum { /* byte offsets of the fields in a point: Velodyne's x y z intensity ring
          time, then the return index, a zero byte, and the semantic ids:
          label (the class id, uint32 as PCL's PointXYZL holds it) and
          instance (uint32) */
  SENSIM__CLOUD_X = 0, SENSIM__CLOUD_Y = 4, SENSIM__CLOUD_Z = 8, SENSIM__CLOUD_INTENSITY = 12,
  SENSIM__CLOUD_RING = 16, SENSIM__CLOUD_TIME = 18, SENSIM__CLOUD_RETURN = 22,
  SENSIM__CLOUD_LABEL = 24, SENSIM__CLOUD_INSTANCE = 28
};
unsigned char *sensim__ros_cloud_begin(sensim__cdr *c, uint64_t stamp, const char *frame_id,
                                       uint32_t height, uint32_t width);
void sensim__ros_cloud_end(sensim__cdr *c, int is_dense);

/* sensor_msgs/msg/NavSatFix; status as NavSatStatus (-1 no fix, 0 fix),
 * service 1 (GPS). */
void sensim__ros_nav_sat_fix(sensim__cdr *c, uint64_t stamp, const char *frame_id, int8_t status,
                             double lat, double lon, double alt, const double cov[9],
                             uint8_t cov_type);

/* sensor_msgs/msg/Imu with orientation unknown (identity quaternion,
 * orientation_covariance[0] = -1) and the given row-major 3 x 3
 * covariances of the rates (rad/s)^2 and of the accelerations (m/s^2)^2. */
void sensim__ros_imu(sensim__cdr *c, uint64_t stamp, const char *frame_id, const double gyro[3],
                     const double gyro_cov[9], const double accel[3], const double accel_cov[9]);

/* sensor_msgs/msg/MagneticField, T, with its row-major 3 x 3 covariance, T^2. */
void sensim__ros_magnetic_field(sensim__cdr *c, uint64_t stamp, const char *frame_id,
                                const double field[3], const double cov[9]);

/* nav_msgs/msg/Odometry: pose of child in frame_id, twist in child's frame,
 * with row-major 6 x 6 covariances (x y z, then rotations about x y z). */
void sensim__ros_odometry(sensim__cdr *c, uint64_t stamp, const char *frame_id,
                          const char *child_frame_id, sensim_pose pose, const double pose_cov[36],
                          sensim_vec3 lin, sensim_vec3 ang, const double twist_cov[36]);

/* sensim_msgs/msg/RadarCube (radar_cube frames) or RadarRangeDoppler
 * (radar_rd): the frame's fmcw header (frame.h) and `count` complex
 * samples as float32[] data of 2 count values, real part first, in the
 * payload's layout. type is SENSIM__ROS_RADAR_CUBE or _RANGE_DOPPLER. */
void sensim__ros_radar_fmcw(sensim__cdr *c, sensim__ros_type type, uint64_t stamp, const char *frame_id,
                            const sensim_fmcw_info *h, const void *data, size_t count);

/* One geometry_msgs/msg/TransformStamped: child's pose in parent. */
typedef struct sensim__ros_transform {
  uint64_t stamp;
  const char *parent, *child;
  sensim_pose pose;
} sensim__ros_transform;

/* tf2_msgs/msg/TFMessage of n transforms. */
void sensim__ros_tf_message(sensim__cdr *c, const sensim__ros_transform *t, size_t n);

#endif
