/* sensim/record.h: ROS 2 recordings of a world's sensors (MCAP).
 *
 * A recorder writes what a robot's ROS 2 drivers would have published, to
 * an MCAP file that ROS 2 tools (ros2 bag, rosbag2_py) and Foxglove open:
 * each message in ROS 2 CDR with its ros2msg schema, chunked and compressed
 * with zstd, with a summary and message indexes so viewers can seek. The
 * file is written under a temporary name and renamed when closed, so a
 * recording that did not finish never looks like one that did.
 *
 * Topics and frames (REP 103 / REP 105). The world is frame "map"; a body
 * named with sensim_recorder_add_body is frame <body name>; a sensor is
 * frame <sensor name>, and a camera also has <sensor name>_optical (z
 * forward, x right, y down), the frame of its images.
 *   camera  /<name>/image_raw   sensor_msgs/msg/Image (encoding from the
 *                               payload: rgb8 for rgba8 (the alpha, always
 *                               255, dropped, as drivers publish), mono8,
 *                               mono16, rgb16,
 *                               32FC1 for depth_f32 and gray_f32, 32FC3
 *                               for rgb_f32, bayer_*16 for raw16); none
 *                               when the chain ends in labels
 *           /<name>/camera_info sensor_msgs/msg/CameraInfo, one per image
 *           /<name>/depth       32FC1 Image of the depth plane, when present
 *           /<name>/class_ids   16UC1 Image of the label plane's class ids
 *           /<name>/instance_ids 32SC1 Image of its instance ids
 *   lidar   /<name>/image_raw   when its chain ends in an image
 *                               ("birdseye", "range_image"), in the
 *                               lidar's own frame, without camera_info;
 *                               a range image's label plane as class_ids
 *                               and instance_ids
 *           /<name>/points      sensor_msgs/msg/PointCloud2, Velodyne
 *                               driver layout: x y z intensity (float32),
 *                               ring (uint16), time (float32, s, per
 *                               lidar_time), return (uint8), then label
 *                               (class id) and instance (uint32), 32 bytes
 *                               a point; organised clouds keep their rows;
 *                               beams are converted
 *   gnss    /<name>/fix         sensor_msgs/msg/NavSatFix with covariance
 *   imu     /<name>/imu         sensor_msgs/msg/Imu (orientation unknown:
 *                               orientation_covariance[0] = -1; rate and
 *                               acceleration covariances the noise
 *                               filters' per-sample variances, frame.h)
 *   magnetometer /<name>/mag    sensor_msgs/msg/MagneticField, covariance
 *                               from the sample's field_var
 * A variance of 0 (an exact value) is recorded as 1e-9, robot_localization's
 * floor, since ROS reads an all-zero covariance as "unknown".
 *   bodies  /tf                 tf2_msgs/msg/TFMessage at tf_rate: map ->
 *                               odom (identity without an odometry error
 *                               model, else the drift) and odom -> <body>
 *                               for each body (REP 105);
 *                               /<body>/odom nav_msgs/msg/Odometry, the
 *                               body's pose in odom (the robot's drifted
 *                               odometry with the model's covariance, the
 *                               others' truth), twist in the body frame
 *   mounts  /tf_static          <body or map> -> <sensor>, and
 *                               <camera> -> <camera>_optical
 * Each message's header.stamp is its frame's capture time; its log time is
 * the frame's delivery time; messages are written in log-time order. */
#ifndef SENSIM_RECORD_H
#define SENSIM_RECORD_H

#include "sensim/export.h"

#include <stddef.h>
#include "sensim/camera.h"
#include "sensim/sensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sensim_recorder sensim_recorder;

/* What the time field of a recorded point cloud counts from. */
typedef enum sensim_lidar_time {
  SENSIM_LIDAR_TIME_FROM_START = 0, /* s since the scan's start (t_capture - window),
                                       >= 0: what Velodyne and Ouster drivers publish */
  SENSIM_LIDAR_TIME_FROM_END        /* s relative to the capture time, <= 0: the
                                       frame's own time_offset */
} sensim_lidar_time;

/* The odometry error model that makes REP 105's odom frame drift from
 * map (docs/recording.md, "Frames"): the robot's odometry integrates its
 * true planar motion with a random walk on each increment, of variance
 * sigma^2 per metre travelled plus sigma_time^2 per second. All 0: no
 * drift, odom == map. */
typedef struct sensim_odom_drift {
  double sigma_xy;       /* x and y (each), m / sqrt(m travelled) [0] */
  double sigma_yaw;      /* yaw, rad / sqrt(m travelled) [0] */
  double sigma_xy_time;  /* x and y (each), m / sqrt(s) [0] */
  double sigma_yaw_time; /* yaw, rad / sqrt(s) [0] */
} sensim_odom_drift;

typedef struct sensim_recorder_params {
  int compress;            /* nonzero: zstd chunks (default); 0: uncompressed */
  int zstd_level;          /* 1..19 [3] */
  size_t chunk_size;       /* bytes of records per chunk before compression [4 MiB] */
  sensim_lidar_time lidar_time;
  double tf_rate;          /* Hz of /tf and odometry for the named bodies [50]; > 0 */
  const char *map_frame;   /* REP 105 world frame ["map"]; copied at open, made a
                              valid ROS name as body names are */
  const char *odom_frame;  /* REP 105 odometry frame ["odom"]; differs from map_frame */
  const char *odom_body;   /* the robot: the name (as added) of the body whose
                              odometry drifts; NULL: the first body added */
  sensim_odom_drift odom_drift; /* all 0 (default): odom == map */
} sensim_recorder_params;

/* Defaults: zstd level 3, 4 MiB chunks, lidar time from the scan start,
 * tf at 50 Hz, frames "map" and "odom" without drift. */
SENSIM_API void sensim_recorder_params_init(sensim_recorder_params *p);

/* Start a recording of `world` into `path` (written as path + a temporary
 * suffix until sensim_recorder_close renames it). `p` NULL: the defaults.
 * SENSIM_EIO when the file cannot be created (the message names the
 * cause: "Not a directory", ...), SENSIM_EINVAL for bad parameters. The
 * temporary file of a recording killed in that folder is kept as
 * "<name>.partial-<pid>.mcap" (a line on stderr says so), not removed. */
SENSIM_API sensim_status sensim_recorder_open(const char *path, sensim_world *world,
                                              const sensim_recorder_params *p,
                                              sensim_recorder **out);

/* Publish body `b` as frame `name` on /tf (odom -> name) and /<name>/odom
 * (from sensim_body_state_at, through map -> odom) and as the parent frame
 * of the sensors it carries. Bodies not added are not published; their sensors' mounts are
 * then given relative to "map" at the time of their first frame. */
SENSIM_API sensim_status sensim_recorder_add_body(sensim_recorder *r, sensim_body *b,
                                                  const char *name);

/* Record a delivered frame of sensor `s` (from sensim_sensor_poll or a
 * frame callback; copied as needed). A sensor's first frame declares its
 * topics and its /tf_static mount. Frames of a payload a topic cannot
 * carry (a cone's detection) are SENSIM_ETYPE. Messages wait until
 * sensim_recorder_advance or _close writes them in log-time order. */
SENSIM_API sensim_status sensim_recorder_write(sensim_recorder *r, const sensim_sensor *s,
                                               const sensim_frame *frame);

/* The world has reached time t: write /tf and odometry of the named
 * bodies up to t at tf_rate, then every recorded message whose log time
 * is <= t, in log-time order (ties: sensor id, then topic). */
SENSIM_API sensim_status sensim_recorder_advance(sensim_recorder *r, double t);

/* Write what remains, the summary (schemas, channels, statistics, chunk
 * and message indexes) and the footer, and rename the file into place.
 * The recorder is freed whatever the result; on failure the temporary
 * file is removed. NULL is a no-op (SENSIM_OK). */
SENSIM_API sensim_status sensim_recorder_close(sensim_recorder *r);

/* Abandon a recording: remove the temporary file and free the recorder. */
SENSIM_API void sensim_recorder_abort(sensim_recorder *r);

/* ---- the files beside a recording, per sensor folder ------------------------ */

/* A camera's calibration as ROS's camera_calibration_parsers write it
 * (image_width, image_height, camera_name, camera_matrix,
 * distortion_model, distortion_coefficients, rectification_matrix,
 * projection_matrix), which OpenCV's FileStorage also reads. plumb_bob
 * for pinhole and Brown-Conrady lenses, rational_polynomial for the
 * rational lens, equidistant for Kannala-Brandt; the lenses ROS has no
 * model for exactly, with sensim's model names: "fov" with D = [w] (w =
 * hfov / 2, rad) and "division" with D = [lambda] (docs/recording.md). */
SENSIM_API sensim_status sensim_write_camera_info_yaml(const char *path, const char *camera_name,
                                                       const sensim_camera_params *cp);

/* For a FOV or division lens, the ROS model nearest it in the same form:
 * plumb_bob (k1 k2 0 0 k3) or equidistant (k1 k2 k3 k4) fitted by least
 * squares to the rays of a grid of pixels over the image (focal lengths
 * refitted, principal point kept), the
 * fitting error stated in a comment line ("# equidistant least-squares
 * fit of sensim's fov lens: 0.01 px rms, 0.05 px at most over the image")
 * and in *rms_px and *max_px (either may be NULL): how far the fitted
 * model images a pixel's ray from that pixel. SENSIM_EINVAL for other
 * lenses (sensim_write_camera_info_yaml is exact for them). */
SENSIM_API sensim_status sensim_write_camera_info_fit_yaml(const char *path, const char *camera_name,
                                                           const sensim_camera_params *cp, double *rms_px,
                                                           double *max_px);

/* The TUM trajectory format: one line per frame, "t tx ty tz qx qy qz qw"
 * (capture time s, the sensor's true pose in the world). Opens `path` for
 * appending a frame at a time. */
SENSIM_API sensim_status sensim_tum_append(const char *path, const sensim_frame *frame);

#ifdef __cplusplus
}
#endif
#endif
