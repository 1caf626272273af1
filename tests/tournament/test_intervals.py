"""Cluster-robust intervals against direct computations on small hand-made result sets."""

from __future__ import annotations

import math
import random
import statistics

import pytest
from scipy import stats

from sakura.tournament.intervals import RATE, Clustered, t_quantile, two_sample
from sakura.tournament.ratings import wilson


def test_one_observation_a_cluster_is_the_textbook_t_interval() -> None:
    values = [3.0, 5.0, 4.0, 8.0, 6.0, 2.0, 7.0]
    c = Clustered()
    for i, v in enumerate(values):
        c.add(i, "g", v)
    e = c.ratio("g")
    n = len(values)
    se = statistics.stdev(values) / math.sqrt(n)
    t = stats.t.ppf(0.975, n - 1)
    assert e.value == pytest.approx(statistics.fmean(values))
    assert e.se == pytest.approx(se)
    assert (e.low, e.high) == pytest.approx((e.value - t * se, e.value + t * se))
    assert e.clusters == n and e.n == n


def test_a_ratio_of_unequal_clusters_by_hand() -> None:
    # deal 0: 3 seat-games, 2 won; deal 1: 1 seat-game, lost; deal 2: 2 seat-games, 1 won.
    c = Clustered()
    for deal, won in [(0, 1), (0, 1), (0, 0), (1, 0), (2, 1), (2, 0)]:
        c.add(deal, "bot", won)
    e = c.ratio("bot")
    r = 3 / 6
    residuals = [2 - 3 * r, 0 - 1 * r, 1 - 2 * r]  # Y_g - r X_g
    se = math.sqrt(3 / 2 * sum(u * u for u in residuals) / 6**2)
    assert e.value == pytest.approx(0.5) and e.se == pytest.approx(se)
    assert e.high - e.value == pytest.approx(stats.t.ppf(0.975, 2) * se)


def test_two_deals_that_decide_everything_give_an_honest_wide_interval() -> None:
    """The issue's case: many games from two deals. Wilson's interval over 100 'independent'
    games is narrow; the deals are only two, and the clustered interval says so."""
    c = Clustered()
    for _ in range(50):
        c.add("deal A", "seat", 1.0)
        c.add("deal B", "seat", 0.0)
    e = c.ratio("seat", RATE)
    naive_low, naive_high = wilson(50, 100)
    assert e.value == 0.5 and e.clusters == 2
    assert e.se == pytest.approx(0.5)  # sqrt(2/1 * (25² + 25²) / 100²)
    assert e.low < 0.01 and e.high > 0.99  # two deals: it may be anything
    assert naive_high - naive_low < 0.2 < e.high - e.low


def test_a_paired_difference_is_the_paired_t_interval() -> None:
    """One game of each deck on each deal: the contrast is exactly the paired t-test's."""
    a = [10.0, 12.0, 9.0, 15.0, 11.0, 13.0]
    b = [11.0, 12.5, 10.0, 15.5, 12.5, 13.0]
    c = Clustered()
    for deal, (x, y) in enumerate(zip(a, b, strict=True)):
        c.add(deal, "A", x)
        c.add(deal, "B", y)
    e = c.difference("B", "A")
    diffs = [y - x for x, y in zip(a, b, strict=True)]
    ci = stats.ttest_rel(b, a).confidence_interval(0.95)
    assert e.value == pytest.approx(statistics.fmean(diffs))
    assert (e.low, e.high) == pytest.approx((ci.low, ci.high))
    # Unpaired (as if the decks had been played on different deals) the interval is far wider.
    u = Clustered()
    for deal, (x, y) in enumerate(zip(a, b, strict=True)):
        u.add(("A", deal), "A", x)
        u.add(("B", deal), "B", y)
    wide = u.difference("B", "A")
    assert wide.value == pytest.approx(e.value) and wide.high - wide.low > 3 * (e.high - e.low)


def test_a_conditional_difference_counts_every_deal() -> None:
    """Win rate when a card was dealt minus when it was not: x marks the condition."""
    c = Clustered()
    games = [
        (0, True, 1.0),
        (0, False, 0.0),
        (1, True, 0.0),
        (1, False, 1.0),
        (2, False, 0.5),
        (2, False, 0.5),
        (3, True, 1.0),
        (3, False, 0.0),
    ]
    for deal, dealt, won in games:
        c.add(deal, "dealt" if dealt else "not", won)
    e = c.difference("dealt", "not")
    r1, r0 = 2 / 3, 2 / 5
    x1, x0 = 3, 5
    per_deal = {0: (1, 1, 0, 1), 1: (0, 1, 1, 1), 2: (0, 0, 1, 2), 3: (1, 1, 0, 1)}
    u = [(y1 - r1 * n1) / x1 - (y0 - r0 * n0) / x0 for y1, n1, y0, n0 in per_deal.values()]
    assert e.value == pytest.approx(r1 - r0)
    assert e.se == pytest.approx(math.sqrt(4 / 3 * sum(v * v for v in u)))
    assert e.clusters == 4


def test_the_clustered_interval_covers_where_the_naive_one_does_not() -> None:
    """Games on 20 deals, 10 seat-games each, the deal deciding much of the result: the naive
    interval (every game independent) misses the true mean far more often than 5%."""
    rng = random.Random(7)
    truth, naive_hits, clustered_hits, runs = 0.5, 0, 0, 300
    for _ in range(runs):
        c = Clustered()
        values = []
        for deal in range(20):
            p = min(1.0, max(0.0, truth + rng.gauss(0, 0.25)))
            for _ in range(10):
                won = 1.0 if rng.random() < p else 0.0
                values.append(won)
                c.add(deal, "bot", won)
        e = c.ratio("bot", RATE)
        clustered_hits += e.low <= truth <= e.high
        low, high = wilson(sum(values), len(values))
        naive_hits += low <= truth <= high
    assert naive_hits / runs < 0.8
    assert clustered_hits / runs > 0.9


def test_no_data_and_one_deal() -> None:
    c = Clustered()
    assert math.isnan(c.ratio("x").value)
    c.add(0, "x", 1.0)
    e = c.ratio("x", RATE)
    assert e.value == 1.0 and (e.low, e.high) == (0.0, 1.0) and math.isinf(t_quantile(1))
    c.touch(1)
    assert c.clusters == 2


def test_a_rate_is_wilsons_interval_at_the_effective_sample_size() -> None:
    """Independent games: the design effect is about 1 and the interval is Wilson's (with the
    t quantile); every game won: no point interval, but Wilson's over the deals."""
    c = Clustered()
    for i in range(40):
        c.add(i, "bot", 1.0 if i % 4 == 0 else 0.0)
    e = c.ratio("bot", RATE)
    z = stats.t.ppf(0.975, 39)
    binomial = 0.25 * 0.75 / 40
    n_eff = 40 * binomial / e.se**2
    assert n_eff == pytest.approx(40 * 39 / 40)  # the sample variance's n - 1
    assert (e.low, e.high) == pytest.approx(wilson(0.25 * n_eff, n_eff, z))
    all_won = Clustered()
    for deal in range(5):
        for _ in range(4):
            all_won.add(deal, "bot", 1.0)
    e = all_won.ratio("bot", RATE)
    assert e.value == 1.0 and e.high == 1.0
    assert e.low == pytest.approx(wilson(5, 5, stats.t.ppf(0.975, 4))[0]) and e.low < 0.6


def test_a_small_group_that_went_one_way_is_not_certain() -> None:
    """A card dealt in 5 of 40 deals and never to a winner: its group has no variance, and
    the cluster-robust interval alone would rest on the other group's; the floor (one win
    and one loss added to each group, as if games were independent) keeps it honest, and t
    takes the 5 deals the card was dealt in."""
    c = Clustered()
    for deal in range(40):
        if deal < 5:
            c.add(deal, "dealt", 0.0)
        for seat in range(3):
            c.add(deal, "not", 1.0 if seat == deal % 3 else 0.0)
    plain = c.difference("dealt", "not")
    e = c.contrast({"dealt": 1.0, "not": -1.0}, rates=True)
    p1, p0 = 1 / 7, (40 + 1) / (120 + 2)
    floor = p1 * (1 - p1) / 7 + p0 * (1 - p0) / 122
    assert e.value == plain.value == pytest.approx(-1 / 3)
    assert e.se == pytest.approx(math.sqrt(floor)) and e.se > 3 * plain.se
    assert e.high - e.value == pytest.approx(stats.t.ppf(0.975, 4) * e.se)
    assert not e.excludes(0.0) and plain.excludes(0.0)


def test_cards_without_effect_are_flagged_about_one_time_in_twenty() -> None:
    """Random hands of 5 of 60 cards, random winners, 4 seats: no card matters, so a 95%
    interval of 'dealt minus not dealt' should leave 0 out for about 5% of the cards, even
    with few games a card (30 games: a card is dealt about 10 times)."""
    rng = random.Random(3)
    flagged = tested = 0
    for _ in range(20):
        c = Clustered()
        for game in range(30):
            winner = rng.randrange(4)
            cards = rng.sample(range(60), 20)
            for seat in range(4):
                hand = set(cards[5 * seat : 5 * seat + 5])
                for card in range(60):
                    c.add(game, ("dealt" if card in hand else "not", card), 1.0 if seat == winner else 0.0)
        for card in range(60):
            e = c.contrast({("dealt", card): 1.0, ("not", card): -1.0}, rates=True)
            if e.n:
                tested += 1
                flagged += e.excludes(0.0)
    assert 0.01 < flagged / tested < 0.08


def test_an_independent_difference_is_welchs_two_sample_interval() -> None:
    """One observation a deal on each side, the sides on their own deals: the difference is
    Welch's two-sample t interval (its degrees of freedom rounded down)."""
    xs, ys = [3.0, 5.0, 4.0, 8.0, 6.0, 2.0, 7.0], [6.0, 9.0, 4.0, 12.0, 7.0]
    a, b = Clustered(), Clustered()
    for i, v in enumerate(xs):
        a.add(i, "g", v)
    for i, v in enumerate(ys):
        b.add(100 + i, "g", v)
    d = two_sample(b.ratio("g"), a.ratio("g"))
    welch = stats.ttest_ind(ys, xs, equal_var=False)
    se = math.sqrt(statistics.variance(xs) / len(xs) + statistics.variance(ys) / len(ys))
    va, vb = statistics.variance(xs) / len(xs), statistics.variance(ys) / len(ys)
    df = (va + vb) ** 2 / (va**2 / (len(xs) - 1) + vb**2 / (len(ys) - 1))
    assert d.value == pytest.approx(statistics.fmean(ys) - statistics.fmean(xs)) and d.se == pytest.approx(se)
    assert d.degrees == math.floor(df) and welch.df == pytest.approx(df)
    assert d.high - d.value == pytest.approx(stats.t.ppf(0.975, math.floor(df)) * se)
    assert d.p_value == pytest.approx(2 * stats.t.sf(abs(d.value) / se, math.floor(df)))


def test_a_p_value_agrees_with_its_interval_and_the_paired_t_test() -> None:
    before, after = [9.0, 11.0, 10.0, 12.0, 8.0, 10.0], [8.0, 10.0, 10.0, 11.0, 6.0, 9.5]
    c = Clustered()
    for deal, (x, y) in enumerate(zip(before, after, strict=True)):
        c.add(deal, "A", x)
        c.add(deal, "B", y)
    d = c.difference("B", "A")
    assert d.p_value == pytest.approx(stats.ttest_rel(after, before).pvalue)
    assert (d.p_value < 0.05) == d.excludes(0.0)
    # the smallest effect it would see four times in five: (t + z_0.8) se
    assert d.detectable == pytest.approx((stats.t.ppf(0.975, 5) + stats.norm.ppf(0.8)) * d.se)


def test_a_paired_difference_of_rates_keeps_its_pairing_and_small_groups_stay_unsure() -> None:
    """Two sides on the same 200 deals play the same game but on 7 deals, all won by B: the
    paired floor keeps the pairing's narrow interval, where the independent-games floor would
    make it as wide as two separate runs; five deals that all went B's way are not certain."""
    c = Clustered()
    for deal in range(200):
        won = float(deal % 4 == 0)
        c.add(deal, "A", won)
        c.add(deal, "B", 1.0 if deal < 10 else won)
    weights = {"B": 1.0, "A": -1.0}
    paired = c.contrast(weights, rates=True, paired=True)
    independent = c.contrast(weights, rates=True)
    assert paired.value == pytest.approx(7 / 200) and paired.excludes(0.0)
    assert paired.se == pytest.approx(c.contrast(weights).se) and independent.se > 3 * paired.se
    small = Clustered()
    for deal in range(5):
        small.add(deal, "A", 0.0)
        small.add(deal, "B", 1.0)
    e = small.contrast(weights, rates=True, paired=True)
    assert e.se == pytest.approx(math.sqrt(2 / 7**2)) and e.high - e.low > 1.0
