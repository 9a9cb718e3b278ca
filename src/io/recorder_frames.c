/* io/recorder_frames.c: a delivered frame as the ROS 2 messages its
 * sensor's driver would publish (topics and frames: sensim/record.h).
 *
 * Frames: a sensor is frame <name> (REP 103: x forward, y left, z up); a
 * camera's images and camera_info are in <name>_optical (REP 103's
 * "_optical" suffix convention: z forward, x right, y down), which is
 * what image_geometry and every rectification node assume. The mount goes
 * to /tf_static at the sensor's first frame: relative to the body's frame
 * when the body was added to the recording, else to "map". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "io/camera_info.h"
#include "io/recorder_internal.h"

/* The camera frame turned into the optical one: x_opt = -Y, y_opt = -Z,
 * z_opt = X (camera.h), i.e. roll -pi/2 then yaw -pi/2, the static
 * transform every ROS camera driver publishes. Quaternion w x y z. */
static const sensim_quat optical_rot = {0.5, -0.5, 0.5, -0.5};

/* sensor_msgs/image_encodings.hpp names of the image payloads; NULL for
 * payloads that are not images here. Labels are split into two images. */
static const char *image_encoding(const sensim_frame *f) {
  switch (f->type) {
    case SENSIM_PAYLOAD_RGBA8: return "rgba8";
    case SENSIM_PAYLOAD_GRAY8: return "mono8";
    case SENSIM_PAYLOAD_GRAY16: return "mono16";
    case SENSIM_PAYLOAD_RGB16: return "rgb16";
    case SENSIM_PAYLOAD_RGB_F32: return "32FC3";
    case SENSIM_PAYLOAD_DEPTH_F32:
    case SENSIM_PAYLOAD_GRAY_F32:
    case SENSIM_PAYLOAD_RAW_F32: return "32FC1";
    case SENSIM_PAYLOAD_RAW16:
      switch (f->cfa) {
        case SENSIM_CFA_RGGB: return "bayer_rggb16";
        case SENSIM_CFA_BGGR: return "bayer_bggr16";
        case SENSIM_CFA_GRBG: return "bayer_grbg16";
        case SENSIM_CFA_GBRG: return "bayer_gbrg16";
        default: return "mono16";
      }
    default: return NULL;
  }
}

int sensim__rec_frame_supported(const sensim_frame *f) {
  if (image_encoding(f) || f->type == SENSIM_PAYLOAD_LABELS) {
    if (!f->data && f->count) return 0;
    return (size_t)f->width * f->height == f->count;
  }
  switch (f->type) {
    case SENSIM_PAYLOAD_POINTS:
    case SENSIM_PAYLOAD_BEAMS: return f->data || !f->count;
    case SENSIM_PAYLOAD_GNSS:
    case SENSIM_PAYLOAD_IMU:
    case SENSIM_PAYLOAD_MAG: return f->data && f->count >= 1;
    case SENSIM_PAYLOAD_RADAR_CUBE:
    case SENSIM_PAYLOAD_RADAR_RD:
      return f->data && f->count == (size_t)f->fmcw.tx * f->fmcw.rx * f->fmcw.chirps * f->fmcw.samples &&
             f->count <= UINT32_MAX / 2;
    default: return 0;
  }
}

/* The channel of one of the sensor's topics, made on first use. */
static sensim_status topic(sensim_recorder *r, rec_sensor *rs, int which, sensim__ros_type type,
                           const char *suffix, uint16_t *id) {
  if (!rs->channel[which]) {
    char *t = malloc(strlen(rs->frame) + strlen(suffix) + 3);
    if (!t) return sensim__fail(SENSIM_ENOMEM, "out of memory naming a topic");
    sprintf(t, "/%s/%s", rs->frame, suffix);
    sensim_status st = sensim__rec_channel(r, type, t, 0, &rs->channel[which]);
    free(t);
    if (st) return st;
  }
  *id = rs->channel[which];
  return SENSIM_OK;
}

sensim_status sensim__rec_declare(sensim_recorder *r, const sensim_sensor *s, rec_sensor *rs,
                                  const sensim_frame *f) {
  const sensim_sensor_params *sp = sensim_sensor_params_get(s);
  if (!sp) return sensim__fail(SENSIM_EINVAL, "sensor %d has no parameters", f->sensor_id);
  free(rs->frame);
  free(rs->optical);
  rs->optical = NULL;
  rs->frame = sensim__rec_ros_name(sp->name ? sp->name : "sensor");
  if (!rs->frame) return sensim__fail(SENSIM_ENOMEM, "out of memory naming a frame");
  rs->is_camera = strcmp(sensim_sensor_kind_name(s), "camera") == 0;
  if (rs->is_camera) {
    sensim_status st = sensim_camera_params_get(s, &rs->cp);
    if (st) return st;
    rs->optical = malloc(strlen(rs->frame) + 9);
    if (!rs->optical) return sensim__fail(SENSIM_ENOMEM, "out of memory naming a frame");
    sprintf(rs->optical, "%s_optical", rs->frame);
  }
  const char *parent = r->map_frame;
  sensim_pose mount = sp->mount;
  if (sp->body) {
    size_t i = 0;
    while (i < r->nbodies && r->bodies[i].body != sp->body) i++;
    if (i < r->nbodies) parent = r->bodies[i].frame;
    else mount = f->pose; /* a body not published: where the sensor was at its first frame */
  }
  /* Each /tf_static message holds every mount declared up to its log
   * time, as tf2's StaticTransformBroadcaster sends all its transforms
   * each time (a player latches only the topic's last message for late
   * subscribers); it is encoded when written (io/recorder.c). */
  const uint64_t stamp = sensim__rec_ns(f->t_capture), log = sensim__rec_ns(f->t_deliver);
  if (sensim__grow((void **)&r->statics, &r->statics_cap, r->nstatics + 2, sizeof *r->statics))
    return SENSIM_ENOMEM;
  r->statics[r->nstatics++] = (rec_static){{stamp, parent, rs->frame, mount}, log};
  if (rs->is_camera)
    r->statics[r->nstatics++] =
        (rec_static){{stamp, rs->frame, rs->optical, {{0, 0, 0}, optical_rot}}, log};
  return sensim__rec_end(r, sensim__rec_begin(r), log, f->sensor_id, r->tf_static);
}

/* ---- cameras --------------------------------------------------------------- */

/* K, D, R and P of sensor_msgs/CameraInfo from the camera's parameters,
 * for images of w x h pixels: the intrinsics follow an image rescaled by
 * a filter, pixel centres at integers (camera.h) on both sides. */
static void camera_info(sensim_recorder *r, const rec_sensor *rs, const sensim_frame *f,
                        uint64_t stamp, uint16_t ch, sensim_status *st) {
  const sensim_camera_params *cp = &rs->cp;
  /* K, D, R, P as the camera_info YAML beside the recording has them
   * (io/camera_info.h), for the pixels the chain delivered (a
   * "downsample" filter's blocks); the FOV and division lenses, which ROS
   * has no model for, exactly, as sensim's "fov" and "division". */
  sensim_camera_params scaled;
  sensim__camera_info ci;
  sensim_status s = sensim__camera_params_for_image(cp, f->width, f->height, f->binning, &scaled);
  if (!s) s = sensim__camera_info_from_params(&scaled, &ci);
  if (s) {
    *st = s;
    return;
  }
  const double *d = ci.D;
  const size_t nd = (size_t)ci.nd;
  const char *model = ci.model;
  const double *k = ci.K, *rr = ci.R, *p = ci.P;
  size_t at = sensim__rec_begin(r);
  sensim__ros_camera_info(&r->queue, stamp, rs->optical, f->height, f->width, model, d, nd, k, rr, p);
  *st = sensim__rec_end(r, at, sensim__rec_ns(f->t_deliver), f->sensor_id, ch);
}

/* One image message of raw rows. */
static sensim_status image(sensim_recorder *r, const sensim_frame *f, uint16_t ch,
                           const char *frame_id, const char *encoding, const void *px,
                           size_t elem) {
  size_t at = sensim__rec_begin(r);
  unsigned char *dst = sensim__ros_image(&r->queue, sensim__rec_ns(f->t_capture), frame_id, f->height,
                                         f->width, encoding, (uint32_t)(f->width * elem));
  if (dst) memcpy(dst, px, (size_t)f->width * f->height * elem);
  return sensim__rec_end(r, at, sensim__rec_ns(f->t_deliver), f->sensor_id, ch);
}

/* A depth (or range) plane as a 32FC1 image of REP 118: sensim's 0
 * ("nothing hit", frame.h) becomes +Inf, REP 117's "no return within
 * range", and a negative or NaN depth NaN, "invalid". depth_image_proc
 * (depth_traits.hpp: a float depth is valid when finite) then makes no
 * point of either, where a 0 would become a point at the camera's
 * origin. 16UC1 images keep 0, which REP 118 reserves for "no depth". */
static sensim_status depth_image(sensim_recorder *r, const sensim_frame *f, uint16_t ch,
                                 const char *frame_id, const float *depth) {
  size_t at = sensim__rec_begin(r);
  unsigned char *dst = sensim__ros_image(&r->queue, sensim__rec_ns(f->t_capture), frame_id, f->height,
                                         f->width, "32FC1", f->width * 4);
  const size_t n = (size_t)f->width * f->height;
  if (dst)
    for (size_t i = 0; i < n; i++) {
      float d = depth[i];
      if (d == 0) d = INFINITY;
      else if (!(d > 0)) d = NAN;
      memcpy(dst + 4 * i, &d, 4);
    }
  return sensim__rec_end(r, at, sensim__rec_ns(f->t_deliver), f->sensor_id, ch);
}

/* A camera's rgba8 as rgb8, what camera drivers publish: its alpha is
 * always opaque (the "srgb8" and "quantize" filters write 255). */
static sensim_status image_rgb8(sensim_recorder *r, const sensim_frame *f, uint16_t ch,
                                const char *frame_id) {
  size_t at = sensim__rec_begin(r);
  unsigned char *dst = sensim__ros_image(&r->queue, sensim__rec_ns(f->t_capture), frame_id, f->height,
                                         f->width, "rgb8", f->width * 3);
  const unsigned char *src = f->data;
  const size_t n = (size_t)f->width * f->height;
  if (dst)
    for (size_t i = 0; i < n; i++) memcpy(dst + 3 * i, src + 4 * i, 3);
  return sensim__rec_end(r, at, sensim__rec_ns(f->t_deliver), f->sensor_id, ch);
}

/* The label plane as two images: 16UC1 class ids, 32SC1 instance ids. */
static sensim_status labels(sensim_recorder *r, rec_sensor *rs, const sensim_frame *f,
                            const sensim_label *lab, const char *frame_id) {
  uint16_t ch = 0;
  sensim_status st = topic(r, rs, TOPIC_CLASS_IDS, SENSIM__ROS_IMAGE, "class_ids", &ch);
  if (st) return st;
  const size_t n = (size_t)f->width * f->height;
  const uint64_t stamp = sensim__rec_ns(f->t_capture), log = sensim__rec_ns(f->t_deliver);
  size_t at = sensim__rec_begin(r);
  unsigned char *dst = sensim__ros_image(&r->queue, stamp, frame_id, f->height, f->width, "16UC1", f->width * 2);
  if (dst)
    for (size_t i = 0; i < n; i++) memcpy(dst + 2 * i, &lab[i].class_id, 2);
  if ((st = sensim__rec_end(r, at, log, f->sensor_id, ch))) return st;
  if ((st = topic(r, rs, TOPIC_INSTANCE_IDS, SENSIM__ROS_IMAGE, "instance_ids", &ch))) return st;
  at = sensim__rec_begin(r);
  dst = sensim__ros_image(&r->queue, stamp, frame_id, f->height, f->width, "32SC1", f->width * 4);
  if (dst)
    for (size_t i = 0; i < n; i++) memcpy(dst + 4 * i, &lab[i].instance_id, 4);
  return sensim__rec_end(r, at, log, f->sensor_id, ch);
}

static sensim_status camera_frame(sensim_recorder *r, rec_sensor *rs, const sensim_frame *f) {
  const char *frame_id = rs->optical ? rs->optical : rs->frame;
  const char *enc = image_encoding(f);
  uint16_t ch = 0;
  sensim_status st = SENSIM_OK;
  if (enc) {
    if ((st = topic(r, rs, TOPIC_MAIN, SENSIM__ROS_IMAGE, "image_raw", &ch))) return st;
    if (rs->is_camera && f->type == SENSIM_PAYLOAD_RGBA8) st = image_rgb8(r, f, ch, frame_id);
    else if (f->type == SENSIM_PAYLOAD_DEPTH_F32) st = depth_image(r, f, ch, frame_id, f->data);
    else st = image(r, f, ch, frame_id, enc, f->data, sensim_payload_elem_size(f->type));
    if (st) return st;
  } else if ((st = labels(r, rs, f, f->data, frame_id))) {
    return st;
  }
  if (rs->is_camera) {
    if ((st = topic(r, rs, TOPIC_CAMERA_INFO, SENSIM__ROS_CAMERA_INFO, "camera_info", &ch))) return st;
    camera_info(r, rs, f, sensim__rec_ns(f->t_capture), ch, &st);
    if (st) return st;
  }
  if (f->depth) {
    if ((st = topic(r, rs, TOPIC_DEPTH, SENSIM__ROS_IMAGE, "depth", &ch))) return st;
    if ((st = depth_image(r, f, ch, frame_id, f->depth))) return st;
  }
  if (f->labels && f->type != SENSIM_PAYLOAD_LABELS) st = labels(r, rs, f, f->labels, frame_id);
  return st;
}

/* ---- lidars ------------------------------------------------------------------ */

/* The time field: offset from the capture time plus t0, the capture time
 * less the stamp (the window, or 0). The first beam of a scan fires at
 * the window's start, and its float offset may round a few ns beyond it:
 * from the start, times stay >= 0 (a scan that began before time 0 keeps
 * its negative times, as its stamp cannot go below the epoch). */
static float point_time(float offset, double t0) {
  double t = offset + t0;
  return (float)(t0 > 0 && t < 0 && t > -1e-6 ? 0 : t);
}

static void put_point(unsigned char *d, float x, float y, float z, float intensity, uint16_t ring,
                      float time, uint8_t ret, uint16_t class_id, uint32_t instance_id) {
  const uint32_t label = class_id;
  memcpy(d + SENSIM__CLOUD_X, &x, 4);
  memcpy(d + SENSIM__CLOUD_Y, &y, 4);
  memcpy(d + SENSIM__CLOUD_Z, &z, 4);
  memcpy(d + SENSIM__CLOUD_INTENSITY, &intensity, 4);
  memcpy(d + SENSIM__CLOUD_RING, &ring, 2);
  memcpy(d + SENSIM__CLOUD_TIME, &time, 4);
  d[SENSIM__CLOUD_RETURN] = ret;
  d[SENSIM__CLOUD_RETURN + 1] = 0;
  memcpy(d + SENSIM__CLOUD_LABEL, &label, 4);
  memcpy(d + SENSIM__CLOUD_INSTANCE, &instance_id, 4);
}

/* PointCloud2 of a points frame (organised ones keep their rows) or of
 * raw beams (the returns, converted as the "points" filter does: range
 * along the direction (azimuth, elevation) of the sensor frame). The time
 * field counts from the scan's start (t_capture - window) or is the
 * frame's own offset from the capture time, as the recorder was set. */
static sensim_status cloud_frame(sensim_recorder *r, rec_sensor *rs, const sensim_frame *f) {
  /* The stamp is the instant the time field counts from, so that stamp +
   * time is each point's firing time, as LIO-SAM (imageProjection.cpp:
   * timeScanCur = header.stamp, point time added to it) and FAST-LIO
   * (preprocess.cpp: curvature = time offset from the header stamp) read
   * it: the first firing with "start", the capture time (the end of the
   * scan) with "end". */
  const int from_start = r->p.lidar_time == SENSIM_LIDAR_TIME_FROM_START;
  /* A scan that began before time 0 (the first ones of a run) has no
   * stamp there: ROS times are not negative (rclcpp::Time refuses them),
   * and one clamped to 0 would repeat the next scan's. It is left out, as
   * a driver started at time 0 publishes its first scan a revolution
   * later. */
  if (from_start && f->t_capture - f->window < -0.5e-9) return SENSIM_OK;
  const uint64_t stamp = sensim__rec_ns(from_start ? f->t_capture - f->window : f->t_capture);
  const double t0 = f->t_capture - (double)stamp * 1e-9;
  uint16_t ch = 0;
  sensim_status st = topic(r, rs, TOPIC_MAIN, SENSIM__ROS_POINT_CLOUD2, "points", &ch);
  if (st) return st;
  uint32_t h = 1, w;
  if (f->type == SENSIM_PAYLOAD_POINTS) {
    if (f->height > 1 && (size_t)f->width * f->height == f->count) {
      h = f->height;
      w = f->width;
    } else {
      w = (uint32_t)f->count;
    }
  } else {
    const sensim_beam *b = f->data;
    size_t n = 0;
    for (size_t i = 0; i < f->count; i++) n += b[i].range > 0 && isfinite(b[i].range);
    w = (uint32_t)n;
  }
  size_t at = sensim__rec_begin(r);
  unsigned char *d = sensim__ros_cloud_begin(&r->queue, stamp, rs->frame, h, w);
  int dense = 1;
  if (d && f->type == SENSIM_PAYLOAD_POINTS) {
    const sensim_point *p = f->data;
    for (size_t i = 0; i < (size_t)h * w; i++, d += SENSIM__CLOUD_POINT_STEP) {
      dense &= isfinite(p[i].x) && isfinite(p[i].y) && isfinite(p[i].z);
      put_point(d, p[i].x, p[i].y, p[i].z, p[i].intensity, p[i].ring,
                point_time(p[i].time_offset, t0), p[i].return_index, p[i].class_id, p[i].instance_id);
    }
  } else if (d) {
    const sensim_beam *b = f->data;
    for (size_t i = 0; i < f->count; i++) {
      if (!(b[i].range > 0 && isfinite(b[i].range))) continue;
      const double ce = cos(b[i].elevation), rg = b[i].range;
      put_point(d, (float)(rg * ce * cos(b[i].azimuth)), (float)(rg * ce * sin(b[i].azimuth)),
                (float)(rg * sin(b[i].elevation)), b[i].intensity, b[i].ring,
                point_time(b[i].time_offset, t0), b[i].return_index, b[i].class_id, b[i].instance_id);
      d += SENSIM__CLOUD_POINT_STEP;
    }
  }
  sensim__ros_cloud_end(&r->queue, dense);
  return sensim__rec_end(r, at, sensim__rec_ns(f->t_deliver), f->sensor_id, ch);
}

/* ---- navigation sensors --------------------------------------------------- */

static sensim_status nav_frame(sensim_recorder *r, rec_sensor *rs, const sensim_frame *f) {
  uint16_t ch = 0;
  sensim_status st;
  const uint64_t stamp = sensim__rec_ns(f->t_capture);
  size_t at;
  if (f->type == SENSIM_PAYLOAD_GNSS) {
    if ((st = topic(r, rs, TOPIC_MAIN, SENSIM__ROS_NAV_SAT_FIX, "fix", &ch))) return st;
    const sensim_gnss_fix *g = f->data;
    /* cov_enu is the NavSatFix order already (east, north, up); without
     * a fix the position is not valid and neither is its covariance. */
    const int fix = g->fix_type > 0;
    at = sensim__rec_begin(r);
    sensim__ros_nav_sat_fix(&r->queue, stamp, rs->frame, fix ? 0 : -1, g->lat, g->lon, g->height,
                            g->cov_enu, fix ? 3 : 0);
  } else if (f->type == SENSIM_PAYLOAD_IMU) {
    if ((st = topic(r, rs, TOPIC_MAIN, SENSIM__ROS_IMU, "imu", &ch))) return st;
    const sensim_imu_sample *s = f->data;
    /* Per-axis white-noise variances the noise filters put on the sample
     * (frame.h), uncorrelated between axes. */
    double gc[9], ac[9];
    sensim__rec_diag_cov(s->gyro_var, 3, gc);
    sensim__rec_diag_cov(s->accel_var, 3, ac);
    at = sensim__rec_begin(r);
    sensim__ros_imu(&r->queue, stamp, rs->frame, s->gyro, gc, s->accel, ac);
  } else {
    if ((st = topic(r, rs, TOPIC_MAIN, SENSIM__ROS_MAGNETIC_FIELD, "mag", &ch))) return st;
    const sensim_mag_sample *m = f->data;
    double mc[9];
    sensim__rec_diag_cov(m->field_var, 3, mc);
    at = sensim__rec_begin(r);
    sensim__ros_magnetic_field(&r->queue, stamp, rs->frame, m->field, mc);
  }
  return sensim__rec_end(r, at, sensim__rec_ns(f->t_deliver), f->sensor_id, ch);
}

/* ---- the radar's raw FMCW frames ------------------------------------------ */

static sensim_status fmcw_frame(sensim_recorder *r, rec_sensor *rs, const sensim_frame *f) {
  const int cube = f->type == SENSIM_PAYLOAD_RADAR_CUBE;
  const sensim__ros_type type = cube ? SENSIM__ROS_RADAR_CUBE : SENSIM__ROS_RADAR_RANGE_DOPPLER;
  uint16_t ch = 0;
  sensim_status st = topic(r, rs, TOPIC_MAIN, type, cube ? "radar_cube" : "range_doppler", &ch);
  if (st) return st;
  size_t at = sensim__rec_begin(r);
  sensim__ros_radar_fmcw(&r->queue, type, sensim__rec_ns(f->t_capture), rs->frame, &f->fmcw, f->data, f->count);
  return sensim__rec_end(r, at, sensim__rec_ns(f->t_deliver), f->sensor_id, ch);
}

sensim_status sensim__rec_frame(sensim_recorder *r, const sensim_sensor *s, rec_sensor *rs,
                                const sensim_frame *f) {
  (void)s;
  switch (f->type) {
    case SENSIM_PAYLOAD_RADAR_CUBE:
    case SENSIM_PAYLOAD_RADAR_RD: return fmcw_frame(r, rs, f);
    case SENSIM_PAYLOAD_POINTS:
    case SENSIM_PAYLOAD_BEAMS: return cloud_frame(r, rs, f);
    case SENSIM_PAYLOAD_GNSS:
    case SENSIM_PAYLOAD_IMU:
    case SENSIM_PAYLOAD_MAG: return nav_frame(r, rs, f);
    default: return camera_frame(r, rs, f);
  }
}
