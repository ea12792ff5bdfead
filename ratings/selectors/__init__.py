"""Reads shared by the pages, the JSON API and the commands: keyword-only functions on QuerySet methods.

Everything numeric comes from stored rows (``Player.dwz``/``index``, ``Evaluation``) or from the engine
(``ratings.dwz``); selectors only select, annotate and arrange, each with a fixed number of queries
independent of the number of rows (see the query-count tests). Modules: ``lists`` (rating lists),
``players`` (the card), ``tournaments`` and ``tournament_view`` (lists and the tournament page), ``clubs``
(clubs and federations), ``search``, ``statistics``, ``dsb_list`` (the DSB list and Swiss-Chess files),
``officer_results`` (the officer's results entry) and ``officer`` (the other officer pages).
"""
