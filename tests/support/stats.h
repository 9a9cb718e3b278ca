/* tests/support/stats.h: statistics the noise tests share. */
#ifndef SENSIM_TESTS_STATS_H
#define SENSIM_TESTS_STATS_H

/* Equivalent degrees of freedom of the overlapping Allan variance at
 * averaging factor m from npts samples, for white FM and random-walk FM
 * noise (NIST SP 1065, Riley 2008, Table 5). */
double test_edf_white_fm(double npts, double m);
double test_edf_rw_fm(double npts, double m);

#endif
