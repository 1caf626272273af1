"""The rules of the card game, one ruling a test, each quoting the seed (Persian, with an English
gloss) or the ruling of docs/rules-cards.md it checks."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest
from tests.cards.scenarios import GAME, do, situation

from sakura.engine import IllegalActionError
from sakura.engine.games.cards import DECK, Discard, Give, Place, score_area
from sakura.engine.games.cards.deck import BLOSSOM, COLOUR, NUMBER

# ---------------------------------------------------------------------------- the cards


def test_forty_cards_ten_per_colour_two_of_each_number() -> None:
    """«۱۰ کارت در هر رنگ از ۴ رنگ، با اعداد ۱ تا ۵» (ten cards in each of four colours,
    numbers 1 to 5). Ruling: 40 cards, two of each number per colour; the seed's «۵۰ کارت»
    (50 cards) contradicts its own count and is not followed."""
    assert len(DECK) == 40
    assert Counter(COLOUR[c] for c in DECK) == {"r": 10, "b": 10, "g": 10, "y": 10}
    assert all(
        Counter(NUMBER[c] for c in DECK if COLOUR[c] == k) == dict.fromkeys(range(1, 6), 2) for k in "rbgy"
    )


def test_one_1_and_one_5_of_each_colour_bear_a_blossom() -> None:
    """«بعضی کارتها نماد خاصی دارند (مثل شکوفهی گیلاس)» (some cards bear a cherry blossom).
    Ruling: one copy of the 1 and one of the 5 of each colour: eight blossom cards."""
    blossoms = sorted(c for c in DECK if BLOSSOM[c])
    assert len(blossoms) == 8
    assert sorted(NUMBER[c] for c in blossoms) == [1] * 4 + [5] * 4


# ---------------------------------------------------------------------------- the deal


def test_each_player_is_dealt_ten_and_the_rest_is_set_aside() -> None:
    """«هر بازیکن ۱۰ کارت از دستهی برخورده گرفته و بقیهی کارتها کنار گذاشته میشود»
    (each player takes 10 cards from the shuffled deck and the rest is set aside)."""
    state = GAME.new_initial_state(seed=5)
    assert [len(h) for h in state.hands] == [10, 10] and len(state.aside) == 20
    assert Counter(state.hands[0] + state.hands[1] + state.aside) == Counter(DECK)


def test_the_first_player_is_drawn_then_the_start_alternates() -> None:
    """«بازی با بازیکنی که شروعکننده است (مثلاً با قرعهکشی) آغاز میشود» (the game begins with
    the starting player, e.g. drawn by lot). Ruling: round 1's starter is drawn from the seed,
    then the start alternates."""
    starters = {GAME.new_initial_state(seed).turn for seed in range(20)}
    assert starters == {0, 1}
    state = situation(([], ["r2"]), turn=1, first=1, round=1)
    events = do(state, 1, "place r2 garden")
    assert events[-2] == {"type": "round_started", "round": 2, "starter": 0}
    assert state.round == 2 and state.turn == 0 and [len(h) for h in state.hands] == [10, 10]


def test_each_round_is_shuffled_and_dealt_anew_and_the_areas_are_cleared() -> None:
    """«سپس کارتها را برمیدارید و دور بعدی شروع میشود» (then you pick up the cards and the next
    round starts). Ruling: the areas are cleared and all forty cards are shuffled again."""
    state = situation(([], ["y5"]), ([["r1", "b2", "g3"], [], []], [[], [], []]), turn=1)
    events = do(state, 1, "place y5 temple")
    assert [e["type"] for e in events] == ["card_placed", "round_scored", "round_started", "cards_dealt"]
    assert state.areas == [[[], [], []], [[], [], []]] and state.scores == [[15], [0]]
    assert Counter(state.hands[0] + state.hands[1] + state.aside) == Counter(DECK)


# ---------------------------------------------------------------------------- a turn


def test_place_then_give_a_card_face_down() -> None:
    """«یک کارت از دست خود برمیدارید و آن را در یکی از سه ناحیه ... قرار میدهید. سپس یک کارت از
    دست خود را به حریف میدهید (بهصورت رو به پایین)» (you put a card from your hand in one of the
    three areas, then give a card from your hand to the opponent, face down). Ruling: two
    actions by the same player."""
    state = situation((["r2", "b4", "g5"], ["y1"]))
    do(state, 0, "place r2 palace")
    assert state.areas[0][1] == ["r2"] and state.current_players() == (0,) and state.phase == "give"
    assert [str(a) for a in state.legal_actions(0)] == ["give b4", "give g5"]
    events = do(state, 0, "give g5")
    assert events == [{"type": "card_given", "giver": 0, "receiver": 1, "card": "g5"}]
    assert state.hands == [["b4"], ["y1", "g5"]] and state.current_players() == (1,)
    assert state.phase == "place" and state.given[0] == ["g5"] and state.received[1] == ["g5"]


def test_the_last_card_is_placed_and_nothing_is_given() -> None:
    """Ruling: «if you still hold one»: after placing your last card you give nothing, and the
    turn passes."""
    state = situation((["r2"], ["y1", "y2"]))
    do(state, 0, "place r2 garden")
    assert state.hands[0] == [] and state.turn == 1 and state.phase == "place"


def test_a_card_may_not_go_below_the_last_card_of_an_area() -> None:
    """«نمیتوان کارتی با عدد کوچکتر از کارت آخر در آن ناحیه گذاشت» (you cannot put a card lower
    than the last card in that area)."""
    state = situation((["r2", "b3"], ["y1"]), ([["g3"], ["g1"], []], [[], [], []]))
    assert [str(a) for a in state.legal_actions(0)] == [
        "place r2 palace",
        "place r2 temple",
        "place b3 garden",
        "place b3 palace",
        "place b3 temple",
    ]
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="higher card"):
        state.apply_action(0, Place("r2", "garden"))
    assert state.to_json() == before


def test_an_equal_number_may_follow() -> None:
    """«به ترتیب صعودی» (in ascending order). Ruling: "not lower than", so equal numbers may
    follow each other."""
    state = situation((["b3"], ["y1"]), ([["g3"], [], []], [[], [], []]))
    do(state, 0, "place b3 garden")
    assert state.areas[0][0] == ["g3", "b3"]


def test_a_player_whose_cards_fit_nowhere_discards_one_face_down() -> None:
    """Ruling: if no card of your hand fits in any area, you discard one of your choice face
    down instead (it scores nothing), then give as usual."""
    full = [["r5"], ["b5"], ["g4"]]
    state = situation((["r1", "b2", "y3"], ["y1"]), (full, [[], [], []]))
    assert [str(a) for a in state.legal_actions(0)] == ["discard r1", "discard b2", "discard y3"]
    events = do(state, 0, "discard b2")
    assert events == [{"type": "card_discarded", "player": 0, "card": "b2"}]
    assert state.discards[0] == ["b2"] and state.phase == "give" and state.areas[0] == full
    do(state, 0, "give r1")
    assert state.turn == 1


def test_no_discard_while_a_card_fits() -> None:
    """Ruling: discarding is only for when nothing fits."""
    state = situation((["r1", "y5"], ["y1"]), ([["r5"], ["b5"], ["g4"]], [[], [], []]))
    assert [str(a) for a in state.legal_actions(0)] == [
        "place y5 garden",
        "place y5 palace",
        "place y5 temple",
    ]
    with pytest.raises(IllegalActionError, match="only when none fits"):
        state.apply_action(0, Discard("r1"))


def test_turns_alternate_until_both_hands_are_empty() -> None:
    """«این کار تا زمانی ادامه مییابد که دست هر دو بازیکن خالی شود» (this goes on until both
    players' hands are empty): a round of ten cards each is twenty turns."""
    state = GAME.new_initial_state(seed=9)
    turns: list[int] = []
    while state.round == 1:
        player = state.turn
        if state.phase == "place":
            turns.append(player)
        state.apply_action(player, state.legal_actions(player)[0])
    assert len(turns) == 20
    assert all(a != b for a, b in pairwise(turns))


# ---------------------------------------------------------------------------- scoring


def test_the_seed_example_blue_1_green_2_red_3_scores_15() -> None:
    """«کارتهای ۱ آبی، ۲ سبز و ۳ قرمز ... مجموعاً ۱۵ امتیاز» (blue 1, green 2, red 3: different
    colours 10 and in a row 5, 15 in all) «اگر یکی از آنها شکوفه هم داشت، ۳ امتیاز اضافه میشد»
    (had one a blossom, 3 more)."""
    assert score_area(["b1", "g2", "r3"]) == 15
    assert score_area(["b1*", "g2", "r3"]) == 18


def test_three_of_one_colour_15_and_in_a_row_20() -> None:
    """«اگر سه کارت همرنگ باشد، ۱۵ امتیاز ... سه کارت همرنگ و متوالی ۲۰ امتیاز» (three of one
    colour 15; one colour and in a row, 20)."""
    assert score_area(["r2", "r2", "r4"]) == 15
    assert score_area(["r2", "r3", "r4"]) == 20
    assert score_area(["r1", "b1", "g1"]) == 10


def test_a_run_of_two_colours_scores_5() -> None:
    """«اگر سه کارت با اعداد پشتسر هم ... داشته باشید، ۵ امتیاز» (three cards in a row score 5).
    Ruling: a run scores 5 even when its colours are neither all different nor all one."""
    assert score_area(["r2", "r3", "b4"]) == 5
    assert score_area(["r2", "r2", "b4"]) == 0


def test_the_best_three_cards_of_an_area_score_once() -> None:
    """«این ترکیبها در هر ناحیه جداگانه بررسی میشوند» (combinations are checked per area).
    Ruling: only the best three cards of an area score (any three, not only neighbours)."""
    assert score_area(["r2", "b2", "r3", "g3", "r4"]) == 20  # r2 r3 r4, not side by side
    assert score_area(["r1", "b1", "r2", "g3", "r4"]) == 15  # b1 g3 r2 (10 + 5) or r1 r2 r4 (15)
    assert score_area(["r1", "b2"]) == 0


def test_each_blossom_anywhere_in_the_area_adds_3() -> None:
    """«هر کارت شکوفهی گیلاس ۳ امتیاز اضافه دارد» (each blossom card adds 3). Ruling: the
    blossom counts wherever it lies in the area, even outside the best three, and even in an
    area of fewer than three cards."""
    assert score_area(["r1*", "b3", "b3", "b3"]) == 15 + 3
    assert score_area(["y5*"]) == 3


def test_more_than_one_blossom_zeroes_the_area() -> None:
    """«اگر در یک ناحیه بیش از یک کارت شکوفه باشد، کل امتیاز آن ناحیه صفر میشود» (more than one
    blossom in an area and the whole area scores zero)."""
    assert score_area(["r1*", "r2", "r3", "r4", "r5*"]) == 0
    assert score_area(["r1*", "b5*"]) == 0


def test_the_round_is_scored_per_area_and_added_up() -> None:
    """«در پایان هر دور، امتیازها محاسبه ... میشوند» (at the end of each round the points are
    counted): the sum of the three areas, recorded per round."""
    areas = ([["b1", "g2", "r3"], ["y2", "y2", "y4"], ["y5*"]], [["r1*", "r5*"], [], ["g4"]])
    state = situation(([], ["g5"]), areas, turn=1, round=3, scores=([1, 2], [3, 4]))
    events = do(state, 1, "place g5 temple")
    scored = events[1]
    assert {k: scored[k] for k in ("round", "areas", "totals")} == {
        "round": 3,
        "areas": [[15, 15, 3], [0, 0, 0]],
        "totals": [36, 7],
    }
    # The event keeps the areas as they were scored and how: the areas are cleared right after.
    assert scored["cards"][0] == [["b1", "g2", "r3"], ["y2", "y2", "y4"], ["y5*"]]
    assert scored["detail"][0][0] == {
        "best": ["b1", "g2", "r3"],
        "combination": "colours",
        "run": True,
        "blossoms": 0,
        "points": 15,
    }
    assert scored["detail"][0][1]["combination"] == "one_colour" and not scored["detail"][0][1]["run"]
    assert scored["detail"][0][2] == {
        "best": [],
        "combination": "none",
        "run": False,
        "blossoms": 1,
        "points": 3,
    }
    assert scored["detail"][1][0] == {
        "best": [],
        "combination": "none",
        "run": False,
        "blossoms": 2,
        "points": 0,
    }


# ---------------------------------------------------------------------------- the end


def test_after_three_rounds_the_higher_total_wins() -> None:
    """«بعد از سه دور، امتیاز کل هر بازیکن جمع میشود. بازیکنی که بیشترین امتیاز را داشته باشد
    برنده است» (after three rounds the totals are added; the highest wins)."""
    state = situation(([], ["g5"]), turn=1, round=3, scores=([10, 10], [10, 9]))
    events = do(state, 1, "place g5 temple")
    assert events[-1] == {
        "type": "game_ended",
        "winners": [0],
        "scores": [20, 19],
        "reason": "higher total after three rounds",
    }
    assert state.is_terminal() and state.current_players() == ()
    outcome = state.outcome()
    assert outcome is not None and outcome.returns() == (1.0, 0.0)


def test_equal_totals_are_a_draw() -> None:
    """Ruling: equal totals are a draw; both players share it (half a win each)."""
    state = situation(([], ["g5"]), turn=1, round=3, scores=([10, 10], [10, 10]))
    do(state, 1, "place g5 temple")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 1) and outcome.returns() == (0.5, 0.5)


def test_a_give_action_reads_back() -> None:
    for action in (Place("r1*", "temple"), Discard("y3"), Give("b5*")):
        assert GAME.parse_action(str(action)) == action
