"""Practice: predict, then reveal. A page's question (`cfrviz.teaching.practice`) in a small form.

The page draws only the question: the answer stays on the server until the learner presses "Check".
What the learner got right is kept in the session and in the link (`practice`, on every page).
"""
from __future__ import annotations

from collections.abc import Callable, Hashable

import streamlit as st

from cfrviz.app.settings import page_value, set_page_value
from cfrviz.teaching.practice import Answer, Feedback, Practice, Question, reveal
from cfrviz.util.text import escape_markdown

#: Session key: {practice: (context, feedback)} of the questions answered, so a rerun shows the reveal again.
FEEDBACK_KEY = "practice_feedback"
#: Session key: {practice: (context, answer)} of the questions on screen, kept on the server only.
ANSWERS_KEY = "practice_answers"


def done() -> tuple[str, ...]:
    """The practice questions answered right in this session (or brought by the link)."""
    return tuple(page_value("practice"))


def answered(practice: Practice, context: Hashable) -> bool:
    """Whether the learner has committed to an answer of `practice`'s question about `context`."""
    kept = st.session_state.get(FEEDBACK_KEY, {}).get(practice)
    return kept is not None and kept[0] == context


def ask(practice: Practice, make: Callable[[], tuple[Question, Answer] | None], context: Hashable, *,
        expanded: bool = False) -> None:
    """Draw `practice`'s question, made by `make` from the run on screen (`context` names that run and
    step: a new context is a new question). Nothing is drawn when `make` has no question here."""
    made = make()
    if made is None:
        return
    question, answer = made
    answers = st.session_state.setdefault(ANSWERS_KEY, {})
    answers[practice] = (context, answer)
    kept = st.session_state.get(FEEDBACK_KEY, {}).get(practice)
    feedback: Feedback | None = kept[1] if kept is not None and kept[0] == context else None
    progress = f" · {len(done())} of {len(Practice)} answered right" if done() else ""
    with st.expander(f"✎ Practice: predict, then reveal{progress}", expanded=expanded or feedback is not None):
        st.markdown(escape_markdown(question.prompt))
        with st.form(key=f"practice_form_{practice}", border=False):
            if question.options and question.many:
                given: object = st.multiselect("Your answer", question.options, key=f"practice_given_{practice}")
            elif question.options:
                given = st.radio("Your answer", question.options, index=None, key=f"practice_given_{practice}")
            else:
                given = st.text_input("Your answer (a number)", key=f"practice_given_{practice}", max_chars=24)
            st.form_submit_button("Check my answer", on_click=_check, args=(practice, context))
        del given   # read back in the callback, from the session
        if feedback is not None:
            text = f"**{'Right' if feedback.correct else 'Not quite'}: {escape_markdown(feedback.answer)}.** " \
                   + escape_markdown(feedback.why)
            (st.success if feedback.correct else st.warning)(text)


def _check(practice: Practice, context: Hashable) -> None:
    """Reveal the answer of the question the learner just committed to, and keep the progress."""
    kept = st.session_state.get(ANSWERS_KEY, {}).get(practice)
    if kept is None or kept[0] != context:
        return
    given = st.session_state.get(f"practice_given_{practice}")
    if given is None or given == "" or given == []:
        return
    feedback = reveal(kept[1], given)
    st.session_state.setdefault(FEEDBACK_KEY, {})[practice] = (context, feedback)
    if feedback.correct and practice not in done():
        set_page_value("practice", tuple(p.value for p in Practice if p in done() or p == practice))
