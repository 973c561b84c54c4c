"""play: the generic play layer over the game API: bots by strength (``bots``), the match runner
(``match``), where a game starts from (``start``: a game name, an ID, a state or a log) and the
play session between people and bots (``session``) that the terminal and the web pages drive."""
