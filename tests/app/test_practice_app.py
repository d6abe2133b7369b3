"""AppTest: predict, then reveal. The question is on the page, its answer only after "Check my answer",
and what the learner got right is kept in the session and the link (issue 30).

References: the answers are `cfrviz.teaching.practice`'s (tested against hand computations in
tests/unit/teaching/test_practice.py); the walkthrough's default is page_results.walkthrough_first_visit().
"""
from __future__ import annotations


from cfrviz.app import page_results
from cfrviz.teaching import practice
from tests.support.apptest import open_page, screen_text

WHY_RM = "(negative counts as 0)"   # words of the revealed answer only


def test_regret_matchings_answer_appears_only_after_the_learner_commits() -> None:
    at = open_page("pages/5_Regret_matching.py", {"rm_t": "40", "rm_iters": "200"})
    assert any(e.label.startswith("✎ Practice") for e in at.expander)
    before = screen_text(at)
    assert "Which action will" in before and WHY_RM not in before and not at.success
    (radio,) = [r for r in at.radio if r.key == "practice_given_rm"]
    radio.set_value(radio.options[0])
    at.button(key="FormSubmitter:practice_form_rm-Check my answer").click().run()
    after = screen_text(at)
    assert WHY_RM in after or "every action equally" in after
    shown = [m.value for m in (*at.success, *at.warning)]
    assert any(v.startswith(("**Right", "**Not quite")) for v in shown), shown
    if any(v.startswith("**Right") for v in shown):
        assert at.query_params["practice"] == "rm"


def test_the_walkthrough_question_takes_the_right_number_and_keeps_the_progress() -> None:
    trace = page_results.walkthrough_trace(page_results.walkthrough_first_visit())
    made = practice.walkthrough_regret(trace, 0)
    assert made is not None
    question, answer = made
    assert answer.number is not None
    at = open_page("pages/6_Walkthrough.py", {"practice": "rm"})
    # The prompt is drawn escaped (its parentheses): its history and action name are in the page.
    history = question.prompt.split("history ")[1].split(" ")[0]
    assert any(f"back up to history {history}" in m.value and "this node's regret for" in m.value for m in at.markdown)
    assert f"{answer.number:.3f}" not in [t.value for t in at.text_input]
    at.text_input(key="practice_given_walk").input(f"{answer.number:.3f}")
    at.button(key="FormSubmitter:practice_form_walk-Check my answer").click().run()
    assert any(s.value.startswith("**Right") for s in at.success)
    assert at.query_params["practice"] == "rm,walk"        # the link's progress, and this one
    assert any("2 of 6 answered right" in e.label for e in at.expander)


def test_play_hides_the_ev_loss_until_the_learner_predicts_it() -> None:
    # The loss shown after the commit is the page's own (teaching.play's EV loss of that decision).
    at = open_page("pages/8_Play.py")
    at.toggle(key="play_predict").set_value(True).run()
    at.button(key="play_deal").click().run()
    action = next(b for b in at.button if b.label in ("Check", "Bet", "Fold", "Call"))
    action.click().run()
    assert not at.exception
    hand = at.session_state["play_hand"]
    assert hand.decisions       # the default seat is player 1, who acts first in Kuhn poker
    decision = hand.decisions[-1]
    assert not [i for i in at.info if "EV loss of your" in i.value]      # hidden until the learner commits
    at.text_input(key="practice_given_play").input(f"{max(decision.loss, 0.0):.3f}")
    at.button(key="FormSubmitter:practice_form_play-Check my answer").click().run()
    assert any(s.value.startswith("**Right") for s in at.success), [s.value for s in (*at.success, *at.warning)]
    assert [i for i in at.info if "EV loss of your" in i.value]


def test_the_tree_convergence_and_best_response_pages_ask_their_question() -> None:
    for page, words in (("pages/1_Game_tree.py", "without being able to tell them apart"),
                        ("pages/3_Convergence.py", "one of Kuhn's equilibria"),
                        ("pages/7_Best_response.py", "would a change of strategy win you the most")):
        at = open_page(page)
        assert any(words in m.value for m in at.markdown), page
        assert not at.success and not at.warning       # nothing revealed before the commit


def test_the_walkthrough_and_the_tree_say_what_the_solver_just_did() -> None:
    # The line's numbers are tested in tests/unit/teaching/test_narration.py; here: it is drawn, above the timeline.
    for page, words in (("pages/6_Walkthrough.py", "Chance at deal samples QK"),
                        ("pages/1_Game_tree.py", "At iteration 1,000, set")):
        at = open_page(page)
        assert any(words in m.value for m in at.markdown), (page, [m.value[:80] for m in at.markdown])
