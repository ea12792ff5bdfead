"""The league's public pages (``/ligen/``): seasons, divisions, teams, and the board record panel of the
player's card in ``ratings``."""
