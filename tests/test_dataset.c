/* tests/test_dataset.c: labelled datasets for the perception judge (issue
 * 27): boxes from the label plane against projected geometry, the dataset
 * per ablation variant and its refusals; groups live in tests/dataset/. */
#include "dataset/dataset_groups.h"

int main(void) {
  int failed = 0;
  failed += sensim_test_dataset_boxes();
  failed += sensim_test_dataset_run();
  failed += sensim_test_dataset_judge_sweep();
  return failed ? 1 : 0;
}
