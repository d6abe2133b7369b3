"""Page-level settings in links: pure parsing (never raises, fuzzed) and their round trip.

Reference: issue 13 ("every page-level setting survives a page switch and is in the share link");
the inverse property: what `page_params_of` writes, `parse_page_settings` reads back unchanged.
"""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from cfrviz.app.links import page_params_of, page_setting, parse_page_settings
from cfrviz.app.registry import PAGE_SETTINGS, PAGES, Page, page_entry

OWNING = [entry.page for entry in PAGES if entry.settings]


def test_each_kind_reads_its_values_and_refuses_others_with_a_sentence():
    values, notices = parse_page_settings({
        "cmp_algos": "CFR+, cfr", "rm_mode": "fixed", "rm_iters": "250", "walk_deal": "QK", "play_seat": "p2",
        "unrelated": "x"})
    # Many-valued settings come back in the options' order, whatever the link's order.
    assert values == {"cmp_algos": ("cfr", "cfr+"), "rm_mode": "fixed", "rm_iters": 250, "walk_deal": "QK",
                      "play_seat": "p2"}
    assert notices == ()
    values, notices = parse_page_settings({"cmp_algos": "cfr,chess", "rm_iters": "0", "rm_seed": "³",
                                           "br_player": "3", "walk_game": "<b>x</b>", "walk_t": "1e3"})
    assert values == {}
    assert len(notices) == 6 and all(n.endswith(".") and "\n" not in n for n in notices)
    assert any("rm_iters" not in n and "from 1 to 100,000" in n for n in notices)


def test_only_non_default_values_of_the_page_go_into_its_link():
    kept = {"cmp_algos": ("cfr",), "cmp_iters": 1000, "rm_mode": "fixed"}
    assert page_params_of(Page.COMPARE, kept) == {"cmp_algos": "cfr"}
    assert page_params_of(Page.REGRET_MATCHING, kept) == {"rm_mode": "fixed"}
    assert page_params_of(Page.PLAY, kept) == {}
    # A value no setting takes is never written.
    assert page_params_of(Page.COMPARE, {"cmp_iters": -5}) == {}


def _value(setting):
    if setting.many:
        return st.lists(st.sampled_from(setting.options), min_size=1, unique=True).map(
            lambda chosen: tuple(o for o in setting.options if o in chosen))
    if setting.options:
        return st.sampled_from(setting.options)
    if setting.token:
        return st.text(alphabet="abcQKJ019:_.+-", min_size=1, max_size=20)
    return st.integers(setting.low, setting.high)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_written_links_read_back_unchanged(data):
    page = data.draw(st.sampled_from(OWNING))
    values = {s.name: data.draw(_value(s)) for s in page_entry(page).settings}
    link = page_params_of(page, values)
    parsed, notices = parse_page_settings(link)
    assert notices == ()
    assert parsed == {name: value for name, value in values.items() if value != page_setting(name).default}


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from([s.name for s in PAGE_SETTINGS] + ["game", "x"]),
                       st.one_of(st.text(max_size=300), st.lists(st.text(max_size=30), max_size=3),
                                 st.integers(), st.none())))
def test_parsing_never_raises_and_keeps_only_valid_values(params):
    values, notices = parse_page_settings(params)
    for name, value in values.items():
        assert page_setting(name).accepts(value)
    assert all(isinstance(n, str) and len(n) < 400 for n in notices)
