/* The bad-input matrix, part 1: every parameter struct of the public API
 * with one field set out of its domain (NaN, infinities, zero, negative,
 * too large, beyond the coordinate or time limit), passed to the call that
 * takes it. Each row names the field, the value, the status and a word the
 * message must hold. */
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "robust/robust_groups.h"
#include "support/testutil.h"

enum target { T_WORLD, T_SENSOR, T_SENSOR_IMU, T_CAMERA, T_LIDAR, T_GNSS, T_GNSS_SAT, T_IMU, T_MAG, T_CONE,
              T_RADAR, T_LIGHT, T_SHAPE, T_MATERIAL, T_BODY, T_STATE };
enum ftype { F_D, F_F, F_I, F_U32 };

/* sensim_body_push_state's arguments, so that the time is a field too. */
typedef struct push_args {
  double t;
  sensim_body_state s;
} push_args;

/* Write the case's value into the field at c->off of an object of `size`
 * bytes (checked, so a wrong row fails instead of writing out of bounds).
 * Not inlined: GCC would otherwise follow each call's object into every
 * branch and warn about the branches of other field types. */
#define poke(obj, c) poke_at((obj), sizeof *(obj), (c))
static __attribute__((noinline)) void poke_at(void *base, size_t size, const robust_case *c) {
  static const size_t width[4] = {sizeof(double), sizeof(float), sizeof(int), sizeof(uint32_t)};
  if (c->off + width[c->ftype] > size) fail_msg("case '%s': field beyond its struct", c->name);
  char *p = (char *)base + c->off;
  if (c->ftype == F_D) {
    double v = c->value;
    memcpy(p, &v, sizeof v);
  } else if (c->ftype == F_F) {
    float v = (float)c->value;
    memcpy(p, &v, sizeof v);
  } else if (c->ftype == F_I) {
    int v = (int)c->value;
    memcpy(p, &v, sizeof v);
  } else {
    uint32_t v = (uint32_t)c->value;
    memcpy(p, &v, sizeof v);
  }
}

static void probe_sensor(robust_fx *fx, sensim_sensor_params *sp) {
  sensim_sensor_params_init(sp);
  sp->name = "probe";
  sp->body = fx->car;
}

static void small_camera(sensim_camera_params *cp) {
  sensim_camera_params_init(cp);
  cp->width = 16;
  cp->height = 12;
  cp->samples = 1;
}

static sensim_status apply(robust_fx *fx, const robust_case *c) {
  sensim_sensor_params sp;
  probe_sensor(fx, &sp);
  sensim_sensor *s = NULL;
  switch (c->target) {
    case T_WORLD: {
      sensim_world_params p;
      sensim_world_params_init(&p);
      poke(&p, c);
      sensim_world *w = NULL;
      sensim_status st = sensim_world_create(&p, &w);
      sensim_world_destroy(w);
      return st;
    }
    case T_SENSOR:
    case T_CAMERA: {
      sensim_camera_params cp;
      small_camera(&cp);
      if (c->target == T_SENSOR)
        poke(&sp, c);
      else
        poke(&cp, c);
      return sensim_camera_create(fx->world, &sp, &cp, &s);
    }
    case T_SENSOR_IMU:
      poke(&sp, c);
      return sensim_imu_create(fx->world, &sp, test_imu_defaults(), &s);
    case T_LIDAR: {
      sensim_lidar_params lp;
      sensim_lidar_params_init(&lp);
      lp.columns = 36;
      poke(&lp, c);
      return sensim_lidar_create(fx->world, &sp, &lp, &s);
    }
    case T_GNSS: {
      sensim_gnss_params gp;
      sensim_gnss_params_init(&gp);
      poke(&gp, c);
      return sensim_gnss_create(fx->world, &sp, &gp, &s);
    }
    case T_GNSS_SAT: { /* the satellites mode over the test suite's ephemeris */
      sensim_gnss_params gp;
      sensim_gnss_params_init(&gp);
      gp.mode = SENSIM_GNSS_SATELLITES;
      gp.ephemeris = SENSIM_TEST_DATA "/gnss/brdc1820.10_0000_gps.rnx";
      poke(&gp, c);
      return sensim_gnss_create(fx->world, &sp, &gp, &s);
    }
    case T_IMU: {
      sensim_imu_params ip;
      sensim_imu_params_init(&ip);
      poke(&ip, c);
      return sensim_imu_create(fx->world, &sp, &ip, &s);
    }
    case T_MAG: {
      sensim_magnetometer_params mp;
      sensim_magnetometer_params_init(&mp);
      poke(&mp, c);
      return sensim_magnetometer_create(fx->world, &sp, &mp, &s);
    }
    case T_CONE: {
      sensim_cone_params kp;
      sensim_cone_params_init(&kp);
      poke(&kp, c);
      return sensim_cone_create(fx->world, &sp, &kp, &s);
    }
    case T_RADAR: {
      sensim_radar_params rp;
      sensim_radar_params_init(&rp);
      poke(&rp, c);
      return sensim_radar_create(fx->world, &sp, &rp, &s);
    }
    case T_LIGHT: {
      sensim_light l;
      sensim_light_init(&l);
      poke(&l, c);
      return sensim_light_add(fx->world, &l);
    }
    case T_SHAPE:
    case T_MATERIAL: {
      sensim_shape sh = {SENSIM_SHAPE_BOX, {1, 1, 1}, 0};
      sensim_material m;
      sensim_material_init(&m);
      if (c->target == T_SHAPE)
        poke(&sh, c);
      else
        poke(&m, c);
      sensim_mesh *mesh = NULL;
      return sensim_mesh_create_shape(fx->world, &sh, &m, &mesh);
    }
    case T_BODY: {
      sensim_body_params bp;
      sensim_body_params_init(&bp);
      bp.mesh = fx->box;
      poke(&bp, c);
      sensim_body *b = NULL;
      return sensim_body_create(fx->world, &bp, &b);
    }
    case T_STATE: {
      push_args a;
      a.t = 0.05;
      a.s = test_state_xyzyaw(0.1, 0.0, 0.5, 0.0);
      poke(&a, c);
      return sensim_body_push_state(fx->car, a.t, &a.s);
    }
  }
  return SENSIM_OK;
}

#define EINV SENSIM_EINVAL
#define ROW(prefix, tgt, type, field, ft, val, code, sub) \
  {prefix "." #field " = " #val, apply, code, sub, 0, tgt, offsetof(type, field), ft, (double)(val), NULL}
#define WORLD(f, ft, v, sub) ROW("world", T_WORLD, sensim_world_params, f, ft, v, EINV, sub)
#define SENSOR(f, v, sub) ROW("sensor", T_SENSOR, sensim_sensor_params, f, F_D, v, EINV, sub)
#define SIMU(f, v, sub) ROW("imu sensor", T_SENSOR_IMU, sensim_sensor_params, f, F_D, v, EINV, sub)
#define CAM(f, ft, v, sub) ROW("camera", T_CAMERA, sensim_camera_params, f, ft, v, EINV, sub)
#define LIDAR(f, ft, v, sub) ROW("lidar", T_LIDAR, sensim_lidar_params, f, ft, v, EINV, sub)
#define GNSS(f, ft, v, sub) ROW("gnss", T_GNSS, sensim_gnss_params, f, ft, v, EINV, sub)
#define GSAT(f, ft, v, sub) ROW("gnss satellites", T_GNSS_SAT, sensim_gnss_params, f, ft, v, EINV, sub)
#define IMU(f, v, sub) ROW("imu", T_IMU, sensim_imu_params, f, F_I, v, EINV, sub)
#define MAG(f, ft, v, sub) ROW("magnetometer", T_MAG, sensim_magnetometer_params, f, ft, v, EINV, sub)
#define CONE(f, ft, v, sub) ROW("cone", T_CONE, sensim_cone_params, f, ft, v, EINV, sub)
#define RADAR(f, ft, v, sub) ROW("radar", T_RADAR, sensim_radar_params, f, ft, v, EINV, sub)
#define LIGHT(f, ft, v, sub) ROW("light", T_LIGHT, sensim_light, f, ft, v, EINV, sub)
#define SHAPE(f, ft, v, sub) ROW("shape", T_SHAPE, sensim_shape, f, ft, v, EINV, sub)
#define MAT(f, v, sub) ROW("material", T_MATERIAL, sensim_material, f, F_F, v, EINV, sub)
#define BODY(f, v, sub) ROW("body", T_BODY, sensim_body_params, f, F_D, v, EINV, sub)
#define STATE(f, ft, v, code, sub) ROW("state", T_STATE, push_args, f, ft, v, code, sub)

/* Beyond the coordinate limit (2^24 m), beyond the time limit (2^32 s),
 * and Embree's own ray-validity bound, where the process used to abort. */
#define BEYOND_COORD 16777217.0
#define EMBREE_LARGE 1e18
#define BEYOND_TIME 4294967297.0

const robust_case robust_param_cases[] = {
    WORLD(threads, F_I, -1, "world.threads"),
    WORLD(threads, F_I, 1025, "world.threads"),
    WORLD(origin_lat, F_D, NAN, "world.origin_lat"),
    WORLD(origin_lat, F_D, 91, "world.origin_lat"),
    WORLD(origin_lat, F_D, -INFINITY, "world.origin_lat"),
    WORLD(origin_lon, F_D, NAN, "world.origin_lon"),
    WORLD(origin_lon, F_D, 181, "world.origin_lon"),
    WORLD(origin_lon, F_D, INFINITY, "world.origin_lon"),
    WORLD(origin_height, F_D, NAN, "world.origin_height"),
    WORLD(origin_height, F_D, INFINITY, "world.origin_height"),
    WORLD(origin_height, F_D, 2e5, "world.origin_height"),
    WORLD(gravity, F_D, NAN, "world.gravity"),
    WORLD(gravity, F_D, -2, "world.gravity"), /* -1 is SENSIM_GRAVITY_NORMAL */
    WORLD(gravity, F_D, INFINITY, "world.gravity"),
    WORLD(gravity, F_D, 100, "world.gravity"),
    WORLD(background[0], F_F, NAN, "world.background[0]"),
    WORLD(background[1], F_F, -1, "world.background[1]"),
    WORLD(background[2], F_F, INFINITY, "world.background[2]"),
    WORLD(ambient, F_F, NAN, "world.ambient"),
    WORLD(ambient, F_F, -0.5, "world.ambient"),
    WORLD(ambient, F_F, INFINITY, "world.ambient"),
    WORLD(weather.fog_visibility, F_D, NAN, "world.weather.fog_visibility"),
    WORLD(weather.fog_visibility, F_D, -1, "world.weather.fog_visibility"),
    WORLD(weather.fog_visibility, F_D, 0.5, "world.weather.fog_visibility"),
    WORLD(weather.rain_rate, F_D, NAN, "world.weather.rain_rate"),
    WORLD(weather.rain_rate, F_D, -1, "world.weather.rain_rate"),
    WORLD(weather.rain_rate, F_D, INFINITY, "world.weather.rain_rate"),
    WORLD(weather.snow_rate, F_D, NAN, "world.weather.snow_rate"),
    WORLD(weather.snow_rate, F_D, 31, "world.weather.snow_rate"),

    SENSOR(rate, 0, "rate"),
    SENSOR(rate, -10, "rate"),
    SENSOR(rate, NAN, "rate"),
    SENSOR(rate, INFINITY, "rate"),
    SENSOR(rate, 2e6, "rate"),
    SENSOR(rate, 5e-324, "rate"), /* denormal: its period overflows to inf */
    SENSOR(rate, 1e-10, "rate"),   /* a period beyond SENSIM_TIME_MAX */
    SENSOR(phase, -1, "phase"),
    SENSOR(phase, NAN, "phase"),
    SENSOR(phase, INFINITY, "phase"),
    SENSOR(phase, BEYOND_TIME, "SENSIM_TIME_MAX"),
    SENSOR(lag, -1, "lag"),
    SENSOR(lag, NAN, "lag"),
    SENSOR(lag, INFINITY, "lag"),
    SENSOR(lag, BEYOND_TIME, "never be delivered"),
    SENSOR(lag, 1e4, "SENSIM_SENSOR_MAX_WAITING"),
    SENSOR(window, NAN, "window"),
    SENSOR(window, INFINITY, "window"),
    SENSOR(window, -INFINITY, "window"),
    SENSOR(window, BEYOND_TIME, "SENSIM_TIME_MAX"),
    SENSOR(mount.pos.x, NAN, "sensor mount"),
    SENSOR(mount.pos.y, INFINITY, "sensor mount"),
    SENSOR(mount.pos.x, BEYOND_COORD, "SENSIM_COORD_MAX"),
    SENSOR(mount.pos.z, -EMBREE_LARGE, "SENSIM_COORD_MAX"),
    SENSOR(mount.rot.w, 2, "quaternion"),
    SENSOR(mount.rot.w, NAN, "quaternion"),
    SENSOR(mount.rot.w, 0, "quaternion"),
    SENSOR(mount.rot.z, INFINITY, "quaternion"),
    SIMU(window, 1.0, "window"),
    SIMU(rate, -1, "rate"),
    SIMU(lag, 7000, "SENSIM_SENSOR_MAX_WAITING"),

    CAM(width, F_U32, 0, "camera size"),
    CAM(height, F_U32, 0, "camera size"),
    CAM(width, F_U32, 4000000000u, "camera frame"),
    CAM(hfov, F_D, 0, "hfov"),
    CAM(hfov, F_D, NAN, "hfov"),
    CAM(hfov, F_D, M_PI, "hfov"),
    CAM(hfov, F_D, -1, "hfov"),
    CAM(hfov, F_D, INFINITY, "hfov"),
    CAM(fx, F_D, -1, "fx"),
    CAM(fx, F_D, NAN, "fx"),
    CAM(fx, F_D, INFINITY, "fx"),
    CAM(fy, F_D, NAN, "fy"),
    CAM(cx, F_D, NAN, "cx"),
    CAM(cy, F_D, INFINITY, "cy"),
    CAM(lens, F_I, 7, "lens model"),
    CAM(lens, F_I, -1, "lens model"),
    CAM(dist[0], F_D, NAN, "dist[0]"),
    CAM(dist[4], F_D, INFINITY, "dist[4]"),
    CAM(vignetting_poly[1], F_D, NAN, "vignetting_poly[1]"),
    CAM(lateral_ca[0], F_D, NAN, "lateral_ca[0]"),
    CAM(lateral_ca[2], F_D, 5, "lateral_ca[2]"),
    CAM(lateral_ca[1], F_D, -1, "lateral_ca[1]"),
    CAM(samples, F_I, 0, "samples"),
    CAM(samples, F_I, -1, "samples"),
    CAM(samples, F_I, 1025, "samples"),
    CAM(exposure_time, F_D, -1, "exposure_time"),
    CAM(exposure_time, F_D, NAN, "exposure_time"),
    CAM(exposure_time, F_D, INFINITY, "exposure_time"),
    CAM(exposure_time, F_D, 1e3, "exposure_time"),
    CAM(line_time, F_D, -0.1, "line_time"),
    CAM(line_time, F_D, NAN, "line_time"),
    CAM(line_time, F_D, 1, "line_time"),
    CAM(max_bounces, F_I, -1, "max_bounces"),
    CAM(max_bounces, F_I, 9, "max_bounces"),
    CAM(integrator, F_I, 2, "integrator"),
    CAM(integrator, F_I, -1, "integrator"),
    CAM(fog_visibility, F_D, -1, "fog_visibility"),
    CAM(fog_visibility, F_D, NAN, "fog_visibility"),
    CAM(fog_visibility, F_D, INFINITY, "fog_visibility"),

    LIDAR(pattern, F_I, 5, "pattern"),
    LIDAR(channels, F_I, 0, "channels"),
    LIDAR(channels, F_I, 257, "channels"),
    LIDAR(channels, F_I, -1, "channels"),
    LIDAR(columns, F_I, 0, "columns"),
    LIDAR(columns, F_I, 1000001, "columns"),
    LIDAR(elev_min, F_D, NAN, "elevation"),
    LIDAR(elev_max, F_D, INFINITY, "elevation"),
    LIDAR(elev_min, F_D, -2, "elevation"),
    LIDAR(hfov, F_D, 0, "hfov"),
    LIDAR(hfov, F_D, 7, "hfov"),
    LIDAR(hfov, F_D, NAN, "hfov"),
    LIDAR(start_azimuth, F_D, NAN, "start_azimuth"),
    LIDAR(start_azimuth, F_D, INFINITY, "start_azimuth"),
    LIDAR(min_range, F_D, -1, "range"),
    LIDAR(min_range, F_D, NAN, "range"),
    LIDAR(max_range, F_D, 0, "range"),
    LIDAR(max_range, F_D, INFINITY, "range"),
    LIDAR(div_h, F_D, -0.1, "divergence"),
    LIDAR(div_h, F_D, NAN, "divergence"),
    LIDAR(div_h, F_D, 0.5, "divergence"),
    LIDAR(div_v, F_D, NAN, "divergence"),
    LIDAR(shape, F_I, 9, "beam shape"),
    LIDAR(subrays, F_I, 0, "subrays"),
    LIDAR(subrays, F_I, 2000, "subrays"),
    LIDAR(subrays, F_I, 4, "divergence"),
    LIDAR(returns, F_I, 9, "return mode"),
    LIDAR(returns, F_I, -1, "return mode"),
    LIDAR(range_resolution, F_D, 0, "range_resolution"),
    LIDAR(range_resolution, F_D, NAN, "range_resolution"),
    LIDAR(range_resolution, F_D, INFINITY, "range_resolution"),
    LIDAR(detection_range, F_D, 0, "detection_range"),
    LIDAR(detection_range, F_D, NAN, "detection_range"),
    LIDAR(detection_range, F_D, -1, "detection_range"),
    LIDAR(intensity_bits, F_I, 0, "intensity_bits"),
    LIDAR(intensity_bits, F_I, 17, "intensity_bits"),
    LIDAR(extinction, F_D, -1, "extinction"),
    LIDAR(extinction, F_D, NAN, "extinction"),
    LIDAR(fog_visibility, F_D, -1, "fog_visibility"),
    LIDAR(fog_visibility, F_D, INFINITY, "fog_visibility"),

    GNSS(satellites, F_I, -1, "satellites"),
    GNSS(satellites, F_I, 100, "satellites"),
    GNSS(hdop, F_D, NAN, "hdop"),
    GNSS(hdop, F_D, -1, "hdop"),
    GNSS(hdop, F_D, 1000, "hdop"),
    GNSS(hdop, F_D, INFINITY, "hdop"),
    GNSS(vdop, F_D, NAN, "vdop"),
    GNSS(vdop, F_D, 1e3, "vdop"),
    GNSS(mode, F_I, 2, "mode"),
    GNSS(mode, F_I, -1, "mode"),
    GSAT(utc_start, F_D, -1, "utc_start"),
    GSAT(utc_start, F_D, NAN, "utc_start"),
    GSAT(utc_start, F_D, 5e9, "utc_start"),
    GSAT(utc_start, F_D, 1.6e9, "valid"), /* 2020: outside the 2010 file */
    GSAT(leap_seconds, F_I, -2, "leap_seconds"),
    GSAT(leap_seconds, F_I, 101, "leap_seconds"),
    GSAT(max_ephemeris_age, F_D, -1, "max_ephemeris_age"),
    GSAT(max_ephemeris_age, F_D, NAN, "max_ephemeris_age"),
    GSAT(elevation_mask, F_D, -0.1, "elevation_mask"),
    GSAT(elevation_mask, F_D, 1.6, "elevation_mask"),
    GSAT(elevation_mask, F_D, NAN, "elevation_mask"),
    GSAT(humidity, F_D, -0.1, "humidity"),
    GSAT(humidity, F_D, 1.1, "humidity"),
    GSAT(humidity, F_D, NAN, "humidity"),
    GSAT(range_sigma, F_D, -1, "range_sigma"),
    GSAT(range_sigma, F_D, INFINITY, "range_sigma"),
    GSAT(range_rate_sigma, F_D, NAN, "range_rate_sigma"),
    GSAT(reported_sigma, F_D, -0.5, "reported_sigma"),
    GSAT(reported_sigma, F_D, NAN, "reported_sigma"),
    GSAT(iono_alpha[2], F_D, 1e-8, "iono_alpha"),
    GSAT(iono_beta[0], F_D, INFINITY, "iono_beta"),
    IMU(earth_rotation, 2, "earth_rotation"),
    IMU(earth_rotation, -1, "earth_rotation"),
    MAG(model, F_I, 5, "model"),
    MAG(field_enu[0], F_D, NAN, "field_enu[0]"),
    MAG(g10, F_D, NAN, "Gauss coefficients"),
    MAG(h11, F_D, INFINITY, "Gauss coefficients"),
    MAG(ref_radius, F_D, 0, "ref_radius"),
    MAG(ref_radius, F_D, -1, "ref_radius"),
    MAG(ref_radius, F_D, NAN, "ref_radius"),
    MAG(ref_radius, F_D, INFINITY, "ref_radius"),
    CONE(theta, F_D, 0, "theta"),
    CONE(theta, F_D, M_PI, "theta"),
    CONE(theta, F_D, NAN, "theta"),
    CONE(phi, F_D, -1, "phi"),
    CONE(phi, F_D, INFINITY, "phi"),
    CONE(length, F_D, 0, "length"),
    CONE(length, F_D, NAN, "length"),
    CONE(length, F_D, INFINITY, "length"),
    CONE(length, F_D, -1, "length"),
    CONE(method, F_I, 7, "method"),

    RADAR(frequency, F_D, NAN, "frequency"),
    RADAR(frequency, F_D, 1e12, "frequency"),
    RADAR(tx_power, F_D, 0, "tx_power"),
    RADAR(tx_power, F_D, INFINITY, "tx_power"),
    RADAR(antenna_gain, F_D, 1e300, "antenna_gain"),
    RADAR(losses, F_D, -INFINITY, "losses"),
    RADAR(noise_figure, F_D, -1, "noise_figure"),
    RADAR(bandwidth, F_D, NAN, "bandwidth"),
    RADAR(cpi, F_D, -1, "cpi"),
    RADAR(hfov, F_D, 0, "hfov"),
    RADAR(vfov, F_D, NAN, "vfov"),
    RADAR(azimuth_resolution, F_D, INFINITY, "azimuth_resolution"),
    RADAR(ray_spacing, F_D, 1e-300, "2^22"),
    RADAR(ray_spacing, F_D, NAN, "ray_spacing"),
    RADAR(min_range, F_D, INFINITY, "min_range"),
    RADAR(max_range, F_D, 1e300, "max_range"),
    RADAR(min_velocity, F_D, -INFINITY, "min_velocity"),
    RADAR(max_velocity, F_D, NAN, "max_velocity"),
    RADAR(snr_threshold, F_D, 1e9, "snr_threshold"),
    RADAR(max_bounces, F_I, -1, "max_bounces"),
    RADAR(max_bounces, F_I, 1000000, "max_bounces"),
    RADAR(sigma_range, F_D, NAN, "sigma_range"),
    RADAR(sigma_velocity, F_D, INFINITY, "sigma_velocity"),
    RADAR(beam_width_az, F_D, -0.1, "beam_width_az"),
    RADAR(beam_width_el, F_D, NAN, "beam_width_el"),
    RADAR(output, F_I, 3, "output"),
    RADAR(sample_rate, F_D, NAN, "sample_rate"),
    RADAR(samples, F_I, 0, "samples"),
    RADAR(chirps, F_I, -1, "chirps"),
    RADAR(chirp_slope, F_D, -1, "chirp_slope"),
    RADAR(chirp_interval, F_D, NAN, "chirp_interval"),
    RADAR(tx, F_I, 0, "tx"),
    RADAR(rx, F_I, 0, "rx = 0"),
    RADAR(window, F_I, 4, "window"),

    LIGHT(kind, F_I, 9, "light kind"),
    LIGHT(position.x, F_D, NAN, "finite"),
    LIGHT(direction.y, F_D, INFINITY, "finite"),
    LIGHT(direction.x, F_D, 1e200, "direction"),
    LIGHT(direction.z, F_D, 1e-200, "direction"),
    LIGHT(intensity, F_F, -1, "intensity"),
    LIGHT(intensity, F_F, NAN, "intensity"),
    LIGHT(intensity, F_F, INFINITY, "intensity"),
    LIGHT(color[0], F_F, 2, "color[0]"),
    LIGHT(color[1], F_F, -0.1, "color[1]"),
    LIGHT(color[2], F_F, NAN, "color[2]"),
    LIGHT(radius, F_F, -1, "radius"),
    LIGHT(radius, F_F, NAN, "radius"),
    LIGHT(angular_diameter, F_F, 0.6, "angular_diameter"),
    LIGHT(angular_diameter, F_F, NAN, "angular_diameter"),
    LIGHT(kind, F_I, SENSIM_LIGHT_RECT, "edge_u x edge_v"),
    LIGHT(kind, F_I, SENSIM_LIGHT_DISC, "disc light radius"),

    SHAPE(kind, F_I, 9, "shape kind"),
    SHAPE(size.x, F_D, 0, "box size"),
    SHAPE(size.y, F_D, -1, "box size"),
    SHAPE(size.z, F_D, NAN, "box size"),
    SHAPE(size.x, F_D, INFINITY, "box size"),
    SHAPE(size.x, F_D, 1e8, "SENSIM_COORD_MAX"),
    SHAPE(size.z, F_D, EMBREE_LARGE, "SENSIM_COORD_MAX"),
    SHAPE(segments, F_I, 2, "segments"),
    SHAPE(segments, F_I, 5000, "segments"),
    SHAPE(segments, F_I, -1, "segments"),
    MAT(base_color[1], NAN, "base_color[1]"),
    MAT(base_color[0], 1.5, "base_color[0]"),
    MAT(base_color[2], -0.1, "base_color[2]"),
    MAT(roughness, 2, "roughness"),
    MAT(roughness, NAN, "roughness"),
    MAT(metallic, -1, "metallic"),
    MAT(reflectance, NAN, "reflectance"),
    MAT(reflectance, 1.01, "reflectance"),
    MAT(radar_specular, NAN, "radar_specular"),
    MAT(radar_diffuse, -0.5, "radar_diffuse"),
    MAT(radar_specular, 0.99, "exceeds 1"),
    MAT(emission[0], -1, "emission[0]"),
    MAT(emission[2], NAN, "emission[2]"),
    MAT(emission[1], INFINITY, "emission[1]"),
    MAT(ior, 0, "ior"),
    MAT(ior, -1.5, "ior"),
    MAT(ior, NAN, "ior"),
    MAT(transmission, 1.5, "transmission"),
    MAT(transmission, NAN, "transmission"),
    MAT(normal_scale, NAN, "normal_scale"),
    MAT(alpha, -0.1, "alpha"),
    MAT(alpha_cutoff, 2, "alpha_cutoff"),
    MAT(specular, 1.5, "specular"),
    MAT(specular, NAN, "specular"),

    BODY(pose.pos.x, NAN, "body pose"),
    BODY(pose.pos.y, INFINITY, "body pose"),
    BODY(pose.pos.z, BEYOND_COORD, "SENSIM_COORD_MAX"),
    BODY(pose.pos.x, EMBREE_LARGE, "SENSIM_COORD_MAX"),
    BODY(pose.pos.x, 16777215.0, "radius"),
    BODY(pose.rot.w, NAN, "quaternion"),
    BODY(pose.rot.w, 0.5, "quaternion"),
    BODY(pose.rot.x, INFINITY, "quaternion"),

    STATE(t, F_D, NAN, EINV, "state time"),
    STATE(t, F_D, INFINITY, EINV, "state time"),
    STATE(t, F_D, -INFINITY, EINV, "state time"),
    STATE(t, F_D, BEYOND_TIME, EINV, "SENSIM_TIME_MAX"),
    STATE(t, F_D, -1, SENSIM_ESTATE, "not after the previous"),
    STATE(t, F_D, 0, SENSIM_ESTATE, "not after the previous"),
    STATE(s.pose.pos.x, F_D, NAN, EINV, "body state"),
    STATE(s.pose.pos.y, F_D, BEYOND_COORD, EINV, "SENSIM_COORD_MAX"),
    STATE(s.pose.pos.z, F_D, EMBREE_LARGE, EINV, "SENSIM_COORD_MAX"),
    STATE(s.pose.rot.w, F_D, 0, EINV, "quaternion"),
    STATE(s.pose.rot.w, F_D, NAN, EINV, "quaternion"),
    STATE(s.pose.rot.y, F_D, 2, EINV, "quaternion"),
    STATE(s.lin_vel.x, F_D, NAN, EINV, "velocity"),
    STATE(s.lin_vel.y, F_D, INFINITY, EINV, "velocity"),
    STATE(s.lin_vel.x, F_D, 1e8, EINV, "speed"),
    STATE(s.lin_vel.z, F_D, -1e300, EINV, "speed"),
    STATE(s.lin_acc.x, F_D, 1e9, EINV, "acceleration"),
    STATE(s.lin_acc.z, F_D, NAN, EINV, "acceleration"),
    STATE(s.ang_vel.z, F_D, NAN, EINV, "velocity"),
    STATE(s.ang_acc.y, F_D, INFINITY, EINV, "acceleration"),
    STATE(s.flags, F_U32, 8, EINV, "flag"),
};
const size_t robust_param_case_count = sizeof robust_param_cases / sizeof robust_param_cases[0];
