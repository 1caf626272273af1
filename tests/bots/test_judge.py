"""The label rule: a decision is named only by the loss that its samples establish (the lower
end of the paired interval), so noise between equal cards is never a mistake and a clear
blunder is one at every budget."""

from __future__ import annotations

import random

from tests.bots.toy_game import BidState, PrizeBidsGame

from sakura.bots.analysis import label
from sakura.bots.judge import Judgement, judge


def _coin_flips(samples: int, seed: int) -> Judgement:
    """Two cards that are worth exactly the same: each wins half its playouts, the luck of one
    independent of the other's (the worst case for a paired comparison)."""
    rng = random.Random(seed)
    rows = tuple(tuple(float(rng.random() < 0.5) for _ in range(samples)) for _ in range(2))
    return Judgement(0, ("play a", "play b"), rows)


def test_two_cards_equal_within_the_noise_get_no_label() -> None:
    """Cards equal in truth are named at most as often as the bound's 5% error allows (over
    200 positions and five budgets), where the point estimate names a good share of them."""
    labelled = naive = cases = 0
    for samples in (30, 100, 300, 1000, 3000):
        for seed in range(40):
            loss = _coin_flips(samples, seed).loss("play b")  # played before the samples were drawn
            cases += 1
            labelled += label(loss.low) is not None
            naive += label(loss.value) is not None
    assert labelled <= 0.05 * cases / 2, labelled  # one-sided: half the misses land on the other card
    assert naive >= 0.1 * cases, naive
    assert label(_coin_flips(1000, 0).loss("play b").low) is None  # the default budget's case


def _last_two_prizes() -> tuple[PrizeBidsGame, BidState]:
    """Player 0 holds 1 and 12 for the prizes 11 (now) and one more of at most 10: bid 12 now
    and win, bid 1 now and lose, whatever the hidden cards are."""
    game = PrizeBidsGame()
    state = BidState([[1, 12], [5, 6]], [2, 11])
    return game, state


def test_a_clear_blunder_keeps_its_label_at_every_budget() -> None:
    game, state = _last_two_prizes()
    view = state.view(0)
    for samples in (5, 20, 100, 1000):
        judged = judge(game, view, samples, seed=samples)  # type: ignore[arg-type]
        assert judged.best == "bid 12"
        loss = judged.loss("bid 1")
        assert loss.value == 100.0 and label(loss.low) == "blunder"
        assert judged.loss("bid 12").value == 0.0 and judged.sure()


def test_the_judge_pairs_the_actions_on_the_same_samples() -> None:
    """Every action of a sample sees the same hidden cards: with the outcome decided by the
    hidden cards alone, two actions differ by nothing, and the margin is zero."""
    game = PrizeBidsGame()
    state = BidState([[1, 2], [5, 6]], [3, 4])  # both prizes go to player 1 whatever 0 bids
    judged = judge(game, state.view(0), 50, seed=2)  # type: ignore[arg-type]
    loss = judged.loss(next(a for a in judged.actions if a != judged.best))
    assert loss.value == 0.0 and loss.margin == 0.0 and label(loss.low) is None
