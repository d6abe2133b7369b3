"""Presentation mode's link parameters (`present`, `lecture`, `slide`), parsed by `cfrviz.app.links`.

Reference: the link format written by hand here (a lecture is its views' page paths and queries,
separated by spaces; `slide` counts from 1), and the house rule that a bad value is one sentence and
never a traceback.
"""
from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

import pytest

from cfrviz.app.links import (MAX_LECTURE_CHARS, MAX_LECTURE_VIEWS, Presentation, lecture_view, parse_lecture,
                              parse_presentation)
from cfrviz.app.present import lecture_link


def test_present_on_and_off() -> None:
    assert parse_presentation({"present": "1"}) == (Presentation(True), ())
    assert parse_presentation({"present": ["0", "1"]})[0].present          # the last value counts, as for every parameter
    assert parse_presentation({}) == (Presentation(), ())
    assert parse_presentation({"present": "0"}) == (Presentation(), ())


@pytest.mark.parametrize("bad", ["2", "maybe", "1" * 500, "\x00", "‮1"])
def test_a_bad_present_is_one_sentence_and_the_normal_view(bad: str) -> None:
    presentation, notices = parse_presentation({"present": bad})
    assert presentation == Presentation()
    assert len(notices) == 1 and notices[0].endswith("showing the normal view.")


def test_a_lecture_keeps_its_views_in_order_without_their_presentation_parameters() -> None:
    text = ("http://class.example.org/Game_tree?game=kuhn&t=5&present=1&slide=3\n"
            "  /Convergence?game=leduc  https://x.example/app/?algo=cfr%2B#top\n/Walkthrough")
    views, notices = parse_lecture(text)
    assert views == ("Game_tree?game=kuhn&t=5", "Convergence?game=leduc", "?algo=cfr%2B", "Walkthrough")
    assert notices == ()


@pytest.mark.parametrize("link", ["javascript:alert(1)", "ftp://x/Game_tree", "/No_such_page?t=1", "Game tree"])
def test_a_link_that_is_not_a_page_of_the_app_is_left_out_with_one_sentence(link: str) -> None:
    views, notices = parse_lecture(f"/Game_tree?t=1 {link}")
    assert views[0] == "Game_tree?t=1"
    assert len(notices) >= 1 and all(n.endswith("left out of the lecture.") for n in notices)
    with pytest.raises(ValueError):
        lecture_view(link)


def test_too_long_a_lecture_is_refused_whole_and_too_many_views_are_cut() -> None:
    views, notices = parse_lecture("/Game_tree " * (MAX_LECTURE_CHARS // 10))
    assert views == () and len(notices) == 1
    views, notices = parse_lecture("/Game_tree?t=1 " * (MAX_LECTURE_VIEWS + 5))
    assert len(views) == MAX_LECTURE_VIEWS and len(notices) == 1


def test_the_slide_is_checked_against_the_lecture() -> None:
    lecture = "/Game_tree?t=1 /Convergence /Walkthrough"
    assert parse_presentation({"present": "1", "lecture": lecture, "slide": "3"})[0].slide == 2
    for bad in ("0", "4", "two", "-1"):
        presentation, notices = parse_presentation({"present": "1", "lecture": lecture, "slide": bad})
        assert presentation.slide == 0 and len(notices) == 1, bad
    # Without present=1 a lecture is not kept (the link shows the normal view).
    assert parse_presentation({"lecture": lecture}) == (Presentation(), ())


def test_the_parameters_round_trip_and_a_lecture_link_steps_to_its_view() -> None:
    presentation = Presentation(True, ("Game_tree?game=kuhn&t=5", "Convergence"), 1)
    query = urlencode(presentation.params())
    assert parse_presentation(dict(parse_qsl(query))) == (presentation, ())
    # The link to view 1 (from 0): its own page and query, then presentation mode at slide 1.
    first = lecture_link(presentation, 0)
    path, _, rest = first.partition("?")
    params = dict(parse_qsl(rest))
    assert path == "Game_tree" and params["game"] == "kuhn" and params["t"] == "5"
    assert parse_presentation(params) == (Presentation(True, presentation.lecture, 0), ())
    assert lecture_link(presentation, 1).startswith("Convergence?present=1&")


def test_parse_presentation_never_raises_on_hostile_values() -> None:
    class Hostile:
        def __str__(self) -> str:
            raise RuntimeError("no")

    # An unreadable value reads as empty: the normal view, and no traceback.
    presentation, notices = parse_presentation({"present": Hostile(), "lecture": Hostile(), "slide": Hostile()})
    assert presentation == Presentation() and all(isinstance(n, str) for n in notices)
