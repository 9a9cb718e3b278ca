#include "support/stats.h"

double test_edf_white_fm(double npts, double m) {
  return (3.0 * (npts - 1.0) / (2.0 * m) - 2.0 * (npts - 2.0) / npts) * 4.0 * m * m / (4.0 * m * m + 5.0);
}

double test_edf_rw_fm(double npts, double m) {
  return (npts - 2.0) / m * ((npts - 1.0) * (npts - 1.0) - 3.0 * m * (npts - 1.0) + 4.0 * m * m) /
         ((npts - 3.0) * (npts - 3.0));
}
