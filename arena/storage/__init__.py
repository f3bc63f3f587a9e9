"""Where games are kept: replay files and event stores."""
