"""The league's data (season, division, team, ranking list, match, board) lands here with issue 29."""
