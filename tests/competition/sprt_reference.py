#!/usr/bin/env python3
"""Reference values for tests/competition/sprt_test.cc, computed independently.

competition/sprt.cc finds each constrained maximum-likelihood distribution
by Newton's method on the one-multiplier secular equation (and, for the
normalized model, a fixed point over the tangent of the sd). This script
gets the same maxima another way: through the convex dual of the
likelihood, with linear constraints only -- the mean (logistic model), or
the mean m and second moment m^2 + ((m - 1/2) / t)^2 with an outer
golden-section search over m (normalized model) -- so the two agree only
if both are right. Pure Python 3, no packages; slow (minutes); not run in
CI. Run it and
compare with the constants in sprt_test.cc:
    python3 tests/competition/sprt_reference.py
"""
import math

UNSEEN = 1e-3
NELO_PER_T = 800 / math.log(10)
Z95 = 1.959963984540054
PAIR = [0, 0.25, 0.5, 0.75, 1]
GAME = [0, 0.5, 1]


def regularized(counts):
    p = [c if c > 0 else UNSEEN for c in counts]
    s = sum(p)
    return [x / s for x in p]


def dual_max(p, hs):
    """max over x of phi(x) = sum_i p_i log(1 + x . h_i), h_i vectors.

    phi is concave; damped Newton with backtracking inside the domain.
    Returns phi at the maximum: the log-likelihood lost by the constraint.
    """
    k = len(hs[0])
    x = [0.0] * k

    def phi(x):
        s = 0.0
        for pi, hi in zip(p, hs):
            d = 1 + sum(a * b for a, b in zip(x, hi))
            if d <= 0:
                return -math.inf
            s += pi * math.log(d)
        return s

    for _ in range(500):
        g = [0.0] * k
        H = [[0.0] * k for _ in range(k)]
        for pi, hi in zip(p, hs):
            d = 1 + sum(a * b for a, b in zip(x, hi))
            for r in range(k):
                g[r] += pi * hi[r] / d
                for c in range(k):
                    H[r][c] -= pi * hi[r] * hi[c] / (d * d)
        if max(abs(v) for v in g) < 1e-15:
            break
        # Solve H step = -g (k is 1 or 2).
        if k == 1:
            step = [-g[0] / H[0][0]]
        else:
            det = H[0][0] * H[1][1] - H[0][1] * H[1][0]
            step = [(-g[0] * H[1][1] + g[1] * H[0][1]) / det,
                    (-g[1] * H[0][0] + g[0] * H[1][0]) / det]
        f0 = phi(x)
        t = 1.0
        while t > 1e-20:
            cand = [a + t * b for a, b in zip(x, step)]
            if phi(cand) >= f0:
                break
            t /= 2
        if t <= 1e-20:
            break
        x = cand
    return phi(x)


def lost_mean(scores, p, mean):
    return dual_max(p, [[a - mean] for a in scores])


def lost_t(scores, p, t):
    if t == 0:
        return lost_mean(scores, p, 0.5)

    def lost_at(m):
        sd = (m - 0.5) / t
        m2 = m * m + sd * sd
        return dual_max(p, [[a - m, a * a - m2] for a in scores])

    # (m - 1/2) / t must be a positive sd that fits in [0, 1]; the optimum
    # may sit very close to 1/2 (a nearly degenerate p), so search over
    # u = log|m - 1/2| from 1e-12 to 1/2.
    sign = 1 if t > 0 else -1

    def lost_u(u):
        return lost_at(0.5 + sign * math.exp(u))

    lo, hi = math.log(1e-12), math.log(0.5 - 1e-12)
    grid = [lo + (hi - lo) * i / 400 for i in range(401)]
    vals = [lost_u(u) for u in grid]
    i = min(range(len(grid)), key=lambda j: vals[j])
    a, b = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    g = (math.sqrt(5) - 1) / 2
    for _ in range(200):
        c, d = b - g * (b - a), a + g * (b - a)
        if lost_u(c) < lost_u(d):
            b = d
        else:
            a = c
    return lost_u((a + b) / 2)


def llr(counts, scores, elo0, elo1, model, per_pair):
    n = sum(counts)
    p = regularized(counts)
    if model == "logistic":
        s = [1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1)]
        l0, l1 = (lost_mean(scores, p, x) for x in s)
    else:
        scale = math.sqrt(2) if per_pair else 1
        l0, l1 = (lost_t(scores, p, e / NELO_PER_T * scale)
                  for e in (elo0, elo1))
    return n * (l0 - l1)


def estimates(counts, scores, per_pair):
    n = sum(counts)
    mu = sum(c * a for c, a in zip(counts, scores)) / n
    var = sum(c * (a - mu) ** 2 for c, a in zip(counts, scores)) / n
    se = math.sqrt(var / n)

    def elo(s):
        return -400 * math.log10(1 / s - 1)

    games = 2 * n if per_pair else n
    sd_game = math.sqrt(var) * (math.sqrt(2) if per_pair else 1)
    nelo = (mu - 0.5) / sd_game * NELO_PER_T
    half = Z95 * NELO_PER_T / math.sqrt(games)
    los = 0.5 * math.erfc(-((mu - 0.5) / se) / math.sqrt(2))
    return (mu, elo(mu), elo(mu - Z95 * se), elo(mu + Z95 * se), nelo,
            nelo - half, nelo + half, los)


def main():
    cases = [
        ("penta mixed", [3, 12, 40, 15, 5], PAIR, True),
        ("penta all WL/DD", [0, 0, 100, 0, 0], PAIR, True),
        ("penta all WL/DD 300", [0, 0, 300, 0, 0], PAIR, True),
        ("penta one-sided WW", [0, 0, 0, 0, 50], PAIR, True),
        ("penta split", [10, 0, 30, 0, 20], PAIR, True),
        ("tri mixed", [20, 10, 30], GAME, False),
        ("tri no draws", [20, 0, 30], GAME, False),
    ]
    for name, counts, scores, per_pair in cases:
        for model in ("normalized", "logistic"):
            v = llr(counts, scores, 0, 5, model, per_pair)
            print(f"{name:20s} {model:10s} elo0=0 elo1=5 LLR {v:.12f}")
        v = llr(counts, scores, -5, 20, "normalized", per_pair)
        if "300" in name:
            continue
        print(f"{name:20s} normalized elo0=-5 elo1=20 LLR {v:.12f}")
        if "one-sided" not in name and "all" not in name:
            print("  estimates mu elo lo hi nelo lo hi los:",
                  " ".join(f"{x:.12f}" for x in estimates(counts, scores,
                                                          per_pair)))
    # The closed form for two outcomes (no draws, nothing regularized away):
    s0, s1 = 0.5, 1 / (1 + 10 ** (-5 / 400))
    print("closed form 30 W 20 L logistic 0/5:",
          f"{30 * math.log(s1 / s0) + 20 * math.log((1 - s1) / (1 - s0)):.12f}")


if __name__ == "__main__":
    main()
