"""The dashboard's pages: Streamlit scripts run by path from `app.py`'s navigation.

A package only so the wheel ships them; importing one would draw the page.
"""
