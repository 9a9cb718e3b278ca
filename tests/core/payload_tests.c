/* tests/core/payload_tests.c: the payload table (core/payload.h) is
 * complete and consistent, and the public lookups built on it refuse bad
 * input.
 *
 * The table replaced switches over the enum, whose compiler warnings used
 * to catch a payload left out; these tests are what catches it now: every
 * value from NONE + 1 to ANY - 1 must have a descriptor that agrees with
 * its C type and with its own file layouts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/payload.h"
#include "support/testutil.h"

/* Size of one element as frame.h documents each payload. A switch without
 * default, so a new enum value without a size here fails to compile
 * (-Wswitch, -Werror). */
static size_t documented_size(sensim_payload t) {
  switch (t) {
  case SENSIM_PAYLOAD_RGB_F32: return 3 * sizeof(float);
  case SENSIM_PAYLOAD_RGBA8: return 4 * sizeof(uint8_t);
  case SENSIM_PAYLOAD_GRAY8: return sizeof(uint8_t);
  case SENSIM_PAYLOAD_GRAY16: return sizeof(uint16_t);
  case SENSIM_PAYLOAD_DEPTH_F32: return sizeof(float);
  case SENSIM_PAYLOAD_LABELS: return sizeof(sensim_label);
  case SENSIM_PAYLOAD_BEAMS: return sizeof(sensim_beam);
  case SENSIM_PAYLOAD_POINTS: return sizeof(sensim_point);
  case SENSIM_PAYLOAD_GNSS: return sizeof(sensim_gnss_fix);
  case SENSIM_PAYLOAD_IMU: return sizeof(sensim_imu_sample);
  case SENSIM_PAYLOAD_RAW_F32: return sizeof(float);
  case SENSIM_PAYLOAD_RAW16: return sizeof(uint16_t);
  case SENSIM_PAYLOAD_RGB16: return 3 * sizeof(uint16_t);
  case SENSIM_PAYLOAD_GRAY_F32: return sizeof(float);
  case SENSIM_PAYLOAD_MAG: return sizeof(sensim_mag_sample);
  case SENSIM_PAYLOAD_DETECTION: return sizeof(sensim_detection);
  case SENSIM_PAYLOAD_RADAR: return sizeof(sensim_radar_detection);
  case SENSIM_PAYLOAD_RADAR_CUBE:
  case SENSIM_PAYLOAD_RADAR_RD: return sizeof(sensim_complex32);
  case SENSIM_PAYLOAD_NONE:
  case SENSIM_PAYLOAD_ANY: return 0;
  }
  return 0;
}

static size_t sample_size(sensim_sample s) {
  switch (s) {
  case SENSIM_SAMPLE_U8: return 1;
  case SENSIM_SAMPLE_U16: return 2;
  case SENSIM_SAMPLE_F32: return 4;
  case SENSIM_SAMPLE_NONE:
  case SENSIM_SAMPLE_STRUCT: return 0;
  }
  return 0;
}

static void test_payload_table_has_every_enum_value_with_a_unique_round_tripping_name(void **state) {
  (void)state;
  for (int t = SENSIM_PAYLOAD_NONE; t <= SENSIM_PAYLOAD_ANY; t++) {
    const sensim__payload_desc *d = sensim__payload_desc_of((sensim_payload)t);
    if (!d) fail_msg("payload %d has no row in core/payload_table.c", t);
    assert_int_equal(d->type, t);
    assert_non_null(d->name);
    assert_true(d->name[0] != '\0');
    for (const char *c = d->name; *c; c++)
      if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_'))
        fail_msg("payload name '%s' is not lower-case [a-z0-9_]", d->name);
    for (int u = SENSIM_PAYLOAD_NONE; u < t; u++)
      if (strcmp(sensim_payload_name((sensim_payload)u), d->name) == 0)
        fail_msg("payloads %d and %d are both named '%s'", u, t, d->name);
    assert_string_equal(sensim_payload_name((sensim_payload)t), d->name);
    sensim_payload back = SENSIM_PAYLOAD_ANY;
    SENSIM_OK_OR_FAIL(sensim_payload_from_name(d->name, &back));
    assert_int_equal(back, t);
  }
  assert_string_equal(sensim_payload_name(SENSIM_PAYLOAD_NONE), "none");
  assert_string_equal(sensim_payload_name(SENSIM_PAYLOAD_ANY), "any");
}

static void test_payload_sizes_match_the_c_types_and_image_samples(void **state) {
  (void)state;
  assert_int_equal(sensim_payload_elem_size(SENSIM_PAYLOAD_NONE), 0);
  assert_int_equal(sensim_payload_elem_size(SENSIM_PAYLOAD_ANY), 0);
  for (int t = SENSIM_PAYLOAD_NONE + 1; t < SENSIM_PAYLOAD_ANY; t++) {
    sensim_payload p = (sensim_payload)t;
    const sensim__payload_desc *d = sensim__payload_desc_of(p);
    assert_non_null(d);
    if (d->elem_size != documented_size(p) || d->elem_size == 0)
      fail_msg("%s: elem_size %zu, its C type has %zu", d->name, d->elem_size, documented_size(p));
    assert_int_equal(sensim_payload_elem_size(p), d->elem_size);
    assert_int_equal(sensim_payload_is_image(p), d->shape == SENSIM__SHAPE_IMAGE);
    assert_int_equal(sensim_payload_channels(p), d->channels);
    assert_int_equal(sensim_payload_sample(p), d->sample);
    if (d->shape == SENSIM__SHAPE_IMAGE) {
      if (d->sample == SENSIM_SAMPLE_STRUCT) {
        assert_int_equal(d->channels, 1);
      } else {
        assert_in_range(d->channels, 1, 4);
        if ((size_t)d->channels * sample_size(d->sample) != d->elem_size)
          fail_msg("%s: %d channels of %zu bytes != elem_size %zu", d->name, d->channels,
                   sample_size(d->sample), d->elem_size);
      }
      assert_null(d->csv_header);
    } else {
      /* Records are C structs, one per element. */
      assert_int_equal(d->shape, SENSIM__SHAPE_RECORDS);
      assert_int_equal(d->sample, SENSIM_SAMPLE_STRUCT);
      assert_int_equal(d->channels, 1);
      assert_null(d->to_gray16);
    }
  }
  for (int t = SENSIM_PAYLOAD_NONE; t <= SENSIM_PAYLOAD_ANY; t += SENSIM_PAYLOAD_ANY) {
    const sensim__payload_desc *d = sensim__payload_desc_of((sensim_payload)t);
    assert_non_null(d);
    assert_int_equal(d->shape, SENSIM__SHAPE_NONE);
    assert_int_equal(d->channels, 0);
    assert_int_equal(d->sample, SENSIM_SAMPLE_NONE);
    assert_false(sensim_payload_is_image((sensim_payload)t));
  }
}

/* Columns of one CSV line: commas + 1; the line must end in '\n'. */
static int columns(const char *line, size_t len) {
  assert_true(len > 0 && line[len - 1] == '\n');
  int n = 1;
  for (size_t i = 0; i < len; i++) n += line[i] == ',';
  return n;
}

static void test_payload_csv_headers_have_as_many_columns_as_every_row(void **state) {
  (void)state;
  int with_csv = 0;
  for (int t = SENSIM_PAYLOAD_NONE; t <= SENSIM_PAYLOAD_ANY; t++) {
    const sensim__payload_desc *d = sensim__payload_desc_of((sensim_payload)t);
    assert_non_null(d);
    assert_int_equal(d->csv_header == NULL, d->csv_rows == NULL);
    if (!d->csv_header) continue;
    with_csv++;
    /* Zeroed elements (0 everywhere is a valid value of every field), two
     * per frame where a frame may hold more than one. */
    size_t count = d->single ? 1 : 2;
    void *data = calloc(count, d->elem_size);
    assert_non_null(data);
    sensim_frame f;
    memset(&f, 0, sizeof f);
    f.type = d->type;
    f.width = (uint32_t)count;
    f.height = 1;
    f.count = count;
    f.data = data;
    f.t_capture = 0.25;
    FILE *fp = tmpfile();
    assert_non_null(fp);
    d->csv_rows(fp, &f);
    rewind(fp);
    int header = columns(d->csv_header, strlen(d->csv_header));
    /* One line, ending in its "\n". */
    assert_ptr_equal(strchr(d->csv_header, '\n'), d->csv_header + strlen(d->csv_header) - 1);
    char line[4096];
    size_t rows = 0;
    while (fgets(line, sizeof line, fp)) {
      rows++;
      int n = columns(line, strlen(line));
      if (n != header)
        fail_msg("%s: header has %d columns, row %zu has %d: %s", d->name, header, rows, n, line);
    }
    fclose(fp);
    free(data);
    assert_int_equal(rows, count);
  }
  assert_true(with_csv >= 5);
}

static void test_payload_outputs_are_ones_the_payload_can_take(void **state) {
  (void)state;
  for (int t = SENSIM_PAYLOAD_NONE; t <= SENSIM_PAYLOAD_ANY; t++) {
    const sensim__payload_desc *d = sensim__payload_desc_of((sensim_payload)t);
    assert_non_null(d);
    assert_true(sensim__payload_takes_output(d, "none"));
    if (d->default_output && !sensim__payload_takes_output(d, d->default_output))
      fail_msg("%s: default output '%s' cannot hold it", d->name, d->default_output);
    int channels = 0;
    int bits = sensim__payload_file_bits(d, &channels);
    assert_int_equal(sensim__payload_takes_output(d, "png"), bits != 0 || d->picture != NULL);
    assert_true(!(bits && d->picture)); /* an image is its own picture */
    if (bits) {
      assert_true(bits == 8 || bits == 16);
      assert_in_range(channels, 1, 4);
    }
    assert_int_equal(sensim__payload_takes_output(d, "csv"), d->csv_header != NULL);
    /* png and csv follow from the layouts and are never listed. */
    for (const char *const *f = d->formats; f && *f; f++) {
      assert_true(strcmp(*f, "png") != 0 && strcmp(*f, "csv") != 0 && strcmp(*f, "none") != 0);
      assert_true(sensim__payload_takes_output(d, *f));
    }
  }
  const sensim__payload_desc *pts = sensim__payload_desc_of(SENSIM_PAYLOAD_POINTS);
  assert_true(sensim__payload_takes_output(pts, "pcd"));
  assert_false(sensim__payload_takes_output(pts, "nmea"));
  assert_false(sensim__payload_takes_output(pts, "png"));
  assert_false(sensim__payload_takes_output(pts, NULL));
  assert_true(sensim__payload_takes_output(NULL, "none"));
  assert_false(sensim__payload_takes_output(NULL, "csv"));
}

static void test_payload_lookups_refuse_unknown_names_and_out_of_range_values(void **state) {
  (void)state;
  sensim_payload out = SENSIM_PAYLOAD_GNSS;
  assert_int_equal(sensim_payload_from_name("pointcloud", &out), SENSIM_ENOTFOUND);
  assert_non_null(strstr(sensim_last_error(), "'pointcloud'"));
  assert_non_null(strstr(sensim_last_error(), "points"));
  assert_int_equal(out, SENSIM_PAYLOAD_GNSS);
  assert_int_equal(sensim_payload_from_name("", &out), SENSIM_ENOTFOUND);
  assert_int_equal(sensim_payload_from_name("RGBA8", &out), SENSIM_ENOTFOUND);
  assert_int_equal(sensim_payload_from_name("unknown", &out), SENSIM_ENOTFOUND);
  assert_int_equal(sensim_payload_from_name(NULL, &out), SENSIM_EINVAL);
  assert_int_equal(sensim_payload_from_name("rgba8", NULL), SENSIM_EINVAL);
  assert_int_equal(out, SENSIM_PAYLOAD_GNSS);
  /* A name far longer than any message keeps the message bounded. */
  char longname[2000];
  memset(longname, 'x', sizeof longname - 1);
  longname[sizeof longname - 1] = '\0';
  assert_int_equal(sensim_payload_from_name(longname, &out), SENSIM_ENOTFOUND);

  const sensim_payload bad[] = {(sensim_payload)(SENSIM_PAYLOAD_ANY + 1), (sensim_payload)-1,
                                (sensim_payload)1000};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_null(sensim__payload_desc_of(bad[i]));
    assert_string_equal(sensim_payload_name(bad[i]), "unknown");
    assert_int_equal(sensim_payload_elem_size(bad[i]), 0);
    assert_int_equal(sensim_payload_is_image(bad[i]), 0);
    assert_int_equal(sensim_payload_channels(bad[i]), 0);
    assert_int_equal(sensim_payload_sample(bad[i]), SENSIM_SAMPLE_NONE);
    sensim_frame f;
    memset(&f, 0, sizeof f);
    assert_int_equal(sensim_frame_alloc(&f, bad[i], 2, 2), SENSIM_EINVAL);
    assert_null(f.data);
  }
}

static void test_payload_frame_alloc_sizes_buffers_from_the_table(void **state) {
  (void)state;
  for (int t = SENSIM_PAYLOAD_NONE + 1; t < SENSIM_PAYLOAD_ANY; t++) {
    sensim_frame f;
    memset(&f, 0, sizeof f);
    SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, (sensim_payload)t, 3, 2));
    assert_int_equal(f.count, 6);
    assert_int_equal(f.type, t);
    /* Every byte of the zeroed buffer is there (ASan checks the bound). */
    const unsigned char *b = f.data;
    size_t n = 6 * sensim_payload_elem_size((sensim_payload)t), sum = 0;
    for (size_t i = 0; i < n; i++) sum += b[i];
    assert_int_equal(sum, 0);
    free(f.data);
  }
  sensim_frame f;
  memset(&f, 0, sizeof f);
  assert_int_equal(sensim_frame_alloc(&f, SENSIM_PAYLOAD_ANY, 1, 1), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "any"));
}

int sensim_test_payload(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_payload_table_has_every_enum_value_with_a_unique_round_tripping_name),
      cmocka_unit_test(test_payload_sizes_match_the_c_types_and_image_samples),
      cmocka_unit_test(test_payload_csv_headers_have_as_many_columns_as_every_row),
      cmocka_unit_test(test_payload_outputs_are_ones_the_payload_can_take),
      cmocka_unit_test(test_payload_lookups_refuse_unknown_names_and_out_of_range_values),
      cmocka_unit_test(test_payload_frame_alloc_sizes_buffers_from_the_table),
  };
  return cmocka_run_group_tests_name("payload", tests, NULL, NULL);
}
