/* tests/dataset/dataset_groups.h: the dataset test binary's groups
 * (tests/test_dataset.c runs them). */
#ifndef SENSIM_TESTS_DATASET_GROUPS_H
#define SENSIM_TESTS_DATASET_GROUPS_H

int sensim_test_dataset_boxes(void); /* box_tests.c: the label plane's boxes */
int sensim_test_dataset_run(void);   /* run_tests.c: datasets per variant, bad input */
int sensim_test_dataset_judge_sweep(void); /* judge_sweep_tests.c: judge sweeps load and refuse */

#endif
