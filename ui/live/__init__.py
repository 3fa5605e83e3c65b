"""Live class: a teacher runs a session, students answer from their phones, the projector shows the class.

Modules, one job each:

* :mod:`ui.live.schema` - tables, versioned migrations, engine set-up (SQLite WAL or PostgreSQL).
* :mod:`ui.live.store` - every read and write, each write one transaction (pure SQLAlchemy, no Streamlit).
* :mod:`ui.live.model` - the records (session, student, activity, answer) and refusals.
* :mod:`ui.live.security` - join codes, teacher secrets, student tokens, hashing, join rate limit.
* :mod:`ui.live.activities` - activity specs from the quiz generator, scoring, misconceptions, worked answers.
* :mod:`ui.live.connection` - ``st.connection("live", type="sql")``, the URL parameters' names and links.
* :mod:`ui.live.state` - the page's one typed session state (:class:`~ui.live.state.LiveState`); the URL is
  read and written through ``ui.url_state`` only.
* :mod:`ui.live.entry` (router), :mod:`ui.live.teacher_view`, :mod:`ui.live.student_view`, :mod:`ui.live.widgets` - the
  Streamlit views.
"""
