"""Werewolf Arena dashboard: `arena dashboard` (`streamlit run dashboard/app.py -- ...`).

The entry page sets up the sidebar (language) and the navigation; each page is a script
in `dashboard/screens/` (not `pages/`: Streamlit runs a `pages/` folder's scripts
without the entry file, which would skip the navigation and settings set up here).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[1]
if importlib.util.find_spec("arena") is None:  # a source checkout run without installing
    sys.path.insert(0, str(_ROOT))
if importlib.util.find_spec("arena.dashboard") is None:  # ditto: no wheel maps dashboard/
    import arena

    arena.__path__.append(str(_ROOT))  # arena.dashboard → dashboard/, arena.prompts → prompts/

import streamlit as st  # noqa: E402

from arena.dashboard.i18n import LANG_NAMES, LANGS, parse_lang, t, text  # noqa: E402
from arena.dashboard.session import language  # noqa: E402

# Keyboard-shortcut hints (the player's Space, Left, Right, …) are hidden on a phone or any
# touch screen, where there is no keyboard to press them on. (A comment, not a docstring:
# Streamlit's magic would draw a bare string on every page.)
PHONE_STYLE = """<style>
@media (max-width: 640px), (pointer: coarse) {
  button kbd[aria-label^="Shortcut"] { display: none; }
}
</style>"""


def main() -> None:
    """Configure the page, the language switch and the navigation, then run the page.

    Every page answers at the path its sidebar name suggests (`/replays`, `/player`, …).
    Streamlit serves its default page at `/` only, so the default is a hidden page that
    switches to `/replays`, which then answers at both addresses.
    """
    st.set_page_config(page_title="Werewolf Arena", page_icon="🐺", layout="wide")
    st.html(PHONE_STYLE)
    if "lang" not in st.session_state:
        st.session_state["lang"] = parse_lang(st.query_params.get("lang"))
    st.sidebar.radio(
        "Language · 语言 · 語言",
        LANGS,
        key="lang",
        format_func=lambda code: LANG_NAMES[code],
    )
    st.query_params["lang"] = st.session_state["lang"]
    lang = language()
    replays = st.Page("screens/replays.py", title=t("replays", lang), icon="📚", url_path="replays")

    def home() -> None:  # the bare address opens the list, at the path its name suggests
        st.switch_page(replays, query_params={"lang": lang})

    pages = [
        st.Page(home, title=t("replays", lang), url_path="home", default=True, visibility="hidden"),
        replays,
        st.Page("screens/player.py", title=t("player", lang), icon="🎬", url_path="player"),
        st.Page(
            "screens/leaderboard.py",
            title=t("leaderboard", lang),
            icon="🏆",
            url_path="leaderboard",
        ),
        st.Page("screens/exam.py", title=t("exams", lang), icon="📝", url_path="exams"),
        st.Page("screens/live.py", title=t("live", lang), icon="📡", url_path="live"),
        st.Page("screens/play.py", title=text("play.title", lang), icon="🎲", url_path="play"),
    ]
    st.navigation(pages).run()


main()
