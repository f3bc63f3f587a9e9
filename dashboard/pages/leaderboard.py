"""Leaderboard page (filled in from arena.ratings)."""

import streamlit as st

st.title("Leaderboard")
