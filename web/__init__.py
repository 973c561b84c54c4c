"""`tanglekit serve`: a local web app to play any challenge, puzzle or game with the mouse and to
check a deal or position entered by clicking (standard-library HTTP server, static pages)."""
