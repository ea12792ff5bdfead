"""The league's writers (issue 29): match reports and their approval, the division's DWZ tournament, ranking
list snapshots, the import, the roles' invitations. Keyword-only, atomic; every rating write goes through
``ratings.services`` (tournaments, drafts), which take the rating lock."""
