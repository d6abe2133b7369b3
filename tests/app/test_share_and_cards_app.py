"""AppTest: the Share box equals the address bar after a change, the edge widths ride in the link,
the Game tree offers GraphML, rules cards, one-round Kuhn parts, Evolution's bar order.

References: issue 21 ("every page's share box must equal the address bar after any change"; the
smaller defects list); the query a link carries is `st.query_params`, the address bar's query.
"""
from __future__ import annotations

import io
from urllib.parse import parse_qsl, urlsplit

import networkx as nx
import pytest
from streamlit.testing.v1 import AppTest

import cfrviz
from cfrviz.figures.evolution import grouped_rows
from cfrviz.figures.timeline import build_payload, graphml_bytes
from tests.support.apptest import mounted, open_link



def address_bar(at: AppTest) -> dict[str, str]:
    return {k: (v[-1] if isinstance(v, list) else v) for k, v in at.query_params.items()}


def share_box(at: AppTest) -> dict[str, str]:
    (box,) = at.sidebar.code
    return dict(parse_qsl(urlsplit(box.value.strip()).query))


def test_compares_share_box_follows_the_address_bar_after_removing_an_algorithm() -> None:
    at = open_link({"game": "kuhn", "iters": "50"})
    at.switch_page("pages/4_Compare.py").run()
    at.multiselect(key="cmp_algos").set_value(["cfr", "cfr+"])
    at.number_input(key="cmp_iters").set_value(30)
    at.number_input(key="cmp_sampling_iters").set_value(30).run()
    assert not at.exception
    assert share_box(at) == address_bar(at) and address_bar(at)["cmp_algos"] == "cfr,cfr+"
    at.multiselect(key="cmp_algos").set_value(["cfr"]).run()     # remove CFR+
    assert not at.exception
    assert address_bar(at)["cmp_algos"] == "cfr"
    assert share_box(at) == address_bar(at)


def test_the_trees_edge_width_choice_is_in_the_link_and_a_link_brings_it_back() -> None:
    at = open_link({"game": "kuhn", "iters": "50"})
    at.switch_page("pages/1_Game_tree.py").run()
    assert "edges" not in address_bar(at)           # the default (average) is left out
    at.session_state["tree_edges"] = "current"      # as the component's callback reports it
    at.run()
    assert address_bar(at)["edges"] == "current" and share_box(at) == address_bar(at)
    fresh = open_link({"game": "kuhn", "iters": "50", "edges": "current"})
    fresh.switch_page("pages/1_Game_tree.py").run()
    assert not fresh.exception and mounted(fresh)[0]["kind"] == "current"


def test_game_tree_offers_graphml_of_the_drawn_tree() -> None:
    at = open_link({"game": "kuhn", "iters": "50"})
    at.switch_page("pages/1_Game_tree.py").run()
    assert any(b.proto.label == "Download GraphML" for b in at.get("download_button"))
    # Reference, by hand: Kuhn's tree is the dealing root and 6 deals of 9 histories each
    # (player 1 acts; k: player 2 acts, kk ends, kb: player 1 acts, kbf and kbc end; b: player 2 acts,
    # bf and bc end), so 55 histories and 54 tree edges.
    graph = nx.read_graphml(io.BytesIO(graphml_bytes(cfrviz.solve("kuhn", iterations=1).tree)))
    assert graph.number_of_nodes() == 55


@pytest.mark.parametrize("page", ["pages/1_Game_tree.py", "pages/2_Evolution.py", "pages/7_Best_response.py"])
def test_rules_card_on_the_page(page: str) -> None:
    at = open_link({"game": "kuhn", "iters": "50"})
    at.switch_page(page).run()
    assert not at.exception
    assert any(e.label.startswith("Rules of Kuhn") for e in at.expander)


def test_big_kuhn_part_is_not_called_round_one() -> None:
    # Reference: Kuhn poker has one betting round (Kuhn 1950), whatever the deck.
    at = open_link({"game": "kuhn13", "iters": "20"})
    at.switch_page("pages/1_Game_tree.py").run()
    assert not at.exception
    shown = [c.value for c in at.caption if "too big to draw whole" in c.value]
    assert shown and "holds" in shown[0] and "round 1" not in shown[0]


def test_evolution_bars_are_in_the_heat_maps_row_order() -> None:
    # Reference: the heat map lists rows in `grouped_rows` order; the bars follow the payload's order.
    run = cfrviz.solve("kuhn", iterations=20)
    payload = build_payload(run.tree, run)
    assert [payload["sets"][k]["index"] for k in payload["order"]] == grouped_rows(run)
    assert sorted(payload["order"]) == list(range(len(payload["sets"])))
