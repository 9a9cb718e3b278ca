/* tests/vepd/vepd_groups.h: the group runners of test_vepd. */
#ifndef SENSIM_TESTS_VEPD_GROUPS_H
#define SENSIM_TESTS_VEPD_GROUPS_H

int sensim_test_vepd_metrics(void);
int sensim_test_vepd_csv(void);
int sensim_test_vepd_ekf(void);
int sensim_test_vepd_experiment(void);
int sensim_test_vepd_cli(void);
int sensim_test_vepd_doc_variants(void);
int sensim_test_vepd_published(void);

#endif
