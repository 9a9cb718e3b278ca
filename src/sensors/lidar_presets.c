/* sensors/lidar_presets.c: datasheet scan tables of common spinning lidars.
 *
 * Each preset fills sensim_lidar_params from the maker's manual: channel
 * elevations in firing order, per-channel azimuth offsets where the optics
 * have them, per-channel firing delays inside a column, the column count
 * at sensim's default rate of 10 Hz, ranges, beam divergence and intensity
 * resolution. The tables are static: the pointers a preset writes stay
 * valid for the life of the process.
 *
 * Conventions (lidar.h): angles in rad, azimuth counter-clockwise from the
 * sensor's +X seen from above, elevation up from its XY plane; delays in s.
 * Velodyne and Ouster heads both spin clockwise seen from above (Velodyne:
 * azimuth reported clockwise from +Y, VLP-16 manual 63-9243 Rev D fig. 9-1;
 * Ouster: encoder angle 2 pi (1 - column / W), OS1 software user manual,
 * "lidar range data to XYZ"), so every preset sets `clockwise`.
 *
 * Figures no datasheet gives are said to be so where they are set. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "core/internal.h"
#include "sensim/lidar.h"

#define DEG(d) ((d) * (M_PI / 180.0))
#define US(t) ((t) * 1e-6)
#define MRAD(a) ((a) * 1e-3)

/* R4, R16, R64: m(n, c) for 4, 16, 64 consecutive c from b, inside an
 * initializer. */
#define R4(m, n, b) m(n, (b)), m(n, (b) + 1), m(n, (b) + 2), m(n, (b) + 3)
#define R16(m, n, b) R4(m, n, b), R4(m, n, (b) + 4), R4(m, n, (b) + 8), R4(m, n, (b) + 12)
#define R64(m, n, b) R16(m, n, b), R16(m, n, (b) + 16), R16(m, n, (b) + 32), R16(m, n, (b) + 48)

/* ---- Velodyne VLP-16 ----------------------------------------------------
 * VLP-16 User Manual 63-9243 Rev D/E, table 9-1: laser IDs 0..15 in firing
 * order with their vertical angles; the lasers sit in one vertical column
 * (no azimuth offsets). Section 8.1: one laser fires every 2.304 us, 16
 * firings then an 18.432 us idle period, 55.296 us per firing sequence. */
static const double vlp16_elev[16] = {
    DEG(-15), DEG(1), DEG(-13), DEG(3), DEG(-11), DEG(5), DEG(-9), DEG(7),
    DEG(-7),  DEG(9), DEG(-5),  DEG(11), DEG(-3), DEG(13), DEG(-1), DEG(15)};
#define VLP16_FIRE(n, c) US(2.304 * (c))
static const double vlp16_fire[16] = {R16(VLP16_FIRE, 16, 0)};

/* ---- Velodyne HDL-32E ---------------------------------------------------
 * HDL-32E User Manual 63-9113, "laser firing sequence" table: laser IDs
 * 0..31 in firing order alternate between the lower and the upper half of
 * the fan, +10.67 deg to -30.67 deg in steps of 1.33 deg; one vertical
 * column. Firing: one laser every 1.152 us, 32 firings and 8 idle slots,
 * 46.08 us per cycle. */
static const double hdl32_elev[32] = {
    DEG(-30.67), DEG(-9.33),  DEG(-29.33), DEG(-8.00),  DEG(-28.00), DEG(-6.67),  DEG(-26.67), DEG(-5.33),
    DEG(-25.33), DEG(-4.00),  DEG(-24.00), DEG(-2.67),  DEG(-22.67), DEG(-1.33),  DEG(-21.33), DEG(0.00),
    DEG(-20.00), DEG(1.33),   DEG(-18.67), DEG(2.67),   DEG(-17.33), DEG(4.00),   DEG(-16.00), DEG(5.33),
    DEG(-14.67), DEG(6.67),   DEG(-13.33), DEG(8.00),   DEG(-12.00), DEG(9.33),   DEG(-10.67), DEG(10.67)};
#define HDL32_FIRE(n, c) US(1.152 * (c))
static const double hdl32_fire[32] = {R16(HDL32_FIRE, 32, 0), R16(HDL32_FIRE, 32, 16)};

/* ---- Velodyne HDL-64E S2/S3 ---------------------------------------------
 * HDL-64E S3 User's Manual 63-HDL64ES3: two blocks of 32 lasers; the upper
 * block covers +2 deg to -8.33 deg (1/3 deg spacing), the lower block
 * -8.83 deg to -24.33 deg (1/2 deg spacing). Each unit's exact angles and
 * rotational corrections are in its calibration file (db.xml) and differ
 * from these nominal values by up to a few tenths of a degree; the
 * nominal table has no azimuth offsets. The two blocks fire together, one
 * laser of each at a time: upper laser k and lower laser k share a firing
 * instant. The manual gives the rate (0.08 deg at 5 Hz to 0.35 deg at
 * 20 Hz, i.e. one column every ~48 us) but not the delay between the
 * lasers of a block: the 32 firings of a block are spread evenly over the
 * column, 48 us / 32 = 1.5 us apart (a stated assumption). Channels are
 * listed upper block then lower block, each from the top down. */
#define HDL64_EL(n, c) ((c) < 32 ? DEG(2.0 - (c) / 3.0) : DEG(-8.83 - ((c) - 32) * 0.5))
static const double hdl64_elev[64] = {R64(HDL64_EL, 64, 0)};
#define HDL64_FIRE(n, c) US(1.5 * ((c) % 32))
static const double hdl64_fire[64] = {R64(HDL64_FIRE, 64, 0)};

/* ---- Ouster OS1-64 and OS1-128 (Gen 2, rev 6, uniform beam spacing) ------
 * OS1 datasheet rev 6: vertical field of view 45 deg (+22.5 deg to
 * -22.5 deg), uniformly spaced (0.7 deg for 64, 0.35 deg for 128
 * channels); channel 0 is the top beam. (Gen 1 OS1-64 units had
 * +16.6 .. -16.6 deg; those are not this preset.) A unit's calibrated
 * beam_altitude_angles come close to this nominal table (for example an
 * OS-1-128, part 840-103575-06: +20.95 deg .. -21.82 deg).
 * Azimuth offsets: the detector columns look ahead of or behind the
 * encoder angle by a 4-channel pattern; the rev 6 calibration
 * beam_azimuth_angles are +4.2, +1.4, -1.4, -4.2 deg (same unit: 4.21,
 * 1.41, -1.40, -4.22, ...). Ouster's offsets are subtracted from the
 * encoder angle (software user manual, "lidar range data to XYZ"), so in
 * the counter-clockwise convention here they change sign.
 * Firing: all channels of a column fire at once (a flash column), so no
 * firing delays. Columns: 512, 1024 or 2048 per revolution at 10 Hz
 * (512 and 1024 also at 20 Hz); 1024 x 10 is the factory mode. */
#define OS1_EL(n, c) DEG(22.5 - 45.0 * (c) / ((n) - 1))
#define OS1_AZ(n, c) \
  ((c) % 4 == 0 ? DEG(-4.2) : (c) % 4 == 1 ? DEG(-1.4) : (c) % 4 == 2 ? DEG(1.4) : DEG(4.2))
static const double os1_64_elev[64] = {R64(OS1_EL, 64, 0)};
static const double os1_128_elev[128] = {R64(OS1_EL, 128, 0), R64(OS1_EL, 128, 64)};
static const double os1_az[128] = {R64(OS1_AZ, 128, 0), R64(OS1_AZ, 128, 64)};
static const double os1_fire[128]; /* all zero: flash column */

typedef struct preset {
  const char *name;
  void (*fill)(sensim_lidar_params *p);
} preset;

/* Figures every preset shares: full revolution, single ideal sub-ray per
 * beam (users raise `subrays` for footprint effects), strongest return
 * (the factory return mode of all five), clear air. */
static void common(sensim_lidar_params *p) {
  sensim_lidar_params_init(p);
  p->pattern = SENSIM_LIDAR_SPINNING;
  p->hfov = 2.0 * M_PI;
  p->clockwise = 1;
  p->subrays = 1;
  p->returns = SENSIM_RETURN_STRONGEST;
  p->extinction = 0.0;
  p->fog_visibility = 0.0;
}

/* The Velodyne family's beam: about twice as wide along the scan as
 * across it, 3.0 mrad horizontal x 1.5 mrad vertical (VLS-128 User Manual
 * 63-9483, table F-1, Velodyne's figure for its 905 nm channels; the
 * VLP-16 is quoted with the same figure, the HDL manuals state none), and
 * a calibrated reflectivity of one byte, 0..255 (VLP-16 manual 9.3.1.3). */
static void velodyne_beam(sensim_lidar_params *p) {
  p->div_h = MRAD(3.0);
  p->div_v = MRAD(1.5);
  p->shape = SENSIM_BEAM_ELLIPTICAL;
  p->intensity_bits = 8;
}

static void fill_vlp16(sensim_lidar_params *p) {
  common(p);
  p->channels = 16;
  p->elevations = vlp16_elev;
  p->azimuth_offsets = NULL;
  p->firing_offsets = vlp16_fire;
  /* Manual 8.3.1: 0.2 deg azimuth resolution at 600 rpm (10 Hz). */
  p->columns = 1800;
  p->elev_min = DEG(-15);
  p->elev_max = DEG(15);
  /* Manual ch. 2 / datasheet: "up to 100 m". The manual gives no minimum
   * range; 0.4 m is the blanking the ROS velodyne driver applies to the
   * VLP-16 by default (not a datasheet figure). */
  p->min_range = 0.4;
  p->max_range = 100.0;
  p->detection_range = 100.0;
  velodyne_beam(p);
}

static void fill_hdl32(sensim_lidar_params *p) {
  common(p);
  p->channels = 32;
  p->elevations = hdl32_elev;
  p->azimuth_offsets = NULL;
  p->firing_offsets = hdl32_fire;
  /* 10 Hz / 46.08 us per firing cycle = 2170 columns, ~0.166 deg
   * (manual: ~0.16 deg at 600 rpm). */
  p->columns = 2170;
  p->elev_min = DEG(-30.67);
  p->elev_max = DEG(10.67);
  /* HDL-32E datasheet: measurement range up to 100 m, taken at the 80 %
   * reflectance the detection model is defined at. No minimum range is
   * stated: 1 m is assumed. */
  p->min_range = 1.0;
  p->max_range = 100.0;
  p->detection_range = 100.0;
  velodyne_beam(p); /* the manual states no divergence: the family figure */
}

static void fill_hdl64(sensim_lidar_params *p) {
  common(p);
  p->channels = 64;
  p->elevations = hdl64_elev;
  p->azimuth_offsets = NULL;
  p->firing_offsets = hdl64_fire;
  /* 10 Hz / 48 us per column = 2083 columns, 0.173 deg. */
  p->columns = 2083;
  p->elev_min = DEG(-24.33);
  p->elev_max = DEG(2.0);
  /* S2/S3 datasheet: 120 m for cars and foliage (~80 % reflectance), 50 m
   * for pavement (~10 %). The minimum range is not on the datasheet; 1 m
   * is assumed, as for the HDL-32E. */
  p->min_range = 1.0;
  p->max_range = 120.0;
  p->detection_range = 120.0;
  velodyne_beam(p); /* not in the HDL-64E manual: the family figure */
}

/* OS1 figures shared by both channel counts; fwhm_deg: the datasheet's
 * beam divergence, full width at half maximum. */
static void fill_os1(sensim_lidar_params *p, int channels, const double *elev, double fwhm_deg) {
  common(p);
  p->channels = channels;
  p->elevations = elev;
  p->azimuth_offsets = os1_az;
  p->firing_offsets = os1_fire;
  p->columns = 1024;
  p->elev_min = DEG(-22.5);
  p->elev_max = DEG(22.5);
  /* OS1 datasheet, optical performance: range 0.8 m - 120 m on an 80 %
   * Lambertian target (100 klx sunlight, false positive rate 1e-4). */
  p->min_range = 0.8;
  p->max_range = 120.0;
  p->detection_range = 120.0;
  /* Round Gaussian spot. sensim's divergence is the 1/e^2 full angle
   * (docs/lidar.md, beam model): for a Gaussian, 1/e^2 diameter =
   * FWHM / sqrt(ln 2 / 2). */
  p->div_h = p->div_v = DEG(fwhm_deg) / sqrt(log(2.0) / 2.0);
  p->shape = SENSIM_BEAM_CIRCULAR;
  /* Our intensity is range-compensated reflectance, which is what the
   * OS1's calibrated "reflectivity" field carries: 8 bits in the rev 6
   * RNG19_RFL8_SIG16_NIR16 profile (its raw "signal" photon count is the
   * 16-bit field). */
  p->intensity_bits = 8;
}

/* OS1 datasheet, laser: beam divergence 0.13 deg FWHM for 64 channels,
 * 0.18 deg for 128. */
static void fill_os1_64(sensim_lidar_params *p) { fill_os1(p, 64, os1_64_elev, 0.13); }
static void fill_os1_128(sensim_lidar_params *p) { fill_os1(p, 128, os1_128_elev, 0.18); }

static const preset presets[] = {
    {"VLP-16", fill_vlp16}, {"HDL-32E", fill_hdl32}, {"HDL-64E", fill_hdl64},
    {"OS1-64", fill_os1_64}, {"OS1-128", fill_os1_128}};

#define NPRESETS (sizeof presets / sizeof presets[0])

static const char *const preset_names[NPRESETS + 1] = {"VLP-16", "HDL-32E", "HDL-64E", "OS1-64", "OS1-128",
                                                       NULL};

const char *const *sensim_lidar_preset_names(void) { return preset_names; }

/* Names compare without regard to ASCII case ("vlp-16" finds "VLP-16"). */
static int same_name(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
  return *a == *b;
}

sensim_status sensim_lidar_preset(const char *name, sensim_lidar_params *p) {
  if (!name || !p) return sensim__fail(SENSIM_EINVAL, "sensim_lidar_preset: name and params must not be NULL");
  for (size_t i = 0; i < NPRESETS; i++) {
    if (!same_name(name, presets[i].name)) continue;
    presets[i].fill(p);
    return SENSIM_OK;
  }
  char list[128] = "";
  size_t used = 0;
  for (size_t i = 0; i < NPRESETS && used < sizeof list; i++) {
    int k = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", presets[i].name);
    if (k < 0) break;
    used += (size_t)k;
  }
  char hint[96];
  return sensim__fail(SENSIM_ENOTFOUND, "unknown lidar preset '%s'%s (%s)", name,
                      sensim__did_you_mean(hint, sizeof hint, name, preset_names), list);
}
