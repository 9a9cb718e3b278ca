/* sensim/frame.h: the frames sensors deliver.
 *
 * A frame is a typed buffer with a header. The primary payload is `data`,
 * whose layout `type` names; camera frames may also carry a depth and a
 * label plane that ride along through the filter chain untouched. A frame
 * handed to the host by sensim_sensor_poll() belongs to the library and is
 * valid until the next poll of the same sensor. */
#ifndef SENSIM_FRAME_H
#define SENSIM_FRAME_H

#include "sensim/export.h"

#include <stddef.h>
#include <stdint.h>
#include "sensim/status.h"
#include "sensim/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sensim_payload {
  SENSIM_PAYLOAD_NONE = 0,
  SENSIM_PAYLOAD_RGB_F32,   /* width x height x 3 float, linear radiance, row 0 on top */
  SENSIM_PAYLOAD_RGBA8,     /* width x height x 4 uint8, encoded ("srgb8": sRGB; "quantize": its tone curve) */
  SENSIM_PAYLOAD_GRAY8,     /* width x height uint8 */
  SENSIM_PAYLOAD_GRAY16,    /* width x height uint16 */
  SENSIM_PAYLOAD_DEPTH_F32, /* width x height float, m (see camera.h for which depth);
                               0 where nothing was hit (a ROS recording writes +Inf
                               there and NaN for a negative or NaN value, REP 118;
                               a 16-bit PNG keeps 0) */
  SENSIM_PAYLOAD_LABELS,    /* width x height sensim_label */
  SENSIM_PAYLOAD_BEAMS,     /* count sensim_beam (lidar returns before conversion) */
  SENSIM_PAYLOAD_POINTS,    /* count sensim_point in the sensor frame */
  SENSIM_PAYLOAD_GNSS,      /* count == 1 sensim_gnss_fix */
  SENSIM_PAYLOAD_IMU,       /* count == 1 sensim_imu_sample */
  SENSIM_PAYLOAD_RAW_F32,   /* width x height float, one colour per pixel (frame.cfa) */
  SENSIM_PAYLOAD_RAW16,     /* width x height uint16 digital numbers, Bayer mosaic (frame.cfa) */
  SENSIM_PAYLOAD_RGB16,     /* width x height x 3 uint16 */
  SENSIM_PAYLOAD_GRAY_F32,  /* width x height float */
  SENSIM_PAYLOAD_MAG,       /* count == 1 sensim_mag_sample */
  SENSIM_PAYLOAD_DETECTION, /* count == 1 sensim_detection (cone sensor) */
  SENSIM_PAYLOAD_RADAR,     /* count sensim_radar_detection (radar.h), nearest first */
  SENSIM_PAYLOAD_RADAR_CUBE, /* FMCW ADC samples: width = samples per chirp, height = chirps x
                                channels, sensim_complex32 [chirp][channel][sample]; frame.fmcw */
  SENSIM_PAYLOAD_RADAR_RD,  /* range-Doppler map per channel: width = range bins, height =
                               channels x Doppler bins, sensim_complex32 [channel][doppler][range]
                               (Doppler fftshifted: bin d is v = (d - doppler/2) velocity_bin);
                               frame.fmcw */
  SENSIM_PAYLOAD_ANY        /* filters only: takes any payload and gives it back */
} sensim_payload;

/* Colour filter array layouts, named by the 2 x 2 cell read left to right,
 * top to bottom, starting at pixel (0, 0). */
typedef enum sensim_cfa {
  SENSIM_CFA_NONE = 0,
  SENSIM_CFA_RGGB,
  SENSIM_CFA_BGGR,
  SENSIM_CFA_GRBG,
  SENSIM_CFA_GBRG
} sensim_cfa;

/* What the numbers of a float image mean at this point of the chain. */
typedef enum sensim_image_unit {
  SENSIM_UNIT_RADIANCE = 0, /* linear scene radiance, as the camera renders it */
  SENSIM_UNIT_ELECTRONS,    /* collected charge per pixel, e- (after "image_sensor") */
  SENSIM_UNIT_SIGNAL        /* normalised digital signal, 0 = black, 1 = full scale */
} sensim_image_unit;

/* What each sample of a payload's elements is. */
typedef enum sensim_sample {
  SENSIM_SAMPLE_NONE = 0, /* NONE, ANY and values outside the enum */
  SENSIM_SAMPLE_U8,       /* uint8_t */
  SENSIM_SAMPLE_U16,      /* uint16_t, host byte order */
  SENSIM_SAMPLE_F32,      /* float */
  SENSIM_SAMPLE_STRUCT    /* the element is one C struct below (sensim_label,
                             sensim_point, sensim_gnss_fix, ...) */
} sensim_sample;

/* Name of a payload type ("rgb_f32", "points", ...); never NULL: "unknown"
 * for a value outside the enum. */
SENSIM_API const char *sensim_payload_name(sensim_payload type);

/* The payload type whose sensim_payload_name is `name` (case-sensitive;
 * "none" and "any" included). SENSIM_ENOTFOUND for any other name (the
 * message lists the known ones), SENSIM_EINVAL for NULL; *out is written
 * only on success. */
SENSIM_API sensim_status sensim_payload_from_name(const char *name, sensim_payload *out);

/* 1 if frames of this type are images (width x height pixels, row 0 on
 * top, pixel (x, y) at element y * width + x); 0 for records (count
 * elements: points, fixes, samples), NONE, ANY and values outside the
 * enum. */
SENSIM_API int sensim_payload_is_image(sensim_payload type);

/* Samples per element: 1, 3 or 4 for images of u8, u16 or f32 samples
 * (interleaved: rgb_f32 is R, G, B floats per pixel), 1 for payloads whose
 * element is a struct, 0 for NONE, ANY and values outside the enum. The
 * element size is channels times the sample's size, or the struct's. */
SENSIM_API int sensim_payload_channels(sensim_payload type);

/* The type of each sample (SENSIM_SAMPLE_NONE for NONE, ANY and values
 * outside the enum). */
SENSIM_API sensim_sample sensim_payload_sample(sensim_payload type);

typedef struct sensim_label {
  uint16_t class_id;    /* body's class id, 0 where nothing was hit */
  uint32_t instance_id; /* body's instance id, 0 where nothing was hit */
} sensim_label;

typedef struct sensim_beam {
  float range;          /* m along the beam; 0 = no return */
  float intensity;      /* reflectance x |cos(incidence)|, [0, 1] */
  float azimuth;        /* rad, counter-clockwise from sensor +X about +Z */
  float elevation;      /* rad, up from the sensor's XY plane */
  float time_offset;    /* s, firing time minus the frame's capture time (<= 0) */
  uint16_t ring;        /* channel index, 0 = lowest elevation */
  uint8_t return_index; /* 0 = first (strongest in basic mode) return */
  uint8_t pad;          /* zero */
  uint16_t class_id;    /* class id of the body this return came from (its
                           sensim_body_params.class_id); 0 for no return or
                           an unlabelled body (docs/lidar.md, "Semantic ids") */
  uint16_t pad2;        /* zero; keeps instance_id on its 4-byte boundary */
  uint32_t instance_id; /* instance id of that body, as the camera's label
                           plane gives it; 0 for no return */
} sensim_beam;

typedef struct sensim_point {
  float x, y, z;        /* m, in the sensor frame as it was when this point's
                           beam fired (a real scanner's output: motion
                           distortion included; time_offset allows deskewing) */
  float intensity;      /* as sensim_beam.intensity */
  float time_offset;    /* s, firing time minus the frame's capture time (<= 0) */
  uint16_t ring;        /* channel index, 0 = lowest elevation */
  uint8_t return_index; /* 0 = first return */
  uint8_t pad;          /* zero */
  uint16_t class_id;    /* as sensim_beam.class_id: the body hit, 0 = none */
  uint16_t pad2;        /* zero */
  uint32_t instance_id; /* as sensim_beam.instance_id, 0 = none */
} sensim_point;

typedef struct sensim_gnss_fix {
  double lat, lon;        /* WGS84 geodetic latitude and longitude, deg */
  double height;          /* WGS84 ellipsoidal height, m */
  double enu[3];          /* position in the world's ENU frame, m */
  double vel_enu[3];      /* velocity in ENU, m/s */
  double cov_enu[9];      /* reported position covariance (row-major 3x3), m^2 */
  double origin[3];       /* the world's ENU origin: lat deg, lon deg, height m */
  double speed;           /* speed over ground (horizontal), m/s */
  double course;          /* course over ground, deg clockwise from true north, [0, 360) */
  double hdop, vdop, pdop; /* dilution of precision reported; 0 = not reported */
  int satellites;         /* satellites used in the fix; 0 = not reported */
  int fix_type;           /* 0 no fix (outage: position fields are not valid),
                             1 GPS fix (NMEA GGA quality 1) */
} sensim_gnss_fix;

typedef struct sensim_imu_sample {
  double accel[3]; /* specific force, sensor frame, m/s^2 (at rest level: +g on Z) */
  double gyro[3];  /* angular rate, sensor frame, rad/s */
  double accel_var[3]; /* per-sample white-noise variance of accel, per axis, (m/s^2)^2,
                          as the noise filters configured it (0: the exact reading);
                          biases are not included */
  double gyro_var[3];  /* the same for gyro, (rad/s)^2 */
} sensim_imu_sample;

typedef struct sensim_mag_sample {
  double field[3];     /* magnetic flux density, sensor frame, T */
  double field_var[3]; /* per-sample white-noise variance per axis, T^2, as the noise
                          filters configured it (0: the exact reading) */
} sensim_mag_sample;

/* The cone sensor's answer: the nearest point of any object inside its
 * field of view (see cone.h for the angle conventions). */
typedef struct sensim_detection {
  int detected;          /* 1 if any object is inside the field of view */
  uint32_t instance_id;  /* the detected body's instance id (0: the world) */
  uint16_t class_id;     /* the detected body's class id */
  double range;          /* m, sensor origin to the nearest point */
  double azimuth;        /* rad, see cone.h */
  double elevation;      /* rad, see cone.h */
  double point[3];       /* nearest point in the sensor frame, m */
  double speed_diff;     /* m/s, range rate by differences: range change between
                            consecutive captures over their time difference; NaN when unknown */
  double radial_speed;   /* m/s, exact d(range)/dt from the bodies' velocities,
                            > 0 receding; NaN when nothing is detected */
  double rel_vel[3];     /* m/s, velocity of the nearest point relative to the
                            sensor, sensor frame; NaN when nothing is detected */
  double speed;          /* m/s, the published speed (thesis Eq. 3.9): distance between the
                            nearest points of consecutive captures, sensor frame, over their
                            time difference; NaN when unknown */
} sensim_detection;

/* One radar detection: a cluster of resolution cells over threshold
 * (radar.h). Angles as sensim_beam's: azimuth counter-clockwise from the
 * sensor's +X about +Z, elevation up from its XY plane. */
typedef struct sensim_radar_detection {
  double range;           /* m, noise included */
  double azimuth;         /* rad, noise included */
  double elevation;       /* rad, noise included */
  double radial_velocity; /* m/s, range rate, > 0 receding, noise included */
  double point[3];        /* m, sensor frame, from the reported range and angles */
  double rcs;             /* dBsm: the received power through the radar equation at the range */
  double power;           /* dBm, received power summed over the cluster's cells */
  double snr;             /* dB, power over the noise power k T0 F / cpi */
  uint32_t instance_id;   /* instance id of the body strongest in the cluster */
  uint16_t class_id;      /* its class id */
  uint16_t cells;         /* resolution cells merged into the detection */
} sensim_radar_detection;

/* One complex sample (IQ), as C99's float complex and NumPy's complex64
 * lay it out: real part first. */
typedef struct sensim_complex32 {
  float re, im;
} sensim_complex32;

/* Window applied before an FFT of the radar's raw chain (Harris, "On the
 * use of windows for harmonic analysis with the discrete Fourier
 * transform", Proc. IEEE 66(1), 1978). */
typedef enum sensim_fmcw_window {
  SENSIM_FMCW_RECT = 0,    /* none: highest gain, -13 dB side lobes */
  SENSIM_FMCW_HANN = 1,    /* 0.5 - 0.5 cos: -31 dB side lobes */
  SENSIM_FMCW_HAMMING = 2, /* 0.54 - 0.46 cos: -43 dB */
  SENSIM_FMCW_BLACKMAN = 3 /* 0.42 - 0.5 cos + 0.08 cos 2x: -58 dB */
} sensim_fmcw_window;

/* What it takes to read a radar's raw FMCW payload (RADAR_CUBE or
 * RADAR_RD; all zero for other payloads). Virtual channel m = t rx + r
 * (transmitter t, receiver r) is the element at y = m lambda / 2 along the
 * sensor's +Y: receivers lambda / 2 apart, transmitters rx lambda / 2
 * apart, taking turns chirp by chirp (TDM-MIMO). docs/radar.md, "Raw
 * FMCW", has the signal model. */
typedef struct sensim_fmcw_info {
  uint32_t samples;      /* cube: ADC samples per chirp N; RD: range bins (N) */
  uint32_t chirps;       /* cube: chirp loops C (each of tx chirps); RD: Doppler bins (C) */
  uint32_t tx, rx;       /* transmitters and receivers: channels = tx rx */
  uint32_t window;       /* sensim_fmcw_window the range and Doppler FFTs used (RD) or
                            are to use (cube) */
  uint32_t pad;          /* zero */
  double frequency;      /* carrier f_c, Hz (lambda = c / f_c) */
  double sample_rate;    /* complex ADC sample rate f_s, Hz */
  double chirp_slope;    /* S, Hz/s */
  double chirp_interval; /* T_c, s, start to start of successive chirps (any transmitter) */
  double range_bin;      /* m per range bin: c f_s / (2 S N) */
  double velocity_bin;   /* m/s per Doppler bin: lambda / (2 C tx T_c) */
  double noise_power;    /* W: cube, thermal noise per complex sample k T0 F f_s; RD, its
                            mean power per cell and channel after the windowed FFTs */
  double gain;           /* RD: amplitude gain of the windowed FFTs for a tone on a bin,
                            sum(w_range) sum(w_doppler); cube: 1 */
  double radar_constant; /* P_t G^2 lambda^2 / ((4 pi)^3 L), W m^2: a target of RCS sigma at
                            range R gives P_r = radar_constant sigma / R^4 (radar.h) */
} sensim_fmcw_info;

typedef struct sensim_frame {
  int sensor_id;        /* id of the sensor that made it (order of creation) */
  uint64_t index;       /* k in t_capture = phase + k / rate */
  double t_capture;     /* s, end of the collection window */
  double t_deliver;     /* s, t_capture + lag */
  double window;        /* s, length of the collection window */
  sensim_pose pose;     /* true sensor pose in the world at t_capture */
  sensim_payload type;  /* layout of `data` */
  uint32_t width;       /* images: columns; other payloads: count */
  uint32_t height;      /* images: rows; other payloads: 1 */
  size_t count;         /* number of elements in `data` (pixels, points, ...) */
  void *data;           /* primary payload, owned by the frame */
  float *depth;         /* camera: optional width x height depth plane, m, or NULL;
                           0 where nothing was hit (as DEPTH_F32) */
  sensim_label *labels; /* camera: optional width x height label plane, or NULL */
  float *normals;       /* camera: optional width x height x 3 unit surface normals
                           in the camera's sensor frame (0 where nothing was hit) */
  sensim_image_unit unit; /* meaning of float image data (rgb_f32, raw_f32, gray_f32) */
  sensim_cfa cfa;       /* mosaic layout of raw payloads, SENSIM_CFA_NONE otherwise */
  double exposure_time; /* s: the camera's rendered exposure (motion blur; 0 for
                           an instantaneous one), then what "image_sensor" applies */
  double gain;          /* analog gain applied by "image_sensor" (0 before it) */
  sensim_pose *trajectory; /* lidar: the sensor's pose in the world at ntraj evenly
                              spaced times over [t_capture - window, t_capture]
                              (what deskewing needs), or NULL */
  uint32_t ntraj;
  uint32_t returns;     /* lidar beams: returns per beam (1, or 2 for dual) */
  uint32_t binning;     /* images: each pixel is the mean of a binning x binning block
                           of the camera's pixels, pixel (u, v)'s block starting at
                           (binning u, binning v), so its centre is the camera's pixel
                           (binning u + (binning - 1) / 2, likewise v) (the "downsample"
                           filter multiplies it by its factor); 0 or 1: the camera's own
                           pixels. Calibration files and CameraInfo follow it. */
  sensim_fmcw_info fmcw; /* radar_cube and radar_rd: how to read them; zero otherwise */
} sensim_frame;

/* Name of an image unit ("radiance", "electrons", "signal"); never NULL. */
SENSIM_API const char *sensim_image_unit_name(sensim_image_unit unit);

/* Size in bytes of one element of a payload type (0 for NONE and ANY). */
SENSIM_API size_t sensim_payload_elem_size(sensim_payload type);

/* Replace the frame's primary payload with a new zeroed buffer of `type`
 * holding width x height elements (count = width * height). The old buffer is
 * freed only on success. For filters that change the payload type. The
 * depth, label and normal planes are width x height: when the size
 * changes they are freed too (NULL), as no plane can follow it. Inside a
 * sensor's filter chain the new buffer may be one the sensor used before
 * (sensim_sensor_recycle) and the old one goes back to it; the buffer is
 * zeroed all the same, and is always a malloc block. */
SENSIM_API sensim_status sensim_frame_alloc(sensim_frame *frame, sensim_payload type, uint32_t width,
                                 uint32_t height);

/* Free the buffers of a frame the caller owns: one it zeroed and filled
 * with sensim_frame_alloc, or ran through a standalone filter chain
 * (filter.h), which may have replaced its payload or added planes. Frees
 * data, depth, labels, normals and trajectory and leaves them NULL with
 * count 0; the struct itself stays the caller's, ready for reuse. Never for
 * a frame from sensim_sensor_poll (the library owns those). NULL is a
 * no-op. */
SENSIM_API void sensim_frame_release(sensim_frame *frame);

/* Copy a frame with its buffers into *dst, which the caller then owns
 * (free with sensim_frame_release): for a frame callback or a poll whose
 * frame must outlive the call or the next poll. The planes (depth, labels,
 * normals) are width x height, as a camera makes them. *dst is written
 * only on success (SENSIM_ENOMEM otherwise). */
SENSIM_API sensim_status sensim_frame_copy(const sensim_frame *src, sensim_frame *dst);

#ifdef __cplusplus
}
#endif
#endif
