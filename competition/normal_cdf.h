// The standard normal distribution function, Phi(x), shared by the SPRT's
// likelihood of superiority (sprt.h) and the Bradley–Terry fit's
// (bradley_terry.h).

#ifndef CASSINO_COMPETITION_NORMAL_CDF_H_
#define CASSINO_COMPETITION_NORMAL_CDF_H_

#include <cmath>

namespace cassino::competition {

inline double NormalCdf(double x) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

}  // namespace cassino::competition

#endif  // CASSINO_COMPETITION_NORMAL_CDF_H_
